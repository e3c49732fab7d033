// src/ufunc/registry.cpp — the table of ufuncs, filled once by the defs_*.cpp files.
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <utility>

#include "cunp/error.hpp"
#include "ufunc/registry.hpp"

namespace cunp::ufunc {
namespace {

struct Table {
  std::vector<std::unique_ptr<Ufunc>> ufuncs;
  std::map<std::string, const Ufunc*, std::less<>> by_name;
};

Table& building() {
  static Table* t = new Table();  // Note: never destroyed; ufunc references outlive statics
  return *t;
}

const Table& table() {
  static const Table& t = [] {
    register_arith();
    register_math();
    register_compare();
    register_bits();
    register_select();
    register_special_gamma();
    register_special_bessel();
    return std::ref(building());
  }();
  return t;
}

}  // namespace

std::string Loop::signature(int nin, int nout) const {
  std::string s;
  for (int k = 0; k < nin; ++k) s += type_char(in[static_cast<std::size_t>(k)]);
  s += "->";
  for (int k = 0; k < nout; ++k) s += type_char(out[static_cast<std::size_t>(k)]);
  return s;
}

Builder define(std::string name, int nin, int nout, std::string functor, std::string header,
               Identity identity, Resolution resolution) {
  auto u = std::make_unique<Ufunc>();
  u->name = std::move(name);
  u->nin = nin;
  u->nout = nout;
  u->functor = std::move(functor);
  u->header = std::move(header);
  u->identity = identity;
  u->resolution = resolution;
  static const std::pair<std::string_view, Role> kRoles[] = {
      {"equal", Role::Equal}, {"not_equal", Role::NotEqual}, {"less", Role::Less},
      {"less_equal", Role::LessEqual}, {"greater", Role::Greater}, {"greater_equal", Role::GreaterEqual},
      {"power", Role::Power}, {"logical_and", Role::Logical}, {"logical_or", Role::Logical},
      {"logical_xor", Role::Logical}, {"logical_not", Role::Logical}};
  for (const auto& [n, r] : kRoles) {
    if (u->name == n) u->role = r;
  }
  static const std::string_view kQuiet[] = {
      "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
      "logical_xor", "logical_not", "isnan", "isinf", "isfinite", "signbit", "maximum", "minimum", "fmax",
      "fmin", "_where", "clip", "copysign", "sign", "heaviside", "nextafter", "spacing"};
  for (std::string_view n : kQuiet) {
    if (u->name == n) u->reports_fp_errors = false;
  }
  Ufunc* raw = u.get();
  Table& t = building();
  t.by_name[raw->name] = raw;
  t.ufuncs.push_back(std::move(u));
  return Builder(raw);
}

void alias(const std::string& alias_name, const std::string& name) {
  Table& t = building();
  t.by_name[alias_name] = t.by_name.at(name);
}

const Ufunc* find(std::string_view name) noexcept {
  const Table& t = table();
  auto it = t.by_name.find(name);
  return it == t.by_name.end() ? nullptr : it->second;
}

const Ufunc& get(std::string_view name) {
  if (const Ufunc* u = find(name)) return *u;
  throw ValueError("no ufunc named '" + std::string(name) + "'");
}

std::vector<const Ufunc*> all() {
  std::vector<const Ufunc*> out;
  for (const auto& u : table().ufuncs) out.push_back(u.get());
  return out;
}

}  // namespace cunp::ufunc

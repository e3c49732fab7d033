// src/fft/plan_key.cpp — hashing and printing of plan keys.
#include "fft/plan_key.hpp"

#include <sstream>

namespace cunp::fft::detail {

namespace {

void mix(std::size_t& h, std::uint64_t v) noexcept {
  h ^= std::hash<std::uint64_t>{}(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
}

void mix_layout(std::size_t& h, const Layout& l) noexcept {
  mix(h, static_cast<std::uint64_t>(l.stride));
  mix(h, static_cast<std::uint64_t>(l.dist));
  for (std::int64_t e : l.embed) mix(h, static_cast<std::uint64_t>(e));
}

void print_layout(std::ostringstream& os, const Layout& l) {
  os << "(stride=" << l.stride << ", dist=" << l.dist;
  if (l.embed.size() > 1) {
    os << ", embed=";
    for (std::size_t i = 1; i < l.embed.size(); ++i) os << (i > 1 ? "x" : "") << l.embed[i];
  }
  os << ")";
}

}  // namespace

std::size_t PlanKey::hash() const noexcept {
  std::size_t h = 0;
  mix(h, static_cast<std::uint64_t>(kind));
  mix(h, (double_precision ? 2u : 0u) | (forward ? 1u : 0u) | (in_place ? 4u : 0u));
  for (std::int64_t v : n) mix(h, static_cast<std::uint64_t>(v));
  mix(h, static_cast<std::uint64_t>(batch));
  mix_layout(h, in);
  mix_layout(h, out);
  mix(h, static_cast<std::uint64_t>(in_alignment) << 32 | static_cast<std::uint32_t>(out_alignment));
  return h;
}

std::string PlanKey::str() const {
  static const char* kinds[] = {"C2C", "R2C", "C2R"};
  std::ostringstream os;
  os << kinds[static_cast<int>(kind)] << (double_precision ? " f64 " : " f32 ") << (forward ? "fwd" : "inv")
     << " n=(";
  for (std::size_t i = 0; i < n.size(); ++i) os << (i ? ", " : "") << n[i];
  os << ") batch=" << batch << " in=";
  print_layout(os, in);
  os << " out=";
  print_layout(os, out);
  if (in_place) os << " in-place";
  return os.str();
}

}  // namespace cunp::fft::detail

// src/fft/plan_key.cpp — hashing and printing of plan keys.
#include "fft/plan_key.hpp"

#include <string>

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

void print_layout(std::string& s, const Layout& l) {
  s += "(stride=" + std::to_string(l.stride) + ", dist=" + std::to_string(l.dist);
  if (l.embed.size() > 1) {
    s += ", embed=";
    for (std::size_t i = 1; i < l.embed.size(); ++i) {
      if (i > 1) s += 'x';
      s += std::to_string(l.embed[i]);
    }
  }
  s += ')';
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

// Plain concatenation, no std::ostringstream: see Note [show_config without iostreams]
// in src/runtime/config.cpp (numeric stream insertion crashed in the Python process on the
// H200 machine; show_info() of a cuFFT plan cache hit it).
std::string PlanKey::str() const {
  static const char* kinds[] = {"C2C", "R2C", "C2R"};
  std::string s = kinds[static_cast<int>(kind)];
  s += double_precision ? " f64 " : " f32 ";
  s += forward ? "fwd" : "inv";
  s += " n=(";
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(n[i]);
  }
  s += ") batch=" + std::to_string(batch) + " in=";
  print_layout(s, in);
  s += " out=";
  print_layout(s, out);
  if (in_place) s += " in-place";
  return s;
}

}  // namespace cunp::fft::detail

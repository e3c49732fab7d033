// src/runtime/env.hpp — reading cunp's environment variables. Those CuPy also has read
// CuPy's name when cunp's is unset, so a CuPy program's environment carries over
// (docs/environment.md).
#pragma once

#include <cstdlib>
#include <string>

namespace cunp {

// CUNP_<name>, or CUPY_<name> when CUNP_<name> is unset; nullptr when neither is set.
// An empty CUNP_<name> counts as set (it overrides the CuPy one).
inline const char* env_or_cupy(const char* name) {
  const std::string suffix(name);
  if (const char* v = std::getenv(("CUNP_" + suffix).c_str()); v != nullptr) return v;
  return std::getenv(("CUPY_" + suffix).c_str());
}

}  // namespace cunp

// src/runtime/kernel_trace.hpp — the CUNP_KERNEL_TRACE lines ("cunp kernel: ..." on stderr)
// and their millisecond timings, shared by the kernel cache and RawModule.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace cunp::cuda {

template <typename... Args>
void kernel_trace(const char* format, Args... args) {
  std::string line = "cunp kernel: ";
  line += format;
  line += '\n';
  std::fprintf(stderr, line.c_str(), args...);
}

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace cunp::cuda

// src/core/error.cpp — messages of the exception hierarchy.
#include "cunp/error.hpp"

#include <cstdio>
#include <string>

namespace cunp {
namespace {

std::string human_bytes(std::size_t n) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(n);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", v, units[u]);
  return buf;
}

}  // namespace

AxisError::AxisError(long long axis, int ndim)
    : ValueError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                 std::to_string(ndim)) {}

CudaError::CudaError(const std::string& call, int code, const std::string& detail)
    : Error(call + " failed: " + detail + " (CUDA error " + std::to_string(code) + ")"),
      call_(call),
      code_(code) {}

OutOfMemoryError::OutOfMemoryError(std::size_t requested, std::size_t pool_total, std::size_t limit,
                                   const std::string& where)
    : Error("Out of memory allocating " + std::to_string(requested) + " bytes (" +
            human_bytes(requested) + ") on " + where + "; the pool holds " +
            std::to_string(pool_total) + " bytes (" + human_bytes(pool_total) + ")" +
            (limit ? ", limit " + std::to_string(limit) + " bytes (" + human_bytes(limit) + ")"
                   : std::string())),
      requested_(requested) {}

CompileError::CompileError(const std::string& kernel_name, const std::string& log,
                           const std::string& source_path)
    : Error("NVRTC failed to compile kernel '" + kernel_name + "'" +
            (source_path.empty() ? std::string() : " (source saved to " + source_path + ")") +
            ":\n" + log),
      log_(log),
      source_path_(source_path) {}

int normalize_axis(long long axis, int ndim) {
  if (axis < -ndim || axis >= ndim) throw AxisError(axis, ndim);
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

}  // namespace cunp

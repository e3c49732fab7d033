// src/runtime/check.hpp — turns a failed CUDA runtime call into a CudaError naming the call.
//
//   CUNP_CUDA_CHECK(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, stream));
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "cunp/error.hpp"

namespace cunp::cuda {

// Throws CudaError for `code` (never returns). Clears the thread's last-error slot so a
// non-sticky failure does not resurface in a later, unrelated check.
[[noreturn]] inline void throw_cuda_error(const char* call, cudaError_t code) {
  (void)cudaGetLastError();
  throw CudaError(call, static_cast<int>(code),
                  std::string(cudaGetErrorName(code)) + ": " + cudaGetErrorString(code));
}

inline void check_cuda(cudaError_t code, const char* call) {
  if (code != cudaSuccess) [[unlikely]]
    throw_cuda_error(call, code);
}

}  // namespace cunp::cuda

// Evaluates a cudaError_t expression once; throws CudaError naming the expression.
#define CUNP_CUDA_CHECK(expr) ::cunp::cuda::check_cuda((expr), #expr)

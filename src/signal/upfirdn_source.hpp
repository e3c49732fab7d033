// src/signal/upfirdn_source.hpp — the CUDA upfirdn kernel: its source, cache key and the
// dtypes it is generated for. upfirdn_cuda.cpp launches it; builtin_kernels.cpp lists
// it for the NVRTC compile test.
#pragma once

#include <string>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cunp/dtype.hpp"

namespace cunp::signal {

// One kernel per computation dtype (float32, float64, complex64, complex128): one
// thread per output sample, a grid-stride loop over rows x outputs, each sample from
// ops::upfirdn_sample (Note [Polyphase upfirdn], src/ops/upfirdn.h).
std::vector<DType> upfirdn_kernel_dtypes();
std::string upfirdn_kernel_name(DType dtype);
cuda::KernelSource upfirdn_kernel_source(DType dtype);
cuda::KernelKey upfirdn_kernel_key(DType dtype, int arch) noexcept;

}  // namespace cunp::signal

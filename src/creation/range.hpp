// src/creation/range.hpp — arange on a CUDA device (the current one, current stream).
#pragma once

#include <cstdint>

#include "runtime/kernel_cache.hpp"
#include "cunp/dtype.hpp"
#include "ops/range.h"

namespace cunp::cuda {

// dst[i] = ops::arange_element<dtype>(params, mode, i) for i < n; dst is contiguous.
// The arange mode NumPy computes `dtype` in (ops::arange_mode).
int arange_mode(DType dtype) noexcept;
// The generated source of the arange kernel for `dtype` (one per dtype and mode).
KernelSource arange_kernel_source(DType dtype, int mode);

void arange(void* dst, DType dtype, std::int64_t n, const ops::arange_params& params, int mode);

}  // namespace cunp::cuda

// src/reduce/cub_scan.hpp — cub::DeviceScan for the one-line sums of gpu_scan.cpp
// (Note [CUB cumsum]), behind a header free of CUB (compiled in cub_scan.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cunp/dtype.hpp"

namespace cunp::reduce {

// out[k] = in[0] + ... + in[k] for n contiguous elements of `dt` (float32, float64,
// int64, uint64; in == out allowed), enqueued on `stream`. False (nothing done) for
// any other dtype, and always in a build without nvcc (cub_scan_missing.cpp).
bool cub_inclusive_sum(DType dt, const void* in, void* out, std::int64_t n, cudaStream_t stream);

}  // namespace cunp::reduce

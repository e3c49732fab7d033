// src/linalg/int_gemm_source.hpp — the generated GEMM kernel of integer and bool
// matmul on CUDA devices (cuBLAS has no integer GEMM with NumPy's wrapping result
// types). int_gemm_cuda.cpp launches it; builtin_kernels.cpp lists it for the NVRTC test.
#pragma once

#include <string>
#include <vector>

#include "cuda/kernel_cache.hpp"
#include "cunp/dtype.hpp"

namespace cunp::linalg::detail {

// Output tile of one block (rows x columns) and the block size: 16 x 16 threads, each
// computing a 4 x 4 sub-tile (the kernel stages k-slices of 16, int_gemm_source.cpp).
inline constexpr int kIntGemmTileM = 64;
inline constexpr int kIntGemmTileN = 64;
inline constexpr int kIntGemmThreads = 256;

// The dtypes the kernel is generated for: bool, the eight integer types, and float32 and
// float64 for small products (Note [Small float GEMM]).
std::vector<DType> int_gemm_dtypes();
std::string int_gemm_kernel_name(DType dt);
// The templates shared by every entry (no includes beyond src/ops/common.h).
std::string int_gemm_preamble();
std::string int_gemm_kernel_entry(DType dt);
cuda::KernelSource int_gemm_kernel_source(DType dt);
cuda::KernelKey int_gemm_kernel_key(DType dt, int arch) noexcept;

}  // namespace cunp::linalg::detail

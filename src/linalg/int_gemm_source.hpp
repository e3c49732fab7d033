// src/linalg/int_gemm_source.hpp — the generated GEMM kernel of integer and bool
// matmul on CUDA devices (cuBLAS has no integer GEMM with NumPy's wrapping result
// types). int_gemm_cuda.cpp launches it; builtin_kernels.cpp lists it for the NVRTC test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cunp/dtype.hpp"

namespace cunp::linalg::detail {

// The two tilings of the kernel (Note [GEMM tiles] in int_gemm_source.cpp): a block of
// 256 threads computing 64 x 64 outputs (4 x 4 per thread), or 16 x 16 outputs (one
// per thread) for products too small to fill the device with large tiles.
enum class IntGemmTile : std::uint8_t { Large = 0, Small = 1 };

struct IntGemmShape {
  int tile_m, tile_n;      // outputs per block
  int thread_m, thread_n;  // outputs per thread
  int threads;             // per block
};

constexpr IntGemmShape int_gemm_shape(IntGemmTile tile) noexcept {
  return tile == IntGemmTile::Small ? IntGemmShape{16, 16, 1, 1, 256} : IntGemmShape{64, 64, 4, 4, 256};
}

// The dtypes the kernel is generated for: bool, the eight integer types, and float32 and
// float64 for small products (Note [Small float GEMM]).
std::vector<DType> int_gemm_dtypes();
std::string int_gemm_kernel_name(DType dt, IntGemmTile tile);
// The templates shared by every entry (no includes beyond src/ops/common.h).
std::string int_gemm_preamble();
std::string int_gemm_kernel_entry(DType dt, IntGemmTile tile);
cuda::KernelSource int_gemm_kernel_source(DType dt, IntGemmTile tile);
cuda::KernelKey int_gemm_kernel_key(DType dt, int arch, IntGemmTile tile) noexcept;

}  // namespace cunp::linalg::detail

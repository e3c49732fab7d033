// src/linalg/int_gemm_source.cpp — see int_gemm_source.hpp.
#include "linalg/int_gemm_source.hpp"

#include <string_view>

#include "cuda/ops_types.hpp"

namespace cunp::linalg::detail {
namespace {

// Note [Integer GEMM]: NumPy's integer matmul wraps in the result dtype, which is the
// same value modulo 2^bits as accumulating in a wider unsigned integer and truncating
// once at the end; so every type of 4 bytes or less accumulates in u32 and the 8-byte
// types in u64 (no overflow is undefined, unsigned arithmetic wraps). Bool matmul is
// the or of ands, as NumPy defines it, with 0/1 values in u32. Operands are read
// through byte strides (any view: transposed, sliced, broadcast with stride 0), so
// the host never copies them; the result is a fresh C-ordered batch. Each block
// stages a 64 x 16 slice of A and a 16 x 64 slice of B in shared memory (as the
// accumulator type, widened once) and each of its 256 threads computes a 4 x 4 piece
// of the 64 x 64 output tile (the large tiling, Note [GEMM tiles]), its rows and
// columns 16 apart so the shared-memory reads of a warp are broadcasts (A) or
// consecutive (B). Grid x walks column tiles,
// y row tiles and z the batch, each with a grid-stride loop for sizes past the
// grid's limits.
//
// Note [Small float GEMM]: the same kernel, generated for float32 and float64 with an
// accumulator of the element's own type (products summed in k order, contracted to
// fused multiply-adds), computes small real products on CUDA devices
// (kSmallFloatGemmWork in products.cpp): cuBLAS costs the host several microseconds per
// call (a kernel launch of its own and its heuristics), this kernel one launch through
// cunp's launcher (Note [Graph launch]).
//
// Note [GEMM tiles]: each dtype has two entries of the same template. The large one
// (64 x 64 outputs per block, 4 x 4 per thread) reuses every staged element sixteen
// times, which matters once there are enough tiles to fill the device; below one wave
// of 64 x 64 tiles (int_gemm_cuda.cpp) the small one (16 x 16 outputs per block, one
// per thread) spreads the product over sixteen times as many blocks, since a lone
// block's serial k-loop is then the whole kernel. Measured on the H200 (device time
// per kernel, back-to-back launches): float64 64^3 9.6 us with 64 x 64 tiles, 2.8 us
// with 16 x 16; 128^3 18.1 vs 4.7 us; float32 64^3 8.9 vs 2.6 us (docs/linalg.md).
// Both sum each output's products in k order, so they give the same bits.
constexpr std::string_view kTemplates = R"cunp_src(
namespace cunp_igemm {

struct gemm_params {
  long long m, n, k, batch;
  long long a_batch, a_row, a_col;  // byte strides
  long long b_batch, b_row, b_col;
};

template <typename T, typename A, bool BOOL>
__device__ __forceinline__ A load(const char* p) {
  if (BOOL) return *reinterpret_cast<const unsigned char*>(p) != 0 ? A(1) : A(0);
  return (A)(*reinterpret_cast<const T*>(p));
}

// A block computes BM x BN outputs with (BM / TM) x (BN / TN) threads, each a TM x TN
// piece whose rows are BM / TM apart and columns BN / TN apart.
template <typename T, typename A, bool BOOL, int BM, int BN, int TM, int TN>
__device__ __forceinline__ void gemm(const char* __restrict__ a, const char* __restrict__ b,
                                     T* __restrict__ c, const gemm_params& p) {
  constexpr int BK = 16, NX = BN / TN, NY = BM / TM, NT = NX * NY;
  static_assert((BM * BK) % NT == 0 && (BK * BN) % NT == 0, "whole staging rounds");
  __shared__ A as[BK][BM + 1];
  __shared__ A bs[BK][BN + 1];
  const int tid = threadIdx.x, tx = tid % NX, ty = tid / NX;
  const long long mtiles = (p.m + BM - 1) / BM, ntiles = (p.n + BN - 1) / BN;
  for (long long q = blockIdx.z; q < p.batch; q += gridDim.z) {
    const char* pa = a + q * p.a_batch;
    const char* pb = b + q * p.b_batch;
    T* pc = c + q * p.m * p.n;
    for (long long rt = blockIdx.y; rt < mtiles; rt += gridDim.y) {
      for (long long ct = blockIdx.x; ct < ntiles; ct += gridDim.x) {
        const long long r0 = rt * BM, c0 = ct * BN;
        A acc[TM][TN];
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][j] = A(0);
        for (long long k0 = 0; k0 < p.k; k0 += BK) {
#pragma unroll
          for (int r = 0; r < BM * BK / NT; ++r) {
            const int idx = tid + r * NT, kk = idx % BK, rr = idx / BK;
            const long long gr = r0 + rr, gk = k0 + kk;
            as[kk][rr] = (gr < p.m && gk < p.k) ? load<T, A, BOOL>(pa + gr * p.a_row + gk * p.a_col) : A(0);
          }
#pragma unroll
          for (int r = 0; r < BK * BN / NT; ++r) {
            const int idx = tid + r * NT, cc = idx % BN, kk = idx / BN;
            const long long gk = k0 + kk, gc = c0 + cc;
            bs[kk][cc] = (gk < p.k && gc < p.n) ? load<T, A, BOOL>(pb + gk * p.b_row + gc * p.b_col) : A(0);
          }
          __syncthreads();
#pragma unroll
          for (int kk = 0; kk < BK; ++kk) {
            A av[TM], bv[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) av[i] = as[kk][ty + NY * i];
#pragma unroll
            for (int j = 0; j < TN; ++j) bv[j] = bs[kk][tx + NX * j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
              for (int j = 0; j < TN; ++j) {
                if constexpr (BOOL)
                  acc[i][j] |= av[i] & bv[j];
                else
                  acc[i][j] += av[i] * bv[j];
              }
          }
          __syncthreads();
        }
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) {
            const long long gr = r0 + ty + NY * i, gc = c0 + tx + NX * j;
            if (gr < p.m && gc < p.n) pc[gr * p.n + gc] = BOOL ? (T)(acc[i][j] != A(0)) : (T)acc[i][j];
          }
      }
    }
  }
}

}  // namespace cunp_igemm
)cunp_src";

std::string str(std::string_view s) { return std::string(s); }

}  // namespace

std::vector<DType> int_gemm_dtypes() {
  return {DType::Bool,  DType::Int8,   DType::UInt8,  DType::Int16,   DType::UInt16,
          DType::Int32, DType::UInt32, DType::Int64,  DType::UInt64,  DType::Float32,
          DType::Float64};
}

std::string int_gemm_kernel_name(DType dt, IntGemmTile tile) {
  return std::string(tile == IntGemmTile::Small ? "cunp_igemm_small_" : "cunp_igemm_") +
         str(cuda::ops_type_code(dt));
}

std::string int_gemm_preamble() { return "#include \"common.h\"\n" + str(kTemplates); }

std::string int_gemm_kernel_entry(DType dt, IntGemmTile tile) {
  const IntGemmShape sh = int_gemm_shape(tile);
  const std::string t = str(cuda::ops_type_name(dt));
  const std::string acc = is_inexact(dt)       ? t
                          : itemsize(dt) == 8 ? std::string("cunp::ops::u64")
                                              : std::string("cunp::ops::u32");
  const std::string is_bool = dt == DType::Bool ? "true" : "false";
  const std::string shape = std::to_string(sh.tile_m) + ", " + std::to_string(sh.tile_n) + ", " +
                            std::to_string(sh.thread_m) + ", " + std::to_string(sh.thread_n);
  return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(sh.threads) + ") " +
         int_gemm_kernel_name(dt, tile) + "(const char* __restrict__ a, const char* __restrict__ b, " + t +
         "* __restrict__ c, const __grid_constant__ cunp_igemm::gemm_params p) {\n"
         "  cunp_igemm::gemm<" +
         t + ", " + acc + ", " + is_bool + ", " + shape + ">(a, b, c, p);\n}\n";
}

cuda::KernelSource int_gemm_kernel_source(DType dt, IntGemmTile tile) {
  cuda::KernelSource source;
  source.kernel_name = int_gemm_kernel_name(dt, tile);
  source.source = int_gemm_preamble() + int_gemm_kernel_entry(dt, tile);
  return source;
}

cuda::KernelKey int_gemm_kernel_key(DType dt, int arch, IntGemmTile tile) noexcept {
  cuda::KernelKey key;
  key.op = cuda::op_id("cunp.linalg.int_gemm");
  key.variant = static_cast<std::uint64_t>(tile);
  key.dtypes[0] = static_cast<std::uint8_t>(dt);
  key.ndim = 2;
  key.layout = cuda::LayoutClass::Strided;
  key.index_bits = 64;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

}  // namespace cunp::linalg::detail

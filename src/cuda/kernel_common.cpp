// src/cuda/kernel_common.cpp — see kernel_common.hpp.
#include "cuda/kernel_common.hpp"

#include <algorithm>

namespace cunp::cuda {
namespace {

// Note [Strided kernels]: each element's C-order index is split into coordinates by
// the shape and dotted with each operand's byte strides. The parameter block is passed
// by value as a __grid_constant__ (read from the constant bank, never copied); small
// ranks get the division chain unrolled (FIXED), larger ones loop up to the run-time
// ndim. `I` is int or long long, `U` its unsigned twin for the element index.
constexpr std::string_view kHelpers = R"cunp_src(
namespace cunp_k {

template <typename T, int N>
struct alignas(sizeof(T) * N >= 16 ? 16 : sizeof(T) * N) pack {
  T v[N];
};

template <typename I, int N, int NOPS>
struct strided_params {
  I size;
  I ndim;
  I shape[N];
  I stride[NOPS][N];
};

template <typename U>
__device__ __forceinline__ U thread_index() { return blockIdx.x * (U)blockDim.x + threadIdx.x; }
template <typename U>
__device__ __forceinline__ U thread_count() { return gridDim.x * (U)blockDim.x; }

// Byte offsets of C-order element `i` for each operand.
template <bool FIXED, typename I, typename U, int N, int NOPS>
__device__ __forceinline__ void element_offsets(const strided_params<I, N, NOPS>& p, U i, I (&off)[NOPS]) {
#pragma unroll
  for (int k = 0; k < NOPS; ++k) off[k] = 0;
  if constexpr (FIXED) {
#pragma unroll
    for (int d = N - 1; d > 0; --d) {
      const U extent = (U)p.shape[d];
      const U q = i / extent;
      const I c = (I)(i - q * extent);
      i = q;
#pragma unroll
      for (int k = 0; k < NOPS; ++k) off[k] += c * p.stride[k][d];
    }
  } else {
    for (int d = (int)p.ndim - 1; d > 0; --d) {
      const U extent = (U)p.shape[d];
      const U q = i / extent;
      const I c = (I)(i - q * extent);
      i = q;
#pragma unroll
      for (int k = 0; k < NOPS; ++k) off[k] += c * p.stride[k][d];
    }
  }
#pragma unroll
  for (int k = 0; k < NOPS; ++k) off[k] += (I)i * p.stride[k][0];
}

}  // namespace cunp_k
)cunp_src";

}  // namespace

int strided_ndim_bucket(int ndim) noexcept {
  if (ndim <= 4) return std::max(ndim, 1);
  int bucket = 8;
  while (bucket < ndim) bucket *= 2;
  return std::min(bucket, kMaxStridedDims);
}

std::string_view kernel_helpers_source() noexcept { return kHelpers; }

std::string functor_name_part(std::string_view functor) {
  constexpr std::string_view prefix = "cunp::ops::";
  if (functor.substr(0, prefix.size()) == prefix) functor.remove_prefix(prefix.size());
  std::string out;
  for (char c : functor) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out.push_back(alnum ? c : '_');
  }
  return out;
}

unsigned grid_blocks(const DeviceProps& props, std::int64_t work) noexcept {
  const std::int64_t resident = static_cast<std::int64_t>(props.sm_count) *
                                std::max(1, props.max_threads_per_sm / kKernelBlockSize);
  const std::int64_t wanted = (work + kKernelBlockSize - 1) / kKernelBlockSize;
  return static_cast<unsigned>(
      std::clamp<std::int64_t>(wanted, 1, std::max<std::int64_t>(resident, 1)));
}

std::int64_t elements_to_alignment(const void* ptr, std::size_t item, int pack_elements) noexcept {
  const std::uintptr_t align =
      std::min<std::uintptr_t>(16, item * static_cast<std::uintptr_t>(pack_elements));
  const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(ptr);
  if (addr % item != 0) return -1;
  const std::uintptr_t mis = addr % align;
  return mis == 0 ? 0 : static_cast<std::int64_t>((align - mis) / item);
}

bool layout_fits_int32(const iter::LoopLayout& layout, const int* ops, int nops) noexcept {
  if (layout.size > kInt32Max) return false;
  for (int i = 0; i < nops; ++i) {
    const int op = ops[i];
    if (layout.max_offset(op) > kInt32Max) return false;
    for (std::int64_t s : layout.strides[static_cast<std::size_t>(op)])
      if (s > kInt32Max || s < -kInt32Max) return false;
  }
  return true;
}

bool layout_fits_int32(const iter::LoopLayout& layout, int noperands) noexcept {
  int ops[kMaxStridedOperands];
  const int n = std::min(noperands, kMaxStridedOperands);
  for (int k = 0; k < n; ++k) ops[k] = k;
  return layout_fits_int32(layout, ops, n);
}

}  // namespace cunp::cuda

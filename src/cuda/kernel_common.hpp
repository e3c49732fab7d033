// src/cuda/kernel_common.hpp — pieces shared by the generated elementwise-style kernels
// (copy/cast/fill, ufunc loops): the device helpers every program starts with, and the
// host-side choices that go with them (grid size, vector alignment, index width,
// strided parameter blocks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "runtime/kernel_cache.hpp"
#include "iter/layout.hpp"

namespace cunp::cuda {

inline constexpr int kKernelBlockSize = 256;  // threads per block of these kernels
inline constexpr int kMaxStridedDims = 64;
inline constexpr int kMaxStridedOperands = 8;  // array operands of one kernel, at most
inline constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

// The ndim a strided kernel is generated for, for a layout of `ndim` dims (1..64):
// 1..4 exactly (unrolled index math), then buckets of 8, 16, 32, 64 (run-time loop).
int strided_ndim_bucket(int ndim) noexcept;

// Device source (namespace cunp_k): pack<T, N> (an aligned vector of N elements),
// strided_params<I, N, NOPS> (size, ndim, shape[N], byte strides[NOPS][N]),
// thread_index<U>(), thread_count<U>() and element_offsets<FIXED>(params, i, off),
// which turns C-order element i into each operand's byte offset. Needs no include.
std::string_view kernel_helpers_source() noexcept;

// A src/ops functor's name as part of a kernel name: "cunp::ops::add" -> "add"; any
// character other than [A-Za-z0-9] becomes '_'.
std::string functor_name_part(std::string_view functor);

// Blocks of kKernelBlockSize threads for `work` thread-sized work items, at most as
// many as keep every SM of the device full (the kernels stride over the grid).
unsigned grid_blocks(const DeviceProps& props, std::int64_t work) noexcept;

// Elements before `ptr` reaches the alignment of a pack of `pack_elements` elements of
// `item` bytes (at most 16), or -1 when the pointer is not even element-aligned.
std::int64_t elements_to_alignment(const void* ptr, std::size_t item, int pack_elements) noexcept;

// True when 32-bit index math is safe for operands [0, noperands) of `layout`: the
// size, every stride and every operand's byte extent fit in int32.
bool layout_fits_int32(const iter::LoopLayout& layout, int noperands) noexcept;
// The same for the operands `ops[0..nops)` only.
bool layout_fits_int32(const iter::LoopLayout& layout, const int* ops, int nops) noexcept;

// Fills a strided_params<I, ndim_bucket, nops> block (as a flat array of I) for the
// operands `ops[0..nops)` of `layout`; returns the number of I written. `out` must
// hold 2 + ndim_bucket * (1 + nops) values. Axes past layout.ndim() are zeroed.
template <typename I>
std::size_t fill_strided_params(I* out, const iter::LoopLayout& layout, int ndim_bucket,
                                const int* ops, int nops) noexcept {
  const int nd = layout.ndim();
  out[0] = static_cast<I>(layout.size);
  out[1] = static_cast<I>(nd);
  I* shape = out + 2;
  for (int d = 0; d < ndim_bucket; ++d)
    shape[d] = d < nd ? static_cast<I>(layout.shape[static_cast<std::size_t>(d)]) : I{0};
  for (int k = 0; k < nops; ++k) {
    I* stride = out + 2 + ndim_bucket * (1 + k);
    const auto& s = layout.strides[static_cast<std::size_t>(ops[k])];
    for (int d = 0; d < ndim_bucket; ++d)
      stride[d] = d < nd ? static_cast<I>(s[static_cast<std::size_t>(d)]) : I{0};
  }
  return static_cast<std::size_t>(2 + ndim_bucket * (1 + nops));
}

}  // namespace cunp::cuda

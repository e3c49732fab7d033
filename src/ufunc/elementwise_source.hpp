// src/ufunc/elementwise_source.hpp — the CUDA source and cache keys of the ufunc loop
// kernels. elementwise.cpp launches them; builtin_kernels.cpp lists them for the NVRTC
// test.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/kernel_cache.hpp"
#include "cunp/dtype.hpp"
#include "ufunc/ufunc.hpp"

namespace cunp::cuda {

inline constexpr int kMaxUfuncOperands = ufunc::kMaxIn + ufunc::kMaxOut;

// One ufunc loop kernel. Operand k < nout is output k, operand nout + j input j.
struct ElementwiseSpec {
  std::string_view functor;  // "cunp::ops::add"
  // An embedded src/ops header name ("ufunc_arith.h"), or, when it contains a newline,
  // the CUDA C++ text that defines the functor itself (user and test ufuncs).
  std::string_view header;
  int nin = 2;
  int nout = 1;
  std::array<DType, kMaxUfuncOperands> loop{};     // the loop's dtypes, outputs first
  std::array<DType, kMaxUfuncOperands> storage{};  // each array operand's dtype in memory
  std::uint8_t scalar_mask = 0;  // bit k: operand k (an input) is a kernel parameter
  // 0: contiguous. 1..4: strided with that exact ndim; 8, 16, 32, 64: strided, any ndim
  // up to the bucket (strided_ndim_bucket).
  int ndim = 0;
  bool index64 = false;
  int unroll = 0;  // packs per operand in flight per thread; 0: elementwise_unroll's choice

  int noperands() const noexcept { return nin + nout; }
  bool is_scalar(int k) const noexcept { return ((scalar_mask >> k) & 1u) != 0; }
};

// The spec of loop `loop` of `uf` with every operand an array of the loop's dtypes.
ElementwiseSpec elementwise_spec(const ufunc::Ufunc& uf, const ufunc::Loop& loop) noexcept;

// Elements per pack of a contiguous kernel: 16 / the widest array operand's itemsize.
int elementwise_pack_elements(const ElementwiseSpec& spec) noexcept;

// Packs per operand a contiguous kernel loads before computing: spec.unroll, else
// clamp(8 / pack elements, 1, 4) (2 for float32, 4 for float64, 1 for float16).
int elementwise_unroll(const ElementwiseSpec& spec) noexcept;

// The extern "C" name: cunp_uf_<functor>_<loop in>_<loop out>_<storage>_<layout>_<index>,
// e.g. cunp_uf_add_f4f4_f4_f4f4s_c_i32 (storage per operand, outputs first, `s` for a
// scalar parameter; layout `c` or `s<ndim>`; `_u<k>` when spec.unroll is set).
std::string elementwise_kernel_name(const ElementwiseSpec& spec);
// The shared part of every program of one functor header: includes and helpers.
std::string elementwise_preamble(std::string_view header);
// The definition of one kernel; any number may follow one preamble of their header.
std::string elementwise_kernel_entry(const ElementwiseSpec& spec);
// The NVRTC options of every ufunc loop kernel: --fmad=false, so that a functor's
// a * b + c rounds twice, as the host (and NumPy) does.
CompileOptions elementwise_compile_options();
// A whole program for one kernel.
KernelSource elementwise_kernel_source(const ElementwiseSpec& spec);
// The in-memory cache key for sm_<arch>; builds no string.
KernelKey elementwise_kernel_key(const ElementwiseSpec& spec, int arch) noexcept;

// Tests and tuning only: when set, every launch uses the 64-bit index variants / the
// given unroll (0: the default) in contiguous kernels.
void set_elementwise_force_index64(bool force) noexcept;
bool elementwise_force_index64() noexcept;
void set_elementwise_unroll_override(int unroll) noexcept;
int elementwise_unroll_override() noexcept;

}  // namespace cunp::cuda

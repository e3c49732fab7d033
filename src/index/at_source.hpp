// src/index/at_source.hpp — the CUDA source of the scatter-accumulate kernels of
// ufunc.at (Note [ufunc.at kernels]). at_cuda.cpp launches them; builtin_kernels.cpp
// lists the common ones for the NVRTC test.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cunp/dtype.hpp"

namespace cunp::index {

// How one update of an element is made atomic.
enum class AtomicKind : std::uint8_t {
  Cas,        // compare-and-swap loop on the element (or its aligned 4-byte word)
  Add,        // native atomicAdd (complex: per component)
  Subtract,   // native atomicAdd of the negated value
  Max,        // native atomicMax (integers)
  Min,        // native atomicMin (integers)
};

struct AtKernelSpec {
  std::string_view functor;  // "cunp::ops::add"
  std::string_view header;   // "ufunc_arith.h"
  int nin = 2;
  DType in0 = DType::Float32;  // the loop's dtypes
  DType in1 = DType::Float32;  // unused when nin == 1
  DType out = DType::Float32;
  DType storage = DType::Float32;  // the indexed array's dtype
  int ndim = 1;                    // 1..4 exact, 8/16/32/64 buckets
  bool index64 = false;
  AtomicKind atomic = AtomicKind::Cas;
};

// The atomic an update uses: native for add/subtract/maximum/minimum where the
// hardware has one for the dtype and every loop dtype is the storage dtype, else Cas.
AtomicKind at_atomic_kind(std::string_view functor, int nin, DType in0, DType in1, DType out, DType storage) noexcept;

// The kernels the NVRTC test compiles: add, subtract, multiply, maximum, minimum,
// fmax, fmin and the bitwise and/or/xor on every dtype they have a uniform loop for.
std::vector<AtKernelSpec> builtin_at_specs();

std::string at_kernel_name(const AtKernelSpec& spec);
// The shared part of the programs of one functor header.
std::string at_kernels_preamble(std::string_view header);
std::string at_kernel_entry(const AtKernelSpec& spec);
cuda::KernelSource at_kernel_source(const AtKernelSpec& spec);
cuda::KernelKey at_kernel_key(const AtKernelSpec& spec, int arch) noexcept;

}  // namespace cunp::index

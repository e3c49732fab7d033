// src/stats/bins_source.hpp — the CUDA source and cache keys of the histogram,
// bincount and digitize kernels. gpu_bins.cpp launches them; builtin_kernels.cpp
// lists them for the NVRTC test.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cunp/dtype.hpp"

namespace cunp::stats {

// Note [Histogram kernels] (bins_source.cpp) describes each kind.
enum class BinKernelKind : std::uint8_t {
  Uniform,      // histogram with equal-width bins (Note [Uniform bins])
  Edges,        // histogram with explicit edges: a binary search per element
  Bincount,     // bincount of int64 values
  Digitize,     // digitize: a binary search per element, int64 out
  Range,        // float data: per-block {min, max, any NaN} of a contiguous input
  RangeFinish,  // one block: combines the Range partials into {min, max, any NaN}
};

// Threads per block of every kernel here.
inline constexpr int kBinBlockSize = 256;

struct BinKernelSpec {
  BinKernelKind kind = BinKernelKind::Uniform;
  // The data's storage dtype (Uniform/Edges/Digitize; Bincount reads int64).
  DType data = DType::Float32;
  // Edges/Digitize: the dtype the comparisons are made in: Int64, UInt64, Float32 or
  // Float64 (bin_compare_dtype).
  DType compare = DType::Float64;
  // Uniform: the division and product in float64 (a given range) rather than in the
  // edges' dtype. Always set when that dtype is float64.
  bool wide = false;
  bool weighted = false;  // sums float64 weights instead of counting
  bool shared = true;     // per-block sub-histograms in shared memory, then global atomics
};

// The dtype Edges/Digitize compare in for data of `data` and edges of `edges`: exact
// for NumPy's common dtype of the two (float16/float32 -> Float32, float64 ->
// Float64, uint64 -> UInt64, other integers and bool -> Int64). TypeError for complex.
DType bin_compare_dtype(DType data, DType edges);
// The uniform kernels' edges dtype for data of `data`: its own float dtype, float64 for
// integers.
DType uniform_edges_dtype(DType data) noexcept;

std::string bin_kernel_name(const BinKernelSpec& spec);
std::string_view bin_kernels_preamble();
std::string bin_kernel_entry(const BinKernelSpec& spec);
cuda::CompileOptions bin_compile_options();
cuda::KernelSource bin_kernel_source(const BinKernelSpec& spec);
cuda::KernelKey bin_kernel_key(const BinKernelSpec& spec, int arch) noexcept;
// The blocks of a Range pass (its partials: 3 doubles each) at most.
inline constexpr int kRangeMaxBlocks = 1024;
// Every kernel the launchers can ask for.
std::vector<BinKernelSpec> bin_kernel_specs();

}  // namespace cunp::stats

// src/index/index_source.hpp — the CUDA source of the indexing kernels: index
// offsets with the bounds check, gather, scatter (with the last-write-wins winner
// marks) and the nonzero count / scan / write kernels. index_cuda.cpp launches them;
// builtin_kernels.cpp lists them for the NVRTC test.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cunp/dtype.hpp"

namespace cunp::index {

// Index arrays one offsets kernel handles at most (NumPy's limit is 64 dimensions).
inline constexpr int kMaxIndexArrays = 64;
// Elements of the nonzero kernels' tile: 256 threads x 16 consecutive elements.
inline constexpr int kNonzeroThreads = 256;
inline constexpr int kNonzeroPerThread = 16;
inline constexpr int kNonzeroTile = kNonzeroThreads * kNonzeroPerThread;
inline constexpr int kNonzeroScanThreads = 1024;
inline constexpr int kMaxNonzeroDims = 64;

enum class IndexKernelKind : std::uint8_t {
  Offsets,      // index arrays -> byte offsets (+ linear positions), bounds flag
  Mark,         // winner[lin[b]] = max(b + 1): last write wins
  Gather,       // out[i] = view[pre(p) + off[b] + post(q)]
  Scatter,      // view[pre(p) + off[b] + post(q)] = values[i] where b is the winner
  NonzeroCount, // per-tile count of true bytes
  NonzeroScan,  // exclusive scan of the tile counts (one block), total at the end
  NonzeroWrite, // coordinates of the true bytes, in C order
  MaskGather,   // out[position of i among the true bytes] = src[i] (a[mask], full-shape mask)
  GatherDirect, // Gather reading one index array itself, bounds check included (no offsets pass)
  MaskScatter,  // dst[i] = values[position of i among the true bytes] (a[mask] = v, full-shape mask)
};

struct IndexKernelSpec {
  IndexKernelKind kind = IndexKernelKind::Gather;
  // Gather/GatherDirect/Scatter/MaskGather/MaskScatter: the element as the unsigned integer of its width (u1,
  // u2, u4, u8) or complex128 for 16 bytes; unused by the others.
  DType dtype = DType::UInt32;
  int ndim = 1;          // Gather(Direct)/Scatter: 1..4 exact, 8/16/32/64 buckets
  bool index64 = false;  // Gather(Direct)/Scatter: 64-bit element index math
};

// Every indexing kernel the engine can generate.
std::vector<IndexKernelSpec> index_kernel_specs();
std::string index_kernel_name(const IndexKernelSpec& spec);
std::string_view index_kernels_preamble();
std::string index_kernel_entry(const IndexKernelSpec& spec);
cuda::KernelSource index_kernel_source(const IndexKernelSpec& spec);
cuda::KernelKey index_kernel_key(const IndexKernelSpec& spec, int arch) noexcept;

}  // namespace cunp::index

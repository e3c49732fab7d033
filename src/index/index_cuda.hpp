// src/index/index_cuda.hpp — the CUDA side of advanced indexing: launchers of the
// kernels of index_source.cpp (Note [Indexing kernels]).
#pragma once

#include <cstdint>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp::index {

// A gather/scatter over a view: the result (C-contiguous) has shape `dims` =
// (pre..., |B|, post...); `strides` are the view's byte strides of those axes, 0 on
// the B axis at position `baxis`.
struct Geometry {
  Shape dims;
  Strides strides;
  int baxis = 0;
};

// The indexed axes of a view: for each index array (int64, C-contiguous, all of the
// broadcast size n), the axis size and byte stride.
struct IndexedAxes {
  std::vector<ndarray> idx;
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> strides;
  std::vector<int> axes;  // the view axes, for error messages
  std::int64_t n = 0;
};

namespace gpu {

// Byte offsets (int64, n) of the index arrays, and their linear positions in the
// indexed sub-space when `want_lin`. Raises IndexError for an out-of-bounds index
// (one 8-byte device-to-host read per call).
void offsets(const IndexedAxes& ax, const ndarray& off, const ndarray* lin);
// out (C-contiguous, view's dtype) = gather of `base` bytes at view.data().
void gather(const ndarray& out, const void* src, const Geometry& g, const ndarray& off);
// Writes `values` (C-contiguous, view's dtype, shape dims) into the view; `winner`
// (uint64 over the indexed sub-space) and lin are used when not null.
void scatter(void* dst, DType dtype, const ndarray& values, const Geometry& g, const ndarray& off,
             const ndarray* lin, std::int64_t subspace);
// Coordinates of the true bytes of a C-contiguous bool array `mask` read with
// `shape` (rank >= 1): a (shape.size(), count) int64 array. One 8-byte read.
ndarray nonzero_coords(const ndarray& mask, const Shape& shape);

}  // namespace gpu
}  // namespace cunp::index

// src/index/index_cuda.hpp — the CUDA side of advanced indexing: launchers of the
// kernels of index_source.cpp (Note [Indexing kernels]).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cunp/ndarray.hpp"
#include "index/at_source.hpp"

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
// gather() for a single index array, read by the gather itself (no offsets pass):
// ax.idx.size() == 1. Raises IndexError as offsets() does (one 8-byte read).
void gather_direct(const ndarray& out, const void* src, const Geometry& g, const IndexedAxes& ax);
// Writes `values` (C-contiguous, view's dtype, shape dims) into the view; `winner`
// (uint64 over the indexed sub-space) and lin are used when not null.
void scatter(void* dst, DType dtype, const ndarray& values, const Geometry& g, const ndarray& off,
             const ndarray* lin, std::int64_t subspace);
// ufunc.at: applies `spec` (its ndim and index width are chosen here) to every element
// of the geometry, `values` (C-contiguous, the loop's second input dtype, the
// geometry's shape) null for unary ufuncs. Atomic, see Note [ufunc.at kernels].
void scatter_apply(AtKernelSpec spec, void* dst, const ndarray* values, const Geometry& g, const ndarray& off);
// False when the update of `storage` needs a 16-byte compare-and-swap this device (or
// the alignment of `dst` and `strides`) does not allow.
bool scatter_apply_supported(const AtKernelSpec& spec, const void* dst, std::span<const std::int64_t> strides);
// Coordinates of the true bytes of a C-contiguous bool array `mask` read with
// `shape` (rank >= 1): a (shape.size(), count) int64 array. One 8-byte read.
ndarray nonzero_coords(const ndarray& mask, const Shape& shape);
// a[mask] for a C-contiguous `a` and a C-contiguous bool `mask` of a's shape: the
// selected elements in C order, with no coordinates in between (one 8-byte read).
ndarray mask_select(const ndarray& a, const ndarray& mask);
// a[mask] = value for a C-contiguous `a` and a C-contiguous bool `mask` of a's shape:
// value broadcast to (count,) and cast to a's dtype (one 8-byte read).
void mask_assign(const ndarray& a, const ndarray& mask, const ndarray& value);

}  // namespace gpu
}  // namespace cunp::index

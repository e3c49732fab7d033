// src/iter/layout.hpp — the host-side iteration layout every strided loop and
// generated kernel consumes: one shape and one byte-stride vector per operand,
// after broadcasting, axis reordering and coalescing.
#pragma once

#include <cstdint>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp::iter {

// Note [Loop layout]: the last axis varies fastest (C order) in `shape`; operand 0 is
// the output. After make_layout, axes of size 1 are gone, adjacent axes that are
// contiguous for every operand are merged, and axes are ordered so that operand 0's
// strides decrease, which makes a C-order walk touch the output in memory order.
// A 0-d or size-1 loop has an empty shape; an empty loop has size 0.
struct LoopLayout {
  Shape shape;
  std::vector<Strides> strides;  // [operand][axis], bytes
  std::int64_t size = 1;

  int ndim() const noexcept { return static_cast<int>(shape.size()); }
  int noperands() const noexcept { return static_cast<int>(strides.size()); }
  // True when operand `op` is walked contiguously (stride == itemsize on one axis).
  bool contiguous(int op, std::int64_t itemsize) const noexcept {
    return shape.empty() || (shape.size() == 1 && strides[op][0] == itemsize);
  }
  // Largest byte offset reached from the base pointer of operand `op` (for 32-bit
  // index selection): sum over axes of (shape-1)*|stride|.
  std::int64_t max_offset(int op) const noexcept;
};

// Builds the layout for operands of the same shape (callers broadcast first: a
// broadcast operand has stride 0). `keep_order` keeps the axis order as given
// instead of sorting by operand 0's strides.
LoopLayout make_layout(const Shape& shape, const std::vector<Strides>& strides, bool keep_order = false);

// Byte strides of `a` viewed with shape `shape` under NumPy broadcasting (0 for
// broadcast axes). ValueError if a cannot be broadcast to shape.
Strides broadcast_strides(const ndarray& a, const Shape& shape);

}  // namespace cunp::iter

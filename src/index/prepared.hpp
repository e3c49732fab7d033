// src/index/prepared.hpp — the normalized form of an advanced index that getitem,
// setitem and ufunc.at share (indexing.cpp builds it).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cunp/indexing.hpp"
#include "index/index_cuda.hpp"

namespace cunp::index {

// a[index] as a view of `a` (the basic part applied), the index arrays broadcast to
// `bshape` on the view's indexed axes, and the result's geometry (pre..., |B|, post...).
struct Prepared {
  ndarray view;
  IndexedAxes ax;
  Shape bshape;
  Geometry geom;
  Shape out_shape;
  std::int64_t subspace = 1;
};

// True when the index holds at least one array (an advanced index).
bool has_array(std::span<const FancyIndex> index);
// The basic pieces of an index without arrays.
std::vector<Index> basic_only(std::span<const FancyIndex> index);
// Normalizes an index holding at least one array; IndexError/ValueError as NumPy.
Prepared prepare(const ndarray& a, std::span<const FancyIndex> index);
// a[mask] = value with a mask of a's shape (NumPy's boolean assignment): TypeError for
// a value of more than one dimension, ValueError unless it holds 1 or `count` values.
void check_mask_values(const ndarray& value, std::int64_t count);
// a[index] = value: `value` checked against the result's shape by NumPy's rule (extra
// leading dimensions of extent 1, the rest broadcast) and returned without its extra
// leading dimensions; ValueError otherwise, also when the result is empty.
ndarray assignable_value(const ndarray& value, const Shape& shape);
// Host: the byte offset within the view of every element of the result, in C order
// (index arrays on the cpu device). IndexError for an out-of-bounds index.
std::vector<std::int64_t> host_element_offsets(const Prepared& pr);

}  // namespace cunp::index

// src/iter/layout.cpp — broadcasting strides, axis ordering and coalescing.
#include "iter/layout.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <string>

#include "cunp/error.hpp"

namespace cunp::iter {

std::int64_t LoopLayout::max_offset(int op) const noexcept {
  std::int64_t m = 0;
  for (std::size_t i = 0; i < shape.size(); ++i) m += (shape[i] - 1) * std::llabs(strides[op][i]);
  return m;
}

// Note [Layout without allocation]: make_layout runs on every elementwise call, so it
// works in stack buffers (heap only past kInlineAxes axes) and allocates just the
// result: the shape, and one stride vector per operand.
LoopLayout make_layout(const Shape& shape, const std::vector<Strides>& strides, bool keep_order) {
  LoopLayout out;
  const std::size_t nop = strides.size();
  out.size = 1;
  for (std::int64_t d : shape) out.size *= d;
  if (out.size == 0) {
    out.shape = {0};
    out.strides.assign(nop, Strides{0});
    return out;
  }
  constexpr std::size_t kInlineAxes = 16;
  const std::size_t nd = shape.size();
  int axes_inline[kInlineAxes], inner_inline[kInlineAxes];
  std::int64_t dims_inline[kInlineAxes];
  std::vector<int> axes_heap, inner_heap;
  std::vector<std::int64_t> dims_heap;
  int* axes = axes_inline;
  int* inner = inner_inline;  // per merged axis: its innermost original axis
  std::int64_t* dims = dims_inline;
  if (nd > kInlineAxes) {
    axes_heap.resize(nd);
    inner_heap.resize(nd);
    dims_heap.resize(nd);
    axes = axes_heap.data();
    inner = inner_heap.data();
    dims = dims_heap.data();
  }
  // Drop size-1 axes: they contribute nothing to addresses.
  int n = 0;
  for (std::size_t i = 0; i < nd; ++i) {
    if (shape[i] != 1) axes[n++] = static_cast<int>(i);
  }
  if (!keep_order) {
    // Walk the output (then the inputs) in memory order: larger |stride| first. An
    // insertion sort: stable, and the axes are few.
    auto before = [&](int a, int b) {
      for (std::size_t op = 0; op < nop; ++op) {
        const std::int64_t sa = std::llabs(strides[op][a]), sb = std::llabs(strides[op][b]);
        if (sa != sb) return sa > sb;
      }
      return false;
    };
    for (int i = 1; i < n; ++i) {
      const int ax = axes[i];
      int j = i;
      for (; j > 0 && before(ax, axes[j - 1]); --j) axes[j] = axes[j - 1];
      axes[j] = ax;
    }
  }
  // Merge adjacent axes, innermost first: an outer axis joins the merged axis inside
  // it when its stride is that axis' stride times its size for every operand.
  int m = 0;
  for (int j = n - 1; j >= 0; --j) {
    const int ax = axes[j];
    if (m > 0) {
      bool ok = true;
      for (std::size_t op = 0; op < nop && ok; ++op) ok = strides[op][ax] == strides[op][inner[m - 1]] * dims[m - 1];
      if (ok) {
        dims[m - 1] *= shape[ax];
        continue;
      }
    }
    inner[m] = ax;
    dims[m] = shape[ax];
    ++m;
  }
  out.shape.resize(static_cast<std::size_t>(m));
  for (int k = 0; k < m; ++k) out.shape[static_cast<std::size_t>(k)] = dims[m - 1 - k];
  out.strides.resize(nop);
  for (std::size_t op = 0; op < nop; ++op) {
    Strides& s = out.strides[op];
    s.resize(static_cast<std::size_t>(m));
    for (int k = 0; k < m; ++k) s[static_cast<std::size_t>(k)] = strides[op][inner[m - 1 - k]];
  }
  return out;
}

namespace {

// NumPy's spelling of shapes in assignment errors: "(2,3)", "(3,)".
std::string compact_shape(const Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ',';
  return s + ")";
}

}  // namespace

Strides broadcast_strides(const ndarray& a, const Shape& shape) {
  const int nd = static_cast<int>(shape.size());
  const int an = a.ndim();
  if (an > nd) {
    throw ValueError("could not broadcast input array from shape " + compact_shape(a.shape()) +
                     " into shape " + compact_shape(shape));
  }
  Strides s(static_cast<std::size_t>(nd), 0);
  for (int i = 0; i < an; ++i) {
    const std::int64_t dim = a.shape()[static_cast<std::size_t>(i)];
    const std::size_t o = static_cast<std::size_t>(nd - an + i);
    if (dim == shape[o]) {
      s[o] = dim == 1 ? 0 : a.strides()[static_cast<std::size_t>(i)];
    } else if (dim == 1) {
      s[o] = 0;
    } else {
      throw ValueError("could not broadcast input array from shape " + compact_shape(a.shape()) +
                       " into shape " + compact_shape(shape));
    }
  }
  return s;
}

}  // namespace cunp::iter

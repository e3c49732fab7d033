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

LoopLayout make_layout(const Shape& shape, const std::vector<Strides>& strides, bool keep_order) {
  LoopLayout out;
  const std::size_t nop = strides.size();
  out.strides.assign(nop, {});
  out.size = 1;
  for (std::int64_t d : shape) out.size *= d;
  if (out.size == 0) {
    out.shape = {0};
    for (auto& s : out.strides) s = {0};
    return out;
  }
  // Drop size-1 axes: they contribute nothing to addresses.
  std::vector<int> axes;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1) axes.push_back(static_cast<int>(i));
  }
  if (!keep_order) {
    // Walk the output (then the inputs) in memory order: larger |stride| first.
    std::stable_sort(axes.begin(), axes.end(), [&](int a, int b) {
      for (std::size_t op = 0; op < nop; ++op) {
        const std::int64_t sa = std::llabs(strides[op][a]), sb = std::llabs(strides[op][b]);
        if (sa != sb) return sa > sb;
      }
      return false;
    });
  }
  for (int ax : axes) {
    out.shape.push_back(shape[ax]);
    for (std::size_t op = 0; op < nop; ++op) out.strides[op].push_back(strides[op][ax]);
  }
  // Merge adjacent axes (outer i, inner i+1) when outer stride == inner stride * inner size
  // for every operand.
  Shape merged_shape;
  std::vector<Strides> merged(nop);
  for (int i = static_cast<int>(out.shape.size()) - 1; i >= 0; --i) {
    if (!merged_shape.empty()) {
      bool ok = true;
      for (std::size_t op = 0; op < nop; ++op) {
        if (out.strides[op][i] != merged[op].back() * merged_shape.back()) {
          ok = false;
          break;
        }
      }
      if (ok) {
        merged_shape.back() *= out.shape[i];
        continue;
      }
    }
    merged_shape.push_back(out.shape[i]);
    for (std::size_t op = 0; op < nop; ++op) merged[op].push_back(out.strides[op][i]);
  }
  std::reverse(merged_shape.begin(), merged_shape.end());
  for (auto& s : merged) std::reverse(s.begin(), s.end());
  out.shape = std::move(merged_shape);
  out.strides = std::move(merged);
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

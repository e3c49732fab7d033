// src/manipulation/axes.hpp — small axis helpers shared by the manipulation routines
// (manipulation.cpp, insert_delete.cpp, pad.cpp).
#pragma once

#include <algorithm>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "cunp/error.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

inline std::vector<int> normalize_axes(std::span<const int> axes, int ndim, const char* what) {
  std::vector<int> out;
  std::vector<bool> seen(static_cast<std::size_t>(ndim), false);
  for (int a : axes) {
    const int n = normalize_axis(a, ndim);
    if (seen[static_cast<std::size_t>(n)]) throw ValueError(std::string("repeated axis in `") + what + "` argument");
    seen[static_cast<std::size_t>(n)] = true;
    out.push_back(n);
  }
  return out;
}

inline std::vector<int> all_axes(int ndim) {
  std::vector<int> v(static_cast<std::size_t>(ndim));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// A view of `a` restricted to [start, stop) along `axis`.
inline ndarray slice_axis(const ndarray& a, int axis, std::int64_t start, std::int64_t stop) {
  Shape sh = a.shape();
  const auto ax = static_cast<std::size_t>(axis);
  const std::int64_t len = std::max<std::int64_t>(0, stop - start);
  const std::int64_t off = a.offset() + (len > 0 ? start * a.strides()[ax] : 0);
  sh[ax] = len;
  return make_view(a, sh, a.strides(), off);
}

}  // namespace cunp::detail

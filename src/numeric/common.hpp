// src/numeric/common.hpp — small helpers of the functions composed from other cunp
// operations (calculus.cpp, polynomial.cpp, mathlib.cpp, assembly.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp::numeric {

// a[..., index, ...] with `index` at `axis` (already normalized) and full slices elsewhere.
inline ndarray along(const ndarray& a, int axis, Index index) {
  std::vector<Index> idx(static_cast<std::size_t>(a.ndim()), Index(slice()));
  idx[static_cast<std::size_t>(axis)] = index;
  return a.view(std::span<const Index>(idx));
}

// A shape of ones, with `n` at `axis`: reshapes a 1-d array to broadcast along `axis`.
inline Shape along_shape(int ndim, int axis, std::int64_t n) {
  Shape s(static_cast<std::size_t>(ndim), 1);
  s[static_cast<std::size_t>(axis)] = n;
  return s;
}

// The value of a 0-d (or one-element) bool array.
inline bool truth(const ndarray& a) { return a.item().to_bool(); }

// np.atleast_1d without the header: a 0-d array as shape (1,).
inline ndarray as_1d(const ndarray& a) { return a.ndim() == 0 ? a.reshape({1}) : a; }

}  // namespace cunp::numeric

// cunp/indexing.hpp — advanced indexing (integer arrays, boolean masks) and the
// index routines: take, put, nonzero, flatnonzero, argwhere, compress,
// take_along_axis. Out-of-bounds integer indices raise IndexError, as NumPy does.
#pragma once

#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp {

// One index of a full (basic + advanced) index tuple: the basic pieces of Index, or an
// array (an integer array: gathered positions; a bool array: a mask). A 0-d bool array
// acts as NumPy's a[True] / a[False].
using FancyIndex = std::variant<std::int64_t, Slice, EllipsisIndex, NewAxisIndex, ndarray>;

// a[index] with NumPy's rules: a view when the index is basic, else a new array.
// Integer arrays broadcast together; their broadcast dimensions replace the indexed
// ones in place when the advanced indices are adjacent, else they come first.
ndarray getitem(const ndarray& a, std::span<const FancyIndex> index);
// a[index] = value, value broadcast to the result's shape and cast unsafely to a's
// dtype. With duplicate positions the last value (in C order of the index) wins.
void setitem(const ndarray& a, std::span<const FancyIndex> index, const ndarray& value);

// np.take: axis nullopt takes from the flattened array. Indices must be integers;
// IndexError "index 10 is out of bounds for axis 0 with size 3" otherwise.
ndarray take(const ndarray& a, const ndarray& indices, std::optional<int> axis = std::nullopt);
// np.put (mode='raise'): a.flat[indices] = values, values repeated cyclically when
// shorter; the last write wins for duplicate indices.
void put(const ndarray& a, const ndarray& indices, const ndarray& values);

// np.nonzero: one int64 array per dimension (a 0-d input counts as 1-d).
std::vector<ndarray> nonzero(const ndarray& a);
// np.flatnonzero: positions of non-zero elements of a.ravel().
ndarray flatnonzero(const ndarray& a);
// np.argwhere: an (N, a.ndim) int64 array.
ndarray argwhere(const ndarray& a);
// np.compress: the slices along `axis` (flattened when nullopt) where condition is true.
ndarray compress(const ndarray& condition, const ndarray& a, std::optional<int> axis = std::nullopt);
// np.take_along_axis (axis nullopt: on the flattened array).
ndarray take_along_axis(const ndarray& a, const ndarray& indices, std::optional<int> axis);

}  // namespace cunp

// cunp/indexing.hpp — advanced indexing (integer arrays, boolean masks), the index
// routines (take, put, nonzero, choose, select, ravel_multi_index, ...) and the
// scatter-accumulate of ufunc.at. Out-of-bounds integer indices raise IndexError, as
// NumPy does.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include "cunp/ndarray.hpp"
#include "cunp/scalar.hpp"

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

// How out-of-range indices are treated by take, put, choose and ravel_multi_index
// (NumPy's mode=): raise, wrap around, or clip to the valid range.
enum class ClipMode : std::uint8_t { Raise, Wrap, Clip };

// np.take: axis nullopt takes from the flattened array. Indices must be integers;
// IndexError "index 10 is out of bounds for axis 0 with size 3" otherwise.
ndarray take(const ndarray& a, const ndarray& indices, std::optional<int> axis = std::nullopt);
// np.put (mode='raise'): a.flat[indices] = values, values repeated cyclically when
// shorter; the last write wins for duplicate indices.
void put(const ndarray& a, const ndarray& indices, const ndarray& values);
// take / put with mode='wrap' or 'clip' (ClipMode::Raise is the overloads above).
ndarray take(const ndarray& a, const ndarray& indices, std::optional<int> axis, ClipMode mode);
void put(const ndarray& a, const ndarray& indices, const ndarray& values, ClipMode mode);

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
// np.put_along_axis: a[take_along_axis positions] = values (broadcast); last write wins.
void put_along_axis(const ndarray& a, const ndarray& indices, const ndarray& values, std::optional<int> axis);
// np.extract: the elements of a.ravel() where condition.ravel() is non-zero.
ndarray extract(const ndarray& condition, const ndarray& a);

// np.choose: out[i] = choices[a[i]][i], a and every choice broadcast together.
// ClipMode::Raise raises ValueError("invalid entry in choice array").
ndarray choose(const ndarray& a, std::span<const ndarray> choices, ClipMode mode = ClipMode::Raise);
// np.select: the choice of the first true condition, else `default_value`.
ndarray select(std::span<const ndarray> condlist, std::span<const ndarray> choicelist,
               const Scalar& default_value = Scalar(0));
ndarray select(std::span<const ndarray> condlist, std::span<const ndarray> choicelist, const ndarray& default_value);
// np.place: arr[mask] = vals, vals repeated cyclically over the true positions.
void place(const ndarray& arr, const ndarray& mask, const ndarray& vals);
// np.putmask: a.flat[i] = values.flat[i % values.size] where mask.flat[i].
void putmask(const ndarray& a, const ndarray& mask, const ndarray& values);

// np.diag_indices / diag_indices_from: `ndim` copies of arange(n).
std::vector<ndarray> diag_indices(std::int64_t n, int ndim = 2, std::optional<Device> device = std::nullopt);
std::vector<ndarray> diag_indices_from(const ndarray& arr);
// np.tril_indices / triu_indices (m defaults to n) and their _from forms (2-d arrays).
std::vector<ndarray> tril_indices(std::int64_t n, std::int64_t k = 0, std::optional<std::int64_t> m = std::nullopt,
                                  std::optional<Device> device = std::nullopt);
std::vector<ndarray> triu_indices(std::int64_t n, std::int64_t k = 0, std::optional<std::int64_t> m = std::nullopt,
                                  std::optional<Device> device = std::nullopt);
std::vector<ndarray> tril_indices_from(const ndarray& arr, std::int64_t k = 0);
std::vector<ndarray> triu_indices_from(const ndarray& arr, std::int64_t k = 0);
// np.indices: an array of shape (len(dimensions), *dimensions); indices_sparse is
// np.indices(..., sparse=True): one array per axis, of size 1 on every other axis.
ndarray indices(const Shape& dimensions, DType dtype = DType::Int64, std::optional<Device> device = std::nullopt);
std::vector<ndarray> indices_sparse(const Shape& dimensions, DType dtype = DType::Int64,
                                    std::optional<Device> device = std::nullopt);
// np.ix_: 1-d integer (or bool: their nonzero positions) sequences reshaped for an
// open mesh.
std::vector<ndarray> ix_(std::span<const ndarray> args);
// np.ravel_multi_index: flat indices (int64) of the integer or bool coordinate arrays
// (broadcast together) in `dims`; `mode` empty (raise), one mode for every axis or one
// per axis. NumPy's errors: ValueError "invalid entry in coordinates array" (raise),
// "cannot unravel if shape has zero entries (is empty).", "list of clipmodes has wrong
// length (3 instead of 2)"; TypeError "only int indices permitted". Negative extents
// with wrap or clip are a ValueError (NumPy computes meaningless values).
ndarray ravel_multi_index(std::span<const ndarray> multi_index, const Shape& dims,
                          std::span<const ClipMode> mode = {}, Order order = Order::C);
// np.unravel_index: one int64 array per dimension of `shape`, each of indices' shape;
// ValueError "index 12 is out of bounds for array with size 12" naming the first
// offending index.
std::vector<ndarray> unravel_index(const ndarray& indices, const Shape& shape, Order order = Order::C);

// ufunc.at: a[index] = ufunc(a[index], b) performed unbuffered, so each repeated
// position accumulates every operation (np.add.at(a, [0, 0], 1) adds 2). `b` is absent
// for unary ufuncs (the first overload) and broadcasts to a[index]'s shape. The loop is NumPy's for the
// operands and its result is cast back to a's dtype unsafely, as NumPy does (add.at of
// 1.7 into an int64 array adds 1 each time). On CUDA devices the
// updates are atomic (native atomics or compare-and-swap loops), so for floats the
// order of the updates to one position, hence the rounding, is unspecified.
void ufunc_at(std::string_view ufunc, const ndarray& a, std::span<const FancyIndex> index);
void ufunc_at(std::string_view ufunc, const ndarray& a, std::span<const FancyIndex> index, const ndarray& b);
// b a scalar: weak (NEP 50) when it is a C++/Python number, as in NumPy.
void ufunc_at(std::string_view ufunc, const ndarray& a, std::span<const FancyIndex> index, const Scalar& b);

}  // namespace cunp

// cunp/reduce.hpp — reductions with NumPy's names: sum, prod, mean, var, std, min,
// max, argmin, argmax, any, all, ptp, count_nonzero and the nan* variants; the scans
// cumsum, cumprod, nancumsum, nancumprod and diff; ufunc.reduce / ufunc.accumulate.
// Results are arrays (0-d for full reductions); nothing synchronizes.
#pragma once

#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "cunp/ndarray.hpp"
#include "cunp/scalar.hpp"

namespace cunp {

// NumPy's `axis`: None (every axis), an int, or a tuple of ints; negative counts
// from the end. `{.axis = 0}`, `{.axis = {0, 2}}`, `{}` (None).
class Axes {
 public:
  Axes() = default;  // None
  Axes(int axis) : axes_(std::vector<int>{axis}) {}  // NOLINT(google-explicit-constructor)
  Axes(std::initializer_list<int> axes) : axes_(std::vector<int>(axes)) {}
  Axes(std::vector<int> axes) : axes_(std::move(axes)) {}  // NOLINT(google-explicit-constructor)
  bool is_none() const noexcept { return !axes_.has_value(); }
  const std::vector<int>& values() const noexcept { return *axes_; }

 private:
  std::optional<std::vector<int>> axes_;
};

// Options of the reductions. `dtype` sets the accumulator and result dtype; `out`
// receives the result (shape as the result's, any dtype: cast unsafely, as NumPy's
// reductions do) and is returned. `ddof` is used by var/std (and nanvar/nanstd) only.
// `initial` starts each reduction (sum, prod, min, max, nansum, nanprod, nanmin,
// nanmax; it makes min/max of an empty slice valid); `where` (a bool array that
// broadcasts to the input) selects the elements that take part (sum, prod, min, max
// with `initial`, any, all, mean, var, std and the nan* variants), as NumPy's.
struct ReduceOptions {
  Axes axis = {};
  bool keepdims = false;
  std::optional<DType> dtype;
  std::optional<ndarray> out;
  double ddof = 0;  // any real number, as NumPy's ddof and the Array API's correction
  std::optional<Scalar> initial;
  std::optional<ndarray> where;
};

// Options of argmin/argmax (NumPy allows one axis or None there). `out` takes any dtype
// that casts safely to int64 (bool, int8..int64, uint8..uint32; TypeError otherwise,
// as NumPy) and receives the indices cast to it. `dtype` is CuPy's: the dtype of the
// returned indices, a signed integer dtype (TypeError otherwise); indices that do not
// fit it wrap.
struct ArgReduceOptions {
  std::optional<int> axis;
  bool keepdims = false;
  std::optional<ndarray> out;
  std::optional<DType> dtype;
};

// np.sum / np.prod: integers and bool accumulate in int64 (unsigned in uint64) unless
// `dtype` says otherwise; float16 accumulates in float32; floats use pairwise
// summation. An empty reduction gives 0 / 1.
ndarray sum(const ndarray& a, const ReduceOptions& options = {});
ndarray prod(const ndarray& a, const ReduceOptions& options = {});
// np.mean: integers and bool give float64, float16 accumulates in float32.
ndarray mean(const ndarray& a, const ReduceOptions& options = {});
// np.var / np.std with `ddof`: two passes (mean, then the mean of squared deviations),
// as NumPy computes them; complex inputs give real results.
ndarray var(const ndarray& a, const ReduceOptions& options = {});
ndarray std(const ndarray& a, const ReduceOptions& options = {});
// np.min/amin, np.max/amax: NaN propagates; ValueError on an empty reduction
// ("zero-size array to reduction operation minimum which has no identity").
ndarray min(const ndarray& a, const ReduceOptions& options = {});
ndarray max(const ndarray& a, const ReduceOptions& options = {});
inline ndarray amin(const ndarray& a, const ReduceOptions& options = {}) { return min(a, options); }
inline ndarray amax(const ndarray& a, const ReduceOptions& options = {}) { return max(a, options); }
// np.ptp: max - min, in the input's dtype.
ndarray ptp(const ndarray& a, const ReduceOptions& options = {});
// np.argmin / np.argmax: int64 indices (C-order flat index when axis is None); the
// first NaN wins; the first of equal values wins. ValueError "attempt to get argmax of
// an empty sequence" when a reduced slice is empty (not when the result is).
ndarray argmin(const ndarray& a, const ArgReduceOptions& options = {});
ndarray argmax(const ndarray& a, const ArgReduceOptions& options = {});
// np.any / np.all: bool results (a non-bool `out` receives 0/1).
ndarray any(const ndarray& a, const ReduceOptions& options = {});
ndarray all(const ndarray& a, const ReduceOptions& options = {});
// np.count_nonzero: int64 (NumPy returns a Python int for axis=None; cunp a 0-d array).
ndarray count_nonzero(const ndarray& a, const ReduceOptions& options = {});
// NaN-ignoring variants. nansum/nanprod treat NaN as 0/1; nanmin/nanmax give NaN for
// an all-NaN slice (NumPy also warns) and are NumPy's fmin/fmax reductions in their
// errors for every dtype; nanmean/nanvar/nanstd divide by the count of non-NaN values.
ndarray nansum(const ndarray& a, const ReduceOptions& options = {});
ndarray nanprod(const ndarray& a, const ReduceOptions& options = {});
ndarray nanmin(const ndarray& a, const ReduceOptions& options = {});
ndarray nanmax(const ndarray& a, const ReduceOptions& options = {});
ndarray nanmean(const ndarray& a, const ReduceOptions& options = {});
ndarray nanvar(const ndarray& a, const ReduceOptions& options = {});
ndarray nanstd(const ndarray& a, const ReduceOptions& options = {});

// ---- scans

// Options of the scans. `axis` empty: the input is flattened (C order) and the result
// is 1-d. `dtype` sets the accumulator and result dtype; `out` (the result's shape,
// any dtype: cast unsafely) receives the result and is returned.
struct ScanOptions {
  std::optional<int> axis;
  std::optional<DType> dtype;
  std::optional<ndarray> out;
};

// np.cumsum / np.cumprod: the dtype rules of sum (bool and signed integers accumulate
// in int64, unsigned in uint64); float16 accumulates in float32 and each output is
// rounded to float16 (NumPy rounds every partial sum, so cunp is the more accurate).
// Sums are sequential along each line on the CPU (bit-identical to NumPy's for
// float32/float64) and a blocked scan on the GPU (agrees to rounding).
ndarray cumsum(const ndarray& a, const ScanOptions& options = {});
ndarray cumprod(const ndarray& a, const ScanOptions& options = {});
// np.nancumsum / np.nancumprod: NaN reads as 0 / 1 (integers: as cumsum/cumprod).
ndarray nancumsum(const ndarray& a, const ScanOptions& options = {});
ndarray nancumprod(const ndarray& a, const ScanOptions& options = {});

// Options of diff (np.diff's n, axis, prepend, append).
struct DiffOptions {
  int n = 1;
  int axis = -1;
  std::optional<ndarray> prepend;
  std::optional<ndarray> append;
};
// np.diff: the n-th discrete difference along `axis` (bool: not_equal, as NumPy).
// `prepend`/`append` are broadcast to the input's shape with extent 1 along `axis`
// when they are 0-d. ValueError for 0-d input or a negative n.
ndarray diff(const ndarray& a, const DiffOptions& options = {});

// ---- ufunc.reduce / ufunc.accumulate

// `ufunc.reduce(a, axis, dtype, out, keepdims, initial, where)` for the ufuncs with a
// reduction: add, multiply, maximum, minimum, fmax, fmin, logical_and, logical_or,
// logical_xor, bitwise_and, bitwise_or, bitwise_xor. `options.axis` as given (the
// Python layer applies NumPy's default axis=0). ValueError for other ufunc names
// ("reduce only supported for binary functions" for unary ones, NotImplementedError
// for binary ufuncs cunp does not reduce), TypeError when the ufunc has no loop for
// the dtype (bitwise_and of floats).
ndarray ufunc_reduce(std::string_view ufunc, const ndarray& a, const ReduceOptions& options = {});
// `ufunc.accumulate(a, axis, dtype, out)` for the same ufuncs; `options.axis` empty
// means 0 (NumPy's default; it refuses None for arrays of more than one dimension).
ndarray ufunc_accumulate(std::string_view ufunc, const ndarray& a, const ScanOptions& options = {});

}  // namespace cunp

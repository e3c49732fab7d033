// src/manipulation/pad.cpp — np.pad (cunp/manipulation.hpp): the input copied into the center,
// then each axis padded in turn, as NumPy does, over the already padded earlier axes
// and the centers of the later ones. Copies and small reductions only; no kernels of
// its own.
#include <algorithm>
#include <string>

#include "manipulation/axes.hpp"
#include "copy/copy.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/statistics.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

using detail::slice_axis;


template <typename T>
T per_axis(const std::vector<T>& v, int axis, const T& dflt, const char* what) {
  if (v.empty()) return dflt;
  if (v.size() == 1) return v[0];
  if (static_cast<int>(v.size()) <= axis) throw ValueError(std::string(what) + " must have one pair per axis");
  return v[static_cast<std::size_t>(axis)];
}

bool is_mode(std::string_view mode, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), mode) != names.end();
}

// Source position (relative to the original axis of length n) of padded position t.
std::int64_t source_of(std::string_view mode, std::int64_t t, std::int64_t n) {
  if (mode == "edge") return std::clamp<std::int64_t>(t, 0, n - 1);
  if (mode == "wrap") return ((t % n) + n) % n;
  if (mode == "reflect") {
    if (n == 1) return 0;
    const std::int64_t p = 2 * n - 2;
    const std::int64_t m = ((t % p) + p) % p;
    return m >= n ? p - m : m;
  }
  const std::int64_t p = 2 * n;  // symmetric
  const std::int64_t m = ((t % p) + p) % p;
  return m >= n ? p - 1 - m : m;
}

// The statistic of `region` along `axis`, keeping the axis (length 1).
ndarray statistic(std::string_view mode, const ndarray& region, int axis, DType dtype) {
  const ReduceOptions o{.axis = axis, .keepdims = true};
  if (mode == "maximum") return max(region, o);
  if (mode == "minimum") return min(region, o);
  const ndarray m = mode == "median" ? median(region, {.axis = axis, .keepdims = true}) : mean(region, o);
  // NumPy rounds the mean/median (half to even) before storing it in an integer array.
  return is_integer(dtype) || dtype == DType::Bool ? around(m) : m;
}

// linear_ramp values for `width` positions from `end` towards `edge` (endpoint
// excluded), as np.linspace computes them: end + j * ((edge - end) / width), floored
// for integer dtypes; reversed along the axis for the trailing side.
ndarray ramp(const ndarray& edge, double end, std::int64_t width, int axis, bool reversed, DType dtype) {
  const DType ct = is_complex(dtype) ? DType::Complex128 : DType::Float64;
  Shape jshape(static_cast<std::size_t>(edge.ndim()), 1);
  jshape[static_cast<std::size_t>(axis)] = width;
  const ndarray j = reversed ? arange(Scalar(width - 1), Scalar(-1), Scalar(-1), {.dtype = ct, .device = edge.device()})
                             : arange(Scalar(width), {.dtype = ct, .device = edge.device()});
  const ndarray step = true_divide(subtract(edge.astype(ct), end), static_cast<double>(width));
  ndarray y = add(multiply(j.reshape(jshape), step), end);
  if (is_integer(dtype)) y = floor(y);
  return y;
}

}  // namespace

ndarray pad(const ndarray& a, std::span<const std::pair<std::int64_t, std::int64_t>> pad_width, std::string_view mode,
            double constant_value) {
  return pad(a, pad_width, mode, PadOptions{.constant_values = {{constant_value, constant_value}}});
}

ndarray pad(const ndarray& a, std::span<const std::pair<std::int64_t, std::int64_t>> pad_width, std::string_view mode,
            const PadOptions& options) {
  const int nd = a.ndim();
  if (static_cast<int>(pad_width.size()) != nd) {
    throw ValueError("pad_width must have one (before, after) pair per axis");
  }
  if (!is_mode(mode, {"constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum", "mean",
                      "median", "minimum", "empty"}))
    throw ValueError("mode '" + std::string(mode) + "' is not supported");
  Shape shape = a.shape();
  for (int d = 0; d < nd; ++d) {
    const auto& [b, e] = pad_width[static_cast<std::size_t>(d)];
    if (b < 0 || e < 0) throw ValueError("index can't contain negative values");
    shape[static_cast<std::size_t>(d)] += b + e;
  }
  const bool constant = mode == "constant";
  const std::pair<double, double> zero{0.0, 0.0};
  // One constant for every side: a fill, then the center.
  bool uniform = constant;
  if (constant)
    for (int d = 0; d < nd; ++d) {
      const auto cv = per_axis(options.constant_values, d, zero, "constant_values");
      const auto c0 = per_axis(options.constant_values, 0, zero, "constant_values");
      uniform = uniform && cv.first == c0.first && cv.second == c0.first;
    }
  const double fill_value = per_axis(options.constant_values, 0, zero, "constant_values").first;
  ndarray out = uniform ? full(shape, Scalar::of(a.dtype(), Scalar(fill_value)), {.dtype = a.dtype(), .device = a.device()})
                        : empty(shape, {.dtype = a.dtype(), .device = a.device()});
  ndarray center = out;
  for (int d = 0; d < nd; ++d) {
    const auto u = static_cast<std::size_t>(d);
    center = slice_axis(center, d, pad_width[u].first, pad_width[u].first + a.shape()[u]);
  }
  detail::copy_elements(center, a);
  if (uniform || mode == "empty") return out;
  for (int d = 0; d < nd; ++d) {
    const auto u = static_cast<std::size_t>(d);
    const std::int64_t n = a.shape()[u], before = pad_width[u].first, after = pad_width[u].second;
    if (before == 0 && after == 0) continue;
    ndarray region = out;
    for (int k = d + 1; k < nd; ++k) {
      const auto v = static_cast<std::size_t>(k);
      region = slice_axis(region, k, pad_width[v].first, pad_width[v].first + a.shape()[v]);
    }
    const ndarray lo = slice_axis(region, d, 0, before);
    const ndarray hi = slice_axis(region, d, before + n, before + n + after);
    if (constant) {
      const auto cv = per_axis(options.constant_values, d, zero, "constant_values");
      detail::fill_elements(lo, Scalar::of(a.dtype(), Scalar(cv.first)));
      detail::fill_elements(hi, Scalar::of(a.dtype(), Scalar(cv.second)));
      continue;
    }
    if (n == 0)
      throw ValueError("can't extend empty axis " + std::to_string(d) + " using modes other than 'constant' or 'empty'");
    if (mode == "linear_ramp") {
      const auto ev = per_axis(options.end_values, d, zero, "end_values");
      if (before > 0) detail::copy_elements(lo, ramp(slice_axis(region, d, before, before + 1), ev.first, before, d, false, a.dtype()));
      if (after > 0)
        detail::copy_elements(hi, ramp(slice_axis(region, d, before + n - 1, before + n), ev.second, after, d, true, a.dtype()));
      continue;
    }
    if (is_mode(mode, {"maximum", "mean", "median", "minimum"})) {
      using Length = std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>;
      const Length sl = per_axis(options.stat_length, d, Length{}, "stat_length");
      const std::int64_t left = std::min(sl.first.value_or(n), n), right = std::min(sl.second.value_or(n), n);
      // NumPy: an empty extremum is an error, an empty mean or median is NaN.
      if (mode != "mean" && mode != "median" && ((before > 0 && left <= 0) || (after > 0 && right <= 0)))
        throw ValueError("stat_length of 0 yields no value for padding");
      if (before > 0) detail::copy_elements(lo, statistic(mode, slice_axis(region, d, before, before + left), d, a.dtype()));
      if (after > 0)
        detail::copy_elements(hi, statistic(mode, slice_axis(region, d, before + n - right, before + n), d, a.dtype()));
      continue;
    }
    for (std::int64_t pos = 0; pos < before + n + after; ++pos) {
      if (pos >= before && pos < before + n) continue;
      const std::int64_t src = before + source_of(mode, pos - before, n);
      detail::copy_elements(slice_axis(region, d, pos, pos + 1), slice_axis(region, d, src, src + 1));
    }
  }
  return out;
}

}  // namespace cunp

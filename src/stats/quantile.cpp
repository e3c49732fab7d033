// src/stats/quantile.cpp — median, quantile, percentile and their nan* variants.
//
// Note [Quantiles by sorting]: the reduced axes are moved last and merged into one of
// length N, the rows are sorted with cunp::sort (NaNs last) and the wanted order
// statistics gathered with take / take_along_axis; interpolation, NaN propagation and
// the result dtypes then come from the same ufunc calls NumPy's _quantile makes
// (virtual index, _get_indexes, _get_gamma, _lerp), so they run on the data's device
// and follow NumPy's promotion exactly. Without NaN removal the virtual indexes depend
// only on N and q and are computed on the host (q is small); the nan* variants count
// the non-NaN values of each row on the device and compute per-row indexes there.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/sort.hpp"
#include "cunp/statistics.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

using M = QuantileMethod;

constexpr std::array<std::pair<std::string_view, M>, 13> kMethods = {{
    {"inverted_cdf", M::InvertedCdf},
    {"averaged_inverted_cdf", M::AveragedInvertedCdf},
    {"closest_observation", M::ClosestObservation},
    {"interpolated_inverted_cdf", M::InterpolatedInvertedCdf},
    {"hazen", M::Hazen},
    {"weibull", M::Weibull},
    {"linear", M::Linear},
    {"median_unbiased", M::MedianUnbiased},
    {"normal_unbiased", M::NormalUnbiased},
    {"lower", M::Lower},
    {"higher", M::Higher},
    {"midpoint", M::Midpoint},
    {"nearest", M::Nearest},
}};

// ---- the rows: reduced axes last, merged ---------------------------------------------

struct Rows {
  ndarray a;         // (kept..., N)
  Shape kept;        // the kept axes, in order
  Shape keep_shape;  // a's shape with 1 for each reduced axis
  std::int64_t n = 0;
};

Rows to_rows(const ndarray& a, const Axes& axis) {
  std::vector<int> red;
  if (axis.is_none()) {
    for (int d = 0; d < a.ndim(); ++d) red.push_back(d);
  } else {
    for (int ax : axis.values()) {
      const int d = normalize_axis(ax, a.ndim());
      if (std::find(red.begin(), red.end(), d) != red.end()) throw ValueError("repeated axis");
      red.push_back(d);
    }
    std::sort(red.begin(), red.end());
  }
  Rows r;
  r.keep_shape = a.shape();
  r.n = 1;
  std::vector<int> perm;
  for (int d = 0; d < a.ndim(); ++d) {
    if (std::find(red.begin(), red.end(), d) != red.end()) continue;
    perm.push_back(d);
    r.kept.push_back(a.shape()[static_cast<std::size_t>(d)]);
  }
  for (int d : red) {
    perm.push_back(d);
    r.n *= a.shape()[static_cast<std::size_t>(d)];
    r.keep_shape[static_cast<std::size_t>(d)] = 1;
  }
  Shape rs = r.kept;
  rs.push_back(r.n);
  r.a = a.transpose(perm).reshape(rs);
  return r;
}

// res: (kept..., Q). The result: q's shape, then the kept (or keepdims) shape.
ndarray finish(ndarray res, const Rows& r, const Shape& qshape, bool keepdims,
               const std::optional<ndarray>& out) {
  Shape target = qshape;
  const Shape& tail = keepdims ? r.keep_shape : r.kept;
  target.insert(target.end(), tail.begin(), tail.end());
  if (!qshape.empty()) {
    const int src[] = {-1}, dst[] = {0};
    res = moveaxis(res, src, dst);
  }
  res = res.reshape(target);
  if (!out) return res;
  if (out->shape() != target)
    throw ValueError("output parameter has shape " + shape_str(out->shape()) +
                     " but the result has shape " + shape_str(target));
  ndarray dst = *out;
  dst.assign(res);
  return dst;
}

// The element at position `i` of every row, as (kept..., 1).
ndarray column(const ndarray& s, std::int64_t i) {
  std::vector<Index> ix(static_cast<std::size_t>(s.ndim() - 1), slice());
  ix.emplace_back(slice(i, i + 1));
  return s.view(ix);
}

// NaN where the sorted row ends in NaN (NumPy's slices_having_nans), for inexact data.
ndarray propagate_nan(const ndarray& sorted, const ndarray& res) {
  if (!is_inexact(sorted.dtype()) || sorted.shape().back() == 0) return res;
  const ndarray last = column(sorted, sorted.shape().back() - 1);
  return where(isnan(last), last, res);
}

// ---- virtual indexes (NumPy's _QuantileMethods) --------------------------------------

// n + k as NumPy uses the sample count: a Python int (weak) when it is one number, or
// per row (the nan* variants) an array converted to q's dtype, as the weak int would be.
struct Count {
  std::optional<std::int64_t> host;
  ndarray rows;  // int64 (kept..., 1)
  DType as = DType::Float64;
  Operand plus(std::int64_t k) const {
    if (host) return Operand(*host + k);
    return Operand(add(rows, k).astype(as));
  }
};

bool picks_element(M m) {
  return m == M::Lower || m == M::Higher || m == M::Nearest || m == M::InvertedCdf ||
         m == M::ClosestObservation;
}

ndarray floor_of(const ndarray& x) { return is_inexact(x.dtype()) ? floor(x) : x; }

// NumPy's _discrete_interpolation_to_boundaries.
template <typename Cond>
ndarray discrete(const ndarray& index, Cond&& cond) {
  const ndarray previous = floor_of(index);
  const ndarray next = add(previous, 1);
  const ndarray gamma = subtract(index, previous);
  const ndarray res = where(cond(gamma, index), previous, next).astype(DType::Int64);
  return maximum(res, 0);
}

ndarray compute_virtual_index(const Count& n, const ndarray& q, double alpha, double beta) {
  return subtract(add(multiply(n.plus(0), q), add(alpha, multiply(q, 1.0 - alpha - beta))), 1);
}

ndarray virtual_index(M m, const Count& n, const ndarray& q) {
  switch (m) {
    case M::InvertedCdf:
      return discrete(subtract(multiply(n.plus(0), q), 1),
                      [](const ndarray& g, const ndarray&) { return equal(g, 0); });
    case M::AveragedInvertedCdf:
      return subtract(multiply(n.plus(0), q), 1);
    case M::ClosestObservation:
      return discrete(subtract(subtract(multiply(n.plus(0), q), 1), 0.5),
                      [](const ndarray& g, const ndarray& index) {
                        return logical_and(equal(g, 0), equal(remainder(floor_of(index), 2), 1));
                      });
    case M::InterpolatedInvertedCdf:
      return compute_virtual_index(n, q, 0, 1);
    case M::Hazen:
      return compute_virtual_index(n, q, 0.5, 0.5);
    case M::Weibull:
      return compute_virtual_index(n, q, 0, 0);
    case M::Linear:
      return multiply(n.plus(-1), q);
    case M::MedianUnbiased:
      return compute_virtual_index(n, q, 1.0 / 3.0, 1.0 / 3.0);
    case M::NormalUnbiased:
      return compute_virtual_index(n, q, 3.0 / 8.0, 3.0 / 8.0);
    case M::Lower:
      return floor_of(multiply(n.plus(-1), q)).astype(DType::Int64);
    case M::Higher: {
      const ndarray x = multiply(n.plus(-1), q);
      return (is_inexact(x.dtype()) ? ceil(x) : x).astype(DType::Int64);
    }
    case M::Midpoint: {
      const ndarray x = multiply(n.plus(-1), q);
      return multiply(0.5, add(floor_of(x), is_inexact(x.dtype()) ? ceil(x) : x));
    }
    case M::Nearest: {
      const ndarray x = multiply(n.plus(-1), q);
      return (is_inexact(x.dtype()) ? around(x) : x).astype(DType::Int64);
    }
  }
  return {};
}

// NumPy's _get_gamma: vi - previous (the adjusted previous index), fixed per method,
// in vi's dtype.
ndarray gamma_of(M m, const ndarray& vi, const ndarray& previous) {
  ndarray g = subtract(vi, previous);
  if (m == M::AveragedInvertedCdf) g = where(equal(g, 0), 0.5, 1.0);
  if (m == M::Midpoint) g = where(equal(remainder(vi, 1), 0), 0.0, 0.5);
  return g.astype(vi.dtype());
}

// NumPy's _lerp(a, b, t): a + (b - a) t, or b - (b - a)(1 - t) where t >= 0.5.
ndarray lerp(const ndarray& a, const ndarray& b, const Operand& t, const Operand& one_minus_t,
             const Operand& upper) {
  const ndarray diff = subtract(b, a);
  const ndarray low = add(a, multiply(diff, t));
  const ndarray high = subtract(b, multiply(diff, one_minus_t));
  if (!upper.is_array())
    return upper.scalar().to_bool() ? high.astype(low.dtype(), {.copy = false}) : low;
  return where(upper, high.astype(low.dtype(), {.copy = false}), low);
}

// ---- q --------------------------------------------------------------------------------

struct Q {
  ndarray values;  // host (cpu) array, q's shape
  bool weak = false;
};

void check_q(const Q& q, bool percent) {
  if (q.values.ndim() > 2) throw ValueError("q must be a scalar or 1d");
  if (is_complex(q.values.dtype())) throw TypeError("q must be real");
  const ndarray v = q.values.astype(DType::Float64);
  const auto* p = static_cast<const double*>(v.data());
  for (std::int64_t i = 0; i < v.size(); ++i)
    if (!(p[i] >= 0.0 && p[i] <= 1.0))
      throw ValueError(percent ? "Percentiles must be in the range [0, 100]"
                               : "Quantiles must be in the range [0, 1]");
}

Q strong_q(const ndarray& q) { return {q.to(Device::cpu()).copy(), false}; }
Q weak_q(double q) {
  return {full(Shape{}, Scalar(q), {.dtype = DType::Float64, .device = Device::cpu()}), true};
}
Q as_fraction(Q q) {
  q.values = true_divide(q.values, 100);
  return q;
}
// q as a fraction (from percent when `percent`), range-checked.
Q checked(Q q, bool percent) {
  if (percent) q = as_fraction(std::move(q));
  check_q(q, percent);
  return q;
}

void check_real(const ndarray& a) {
  if (is_complex(a.dtype())) throw TypeError("a must be an array of real numbers");
}

// The result dtype of the interpolation when q is weak: the data's float dtype.
DType weak_result_dtype(DType data) { return is_floating(data) ? data : DType::Float64; }

ndarray quantile_impl(const ndarray& a, const Q& q, const QuantileOptions& o) {
  check_real(a);
  const Rows r = to_rows(a, o.axis);
  const Device dev = a.device();
  const std::int64_t n = r.n;
  if (n == 0) throw IndexError("index -1 is out of bounds for axis 0 with size 0");
  const ndarray s = sort(r.a, -1);
  const ndarray vi = virtual_index(o.method, Count{.host = n}, q.values).reshape({-1});
  ndarray res;
  if (picks_element(o.method) || (o.method == M::Linear && !is_inexact(vi.dtype()))) {
    res = take(s, vi.astype(DType::Int64).to(dev), -1);
  } else {
    // NumPy's _get_indexes: -1 (the last element) above the range, 0 below it.
    const ndarray prev = floor_of(vi);
    const ndarray above = greater_equal(vi, n - 1), below = less(vi, 0);
    const ndarray prev_adj = where(below, 0, where(above, -1, prev)).astype(DType::Int64);
    const ndarray next_adj = where(below, 0, where(above, -1, add(prev, 1))).astype(DType::Int64);
    const ndarray gamma = gamma_of(o.method, vi, prev_adj);
    const ndarray pv = take(s, where(less(prev_adj, 0), n - 1, prev_adj).to(dev), -1);
    const ndarray nv = take(s, where(less(next_adj, 0), n - 1, next_adj).to(dev), -1);
    if (q.weak) {
      const double t = gamma.item().to_double();
      res = lerp(pv, nv, Operand(t), Operand(1.0 - t), Operand(t >= 0.5));
    } else {
      const ndarray t = gamma.to(dev);
      res = lerp(pv, nv, t, subtract(1, t), greater_equal(t, 0.5));
    }
  }
  return finish(propagate_nan(s, res), r, q.values.shape(), o.keepdims, o.out);
}

ndarray nanquantile_impl(const ndarray& a, const Q& q, const QuantileOptions& o) {
  check_real(a);
  if (!is_inexact(a.dtype())) return quantile_impl(a, q, o);
  if (a.size() == 0) return nanmean(a, {.axis = o.axis, .keepdims = o.keepdims, .out = o.out});
  const Rows r = to_rows(a, o.axis);
  const Device dev = a.device();
  const std::int64_t n = r.n;
  const ndarray s = sort(r.a, -1);
  const ndarray c = count_nonzero(logical_not(isnan(s)), {.axis = -1, .keepdims = true});
  const ndarray qd = q.values.reshape({-1}).to(dev);
  const Count count{.rows = c, .as = is_inexact(qd.dtype()) ? qd.dtype() : DType::Int64};
  const ndarray vi = virtual_index(o.method, count, qd);
  ndarray res;
  if (picks_element(o.method) || (o.method == M::Linear && !is_inexact(vi.dtype()))) {
    res = take_along_axis(s, clip(vi.astype(DType::Int64), 0, n - 1), -1);
  } else {
    const ndarray prev = floor_of(vi);
    const ndarray above = greater_equal(vi, count.plus(-1)), below = less(vi, 0);
    const ndarray prev_adj = where(below, 0, where(above, -1, prev)).astype(DType::Int64);
    const ndarray next_adj = where(below, 0, where(above, -1, add(prev, 1))).astype(DType::Int64);
    const ndarray gamma = gamma_of(o.method, vi, prev_adj);
    const ndarray last = subtract(c, 1);
    auto gather = [&](const ndarray& idx) {
      return take_along_axis(s, clip(where(less(idx, 0), last, idx), 0, n - 1), -1);
    };
    const ndarray pv = gather(prev_adj), nv = gather(next_adj);
    if (q.weak) {
      // Per row NumPy's gamma is a Python float: converted to the data's dtype where
      // it is used, and 1 - gamma is taken in float64 first.
      const DType rt = weak_result_dtype(a.dtype());
      res = lerp(pv, nv, gamma.astype(rt), subtract(1.0, gamma).astype(rt),
                 greater_equal(gamma, 0.5));
    } else {
      res = lerp(pv, nv, gamma, subtract(1, gamma), greater_equal(gamma, 0.5));
    }
  }
  res = where(equal(c, 0), std::nan(""), res);
  return finish(res, r, q.values.shape(), o.keepdims, o.out);
}

}  // namespace

QuantileMethod parse_quantile_method(std::string_view text) {
  for (const auto& [n, m] : kMethods)
    if (n == text) return m;
  std::string names;
  for (const auto& [n, m] : kMethods)
    names += std::string(names.empty() ? "" : ", ") + "'" + std::string(n) + "'";
  throw ValueError("'" + std::string(text) + "' is not a valid method. Use one of: " + names);
}

std::string_view name(QuantileMethod method) noexcept {
  for (const auto& [n, m] : kMethods)
    if (m == method) return n;
  return "linear";
}

ndarray median(const ndarray& a, const MedianOptions& o) {
  const Rows r = to_rows(a, o.axis);
  const ndarray s = sort(r.a, -1);
  const std::int64_t n = r.n;
  const std::int64_t h = n / 2;
  std::vector<Index> ix(static_cast<std::size_t>(s.ndim() - 1), slice());
  ix.emplace_back(n == 0 ? slice(0, 0) : n % 2 == 1 ? slice(h, h + 1) : slice(h - 1, h + 1));
  ndarray m = mean(s.view(ix), {.axis = -1, .keepdims = true});
  return finish(propagate_nan(s, m), r, {}, o.keepdims, o.out);
}

ndarray nanmedian(const ndarray& a, const MedianOptions& o) {
  if (!is_inexact(a.dtype())) return median(a, o);
  if (a.size() == 0) return nanmean(a, {.axis = o.axis, .keepdims = o.keepdims, .out = o.out});
  const Rows r = to_rows(a, o.axis);
  const std::int64_t n = r.n;
  const ndarray s = sort(r.a, -1);
  const ndarray c = count_nonzero(logical_not(isnan(s)), {.axis = -1, .keepdims = true});
  // The middle one or two of the c values (an odd count takes its middle twice,
  // as NumPy's masked median does); mean of the pair, NaN for an all-NaN row.
  const ndarray hi = clip(floor_divide(c, 2), 0, std::max<std::int64_t>(n - 1, 0));
  const ndarray lo = clip(where(equal(remainder(c, 2), 1), hi, subtract(hi, 1)), 0,
                          std::max<std::int64_t>(n - 1, 0));
  const ndarray idx[] = {lo, hi};
  const ndarray pair = take_along_axis(s, concatenate(idx, -1), -1);
  const ndarray m = where(equal(c, 0), std::nan(""), mean(pair, {.axis = -1, .keepdims = true}));
  return finish(m, r, {}, o.keepdims, o.out);
}

ndarray quantile(const ndarray& a, const ndarray& q, const QuantileOptions& o) {
  return quantile_impl(a, checked(strong_q(q), false), o);
}
ndarray quantile(const ndarray& a, double q, const QuantileOptions& o) {
  return quantile_impl(a, checked(weak_q(q), false), o);
}
ndarray percentile(const ndarray& a, const ndarray& q, const QuantileOptions& o) {
  check_real(a);
  return quantile_impl(a, checked(strong_q(q), true), o);
}
ndarray percentile(const ndarray& a, double q, const QuantileOptions& o) {
  check_real(a);
  return quantile_impl(a, checked(weak_q(q), true), o);
}
ndarray nanquantile(const ndarray& a, const ndarray& q, const QuantileOptions& o) {
  return nanquantile_impl(a, checked(strong_q(q), false), o);
}
ndarray nanquantile(const ndarray& a, double q, const QuantileOptions& o) {
  return nanquantile_impl(a, checked(weak_q(q), false), o);
}
ndarray nanpercentile(const ndarray& a, const ndarray& q, const QuantileOptions& o) {
  check_real(a);
  return nanquantile_impl(a, checked(strong_q(q), true), o);
}
ndarray nanpercentile(const ndarray& a, double q, const QuantileOptions& o) {
  check_real(a);
  return nanquantile_impl(a, checked(weak_q(q), true), o);
}

}  // namespace cunp

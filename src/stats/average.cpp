// src/stats/average.cpp — average, cov and corrcoef, composed from the reductions,
// ufuncs and matmul exactly as NumPy composes them (so dtypes and rounding follow).
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/statistics.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

// NumPy's normalize_axis_tuple (order kept; AxisError / "repeated axis").
std::vector<int> axis_tuple(const Axes& axis, int ndim) {
  std::vector<int> out;
  for (int ax : axis.values()) {
    const int d = normalize_axis(ax, ndim);
    if (std::find(out.begin(), out.end(), d) != out.end()) throw ValueError("repeated axis");
    out.push_back(d);
  }
  return out;
}

std::pair<ndarray, ndarray> average_impl(const ndarray& a, const AverageOptions& o, bool returned) {
  const Axes axis = o.axis.is_none() ? Axes() : Axes(axis_tuple(o.axis, a.ndim()));
  if (!o.weights) {
    const ndarray avg = mean(a, {.axis = axis, .keepdims = o.keepdims});
    if (!returned) return {avg, ndarray()};
    const double count =
        avg.size() == 0 ? 0.0 : static_cast<double>(a.size()) / static_cast<double>(avg.size());
    return {avg, full(avg.shape(), Scalar(count), {.dtype = avg.dtype(), .device = avg.device()})};
  }
  ndarray w = o.weights->to(a.device());
  const DType wide[] = {a.dtype(), w.dtype(), DType::Float64};
  const DType rt =
      is_inexact(a.dtype()) ? result_type(std::span<const DType>(wide, 2)) : result_type(wide);
  if (a.shape() != w.shape()) {
    if (axis.is_none())
      throw TypeError("Axis must be specified when shapes of a and weights differ.");
    const std::vector<int>& ax = axis.values();
    Shape along;
    for (int d : ax) along.push_back(a.shape()[static_cast<std::size_t>(d)]);
    if (w.shape() != along)
      throw ValueError("Shape of weights must be consistent with shape of a along specified axis.");
    std::vector<int> order(ax.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int i, int j) {
      return ax[static_cast<std::size_t>(i)] < ax[static_cast<std::size_t>(j)];
    });
    Shape shape(static_cast<std::size_t>(a.ndim()), 1);
    for (int d : ax) shape[static_cast<std::size_t>(d)] = a.shape()[static_cast<std::size_t>(d)];
    w = w.transpose(order).reshape(shape);
  }
  const ndarray scl = sum(w, {.axis = axis, .keepdims = o.keepdims, .dtype = rt});
  if (any(equal(scl, 0)).item().to_bool())
    throw ZeroDivisionError("Weights sum to zero, can't be normalized");
  const ndarray avg =
      true_divide(sum(multiply(a, w, {.dtype = rt}), {.axis = axis, .keepdims = o.keepdims}), scl);
  if (!returned) return {avg, ndarray()};
  return {avg, scl.shape() == avg.shape() ? scl : scl.broadcast_to(avg.shape()).copy()};
}

// np.array(x, ndmin=2, dtype=dt).
ndarray at_least_2d(const ndarray& x, DType dt) {
  ndarray y = x.astype(dt);
  if (y.ndim() == 0) return y.reshape({1, 1});
  if (y.ndim() == 1) return y.reshape({1, y.shape()[0]});
  return y;
}

// The 1-d float64 weights of cov, checked as NumPy checks them.
ndarray cov_weights(const ndarray& w, const char* what, std::int64_t nobs, Device dev) {
  if (w.ndim() > 1) throw Error(std::string("cannot handle multidimensional ") + what);
  const ndarray f = w.astype(DType::Float64).to(dev);
  if (f.ndim() == 0 || f.shape()[0] != nobs)
    throw Error(std::string("incompatible numbers of samples and ") + what);
  if (any(less(f, 0)).item().to_bool()) throw ValueError(std::string(what) + " cannot be negative");
  return f;
}

}  // namespace

ndarray average(const ndarray& a, const AverageOptions& options) {
  return average_impl(a, options, false).first;
}

std::pair<ndarray, ndarray> average_returned(const ndarray& a, const AverageOptions& options) {
  return average_impl(a, options, true);
}

ndarray cov(const ndarray& m, const CovOptions& o) {
  if (m.ndim() > 2) throw ValueError("m has more than 2 dimensions");
  if (o.y && o.y->ndim() > 2) throw ValueError("y has more than 2 dimensions");
  DType dt = o.dtype.value_or(promote_types(m.dtype(), DType::Float64));
  if (!o.dtype && o.y) dt = promote_types(dt, o.y->dtype());
  const Device dev = m.device();
  ndarray x = at_least_2d(m, dt);
  if (!o.rowvar && m.ndim() != 1) x = x.T();
  if (x.shape()[0] == 0) return empty({0, 0}, {.dtype = DType::Float64, .device = dev});
  if (o.y) {
    ndarray y = at_least_2d(o.y->to(dev), dt);
    if (!o.rowvar && y.shape()[0] != 1) y = y.T();
    const ndarray parts[] = {x, y};
    x = concatenate(parts, 0);
  }
  const std::int64_t ddof = o.ddof.value_or(o.bias ? 0 : 1);
  const std::int64_t nobs = x.shape()[1];
  std::optional<ndarray> w;
  if (o.fweights) {
    const ndarray f = o.fweights->astype(DType::Float64).to(dev);
    if (!all(equal(f, around(f))).item().to_bool()) throw TypeError("fweights must be integer");
    w = cov_weights(f, "fweights", nobs, dev);
  }
  std::optional<ndarray> aw;
  if (o.aweights) {
    aw = cov_weights(*o.aweights, "aweights", nobs, dev);
    w = w ? multiply(*w, *aw) : *aw;
  }
  const auto [avg, wsum_all] = average_returned(x, {.axis = 1, .weights = w});
  double fact;
  if (!w) {
    fact = static_cast<double>(nobs - ddof);
  } else {
    const double wsum = wsum_all.item(0).to_double();
    if (ddof == 0)
      fact = wsum;
    else if (!aw)
      fact = wsum - static_cast<double>(ddof);
    else
      fact = wsum - static_cast<double>(ddof) * sum(multiply(*w, *aw)).item().to_double() / wsum;
  }
  if (fact <= 0) fact = 0.0;  // NumPy warns "Degrees of freedom <= 0 for slice"
  x = subtract(x, avg.reshape({avg.shape()[0], 1})).astype(x.dtype());  // NumPy: X -= avg[:, None]
  const ndarray xt = w ? multiply(x, *w).T() : x.T();
  const ndarray c = matmul(x, is_complex(xt.dtype()) ? conjugate(xt) : xt);
  // NumPy: c *= np.true_divide(1, fact) (a Python float, or a float64 scalar when weighted).
  const ndarray scaled =
      w ? multiply(c, full(Shape{}, Scalar(1.0 / fact), {.dtype = DType::Float64, .device = dev}))
              .astype(c.dtype())
        : multiply(c, 1.0 / fact);
  return scaled.squeeze();
}

ndarray corrcoef(const ndarray& x, const CorrcoefOptions& o) {
  const ndarray c = cov(x, {.y = o.y, .rowvar = o.rowvar, .dtype = o.dtype});
  if (c.ndim() != 2) return true_divide(c, c);
  const ndarray d = diagonal(c);
  const ndarray sd = sqrt(real(d));
  ndarray r = true_divide(c, sd.reshape({sd.shape()[0], 1}));
  r = true_divide(r, sd.reshape({1, sd.shape()[0]}));
  if (!is_complex(r.dtype())) return clip(r, -1, 1);
  ndarray out = r.copy();
  real(out).assign(clip(real(r), -1, 1));
  imag(out).assign(clip(imag(r), -1, 1));
  return out;
}

}  // namespace cunp

// src/stats/bin_estimators.cpp — the string `bins` of histogram/histogram_bin_edges
// ("auto", "fd", "doane", "scott", "rice", "sturges", "sqrt"): NumPy's bin-width
// estimators, which reduce to a number of equal-width bins over the outer edges.
// Each estimator reads a few reductions back to the host, as NumPy computes them on
// scalars.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/reduce.hpp"
#include "cunp/statistics.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

double item(const ndarray& a) { return a.item().to_double(); }

// NumPy's _ptp: max - min, unsigned for integers (so it cannot overflow).
double ptp_of(const ndarray& x) {
  if (is_floating(x.dtype())) return item(ptp(x));
  return item(max(x)) - item(min(x));
}

double width_sqrt(const ndarray& x) { return ptp_of(x) / std::sqrt(static_cast<double>(x.size())); }
double width_sturges(const ndarray& x) {
  return ptp_of(x) / (std::log2(static_cast<double>(x.size())) + 1.0);
}
double width_rice(const ndarray& x) {
  return ptp_of(x) / (2.0 * std::pow(static_cast<double>(x.size()), 1.0 / 3));
}
double width_scott(const ndarray& x) {
  const double factor =
      std::pow((24.0 * std::sqrt(std::numbers::pi)) / static_cast<double>(x.size()), 1.0 / 3);
  return factor * item(cunp::std(x));
}
double width_doane(const ndarray& x) {
  const double n = static_cast<double>(x.size());
  if (x.size() <= 2) return 0.0;
  const double sg1 = std::sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)));
  const ndarray sigma = cunp::std(x);
  if (!(item(sigma) > 0.0)) return 0.0;
  const ndarray temp = power(true_divide(subtract(x, mean(x)), sigma), 3);
  const double g1 = item(mean(temp));
  return ptp_of(x) / (1.0 + std::log2(n) + std::log2(1.0 + std::abs(g1) / sg1));
}
double width_fd(const ndarray& x) {
  const ndarray q = percentile(x, asarray<double>({75.0, 25.0}, Device::cpu()));
  const double iqr = q.item(0).to_double() - q.item(1).to_double();
  return 2.0 * iqr * std::pow(static_cast<double>(x.size()), -1.0 / 3.0);
}
double width_auto(const ndarray& x) {
  const double fd = width_fd(x), sturges = width_sturges(x);
  return fd != 0.0 ? std::min(fd, sturges) : sturges;
}

// The number of equal bins NumPy's _get_bin_edges derives from a string `bins`.
std::int64_t estimated_bins(const ndarray& a, std::string_view bins, const HistogramOptions& o) {
  std::string name(bins);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  double (*width_fn)(const ndarray&) = nullptr;
  if (name == "auto")
    width_fn = width_auto;
  else if (name == "fd")
    width_fn = width_fd;
  else if (name == "doane")
    width_fn = width_doane;
  else if (name == "scott")
    width_fn = width_scott;
  else if (name == "rice")
    width_fn = width_rice;
  else if (name == "sturges")
    width_fn = width_sturges;
  else if (name == "sqrt")
    width_fn = width_sqrt;
  else if (name == "stone")
    throw NotImplementedError("the 'stone' bin estimator is not supported by cunp");
  else
    throw ValueError("'" + name + "' is not a valid estimator for `bins`");
  if (o.weights)
    throw TypeError(
        "Automated estimation of the number of bins is not supported for weighted data");
  ndarray x = (a.dtype() == DType::Bool ? a.astype(DType::UInt8) : a).reshape({-1});
  if (is_complex(x.dtype())) throw TypeError("histogram: complex data is not supported");
  double first = 0, last = 1;
  if (o.range) {
    first = o.range->first;
    last = o.range->second;
    if (first > last) throw ValueError("max must be larger than min in range parameter.");
    if (!std::isfinite(first) || !std::isfinite(last))
      throw ValueError("supplied range of [" + Scalar(first).str() + ", " + Scalar(last).str() +
                       "] is not finite");
    x = compress(logical_and(greater_equal(x, first), less_equal(x, last)), x);
  } else if (x.size() > 0) {
    const Scalar lo = min(x).item(), hi = max(x).item();
    first = lo.to_double();
    last = hi.to_double();
    if (!std::isfinite(first) || !std::isfinite(last))
      throw ValueError("autodetected range of [" + lo.str() + ", " + hi.str() + "] is not finite");
  }
  if (x.size() == 0) return 1;
  double width = width_fn(x);
  if (width == 0.0) return 1;
  if (std::isnan(width)) throw ValueError("cannot convert float NaN to integer");
  if (is_integer(x.dtype()) && width < 1) width = 1;
  double delta = last - first;
  if (!o.range && is_floating(x.dtype())) delta = Scalar::of(x.dtype(), Scalar(delta)).to_double();
  return static_cast<std::int64_t>(std::ceil(delta / width));
}

}  // namespace

ndarray histogram_bin_edges(const ndarray& a, std::string_view bins,
                            const HistogramOptions& options) {
  const std::int64_t n = estimated_bins(a, bins, options);
  return histogram_bin_edges(a, n, {.range = options.range});
}

std::pair<ndarray, ndarray> histogram(const ndarray& a, std::string_view bins,
                                      const HistogramOptions& options) {
  const std::int64_t n = estimated_bins(a, bins, options);
  return histogram(a, n, options);
}

}  // namespace cunp

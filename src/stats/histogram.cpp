// src/stats/histogram.cpp — histogram, histogram_bin_edges, bincount and digitize:
// NumPy's argument checks, dtypes and bin edges on the host, the counting in the
// engines of bins.hpp on the data's device.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dispatch.hpp"
#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/statistics.hpp"
#include "cunp/ufunc.hpp"
#include "stats/bin_ops_host.hpp"
#include "stats/bins.hpp"
#include "stats/bins_source.hpp"

namespace cunp {
namespace {

std::string dtype_repr(DType dt) { return "dtype('" + std::string(name(dt)) + "')"; }

// Runs the cpu or the cuda engine for the arrays' device.
template <typename Cpu, typename Gpu>
void on_device(Device device, Cpu&& cpu, Gpu&& gpu) {
  if (device.is_cuda()) {
    cuda::DeviceScope scope(device.index);
    gpu();
  } else {
    cpu();
  }
}

// NumPy's _ravel_and_check_weights: bool data counts as uint8; weights of a's shape.
struct Data {
  ndarray a;                 // 1-d, contiguous, real, not bool
  std::optional<ndarray> w;  // as given, raveled
};
Data ravel_and_check_weights(const ndarray& a, const std::optional<ndarray>& weights) {
  if (is_complex(a.dtype()))
    throw TypeError("histogram: complex data is not supported (got " +
                    std::string(name(a.dtype())) + ")");
  Data d;
  d.a = (a.dtype() == DType::Bool ? a.astype(DType::UInt8) : a).ravel();
  if (!d.a.is_c_contiguous()) d.a = d.a.copy();
  if (weights) {
    if (weights->shape() != a.shape()) throw ValueError("weights should have the same shape as a.");
    d.w = weights->to(a.device()).ravel();
  }
  return d;
}

// The weights as a contiguous float64 array (the engines' input).
ndarray f64_weights(const ndarray& w) {
  return w.dtype() == DType::Float64 && w.is_c_contiguous() ? w : w.astype(DType::Float64);
}

// NumPy's _get_outer_edges. `given`: a given range (Python floats in NumPy), else the
// data's min and max (values of the data's dtype).
struct OuterEdges {
  double first = 0, last = 1;
  bool given = false;
};
OuterEdges outer_edges(const ndarray& a, const std::optional<std::pair<double, double>>& range) {
  OuterEdges e;
  if (range) {
    e = {range->first, range->second, true};
    if (e.first > e.last) throw ValueError("max must be larger than min in range parameter.");
    if (!std::isfinite(e.first) || !std::isfinite(e.last))
      throw ValueError("supplied range of [" + Scalar(e.first).str() + ", " + Scalar(e.last).str() +
                       "] is not finite");
  } else if (a.size() == 0) {
    e = {0, 1, true};
  } else {
    Scalar lo, hi;
    double l = 0, h = 0;
    if (a.device().is_cuda() && is_floating(a.dtype())) {
      // One pass for both (Note [Range pass]); NaN as NumPy's min/max give it.
      cuda::DeviceScope scope(a.device().index);
      const bool nan = stats::gpu_float_range(a, &l, &h);
      lo = Scalar::of(a.dtype(), Scalar(nan ? std::nan("") : l));
      hi = Scalar::of(a.dtype(), Scalar(nan ? std::nan("") : h));
    } else {
      // Both reductions, then one read back (one synchronization).
      const ndarray parts[] = {min(a).reshape({1}), max(a).reshape({1})};
      const ndarray both = concatenate(parts).to(Device::cpu());
      lo = both.item(0);
      hi = both.item(1);
    }
    e = {lo.to_double(), hi.to_double(), false};
    if (!std::isfinite(e.first) || !std::isfinite(e.last))
      throw ValueError("autodetected range of [" + lo.str() + ", " + hi.str() + "] is not finite");
  }
  if (e.first == e.last) {
    // NumPy subtracts 0.5 in the edges' type: the data's float dtype when they come
    // from the data, Python floats otherwise.
    const DType t = !e.given && is_floating(a.dtype()) ? a.dtype() : DType::Float64;
    e.first = Scalar::of(t, Scalar(e.first - 0.5)).to_double();
    e.last = Scalar::of(t, Scalar(e.last + 0.5)).to_double();
  }
  return e;
}

// np.linspace(first, last, n + 1) as NumPy computes it in `L` (the edges' dtype when
// they come from the data, float64 for a given range), stored as `T`.
template <typename L>
std::vector<double> linspace_edges(double first, double last, std::int64_t n) {
  using stats_ops::down;
  using stats_ops::up;
  const L start = ops::cast<L>(first), stop = ops::cast<L>(last);
  const L delta = down<L>(up(stop) - up(start));
  const L div = ops::cast<L>(static_cast<double>(n));
  const L step = down<L>(up(delta) / up(div));
  const bool step_zero = up(step) == 0;
  std::vector<double> y(static_cast<std::size_t>(n + 1));
  for (std::int64_t i = 0; i <= n; ++i) {
    const L fi = ops::cast<L>(static_cast<double>(i));
    L v =
        step_zero ? down<L>(up(down<L>(up(fi) / up(div))) * up(delta)) : down<L>(up(fi) * up(step));
    v = down<L>(up(v) + up(start));
    y[static_cast<std::size_t>(i)] = static_cast<double>(up(v));
  }
  if (n >= 1) y.back() = static_cast<double>(up(stop));
  return y;
}

// The uniform bins of NumPy's _get_bin_edges for integer `bins`: the engine's
// parameters and the edges (on the data's device, dtype uniform_edges_dtype).
struct Uniform {
  stats::UniformBins bins;
  ndarray edges;
};
Uniform uniform_bins(const ndarray& a, std::int64_t nbins,
                     const std::optional<std::pair<double, double>>& range) {
  if (nbins < 1) throw ValueError("`bins` must be positive, when an integer");
  const OuterEdges oe = outer_edges(a, range);
  const DType t = stats::uniform_edges_dtype(a.dtype());
  const DType l = oe.given ? DType::Float64 : t;
  std::vector<double> e;
  if (l == DType::Float16)
    e = linspace_edges<ops::half>(oe.first, oe.last, nbins);
  else if (l == DType::Float32)
    e = linspace_edges<ops::f32>(oe.first, oe.last, nbins);
  else
    e = linspace_edges<ops::f64>(oe.first, oe.last, nbins);
  // Stored as T (NumPy's astype): re-read the rounded values.
  ndarray host = empty({nbins + 1}, {.dtype = t, .device = Device::cpu()});
  dispatch_dtype(t, [&]<typename T>() {
    if constexpr (std::is_same_v<T, ops::half> || std::is_same_v<T, ops::f32> ||
                  std::is_same_v<T, ops::f64>) {
      auto* p = static_cast<T*>(host.data());
      for (std::size_t i = 0; i < e.size(); ++i) {
        p[i] = ops::cast<T>(e[i]);
        e[i] = static_cast<double>(stats_ops::up(p[i]));
      }
    }
  });
  for (std::size_t i = 0; i + 1 < e.size(); ++i)
    if (!(e[i] < e[i + 1]))
      throw ValueError("Too many bins for data range. Cannot create " + std::to_string(nbins) +
                       " finite-sized bins.");
  Uniform u;
  u.edges = host.to(a.device());
  u.bins.n = nbins;
  u.bins.wide = oe.given || t == DType::Float64;
  // The range test is made in the data's float dtype (float64 for integers).
  const DType k = is_floating(a.dtype()) ? a.dtype() : DType::Float64;
  u.bins.lo = Scalar::of(k, Scalar(oe.first)).to_double();
  u.bins.hi = Scalar::of(k, Scalar(oe.last)).to_double();
  u.bins.first = Scalar::of(t, Scalar(oe.first)).to_double();
  if (u.bins.wide) {
    u.bins.denom = oe.last - oe.first;
  } else {
    // The data's min and max as T scalars: their difference rounds in T.
    u.bins.denom = Scalar::of(t, Scalar(Scalar::of(t, Scalar(oe.last)).to_double() - u.bins.first))
                       .to_double();
  }
  return u;
}

// Explicit edges: 1-d and non-decreasing (NumPy's checks), on the data's device.
ndarray checked_edges(const ndarray& bins, Device device) {
  if (bins.ndim() != 1) throw ValueError("`bins` must be 1d, when an array");
  if (is_complex(bins.dtype())) throw TypeError("histogram: complex bins are not supported");
  const ndarray host = bins.astype(DType::Float64).to(Device::cpu());
  const auto* e = static_cast<const double*>(host.data());
  for (std::int64_t i = 0; i + 1 < host.size(); ++i)
    if (e[i] > e[i + 1]) throw ValueError("`bins` must increase monotonically, when an array");
  return bins.to(device);
}

// The histogram of `d` for the engine `count` (called with the float64 weights or
// nullptr and the zeroed output), in NumPy's result dtype, with density.
template <typename Count>
ndarray run_histogram(const Data& d, const ndarray& edges, std::int64_t nbins, bool density,
                      Count&& count) {
  const Device dev = d.a.device();
  ndarray n;
  if (!d.w) {
    n = zeros({nbins}, {.dtype = DType::Int64, .device = dev});
    count(nullptr, n);
  } else {
    const DType wt = d.w->dtype();
    auto sums = [&](const ndarray& w) {
      ndarray s = zeros({nbins}, {.dtype = DType::Float64, .device = dev});
      const ndarray w64 = f64_weights(w);
      count(&w64, s);
      return s;
    };
    if (is_complex(wt)) {
      n = empty({nbins}, {.dtype = wt, .device = dev});
      real(n).assign(sums(real(*d.w)));
      imag(n).assign(sums(imag(*d.w)));
    } else {
      n = sums(*d.w);
      if (wt != DType::Float64) n = n.astype(wt);
    }
  }
  if (!density) return n;
  const std::int64_t m = edges.size();
  const ndarray widths =
      subtract(edges.view({slice(1, m)}), edges.view({slice(0, m - 1)})).astype(DType::Float64);
  return true_divide(true_divide(n, widths), sum(n));
}

}  // namespace

std::pair<ndarray, ndarray> histogram(const ndarray& a, std::int64_t bins,
                                      const HistogramOptions& options) {
  const Data d = ravel_and_check_weights(a, options.weights);
  Uniform u = uniform_bins(d.a, bins, options.range);
  ndarray n =
      run_histogram(d, u.edges, bins, options.density, [&](const ndarray* w, const ndarray& out) {
        on_device(
            d.a.device(), [&] { stats::cpu_histogram_uniform(d.a, w, u.bins, u.edges, out); },
            [&] { stats::gpu_histogram_uniform(d.a, w, u.bins, u.edges, out); });
      });
  return {n, u.edges};
}

std::pair<ndarray, ndarray> histogram(const ndarray& a, const ndarray& bins,
                                      const HistogramOptions& options) {
  const Data d = ravel_and_check_weights(a, options.weights);
  const ndarray edges = checked_edges(bins, d.a.device());
  const std::int64_t nbins = std::max<std::int64_t>(edges.size() - 1, 0);
  const DType c = stats::bin_compare_dtype(d.a.dtype(), edges.dtype());
  const ndarray ec = edges.astype(c);
  ndarray n =
      run_histogram(d, edges, nbins, options.density, [&](const ndarray* w, const ndarray& out) {
        if (nbins == 0) return;
        on_device(
            d.a.device(), [&] { stats::cpu_histogram_edges(d.a, w, ec, out); },
            [&] { stats::gpu_histogram_edges(d.a, w, ec, out); });
      });
  return {n, edges};
}

ndarray histogram_bin_edges(const ndarray& a, std::int64_t bins, const HistogramOptions& options) {
  const Data d = ravel_and_check_weights(a, options.weights);
  return uniform_bins(d.a, bins, options.range).edges;
}

ndarray histogram_bin_edges(const ndarray& a, const ndarray& bins,
                            const HistogramOptions& options) {
  const Data d = ravel_and_check_weights(a, options.weights);
  return checked_edges(bins, d.a.device());
}

ndarray bincount(const ndarray& x, const std::optional<ndarray>& weights, std::int64_t minlength) {
  if (x.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (x.ndim() > 1) throw ValueError("object too deep for desired array");
  if (!is_integer(x.dtype()) && x.dtype() != DType::Bool)
    throw TypeError("Cannot cast array data from " + dtype_repr(x.dtype()) +
                    " to dtype('int64') according to the rule 'safe'");
  if (minlength < 0) throw ValueError("'minlength' must not be negative");
  std::optional<ndarray> w;
  if (weights) {
    if (is_complex(weights->dtype()))
      throw TypeError("Cannot cast array data from " + dtype_repr(weights->dtype()) +
                      " to dtype('float64') according to the rule 'safe'");
    if (weights->ndim() != 1 || weights->size() != x.size())
      throw ValueError("The weights and list don't have the same length.");
    w = f64_weights(weights->to(x.device()));
  }
  const Device dev = x.device();
  const ndarray xi = x.dtype() == DType::Int64 && x.is_c_contiguous() ? x : x.astype(DType::Int64);
  std::int64_t length = minlength;
  if (x.size() > 0) {
    const ndarray parts[] = {min(xi).reshape({1}), max(xi).reshape({1})};
    const ndarray both = concatenate(parts).to(Device::cpu());
    if (both.item(0).to_int64() < 0)
      throw ValueError("'list' argument must have no negative elements");
    length = std::max(length, both.item(1).to_int64() + 1);
  }
  ndarray out = zeros({length}, {.dtype = w ? DType::Float64 : DType::Int64, .device = dev});
  if (x.size() == 0) return out;
  const ndarray* wp = w ? &*w : nullptr;
  on_device(
      dev, [&] { stats::cpu_bincount(xi, wp, out); }, [&] { stats::gpu_bincount(xi, wp, out); });
  return out;
}

ndarray digitize(const ndarray& x, const ndarray& bins, bool right) {
  if (is_complex(x.dtype())) throw TypeError("x may not be complex");
  if (bins.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (bins.ndim() > 1) throw ValueError("object too deep for desired array");
  const DType c = stats::bin_compare_dtype(x.dtype(), bins.dtype());
  // NumPy's _monotonicity, on the host copy of the (small) bins.
  const ndarray host = bins.astype(c).to(Device::cpu()).copy();
  bool increasing = true, decreasing = true;
  dispatch_dtype(c, [&]<typename C>() {
    if constexpr (!std::is_same_v<C, ops::c64> && !std::is_same_v<C, ops::c128>) {
      const auto* e = static_cast<const C*>(host.data());
      for (std::int64_t i = 0; i + 1 < host.size(); ++i) {
        if (stats_ops::less_nan_last(e[i + 1], e[i])) increasing = false;
        if (stats_ops::less_nan_last(e[i], e[i + 1])) decreasing = false;
      }
    }
  });
  if (!increasing && !decreasing)
    throw ValueError("bins must be monotonically increasing or decreasing");
  const bool reversed = !increasing;
  ndarray e = host;
  if (reversed) e = host.view({slice(std::nullopt, std::nullopt, -1)}).copy();
  e = e.to(x.device());
  const ndarray xc = x.is_c_contiguous() ? x : x.copy();
  ndarray out = empty(x.shape(), {.dtype = DType::Int64, .device = x.device()});
  on_device(
      x.device(), [&] { stats::cpu_digitize(xc, e, right, reversed, out); },
      [&] { stats::gpu_digitize(xc, e, right, reversed, out); });
  return out;
}

}  // namespace cunp

// src/stats/histogramdd.cpp — np.histogramdd and np.histogram2d in NumPy's formulas
// (numpy/lib/_histograms_impl.py): the edges of each dimension on the host, each
// sample's bin by searchsorted, the counts by one bincount of the raveled bin index on
// the sample's device.
#include <cmath>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/sort.hpp"
#include "cunp/spacing.hpp"
#include "cunp/statistics.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

std::string number_text(double v) { return Scalar(v).str(); }

// np.histogram's _get_outer_edges for one dimension, as strong scalars of the data's
// float dtype (float64 for other data; Python floats for a given range).
std::pair<Scalar, Scalar> outer_edges(const ndarray& a,
                                      const std::optional<std::pair<double, double>>& range) {
  double first = 0, last = 1;
  DType dt = DType::Float64;
  bool weak = true;
  if (range) {
    first = range->first;
    last = range->second;
    if (first > last) throw ValueError("max must be larger than min in range parameter.");
    if (!std::isfinite(first) || !std::isfinite(last)) {
      throw ValueError("supplied range of [" + number_text(first) + ", " + number_text(last) +
                       "] is not finite");
    }
  } else if (a.size() != 0) {
    const ndarray pair[] = {min(a), max(a)};
    const std::vector<double> ends = stack(pair).astype(DType::Float64).to_vector<double>();
    first = ends[0];
    last = ends[1];
    if (!std::isfinite(first) || !std::isfinite(last)) {
      throw ValueError("autodetected range of [" + number_text(first) + ", " + number_text(last) +
                       "] is not finite");
    }
    weak = false;
    if (is_floating(a.dtype())) dt = a.dtype();
  }
  if (first == last) {
    first -= 0.5;
    last += 0.5;
  }
  if (weak) return {Scalar(first), Scalar(last)};
  return {Scalar::of(dt, Scalar(first)), Scalar::of(dt, Scalar(last))};
}

// histogramdd's sample as an (N, D) array.
ndarray sample_matrix(const ndarray& sample) {
  if (sample.ndim() == 2) return sample;
  if (sample.ndim() > 2) throw ValueError("too many values to unpack (expected 2)");
  return sample.reshape({-1, 1});
}

}  // namespace

HistogramddResult histogramdd(const ndarray& sample_in, std::span<const HistogramBins> bins_in,
                              const HistogramddOptions& o) {
  const ndarray sample = sample_matrix(sample_in);
  const std::int64_t D = sample.shape()[1];
  const Device dev = sample.device();
  std::vector<HistogramBins> bins(bins_in.begin(), bins_in.end());
  if (bins.size() == 1) bins.assign(static_cast<std::size_t>(D), bins_in[0]);
  if (static_cast<std::int64_t>(bins.size()) != D) {
    throw ValueError("The dimension of bins must be equal to the dimension of the sample x.");
  }
  if (!o.range.empty() && static_cast<std::int64_t>(o.range.size()) != D) {
    throw ValueError("range argument must have one entry per dimension");
  }
  HistogramddResult result;
  Shape nbin;
  for (std::int64_t i = 0; i < D; ++i) {
    const ndarray col = sample.view({slice(), i});
    const HistogramBins& b = bins[static_cast<std::size_t>(i)];
    ndarray edges;
    if (const std::int64_t* n = std::get_if<std::int64_t>(&b)) {
      if (*n < 1)
        throw ValueError("`bins[" + std::to_string(i) + "]` must be positive, when an integer");
      const auto [smin, smax] =
          outer_edges(col, o.range.empty() ? std::nullopt : o.range[static_cast<std::size_t>(i)]);
      edges = linspace(smin, smax, *n + 1, {.device = dev});
    } else {
      edges = std::get<ndarray>(b).to(dev);
      if (edges.ndim() == 0) {
        throw TypeError("`bins[" + std::to_string(i) + "]` must be an integer, when a scalar");
      }
      if (edges.ndim() != 1)
        throw ValueError("`bins[" + std::to_string(i) + "]` must be a scalar or 1d array");
      const ndarray lower = edges.view({slice(std::nullopt, -1)});
      const ndarray upper = edges.view({slice(1)});
      if (any(greater(lower, upper)).item().to_bool()) {
        throw ValueError("`bins[" + std::to_string(i) +
                         "]` must be monotonically increasing, when an array");
      }
    }
    result.edges.push_back(edges);
    nbin.push_back(edges.shape()[0] + 1);  // an outlier bin at each end
  }
  std::vector<ndarray> counts;
  for (std::int64_t i = 0; i < D; ++i) {
    const ndarray col = sample.view({slice(), i});
    const ndarray& e = result.edges[static_cast<std::size_t>(i)];
    // The last edge belongs to the last bin, not to the outliers.
    counts.push_back(searchsorted(e, col, Side::Right) - equal(col, e[-1]));
  }
  const ndarray flat = ravel_multi_index(counts, nbin);
  const ndarray hist_full =
      bincount(flat, o.weights ? std::optional<ndarray>(o.weights->to(dev)) : std::nullopt,
               shape_size(nbin))
          .reshape(nbin);
  if (!can_cast(hist_full.dtype(), DType::Float64, Casting::Safe)) {
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(hist_full.dtype())) +
                    "') to dtype('float64') according to the rule 'safe'");
  }
  std::vector<Index> core(static_cast<std::size_t>(D), Index(slice(1, -1)));
  ndarray hist =
      hist_full.astype(DType::Float64, {.copy = false}).view(std::span<const Index>(core));
  if (o.density) {
    const ndarray total = sum(hist);
    for (std::int64_t i = 0; i < D; ++i) {
      Shape shape(static_cast<std::size_t>(D), 1);
      shape[static_cast<std::size_t>(i)] = nbin[static_cast<std::size_t>(i)] - 2;
      hist = hist / diff(result.edges[static_cast<std::size_t>(i)]).reshape(shape);
    }
    hist = hist / total;
  }
  result.hist = hist;
  return result;
}

std::tuple<ndarray, ndarray, ndarray> histogram2d(const ndarray& x, const ndarray& y,
                                                  std::span<const HistogramBins> bins,
                                                  const HistogramddOptions& options) {
  if (x.ndim() != 1 || y.ndim() != 1 || x.shape()[0] != y.shape()[0]) {
    throw ValueError("x and y must be 1-d arrays of the same length");
  }
  const ndarray columns[] = {x, y.to(x.device())};
  HistogramddResult r = histogramdd(stack(columns, 1), bins, options);
  return {r.hist, r.edges[0], r.edges[1]};
}

}  // namespace cunp

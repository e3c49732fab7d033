// cunp/statistics.hpp — order statistics (median, quantile, percentile and their nan*
// variants), averages and correlations (average, cov, corrcoef) and histograms
// (histogram, histogram_bin_edges, histogramdd, histogram2d, bincount, digitize), with NumPy's names, result
// dtypes and errors. Everything runs on the arrays' device; only the checks NumPy
// makes on values (negative bincount input, zero weight sums, monotonic bins, the
// autodetected histogram range) read a few values back to the host.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "cunp/ndarray.hpp"
#include "cunp/reduce.hpp"

namespace cunp {

// ---- order statistics ----------------------------------------------------------------

// NumPy's `method=` of quantile/percentile: the nine Hyndman & Fan methods and the
// four discontinuous legacy ones.
enum class QuantileMethod : std::uint8_t {
  InvertedCdf,
  AveragedInvertedCdf,
  ClosestObservation,
  InterpolatedInvertedCdf,
  Hazen,
  Weibull,
  Linear,
  MedianUnbiased,
  NormalUnbiased,
  Lower,
  Higher,
  Midpoint,
  Nearest,
};
// Parses NumPy's method names ("linear", "lower", "inverted_cdf", ...); ValueError
// naming the valid ones otherwise.
QuantileMethod parse_quantile_method(std::string_view name);
std::string_view name(QuantileMethod method) noexcept;

struct MedianOptions {
  Axes axis = {};
  bool keepdims = false;
  // Receives the result (cast unsafely) and is returned; its shape must be the result's.
  std::optional<ndarray> out;
};

struct QuantileOptions {
  Axes axis = {};
  QuantileMethod method = QuantileMethod::Linear;
  bool keepdims = false;
  std::optional<ndarray> out;
};

// np.median: the mean of the middle one or two sorted values (so integers give
// float64, float16 stays float16); NaN where a slice holds a NaN; NaN for an empty
// slice (NumPy also warns).
ndarray median(const ndarray& a, const MedianOptions& options = {});
// np.nanmedian: NaNs are left out; an all-NaN slice gives NaN.
ndarray nanmedian(const ndarray& a, const MedianOptions& options = {});

// np.quantile with q in [0, 1] (ValueError "Quantiles must be in the range [0, 1]").
// The result's shape is q's shape followed by the reduced shape. An array q is a
// strong operand of the interpolation (a float64 q makes float32 data give float64);
// a double q is weak, as a Python float (the data's float dtype is kept). Integer and
// bool data interpolate in float64; the methods that pick an element (lower, higher,
// nearest, inverted_cdf, closest_observation) return the data's dtype. A slice
// holding a NaN gives NaN; complex data raises TypeError; an empty reduction raises
// IndexError as NumPy does.
ndarray quantile(const ndarray& a, const ndarray& q, const QuantileOptions& options = {});
ndarray quantile(const ndarray& a, double q, const QuantileOptions& options = {});
// np.percentile: quantile of q / 100 (ValueError "Percentiles must be in the range
// [0, 100]").
ndarray percentile(const ndarray& a, const ndarray& q, const QuantileOptions& options = {});
ndarray percentile(const ndarray& a, double q, const QuantileOptions& options = {});
// np.nanquantile / np.nanpercentile: NaNs are left out of each slice; an all-NaN slice
// gives NaN. An empty input gives nanmean's result, as NumPy does.
ndarray nanquantile(const ndarray& a, const ndarray& q, const QuantileOptions& options = {});
ndarray nanquantile(const ndarray& a, double q, const QuantileOptions& options = {});
ndarray nanpercentile(const ndarray& a, const ndarray& q, const QuantileOptions& options = {});
ndarray nanpercentile(const ndarray& a, double q, const QuantileOptions& options = {});

// ---- averages and correlations -------------------------------------------------------

struct AverageOptions {
  Axes axis = {};
  // Same shape as `a`, or 1-d/N-d along `axis` (NumPy's rules and errors).
  std::optional<ndarray> weights;
  bool keepdims = false;
};
// np.average: mean without weights; else sum(a * w) / sum(w) in result_type(a, w)
// (float64 at least for integer and bool data). ZeroDivisionError when a weight sum
// is zero (this reads the sums back to the host).
ndarray average(const ndarray& a, const AverageOptions& options = {});
// np.average(..., returned=True): {average, sum of weights broadcast to its shape}.
std::pair<ndarray, ndarray> average_returned(const ndarray& a, const AverageOptions& options = {});

struct CovOptions {
  std::optional<ndarray> y;  // more variables, stacked after m's
  bool rowvar = true;        // rows are variables (false: columns are)
  bool bias = false;         // normalize by N instead of N - 1
  std::optional<std::int64_t> ddof;
  std::optional<ndarray> fweights;  // integer frequency weights, 1-d
  std::optional<ndarray> aweights;  // observation weights, 1-d
  std::optional<DType> dtype;       // default: result_type(m, y, float64)
};
// np.cov: the covariance matrix (squeezed: a 0-d array for one variable).
ndarray cov(const ndarray& m, const CovOptions& options = {});

struct CorrcoefOptions {
  std::optional<ndarray> y;
  bool rowvar = true;
  std::optional<DType> dtype;
};
// np.corrcoef: cov normalized by the standard deviations, clipped to [-1, 1].
ndarray corrcoef(const ndarray& x, const CorrcoefOptions& options = {});

// ---- histograms ----------------------------------------------------------------------

struct HistogramOptions {
  // The outer edges for integer `bins` (default: the data's min and max, ValueError when
  // they are not finite); values outside are ignored.
  std::optional<std::pair<double, double>> range;
  // Same shape as `a`; the histogram then sums them and takes their dtype.
  std::optional<ndarray> weights;
  // Divide by the total and the bin widths, so the histogram integrates to 1 (float64).
  bool density = false;
};
// np.histogram with `bins` equal-width bins: {counts (int64, or the weights' dtype),
// bin edges (float dtype of the data, float64 for integer data)}. Bins are half open
// [e_i, e_i+1) except the last, which is closed; a value's bin is computed
// arithmetically and corrected against the edges exactly as NumPy does.
std::pair<ndarray, ndarray> histogram(const ndarray& a, std::int64_t bins = 10,
                                      const HistogramOptions& options = {});
// np.histogram with explicit, monotonically increasing edges (ValueError otherwise);
// `range` is ignored, as NumPy does.
std::pair<ndarray, ndarray> histogram(const ndarray& a, const ndarray& bins,
                                      const HistogramOptions& options = {});
// np.histogram_bin_edges: the edges histogram would use.
ndarray histogram_bin_edges(const ndarray& a, std::int64_t bins = 10,
                            const HistogramOptions& options = {});
ndarray histogram_bin_edges(const ndarray& a, const ndarray& bins,
                            const HistogramOptions& options = {});
// The string estimators of np.histogram_bin_edges: "auto", "fd", "doane", "scott",
// "stone" is not supported (NotImplementedError), "rice", "sturges", "sqrt".
ndarray histogram_bin_edges(const ndarray& a, std::string_view bins,
                            const HistogramOptions& options = {});
std::pair<ndarray, ndarray> histogram(const ndarray& a, std::string_view bins,
                                      const HistogramOptions& options = {});

// np.histogramdd / np.histogram2d: the bins of one dimension, a count of equal-width
// bins (over that dimension's range, or its data's min and max widened by 0.5 each way
// when they coincide) or monotonically increasing edges.
using HistogramBins = std::variant<std::int64_t, ndarray>;
struct HistogramddOptions {
  // Empty, or one entry per dimension (nullopt: the data's range); used with counts.
  std::vector<std::optional<std::pair<double, double>>> range;
  std::optional<ndarray> weights;  // one per sample; the histogram sums them
  bool density = false;            // divide by the total and the bin volumes
};
struct HistogramddResult {
  ndarray hist;                // float64, one axis per dimension
  std::vector<ndarray> edges;  // one edge array per dimension
};
// np.histogramdd of an (N, D) sample (a 1-d one is N samples of one dimension). `bins`
// holds one entry for every dimension or one per dimension. Values on the last edge
// belong to the last bin; values outside the edges are dropped. NumPy's ValueErrors
// for bad bins, ranges and non-finite autodetected ranges.
HistogramddResult histogramdd(const ndarray& sample, std::span<const HistogramBins> bins,
                              const HistogramddOptions& options = {});
inline HistogramddResult histogramdd(const ndarray& sample, std::int64_t bins = 10,
                                     const HistogramddOptions& options = {}) {
  const HistogramBins b[] = {bins};
  return histogramdd(sample, b, options);
}
// np.histogram2d: {H, xedges, yedges} of the points (x[i], y[i]).
std::tuple<ndarray, ndarray, ndarray> histogram2d(const ndarray& x, const ndarray& y,
                                                  std::span<const HistogramBins> bins,
                                                  const HistogramddOptions& options = {});
inline std::tuple<ndarray, ndarray, ndarray> histogram2d(const ndarray& x, const ndarray& y, std::int64_t bins = 10,
                                                         const HistogramddOptions& options = {}) {
  const HistogramBins b[] = {bins};
  return histogram2d(x, y, b, options);
}

// np.bincount of a 1-d array of non-negative integers: int64 counts, or float64 sums
// of `weights`; length max(x.max() + 1, minlength). ValueError for negative values
// ("'list' argument must have no negative elements"), TypeError for data that does not
// cast safely to int64.
ndarray bincount(const ndarray& x, const std::optional<ndarray>& weights = std::nullopt,
                 std::int64_t minlength = 0);

// np.digitize: for each x the index of the bin it falls in (int64, x's shape); `bins`
// 1-d and monotonically increasing or decreasing (ValueError otherwise). With `right`
// the bins are closed on the right instead of the left. NaN falls past every bin.
ndarray digitize(const ndarray& x, const ndarray& bins, bool right = false);

}  // namespace cunp

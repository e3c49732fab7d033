// src/stats/bins.hpp — the counting engines behind histogram, bincount and digitize,
// one per device: bins_cpu.cpp (loops over the bin arithmetic of bin_ops.hpp) and
// gpu_bins.cpp (the kernels of bins_source.cpp). histogram.cpp prepares their inputs.
//
// Every engine reads a contiguous 1-d `x`, optional contiguous float64 weights `w` of
// x's length, and adds into `out`: zeroed int64 counts, or float64 sums when weighted,
// of `nbins` elements, all on one device.
#pragma once

#include <cstdint>

#include "cunp/ndarray.hpp"

namespace cunp::stats {

// Equal-width bins (Note [Uniform bins]). Every value is exact in the dtype it is used
// in: lo/hi in the range test's dtype (x's float dtype, float64 for integers), first
// in the edges' dtype, denom in the division's (float64 when `wide`).
struct UniformBins {
  std::int64_t n = 0;
  bool wide = true;
  double lo = 0, hi = 0, first = 0, denom = 1;
};

// x: a real, non-bool dtype; edges: n + 1 values of uniform_edges_dtype(x.dtype()).
void cpu_histogram_uniform(const ndarray& x, const ndarray* w, const UniformBins& u,
                           const ndarray& edges, const ndarray& out);
void gpu_histogram_uniform(const ndarray& x, const ndarray* w, const UniformBins& u,
                           const ndarray& edges, const ndarray& out);
// edges: increasing, of bin_compare_dtype(x, original edges); out has edges.size() - 1 bins.
void cpu_histogram_edges(const ndarray& x, const ndarray* w, const ndarray& edges,
                         const ndarray& out);
void gpu_histogram_edges(const ndarray& x, const ndarray* w, const ndarray& edges,
                         const ndarray& out);
// x: int64 values in [0, out.size()).
void cpu_bincount(const ndarray& x, const ndarray* w, const ndarray& out);
void gpu_bincount(const ndarray& x, const ndarray* w, const ndarray& out);
// Note [Range pass]: the min and max of contiguous float16/32/64 data in one pass;
// returns true (and leaves lo/hi alone) when the data holds a NaN. Synchronizes.
bool gpu_float_range(const ndarray& x, double* lo, double* hi);
// out: int64 of x's size; bins of bin_compare_dtype, reversed when `decreasing`.
void cpu_digitize(const ndarray& x, const ndarray& bins, bool right, bool decreasing,
                  const ndarray& out);
void gpu_digitize(const ndarray& x, const ndarray& bins, bool right, bool decreasing,
                  const ndarray& out);

}  // namespace cunp::stats

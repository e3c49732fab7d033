// cunp/signal.hpp — the linear filters and the direct convolution of scipy.signal
// (cupyx.scipy.signal): lfilter, sosfilt and an N-d correlation kernel. The rest of
// scipy.signal's filtering half (convolve, fftconvolve, filtfilt, savgol_filter,
// find_peaks, ...) is composed from these and other cunp operations in Python
// (python/cunpx/scipy/signal).
//
// On the cpu device each lane (1-d slice along the filter axis) runs the sequential
// recurrence, lanes split across threads. On CUDA devices long lanes are filtered in
// parallel over time too (Note [Blocked IIR scan] in src/signal/iir_ops.h); many
// short lanes run one thread each.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp::signal {

struct FilterOptions {
  int axis = -1;
  // Initial state: lfilter: x's shape with axis replaced by max(len(a), len(b)) - 1
  // (dimensions of size 1 broadcast, as SciPy allows); sosfilt: (sections, ...) with
  // x's shape and axis replaced by 2.
  std::optional<ndarray> zi;
};

struct FilterResult {
  ndarray y;
  std::optional<ndarray> zf;  // the final state, when zi was given
};

// scipy.signal.lfilter: y = (b * x) / a along `axis`, direct form II transposed. b and a
// are 1-d; both are normalized by a[0] (ValueError when it is zero and len(a) > 1). The
// dtype is NumPy's result type of b, a, x (and zi); it must be float32/64 or
// complex64/128, else NotImplementedError (integer x with float coefficients gives
// float64, as in SciPy). zf has zi's expanded shape.
FilterResult lfilter(const ndarray& b, const ndarray& a, const ndarray& x,
                     const FilterOptions& options = {});

// scipy.signal.sosfilt: the cascade of second-order sections sos (n_sections, 6) with
// sos[:, 3] == 1, along `axis`. Types as lfilter.
FilterResult sosfilt(const ndarray& sos, const ndarray& x, const FilterOptions& options = {});

// The direct N-d correlation: out[i] = sum_j in[i - pad_before + j] * kernel[j] (no
// conjugation; convolve flips the kernel, correlate conjugates it, both in Python), `in`
// extended by `fill` outside its bounds. Both arrays have the same ndim (at most 16) and
// dtype: float32/64, complex64/128 or int64/uint64 (integers wrap modulo 2^64, as
// NumPy's integer sums). The result has, per axis, in + pad_before + pad_after -
// kernel + 1 elements (at least 1: the padded input must hold the kernel); without
// padding that is the 'valid' mode, with kernel - 1 on both sides the 'full' one.
struct CorrelateOptions {
  std::vector<std::int64_t> pad_before;  // per axis; empty: none
  std::vector<std::int64_t> pad_after;
  Scalar fill = 0;
};
ndarray correlate_valid(const ndarray& in, const ndarray& kernel,
                        const CorrelateOptions& options = {});

}  // namespace cunp::signal

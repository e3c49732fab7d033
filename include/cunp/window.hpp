// cunp/window.hpp — NumPy's window functions: bartlett, blackman, hamming, hanning and
// kaiser, float64 arrays of M samples (empty for M < 1, [1.0] for M == 1), computed
// with NumPy's formulas on the host and placed on the requested device.
#pragma once

#include <optional>

#include "cunp/device.hpp"
#include "cunp/ndarray.hpp"

namespace cunp {

struct WindowOptions {
  std::optional<Device> device;  // default: the current device
};

// np.bartlett: the triangular window 1 - |n| / (M - 1) over n = 1-M, 3-M, ..., M-1.
ndarray bartlett(double M, WindowOptions options = {});
// np.blackman: 0.42 + 0.5 cos(pi n / (M-1)) + 0.08 cos(2 pi n / (M-1)).
ndarray blackman(double M, WindowOptions options = {});
// np.hamming: 0.54 + 0.46 cos(pi n / (M-1)).
ndarray hamming(double M, WindowOptions options = {});
// np.hanning: 0.5 + 0.5 cos(pi n / (M-1)).
ndarray hanning(double M, WindowOptions options = {});
// np.kaiser: I0(beta sqrt(1 - ((k - a) / a)^2)) / I0(beta), k = 0..M-1, a = (M-1)/2.
ndarray kaiser(double M, double beta, WindowOptions options = {});

}  // namespace cunp

// src/fft/helpers.cpp — fftfreq, rfftfreq, fftshift, ifftshift and the plan-cache
// entry point.
#include <algorithm>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/fft.hpp"
#include "cunp/manipulation.hpp"
#include "fft/backend.hpp"

namespace cunp::fft {

namespace {

// NumPy computes `integer_results * (1.0 / (n * d))` in float64; so does this.
ndarray frequencies(std::int64_t count, std::int64_t n, double d, const FreqOptions& o, bool negative_half) {
  if (count < 0) throw ValueError("negative dimensions are not allowed");
  const double nd = static_cast<double>(n) * d;
  if (nd == 0.0) throw ZeroDivisionError("float division by zero");
  const double val = 1.0 / nd;
  std::vector<double> v(static_cast<std::size_t>(count));
  const std::int64_t positive = negative_half ? (n - 1) / 2 + 1 : count;
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t k = i < positive ? i : i - n;
    v[static_cast<std::size_t>(i)] = static_cast<double>(k) * val;
  }
  return from_host(v.data(), DType::Float64, {count}, o.device);
}

ndarray shift(const ndarray& x, const std::optional<std::vector<int>>& axes, bool inverse) {
  std::vector<int> ax;
  if (axes) ax = *axes;
  else
    for (int i = 0; i < x.ndim(); ++i) ax.push_back(i);
  std::vector<std::int64_t> amounts;
  for (int a : ax) {
    const std::int64_t dim = x.shape()[static_cast<std::size_t>(normalize_axis(a, x.ndim()))];
    amounts.push_back(inverse ? -(dim / 2) : dim / 2);
  }
  return roll(x, amounts, ax);
}

}  // namespace

ndarray fftfreq(std::int64_t n, double d, const FreqOptions& o) { return frequencies(n, n, d, o, true); }

ndarray rfftfreq(std::int64_t n, double d, const FreqOptions& o) {
  // NumPy: arange(0, n // 2 + 1), empty for negative n.
  const std::int64_t count = n >= 0 ? n / 2 + 1 : std::max<std::int64_t>(0, (n - 1) / 2 + 1);
  return frequencies(count, n, d, o, false);
}

ndarray fftshift(const ndarray& x, std::optional<std::vector<int>> axes) { return shift(x, axes, false); }
ndarray ifftshift(const ndarray& x, std::optional<std::vector<int>> axes) { return shift(x, axes, true); }

PlanCache& get_plan_cache(std::optional<Device> device) {
  const Device d = device.value_or(current_device());
  if (d.is_cpu()) return detail::cpu_fft_plan_cache();
  return detail::cufft_plan_cache(d.index);
}

// The built-in FFT is always there; FFTW replaces it when the build opts in.
bool cpu_backend_available() noexcept { return true; }

}  // namespace cunp::fft

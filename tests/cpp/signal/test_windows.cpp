// tests/cpp/signal/test_windows.cpp — cunp::signal's windows (cunp/signal_windows.hpp)
// against their defining formulas computed here, the periodic/symmetric relation,
// get_window's names, suffixes and errors, and dpss's eigenproblem and signs.
// (The Python suite compares every window with SciPy itself.)
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "cunp/cunp.hpp"

namespace cunp::signal {
namespace {

constexpr double kPi = std::numbers::pi;
const WindowOptions kSym{.sym = true, .device = Device::cpu()};
const WindowOptions kPer{.sym = false, .device = Device::cpu()};

std::vector<double> host(const ndarray& a) {
  return a.to(Device::cpu()).astype(DType::Float64).to_vector<double>();
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

TEST(SignalWindows, CosineWindowsMatchTheirFormulas) {
  for (std::int64_t M : {2, 5, 16, 33}) {
    std::vector<double> hann_f, hamming_f, blackman_f;
    for (std::int64_t n = 0; n < M; ++n) {
      const double x = 2 * kPi * static_cast<double>(n) / static_cast<double>(M - 1);
      hann_f.push_back(0.5 - 0.5 * std::cos(x));
      hamming_f.push_back(0.54 - 0.46 * std::cos(x));
      blackman_f.push_back(0.42 - 0.5 * std::cos(x) + 0.08 * std::cos(2 * x));
    }
    expect_near(host(hann(M, kSym)), hann_f, 1e-14);
    expect_near(host(hamming(M, kSym)), hamming_f, 1e-14);
    expect_near(host(blackman(M, kSym)), blackman_f, 1e-14);
  }
}

TEST(SignalWindows, PeriodicIsTheSymmetricWindowOfOneMorePointTruncated) {
  const std::int64_t M = 12;
  auto check = [&](auto f) {
    std::vector<double> sym = host(f(M + 1, kSym));
    sym.pop_back();
    expect_near(host(f(M, kPer)), sym, 0.0);
  };
  check([](std::int64_t m, WindowOptions o) { return hann(m, o); });
  check([](std::int64_t m, WindowOptions o) { return bohman(m, o); });
  check([](std::int64_t m, WindowOptions o) { return parzen(m, o); });
  check([](std::int64_t m, WindowOptions o) { return triang(m, o); });
  check([](std::int64_t m, WindowOptions o) { return chebwin(m, 80, o); });
  check([](std::int64_t m, WindowOptions o) { return taylor(m, 4, 30, true, o); });
  check([](std::int64_t m, WindowOptions o) { return kaiser(m, 6.0, o); });
}

TEST(SignalWindows, LengthsZeroAndOneAndErrors) {
  EXPECT_EQ(hann(0, kSym).size(), 0);
  EXPECT_EQ(host(flattop(1, kSym)), std::vector<double>{1.0});
  EXPECT_EQ(host(chebwin(1, 50, kSym)), std::vector<double>{1.0});
  EXPECT_THROW(hann(-1, kSym), ValueError);
  EXPECT_THROW(kaiser_bessel_derived(7, 3.0, kSym), ValueError);
  EXPECT_THROW(kaiser_bessel_derived(8, 3.0, kPer), ValueError);
  EXPECT_THROW(exponential(8, 2.0, 1.0, kSym), ValueError);
  EXPECT_EQ(hann(5).device(), current_device());
}

TEST(SignalWindows, KaiserIsNumpysAndKbdSquaresSumToOne) {
  expect_near(host(kaiser(17, 8.6, kSym)), host(cunp::kaiser(17, 8.6, {.device = Device::cpu()})),
              0.0);
  // Princen-Bradley: w[n]^2 + w[n + M/2]^2 = 1 for the KBD window.
  const std::vector<double> w = host(kaiser_bessel_derived(16, 4.0, kSym));
  for (std::size_t n = 0; n < 8; ++n) EXPECT_NEAR(w[n] * w[n] + w[n + 8] * w[n + 8], 1.0, 1e-14);
}

TEST(SignalWindows, TukeyEndsAndGaussianSpread) {
  expect_near(host(tukey(9, 0.0, kSym)), host(boxcar(9, kSym)), 0.0);
  expect_near(host(tukey(9, 1.0, kSym)), host(hann(9, kSym)), 0.0);
  const std::vector<double> g = host(gaussian(9, 2.0, kSym));
  for (int n = 0; n < 9; ++n)
    EXPECT_NEAR(g[static_cast<std::size_t>(n)], std::exp(-(n - 4.0) * (n - 4.0) / 8.0), 1e-15);
}

TEST(SignalWindows, ChebwinHasEquirippleSidelobesAtTheRequestedLevel) {
  const std::int64_t M = 31;
  const double at = 60;
  const std::vector<double> w = host(chebwin(M, at, kSym));
  // |W(f)| on a fine grid: the mainlobe peak is 1 after normalizing, every sidelobe
  // (beyond the first null) at most -at dB, and the largest close to it.
  double peak = 0, side = 0;
  std::vector<double> mag;
  for (int k = 0; k <= 2000; ++k) {
    const double f = 0.5 * k / 2000.0;
    std::complex<double> s = 0;
    for (std::int64_t n = 0; n < M; ++n)
      s += w[static_cast<std::size_t>(n)] * std::polar(1.0, -2 * kPi * f * static_cast<double>(n));
    mag.push_back(std::abs(s));
  }
  peak = mag[0];
  std::size_t i = 1;
  while (i < mag.size() && mag[i] < mag[i - 1]) ++i;  // down the mainlobe to its first null
  for (; i < mag.size(); ++i) side = std::max(side, mag[i]);
  EXPECT_NEAR(20 * std::log10(side / peak), -at, 0.1);
}

TEST(SignalWindows, GetWindowNamesSuffixesAndErrors) {
  const double none[] = {0};
  const std::span<const double> no_params(none, 0);
  expect_near(host(get_window("hann", no_params, 8, true, Device::cpu())), host(hann(8, kPer)),
              0.0);
  expect_near(host(get_window("han", no_params, 8, false, Device::cpu())), host(hann(8, kSym)),
              0.0);
  expect_near(host(get_window("hann_symmetric", no_params, 8, true, Device::cpu())),
              host(hann(8, kSym)), 0.0);
  expect_near(host(get_window("hamming_periodic", no_params, 8, false, Device::cpu())),
              host(hamming(8, kPer)), 0.0);
  const double beta[] = {5.0};
  expect_near(host(get_window("ksr", beta, 8, true, Device::cpu())), host(kaiser(8, 5.0, kPer)),
              0.0);
  expect_near(host(get_window(5.0, 8, true, Device::cpu())), host(kaiser(8, 5.0, kPer)), 0.0);
  const double coef[] = {0.5, 0.3, 0.2};
  expect_near(host(get_window("general_cosine", coef, 9, false, Device::cpu())),
              host(general_cosine(9, coef, kSym)), 0.0);
  ASSERT_TRUE(find_window("general gauss"));
  EXPECT_EQ(find_window("general gauss")->canonical, "general_gaussian");
  EXPECT_FALSE(find_window("hann_periodic"));
  EXPECT_THROW(get_window("nope", no_params, 8), ValueError);
  EXPECT_THROW(get_window("kaiser", no_params, 8), ValueError);
  EXPECT_THROW(get_window("hann", beta, 8), ValueError);
  EXPECT_THROW(get_window("general_gaussian", beta, 8), TypeError);
  EXPECT_THROW(get_window("hann", no_params, 0), ValueError);
}

// The tapers solve the tridiagonal eigenproblem, are orthonormal with norm 2, decrease
// in eigenvalue, and follow SciPy's signs.
TEST(SignalWindows, DpssTapersSolveTheirEigenproblem) {
  const std::int64_t M = 64, K = 4;
  const double NW = 3.0, W = NW / static_cast<double>(M);
  const DpssResult r =
      dpss(M, NW, {.Kmax = K, .norm = std::string("2"), .return_ratios = true}, kSym);
  ASSERT_EQ(r.windows.shape(), (Shape{K, M}));
  const std::vector<double> v = host(r.windows);
  const std::vector<double> ratios = host(*r.ratios);
  auto at = [&](std::int64_t k, std::int64_t n) { return v[static_cast<std::size_t>(k * M + n)]; };
  std::vector<double> lambdas;
  for (std::int64_t k = 0; k < K; ++k) {
    double lambda = 0, norm = 0;
    for (std::int64_t n = 0; n < M; ++n) {
      const double d =
          std::pow((static_cast<double>(M) - 1 - 2.0 * static_cast<double>(n)) / 2, 2) *
          std::cos(2 * kPi * W);
      double tv = d * at(k, n);
      if (n > 0) tv += static_cast<double>(n) * static_cast<double>(M - n) / 2 * at(k, n - 1);
      if (n + 1 < M)
        tv += static_cast<double>(n + 1) * static_cast<double>(M - n - 1) / 2 * at(k, n + 1);
      if (n == M / 2) lambda = tv / at(k, n);
      norm += at(k, n) * at(k, n);
    }
    EXPECT_NEAR(norm, 1.0, 1e-12);
    lambdas.push_back(lambda);
    for (std::int64_t j = 0; j < k; ++j) {
      double dot = 0;
      for (std::int64_t n = 0; n < M; ++n) dot += at(k, n) * at(j, n);
      EXPECT_NEAR(dot, 0.0, 1e-10);
    }
    EXPECT_GT(ratios[static_cast<std::size_t>(k)],
              0.9);  // NW = 3: the first tapers are well concentrated
  }
  for (std::size_t k = 1; k < lambdas.size(); ++k) EXPECT_LT(lambdas[k], lambdas[k - 1]);
  double sum0 = 0;
  for (std::int64_t n = 0; n < M; ++n) sum0 += at(0, n);
  EXPECT_GT(sum0, 0);
  EXPECT_THROW(dpss(8, 4.0, {}, kSym), ValueError);
  EXPECT_THROW(dpss(8, 1.0, {.Kmax = 9}, kSym), ValueError);
  EXPECT_THROW(dpss(8, 1.0, {.norm = std::string("3")}, kSym), ValueError);
  // The default norm of one taper ('approximate') scales its peak to about 1.
  const std::vector<double> one = host(dpss(M, NW, {}, kSym).windows);
  EXPECT_NEAR(*std::max_element(one.begin(), one.end()), static_cast<double>(M * M) / (M * M + NW),
              1e-12);
}

}  // namespace
}  // namespace cunp::signal

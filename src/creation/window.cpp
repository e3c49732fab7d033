// src/creation/window.cpp — the window functions of cunp/window.hpp. Each is a short
// float64 vector: it is computed on the host with NumPy's formulas, in NumPy's order
// of operations, and moved to the device in one copy.
#include "cunp/window.hpp"

#include <cmath>
#include <numbers>
#include <vector>

#include "cunp/creation.hpp"

namespace cunp {
namespace {

// NumPy's sample points for the symmetric windows: n = arange(1 - M, M, 2).
std::vector<double> symmetric_points(double M) {
  std::vector<double> n;
  for (double v = 1 - M; v < M; v += 2) n.push_back(v);
  return n;
}

ndarray place(const std::vector<double>& values, const WindowOptions& o) {
  ndarray host = empty({static_cast<std::int64_t>(values.size())}, {.dtype = DType::Float64, .device = Device::cpu()});
  auto* out = static_cast<double*>(host.data());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = values[i];
  const Device target = o.device ? *o.device : current_device();
  return target.is_cpu() ? host : host.to(target);
}

// M < 1: empty; M == 1: [1.0]; otherwise f(n, M) over the symmetric points.
template <typename F>
ndarray symmetric(double M, const WindowOptions& o, F f) {
  if (!(M >= 1)) return place({}, o);  // NaN too: NumPy's `M < 1` is False for NaN, then arange fails
  if (M == 1) return place({1.0}, o);
  std::vector<double> v = symmetric_points(M);
  for (double& x : v) x = f(x, M);
  return place(v, o);
}

// Cephes' Chebyshev series, as numpy.i0 evaluates it.
double chbevl(double x, const double* coef, int n) {
  double b0 = coef[0], b1 = 0.0, b2 = 0.0;
  for (int i = 1; i < n; ++i) {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + coef[i];
  }
  return 0.5 * (b0 - b2);
}

// The modified Bessel function I0 with numpy.i0's coefficients (Cephes i0.c).
double bessel_i0(double x) {
  static constexpr double A[] = {
      -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
      1.71539128555513303061E-15,  -1.16853328779934516808E-14, 7.67618549860493561688E-14,
      -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
      9.67580903537323691224E-11,  -5.18979560163526290666E-10, 2.65982372468238665035E-9,
      -1.30002500998624804212E-8,  6.04699502254191894932E-8,   -2.67079385394061173391E-7,
      1.11738753912010371815E-6,   -4.41673835845875056359E-6,  1.64484480707288970893E-5,
      -5.75419501008210370398E-5,  1.88502885095841655729E-4,   -5.76375574538582365885E-4,
      1.63947561694133579842E-3,   -4.32430999505057594430E-3,  1.05464603945949983183E-2,
      -2.37374148058994688156E-2,  4.93052842396707084878E-2,   -9.49010970480476444210E-2,
      1.71620901522208775349E-1,   -3.04682672343198398683E-1,  6.76795274409476084995E-1};
  static constexpr double B[] = {
      -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
      3.46122286769746109310E-17,  -2.82762398051658348494E-16, -3.42548561967721913462E-16,
      1.77256013305652638360E-15,  3.81168066935262242075E-15,  -9.55484669882830764870E-15,
      -4.15056934728722208663E-14, 1.54008621752140982691E-14,  3.85277838274214270114E-13,
      7.18012445138366623367E-13,  -1.79417853150680611778E-12, -1.32158118404477131188E-11,
      -3.14991652796324136454E-11, 1.18891471078464383424E-11,  4.94060238822496958910E-10,
      3.39623202570838634515E-9,   2.26666899049817806459E-8,   2.04891858946906374183E-7,
      2.89137052083475648297E-6,   6.88975834691682398426E-5,   3.36911647825569408990E-3,
      8.04490411014108831608E-1};
  x = std::fabs(x);
  if (x <= 8.0) return std::exp(x) * chbevl(x / 2.0 - 2.0, A, 30);
  return std::exp(x) * chbevl(32.0 / x - 2.0, B, 25) / std::sqrt(x);
}

}  // namespace

ndarray bartlett(double M, WindowOptions o) {
  return symmetric(M, o, [](double n, double m) { return n <= 0 ? 1 + n / (m - 1) : 1 - n / (m - 1); });
}

ndarray blackman(double M, WindowOptions o) {
  constexpr double pi = std::numbers::pi;
  return symmetric(M, o, [](double n, double m) {
    return 0.42 + 0.5 * std::cos(pi * n / (m - 1)) + 0.08 * std::cos(2.0 * pi * n / (m - 1));
  });
}

ndarray hamming(double M, WindowOptions o) {
  constexpr double pi = std::numbers::pi;
  return symmetric(M, o, [](double n, double m) { return 0.54 + 0.46 * std::cos(pi * n / (m - 1)); });
}

ndarray hanning(double M, WindowOptions o) {
  constexpr double pi = std::numbers::pi;
  return symmetric(M, o, [](double n, double m) { return 0.5 + 0.5 * std::cos(pi * n / (m - 1)); });
}

ndarray kaiser(double M, double beta, WindowOptions o) {
  if (!(M >= 1)) return place({}, o);
  if (M == 1) return place({1.0}, o);
  const double alpha = (M - 1) / 2.0;
  const double denominator = bessel_i0(beta);
  std::vector<double> v;
  for (double k = 0; k < M; k += 1) {
    const double r = (k - alpha) / alpha;
    v.push_back(bessel_i0(beta * std::sqrt(1 - r * r)) / denominator);
  }
  return place(v, o);
}

}  // namespace cunp

// src/signal/windows.cpp — scipy.signal.windows (cunp/signal_windows.hpp). Each window
// is computed on the host in float64 with SciPy's formulas and order of operations
// (numpy.linspace's points, the cosine sums term by term), then moved to the device
// in one copy: a window is at most a few thousand samples, read once by the FFT or
// filter that uses it. The Kaiser window is NumPy's (cunp/window.hpp: the same
// formula and I0); dpss solves its tridiagonal eigenproblem with LAPACK.
#include "linalg/cpu_lapack.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/signal_windows.hpp"
#include "cunp/window.hpp"

namespace cunp::signal {
namespace {

constexpr double kPi = std::numbers::pi;
using Samples = std::vector<double>;

ndarray place(const Samples& v, const WindowOptions& o) {
  return from_host(v.data(), DType::Float64, {static_cast<std::int64_t>(v.size())}, o.device);
}

// SciPy's _len_guards: M < 0 is an error; M <= 1 gives ones(M).
bool trivial(std::int64_t M) {
  if (M < 0) throw ValueError("Window length M must be a non-negative integer");
  return M <= 1;
}

// The window of `sym`: f computes the symmetric window of its argument's length; a
// periodic window is the symmetric one of M + 1 points without its last (_extend,
// _truncate).
template <typename F>
ndarray window(std::int64_t M, const WindowOptions& o, F f) {
  if (trivial(M)) return place(Samples(static_cast<std::size_t>(M), 1.0), o);
  Samples w = f(o.sym ? M : M + 1);
  if (!o.sym) w.pop_back();
  return place(w, o);
}

// numpy.linspace(start, stop, n): i * step + start, the last point exactly stop.
Samples linspace(double start, double stop, std::int64_t n) {
  Samples v(static_cast<std::size_t>(n));
  const double step = (stop - start) / static_cast<double>(n - 1);
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = static_cast<double>(i) * step + start;
  if (n > 1) v.back() = stop;
  return v;
}

Samples cosine_sum(std::int64_t M, std::span<const double> a) {
  const Samples fac = linspace(-kPi, kPi, M);
  Samples w(fac.size(), 0.0);
  for (std::size_t k = 0; k < a.size(); ++k)
    for (std::size_t i = 0; i < w.size(); ++i)
      w[i] += a[k] * std::cos(static_cast<double>(k) * fac[i]);
  return w;
}

ndarray cosine_window(std::int64_t M, std::span<const double> a, const WindowOptions& o) {
  return window(M, o, [&](std::int64_t m) { return cosine_sum(m, a); });
}

// Re(sum_n p[n] exp(-2 pi i k n / M)) for k < count: a direct DFT, with the angle
// reduced modulo M in integers so that long windows keep full accuracy.
Samples dft_real(const std::vector<std::complex<double>>& p, std::int64_t count) {
  const auto M = static_cast<std::int64_t>(p.size());
  Samples out(static_cast<std::size_t>(count));
  for (std::int64_t k = 0; k < count; ++k) {
    double s = 0;
    for (std::int64_t n = 0; n < M; ++n) {
      const double angle = -2.0 * kPi * static_cast<double>((k * n) % M) / static_cast<double>(M);
      s += p[static_cast<std::size_t>(n)].real() * std::cos(angle) -
           p[static_cast<std::size_t>(n)].imag() * std::sin(angle);
    }
    out[static_cast<std::size_t>(k)] = s;
  }
  return out;
}

Samples host_kaiser(std::int64_t M, double beta) {
  const ndarray w = cunp::kaiser(static_cast<double>(M), beta, {.device = Device::cpu()});
  const auto* p = static_cast<const double*>(w.data());
  return Samples(p, p + M);
}

}  // namespace

ndarray general_cosine(std::int64_t M, std::span<const double> a, WindowOptions o) {
  return cosine_window(M, a, o);
}

ndarray boxcar(std::int64_t M, WindowOptions o) {
  return window(M, o, [](std::int64_t m) { return Samples(static_cast<std::size_t>(m), 1.0); });
}

ndarray triang(std::int64_t M, WindowOptions o) {
  return window(M, o, [](std::int64_t m) {
    Samples w;
    const double md = static_cast<double>(m);
    for (std::int64_t n = 1; n <= (m + 1) / 2; ++n)
      w.push_back(m % 2 == 0 ? (2.0 * static_cast<double>(n) - 1.0) / md
                             : 2.0 * static_cast<double>(n) / (md + 1.0));
    const std::size_t half = w.size();
    for (std::size_t i = (m % 2 == 0 ? half : half - 1); i-- > 0;) w.push_back(w[i]);
    return w;
  });
}

ndarray parzen(std::int64_t M, WindowOptions o) {
  return window(M, o, [](std::int64_t m) {
    const double md = static_cast<double>(m);
    Samples w;
    for (double n = -(md - 1) / 2.0; n < (md - 1) / 2.0 + 0.5; n += 1.0) {
      const double r = std::fabs(n) / (md / 2.0);
      w.push_back(std::fabs(n) <= (md - 1) / 4.0 ? 1 - 6 * std::pow(r, 2.0) + 6 * std::pow(r, 3.0)
                                                 : 2 * std::pow(1 - r, 3.0));
    }
    return w;
  });
}

ndarray bohman(std::int64_t M, WindowOptions o) {
  return window(M, o, [](std::int64_t m) {
    Samples w = linspace(-1, 1, m);
    for (std::size_t i = 1; i + 1 < w.size(); ++i) {
      const double fac = std::fabs(w[i]);
      w[i] = (1 - fac) * std::cos(kPi * fac) + 1.0 / kPi * std::sin(kPi * fac);
    }
    w.front() = w.back() = 0.0;
    return w;
  });
}

ndarray blackman(std::int64_t M, WindowOptions o) {
  constexpr double a[] = {0.42, 0.50, 0.08};
  return cosine_window(M, a, o);
}

ndarray nuttall(std::int64_t M, WindowOptions o) {
  constexpr double a[] = {0.3635819, 0.4891775, 0.1365995, 0.0106411};
  return cosine_window(M, a, o);
}

ndarray blackmanharris(std::int64_t M, WindowOptions o) {
  constexpr double a[] = {0.35875, 0.48829, 0.14128, 0.01168};
  return cosine_window(M, a, o);
}

ndarray flattop(std::int64_t M, WindowOptions o) {
  constexpr double a[] = {0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368};
  return cosine_window(M, a, o);
}

ndarray bartlett(std::int64_t M, WindowOptions o) {
  return window(M, o, [](std::int64_t m) {
    Samples w(static_cast<std::size_t>(m));
    const double md = static_cast<double>(m);
    for (std::int64_t i = 0; i < m; ++i) {
      const double n = static_cast<double>(i);
      w[static_cast<std::size_t>(i)] =
          n <= (md - 1) / 2.0 ? 2.0 * n / (md - 1) : 2.0 - 2.0 * n / (md - 1);
    }
    return w;
  });
}

ndarray general_hamming(std::int64_t M, double alpha, WindowOptions o) {
  const double a[] = {alpha, 1.0 - alpha};
  return cosine_window(M, a, o);
}

ndarray hann(std::int64_t M, WindowOptions o) { return general_hamming(M, 0.5, o); }
ndarray hamming(std::int64_t M, WindowOptions o) { return general_hamming(M, 0.54, o); }

ndarray tukey(std::int64_t M, double alpha, WindowOptions o) {
  if (trivial(M)) return place(Samples(static_cast<std::size_t>(M), 1.0), o);
  if (alpha <= 0)
    return place(Samples(static_cast<std::size_t>(M), 1.0), o);  // SciPy: ones(M), even periodic
  if (alpha >= 1.0) return hann(M, o);
  return window(M, o, [alpha](std::int64_t m) {
    const double md = static_cast<double>(m);
    const auto width = static_cast<std::int64_t>(std::floor(alpha * (md - 1) / 2.0));
    Samples w(static_cast<std::size_t>(m), 1.0);
    for (std::int64_t i = 0; i < m; ++i) {
      const double n = static_cast<double>(i);
      double& v = w[static_cast<std::size_t>(i)];
      if (i <= width)
        v = 0.5 * (1 + std::cos(kPi * (-1 + 2.0 * n / alpha / (md - 1))));
      else if (i >= m - width - 1)
        v = 0.5 * (1 + std::cos(kPi * (-2.0 / alpha + 1 + 2.0 * n / alpha / (md - 1))));
    }
    return w;
  });
}

ndarray barthann(std::int64_t M, WindowOptions o) {
  return window(M, o, [](std::int64_t m) {
    Samples w(static_cast<std::size_t>(m));
    for (std::int64_t i = 0; i < m; ++i) {
      const double fac = std::fabs(static_cast<double>(i) / (static_cast<double>(m) - 1.0) - 0.5);
      w[static_cast<std::size_t>(i)] = 0.62 - 0.48 * fac + 0.38 * std::cos(2 * kPi * fac);
    }
    return w;
  });
}

ndarray kaiser(std::int64_t M, double beta, WindowOptions o) {
  return window(M, o, [beta](std::int64_t m) { return host_kaiser(m, beta); });
}

ndarray kaiser_bessel_derived(std::int64_t M, double beta, WindowOptions o) {
  if (!o.sym)
    throw ValueError("Kaiser-Bessel Derived windows are only defined for symmetric shapes");
  if (M < 1) return place({}, o);
  if (M % 2)
    throw ValueError("Kaiser-Bessel Derived windows are only defined for even number of points");
  const Samples k = host_kaiser(M / 2 + 1, beta);
  Samples csum(k.size());
  double s = 0;
  for (std::size_t i = 0; i < k.size(); ++i) csum[i] = s += k[i];
  Samples w(static_cast<std::size_t>(M));
  const std::size_t half = static_cast<std::size_t>(M / 2);
  for (std::size_t i = 0; i < half; ++i)
    w[i] = w[static_cast<std::size_t>(M) - 1 - i] = std::sqrt(csum[i] / csum.back());
  return place(w, o);
}

ndarray gaussian(std::int64_t M, double std, WindowOptions o) {
  return window(M, o, [std](std::int64_t m) {
    Samples w(static_cast<std::size_t>(m));
    const double sig2 = 2 * std * std;
    for (std::int64_t i = 0; i < m; ++i) {
      const double n = static_cast<double>(i) - (static_cast<double>(m) - 1.0) / 2.0;
      w[static_cast<std::size_t>(i)] = std::exp(-(n * n) / sig2);
    }
    return w;
  });
}

ndarray general_gaussian(std::int64_t M, double p, double sig, WindowOptions o) {
  return window(M, o, [p, sig](std::int64_t m) {
    Samples w(static_cast<std::size_t>(m));
    for (std::int64_t i = 0; i < m; ++i) {
      const double n = static_cast<double>(i) - (static_cast<double>(m) - 1.0) / 2.0;
      w[static_cast<std::size_t>(i)] = std::exp(-0.5 * std::pow(std::fabs(n / sig), 2 * p));
    }
    return w;
  });
}

// Note [Dolph-Chebyshev window]: the window is the inverse DFT of the Chebyshev
// polynomial T_{M-1}(beta cos(pi k / M)) sampled at M points (for even M shifted by half
// a bin, exp(i pi k / M)), evaluated with cosh/arccosh outside [-1, 1], then
// rearranged to put the peak in the middle and scaled to a maximum of 1. The DFT is
// direct (O(M^2)), which keeps the cpu device free of an FFT library dependence here.
ndarray chebwin(std::int64_t M, double at, WindowOptions o) {
  return window(M, o, [at](std::int64_t m) {
    const double order = static_cast<double>(m) - 1.0;
    const double beta = std::cosh(1.0 / order * std::acosh(std::pow(10.0, std::fabs(at) / 20.0)));
    std::vector<std::complex<double>> p(static_cast<std::size_t>(m));
    for (std::int64_t k = 0; k < m; ++k) {
      const double x = beta * std::cos(kPi * static_cast<double>(k) / static_cast<double>(m));
      double v;
      if (x > 1)
        v = std::cosh(order * std::acosh(x));
      else if (x < -1)
        v = (2.0 * static_cast<double>(m % 2) - 1) * std::cosh(order * std::acosh(-x));
      else
        v = std::cos(order * std::acos(x));
      p[static_cast<std::size_t>(k)] = v;
      if (m % 2 == 0)
        p[static_cast<std::size_t>(k)] *= std::exp(
            std::complex<double>(0, kPi / static_cast<double>(m) * static_cast<double>(k)));
    }
    Samples w;
    if (m % 2) {
      const std::int64_t n = (m + 1) / 2;
      const Samples half = dft_real(p, n);
      for (std::int64_t i = n - 1; i >= 1; --i) w.push_back(half[static_cast<std::size_t>(i)]);
      w.insert(w.end(), half.begin(), half.end());
    } else {
      const std::int64_t n = m / 2 + 1;
      const Samples half = dft_real(p, n);
      for (std::int64_t i = n - 1; i >= 1; --i) w.push_back(half[static_cast<std::size_t>(i)]);
      w.insert(w.end(), half.begin() + 1, half.end());
    }
    const double peak = *std::max_element(w.begin(), w.end());
    for (double& v : w) v /= peak;
    return w;
  });
}

ndarray cosine(std::int64_t M, WindowOptions o) {
  return window(M, o, [](std::int64_t m) {
    Samples w(static_cast<std::size_t>(m));
    for (std::int64_t i = 0; i < m; ++i)
      w[static_cast<std::size_t>(i)] =
          std::sin(kPi / static_cast<double>(m) * (static_cast<double>(i) + 0.5));
    return w;
  });
}

ndarray exponential(std::int64_t M, std::optional<double> center, double tau, WindowOptions o) {
  if (o.sym && center) throw ValueError("If sym==True, center must be None.");
  return window(M, o, [center, tau](std::int64_t m) {
    const double c = center ? *center : (static_cast<double>(m) - 1) / 2;
    Samples w(static_cast<std::size_t>(m));
    for (std::int64_t i = 0; i < m; ++i)
      w[static_cast<std::size_t>(i)] = std::exp(-std::fabs(static_cast<double>(i) - c) / tau);
    return w;
  });
}

// Taylor's window: 1 + 2 sum_m F_m cos(2 pi m (n - M/2 + 1/2) / M) with the nbar - 1
// coefficients F_m of Taylor's distribution for sidelobes `sll` dB down.
ndarray taylor(std::int64_t M, std::int64_t nbar, double sll, bool norm, WindowOptions o) {
  return window(M, o, [nbar, sll, norm](std::int64_t m) {
    const double B = std::pow(10.0, sll / 20);
    const double A = std::acosh(B) / kPi;
    const double nb = static_cast<double>(nbar);
    const double s2 = nb * nb / (A * A + (nb - 0.5) * (nb - 0.5));
    const std::size_t count = nbar > 1 ? static_cast<std::size_t>(nbar - 1) : 0;
    Samples ma(count), Fm(count);
    for (std::size_t i = 0; i < count; ++i) ma[i] = static_cast<double>(i + 1);
    for (std::size_t mi = 0; mi < count; ++mi) {
      const double m2 = ma[mi] * ma[mi];
      double numer = (mi % 2 == 0) ? 1.0 : -1.0;
      double p = 1.0;
      for (std::size_t j = 0; j < count; ++j)
        p *= 1 - m2 / s2 / (A * A + (ma[j] - 0.5) * (ma[j] - 0.5));
      numer *= p;
      double below = 1.0, above = 1.0;
      for (std::size_t j = 0; j < mi; ++j) below *= 1 - m2 / (ma[j] * ma[j]);
      for (std::size_t j = mi + 1; j < count; ++j) above *= 1 - m2 / (ma[j] * ma[j]);
      Fm[mi] = numer / (2 * below * above);
    }
    const double md = static_cast<double>(m);
    auto W = [&](double n) {
      double s = 0;
      for (std::size_t i = 0; i < count; ++i)
        s += Fm[i] * std::cos(2 * kPi * ma[i] * (n - md / 2.0 + 0.5) / md);
      return 1 + 2 * s;
    };
    Samples w(static_cast<std::size_t>(m));
    for (std::int64_t i = 0; i < m; ++i) w[static_cast<std::size_t>(i)] = W(static_cast<double>(i));
    if (norm) {
      const double scale = 1.0 / W((md - 1) / 2);
      for (double& v : w) v *= scale;
    }
    return w;
  });
}

ndarray lanczos(std::int64_t M, WindowOptions o) {
  return window(M, o, [](std::int64_t m) {
    auto sinc = [](double x) { return x == 0 ? 1.0 : std::sin(kPi * x) / (kPi * x); };
    const double md = static_cast<double>(m);
    Samples right;
    // arange(n0, m) with n0 = m/2 (even) or (m+1)/2 (odd), as floats.
    for (double n = (m % 2 == 0 ? md / 2 : (md + 1) / 2); n < md; n += 1)
      right.push_back(sinc(2.0 * n / (md - 1) - 1.0));
    Samples w(right.rbegin(), right.rend());
    if (m % 2) w.push_back(1.0);
    w.insert(w.end(), right.begin(), right.end());
    return w;
  });
}

// Note [DPSS]: the tapers are the eigenvectors of the symmetric tridiagonal matrix with
// diagonal ((M-1-2n)/2)^2 cos(2 pi W) and off-diagonal n(M-n)/2 belonging to its Kmax
// largest eigenvalues (Slepian; Percival & Walden ch. 8), computed with LAPACK's
// dstevr. Their signs follow SciPy: symmetric tapers sum to a positive value and
// antisymmetric ones start with a positive lobe (the first sample with w^2 above
// max(1e-7, 1/M)). The concentration ratios are the autocorrelation of each taper
// against 4W sinc(2W k), summed directly.
DpssResult dpss(std::int64_t M, double NW, DpssOptions d, WindowOptions o) {
  std::string norm = d.norm ? *d.norm : (d.Kmax ? "2" : "approximate");
  if (norm != "2" && norm != "approximate" && norm != "subsample")
    throw ValueError("norm must be one of (2, 'approximate', 'subsample'), got " + norm);
  const bool singleton = !d.Kmax;
  const std::int64_t kmax = d.Kmax ? *d.Kmax : 1;
  if (trivial(M)) {
    DpssResult r{place(Samples(static_cast<std::size_t>(M), 1.0), o), std::nullopt};
    if (d.return_ratios)
      r.ratios = singleton ? full({}, 1.0, {.dtype = DType::Float64, .device = o.device})
                           : ones({1}, {.dtype = DType::Float64, .device = o.device});
    return r;
  }
  if (!(0 < kmax && kmax <= M)) throw ValueError("Kmax must be greater than 0 and less than M");
  if (NW >= static_cast<double>(M) / 2.0) throw ValueError("NW must be less than M/2.");
  if (NW <= 0) throw ValueError("NW must be positive");
  const std::int64_t m = o.sym ? M : M + 1;
  const double md = static_cast<double>(m);
  const double W = NW / md;
  Samples diag(static_cast<std::size_t>(m)), off(static_cast<std::size_t>(m), 0.0);
  for (std::int64_t i = 0; i < m; ++i) {
    const double n = static_cast<double>(i);
    diag[static_cast<std::size_t>(i)] = std::pow((md - 1 - 2 * n) / 2.0, 2) * std::cos(2 * kPi * W);
    if (i + 1 < m) off[static_cast<std::size_t>(i)] = (n + 1) * (md - (n + 1)) / 2.0;
  }
  if (m > std::numeric_limits<lapack_int>::max())
    throw ValueError("dpss: M is too large for LAPACK");
  const auto n = static_cast<lapack_int>(m);
  const auto k = static_cast<lapack_int>(kmax);
  lapack_int found = 0;
  Samples eig(static_cast<std::size_t>(m)), z(static_cast<std::size_t>(m * kmax));
  std::vector<lapack_int> support(static_cast<std::size_t>(2 * kmax));
  const lapack_int info =
      LAPACKE_dstevr(LAPACK_COL_MAJOR, 'V', 'I', n, diag.data(), off.data(), 0.0, 0.0, n - k + 1, n,
                     0.0, &found, eig.data(), z.data(), n, support.data());
  if (info != 0 || found != k)
    throw LinAlgError("dpss: the tridiagonal eigensolver (dstevr) failed, info " +
                      std::to_string(info));
  // Largest eigenvalue first: taper t is LAPACK's column k - 1 - t.
  std::vector<Samples> tapers(static_cast<std::size_t>(kmax), Samples(static_cast<std::size_t>(m)));
  for (std::int64_t t = 0; t < kmax; ++t) {
    Samples& w = tapers[static_cast<std::size_t>(t)];
    const double* col = z.data() + (kmax - 1 - t) * m;
    std::copy(col, col + m, w.begin());
    bool flip;
    if (t % 2 == 0) {
      double s = 0;
      for (double v : w) s += v;
      flip = s < 0;
    } else {
      const double thresh = std::max(1e-7, 1.0 / md);
      flip = false;
      for (double v : w)
        if (v * v > thresh) {
          flip = v < 0;
          break;
        }
    }
    if (flip)
      for (double& v : w) v = -v;
  }
  DpssResult result{ndarray(), std::nullopt};
  if (d.return_ratios) {
    Samples r(static_cast<std::size_t>(m));
    r[0] = 2 * W;
    for (std::int64_t lag = 1; lag < m; ++lag) {
      const double x = 2 * W * static_cast<double>(lag);
      r[static_cast<std::size_t>(lag)] = 4 * W * std::sin(kPi * x) / (kPi * x);
    }
    Samples ratios(static_cast<std::size_t>(kmax));
    for (std::int64_t t = 0; t < kmax; ++t) {
      const Samples& w = tapers[static_cast<std::size_t>(t)];
      double s = 0;
      for (std::int64_t lag = 0; lag < m; ++lag) {
        double rxx = 0;
        for (std::int64_t i = 0; i + lag < m; ++i)
          rxx += w[static_cast<std::size_t>(i)] * w[static_cast<std::size_t>(i + lag)];
        s += rxx * r[static_cast<std::size_t>(lag)];
      }
      ratios[static_cast<std::size_t>(t)] = s;
    }
    result.ratios = singleton ? full({}, ratios[0], {.dtype = DType::Float64, .device = o.device})
                              : place(ratios, o);
  }
  if (norm != "2") {
    double peak = -std::numeric_limits<double>::infinity();
    for (const Samples& w : tapers) peak = std::max(peak, *std::max_element(w.begin(), w.end()));
    for (Samples& w : tapers)
      for (double& v : w) v /= peak;
    if (m % 2 == 0) {
      double correction;
      if (norm == "approximate") {
        correction = md * md / (md * md + NW);
      } else {
        // M / Re(s_0 + sum_k 2 s_k exp(i pi (1 - 1/M) k)), s = the rfft of the first taper.
        const Samples& w = tapers[0];
        double total = 0;
        for (std::int64_t f = 0; f <= m / 2; ++f) {
          std::complex<double> s = 0;
          for (std::int64_t i = 0; i < m; ++i)
            s += w[static_cast<std::size_t>(i)] *
                 std::exp(
                     std::complex<double>(0, -2.0 * kPi * static_cast<double>((f * i) % m) / md));
          if (f > 0)
            s *= 2.0 *
                 std::exp(std::complex<double>(0, kPi * (1 - 1.0 / md) * static_cast<double>(f)));
          total += s.real();
        }
        correction = md / total;
      }
      for (Samples& w : tapers)
        for (double& v : w) v *= correction;
    }
  }
  const std::int64_t keep = o.sym ? m : m - 1;
  Samples flat;
  for (const Samples& w : tapers) flat.insert(flat.end(), w.begin(), w.begin() + keep);
  ndarray all = from_host(flat.data(), DType::Float64, {kmax, keep}, o.device);
  result.windows = singleton ? all.reshape({keep}) : all;
  return result;
}

}  // namespace cunp::signal

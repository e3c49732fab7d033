// src/ops/special_bessel_fixed.h — the Bessel functions of order 0 and 1 (scipy.special's
// j0, j1, y0, y1, i0, i0e, i1, i1e, k0, k0e, k1, k1e) in float64, by Cephes' method: on a
// finite interval the function, with its logarithm and its first zeros factored out, is
// a Chebyshev series in x or x^2; beyond, the smooth factor of the Hankel (J, Y) or
// exponential (I, K) asymptotic form is a Chebyshev series in 1/x or 1/x^2. The tables
// are computed by scripts/gen-bessel-tables (special_bessel_tables.h).
//
// Note [Special functions in float64]: the special-function code computes in double
// only; the float32 loops convert on the way in and out (as SciPy's 'f->f' loops do),
// which keeps one instantiation per function for NVRTC and float32 results within an
// ulp of the correctly rounded ones.
#pragma once

#include "real_math.h"
#include "special_bessel_tables.h"

// Note [Out-of-line special functions]: the elementwise kernels inline their functor
// several times per thread (Note [Elementwise kernels]); a Bessel function is hundreds
// of instructions, so its body is compiled once (__noinline__) and called.
#ifndef CUNP_HD_NOINLINE
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define CUNP_HD_NOINLINE inline __host__ __device__ __noinline__
#else
#define CUNP_HD_NOINLINE inline
#endif
#endif

namespace cunp {
namespace ops {
namespace bessel {

namespace tab = bessel_tables;

constexpr double kPi = 3.14159265358979323846;
constexpr double kEuler = 0.577215664901532860607;

// sum' c_k T_k(t) (the first coefficient halved), by Clenshaw's recurrence.
template <int N> CUNP_HD double chebyshev(const double (&c)[N], double t) {
  double b0 = 0, b1 = 0, b2 = 0;
  const double t2 = 2 * t;
  for (int k = N - 1; k >= 0; --k) {
    b2 = b1;
    b1 = b0;
    b0 = t2 * b1 - b2 + c[k];
  }
  return 0.5 * (b0 - b2);
}

// (x - z)(x + z) for a zero z = z[0] + z[1] given to twice double precision, so that
// the factor keeps its relative accuracy next to the zero.
CUNP_HD double zero_factor(double x, const double* z) { return ((x - z[0]) - z[1]) * (x + z[0] + z[1]); }

// exp(x) * y where exp(x) alone may overflow and the product not.
CUNP_HD double exp_times(double x, double y) {
  if (x < 700) return fm::exp(x) * y;
  const double h = fm::exp(0.5 * x);
  return h * y * h;
}

// ---- I0, I1 (SciPy: i0(inf) is nan, from exp(x)/sqrt(x) at inf; kept)
CUNP_HD double i0e(double x) {
  x = fm::fabs(x);
  if (x <= 8) return chebyshev(tab::kI0Small, x / 4 - 1);
  return chebyshev(tab::kI0Large, 16 / x - 1) / fm::sqrt(x);
}
CUNP_HD double i0(double x) {
  x = fm::fabs(x);
  if (x <= 8) return fm::exp(x) * chebyshev(tab::kI0Small, x / 4 - 1);
  if (fm::isinf(x)) return fm::nan<double>();
  return exp_times(x, chebyshev(tab::kI0Large, 16 / x - 1) / fm::sqrt(x));
}
CUNP_HD double i1e(double x) {
  const double z = fm::fabs(x);
  const double r = z <= 8 ? chebyshev(tab::kI1Small, z / 4 - 1) * z : chebyshev(tab::kI1Large, 16 / z - 1) / fm::sqrt(z);
  return x < 0 ? -r : r;
}
CUNP_HD double i1(double x) {
  const double z = fm::fabs(x);
  double r;
  if (z <= 8) r = fm::exp(z) * chebyshev(tab::kI1Small, z / 4 - 1) * z;
  else if (fm::isinf(z)) r = fm::nan<double>();
  else r = exp_times(z, chebyshev(tab::kI1Large, 16 / z - 1) / fm::sqrt(z));
  return x < 0 ? -r : r;
}

// ---- K0, K1: poles at 0 (inf), NaN for x < 0.
CUNP_HD double k0(double x) {
  if (!(x > 0)) return x == 0 ? fm::inf<double>() : fm::nan<double>();
  if (x <= 2) return chebyshev(tab::kK0Small, x * x / 2 - 1) - fm::log(0.5 * x) * i0(x);
  if (x > 800) return 0;
  return fm::exp(-x) * chebyshev(tab::kK0Large, 4 / x - 1) / fm::sqrt(x);
}
CUNP_HD double k0e(double x) {
  if (!(x > 0)) return x == 0 ? fm::inf<double>() : fm::nan<double>();
  if (x <= 2) return fm::exp(x) * k0(x);
  return chebyshev(tab::kK0Large, 4 / x - 1) / fm::sqrt(x);
}
CUNP_HD double k1(double x) {
  if (!(x > 0)) return x == 0 ? fm::inf<double>() : fm::nan<double>();
  if (x <= 2) return chebyshev(tab::kK1Small, x * x / 2 - 1) / x + fm::log(0.5 * x) * i1(x);
  if (x > 800) return 0;
  return fm::exp(-x) * chebyshev(tab::kK1Large, 4 / x - 1) / fm::sqrt(x);
}
CUNP_HD double k1e(double x) {
  if (!(x > 0)) return x == 0 ? fm::inf<double>() : fm::nan<double>();
  if (x <= 2) return fm::exp(x) * k1(x);
  return chebyshev(tab::kK1Large, 4 / x - 1) / fm::sqrt(x);
}

// ---- J0, J1, Y0, Y1. Beyond x = 8: J = (P cos w - Q sin w) sqrt(2/(pi x)), Y = (P sin w +
// Q cos w) sqrt(2/(pi x)) with w = x - pi/4 (order 0) or x - 3 pi/4 (order 1), spelled with
// sin x and cos x so that the phase keeps libm's exact argument reduction. SciPy returns
// NaN at infinity (sin and cos of inf); so do these.
struct Hankel01 {
  double p, q, s, c, scale;
};
template <int NP, int NQ> CUNP_HD Hankel01 hankel01(double x, const double (&p)[NP], const double (&q)[NQ]) {
  Hankel01 h;
  const double t = 128 / x / x - 1;
  h.p = chebyshev(p, t);
  h.q = chebyshev(q, t) / x;
  fm::sincos(x, &h.s, &h.c);
  h.scale = 1 / fm::sqrt(kPi * x);
  return h;
}

CUNP_HD double j0(double x) {
  x = fm::fabs(x);
  if (x <= 8) {
    return chebyshev(tab::kJ0Small, x * x / 32 - 1) * zero_factor(x, tab::kJ0Zeros) * zero_factor(x, tab::kJ0Zeros + 2);
  }
  const Hankel01 h = hankel01(x, tab::kP0, tab::kQ0);
  return (h.p * (h.c + h.s) - h.q * (h.s - h.c)) * h.scale;
}
CUNP_HD double j1(double x) {
  const double z = fm::fabs(x);
  double r;
  if (z <= 8) {
    r = chebyshev(tab::kJ1Small, z * z / 32 - 1) * z * zero_factor(z, tab::kJ1Zeros) * zero_factor(z, tab::kJ1Zeros + 2);
  } else {
    const Hankel01 h = hankel01(z, tab::kP1, tab::kQ1);
    r = (h.p * (h.s - h.c) + h.q * (h.s + h.c)) * h.scale;
  }
  return x < 0 ? -r : r;
}
CUNP_HD double y0(double x) {
  if (!(x > 0)) return x == 0 ? -fm::inf<double>() : fm::nan<double>();
  if (x <= 8) return chebyshev(tab::kY0Small, x * x / 32 - 1) + (2 / kPi) * fm::log(x) * j0(x);
  const Hankel01 h = hankel01(x, tab::kP0, tab::kQ0);
  return (h.p * (h.s - h.c) + h.q * (h.c + h.s)) * h.scale;
}
CUNP_HD double y1(double x) {
  if (!(x > 0)) return x == 0 ? -fm::inf<double>() : fm::nan<double>();
  if (x <= 8) return x * chebyshev(tab::kY1Small, x * x / 32 - 1) + (2 / kPi) * (fm::log(x) * j1(x) - 1 / x);
  const Hankel01 h = hankel01(x, tab::kP1, tab::kQ1);
  return (h.q * (h.s - h.c) - h.p * (h.s + h.c)) * h.scale;
}

}  // namespace bessel
}  // namespace ops
}  // namespace cunp

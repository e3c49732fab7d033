// src/ops/special_elliptic.h — scipy.special's complete and incomplete elliptic
// integrals of the first and second kind (ellipk, ellipkm1, ellipe, ellipkinc,
// ellipeinc) and the Jacobian elliptic functions (ellipj) in float64. The integrals come
// from Carlson's symmetric integrals R_F and R_D computed by duplication ("Numerical computation of real or complex elliptic integrals",
// Numer. Algorithms 10, 1995; DLMF 19.36.1): K(m) = R_F(0, 1 - m, 1),
// E(m) = (1 - m)/3 (R_D(0, 1 - m, 1) + R_D(0, 1, 1 - m)), and F, E(phi | m) with the
// amplitude reduced to [-pi/2, pi/2] by their quasi-periodicity.
#pragma once

#include "special_bessel_fixed.h"

namespace cunp {
namespace ops {
namespace elliptic {

constexpr double kPi = 3.14159265358979323846;

// R_F(x, y, z), x, y, z >= 0 with at most one zero; to a relative 2^-53 (Carlson's
// bound r: stop once 4^-n Q < |A_n|, Q = (3r)^(-1/6) max |A_0 - x_i|).
CUNP_HD_NOINLINE double carlson_rf(double x, double y, double z) {
  const double a0 = (x + y + z) / 3;
  double q = fm::fabs(a0 - x);
  if (fm::fabs(a0 - y) > q) q = fm::fabs(a0 - y);
  if (fm::fabs(a0 - z) > q) q = fm::fabs(a0 - z);
  q *= 400;  // (3 * 2^-53)^(-1/6) = 380
  double a = a0, f = 1;  // f = 4^-n
  const double x0 = x, y0 = y;
  for (int i = 0; i < 100 && q * f >= fm::fabs(a); ++i) {
    const double sx = fm::sqrt(x), sy = fm::sqrt(y), sz = fm::sqrt(z);
    const double lambda = sx * sy + sx * sz + sy * sz;
    x = 0.25 * (x + lambda);
    y = 0.25 * (y + lambda);
    z = 0.25 * (z + lambda);
    a = 0.25 * (a + lambda);
    f *= 0.25;
  }
  const double X = (a0 - x0) * f / a, Y = (a0 - y0) * f / a, Z = -(X + Y);
  const double e2 = X * Y - Z * Z, e3 = X * Y * Z;
  return (1 - e2 / 10 + e3 / 14 + e2 * e2 / 24 - 3 * e2 * e3 / 44) / fm::sqrt(a);
}

// R_D(x, y, z), x, y >= 0 (at most one zero), z > 0.
CUNP_HD_NOINLINE double carlson_rd(double x, double y, double z) {
  const double a0 = (x + y + 3 * z) / 5;
  double q = fm::fabs(a0 - x);
  if (fm::fabs(a0 - y) > q) q = fm::fabs(a0 - y);
  if (fm::fabs(a0 - z) > q) q = fm::fabs(a0 - z);
  q *= 600;  // (2^-53 / 4)^(-1/6) = 573
  double a = a0, f = 1, sum = 0;
  const double x0 = x, y0 = y;
  for (int i = 0; i < 100 && q * f >= fm::fabs(a); ++i) {
    const double sx = fm::sqrt(x), sy = fm::sqrt(y), sz = fm::sqrt(z);
    const double lambda = sx * sy + sx * sz + sy * sz;
    sum += f / (sz * (z + lambda));
    x = 0.25 * (x + lambda);
    y = 0.25 * (y + lambda);
    z = 0.25 * (z + lambda);
    a = 0.25 * (a + lambda);
    f *= 0.25;
  }
  const double X = (a0 - x0) * f / a, Y = (a0 - y0) * f / a, Z = -(X + Y) / 3;
  const double xy = X * Y, z2 = Z * Z;
  const double e2 = xy - 6 * z2, e3 = (3 * xy - 8 * z2) * Z, e4 = 3 * (xy - z2) * z2, e5 = xy * z2 * Z;
  const double series = 1 - 3 * e2 / 14 + e3 / 6 + 9 * e2 * e2 / 88 - 3 * e4 / 22 - 9 * e2 * e3 / 52 + 3 * e5 / 26;
  return f * series / (a * fm::sqrt(a)) + 3 * sum;
}

// K(m) with p = 1 - m given (ellipkm1 takes p to keep its precision near m = 1).
CUNP_HD double ellipk_of_p(double p) {
  if (fm::isnan(p)) return p;
  if (p < 0) return fm::nan<double>();
  if (p == 0) return fm::inf<double>();
  if (fm::isinf(p)) return 0;
  return carlson_rf(0, p, 1);
}
CUNP_HD double ellipk(double m) { return fm::isnan(m) ? m : ellipk_of_p(1 - m); }
CUNP_HD double ellipkm1(double p) { return ellipk_of_p(p); }

CUNP_HD double ellipe(double m) {
  if (fm::isnan(m)) return m;
  if (m > 1 || m == fm::inf<double>()) return fm::nan<double>();
  if (m == 1) return 1;
  if (m == -fm::inf<double>()) return fm::inf<double>();
  // E = (1 - m)/3 (R_D(0, 1 - m, 1) + R_D(0, 1, 1 - m)) (DLMF 19.25.1): two positive
  // terms, where R_F - m/3 R_D cancels as m -> 1.
  const double p = 1 - m;
  return p / 3 * (carlson_rd(0, p, 1) + carlson_rd(0, 1, p));
}

// F(phi | m) and E(phi | m) for |phi| <= pi/2, from s = sin phi, c = cos phi.
CUNP_HD double ellipf_reduced(double s, double c, double m) {
  const double d = 1 - m * s * s;
  if (d < 0) return fm::nan<double>();
  return s * carlson_rf(c * c, d, 1);
}
CUNP_HD double ellipe_reduced(double s, double c, double m) {
  const double d = 1 - m * s * s;
  if (d < 0) return fm::nan<double>();
  return s * carlson_rf(c * c, d, 1) - m / 3 * s * s * s * carlson_rd(c * c, d, 1);
}

// phi = n pi + r with |r| <= pi/2 (n as a double: phi may exceed the int range).
CUNP_HD double reduce_amplitude(double phi, double* r) {
  const double n = fm::rint(phi / kPi);
  *r = phi - n * kPi;
  return n;
}

CUNP_HD_NOINLINE double ellipkinc(double phi, double m) {
  if (fm::isnan(phi) || fm::isnan(m)) return fm::nan<double>();
  if (m > 1) return fm::nan<double>();  // SciPy, even where m sin^2 phi <= 1
  if (m == -fm::inf<double>()) return fm::isinf(phi) ? fm::nan<double>() : 0.0;
  if (fm::isinf(phi)) return phi;  // F grows without bound
  if (m == 0) return phi;
  double r;
  const double n = reduce_amplitude(phi, &r);
  double s, c;
  fm::sincos(r, &s, &c);
  if (m == 1) {
    // F(phi | 1) = atanh(sin phi), infinite from |phi| = pi/2 on (+inf either side, as
    // SciPy returns it).
    if (n != 0 || fm::fabs(r) >= kPi / 2) return fm::inf<double>();
    return fm::atanh(s);
  }
  const double f = ellipf_reduced(s, c, m);
  if (n == 0) return f;
  return 2 * n * ellipk(m) + f;
}

CUNP_HD_NOINLINE double ellipeinc(double phi, double m) {
  if (fm::isnan(phi) || fm::isnan(m)) return fm::nan<double>();
  if (m > 1) return fm::nan<double>();
  if (fm::isinf(phi)) return phi;
  if (m == -fm::inf<double>()) return fm::inf<double>();  // SciPy, whatever the sign of phi
  if (m == 0) return phi;
  double r;
  const double n = reduce_amplitude(phi, &r);
  double s, c;
  fm::sincos(r, &s, &c);
  const double e = ellipe_reduced(s, c, m);
  if (n == 0) return e;
  return 2 * n * ellipe(m) + e;
}

// The Jacobian elliptic functions sn, cn, dn and the amplitude ph of u and the parameter
// m in [0, 1] (NaN outside, as SciPy), by the arithmetic-geometric mean and descending
// Landen transformation (Abramowitz & Stegun 16.4), with their expansions for m within
// 1e-9 of 0 (16.13) and 1e-10 of 1 (16.15).
CUNP_HD_NOINLINE void ellipj(double u, double m, double* sn, double* cn, double* dn, double* ph) {
  if (fm::isnan(u) || fm::isnan(m) || m < 0 || m > 1) {
    *sn = *cn = *dn = *ph = fm::nan<double>();
    return;
  }
  if (m < 1e-9) {
    double t, b;
    fm::sincos(u, &t, &b);
    const double ai = 0.25 * m * (u - t * b);
    *sn = t - ai * b;
    *cn = b + ai * t;
    *ph = u - ai;
    *dn = 1 - 0.5 * m * t * t;
    return;
  }
  if (m >= 0.9999999999) {
    double ai = 0.25 * (1 - m);
    const double b = fm::cosh(u), t = fm::tanh(u), phi = 1 / b, twon = b * fm::sinh(u);
    *sn = t + ai * (twon - u) / (b * b);
    *ph = 2 * fm::atan(fm::exp(u)) - kPi / 2 + ai * (twon - u) / b;
    ai *= t * phi;
    *cn = phi - ai * (twon - u);
    *dn = phi + ai * (twon + u);
    return;
  }
  double a[16], c[16];
  a[0] = 1;
  c[0] = fm::sqrt(m);
  double b = fm::sqrt(1 - m), twon = 1;
  int i = 0;
  while (fm::fabs(c[i] / a[i]) > 1.1102230246251565e-16 && i < 15) {
    const double ai = a[i];
    ++i;
    c[i] = 0.5 * (ai - b);
    const double t = fm::sqrt(ai * b);
    a[i] = 0.5 * (ai + b);
    b = t;
    twon *= 2;
  }
  double phi = twon * a[i] * u;
  for (; i > 0; --i) phi = 0.5 * (fm::asin(c[i] * fm::sin(phi) / a[i]) + phi);
  double s, co;
  fm::sincos(phi, &s, &co);
  *sn = s;
  *cn = co;
  // dn^2 = 1 - m sn^2 = (1 - m) + m cn^2: two positive terms (A&S's cn / cos(phi_1 - phi_0)
  // loses digits to the difference of the large amplitudes when u is large).
  *dn = fm::sqrt((1 - m) + m * co * co);
  *ph = phi;
}

}  // namespace elliptic

namespace special {

#define CUNP_ELLIPTIC_UNARY(name)                                                                  \
  struct name {                                                                                    \
    template <typename T> CUNP_HD T operator()(T x) const { return T(elliptic::name(double(x))); } \
  };
CUNP_ELLIPTIC_UNARY(ellipk)
CUNP_ELLIPTIC_UNARY(ellipkm1)
CUNP_ELLIPTIC_UNARY(ellipe)
#undef CUNP_ELLIPTIC_UNARY

#define CUNP_ELLIPTIC_BINARY(name)                                                                   \
  struct name {                                                                                      \
    template <typename T> CUNP_HD T operator()(T phi, T m) const {                                   \
      return T(elliptic::name(double(phi), double(m)));                                              \
    }                                                                                                \
  };
CUNP_ELLIPTIC_BINARY(ellipkinc)
CUNP_ELLIPTIC_BINARY(ellipeinc)
#undef CUNP_ELLIPTIC_BINARY

// "dd->dddd": sn, cn, dn, ph.
struct ellipj {
  template <typename T> CUNP_HD void operator()(T u, T m, T& sn, T& cn, T& dn, T& ph) const {
    double s, c, d, p;
    elliptic::ellipj(double(u), double(m), &s, &c, &d, &p);
    sn = T(s);
    cn = T(c);
    dn = T(d);
    ph = T(p);
  }
};

}  // namespace special
}  // namespace ops
}  // namespace cunp

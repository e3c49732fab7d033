// src/ops/special_gamma_expint_complex.h — the exponential integrals E1 and Ei and the
// dilogarithm (spence) for complex arguments, on SciPy's branches: E1 and spence cut
// along the negative real axis (the sign of a zero imaginary part picks the side:
// exp1(-1 + 0j) = -Ei(1) - i pi), Ei(z) = -E1(-z) + i pi sign(Im z) off the real axis.
#pragma once

#include "complex_math.h"
#include "special_gamma_complex.h"
#include "special_gamma_misc.h"

namespace cunp {
namespace ops {
namespace sg {

using c128 = complex<f64>;

// E1(z) = -gamma - log z - sum_{k>=1} (-z)^k / (k k!): for |z| < 1, and near the
// negative real axis (|z| + Re z < 2.5), where the terms cancel by less than e^2.5.
CUNP_SG c128 cexp1_series(c128 z) {
  c128 t{1.0, 0.0}, s{0.0, 0.0};
  const c128 mz{-z.re, -z.im};
  for (int k = 1; k < 400; ++k) {
    t = t * mz * (1.0 / k);
    const c128 term = t * (1.0 / k);
    s = s + term;
    if (cm::abs(term) <= 0.5 * kEps * cm::abs(s)) break;
  }
  const c128 l = cm::log(z);
  return {-kEuler - l.re - s.re, -l.im - s.im};
}

// E1(z) = e^{-z} / (z + 1 - 1^2 / (z + 3 - 2^2 / (z + 5 - ...))) by the modified Lentz
// method (1 <= |z| < 40 away from the negative real axis).
CUNP_SG c128 cexp1_cf(c128 z) {
  const c128 one{1.0, 0.0};
  c128 b = z + one, c{1e300, 0.0}, d = one / b, h = d;
  for (int i = 1; i < 1000; ++i) {
    const f64 an = -static_cast<f64>(i) * i;
    b.re += 2;
    d = b + d * an;
    if (d.re == 0 && d.im == 0) d.re = 1e-300;
    d = one / d;
    c = b + c128{an, 0.0} / c;
    if (c.re == 0 && c.im == 0) c.re = 1e-300;
    const c128 del = c * d;
    h = h * del;
    if (fm::fabs(del.re - 1) + fm::fabs(del.im) <= kEps) break;
  }
  return cm::mul_annex_g(cm::exp(c128{-z.re, -z.im}), h);
}

// E1(z) ~ e^{-z}/z sum (-1)^k k! / z^k for |z| >= 40, truncated at its smallest term.
CUNP_SG c128 cexp1_asymptotic(c128 z) {
  const c128 one{1.0, 0.0};
  const c128 iz = one / z;
  c128 t = one, s = one;
  f64 at = 1;
  for (int k = 1; k < 80; ++k) {
    const c128 tn = t * iz * static_cast<f64>(-k);
    const f64 an = cm::abs(tn);
    if (an > at) break;
    t = tn;
    at = an;
    s = s + t;
    if (at <= 0.5 * kEps * cm::abs(s)) break;
  }
  // C99 Annex G's product: an overflowing exp(-z) gives infinities, as SciPy's
  return cm::mul_annex_g(cm::exp(c128{-z.re, -z.im}), iz * s);
}

CUNP_SG c128 cexp1(c128 z) {
  const f64 x = z.re, y = z.im;
  if (!fm::isfinite(x) || !fm::isfinite(y)) return {nan(), nan()};
  if (y == 0) {
    if (x > 0) return {exp1(x), -y};
    if (x == 0) return {inf(), 0.0};
    // on the cut: E1(-t -+ 0i) = -Ei(t) +- i pi (SciPy's NaN imaginary part where
    // exp(t) overflows)
    const f64 ei = expi(-x);
    if (fm::isinf(ei)) return {-ei, nan()};
    return {-ei, fm::signbit(y) ? kPi : -kPi};
  }
  const f64 a = cm::abs(z);
  if (a >= 40) return cexp1_asymptotic(z);
  if (a < 1 || (x < 0 && a + x < 2.5)) return cexp1_series(z);
  return cexp1_cf(z);
}

// Ei(z) = gamma + log z + sum z^k / (k k!) near the positive real axis (|z| < 40,
// |z| - Re z < 2.5), where -E1(-z) + i pi sign(Im z) would cancel the two pi.
CUNP_SG c128 cexpi_series(c128 z) {
  c128 t{1.0, 0.0}, s{0.0, 0.0};
  for (int k = 1; k < 400; ++k) {
    t = t * z * (1.0 / k);
    const c128 term = t * (1.0 / k);
    s = s + term;
    if (cm::abs(term) <= 0.5 * kEps * cm::abs(s)) break;
  }
  const c128 l = cm::log(z);
  return {kEuler + l.re + s.re, l.im + s.im};
}

CUNP_SG c128 cexpi(c128 z) {
  const f64 x = z.re, y = z.im;
  if (!fm::isfinite(x) || !fm::isfinite(y)) return {nan(), nan()};
  if (y == 0) {
    const f64 ei = expi(x);
    return {ei, fm::isinf(ei) && x > 0 ? nan() : y};
  }
  const f64 a = cm::abs(z);
  if (x > 0 && a < 40 && a - x < 2.5) return cexpi_series(z);
  const c128 e = cexp1({-x, -y});
  return {-e.re, -e.im + (y > 0 ? kPi : -kPi)};
}

// ---- the dilogarithm: spence(z) = Li2(1 - z).
// Li2(w) = sum_n B_n u^(n+1) / (n+1)!, u = -log(1 - w), for |w| <= 1, Re w <= 1/2
// (|u| <= 1.25; B_n / (n+1)! to n = 26).
CUNP_SG c128 cli2_series(c128 u) {
  constexpr f64 c[] = {1.0, -0.25, 2.7777777777777778e-2, -2.7777777777777778e-4, 4.7241118669690098e-6,
                       -9.1857730746619641e-8, 1.8978869988971e-9, -4.0647616451442255e-11,
                       8.9216910204564526e-13, -1.9939295860721076e-14, 4.5189800296199182e-16,
                       -1.0356517612181247e-17, 2.395218621026187e-19, -5.581785874325009e-21,
                       1.3091507554183213e-22};
  const c128 u2 = u * u;
  c128 s{c[14], 0.0};
  for (int i = 13; i >= 2; --i) s = s * u2 + c128{c[i], 0.0};
  return u + u2 * c[1] + u * u2 * s;
}

// Li2(w) for |w| <= 1 from lw = log w and lomw = log(1 - w), each computed without the
// rounding of 1 - w by the caller: the series for Re w <= 1/2, else
// Li2(w) = pi^2/6 - log w log(1 - w) - Li2(1 - w).
CUNP_SG c128 cli2_disk(f64 wre, c128 lw, c128 lomw) {
  if (wre <= 0.5) return cli2_series({-lomw.re, -lomw.im});
  if (fm::isinf(lomw.re)) return {kPi * kPi / 6, 0.0};  // w = 1
  const c128 r = cli2_series({-lw.re, -lw.im});
  const c128 p = lw * lomw;
  return {kPi * kPi / 6 - p.re - r.re, -p.im - r.im};
}

CUNP_SG c128 cspence(c128 z) {
  const f64 x = z.re, y = z.im;
  if (!fm::isfinite(x) || !fm::isfinite(y)) return {nan(), nan()};
  if (x == 0 && y == 0) return {kPi * kPi / 6, 0.0};
  if (y == 0 && x > 0) return {spence(x), 0.0};
  const c128 w{1 - x, -y};  // the sign of a zero imaginary part says the side of the cut
  // |w|^2 - 1 = x (x - 2) + y^2 from z itself
  const f64 n1 = x * (x - 2) + y * y;
  if (n1 <= 0) return cli2_disk(w.re, clog1p({-x, -y}), cm::log(z));
  // Li2(w) = -Li2(1/w) - pi^2/6 - log^2(-w) / 2 for |w| > 1; 1 - 1/w = -z / w
  const c128 one{1.0, 0.0};
  const c128 iw = one / w;
  const f64 lre = n1 < 1 ? 0.5 * lib_log1p(n1) : lib_log(cm::abs(w));
  const c128 l{lre, fm::atan2(y, x - 1)};  // log(-w), -w = (x - 1) + iy
  const c128 r = cli2_disk(iw.re, cm::log(iw), cm::log(c128{-x, -y} / w));
  const c128 l2 = l * l;
  return {-r.re - kPi * kPi / 6 - 0.5 * l2.re, -r.im - 0.5 * l2.im};
}

}  // namespace sg
}  // namespace ops
}  // namespace cunp

// src/ops/special_gamma_complex.h — the complex functions of the special-gamma family:
// the Lambert W function on every branch, and x log y, x log1p y for complex operands.
#pragma once

#include "complex_math.h"
#include "special_gamma_core.h"

namespace cunp {
namespace ops {
namespace sg {

using c128 = complex<f64>;

// log(1 + z) accurate near z = 0: log|1 + z| = log1p(2x + x^2 + y^2) / 2.
CUNP_SG c128 clog1p(c128 z) {
  const f64 x = z.re, y = z.im;
  const f64 ax = fm::fabs(x), ay = fm::fabs(y);
  if (ax < 0.5 && ay < 0.5) {
    const f64 t = x * (2 + x) + y * y;
    return {0.5 * lib_log1p(t), fm::atan2(y, 1 + x)};
  }
  return cm::log(c128{1 + x, y});
}

CUNP_SG c128 cxlogy(c128 x, c128 y) {
  if (x.re == 0 && x.im == 0 && !any_nan(y)) return {0.0, 0.0};
  return x * cm::log(y);
}
CUNP_SG c128 cxlog1py(c128 x, c128 y) {
  if (x.re == 0 && x.im == 0 && !any_nan(y)) return {0.0, 0.0};
  return x * clog1p(y);
}

// The series of W at the branch point -1/e in p = sign * sqrt(2 (e z + 1)).
CUNP_HD c128 lambertw_branch_point(c128 d, f64 sign) {
  const c128 p = cm::sqrt(c128{2 * 2.71828182845904523536, 0.0} * d) * sign;
  return c128{-1.0, 0.0} + p * (c128{1.0, 0.0} + p * (c128{-1.0 / 3, 0.0} + p * (11.0 / 72)));
}

// W_k(z), the solution of w e^w = z on branch k: Halley's iteration from the series at
// the branch point -1/e (p = sqrt(2 (e z + 1)), W = -1 + p - p^2/3 + 11 p^3/72), a Pade
// approximant near 0, or the asymptotic log z + 2 pi i k - log(log z + 2 pi i k)
// (Corless, Gonnet, Hare, Jeffrey and Knuth, 1996). tol is SciPy's relative tolerance of
// the last step.
CUNP_SG c128 lambertw(c128 z, i64 k, f64 tol) {
  const f64 kInvE = 0.36787944117144232160;
  if (any_nan(z)) return {nan(), nan()};
  if (fm::isinf(z.re) || fm::isinf(z.im)) {
    // W ~ log z + 2 pi i k
    const f64 im = (z.im == 0 && z.re > 0 ? 0.0 : fm::atan2(z.im, z.re)) + 2 * kPi * static_cast<f64>(k);
    return {inf(), im};
  }
  if (z.re == 0 && z.im == 0) {
    if (k == 0) return z;
    return {-inf(), 0.0};
  }
  if (z.re == -kInvE && z.im == 0 && (k == 0 || k == -1)) return {-1.0, 0.0};
  const c128 one{1.0, 0.0};
  c128 w;
  const c128 d = z + c128{kInvE, 0.0};
  const f64 dabs = cm::abs(d);
  if (k == 0 && dabs < 0.3) {
    w = lambertw_branch_point(d, 1.0);
  } else if (k == -1 && dabs < 0.3 && z.im >= 0 && !fm::signbit(z.im)) {
    w = lambertw_branch_point(d, -1.0);
  } else if (k == 1 && dabs < 0.3 && (z.im < 0 || fm::signbit(z.im))) {
    w = lambertw_branch_point(d, -1.0);
  } else if (k == 0 && z.re > -1 && z.re < 1.5 && fm::fabs(z.im) < 1 && -2.5 * fm::fabs(z.im) - 0.2 < z.re) {
    // Pade approximant W(z) ~ z (3 + 6z + z^2) / (3 + 9z + 5z^2) around 0
    w = z * (c128{3.0, 0.0} + z * (c128{6.0, 0.0} + z)) / (c128{3.0, 0.0} + z * (c128{9.0, 0.0} + z * 5.0));
  } else {
    c128 l1 = cm::log(z);
    l1.im += 2 * kPi * static_cast<f64>(k);
    const c128 l2 = cm::log(l1);
    w = l1 - l2 + l2 / l1;
  }
  for (int i = 0; i < 100; ++i) {
    const c128 ew = cm::exp(w);
    const c128 wew = w * ew;
    const c128 f = wew - z;
    const c128 wp1 = w + one;
    const c128 denom = ew * wp1 - (w + c128{2.0, 0.0}) * f / (wp1 * 2.0);
    const c128 wn = w - f / denom;
    if (cm::abs(wn - w) <= tol * cm::abs(wn)) return wn;
    if (any_nan(wn)) return w;
    w = wn;
  }
  return w;
}


// log gamma(1 + w) = -gamma w + sum_{k>=2} (-1)^k zeta(k)/k w^k for |w| < 0.2 (zeta(k)/k
// from mpmath).
CUNP_SG c128 cloggamma1p_series(c128 w) {
  constexpr f64 c[] = {0.82246703342411321824,  0.40068563438653142847,  0.27058080842778454788,
                       0.20738555102867398527,  0.16955717699740818995,  0.14404989676884611812,
                       0.12550966952474304242,  0.11133426586956469049,  0.10009945751278180853,
                       0.090954017145829042233, 0.083353840546109004025, 0.076932516411352191473,
                       0.071432946295361336059, 0.066668705882420468033, 0.062500955141213040742,
                       0.058823978658684582339, 0.055555767627403611102, 0.052631679379616660734,
                       0.05000004769810169364,  0.047619070330142227991, 0.045454556293204669442,
                       0.043478266053040259361, 0.041666669150341210469, 0.040000001192140140586};
  c128 s{0.0, 0.0};
  for (int k = 23; k >= 0; --k) {
    const f64 ck = (k % 2 == 0) ? c[k] : -c[k];  // (-1)^(k+2) zeta(k+2)/(k+2)
    s = s * w + c128{ck, 0.0};
  }
  // -gamma w + w^2 s
  return w * c128{-kEuler, 0.0} + w * w * s;
  }

// log gamma(z) for complex z on SciPy's branch: the analytic continuation from the
// positive axis with the cut on the negative real axis (loggamma(-2.5 + 0j) is ... - 3 pi i,
// loggamma(-2.5 - 0j) its conjugate). Stirling's
// series for Re z >= 15 (or |Im z| >= 15); below, the recurrence
// log gamma(z) = log gamma(z + n) - sum log(z + k) with principal logarithms, which keeps
// the branch; Taylor series near 1 and 2, where the recurrence would cancel.
CUNP_SG c128 cloggamma(c128 z) {
  if (any_nan(z) || !fm::isfinite(z.re) || !fm::isfinite(z.im)) return {nan(), nan()};
  if (z.im == 0) {
    // the real axis from lgamma; on the cut each factor z + k < 0 of the recurrence adds
    // -pi i from above (+0 imaginary part) and +pi i from below (-0)
    if (z.re <= 0 && is_int(z.re)) return {nan(), nan()};
    if (z.re > 0) return {lgam(z.re), z.im};
    const f64 turns = fm::ceil(-z.re) * kPi;
    return {lgam(z.re), fm::signbit(z.im) ? turns : -turns};
  }
  const c128 one{1.0, 0.0};
  const c128 w1 = z - one;
  if (cm::abs(w1) < 0.2) return cloggamma1p_series(w1);
  const c128 w2 = z - c128{2.0, 0.0};
  if (cm::abs(w2) < 0.2) return clog1p(w2) + cloggamma1p_series(w2);  // log(1 + w) + log gamma(1 + w)
  c128 shift{0.0, 0.0};
  if (z.re < 15 && fm::fabs(z.im) < 15) {
    while (z.re < 15) {
      shift = shift + cm::log(z);
      z.re += 1;
    }
  }
  // (z - 1/2) log z - z + log sqrt(2 pi) + sum B_2k / (2k (2k-1) z^(2k-1))
  constexpr f64 b[] = {1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188, -691.0 / 360360, 1.0 / 156,
                       -3617.0 / 122400};
  const c128 iz = one / z, iz2 = iz * iz;
  c128 ser{b[7], 0.0};
  for (int k = 6; k >= 0; --k) ser = ser * iz2 + c128{b[k], 0.0};
  const c128 r = (z - c128{0.5, 0.0}) * cm::log(z) - z + c128{kLnSqrt2Pi, 0.0} + ser * iz;
  return r - shift;
}

CUNP_SG c128 cgamma(c128 z) {
  if (z.im == 0 && z.re <= 0 && is_int(z.re)) return {nan(), nan()};
  if (z.im == 0 && fm::isfinite(z.re)) return {gamma(z.re), 0.0};  // tgamma: no exp(log) rounding
  return cm::exp(cloggamma(z));
}
CUNP_SG c128 crgamma(c128 z) {
  if (z.im == 0 && z.re <= 0 && is_int(z.re)) return {0.0, 0.0};
  if (any_nan(z)) return {nan(), nan()};
  if (z.im == 0 && fm::isfinite(z.re)) return {rgamma(z.re), 0.0};
  const c128 l = cloggamma(z);
  return cm::exp(c128{-l.re, -l.im});
}

// digamma(z): psi(1 - z) - pi cot(pi z) for Re z < 1/2, the recurrence to Re z >= 10 and
// the asymptotic series there.
CUNP_SG c128 cdigamma(c128 z) {
  if (any_nan(z)) return {nan(), nan()};
  if (z.im == 0) {
    if (z.re <= 0 && is_int(z.re)) return {nan(), nan()};
    return {digamma(z.re), 0.0};
  }
  const c128 one{1.0, 0.0};
  c128 pre{0.0, 0.0};
  if (z.re < 0.5) {
    // pi cot(pi z) with sin(pi z) = sinpi(x) cosh(pi y) + i cospi(x) sinh(pi y): exact
    // reductions, so that near a pole the tiny sine keeps its digits
    const f64 py = kPi * z.im;
    const f64 ch = fm::cosh(py), sh = fm::sinh(py);
    const f64 sx = sinpi(z.re), cx = cospi(z.re);
    const c128 sn{sx * ch, cx * sh}, cs{cx * ch, -sx * sh};
    pre = c128{-kPi, 0.0} * (cs / sn);
    z = one - z;
  }
  c128 acc{0.0, 0.0};
  if (fm::fabs(z.im) < 10) {
    while (z.re < 10) {
      acc = acc - one / z;
      z.re += 1;
    }
  }
  constexpr f64 b[] = {1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240, 1.0 / 132, -691.0 / 32760, 1.0 / 12,
                       -3617.0 / 8160};
  const c128 iz = one / z, iz2 = iz * iz;
  c128 ser{b[7], 0.0};
  for (int k = 6; k >= 0; --k) ser = ser * iz2 + c128{b[k], 0.0};
  return pre + acc + cm::log(z) - iz * 0.5 - iz2 * ser;
}

}  // namespace sg
}  // namespace ops
}  // namespace cunp

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

}  // namespace sg
}  // namespace ops
}  // namespace cunp

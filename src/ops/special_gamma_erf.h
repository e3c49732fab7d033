// src/ops/special_gamma_erf.h — the error-function family in double precision: erfcx,
// erfi, Dawson's integral, the inverses erfinv/erfcinv, and the normal distribution's
// ndtr, log_ndtr, ndtri, ndtri_exp. erf and erfc are the C library's (accurate to a few
// ulp on the host and the device).
#pragma once

#include "special_gamma_core.h"

namespace cunp {
namespace ops {
namespace sg {

// exp(x^2) (sign > 0) or exp(-x^2) (sign < 0) without the error of rounding x^2:
// x = m + f with m a multiple of 1/128, so m^2 is exact (Cephes' expx2 method).
CUNP_SG f64 expx2(f64 x, f64 sign) {
  x = fm::fabs(x);
  if (!(x < 1e150)) return sign > 0 ? inf() : 0.0;  // also NaN -> inf/0 (callers check NaN)
  const f64 m = fm::floor(x * 128 + 0.5) / 128;
  const f64 f = x - m;
  const f64 u = m * m, u1 = 2 * m * f + f * f;
  if (sign < 0) {
    if (u + u1 > 746) return 0.0;
    return lib_exp(-u) * lib_exp(-u1);
  }
  if (u + u1 > kMaxLog) return inf();
  return lib_exp(u) * lib_exp(u1);
}

// exp(x^2) erfc(x): the product below x = 26 (erfc is accurate down to its underflow
// near 26.5), the asymptotic series 1/(x sqrt(pi)) sum (-1)^k (2k-1)!! / (2x^2)^k above.
CUNP_SG f64 erfcx(f64 x) {
  if (fm::isnan(x)) return x;
  if (x < 26) {
    if (x < -26.7) return inf();
    return expx2(x, 1.0) * erfc(x);
  }
  if (x > 1e8) return 1 / (x * kSqrtPi);
  const f64 z = 1 / (2 * x * x);
  f64 t = 1, s = 1;
  for (int k = 1; k < 12; ++k) {
    t *= -(2 * k - 1) * z;
    s += t;
  }
  return s / (x * kSqrtPi);
}

// sum_n x^(2n) / (n! (2n + 1)) = 1F1(1/2; 3/2; x^2): positive terms, so erfi and Dawson's
// integral from it lose nothing to cancellation.
CUNP_SG f64 erfi_series(f64 x) {
  const f64 x2 = x * x;
  f64 t = 1, s = 1;
  for (int n = 1; n < 400; ++n) {
    t *= x2 / n;
    const f64 term = t / (2 * n + 1);
    s += term;
    if (term < kEps * 0.5 * s) break;
  }
  return s;
}

// Dawson's integral for |x| >= 7 by its asymptotic series 1/(2x) sum (2k-1)!! / (2x^2)^k.
CUNP_SG f64 dawsn_asymptotic(f64 x) {
  const f64 z = 1 / (2 * x * x);
  f64 t = 1, s = 1;
  for (int k = 1; k < 40; ++k) {
    t *= (2 * k - 1) * z;
    s += t;
    if (t < kEps * 0.25 * s) break;
  }
  return s / (2 * x);
}

// Dawson's integral F(x) = exp(-x^2) int_0^x exp(t^2) dt.
CUNP_SG f64 dawsn(f64 x) {
  if (fm::isnan(x)) return x;
  const f64 ax = fm::fabs(x);
  if (ax < 7) return x * expx2(x, -1.0) * erfi_series(x);
  if (ax > 1e150) return 0.5 / x;
  return dawsn_asymptotic(ax) * (x < 0 ? -1.0 : 1.0);
}

// The imaginary error function erfi(x) = -i erf(ix) = 2/sqrt(pi) exp(x^2) F(x).
CUNP_SG f64 erfi(f64 x) {
  if (fm::isnan(x)) return x;
  const f64 ax = fm::fabs(x);
  if (ax < 7) return 2 / kSqrtPi * x * erfi_series(x);
  if (ax > 27) return x < 0 ? -inf() : inf();
  const f64 r = expx2(ax, 1.0) * (2 / kSqrtPi * dawsn_asymptotic(ax));
  return x < 0 ? -r : r;
}

// The x >= 0 with erfc(x) = exp(-L), for L > log 2: Newton's method on
// log erfcx(x) - x^2 + L, whose derivative is -2 / (sqrt(pi) erfcx(x)); it works in the
// logarithm, so q below the smallest normal double keeps its precision.
CUNP_SG f64 erfcinv_log(f64 L) {
  // erfc(x) ~ exp(-x^2) / (x sqrt(pi)): x^2 = L - log(x sqrt(pi)) to start
  f64 x = fm::sqrt(L);
  x = fm::sqrt(L - lib_log(kSqrtPi * x));
  for (int i = 0; i < 40; ++i) {
    const f64 e = erfcx(x);
    const f64 h = lib_log(e) - x * x + L;
    const f64 dx = h * 0.5 * kSqrtPi * e;
    x += dx;
    if (fm::fabs(dx) <= 1e-16 * x) break;
  }
  return x;
}

// The x with erf(x) = y, |y| <= 0.5: Halley's method on erf(x) - y from the series of
// erfinv (erf's relative accuracy near 0 carries over).
CUNP_SG f64 erfinv_central(f64 y) {
  const f64 c = 0.5 * kSqrtPi;
  const f64 y2 = y * y;
  f64 x = c * y * (1 + y2 * (kPi / 12 + y2 * (7 * kPi * kPi / 480 + y2 * 127 * kPi * kPi * kPi / 40320)));
  for (int i = 0; i < 6; ++i) {
    const f64 f = erf(x) - y;
    const f64 t = f * c * expx2(x, 1.0);
    const f64 dx = t / (1 + x * t);
    x -= dx;
    if (fm::fabs(dx) <= 1e-17 * fm::fabs(x)) break;
  }
  return x;
}

// erfcinv(q), 0 <= q <= 2: 1 - q and 2 - q are exact where they are used.
CUNP_SG f64 erfcinv(f64 q) {
  if (fm::isnan(q) || q < 0 || q > 2) return nan();
  if (q == 0) return inf();
  if (q == 2) return -inf();
  if (q > 1.5) return -erfcinv_log(-lib_log(2 - q));
  if (q >= 0.5) return erfinv_central(1 - q);
  return erfcinv_log(-lib_log(q));
}

// erfinv(y), -1 <= y <= 1.
CUNP_SG f64 erfinv(f64 y) {
  if (fm::isnan(y) || y < -1 || y > 1) return nan();
  if (y == 1) return inf();
  if (y == -1) return -inf();
  if (fm::fabs(y) <= 0.5) return erfinv_central(y);
  const f64 x = erfcinv_log(-lib_log(1 - fm::fabs(y)));
  return y < 0 ? -x : x;
}

// The standard normal cdf 1/2 erfc(-x / sqrt 2).
CUNP_SG f64 ndtr(f64 x) {
  if (fm::isnan(x)) return x;
  const f64 t = x * kSqrt1_2;
  if (fm::fabs(t) < kSqrt1_2) return 0.5 + 0.5 * erf(t);
  const f64 y = 0.5 * erfc(fm::fabs(t));
  return t > 0 ? 1 - y : y;
}

// log of the normal cdf: log(erfcx(-x/sqrt 2) / 2) - x^2/2 below 0 (no underflow),
// log1p(-ndtr(-x)) above.
CUNP_SG f64 log_ndtr(f64 x) {
  if (fm::isnan(x)) return x;
  if (x == inf()) return 0.0;
  if (x < -1) {
    if (x == -inf()) return -inf();
    return lib_log(0.5 * erfcx(-x * kSqrt1_2)) - 0.5 * x * x;
  }
  if (x < 0) return lib_log(ndtr(x));
  return lib_log1p(-0.5 * erfc(x * kSqrt1_2));
}

// The normal quantile: ndtri(p) = -sqrt(2) erfcinv(2p) (2p is exact).
CUNP_SG f64 ndtri(f64 p) {
  if (fm::isnan(p) || p < 0 || p > 1) return nan();
  if (p == 0) return -inf();
  if (p == 1) return inf();
  const f64 q = 2 * p;
  if (q < 0.5) return -kSqrt2 * erfcinv_log(-lib_log(q));
  if (q <= 1.5) return kSqrt2 * erfinv_central(q - 1);
  return kSqrt2 * erfcinv_log(-lib_log(2 - q));
}

// ndtri(exp(y)) for y <= 0, in the logarithm for small exp(y).
CUNP_SG f64 ndtri_exp(f64 y) {
  if (fm::isnan(y) || y > 0) return nan();
  if (y == 0) return inf();
  if (y == -inf()) return -inf();
  // p = exp(y) < 1/4: erfc(-x/sqrt 2) = 2p = exp(-L), L = -(y + log 2)
  if (y < -1.3862943611198906) return -kSqrt2 * erfcinv_log(-(y + 0.69314718055994530942));
  // 1/4 <= p <= 3/4: sqrt(2) erfinv(2p - 1), 2p - 1 = expm1(y + log 2) (log 2 as hi + lo)
  if (y < -0.28768207245178093) return kSqrt2 * erfinv_central(lib_expm1((y + 0.6931471805599453) + 2.3190468138462996e-17));
  // p > 3/4: 1 - p = -expm1(y) is accurate
  return -ndtri(-lib_expm1(y));
}

}  // namespace sg
}  // namespace ops
}  // namespace cunp

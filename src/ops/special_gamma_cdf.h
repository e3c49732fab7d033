// src/ops/special_gamma_cdf.h — scipy.special's distribution functions, each the
// incomplete beta or gamma function (or its inverse) of transformed arguments, with
// SciPy's domains: binomial (bdtr*), negative binomial (nbdtr*), Poisson (pdtr*),
// chi-square (chdtr*), F (fdtr*), gamma (gdtr*) and Student's t (stdtr, stdtrit).
// Counts are truncated toward zero (k) or floored as SciPy does.
#pragma once

#include "special_gamma_inc.h"

namespace cunp {
namespace ops {
namespace sg {

// ---- binomial: sum_{j<=k} C(n, j) p^j (1-p)^(n-j) = I_{1-p}(n - k, k + 1)
CUNP_SG f64 bdtr(f64 k, f64 n, f64 p) {
  if (fm::isnan(k) || fm::isnan(n) || fm::isnan(p) || p < 0 || p > 1 || fm::isinf(n)) return nan();
  n = fm::trunc(n);  // the count of trials, truncated as SciPy's double loop does
  const f64 fk = fm::floor(k);
  if (fk < 0 || n < fk) return nan();
  if (fk == n) return 1.0;
  const f64 dn = n - fk;
  if (fk == 0) return lib_exp(dn * lib_log1p(-p));
  return ibeta_pq(dn, fk + 1, 1 - p, p, 0);
}
CUNP_SG f64 bdtrc(f64 k, f64 n, f64 p) {
  if (fm::isnan(k) || fm::isnan(n) || fm::isnan(p) || p < 0 || p > 1 || fm::isinf(n)) return nan();
  n = fm::trunc(n);  // the count of trials, truncated as SciPy's double loop does
  const f64 fk = fm::floor(k);
  if (fk < 0) return 1.0;
  if (n < fk) return nan();
  if (fk == n) return 0.0;
  const f64 dn = n - fk;
  if (fk == 0) return -lib_expm1(dn * lib_log1p(-p));
  return ibeta_pq(fk + 1, dn, p, 1 - p, 0);
}
// The p with bdtr(k, n, p) = y: I_p(k + 1, n - k) = 1 - y.
CUNP_SG f64 bdtri(f64 k, f64 n, f64 y) {
  if (fm::isnan(k) || fm::isnan(n) || fm::isnan(y) || y < 0 || y > 1 || fm::isinf(n)) return nan();
  n = fm::trunc(n);  // the count of trials, truncated as SciPy's double loop does
  const f64 fk = fm::floor(k);
  if (fk < 0 || n <= fk) return nan();
  const f64 dn = n - fk;
  if (fk == 0) {
    // (1 - p)^dn = y
    if (y > 0.8) return -lib_expm1(lib_log1p(y - 1) / dn);
    return 1 - lib_pow(y, 1 / dn);
  }
  return ibeta_inverse(fk + 1, dn, y, true);
}

// ---- negative binomial: sum_{j<=k} C(n+j-1, j) p^n (1-p)^j = I_p(n, k + 1)
CUNP_HD bool nbdtr_domain(f64 k, f64 n, f64 p) {
  return !(fm::isnan(k) || fm::isnan(n) || fm::isnan(p) || p < 0 || p > 1 || k < 0 || n <= 0 || fm::isinf(n) ||
           fm::isinf(k));
}
CUNP_SG f64 nbdtr(f64 k, f64 n, f64 p) {
  if (!nbdtr_domain(k, n, p)) return nan();
  k = fm::trunc(k);
  n = fm::trunc(n);
  if (n <= 0) return nan();
  return ibeta_pq(n, k + 1, p, 1 - p, 0);
}
CUNP_SG f64 nbdtrc(f64 k, f64 n, f64 p) {
  if (!nbdtr_domain(k, n, p)) return nan();
  k = fm::trunc(k);
  n = fm::trunc(n);
  if (n <= 0) return nan();
  return ibeta_pq(n, k + 1, p, 1 - p, 1);
}
CUNP_SG f64 nbdtri(f64 k, f64 n, f64 y) {
  if (!nbdtr_domain(k, n, y)) return nan();
  k = fm::trunc(k);
  n = fm::trunc(n);
  if (n <= 0) return nan();
  return ibeta_inverse(n, k + 1, y, false);
}

// ---- Poisson: sum_{j<=k} e^-m m^j / j! = Q(k + 1, m)
CUNP_SG f64 pdtr(f64 k, f64 m) {
  if (fm::isnan(k) || fm::isnan(m) || k < 0 || m < 0) return nan();
  if (m == 0) return 1.0;
  if (k == inf()) return 1.0;
  return igam_pq(fm::floor(k) + 1, m, 1);
}
CUNP_SG f64 pdtrc(f64 k, f64 m) {
  if (fm::isnan(k) || fm::isnan(m) || k < 0 || m < 0) return nan();
  if (m == 0) return 0.0;
  if (k == inf()) return 0.0;
  return igam_pq(fm::floor(k) + 1, m, 0);
}
CUNP_SG f64 pdtri(f64 k, f64 y) {
  if (fm::isnan(k) || fm::isnan(y) || k < 0 || y < 0 || y >= 1) return nan();  // y = 1: NaN, as SciPy
  return igam_inverse(fm::floor(k) + 1, y, true);
}

// ---- chi-square with v degrees of freedom: P(v/2, x/2)
CUNP_SG f64 chdtr(f64 v, f64 x) {
  if (x < 0 || v < 0) return nan();
  return igam_pq(0.5 * v, 0.5 * x, 0);
}
CUNP_SG f64 chdtrc(f64 v, f64 x) {
  if (x < 0 || v < 0) return nan();
  return igam_pq(0.5 * v, 0.5 * x, 1);
}
CUNP_SG f64 chdtri(f64 v, f64 y) {
  if (fm::isnan(v) || fm::isnan(y) || y < 0 || y > 1 || !(v > 0)) return nan();
  return 2 * igam_inverse(0.5 * v, y, true);
}

// ---- F distribution: I_{a x / (b + a x)}(a/2, b/2)
CUNP_HD bool fdtr_domain(f64 a, f64 b, f64 x) {
  return !(fm::isnan(a) || fm::isnan(b) || fm::isnan(x) || !(a > 0) || !(b > 0) || x < 0 || fm::isinf(a) ||
           fm::isinf(b));
}
CUNP_SG f64 fdtr(f64 a, f64 b, f64 x) {
  if (!fdtr_domain(a, b, x)) return nan();
  if (x == inf()) return 1.0;
  const f64 ax = a * x, d = b + ax;
  return ibeta_pq(0.5 * a, 0.5 * b, ax / d, b / d, 0);
}
CUNP_SG f64 fdtrc(f64 a, f64 b, f64 x) {
  if (!fdtr_domain(a, b, x)) return nan();
  if (x == inf()) return 0.0;
  const f64 ax = a * x, d = b + ax;
  return ibeta_pq(0.5 * a, 0.5 * b, ax / d, b / d, 1);
}
// x with fdtr(a, b, x) = y: w = I^-1(a/2, b/2, y), x = b w / (a (1 - w)), with the
// complement's inverse giving 1 - w accurately where w is near 1.
CUNP_SG f64 fdtri(f64 a, f64 b, f64 y) {
  if (!fdtr_domain(a, b, 0.0) || fm::isnan(y) || y < 0 || y > 1) return nan();
  if (y <= 0.5) {
    const f64 w = ibeta_inverse(0.5 * a, 0.5 * b, y, false);
    return b * w / (a * (1 - w));
  }
  // 1 - w = I^-1(b/2, a/2, 1 - y)
  const f64 v = ibeta_inverse(0.5 * b, 0.5 * a, 1 - y, false);
  return b * (1 - v) / (a * v);
}

// ---- gamma distribution with rate a and shape b: P(b, a x)
CUNP_SG f64 gdtr(f64 a, f64 b, f64 x) {
  if (x < 0 || a < 0) return nan();
  return igam_pq(b, a * x, 0);
}
CUNP_SG f64 gdtrc(f64 a, f64 b, f64 x) {
  if (x < 0 || a < 0) return nan();
  return igam_pq(b, a * x, 1);
}

// ---- Student's t with df degrees of freedom: for t < 0, 1/2 I_{df/(df+t^2)}(df/2, 1/2);
// for small t^2 against df, 1/2 - 1/2 I_{t^2/(df+t^2)}(1/2, df/2) instead.
CUNP_SG f64 stdtr(f64 df, f64 t) {
  if (fm::isnan(df) || fm::isnan(t) || !(df > 0)) return nan();
  if (t == inf()) return 1.0;
  if (t == -inf()) return 0.0;
  if (df == inf()) return ndtr(t);
  if (t == 0) return 0.5;
  const f64 t2 = t * t;
  f64 tail;  // the probability beyond |t|
  if (t2 < df) {
    const f64 z = t2 / (df + t2);
    tail = 0.5 * ibeta_pq(0.5, 0.5 * df, z, df / (df + t2), 1);
  } else {
    const f64 x = df / (df + t2);
    tail = 0.5 * ibeta_pq(0.5 * df, 0.5, x, t2 / (df + t2), 0);
  }
  return t < 0 ? tail : 1 - tail;
}
// The t with stdtr(df, t) = p.
CUNP_SG f64 stdtrit(f64 df, f64 p) {
  if (fm::isnan(df) || fm::isnan(p) || !(df > 0) || p < 0 || p > 1) return nan();
  if (p == 0 || p == 1) return inf();  // as SciPy
  if (df == inf()) return ndtri(p);
  if (p == 0.5) return 0.0;
  const f64 tail = p < 0.5 ? p : 1 - p;  // exact for p >= 0.5
  const f64 q = 2 * tail;
  f64 t;
  if (q < 0.5) {
    // I_x(df/2, 1/2) = q, t^2 = df (1 - x) / x
    const f64 x = ibeta_inverse(0.5 * df, 0.5, q, false);
    t = fm::sqrt(df / x) * fm::sqrt(1 - x);
  } else {
    // I_z(1/2, df/2) = 1 - q with z = t^2 / (df + t^2)
    const f64 z = ibeta_inverse(0.5, 0.5 * df, q, true);
    t = fm::sqrt(df * z / (1 - z));
  }
  return p < 0.5 ? -t : t;
}

}  // namespace sg
}  // namespace ops
}  // namespace cunp

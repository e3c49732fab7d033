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

// The inverses in x and in the rate: gdtr(a, b, x) = p at a x = gammaincinv(b, p), with
// SciPy's values where a rate or an x of 0 or an infinite shape leave it undefined.
CUNP_SG f64 gdtrix(f64 a, f64 b, f64 p) {
  if (fm::isnan(a) || fm::isnan(b) || fm::isnan(p) || a == inf() || b < 0 || p < 0 || p > 1) return nan();
  if (a > 0 && b == inf()) return nan();
  if (a == 0 && (b == 0 || b == inf())) return nan();
  return igam_inverse(b, p, false) / a;
}
CUNP_SG f64 gdtria(f64 p, f64 b, f64 x) {
  if (fm::isnan(p) || fm::isnan(b) || fm::isnan(x) || b < 0 || p < 0 || p > 1 || x == 0) return nan();
  if (p == 0) return 0.0 / x;
  if (p == 1) return inf() / x;
  return igam_inverse(b, p, false) / x;
}

// The root of h, which rises through 0 between a and b (h(a) < 0 < h(b)): regula falsi
// with the Illinois modification (a halved end value where one end is kept twice), to
// the width of a few ulp.
template <typename H> CUNP_HD f64 illinois_root(H h, f64 a, f64 b, f64 fa, f64 fb) {
  int side = 0;
  for (int i = 0; i < 200; ++i) {
    f64 c = (a * fb - b * fa) / (fb - fa);
    if (!(c > a && c < b)) c = 0.5 * (a + b);
    const f64 fc = h(c);
    if (fc == 0) return c;
    if (fc > 0) {
      b = c;
      fb = fc;
      if (side == -1) fa *= 0.5;
      side = -1;
    } else {
      a = c;
      fa = fc;
      if (side == 1) fb *= 0.5;
      side = 1;
    }
    if (b - a <= 2 * kEps * fm::fabs(b)) break;
  }
  return fm::fabs(fa) < fm::fabs(fb) ? a : b;
}

// The root of a rising h on (0, inf) from a bracket [s, 2s] found by doubling or halving
// from `start`; 0 or inf where the root is beyond 1e-300 or 1e300.
template <typename H> CUNP_HD f64 rising_root_positive(H h, f64 start) {
  f64 a = start, fa = h(a);
  f64 b = a, fb = fa;
  if (fa < 0) {
    do {
      a = b;
      fa = fb;
      b = 2 * a;
      if (b > 1e300) return inf();
      fb = h(b);
    } while (fb < 0);
  } else {
    do {
      b = a;
      fb = fa;
      a = 0.5 * b;
      if (a < 1e-300) return 0.0;
      fa = h(a);
    } while (fa > 0);
  }
  if (fa == 0) return a;
  if (fb == 0) return b;
  return illinois_root(h, a, b, fa, fb);
}

// The shape s > 0 with P(s, y) = p, Q(s, y) = q (p + q = 1; the smaller is matched, so a
// tail keeps its relative accuracy): P falls from 1 to 0 as s grows; the bracket starts
// at y + 1/3 (about P's median).
CUNP_SG f64 igam_shape_inverse(f64 y, f64 p, f64 q) {
  const bool upper = q < p;
  auto h = [&](f64 s) { return upper ? igam_pq(s, y, 1) - q : p - igam_pq(s, y, 0); };
  return rising_root_positive(h, y + 1.0 / 3);
}

// gdtr(a, b, x) = p for the shape b.
CUNP_SG f64 gdtrib(f64 a, f64 p, f64 x) {
  if (fm::isnan(a) || fm::isnan(p) || fm::isnan(x) || !(a > 0) || a == inf() || p < 0 || p > 1 || x < 0) return nan();
  if (x == 0) return p == 0 ? nan() : 0.0;
  if (x == inf()) return nan();
  if (p == 0) return inf();
  if (p == 1) return 0.0;
  return igam_shape_inverse(a * x, p, 1 - p);
}

// chdtr(v, x) = p for the degrees of freedom v.
CUNP_SG f64 chdtriv(f64 p, f64 x) {
  if (fm::isnan(p) || fm::isnan(x) || !(x > 0) || p < 0 || p > 1) return nan();
  if (p == 0) return inf();
  if (p == 1) return 0.0;
  if (x == inf()) return nan();
  return 2 * igam_shape_inverse(0.5 * x, p, 1 - p);
}

// pdtr(k, m) = Q(k + 1, m) = p for a real k >= 0 (0 where Q(1, m) = e^-m >= p already).
CUNP_SG f64 pdtrik(f64 p, f64 m) {
  if (fm::isnan(p) || fm::isnan(m) || m < 0 || p < 0 || !(p < 1)) return nan();
  if (p == 0 || m == 0) return 0.0;
  if (m == inf()) return nan();
  if (lib_exp(-m) >= p) return 0.0;
  const f64 s = igam_shape_inverse(m, 1 - p, p);
  return s > 1 ? s - 1 : 0.0;
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

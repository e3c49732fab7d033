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
// the width of a few ulp. A bisection step follows any three steps that did not halve
// the bracket (where h is nearly a step, the false positions crawl toward one end).
template <typename H> CUNP_HD f64 illinois_root(H h, f64 a, f64 b, f64 fa, f64 fb) {
  int side = 0;
  f64 mark = b - a;
  for (int i = 0; i < 400; ++i) {
    f64 c = (a * fb - b * fa) / (fb - fa);
    if (i % 4 == 3) {
      if (b - a > 0.5 * mark) c = 0.5 * (a + b);
      mark = b - a;
    }
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

// ---- the parameter inverses of the beta-function families, SciPy's CDFLIB searches
// (bdtrik ... stdtridf) and btdtria, btdtrib: each root matches the smaller of the cdf and
// its complement, so a tail keeps its relative accuracy, with SciPy's values where the
// root lies outside the search range.

// The root of a rising h on [lo, hi] (0 < lo < hi): a bracket [x, f x] found from `start`
// with factors f = 2, 4, 16, ... (squared each step), narrowed geometrically to a factor
// of 2, then illinois_root. `out` is -1 where h(lo) > 0 (the root is below lo; lo is
// returned), 1 where h(hi) < 0 (hi returned), else 0.
template <typename H>
CUNP_HD f64 rising_root_range(H h, f64 start, f64 lo, f64 hi, int& out) {
  out = 0;
  f64 a = start, fa = h(a), b = a, fb = fa, f = 2;
  if (fa < 0) {
    for (;;) {
      a = b;
      fa = fb;
      if (a >= hi) {
        out = 1;
        return hi;
      }
      b = a < hi / f ? a * f : hi;
      fb = h(b);
      if (!(fb < 0)) break;
      f *= f;
    }
  } else {
    for (;;) {
      b = a;
      fb = fa;
      if (b <= lo) {
        out = -1;
        return lo;
      }
      a = b > lo * f ? b / f : lo;
      fa = h(a);
      if (!(fa > 0)) break;
      f *= f;
    }
  }
  if (fm::isnan(fa) || fm::isnan(fb)) return nan();
  if (fa == 0) return a;
  if (fb == 0) return b;
  while (b > 2 * a) {
    const f64 c = fm::sqrt(a) * fm::sqrt(b);
    const f64 fc = h(c);
    if (fc == 0) return c;
    if (fc < 0) {
      a = c;
      fa = fc;
    } else {
      b = c;
      fb = fc;
    }
  }
  return illinois_root(h, a, b, fa, fb);
}

constexpr f64 kDblMin = 2.2250738585072014e-308;

// bdtr(k, n, pr) = p for a real k in [0, n]: I_{1-pr}(n - k, k + 1) = p, or its complement
// I_pr(k + 1, n - k) = 1 - p; 0 where the cdf at k = 0 is p or more already.
CUNP_SG f64 bdtrik(f64 p, f64 n, f64 pr) {
  if (fm::isnan(p) || fm::isnan(n) || fm::isnan(pr) || p < 0 || p > 1 || pr < 0 || pr > 1 ||
      n < 0 || fm::isinf(n))
    return nan();
  if (p == 1) return n;
  if (p == 0 || n == 0 || pr == 0) return 0.0;
  const f64 q = 1 - p;
  const bool upper = q < p;
  auto h = [&](f64 k) {
    if (!(k < n)) return q;  // the cdf is 1 at k = n
    return upper ? q - ibeta_pq(k + 1, n - k, pr, 1 - pr, 0)
                 : ibeta_pq(k + 1, n - k, pr, 1 - pr, 1) - p;
  };
  // h rises from h(0) to q at n
  const f64 h0 = h(0.0);
  if (!(h0 < 0)) return fm::isnan(h0) ? nan() : 0.0;
  return illinois_root(h, 0.0, n, h0, q);
}

// bdtr(k, n, pr) = p for a real number of trials n > k: I_pr(k + 1, n - k) = 1 - p.
CUNP_SG f64 bdtrin(f64 k, f64 p, f64 pr) {
  if (fm::isnan(k) || fm::isnan(p) || fm::isnan(pr) || p < 0 || p > 1 || pr < 0 || pr > 1 ||
      k < 0 || fm::isinf(k))
    return nan();
  if (p == 1) return k > kDblMin ? k : kDblMin;  // SciPy's: the lowest search bound for k = 0
  if (p == 0) return inf();
  if (pr == 0 || pr == 1) return nan();
  const f64 q = 1 - p;
  const bool upper = q < p;
  // in m = n - k: I_pr(k + 1, m) rises with m
  auto h = [&](f64 m) {
    return upper ? ibeta_pq(k + 1, m, pr, 1 - pr, 0) - q : p - ibeta_pq(k + 1, m, pr, 1 - pr, 1);
  };
  int out;
  const f64 m = rising_root_range(h, (k + 1) / pr, 1e-300, 1e300, out);
  if (out > 0) return nan();
  return k + m;
}

// nbdtr(k, n, pr) = p for a real k >= 0: I_pr(n, k + 1) = p (0 where pr^n >= p).
CUNP_SG f64 nbdtrik(f64 p, f64 n, f64 pr) {
  if (fm::isnan(p) || fm::isnan(n) || fm::isnan(pr) || p < 0 || p > 1 || pr < 0 || pr > 1 ||
      !(n > 0) || fm::isinf(n))
    return nan();
  if (p == 0 || pr == 1) return 0.0;
  if (p == 1 || pr == 0) return inf();
  const f64 q = 1 - p;
  const bool upper = q < p;
  auto h = [&](f64 k) {
    return upper ? q - ibeta_pq(n, k + 1, pr, 1 - pr, 1) : ibeta_pq(n, k + 1, pr, 1 - pr, 0) - p;
  };
  if (!(h(0.0) < 0)) return 0.0;
  int out;
  const f64 k = rising_root_range(h, n * (1 - pr) / pr + 1, 1e-300, 1e300, out);
  if (out < 0) return 0.0;
  if (out > 0) return nan();
  return k;
}

// nbdtr(k, n, pr) = p for a real n > 0: I_pr(n, k + 1) = p, which falls as n grows.
CUNP_SG f64 nbdtrin(f64 k, f64 p, f64 pr) {
  if (fm::isnan(k) || fm::isnan(p) || fm::isnan(pr) || !(p > 0) || !(p < 1) || !(pr > 0) ||
      !(pr < 1) || k < 0 || fm::isinf(k))
    return nan();
  const f64 q = 1 - p;
  const bool upper = q < p;
  auto h = [&](f64 n) {
    return upper ? ibeta_pq(n, k + 1, pr, 1 - pr, 1) - q : p - ibeta_pq(n, k + 1, pr, 1 - pr, 0);
  };
  int out;
  const f64 n = rising_root_range(h, (k + 1) * pr / (1 - pr), 1e-300, 1e300, out);
  if (out != 0) return nan();
  return n;
}

// fdtr(dfn, dfd, f) = p for dfd in SciPy's search range [1e-100, 1e100], the ends where
// the root is beyond them. The cdf rises with dfd except for dfn > 2 and f < 1, where it
// rises and falls (the search brackets from dfd = 5, as SciPy's).
CUNP_SG f64 fdtridfd(f64 dfn, f64 p, f64 f) {
  if (fm::isnan(dfn) || fm::isnan(p) || fm::isnan(f) || !(dfn > 0) || p < 0 || !(p < 1) || f < 0)
    return nan();
  // constant cdfs: SciPy's values
  if (f == 0) return p == 0 ? 5.0 : p <= 0.5 ? 1e-100 : 1e100;
  if (fm::isinf(f) || fm::isinf(dfn)) return p <= 0.5 ? 1e100 : 1e-100;
  if (p == 0) return 1e-100;
  const f64 q = 1 - p;
  const bool upper = q < p;
  auto h = [&](f64 d) {
    // beyond 1e14 the cdf is its chi-square limit P(dfn/2, dfn f/2) to double precision
    if (d > 1e14)
      return upper ? q - igam_pq(0.5 * dfn, 0.5 * dfn * f, 1)
                   : igam_pq(0.5 * dfn, 0.5 * dfn * f, 0) - p;
    const f64 ax = dfn * f, s = d + ax;
    return upper ? q - ibeta_pq(0.5 * dfn, 0.5 * d, ax / s, d / s, 1)
                 : ibeta_pq(0.5 * dfn, 0.5 * d, ax / s, d / s, 0) - p;
  };
  int out;
  return rising_root_range(h, 5.0, 1e-100, 1e100, out);
}

// The probability of Student's t beyond |t| with df degrees of freedom (stdtr's tail).
CUNP_SG f64 stdtr_tail(f64 df, f64 t) {
  const f64 t2 = t * t;
  if (t2 < df) return 0.5 * ibeta_pq(0.5, 0.5 * df, t2 / (df + t2), df / (df + t2), 1);
  return 0.5 * ibeta_pq(0.5 * df, 0.5, df / (df + t2), t2 / (df + t2), 0);
}

// stdtr(df, t) = p for df in SciPy's search range [1e-100, 1e10]: 1e10 where the root is
// above it and, as SciPy returns, -1e100 where it is below (stdtr(df, t) lies between 1/2
// and ndtr(t) for every df).
CUNP_SG f64 stdtridf(f64 p, f64 t) {
  if (fm::isnan(p) || fm::isnan(t) || p < 0 || p > 1) return nan();
  // SciPy's values where the cdf does not depend on df
  if (t == -inf()) return p == 0 ? 5.0 : p <= 0.5 ? -1e100 : 1e10;
  if (t == inf()) return p == 1 ? 5.0 : p <= 0.5 ? 1e10 : -1e100;
  if (t == 0) return p == 0.5 ? 5.0 : 1e10;
  f64 q = 1 - p;
  if (t < 0) {  // stdtr(df, -t) = 1 - stdtr(df, t)
    const f64 s = p;
    p = q;
    q = s;
    t = -t;
  }
  if (p == 0.5) return 5e-51;
  if (p < 0.5) return -1e100;
  // for t > 0 the tail beyond t falls as df grows: match it to q
  auto h = [&](f64 df) { return q - stdtr_tail(df, t); };
  int out;
  const f64 df = rising_root_range(h, 5.0, 1e-100, 1e10, out);
  return out < 0 ? -1e100 : df;
}

// btdtr(a, b, x) = I_x(a, b) = p for a (which it falls with) or b (which it rises with).
CUNP_SG f64 btdtria(f64 p, f64 b, f64 x) {
  if (fm::isnan(p) || fm::isnan(b) || fm::isnan(x) || p < 0 || p > 1 || !(b > 0) || !(x > 0) ||
      x > 1)
    return nan();
  if (p == 0) return inf();
  if (p == 1) return kDblMin;  // SciPy's (the cdf is 1 only in the limit a -> 0)
  if (fm::isinf(b) || x == 1) return nan();
  const f64 q = 1 - p;
  const bool upper = q < p;
  auto h = [&](f64 a) {
    return upper ? ibeta_pq(a, b, x, 1 - x, 1) - q : p - ibeta_pq(a, b, x, 1 - x, 0);
  };
  int out;
  const f64 a = rising_root_range(h, 1.0, kDblMin, 1e300, out);
  return out > 0 ? inf() : a;
}
CUNP_SG f64 btdtrib(f64 a, f64 p, f64 x) {
  if (fm::isnan(a) || fm::isnan(p) || fm::isnan(x) || p < 0 || p > 1 || !(a > 0) || !(x > 0) ||
      x > 1)
    return nan();
  if (p == 0) return kDblMin;
  if (p == 1) return inf();
  if (fm::isinf(a) || x == 1) return nan();
  const f64 q = 1 - p;
  const bool upper = q < p;
  auto h = [&](f64 b) {
    return upper ? q - ibeta_pq(a, b, x, 1 - x, 1) : ibeta_pq(a, b, x, 1 - x, 0) - p;
  };
  int out;
  const f64 b = rising_root_range(h, 1.0, kDblMin, 1e300, out);
  return out > 0 ? inf() : b;
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

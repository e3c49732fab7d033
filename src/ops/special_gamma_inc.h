// src/ops/special_gamma_inc.h — the regularized incomplete gamma and beta functions,
// their complements and inverses, in double precision. The prefactors x^a e^-x / gamma(a)
// and x^a (1-x)^b / beta(a, b) are computed as products of correctly rounded factors
// where those stay in range and through Temme's form a*(lambda - 1 - log lambda) of the
// exponent (TOMS 708's arrangement) where they do not; the sums are the power series and
// Lentz's evaluation of the continued fractions (DLMF 8.9.2, 8.17.22).
#pragma once

#include "special_gamma_erf.h"

namespace cunp {
namespace ops {
namespace sg {

constexpr f64 kTiny = 1e-300;  // Lentz's guard against zero denominators

// x^a e^-x / gamma(a + 1), for a > 0, x >= 0.
CUNP_SG f64 igam_prefactor(f64 a, f64 x) {
  if (x == 0) return 0.0;
  const f64 la = a * lib_log(x);
  if (a < 170 && x < 700 && la < 700 && la > -700) return lib_pow(x, a) * lib_exp(-x) / tgamma(a + 1);
  if (a >= 8) {
    // -a (lambda - 1 - log lambda) - log sqrt(2 pi a) - stirling(a), lambda = x / a
    const f64 l = -a * xmlog1p((x - a) / a) - stirling_correction(a);
    return lib_exp(l) / fm::sqrt(2 * kPi * a);
  }
  return lib_exp(la - x - lgamma1p(a));
}

// P(a, x) by its series x^a e^-x / gamma(a+1) sum x^n / ((a+1)...(a+n)).
CUNP_SG f64 igam_series(f64 a, f64 x) {
  const f64 d = igam_prefactor(a, x);
  if (d == 0) return 0.0;
  f64 t = 1, s = 1, ap = a;
  for (int n = 0; n < 100000; ++n) {
    ap += 1;
    t *= x / ap;
    s += t;
    if (t <= kEps * 0.5 * s) break;
  }
  return d * s;
}

// Q(a, x) by Legendre's continued fraction x^a e^-x / gamma(a) * 1/(x+1-a- 1(1-a)/(x+3-a- ...)).
CUNP_SG f64 igamc_fraction(f64 a, f64 x) {
  const f64 d0 = igam_prefactor(a, x);
  if (d0 == 0) return 0.0;
  f64 b = x + 1 - a, c = 1 / kTiny, d = 1 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const f64 an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (fm::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (fm::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const f64 del = d * c;
    h *= del;
    if (fm::fabs(del - 1) <= kEps) break;
  }
  return d0 * a * h;
}

// Q(a, x) for small x (x < 1.1) and a not small against it, without 1 - P:
// Q = -expm1(a log x - lgamma(1+a)) - x^a / gamma(a) sum_{n>=1} (-x)^n / (n! (a+n)).
CUNP_SG f64 igamc_series(f64 a, f64 x) {
  f64 fac = 1, sum = 0;
  for (int n = 1; n < 2000; ++n) {
    fac *= -x / n;
    const f64 term = fac / (a + n);
    sum += term;
    if (fm::fabs(term) <= kEps * 0.5 * fm::fabs(sum)) break;
  }
  const f64 lx = lib_log(x);
  const f64 lead = -lib_expm1(a * lx - lgamma1p(a));
  return lead - lib_exp(a * lx - lgamma1p(a)) * a * sum;
}

// P(a, x) and Q(a, x) together: the one computed directly is accurate, the other is one
// minus it (where it is the larger of the two). which: 0 gives P, 1 gives Q.
CUNP_SG f64 igam_pq(f64 a, f64 x, int which) {
  if (fm::isnan(a) || fm::isnan(x) || a < 0 || x < 0) return nan();
  if (a == 0) {
    if (x > 0) return which == 0 ? 1.0 : 0.0;
    return nan();
  }
  if (x == 0) return which == 0 ? 0.0 : 1.0;
  if (fm::isinf(a)) {
    if (fm::isinf(x)) return nan();
    return which == 0 ? 0.0 : 1.0;
  }
  if (fm::isinf(x)) return which == 0 ? 1.0 : 0.0;
  // Which side to compute directly (Cephes' igam/igamc regions).
  bool direct_q;
  bool small_series = false;
  if (x > 1.1) {
    direct_q = x >= a + 1;  // the fraction converges slowly below a + 1
  } else if (x <= 0.5) {
    direct_q = !(-0.4 / lib_log(x) < a);
    small_series = direct_q;
  } else {
    direct_q = !(x * 1.1 < a);
    small_series = direct_q;
  }
  if (!direct_q) {
    const f64 p = igam_series(a, x);
    return which == 0 ? p : 1 - p;
  }
  const f64 q = small_series ? igamc_series(a, x) : igamc_fraction(a, x);
  return which == 1 ? q : 1 - q;
}

CUNP_SG f64 gammainc(f64 a, f64 x) { return igam_pq(a, x, 0); }
CUNP_SG f64 gammaincc(f64 a, f64 x) { return igam_pq(a, x, 1); }

// Note [Inverting the incomplete functions]: gammaincinv and betaincinv solve
// log T(x) = log t, with T the smaller of the two tails at the target (P or Q; I or 1 - I,
// each computed directly) by Newton's method in log x: the derivative of log T with
// respect to log x is x * density / T, so a step is x *= exp(-g T / (x density)). In the
// logarithms a target of 1e-300 is as easy as one of 0.3, and near 0, where T ~ c x^a,
// one step lands on the root. A bracket [lo, hi] of the root is kept from the signs of g;
// a step leaving it bisects instead (geometrically while the bracket spans decades).
CUNP_HD f64 bracket_step(f64 x, f64 nx, f64 lo, f64 hi) {
  if (nx > lo && nx < hi) return nx;
  if (fm::isinf(hi)) return x > lo ? 4 * x : 4 * lo + 1;
  if (lo == 0) return hi * 0.0625;
  if (hi > 16 * lo) return fm::sqrt(lo) * fm::sqrt(hi);
  return 0.5 * (lo + hi);
}

// The x with P(a, x) = p (invert_q false) or Q(a, x) = p (true), from the Wilson–Hilferty
// guess (a > 1) or the small-x form P ~ x^a / gamma(a+1) (Numerical Recipes' gammpinv).
CUNP_SG f64 igam_inverse(f64 a, f64 p, bool invert_q) {
  if (fm::isnan(a) || fm::isnan(p) || a < 0 || p < 0 || p > 1) return nan();
  // target P = pp, Q = qq (one of them the argument, exact; the other 1 - it)
  const f64 pp = invert_q ? 1 - p : p, qq = invert_q ? p : 1 - p;
  if (pp == 0) return 0.0;
  if (qq == 0) return inf();
  if (fm::isinf(a) || a == 0) return nan();
  const bool use_q = qq < pp;
  const f64 target = use_q ? qq : pp;
  const f64 ltarget = lib_log(target);
  f64 x;
  if (a > 1) {
    const f64 z = use_q ? -ndtri(qq) : ndtri(pp);
    const f64 t = 1 - 1 / (9 * a) + z / (3 * fm::sqrt(a));
    x = a * t * t * t;
    if (!(x > 0)) x = lib_exp((lib_log(pp) + lgamma1p(a)) / a);
  } else {
    const f64 t = 1 - a * (0.253 + a * 0.12);
    if (pp < t) {
      // P ~ x^a / gamma(a+1), exact to double precision where x underflows (small a)
      const f64 lx = (lib_log(pp) + lgamma1p(a)) / a;
      if (lx < -745.2) return 0.0;
      x = lib_exp(lx);
    } else {
      x = 1 - lib_log(qq / (1 - t));
    }
  }
  if (!(x > 0)) x = 2.2250738585072014e-308;
  if (fm::isinf(x)) x = 1e300;
  f64 lo = 0, hi = inf();
  for (int it = 0; it < 200; ++it) {
    const f64 v = igam_pq(a, x, use_q ? 1 : 0);
    const f64 g = use_q ? ltarget - lib_log(v) : lib_log(v) - ltarget;  // increasing in x
    if (g > 0) hi = x;
    else if (g < 0) lo = x;
    else return x;
    const f64 dens = igam_prefactor(a, x) * a / x;  // x^(a-1) e^-x / gamma(a)
    const f64 step = g * v / (x * dens);  // the Newton step in log x
    if (fm::isfinite(step) && fm::fabs(step) <= 2 * kEps) break;
    f64 nx = fm::isfinite(g) && v > 0 && dens > 0 && fm::isfinite(step) ? x * lib_exp(-step) : -1.0;
    nx = bracket_step(x, nx, lo, hi);
    if (nx == x || (fm::isfinite(hi) && hi - lo <= 2 * kEps * hi)) break;
    x = nx;
  }
  return x;
}

CUNP_SG f64 gammaincinv(f64 a, f64 p) { return igam_inverse(a, p, false); }
CUNP_SG f64 gammainccinv(f64 a, f64 p) { return igam_inverse(a, p, true); }

// x^a y^b / beta(a, b) with y = 1 - x (both given: whichever is computed from the other
// with rounding is not used in a power).
CUNP_SG f64 ibeta_prefactor(f64 a, f64 b, f64 x, f64 y) {
  if (x == 0 || y == 0) return 0.0;
  const f64 lx = x < 0.5 ? lib_log(x) : lib_log1p(-y);
  const f64 ly = y < 0.5 ? lib_log(y) : lib_log1p(-x);
  const f64 la = a * lx, lb = b * ly;
  if (a >= 8 && b >= 8) {
    // Temme's form: x0 = a/(a+b); -a (h1 - log1p h1) - b (h2 - log1p h2) with
    // h1 = (x - x0)/x0, h2 = (y - y0)/y0, and the Stirling corrections.
    const f64 s = a + b;
    const f64 x0 = a / s, y0 = b / s;
    const f64 e = x < 0.5 ? x - x0 : y0 - y;  // x - x0 = y0 - y
    // h - log1p(h) with log1p(h) = log(x / x0) from the logarithms when h is far from 0
    // (near h = -1 the quotient e / x0 would lose log1p's argument).
    const f64 h1 = e / x0, h2 = -e / y0;
    const f64 t1 = fm::fabs(h1) < 0.25 ? xmlog1p(h1) : h1 - (lx - lib_log(x0));
    const f64 t2 = fm::fabs(h2) < 0.25 ? xmlog1p(h2) : h2 - (ly - lib_log(y0));
    const f64 ex = -a * t1 - b * t2;
    if (ex > -40 || !(la > -700 && lb > -700)) {
      const f64 corr = stirling_correction(s) - stirling_correction(a) - stirling_correction(b);
      return fm::sqrt(a * b / (2 * kPi * s)) * lib_exp(ex + corr);
    }
  }
  if (la > -700 && lb > -700 && la < 700 && lb < 700 && a + b < kMaxGamma) {
    const f64 bt = beta_pos(a, b);
    if (bt > 1e-300 && fm::isfinite(bt)) {
      const f64 px = x < 0.5 ? lib_pow(x, a) : lib_exp(la);
      const f64 py = y < 0.5 ? lib_pow(y, b) : lib_exp(lb);
      return px * py / bt;
    }
  }
  return lib_exp(la + lb - betaln_pos(a, b));
}

// I_x(a, b) by the continued fraction (DLMF 8.17.22), for x < (a+1)/(a+b+2).
CUNP_SG f64 ibeta_fraction(f64 a, f64 b, f64 x, f64 y) {
  const f64 pre = ibeta_prefactor(a, b, x, y);
  if (pre == 0) return 0.0;
  const f64 qab = a + b, qap = a + 1, qam = a - 1;
  f64 c = 1, d = 1 - qab * x / qap;
  if (fm::fabs(d) < kTiny) d = kTiny;
  d = 1 / d;
  f64 h = d;
  for (int m = 1; m < 100000; ++m) {
    const f64 m2 = 2.0 * m;
    f64 aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (fm::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (fm::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (fm::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (fm::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const f64 del = d * c;
    h *= del;
    if (fm::fabs(del - 1) <= kEps) break;
  }
  return pre * h / a;
}

// I_x(a, b) for a small b (b <= 1e-4 min(a, 1), a <= 1e4) and y = 1 - x <= 1/2, where
// 1 - I_y(b, a) would cancel. From B_y(b, a) = sum_n (1-a)_n / n! y^(b+n) / (b+n):
// I_x(a, b) = 1 - I_y(b, a) = -expm1(L) - e^L b S with L = log(y^b gamma(a+b) /
// (gamma(a) gamma(1+b))) as its Taylor series in b to b^3 (the rest is about b^3 relative)
// and S = sum_{n>=1} (1-a)_n / n! y^n / (b + n).
CUNP_SG f64 ibeta_small_b(f64 a, f64 b, f64 x, f64 y) {
  const f64 ly = y < 0.5 ? lib_log(y) : lib_log1p(-x);
  constexpr f64 kZeta3 = 1.2020569031595942854;
  const f64 L = b * (ly + digamma(a) + kEuler) +
                0.5 * b * b * (hurwitz_zeta(2, a) - kPi * kPi / 6) +
                b * b * b / 3 * (kZeta3 - hurwitz_zeta(3, a));
  f64 s = 0, t = 1;
  for (int n = 1; n < 4000; ++n) {
    t *= (n - a) * y / n;
    const f64 d = t / (b + n);
    s += d;
    if (fm::fabs(d) <= kEps * 0.25 * fm::fabs(s)) break;
  }
  return -lib_expm1(L) - lib_exp(L) * b * s;
}
CUNP_HD bool ibeta_small_second(f64 a, f64 b, f64 y) {
  return b <= 1e-4 * (a < 1 ? a : 1.0) && a <= 1e4 && y <= 0.5;
}

// I_x(a, b) (which 0) or 1 - I_x(a, b) (which 1), x in [0, 1] with y = 1 - x.
CUNP_SG f64 ibeta_pq(f64 a, f64 b, f64 x, f64 y, int which) {
  if (fm::isnan(a) || fm::isnan(b) || fm::isnan(x) || a < 0 || b < 0 || x < 0 || x > 1) return nan();
  if (a == 0 || b == 0) {
    if (a == 0 && b == 0) return nan();
    // a -> 0 puts all mass at 0, b -> 0 all mass at 1
    f64 p = a == 0 ? 1.0 : 0.0;
    if (x == 0) p = a == 0 ? 1.0 : 0.0;
    if (x == 1) p = 1.0;
    if (a == 0 && x == 0) p = 1.0;
    if (b == 0 && x == 1) p = 1.0;
    return which == 0 ? p : 1 - p;
  }
  if (fm::isinf(a) || fm::isinf(b)) {
    if (fm::isinf(a) && fm::isinf(b)) return nan();
    f64 p;
    if (fm::isinf(a)) p = x == 1 ? 1.0 : 0.0;  // mass at 1
    else p = x == 0 ? 0.0 : 1.0;                // mass at 0
    return which == 0 ? p : 1 - p;
  }
  if (x == 0) return which == 0 ? 0.0 : 1.0;
  if (y == 0) return which == 0 ? 1.0 : 0.0;  // y, not x: x = 1 - y may round to 1
  if (x * (a + b + 2) < a + 1) {
    if (ibeta_small_second(b, a, x)) {  // 1 - I_x(a, b) = I_y(b, a) with a small
      const f64 q = ibeta_small_b(b, a, y, x);
      return which == 1 ? q : 1 - q;
    }
    const f64 p = ibeta_fraction(a, b, x, y);
    return which == 0 ? p : 1 - p;
  }
  if (ibeta_small_second(a, b, y)) {
    const f64 p = ibeta_small_b(a, b, x, y);
    return which == 0 ? p : 1 - p;
  }
  const f64 q = ibeta_fraction(b, a, y, x);
  return which == 1 ? q : 1 - q;
}

CUNP_SG f64 betainc(f64 a, f64 b, f64 x) { return ibeta_pq(a, b, x, 1 - x, 0); }
CUNP_SG f64 betaincc(f64 a, f64 b, f64 x) { return ibeta_pq(a, b, x, 1 - x, 1); }

// The x with I_x(a, b) = p (invert_q false) or 1 - I_x(a, b) = p (true), from
// Numerical Recipes' invbetai guess (Note [Inverting the incomplete functions]). A root
// above 1/2 is found as 1 - y, y solved with a and b exchanged, so that the iteration
// runs near 0, where the steps in log x are exact and 1 - x loses nothing.
CUNP_SG f64 ibeta_inverse(f64 a, f64 b, f64 p, bool invert_q) {
  if (fm::isnan(a) || fm::isnan(b) || fm::isnan(p) || a < 0 || b < 0 || p < 0 || p > 1) return nan();
  const f64 pp = invert_q ? 1 - p : p, qq = invert_q ? p : 1 - p;
  if (a == 0 || b == 0) return nan();
  if (fm::isinf(a) || fm::isinf(b)) {
    if (fm::isinf(a) && fm::isinf(b)) return nan();
    return fm::isinf(a) ? 1.0 : 0.0;
  }
  if (pp == 0) return 0.0;
  if (qq == 0) return 1.0;
  f64 x;
  if (a >= 1 && b >= 1) {
    const f64 r = pp < 0.5 ? pp : qq;
    const f64 t = fm::sqrt(-2 * lib_log(r));
    f64 z = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t;
    if (pp < 0.5) z = -z;
    const f64 al = (z * z - 3) / 6;
    const f64 h = 2 / (1 / (2 * a - 1) + 1 / (2 * b - 1));
    const f64 w = z * fm::sqrt(al + h) / h - (1 / (2 * b - 1) - 1 / (2 * a - 1)) * (al + 5.0 / 6 - 2 / (3 * h));
    x = a / (a + b * lib_exp(2 * w));
  } else {
    const f64 lna = lib_log(a / (a + b)), lnb = lib_log(b / (a + b));
    const f64 t = lib_exp(a * lna) / a, u = lib_exp(b * lnb) / b;
    const f64 w = t + u;
    if (pp < t / w) x = lib_exp((lib_log(a * w) + lib_log(pp)) / a);
    else x = 1 - lib_exp((lib_log(b * w) + lib_log(qq)) / b);
  }
  // Which side of 1/2 the root is on, from I(1/2) compared in the smaller tail.
  const bool flip = pp < qq ? pp > ibeta_pq(a, b, 0.5, 0.5, 0) : qq < ibeta_pq(a, b, 0.5, 0.5, 1);
  if (flip) {
    // I_x(a, b) = p  <=>  1 - I_y(b, a) = p with y = 1 - x
    const f64 t = a;
    a = b;
    b = t;
    invert_q = !invert_q;
    x = 1 - x;
  }
  if (!(x > 0 && x <= 0.5)) x = 0.25;
  const f64 ta = invert_q ? 1 - p : p, tq = invert_q ? p : 1 - p;  // targets of I and 1 - I now
  const bool use_q = tq < ta;
  const f64 ltarget = lib_log(use_q ? tq : ta);
  if (!(x > 0)) x = 2.2250738585072014e-308;
  f64 lo = 0, hi = 1;
  for (int it = 0; it < 300; ++it) {
    const f64 y = 1 - x;
    const f64 v = ibeta_pq(a, b, x, y, use_q ? 1 : 0);
    const f64 g = use_q ? ltarget - lib_log(v) : lib_log(v) - ltarget;  // increasing in x
    if (g > 0) hi = x;
    else if (g < 0) lo = x;
    else break;
    const f64 dens = ibeta_prefactor(a, b, x, y) / (x * y);  // x^(a-1) y^(b-1) / beta(a, b)
    const f64 step = g * v / (x * dens);  // the Newton step in log x
    if (fm::isfinite(step) && fm::fabs(step) <= 2 * kEps) break;
    f64 nx = fm::isfinite(g) && v > 0 && dens > 0 && fm::isfinite(step) ? x * lib_exp(-step) : -1.0;
    nx = bracket_step(x, nx, lo, hi);
    if (nx == x || (fm::isfinite(hi) && hi - lo <= 2 * kEps * hi)) break;
    x = nx;
  }
  return flip ? 1 - x : x;
}

CUNP_SG f64 betaincinv(f64 a, f64 b, f64 p) { return ibeta_inverse(a, b, p, false); }
CUNP_SG f64 betainccinv(f64 a, f64 b, f64 p) { return ibeta_inverse(a, b, p, true); }

}  // namespace sg
}  // namespace ops
}  // namespace cunp

// src/ops/special_gamma_misc.h — the exponential integrals (exp1, expi, expn), the
// dilogarithm (spence), Owen's T, binom, and the elementary scipy.special functions:
// the logistic family, x log y, the entropies and Huber losses, Box–Cox transforms and
// the trigonometric functions in degrees. Double precision throughout.
#pragma once

#include "special_gamma_inc.h"

namespace cunp {
namespace ops {
namespace sg {

// ---- logistic
CUNP_SG f64 expit(f64 x) {
  if (x >= 0) return 1 / (1 + lib_exp(-x));
  const f64 e = lib_exp(x);
  return e / (1 + e);
}
CUNP_SG f64 log_expit(f64 x) {
  if (x >= 0) return -lib_log1p(lib_exp(-x));
  return x - lib_log1p(lib_exp(x));
}
// log(p / (1 - p)): 2 atanh(2p - 1) in the middle (2p - 1 is exact there), a difference
// of logarithms of opposite signs in the tails.
CUNP_SG f64 logit(f64 p) {
  if (fm::isnan(p) || p < 0 || p > 1) return nan();
  if (p == 0) return -inf();
  if (p == 1) return inf();
  if (p > 0.3 && p < 0.7) return 2 * lib_atanh(2 * p - 1);
  if (p < 0.5) return lib_log(p) - lib_log1p(-p);
  return lib_log(p) - lib_log(1 - p);
}

// ---- x log y and the entropies
CUNP_SG f64 xlogy(f64 x, f64 y) {
  if (x == 0 && !fm::isnan(y)) return 0.0;
  return x * lib_log(y);
}
CUNP_SG f64 xlog1py(f64 x, f64 y) {
  if (x == 0 && !fm::isnan(y)) return 0.0;
  return x * lib_log1p(y);
}
CUNP_SG f64 entr(f64 x) {
  if (fm::isnan(x)) return x;
  if (x > 0) return -x * lib_log(x);
  if (x == 0) return 0.0;
  return -inf();
}
// x log(x / y): log1p near x = y, the difference of logarithms when x / y leaves the
// normal range.
CUNP_SG f64 x_log_ratio(f64 x, f64 y) {
  const f64 r = x / y;
  if (r > 0.5 && r < 2) return x * lib_log1p((x - y) / y);
  if (r > 2.2250738585072014e-308 && r < inf()) return x * lib_log(r);
  return x * (lib_log(x) - lib_log(y));
}
CUNP_SG f64 rel_entr(f64 x, f64 y) {
  if (fm::isnan(x) || fm::isnan(y)) return nan();
  if (x > 0 && y > 0) return x_log_ratio(x, y);
  if (x == 0 && y >= 0) return 0.0;
  return inf();
}
CUNP_SG f64 kl_div(f64 x, f64 y) {
  if (fm::isnan(x) || fm::isnan(y)) return nan();
  if (x > 0 && y > 0) return x * lib_log(x / y) - x + y;
  if (x == 0 && y >= 0) return y;
  return inf();
}
CUNP_SG f64 huber(f64 delta, f64 r) {
  if (delta < 0) return inf();
  const f64 ar = fm::fabs(r);
  if (ar <= delta) return 0.5 * r * r;
  return delta * (ar - 0.5 * delta);
}
// delta^2 (sqrt(1 + (r/delta)^2) - 1), written without the cancellation.
CUNP_SG f64 pseudo_huber(f64 delta, f64 r) {
  if (delta < 0) return inf();
  if (delta == 0 || r == 0) return 0.0;
  const f64 v = r / delta;
  if (fm::isinf(v)) return inf();
  const f64 v2 = v * v;
  return delta * delta * (v2 / (fm::sqrt(1 + v2) + 1));
}

// ---- Box–Cox
CUNP_SG f64 boxcox(f64 x, f64 l) {
  if (fm::fabs(l) < 1e-19) return lib_log(x);
  return lib_expm1(l * lib_log(x)) / l;
}
CUNP_SG f64 boxcox1p(f64 x, f64 l) {
  const f64 lg = lib_log1p(x);
  if (fm::fabs(l) < 1e-19 || (fm::fabs(lg) < 1e-289 && fm::fabs(l) < 1e273)) return lg;
  return lib_expm1(l * lg) / l;
}
CUNP_SG f64 inv_boxcox(f64 y, f64 l) {
  if (l == 0) return lib_exp(y);
  return lib_exp(lib_log1p(l * y) / l);
}
CUNP_SG f64 inv_boxcox1p(f64 y, f64 l) {
  if (l == 0) return lib_expm1(y);
  return lib_expm1(lib_log1p(l * y) / l);
}

// ---- exponential integrals
// E_n(x) (n >= 0, x >= 0): the continued fraction for x > 1 (modified Lentz), the
// series with the digamma term for x <= 1 (Numerical Recipes' expint arrangement).
CUNP_SG f64 expn(f64 nf, f64 x) {
  if (fm::isnan(nf) || fm::isnan(x)) return nan();
  if (nf < 0 || x < 0) return nan();
  if (x == inf()) return 0.0;
  if (nf > 2147483647.0) return x == 0 ? 0.0 : nan();
  const i64 n = static_cast<i64>(nf);
  if (x == 0) return n <= 1 ? inf() : 1 / static_cast<f64>(n - 1);
  if (n == 0) return lib_exp(-x) / x;
  const i64 nm1 = n - 1;
  if (x > 1) {
    f64 b = x + static_cast<f64>(n), c = 1 / kTiny, d = 1 / b, h = d;
    for (i64 i = 1; i < 100000; ++i) {
      const f64 an = -static_cast<f64>(i) * static_cast<f64>(nm1 + i);
      b += 2;
      d = 1 / (an * d + b);
      c = b + an / c;
      const f64 del = c * d;
      h *= del;
      if (fm::fabs(del - 1) <= kEps) break;
    }
    return h * lib_exp(-x);
  }
  f64 ans = nm1 != 0 ? 1 / static_cast<f64>(nm1) : -lib_log(x) - kEuler;
  f64 fact = 1;
  for (i64 i = 1; i < 100000; ++i) {
    fact *= -x / static_cast<f64>(i);
    f64 del;
    if (i != nm1) {
      del = -fact / static_cast<f64>(i - nm1);
    } else {
      f64 psi = -kEuler;
      for (i64 ii = 1; ii <= nm1; ++ii) psi += 1 / static_cast<f64>(ii);
      del = fact * (-lib_log(x) + psi);
    }
    ans += del;
    if (fm::fabs(del) < fm::fabs(ans) * kEps) break;
  }
  return ans;
}

CUNP_SG f64 exp1(f64 x) {
  if (fm::isnan(x) || x < 0) return nan();
  return expn(1.0, x);
}

// Ei(x) = -E1(-x) for x < 0; the series gamma + log x + sum x^k/(k k!) below 40 and the
// asymptotic e^x / x sum k!/x^k above.
CUNP_SG f64 expi(f64 x) {
  if (fm::isnan(x)) return x;
  if (x < 0) return -expn(1.0, -x);
  if (x == 0) return -inf();
  if (x < 40) {
    f64 t = 1, s = 0;
    for (int k = 1; k < 200; ++k) {
      t *= x / k;
      const f64 term = t / k;
      s += term;
      if (term < kEps * 0.5 * s) break;
    }
    return kEuler + lib_log(x) + s;
  }
  if (x > kMaxLog + 10) return inf();
  f64 t = 1, s = 1;
  for (int k = 1; k < 60; ++k) {
    const f64 nt = t * k / x;
    if (nt > t) break;
    t = nt;
    s += t;
    if (t < kEps * 0.5 * s) break;
  }
  // e^x / x without overflowing e^x first
  return lib_exp(x - lib_log(x)) * s;
}

// ---- the dilogarithm: spence(x) = int_1^x log t / (1 - t) dt = Li2(1 - x), x >= 0.
// Li2(z) = sum_n B_n u^(n+1) / (n+1)!, u = -log(1 - z), after the reflections that bring
// |u| below log 2.
CUNP_SG f64 li2_series(f64 u) {
  // B_n / (n+1)! for n = 0, 1, 2, 4, 6, ... (odd n > 1 vanish)
  constexpr f64 c[] = {1.0, -0.25, 2.7777777777777778e-2, -2.7777777777777778e-4, 4.7241118669690098e-6,
                       -9.1857730746619641e-8, 1.8978869988971e-9, -4.0647616451442255e-11,
                       8.9216910204564526e-13, -1.9939295860721076e-14, 4.5189800296199182e-16};
  const f64 u2 = u * u;
  // u - u^2/4 + u^3/36 - u^5/3600 + ...
  f64 s = c[10];
  for (int i = 9; i >= 2; --i) s = s * u2 + c[i];
  return u + c[1] * u2 + u * u2 * s;
}

CUNP_SG f64 spence(f64 x) {
  if (fm::isnan(x) || x < 0 || x == inf()) return nan();
  if (x == 1) return 0.0;
  if (x == 0) return kPi * kPi / 6;
  if (x >= 0.5 && x <= 2) return li2_series(-lib_log(x));  // z = 1 - x in [-1, 1/2]
  if (x < 0.5) {
    // Li2(1 - x) = pi^2/6 - log(x) log(1 - x) - Li2(x)
    return kPi * kPi / 6 - lib_log(x) * lib_log1p(-x) - li2_series(-lib_log1p(-x));
  }
  // z = 1 - x < -1: Li2(z) = -pi^2/6 - log^2(-z)/2 - Li2(1/z), 1/z = 1/(1 - x)
  const f64 l = lib_log(x - 1);
  return -kPi * kPi / 6 - 0.5 * l * l - li2_series(-lib_log1p(1 / (x - 1)));
}

// ---- Owen's T function T(h, a) = 1/(2 pi) int_0^a exp(-h^2 (1 + t^2) / 2) / (1 + t^2) dt:
// Gauss–Legendre panels for |a| <= 1 (cut where the integrand is below 1e-16 of its start),
// T(h, a) = Q(h)/2 + Q(ah)/2 - Q(h) Q(ah) - T(ah, 1/a) for a > 1 (Q the upper tail).
CUNP_SG f64 owens_t_small_a(f64 h, f64 a) {
  constexpr f64 xg[] = {0.07652652113349734, 0.22778585114164507, 0.37370608871541955, 0.5108670019508271,
                        0.636053680726515,   0.7463319064601508,  0.8391169718222188,  0.912234428251326,
                        0.9639719272779138,  0.993128599185095};
  constexpr f64 wg[] = {0.15275338713072628, 0.14917298647260424, 0.1420961093183824,  0.1316886384491769,
                        0.1181945319615186,  0.1019301198172407,  0.08327674157670471, 0.06267204833410879,
                        0.040601429800386446, 0.017614007139150893};
  if (h == 0) return lib_atan(a) / (2 * kPi);
  f64 b = a;
  if (h * a > 8.6) b = 8.6 / h;
  int panels = static_cast<int>(fm::ceil(b * h / 2));
  if (panels < 1) panels = 1;
  const f64 width = b / panels;
  const f64 h2 = 0.5 * h * h;
  f64 sum = 0;
  for (int p = 0; p < panels; ++p) {
    const f64 mid = (p + 0.5) * width, half = 0.5 * width;
    for (int i = 0; i < 10; ++i) {
      const f64 t1 = mid + half * xg[i], t2 = mid - half * xg[i];
      sum += wg[i] * (lib_exp(-h2 * t1 * t1) / (1 + t1 * t1) + lib_exp(-h2 * t2 * t2) / (1 + t2 * t2));
    }
  }
  return sum * 0.5 * width * lib_exp(-h2) / (2 * kPi);
}

CUNP_SG f64 owens_t(f64 h, f64 a) {
  if (fm::isnan(h) || fm::isnan(a)) return nan();
  h = fm::fabs(h);
  const f64 sign = a < 0 ? -1.0 : 1.0;
  a = fm::fabs(a);
  if (a == 0) return 0.0;
  if (h == inf()) return 0.0;
  if (a == inf()) return sign * 0.25 * erfc(h * kSqrt1_2);
  if (a <= 1) return sign * owens_t_small_a(h, a);
  const f64 ah = a * h;
  const f64 q1 = 0.5 * erfc(h * kSqrt1_2), q2 = 0.5 * erfc(ah * kSqrt1_2);
  return sign * (0.5 * q1 + 0.5 * q2 - q1 * q2 - owens_t_small_a(ah, 1 / a));
}

// ---- binomial coefficient for real n, k: a product for integer k below 20 (using
// the symmetry k -> n - k for integer n), 1 / ((n+1) beta(n-k+1, k+1)) otherwise.
CUNP_SG f64 binom(f64 n, f64 k) {
  if (fm::isnan(n) || fm::isnan(k)) return nan();
  if (n < 0 && is_int(n)) return nan();
  f64 kx = fm::floor(k);
  if (k == kx && (fm::fabs(n) > 1e-8 || n == 0)) {
    const f64 nx = fm::floor(n);
    if (nx == n && kx > nx / 2 && nx > 0) kx = nx - kx;
    if (kx >= 0 && kx < 20) {
      f64 num = 1, den = 1;
      for (int i = 1; i <= static_cast<int>(kx); ++i) {
        num *= i + n - kx;
        den *= i;
        if (fm::fabs(num) > 1e50) {
          num /= den;
          den = 1;
        }
      }
      return num / den;
    }
  }
  if (n >= 1e10 * k && k > 0) return lib_exp(-betaln(1 + n - k, 1 + k) - lib_log(n + 1));
  return 1 / (n + 1) / beta(1 + n - k, 1 + k);
}

// ---- trigonometric functions of degrees: the reduction modulo 360 is exact, then an
// octant's sine or cosine (so sindg(30) and cosdg(60) are sin(pi/6) as SciPy has them).
CUNP_HD f64 sin_octant(f64 r) {  // r in [0, 90] degrees
  constexpr f64 d2r = 1.74532925199432957692e-2;
  return r <= 45 ? lib_sin(r * d2r) : lib_cos((90 - r) * d2r);
}
CUNP_SG f64 sindg(f64 x) {
  if (fm::isnan(x)) return x;
  f64 s = 1;
  if (x < 0) {
    x = -x;
    s = -1;
  }
  if (x > 1e14) return 0.0;  // total loss of precision, as SciPy
  f64 r = fm::fmod(x, 360.0);
  if (r >= 180) {
    r -= 180;
    s = -s;
  }
  if (r > 90) r = 180 - r;
  return s * sin_octant(r);
}
CUNP_SG f64 cosdg(f64 x) {
  if (fm::isnan(x)) return x;
  x = fm::fabs(x);
  if (x > 1e14) return 0.0;
  f64 r = fm::fmod(x, 360.0);
  if (r > 180) r = 360 - r;
  f64 s = 1;
  if (r > 90) {
    r = 180 - r;
    s = -1;
  }
  return s * sin_octant(90 - r);
}
// tan (cot false) or cot (true) of x degrees; inf at the poles.
CUNP_SG f64 tancot_dg(f64 x, bool cot) {
  if (fm::isnan(x)) return x;
  f64 s = 1;
  if (x < 0) {
    x = -x;
    s = -1;
  }
  if (x > 1e14) return 0.0;
  f64 r = fm::fmod(x, 180.0);
  if (r > 90) {
    r = 180 - r;
    s = -s;
  }
  if (r > 45) {
    r = 90 - r;
    cot = !cot;
  }
  if (r == 0) return cot ? inf() : 0.0;
  if (r == 45) return s;
  const f64 t = lib_tan(r * 1.74532925199432957692e-2);
  return s * (cot ? 1 / t : t);
}
CUNP_SG f64 tandg(f64 x) { return tancot_dg(x, false); }
CUNP_SG f64 cotdg(f64 x) { return tancot_dg(x, true); }

// Degrees, minutes and seconds to radians.
CUNP_SG f64 radian(f64 d, f64 m, f64 s) {
  return ((d * 60 + m) * 60 + s) * 4.84813681109535993590e-6;  // pi / 648000
}

CUNP_SG f64 exp10(f64 x) { return lib_pow(10.0, x); }
CUNP_SG f64 round(f64 x) { return fm::rint(x); }  // half-way cases to even, as SciPy

}  // namespace sg
}  // namespace ops
}  // namespace cunp

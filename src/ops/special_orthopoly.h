// src/ops/special_orthopoly.h — scipy.special's orthogonal polynomials (eval_legendre,
// eval_chebyt/u/s/c, the shifted ones, eval_hermite(norm), eval_laguerre,
// eval_genlaguerre, eval_gegenbauer, eval_jacobi, eval_sh_jacobi) in float64. An
// integer degree (the 'l' loops, and
// integer values of the float loops) runs the three-term recurrence; a non-integer
// degree takes the hypergeometric form SciPy evaluates (DLMF 18.5.7-18.5.10):
// 2F1(-n, b; c; (1 - x)/2) or 1F1(-n; alpha + 1; x), summed as a power series
// (Pfaff's transformation for arguments below -1/2, Kummer's for negative 1F1
// arguments; Gauss's sum at 1).
#pragma once

#include "special_bessel_order.h"

namespace cunp {
namespace ops {
namespace orthopoly {

CUNP_HD double nan() { return fm::nan<double>(); }

// 2F1(a, b; c; z) for real z <= 1 (SciPy: inf beyond 1 and at 1 when it diverges).
CUNP_HD_NOINLINE double hyp2f1(double a, double b, double c, double z) {
  if (fm::isnan(a) || fm::isnan(b) || fm::isnan(c) || fm::isnan(z)) return nan();
  const bool terminates = (a <= 0 && fm::floor(a) == a) || (b <= 0 && fm::floor(b) == b);
  if (!terminates) {
    if (z > 1) return fm::inf<double>();
    if (z == 1) {
      const double s = c - a - b;
      if (s <= 0) {
        // Diverges as G(c) G(-s) / (G(a) G(b)) (1 - z)^s (as G(c) / (G(a) G(b)) log at s = 0):
        // that coefficient's sign.
        const double g = ::tgamma(c) * (s < 0 ? ::tgamma(-s) : 1.0) / (::tgamma(a) * ::tgamma(b));
        return g < 0 ? -fm::inf<double>() : fm::inf<double>();
      }
      // Gauss: G(c) G(c - a - b) / (G(c - a) G(c - b)); a pole below is a zero.
      return ::tgamma(c) * ::tgamma(s) / (::tgamma(c - a) * ::tgamma(c - b));
    }
  }
  double prefactor = 1;
  if (z < -0.5 && !terminates) {
    // Pfaff: (1 - z)^-a 2F1(a, c - b; c; z / (z - 1)), the argument in (1/3, 1).
    prefactor = fm::pow(1 - z, -a);
    b = c - b;
    z = z / (z - 1);
  }
  double term = 1, sum = 1;
  for (int k = 0; k < 200000; ++k) {
    const double dk = k;
    term *= (a + dk) * (b + dk) / ((c + dk) * (dk + 1)) * z;
    sum += term;
    if (term == 0 || fm::fabs(term) < 1e-17 * fm::fabs(sum)) break;
  }
  return prefactor * sum;
}

// 1F1(a; b; x), by Kummer's transformation for x < 0.
CUNP_HD_NOINLINE double hyp1f1(double a, double b, double x) {
  if (fm::isnan(a) || fm::isnan(b) || fm::isnan(x)) return nan();
  double prefactor = 1;
  if (x < 0 && !(a <= 0 && fm::floor(a) == a)) {
    prefactor = fm::exp(x);
    a = b - a;
    x = -x;
  }
  double term = 1, sum = 1;
  for (int k = 0; k < 200000; ++k) {
    const double dk = k;
    term *= (a + dk) / ((b + dk) * (dk + 1)) * x;
    sum += term;
    if (term == 0 || fm::fabs(term) < 1e-17 * fm::fabs(sum)) break;
  }
  return prefactor * sum;
}

CUNP_HD bool integral(double n) { return fm::floor(n) == n && fm::fabs(n) < 9.0e15; }

// ---- Integer degrees by recurrence.
// NaN arguments give NaN except where SciPy's evaluation never reads x (noted per
// function: P_0 = 1, U_-1 = 0 in the 'l' loops; the float loops' n = 0 terms).
CUNP_HD_NOINLINE double legendre(long long n, double x) {
  if (n < 0) n = -n - 1;  // P_{-n-1} = P_n
  if (n == 0) return 1;
  if (fm::isnan(x)) return x;
  double pm = 1, p = x;
  for (long long k = 1; k < n; ++k) {
    const double dk = static_cast<double>(k);
    const double t = ((2 * dk + 1) * x * p - dk * pm) / (dk + 1);
    pm = p;
    p = t;
  }
  return p;
}
CUNP_HD_NOINLINE double chebyt(long long n, double x) {
  if (fm::isnan(x)) return x;
  if (n < 0) n = -n;
  if (n == 0) return 1;
  double tm = 1, t = x;
  for (long long k = 1; k < n; ++k) {
    const double u = 2 * x * t - tm;
    tm = t;
    t = u;
  }
  return t;
}
CUNP_HD_NOINLINE double chebyu(long long n, double x) {
  if (n == -1) return 0;
  if (fm::isnan(x)) return x;
  double sign = 1;
  if (n < -1) {  // U_{-n} = -U_{n-2}
    n = -n - 2;
    sign = -1;
  }
  if (n == 0) return sign;
  double um = 1, u = 2 * x;
  for (long long k = 1; k < n; ++k) {
    const double t = 2 * x * u - um;
    um = u;
    u = t;
  }
  return sign * u;
}
CUNP_HD_NOINLINE double hermite(long long n, double x) {
  if (n < 0 || fm::isnan(x)) return nan();
  if (n == 0) return 1;
  double hm = 1, h = 2 * x;
  for (long long k = 1; k < n; ++k) {
    const double t = 2 * x * h - 2 * static_cast<double>(k) * hm;
    hm = h;
    h = t;
  }
  return h;
}
CUNP_HD_NOINLINE double hermitenorm(long long n, double x) {
  if (n < 0 || fm::isnan(x)) return nan();
  if (n == 0) return 1;
  double hm = 1, h = x;
  for (long long k = 1; k < n; ++k) {
    const double t = x * h - static_cast<double>(k) * hm;
    hm = h;
    h = t;
  }
  return h;
}
CUNP_HD_NOINLINE double genlaguerre(long long n, double alpha, double x) {
  if (fm::isnan(alpha) || fm::isnan(x)) return nan();
  if (alpha <= -1) return nan();  // SciPy
  if (n < 0) return 0;
  if (n == 0) return 1;
  double lm = 1, l = alpha + 1 - x;
  for (long long k = 1; k < n; ++k) {
    const double dk = static_cast<double>(k);
    const double t = ((2 * dk + 1 + alpha - x) * l - (dk + alpha) * lm) / (dk + 1);
    lm = l;
    l = t;
  }
  return l;
}
CUNP_HD_NOINLINE double gegenbauer(long long n, double alpha, double x) {
  if (fm::isnan(alpha) || fm::isnan(x)) return nan();
  if (n < 0) return 0;
  if (n == 0) return 1;
  if (alpha == 0) return 0;  // the limit of SciPy's Gamma normalization
  double cm = 1, c = 2 * alpha * x;
  for (long long k = 1; k < n; ++k) {
    const double dk = static_cast<double>(k);
    const double t = (2 * (dk + alpha) * x * c - (dk + 2 * alpha - 1) * cm) / (dk + 1);
    cm = c;
    c = t;
  }
  return c;
}

// Jacobi P_n^(a,b)(x) by DLMF 18.9.2 (n < 0: 0; degenerate denominators, as at
// a + b = -2, give NaN as SciPy's do).
CUNP_HD_NOINLINE double jacobi(long long n, double a, double b, double x) {
  if (n < 0) return 0;
  if (n == 0) return 1;
  if (fm::isnan(a) || fm::isnan(b) || fm::isnan(x)) return nan();
  double pm = 1, p = (a + 1) + (a + b + 2) * (x - 1) / 2;
  const double ab = a + b, a2b2 = (a - b) * (a + b);
  for (long long k = 2; k <= n; ++k) {
    const double dk = static_cast<double>(k), s = 2 * dk + ab;
    const double t = ((s - 1) * (s * (s - 2) * x + a2b2) * p - 2 * (dk + a - 1) * (dk + b - 1) * s * pm) /
                     (2 * dk * (dk + ab) * (s - 2));
    pm = p;
    p = t;
  }
  return p;
}

// binom(m, k) for an integer k >= 0 and real m, as a product.
CUNP_HD double binom_int(double m, long long k) {
  double r = 1;
  for (long long j = 1; j <= k; ++j) r *= (m - static_cast<double>(k - j)) / static_cast<double>(j);
  return r;
}

// The shifted Jacobi polynomial G_n(p, q, x) = P_n^(p-q, q-1)(2x - 1) / binom(2n + p - 1, n).
CUNP_HD double sh_jacobi(long long n, double p, double q, double x) {
  if (n < 0) return nan();  // binom of a negative n
  return jacobi(n, p - q, q - 1, 2 * x - 1) / binom_int(2 * static_cast<double>(n) + p - 1, n);
}

// The associated Legendre function P_v^m(x) (Ferrers', with the Condon-Shortley phase,
// as scipy.special.lpmv): integer m, real v. An integer degree recurs upward in degree
// from P_m^m = (-1)^m (2m-1)!! (1 - x^2)^(m/2); a real one is the m-th derivative of
// 2F1(-v, v + 1; 1; (1 - x)/2): (1 - x^2)^(m/2) 2^-m (-v)_m (v + 1)_m / m!
// 2F1(m - v, m + v + 1; m + 1; (1 - x)/2). Negative m by DLMF 14.9.3.
CUNP_HD_NOINLINE double lpmv(double m, double v, double x) {
  if (fm::isnan(m) || fm::isnan(v)) return nan();
  if (fm::floor(m) != m) return nan();  // SciPy: integer orders only
  if (v < 0) v = -v - 1;                // P_{-v-1} = P_v
  if (fm::isnan(x)) return m == 0 && v == 0 ? 1 : x;  // P_0 = 1 reads no x
  double factor = 1;
  if (m < 0) {
    // P_v^-m = (-1)^m G(v - m + 1) / G(v + m + 1) P_v^m.
    m = -m;
    factor = (fm::fmod(m, 2.0) == 0 ? 1 : -1) * ::tgamma(v - m + 1) / ::tgamma(v + m + 1);
    if (!fm::isfinite(factor)) return nan();  // a pole of G(v - m + 1) (SciPy: NaN)
  }
  if (fm::fabs(x) > 1 && m != 0) return nan();
  const long long mi = static_cast<long long>(m);
  if (integral(v)) {
    const long long n = static_cast<long long>(v);
    if (mi > n) return 0;
    if (mi == 0) return factor * legendre(n, x);
    const double s = fm::sqrt((1 - x) * (1 + x));
    double pmm = 1, odd = 1;
    for (long long i = 1; i <= mi; ++i) {
      pmm *= -odd * s;
      odd += 2;
    }
    if (n == mi) return factor * pmm;
    double pm1 = x * (2 * m + 1) * pmm;
    for (long long l = mi + 2; l <= n; ++l) {
      const double dl = static_cast<double>(l);
      const double t = ((2 * dl - 1) * x * pm1 - (dl + m - 1) * pmm) / (dl - m);
      pmm = pm1;
      pm1 = t;
    }
    return factor * pm1;
  }
  // At x = -1 the function is infinite (2F1's sign for m = 0, +inf otherwise, as SciPy);
  // beyond it complex (SciPy: NaN).
  if (x < -1) return nan();
  if (x == -1 && m != 0) return fm::inf<double>();
  double c = 1;
  for (long long k = 0; k < mi; ++k) {
    const double dk = static_cast<double>(k);
    c *= (dk - v) * (v + 1 + dk) / (2 * (dk + 1));
  }
  const double s = mi == 0 ? 1 : fm::pow((1 - x) * (1 + x), 0.5 * m);
  return factor * c * s * hyp2f1(m - v, m + v + 1, m + 1, (1 - x) / 2);
}

// ---- Real degrees: integer values recur, others take the hypergeometric form.
CUNP_HD long long degree(double n) { return static_cast<long long>(n); }

CUNP_HD_NOINLINE double legendre_real(double n, double x) {
  if (fm::isnan(n)) return n;
  if (fm::isnan(x)) return n == 0 || n == -1 ? 1 : x;
  if (integral(n)) return legendre(degree(n), x);
  return hyp2f1(-n, n + 1, 1, (1 - x) / 2);
}
// Chebyshev: the hypergeometric forms are cos(n t) and sin((n + 1) t) / sin t with
// x = cos t (cosh, sinh beyond 1; SciPy's inf below -1), which keep full precision
// where the series would cancel.
CUNP_HD_NOINLINE double chebyt_real(double n, double x) {
  if (fm::isnan(n)) return n;
  if (fm::isnan(x)) return n == 0 ? 1 : x;
  if (integral(n)) return chebyt(degree(n), x);
  if (x > 1) return fm::cosh(n * fm::acosh(x));
  if (x < -1) return fm::inf<double>();
  if (x == -1) return bessel::cospi(n);
  return fm::cos(n * fm::acos(x));
}
CUNP_HD_NOINLINE double chebyu_real(double n, double x) {
  if (fm::isnan(n)) return n;
  if (fm::isnan(x)) return n == 0 ? 1 : n == -2 ? -1 : x;
  if (integral(n)) return chebyu(degree(n), x);
  if (x == 1) return n + 1;
  if (x > 1) {
    const double t = fm::acosh(x);
    return fm::sinh((n + 1) * t) / fm::sinh(t);
  }
  if (x <= -1) return (n + 1) * fm::inf<double>();  // SciPy's (n + 1) 2F1 at z >= 1
  const double t = fm::acos(x);
  return fm::sin((n + 1) * t) / fm::sin(t);
}
CUNP_HD_NOINLINE double genlaguerre_real(double n, double alpha, double x) {
  if (fm::isnan(n) || fm::isnan(alpha) || fm::isnan(x)) return nan();
  if (integral(n)) return genlaguerre(degree(n), alpha, x);
  if (alpha <= -1) return nan();
  // binom(n + alpha, n) 1F1(-n; alpha + 1; x)
  const double binom = ::tgamma(n + alpha + 1) / (::tgamma(n + 1) * ::tgamma(alpha + 1));
  return binom * hyp1f1(-n, alpha + 1, x);
}
CUNP_HD_NOINLINE double jacobi_real(double n, double a, double b, double x) {
  if (fm::isnan(n) || fm::isnan(a) || fm::isnan(b)) return nan();
  if (fm::isnan(x)) return n == 0 ? 1 : x;
  if (integral(n) && n >= 0) return jacobi(degree(n), a, b, x);
  // (a + 1)_n / n! 2F1(-n, n + a + b + 1; a + 1; (1 - x)/2)
  const double d = ::tgamma(a + n + 1) / (::tgamma(a + 1) * ::tgamma(n + 1));
  return d * hyp2f1(-n, n + a + b + 1, a + 1, (1 - x) / 2);
}
CUNP_HD double sh_jacobi_real(double n, double p, double q, double x) {
  if (fm::isnan(n)) return n;
  if (integral(n) && n >= 0) return sh_jacobi(degree(n), p, q, x);
  const double m = 2 * n + p - 1;
  const double binom = ::tgamma(m + 1) / (::tgamma(n + 1) * ::tgamma(m - n + 1));
  return jacobi_real(n, p - q, q - 1, 2 * x - 1) / binom;
}

CUNP_HD_NOINLINE double gegenbauer_real(double n, double alpha, double x) {
  if (fm::isnan(n) || fm::isnan(alpha)) return nan();
  if (fm::isnan(x)) return n == 0 ? 1 : x;
  if (integral(n)) return gegenbauer(degree(n), alpha, x);
  const double d = ::tgamma(n + 2 * alpha) / ::tgamma(1 + n) / ::tgamma(2 * alpha);
  return d * hyp2f1(-n, n + 2 * alpha, alpha + 0.5, (1 - x) / 2);
}

}  // namespace orthopoly

namespace special {

// Each functor has the 'l' loop's (long long n, double x) overload and the float loops'
// template (real n): integer n recurs in both, so 'ld->d' and 'dd->d' agree.
#define CUNP_ORTHOPOLY(name, int_expr, real_expr)                                \
  struct name {                                                                  \
    CUNP_HD double operator()(long long n, double x) const { return int_expr; } \
    template <typename T> CUNP_HD T operator()(T n_, T x_) const {               \
      const double n = double(n_), x = double(x_);                               \
      return T(real_expr);                                                       \
    }                                                                            \
  };
namespace opoly = orthopoly;
CUNP_ORTHOPOLY(eval_legendre, opoly::legendre(n, x), opoly::legendre_real(n, x))
CUNP_ORTHOPOLY(eval_chebyt, opoly::chebyt(n, x), opoly::chebyt_real(n, x))
CUNP_ORTHOPOLY(eval_chebyu, opoly::chebyu(n, x), opoly::chebyu_real(n, x))
CUNP_ORTHOPOLY(eval_chebys, opoly::chebyu(n, 0.5 * x), opoly::chebyu_real(n, 0.5 * x))
CUNP_ORTHOPOLY(eval_chebyc, 2 * opoly::chebyt(n, 0.5 * x), 2 * opoly::chebyt_real(n, 0.5 * x))
CUNP_ORTHOPOLY(eval_sh_legendre, opoly::legendre(n, 2 * x - 1), opoly::legendre_real(n, 2 * x - 1))
CUNP_ORTHOPOLY(eval_sh_chebyt, opoly::chebyt(n, 2 * x - 1), opoly::chebyt_real(n, 2 * x - 1))
CUNP_ORTHOPOLY(eval_sh_chebyu, opoly::chebyu(n, 2 * x - 1), opoly::chebyu_real(n, 2 * x - 1))
CUNP_ORTHOPOLY(eval_laguerre, opoly::genlaguerre(n, 0, x), opoly::genlaguerre_real(n, 0, x))
#undef CUNP_ORTHOPOLY

// Hermite: only the 'l' loop (SciPy).
struct eval_hermite {
  CUNP_HD double operator()(long long n, double x) const { return orthopoly::hermite(n, x); }
};
struct eval_hermitenorm {
  CUNP_HD double operator()(long long n, double x) const { return orthopoly::hermitenorm(n, x); }
};

#define CUNP_ORTHOPOLY_ALPHA(name, int_fn, real_fn)                                          \
  struct name {                                                                              \
    CUNP_HD double operator()(long long n, double alpha, double x) const {                   \
      return orthopoly::int_fn(n, alpha, x);                                                 \
    }                                                                                        \
    template <typename T> CUNP_HD T operator()(T n, T alpha, T x) const {                    \
      return T(orthopoly::real_fn(double(n), double(alpha), double(x)));                     \
    }                                                                                        \
  };
CUNP_ORTHOPOLY_ALPHA(eval_genlaguerre, genlaguerre, genlaguerre_real)
CUNP_ORTHOPOLY_ALPHA(eval_gegenbauer, gegenbauer, gegenbauer_real)
#undef CUNP_ORTHOPOLY_ALPHA

#define CUNP_ORTHOPOLY_JACOBI(name, int_fn, real_fn)                                          \
  struct name {                                                                               \
    CUNP_HD double operator()(long long n, double a, double b, double x) const {              \
      return orthopoly::int_fn(n, a, b, x);                                                   \
    }                                                                                         \
    template <typename T> CUNP_HD T operator()(T n, T a, T b, T x) const {                    \
      return T(orthopoly::real_fn(double(n), double(a), double(b), double(x)));               \
    }                                                                                         \
  };
CUNP_ORTHOPOLY_JACOBI(eval_jacobi, jacobi, jacobi_real)
CUNP_ORTHOPOLY_JACOBI(eval_sh_jacobi, sh_jacobi, sh_jacobi_real)
#undef CUNP_ORTHOPOLY_JACOBI

struct lpmv {
  template <typename T> CUNP_HD T operator()(T m, T v, T x) const {
    return T(orthopoly::lpmv(double(m), double(v), double(x)));
  }
};

}  // namespace special
}  // namespace ops
}  // namespace cunp

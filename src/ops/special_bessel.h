// src/ops/special_bessel.h — scipy.special's Bessel functions as ufunc functors: fixed
// order (j0 ... k1e, special_bessel_fixed.h), real order (jv, yv, iv, kv and the
// exponentially scaled forms, from special_bessel_order.h's v >= 0, x > 0 kernels),
// integer order (yn, kn by forward recurrence, which is stable for Y and K) and the
// spherical Bessel functions. This layer gives SciPy's values at the edges: negative
// orders by the reflection formulas, negative x by parity for integer orders (NaN
// otherwise), the poles and limits at x = 0, NaN and infinities as SciPy returns them.
#pragma once

#include "special_bessel_order.h"

namespace cunp {
namespace ops {
namespace bessel {

CUNP_HD double nan() { return fm::nan<double>(); }
CUNP_HD double inf() { return fm::inf<double>(); }

// The sign of Gamma(y) for y not a pole.
CUNP_HD double gamma_sign(double y) {
  if (y > 0) return 1;
  return fm::fmod(fm::floor(-y), 2.0) == 0 ? -1 : 1;
}

// Note [No recursion in device code]: a negative x reflects by calling the x >= 0 part,
// never the function itself (recursion would give the kernels a stack of unknown size).

// ---- J_v(x) and Y_v(x) of real order.
CUNP_HD_NOINLINE double jv_nonnegative(double v, double x) {
  if (fm::isinf(v)) return 0;
  const double a = fm::fabs(v);
  if (x == 0) {
    if (v == 0) return 1;
    if (v > 0) return 0;
    if (is_integer(v)) return is_odd_integer(v) ? -0.0 : 0.0;
    return gamma_sign(1 + v) * inf();  // (x/2)^v / Gamma(1 + v)
  }
  double J, Y;
  if (v >= 0 || is_integer(v)) {
    bessel_jy(a, x, &J, &Y);
    return v < 0 && is_odd_integer(v) ? -J : J;
  }
  bessel_jy(a, x, &J, &Y);
  const double s = sinpi(a);
  return cospi(a) * J - (s == 0 ? 0 : s * Y);
}
CUNP_HD_NOINLINE double jv(double v, double x) {
  if (fm::isnan(v) || fm::isnan(x) || fm::isinf(x)) return nan();  // SciPy: NaN at x = +-inf
  if (x >= 0) return jv_nonnegative(v, x);
  if (!is_integer(v) || fm::isinf(v)) return nan();
  const double r = jv_nonnegative(v, -x);
  return is_odd_integer(v) ? -r : r;
}

CUNP_HD_NOINLINE double yv(double v, double x) {
  if (fm::isnan(v) || fm::isnan(x) || x < 0 || fm::isinf(x)) return nan();
  const double a = fm::fabs(v);
  if (x == 0) {
    if (v >= 0 || fm::isinf(v)) return -inf();
    if (is_integer(v)) return is_odd_integer(v) ? inf() : -inf();
    // SciPy reflects -inf with cos(pi a) as rounded, so half-integers keep a sign.
    return fm::cos(kPi * a) >= 0 ? -inf() : inf();
  }
  if (fm::isinf(v)) return nan();
  double J, Y;
  bessel_jy(a, x, &J, &Y);
  if (v >= 0) return Y;
  if (is_integer(v)) return is_odd_integer(v) ? -Y : Y;
  const double c = cospi(a);
  return sinpi(a) * J + (c == 0 ? 0 : c * Y);
}

// ---- I_v(x) and K_v(x) of real order; scaled: I_v(x) exp(-|x|), K_v(x) exp(x).
CUNP_HD_NOINLINE double iv_nonnegative(double v, double x, bool scaled) {
  const double a = fm::fabs(v);
  if (x == 0) {
    if (v == 0) return 1;
    if (v > 0 || is_integer(v)) return 0;
    return scaled ? nan() : inf();  // SciPy
  }
  double I, K;
  bessel_ik(a, x, scaled, &I, &K);
  if (v >= 0 || is_integer(v)) return I;
  // I_-a = I_a + (2/pi) sin(pi a) K_a; scaled, the K term carries exp(-2x).
  const double k = scaled ? exp_scaled(-2 * x, K) : K;
  return I + (2 / kPi) * sinpi(a) * k;
}
CUNP_HD_NOINLINE double iv_scaled(double v, double x, bool scaled) {
  if (fm::isnan(v) || fm::isnan(x) || fm::isinf(x)) return nan();  // SciPy: NaN at x = +-inf
  if (fm::isinf(v)) return scaled && x <= 0 ? nan() : 0.0;            // SciPy
  if (x >= 0) return iv_nonnegative(v, x, scaled);
  if (!is_integer(v)) return nan();
  const double r = iv_nonnegative(v, -x, scaled);
  return is_odd_integer(v) ? -r : r;
}

CUNP_HD_NOINLINE double kv_scaled(double v, double x, bool scaled) {
  if (fm::isnan(x)) return nan();
  if (x == 0) return inf();  // SciPy, whatever v
  if (fm::isnan(v) || fm::isinf(v) || x < 0) return nan();
  if (fm::isinf(x)) return scaled ? nan() : 0.0;  // SciPy
  double I, K;
  bessel_ik(fm::fabs(v), x, scaled, &I, &K);
  return K;
}

// ---- Integer orders: yn and kn by forward recurrence from order 0 and 1.
CUNP_HD_NOINLINE double yn(long long n, double x) {
  const double sign = (n < 0 && (n & 1)) ? -1.0 : 1.0;
  if (n < 0) n = -n;
  if (fm::isnan(x)) return x;
  if (x < 0) return nan();
  if (x == 0) return -sign * inf();
  if (n == 0) return sign * y0(x);
  double ym = y0(x), y = y1(x);
  for (long long k = 1; k < n; ++k) {
    const double t = (2.0 * static_cast<double>(k) / x) * y - ym;
    ym = y;
    y = t;
    if (fm::isinf(y)) break;
  }
  return sign * y;
}

CUNP_HD_NOINLINE double kn(long long n, double x) {
  if (n < 0) n = -n;
  if (fm::isnan(x)) return x;
  if (x < 0) return nan();
  if (x == 0) return inf();
  if (n == 0) return k0(x);
  if (x > 800) return 0;
  // K_n(x) underflows as exp(-x): recur on the scaled values and rescale at the end.
  double km = k0e(x), k = k1e(x);
  for (long long j = 1; j < n; ++j) {
    const double t = (2.0 * static_cast<double>(j) / x) * k + km;
    km = k;
    k = t;
    if (fm::isinf(k)) return inf();
  }
  return exp_scaled(-x, k);
}

// SciPy's double loops of the integer-order functions truncate the order.
CUNP_HD long long order_of(double n) {
  if (!(n > -9.2e18 && n < 9.2e18)) return n > 0 ? 9200000000000000000LL : -9200000000000000000LL;
  return static_cast<long long>(n);
}

// ---- Spherical Bessel functions of integer order n >= 0 (SciPy: NaN for n < 0).
CUNP_HD_NOINLINE double spherical_jn(long long n, double x) {
  if (fm::isnan(x)) return x;
  if (n < 0) return nan();
  if (fm::isinf(x)) return 0;
  if (x == 0) return n == 0 ? 1 : 0;
  const double sign = (x < 0 && (n & 1)) ? -1 : 1;  // j_n(-x) = (-1)^n j_n(x)
  x = fm::fabs(x);
  const double dn = static_cast<double>(n);
  // Upward recurrence is unstable below the turning point.
  if (n > 0 && dn >= x) return sign * fm::sqrt(kPi / (2 * x)) * jv(dn + 0.5, x);
  double s, c;
  fm::sincos(x, &s, &c);
  double j0v = s / x;
  if (n == 0) return sign * j0v;
  double j1v = (j0v - c) / x;
  for (long long k = 1; k < n; ++k) {
    const double t = (2.0 * static_cast<double>(k) + 1) / x * j1v - j0v;
    j0v = j1v;
    j1v = t;
  }
  return sign * j1v;
}

CUNP_HD_NOINLINE double spherical_yn(long long n, double x) {
  if (fm::isnan(x)) return x;
  if (n < 0) return nan();
  const double sign = x < 0 ? ((n & 1) ? 1 : -1) : 1;  // y_n(-x) = (-1)^(n+1) y_n(x)
  x = fm::fabs(x);
  if (fm::isinf(x)) return 0;
  if (x == 0) return -inf();
  double s, c;
  fm::sincos(x, &s, &c);
  double y0v = -c / x;
  if (n == 0) return sign * y0v;
  double y1v = (y0v - s) / x;
  for (long long k = 1; k < n; ++k) {
    const double t = (2.0 * static_cast<double>(k) + 1) / x * y1v - y0v;
    y0v = y1v;
    y1v = t;
    if (fm::isinf(t)) break;
  }
  return sign * y1v;
}

CUNP_HD_NOINLINE double spherical_in(long long n, double x) {
  if (fm::isnan(x)) return x;
  if (n < 0) return nan();
  if (x == 0) return n == 0 ? 1 : 0;
  if (fm::isinf(x)) return (x < 0 && (n & 1)) ? -inf() : inf();
  const double sign = (x < 0 && (n & 1)) ? -1 : 1;  // i_n(-x) = (-1)^n i_n(x)
  x = fm::fabs(x);
  return sign * fm::sqrt(kPi / (2 * x)) * iv_scaled(static_cast<double>(n) + 0.5, x, false);
}

CUNP_HD_NOINLINE double spherical_kn(long long n, double x) {
  if (fm::isnan(x)) return x;
  if (n < 0) return nan();
  if (x == 0) return inf();
  if (fm::isinf(x)) return x > 0 ? 0 : -inf();
  if (x < 0) return nan();
  return fm::sqrt(kPi / (2 * x)) * kv_scaled(static_cast<double>(n) + 0.5, x, false);
}

// The derivatives (SciPy's derivative=True), from the recurrences
// f_n' = f_n-1 - (n + 1)/x f_n (j, y, i) and k_n' = -k_n-1 - (n + 1)/x k_n.
CUNP_HD double spherical_jn_d(long long n, double x) {
  if (n == 0) return -spherical_jn(1, x);
  if (x == 0) return n == 1 ? 1.0 / 3 : 0;
  return spherical_jn(n - 1, x) - (static_cast<double>(n) + 1) * spherical_jn(n, x) / x;
}
CUNP_HD double spherical_yn_d(long long n, double x) {
  if (n == 0) return -spherical_yn(1, x);
  return spherical_yn(n - 1, x) - (static_cast<double>(n) + 1) * spherical_yn(n, x) / x;
}
CUNP_HD double spherical_in_d(long long n, double x) {
  if (n == 0) return spherical_in(1, x);
  if (x == 0) return n == 1 ? 1.0 / 3 : 0;
  return spherical_in(n - 1, x) - (static_cast<double>(n) + 1) * spherical_in(n, x) / x;
}
CUNP_HD double spherical_kn_d(long long n, double x) {
  if (n == 0) return -spherical_kn(1, x);
  return -spherical_kn(n - 1, x) - (static_cast<double>(n) + 1) * spherical_kn(n, x) / x;
}

}  // namespace bessel

namespace special {

// Note [Special functors]: each functor takes the loop's compute types (float, double,
// long long) and computes in double (Note [Special functions in float64]); the loop
// rounds the result to its output dtype.
#define CUNP_BESSEL_UNARY(name)                                                                  \
  struct name {                                                                                  \
    template <typename T> CUNP_HD T operator()(T x) const { return T(bessel::name(double(x))); } \
  };
CUNP_BESSEL_UNARY(j0)
CUNP_BESSEL_UNARY(j1)
CUNP_BESSEL_UNARY(y0)
CUNP_BESSEL_UNARY(y1)
CUNP_BESSEL_UNARY(i0)
CUNP_BESSEL_UNARY(i0e)
CUNP_BESSEL_UNARY(i1)
CUNP_BESSEL_UNARY(i1e)
CUNP_BESSEL_UNARY(k0)
CUNP_BESSEL_UNARY(k0e)
CUNP_BESSEL_UNARY(k1)
CUNP_BESSEL_UNARY(k1e)
#undef CUNP_BESSEL_UNARY

#define CUNP_BESSEL_BINARY(name, expr)                                           \
  struct name {                                                                  \
    template <typename T> CUNP_HD T operator()(T v_, T x_) const {               \
      const double v = double(v_), x = double(x_);                               \
      return T(expr);                                                            \
    }                                                                            \
  };
CUNP_BESSEL_BINARY(jv, bessel::jv(v, x))
CUNP_BESSEL_BINARY(yv, bessel::yv(v, x))
CUNP_BESSEL_BINARY(iv, bessel::iv_scaled(v, x, false))
CUNP_BESSEL_BINARY(ive, bessel::iv_scaled(v, x, true))
CUNP_BESSEL_BINARY(kv, bessel::kv_scaled(v, x, false))
CUNP_BESSEL_BINARY(kve, bessel::kv_scaled(v, x, true))
#undef CUNP_BESSEL_BINARY

// yn, kn: "ld->d" takes the order as an integer; "ff->f" and "dd->d" truncate it.
#define CUNP_BESSEL_INTEGER_ORDER(name)                                                    \
  struct name {                                                                            \
    CUNP_HD double operator()(long long n, double x) const { return bessel::name(n, x); } \
    template <typename T> CUNP_HD T operator()(T n, T x) const {                           \
      if (fm::isnan(n)) return fm::nan<T>();                                               \
      return T(bessel::name(bessel::order_of(double(n)), double(x)));                      \
    }                                                                                      \
  };
CUNP_BESSEL_INTEGER_ORDER(yn)
CUNP_BESSEL_INTEGER_ORDER(kn)
#undef CUNP_BESSEL_INTEGER_ORDER

// SciPy's private ufuncs behind spherical_jn & co ("ld->d", "lf->f").
#define CUNP_BESSEL_SPHERICAL(name)                                                                             \
  struct name {                                                                                                 \
    template <typename T> CUNP_HD T operator()(long long n, T x) const { return T(bessel::name(n, double(x))); } \
  };
CUNP_BESSEL_SPHERICAL(spherical_jn)
CUNP_BESSEL_SPHERICAL(spherical_yn)
CUNP_BESSEL_SPHERICAL(spherical_in)
CUNP_BESSEL_SPHERICAL(spherical_kn)
CUNP_BESSEL_SPHERICAL(spherical_jn_d)
CUNP_BESSEL_SPHERICAL(spherical_yn_d)
CUNP_BESSEL_SPHERICAL(spherical_in_d)
CUNP_BESSEL_SPHERICAL(spherical_kn_d)
#undef CUNP_BESSEL_SPHERICAL

}  // namespace special
}  // namespace ops
}  // namespace cunp

// src/ops/complex_math.h — the elementary functions of complex64/complex128 with
// C99 Annex G's branch cuts and special values (infinities, NaNs, signed zeros), as
// NumPy's complex ufuncs give them. Finite arguments use Kahan's formulas for the
// inverse functions ("Branch Cuts for Complex Elementary Functions", 1987), which
// keep signed zeros on the cuts and avoid cancellation near the branch points.
#pragma once

#include "complex.h"
#include "real_math.h"

namespace cunp {
namespace ops {
namespace cm {

template <typename T> using C = complex<T>;

// |z| as NumPy's vectorized absolute computes it: the larger part times
// sqrt(1 + r^2), r = smaller/larger, with 1 + r^2 rounded once.
template <typename T> CUNP_HD T abs(C<T> z) {
  const T a = fm::fabs(z.re), b = fm::fabs(z.im);
  if (fm::isinf(a) || fm::isinf(b)) return fm::inf<T>();
  if (fm::isnan(a) || fm::isnan(b)) return fm::nan<T>();
  const T hi = a < b ? b : a, lo = a < b ? a : b;
  if (hi == 0) return T(0);
  const T r = lo / hi;
  return fm::mul(hi, fm::sqrt(fm::fma(r, r, T(1))));
}

// exp(x) * (c + i s) for x that may exceed the overflow threshold of exp while the
// product does not.
template <typename T> CUNP_HD C<T> exp_cis(T x, T c, T s) {
  const T big = is_same<T, f32>::value ? T(88) : T(709);
  if (x > big) {
    const T h = fm::exp(x * T(0.5));
    return {(c * h) * h, (s * h) * h};
  }
  const T e = fm::exp(x);
  return {e * c, e * s};
}

template <typename T> CUNP_HD C<T> exp(C<T> z) {
  const T x = z.re, y = z.im;
  if (y == 0) return {fm::exp(x), y};
  if (!fm::isfinite(x) || !fm::isfinite(y)) {
    if (fm::isnan(x)) return {x, fm::nan<T>()};
    if (fm::isinf(x)) {
      if (fm::isfinite(y)) {
        T s, c;
        fm::sincos(y, &s, &c);
        if (x > 0) return {fm::copysign(fm::inf<T>(), c), fm::copysign(fm::inf<T>(), s)};
        return {fm::copysign(T(0), c), fm::copysign(T(0), s)};
      }
      if (x > 0) return {x, fm::nan<T>()};  // +inf with y inf or nan
      return {T(0), fm::copysign(T(0), y)};
    }
    return {fm::nan<T>(), fm::nan<T>()};  // finite x, y inf or nan
  }
  T s, c;
  fm::sincos(y, &s, &c);
  return exp_cis(x, c, s);
}

template <typename T> CUNP_HD C<T> log(C<T> z) {
  const T x = z.re, y = z.im;
  T ax = fm::fabs(x), ay = fm::fabs(y);
  const T im = fm::atan2(y, x);
  if (fm::isinf(x) || fm::isinf(y)) return {fm::inf<T>(), im};
  if (fm::isnan(x) || fm::isnan(y)) return {fm::nan<T>(), fm::nan<T>()};
  if (ax < ay) {
    const T t = ax;
    ax = ay;
    ay = t;
  }
  if (ax == 0) return {-T(1) / ax, im};  // log(0): -inf, divide-by-zero
  // Near the unit circle log|z| is small and log(hypot) would lose it to cancellation.
  if (ax > T(0.5) && ax < T(2) && ay < T(1.5)) {
    const T h = fm::hypot(ax, ay);
    if (h > T(0.7) && h < T(1.4)) return {T(0.5) * fm::log1p((ax - T(1)) * (ax + T(1)) + ay * ay), im};
  }
  return {fm::log(fm::hypot(ax, ay)), im};
}

template <typename T> CUNP_HD C<T> sqrt(C<T> z) {
  const T x = z.re, y = z.im;
  if (fm::isinf(y)) return {fm::inf<T>(), y};
  if (fm::isnan(x)) return {x, fm::nan<T>()};
  if (fm::isinf(x)) {
    if (fm::isnan(y)) return x > 0 ? C<T>{x, y} : C<T>{y, fm::inf<T>()};
    return x > 0 ? C<T>{x, fm::copysign(T(0), y)} : C<T>{T(0), fm::copysign(fm::inf<T>(), y)};
  }
  if (fm::isnan(y)) return {fm::nan<T>(), fm::nan<T>()};
  if (x == 0 && y == 0) return {T(0), y};
  // Scale into a range where |x| + hypot(x, y) neither overflows nor loses bits.
  T ax = fm::fabs(x), ay = fm::fabs(y);
  int scale = 0;
  const T large = fm::constants<T>::max() * T(0.25);
  const T tiny = is_same<T, f32>::value ? T(1.0e-30) : T(1.0e-300);
  if (ax > large || ay > large) {
    ax = ax * T(0.25);
    ay = ay * T(0.25);
    scale = 1;
  } else if (ax < tiny && ay < tiny) {
    const int up = is_same<T, f32>::value ? 64 : 600;
    ax = fm::ldexp(ax, up);
    ay = fm::ldexp(ay, up);
    scale = -up / 2;
  }
  T t, other;
  if (ax == 0) {
    t = other = fm::sqrt(T(0.5) * ay);
  } else {
    t = fm::sqrt(T(0.5) * (ax + fm::hypot(ax, ay)));
    other = ay / (T(2) * t);
  }
  if (scale != 0) {
    t = fm::ldexp(t, scale);
    other = fm::ldexp(other, scale);
  }
  if (x >= 0) return {t, fm::copysign(other, y)};
  return {other, fm::copysign(t, y)};
}

// sinh(x)*cos(y) + i cosh(x)*sin(y), with Annex G's special values.
template <typename T> CUNP_HD C<T> sinh(C<T> z) {
  const T x = z.re, y = z.im;
  if (y == 0 && !fm::isnan(x)) return {fm::sinh(x), y};
  if (fm::isfinite(x) && fm::isfinite(y)) {
    T s, c;
    fm::sincos(y, &s, &c);
    const T ax = fm::fabs(x);
    if (ax > (is_same<T, f32>::value ? T(9) : T(20))) {
      // cosh(x) ~ |sinh(x)| ~ exp(|x|)/2
      const C<T> r = exp_cis(ax, c * T(0.5), s * T(0.5));
      return {x < 0 ? -r.re : r.re, r.im};
    }
    return {fm::sinh(x) * c, fm::cosh(x) * s};
  }
  if (x == 0) return {x, fm::nan<T>()};  // y inf or nan
  if (fm::isinf(x)) {
    if (!fm::isfinite(y)) return {fm::inf<T>(), fm::nan<T>()};
    T s, c;
    fm::sincos(y, &s, &c);
    return {x * c, fm::inf<T>() * s};
  }
  if (fm::isnan(x) && y == 0) return {x, y};
  return {fm::nan<T>(), fm::nan<T>()};
}

template <typename T> CUNP_HD C<T> cosh(C<T> z) {
  const T x = z.re, y = z.im;
  if (y == 0) return {fm::cosh(x), fm::isnan(x) ? y : fm::copysign(T(0), x) * y};
  if (fm::isfinite(x) && fm::isfinite(y)) {
    T s, c;
    fm::sincos(y, &s, &c);
    const T ax = fm::fabs(x);
    if (ax > (is_same<T, f32>::value ? T(9) : T(20))) {
      const C<T> r = exp_cis(ax, c * T(0.5), s * T(0.5));
      return {r.re, x < 0 ? -r.im : r.im};
    }
    return {fm::cosh(x) * c, fm::sinh(x) * s};
  }
  if (x == 0) return {fm::nan<T>(), T(0)};  // y inf or nan
  if (fm::isinf(x)) {
    if (!fm::isfinite(y)) return {fm::inf<T>(), fm::nan<T>()};
    T s, c;
    fm::sincos(y, &s, &c);
    return {fm::inf<T>() * c, x * s};
  }
  return {fm::nan<T>(), fm::nan<T>()};
}

template <typename T> CUNP_HD C<T> tanh(C<T> z) {
  const T x = z.re, y = z.im;
  if (fm::isnan(x)) {
    if (y == 0) return {x, y};
    return {x, fm::nan<T>()};
  }
  if (fm::isinf(x)) {
    if (!fm::isfinite(y)) return {fm::copysign(T(1), x), fm::copysign(T(0), y)};
    return {fm::copysign(T(1), x), fm::copysign(T(0), fm::sin(T(2) * y))};
  }
  if (!fm::isfinite(y)) {
    if (x == 0) return {x, fm::nan<T>()};
    return {fm::nan<T>(), fm::nan<T>()};
  }
  const T ax = fm::fabs(x);
  if (ax > (is_same<T, f32>::value ? T(9) : T(22))) {
    // tanh(z) = sign(x) + i 4 sin(y) cos(y) exp(-2|x|) to working precision.
    T s, c;
    fm::sincos(y, &s, &c);
    const T e = fm::exp(-ax);
    return {fm::copysign(T(1), x), T(4) * s * c * e * e};
  }
  // Kahan: t = tan(y), b = 1 + t^2, s = sinh(x), r = sqrt(1 + s^2);
  // tanh(z) = (b r s + i t) / (1 + b s^2).
  const T t = fm::tan(y);
  const T b = T(1) + t * t;
  const T s = fm::sinh(x);
  const T r = fm::sqrt(T(1) + s * s);
  const T d = T(1) + b * s * s;
  return {(b * r * s) / d, t / d};
}

// asin by Kahan's formulas for finite z; Annex G's values (through asinh) otherwise.
template <typename T> CUNP_HD C<T> asin_finite(C<T> z) {
  const C<T> s1m = cm::sqrt(C<T>{T(1) - z.re, -z.im});
  const C<T> s1p = cm::sqrt(C<T>{T(1) + z.re, z.im});
  const T re = fm::atan(z.re / (s1m.re * s1p.re - s1m.im * s1p.im));
  const T im = fm::asinh(s1m.re * s1p.im - s1m.im * s1p.re);
  return {re, im};
}

template <typename T> CUNP_HD C<T> asinh(C<T> z) {
  const T x = z.re, y = z.im;
  if (fm::isfinite(x) && fm::isfinite(y)) {
    const C<T> w = cm::asin_finite(C<T>{-y, x});  // asinh(z) = -i asin(iz)
    return {w.im, -w.re};
  }
  if (fm::isnan(x)) {
    if (fm::isinf(y)) return {fm::copysign(fm::inf<T>(), x), fm::nan<T>()};
    if (y == 0) return {x, y};
    return {x, fm::nan<T>()};
  }
  if (fm::isinf(x)) {
    if (fm::isnan(y)) return {x, y};
    if (fm::isinf(y)) return {x, fm::copysign(fm::constants<T>::pi_4(), y)};
    return {x, fm::copysign(T(0), y)};
  }
  // x finite
  if (fm::isinf(y)) return {fm::copysign(fm::inf<T>(), x), fm::copysign(fm::constants<T>::pi_2(), y)};
  return {fm::nan<T>(), fm::nan<T>()};  // y nan
}

template <typename T> CUNP_HD C<T> asin(C<T> z) {
  // asin(z) = -i asinh(iz)
  const C<T> w = cm::asinh(C<T>{-z.im, z.re});
  return {w.im, -w.re};
}

template <typename T> CUNP_HD C<T> acos(C<T> z) {
  const T x = z.re, y = z.im;
  if (fm::isfinite(x) && fm::isfinite(y)) {
    const C<T> s1m = cm::sqrt(C<T>{T(1) - x, -y});
    const C<T> s1p = cm::sqrt(C<T>{T(1) + x, y});
    const T re = T(2) * fm::atan(s1m.re / s1p.re);
    const T im = fm::asinh(s1p.re * s1m.im - s1p.im * s1m.re);
    return {re, im};
  }
  const T pi = fm::constants<T>::pi(), pi_2 = fm::constants<T>::pi_2();
  const T minus_inf_y = fm::copysign(fm::inf<T>(), -y);  // -i inf with y's conjugate symmetry
  if (fm::isnan(x)) {
    if (fm::isinf(y)) return {x, -y};
    return {x, fm::nan<T>()};
  }
  if (fm::isinf(x)) {
    if (fm::isnan(y)) return {y, -fm::inf<T>()};
    if (fm::isinf(y)) return {x > 0 ? fm::constants<T>::pi_4() : T(3) * fm::constants<T>::pi_4(), minus_inf_y};
    return {x > 0 ? T(0) : pi, minus_inf_y};
  }
  if (fm::isinf(y)) return {pi_2, minus_inf_y};
  if (x == 0) return {pi_2, y};  // y nan
  return {fm::nan<T>(), fm::nan<T>()};
}

template <typename T> CUNP_HD C<T> acosh(C<T> z) {
  const T x = z.re, y = z.im;
  if (fm::isfinite(x) && fm::isfinite(y)) {
    const C<T> sm = cm::sqrt(C<T>{x - T(1), y});
    const C<T> sp = cm::sqrt(C<T>{x + T(1), y});
    const T re = fm::asinh(sm.re * sp.re + sm.im * sp.im);
    const T im = T(2) * fm::atan(sm.im / sp.re);
    return {re, im};
  }
  const T inf = fm::inf<T>();
  if (fm::isnan(x)) return {fm::isinf(y) ? inf : x, fm::nan<T>()};
  if (fm::isinf(x)) {
    if (fm::isnan(y)) return {inf, y};
    if (fm::isinf(y)) {
      const T q = fm::constants<T>::pi_4();
      return {inf, fm::copysign(x > 0 ? q : T(3) * q, y)};
    }
    return {inf, fm::copysign(x > 0 ? T(0) : fm::constants<T>::pi(), y)};
  }
  if (fm::isinf(y)) return {inf, fm::copysign(fm::constants<T>::pi_2(), y)};
  if (x == 0) return {y, fm::constants<T>::pi_2()};  // y nan
  return {fm::nan<T>(), fm::nan<T>()};
}

template <typename T> CUNP_HD C<T> atanh(C<T> z) {
  const T x = z.re, y = z.im;
  const T pi_2 = fm::constants<T>::pi_2();
  if (fm::isinf(x) || fm::isinf(y)) {
    if (fm::isnan(y)) return {fm::copysign(T(0), x), y};
    return {fm::copysign(T(0), x), fm::copysign(pi_2, y)};
  }
  if (fm::isnan(x) || fm::isnan(y)) {
    if (x == 0) return {x, fm::nan<T>()};
    return {fm::nan<T>(), fm::nan<T>()};
  }
  const T ax = fm::fabs(x), ay = fm::fabs(y);
  const T big = is_same<T, f32>::value ? T(1.0e5) : T(1.0e10);
  if (ax > big || ay > big) {
    // atanh(z) = 1/z + i pi/2 sign(y) + O(1/z^3)
    const T h = fm::hypot(x, y);
    return {(x / h) / h, fm::copysign(pi_2, y)};
  }
  const T one_minus = T(1) - ax;
  const T re = T(0.25) * fm::log1p(T(4) * ax / (one_minus * one_minus + ay * ay));
  const T im = T(0.5) * fm::atan2(T(2) * y, one_minus * (T(1) + ax) - ay * ay);
  return {fm::copysign(re, x), im};
}

template <typename T> CUNP_HD C<T> atan(C<T> z) {
  // atan(z) = -i atanh(iz)
  const C<T> w = cm::atanh(C<T>{-z.im, z.re});
  return {w.im, -w.re};
}

template <typename T> CUNP_HD C<T> sin(C<T> z) {
  if (!fm::isfinite(z.re) && fm::isinf(z.im)) return {fm::nan<T>(), fm::inf<T>()};
  // sin(z) = -i sinh(iz)
  const C<T> w = cm::sinh(C<T>{-z.im, z.re});
  return {w.im, -w.re};
}
template <typename T> CUNP_HD C<T> cos(C<T> z) { return cm::cosh(C<T>{-z.im, z.re}); }
template <typename T> CUNP_HD C<T> tan(C<T> z) {
  const C<T> w = cm::tanh(C<T>{-z.im, z.re});
  return {w.im, -w.re};
}

// a*b with C99 Annex G's recovery of infinities (an infinite operand gives an infinite
// product even where the plain formula gives NaN), as the C library's cpow multiplies.
template <typename T> CUNP_HD C<T> mul_annex_g(C<T> p, C<T> q) {
  T a = p.re, b = p.im, c = q.re, d = q.im;
  const T ac = fm::mul(a, c), bd = fm::mul(b, d), ad = fm::mul(a, d), bc = fm::mul(b, c);
  T x = ac - bd, y = ad + bc;
  if (fm::isnan(x) && fm::isnan(y)) {
    bool recalc = false;
    auto box = [](T v) { return fm::copysign(fm::isinf(v) ? T(1) : T(0), v); };
    auto unnan = [](T v) { return fm::isnan(v) ? fm::copysign(T(0), v) : v; };
    if (fm::isinf(a) || fm::isinf(b)) {
      a = box(a);
      b = box(b);
      c = unnan(c);
      d = unnan(d);
      recalc = true;
    }
    if (fm::isinf(c) || fm::isinf(d)) {
      c = box(c);
      d = box(d);
      a = unnan(a);
      b = unnan(b);
      recalc = true;
    }
    if (!recalc && (fm::isinf(ac) || fm::isinf(bd) || fm::isinf(ad) || fm::isinf(bc))) {
      a = unnan(a);
      b = unnan(b);
      c = unnan(c);
      d = unnan(d);
      recalc = true;
    }
    if (recalc) {
      x = fm::inf<T>() * (a * c - b * d);
      y = fm::inf<T>() * (a * d + b * c);
    }
  }
  return {x, y};
}

// z**n for an integer |n| < 100 by repeated squaring, as NumPy's complex power does.
template <typename T> CUNP_HD C<T> pow_int(C<T> a, int n) {
  if (n == 1) return a;
  if (n == 2) return a * a;
  if (n == 3) return (a * a) * a;
  int m = n < 0 ? -n : n;
  C<T> acc{T(1), T(0)};
  C<T> p = a;
  int mask = 1;
  while (true) {
    if (m & mask) acc = acc * p;
    mask <<= 1;
    if (m < mask || mask <= 0) break;
    p = p * p;
  }
  if (n < 0) return C<T>{T(1), T(0)} / acc;
  return acc;
}

template <typename T> CUNP_HD C<T> pow(C<T> a, C<T> b) {
  if (b.re == 0 && b.im == 0) return {T(1), T(0)};
  if (a.re == 0 && a.im == 0) {
    if (b.re > 0) return {T(0), T(0)};
    return {fm::nan<T>(), fm::nan<T>()};
  }
  if (b.im == 0 && b.re > T(-100) && b.re < T(100)) {
    const int n = static_cast<int>(b.re);
    if (static_cast<T>(n) == b.re) return pow_int(a, n);
  }
  return cm::exp(mul_annex_g(b, cm::log(a)));
}

}  // namespace cm
}  // namespace ops
}  // namespace cunp

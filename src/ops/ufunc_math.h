// src/ops/ufunc_math.h — transcendental and floating-point ufuncs: trigonometric,
// hyperbolic, exponential and logarithmic functions, rounding, and the IEEE helpers
// (copysign, nextafter, spacing, ldexp, frexp, modf, heaviside).
//
// Note [float16 loops that need half precision]: every float16 loop computes in
// float32 and rounds once, as NumPy's do, except nextafter and spacing, whose answer
// depends on the float16 grid. Their float16 loops use nextafter_f16 / spacing_f16,
// which take the (exactly converted) float32 value and step on float16 bits.
#pragma once

#include "cast.h"
#include "complex_math.h"
#include "half.h"
#include "real_math.h"

namespace cunp {
namespace ops {

// One real-or-complex unary function: fm::f for f32/f64, cm::f for complex.
#define CUNP_UNARY_MATH(name, real_fn, complex_fn)                                                \
  struct name {                                                                                   \
    template <typename T> CUNP_HD T operator()(T a) const { return fm::real_fn(a); }              \
    template <typename T> CUNP_HD complex<T> operator()(complex<T> a) const { return cm::complex_fn(a); } \
  };

CUNP_UNARY_MATH(sin, sin, sin)
CUNP_UNARY_MATH(cos, cos, cos)
CUNP_UNARY_MATH(tan, tan, tan)
CUNP_UNARY_MATH(arcsin, asin, asin)
CUNP_UNARY_MATH(arccos, acos, acos)
CUNP_UNARY_MATH(arctan, atan, atan)
CUNP_UNARY_MATH(sinh, sinh, sinh)
CUNP_UNARY_MATH(cosh, cosh, cosh)
CUNP_UNARY_MATH(tanh, tanh, tanh)
CUNP_UNARY_MATH(arcsinh, asinh, asinh)
CUNP_UNARY_MATH(arccosh, acosh, acosh)
CUNP_UNARY_MATH(arctanh, atanh, atanh)
CUNP_UNARY_MATH(exp, exp, exp)
CUNP_UNARY_MATH(log, log, log)
CUNP_UNARY_MATH(sqrt, sqrt, sqrt)
#undef CUNP_UNARY_MATH

struct exp2 {
  template <typename T> CUNP_HD T operator()(T a) const { return fm::exp2(a); }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a) const {
    const T ln2 = fm::constants<T>::ln2();
    return cm::exp(complex<T>{fm::mul(a.re, ln2), fm::mul(a.im, ln2)});
  }
};

struct expm1 {
  template <typename T> CUNP_HD T operator()(T a) const { return fm::expm1(a); }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a) const {
    // expm1(x + iy) = expm1(x) cos(y) - 2 sin^2(y/2) + i exp(x) sin(y)
    const T h = fm::sin(a.im * T(0.5));
    return {fm::expm1(a.re) * fm::cos(a.im) - T(2) * h * h, fm::exp(a.re) * fm::sin(a.im)};
  }
};

struct log2 {
  template <typename T> CUNP_HD T operator()(T a) const { return fm::log2(a); }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a) const {
    const complex<T> l = cm::log(a);
    const T k = fm::constants<T>::log2e();
    return {fm::mul(l.re, k), fm::mul(l.im, k)};
  }
};

struct log10 {
  template <typename T> CUNP_HD T operator()(T a) const { return fm::log10(a); }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a) const {
    const complex<T> l = cm::log(a);
    const T k = fm::constants<T>::log10e();
    return {fm::mul(l.re, k), fm::mul(l.im, k)};
  }
};

struct log1p {
  template <typename T> CUNP_HD T operator()(T a) const { return fm::log1p(a); }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a) const {
    const T x1 = a.re + T(1);
    return {fm::log(fm::hypot(x1, a.im)), fm::atan2(a.im, x1)};
  }
};

struct cbrt {
  template <typename T> CUNP_HD T operator()(T a) const { return fm::cbrt(a); }
};

struct hypot {
  template <typename T> CUNP_HD T operator()(T a, T b) const { return fm::hypot(a, b); }
};

struct arctan2 {
  template <typename T> CUNP_HD T operator()(T a, T b) const { return fm::atan2(a, b); }
};

// log(exp(a) + exp(b)) without overflow; equal arguments (infinities included) give
// a + log(2).
struct logaddexp {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    if (a == b) return a + fm::constants<T>::ln2();
    const T d = a - b;
    if (d > 0) return a + fm::log1p(fm::exp(-d));
    if (d <= 0) return b + fm::log1p(fm::exp(d));
    return d;  // NaN
  }
};

struct logaddexp2 {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    const T log2e = fm::constants<T>::log2e();
    if (a == b) return a + T(1);
    const T d = a - b;
    if (d > 0) return a + log2e * fm::log1p(fm::exp2(-d));
    if (d <= 0) return b + log2e * fm::log1p(fm::exp2(d));
    return d;
  }
};

struct deg2rad {
  template <typename T> CUNP_HD T operator()(T a) const {
    return fm::mul(a, fm::constants<T>::pi() / T(180));
  }
};
struct rad2deg {
  template <typename T> CUNP_HD T operator()(T a) const {
    return fm::mul(a, T(180) / fm::constants<T>::pi());
  }
};

// floor/ceil/trunc: integers and booleans are returned unchanged (NumPy 2 keeps
// their dtype).
#define CUNP_ROUNDING(name)                                      \
  struct name {                                                  \
    template <typename T> CUNP_HD T operator()(T a) const {      \
      if constexpr (is_float<T>::value) return fm::name(a);      \
      else return a;                                             \
    }                                                            \
  };
CUNP_ROUNDING(floor)
CUNP_ROUNDING(ceil)
CUNP_ROUNDING(trunc)
#undef CUNP_ROUNDING

// rint: round half to even (the default rounding mode).
struct rint {
  template <typename T> CUNP_HD T operator()(T a) const { return fm::rint(a); }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a) const { return {fm::rint(a.re), fm::rint(a.im)}; }
};

struct copysign {
  template <typename T> CUNP_HD T operator()(T a, T b) const { return fm::copysign(a, b); }
};

struct nextafter {
  template <typename T> CUNP_HD T operator()(T a, T b) const { return fm::nextafter(a, b); }
};

// spacing(x): the distance from x to the next float of larger magnitude, signed like
// x (but positive for -0.0); NaN for infinities and NaN.
struct spacing {
  template <typename T> CUNP_HD T operator()(T a) const {
    if (!fm::isfinite(a)) return fm::nan<T>();
    if (a == 0) return fm::nextafter(T(0), T(1));
    return fm::nextafter(a, fm::copysign(fm::inf<T>(), a)) - a;
  }
};

namespace detail {
// The float16 after `h` in the direction of `to`, on the bits (C99's rules, which NumPy's
// float16 loop follows since 2.5: equal arguments give `to`, so nextafter(+0.0, -0.0) is
// -0.0; either NaN gives NaN).
CUNP_HD u16 half_nextafter_bits(u16 h, u16 to) {
  const bool h_nan = (h & 0x7fffu) > 0x7c00u, to_nan = (to & 0x7fffu) > 0x7c00u;
  if (h_nan || to_nan) return 0x7e00u;
  const bool equal = h == to || ((h | to) & 0x7fffu) == 0;
  if (equal) return to;
  if ((h & 0x7fffu) == 0) return static_cast<u16>((to & 0x8000u) + 1);  // smallest subnormal toward `to`
  if (!(h & 0x8000u)) {
    // h > 0: away from zero when `to` is larger
    const bool to_larger = !(to & 0x8000u) && to > h;
    return static_cast<u16>(to_larger ? h + 1 : h - 1);
  }
  const bool to_smaller = (to & 0x8000u) && (to & 0x7fffu) > (h & 0x7fffu);
  return static_cast<u16>(to_smaller ? h + 1 : h - 1);
}
}  // namespace detail

// nextafter on the float16 grid, for the 'ee->e' loop (Note [float16 loops that need
// half precision]): the arguments are float16 values widened to float32.
struct nextafter_f16 {
  static constexpr const char* kName = "cunp::ops::nextafter_f16";
  CUNP_HD f32 operator()(f32 a, f32 b) const {
    const u16 r = detail::half_nextafter_bits(f32_to_half(a).bits, f32_to_half(b).bits);
    return half_to_f32(half{r});
  }
};

// spacing on the float16 grid, for the 'e->e' loop. NumPy's float16 spacing steps
// toward +inf for every value, so it is positive for negative arguments too.
struct spacing_f16 {
  static constexpr const char* kName = "cunp::ops::spacing_f16";
  CUNP_HD f32 operator()(f32 a) const {
    if (!fm::isfinite(a)) return fm::nan<f32>();
    const u16 h = f32_to_half(a).bits;
    return half_to_f32(half{detail::half_nextafter_bits(h, 0x7c00u)}) - a;
  }
};

// ldexp(x, e): exponents outside int's range are clamped (the result is then 0 or inf
// anyway).
struct ldexp {
  template <typename T, typename I> CUNP_HD T operator()(T a, I e) const {
    int n;
    if constexpr (sizeof(I) > sizeof(int)) {
      n = e > static_cast<I>(2147483647) ? 2147483647 : (e < static_cast<I>(-2147483647 - 1) ? (-2147483647 - 1) : static_cast<int>(e));
    } else {
      n = static_cast<int>(e);
    }
    return fm::ldexp(a, n);
  }
};

// frexp(x) -> (mantissa in [0.5, 1), exponent); 0, inf and NaN give (x, 0).
struct frexp {
  template <typename T> CUNP_HD void operator()(T a, T& m, i32& e) const {
    if (!fm::isfinite(a) || a == 0) {
      m = a;
      e = 0;
      return;
    }
    int n = 0;
    m = fm::frexp(a, &n);
    e = n;
  }
};

// modf(x) -> (fractional part, integral part), both signed like x.
struct modf {
  template <typename T> CUNP_HD void operator()(T a, T& frac, T& integral) const {
    if (fm::isinf(a)) {
      frac = fm::copysign(T(0), a);
      integral = a;
      return;
    }
    integral = fm::trunc(a);
    frac = fm::isnan(a) ? a : fm::copysign(a - integral, a);
  }
};

// heaviside(x, h0): 0 for x < 0, h0 for x == 0, 1 for x > 0, NaN for NaN.
struct heaviside {
  template <typename T> CUNP_HD T operator()(T x, T h0) const {
    if (fm::isnan(x)) return x;
    if (x == 0) return h0;
    return x < 0 ? T(0) : T(1);
  }
};

}  // namespace ops
}  // namespace cunp

// src/ops/ufunc_arith.h — arithmetic ufuncs: add ... fmin. Each functor receives the
// loop's compute types (float16 arrives as float32) and returns the exact value NumPy's
// loop computes: integers wrap, integer division by zero gives 0 (NumPy also warns),
// floor_divide/remainder follow Python's signs, floats follow npy_divmod.
#pragma once

#include "cast.h"
#include "complex_math.h"
#include "real_math.h"

namespace cunp {
namespace ops {

namespace detail {
template <typename T> constexpr bool is_int_v = kind_of<T>::value == 1;

// Floor division and Python remainder of floats as NumPy's npy_divmod computes them:
// the quotient is snapped to an integer, -0.0 and the signs of zero follow the operands.
template <typename T> CUNP_HD T float_divmod(T a, T b, T* modulus) {
  // A NaN operand gives NaN without the ordered comparisons below, which would raise
  // the invalid-operation flag (Note [Integer floating-point status]: NumPy reports none).
  if (a != a || b != b) {
    *modulus = a + b;
    return a + b;
  }
  T mod = fm::fmod(a, b);
  if (!b) {
    *modulus = mod;
    return a / b;
  }
  T div = (a - mod) / b;
  if (mod) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = fm::copysign(T(0), b);
  }
  T floordiv;
  if (div) {
    floordiv = fm::floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = fm::copysign(T(0), a / b);
  }
  *modulus = mod;
  return floordiv;
}

template <typename T> CUNP_HD T int_floor_div(T a, T b) {
  if (b == 0) {
    raise_fp_divide_by_zero();
    return T(0);
  }
  if constexpr (int_traits<T>::is_signed) {
    if (b == T(-1)) {  // MIN // -1 wraps to MIN, as NumPy gives it (and reports overflow)
      if (a == wrap_neg(a) && a != T(0)) raise_fp_overflow();
      return wrap_neg(a);
    }
    T q = static_cast<T>(a / b);
    if ((a % b != 0) && ((a < 0) != (b < 0))) q = static_cast<T>(q - 1);
    return q;
  } else {
    return static_cast<T>(a / b);
  }
}

template <typename T> CUNP_HD T int_remainder(T a, T b) {
  if (b == 0) {
    raise_fp_divide_by_zero();
    return T(0);
  }
  if constexpr (int_traits<T>::is_signed) {
    if (b == T(-1)) return T(0);
    T r = static_cast<T>(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
    return r;
  } else {
    return static_cast<T>(a % b);
  }
}
}  // namespace detail

struct add {
  CUNP_HD bool operator()(bool a, bool b) const { return a || b; }
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    if constexpr (detail::is_int_v<T>) return wrap_add(a, b);
    else return a + b;
  }
};

struct subtract {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    if constexpr (detail::is_int_v<T>) return wrap_sub(a, b);
    else return a - b;
  }
};

struct multiply {
  CUNP_HD bool operator()(bool a, bool b) const { return a && b; }
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    if constexpr (detail::is_int_v<T>) return wrap_mul(a, b);
    else return a * b;
  }
};

struct true_divide {
  template <typename T> CUNP_HD T operator()(T a, T b) const { return a / b; }
};

struct floor_divide {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    if constexpr (detail::is_int_v<T>) {
      return detail::int_floor_div(a, b);
    } else {
      if (!b) return a / b;
      T mod;
      return detail::float_divmod(a, b, &mod);
    }
  }
};

struct remainder {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    if constexpr (detail::is_int_v<T>) {
      return detail::int_remainder(a, b);
    } else {
      if (!b) return fm::fmod(a, b);
      T mod;
      detail::float_divmod(a, b, &mod);
      return mod;
    }
  }
};

struct fmod {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    if constexpr (detail::is_int_v<T>) {
      if (b == 0) {
        raise_fp_divide_by_zero();
        return T(0);
      }
      if constexpr (int_traits<T>::is_signed) {
        if (b == T(-1)) return T(0);
      }
      return static_cast<T>(a % b);
    } else {
      return fm::fmod(a, b);
    }
  }
};

// divmod(a, b) -> (floor_divide(a, b), remainder(a, b)).
struct divmod {
  template <typename T> CUNP_HD void operator()(T a, T b, T& q, T& r) const {
    if constexpr (detail::is_int_v<T>) {
      q = detail::int_floor_div(a, b);
      r = detail::int_remainder(a, b);
    } else {
      q = detail::float_divmod(a, b, &r);
    }
  }
};

// Note [Integer power]: NumPy raises ValueError for a negative integer exponent; a
// kernel cannot raise, so the functor returns 0 and the host layer checks first.
struct power {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    if constexpr (detail::is_int_v<T>) {
      if constexpr (int_traits<T>::is_signed) {
        if (b < 0) return T(0);
      }
      T result = T(1);
      T base = a;
      T e = b;
      while (e != 0) {
        if (e & 1) result = wrap_mul(result, base);
        e = static_cast<T>(e >> 1);
        if (e != 0) base = wrap_mul(base, base);
      }
      return result;
    } else {
      return fm::pow(a, b);
    }
  }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a, complex<T> b) const { return cm::pow(a, b); }
};

// Note [Negating NaN]: NumPy's negative flips the sign bit of every float, NaN included
// (an x86 xor). PTX's neg leaves NaN's sign unspecified, so floats flip their bit.
CUNP_HD f32 flip_sign(f32 x) { return f32_from_bits(f32_bits(x) ^ 0x80000000u); }
CUNP_HD f64 flip_sign(f64 x) { return f64_from_bits(f64_bits(x) ^ 0x8000000000000000ull); }

struct negative {
  template <typename T> CUNP_HD T operator()(T a) const {
    if constexpr (detail::is_int_v<T>) return wrap_neg(a);
    else if constexpr (is_same<T, f32>::value || is_same<T, f64>::value) return flip_sign(a);
    else if constexpr (is_same<T, c64>::value || is_same<T, c128>::value) return T{flip_sign(a.re), flip_sign(a.im)};
    else return -a;
  }
};

struct positive {
  template <typename T> CUNP_HD T operator()(T a) const { return a; }
};

struct absolute {
  CUNP_HD bool operator()(bool a) const { return a; }
  template <typename T> CUNP_HD T operator()(T a) const {
    if constexpr (detail::is_int_v<T>) {
      if constexpr (int_traits<T>::is_signed) return a < 0 ? wrap_neg(a) : a;
      else return a;
    } else {
      return fm::fabs(a);
    }
  }
  template <typename T> CUNP_HD T operator()(complex<T> a) const { return cm::abs(a); }
};

struct fabs {
  template <typename T> CUNP_HD T operator()(T a) const { return fm::fabs(a); }
};

// sign: -1, 0 or 1 (NaN stays NaN); for complex z/|z| (NumPy 2), 0 for 0.
struct sign {
  template <typename T> CUNP_HD T operator()(T a) const {
    if constexpr (detail::is_int_v<T>) {
      if constexpr (int_traits<T>::is_signed) return static_cast<T>((a > 0) - (a < 0));
      else return static_cast<T>(a > 0);
    } else {
      return a > 0 ? T(1) : (a < 0 ? T(-1) : (a == 0 ? T(0) : a));
    }
  }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a) const {
    const T h = fm::hypot(a.re, a.im);
    if (fm::isnan(h)) return {fm::nan<T>(), fm::nan<T>()};
    if (fm::isinf(h)) {
      if (fm::isinf(a.re)) {
        if (fm::isinf(a.im)) return {fm::nan<T>(), fm::nan<T>()};
        return {a.re > 0 ? T(1) : T(-1), T(0)};
      }
      return {T(0), a.im > 0 ? T(1) : T(-1)};
    }
    if (h == 0) return {T(0), T(0)};
    return {a.re / h, a.im / h};
  }
};

struct square {
  template <typename T> CUNP_HD T operator()(T a) const {
    if constexpr (detail::is_int_v<T>) return wrap_mul(a, a);
    else if constexpr (kind_of<T>::value == 3) return a * a;
    else return fm::mul(a, a);
  }
};

// reciprocal: integers compute 1.0/x in double and convert (so 1/0 -> the x86 value of
// converting inf, as NumPy's C loop gives).
struct reciprocal {
  template <typename T> CUNP_HD T operator()(T a) const {
    if constexpr (detail::is_int_v<T>) return cast<T>(1.0 / static_cast<f64>(a));
    else return T(1) / a;
  }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a) const {
    if (fm::fabs(a.im) <= fm::fabs(a.re)) {
      const T r = a.im / a.re;
      const T d = fm::add(a.re, fm::mul(a.im, r));
      return {T(1) / d, -r / d};
    }
    const T r = a.re / a.im;
    const T d = fm::add(fm::mul(a.re, r), a.im);
    return {r / d, T(-1) / d};
  }
};

struct conjugate {
  template <typename T> CUNP_HD T operator()(T a) const { return a; }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a) const { return {a.re, -a.im}; }
};

namespace detail {
// NumPy's lexicographic complex order; a NaN in either imaginary part makes the
// real-part comparison false.
template <typename T> CUNP_HD bool complex_ge(complex<T> a, complex<T> b) {
  return (a.re > b.re && !fm::isnan(a.im) && !fm::isnan(b.im)) || (a.re == b.re && a.im >= b.im);
}
template <typename T> CUNP_HD bool complex_le(complex<T> a, complex<T> b) {
  return (a.re < b.re && !fm::isnan(a.im) && !fm::isnan(b.im)) || (a.re == b.re && a.im <= b.im);
}
template <typename T> CUNP_HD bool isnan_any(T a) {
  if constexpr (is_float<T>::value) return fm::isnan(a);
  else return false;
}
}  // namespace detail

// maximum/minimum propagate NaN (the first NaN wins); fmax/fmin ignore it. On equal
// arguments (-0.0 vs 0.0) NumPy's float32/float64 loops return the second argument,
// its float16 loops the first: the float16 loops use the *_f16 functors (Note
// [float16 loops that need half precision] in ufunc_math.h).
namespace detail {
template <bool TieFirst> struct max_min {
  template <typename T> static CUNP_HD bool pick_first_max(T a, T b) {
    if constexpr (TieFirst) return a >= b;
    else return a > b;
  }
  template <typename T> static CUNP_HD bool pick_first_min(T a, T b) {
    if constexpr (TieFirst) return a <= b;
    else return a < b;
  }
};
}  // namespace detail

template <bool TieFirst> struct maximum_t {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    return (detail::max_min<TieFirst>::pick_first_max(a, b) || detail::isnan_any(a)) ? a : b;
  }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a, complex<T> b) const {
    return (any_nan(a) || detail::complex_ge(a, b)) ? a : b;
  }
};
template <bool TieFirst> struct minimum_t {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    return (detail::max_min<TieFirst>::pick_first_min(a, b) || detail::isnan_any(a)) ? a : b;
  }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a, complex<T> b) const {
    return (any_nan(a) || detail::complex_le(a, b)) ? a : b;
  }
};
template <bool TieFirst> struct fmax_t {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    return (detail::max_min<TieFirst>::pick_first_max(a, b) || detail::isnan_any(b)) ? a : b;
  }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a, complex<T> b) const {
    return (any_nan(b) || detail::complex_ge(a, b)) ? a : b;
  }
};
template <bool TieFirst> struct fmin_t {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    return (detail::max_min<TieFirst>::pick_first_min(a, b) || detail::isnan_any(b)) ? a : b;
  }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> a, complex<T> b) const {
    return (any_nan(b) || detail::complex_le(a, b)) ? a : b;
  }
};
struct maximum : maximum_t<false> {};
struct minimum : minimum_t<false> {};
struct fmax : fmax_t<false> {};
struct fmin : fmin_t<false> {};
struct maximum_f16 : maximum_t<true> {
  static constexpr const char* kName = "cunp::ops::maximum_f16";
};
struct minimum_f16 : minimum_t<true> {
  static constexpr const char* kName = "cunp::ops::minimum_f16";
};
struct fmax_f16 : fmax_t<true> {
  static constexpr const char* kName = "cunp::ops::fmax_f16";
};
struct fmin_f16 : fmin_t<true> {
  static constexpr const char* kName = "cunp::ops::fmin_f16";
};

}  // namespace ops
}  // namespace cunp

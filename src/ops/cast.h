// src/ops/cast.h — conversion of one element between any two dtypes: the single
// definition used by astype, copy, fill, assignment and every ufunc's input casts.
//
// Note [Float to integer casts]: C++ leaves NaN, infinities and out-of-range floats
// converted to integers undefined, and NumPy only warns ("invalid value encountered
// in cast") and returns what the x86 instructions give. cunp returns those same
// values on every device: conversions to 8-, 16- and 32-bit signed and to 8- and
// 16-bit unsigned integers go through a 32-bit conversion (out of range: INT32_MIN),
// the rest through a 64-bit one (out of range: INT64_MIN), then wrap to the width.
// So 300.0 -> int8 is 44 and -1.0 -> uint8 is 255, as in NumPy on x86-64.
#pragma once

#include "common.h"
#include "complex.h"
#include "half.h"

namespace cunp {
namespace ops {

template <typename T> struct kind_of { static constexpr int value = 1; };  // 0 bool, 1 int, 2 float, 3 complex
template <> struct kind_of<bool> { static constexpr int value = 0; };
template <> struct kind_of<half> { static constexpr int value = 2; };
template <> struct kind_of<f32> { static constexpr int value = 2; };
template <> struct kind_of<f64> { static constexpr int value = 2; };
template <> struct kind_of<c64> { static constexpr int value = 3; };
template <> struct kind_of<c128> { static constexpr int value = 3; };

// Widens any real element to the widest type of its kind for conversion.
CUNP_HD f64 to_f64(half x) { return static_cast<f64>(half_to_f32(x)); }
CUNP_HD f64 to_f64(f32 x) { return static_cast<f64>(x); }
CUNP_HD f64 to_f64(f64 x) { return x; }

CUNP_HD i32 f64_to_i32_x86(f64 v) {
  // cvttsd2si (32-bit): truncation; NaN and out of range give INT32_MIN.
  return (v > -2147483649.0 && v < 2147483648.0) ? static_cast<i32>(v) : static_cast<i32>(0x80000000u);
}
CUNP_HD i64 f64_to_i64_x86(f64 v) {
  return (v >= -9223372036854775808.0 && v < 9223372036854775808.0)
             ? static_cast<i64>(v)
             : static_cast<i64>(0x8000000000000000ull);
}
CUNP_HD u64 f64_to_u64_x86(f64 v) {
  // Written so that NaN takes the small-value path, as the x86 comparison does.
  if (!(v >= 9223372036854775808.0)) return static_cast<u64>(f64_to_i64_x86(v));
  return static_cast<u64>(f64_to_i64_x86(v - 9223372036854775808.0)) ^ 0x8000000000000000ull;
}

// float -> integer of any width (Note [Float to integer casts]).
template <typename To>
CUNP_HD To float_to_int(f64 v) {
  if constexpr (sizeof(To) <= 2 || is_same<To, i32>::value) {
    return static_cast<To>(f64_to_i32_x86(v));
  } else if constexpr (is_same<To, u64>::value) {
    return f64_to_u64_x86(v);
  } else {
    return static_cast<To>(f64_to_i64_x86(v));
  }
}

// The real part and its "is non-zero" of any element, for conversions from complex.
template <typename T> CUNP_HD auto real_part(T x) { return x; }
template <typename T> CUNP_HD T real_part(complex<T> x) { return x.re; }

template <typename To, typename From>
CUNP_HD To cast(From x) {
  constexpr int kf = kind_of<From>::value;
  constexpr int kt = kind_of<To>::value;
  if constexpr (is_same<To, From>::value) {
    return x;
  } else if constexpr (kt == 0) {  // -> bool
    if constexpr (kf == 3) return x.re != 0 || x.im != 0;
    else if constexpr (is_same<From, half>::value) return (x.bits & 0x7fffu) != 0;
    else return x != 0;
  } else if constexpr (kf == 3) {  // complex -> real or complex
    if constexpr (kt == 3) {
      using T = decltype(To{}.re);
      return To{static_cast<T>(x.re), static_cast<T>(x.im)};
    } else {
      return cast<To>(x.re);  // NumPy discards the imaginary part (ComplexWarning)
    }
  } else if constexpr (kt == 3) {  // real -> complex
    using T = decltype(To{}.re);
    return To{cast<T>(x), T(0)};
  } else if constexpr (kt == 2) {  // -> float
    if constexpr (is_same<To, half>::value) {
      if constexpr (kf == 2) {
        if constexpr (is_same<From, f32>::value) return f32_to_half(x);
        else return f64_to_half(x);
      } else {
        return f64_to_half(static_cast<f64>(x));
      }
    } else if constexpr (is_same<From, half>::value) {
      return static_cast<To>(half_to_f32(x));
    } else {
      return static_cast<To>(x);
    }
  } else {  // -> integer
    if constexpr (kf == 2) return float_to_int<To>(to_f64(x));
    else return static_cast<To>(x);  // bool or integer: modular, as C++20 defines
  }
}

}  // namespace ops
}  // namespace cunp

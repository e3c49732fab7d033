// src/ops/real_math.h — the real floating-point functions the ufunc functors build on,
// one overload per compute type (f32 calls the float function, so float32 work on the
// GPU stays in single precision), plus the IEEE predicates and integer traits.
//
// Note [Contracted multiply-add]: NVRTC fuses a*b+c into one FMA by default, g++ on
// x86-64 does not; NumPy's results are the unfused ones. Where a formula is exact in
// NumPy (complex multiply and divide, deg2rad...), products are spelled mul(a, b),
// which on the device is __fmul_rn/__dmul_rn: never contracted.
#pragma once

#include "common.h"

#ifndef __CUDACC_RTC__
#include <cmath>
#endif

namespace cunp {
namespace ops {
namespace fm {

CUNP_HD f32 mul(f32 a, f32 b) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
CUNP_HD f64 mul(f64 a, f64 b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
CUNP_HD f32 add(f32 a, f32 b) {
#ifdef __CUDA_ARCH__
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
CUNP_HD f64 add(f64 a, f64 b) {
#ifdef __CUDA_ARCH__
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
CUNP_HD f32 sub(f32 a, f32 b) {
#ifdef __CUDA_ARCH__
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}
CUNP_HD f64 sub(f64 a, f64 b) {
#ifdef __CUDA_ARCH__
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}

// Fused multiply-add, rounded once (NumPy's vectorized complex multiply uses it).
CUNP_HD f32 fma(f32 a, f32 b, f32 c) { return ::fmaf(a, b, c); }
CUNP_HD f64 fma(f64 a, f64 b, f64 c) { return ::fma(a, b, c); }

// Unary functions: fm::name(f32) -> ::namef, fm::name(f64) -> ::name.
#define CUNP_FM_UNARY(name)                          \
  CUNP_HD f32 name(f32 x) { return ::name##f(x); } \
  CUNP_HD f64 name(f64 x) { return ::name(x); }
#define CUNP_FM_BINARY(name)                                   \
  CUNP_HD f32 name(f32 x, f32 y) { return ::name##f(x, y); } \
  CUNP_HD f64 name(f64 x, f64 y) { return ::name(x, y); }

CUNP_FM_UNARY(sin)
CUNP_FM_UNARY(cos)
CUNP_FM_UNARY(tan)
CUNP_FM_UNARY(asin)
CUNP_FM_UNARY(acos)
CUNP_FM_UNARY(atan)
CUNP_FM_UNARY(sinh)
CUNP_FM_UNARY(cosh)
CUNP_FM_UNARY(tanh)
CUNP_FM_UNARY(asinh)
CUNP_FM_UNARY(acosh)
CUNP_FM_UNARY(atanh)
CUNP_FM_UNARY(exp)
CUNP_FM_UNARY(exp2)
CUNP_FM_UNARY(expm1)
CUNP_FM_UNARY(log)
CUNP_FM_UNARY(log2)
CUNP_FM_UNARY(log10)
CUNP_FM_UNARY(log1p)
CUNP_FM_UNARY(sqrt)
CUNP_FM_UNARY(cbrt)
CUNP_FM_UNARY(floor)
CUNP_FM_UNARY(ceil)
CUNP_FM_UNARY(trunc)
CUNP_FM_UNARY(rint)
CUNP_FM_UNARY(fabs)
CUNP_FM_BINARY(fmod)
CUNP_FM_BINARY(hypot)
CUNP_FM_BINARY(atan2)
CUNP_FM_BINARY(copysign)
CUNP_FM_BINARY(nextafter)

// Note [Exact integer powers]: the device pow is within 2 ulp (CUDA's documented bound)
// and returns 2.9999999999999996 for pow(3.0, 1.0), where the host libm pow is correctly
// rounded; logspace(1, 4, dtype=int) then truncates to 2. When x and y are integers and
// every partial product of binary powering stays below 2^digits, the products are exact,
// so the result is the correctly rounded one; a negative y divides once (one rounding).
// Other operands, and NaN, infinities and large values, take the device pow.
#ifdef __CUDA_ARCH__
namespace detail {
template <typename F> CUNP_HD bool exact_int_pow(F x, F y, F limit, F* out) {
  const F ay = y < F(0) ? -y : y;
  if (!(ay <= F(64)) || trunc(y) != y || !(trunc(x) == x) || !(x <= limit && -x <= limit)) return false;
  F result = F(1), base = x;
  unsigned e = static_cast<unsigned>(ay);
  for (;;) {
    if ((e & 1u) != 0u) {
      result = mul(result, base);
      if (!(result <= limit && -result <= limit)) return false;
    }
    e >>= 1;
    if (e == 0u) break;
    base = mul(base, base);
    if (!(base <= limit && -base <= limit)) return false;
  }
  *out = y < F(0) ? F(1) / result : result;
  return true;
}
}  // namespace detail
#endif
CUNP_HD f32 pow(f32 x, f32 y) {
#ifdef __CUDA_ARCH__
  f32 r;
  if (detail::exact_int_pow(x, y, 16777216.0f, &r)) return r;
#endif
  return ::powf(x, y);
}
CUNP_HD f64 pow(f64 x, f64 y) {
#ifdef __CUDA_ARCH__
  f64 r;
  if (detail::exact_int_pow(x, y, 9007199254740992.0, &r)) return r;
#endif
  return ::pow(x, y);
}

#undef CUNP_FM_UNARY
#undef CUNP_FM_BINARY

CUNP_HD f32 ldexp(f32 x, int e) { return ::ldexpf(x, e); }
CUNP_HD f64 ldexp(f64 x, int e) { return ::ldexp(x, e); }
CUNP_HD f32 frexp(f32 x, int* e) { return ::frexpf(x, e); }
CUNP_HD f64 frexp(f64 x, int* e) { return ::frexp(x, e); }

// sin and cos of one argument (sincos on the device, where it saves a reduction).
CUNP_HD void sincos(f32 x, f32* s, f32* c) {
#ifdef __CUDA_ARCH__
  ::sincosf(x, s, c);
#else
  *s = ::sinf(x);
  *c = ::cosf(x);
#endif
}
CUNP_HD void sincos(f64 x, f64* s, f64* c) {
#ifdef __CUDA_ARCH__
  ::sincos(x, s, c);
#else
  *s = ::sin(x);
  *c = ::cos(x);
#endif
}

// IEEE predicates on the bits, so that no compiler option can fold them away.
CUNP_HD bool isnan(f32 x) { return (f32_bits(x) & 0x7fffffffu) > 0x7f800000u; }
CUNP_HD bool isnan(f64 x) { return (f64_bits(x) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
CUNP_HD bool isinf(f32 x) { return (f32_bits(x) & 0x7fffffffu) == 0x7f800000u; }
CUNP_HD bool isinf(f64 x) { return (f64_bits(x) & 0x7fffffffffffffffull) == 0x7ff0000000000000ull; }
CUNP_HD bool isfinite(f32 x) { return (f32_bits(x) & 0x7f800000u) != 0x7f800000u; }
CUNP_HD bool isfinite(f64 x) { return (f64_bits(x) & 0x7ff0000000000000ull) != 0x7ff0000000000000ull; }
CUNP_HD bool signbit(f32 x) { return (f32_bits(x) >> 31) != 0; }
CUNP_HD bool signbit(f64 x) { return (f64_bits(x) >> 63) != 0; }

template <typename T> CUNP_HD T inf();
template <> CUNP_HD f32 inf<f32>() { return f32_from_bits(0x7f800000u); }
template <> CUNP_HD f64 inf<f64>() { return f64_from_bits(0x7ff0000000000000ull); }
template <typename T> CUNP_HD T nan();
template <> CUNP_HD f32 nan<f32>() { return f32_from_bits(0x7fc00000u); }
template <> CUNP_HD f64 nan<f64>() { return f64_from_bits(0x7ff8000000000000ull); }

// Constants in the compute type (rounded from the double value, as NumPy's float
// constants are).
template <typename T> struct constants;
template <> struct constants<f32> {
  static CUNP_HD f32 pi() { return 3.14159265358979323846f; }
  static CUNP_HD f32 pi_2() { return 1.57079632679489661923f; }
  static CUNP_HD f32 pi_4() { return 0.785398163397448309616f; }
  static CUNP_HD f32 ln2() { return 0.693147180559945309417f; }
  static CUNP_HD f32 log2e() { return 1.442695040888963407360f; }
  static CUNP_HD f32 log10e() { return 0.434294481903251827651f; }
  static CUNP_HD f32 max() { return 3.40282346638528859812e+38f; }
};
template <> struct constants<f64> {
  static CUNP_HD f64 pi() { return 3.14159265358979323846; }
  static CUNP_HD f64 pi_2() { return 1.57079632679489661923; }
  static CUNP_HD f64 pi_4() { return 0.785398163397448309616; }
  static CUNP_HD f64 ln2() { return 0.693147180559945309417; }
  static CUNP_HD f64 log2e() { return 1.442695040888963407360; }
  static CUNP_HD f64 log10e() { return 0.434294481903251827651; }
  static CUNP_HD f64 max() { return 1.79769313486231570815e+308; }
};

}  // namespace fm

// Integer traits without <type_traits>.
template <typename T> struct int_traits;
#define CUNP_INT_TRAITS(T, U, W, S, B, MIN)        \
  template <> struct int_traits<T> {                \
    using unsigned_type = U; /* same width */       \
    using wide_unsigned = W; /* >= 32 bits */       \
    static constexpr bool is_signed = S;            \
    static constexpr int bits = B;                  \
    static CUNP_HD T min() { return MIN; }          \
  };
CUNP_INT_TRAITS(i8, u8, u32, true, 8, static_cast<i8>(-128))
CUNP_INT_TRAITS(u8, u8, u32, false, 8, 0)
CUNP_INT_TRAITS(i16, u16, u32, true, 16, static_cast<i16>(-32768))
CUNP_INT_TRAITS(u16, u16, u32, false, 16, 0)
CUNP_INT_TRAITS(i32, u32, u32, true, 32, static_cast<i32>(0x80000000u))
CUNP_INT_TRAITS(u32, u32, u32, false, 32, 0u)
CUNP_INT_TRAITS(i64, u64, u64, true, 64, static_cast<i64>(0x8000000000000000ull))
CUNP_INT_TRAITS(u64, u64, u64, false, 64, 0ull)
#undef CUNP_INT_TRAITS

template <typename T> struct is_float { static constexpr bool value = false; };
template <> struct is_float<f32> { static constexpr bool value = true; };
template <> struct is_float<f64> { static constexpr bool value = true; };

// Wrapping integer arithmetic (NumPy wraps on overflow; signed overflow is undefined in
// C++, so the arithmetic happens in an unsigned type of at least 32 bits).
template <typename T> CUNP_HD T wrap_add(T a, T b) {
  using W = typename int_traits<T>::wide_unsigned;
  return static_cast<T>(static_cast<W>(a) + static_cast<W>(b));
}
template <typename T> CUNP_HD T wrap_sub(T a, T b) {
  using W = typename int_traits<T>::wide_unsigned;
  return static_cast<T>(static_cast<W>(a) - static_cast<W>(b));
}
template <typename T> CUNP_HD T wrap_mul(T a, T b) {
  using W = typename int_traits<T>::wide_unsigned;
  return static_cast<T>(static_cast<W>(a) * static_cast<W>(b));
}
template <typename T> CUNP_HD T wrap_neg(T a) {
  using W = typename int_traits<T>::wide_unsigned;
  return static_cast<T>(W(0) - static_cast<W>(a));
}

}  // namespace ops
}  // namespace cunp

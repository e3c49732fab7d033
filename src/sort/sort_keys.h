// src/sort/sort_keys.h — NumPy's sort order as unsigned integer keys, written once for
// the CPU sorts (g++) and the CUB sorts (nvcc).
//
// Note [Sort keys]: every real dtype maps to an unsigned integer of its own width whose
// integer order is NumPy's order: bool as is, signed integers with the sign bit
// flipped, floats with the sign bit flipped for positives and every bit flipped for
// negatives. -0.0 is first made +0.0 (NumPy compares them equal, so a stable sort must
// keep their input order) and every NaN becomes the all-ones key, above +inf (NumPy
// sorts NaNs last). So one radix sort per key width serves every dtype, and equality
// of keys is NumPy's equality except that NaN keys are equal (np.unique's equal_nan).
// Complex numbers compare as (NaN category, real key, imaginary key), NumPy's order
// (complex_category below).
#pragma once

#include "ops/common.h"
#include "ops/complex.h"
#include "ops/half.h"

namespace cunp {
namespace sorting {

using ops::u16;
using ops::u32;
using ops::u64;
using ops::u8;

template <typename T>
struct SortKey;

template <>
struct SortKey<bool> {
  using type = u8;
  static CUNP_HD u8 to_key(bool x) { return x ? 1 : 0; }
  static CUNP_HD bool from_key(u8 k) { return k != 0; }
};

template <typename S, typename U, U kSign>
struct SignedSortKey {
  using type = U;
  static CUNP_HD U to_key(S x) { return static_cast<U>(static_cast<U>(x) ^ kSign); }
  static CUNP_HD S from_key(U k) { return static_cast<S>(static_cast<U>(k ^ kSign)); }
};
template <> struct SortKey<ops::i8> : SignedSortKey<ops::i8, u8, 0x80u> {};
template <> struct SortKey<ops::i16> : SignedSortKey<ops::i16, u16, 0x8000u> {};
template <> struct SortKey<ops::i32> : SignedSortKey<ops::i32, u32, 0x80000000u> {};
template <> struct SortKey<ops::i64> : SignedSortKey<ops::i64, u64, 0x8000000000000000ull> {};

template <typename U>
struct UnsignedSortKey {
  using type = U;
  static CUNP_HD U to_key(U x) { return x; }
  static CUNP_HD U from_key(U k) { return k; }
};
template <> struct SortKey<u8> : UnsignedSortKey<u8> {};
template <> struct SortKey<u16> : UnsignedSortKey<u16> {};
template <> struct SortKey<u32> : UnsignedSortKey<u32> {};
template <> struct SortKey<u64> : UnsignedSortKey<u64> {};

// The float mapping on raw bits: `kExp` the exponent mask, `kMant` the mantissa mask.
template <typename U, U kSign, U kExp, U kMant>
struct FloatBitsKey {
  static CUNP_HD U to_key(U b) {
    if ((b & kExp) == kExp && (b & kMant) != 0) return static_cast<U>(~U(0));  // NaN
    if (b == kSign) b = 0;                                                      // -0.0
    return (b & kSign) ? static_cast<U>(~b) : static_cast<U>(b | kSign);
  }
  // The key of a value sort: as to_key, but -0.0 keeps a key of its own just below
  // 0.0's, so that from_key gives it back.
  static CUNP_HD U to_value_key(U b) {
    if ((b & kExp) == kExp && (b & kMant) != 0) return static_cast<U>(~U(0));
    return (b & kSign) ? static_cast<U>(~b) : static_cast<U>(b | kSign);
  }
  // The all-ones NaN key comes back as a positive quiet NaN.
  static CUNP_HD U from_key(U k) { return (k & kSign) ? static_cast<U>(k ^ kSign) : static_cast<U>(~k); }
};
using F16Bits = FloatBitsKey<u16, 0x8000u, 0x7c00u, 0x03ffu>;
using F32Bits = FloatBitsKey<u32, 0x80000000u, 0x7f800000u, 0x007fffffu>;
using F64Bits = FloatBitsKey<u64, 0x8000000000000000ull, 0x7ff0000000000000ull, 0x000fffffffffffffull>;

template <>
struct SortKey<ops::half> {
  using type = u16;
  static CUNP_HD u16 to_key(ops::half x) { return F16Bits::to_key(x.bits); }
  static CUNP_HD ops::half from_key(u16 k) { return ops::half{F16Bits::from_key(k)}; }
};
template <>
struct SortKey<ops::f32> {
  using type = u32;
  static CUNP_HD u32 to_key(ops::f32 x) { return F32Bits::to_key(ops::f32_bits(x)); }
  static CUNP_HD ops::f32 from_key(u32 k) { return ops::f32_from_bits(F32Bits::from_key(k)); }
};
template <>
struct SortKey<ops::f64> {
  using type = u64;
  static CUNP_HD u64 to_key(ops::f64 x) { return F64Bits::to_key(ops::f64_bits(x)); }
  static CUNP_HD ops::f64 from_key(u64 k) { return ops::f64_from_bits(F64Bits::from_key(k)); }
};

// NumPy's complex order puts NaNs by kind first: R+Rj < R+nanj < nan+Rj < nan+nanj, so
// a complex number sorts by (category, real key, imaginary key) where the category is
// 2 * isnan(real) + isnan(imag) (the NaN parts' keys are all equal, Note [Sort keys]).
template <typename R>
CUNP_HD u8 complex_category(ops::complex<R> x) {
  return static_cast<u8>((x.re != x.re ? 2 : 0) | (x.im != x.im ? 1 : 0));
}

// NumPy's `a < b` of the sort order, for every dtype including complex.
template <typename T>
CUNP_HD bool sort_less(T a, T b) {
  return SortKey<T>::to_key(a) < SortKey<T>::to_key(b);
}
template <typename R>
CUNP_HD bool complex_sort_less(ops::complex<R> a, ops::complex<R> b) {
  const u8 ca = complex_category(a), cb = complex_category(b);
  if (ca != cb) return ca < cb;
  const auto ar = SortKey<R>::to_key(a.re), br = SortKey<R>::to_key(b.re);
  return ar < br || (ar == br && SortKey<R>::to_key(a.im) < SortKey<R>::to_key(b.im));
}
template <>
CUNP_HD bool sort_less<ops::c64>(ops::c64 a, ops::c64 b) {
  return complex_sort_less(a, b);
}
template <>
CUNP_HD bool sort_less<ops::c128>(ops::c128 a, ops::c128 b) {
  return complex_sort_less(a, b);
}

}  // namespace sorting
}  // namespace cunp

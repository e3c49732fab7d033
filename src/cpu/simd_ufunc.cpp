// src/cpu/simd_ufunc.cpp — the SIMD row kernels of the hot ufuncs, compiled once per
// Highway target (Note [CPU SIMD dispatch], simd.hpp). Each kernel runs whole vectors
// and finishes the row with the scalar functor of src/ops, which is also what a vector
// of inputs outside a transcendental function's accurate domain takes.
#ifdef CUNP_HAVE_HWY

#ifndef CUNP_SIMD_UFUNC_COMMON_
#define CUNP_SIMD_UFUNC_COMMON_
#include <array>
#include <cstring>

#include "cpu/simd.hpp"
#include "ops/ufunc_arith.h"
#include "ops/ufunc_compare.h"
#include "ops/ufunc_math.h"

namespace cunp::cpu::simd::detail {

template <typename T> inline T load1(const char* p) {
  T x;
  std::memcpy(&x, p, sizeof x);
  return x;
}
template <typename T> inline void store1(char* p, T x) { std::memcpy(p, &x, sizeof x); }

// kExpand[b]: the 8 bools (bytes 0/1) of the 8 bits of b, lane 0 in the low byte.
inline constexpr std::array<std::uint64_t, 256> kExpand = [] {
  std::array<std::uint64_t, 256> t{};
  for (unsigned b = 0; b < 256; ++b) {
    for (unsigned k = 0; k < 8; ++k) t[b] |= static_cast<std::uint64_t>((b >> k) & 1u) << (8 * k);
  }
  return t;
}();

}  // namespace cunp::cpu::simd::detail
#endif  // CUNP_SIMD_UFUNC_COMMON_

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/simd_ufunc.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/contrib/math/math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace cunp::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using detail::load1;
using detail::store1;

#if HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR

template <typename T> inline constexpr bool is_float_v = std::is_floating_point_v<T>;
template <typename T> inline constexpr bool has_mul_v =
    is_float_v<T> || sizeof(T) == 2 || sizeof(T) == 4;  // Highway 1.0 multiplies these

// ---- binary kernels: K::vec(d, a, b) on vectors, K::Op the scalar functor.
#define CUNP_BIN_KERNEL(Name, OpType, Kind, Ok, ...)                      \
  struct Name {                                                           \
    using Op = ops::OpType;                                               \
    static constexpr Bin kind = Bin::Kind;                                \
    template <typename T> static constexpr bool ok() { return Ok; }       \
    template <class D, class V> static HWY_INLINE auto vec(D d, V a, V b) { \
      (void)d;                                                            \
      return __VA_ARGS__;                                                 \
    }                                                                     \
  };

CUNP_BIN_KERNEL(AddK, add, Add, true, hn::Add(a, b))
CUNP_BIN_KERNEL(SubK, subtract, Sub, true, hn::Sub(a, b))
CUNP_BIN_KERNEL(MulK, multiply, Mul, has_mul_v<T>, hn::Mul(a, b))
CUNP_BIN_KERNEL(DivK, true_divide, Div, is_float_v<T>, hn::Div(a, b))
// NumPy's NaN rules (ufunc_arith.h): maximum/minimum return a NaN first argument, then
// the second argument unless the first is strictly larger (smaller); fmax/fmin return
// the first unless the second is a NaN or strictly larger (smaller) (ties: the second).
template <bool IsMax, bool NanFirst, class D, class V> HWY_INLINE V max_min(D d, V a, V b) {
  using T = hn::TFromD<D>;
  if constexpr (!is_float_v<T>) {
    if constexpr (IsMax) return hn::Max(a, b);
    else return hn::Min(a, b);
  } else {
    const auto first = IsMax ? hn::Gt(a, b) : hn::Lt(a, b);
    return hn::IfThenElse(hn::Or(first, hn::IsNaN(NanFirst ? a : b)), a, b);
  }
}
CUNP_BIN_KERNEL(MaxK, maximum, Max, true, (max_min<true, true>(d, a, b)))
CUNP_BIN_KERNEL(MinK, minimum, Min, true, (max_min<false, true>(d, a, b)))
CUNP_BIN_KERNEL(FMaxK, fmax, FMax, true, (max_min<true, false>(d, a, b)))
CUNP_BIN_KERNEL(FMinK, fmin, FMin, true, (max_min<false, false>(d, a, b)))
// a <= b (Flip: a >= b); Highway 1.0 orders integers only strictly.
template <bool Flip, class V> HWY_INLINE auto less_equal(V a, V b) {
  if constexpr (is_float_v<hn::TFromV<V>>) {
    if constexpr (Flip) return hn::Ge(a, b);
    else return hn::Le(a, b);
  } else {
    if constexpr (Flip) return hn::Not(hn::Lt(a, b));
    else return hn::Not(hn::Gt(a, b));
  }
}
CUNP_BIN_KERNEL(EqK, equal, Eq, true, hn::Eq(a, b))
// (Not Ne: Highway 1.0 compares floats as ordered there on AVX2/AVX-512, NaN != x false.)
CUNP_BIN_KERNEL(NeK, not_equal, Ne, true, hn::Not(hn::Eq(a, b)))
CUNP_BIN_KERNEL(LtK, less, Lt, true, hn::Lt(a, b))
CUNP_BIN_KERNEL(LeK, less_equal, Le, true, (less_equal<false>(a, b)))
CUNP_BIN_KERNEL(GtK, greater, Gt, true, hn::Gt(a, b))
CUNP_BIN_KERNEL(GeK, greater_equal, Ge, true, (less_equal<true>(a, b)))
#undef CUNP_BIN_KERNEL

template <class K> inline constexpr bool is_compare_v = K::kind >= Bin::Eq && K::kind <= Bin::Ge;

// Writes a mask as bools (one byte per lane).
template <class D, class M> HWY_INLINE void store_bools(D d, M m, char* out) {
  using T = hn::TFromD<D>;
  auto* o = reinterpret_cast<std::uint8_t*>(out);
  if constexpr (sizeof(T) == 1) {
    const hn::RebindToUnsigned<D> du;
    hn::StoreU(hn::And(hn::BitCast(du, hn::VecFromMask(d, m)), hn::Set(du, std::uint8_t{1})), du, o);
    return;
  } else if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
    // 0/1 lanes narrowed to bytes.
    const hn::RebindToSigned<D> di;
    const hn::Rebind<std::uint8_t, D> d8;
    const auto one = hn::And(hn::BitCast(di, hn::VecFromMask(d, m)), hn::Set(di, hn::TFromD<decltype(di)>{1}));
    hn::StoreU(hn::DemoteTo(d8, one), d8, o);
    return;
  }
  const std::size_t n = hn::Lanes(d);
  std::uint8_t bits[HWY_MAX_BYTES / 8 + 8];
  hn::StoreMaskBits(d, m, bits);
  for (std::size_t j = 0; j < n; j += 8) {
    const std::uint64_t w = detail::kExpand[bits[j / 8]];
    std::memcpy(out + j, &w, n - j < 8 ? n - j : 8);
  }
}

// T: the lane type, O: the src/ops type of the same bits (long long for int64_t).
template <typename T, typename O, class K>
void binary_row(const char* a, const char* b, char* out, std::int64_t n, int scalar) {
  const hn::ScalableTag<T> d;
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  const T* pa = reinterpret_cast<const T*>(a);
  const T* pb = reinterpret_cast<const T*>(b);
  constexpr std::int64_t osz = is_compare_v<K> ? 1 : static_cast<std::int64_t>(sizeof(T));
  auto put = [&](std::int64_t i, auto v) {
    if constexpr (is_compare_v<K>) store_bools(d, v, out + i);
    else hn::StoreU(v, d, reinterpret_cast<T*>(out) + i);
  };
  std::int64_t i = 0;
  if (scalar == 1) {
    const auto va = hn::Set(d, load1<T>(a));
    for (; i + N <= n; i += N) put(i, K::vec(d, va, hn::LoadU(d, pb + i)));
  } else if (scalar == 2) {
    const auto vb = hn::Set(d, load1<T>(b));
    for (; i + N <= n; i += N) put(i, K::vec(d, hn::LoadU(d, pa + i), vb));
  } else {
    for (; i + N <= n; i += N) put(i, K::vec(d, hn::LoadU(d, pa + i), hn::LoadU(d, pb + i)));
  }
  const std::int64_t sa = scalar == 1 ? 0 : static_cast<std::int64_t>(sizeof(T));
  const std::int64_t sb = scalar == 2 ? 0 : static_cast<std::int64_t>(sizeof(T));
  const typename K::Op op{};
  for (; i < n; ++i) {
    const auto r = op(static_cast<O>(load1<T>(a + i * sa)), static_cast<O>(load1<T>(b + i * sb)));
    if constexpr (is_compare_v<K>) store1<bool>(out + i * osz, r);
    else store1<T>(out + i * osz, static_cast<T>(r));
  }
}

// ---- unary kernels: K::vec(d, v); K::domain(d, v), when K::kChecked, the lanes the
// vector version is accurate (and raises no floating-point flag) for.
template <class D, class V> HWY_INLINE auto abs_within(D d, V v, double lo, double hi) {
  using T = hn::TFromD<D>;
  const V a = hn::Abs(v);
  return hn::And(hn::Ge(a, hn::Set(d, static_cast<T>(lo))), hn::Le(a, hn::Set(d, static_cast<T>(hi))));
}
template <class D, class V> HWY_INLINE auto within(D d, V v, double lo, double hi) {
  using T = hn::TFromD<D>;
  return hn::And(hn::Ge(v, hn::Set(d, static_cast<T>(lo))), hn::Le(v, hn::Set(d, static_cast<T>(hi))));
}
// Below 2^-12 the polynomials' high powers could underflow (a spurious flag); the
// scalar functions are exact-ish there anyway.
inline constexpr double kTiny = 1.0 / 4096;

#define CUNP_UN_KERNEL(Name, OpType, Kind, Ok, Checked, Domain, ...)               \
  struct Name {                                                                    \
    using Op = ops::OpType;                                                        \
    static constexpr Un kind = Un::Kind;                                           \
    static constexpr bool kChecked = Checked;                                      \
    template <typename T> static constexpr bool ok() { return Ok; }                \
    template <class D, class V> static HWY_INLINE V vec(D d, V v) {                \
      (void)d;                                                                     \
      return __VA_ARGS__;                                                          \
    }                                                                              \
    template <class D, class V> static HWY_INLINE auto domain(D d, V v) {          \
      using T = hn::TFromD<D>;                                                     \
      constexpr bool f32 = sizeof(T) == 4;                                         \
      (void)f32;                                                                   \
      return Domain;                                                               \
    }                                                                              \
  };
#define CUNP_ANY hn::Eq(v, v)

template <class D, class V> HWY_INLINE V negate(D d, V v) {
  if constexpr (is_float_v<hn::TFromD<D>>) return hn::Xor(v, hn::SignBit(d));  // NaN's sign too
  else return hn::Sub(hn::Zero(d), v);
}
CUNP_UN_KERNEL(NegK, negative, Neg, true, false, CUNP_ANY, negate(d, v))
CUNP_UN_KERNEL(AbsK, absolute, Abs, (is_float_v<T> || std::is_signed_v<T>), false, CUNP_ANY, hn::Abs(v))
CUNP_UN_KERNEL(SqrtK, sqrt, Sqrt, is_float_v<T>, false, CUNP_ANY, hn::Sqrt(v))
CUNP_UN_KERNEL(SquareK, square, Square, has_mul_v<T>, false, CUNP_ANY, hn::Mul(v, v))
CUNP_UN_KERNEL(SinK, sin, Sin, is_float_v<T>, true, abs_within(d, v, kTiny, 39000.0), hn::Sin(d, v))
CUNP_UN_KERNEL(CosK, cos, Cos, is_float_v<T>, true, abs_within(d, v, kTiny, 39000.0), hn::Cos(d, v))
CUNP_UN_KERNEL(ExpK, exp, Exp, is_float_v<T>, true,
               hn::And(abs_within(d, v, kTiny, 1e300), within(d, v, f32 ? -87.0 : -708.0, f32 ? 88.0 : 709.0)),
               hn::Exp(d, v))
CUNP_UN_KERNEL(Expm1K, expm1, Expm1, is_float_v<T>, true,
               hn::And(abs_within(d, v, kTiny, 1e300), within(d, v, f32 ? -87.0 : -708.0, f32 ? 88.0 : 709.0)),
               hn::Expm1(d, v))
// Positive normal finite inputs (log of 0, negatives, subnormals, inf, NaN: scalar).
#define CUNP_LOG_DOMAIN within(d, v, f32 ? 1.1754943508222875e-38 : 2.2250738585072014e-308, f32 ? 3.4028234663852886e38 : 1.7976931348623157e308)
CUNP_UN_KERNEL(LogK, log, Log, is_float_v<T>, true, CUNP_LOG_DOMAIN, hn::Log(d, v))
CUNP_UN_KERNEL(Log2K, log2, Log2, is_float_v<T>, true, CUNP_LOG_DOMAIN, hn::Log2(d, v))
CUNP_UN_KERNEL(Log10K, log10, Log10, is_float_v<T>, true, CUNP_LOG_DOMAIN, hn::Log10(d, v))
#undef CUNP_LOG_DOMAIN
CUNP_UN_KERNEL(Log1pK, log1p, Log1p, is_float_v<T>, true, within(d, v, -0.5, f32 ? 1e30 : 1e300),
               hn::Log1p(d, v))
CUNP_UN_KERNEL(TanhK, tanh, Tanh, is_float_v<T>, true, abs_within(d, v, kTiny, 9.0), hn::Tanh(d, v))
CUNP_UN_KERNEL(AtanK, arctan, Atan, is_float_v<T>, true, abs_within(d, v, kTiny, 4096.0), hn::Atan(d, v))
#undef CUNP_ANY
#undef CUNP_UN_KERNEL

template <typename T, typename O, class K> void unary_row(const char* a, char* out, std::int64_t n) {
  const hn::ScalableTag<T> d;
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  const T* pa = reinterpret_cast<const T*>(a);
  T* po = reinterpret_cast<T*>(out);
  const typename K::Op op{};
  constexpr auto sz = static_cast<std::int64_t>(sizeof(T));
  auto scalar = [&](std::int64_t i) {
    store1<T>(out + i * sz, static_cast<T>(op(static_cast<O>(load1<T>(a + i * sz)))));
  };
  std::int64_t i = 0;
  for (; i + N <= n; i += N) {
    const auto v = hn::LoadU(d, pa + i);
    if constexpr (K::kChecked) {
      if (!hn::AllTrue(d, K::domain(d, v))) {
        for (std::int64_t j = 0; j < N; ++j) scalar(i + j);
        continue;
      }
    }
    hn::StoreU(K::vec(d, v), d, po + i);
  }
  for (; i < n; ++i) scalar(i);
}

template <class K, typename T, typename O> void put_binary(Table& t, int e) {
  if constexpr (K::template ok<T>()) t.binary[static_cast<int>(K::kind)][e] = &binary_row<T, O, K>;
}
template <class K, typename T, typename O> void put_unary(Table& t, int e) {
  if constexpr (K::template ok<T>()) t.unary[static_cast<int>(K::kind)][e] = &unary_row<T, O, K>;
}
// One kernel for every element type, in elem_index order.
#define CUNP_EACH_ELEM(put, K)                                                                       \
  put<K, std::int8_t, ops::i8>(t, 0), put<K, std::uint8_t, ops::u8>(t, 1),                          \
      put<K, std::int16_t, ops::i16>(t, 2), put<K, std::uint16_t, ops::u16>(t, 3),                  \
      put<K, std::int32_t, ops::i32>(t, 4), put<K, std::uint32_t, ops::u32>(t, 5),                  \
      put<K, std::int64_t, ops::i64>(t, 6), put<K, std::uint64_t, ops::u64>(t, 7),                  \
      put<K, float, ops::f32>(t, 8), put<K, double, ops::f64>(t, 9)
template <class... K> void put_binaries(Table& t) { ((CUNP_EACH_ELEM(put_binary, K)), ...); }
template <class... K> void put_unaries(Table& t) { ((CUNP_EACH_ELEM(put_unary, K)), ...); }
#undef CUNP_EACH_ELEM

#endif  // real SIMD target

void FillUfuncTable(Table& t) {
#if HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
  t.target = hwy::TargetName(HWY_TARGET);
  put_binaries<AddK, SubK, MulK, DivK, MaxK, MinK, FMaxK, FMinK, EqK, NeK, LtK, LeK, GtK, GeK>(t);
  put_unaries<NegK, AbsK, SqrtK, SquareK, SinK, CosK, ExpK, Expm1K, LogK, Log2K, Log10K, Log1pK, TanhK, AtanK>(t);
#else
  (void)t;  // no vectors: the scalar loops run
#endif
}

}  // namespace cunp::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cunp::cpu::simd {
HWY_EXPORT(FillUfuncTable);
void fill_ufunc_table(Table& t) { HWY_DYNAMIC_DISPATCH(FillUfuncTable)(t); }
}  // namespace cunp::cpu::simd
#endif

#endif  // CUNP_HAVE_HWY

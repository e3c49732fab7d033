// src/cpu/simd_reduce.cpp — the SIMD reduction kernels over contiguous rows (Note [CPU
// SIMD dispatch], simd.hpp): NumPy's pairwise summation (the same additions in the same
// order as pairwise_sum in cpu_reduce.cpp, so the same rounding), maximum/minimum/fmax/
// fmin, argmax/argmin and any/all.
#ifdef CUNP_HAVE_HWY

#ifndef CUNP_SIMD_REDUCE_COMMON_
#define CUNP_SIMD_REDUCE_COMMON_
#include <algorithm>
#include <cstring>
#include <limits>

#include "cpu/simd.hpp"
#include "ops/ufunc_arith.h"
#endif  // CUNP_SIMD_REDUCE_COMMON_

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/simd_reduce.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace cunp::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR

// ---- pairwise summation: 8 <= n <= 128 sums 8 interleaved partial sums (element i goes
// to partial i % 8) held as K vectors of 8 / K lanes, then combines them as
// ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)) and adds the n % 8 left.
// With Sq, every element x is first replaced by (x - c) * (x - c), each operation rounded
// to T (the sum of squared deviations of var/std, as NumPy's x = a - mean; x *= x).
template <bool Sq, class D, class V> HWY_INLINE V sq_dev(D d, V x, hn::TFromD<D> c) {
  if constexpr (Sq) {
    const V dv = hn::Sub(x, hn::Set(d, c));
    return hn::Mul(dv, dv);
  } else {
    (void)d, (void)c;
    return x;
  }
}
template <bool Sq, typename T> HWY_INLINE T sq_dev1(T x, T c) {
  if constexpr (Sq) {
    const T dx = x - c;
    return dx * dx;
  } else {
    (void)c;
    return x;
  }
}

template <int K, bool Sq, typename T> T block_sum(const T* p, std::int64_t n, T c) {
  const hn::CappedTag<T, 8 / K> d;
  constexpr std::int64_t L = 8 / K;
  auto ld = [&](const T* q) { return sq_dev<Sq>(d, hn::LoadU(d, q), c); };
  auto v0 = ld(p);
  auto v1 = K > 1 ? ld(p + L) : v0;
  auto v2 = K > 2 ? ld(p + 2 * L) : v0;
  auto v3 = K > 2 ? ld(p + 3 * L) : v0;
  std::int64_t i = 8;
  const std::int64_t end = n - n % 8;
  for (; i < end; i += 8) {
    v0 = hn::Add(v0, ld(p + i));
    if constexpr (K > 1) v1 = hn::Add(v1, ld(p + i + L));
    if constexpr (K > 2) {
      v2 = hn::Add(v2, ld(p + i + 2 * L));
      v3 = hn::Add(v3, ld(p + i + 3 * L));
    }
  }
  T r[8];
  hn::StoreU(v0, d, r);
  if constexpr (K > 1) hn::StoreU(v1, d, r + L);
  if constexpr (K > 2) {
    hn::StoreU(v2, d, r + 2 * L);
    hn::StoreU(v3, d, r + 3 * L);
  }
  T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
  for (; i < n; ++i) res += sq_dev1<Sq>(p[i], c);
  return res;
}

template <bool Sq, typename T> T pairwise(const T* p, std::int64_t n, T c) {
  if (n < 8) {
    T r = T(0);
    for (std::int64_t i = 0; i < n; ++i) r += sq_dev1<Sq>(p[i], c);
    return r;
  }
  if (n <= 128) {
    const auto lanes = hn::Lanes(hn::CappedTag<T, 8>());
    if (lanes >= 8) return block_sum<1, Sq>(p, n, c);
    if (lanes == 4) return block_sum<2, Sq>(p, n, c);
    return block_sum<4, Sq>(p, n, c);
  }
  std::int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise<Sq>(p, n2, c) + pairwise<Sq>(p + n2, n - n2, c);
}

template <typename T> double pairwise_sum(const char* p, std::int64_t n) {
  return static_cast<double>(pairwise<false>(reinterpret_cast<const T*>(p), n, T(0)));
}

template <typename T> double pairwise_sqdev(const char* p, std::int64_t n, double c) {
  return static_cast<double>(pairwise<true>(reinterpret_cast<const T*>(p), n, static_cast<T>(c)));
}

// ---- maximum/minimum/fmax/fmin folds. Every lane folds its elements as the scalar
// functor does; the lanes and the rest of the row are then folded in order. A NaN
// reaching the result of maximum/minimum is replaced by the row's first NaN (the
// scalar loop's answer); signed zeros that tie may come out either sign.
template <bool IsMax, bool Propagate, class D, class V> HWY_INLINE V fold_vec(D d, V acc, V x) {
  (void)d;
  if constexpr (!std::is_floating_point_v<hn::TFromD<D>> || Propagate) {
    // (Floats: NaN lanes are tracked apart, see fold, so the plain Max/Min will do.)
    if constexpr (IsMax) return hn::Max(acc, x);
    else return hn::Min(acc, x);
  } else {
    const auto first = IsMax ? hn::Gt(acc, x) : hn::Lt(acc, x);
    return hn::IfThenElse(hn::Or(first, hn::IsNaN(Propagate ? acc : x)), acc, x);
  }
}

template <typename T, typename O, typename Op, bool IsMax, bool Propagate>
void fold(const char* pc, std::int64_t n, char* out) {
  const hn::ScalableTag<T> d;
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  const T* p = reinterpret_cast<const T*>(pc);
  const Op op{};
  O acc = static_cast<O>(p[0]);
  std::int64_t i = 1;
  if (n >= 4 * N) {
    auto a0 = hn::LoadU(d, p), a1 = hn::LoadU(d, p + N), a2 = hn::LoadU(d, p + 2 * N), a3 = hn::LoadU(d, p + 3 * N);
    i = 4 * N;
    // maximum/minimum of floats: whether a NaN was seen is kept apart (the answer is
    // then the first NaN, found below), so the lanes fold with plain Max/Min.
    constexpr bool track_nan = std::is_floating_point_v<T> && Propagate;
    auto nan = hn::Ne(hn::Zero(d), hn::Zero(d));  // (all false)
    if constexpr (track_nan) nan = hn::Or(hn::Or(hn::IsNaN(a0), hn::IsNaN(a1)), hn::Or(hn::IsNaN(a2), hn::IsNaN(a3)));
    for (; i + 4 * N <= n; i += 4 * N) {
      const auto x0 = hn::LoadU(d, p + i), x1 = hn::LoadU(d, p + i + N), x2 = hn::LoadU(d, p + i + 2 * N),
                 x3 = hn::LoadU(d, p + i + 3 * N);
      a0 = fold_vec<IsMax, Propagate>(d, a0, x0);
      a1 = fold_vec<IsMax, Propagate>(d, a1, x1);
      a2 = fold_vec<IsMax, Propagate>(d, a2, x2);
      a3 = fold_vec<IsMax, Propagate>(d, a3, x3);
      if constexpr (track_nan) nan = hn::Or(nan, hn::Or(hn::Or(hn::IsNaN(x0), hn::IsNaN(x1)), hn::Or(hn::IsNaN(x2), hn::IsNaN(x3))));
    }
    for (; i + N <= n; i += N) {
      const auto x = hn::LoadU(d, p + i);
      a0 = fold_vec<IsMax, Propagate>(d, a0, x);
      if constexpr (track_nan) nan = hn::Or(nan, hn::IsNaN(x));
    }
    a0 = fold_vec<IsMax, Propagate>(d, fold_vec<IsMax, Propagate>(d, a0, a1), fold_vec<IsMax, Propagate>(d, a2, a3));
    if constexpr (track_nan) {
      if (!hn::AllFalse(d, nan)) a0 = hn::Set(d, std::numeric_limits<T>::quiet_NaN());
    }
    T lanes[HWY_MAX_BYTES / sizeof(T)];
    hn::StoreU(a0, d, lanes);
    acc = static_cast<O>(lanes[0]);
    for (std::int64_t j = 1; j < N; ++j) acc = op(acc, static_cast<O>(lanes[j]));
  }
  for (; i < n; ++i) acc = op(acc, static_cast<O>(p[i]));
  if constexpr (std::is_floating_point_v<T> && Propagate) {
    if (acc != acc) {
      for (std::int64_t k = 0; k < n; ++k) {
        if (p[k] != p[k]) {
          acc = p[k];
          break;
        }
      }
    }
  }
  const T r = static_cast<T>(acc);
  std::memcpy(out, &r, sizeof r);
}

// ---- argmax/argmin: the first NaN if there is one, else the first element equal to
// the extreme. One pass folds chunks of kArgChunk elements (the first chunk holding a NaN
// ends it); the chunk of the extreme, still in cache, is then searched.
inline constexpr std::int64_t kArgChunk = std::int64_t{1} << 14;

template <typename T> std::int64_t find_first(const T* p, std::int64_t n, bool nan, T best) {
  const hn::ScalableTag<T> d;
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  const auto vb = hn::Set(d, best);
  std::int64_t i = 0;
  for (; i + N <= n; i += N) {
    const auto v = hn::LoadU(d, p + i);
    intptr_t k;
    if constexpr (std::is_floating_point_v<T>) k = hn::FindFirstTrue(d, nan ? hn::IsNaN(v) : hn::Eq(v, vb));
    else k = hn::FindFirstTrue(d, hn::Eq(v, vb));
    if (k >= 0) return i + k;
  }
  for (; i < n; ++i) {
    if (nan ? p[i] != p[i] : p[i] == best) return i;
  }
  return 0;
}

template <typename T, bool IsMax> std::int64_t arg(const char* pc, std::int64_t n) {
  const T* p = reinterpret_cast<const T*>(pc);
  using Op = std::conditional_t<IsMax, ops::maximum, ops::minimum>;
  using O = std::conditional_t<std::is_same_v<T, std::int64_t>, long long,
                               std::conditional_t<std::is_same_v<T, std::uint64_t>, unsigned long long, T>>;
  T best{};
  std::int64_t best_c = 0;
  for (std::int64_t c = 0; c < n; c += kArgChunk) {
    const std::int64_t m = std::min(kArgChunk, n - c);
    T v;
    fold<T, O, Op, IsMax, true>(reinterpret_cast<const char*>(p + c), m, reinterpret_cast<char*>(&v));
    if (v != v) return c + find_first(p + c, m, true, v);
    if (c == 0 || (IsMax ? best < v : v < best)) {
      best = v;
      best_c = c;
    }
  }
  return best_c + find_first(p + best_c, std::min(kArgChunk, n - best_c), false, best);
}

// ---- any/all of bool bytes, stopping at the first decisive block.
template <bool Any> bool any_all(const char* pc, std::int64_t n) {
  const hn::ScalableTag<std::uint8_t> d;
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  const auto* p = reinterpret_cast<const std::uint8_t*>(pc);
  const auto zero = hn::Zero(d);
  std::int64_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) {
    const auto a = hn::LoadU(d, p + i), b = hn::LoadU(d, p + i + N), c = hn::LoadU(d, p + i + 2 * N),
               e = hn::LoadU(d, p + i + 3 * N);
    if constexpr (Any) {
      if (!hn::AllTrue(d, hn::Eq(hn::Or(hn::Or(a, b), hn::Or(c, e)), zero))) return true;
    } else {
      if (!hn::AllFalse(d, hn::Eq(hn::Min(hn::Min(a, b), hn::Min(c, e)), zero))) return false;
    }
  }
  for (; i < n; ++i) {
    if ((p[i] != 0) == Any) return Any;
  }
  return !Any;
}

template <typename T, typename O> void put_folds(Table& t, int e) {
  t.fold[static_cast<int>(Fold::Max)][e] = &fold<T, O, ops::maximum, true, true>;
  t.fold[static_cast<int>(Fold::Min)][e] = &fold<T, O, ops::minimum, false, true>;
  t.fold[static_cast<int>(Fold::FMax)][e] = &fold<T, O, ops::fmax, true, false>;
  t.fold[static_cast<int>(Fold::FMin)][e] = &fold<T, O, ops::fmin, false, false>;
  t.argmax[e] = &arg<T, true>;
  t.argmin[e] = &arg<T, false>;
}

#endif  // real SIMD target

void FillReduceTable(Table& t) {
#if HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
  t.pairwise_sum[8] = &pairwise_sum<float>;
  t.pairwise_sum[9] = &pairwise_sum<double>;
  t.pairwise_sqdev[8] = &pairwise_sqdev<float>;
  t.pairwise_sqdev[9] = &pairwise_sqdev<double>;
  put_folds<std::int8_t, ops::i8>(t, 0);
  put_folds<std::uint8_t, ops::u8>(t, 1);
  put_folds<std::int16_t, ops::i16>(t, 2);
  put_folds<std::uint16_t, ops::u16>(t, 3);
  put_folds<std::int32_t, ops::i32>(t, 4);
  put_folds<std::uint32_t, ops::u32>(t, 5);
  put_folds<std::int64_t, ops::i64>(t, 6);
  put_folds<std::uint64_t, ops::u64>(t, 7);
  put_folds<float, ops::f32>(t, 8);
  put_folds<double, ops::f64>(t, 9);
  t.any = &any_all<true>;
  t.all = &any_all<false>;
#else
  (void)t;
#endif
}

}  // namespace cunp::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cunp::cpu::simd {
HWY_EXPORT(FillReduceTable);
void fill_reduce_table(Table& t) { HWY_DYNAMIC_DISPATCH(FillReduceTable)(t); }
}  // namespace cunp::cpu::simd
#endif

#endif  // CUNP_HAVE_HWY

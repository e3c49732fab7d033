// src/stats/bin_ops.hpp — the per-element arithmetic of the histogram functions (the
// uniform-bin formula with NumPy's edge corrections, the edge search of explicit bins
// and digitize), written once for the CPU loops and the generated kernels.
//
// Note [Bin arithmetic, one source]: src/ops headers are embedded for NVRTC by the
// build; these few functions belong to the statistics layer, so they live here as the
// body of one macro instead. bin_ops_host.hpp expands it with CUNP_STATS_HD = inline
// for the CPU loops, bins_source.cpp stringifies it (CUNP_STATS_HD stays a name there
// and the kernel preamble defines it as __device__ __forceinline__). So the body holds
// no preprocessor lines and only /* */ comments. It needs src/ops/cast.h.
//
// Note [Uniform bins]: NumPy's histogram with `bins` an integer computes, for each x
// in [first, last] (tested in x's dtype, or float64 for integer data),
//   f = ((T(x) - first) / denom) * nbins,  i = intp(f),  i == nbins -> nbins - 1,
// then moves i down one when x < edges[i], else up one when x >= edges[i + 1] (not for
// the last bin, which is closed). T is the edges' dtype (the data's float dtype,
// float64 for integers); the subtraction is in T, the division and the product in D:
// T when the range was the data's min and max, float64 when `range` was given (NumPy's
// range difference is then a float64 scalar). float16 arithmetic rounds every step to
// float16, as NumPy's float16 loops do.
#pragma once

// clang-format off
#define CUNP_STATS_BIN_OPS_BODY                                                                  \
namespace cunp { namespace stats_ops {                                                           \
template <typename T> struct calc { using type = T; };                                           \
template <> struct calc<cunp::ops::half> { using type = float; };                                \
template <typename A, typename B> struct same { static constexpr bool value = false; };          \
template <typename A> struct same<A, A> { static constexpr bool value = true; };                 \
template <typename T> CUNP_STATS_HD typename calc<T>::type up(T x) {                             \
  if constexpr (same<T, cunp::ops::half>::value) return cunp::ops::half_to_f32(x);               \
  else return x;                                                                                 \
}                                                                                                \
template <typename T> CUNP_STATS_HD T down(typename calc<T>::type v) {                           \
  if constexpr (same<T, cunp::ops::half>::value) return cunp::ops::f32_to_half(v);               \
  else return v;                                                                                 \
}                                                                                                \
template <typename T> CUNP_STATS_HD bool is_nan(T x) { return !(up(x) == up(x)); }               \
/* Note [Uniform bins]: the bin of x, or -1 when x is outside [lo, hi] or NaN. */                \
template <typename S, typename K, typename T, typename D>                                        \
CUNP_STATS_HD long long uniform_bin(S x, K lo, K hi, T first, D denom, D scale, long long n,     \
                                    const T* edges) {                                            \
  const K xk = cunp::ops::cast<K>(x);                                                            \
  if (!(up(xk) >= up(lo)) || !(up(xk) <= up(hi))) return -1;                                     \
  const T xt = cunp::ops::cast<T>(x);                                                            \
  const T d = down<T>(up(xt) - up(first));                                                       \
  typename calc<D>::type f;                                                                      \
  if constexpr (same<D, T>::value) f = up(down<T>(up(down<T>(up(d) / up(denom))) * up(scale)));  \
  else f = (static_cast<D>(up(d)) / denom) * scale;                                              \
  /* f is in [0, n] up to rounding: a 32-bit conversion when n allows (the fast one). */      \
  long long i = n < 0x40000000ll ? static_cast<long long>(static_cast<int>(f))                   \
                                 : static_cast<long long>(f);                                    \
  if (i > n - 1) i = n - 1;                                                                      \
  if (i < 0) i = 0;                                                                              \
  if (up(xt) < up(edges[i])) --i;                                                                \
  else if (i != n - 1 && up(xt) >= up(edges[i + 1])) ++i;                                        \
  return i;                                                                                      \
}                                                                                                \
/* a < b in NumPy's sort order (NaN after every number). */                                      \
template <typename C> CUNP_STATS_HD bool less_nan_last(C a, C b) {                               \
  return up(a) < up(b) || (is_nan(b) && !is_nan(a));                                             \
}                                                                                                \
/* np.searchsorted on e[0..m): the first j with v < e[j] (right) or v <= e[j] (left). */        \
template <typename C> CUNP_STATS_HD long long search(const C* e, long long m, C v, bool right) { \
  long long lo = 0, hi = m;                                                                      \
  while (lo < hi) {                                                                              \
    const long long mid = lo + (hi - lo) / 2;                                                    \
    const bool after = right ? !less_nan_last(v, e[mid]) : less_nan_last(e[mid], v);             \
    if (after) lo = mid + 1; else hi = mid;                                                      \
  }                                                                                              \
  return lo;                                                                                     \
}                                                                                                \
/* The bin of x among the m edges e (bins [e_j, e_j+1), the last one closed), or -1. */          \
template <typename S, typename C> CUNP_STATS_HD long long edge_bin(S x, const C* e, long long m) { \
  const C v = cunp::ops::cast<C>(x);                                                             \
  if (is_nan(v) || up(v) < up(e[0]) || up(v) > up(e[m - 1])) return -1;                         \
  if (!(up(v) < up(e[m - 1]))) return m - 2;                                                     \
  return search(e, m, v, true) - 1;                                                              \
}                                                                                                \
/* np.digitize of x; `e` is reversed when the bins decrease. */                                  \
template <typename S, typename C>                                                                \
CUNP_STATS_HD long long digitize_one(S x, const C* e, long long m, bool right, bool decreasing) { \
  const long long k = search(e, m, cunp::ops::cast<C>(x), !right);                               \
  return decreasing ? m - k : k;                                                                 \
}                                                                                                \
} }
// clang-format on

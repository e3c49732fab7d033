// src/ops/random_dists.h — one element of each cunp.random distribution, drawn from its
// own Philox word stream (philox.h), and the group loop shared by the CPU path and the
// generated kernels (src/random/random_cuda.cpp).
#pragma once

#include "cast.h"
#include "philox.h"
#include "real_math.h"

namespace cunp {
namespace ops {

enum random_dist {
  rd_uniform = 0,       // a + b*U, U in [0, 1)
  rd_normal = 1,        // a + b*Z (Box-Muller, one normal per element)
  rd_exponential = 2,   // b * E
  rd_integers = 3,      // low + [0, range] (Lemire's method)
  rd_gamma = 4,         // b * Gamma(a) (Marsaglia-Tsang)
  rd_beta = 5,          // Beta(a, b)
  rd_poisson = 6,       // Poisson(a) (multiplication for a < 10, else PTRS)
  rd_lognormal = 7,     // exp(a + b*Z)
  rd_laplace = 8,       // a - b*sign(U')*log(1-2|U'|), U' = U - 1/2
  rd_logistic = 9,      // a + b*log(U/(1-U))
  rd_gumbel = 10,       // a - b*log(-log(1-U))
  rd_weibull = 11,      // (-log(1-U))^(1/a)
  rd_pareto = 12,       // (1-U)^(-1/a) - 1
  rd_rayleigh = 13,     // b*sqrt(-2 log(1-U))
  rd_geometric = 14,    // ceil(log(1-U) / log(1-p)), p = a
  rd_binomial = 15,     // Binomial(n = a, p = b) (inversion for n*p < 10, else BTRS)
  rd_count = 16
};

// Distributions whose result is always int64 (NumPy's dtype for them).
constexpr CUNP_HD bool random_int64_result(int dist) {
  return dist == rd_poisson || dist == rd_geometric || dist == rd_binomial;
}

template <bool C, typename A, typename B>
struct random_select_type {
  using type = A;
};
template <typename A, typename B>
struct random_select_type<false, A, B> {
  using type = B;
};

// Note [Array parameters]: a parameter given as an array arrives as a contiguous
// float64 (or int64 / uint64 for integers) buffer of the output's size, already
// broadcast; element i reads entry i in place of the scalar. The pointer test is
// uniform across a launch, so scalar draws pay nothing for it.
struct random_params {
  philox_key key;
  f64 a, b;
  i64 low;    // rd_integers
  u64 range;  // rd_integers: high - low (inclusive), as an unsigned distance
  const f64* pa;      // per-element a, or null
  const f64* pb;      // per-element b, or null
  const i64* plow;    // per-element low and range (rd_integers), or null
  const u64* prange;
};

// 32-bit words one ordinary draw of `dist` takes for float32 (single) or wider results.
constexpr CUNP_HD int random_words(int dist, bool single, u64 range) {
  if (dist == rd_integers) return range <= 0xffffffffull ? 1 : 2;
  if (dist == rd_normal || dist == rd_lognormal) return single ? 2 : 4;
  if (dist == rd_gamma || dist == rd_beta || dist == rd_poisson || dist == rd_binomial) return 4;
  return single ? 1 : 2;
}

// Uniforms: [0, 1) from the top 24 / 53 bits, (0, 1] by adding one ulp-step.
CUNP_HD f32 random_unit_f32(philox_stream& s) { return static_cast<f32>(s.next32() >> 8) * 5.9604644775390625e-8f; }
CUNP_HD f64 random_unit_f64(philox_stream& s) {
  return static_cast<f64>(s.next64() >> 11) * 1.1102230246251565404236316680908203125e-16;
}
CUNP_HD f32 random_open0_f32(philox_stream& s) {
  return static_cast<f32>((s.next32() >> 8) + 1u) * 5.9604644775390625e-8f;
}
CUNP_HD f64 random_open0_f64(philox_stream& s) {
  return static_cast<f64>((s.next64() >> 11) + 1ull) * 1.1102230246251565404236316680908203125e-16;
}
CUNP_HD f32 random_unit(philox_stream& s, f32) { return random_unit_f32(s); }
CUNP_HD f64 random_unit(philox_stream& s, f64) { return random_unit_f64(s); }
CUNP_HD f32 random_open0(philox_stream& s, f32) { return random_open0_f32(s); }
CUNP_HD f64 random_open0(philox_stream& s, f64) { return random_open0_f64(s); }

// Box-Muller's cosine branch: one standard normal from two uniforms.
template <typename F>
CUNP_HD F random_std_normal(philox_stream& s) {
  const F u1 = random_open0(s, F());
  const F u2 = random_unit(s, F());
  const F r = fm::sqrt(fm::mul(F(-2), fm::log(u1)));
  return fm::mul(r, fm::cos(fm::mul(F(6.283185307179586476925286766559), u2)));
}

// -log(U), U in (0, 1]: a standard exponential.
template <typename F>
CUNP_HD F random_std_exponential(philox_stream& s) {
  return -fm::log(random_open0(s, F()));
}

CUNP_HD u64 random_mulhi64(u64 a, u64 b, u64* lo) {
#ifdef __CUDA_ARCH__
  *lo = a * b;
  return __umul64hi(a, b);
#else
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  *lo = static_cast<u64>(p);
  return static_cast<u64>(p >> 64);
#endif
}

// An unbiased integer in [0, range] (Lemire, "Fast random integer generation in an
// interval", 2019): a multiply, and a rejection only in the biased sliver.
CUNP_HD u64 random_bounded(philox_stream& s, u64 range) {
  if (range == 0) return 0;
  if (range <= 0xffffffffull) {
    if (range == 0xffffffffull) return s.next32();
    const u64 n = range + 1;
    u64 m = static_cast<u64>(s.next32()) * n;
    u32 l = static_cast<u32>(m);
    if (l < n) {
      const u32 t = static_cast<u32>((0x100000000ull - n) % n);
      while (l < t) {
        m = static_cast<u64>(s.next32()) * n;
        l = static_cast<u32>(m);
      }
    }
    return m >> 32;
  }
  if (range == 0xffffffffffffffffull) return s.next64();
  const u64 n = range + 1;
  u64 l;
  u64 h = random_mulhi64(s.next64(), n, &l);
  if (l < n) {
    const u64 t = (0ull - n) % n;
    while (l < t) h = random_mulhi64(s.next64(), n, &l);
  }
  return h;
}

// Gamma(k) for k > 0 (Marsaglia and Tsang, 2000; k < 1 boosted by U^(1/k)).
CUNP_HD f64 random_std_gamma(philox_stream& s, f64 k) {
  if (k <= 0) return 0;
  f64 boost = 1;
  if (k < 1) {
    boost = fm::pow(random_open0_f64(s), 1.0 / k);
    k += 1;
  }
  const f64 d = k - 1.0 / 3.0;
  const f64 c = 1.0 / fm::sqrt(9.0 * d);
  for (;;) {
    f64 x, v;
    do {
      x = random_std_normal<f64>(s);
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const f64 u = random_open0_f64(s);
    const f64 x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return boost * d * v;
    if (fm::log(u) < 0.5 * x2 + d * (1.0 - v + fm::log(v))) return boost * d * v;
  }
}

// Poisson(lam): multiplication of uniforms for small lam, else Hormann's PTRS
// ("The transformed rejection method for generating Poisson random variables", 1993).
CUNP_HD f64 random_poisson(philox_stream& s, f64 lam) {
  if (lam <= 0) return 0;
  if (lam < 10) {
    const f64 limit = fm::exp(-lam);
    f64 prod = random_unit_f64(s);
    f64 k = 0;
    while (prod > limit) {
      prod *= random_unit_f64(s);
      k += 1;
    }
    return k;
  }
  const f64 slam = fm::sqrt(lam);
  const f64 loglam = fm::log(lam);
  const f64 b = 0.931 + 2.53 * slam;
  const f64 a = -0.059 + 0.02483 * b;
  const f64 invalpha = 1.1239 + 1.1328 / (b - 3.4);
  const f64 vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const f64 u = random_unit_f64(s) - 0.5;
    const f64 v = random_unit_f64(s);
    const f64 us = 0.5 - fm::fabs(u);
    const f64 k = fm::floor((2 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (fm::log(v) + fm::log(invalpha) - fm::log(a / (us * us) + b) <= -lam + k * loglam - ::lgamma(k + 1)) return k;
  }
}

// Binomial(n, p) for 0 <= p <= 1/2 (the caller reflects larger p). Small means by
// inversion (sequential search from 0, restarting past a far bound as NumPy's does),
// else Hormann's BTRS ("The generation of binomial random variates", 1993).
CUNP_HD f64 random_binomial_low(philox_stream& s, f64 n, f64 p) {
  const f64 q = 1.0 - p;
  if (n * p < 10) {
    const f64 qn = fm::exp(n * fm::log1p(-p));
    const f64 np = n * p;
    const f64 far = np + 10.0 * fm::sqrt(np * q + 1);
    const f64 bound = far < n ? far : n;
    f64 x = 0, px = qn, u = random_unit_f64(s);
    while (u > px) {
      x += 1;
      if (x > bound) {
        x = 0;
        px = qn;
        u = random_unit_f64(s);
      } else {
        u -= px;
        px = ((n - x + 1) * p * px) / (x * q);
      }
    }
    return x;
  }
  const f64 spq = fm::sqrt(n * p * q);
  const f64 b = 1.15 + 2.53 * spq;
  const f64 a = -0.0873 + 0.0248 * b + 0.01 * p;
  const f64 c = n * p + 0.5;
  const f64 vr = 0.92 - 4.2 / b;
  const f64 alpha = (2.83 + 5.1 / b) * spq;
  const f64 lpq = fm::log(p / q);
  const f64 m = fm::floor((n + 1) * p);
  const f64 h = ::lgamma(m + 1) + ::lgamma(n - m + 1);
  for (;;) {
    const f64 u = random_unit_f64(s) - 0.5;
    f64 v = random_unit_f64(s);
    const f64 us = 0.5 - fm::fabs(u);
    const f64 k = fm::floor((2 * a / us + b) * u + c);
    if (k < 0 || k > n) continue;
    if (us >= 0.07 && v <= vr) return k;
    v = fm::log(v * alpha / (a / (us * us) + b));
    if (v <= h - ::lgamma(k + 1) - ::lgamma(n - k + 1) + (k - m) * lpq) return k;
  }
}

CUNP_HD f64 random_binomial(philox_stream& s, f64 n, f64 p) {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p > 0.5) return n - random_binomial_low(s, n, 1.0 - p);
  return random_binomial_low(s, n, p);
}

// One element of `dist` as T. Floating distributions compute in T's own precision
// where that is float32 and the formula is short, else in float64.
template <typename T, int DIST>
CUNP_HD T random_element(philox_stream& s, const random_params& p) {
  using F = typename random_select_type<is_same<T, f32>::value, f32, f64>::type;
  if constexpr (DIST == rd_integers) {
    return cast<T>(static_cast<i64>(static_cast<u64>(p.low) + random_bounded(s, p.range)));
  } else if constexpr (DIST == rd_uniform) {
    return cast<T>(fm::add(static_cast<F>(p.a), fm::mul(static_cast<F>(p.b), random_unit(s, F()))));
  } else if constexpr (DIST == rd_normal) {
    return cast<T>(fm::add(static_cast<F>(p.a), fm::mul(static_cast<F>(p.b), random_std_normal<F>(s))));
  } else if constexpr (DIST == rd_lognormal) {
    return cast<T>(fm::exp(fm::add(static_cast<F>(p.a), fm::mul(static_cast<F>(p.b), random_std_normal<F>(s)))));
  } else if constexpr (DIST == rd_exponential) {
    return cast<T>(fm::mul(static_cast<F>(p.b), random_std_exponential<F>(s)));
  } else if constexpr (DIST == rd_gamma) {
    return cast<T>(p.b * random_std_gamma(s, p.a));
  } else if constexpr (DIST == rd_beta) {
    const f64 x = random_std_gamma(s, p.a);
    const f64 y = random_std_gamma(s, p.b);
    return cast<T>(x + y == 0 ? 0.0 : x / (x + y));
  } else if constexpr (DIST == rd_poisson) {
    return cast<T>(static_cast<i64>(random_poisson(s, p.a)));
  } else if constexpr (DIST == rd_binomial) {
    return cast<T>(static_cast<i64>(random_binomial(s, p.a, p.b)));
  } else if constexpr (DIST == rd_geometric) {
    const f64 u = random_open0_f64(s);
    return cast<T>(p.a >= 1 ? i64(1) : static_cast<i64>(fm::ceil(fm::log(u) / fm::log1p(-p.a))));
  } else {
    const F u = random_unit(s, F());
    const F one = F(1);
    const F a = static_cast<F>(p.a), b = static_cast<F>(p.b);
    F r;
    if constexpr (DIST == rd_laplace) {
      const F h = u - F(0.5);
      r = h < 0 ? a + b * fm::log(one + F(2) * h) : a - b * fm::log(one - F(2) * h);
    } else if constexpr (DIST == rd_logistic) {
      r = a + b * fm::log(u / (one - u));
    } else if constexpr (DIST == rd_gumbel) {
      r = a - b * fm::log(-fm::log1p(-u));
    } else if constexpr (DIST == rd_weibull) {
      r = a == 0 ? F(0) : fm::pow(-fm::log1p(-u), one / a);
    } else if constexpr (DIST == rd_pareto) {
      r = fm::expm1(-fm::log1p(-u) / a);
    } else {  // rd_rayleigh
      r = b * fm::sqrt(F(-2) * fm::log1p(-u));
    }
    return cast<T>(r);
  }
}

// The elements of group g of an n-element draw, written to out[g*per ...] with
// per = 4 / WORDS; the CPU loop and the kernels call this for every group.
template <typename T, int DIST, int WORDS>
CUNP_HD void random_group(T* out, i64 n, const random_params& p, i64 g) {
  const int per = 4 / WORDS;
  const philox_u32x4 block = philox_group_block(p.key, static_cast<u64>(g));
  const i64 first = g * per;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int l = 0; l < per; ++l) {
    const i64 i = first + l;
    if (i >= n) break;
    philox_stream s = philox_element_stream(p.key, block, static_cast<u64>(i), l, WORDS);
    random_params e = p;
    if (p.pa) e.a = p.pa[i];
    if (p.pb) e.b = p.pb[i];
    if (p.plow) {
      e.low = p.plow[i];
      e.range = p.prange[i];
    }
    out[i] = random_element<T, DIST>(s, e);
  }
}

}  // namespace ops
}  // namespace cunp

// src/ops/random_dists.h — the elements of each cunp.random distribution from their
// lanes of a Philox block and their own further counters (philox.h), and the group
// function shared by the CPU loop and the generated kernels (src/random/random_cuda.cpp).
#pragma once

#include "cast.h"
#include "philox.h"
#include "real_math.h"

namespace cunp {
namespace ops {

enum random_dist {
  rd_uniform = 0,       // a + b*U, U in [0, 1)
  rd_normal = 1,        // a + b*Z (float32: inversion of one lane; float64: Box-Muller pairs)
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

// Note [Words per element]: the 32-bit words one element takes from its group's
// round-0 block (Note [Philox counter layout]): 1 for float32 results and integers
// below 2^32, 2 for float64 results, wider integers and integers with array bounds,
// 4 for the samplers with rejection loops (gamma, beta, poisson, binomial), which read
// their element's whole stream. A group is the 4 / w elements of one block; a kernel
// thread computes one group and stores it with one vector store.
constexpr CUNP_HD int random_words(int dist, bool single, u64 range) {
  if (dist == rd_integers) return range <= 0xffffffffull ? 1 : 2;
  if (dist == rd_gamma || dist == rd_beta || dist == rd_poisson || dist == rd_binomial) return 4;
  return single ? 1 : 2;
}

// Uniforms from raw bits: [0, 1) from the top 24 / 53 bits, (0, 1] by adding one step.
CUNP_HD f32 random_bits_unit_f32(u32 w) { return static_cast<f32>(w >> 8) * 5.9604644775390625e-8f; }
CUNP_HD f32 random_bits_open0_f32(u32 w) { return static_cast<f32>((w >> 8) + 1u) * 5.9604644775390625e-8f; }
CUNP_HD f64 random_bits_unit_f64(u64 w) {
  return static_cast<f64>(w >> 11) * 1.1102230246251565404236316680908203125e-16;
}
CUNP_HD f64 random_bits_open0_f64(u64 w) {
  return static_cast<f64>((w >> 11) + 1ull) * 1.1102230246251565404236316680908203125e-16;
}
// Two words as one 64-bit value, the first the low half.
CUNP_HD u64 random_join(u32 lo, u32 hi) { return (static_cast<u64>(hi) << 32) | lo; }

// The uniform of lane l of a block: word l (float32) or words 2l, 2l+1 (float64).
CUNP_HD f32 random_lane_unit(const philox_u32x4& b, int l, f32) { return random_bits_unit_f32(b.v[l]); }
CUNP_HD f64 random_lane_unit(const philox_u32x4& b, int l, f64) {
  return random_bits_unit_f64(random_join(b.v[2 * l], b.v[2 * l + 1]));
}
CUNP_HD f32 random_lane_open0(const philox_u32x4& b, int l, f32) { return random_bits_open0_f32(b.v[l]); }
CUNP_HD f64 random_lane_open0(const philox_u32x4& b, int l, f64) {
  return random_bits_open0_f64(random_join(b.v[2 * l], b.v[2 * l + 1]));
}

// The same from an element's word stream (the rejection samplers, in double).
CUNP_HD f64 random_unit_f64(philox_stream& s) { return random_bits_unit_f64(s.next64()); }
CUNP_HD f64 random_open0_f64(philox_stream& s) { return random_bits_open0_f64(s.next64()); }

// sin(pi x) and cos(pi x) for x in [0, 2]. The device has sincospi; the host reduces x
// exactly to y = x - q/2 with |y| <= 1/4 and rotates sin/cos(pi y) by the quadrant q,
// in double (so float32 is rounded once from a more accurate value).
CUNP_HD void random_sincospi_host(f64 x, f64* s, f64* c) {
  const f64 q = fm::floor(x * 2.0 + 0.5);
  const f64 a = 3.141592653589793 * (x - q * 0.5);
  const f64 sy = fm::sin(a), cy = fm::cos(a);
  switch (static_cast<int>(q) & 3) {
    case 0: *s = sy; *c = cy; break;
    case 1: *s = cy; *c = -sy; break;
    case 2: *s = -sy; *c = -cy; break;
    default: *s = -cy; *c = sy; break;
  }
}
CUNP_HD void random_sincospi(f64 x, f64* s, f64* c) {
#ifdef __CUDA_ARCH__
  ::sincospi(x, s, c);
#else
  random_sincospi_host(x, s, c);
#endif
}

// Box-Muller: two independent standard normals r*cos(2 pi u2), r*sin(2 pi u2) with
// r = sqrt(-2 log u1), u1 in (0, 1], u2 in [0, 1), all in F's precision (2*u2 is exact).
template <typename F>
CUNP_HD void random_normal_pair(F u1, F u2, F* z0, F* z1) {
  const F r = fm::sqrt(fm::mul(F(-2), fm::log(u1)));
  F s, c;
  random_sincospi(fm::mul(F(2), u2), &s, &c);
  *z0 = fm::mul(r, c);
  *z1 = fm::mul(r, s);
}

// Note [Single-precision normals]: a float32 normal is the quantile of its own lane,
// not half of a Box-Muller pair: word w gives s, the top 24 bits of w as a signed
// integer, and x = (2s + 1) 2^-24 in (-1, 1) (exact, symmetric, never 0 or +-1); then
// z = Phi^-1((1 + x) / 2) = x G(v) with v = -log2(1 - x^2), the form of Giles'
// erfinv approximation ("Approximating the erfinv function", 2010): G is a polynomial
// of degree 9 in v for v < 8 (all but 0.2% of the draws) and of degree 8 in
// sqrt(v) - 3.889 above, minimax fits of the relative error (2.1e-8 and 4.0e-8). Near
// x = 0 the log's absolute error barely moves G, so the device's lg2.approx (and
// sqrt.approx in the tail) serve; the host evaluates the same G in double with an
// exact log2 and rounds once. Against Phi^-1 in double over all 2^24 inputs: the host
// within 1.25 ulp, the polynomials evaluated in float from an exact log2 within 2.64 ulp
// (tests/cpp/random/test_random.cpp), the H200 within 2.88 ulp. Per normal the device
// runs about 36 instructions (Philox's share included) where Box-Muller with its own
// float32 log, sine and cosine ran 41 and with CUDA's logf, sincospif and sqrtf 66:
// 0.229, 0.245 and 0.354 ms for 2^27 values (docs/random.md).
template <typename F>
CUNP_HD F random_sqrt_fast(F v) {
#ifdef __CUDA_ARCH__
  if constexpr (is_same<F, f32>::value) {
    f32 r;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
  }
#endif
  return fm::sqrt(v);
}

// G(v) below v = 8 and above (Horner's rule, contracted to fused multiply-adds on the
// device).
template <typename F>
CUNP_HD F random_normal_central(F v) {
  F p = F(-3.784138836e-10f);
  p = p * v + F(1.408688988e-08f);
  p = p * v + F(-1.809929699e-07f);
  p = p * v + F(3.852503596e-07f);
  p = p * v + F(1.106376294e-05f);
  p = p * v + F(-4.394977805e-05f);
  p = p * v + F(-1.096290187e-03f);
  p = p * v + F(7.844864391e-03f);
  p = p * v + F(2.274339348e-01f);
  return p * v + F(1.253314137e+00f);
}
template <typename F>
CUNP_HD F random_normal_tail(F v) {
  const F t = random_sqrt_fast(v) - F(3.889087297f);
  F p = F(-2.799646973e-05f);
  p = p * t + F(-8.330142009e-05f);
  p = p * t + F(5.022647674e-04f);
  p = p * t + F(-1.043230062e-03f);
  p = p * t + F(1.744311885e-03f);
  p = p * t + F(-3.147159936e-03f);
  p = p * t + F(5.404311698e-03f);
  p = p * t + F(1.183445454e+00f);
  return p * t + F(4.344039917e+00f);
}

// x G(v).
template <typename F>
CUNP_HD F random_normal_quantile(F x, F v) {
  return x * (v < F(8) ? random_normal_central(v) : random_normal_tail(v));
}

// The float32 standard normal of word w (Note [Single-precision normals]).
CUNP_HD f32 random_normal_f32(u32 w) {
  const i32 odd = (static_cast<i32>(w) >> 7) | 1;  // 2s + 1, s = the signed top 24 bits
  const f32 x = static_cast<f32>(odd) * 5.9604644775390625e-8f;
#ifdef __CUDA_ARCH__
  const f32 y = fmaf(x, x, -1.0f);  // x^2 - 1, rounded once
  f32 l;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(l) : "f"(-y));
  return random_normal_quantile<f32>(x, -l);
#else
  const f64 xd = x;
  return static_cast<f32>(random_normal_quantile<f64>(xd, -fm::log2(1.0 - xd * xd)));  // x^2 exact in double
#endif
}

// One standard normal from a stream (Box-Muller's cosine branch; the gamma sampler).
CUNP_HD f64 random_std_normal(philox_stream& s) {
  const f64 u1 = random_open0_f64(s);
  const f64 u2 = random_unit_f64(s);
  f64 z0, z1;
  random_normal_pair(u1, u2, &z0, &z1);
  return z0;
}

CUNP_HD u32 random_mulhilo32(u32 a, u32 b, u32* lo) {
  const u64 p = static_cast<u64>(a) * b;
  *lo = static_cast<u32>(p);
  return static_cast<u32>(p >> 32);
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

// Note [Bounded integers]: an integer in [0, range] by Lemire's multiply-shift ("Fast
// random integer generation in an interval", 2019): with n = range + 1 and a candidate
// x of 32 bits (range < 2^32) or 64 bits, the result is the high half of x*n, rejected
// when the low half is below t = 2^bits mod n (t = 0 for a power-of-two n: never
// rejected). The first candidate is the element's lane (its first word, or its two
// words lo-first); a rejected candidate is replaced by the first acceptable one among
// the words (pairs of words for 64 bits) of rounds 1, 2, ... of the element's own
// counters, which no round-0 block uses. So the result is a function of (key, draw,
// element index) only.

// The first candidate of lane w0 (WORDS == 1 only for range < 2^32): true, and the
// integer in *r, when it is accepted.
template <int WORDS>
CUNP_HD bool random_bounded_first(const philox_u32x4& b, int w0, u64 range, u64* r) {
  if (WORDS == 1 || range <= 0xffffffffull) {
    const u32 x = b.v[w0];
    if (range == 0xffffffffull) {
      *r = x;
      return true;
    }
    const u32 n = static_cast<u32>(range) + 1u;
    u32 lo;
    *r = random_mulhilo32(x, n, &lo);
    return lo >= n || lo >= (0u - n) % n;
  } else {
    const u64 x = random_join(b.v[w0], b.v[w0 + (WORDS > 1 ? 1 : 0)]);
    if (range == 0xffffffffffffffffull) {
      *r = x;
      return true;
    }
    const u64 n = range + 1;
    u64 lo;
    *r = random_mulhi64(x, n, &lo);
    return lo >= n || lo >= (0ull - n) % n;
  }
}

// The replacement of a rejected first candidate of element `index`, for 32-bit
// (range < 2^32) and 64-bit candidates.
CUNP_HD u32 random_bounded_resample32(philox_key key, u64 index, u32 range) {
  const u32 n = range + 1u;
  const u32 t = (0u - n) % n;
  for (u32 round = 1;; ++round) {
    const philox_u32x4 b = philox4x32_10(philox_counter(index, key.call, round), key.k0, key.k1);
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int k = 0; k < 4; ++k) {
      u32 lo;
      const u32 hi = random_mulhilo32(b.v[k], n, &lo);
      if (lo >= t) return hi;
    }
  }
}

CUNP_HD u64 random_bounded_resample64(philox_key key, u64 index, u64 range) {
  const u64 n = range + 1;
  const u64 t = (0ull - n) % n;
  for (u32 round = 1;; ++round) {
    const philox_u32x4 b = philox4x32_10(philox_counter(index, key.call, round), key.k0, key.k1);
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int k = 0; k < 2; ++k) {
      u64 lo;
      const u64 hi = random_mulhi64(random_join(b.v[2 * k], b.v[2 * k + 1]), n, &lo);
      if (lo >= t) return hi;
    }
  }
}

template <int WORDS>
CUNP_HD u64 random_bounded_resample(const philox_key& key, u64 index, u64 range) {
  if (WORDS == 1 || range <= 0xffffffffull)
    return random_bounded_resample32(key, index, static_cast<u32>(range));
  return random_bounded_resample64(key, index, range);
}

// Element `index`'s integer in [0, range], its lane starting at word w0 of the
// round-0 block `b`.
template <int WORDS>
CUNP_HD u64 random_bounded(const philox_key& key, const philox_u32x4& b, int w0, u64 index, u64 range) {
  u64 r;
  if (random_bounded_first<WORDS>(b, w0, range, &r)) return r;
  return random_bounded_resample<WORDS>(key, index, range);
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
      x = random_std_normal(s);
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

// Element i's parameters: the scalars, or entry i of the array parameters (i < n).
// ARRAYS = false promises that every parameter is a scalar (no pointer is set): the
// kernels of such draws (random_cuda.cpp) then hold no per-element parameter state
// (2^27 float32 normals on the H200: 0.229 ms against 0.353 ms for the variant that
// reads arrays; the uniform kernel: 26 registers instead of 38, so full occupancy).
template <bool ARRAYS = true>
CUNP_HD random_params random_at(const random_params& p, i64 i, i64 n) {
  if constexpr (!ARRAYS) return p;
  random_params e = p;
  if (i < n) {
    if (p.pa) e.a = p.pa[i];
    if (p.pb) e.b = p.pb[i];
    if (p.plow) {
      e.low = p.plow[i];
      e.range = p.prange[i];
    }
  }
  return e;
}

// One element of a rejection sampler (4 words per element) as T, from its stream.
template <typename T, int DIST>
CUNP_HD T random_stream_element(philox_stream& s, const random_params& p) {
  if constexpr (DIST == rd_gamma) {
    return cast<T>(p.b * random_std_gamma(s, p.a));
  } else if constexpr (DIST == rd_beta) {
    const f64 x = random_std_gamma(s, p.a);
    const f64 y = random_std_gamma(s, p.b);
    return cast<T>(x + y == 0 ? 0.0 : x / (x + y));
  } else if constexpr (DIST == rd_poisson) {
    return cast<T>(static_cast<i64>(random_poisson(s, p.a)));
  } else {
    static_assert(DIST == rd_binomial, "not a rejection sampler");
    return cast<T>(static_cast<i64>(random_binomial(s, p.a, p.b)));
  }
}

// One element of a distribution that takes one lane of the block (one uniform, or one
// bounded integer) as T. Floating distributions compute in T's own precision where
// that is float32, else in float64.
template <typename T, int DIST, int WORDS>
CUNP_HD T random_lane_element(const philox_u32x4& blk, int l, const random_params& p) {
  using F = typename random_select_type<is_same<T, f32>::value, f32, f64>::type;
  if constexpr (DIST == rd_geometric) {
    const f64 u = random_lane_open0(blk, l, f64());
    return cast<T>(p.a >= 1 ? i64(1) : static_cast<i64>(fm::ceil(fm::log(u) / fm::log1p(-p.a))));
  } else if constexpr (DIST == rd_exponential) {
    return cast<T>(fm::mul(static_cast<F>(p.b), -fm::log(random_lane_open0(blk, l, F()))));
  } else {
    const F u = random_lane_unit(blk, l, F());
    const F one = F(1);
    const F a = static_cast<F>(p.a), b = static_cast<F>(p.b);
    F r;
    if constexpr (DIST == rd_uniform) {
      r = fm::add(a, fm::mul(b, u));
    } else if constexpr (DIST == rd_laplace) {
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
    } else {
      static_assert(DIST == rd_rayleigh, "not a one-lane distribution");
      r = b * fm::sqrt(F(-2) * fm::log1p(-u));
    }
    return cast<T>(r);
  }
}

// N elements as one aligned store (16 bytes at most per instruction).
template <typename T, int N>
struct alignas(sizeof(T) * N) random_pack {
  T v[N];
};

template <typename T, int N>
CUNP_HD void random_store(T* dst, const T* v) {
  if constexpr (sizeof(T) * N > 16) {
    random_store<T, N / 2>(dst, v);
    random_store<T, N / 2>(dst + N / 2, v + N / 2);
  } else {
    random_pack<T, N> pk;
    for (int k = 0; k < N; ++k) pk.v[k] = v[k];
    *reinterpret_cast<random_pack<T, N>*>(dst) = pk;
  }
}

// Stores v[0, per) at out[first, first + per), the part below n: one vector store
// per 16 bytes on the device when the group is whole and `out` aligned.
template <typename T, int per>
CUNP_HD void random_store_group(T* out, i64 n, i64 first, const T* v) {
#ifdef __CUDA_ARCH__
  constexpr u64 align = sizeof(T) * per < 16 ? sizeof(T) * per : 16;
  if (first + per <= n && (reinterpret_cast<u64>(out) & (align - 1)) == 0) {
    random_store<T, per>(out + first, v);
    return;
  }
#endif
  for (int l = 0; l < per; ++l) {
    if (first + l < n) out[first + l] = v[l];
  }
}

// The elements of group g of an n-element draw (Note [Words per element]), written to
// out[g*per, (g+1)*per) with per = 4 / WORDS; the CPU loop and the kernels call this
// for every group. float32 normals invert their own lane (Note [Single-precision
// normals]); float64 normals take Box-Muller pairs: elements 2j and 2j+1 of a group
// are the cosine and sine of one pair, whose u1 is lane 2j (in (0, 1]) and u2 lane 2j+1.
// Integers store the first candidates and then overwrite the rare rejected ones
// (Note [Bounded integers]), so the resampling loop holds few registers.
template <typename T, int DIST, int WORDS, bool ARRAYS = true>
CUNP_HD void random_group(T* out, i64 n, const random_params& p, i64 g) {
  constexpr int per = 4 / WORDS;
  using F = typename random_select_type<is_same<T, f32>::value, f32, f64>::type;
  const philox_u32x4 blk = philox_group_block(p.key, static_cast<u64>(g));
  const i64 first = g * per;
  T v[per];
  if constexpr (DIST == rd_integers) {
    u32 redo = 0;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int l = 0; l < per; ++l) {
      const random_params e = random_at<ARRAYS>(p, first + l, n);
      u64 r;
      if (!random_bounded_first<WORDS>(blk, l * WORDS, e.range, &r)) redo |= 1u << l;
      v[l] = cast<T>(static_cast<i64>(static_cast<u64>(e.low) + r));
    }
    random_store_group<T, per>(out, n, first, v);
    if (redo != 0) {
      for (int l = 0; l < per; ++l) {
        const i64 i = first + l;
        if (((redo >> l) & 1u) == 0 || i >= n) continue;
        const random_params e = random_at<ARRAYS>(p, i, n);
        const u64 r = random_bounded_resample<WORDS>(p.key, static_cast<u64>(i), e.range);
        out[i] = cast<T>(static_cast<i64>(static_cast<u64>(e.low) + r));
      }
    }
    return;
  } else if constexpr (DIST == rd_normal || DIST == rd_lognormal) {
    // float32: one lane each (Note [Single-precision normals]); float64: Box-Muller
    // pairs, elements 2j and 2j+1 the cosine and sine of lanes 2j and 2j+1.
    F z[per];
    if constexpr (is_same<F, f32>::value) {
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
      for (int l = 0; l < per; ++l) z[l] = random_normal_f32(blk.v[l]);
    } else {
      static_assert(per % 2 == 0, "float64 normals come in pairs");
      for (int j = 0; j < per; j += 2)
        random_normal_pair(random_lane_open0(blk, j, F()), random_lane_unit(blk, j + 1, F()), &z[j], &z[j + 1]);
    }
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int l = 0; l < per; ++l) {
      const random_params e = random_at<ARRAYS>(p, first + l, n);
      F x = fm::add(static_cast<F>(e.a), fm::mul(static_cast<F>(e.b), z[l]));
      if constexpr (DIST == rd_lognormal) x = fm::exp(x);
      v[l] = cast<T>(x);
    }
  } else if constexpr (WORDS == 4) {
    philox_stream s = philox_element_stream(p.key, blk, static_cast<u64>(first), 0, 4);
    v[0] = random_stream_element<T, DIST>(s, random_at<ARRAYS>(p, first, n));
  } else {
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int l = 0; l < per; ++l)
      v[l] = random_lane_element<T, DIST, WORDS>(blk, l, random_at<ARRAYS>(p, first + l, n));
  }
  random_store_group<T, per>(out, n, first, v);
}

}  // namespace ops
}  // namespace cunp

// src/reduce/gpu_scan_templates.hpp — the device templates of the generated scan kernels, the
// text gpu_scan_source.cpp puts after each program's preamble.
#pragma once

#include <string_view>

namespace cunp::reduce::templates {

// Note [Scan kernels]: every scan kernel is one of six templates below, instantiated
// by a short extern "C" entry per (op, NaN map, input storage dtype, accumulator
// dtype, kind). Values are read as S, converted as the reductions convert them
// (cunp_r::to_acc: float16 widens to float), NaN mapped for nancumsum/nancumprod, and
// combined with the src/ops functor of the ufunc (scan.hpp's scan_op_functor) in the
// compute type C; each output is stored as ops::cast<A>. No identity is needed: every
// prefix is combined only with values that exist (flags mark an empty prefix).
//
// A scan is a set of lines (Note [Scan layout]); each line may be cut into K chunks.
// With K > 1 a scan is three launches: *Reduce writes each chunk's total to a
// workspace ws[line][chunk], Spine turns each line's totals into exclusive prefixes
// (sequentially, in chunk order), *Scan rescans every chunk starting from its prefix.
// Results are deterministic (no atomics); float sums add in a blocked order, not
// NumPy's sequential one, and agree to rounding.
//  - Line kinds: thread o owns line o (grid.y: the chunk) and walks it in order.
//    Chosen when neighbouring lines are closer in memory than neighbouring elements
//    of a line (a scan along a slow axis: threads read adjacent addresses) or lines
//    are short.
//  - Block kinds: one block per (chunk, line); a chunk is walked in tiles of
//    256 x 8 elements: a coalesced load into shared memory (padded by one slot per
//    32 to avoid bank conflicts), each thread scans its 8 consecutive elements, the
//    block scans the 256 thread totals (warp shuffles, then the 8 warp totals), each
//    thread adds its prefix and the carry of the previous tiles, and a coalesced
//    store writes the tile. Chosen for long lines along the fast axis.
//  - Chained: one long line (the whole array) in one pass, each element read and
//    written once. Block b takes tile number b' from an atomic counter (the order
//    blocks start in), scans it in shared memory as BlockScan does (16 items per
//    thread for carried values of up to 4 bytes, else 8), publishes the tile's total
//    (status 1), and warp 0 walks back to the nearest lower tile with a published
//    inclusive prefix (status 2), waiting on tiles with nothing yet; the carry is that
//    prefix combined with the totals of the tiles after it in tile order, so
//    inc[i] = op(inc[i - 1], total[i]) bit for bit wherever the walk stopped: the
//    result is deterministic. The tile publishes op(carry, total) (status 2) and
//    every element is stored as op(carry, its in-tile prefix). Values are published
//    with a store, __threadfence, then the status word; read after the status word
//    (volatile), a __threadfence and __ldcg.
inline constexpr std::string_view kScan = R"cunp_src(
namespace cunp_s {

using I = long long;
using U = unsigned long long;
using P2 = cunp_k::strided_params<I, 64, 2>;
constexpr int kBlock = 256;
constexpr int kItems = 8;
constexpr int kTile = kBlock * kItems;
constexpr int kWarps = kBlock / 32;

// MAP: 0 as read, 1 NaN reads as 0, 2 NaN reads as 1.
template <typename Op, typename A, typename S, int MAP>
struct scanner {
  using C = decltype(cunp_r::to_acc<A>(S{}));
  static __device__ __forceinline__ C load(const char* p) {
    C x = cunp_r::to_acc<A>(*reinterpret_cast<const S*>(p));
    if constexpr (MAP != 0) {
      if (cunp_r::is_nan(x)) x = cunp::ops::cast<C>(MAP == 1 ? 0 : 1);
    }
    return x;
  }
  static __device__ __forceinline__ C op(C a, C b) { return (C)Op{}(a, b); }
  static __device__ __forceinline__ void store(char* p, C v) {
    *reinterpret_cast<A*>(p) = cunp::ops::cast<A>(v);
  }
};

// Warp shuffles of any trivially copyable value, 32 bits at a time.
template <typename C>
__device__ __forceinline__ C shfl_up(C v, int d) {
  if constexpr (sizeof(C) < 4) {
    return (C)__shfl_up_sync(0xffffffffu, (int)v, d);
  } else {
    C r = v;
    unsigned* w = reinterpret_cast<unsigned*>(&r);
#pragma unroll
    for (int k = 0; k < (int)(sizeof(C) / 4); ++k) w[k] = __shfl_up_sync(0xffffffffu, w[k], d);
    return r;
  }
}
template <typename C>
__device__ __forceinline__ C shfl_down(C v, int d) {
  if constexpr (sizeof(C) < 4) {
    return (C)__shfl_down_sync(0xffffffffu, (int)v, d);
  } else {
    C r = v;
    unsigned* w = reinterpret_cast<unsigned*>(&r);
#pragma unroll
    for (int k = 0; k < (int)(sizeof(C) / 4); ++k) w[k] = __shfl_down_sync(0xffffffffu, w[k], d);
    return r;
  }
}

__device__ __forceinline__ int pad(int e) { return e + (e >> 5); }

__device__ __forceinline__ I min_i(I a, I b) { return a < b ? a : b; }

// The exclusive prefix of each thread's value `v` over the block in thread order
// (`has` false for thread 0). Every thread of the block must call it.
template <typename R>
__device__ __forceinline__ void block_exclusive(typename R::C v, typename R::C* wsum, typename R::C& ex,
                                                bool& has) {
  using C = typename R::C;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  C x = v;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const C up = shfl_up(x, d);
    if (lane >= d) x = R::op(up, x);
  }
  const C lane_ex = shfl_up(x, 1);
  if (lane == 31) wsum[warp] = x;
  __syncthreads();
  has = false;
  C p = v;
  for (int w = 0; w < warp; ++w) {
    p = has ? R::op(p, wsum[w]) : wsum[w];
    has = true;
  }
  if (lane > 0) {
    p = has ? R::op(p, lane_ex) : lane_ex;
    has = true;
  }
  ex = p;
}

template <typename R>
__device__ void line_scan(char* __restrict__ out, const char* __restrict__ ws, const char* __restrict__ in,
                          const P2& po, I nlines, I n, I si, I so, I chunk) {
  using C = typename R::C;
  const I l = (I)blockIdx.x * kBlock + threadIdx.x;
  if (l >= nlines) return;
  const I k = blockIdx.y;
  const I c0 = k * chunk;
  if (c0 >= n) return;
  const I m = min_i(n, c0 + chunk) - c0;
  I off[2];
  cunp_k::element_offsets<false>(po, (U)l, off);
  const char* p = in + off[1] + c0 * si;
  char* q = out + off[0] + c0 * so;
  C acc = R::load(p);
  if (k > 0) acc = R::op(reinterpret_cast<const C*>(ws)[l * (I)gridDim.y + k], acc);
  R::store(q, acc);
  for (I i = 1; i < m; ++i) {
    acc = R::op(acc, R::load(p + i * si));
    R::store(q + i * so, acc);
  }
}

template <typename R>
__device__ void line_reduce(char* __restrict__ ws, const char* __restrict__ in, const P2& po, I nlines, I n,
                            I si, I chunk) {
  using C = typename R::C;
  const I l = (I)blockIdx.x * kBlock + threadIdx.x;
  if (l >= nlines) return;
  const I k = blockIdx.y;
  const I c0 = k * chunk;
  if (c0 >= n) return;
  const I m = min_i(n, c0 + chunk) - c0;
  I off[2];
  cunp_k::element_offsets<false>(po, (U)l, off);
  const char* p = in + off[1] + c0 * si;
  C acc = R::load(p);
  for (I i = 1; i < m; ++i) acc = R::op(acc, R::load(p + i * si));
  reinterpret_cast<C*>(ws)[l * (I)gridDim.y + k] = acc;
}

template <typename R>
__device__ void block_scan(char* __restrict__ out, const char* __restrict__ ws, const char* __restrict__ in,
                           const P2& po, I nlines, I n, I si, I so, I chunk) {
  using C = typename R::C;
  __shared__ alignas(16) unsigned char raw[(kTile + kTile / 32) * sizeof(C)];
  __shared__ alignas(16) unsigned char wraw[kWarps * sizeof(C)];
  C* sh = reinterpret_cast<C*>(raw);
  C* wsum = reinterpret_cast<C*>(wraw);
  const int t = threadIdx.x;
  const I k = blockIdx.x;
  const I c0 = k * chunk;
  if (c0 >= n) return;
  const I c1 = min_i(n, c0 + chunk);
  for (I l = blockIdx.y; l < nlines; l += gridDim.y) {
    I off[2];
    cunp_k::element_offsets<false>(po, (U)l, off);
    const char* p = in + off[1];
    char* q = out + off[0];
    bool has_carry = k > 0;
    C carry = has_carry ? reinterpret_cast<const C*>(ws)[l * (I)gridDim.x + k] : C{};
    for (I t0 = c0; t0 < c1; t0 += kTile) {
      const int m = (int)min_i((I)kTile, c1 - t0);
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const int e = j * kBlock + t;
        if (e < m) sh[pad(e)] = R::load(p + (t0 + e) * si);
      }
      __syncthreads();
      const int b = t * kItems;
      const int cnt = m - b < 0 ? 0 : (m - b < kItems ? m - b : kItems);
      C v = sh[pad(b)];
      for (int j = 1; j < cnt; ++j) {
        v = R::op(v, sh[pad(b + j)]);
        sh[pad(b + j)] = v;
      }
      C ex;
      bool has;
      block_exclusive<R>(v, wsum, ex, has);
      if (has_carry) {
        ex = has ? R::op(carry, ex) : carry;
        has = true;
      }
      if (has)
        for (int j = 0; j < cnt; ++j) sh[pad(b + j)] = R::op(ex, sh[pad(b + j)]);
      __syncthreads();
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const int e = j * kBlock + t;
        if (e < m) R::store(q + (t0 + e) * so, sh[pad(e)]);
      }
      carry = sh[pad(m - 1)];
      has_carry = true;
      __syncthreads();
    }
  }
}

template <typename R>
__device__ void block_reduce(char* __restrict__ ws, const char* __restrict__ in, const P2& po, I nlines, I n,
                             I si, I chunk) {
  using C = typename R::C;
  __shared__ alignas(16) unsigned char wraw[kWarps * sizeof(C)];
  __shared__ int wok[kWarps];
  C* wsum = reinterpret_cast<C*>(wraw);
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const I k = blockIdx.x;
  const I c0 = k * chunk;
  if (c0 >= n) return;
  const I c1 = min_i(n, c0 + chunk);
  for (I l = blockIdx.y; l < nlines; l += gridDim.y) {
    I off[2];
    cunp_k::element_offsets<false>(po, (U)l, off);
    const char* p = in + off[1];
    C v{};
    bool ok = false;
    I e = c0 + t;
    for (; e + 3 * (I)kBlock < c1; e += 4 * (I)kBlock) {
      const C x0 = R::load(p + e * si);
      const C x1 = R::load(p + (e + kBlock) * si);
      const C x2 = R::load(p + (e + 2 * (I)kBlock) * si);
      const C x3 = R::load(p + (e + 3 * (I)kBlock) * si);
      const C x = R::op(R::op(x0, x1), R::op(x2, x3));
      v = ok ? R::op(v, x) : x;
      ok = true;
    }
    for (; e < c1; e += kBlock) {
      const C x = R::load(p + e * si);
      v = ok ? R::op(v, x) : x;
      ok = true;
    }
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) {
      const C o = shfl_down(v, d);
      const bool ook = __shfl_down_sync(0xffffffffu, (int)ok, d) != 0;
      if (lane + d < 32 && ook) {
        v = ok ? R::op(v, o) : o;
        ok = true;
      }
    }
    if (lane == 0) {
      wsum[warp] = v;
      wok[warp] = ok;
    }
    __syncthreads();
    if (t == 0) {
      C s = wsum[0];
      for (int w = 1; w < kWarps; ++w)
        if (wok[w]) s = R::op(s, wsum[w]);
      reinterpret_cast<C*>(ws)[l * (I)gridDim.x + k] = s;
    }
    __syncthreads();
  }
}

template <typename R>
__device__ void spine(char* ws, I nlines, int nchunks) {
  using C = typename R::C;
  const I l = (I)blockIdx.x * kBlock + threadIdx.x;
  if (l >= nlines) return;
  C* w = reinterpret_cast<C*>(ws) + l * nchunks;
  C run = w[0];
  for (int k = 1; k < nchunks; ++k) {
    const C x = w[k];
    w[k] = run;
    run = R::op(run, x);
  }
}

template <typename C>
__device__ __forceinline__ C shfl_idx(C v, int src) {
  if constexpr (sizeof(C) < 4) {
    return (C)__shfl_sync(0xffffffffu, (int)v, src);
  } else {
    C r = v;
    unsigned* w = reinterpret_cast<unsigned*>(&r);
#pragma unroll
    for (int k = 0; k < (int)(sizeof(C) / 4); ++k) w[k] = __shfl_sync(0xffffffffu, w[k], src);
    return r;
  }
}

// A value another block published: read from L2 (not a stale L1 line).
template <typename C>
__device__ __forceinline__ C load_published(const C* p) {
  if constexpr (sizeof(C) % 4 == 0) {
    C r;
    unsigned* w = reinterpret_cast<unsigned*>(&r);
    const unsigned* s = reinterpret_cast<const unsigned*>(p);
#pragma unroll
    for (int k = 0; k < (int)(sizeof(C) / 4); ++k) w[k] = __ldcg(s + k);
    return r;
  } else {
    return *reinterpret_cast<const volatile C*>(p);
  }
}

// Single-pass scan of one line (Note [Scan kernels], Chained). ws: a tile counter
// (8 bytes, then 8 spare), int status[ntiles] (0 nothing yet, 1 aggregate, 2
// inclusive prefix) rounded up to 16 bytes, then C agg[ntiles], C inc[ntiles]; the
// counter and the status words are zero at launch.
template <typename R>
__device__ void chained_scan(char* __restrict__ out, char* ws, const char* __restrict__ in, I n, I si, I so,
                             I ntiles) {
  using C = typename R::C;
  constexpr int ITEMS = sizeof(C) <= 4 ? 16 : 8;
  constexpr int TILE = kBlock * ITEMS;
  __shared__ alignas(16) unsigned char raw[(TILE + TILE / 32) * sizeof(C)];
  __shared__ alignas(16) unsigned char wraw[kWarps * sizeof(C)];
  __shared__ alignas(16) unsigned char craw[sizeof(C)];
  __shared__ I tile_sh;
  C* sh = reinterpret_cast<C*>(raw);
  C* wsum = reinterpret_cast<C*>(wraw);
  C* carry_sh = reinterpret_cast<C*>(craw);
  const int t = threadIdx.x, lane = t & 31;
  unsigned long long* counter = reinterpret_cast<unsigned long long*>(ws);
  int* status = reinterpret_cast<int*>(ws + 16);
  C* agg = reinterpret_cast<C*>(ws + 16 + ((ntiles * 4 + 15) / 16) * 16);
  C* inc = agg + ntiles;
  // Tiles are numbered in the order blocks start, so every lower tile belongs to a
  // block that is running or done: the waits below always end.
  if (t == 0) tile_sh = (I)atomicAdd(counter, 1ull);
  __syncthreads();
  const I tile = tile_sh;
  const I t0 = tile * TILE;
  const int m = (int)min_i((I)TILE, n - t0);
  const char* p = in + t0 * si;
  char* q = out + t0 * so;
  if (m == TILE) {
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const int e = j * kBlock + t;
      sh[pad(e)] = R::load(p + e * si);
    }
  } else {
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const int e = j * kBlock + t;
      if (e < m) sh[pad(e)] = R::load(p + e * si);
    }
  }
  __syncthreads();
  // The tile's own inclusive scan (threads past m hold garbage that only reaches
  // later threads past m).
  const int b = t * ITEMS;
  const int cnt = m - b < 0 ? 0 : (m - b < ITEMS ? m - b : ITEMS);
  C v = sh[pad(b)];
  for (int j = 1; j < cnt; ++j) {
    v = R::op(v, sh[pad(b + j)]);
    sh[pad(b + j)] = v;
  }
  C ex;
  bool has;
  block_exclusive<R>(v, wsum, ex, has);
  if (has)
    for (int j = 0; j < cnt; ++j) sh[pad(b + j)] = R::op(ex, sh[pad(b + j)]);
  __syncthreads();
  if (t < 32) {
    // Warp 0 publishes the tile's total and finds its carry: the inclusive prefix of
    // the nearest lower tile that has one, then the aggregates of the tiles after it,
    // combined in tile order. Every tile's inclusive prefix is thereby
    // inc[i] = op(inc[i - 1], agg[i]) exactly, however far back the walk went.
    const C total = sh[pad(m - 1)];
    C carry = total;
    if (tile == 0) {
      if (lane == 0) {
        inc[0] = total;
        __threadfence();
        *reinterpret_cast<volatile int*>(status) = 2;
      }
    } else {
      if (lane == 0) {
        agg[tile] = total;
        __threadfence();
        *reinterpret_cast<volatile int*>(status + tile) = 1;
      }
      I base = tile - 1;
      I j = 0;
      while (true) {
        const I k = base - lane;
        const int s = k >= 0 ? *reinterpret_cast<volatile const int*>(status + k) : 1;
        if (__any_sync(0xffffffffu, s == 0)) continue;
        const unsigned found = __ballot_sync(0xffffffffu, s == 2);
        if (found != 0) {
          j = base - (__ffs(found) - 1);
          break;
        }
        base -= 32;
      }
      __threadfence();
      carry = load_published(inc + j);
      for (I k0 = j + 1; k0 < tile; k0 += 32) {
        const I k = k0 + lane;
        const C x = k < tile ? load_published(agg + k) : carry;
        const int nk = (int)min_i((I)32, tile - k0);
        for (int u = 0; u < nk; ++u) carry = R::op(carry, shfl_idx(x, u));
      }
      if (lane == 0) {
        inc[tile] = R::op(carry, total);
        __threadfence();
        *reinterpret_cast<volatile int*>(status + tile) = 2;
        *carry_sh = carry;
      }
    }
  }
  __syncthreads();
  if (tile == 0) {
#pragma unroll
    for (int jj = 0; jj < ITEMS; ++jj) {
      const int e = jj * kBlock + t;
      if (e < m) R::store(q + e * so, sh[pad(e)]);
    }
  } else {
    const C carry = *carry_sh;
#pragma unroll
    for (int jj = 0; jj < ITEMS; ++jj) {
      const int e = jj * kBlock + t;
      if (e < m) R::store(q + e * so, R::op(carry, sh[pad(e)]));
    }
  }
}

}  // namespace cunp_s
)cunp_src";

}  // namespace cunp::reduce::templates

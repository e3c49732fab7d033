// src/signal/signal_kernels.cuh — the CUDA kernels of the signal family as templates:
// the blocked IIR scan (Note [Blocked IIR scan] in iir_ops.h), one thread per lane, the
// FIR filter and the direct correlation. Embedded as text for NVRTC (device code only;
// the host never compiles it); signal_source.cpp instantiates each template behind an
// extern "C" entry per dtype. Needs "complex.h" and "iir_ops.h" first.
#pragma once

// A kernel's dynamic shared memory, 16-byte aligned (the host emulation in
// tests/cpp/signal defines it to its own buffer).
#ifndef CUNP_SIG_DYNAMIC_SHARED
#define CUNP_SIG_DYNAMIC_SHARED(name) extern __shared__ __align__(16) unsigned char name[]
#endif

namespace cunp {
namespace signal_dev {

using signal_ops::Corr2dParams;
using signal_ops::CorrParams;
using signal_ops::FirParams;
using signal_ops::i64;
using signal_ops::IirParams;
using signal_ops::ScanParams;

// The coefficients a block keeps in shared memory: b and a of order DMAX, or DMAX / 2
// sections.
template <int DMAX, bool SOS>
struct coef_capacity {
  static constexpr int value = SOS ? 6 * (DMAX / 2) : 2 * (DMAX + 1);
};

template <bool SOS>
__device__ __forceinline__ int coef_count(int order) {
  return SOS ? 6 * order : 2 * (order + 1);
}

// Every thread of the block calls it.
template <typename T>
__device__ __forceinline__ void stage(T* dst, const T* src, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];
  __syncthreads();
}

// acc[r] += sum_k m[r * d + k] v[k] for r < d <= DMAX, acc a register array.
template <int DMAX, typename T>
__device__ __forceinline__ void carry_into(T (&acc)[DMAX + 1], const T* m, int d, const T* v) {
  CUNP_SIG_UNROLL
  for (int r = 0; r < DMAX; ++r) {
    if (r >= d) break;
    T s = acc[r];
    for (int k = 0; k < d; ++k) s = s + m[r * d + k] * v[k];
    acc[r] = s;
  }
}

template <int DMAX, typename T>
__device__ __forceinline__ void clear(T (&z)[DMAX + 1]) {
  CUNP_SIG_UNROLL
  for (int i = 0; i <= DMAX; ++i) z[i] = T{};
}

template <int DMAX, typename T>
__device__ __forceinline__ void load_state(T (&z)[DMAX + 1], const T* src, int d) {
  CUNP_SIG_UNROLL
  for (int i = 0; i < DMAX; ++i)
    if (i < d) z[i] = src[i];
}

template <int DMAX, typename T>
__device__ __forceinline__ void store_state(T* dst, const T (&z)[DMAX + 1], int d) {
  CUNP_SIG_UNROLL
  for (int i = 0; i < DMAX; ++i)
    if (i < d) dst[i] = z[i];
}

// The Kogge-Stone scan of a block's states (Note [Blocked IIR scan]): z holds this
// thread's state, st the block's (BLOCK x DMAX); step j adds pow[2^j] times the state
// 2^j places back. On return z is this state assuming a zero state at the block start.
template <int DMAX, typename T, int BLOCK>
__device__ __forceinline__ void block_scan(T (&z)[DMAX + 1], T* st, const T* pow, int d) {
  const int tid = threadIdx.x;
  T* mine = st + tid * DMAX;
  store_state<DMAX>(mine, z, d);
  __syncthreads();
  for (int off = 1; off < BLOCK; off <<= 1) {
    const bool act = tid >= off;
    if (act) carry_into<DMAX>(z, pow + static_cast<i64>(off) * d * d, d, st + (tid - off) * DMAX);
    __syncthreads();
    if (act) store_state<DMAX>(mine, z, d);
    __syncthreads();
  }
}

// Pass 1: each chunk's end state from a zero state (the lane's first chunk from zi), then
// the block scan; writes the within-block states and each block's last one.
template <int DMAX, bool SOS, typename T, int BLOCK>
__device__ void iir_chunks(const IirParams& p) {
  __shared__ T coef[coef_capacity<DMAX, SOS>::value];
  __shared__ T st[BLOCK * DMAX];
  const int d = p.dim;
  const i64 lane = blockIdx.x / p.nblocks;
  const i64 blk = blockIdx.x % p.nblocks;
  stage(coef, static_cast<const T*>(p.coef), coef_count<SOS>(p.order));
  const i64 c = blk * BLOCK + threadIdx.x;
  const i64 t0 = c * p.chunk;
  T z[DMAX + 1];
  clear<DMAX>(z);
  if (c == 0 && p.zi) load_state<DMAX>(z, static_cast<const T*>(p.zi) + lane * d, d);
  if (t0 < p.n) {
    const i64 len = p.chunk < p.n - t0 ? p.chunk : p.n - t0;
    const T* x = static_cast<const T*>(p.x) + lane * p.x_lane + t0 * p.x_time;
    signal_ops::iir_run<DMAX, SOS, T>(coef, p.order, z, x, p.x_time, static_cast<T*>(nullptr), 0,
                                      len);
  }
  block_scan<DMAX, T, BLOCK>(z, st, static_cast<const T*>(p.pow), d);
  store_state<DMAX>(static_cast<T*>(p.states) + (lane * p.nblocks * BLOCK + c) * d, z, d);
  if (threadIdx.x == BLOCK - 1)
    store_state<DMAX>(static_cast<T*>(p.carries) + (lane * p.nblocks + blk) * d, z, d);
}

// A higher level of the scan: the carries of the level below, BLOCK per block, scanned
// in place with that level's matrix powers; each block's last state goes up a level.
template <int DMAX, typename T, int BLOCK>
__device__ void scan_states(const ScanParams& p) {
  __shared__ T st[BLOCK * DMAX];
  const int d = p.dim;
  const i64 lane = blockIdx.x / p.nblocks;
  const i64 blk = blockIdx.x % p.nblocks;
  const i64 i = blk * BLOCK + threadIdx.x;
  T* s = static_cast<T*>(p.states) + (lane * p.m + i) * d;
  T z[DMAX + 1];
  clear<DMAX>(z);
  if (i < p.m) load_state<DMAX>(z, s, d);
  block_scan<DMAX, T, BLOCK>(z, st, static_cast<const T*>(p.pow), d);
  if (i < p.m) store_state<DMAX>(s, z, d);
  if (threadIdx.x == BLOCK - 1)
    store_state<DMAX>(static_cast<T*>(p.carries) + (lane * p.nblocks + blk) * d, z, d);
}

// Back down a level: states[i] += pow[i % BLOCK + 1] carries[i / BLOCK - 1], the
// carries now being true end states of the blocks.
template <int DMAX, typename T, int BLOCK>
__device__ void fix_states(const ScanParams& p) {
  const int d = p.dim;
  const i64 lane = blockIdx.x / p.nblocks;
  const i64 blk = blockIdx.x % p.nblocks;
  const i64 i = blk * BLOCK + threadIdx.x;
  if (blk == 0 || i >= p.m) return;
  T* s = static_cast<T*>(p.states) + (lane * p.m + i) * d;
  T z[DMAX + 1];
  clear<DMAX>(z);
  load_state<DMAX>(z, s, d);
  carry_into<DMAX>(z, static_cast<const T*>(p.pow) + static_cast<i64>(threadIdx.x + 1) * d * d, d,
                   static_cast<const T*>(p.carries) + (lane * p.nblocks + blk - 1) * d);
  store_state<DMAX>(s, z, d);
}

// Pass 3: each chunk from its true start state, writing y (and zf at the lane's end).
template <int DMAX, bool SOS, typename T, int BLOCK>
__device__ void iir_final(const IirParams& p) {
  __shared__ T coef[coef_capacity<DMAX, SOS>::value];
  const int d = p.dim;
  const i64 lane = blockIdx.x / p.nblocks;
  const i64 blk = blockIdx.x % p.nblocks;
  stage(coef, static_cast<const T*>(p.coef), coef_count<SOS>(p.order));
  const i64 c = blk * BLOCK + threadIdx.x;
  const i64 t0 = c * p.chunk;
  if (t0 >= p.n) return;
  T z[DMAX + 1];
  clear<DMAX>(z);
  if (c == 0) {
    if (p.zi) load_state<DMAX>(z, static_cast<const T*>(p.zi) + lane * d, d);
  } else {
    const i64 prev = c - 1;
    load_state<DMAX>(z, static_cast<const T*>(p.states) + (lane * p.nblocks * BLOCK + prev) * d, d);
    const i64 b = prev / BLOCK;
    const i64 k = prev - b * BLOCK;
    if (b > 0)
      carry_into<DMAX>(z, static_cast<const T*>(p.pow) + (k + 1) * d * d, d,
                       static_cast<const T*>(p.carries) + (lane * p.nblocks + b - 1) * d);
  }
  const i64 len = p.chunk < p.n - t0 ? p.chunk : p.n - t0;
  const T* x = static_cast<const T*>(p.x) + lane * p.x_lane + t0 * p.x_time;
  T* y = static_cast<T*>(p.y) + lane * p.y_lane + t0 * p.y_time;
  signal_ops::iir_run<DMAX, SOS, T>(coef, p.order, z, x, p.x_time, y, p.y_time, len);
  if (t0 + len == p.n && p.zf) store_state<DMAX>(static_cast<T*>(p.zf) + lane * d, z, d);
}

// Many lanes: one thread filters a whole lane, the state in registers.
template <int DMAX, bool SOS, typename T>
__device__ void iir_lanes(const IirParams& p) {
  __shared__ T coef[coef_capacity<DMAX, SOS>::value];
  stage(coef, static_cast<const T*>(p.coef), coef_count<SOS>(p.order));
  const int d = p.dim;
  for (i64 lane = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; lane < p.lanes;
       lane += static_cast<i64>(gridDim.x) * blockDim.x) {
    T z[DMAX + 1];
    clear<DMAX>(z);
    if (p.zi) load_state<DMAX>(z, static_cast<const T*>(p.zi) + lane * d, d);
    signal_ops::iir_run<DMAX, SOS, T>(coef, p.order, z,
                                      static_cast<const T*>(p.x) + lane * p.x_lane, p.x_time,
                                      static_cast<T*>(p.y) + lane * p.y_lane, p.y_time, p.n);
    if (p.zf) store_state<DMAX>(static_cast<T*>(p.zf) + lane * d, z, d);
  }
}

// Filters of a state too large for registers: one thread per lane, the state in the
// `states` scratch ((lanes, dim + 1)), the coefficients read from global memory.
template <bool SOS, typename T>
__device__ void iir_lanes_global(const IirParams& p) {
  const int d = p.dim;
  const T* coef = static_cast<const T*>(p.coef);
  for (i64 lane = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; lane < p.lanes;
       lane += static_cast<i64>(gridDim.x) * blockDim.x) {
    T* z = static_cast<T*>(p.states) + lane * (d + 1);
    const T* zi = p.zi ? static_cast<const T*>(p.zi) + lane * d : nullptr;
    for (int i = 0; i < d; ++i) z[i] = zi ? zi[i] : T{};
    z[d] = T{};
    signal_ops::iir_run<signal_ops::kDynamic, SOS, T>(
        coef, p.order, z, static_cast<const T*>(p.x) + lane * p.x_lane, p.x_time,
        static_cast<T*>(p.y) + lane * p.y_lane, p.y_time, p.n);
    if (p.zf)
      for (int i = 0; i < d; ++i) static_cast<T*>(p.zf)[lane * d + i] = z[i];
  }
}

// lfilter with a == [1]: one thread per output sample.
template <typename T>
__device__ void fir(const FirParams& p) {
  const i64 total = p.n * p.lanes;
  const T* b = static_cast<const T*>(p.b);
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 lane = i / p.n;
    const i64 t = i - lane * p.n;
    const T* zi = p.zi ? static_cast<const T*>(p.zi) + lane * p.p : nullptr;
    static_cast<T*>(p.y)[lane * p.y_lane + t * p.y_time] = signal_ops::fir_sample(
        b, p.nb, static_cast<const T*>(p.x) + lane * p.x_lane, p.x_time, t, zi, p.p);
  }
}

// The FIR final state: one thread per (lane, state).
template <typename T>
__device__ void fir_state(const FirParams& p) {
  const i64 total = static_cast<i64>(p.p) * p.lanes;
  const T* b = static_cast<const T*>(p.b);
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 lane = i / p.p;
    const int s = static_cast<int>(i - lane * p.p);
    const T* zi = p.zi ? static_cast<const T*>(p.zi) + lane * p.p : nullptr;
    static_cast<T*>(p.zf)[i] = signal_ops::fir_state(
        b, p.nb, static_cast<const T*>(p.x) + lane * p.x_lane, p.x_time, p.n, zi, p.p, s);
  }
}

// Direct 'valid' correlation: one thread per output element, taps in offset order
// (staged in shared memory when they fit: the offsets, then the taps 16 bytes aligned,
// correlate_staged_bytes of dynamic shared memory).
template <typename T>
__device__ void correlate(const CorrParams& p) {
  CUNP_SIG_DYNAMIC_SHARED(corr_smem);
  const T* in = static_cast<const T*>(p.in);
  const T* w = static_cast<const T*>(p.w);
  const i64* off = p.off;
  if (p.staged) {
    i64* os = reinterpret_cast<i64*>(corr_smem);
    T* ws = reinterpret_cast<T*>(corr_smem + signal_ops::correlate_offsets_bytes(p.taps));
    for (i64 j = threadIdx.x; j < p.taps; j += blockDim.x) {
      ws[j] = w[j];
      os[j] = off[j];
    }
    __syncthreads();
    w = ws;
    off = os;
  }
  T* out = static_cast<T*>(p.out);
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < p.nout;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    i64 rem = i;
    i64 base = 0;
    for (int k = p.ndim - 1; k >= 0; --k) {
      const i64 q = rem / p.shape[k];
      base += (rem - q * p.shape[k]) * p.stride[k];
      rem = q;
    }
    T acc = T{};
    for (i64 j = 0; j < p.taps; ++j) acc = acc + in[base + off[j]] * w[j];
    out[i] = acc;
  }
}

// 2-d correlation by shared-memory tiles (Note [Tiled 2-d correlation]); dynamic shared
// memory: the taps, then the (kCorrTileY * kCorrRows + kh - 1) x (kCorrTileX + kw - 1)
// input tile.
template <typename T>
__device__ void correlate2d(const Corr2dParams& p) {
  using signal_ops::kCorrRows;
  using signal_ops::kCorrTileX;
  using signal_ops::kCorrTileY;
  CUNP_SIG_DYNAMIC_SHARED(corr_smem);
  const int kh = p.kh, kw = p.kw;
  const int taps = kh * kw;
  T* ws = reinterpret_cast<T*>(corr_smem);
  T* tile = ws + taps;
  const int tw = kCorrTileX + kw - 1;
  const int th = kCorrTileY * kCorrRows + kh - 1;
  const int tid = threadIdx.y * kCorrTileX + threadIdx.x;
  constexpr int kThreads = kCorrTileX * kCorrTileY;
  const T* w = static_cast<const T*>(p.w);
  for (int j = tid; j < taps; j += kThreads) ws[j] = w[j];
  T fill;
  memcpy(&fill, p.fill, sizeof(T));
  const i64 ox0 = static_cast<i64>(blockIdx.x) * kCorrTileX;
  const i64 oy0 = static_cast<i64>(blockIdx.y) * (kCorrTileY * kCorrRows);
  const T* in = static_cast<const T*>(p.in);
  for (int idx = tid; idx < tw * th; idx += kThreads) {
    const int r = idx / tw;
    const int c = idx - r * tw;
    const i64 iy = oy0 + r - p.ph;
    const i64 ix = ox0 + c - p.pw;
    tile[idx] = (iy >= 0 && iy < p.ih && ix >= 0 && ix < p.iw) ? in[iy * p.is0 + ix * p.is1] : fill;
  }
  __syncthreads();
  const i64 ox = ox0 + threadIdx.x;
  if (ox >= p.ow) return;
  T acc[kCorrRows];
  CUNP_SIG_UNROLL
  for (int q = 0; q < kCorrRows; ++q) acc[q] = T{};
  const int row0 = threadIdx.y * kCorrRows;
  for (int r = 0; r < kh; ++r)
    for (int c = 0; c < kw; ++c) {
      const T wv = ws[r * kw + c];
      const T* t = tile + (row0 + r) * tw + threadIdx.x + c;
      CUNP_SIG_UNROLL
      for (int q = 0; q < kCorrRows; ++q) acc[q] = acc[q] + t[q * tw] * wv;
    }
  T* out = static_cast<T*>(p.out);
  CUNP_SIG_UNROLL
  for (int q = 0; q < kCorrRows; ++q) {
    const i64 oy = oy0 + row0 + q;
    if (oy < p.oh) out[oy * p.ow + ox] = acc[q];
  }
}

}  // namespace signal_dev
}  // namespace cunp

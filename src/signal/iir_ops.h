// src/signal/iir_ops.h — the per-sample arithmetic of scipy.signal's linear filters
// (lfilter's direct form II transposed, sosfilt's cascade of second-order sections),
// the kernel parameter blocks, and the small vector pieces of the blocked scan, written
// once for the CPU loops (filter_cpu.cpp) and the generated kernels
// (signal_kernels.cuh). Embedded as text for NVRTC like the src/ops headers, so: no
// standard headers, nothing host-only. Include "complex.h" (src/ops) first.
#pragma once

namespace cunp {
namespace signal_ops {

using i64 = long long;

// Unrolls the DMAX-bounded loops on the device (their indexes become static, so the
// state arrays stay in registers); nothing on the host.
#ifdef __CUDA_ARCH__
#define CUNP_SIG_UNROLL _Pragma("unroll")
#else
#define CUNP_SIG_UNROLL
#endif

// A loop bound that never binds: the CPU loops run the DMAX-templated steps with a
// run-time order (no register arrays on the host).
constexpr int kDynamic = 1 << 30;

// Note [Filter state]: both filters keep scipy's state vector z of D values per lane:
// lfilter the p delays of direct form II transposed (D = p = max(len(a), len(b)) - 1),
// sosfilt the two delays of each section, section-major (D = 2 * sections), which is
// the layout of scipy's zi/zf with the filter axis moved last. The state arrays have
// one slot more than D, z[D] == 0, so the update loops read z[i + 1] unguarded (on the
// device, with a compile-time DMAX, every index is static and z stays in registers).

// One sample of lfilter (scipy's _linear_filter): coef = b[0..p] then a[0..p], both
// normalized by a[0] and zero-padded to p + 1; p >= 1.
//   y = b0 x + z0;  z_i = z_{i+1} + b_{i+1} x - a_{i+1} y  (z_p = 0)
template <int DMAX, typename T>
CUNP_HD T df2t_step(const T* coef, int p, T* z, T x) {
  const T* b = coef;
  const T* a = coef + (p + 1);
  const T y = z[0] + b[0] * x;
  if constexpr (DMAX == kDynamic) {
    for (int i = 0; i < p; ++i) z[i] = z[i + 1] + x * b[i + 1] - y * a[i + 1];
  } else {
    CUNP_SIG_UNROLL
    for (int i = 0; i < DMAX; ++i) {
      if (i >= p) break;
      z[i] = z[i + 1] + x * b[i + 1] - y * a[i + 1];
    }
  }
  return y;
}

// One sample through `sections` second-order sections (scipy's _sosfilt): coef is the
// (sections, 6) sos array with a0 == 1; z holds (z0, z1) per section.
template <typename T>
CUNP_HD T sos_section(const T* c, T* z, T x) {
  const T y = c[0] * x + z[0];
  z[0] = c[1] * x - c[4] * y + z[1];
  z[1] = c[2] * x - c[5] * y;
  return y;
}
template <int DMAX, typename T>
CUNP_HD T sos_step(const T* coef, int sections, T* z, T x) {
  if constexpr (DMAX == kDynamic) {
    for (int s = 0; s < sections; ++s) x = sos_section(coef + 6 * s, z + 2 * s, x);
  } else {
    CUNP_SIG_UNROLL
    for (int s = 0; s < DMAX / 2; ++s) {
      if (s >= sections) break;
      x = sos_section(coef + 6 * s, z + 2 * s, x);
    }
  }
  return x;
}

template <int DMAX, bool SOS, typename T>
CUNP_HD T iir_step(const T* coef, int order, T* z, T x) {
  if constexpr (SOS)
    return sos_step<DMAX>(coef, order, z, x);
  else
    return df2t_step<DMAX>(coef, order, z, x);
}

// Runs `len` samples of one lane from state z (updated in place). x/y strides are in
// elements; y may be null (the scan's first pass only wants the end state).
template <int DMAX, bool SOS, typename T>
CUNP_HD void iir_run(const T* coef, int order, T* z, const T* x, i64 xs, T* y, i64 ys, i64 len) {
  for (i64 t = 0; t < len; ++t) {
    const T v = iir_step<DMAX, SOS>(coef, order, z, x[t * xs]);
    if (y) y[t * ys] = v;
  }
}

// acc[r] += sum_k m[r * d + k] * v[k] for r < d: a state carried across chunks.
template <typename T>
CUNP_HD void matvec_add(const T* m, int d, const T* v, T* acc) {
  for (int r = 0; r < d; ++r) {
    T s = acc[r];
    for (int k = 0; k < d; ++k) s = s + m[r * d + k] * v[k];
    acc[r] = s;
  }
}

// Note [Blocked IIR scan]: on a CUDA device a lane of n samples is cut into chunks of
// `chunk` samples, one thread each, BLOCK chunks per thread block.
//  1. iir_chunks: each thread filters its chunk from a zero state (the lane's first chunk
//     from zi) and keeps the end state e_c. The true end states obey
//     S_c = e_c + A S_{c-1}, A the chunk's state-transition matrix (the filter run
//     `chunk` samples from each unit state with zero input; pow[k] = A^k, built on the
//     host). A Kogge-Stone scan over the block (step j adds A^(2^j) S_{c-2^j}) gives each
//     chunk's end state assuming a zero state at the block's start; the block's last one
//     is its carry.
//  2. The carries obey the same recurrence with the matrix A^BLOCK: scan_states scans
//     them BLOCK at a time the same way, level by level, until one block holds a lane's
//     carries; fix_states then adds, going back down, the true end state of the block
//     before (propagated through the right power): every carry becomes the true end state
//     of its block.
//  3. iir_final: chunk c starts from S_{c-1} = states[c-1] + A^(k+1) carries[b-1] (b, k:
//     the block of chunk c-1 and its place in it), filters its chunk writing y, and the
//     lane's last chunk writes zf.
// Every sample is filtered twice (2 x 2p multiply-adds) and every chunk pays D^2
// log2(BLOCK) in the scan. The matrices are exact algebra: the result differs from the
// sequential filter by rounding only.
struct IirParams {
  const void* x;
  void* y;
  const void* coef;  // df2t: b[0..p], a[0..p]; sos: (sections, 6)
  const void* zi;    // (lanes, dim) or null (zero initial state)
  void* zf;          // (lanes, dim) or null
  void* states;     // (lanes, nblocks * BLOCK, dim) chunk end states; LanesGlobal: (lanes, dim + 1)
  void* carries;    // (lanes, nblocks, dim) block carries
  const void* pow;  // (BLOCK + 1, dim, dim): A^k
  i64 n;            // samples per lane
  i64 lanes;
  i64 x_lane, x_time;  // element strides
  i64 y_lane, y_time;
  i64 chunk;    // samples per chunk
  i64 nblocks;  // thread blocks per lane (iir_chunks, iir_final)
  int order;    // p (df2t) or sections (sos)
  int dim;      // D
};

// One level of the carries' scan (scan_states, fix_states): m states per lane.
struct ScanParams {
  void* states;     // (lanes, m, dim)
  void* carries;    // (lanes, nblocks, dim): the level above
  const void* pow;  // (BLOCK + 1, dim, dim): this level's matrix powers
  i64 m;
  i64 lanes;
  i64 nblocks;  // ceil(m / BLOCK)
  int dim;
};

// lfilter with a == [1] (after normalization): y = b * x (the first n samples of the
// full convolution) plus zi on the first p samples; the final state from the last
// samples of x (and zi when n < p).
struct FirParams {
  const void* x;
  void* y;
  const void* b;   // nb taps, normalized
  const void* zi;  // (lanes, p) or null
  void* zf;        // (lanes, p) or null
  i64 n, lanes;
  i64 x_lane, x_time, y_lane, y_time;
  int nb;
  int p;
};

// The FIR output sample t of one lane.
template <typename T>
CUNP_HD T fir_sample(const T* b, int nb, const T* x, i64 xs, i64 t, const T* zi, int p) {
  T acc = (zi && t < p) ? zi[t] : T{};
  const i64 kmax = t < nb - 1 ? t : nb - 1;
  for (i64 k = 0; k <= kmax; ++k) acc = acc + b[k] * x[(t - k) * xs];
  return acc;
}

// The FIR final state i (< p) of one lane of n samples: zi[i + n] (when i + n < p)
// plus the taps b[i+1+j] still owed to the samples x[n-1-j].
template <typename T>
CUNP_HD T fir_state(const T* b, int nb, const T* x, i64 xs, i64 n, const T* zi, int p, int i) {
  T acc = (zi && i + n < p) ? zi[i + n] : T{};
  for (i64 j = 0; i + 1 + j < nb && j < n; ++j) acc = acc + b[i + 1 + j] * x[(n - 1 - j) * xs];
  return acc;
}

// Direct correlation in 'valid' mode over up to kMaxConvDims axes:
// out[i] = sum_j in[i + j] * w[j], the kernel's offsets into `in` precomputed.
constexpr int kMaxConvDims = 16;
struct CorrParams {
  const void* in;
  const void* w;   // taps, in the order of `off`
  const i64* off;  // element offset of each tap from an output's origin in `in`
  void* out;       // C-contiguous
  i64 nout;
  i64 taps;
  int ndim;
  int staged;                // taps and offsets copied to shared memory (they fit)
  i64 shape[kMaxConvDims];   // the output's shape
  i64 stride[kMaxConvDims];  // the input's element strides
};

// The staged correlation's shared memory: the tap offsets, then (16-byte aligned) the taps.
CUNP_HD i64 correlate_offsets_bytes(i64 taps) { return (taps * 8 + 15) / 16 * 16; }
CUNP_HD i64 correlate_staged_bytes(i64 taps, i64 item) {
  return correlate_offsets_bytes(taps) + taps * item;
}

// Note [Tiled 2-d correlation]: a block of kCorrTileX x kCorrTileY threads computes a
// kCorrTileX x (kCorrTileY * kCorrRows) tile of the output: it stages the taps and the
// input tile the outputs read (the tile plus the kernel's extent, out-of-bounds samples
// read as `fill`, which is how 'full'/'same' with a constant boundary need no padded
// copy), then each thread sums kCorrRows outputs of one column from shared memory, taps
// in C order as the N-d kernel does.
constexpr int kCorrTileX = 32;
constexpr int kCorrTileY = 8;
constexpr int kCorrRows = 4;
struct Corr2dParams {
  const void* in;
  const void* w;  // kh x kw, C-contiguous
  void* out;      // oh x ow, C-contiguous
  i64 ih, iw;     // the input's shape
  i64 is0, is1;   // and element strides
  i64 oh, ow;
  i64 ph, pw;  // padding before the input (the output's origin at -ph, -pw)
  int kh, kw;
  unsigned char fill[16];  // the fill value's bytes (the dtype's)
};

}  // namespace signal_ops
}  // namespace cunp

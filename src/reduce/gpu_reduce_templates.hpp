// src/reduce/gpu_reduce_templates.hpp — the device templates of the generated reduction kernels, the
// text gpu_reduce_source.cpp puts after each program's preamble.
#pragma once

#include <string_view>

namespace cunp::reduce::templates {

// Note [Reduce kernels]: every reduction kernel is one of nine templates of the
// preamble, instantiated by a short extern "C" entry per (op, input storage dtype,
// accumulator dtype, kind). A "reducer" R gives the state a thread carries and how
// values enter it:
//  - fold<Op, A, S, MAP>: state {C v; bool ok}, C the compute type of the accumulator
//    dtype A (float for float16). A value is read as S, converted with ops::cast<A>
//    (then float16 -> float), NaN mapped to 0 / 1 for nansum / nanprod, and combined
//    with the src/ops functor Op (ops::add, ops::maximum_f16, ...), exactly as
//    cpu_reduce does after its astype(acc). The result is stored as ops::cast<A>(v).
//  - argfold<IS_MAX, S>: state {C v; long long i; bool ok}; `better` is cpu_reduce's
//    rule (a NaN best is never replaced, a NaN replaces anything, else strictly
//    greater / less). Combining two partials keeps the better one and, when neither
//    is better (equal, or both NaN), the lower index: first occurrence and first NaN
//    win, whatever the order the partials meet in.
//  - sqdev<A, S> (var/std, Note [GPU variance] in reduce.cpp): state {A v; bool ok};
//    a value is |x - c|^2 with c the output's center, read once per output through
//    R::context(ctr, output byte offset) from a C-ordered array; fold and argfold
//    have an empty context.
// Each thread walks its elements in increasing index order; `ok` marks a state that
// has seen an element, so no identity value is needed (max/min have none). Partials
// are combined in shared memory (a tree over segments of G threads); multi-block
// reductions write partial states to a workspace and a second kernel combines them in
// a fixed order, so results are deterministic run to run (no atomics). Float sums add
// in a different order from NumPy's pairwise sum: they agree to rounding.
//
// Kinds (host choice in gpu_reduce.cpp, Note [Reduce launch]):
//  - Row: the reduced axes include the fastest-varying one. G threads (32..256, a power
//    of two) per output, 256 / G outputs per block and round, grid-stride over outputs;
//    the G threads read consecutive elements (coalesced), 4 loads in flight each.
//  - RowVector: Row over one contiguous reduced axis. Per row a scalar head up to
//    16-byte alignment (the row's own alignment), then 16-byte packs, lane k taking
//    packs k, k + G, ... with 4 in flight, then a scalar tail; G may be 8 or 16 for
//    short rows.
//  - Col: the reduced axes are slower than a kept one. Thread o owns output o and walks
//    its reduced elements in order; neighbouring threads read neighbouring addresses.
//    blockIdx.y takes one chunk of the reduced extent; with more than one chunk each
//    writes a partial state to ws[chunk][o] and ColFinish combines them.
//  - ColVector: Col with thread g owning outputs gV .. gV + V - 1 (adjacent along the
//    innermost kept axis, V = min(4, 16 / itemsize)): one V-element load per reduced
//    element, 8 reduced elements in flight, V states.
//  - FullVector / FullStrided: one output. Each block grid-strides over the elements
//    (FullVector: a scalar head until 16-byte alignment, packs of 16 / itemsize
//    elements, 4 packs in flight, a scalar tail), tree-reduces and writes one partial
//    state per block; FullFinish (one block) combines them into the output.
//  - FullSmall: one output, one block, no workspace: thread t reads t, t + 256, ...
//    and the block tree result is stored directly.
// Offsets of an output (outer layout: operand 0 the output, 1 the input) and of a
// reduced element (inner layout, C order of the reduced axes: argmin/argmax indices)
// come from cunp_k::element_offsets with the run-time ndim (a 1-d walk does no
// division). Parameter blocks are __grid_constant__; offsets are 64-bit.
inline constexpr std::string_view kReduce = R"cunp_src(
namespace cunp_r {

using I = long long;
using U = unsigned long long;
using P1 = cunp_k::strided_params<I, 64, 1>;
using P2 = cunp_k::strided_params<I, 64, 2>;
constexpr int kBlock = 256;

template <typename A, typename S>
__device__ __forceinline__ auto to_acc(S x) {
  if constexpr (cunp::ops::is_same<A, cunp::ops::half>::value)
    return cunp::ops::half_to_f32(cunp::ops::cast<cunp::ops::half>(x));
  else
    return cunp::ops::cast<A>(x);
}

template <typename C>
__device__ __forceinline__ bool is_nan(C x) {
  if constexpr (cunp::ops::kind_of<C>::value == 3) return cunp::ops::any_nan(x);
  else return cunp::ops::detail::isnan_any(x);
}

// MAP: 0 as read, 1 NaN reads as 0, 2 NaN reads as 1.
template <typename Op, typename A, typename S, int MAP>
struct fold {
  using C = decltype(to_acc<A>(S{}));
  struct state {
    C v;
    bool ok;
  };
  struct ctx {};
  static __device__ __forceinline__ ctx context(const char*, I) { return {}; }
  static __device__ __forceinline__ C load(const char* p, const ctx&) {
    C x = to_acc<A>(*reinterpret_cast<const S*>(p));
    if constexpr (MAP != 0) {
      if (is_nan(x)) x = cunp::ops::cast<C>(MAP == 1 ? 0 : 1);
    }
    return x;
  }
  static __device__ __forceinline__ void put(state& s, C x, I) {
    s.v = s.ok ? Op{}(s.v, x) : x;
    s.ok = true;
  }
  static __device__ __forceinline__ state combine(const state& a, const state& b) {
    if (!a.ok) return b;
    if (!b.ok) return a;
    state r;
    r.v = Op{}(a.v, b.v);
    r.ok = true;
    return r;
  }
  static __device__ __forceinline__ void store(char* out, const state& s) {
    *reinterpret_cast<A*>(out) = cunp::ops::cast<A>(s.v);
  }
};

template <bool IS_MAX, typename S>
struct argfold {
  using C = decltype(to_acc<S>(S{}));
  struct state {
    C v;
    I i;
    bool ok;
  };
  // x replaces best (cpu_reduce's rule).
  // For reals in two comparisons: a NaN best fails best == best; otherwise a NaN x
  // fails best >= x (and best <= x), so it replaces best.
  static __device__ __forceinline__ bool better(C best, C x) {
    if constexpr (cunp::ops::kind_of<C>::value == 3) {
      if (is_nan(best)) return false;
      if (is_nan(x)) return true;
      return IS_MAX ? !cunp::ops::detail::complex_ge(best, x) : !cunp::ops::detail::complex_le(best, x);
    } else {
      return best == best && (IS_MAX ? !(best >= x) : !(best <= x));
    }
  }
  struct ctx {};
  static __device__ __forceinline__ ctx context(const char*, I) { return {}; }
  static __device__ __forceinline__ C load(const char* p, const ctx&) {
    return to_acc<S>(*reinterpret_cast<const S*>(p));
  }
  static __device__ __forceinline__ void put(state& s, C x, I i) {
    if (!s.ok || better(s.v, x)) {
      s.v = x;
      s.i = i;
      s.ok = true;
    }
  }
  static __device__ __forceinline__ state combine(const state& a, const state& b) {
    if (!a.ok) return b;
    if (!b.ok) return a;
    if (better(a.v, b.v)) return b;
    if (better(b.v, a.v)) return a;
    return a.i <= b.i ? a : b;
  }
  static __device__ __forceinline__ void store(char* out, const state& s) { *reinterpret_cast<I*>(out) = s.i; }
};

template <bool B, typename X, typename Y>
struct pick {
  using type = X;
};
template <typename X, typename Y>
struct pick<false, X, Y> {
  using type = Y;
};

// The sum of |x - c|^2 with c a per-output center (var/std): x is read as S and
// converted to T (A, or complex<A> for complex S), the difference is taken in T and
// squared as NumPy's _var squares it (x * x, or re * re + im * im), and the squares
// are added in A. The center of the output at byte offset `off` of the (C-ordered)
// output is the T at the same element index of the C-ordered center array.
template <typename A, typename S>
struct sqdev {
  static constexpr bool CX = cunp::ops::kind_of<S>::value == 3;
  using T = typename pick<CX, cunp::ops::complex<A>, A>::type;
  using C = A;
  struct state {
    A v;
    bool ok;
  };
  using ctx = T;
  static __device__ __forceinline__ ctx context(const char* ctr, I off) {
    return reinterpret_cast<const T*>(ctr)[off / (I)sizeof(A)];
  }
  static __device__ __forceinline__ A load(const char* p, const ctx& c) {
    const T d = cunp::ops::cast<T>(*reinterpret_cast<const S*>(p)) - c;
    if constexpr (CX) return d.re * d.re + d.im * d.im;
    else return d * d;
  }
  static __device__ __forceinline__ void put(state& s, A x, I) {
    s.v = s.ok ? s.v + x : x;
    s.ok = true;
  }
  static __device__ __forceinline__ state combine(const state& a, const state& b) {
    if (!a.ok) return b;
    if (!b.ok) return a;
    state r;
    r.v = a.v + b.v;
    r.ok = true;
    return r;
  }
  static __device__ __forceinline__ void store(char* out, const state& s) {
    *reinterpret_cast<A*>(out) = s.ok ? s.v : A(0);
  }
};

template <typename R>
__device__ __forceinline__ typename R::state empty_state() {
  typename R::state s;
  s.ok = false;
  return s;
}

// Tree over segments of G threads (G a power of two dividing the block); every thread
// of the block must call it. Returns the segment's result (valid in every lane).
template <typename R>
__device__ typename R::state segment_reduce(typename R::state s, int G) {
  using state = typename R::state;
  __shared__ alignas(16) unsigned char raw[kBlock * sizeof(state)];
  state* sh = reinterpret_cast<state*>(raw);
  const int t = threadIdx.x;
  const int lane = t & (G - 1);
  sh[t] = s;
  __syncthreads();
  for (int h = G >> 1; h > 0; h >>= 1) {
    if (lane < h) sh[t] = R::combine(sh[t], sh[t + h]);
    __syncthreads();
  }
  const state r = sh[t - lane];
  __syncthreads();
  return r;
}

__device__ __forceinline__ I inner_offset(const P1& pi, I r) {
  if (pi.ndim <= 1) return r * pi.stride[0][0];
  I off[1];
  cunp_k::element_offsets<false>(pi, (U)r, off);
  return off[0];
}

template <typename R>
__device__ void row(char* out, const char* in, const char* ctr, const P2& po, const P1& pi, I nout, I nred,
                    int G) {
  using state = typename R::state;
  const int per = kBlock / G;
  const int lane = threadIdx.x & (G - 1);
  const int slot = threadIdx.x / G;
  for (I base = (I)blockIdx.x * per; base < nout; base += (I)gridDim.x * per) {
    const I o = base + slot;
    state s = empty_state<R>();
    I off[2] = {0, 0};
    if (o < nout) {
      cunp_k::element_offsets<false>(po, (U)o, off);
      const char* p = in + off[1];
      const auto cx = R::context(ctr, off[0]);
      I r = lane;
      for (; r + 3 * (I)G < nred; r += 4 * (I)G) {
        const auto x0 = R::load(p + inner_offset(pi, r), cx);
        const auto x1 = R::load(p + inner_offset(pi, r + G), cx);
        const auto x2 = R::load(p + inner_offset(pi, r + 2 * (I)G), cx);
        const auto x3 = R::load(p + inner_offset(pi, r + 3 * (I)G), cx);
        R::put(s, x0, r);
        R::put(s, x1, r + G);
        R::put(s, x2, r + 2 * (I)G);
        R::put(s, x3, r + 3 * (I)G);
      }
      for (; r < nred; r += G) R::put(s, R::load(p + inner_offset(pi, r), cx), r);
    }
    s = segment_reduce<R>(s, G);
    if (o < nout && lane == 0) R::store(out + off[0], s);
  }
}

// A contiguous reduced axis (stride sizeof(S)); each row's start is S-aligned. The G
// threads of a row take the scalar head up to 16-byte alignment, then packs of 16
// bytes (4 in flight per thread), then the scalar tail of fewer than P elements; each
// thread still meets its elements in increasing index order.
template <typename R, typename S>
__device__ void row_vector(char* out, const char* in, const char* ctr, const P2& po, I nout, I nred, int G) {
  using state = typename R::state;
  constexpr int P = 16 / sizeof(S) > 0 ? 16 / sizeof(S) : 1;
  constexpr I SZ = (I)sizeof(S);
  using pk = cunp_k::pack<S, P>;
  const int per = kBlock / G;
  const int lane = threadIdx.x & (G - 1);
  const int slot = threadIdx.x / G;
  for (I base = (I)blockIdx.x * per; base < nout; base += (I)gridDim.x * per) {
    const I o = base + slot;
    state s = empty_state<R>();
    I off[2] = {0, 0};
    if (o < nout) {
      cunp_k::element_offsets<false>(po, (U)o, off);
      const char* p = in + off[1];
      const auto cx = R::context(ctr, off[0]);
      I head = (I)((16 - ((U)p & 15)) & 15) / SZ;
      if (head > nred) head = nred;
      for (I t = lane; t < head; t += G) R::put(s, R::load(p + t * SZ, cx), t);
      const I npk = (nred - head) / P;
      const pk* xp = reinterpret_cast<const pk*>(p + head * SZ);
      I k = lane;
      for (; k + 3 * (I)G < npk; k += 4 * (I)G) {
        pk v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) v[u] = xp[k + u * (I)G];
#pragma unroll
        for (int u = 0; u < 4; ++u) {
          const I e = head + (k + u * (I)G) * P;
#pragma unroll
          for (int j = 0; j < P; ++j) R::put(s, R::load(reinterpret_cast<const char*>(&v[u].v[j]), cx), e + j);
        }
      }
      for (; k < npk; k += G) {
        const pk v = xp[k];
        const I e = head + k * P;
#pragma unroll
        for (int j = 0; j < P; ++j) R::put(s, R::load(reinterpret_cast<const char*>(&v.v[j]), cx), e + j);
      }
      for (I t = head + npk * P + lane; t < nred; t += G) R::put(s, R::load(p + t * SZ, cx), t);
    }
    s = segment_reduce<R>(s, G);
    if (o < nout && lane == 0) R::store(out + off[0], s);
  }
}

template <typename R>
__device__ void col(char* out, char* ws, const char* in, const char* ctr, const P2& po, const P1& pi, I nout,
                    I nred, I chunk) {
  using state = typename R::state;
  const I o = (I)blockIdx.x * kBlock + threadIdx.x;
  if (o >= nout) return;
  const I r0 = (I)blockIdx.y * chunk;
  const I r1 = r0 + chunk < nred ? r0 + chunk : nred;
  I off[2];
  cunp_k::element_offsets<false>(po, (U)o, off);
  const char* p = in + off[1];
  const auto cx = R::context(ctr, off[0]);
  state s = empty_state<R>();
  I r = r0;
  for (; r + 3 < r1; r += 4) {
    const auto x0 = R::load(p + inner_offset(pi, r), cx);
    const auto x1 = R::load(p + inner_offset(pi, r + 1), cx);
    const auto x2 = R::load(p + inner_offset(pi, r + 2), cx);
    const auto x3 = R::load(p + inner_offset(pi, r + 3), cx);
    R::put(s, x0, r);
    R::put(s, x1, r + 1);
    R::put(s, x2, r + 2);
    R::put(s, x3, r + 3);
  }
  for (; r < r1; ++r) R::put(s, R::load(p + inner_offset(pi, r), cx), r);
  if (gridDim.y == 1) R::store(out + off[0], s);
  else reinterpret_cast<state*>(ws)[(I)blockIdx.y * nout + o] = s;
}

// Col with thread g owning the V = min(4, 16 / sizeof(S)) adjacent outputs gV ..
// gV + V - 1 along the innermost kept axis (input stride sizeof(S), extent a multiple
// of V, every other stride and the base V * sizeof(S)-aligned): one V-element load per
// reduced element, 8 in flight. `ostride` is the output's byte stride along that axis.
template <typename R, typename S>
__device__ void col_vector(char* out, char* ws, const char* in, const char* ctr, const P2& po, const P1& pi,
                           I nout, I nred, I chunk, I ostride) {
  using state = typename R::state;
  constexpr int V = 16 / sizeof(S) >= 4 ? 4 : (16 / sizeof(S) > 0 ? 16 / sizeof(S) : 1);
  using pk = cunp_k::pack<S, V>;
  const I o0 = ((I)blockIdx.x * kBlock + threadIdx.x) * V;
  if (o0 >= nout) return;
  const I r0 = (I)blockIdx.y * chunk;
  const I r1 = r0 + chunk < nred ? r0 + chunk : nred;
  I off[2];
  cunp_k::element_offsets<false>(po, (U)o0, off);
  const char* p = in + off[1];
  state s[V];
  typename R::ctx cx[V];
#pragma unroll
  for (int q = 0; q < V; ++q) {
    s[q] = empty_state<R>();
    cx[q] = R::context(ctr, off[0] + q * ostride);
  }
  I r = r0;
  for (; r + 7 < r1; r += 8) {
    pk v[8];
#pragma unroll
    for (int u = 0; u < 8; ++u) v[u] = *reinterpret_cast<const pk*>(p + inner_offset(pi, r + u));
#pragma unroll
    for (int u = 0; u < 8; ++u)
#pragma unroll
      for (int q = 0; q < V; ++q) R::put(s[q], R::load(reinterpret_cast<const char*>(&v[u].v[q]), cx[q]), r + u);
  }
  for (; r < r1; ++r) {
    const pk v = *reinterpret_cast<const pk*>(p + inner_offset(pi, r));
#pragma unroll
    for (int q = 0; q < V; ++q) R::put(s[q], R::load(reinterpret_cast<const char*>(&v.v[q]), cx[q]), r);
  }
#pragma unroll
  for (int q = 0; q < V; ++q) {
    if (gridDim.y == 1) R::store(out + off[0] + q * ostride, s[q]);
    else reinterpret_cast<state*>(ws)[(I)blockIdx.y * nout + o0 + q] = s[q];
  }
}

template <typename R>
__device__ void col_finish(char* out, const char* ws, const P2& po, I nout, int splits) {
  using state = typename R::state;
  const I o = (I)blockIdx.x * kBlock + threadIdx.x;
  if (o >= nout) return;
  const state* w = reinterpret_cast<const state*>(ws);
  state s = w[o];
  for (int k = 1; k < splits; ++k) s = R::combine(s, w[(I)k * nout + o]);
  I off[2];
  cunp_k::element_offsets<false>(po, (U)o, off);
  R::store(out + off[0], s);
}

template <typename R>
__device__ __forceinline__ void write_partial(char* ws, typename R::state s) {
  s = segment_reduce<R>(s, kBlock);
  if (threadIdx.x == 0) reinterpret_cast<typename R::state*>(ws)[blockIdx.x] = s;
}

template <typename R, typename S>
__device__ void full_vector(char* ws, const char* in, const char* ctr, I n, I head) {
  constexpr int P = 16 / sizeof(S) > 0 ? 16 / sizeof(S) : 1;
  constexpr int UNROLL = 4;
  using pk = cunp_k::pack<S, P>;
  const I tid = (I)blockIdx.x * kBlock + threadIdx.x;
  const I nthreads = (I)gridDim.x * kBlock;
  const S* x = reinterpret_cast<const S*>(in);
  const auto cx = R::context(ctr, 0);
  typename R::state s = empty_state<R>();
  if (tid < head) R::put(s, R::load(in + tid * (I)sizeof(S), cx), tid);
  const I npacks = (n - head) / P;
  const pk* xp = reinterpret_cast<const pk*>(x + head);
  I k = tid;
  for (; k + (UNROLL - 1) * nthreads < npacks; k += UNROLL * nthreads) {
    pk v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = xp[k + u * nthreads];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const I e = head + (k + u * nthreads) * P;
#pragma unroll
      for (int j = 0; j < P; ++j) R::put(s, R::load(reinterpret_cast<const char*>(&v[u].v[j]), cx), e + j);
    }
  }
  for (; k < npacks; k += nthreads) {
    const pk v = xp[k];
    const I e = head + k * P;
#pragma unroll
    for (int j = 0; j < P; ++j) R::put(s, R::load(reinterpret_cast<const char*>(&v.v[j]), cx), e + j);
  }
  const I t = head + npacks * P + tid;
  if (t < n) R::put(s, R::load(in + t * (I)sizeof(S), cx), t);
  write_partial<R>(ws, s);
}

template <typename R>
__device__ void full_strided(char* ws, const char* in, const char* ctr, const P1& pi, I n) {
  const I nthreads = (I)gridDim.x * kBlock;
  const auto cx = R::context(ctr, 0);
  typename R::state s = empty_state<R>();
  for (I r = (I)blockIdx.x * kBlock + threadIdx.x; r < n; r += nthreads)
    R::put(s, R::load(in + inner_offset(pi, r), cx), r);
  write_partial<R>(ws, s);
}

template <typename R>
__device__ void full_finish(char* out, const char* ws, int nparts) {
  const auto* w = reinterpret_cast<const typename R::state*>(ws);
  typename R::state s = empty_state<R>();
  // Thread t combines partials t, t + 256, ... in order; the tree keeps lower
  // threads on the left.
  for (int k = threadIdx.x; k < nparts; k += kBlock) s = R::combine(s, w[k]);
  s = segment_reduce<R>(s, kBlock);
  if (threadIdx.x == 0) R::store(out, s);
}

// A small single-output reduction in one block: thread t reads elements t, t + 256,
// ... in order, the block tree combines them and thread 0 stores the result.
template <typename R>
__device__ void full_small(char* out, const char* in, const char* ctr, const P1& pi, I n) {
  const auto cx = R::context(ctr, 0);
  typename R::state s = empty_state<R>();
  for (I r = threadIdx.x; r < n; r += kBlock) R::put(s, R::load(in + inner_offset(pi, r), cx), r);
  s = segment_reduce<R>(s, kBlock);
  if (threadIdx.x == 0) R::store(out, s);
}

}  // namespace cunp_r
)cunp_src";

}  // namespace cunp::reduce::templates

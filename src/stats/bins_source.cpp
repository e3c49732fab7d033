// src/stats/bins_source.cpp — see bins_source.hpp.
#include "stats/bins_source.hpp"

#include <string>

#include "cuda/ops_types.hpp"
#include "cunp/error.hpp"
#include "stats/bin_ops.hpp"

namespace cunp::stats {
namespace {

#define CUNP_STATS_STR_(...) #__VA_ARGS__
#define CUNP_STATS_STR(...) CUNP_STATS_STR_(__VA_ARGS__)
// The body of bin_ops.hpp as text (Note [Bin arithmetic, one source]).
constexpr std::string_view kBinOps = CUNP_STATS_STR(CUNP_STATS_BIN_OPS_BODY);
#undef CUNP_STATS_STR
#undef CUNP_STATS_STR_

// Note [Histogram kernels]: every histogram-like kernel is one template,
// cunp_st::histogram<S, WEIGHTED, SHARED>(binner), over a contiguous input: a scalar
// head up to 16-byte alignment, then 16-byte packs (4 in flight per thread), then a
// scalar tail, grid-striding; the binner maps an element to its bin or -1 (uniform
// bins: Note [Uniform bins]; explicit edges: a binary search; bincount: the value).
//  - SHARED: each block keeps `copies` sub-histograms in shared memory (warp w adds
//    into copy w % copies, which spreads the atomics of skewed data), 32-bit counts or
//    float64 sums; at the end it adds each non-zero bin into the global histogram with
//    one atomic. Uniform bins also copy their edges there (after the counters, 16-byte
//    aligned). The host picks SHARED when that fits its shared budget.
//  - Otherwise every element goes straight to a global atomic (many bins).
// The global histogram is int64 counts (added as unsigned 64-bit) or float64 sums;
// the host zeroes it and casts it to the result dtype. Counts are exact, so results do
// not depend on the order of the atomics; float sums agree to rounding.
// Digitize is a plain grid-stride loop writing int64 positions.
constexpr std::string_view kTemplates = R"cunp_src(
namespace cunp_st {

template <typename S, typename K, typename T, typename D>
struct uniform_binner {
  static constexpr bool unrolled = true;
  static constexpr bool stages = true;
  K lo, hi;
  T first;
  D denom, scale;
  long long n;
  const T* edges;
  // Copies the edges into shared memory: the corrections read two edges per element at
  // scattered positions, which shared memory serves in one pass where L1 needs several.
  __device__ __forceinline__ void stage(unsigned char* smem) {
    T* e = reinterpret_cast<T*>(smem);
    for (long long i = threadIdx.x; i <= n; i += blockDim.x) e[i] = edges[i];
    edges = e;
  }
  __device__ __forceinline__ long long operator()(S x) const {
    return cunp::stats_ops::uniform_bin<S, K, T, D>(x, lo, hi, first, denom, scale, n, edges);
  }
};

template <typename S, typename C>
struct edge_binner {
  static constexpr bool unrolled = false;  // a binary search: keep the code small
  static constexpr bool stages = false;
  __device__ __forceinline__ void stage(unsigned char*) {}
  const C* e;
  long long m;
  __device__ __forceinline__ long long operator()(S x) const { return cunp::stats_ops::edge_bin<S, C>(x, e, m); }
};

struct index_binner {
  static constexpr bool unrolled = true;
  static constexpr bool stages = false;
  __device__ __forceinline__ void stage(unsigned char*) {}
  __device__ __forceinline__ long long operator()(long long x) const { return x; }
};

template <bool W> struct counter { using shared_t = unsigned int; using global_t = unsigned long long; };
template <> struct counter<true> { using shared_t = double; using global_t = double; };

template <typename S, bool W, bool SH, typename B>
__device__ __forceinline__ void histogram(const S* __restrict__ x, long long n, long long head,
                                          const double* __restrict__ w, void* out, long long nbins,
                                          int copies, const B& bin) {
  using A = typename counter<W>::shared_t;
  using G = typename counter<W>::global_t;
  extern __shared__ double cunp_st_smem[];
  A* sh = reinterpret_cast<A*>(cunp_st_smem);
  G* g = static_cast<G*>(out);
  A* mine = sh;
  B binner = bin;
  if constexpr (SH) {
    const long long counters = nbins * copies;
    for (long long b = threadIdx.x; b < counters; b += blockDim.x) sh[b] = A(0);
    if constexpr (B::stages)
      binner.stage(reinterpret_cast<unsigned char*>(cunp_st_smem) + ((counters * (long long)sizeof(A) + 15) & ~15ll));
    __syncthreads();
    mine = sh + (long long)((threadIdx.x >> 5) % copies) * nbins;
  }
  auto add = [&](long long i, S v) {
    const long long b = binner(v);
    if (b < 0) return;
    if constexpr (SH) {
      if constexpr (W) atomicAdd(mine + b, w[i]);
      else atomicAdd(mine + b, 1u);
    } else {
      if constexpr (W) atomicAdd(g + b, w[i]);
      else atomicAdd(g + b, 1ull);
    }
  };
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long nt = (long long)gridDim.x * blockDim.x;
  for (long long i = t; i < head; i += nt) add(i, x[i]);
  constexpr int P = sizeof(S) >= 16 ? 1 : 16 / (int)sizeof(S);
  struct alignas(16) pack { S v[P]; };
  const long long np = (n - head) / P;
  const pack* xp = reinterpret_cast<const pack*>(x + head);
  constexpr int U = 4;
  for (long long p = t; p < np; p += U * nt) {
    pack v[U];
#pragma unroll
    for (int k = 0; k < U; ++k)
      if (p + k * nt < np) v[k] = xp[p + k * nt];
#pragma unroll
    for (int k = 0; k < U; ++k) {
      if (p + k * nt >= np) break;
      const long long base = head + (p + k * nt) * P;
      if constexpr (B::unrolled) {
#pragma unroll
        for (int e = 0; e < P; ++e) add(base + e, v[k].v[e]);
      } else {
#pragma unroll 1
        for (int e = 0; e < P; ++e) add(base + e, v[k].v[e]);
      }
    }
  }
  for (long long i = head + np * P + t; i < n; i += nt) add(i, x[i]);
  if constexpr (SH) {
    __syncthreads();
    for (long long b = threadIdx.x; b < nbins; b += blockDim.x) {
      A s = A(0);
      for (int c = 0; c < copies; ++c) s += sh[(long long)c * nbins + b];
      if (s != A(0)) atomicAdd(g + b, (G)s);
    }
  }
}

// Note [Range pass]: histogram's automatic range needs the data's min and max; for
// float data one pass finds both (and whether a NaN is present, which NumPy's min/max
// would return) instead of two reductions. Each block walks its elements like
// histogram does, tree-reduces in shared memory and writes {min, max, nan} as
// doubles (exact for every float dtype); RangeFinish combines them in one block.
template <typename C>
__device__ __forceinline__ C positive_infinity() {
  if constexpr (sizeof(C) == 8) return __longlong_as_double(0x7ff0000000000000ll);
  else return __int_as_float(0x7f800000);
}

template <typename C>
__device__ __forceinline__ void range_tree(C& lo, C& hi, int& has_nan) {
  __shared__ C slo[256], shi[256];
  __shared__ int snan[256];
  slo[threadIdx.x] = lo;
  shi[threadIdx.x] = hi;
  snan[threadIdx.x] = has_nan;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if ((int)threadIdx.x < s) {
      const int o = threadIdx.x + s;
      if (slo[o] < slo[threadIdx.x]) slo[threadIdx.x] = slo[o];
      if (shi[o] > shi[threadIdx.x]) shi[threadIdx.x] = shi[o];
      snan[threadIdx.x] |= snan[o];
    }
    __syncthreads();
  }
  lo = slo[0];
  hi = shi[0];
  has_nan = snan[0];
}

template <typename S>
__device__ __forceinline__ void range_pass(const S* __restrict__ x, long long n, long long head,
                                           double* __restrict__ partial) {
  using C = typename cunp::stats_ops::calc<S>::type;
  C lo = positive_infinity<C>(), hi = -lo;
  int has_nan = 0;
  auto take = [&](S v) {
    const C c = cunp::stats_ops::up(v);
    if (c != c) has_nan = 1;
    if (c < lo) lo = c;
    if (c > hi) hi = c;
  };
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long nt = (long long)gridDim.x * blockDim.x;
  for (long long i = t; i < head; i += nt) take(x[i]);
  constexpr int P = 16 / (int)sizeof(S);
  struct alignas(16) pack { S v[P]; };
  const long long np = (n - head) / P;
  const pack* xp = reinterpret_cast<const pack*>(x + head);
  constexpr int U = 4;
  for (long long p = t; p < np; p += U * nt) {
    pack v[U];
#pragma unroll
    for (int k = 0; k < U; ++k)
      if (p + k * nt < np) v[k] = xp[p + k * nt];
#pragma unroll
    for (int k = 0; k < U; ++k) {
      if (p + k * nt >= np) break;
#pragma unroll
      for (int e = 0; e < P; ++e) take(v[k].v[e]);
    }
  }
  for (long long i = head + np * P + t; i < n; i += nt) take(x[i]);
  range_tree(lo, hi, has_nan);
  if (threadIdx.x == 0) {
    partial[3 * blockIdx.x] = (double)lo;
    partial[3 * blockIdx.x + 1] = (double)hi;
    partial[3 * blockIdx.x + 2] = (double)has_nan;
  }
}

__device__ __forceinline__ void range_finish(const double* __restrict__ partial, int nparts,
                                             double* __restrict__ out) {
  double lo = positive_infinity<double>(), hi = -lo;
  int has_nan = 0;
  for (int b = threadIdx.x; b < nparts; b += blockDim.x) {
    if (partial[3 * b] < lo) lo = partial[3 * b];
    if (partial[3 * b + 1] > hi) hi = partial[3 * b + 1];
    has_nan |= partial[3 * b + 2] != 0.0;
  }
  range_tree(lo, hi, has_nan);
  if (threadIdx.x == 0) {
    out[0] = lo;
    out[1] = hi;
    out[2] = (double)has_nan;
  }
}

template <typename S, typename C>
__device__ __forceinline__ void digitize(const S* __restrict__ x, long long n, long long* __restrict__ out,
                                         const C* __restrict__ e, long long m, int right, int decreasing) {
  const long long nt = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += nt)
    out[i] = cunp::stats_ops::digitize_one<S, C>(x[i], e, m, right != 0, decreasing != 0);
}

}  // namespace cunp_st
)cunp_src";

std::string str(std::string_view s) { return std::string(s); }

const char* kind_tag(BinKernelKind k) {
  switch (k) {
    case BinKernelKind::Uniform:
      return "hu";
    case BinKernelKind::Edges:
      return "he";
    case BinKernelKind::Bincount:
      return "bc";
    case BinKernelKind::Digitize:
      return "dg";
    case BinKernelKind::Range:
      return "rg";
    case BinKernelKind::RangeFinish:
      return "rf";
  }
  return "x";
}

// The data dtypes of the histogram kernels (bool data is read as uint8 by the host).
constexpr DType kHistDTypes[] = {DType::Int8,    DType::UInt8,   DType::Int16,  DType::UInt16,
                                 DType::Int32,   DType::UInt32,  DType::Int64,  DType::UInt64,
                                 DType::Float16, DType::Float32, DType::Float64};
constexpr DType kCompareDTypes[] = {DType::Int64, DType::UInt64, DType::Float32, DType::Float64};

}  // namespace

DType bin_compare_dtype(DType data, DType edges) {
  if (is_complex(data) || is_complex(edges))
    throw TypeError("histogram and digitize need real data and bins, not " + str(name(data)) +
                    " and " + str(name(edges)));
  const DType common = promote_types(data, edges);
  switch (common) {
    case DType::Float16:
    case DType::Float32:
      return DType::Float32;
    case DType::Float64:
      return DType::Float64;
    case DType::UInt64:
      return DType::UInt64;
    default:
      return DType::Int64;
  }
}

DType uniform_edges_dtype(DType data) noexcept { return is_floating(data) ? data : DType::Float64; }

std::string bin_kernel_name(const BinKernelSpec& spec) {
  std::string n = "cunp_st_" + std::string(kind_tag(spec.kind));
  if (spec.kind == BinKernelKind::RangeFinish) return n;
  if (spec.kind != BinKernelKind::Bincount) n += "_" + str(cuda::ops_type_code(spec.data));
  if (spec.kind == BinKernelKind::Range) return n;
  if (spec.kind == BinKernelKind::Edges || spec.kind == BinKernelKind::Digitize)
    n += "_" + str(cuda::ops_type_code(spec.compare));
  if (spec.kind == BinKernelKind::Uniform) n += spec.wide ? "_d8" : "_dt";
  if (spec.kind != BinKernelKind::Digitize) {
    n += spec.weighted ? "_w" : "_c";
    n += spec.shared ? "s" : "g";
  }
  return n;
}

std::string_view bin_kernels_preamble() {
  static const std::string preamble =
      "#include \"cast.h\"\n#define CUNP_STATS_HD __device__ __forceinline__\n" + str(kBinOps) +
      "\n" + str(kTemplates);
  return preamble;
}

std::string bin_kernel_entry(const BinKernelSpec& spec) {
  const std::string name = bin_kernel_name(spec);
  const std::string head = "extern \"C\" __global__ void __launch_bounds__(" +
                           std::to_string(kBinBlockSize) + ") " + name + "(";
  const std::string s = str(cuda::ops_type_name(spec.data));
  const std::string c = str(cuda::ops_type_name(spec.compare));
  const std::string flags =
      std::string(spec.weighted ? "true" : "false") + ", " + (spec.shared ? "true" : "false");
  const std::string common =
      "long long n, long long head, const double* __restrict__ w, void* out, "
      "long long nbins, int copies";
  switch (spec.kind) {
    case BinKernelKind::Uniform: {
      const DType tdt = uniform_edges_dtype(spec.data);
      const std::string t = str(cuda::ops_type_name(tdt));
      const std::string k = is_floating(spec.data) ? s : "cunp::ops::f64";
      const std::string d = spec.wide ? "cunp::ops::f64" : t;
      return head + "const " + s + "* __restrict__ x, " + common + ", " + k + " lo, " + k +
             " hi, " + t + " first, " + d + " denom, " + d + " scale, const " + t +
             "* __restrict__ edges) {\n"
             "  cunp_st::histogram<" +
             s + ", " + flags + ">(x, n, head, w, out, nbins, copies, cunp_st::uniform_binner<" +
             s + ", " + k + ", " + t + ", " + d +
             ">{lo, hi, first, denom, scale, nbins, edges});\n}\n";
    }
    case BinKernelKind::Edges:
      return head + "const " + s + "* __restrict__ x, " + common + ", const " + c +
             "* __restrict__ edges) {\n"
             "  cunp_st::histogram<" +
             s + ", " + flags + ">(x, n, head, w, out, nbins, copies, cunp_st::edge_binner<" + s +
             ", " + c + ">{edges, nbins + 1});\n}\n";
    case BinKernelKind::Bincount:
      return head + "const long long* __restrict__ x, " + common +
             ") {\n"
             "  cunp_st::histogram<long long, " +
             flags + ">(x, n, head, w, out, nbins, copies, cunp_st::index_binner{});\n}\n";
    case BinKernelKind::Digitize:
      return head + "const " + s +
             "* __restrict__ x, long long n, long long* __restrict__ out, const " + c +
             "* __restrict__ e, long long m, int right, int decreasing) {\n"
             "  cunp_st::digitize<" +
             s + ", " + c + ">(x, n, out, e, m, right, decreasing);\n}\n";
    case BinKernelKind::Range:
      return head + "const " + s +
             "* __restrict__ x, long long n, long long head, double* __restrict__ partial) {\n"
             "  cunp_st::range_pass<" +
             s + ">(x, n, head, partial);\n}\n";
    case BinKernelKind::RangeFinish:
      return head +
             "const double* __restrict__ partial, int nparts, double* __restrict__ out) {\n"
             "  cunp_st::range_finish(partial, nparts, out);\n}\n";
  }
  return {};
}

cuda::CompileOptions bin_compile_options() {
  cuda::CompileOptions o;
  o.extra_options.push_back("--fmad=false");
  return o;
}

cuda::KernelSource bin_kernel_source(const BinKernelSpec& spec) {
  cuda::KernelSource k;
  k.kernel_name = bin_kernel_name(spec);
  k.source = str(bin_kernels_preamble()) + bin_kernel_entry(spec);
  k.options = bin_compile_options();
  return k;
}

cuda::KernelKey bin_kernel_key(const BinKernelSpec& spec, int arch) noexcept {
  cuda::KernelKey key;
  key.op = cuda::op_id("cunp.stats.bins");
  key.variant = static_cast<std::uint64_t>(spec.kind) | (spec.wide ? 0x100u : 0u) |
                (spec.weighted ? 0x200u : 0u) | (spec.shared ? 0x400u : 0u);
  key.dtypes[0] = static_cast<std::uint8_t>(spec.data);
  key.dtypes[1] = static_cast<std::uint8_t>(spec.compare);
  key.ndim = 1;
  key.index_bits = 64;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

std::vector<BinKernelSpec> bin_kernel_specs() {
  // Grouped by kind, then data dtype (builtin_kernels.cpp batches each group).
  std::vector<BinKernelSpec> specs;
  constexpr bool kFlags[] = {false, true};
  for (DType d : kHistDTypes) {
    const bool narrow_float = d == DType::Float16 || d == DType::Float32;
    for (bool wide : kFlags)
      for (bool weighted : kFlags)
        for (bool shared : kFlags)
          if (wide || narrow_float)
            specs.push_back({.kind = BinKernelKind::Uniform,
                             .data = d,
                             .wide = wide,
                             .weighted = weighted,
                             .shared = shared});
  }
  for (DType d : kHistDTypes)
    for (DType c : kCompareDTypes)
      for (bool weighted : kFlags)
        for (bool shared : kFlags)
          specs.push_back({.kind = BinKernelKind::Edges,
                           .data = d,
                           .compare = c,
                           .weighted = weighted,
                           .shared = shared});
  for (bool weighted : kFlags)
    for (bool shared : kFlags)
      specs.push_back({.kind = BinKernelKind::Bincount,
                       .data = DType::Int64,
                       .weighted = weighted,
                       .shared = shared});
  for (DType d : {DType::Float16, DType::Float32, DType::Float64})
    specs.push_back({.kind = BinKernelKind::Range, .data = d});
  specs.push_back({.kind = BinKernelKind::RangeFinish, .data = DType::Float64});
  for (int i = 0; i < static_cast<int>(DType::Complex64); ++i)
    for (DType c : kCompareDTypes)
      specs.push_back(
          {.kind = BinKernelKind::Digitize, .data = static_cast<DType>(i), .compare = c});
  return specs;
}

}  // namespace cunp::stats

// src/index/index_source.cpp — see index_source.hpp.
#include "index/index_source.hpp"

#include "cuda/kernel_common.hpp"
#include "cuda/ops_types.hpp"

namespace cunp::index {
namespace {

// Note [Indexing kernels]: advanced indexing runs as view normalization + gather.
// The host applies the basic part of the index (a view keeping the indexed axes),
// broadcasts the index arrays to one shape B (int64, contiguous) and describes the
// result, which is always C-contiguous, as (pre..., B, post...): `pre` and `post` are
// the view's remaining axes (pre is empty when the broadcast axes go first).
//  - cunp_ix_offsets: for each b in B, the byte offset sum_j idx_j[b] * stride_j of
//    the indexed axes (negative indices wrapped once) and, for scatters, the linear
//    position of b in the indexed sub-space. An out-of-bounds index is replaced by 0
//    and records min(j * |B| + b) in one 8-byte flag (atomicMin); the host reads the
//    flag once per call (one 8-byte device-to-host copy, which synchronizes) and, only
//    on error, the offending index value.
//  - cunp_ix_gather_*: out[i] = view[pre(p) + off[b] + post(q)]. The result index i is
//    split by the strided-kernel helpers over (pre..., |B|, post...): operand 0 holds
//    the view's byte strides (0 on the B axis), operand 1 is 1 on the B axis and 0
//    elsewhere, so it yields b. Elements move as the unsigned integer of their width.
//  - cunp_ix_gather_direct_*: with a single index array (a[idx], take), the gather
//    reads idx[b] itself, wraps it, and records min(b) of an out-of-bounds index in
//    the flag; the host reads the flag after the gather (one 8-byte read) and raises
//    before the result is returned. This skips writing and re-reading the offsets
//    array: the traffic is CuPy's unchecked gather's plus one 8-byte read.
//  - Scatter, last write wins: with duplicates possible (|B| > 1), cunp_ix_mark
//    stores winner[lin[b]] = max(b + 1) (atomicMax, a deterministic result) in a
//    zeroed uint64 array of the indexed sub-space's size; cunp_ix_scatter_* then
//    writes only the elements whose b is the winner of its position: exactly NumPy's
//    "last in C order of the index" without ordering the writes.
//  - Nonzero: tiles of 4096 bytes (256 threads x 16 consecutive bytes). cunp_nz_count
//    counts per tile, cunp_nz_scan (one block of 1024) scans the tile counts and
//    stores the total after them (the host reads it: one 8-byte read), cunp_nz_write
//    scans the per-thread counts within each tile and writes the coordinates of
//    each true byte, in C order, as out[d * total + position].
//  - a[mask] with a mask of a's shape (the common `a[a > 0.5]`) skips coordinates
//    altogether: after the count and scan above (one 8-byte read for the result's
//    size), cunp_ix_mask_gather_* walks the same tiles (element base + e * 256 + t):
//    a warp ballot per step ranks each true element within its warp, one warp scans
//    the 16 x 8 per-warp counts of the tile, and every selected element is copied
//    straight to its output position. Reads: the mask twice, the data once; writes:
//    the result only. a[mask] = v (cunp_ix_mask_scatter_*) is the same walk with the
//    copy reversed: every selected element of `a` takes values[its rank], so no
//    coordinates and no last-write-wins marks (mask positions are distinct).
constexpr std::string_view kTemplates = R"cunp_src(
namespace cunp_ix {

using cunp_k::strided_params;
using cunp_k::thread_index;
using cunp_k::thread_count;
using cunp_k::element_offsets;

struct offsets_params {
  unsigned long long n;
  int k;
  int want_lin;
  long long* off;
  long long* lin;
  unsigned long long* flag;
  const long long* idx[64];
  long long size[64];
  long long stride[64];
};

struct nz_params {
  unsigned long long n;
  unsigned long long total;
  int ndim;
  int pad;
  long long shape[64];
};

template <typename T, bool FIXED, typename I, typename U, int N>
__device__ __forceinline__ void gather(T* __restrict__ out, const char* __restrict__ src,
                                       const long long* __restrict__ offs,
                                       const strided_params<I, N, 2>& p) {
  const U n = (U)p.size;
  const U nthreads = thread_count<U>();
  for (U i = thread_index<U>(); i < n; i += nthreads) {
    I o[2];
    element_offsets<FIXED>(p, i, o);
    out[i] = *reinterpret_cast<const T*>(src + o[0] + offs[o[1]]);
  }
}

template <typename T, bool FIXED, typename I, typename U, int N>
__device__ __forceinline__ void gather_direct(T* __restrict__ out, const char* __restrict__ src,
                                              const long long* __restrict__ idx, long long size, long long stride,
                                              unsigned long long* flag, const strided_params<I, N, 2>& p) {
  const U n = (U)p.size;
  const U nthreads = thread_count<U>();
  for (U i = thread_index<U>(); i < n; i += nthreads) {
    I o[2];
    element_offsets<FIXED>(p, i, o);
    long long v = idx[o[1]];
    if (v < 0) v += size;
    if (v < 0 || v >= size) {
      atomicMin(flag, (unsigned long long)o[1]);
      v = 0;
    }
    out[i] = *reinterpret_cast<const T*>(src + o[0] + v * stride);
  }
}

template <typename T, bool FIXED, typename I, typename U, int N>
__device__ __forceinline__ void scatter(char* dst, const T* __restrict__ values,
                                        const long long* __restrict__ offs,
                                        const long long* __restrict__ lin,
                                        const unsigned long long* __restrict__ winner,
                                        const strided_params<I, N, 2>& p) {
  const U n = (U)p.size;
  const U nthreads = thread_count<U>();
  for (U i = thread_index<U>(); i < n; i += nthreads) {
    I o[2];
    element_offsets<FIXED>(p, i, o);
    const I b = o[1];
    if (winner != nullptr && winner[lin[b]] != (unsigned long long)b + 1ull) continue;
    *reinterpret_cast<T*>(dst + o[0] + offs[b]) = values[i];
  }
}

// Exclusive scan of one value per thread over the block (blockDim.x a multiple of 32,
// at most 1024); *total gets the sum. Every thread of the block must call it.
template <typename T>
__device__ __forceinline__ T block_exclusive_scan(T v, T* total) {
  __shared__ T warp_sums[32];
  __shared__ T block_total;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int nwarps = blockDim.x >> 5;
  T incl = v;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const T t = __shfl_up_sync(0xffffffffu, incl, o);
    if (lane >= o) incl += t;
  }
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    const T w = lane < nwarps ? warp_sums[lane] : (T)0;
    T wi = w;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const T t = __shfl_up_sync(0xffffffffu, wi, o);
      if (lane >= o) wi += t;
    }
    if (lane < nwarps) warp_sums[lane] = wi - w;
    if (lane == 31) block_total = wi;
  }
  __syncthreads();
  const T result = warp_sums[warp] + incl - v;
  *total = block_total;
  __syncthreads();
  return result;
}

}  // namespace cunp_ix
)cunp_src";

std::string str(std::string_view s) { return std::string(s); }

constexpr DType kElementDTypes[] = {DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64,
                                    DType::Complex128};
constexpr int kNdims[] = {1, 2, 3, 4, 8, 16, 32, 64};

std::string fixed_entry(const IndexKernelSpec& spec, const std::string& name) {
  const std::string head = "extern \"C\" __global__ void __launch_bounds__(";
  const std::string tile = std::to_string(kNonzeroTile);
  const std::string per = std::to_string(kNonzeroPerThread);
  switch (spec.kind) {
    case IndexKernelKind::Offsets:
      return head + std::to_string(cuda::kKernelBlockSize) + ") " + name +
             "(const __grid_constant__ cunp_ix::offsets_params p) {\n"
             "  const unsigned long long nthreads = cunp_k::thread_count<unsigned long long>();\n"
             "  for (unsigned long long b = cunp_k::thread_index<unsigned long long>(); b < p.n; b += nthreads) {\n"
             "    long long off = 0, lin = 0;\n"
             "    for (int j = 0; j < p.k; ++j) {\n"
             "      const long long size = p.size[j];\n"
             "      long long v = p.idx[j][b];\n"
             "      if (v < 0) v += size;\n"
             "      if (v < 0 || v >= size) {\n"
             "        atomicMin(p.flag, (unsigned long long)j * p.n + b);\n"
             "        v = 0;\n"
             "      }\n"
             "      off += v * p.stride[j];\n"
             "      lin = lin * size + v;\n"
             "    }\n"
             "    p.off[b] = off;\n"
             "    if (p.want_lin) p.lin[b] = lin;\n"
             "  }\n"
             "}\n";
    case IndexKernelKind::Mark:
      return head + std::to_string(cuda::kKernelBlockSize) + ") " + name +
             "(const long long* __restrict__ lin, unsigned long long* __restrict__ winner, unsigned long long n) {\n"
             "  const unsigned long long nthreads = cunp_k::thread_count<unsigned long long>();\n"
             "  for (unsigned long long b = cunp_k::thread_index<unsigned long long>(); b < n; b += nthreads)\n"
             "    atomicMax(winner + lin[b], b + 1ull);\n"
             "}\n";
    case IndexKernelKind::NonzeroCount:
      return head + std::to_string(kNonzeroThreads) + ") " + name +
             "(const unsigned char* __restrict__ m, unsigned long long n, unsigned long long* __restrict__ counts) {\n"
             "  const unsigned long long base = (unsigned long long)blockIdx.x * " + tile + "ull;\n"
             "  unsigned int c = 0;\n"
             "#pragma unroll\n"
             "  for (int e = 0; e < " + per + "; ++e) {\n"
             "    const unsigned long long i = base + (unsigned long long)(e * blockDim.x + threadIdx.x);\n"
             "    if (i < n && m[i] != 0) ++c;\n"
             "  }\n"
             "  unsigned int total;\n"
             "  cunp_ix::block_exclusive_scan<unsigned int>(c, &total);\n"
             "  if (threadIdx.x == 0) counts[blockIdx.x] = total;\n"
             "}\n";
    case IndexKernelKind::NonzeroScan:
      return head + std::to_string(kNonzeroScanThreads) + ") " + name +
             "(unsigned long long* counts, unsigned long long nb) {\n"
             "  unsigned long long carry = 0;\n"
             "  for (unsigned long long base = 0; base < nb; base += blockDim.x) {\n"
             "    const unsigned long long i = base + threadIdx.x;\n"
             "    const unsigned long long v = i < nb ? counts[i] : 0ull;\n"
             "    unsigned long long total;\n"
             "    const unsigned long long ex = cunp_ix::block_exclusive_scan<unsigned long long>(v, &total);\n"
             "    if (i < nb) counts[i] = carry + ex;\n"
             "    carry += total;\n"
             "  }\n"
             "  if (threadIdx.x == 0) counts[nb] = carry;\n"
             "}\n";
    case IndexKernelKind::NonzeroWrite:
      return head + std::to_string(kNonzeroThreads) + ") " + name +
             "(const unsigned char* __restrict__ m, const unsigned long long* __restrict__ starts, "
             "long long* __restrict__ out, const __grid_constant__ cunp_ix::nz_params p) {\n"
             "  const unsigned long long base = (unsigned long long)blockIdx.x * " + tile +
             "ull + (unsigned long long)threadIdx.x * " + per + "ull;\n"
             "  bool v[" + per + "];\n"
             "  unsigned int c = 0;\n"
             "#pragma unroll\n"
             "  for (int e = 0; e < " + per + "; ++e) {\n"
             "    const unsigned long long i = base + (unsigned long long)e;\n"
             "    v[e] = i < p.n && m[i] != 0;\n"
             "    c += v[e] ? 1u : 0u;\n"
             "  }\n"
             "  unsigned int total;\n"
             "  unsigned long long pos = starts[blockIdx.x] + cunp_ix::block_exclusive_scan<unsigned int>(c, &total);\n"
             "#pragma unroll\n"
             "  for (int e = 0; e < " + per + "; ++e) {\n"
             "    if (!v[e]) continue;\n"
             "    long long r = (long long)(base + (unsigned long long)e);\n"
             "    for (int d = p.ndim - 1; d > 0; --d) {\n"
             "      const long long s = p.shape[d];\n"
             "      const long long q = r / s;\n"
             "      out[(unsigned long long)d * p.total + pos] = r - q * s;\n"
             "      r = q;\n"
             "    }\n"
             "    out[pos] = r;\n"
             "    ++pos;\n"
             "  }\n"
             "}\n";
    default:
      return {};
  }
}

std::string mask_gather_entry(const IndexKernelSpec& spec, const std::string& name) {
  const std::string t = str(cuda::ops_type_name(spec.dtype));
  const bool gather = spec.kind == IndexKernelKind::MaskGather;
  // Gather: (src: the array, out: the result). Scatter: (src: the values, out: the array).
  const std::string move = gather ? "out[start + counts[e * " + std::to_string(kNonzeroThreads / 32) +
                                        " + warp] + __popc(ballots[e] & below)] = src[i];\n"
                                  : "out[i] = src[start + counts[e * " + std::to_string(kNonzeroThreads / 32) +
                                        " + warp] + __popc(ballots[e] & below)];\n";
  const std::string per = std::to_string(kNonzeroPerThread);
  const std::string warps = std::to_string(kNonzeroThreads / 32);
  return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kNonzeroThreads) + ") " + name +
         "(const " + t + "* __restrict__ src, const unsigned char* __restrict__ m, "
         "const unsigned long long* __restrict__ starts, " + t + "* __restrict__ out, unsigned long long n) {\n"
         "  __shared__ unsigned int counts[" + per + " * " + warps + "];\n"
         "  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;\n"
         "  const unsigned int below = (1u << lane) - 1u;\n"
         "  const unsigned long long base = (unsigned long long)blockIdx.x * " + std::to_string(kNonzeroTile) +
         "ull + threadIdx.x;\n"
         "  unsigned int ballots[" + per + "];\n"
         "#pragma unroll\n"
         "  for (int e = 0; e < " + per + "; ++e) {\n"
         "    const unsigned long long i = base + (unsigned long long)e * blockDim.x;\n"
         "    ballots[e] = __ballot_sync(0xffffffffu, i < n && m[i] != 0);\n"
         "    if (lane == 0) counts[e * " + warps + " + warp] = __popc(ballots[e]);\n"
         "  }\n"
         "  __syncthreads();\n"
         "  if (warp == 0) {\n"
         "    // Exclusive scan of the counts in tile order (step-major, then warp): 4 per lane.\n"
         "    unsigned int v[4], sum = 0;\n"
         "#pragma unroll\n"
         "    for (int q = 0; q < 4; ++q) { v[q] = counts[lane * 4 + q]; sum += v[q]; }\n"
         "    unsigned int incl = sum;\n"
         "#pragma unroll\n"
         "    for (int o = 1; o < 32; o <<= 1) {\n"
         "      const unsigned int x = __shfl_up_sync(0xffffffffu, incl, o);\n"
         "      if (lane >= o) incl += x;\n"
         "    }\n"
         "    unsigned int run = incl - sum;\n"
         "#pragma unroll\n"
         "    for (int q = 0; q < 4; ++q) { counts[lane * 4 + q] = run; run += v[q]; }\n"
         "  }\n"
         "  __syncthreads();\n"
         "  const unsigned long long start = starts[blockIdx.x];\n"
         "#pragma unroll\n"
         "  for (int e = 0; e < " + per + "; ++e) {\n"
         "    if (((ballots[e] >> lane) & 1u) == 0) continue;\n"
         "    const unsigned long long i = base + (unsigned long long)e * blockDim.x;\n"
         "    " + move +
         "  }\n"
         "}\n";
}

}  // namespace

std::vector<IndexKernelSpec> index_kernel_specs() {
  std::vector<IndexKernelSpec> specs;
  for (IndexKernelKind k : {IndexKernelKind::Offsets, IndexKernelKind::Mark, IndexKernelKind::NonzeroCount,
                            IndexKernelKind::NonzeroScan, IndexKernelKind::NonzeroWrite})
    specs.push_back({.kind = k});
  for (IndexKernelKind k : {IndexKernelKind::MaskGather, IndexKernelKind::MaskScatter})
    for (DType dt : kElementDTypes) specs.push_back({.kind = k, .dtype = dt});
  for (IndexKernelKind k : {IndexKernelKind::Gather, IndexKernelKind::GatherDirect, IndexKernelKind::Scatter})
    for (DType dt : kElementDTypes)
      for (int nd : kNdims)
        for (bool i64 : {false, true}) specs.push_back({.kind = k, .dtype = dt, .ndim = nd, .index64 = i64});
  return specs;
}

std::string index_kernel_name(const IndexKernelSpec& spec) {
  switch (spec.kind) {
    case IndexKernelKind::Offsets: return "cunp_ix_offsets";
    case IndexKernelKind::Mark: return "cunp_ix_mark";
    case IndexKernelKind::NonzeroCount: return "cunp_nz_count";
    case IndexKernelKind::NonzeroScan: return "cunp_nz_scan";
    case IndexKernelKind::NonzeroWrite: return "cunp_nz_write";
    case IndexKernelKind::MaskGather: return "cunp_ix_mask_gather_" + str(cuda::ops_type_code(spec.dtype));
    case IndexKernelKind::MaskScatter: return "cunp_ix_mask_scatter_" + str(cuda::ops_type_code(spec.dtype));
    default: break;
  }
  const char* prefix = spec.kind == IndexKernelKind::Gather         ? "cunp_ix_gather_"
                       : spec.kind == IndexKernelKind::GatherDirect ? "cunp_ix_gather_direct_"
                                                                    : "cunp_ix_scatter_";
  return std::string(prefix) +
         str(cuda::ops_type_code(spec.dtype)) + "_s" + std::to_string(spec.ndim) +
         (spec.index64 ? "_i64" : "_i32");
}

std::string_view index_kernels_preamble() {
  static const std::string preamble =
      "#include \"cast.h\"\n" + std::string(cuda::kernel_helpers_source()) + std::string(kTemplates);
  return preamble;
}

std::string index_kernel_entry(const IndexKernelSpec& spec) {
  const std::string name = index_kernel_name(spec);
  if (spec.kind == IndexKernelKind::MaskGather || spec.kind == IndexKernelKind::MaskScatter)
    return mask_gather_entry(spec, name);
  if (spec.kind != IndexKernelKind::Gather && spec.kind != IndexKernelKind::GatherDirect &&
      spec.kind != IndexKernelKind::Scatter)
    return fixed_entry(spec, name);
  const std::string t = str(cuda::ops_type_name(spec.dtype));
  const std::string u = spec.index64 ? "unsigned long long" : "unsigned int";
  const std::string i = spec.index64 ? "long long" : "int";
  const std::string n = std::to_string(spec.ndim);
  const std::string fixed = spec.ndim <= 4 ? "true" : "false";
  const std::string params = "const __grid_constant__ cunp_k::strided_params<" + i + ", " + n + ", 2> p";
  const std::string targs = "<" + t + ", " + fixed + ", " + i + ", " + u + ">";
  const std::string head = "extern \"C\" __global__ void __launch_bounds__(" +
                           std::to_string(cuda::kKernelBlockSize) + ") " + name + "(";
  if (spec.kind == IndexKernelKind::GatherDirect)
    return head + t + "* __restrict__ out, const char* __restrict__ src, const long long* __restrict__ idx, " +
           "long long size, long long stride, unsigned long long* flag, " + params +
           ") {\n  cunp_ix::gather_direct" + targs + "(out, src, idx, size, stride, flag, p);\n}\n";
  if (spec.kind == IndexKernelKind::Gather)
    return head + t + "* __restrict__ out, const char* __restrict__ src, const long long* __restrict__ offs, " +
           params + ") {\n  cunp_ix::gather" + targs + "(out, src, offs, p);\n}\n";
  return head + "char* dst, const " + t +
         "* __restrict__ values, const long long* __restrict__ offs, const long long* __restrict__ lin, "
         "const unsigned long long* __restrict__ winner, " +
         params + ") {\n  cunp_ix::scatter" + targs + "(dst, values, offs, lin, winner, p);\n}\n";
}

cuda::KernelSource index_kernel_source(const IndexKernelSpec& spec) {
  cuda::KernelSource source;
  source.kernel_name = index_kernel_name(spec);
  source.source = std::string(index_kernels_preamble()) + index_kernel_entry(spec);
  return source;
}

cuda::KernelKey index_kernel_key(const IndexKernelSpec& spec, int arch) noexcept {
  cuda::KernelKey key;
  key.op = cuda::op_id("cunp.index");
  key.variant = static_cast<std::uint64_t>(spec.kind);
  key.dtypes[0] = static_cast<std::uint8_t>(spec.dtype);
  key.ndim = static_cast<std::uint8_t>(spec.ndim);
  key.layout = cuda::LayoutClass::Strided;
  key.index_bits = spec.index64 ? 64 : 32;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

}  // namespace cunp::index

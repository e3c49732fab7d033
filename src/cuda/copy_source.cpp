// src/cuda/copy_source.cpp — see copy_source.hpp.
#include "cuda/copy_source.hpp"

#include <algorithm>

#include "cuda/ops_types.hpp"

namespace cunp::cuda {
namespace {

// Note [Copy kernels]: one device template per layout class, instantiated by a short
// extern "C" entry per (dtypes, ndim, index width). The element conversion is always
// cunp::ops::cast from cast.h, the same function the CPU loops call.
//  - Contiguous: the range splits into a scalar head (until the destination reaches a
//    16-byte boundary), whole packs of P elements (16 bytes on the wider side, so one
//    vector load/store each; the narrower side moves 16/ratio bytes) and a scalar tail.
//    Each thread keeps kCopyUnroll packs in flight; the grid is sized to the device
//    and strides over the range. When source and destination are not aligned alike,
//    the host passes head == n and everything runs scalar.
//  - Strided: Note [Strided kernels] (kernel_common.cpp); the helpers there are the
//    first part of every copy program.
//  - 32-bit variants (`I` = int/unsigned) are used when the element count and every
//    operand's byte extent fit; 64-bit divisions cost several times more.
constexpr std::string_view kTemplates = R"cunp_src(
namespace cunp_copy {

using cunp_k::pack;
using cunp_k::strided_params;
using cunp_k::thread_index;
using cunp_k::thread_count;
using cunp_k::element_offsets;

template <typename D, typename S, int P, int UNROLL, typename U>
__device__ __forceinline__ void cast_contiguous(D* __restrict__ dst, const S* __restrict__ src, U n, U head) {
  const U tid = thread_index<U>();
  const U nthreads = thread_count<U>();
  const U npacks = (n - head) / P;
  const U tail = head + npacks * P;
  for (U i = tid; i < head; i += nthreads) dst[i] = cunp::ops::cast<D>(src[i]);
  for (U i = tail + tid; i < n; i += nthreads) dst[i] = cunp::ops::cast<D>(src[i]);
  const pack<S, P>* s = reinterpret_cast<const pack<S, P>*>(src + head);
  pack<D, P>* d = reinterpret_cast<pack<D, P>*>(dst + head);
  for (U base = tid; base < npacks; base += nthreads * UNROLL) {
    pack<S, P> in[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const U j = base + u * nthreads;
      if (j < npacks) in[u] = s[j];
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const U j = base + u * nthreads;
      if (j < npacks) {
        pack<D, P> out;
#pragma unroll
        for (int e = 0; e < P; ++e) out.v[e] = cunp::ops::cast<D>(in[u].v[e]);
        d[j] = out;
      }
    }
  }
}

template <typename D, int P, int UNROLL, typename U>
__device__ __forceinline__ void fill_contiguous(D* __restrict__ dst, D value, U n, U head) {
  const U tid = thread_index<U>();
  const U nthreads = thread_count<U>();
  const U npacks = (n - head) / P;
  const U tail = head + npacks * P;
  for (U i = tid; i < head; i += nthreads) dst[i] = value;
  for (U i = tail + tid; i < n; i += nthreads) dst[i] = value;
  pack<D, P> v;
#pragma unroll
  for (int e = 0; e < P; ++e) v.v[e] = value;
  pack<D, P>* d = reinterpret_cast<pack<D, P>*>(dst + head);
  for (U j = tid; j < npacks; j += nthreads) d[j] = v;
}

template <typename D, typename S, bool FIXED, typename I, typename U, int N>
__device__ __forceinline__ void cast_strided(char* dst, const char* src, const strided_params<I, N, 2>& p) {
  const U n = (U)p.size;
  const U nthreads = thread_count<U>();
  for (U i = thread_index<U>(); i < n; i += nthreads) {
    I off[2];
    element_offsets<FIXED>(p, i, off);
    *reinterpret_cast<D*>(dst + off[0]) = cunp::ops::cast<D>(*reinterpret_cast<const S*>(src + off[1]));
  }
}

template <typename D, bool FIXED, typename I, typename U, int N>
__device__ __forceinline__ void fill_strided(char* dst, D value, const strided_params<I, N, 1>& p) {
  const U n = (U)p.size;
  const U nthreads = thread_count<U>();
  for (U i = thread_index<U>(); i < n; i += nthreads) {
    I off[1];
    element_offsets<FIXED>(p, i, off);
    *reinterpret_cast<D*>(dst + off[0]) = value;
  }
}

// ---- transpose (Note [Transpose kernel])
struct transpose_params {
  long long ni, nj, nb;  // extents: i (source-contiguous), j (destination-contiguous), batch
  long long ss_j, ds_i;  // byte strides: source along j, destination along i
  long long ss_b, ds_b;  // byte strides of the batch axis
  long long tiles_i, tiles_j;
};

template <typename T, int V, bool VEC>
__device__ __forceinline__ void transpose_tiles(char* __restrict__ dst, const char* __restrict__ src,
                                                const transpose_params& p) {
  constexpr int CH = 16;       // vectors per tile row (and per tile column)
  constexpr int TI = CH * V;   // tile extent in elements, both ways
  constexpr int SW = sizeof(pack<T, V>) >= 16 ? 7 : 15;
  using W = pack<T, V>;
  __shared__ W tile[TI * CH];
  const int t = threadIdx.x;
  const int lo = t & 15, hi = t >> 4;
  const long long per_batch = p.tiles_i * p.tiles_j;
  for (long long id = blockIdx.x; id < per_batch * p.nb; id += gridDim.x) {
    const long long b = id / per_batch;
    const long long r = id - b * per_batch;
    const long long i0 = (r % p.tiles_i) * TI, j0 = (r / p.tiles_i) * TI;
    const char* s = src + b * p.ss_b;
    char* d = dst + b * p.ds_b;
    const bool full = i0 + TI <= p.ni && j0 + TI <= p.nj;
    // Load: V source vectors (V consecutive i) of columns j0 + V*hi + u.
    W in[V];
    const long long li = i0 + V * lo;
    if (VEC && full) {
#pragma unroll
      for (int u = 0; u < V; ++u)
        in[u] = *reinterpret_cast<const W*>(s + li * (long long)sizeof(T) + (j0 + V * hi + u) * p.ss_j);
    } else {
#pragma unroll
      for (int u = 0; u < V; ++u) {
        const long long j = j0 + V * hi + u;
#pragma unroll
        for (int e = 0; e < V; ++e)
          if (li + e < p.ni && j < p.nj)
            in[u].v[e] = *reinterpret_cast<const T*>(s + (li + e) * (long long)sizeof(T) + j * p.ss_j);
      }
    }
    // The V x V block transposed in registers, stored as rows of the tile (swizzled
    // vector columns: conflict-free both ways).
#pragma unroll
    for (int e = 0; e < V; ++e) {
      W o;
#pragma unroll
      for (int u = 0; u < V; ++u) o.v[u] = in[u].v[e];
      tile[(V * lo + e) * CH + (hi ^ (lo & SW))] = o;
    }
    __syncthreads();
    // Store: rows hi + 16*rr of the tile, vector lo of each, along the destination's
    // contiguous axis.
#pragma unroll
    for (int rr = 0; rr < V; ++rr) {
      const int row = hi + 16 * rr;
      const W o = tile[row * CH + (lo ^ ((row / V) & SW))];
      const long long i = i0 + row, j = j0 + V * lo;
      if (VEC && full) {
        *reinterpret_cast<W*>(d + i * p.ds_i + j * (long long)sizeof(T)) = o;
      } else if (i < p.ni) {
#pragma unroll
        for (int u = 0; u < V; ++u)
          if (j + u < p.nj) *reinterpret_cast<T*>(d + i * p.ds_i + (j + u) * (long long)sizeof(T)) = o.v[u];
      }
    }
    __syncthreads();
  }
}

// ---- concatenate (Note [Single-kernel concatenate])
struct concat_params {
  long long rows;     // rows of the output (the product of the axes before the join axis)
  long long out_row;  // output row length, in units
  const char* src[32];
  long long len[32];  // row length of each input, in units
  long long off[32];  // where its rows start within an output row, in units
};

template <typename U>
__device__ __forceinline__ void concat_rows(char* __restrict__ dst, const concat_params& p) {
  const int k = blockIdx.y;
  const long long len = p.len[k];
  const long long total = p.rows * len;
  const U* __restrict__ s = reinterpret_cast<const U*>(p.src[k]);
  U* __restrict__ d = reinterpret_cast<U*>(dst) + p.off[k];
  const long long step = (long long)gridDim.x * blockDim.x;
  long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p.rows == 1) {
    for (; e < total; e += step) d[e] = s[e];
  } else if (total <= 0x7fffffffLL) {
    const unsigned int l = (unsigned int)len;
    for (; e < total; e += step) {
      const unsigned int r = (unsigned int)e / l;
      d[(long long)r * p.out_row + ((unsigned int)e - r * l)] = s[e];
    }
  } else {
    for (; e < total; e += step) {
      const long long r = e / len;
      d[r * p.out_row + (e - r * len)] = s[e];
    }
  }
}

}  // namespace cunp_copy
)cunp_src";

std::string str(std::string_view s) { return std::string(s); }

}  // namespace

int copy_pack_elements(const CopyKernelSpec& spec) noexcept {
  std::size_t widest = itemsize(spec.dst);
  if (spec.kind == CopyKind::Cast) widest = std::max(widest, itemsize(spec.src));
  return static_cast<int>(16 / widest);
}

std::string copy_kernel_name(const CopyKernelSpec& spec) {
  std::string name = spec.kind == CopyKind::Cast ? "cunp_cast_" + str(ops_type_code(spec.src)) +
                                                       "_" + str(ops_type_code(spec.dst))
                                                 : "cunp_fill_" + str(ops_type_code(spec.dst));
  name += spec.ndim == 0 ? "_c" : "_s" + std::to_string(spec.ndim);
  name += spec.index64 ? "_i64" : "_i32";
  return name;
}

std::string_view copy_kernels_preamble() {
  static const std::string preamble =
      "#include \"cast.h\"\n" + std::string(kernel_helpers_source()) + std::string(kTemplates);
  return preamble;
}

std::string copy_kernel_entry(const CopyKernelSpec& spec) {
  const std::string name = copy_kernel_name(spec);
  const std::string dst = str(ops_type_name(spec.dst));
  const std::string src = str(ops_type_name(spec.src));
  const std::string u = spec.index64 ? "unsigned long long" : "unsigned int";
  const std::string i = spec.index64 ? "long long" : "int";
  const std::string head = "extern \"C\" __global__ void __launch_bounds__(" +
                           std::to_string(kCopyBlockSize) + ") " + name + "(";
  const std::string p = std::to_string(copy_pack_elements(spec));
  const std::string unroll = std::to_string(kCopyUnroll);
  if (spec.ndim == 0) {
    if (spec.kind == CopyKind::Cast)
      return head + dst + "* __restrict__ dst, const " + src + "* __restrict__ src, " + u + " n, " +
             u + " head) {\n  cunp_copy::cast_contiguous<" + dst + ", " + src + ", " + p + ", " +
             unroll + ">(dst, src, n, head);\n}\n";
    return head + dst + "* __restrict__ dst, " + dst + " value, " + u + " n, " + u +
           " head) {\n  cunp_copy::fill_contiguous<" + dst + ", " + p + ", " + unroll +
           ">(dst, value, n, head);\n}\n";
  }
  const std::string n = std::to_string(spec.ndim);
  const std::string fixed = spec.ndim <= 4 ? "true" : "false";
  if (spec.kind == CopyKind::Cast)
    return head + "char* dst, const char* src, const __grid_constant__ cunp_copy::strided_params<" +
           i + ", " + n + ", 2> p) {\n  cunp_copy::cast_strided<" + dst + ", " + src + ", " +
           fixed + ", " + i + ", " + u + ">(dst, src, p);\n}\n";
  return head + "char* dst, " + dst + " value, const __grid_constant__ cunp_copy::strided_params<" +
         i + ", " + n + ", 1> p) {\n  cunp_copy::fill_strided<" + dst + ", " + fixed + ", " + i +
         ", " + u + ">(dst, value, p);\n}\n";
}

namespace {

// "unsigned char", ... for the element or unit of `bytes` bytes.
std::string word_type(int bytes) {
  switch (bytes) {
    case 1: return "unsigned char";
    case 2: return "unsigned short";
    case 4: return "unsigned int";
    case 8: return "unsigned long long";
    default: return "cunp_k::pack<unsigned long long, 2>";
  }
}

}  // namespace

// Note [Transpose kernel]: a bit copy whose source and destination have different
// contiguous axes (ascontiguousarray(a.T)) is, after coalescing, a 2-d transpose (or a
// batch of them). Elementwise, one of the two sides is accessed with a large stride and
// wastes most of every sector; the tiled kernel reads and writes full 256-byte rows.
// A tile is (16 V) x (16 V) elements, V = elements per vector (16 bytes; 8 bytes for
// int16, 4 for int8). Each of the 256 threads loads V source vectors (V consecutive i
// in V columns), transposes that V x V block in registers and stores V vectors into
// shared memory as tile rows; then it reads one vector per row and writes it along
// the destination's contiguous axis. Vector columns in shared memory are XOR-swizzled
// by the row's block index, which makes both the stores and the loads conflict-free
// for 8- and 16-byte vectors. Full tiles with 16-byte aligned rows take the vector
// path; edge tiles and unaligned views run the same schedule with element accesses.
int transpose_vector_elements(int elem_bytes) noexcept { return elem_bytes >= 16 ? 1 : elem_bytes == 8 ? 2 : 4; }

std::vector<TransposeKernelSpec> transpose_kernel_specs() {
  std::vector<TransposeKernelSpec> specs;
  for (int e : {1, 2, 4, 8, 16})
    for (bool vec : {false, true}) specs.push_back({.elem_bytes = e, .vector = vec});
  return specs;
}

std::string transpose_kernel_name(const TransposeKernelSpec& spec) {
  return "cunp_transpose_" + std::to_string(spec.elem_bytes) + (spec.vector ? "_v" : "_e");
}

std::string transpose_kernel_entry(const TransposeKernelSpec& spec) {
  return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kTransposeThreads) + ") " +
         transpose_kernel_name(spec) +
         "(char* __restrict__ dst, const char* __restrict__ src, const __grid_constant__ "
         "cunp_copy::transpose_params p) {\n  cunp_copy::transpose_tiles<" +
         word_type(spec.elem_bytes) + ", " + std::to_string(transpose_vector_elements(spec.elem_bytes)) + ", " +
         (spec.vector ? "true" : "false") + ">(dst, src, p);\n}\n";
}

KernelSource transpose_kernel_source(const TransposeKernelSpec& spec) {
  return {.kernel_name = transpose_kernel_name(spec),
          .source = std::string(copy_kernels_preamble()) + transpose_kernel_entry(spec),
          .options = {}};
}

KernelKey transpose_kernel_key(const TransposeKernelSpec& spec, int arch) noexcept {
  KernelKey key;
  key.op = op_id("cunp.transpose");
  key.variant = static_cast<std::uint64_t>(spec.elem_bytes) << 1 | (spec.vector ? 1u : 0u);
  key.ndim = 2;
  key.layout = LayoutClass::Strided;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

// Note [Single-kernel concatenate]: joining C-contiguous inputs of the output's dtype
// is a copy of rows: the output is (rows, out_row) and input k fills columns
// [off_k, off_k + len_k) of every row from its own (rows, len_k) buffer. One launch
// covers up to kConcatInputs inputs (blockIdx.y picks the input), in the widest unit
// (1..16 bytes) that divides every row length, offset and address, so the common
// float32 case moves 16-byte words.
std::vector<int> concat_unit_sizes() { return {1, 2, 4, 8, 16}; }

std::string concat_kernel_name(int unit_bytes) { return "cunp_concat_u" + std::to_string(unit_bytes); }

std::string concat_kernel_entry(int unit_bytes) {
  return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kCopyBlockSize) + ") " +
         concat_kernel_name(unit_bytes) +
         "(char* __restrict__ dst, const __grid_constant__ cunp_copy::concat_params p) {\n"
         "  cunp_copy::concat_rows<" +
         word_type(unit_bytes) + ">(dst, p);\n}\n";
}

KernelSource concat_kernel_source(int unit_bytes) {
  return {.kernel_name = concat_kernel_name(unit_bytes),
          .source = std::string(copy_kernels_preamble()) + concat_kernel_entry(unit_bytes),
          .options = {}};
}

KernelKey concat_kernel_key(int unit_bytes, int arch) noexcept {
  KernelKey key;
  key.op = op_id("cunp.concat");
  key.variant = static_cast<std::uint64_t>(unit_bytes);
  key.layout = LayoutClass::Contiguous;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

KernelSource copy_kernel_source(const CopyKernelSpec& spec) {
  KernelSource source;
  source.kernel_name = copy_kernel_name(spec);
  source.source = std::string(copy_kernels_preamble()) + copy_kernel_entry(spec);
  return source;
}

KernelKey copy_kernel_key(const CopyKernelSpec& spec, int arch) noexcept {
  KernelKey key;
  key.op = spec.kind == CopyKind::Cast ? op_id("cunp.cast") : op_id("cunp.fill");
  key.dtypes[0] = static_cast<std::uint8_t>(spec.dst);
  if (spec.kind == CopyKind::Cast) key.dtypes[1] = static_cast<std::uint8_t>(spec.src);
  key.ndim = static_cast<std::uint8_t>(spec.ndim);
  key.layout = spec.ndim == 0 ? LayoutClass::Contiguous : LayoutClass::Strided;
  key.index_bits = spec.index64 ? 64 : 32;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

}  // namespace cunp::cuda

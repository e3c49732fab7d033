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

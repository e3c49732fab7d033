// src/index/at_source.cpp — see at_source.hpp.
#include "index/at_source.hpp"

#include "ufunc/elementwise_source.hpp"
#include "cuda/kernel_common.hpp"
#include "cuda/ops_types.hpp"
#include "ufunc/ufunc.hpp"

namespace cunp::index {
namespace {

// Note [ufunc.at kernels]: ufunc.at runs as the gather/scatter geometry of Note
// [Indexing kernels] (offsets kernel with the bounds check, then one thread per
// element of a[index] in C order), but each thread updates its element of `a`
// atomically, so repeated positions accumulate every update, as NumPy's unbuffered
// loop does:
//  - add/subtract of int32/uint32/int64/uint64/float32/float64 use atomicAdd (of the
//    negated value for subtract: exact for two's complement integers, and a - b is
//    a + (-b) in IEEE arithmetic); complex adds each component with atomicAdd, which
//    is what a complex sum is. maximum/minimum (and fmax/fmin) of the 32/64-bit
//    integers use atomicMax/atomicMin.
//  - Everything else is a compare-and-swap loop around the ufunc's own functor from
//    src/ops: read the element, compute cast<A>(cast<Out>(op(load_as<In0>(a), b))),
//    swap if unchanged. The functor carries NumPy's semantics (maximum propagates
//    NaN, integer arithmetic wraps), so no operation is written twice. 1- and 2-byte
//    elements swap their aligned 4-byte word (allocations are 512-byte aligned, so the
//    word lies inside the buffer); 16-byte elements (complex128) use sm_90's 128-bit
//    atomicCAS, and the host falls back to the CPU below sm_90.
//  - The order of updates to one position is not C order, so float results may round
//    differently from NumPy's (a sum's usual reassociation error).
constexpr std::string_view kTemplates = R"cunp_src(
namespace cunp_at {

template <int N> struct word_of;
template <> struct word_of<1> { using type = unsigned char; };
template <> struct word_of<2> { using type = unsigned short; };
template <> struct word_of<4> { using type = unsigned int; };
template <> struct word_of<8> { using type = unsigned long long; };
struct word16 {
  unsigned long long lo, hi;
};

// Replaces *p with f(*p) atomically.
template <typename T, typename F>
__device__ __forceinline__ void cas_update(T* p, const F& f) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    using W = typename word_of<sizeof(T)>::type;
    W* w = reinterpret_cast<W*>(p);
    W old = *reinterpret_cast<volatile W*>(w);
    while (true) {
      const T next = f(__builtin_bit_cast(T, old));
      const W seen = atomicCAS(w, old, __builtin_bit_cast(W, next));
      if (seen == old) break;
      old = seen;
    }
  } else if constexpr (sizeof(T) < 4) {
    const unsigned long long addr = reinterpret_cast<unsigned long long>(p);
    unsigned int* w = reinterpret_cast<unsigned int*>(addr & ~3ull);
    const unsigned int shift = static_cast<unsigned int>(addr & 3ull) * 8u;
    const unsigned int mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
    unsigned int old = *reinterpret_cast<volatile unsigned int*>(w);
    while (true) {
      using S = typename word_of<sizeof(T)>::type;
      const T next = f(__builtin_bit_cast(T, static_cast<S>((old & mask) >> shift)));
      const unsigned int bits = __builtin_bit_cast(S, next);
      const unsigned int word = (old & ~mask) | ((bits << shift) & mask);
      const unsigned int seen = atomicCAS(w, old, word);
      if (seen == old) break;
      old = seen;
    }
  } else {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    T old = *p;
    while (true) {
      const T next = f(old);
      const T seen = atomicCAS(p, old, next);
      const word16 a = __builtin_bit_cast(word16, seen), b = __builtin_bit_cast(word16, old);
      if (a.lo == b.lo && a.hi == b.hi) break;
      old = seen;
    }
#else
    __trap();
#endif
  }
}

__device__ __forceinline__ void native_add(cunp::ops::i32* p, cunp::ops::i32 v) {
  atomicAdd(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(v));
}
__device__ __forceinline__ void native_add(cunp::ops::u32* p, cunp::ops::u32 v) { atomicAdd(p, v); }
__device__ __forceinline__ void native_add(cunp::ops::i64* p, cunp::ops::i64 v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}
__device__ __forceinline__ void native_add(cunp::ops::u64* p, cunp::ops::u64 v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}
__device__ __forceinline__ void native_add(cunp::ops::f32* p, cunp::ops::f32 v) { atomicAdd(p, v); }
__device__ __forceinline__ void native_add(cunp::ops::f64* p, cunp::ops::f64 v) { atomicAdd(p, v); }
__device__ __forceinline__ void native_add(cunp::ops::c64* p, cunp::ops::c64 v) {
  atomicAdd(&p->re, v.re);
  atomicAdd(&p->im, v.im);
}
__device__ __forceinline__ void native_add(cunp::ops::c128* p, cunp::ops::c128 v) {
  atomicAdd(&p->re, v.re);
  atomicAdd(&p->im, v.im);
}

// The value whose addition subtracts v (two's complement for integers).
template <typename T>
__device__ __forceinline__ T negated(T v) {
  if constexpr (T(1) / T(2) == T(0)) {
    if constexpr (sizeof(T) == 4) return T(0u - static_cast<unsigned int>(v));
    else return T(0ull - static_cast<unsigned long long>(v));
  } else {
    return -v;
  }
}
__device__ __forceinline__ cunp::ops::c64 negated(cunp::ops::c64 v) { return {-v.re, -v.im}; }
__device__ __forceinline__ cunp::ops::c128 negated(cunp::ops::c128 v) { return {-v.re, -v.im}; }

__device__ __forceinline__ void native_max(cunp::ops::i32* p, cunp::ops::i32 v) { atomicMax(p, v); }
__device__ __forceinline__ void native_max(cunp::ops::u32* p, cunp::ops::u32 v) { atomicMax(p, v); }
__device__ __forceinline__ void native_max(cunp::ops::i64* p, cunp::ops::i64 v) {
  atomicMax(reinterpret_cast<long long*>(p), static_cast<long long>(v));
}
__device__ __forceinline__ void native_max(cunp::ops::u64* p, cunp::ops::u64 v) {
  atomicMax(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}
__device__ __forceinline__ void native_min(cunp::ops::i32* p, cunp::ops::i32 v) { atomicMin(p, v); }
__device__ __forceinline__ void native_min(cunp::ops::u32* p, cunp::ops::u32 v) { atomicMin(p, v); }
__device__ __forceinline__ void native_min(cunp::ops::i64* p, cunp::ops::i64 v) {
  atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v));
}
__device__ __forceinline__ void native_min(cunp::ops::u64* p, cunp::ops::u64 v) {
  atomicMin(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}

}  // namespace cunp_at
)cunp_src";

std::string str(std::string_view s) { return std::string(s); }
std::string type_name(DType dt) { return str(cuda::ops_type_name(dt)); }
std::string code(DType dt) { return str(cuda::ops_type_code(dt)); }


bool is_word_integer(DType dt) {
  return dt == DType::Int32 || dt == DType::UInt32 || dt == DType::Int64 || dt == DType::UInt64;
}

}  // namespace

AtomicKind at_atomic_kind(std::string_view functor, int nin, DType in0, DType in1, DType out,
                          DType storage) noexcept {
  if (nin != 2 || in0 != storage || in1 != storage || out != storage) return AtomicKind::Cas;
  const bool addable = is_word_integer(storage) || storage == DType::Float32 || storage == DType::Float64 ||
                       storage == DType::Complex64 || storage == DType::Complex128;
  if (functor == "cunp::ops::add" && addable) return AtomicKind::Add;
  if (functor == "cunp::ops::subtract" && addable) return AtomicKind::Subtract;
  if (!is_word_integer(storage)) return AtomicKind::Cas;
  if (functor == "cunp::ops::maximum" || functor == "cunp::ops::fmax") return AtomicKind::Max;
  if (functor == "cunp::ops::minimum" || functor == "cunp::ops::fmin") return AtomicKind::Min;
  return AtomicKind::Cas;
}

std::vector<AtKernelSpec> builtin_at_specs() {
  std::vector<AtKernelSpec> specs;
  for (std::string_view name : {"add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin", "bitwise_and",
                                "bitwise_or", "bitwise_xor"}) {
    const ufunc::Ufunc* uf = ufunc::find(name);
    if (uf == nullptr) continue;
    for (const ufunc::Loop& loop : uf->loops) {
      if (loop.in[0] != loop.out[0] || loop.in[1] != loop.out[0]) continue;
      AtKernelSpec spec{.functor = uf->functor_for(loop),
                        .header = uf->header,
                        .nin = 2,
                        .in0 = loop.in[0],
                        .in1 = loop.in[1],
                        .out = loop.out[0],
                        .storage = loop.out[0]};
      spec.atomic = at_atomic_kind(spec.functor, 2, spec.in0, spec.in1, spec.out, spec.storage);
      specs.push_back(spec);
    }
  }
  return specs;
}

std::string at_kernel_name(const AtKernelSpec& spec) {
  std::string name = "cunp_at_" + cuda::functor_name_part(spec.functor) + "_" + code(spec.in0);
  if (spec.nin == 2) name += code(spec.in1);
  name += "_" + code(spec.out) + "_" + code(spec.storage) + "_s" + std::to_string(spec.ndim);
  return name + (spec.index64 ? "_i64" : "_i32");
}

std::string at_kernels_preamble(std::string_view header) {
  return cuda::elementwise_preamble(header) + std::string(kTemplates);
}

std::string at_kernel_entry(const AtKernelSpec& spec) {
  const std::string name = at_kernel_name(spec);
  const std::string a = type_name(spec.storage);
  const std::string u = spec.index64 ? "unsigned long long" : "unsigned int";
  const std::string i = spec.index64 ? "long long" : "int";
  const std::string fixed = spec.ndim <= 4 ? "true" : "false";
  const bool binary = spec.nin == 2;
  std::string s;
  if (spec.atomic == AtomicKind::Cas) {
    // The update of one element, as a function object for the CAS loop.
    s += "struct " + name + "_update {\n";
    if (binary) s += "  " + type_name(ufunc::compute_dtype(spec.in1)) + " b;\n";
    s += "  __device__ __forceinline__ " + a + " operator()(" + a + " cur) const {\n";
    s += "    return cunp::ops::cast<" + a + ">(cunp::ops::cast<" + type_name(spec.out) + ">(" + str(spec.functor) +
         "{}(cunp_k::load_as<" + type_name(spec.in0) + ">(cur)" + (binary ? ", b" : "") + ")));\n";
    s += "  }\n};\n";
  }
  s += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(cuda::kKernelBlockSize) + ") " + name +
       "(char* dst, ";
  if (binary) s += "const " + type_name(spec.in1) + "* __restrict__ values, ";
  s += "const long long* __restrict__ offs, const __grid_constant__ cunp_k::strided_params<" + i + ", " +
       std::to_string(spec.ndim) + ", 2> p) {\n";
  s += "  const " + u + " n = (" + u + ")p.size;\n";
  s += "  const " + u + " nthreads = cunp_k::thread_count<" + u + ">();\n";
  s += "  for (" + u + " i = cunp_k::thread_index<" + u + ">(); i < n; i += nthreads) {\n";
  s += "    " + i + " o[2];\n";
  s += "    cunp_k::element_offsets<" + fixed + ">(p, i, o);\n";
  s += "    " + a + "* e = reinterpret_cast<" + a + "*>(dst + o[0] + offs[o[1]]);\n";
  switch (spec.atomic) {
    case AtomicKind::Add: s += "    cunp_at::native_add(e, values[i]);\n"; break;
    case AtomicKind::Subtract: s += "    cunp_at::native_add(e, cunp_at::negated(values[i]));\n"; break;
    case AtomicKind::Max: s += "    cunp_at::native_max(e, values[i]);\n"; break;
    case AtomicKind::Min: s += "    cunp_at::native_min(e, values[i]);\n"; break;
    case AtomicKind::Cas:
      if (binary)
        s += "    cunp_at::cas_update(e, " + name + "_update{cunp_k::load_as<" + type_name(spec.in1) +
             ">(values[i])});\n";
      else
        s += "    cunp_at::cas_update(e, " + name + "_update{});\n";
      break;
  }
  s += "  }\n}\n";
  return s;
}

cuda::KernelSource at_kernel_source(const AtKernelSpec& spec) {
  cuda::KernelSource source;
  source.options = cuda::elementwise_compile_options();
  source.kernel_name = at_kernel_name(spec);
  source.source = at_kernels_preamble(spec.header) + at_kernel_entry(spec);
  return source;
}

cuda::KernelKey at_kernel_key(const AtKernelSpec& spec, int arch) noexcept {
  cuda::KernelKey key;
  const std::uint64_t h = cuda::op_id(spec.header);
  key.op = (cuda::op_id(spec.functor) ^ cuda::op_id("cunp.at")) + (h << 17 | h >> 47) * 0x9e3779b97f4a7c15ull;
  key.variant = static_cast<std::uint64_t>(spec.nin) | static_cast<std::uint64_t>(spec.atomic) << 8;
  key.dtypes[0] = static_cast<std::uint8_t>(spec.in0);
  key.dtypes[1] = static_cast<std::uint8_t>(spec.nin == 2 ? spec.in1 : spec.in0);
  key.dtypes[2] = static_cast<std::uint8_t>(spec.out);
  key.dtypes[3] = static_cast<std::uint8_t>(spec.storage);
  key.ndim = static_cast<std::uint8_t>(spec.ndim);
  key.layout = cuda::LayoutClass::Strided;
  key.index_bits = spec.index64 ? 64 : 32;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

}  // namespace cunp::index

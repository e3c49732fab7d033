// src/ufunc/elementwise_source.cpp — see elementwise_source.hpp.
#include "ufunc/elementwise_source.hpp"

#include <algorithm>
#include <atomic>

#include "cuda/kernel_common.hpp"
#include "cuda/ops_types.hpp"

namespace cunp::cuda {
namespace {

// Note [Elementwise kernels]: a ufunc loop kernel is generated as straight-line text
// per (functor, loop dtypes, storage dtypes, scalar operands, layout, index width):
//  - `<name>_apply(r0[, r1], x...)` does one element: each array input is read in its
//    storage dtype and converted with cunp_k::load_as<Loop> (ops::cast to the loop
//    dtype, then float16 to float: the functor gets compute types), each scalar comes
//    already converted; the functor's result goes through ops::cast to the loop's
//    output dtype and then to the output's storage dtype (NumPy rounds twice too).
//  - Contiguous: a scalar head until operand 0 is pack-aligned, whole packs of P
//    elements (16 bytes of the widest operand; the host checks that every array
//    operand is aligned at the same element, else head == n and all runs scalar),
//    elementwise_unroll() packs per operand loaded before any is used, a scalar tail
//    (head and tail share one loop). The functor is inlined P * unroll + 1 times,
//    which is what NVRTC's time goes into for heavy functors (sin of complex128):
//    the unroll keeps P * unroll at about 8 elements per thread and pass.
//  - Strided: cunp_k::element_offsets over the array operands only.
//  - Scalars are by-value parameters of the loop dtype, converted to the compute type
//    once per thread. Pointers carry no __restrict__: an output may be an input (a
//    += b); each element is read before it is written, by the same thread.
constexpr std::string_view kHelpers = R"cunp_src(
namespace cunp_k {

// A value of storage type S as the functor sees loop type L: cast to L, then float16
// computes as float.
template <typename L, typename S>
__device__ __forceinline__ auto load_as(S x) {
  if constexpr (cunp::ops::is_same<L, cunp::ops::half>::value)
    return cunp::ops::half_to_f32(cunp::ops::cast<cunp::ops::half>(x));
  else
    return cunp::ops::cast<L>(x);
}

}  // namespace cunp_k
)cunp_src";

std::atomic<bool> g_force_index64{false};
std::atomic<int> g_unroll_override{0};

std::string str(std::string_view s) { return std::string(s); }

std::string type_name(DType dt) { return str(ops_type_name(dt)); }

// The compute type the functor receives for a loop dtype.
std::string compute_name(DType dt) { return type_name(ufunc::compute_dtype(dt)); }


// The array operands' indices and, for each operand, its slot among them.
struct ArrayOperands {
  int count = 0;
  int index[kMaxUfuncOperands] = {};
  int slot[kMaxUfuncOperands] = {};
};
ArrayOperands array_operands(const ElementwiseSpec& spec) {
  ArrayOperands a;
  for (int k = 0; k < spec.noperands(); ++k) {
    a.slot[k] = -1;
    if (!spec.is_scalar(k)) {
      a.slot[k] = a.count;
      a.index[a.count++] = k;
    }
  }
  return a;
}

std::string apply_function(const ElementwiseSpec& spec, const std::string& name) {
  const int nout = spec.nout;
  std::string s = "__device__ __forceinline__ void " + name + "_apply(";
  for (int k = 0; k < nout; ++k) s += (k ? ", " : "") + type_name(spec.storage[k]) + "& r" + std::to_string(k);
  for (int k = nout; k < spec.noperands(); ++k) {
    const std::string t = spec.is_scalar(k) ? compute_name(spec.loop[k]) : type_name(spec.storage[k]);
    s += ", " + t + " x" + std::to_string(k);
  }
  s += ") {\n";
  std::string args;
  for (int k = nout; k < spec.noperands(); ++k) {
    const std::string x = "x" + std::to_string(k);
    args += (k > nout ? ", " : "") +
            (spec.is_scalar(k) ? x : "cunp_k::load_as<" + type_name(spec.loop[k]) + ">(" + x + ")");
  }
  const std::string functor = str(spec.functor) + "{}";
  auto store = [&](int k, const std::string& value) {
    return "  r" + std::to_string(k) + " = cunp::ops::cast<" + type_name(spec.storage[k]) +
           ">(cunp::ops::cast<" + type_name(spec.loop[k]) + ">(" + value + "));\n";
  };
  if (nout == 1) {
    s += store(0, functor + "(" + args + ")");
  } else {
    for (int k = 0; k < nout; ++k)
      s += "  " + compute_name(spec.loop[k]) + " o" + std::to_string(k) + "{};\n";
    s += "  " + functor + "(" + args;
    for (int k = 0; k < nout; ++k) s += ", o" + std::to_string(k);
    s += ");\n";
    for (int k = 0; k < nout; ++k) s += store(k, "o" + std::to_string(k));
  }
  s += "}\n";
  return s;
}

// Kernel parameters: arrays as pointers (`T*` or `char*`), scalars by value.
std::string parameter_list(const ElementwiseSpec& spec, bool typed_pointers) {
  std::string s;
  for (int k = 0; k < spec.noperands(); ++k) {
    if (k) s += ", ";
    const std::string n = std::to_string(k);
    if (spec.is_scalar(k)) {
      s += type_name(spec.loop[k]) + " s" + n;
    } else {
      const std::string c = k < spec.nout ? "" : "const ";
      s += c + (typed_pointers ? type_name(spec.storage[k]) : "char") + "* p" + n;
    }
  }
  return s;
}

std::string scalar_conversions(const ElementwiseSpec& spec) {
  std::string s;
  for (int k = spec.nout; k < spec.noperands(); ++k)
    if (spec.is_scalar(k)) {
      const std::string n = std::to_string(k);
      s += "  const " + compute_name(spec.loop[k]) + " c" + n + " = cunp_k::load_as<" +
           type_name(spec.loop[k]) + ">(s" + n + ");\n";
    }
  return s;
}

// The call of <name>_apply with each operand spelled by `operand(k)`.
template <typename F>
std::string apply_call(const ElementwiseSpec& spec, const std::string& name, F&& operand) {
  std::string s = name + "_apply(";
  for (int k = 0; k < spec.noperands(); ++k) {
    if (k) s += ", ";
    s += spec.is_scalar(k) ? "c" + std::to_string(k) : operand(k);
  }
  return s + ");";
}

std::string contiguous_body(const ElementwiseSpec& spec, const std::string& name) {
  const std::string p = std::to_string(elementwise_pack_elements(spec));
  const std::string unroll = std::to_string(elementwise_unroll(spec));
  auto pack = [&](int k) { return "cunp_k::pack<" + type_name(spec.storage[k]) + ", " + p + ">"; };
  std::string s;
  s += "  const U tid = cunp_k::thread_index<U>();\n";
  s += "  const U nthreads = cunp_k::thread_count<U>();\n";
  s += "  const U npacks = (n - head) / " + p + ";\n";
  s += "  const U tail = head + npacks * " + p + ";\n";
  const std::string one =
      apply_call(spec, name, [](int k) { return "p" + std::to_string(k) + "[i]"; });
  // The head and the tail in one loop, so the functor is inlined once for both.
  s += "  for (U k = tid; k < head + (n - tail); k += nthreads) {\n";
  s += "    const U i = k < head ? k : tail + (k - head);\n";
  s += "    " + one + "\n  }\n";
  for (int k = 0; k < spec.noperands(); ++k) {
    if (spec.is_scalar(k)) continue;
    const std::string n = std::to_string(k);
    const std::string c = k < spec.nout ? "" : "const ";
    s += "  " + c + pack(k) + "* v" + n + " = reinterpret_cast<" + c + pack(k) + "*>(p" + n +
         " + head);\n";
  }
  s += "  for (U base = tid; base < npacks; base += nthreads * " + unroll + ") {\n";
  for (int k = spec.nout; k < spec.noperands(); ++k)
    if (!spec.is_scalar(k)) s += "    " + pack(k) + " a" + std::to_string(k) + "[" + unroll + "];\n";
  s += "#pragma unroll\n    for (int u = 0; u < " + unroll + "; ++u) {\n";
  s += "      const U j = base + u * nthreads;\n      if (j < npacks) {\n";
  for (int k = spec.nout; k < spec.noperands(); ++k)
    if (!spec.is_scalar(k)) {
      const std::string n = std::to_string(k);
      s += "        a" + n + "[u] = v" + n + "[j];\n";
    }
  s += "      }\n    }\n";
  s += "#pragma unroll\n    for (int u = 0; u < " + unroll + "; ++u) {\n";
  s += "      const U j = base + u * nthreads;\n      if (j < npacks) {\n";
  for (int k = 0; k < spec.nout; ++k) s += "        " + pack(k) + " r" + std::to_string(k) + ";\n";
  s += "#pragma unroll\n        for (int e = 0; e < " + p + "; ++e) " +
       apply_call(spec, name,
                  [&](int k) {
                    const std::string n = std::to_string(k);
                    return k < spec.nout ? "r" + n + ".v[e]" : "a" + n + "[u].v[e]";
                  }) +
       "\n";
  for (int k = 0; k < spec.nout; ++k) {
    const std::string n = std::to_string(k);
    s += "        v" + n + "[j] = r" + n + ";\n";
  }
  s += "      }\n    }\n  }\n";
  return s;
}

std::string strided_body(const ElementwiseSpec& spec, const std::string& name,
                         const ArrayOperands& arrays) {
  const std::string nops = std::to_string(arrays.count);
  std::string s;
  s += "  const U n = (U)p.size;\n";
  s += "  const U nthreads = cunp_k::thread_count<U>();\n";
  s += "  for (U i = cunp_k::thread_index<U>(); i < n; i += nthreads) {\n";
  s += "    I off[" + nops + "];\n";
  s += "    cunp_k::element_offsets<" + std::string(spec.ndim <= 4 ? "true" : "false") +
       ">(p, i, off);\n";
  s += "    " +
       apply_call(spec, name,
                  [&](int k) {
                    const std::string c = k < spec.nout ? "" : "const ";
                    return "*reinterpret_cast<" + c + type_name(spec.storage[k]) + "*>(p" +
                           std::to_string(k) + " + off[" + std::to_string(arrays.slot[k]) + "])";
                  }) +
       "\n";
  s += "  }\n";
  return s;
}

}  // namespace

ElementwiseSpec elementwise_spec(const ufunc::Ufunc& uf, const ufunc::Loop& loop) noexcept {
  ElementwiseSpec spec;
  spec.functor = uf.functor_for(loop);  // a loop may have its own (nextafter's float16 loop)
  spec.header = uf.header;
  spec.nin = uf.nin;
  spec.nout = uf.nout;
  for (int k = 0; k < uf.nout; ++k) spec.loop[k] = loop.out[static_cast<std::size_t>(k)];
  for (int j = 0; j < uf.nin; ++j) spec.loop[uf.nout + j] = loop.in[static_cast<std::size_t>(j)];
  spec.storage = spec.loop;
  return spec;
}

int elementwise_unroll(const ElementwiseSpec& spec) noexcept {
  if (spec.unroll > 0) return spec.unroll;
  return std::clamp(8 / elementwise_pack_elements(spec), 1, 4);
}

int elementwise_pack_elements(const ElementwiseSpec& spec) noexcept {
  std::size_t widest = 1;
  for (int k = 0; k < spec.noperands(); ++k)
    if (!spec.is_scalar(k)) widest = std::max(widest, itemsize(spec.storage[k]));
  return static_cast<int>(16 / widest);
}

std::string elementwise_kernel_name(const ElementwiseSpec& spec) {
  std::string name = "cunp_uf_" + functor_name_part(spec.functor) + "_";
  for (int k = spec.nout; k < spec.noperands(); ++k) name += ops_type_code(spec.loop[k]);
  name += "_";
  for (int k = 0; k < spec.nout; ++k) name += ops_type_code(spec.loop[k]);
  name += "_";
  for (int k = 0; k < spec.noperands(); ++k)
    name += spec.is_scalar(k) ? std::string_view("s") : ops_type_code(spec.storage[k]);
  name += spec.ndim == 0 ? "_c" : "_s" + std::to_string(spec.ndim);
  name += spec.index64 ? "_i64" : "_i32";
  if (spec.unroll > 0) name += "_u" + std::to_string(spec.unroll);
  return name;
}

std::string elementwise_preamble(std::string_view header) {
  std::string s = "#include \"cast.h\"\n";
  if (header.find('\n') != std::string_view::npos) {
    s += header;
    s += "\n";
  } else if (!header.empty()) {
    s += "#include \"" + str(header) + "\"\n";
  }
  s += kernel_helpers_source();
  s += kHelpers;
  return s;
}

std::string elementwise_kernel_entry(const ElementwiseSpec& spec) {
  const std::string name = elementwise_kernel_name(spec);
  const ArrayOperands arrays = array_operands(spec);
  const std::string u = spec.index64 ? "unsigned long long" : "unsigned int";
  const std::string i = spec.index64 ? "long long" : "int";
  std::string s = apply_function(spec, name);
  s += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kKernelBlockSize) + ") " +
       name + "(";
  if (spec.ndim == 0) {
    s += parameter_list(spec, true) + ", " + u + " n, " + u + " head) {\n";
    s += "  using U = " + u + ";\n";
    s += scalar_conversions(spec);
    s += contiguous_body(spec, name);
  } else {
    s += parameter_list(spec, false) + ", const __grid_constant__ cunp_k::strided_params<" + i +
         ", " + std::to_string(spec.ndim) + ", " + std::to_string(arrays.count) + "> p) {\n";
    s += "  using U = " + u + ";\n  using I = " + i + ";\n";
    s += scalar_conversions(spec);
    s += strided_body(spec, name, arrays);
  }
  s += "}\n";
  return s;
}

CompileOptions elementwise_compile_options() {
  CompileOptions options;
  options.extra_options = {"--fmad=false"};
  return options;
}

KernelSource elementwise_kernel_source(const ElementwiseSpec& spec) {
  KernelSource source;
  source.options = elementwise_compile_options();
  source.kernel_name = elementwise_kernel_name(spec);
  source.source = elementwise_preamble(spec.header) + elementwise_kernel_entry(spec);
  return source;
}

KernelKey elementwise_kernel_key(const ElementwiseSpec& spec, int arch) noexcept {
  constexpr std::uint64_t kTag = op_id("cunp.ufunc");
  KernelKey key;
  const std::uint64_t h = op_id(spec.header);
  key.op = (op_id(spec.functor) ^ kTag) + (h << 17 | h >> 47) * 0x9e3779b97f4a7c15ull;
  // variant: loop dtypes (4 bits each, up to 8 operands), the scalar mask, nin, nout and
  // the unroll.
  static_assert(kMaxUfuncOperands <= 8, "the variant holds 8 loop dtypes");
  std::uint64_t v = 0;
  for (int k = 0; k < spec.noperands(); ++k)
    v |= std::uint64_t{static_cast<std::uint8_t>(spec.loop[k])} << (4 * k);
  v |= std::uint64_t{spec.scalar_mask} << 32;
  v |= std::uint64_t(spec.nin) << 40 | std::uint64_t(spec.nout) << 44;
  v |= std::uint64_t(static_cast<std::uint8_t>(spec.unroll)) << 48;
  key.variant = v;
  for (int k = 0; k < spec.noperands(); ++k)
    key.dtypes[static_cast<std::size_t>(k)] =
        static_cast<std::uint8_t>(spec.is_scalar(k) ? spec.loop[k] : spec.storage[k]);
  key.ndim = static_cast<std::uint8_t>(spec.ndim);
  key.layout = spec.ndim == 0 ? LayoutClass::Contiguous : LayoutClass::Strided;
  key.index_bits = spec.index64 ? 64 : 32;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

void set_elementwise_force_index64(bool force) noexcept {
  g_force_index64.store(force, std::memory_order_relaxed);
}
bool elementwise_force_index64() noexcept {
  return g_force_index64.load(std::memory_order_relaxed);
}
void set_elementwise_unroll_override(int unroll) noexcept {
  g_unroll_override.store(std::clamp(unroll, 0, 8), std::memory_order_relaxed);
}
int elementwise_unroll_override() noexcept { return g_unroll_override.load(std::memory_order_relaxed); }

}  // namespace cunp::cuda

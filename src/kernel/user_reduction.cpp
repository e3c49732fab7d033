// src/kernel/user_reduction.cpp — ReductionKernel (cunp/reduction_kernel.hpp): argument
// checks, the reduction layout, source generation, the per-object kernel memo and the
// launch. Parameter parsing and type resolution are ElementwiseKernel's
// (kernel/user_elementwise.hpp).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "runtime/check.hpp"
#include "runtime/kernel_cache.hpp"
#include "cuda/kernel_common.hpp"
#include "runtime/runtime.hpp"
#include "kernel/user_elementwise.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/reduction_kernel.hpp"
#include "iter/layout.hpp"
#include "reduce/plan.hpp"

namespace cunp {

using cuda::user::ArgType;

struct ReductionKernel::Impl {
  cuda::user::Signature sig;
  std::vector<KernelParam> in, out;
  std::string map_expr, reduce_expr, post_map_expr, identity, name, reduce_type;
  ReductionKernelOptions options;
  // Compiled kernels by a few bytes describing the call (see memo_key), as
  // Note [ElementwiseKernel memo] describes for ElementwiseKernel.
  mutable std::shared_mutex mutex;
  mutable std::unordered_map<std::string, cuda::Kernel> kernels;
};

namespace {

constexpr int kBlock = 256;

std::string prefix(const ReductionKernel::Impl& k) { return "ReductionKernel '" + k.name + "': "; }

// Everything a call decides before it compiles or launches.
struct Plan {
  std::vector<DType> dtypes;    // per parameter
  std::vector<ndarray> arrays;  // per parameter (undefined for scalars)
  std::vector<int> in_arrays;   // input parameters that are arrays
  iter::LoopLayout outer;       // kept axes: outputs, then the input arrays
  iter::LoopLayout inner;       // reduced axes: the input arrays
  Device device;
};

Plan make_plan(const ReductionKernel::Impl& k, const std::vector<KernelArg>& args,
               const ReductionCallOptions& call) {
  const cuda::user::Signature& sig = k.sig;
  const int nin = sig.nin, nout = sig.nout, nparams = nin + nout;
  const int nargs = static_cast<int>(args.size());
  if (nargs != nin && nargs != nparams)
    throw TypeError("Wrong number of arguments for '" + k.name + "'. It must be either " +
                    std::to_string(nin) + " or " + std::to_string(nparams) +
                    " (with outputs), but given " + std::to_string(nargs) + ".");
  for (const KernelParam& p : sig.params)
    if (p.raw)
      throw ValueError(prefix(k) + "raw parameters are not supported (parameter '" + p.name + "')");

  Plan plan;
  plan.dtypes = cuda::user::resolve_arg_types(sig, args, k.name, prefix(k));

  // Broadcast the input arrays; every array on one device.
  std::vector<Shape> shapes;
  std::optional<Device> device;
  for (int p = 0; p < nargs; ++p) {
    const KernelArg& a = args[static_cast<std::size_t>(p)];
    if (!a.is_array()) continue;
    const Device d = a.array().device();
    if (!device)
      device = d;
    else if (!(*device == d))
      throw ValueError(prefix(k) + "arguments are on different devices (" + device->str() +
                       " and " + d.str() + ")");
    if (p < nin) {
      shapes.push_back(a.array().shape());
      plan.in_arrays.push_back(p);
    }
  }
  if (plan.in_arrays.empty()) throw ValueError("Loop size is undecided.");
  const Shape shape = broadcast_shapes(shapes);
  plan.device = *device;
  const ndarray shaped =
      args[static_cast<std::size_t>(plan.in_arrays[0])].array().broadcast_to(shape);
  const reduce::ReducePlan rp = reduce::make_plan(shaped, call.axis, call.keepdims);

  plan.arrays.resize(static_cast<std::size_t>(nparams));
  for (int p : plan.in_arrays) plan.arrays[p] = args[static_cast<std::size_t>(p)].array();
  for (int p = nin; p < nparams; ++p) {
    if (nargs == nparams) {
      const ndarray& o = args[static_cast<std::size_t>(p)].array();
      if (o.shape() != rp.out_shape)
        throw ValueError("Out shape is mismatched: output '" + sig.params[p].name + "' has shape " +
                         shape_str(o.shape()) + ", the reduction gives " + shape_str(rp.out_shape));
      if (!o.writeable()) throw ValueError("output array is read-only");
      plan.arrays[p] = o;
    } else {
      plan.arrays[p] = empty(rp.out_shape, {.dtype = plan.dtypes[p], .device = plan.device});
    }
  }

  // The two walks (Note [Reduce layout]): outputs take stride 0 on the reduced axes.
  Shape kept, red;
  std::vector<Strides> outer_strides(static_cast<std::size_t>(nout) + plan.in_arrays.size());
  std::vector<Strides> inner_strides(plan.in_arrays.size());
  std::vector<Strides> in_full;
  for (int p : plan.in_arrays) in_full.push_back(iter::broadcast_strides(plan.arrays[p], shape));
  std::size_t out_dim = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const bool reduced = rp.reduced[d];
    if (reduced)
      red.push_back(shape[d]);
    else
      kept.push_back(shape[d]);
    for (int o = 0; o < nout; ++o) {
      const ndarray& a = plan.arrays[static_cast<std::size_t>(nin + o)];
      if (!reduced) outer_strides[static_cast<std::size_t>(o)].push_back(a.strides()[out_dim]);
    }
    if (!reduced || call.keepdims) ++out_dim;
    for (std::size_t j = 0; j < plan.in_arrays.size(); ++j) {
      if (reduced)
        inner_strides[j].push_back(in_full[j][d]);
      else
        outer_strides[static_cast<std::size_t>(nout) + j].push_back(in_full[j][d]);
    }
  }
  plan.outer = iter::make_layout(kept, outer_strides);
  plan.inner = iter::make_layout(red, inner_strides);
  if (plan.outer.size > 0 && plan.inner.size == 0 && k.identity.empty())
    throw ValueError("zero-size array to reduction operation " + k.name + " which has no identity");
  return plan;
}

bool mentions(const ReductionKernel::Impl& k, std::string_view word) {
  for (const std::string* s : {&k.map_expr, &k.reduce_expr, &k.post_map_expr, &k.identity,
                               &k.options.preamble, &k.reduce_type})
    if (s->find(word) != std::string::npos) return true;
  return false;
}

int outer_ndim(const Plan& plan) { return std::max(1, plan.outer.ndim()); }
int inner_ndim(const Plan& plan) { return std::max(1, plan.inner.ndim()); }

// Note [ReductionKernel source]: the support code of user kernels, the strided-offset
// helpers of the built-in kernels (cunp_k), the placeholder typedefs, `_type_reduce`,
// the user's preamble and one kernel. G threads (a power of two, 32..256) own one
// output: they walk its reduced elements (offsets from the inner layout), map and
// fold them into a per-thread value, then combine those in a shared-memory tree; the
// group's first thread runs post_map_expr. A flag marks a value that has seen no
// element, so a kernel without identity never reads an undefined one.
//
// Note [Split reductions]: with few outputs (a full reduction has one) one group per
// output would leave the device idle, so the host may cut each output's reduced
// range into `split` pieces (grid.y), G = the whole block. Each block then writes
// its piece's value and flag to a 32-byte slot of a workspace, fences, and counts
// itself in the output's counter; the block that arrives last reads the slots (L2
// loads: other blocks wrote them), folds them in slot order, as one more tree, and
// runs post_map_expr. The pieces are combined in a fixed order, so results do not
// depend on scheduling. The host splits only when it knows the reduce type's size
// (a dtype's type or a placeholder) and it fits a slot.
std::string generate(const ReductionKernel::Impl& k, const Plan& plan) {
  const cuda::user::Signature& sig = k.sig;
  const std::size_t n = sig.params.size();
  const int nout = sig.nout;
  const std::size_t nina = plan.in_arrays.size();
  bool uses_half = mentions(k, "float16"), uses_complex = mentions(k, "complex");
  for (DType dt : plan.dtypes) {
    uses_half |= dt == DType::Float16;
    uses_complex |= is_complex(dt);
  }
  std::string src = "// cunp ReductionKernel '" + k.name + "'\n";
  src += cuda::user::support_source(uses_half, uses_complex);
  src += cuda::kernel_helpers_source();
  for (std::size_t ph = 0; ph < sig.placeholders.size(); ++ph)
    for (std::size_t p = 0; p < n; ++p)
      if (sig.placeholder[p] == static_cast<int>(ph)) {
        src += "typedef " + std::string(cuda::user::kernel_type_name(plan.dtypes[p])) + " " +
               sig.placeholders[ph] + ";\n";
        break;
      }
  // Conversions to the reduce type: a constructor, or ops::cast for complex (CuPy's
  // complex<T> takes a real value; cunp::ops::complex is built from its parts).
  src +=
      "template <typename R> struct _cunp_conv {\n  template <typename V> __device__ "
      "__forceinline__ static R f(const V& v) "
      "{ return R(v); }\n};\n";
  if (uses_complex)
    src +=
        "template <typename T> struct _cunp_conv<complex<T>> {\n  template <typename V> __device__ "
        "__forceinline__ "
        "static complex<T> f(const V& v) { return complex<T>{(T)v, (T)0}; }\n"
        "  template <typename U> __device__ __forceinline__ static complex<T> f(const complex<U>& "
        "v) "
        "{ return complex<T>{(T)v.re, (T)v.im}; }\n};\n";
  // A split piece's value, read back through L2 (Note [Split reductions]).
  src +=
      "template <typename R> __device__ __forceinline__ R _cunp_load_slot(const unsigned char* p) {\n"
      "  alignas(16) unsigned int w[4];\n#pragma unroll\n  for (int k = 0; k < 4; ++k) w[k] = __ldcg(reinterpret_cast<const "
      "unsigned int*>(p) + k);\n  return *reinterpret_cast<const R*>(w);\n}\n";
  src += "typedef " + k.reduce_type + " _type_reduce;\n";
  src += k.options.preamble + "\n";
  const std::string no = std::to_string(outer_ndim(plan)), ni = std::to_string(inner_ndim(plan));
  const std::string nops_o = std::to_string(static_cast<std::size_t>(nout) + nina),
                    nops_i = std::to_string(nina);
  src += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kBlock) + ") " +
         k.name + "(";
  for (std::size_t p = 0; p < n; ++p) {
    const bool output = static_cast<int>(p) >= sig.nin;
    if (plan.arrays[p].defined())
      src += (output ? "char* _cunp_p_" : "const char* _cunp_p_") + sig.params[p].name + ", ";
    else
      src += "const " + cuda::user::param_type(sig, p, plan.dtypes[p]) + " " + sig.params[p].name + ", ";
  }
  src += "const __grid_constant__ cunp_k::strided_params<long long, " + no + ", " + nops_o +
         "> _cunp_po, const __grid_constant__ cunp_k::strided_params<long long, " + ni + ", " +
         nops_i +
         "> _cunp_pi, long long _cunp_nout, long long _cunp_nred, int _cunp_g, int _cunp_split, "
         "unsigned char* _cunp_ws, unsigned int* _cunp_cnt) {\n";
  src += "  __shared__ alignas(16) unsigned char _cunp_raw[" + std::to_string(kBlock) +
         " * sizeof(_type_reduce)];\n";
  src += "  __shared__ bool _cunp_ok[" + std::to_string(kBlock) + "];\n";
  src += "  __shared__ bool _cunp_last;\n";
  src += "  _type_reduce* _cunp_sh = reinterpret_cast<_type_reduce*>(_cunp_raw);\n";
  src += "  const int _cunp_t = threadIdx.x;\n";
  src += "  const int _cunp_lane = _cunp_t & (_cunp_g - 1);\n";
  src += "  const int _cunp_per = " + std::to_string(kBlock) + " / _cunp_g;\n";
  const std::string fold =
      "        if (_cunp_has) {\n          const _type_reduce a = _cunp_s, b = _cunp_m;\n          "
      "_cunp_s = _cunp_conv<_type_reduce>::f(" +
      k.reduce_expr +
      ");\n        } else {\n          _cunp_s = _cunp_m;\n          _cunp_has = true;\n        "
      "}\n";
  const std::string start_value =
      k.identity.empty() ? "    _type_reduce _cunp_s = _type_reduce();\n    bool _cunp_has = false;\n"
                         : "    _type_reduce _cunp_s = _cunp_conv<_type_reduce>::f(" + k.identity +
                               ");\n    bool _cunp_has = true;\n";
  // The shared-memory tree over each group of G threads.
  const std::string tree =
      "    _cunp_sh[_cunp_t] = _cunp_s;\n    _cunp_ok[_cunp_t] = _cunp_has;\n    __syncthreads();\n"
      "    for (int _cunp_h = _cunp_g >> 1; _cunp_h > 0; _cunp_h >>= 1) {\n"
      "      if (_cunp_lane < _cunp_h && _cunp_ok[_cunp_t + _cunp_h]) {\n"
      "        if (_cunp_ok[_cunp_t]) {\n          const _type_reduce a = _cunp_sh[_cunp_t], b = "
      "_cunp_sh[_cunp_t + _cunp_h];\n"
      "          _cunp_sh[_cunp_t] = _cunp_conv<_type_reduce>::f(" +
      k.reduce_expr +
      ");\n        } else {\n          _cunp_sh[_cunp_t] = _cunp_sh[_cunp_t + _cunp_h];\n"
      "          _cunp_ok[_cunp_t] = true;\n        }\n      }\n      __syncthreads();\n    }\n";
  std::string post;
  post += "      const _type_reduce a = _cunp_sh[_cunp_t];\n";
  for (int o = 0; o < nout; ++o) {
    const auto p = static_cast<std::size_t>(sig.nin + o);
    const std::string type = cuda::user::param_type(sig, p, plan.dtypes[p]);
    const std::string& pn = sig.params[p].name;
    post += "      " + type + "& " + pn + " = *reinterpret_cast<" + type + "*>(_cunp_p_" + pn +
            " + _cunp_off[" + std::to_string(o) + "]);\n";
  }
  post += "      " + k.post_map_expr + ";\n";

  src +=
      "  for (long long _cunp_base = (long long)blockIdx.x * _cunp_per; _cunp_base < _cunp_nout;"
      " _cunp_base += (long long)gridDim.x * _cunp_per) {\n";
  src += "    const long long _cunp_o = _cunp_base + _cunp_t / _cunp_g;\n";
  src += start_value;
  src += "    long long _cunp_off[" + nops_o + "];\n";
  src += "    if (_cunp_o < _cunp_nout) {\n";
  src +=
      "      cunp_k::element_offsets<false>(_cunp_po, (unsigned long long)_cunp_o, _cunp_off);\n";
  src += "#pragma unroll 4\n";
  src +=
      "      for (long long _cunp_r = _cunp_lane + (long long)blockIdx.y * _cunp_g; _cunp_r < _cunp_nred;"
      " _cunp_r += (long long)_cunp_g * _cunp_split) {\n";
  src += "        long long _cunp_ioff[" + nops_i + "];\n";
  src +=
      "        cunp_k::element_offsets<false>(_cunp_pi, (unsigned long long)_cunp_r, "
      "_cunp_ioff);\n";
  for (std::size_t j = 0; j < nina; ++j) {
    const auto p = static_cast<std::size_t>(plan.in_arrays[j]);
    const std::string type = cuda::user::param_type(sig, p, plan.dtypes[p]);
    const std::string& pn = sig.params[p].name;
    src += "        const " + type + "& " + pn + " = *reinterpret_cast<const " + type +
           "*>(_cunp_p_" + pn + " + _cunp_off[" +
           std::to_string(static_cast<std::size_t>(nout) + j) + "] + _cunp_ioff[" +
           std::to_string(j) + "]);\n";
  }
  src += "        const _type_reduce _cunp_m = _cunp_conv<_type_reduce>::f(" + k.map_expr + ");\n";
  src += fold;
  src += "      }\n    }\n";
  src += tree;
  src += "    if (_cunp_split == 1) {\n";
  src += "      if (_cunp_o < _cunp_nout && _cunp_lane == 0) {\n" + post + "      }\n";
  src += "    } else {\n";
  // One output per block here (G is the block).
  src += "      if (_cunp_t == 0) {\n";
  src += "        unsigned char* _cunp_slot = _cunp_ws + 32 * (_cunp_o * _cunp_split + blockIdx.y);\n";
  src += "        *reinterpret_cast<_type_reduce*>(_cunp_slot) = _cunp_sh[0];\n";
  src += "        *reinterpret_cast<unsigned int*>(_cunp_slot + 16) = _cunp_ok[0] ? 1u : 0u;\n";
  src += "        __threadfence();\n";
  src += "        _cunp_last = atomicAdd(_cunp_cnt + _cunp_o, 1u) == (unsigned int)_cunp_split - 1;\n";
  src += "      }\n      __syncthreads();\n";
  src += "      if (_cunp_last) {\n        __threadfence();\n";
  src += "        _type_reduce _cunp_s = _type_reduce();\n        bool _cunp_has = false;\n";
  src += "        for (int _cunp_k = _cunp_t; _cunp_k < _cunp_split; _cunp_k += " + std::to_string(kBlock) +
         ") {\n";
  src += "          const unsigned char* _cunp_slot = _cunp_ws + 32 * (_cunp_o * _cunp_split + _cunp_k);\n";
  src += "          if (__ldcg(reinterpret_cast<const unsigned int*>(_cunp_slot + 16)) == 0u) continue;\n";
  src += "          const _type_reduce _cunp_m = _cunp_load_slot<_type_reduce>(_cunp_slot);\n";
  src += fold;
  src += "        }\n";
  src += tree;
  src += "        if (_cunp_t == 0) {\n" + post + "        }\n";
  src += "      }\n    }\n";
  src += "    __syncthreads();\n  }\n}\n";
  return src;
}

std::string memo_key(const Plan& plan, int arch) {
  std::string key;
  for (std::size_t p = 0; p < plan.dtypes.size(); ++p) {
    key.push_back(static_cast<char>(plan.dtypes[p]));
    key.push_back(static_cast<char>(plan.arrays[p].defined()));
  }
  key.push_back(static_cast<char>(outer_ndim(plan)));
  key.push_back(static_cast<char>(inner_ndim(plan)));
  key.push_back(static_cast<char>(arch & 0xff));
  key.push_back(static_cast<char>(arch >> 8));
  return key;
}

cuda::KernelSource kernel_source(const ReductionKernel::Impl& k, const Plan& plan) {
  cuda::KernelSource source;
  source.kernel_name = k.name;
  source.source = generate(k, plan);
  source.options.extra_options = k.options.options;
  return source;
}

cuda::Kernel kernel_for(const ReductionKernel::Impl& k, const Plan& plan, int arch) {
  return cuda::user::memoized_kernel(k.mutex, k.kernels, memo_key(plan, arch), "cunp.user.reduction", arch,
                                     [&] { return kernel_source(k, plan); });
}

// The size of `_type_reduce` when the host knows it: a placeholder's dtype or a dtype's
// C++ name (Note [Split reductions]); nullopt for other types.
std::optional<std::size_t> reduce_type_size(const ReductionKernel::Impl& k, const Plan& plan) {
  const cuda::user::Signature& sig = k.sig;
  for (std::size_t p = 0; p < sig.params.size(); ++p) {
    const int ph = sig.placeholder[p];
    if (ph >= 0 && sig.placeholders[static_cast<std::size_t>(ph)] == k.reduce_type) return itemsize(plan.dtypes[p]);
  }
  for (int d = 0; d < kNumDTypes; ++d)
    if (cuda::user::kernel_type_name(static_cast<DType>(d)) == k.reduce_type) return itemsize(static_cast<DType>(d));
  return std::nullopt;
}

void launch(const ReductionKernel::Impl& k, const Plan& plan, const std::vector<KernelArg>& args,
            const ReductionCallOptions& call) {
  const int device = plan.device.index;
  cuda::DeviceScope scope(device);
  const cuda::DeviceProps& props = cuda::device_props(device);
  const cuda::Kernel kernel = kernel_for(k, plan, props.target);

  const std::size_t nparams = plan.dtypes.size();
  std::vector<cuda::user::ArgSlot> slots(nparams + 3);
  std::vector<void*> ptrs;
  for (std::size_t p = 0; p < nparams; ++p) {
    void* slot = slots[p].bytes;
    if (plan.arrays[p].defined()) {
      void* data = plan.arrays[p].data();
      std::memcpy(slot, &data, sizeof data);
    } else {
      args[p].scalar().write_as(plan.dtypes[p], slot);
    }
    ptrs.push_back(slot);
  }
  const int nops_o = static_cast<int>(static_cast<std::size_t>(k.sig.nout) + plan.in_arrays.size());
  const int nops_i = static_cast<int>(plan.in_arrays.size());
  const int no = outer_ndim(plan), ni = inner_ndim(plan);
  std::vector<long long> po(static_cast<std::size_t>(2 + no * (1 + nops_o)));
  std::vector<long long> pi(static_cast<std::size_t>(2 + ni * (1 + nops_i)));
  std::vector<int> ops_o(static_cast<std::size_t>(nops_o)), ops_i(static_cast<std::size_t>(nops_i));
  for (int j = 0; j < nops_o; ++j) ops_o[static_cast<std::size_t>(j)] = j;
  for (int j = 0; j < nops_i; ++j) ops_i[static_cast<std::size_t>(j)] = j;
  cuda::fill_strided_params(po.data(), plan.outer, no, ops_o.data(), nops_o);
  cuda::fill_strided_params(pi.data(), plan.inner, ni, ops_i.data(), nops_i);
  long long nout = plan.outer.size, nred = plan.inner.size;
  int g = 32;
  while (g < kBlock && g < nred) g *= 2;
  const std::int64_t resident =
      static_cast<std::int64_t>(props.sm_count) * std::max(1, props.max_threads_per_sm / kBlock);
  // Note [Split reductions]: fewer groups than one wave of blocks, and long reductions.
  int split = 1;
  const std::optional<std::size_t> rsize = reduce_type_size(k, plan);
  if (rsize && *rsize <= 16 && nout < resident && nred >= 16 * kBlock) {
    g = kBlock;
    split = static_cast<int>(std::clamp<std::int64_t>((resident + nout - 1) / nout, 1,
                                                      std::min<std::int64_t>(nred / (8 * kBlock), 65535)));
  }
  const Stream stream = call.stream ? *call.stream : current_stream(device);
  const auto cuda_stream = static_cast<cudaStream_t>(stream.handle());
  ndarray workspace;
  unsigned char* ws = nullptr;
  unsigned int* cnt = nullptr;
  if (split > 1) {
    const std::int64_t slots = static_cast<std::int64_t>(nout) * split;
    // Allocated on the launch's stream: the pool may reuse it once the kernel is done there.
    const StreamGuard on_stream(stream);
    workspace = empty({slots * 32 + nout * 4}, {.dtype = DType::UInt8, .device = plan.device});
    ws = static_cast<unsigned char*>(workspace.data());
    cnt = reinterpret_cast<unsigned int*>(ws + slots * 32);
    CUNP_CUDA_CHECK(cudaMemsetAsync(cnt, 0, static_cast<std::size_t>(nout) * 4, cuda_stream));
  }
  ptrs.push_back(po.data());
  ptrs.push_back(pi.data());
  ptrs.push_back(&nout);
  ptrs.push_back(&nred);
  ptrs.push_back(&g);
  ptrs.push_back(&split);
  ptrs.push_back(&ws);
  ptrs.push_back(&cnt);
  const std::int64_t per = kBlock / g;
  const auto blocks =
      static_cast<unsigned>(std::clamp<std::int64_t>((nout + per - 1) / per, 1, resident * 4));
  cuda::launch(kernel, dim3(blocks, static_cast<unsigned>(split)), dim3(kBlock), ptrs.data(), 0, cuda_stream);
}

}  // namespace

ReductionKernel::ReductionKernel(std::string_view in_params, std::string_view out_params,
                                 std::string map_expr, std::string reduce_expr,
                                 std::string post_map_expr, std::string identity, std::string name,
                                 ReductionKernelOptions options)
    : impl_(std::make_shared<Impl>()) {
  if (!cuda::user::is_identifier(name)) throw ValueError("Invalid kernel name: \"" + name + "\"");
  impl_->sig = cuda::user::parse_signature(in_params, out_params);
  if (impl_->sig.nout < 1)
    throw ValueError("ReductionKernel '" + name + "' needs at least one output parameter");
  for (int p = 0; p < impl_->sig.nin + impl_->sig.nout; ++p)
    (p < impl_->sig.nin ? impl_->in : impl_->out)
        .push_back(impl_->sig.params[static_cast<std::size_t>(p)]);
  impl_->map_expr = std::move(map_expr);
  impl_->reduce_expr = std::move(reduce_expr);
  impl_->post_map_expr = std::move(post_map_expr);
  impl_->identity = std::move(identity);
  impl_->name = std::move(name);
  impl_->options = std::move(options);
  if (impl_->options.reduce_type.empty()) {
    const KernelParam& first = impl_->out[0];
    impl_->reduce_type =
        first.dtype ? std::string(cuda::user::kernel_type_name(*first.dtype)) : first.type;
  } else {
    impl_->reduce_type = impl_->options.reduce_type;
  }
}

std::vector<ndarray> ReductionKernel::operator()(const std::vector<Arg>& args,
                                                 const ReductionCallOptions& call) const {
  const Plan plan = make_plan(*impl_, args, call);
  if (!plan.device.is_cuda()) {
    std::string which;
    for (std::size_t p = 0; p < args.size() && which.empty(); ++p)
      if (args[p].is_array()) which = " (argument '" + impl_->sig.params[p].name + "')";
    throw TypeError("ReductionKernel needs a CUDA device; this array is on " + plan.device.str() +
                    which);
  }
  if (plan.outer.size > 0) launch(*impl_, plan, args, call);
  return {plan.arrays.begin() + impl_->sig.nin, plan.arrays.end()};
}

std::string ReductionKernel::cuda_source(const std::vector<Arg>& args,
                                         const ReductionCallOptions& call) const {
  return generate(*impl_, make_plan(*impl_, args, call));
}

const std::string& ReductionKernel::name() const noexcept { return impl_->name; }
const std::string& ReductionKernel::map_expr() const noexcept { return impl_->map_expr; }
const std::string& ReductionKernel::reduce_expr() const noexcept { return impl_->reduce_expr; }
const std::string& ReductionKernel::post_map_expr() const noexcept { return impl_->post_map_expr; }
const std::string& ReductionKernel::identity() const noexcept { return impl_->identity; }
const std::string& ReductionKernel::reduce_type() const noexcept { return impl_->reduce_type; }
const ReductionKernelOptions& ReductionKernel::options() const noexcept { return impl_->options; }
const std::vector<KernelParam>& ReductionKernel::in_params() const noexcept { return impl_->in; }
const std::vector<KernelParam>& ReductionKernel::out_params() const noexcept { return impl_->out; }
int ReductionKernel::nin() const noexcept { return impl_->sig.nin; }
int ReductionKernel::nout() const noexcept { return impl_->sig.nout; }
std::size_t ReductionKernel::cached_kernel_count() const {
  std::shared_lock lock(impl_->mutex);
  return impl_->kernels.size();
}

}  // namespace cunp

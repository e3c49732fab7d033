// src/kernel/user_elementwise.cpp — ElementwiseKernel (cunp/kernel.hpp): source
// generation, the per-object kernel memo and launch (parsing: user_signature.cpp).
#include "kernel/user_elementwise.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/stream.hpp"
#include "iter/layout.hpp"

namespace cunp::cuda::user {
namespace {

// Note [User kernel source]: a user kernel's program is the support code below, the
// typedefs of its placeholders, the user's preamble and one extern "C" kernel named as
// the user named it. The support code is deliberately small (no CUDA headers, no
// CCCL): the compile time of a first call is mostly NVRTC's fixed cost.
//  - Non-raw arrays arrive as element pointers (contiguous loop) or byte pointers
//    plus one by-value __grid_constant__ block of shape and byte strides (strided
//    loop); each element's C-order index `i` is split by the shape, unrolled for the
//    exact rank. `i` is always the C-order index of the broadcast shape, whatever the
//    memory order, because the layout keeps the axis order (make_layout keep_order).
//  - Raw arrays arrive as cunp_ek::raw<T, N, C>: pointer, size, shape and byte
//    strides; x[k] takes the C-order index k of x's own shape (a flat access when x is
//    C-contiguous, C = true), x[idx] an index array of N coordinates.
//  - Scalars arrive by value, already converted to their parameter's dtype.
//  - The loop is grid-stride with 32-bit counters when the size and every byte
//    offset fit, else 64-bit.
constexpr std::string_view kSupport = R"cunp_src(namespace cunp_ek {
// ptrdiff_t and size_t come with NVRTC's built-in header.
struct indexer {
  ptrdiff_t _size;
  __device__ __forceinline__ ptrdiff_t size() const { return _size; }
};
template <typename T, int N, bool C>
struct raw {
  T* _data;
  ptrdiff_t _size;
  ptrdiff_t _shape[N];
  ptrdiff_t _strides[N];
  __device__ __forceinline__ ptrdiff_t size() const { return _size; }
  __device__ __forceinline__ const ptrdiff_t* shape() const { return _shape; }
  __device__ __forceinline__ const ptrdiff_t* strides() const { return _strides; }
  __device__ __forceinline__ T* data() const { return _data; }
  __device__ __forceinline__ T& operator[](ptrdiff_t k) const {
    if (C) return _data[k];
    ptrdiff_t off = 0;
#pragma unroll
    for (int d = N - 1; d > 0; --d) {
      const ptrdiff_t q = k / _shape[d];
      off += (k - q * _shape[d]) * _strides[d];
      k = q;
    }
    off += k * _strides[0];
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(_data) + off);
  }
  __device__ __forceinline__ T& operator[](const ptrdiff_t (&idx)[N]) const {
    ptrdiff_t off = 0;
#pragma unroll
    for (int d = 0; d < N; ++d) off += idx[d] * _strides[d];
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(_data) + off);
  }
};
template <typename I, int N, int NA>
struct strided {
  I size;
  I shape[N];
  I stride[NA][N];
};
template <typename I, int N, int NA, typename U>
__device__ __forceinline__ void offsets(const strided<I, N, NA>& p, U k, I (&off)[NA]) {
#pragma unroll
  for (int a = 0; a < NA; ++a) off[a] = 0;
#pragma unroll
  for (int d = N - 1; d > 0; --d) {
    const U e = (U)p.shape[d];
    const U q = k / e;
    const I c = (I)(k - q * e);
    k = q;
#pragma unroll
    for (int a = 0; a < NA; ++a) off[a] += c * p.stride[a][d];
  }
#pragma unroll
  for (int a = 0; a < NA; ++a) off[a] += (I)k * p.stride[a][0];
}
}  // namespace cunp_ek
)cunp_src";

// float16 with arithmetic: stored as IEEE half bits (cunp::ops::half's layout),
// computed in float32 as NumPy does; the conversions are src/ops/half.h's.
constexpr std::string_view kFloat16 = R"cunp_src(#include "half.h"
struct float16 {
  unsigned short _bits;
  float16() = default;
  __device__ __forceinline__ float16(float f) : _bits(cunp::ops::f32_to_half(f).bits) {}
  __device__ __forceinline__ float16(double d) : _bits(cunp::ops::f64_to_half(d).bits) {}
  template <typename U>
  __device__ __forceinline__ float16(U v) : _bits(cunp::ops::f32_to_half((float)v).bits) {}
  __device__ __forceinline__ operator float() const { return cunp::ops::half_to_f32(cunp::ops::half{_bits}); }
  __device__ __forceinline__ float16& operator+=(float v) { return *this = float16((float)*this + v); }
  __device__ __forceinline__ float16& operator-=(float v) { return *this = float16((float)*this - v); }
  __device__ __forceinline__ float16& operator*=(float v) { return *this = float16((float)*this * v); }
  __device__ __forceinline__ float16& operator/=(float v) { return *this = float16((float)*this / v); }
};
)cunp_src";

// complex<float> / complex<double>: <cunp/complex.cuh> (src/kernel/device_include), the
// header RawKernel code includes too: cunp::ops::complex from src/ops with its
// operators and functions at global scope, real(), imag() and make_complex(re, im).
constexpr std::string_view kComplex = "#include \"cunp/complex.cuh\"\n";

bool mentions(const KernelText& text, std::string_view word) {
  for (std::string_view s : {text.operation, text.preamble, text.loop_prep, text.after_loop})
    if (s.find(word) != std::string_view::npos) return true;
  return false;
}

// The C++ type a parameter is declared with: its placeholder, or its dtype's name.
}  // namespace

namespace {
std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 0xcbf29ce484222325ull) {
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}
}  // namespace

KernelKey user_kernel_key(const KernelSource& source, std::string_view family, int arch) {
  KernelKey key;
  key.op = fnv1a(source.source, fnv1a(family));
  std::uint64_t variant = fnv1a(source.kernel_name);
  for (const std::string& o : source.options.extra_options) variant = fnv1a(o, fnv1a("\x1f", variant));
  key.variant = variant;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

std::string param_type(const Signature& sig, std::size_t p, DType dt) {
  const int ph = sig.placeholder[p];
  return ph >= 0 ? sig.placeholders[static_cast<std::size_t>(ph)] : std::string(kernel_type_name(dt));
}

std::string support_source(bool uses_half, bool uses_complex) {
  std::string s(kSupport);
  if (uses_half) s += kFloat16;
  if (uses_complex) s += kComplex;
  return s;
}

std::string generate_source(const Signature& sig, const KernelText& text,
                            std::span<const ParamBinding> bindings, const LoopShape& loop) {
  const std::size_t n = sig.params.size();
  bool uses_half = false, uses_complex = false;
  int narrays = 0;
  for (const ParamBinding& b : bindings) {
    uses_half |= b.dtype == DType::Float16;
    uses_complex |= is_complex(b.dtype);
    narrays += b.kind == ArgKind::Array;
  }
  uses_half |= mentions(text, "float16");
  uses_complex |= mentions(text, "complex");

  std::string src;
  src.reserve(kSupport.size() + text.operation.size() + text.preamble.size() + 1024);
  src += "// cunp ElementwiseKernel '";
  src += text.name;
  src += "'\n";
  src += support_source(uses_half, uses_complex);
  for (std::size_t ph = 0; ph < sig.placeholders.size(); ++ph) {
    for (std::size_t p = 0; p < n; ++p) {
      if (sig.placeholder[p] != static_cast<int>(ph)) continue;
      src += "typedef ";
      src += kernel_type_name(bindings[p].dtype);
      src += ' ';
      src += sig.placeholders[ph];
      src += ";\n";
      break;
    }
  }
  src += text.preamble;
  src += "\n";

  // Index types: U counts elements, I holds byte offsets and strides.
  const std::string u = loop.index64 ? "unsigned long long" : "unsigned int";
  const std::string i = loop.index64 ? "long long" : "int";

  src += "extern \"C\" __global__ void ";
  src += text.name;
  src += "(";
  int array_index = 0;
  for (std::size_t p = 0; p < n; ++p) {
    const bool output = static_cast<int>(p) >= sig.nin;
    const std::string type = param_type(sig, p, bindings[p].dtype);
    const std::string& pname = sig.params[p].name;
    switch (bindings[p].kind) {
      case ArgKind::Array:
        if (loop.contiguous)
          src += (output ? "" : "const ") + type + "* _cunp_p_" + pname;
        else
          src += (output ? "char* _cunp_p_" : "const char* _cunp_p_") + pname;
        break;
      case ArgKind::Scalar:
        src += "const " + type + " " + pname;
        break;
      case ArgKind::Raw:
        src += "cunp_ek::raw<" + type + ", " + std::to_string(std::max(1, bindings[p].raw_ndim)) + ", " +
               (bindings[p].raw_contiguous ? "true" : "false") + "> " + pname;
        break;
    }
    src += ", ";
  }
  if (loop.contiguous)
    src += u + " _cunp_n";
  else
    src += "const __grid_constant__ cunp_ek::strided<" + i + ", " + std::to_string(loop.ndim) + ", " +
           std::to_string(std::max(1, narrays)) + "> _cunp_lay";
  src += ") {\n";
  const std::string size = loop.contiguous ? "_cunp_n" : "(" + u + ")_cunp_lay.size";
  src += "  const cunp_ek::indexer _ind{(ptrdiff_t)" + size + "};\n";
  src += "  (void)_ind;\n";
  src += text.loop_prep;
  src += "\n  for (" + u + " _cunp_i = blockIdx.x * (" + u + ")blockDim.x + threadIdx.x; _cunp_i < " + size +
         "; _cunp_i += (" + u + ")gridDim.x * blockDim.x) {\n";
  src += "    const ptrdiff_t i = (ptrdiff_t)_cunp_i;\n";
  if (!loop.contiguous) {
    src += "    " + i + " _cunp_off[" + std::to_string(std::max(1, narrays)) + "];\n";
    src += "    cunp_ek::offsets(_cunp_lay, _cunp_i, _cunp_off);\n";
  }
  array_index = 0;
  for (std::size_t p = 0; p < n; ++p) {
    if (bindings[p].kind != ArgKind::Array) continue;
    const bool output = static_cast<int>(p) >= sig.nin;
    const std::string type = param_type(sig, p, bindings[p].dtype);
    const std::string& pname = sig.params[p].name;
    const std::string cv = output ? "" : "const ";
    src += "    " + cv + type + "& " + pname + " = ";
    if (loop.contiguous)
      src += "_cunp_p_" + pname + "[_cunp_i];\n";
    else
      src += "*reinterpret_cast<" + cv + type + "*>(_cunp_p_" + pname + " + _cunp_off[" +
             std::to_string(array_index) + "]);\n";
    ++array_index;
  }
  src += "    ";
  src += text.operation;
  src += ";\n  }\n";
  src += text.after_loop;
  src += "\n}\n";
  return src;
}

KernelSource make_kernel_source(const Signature& sig, const KernelText& text,
                                std::span<const ParamBinding> bindings, const LoopShape& loop,
                                const std::vector<std::string>& options) {
  KernelSource source;
  source.kernel_name = std::string(text.name);
  source.source = generate_source(sig, text, bindings, loop);
  source.options.extra_options = options;
  return source;
}

}  // namespace cunp::cuda::user

// ---- the public class ----------------------------------------------------------------

namespace cunp {

using cuda::user::ArgKind;
using cuda::user::ArgType;
using cuda::user::LoopShape;
using cuda::user::ParamBinding;

struct ElementwiseKernel::Impl {
  cuda::user::Signature sig;
  std::vector<KernelParam> in, out;
  std::string operation;
  std::string name;
  ElementwiseKernelOptions options;

  // Note [ElementwiseKernel memo]: compiled kernels are kept per object, keyed by a few
  // bytes describing the call (parameter kinds and dtypes, raw ranks, loop class,
  // rank, index width, target arch), so a repeated call builds no source text and
  // takes only a shared lock. A miss generates the source and goes through the
  // process-wide kernel cache (memory, then disk, then NVRTC) with no lock held.
  mutable std::shared_mutex mutex;
  mutable std::unordered_map<std::string, cuda::Kernel> kernels;

  cuda::user::KernelText text() const {
    return {name, operation, options.preamble, options.loop_prep, options.after_loop};
  }
};

namespace {

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
constexpr int kMaxLoopDims = 64;

// Everything a call decides before it compiles or launches.
struct Plan {
  std::vector<DType> dtypes;           // per parameter
  std::vector<ParamBinding> bindings;  // per parameter
  std::vector<ndarray> arrays;         // per parameter (undefined for scalars)
  std::vector<int> loop_params;        // parameters walked by the loop (non-raw arrays)
  Shape shape;                         // the loop's shape
  iter::LoopLayout layout;
  LoopShape loop;
  std::optional<Device> device;
};

std::string prefix(const ElementwiseKernel::Impl& k) { return "ElementwiseKernel '" + k.name + "': "; }

void add_device(Plan& plan, const ElementwiseKernel::Impl& k, const ndarray& a) {
  const Device d = a.device();
  if (!plan.device)
    plan.device = d;
  else if (!(*plan.device == d))
    throw ValueError(prefix(k) + "arguments are on different devices (" + plan.device->str() + " and " +
                     d.str() + ")");
}

bool fits_int32(const iter::LoopLayout& layout) {
  if (layout.size > kInt32Max) return false;
  for (int op = 0; op < layout.noperands(); ++op) {
    if (layout.max_offset(op) > kInt32Max) return false;
    for (std::int64_t s : layout.strides[op])
      if (s > kInt32Max || s < -kInt32Max) return false;
  }
  return true;
}

Plan make_plan(const ElementwiseKernel::Impl& k, const std::vector<KernelArg>& args,
               const KernelCallOptions& call) {
  const cuda::user::Signature& sig = k.sig;
  const int nin = sig.nin, nout = sig.nout, nparams = nin + nout;
  const int nargs = static_cast<int>(args.size());
  if (nargs != nin && nargs != nparams)
    throw TypeError("Wrong number of arguments for '" + k.name + "'. It must be either " + std::to_string(nin) +
                    " or " + std::to_string(nparams) + " (with outputs), but given " + std::to_string(nargs) + ".");
  const bool outputs_given = nargs == nparams;

  Plan plan;
  plan.dtypes = cuda::user::resolve_arg_types(sig, args, k.name, prefix(k));

  // Broadcast the non-raw arrays (given outputs included, as CuPy does).
  std::vector<Shape> shapes;
  bool any_loop_array = false;
  for (int p = 0; p < nargs; ++p) {
    const KernelArg& a = args[static_cast<std::size_t>(p)];
    if (!a.is_array()) continue;
    add_device(plan, k, a.array());
    if (!sig.params[p].raw) {
      shapes.push_back(a.array().shape());
      any_loop_array = true;
    }
  }
  if (call.size) {
    if (any_loop_array)
      throw ValueError("Specified 'size' can be used only if all of the ndarray are 'raw'.");
    if (*call.size < 0) throw ValueError(prefix(k) + "size must be non-negative");
    plan.shape = {*call.size};
  } else {
    if (!any_loop_array) throw ValueError("Loop size is undecided.");
    plan.shape = broadcast_shapes(shapes);
  }
  if (call.block_size <= 0) throw ValueError("block_size must be greater than zero");

  // Outputs: check the given ones, allocate the others.
  plan.arrays.resize(static_cast<std::size_t>(nparams));
  for (int p = 0; p < nin; ++p)
    if (args[p].is_array()) plan.arrays[p] = args[p].array();
  const Device device = plan.device.value_or(current_device());
  for (int p = nin; p < nparams; ++p) {
    const KernelParam& param = sig.params[p];
    if (outputs_given) {
      const ndarray& out = args[p].array();
      if (!param.raw && out.shape() != plan.shape)
        throw ValueError("Out shape is mismatched: output '" + param.name + "' has shape " +
                         shape_str(out.shape()) + ", the loop has shape " + shape_str(plan.shape));
      if (!out.writeable()) throw ValueError("output array is read-only");
      plan.arrays[p] = out;
    } else {
      if (param.raw && !call.size) throw ValueError("Output array size is Undecided");
      plan.arrays[p] = empty(plan.shape, {.dtype = plan.dtypes[p], .device = device});
    }
  }
  if (!plan.device) plan.device = device;

  // Bindings and the loop layout.
  plan.bindings.resize(static_cast<std::size_t>(nparams));
  std::vector<Strides> strides;
  for (int p = 0; p < nparams; ++p) {
    ParamBinding& b = plan.bindings[p];
    b.dtype = plan.dtypes[p];
    const ndarray& a = plan.arrays[p];
    if (!a.defined()) {
      b.kind = ArgKind::Scalar;
    } else if (sig.params[p].raw) {
      b.kind = ArgKind::Raw;
      b.raw_ndim = a.ndim();
      b.raw_contiguous = a.is_c_contiguous();
      if (b.raw_ndim > kMaxLoopDims)
        throw ValueError(prefix(k) + "raw arrays of more than " + std::to_string(kMaxLoopDims) +
                         " dimensions are not supported");
    } else {
      b.kind = ArgKind::Array;
      plan.loop_params.push_back(p);
      strides.push_back(iter::broadcast_strides(a, plan.shape));
    }
  }
  if (strides.empty()) {
    // Only raw arrays and scalars: a 1-d loop of `size` elements with no operands.
    plan.layout.shape = plan.shape;
    plan.layout.size = plan.shape[0];
    plan.loop = {true, 0, plan.layout.size > kInt32Max};
    return plan;
  }
  plan.layout = iter::make_layout(plan.shape, strides, /*keep_order=*/true);
  bool contiguous = true;
  for (std::size_t op = 0; op < plan.loop_params.size(); ++op)
    contiguous &= plan.layout.contiguous(static_cast<int>(op),
                                         static_cast<std::int64_t>(itemsize(plan.dtypes[plan.loop_params[op]])));
  if (plan.layout.ndim() > kMaxLoopDims)
    throw ValueError(prefix(k) + "cunp supports at most " + std::to_string(kMaxLoopDims) +
                     " dimensions after merging axes, got " + std::to_string(plan.layout.ndim()));
  plan.loop.contiguous = contiguous;
  plan.loop.ndim = contiguous ? 0 : plan.layout.ndim();
  plan.loop.index64 = contiguous ? plan.layout.size > kInt32Max : !fits_int32(plan.layout);
  return plan;
}

// The memo key of a plan: a few bytes per parameter plus the loop and the arch.
std::string memo_key(const Plan& plan, int arch) {
  std::string key;
  key.reserve(plan.bindings.size() * 3 + 6);
  for (const ParamBinding& b : plan.bindings) {
    key.push_back(static_cast<char>(b.kind));
    key.push_back(static_cast<char>(b.dtype));
    if (b.kind == ArgKind::Raw) key.push_back(static_cast<char>(b.raw_ndim * 2 + (b.raw_contiguous ? 1 : 0)));
  }
  key.push_back(static_cast<char>(plan.loop.contiguous));
  key.push_back(static_cast<char>(plan.loop.ndim));
  key.push_back(static_cast<char>(plan.loop.index64));
  key.push_back(static_cast<char>(arch & 0xff));
  key.push_back(static_cast<char>(arch >> 8));
  return key;
}

cuda::Kernel kernel_for(const ElementwiseKernel::Impl& k, const Plan& plan, int arch) {
  return cuda::user::memoized_kernel(k.mutex, k.kernels, memo_key(plan, arch), "cunp.user.elementwise", arch, [&] {
    return cuda::user::make_kernel_source(k.sig, k.text(), plan.bindings, plan.loop, k.options.options);
  });
}


// The strided loop's parameter block (cunp_ek::strided<I, N, NA>): size, shape[N],
// stride[NA][N], all of type I.
template <typename I>
void put_strided(void* dst, const iter::LoopLayout& layout) {
  const int nd = layout.ndim();
  const int na = layout.noperands();
  I* block = static_cast<I*>(dst);
  block[0] = static_cast<I>(layout.size);
  for (int d = 0; d < nd; ++d) {
    block[1 + d] = static_cast<I>(layout.shape[d]);
    for (int a = 0; a < na; ++a) block[1 + nd + a * nd + d] = static_cast<I>(layout.strides[a][d]);
  }
}

std::size_t slots_for(std::size_t bytes) { return (bytes + sizeof(cuda::user::ArgSlot) - 1) / sizeof(cuda::user::ArgSlot); }

void launch_plan(const ElementwiseKernel::Impl& k, const Plan& plan, const std::vector<KernelArg>& args,
                 const KernelCallOptions& call) {
  const int device = plan.device->index;
  cuda::DeviceScope scope(device);
  const cuda::DeviceProps& props = cuda::device_props(device);
  const cuda::Kernel kernel = kernel_for(k, plan, props.target);

  const std::size_t nparams = plan.bindings.size();
  // Slots: one per pointer/scalar parameter, a raw array's header, the loop block.
  const std::size_t index_bytes = plan.loop.index64 ? 8 : 4;
  const std::size_t loop_bytes =
      plan.loop.contiguous ? index_bytes
                           : index_bytes * static_cast<std::size_t>(1 + plan.layout.ndim() * (1 + plan.layout.noperands()));
  std::size_t nslots = slots_for(loop_bytes);
  for (const ParamBinding& b : plan.bindings)
    nslots += b.kind == ArgKind::Raw ? slots_for(8 * static_cast<std::size_t>(2 + 2 * std::max(1, b.raw_ndim))) : 1;
  std::vector<cuda::user::ArgSlot> slots(nslots);
  std::vector<void*> ptrs;
  ptrs.reserve(nparams + 1);
  std::size_t at = 0;
  for (std::size_t p = 0; p < nparams; ++p) {
    const ParamBinding& b = plan.bindings[p];
    void* slot = slots[at].bytes;
    switch (b.kind) {
      case ArgKind::Array: {
        void* data = plan.arrays[p].data();
        std::memcpy(slot, &data, sizeof data);
        ++at;
        break;
      }
      case ArgKind::Scalar:
        args[p].scalar().write_as(b.dtype, slot);
        ++at;
        break;
      case ArgKind::Raw: {
        // cunp_ek::raw<T, N, C>: data, size, shape[N], strides[N] (8 bytes each).
        const ndarray& a = plan.arrays[p];
        const int n = std::max(1, b.raw_ndim);
        std::int64_t* header = reinterpret_cast<std::int64_t*>(slot);
        const std::uintptr_t data = reinterpret_cast<std::uintptr_t>(a.data());
        std::memcpy(&header[0], &data, sizeof data);
        header[1] = a.size();
        if (a.ndim() == 0) {
          header[2] = 1;
          header[3] = a.itemsize();
        } else {
          for (int d = 0; d < n; ++d) {
            header[2 + d] = a.shape()[d];
            header[2 + n + d] = a.strides()[d];
          }
        }
        at += slots_for(8 * static_cast<std::size_t>(2 + 2 * n));
        break;
      }
    }
    ptrs.push_back(slot);
  }
  void* loop_slot = slots[at].bytes;
  if (plan.loop.contiguous) {
    if (plan.loop.index64) {
      const unsigned long long n = static_cast<unsigned long long>(plan.layout.size);
      std::memcpy(loop_slot, &n, sizeof n);
    } else {
      const unsigned int n = static_cast<unsigned int>(plan.layout.size);
      std::memcpy(loop_slot, &n, sizeof n);
    }
  } else if (plan.loop.index64) {
    put_strided<long long>(loop_slot, plan.layout);
  } else {
    put_strided<int>(loop_slot, plan.layout);
  }
  ptrs.push_back(loop_slot);

  const int block = call.block_size;
  const std::int64_t resident =
      static_cast<std::int64_t>(props.sm_count) * std::max(1, props.max_threads_per_sm / block);
  const std::int64_t wanted = (plan.layout.size + block - 1) / block;
  const unsigned grid = static_cast<unsigned>(std::clamp<std::int64_t>(wanted, 1, std::max<std::int64_t>(resident, 1)));
  const Stream stream = call.stream ? *call.stream : current_stream(device);
  cuda::launch(kernel, dim3(grid), dim3(static_cast<unsigned>(block)), ptrs.data(), 0,
               static_cast<cudaStream_t>(stream.handle()));
}

}  // namespace

ElementwiseKernel::ElementwiseKernel(std::string_view in_params, std::string_view out_params,
                                     std::string operation, std::string name,
                                     ElementwiseKernelOptions options)
    : impl_(std::make_shared<Impl>()) {
  if (!cuda::user::is_identifier(name)) throw ValueError("Invalid kernel name: \"" + name + "\"");
  impl_->sig = cuda::user::parse_signature(in_params, out_params);
  for (int p = 0; p < impl_->sig.nin + impl_->sig.nout; ++p)
    (p < impl_->sig.nin ? impl_->in : impl_->out).push_back(impl_->sig.params[p]);
  impl_->operation = std::move(operation);
  impl_->name = std::move(name);
  impl_->options = std::move(options);
}

std::vector<ndarray> ElementwiseKernel::operator()(const std::vector<Arg>& args,
                                                   const KernelCallOptions& call) const {
  Plan plan = make_plan(*impl_, args, call);
  if (!plan.device->is_cuda()) {
    std::string which;
    for (std::size_t p = 0; p < args.size() && which.empty(); ++p)
      if (args[p].is_array()) which = " (argument '" + impl_->sig.params[p].name + "')";
    throw TypeError("ElementwiseKernel needs a CUDA device; this array is on " + plan.device->str() + which);
  }
  if (plan.layout.size > 0) launch_plan(*impl_, plan, args, call);
  if (impl_->options.no_return) return {};
  return {plan.arrays.begin() + impl_->sig.nin, plan.arrays.end()};
}

std::string ElementwiseKernel::cuda_source(const std::vector<Arg>& args, const KernelCallOptions& call) const {
  const Plan plan = make_plan(*impl_, args, call);
  return cuda::user::generate_source(impl_->sig, impl_->text(), plan.bindings, plan.loop);
}

const std::string& ElementwiseKernel::name() const noexcept { return impl_->name; }
const std::string& ElementwiseKernel::operation() const noexcept { return impl_->operation; }
const ElementwiseKernelOptions& ElementwiseKernel::options() const noexcept { return impl_->options; }
const std::vector<KernelParam>& ElementwiseKernel::in_params() const noexcept { return impl_->in; }
const std::vector<KernelParam>& ElementwiseKernel::out_params() const noexcept { return impl_->out; }
int ElementwiseKernel::nin() const noexcept { return impl_->sig.nin; }
int ElementwiseKernel::nout() const noexcept { return impl_->sig.nout; }
std::size_t ElementwiseKernel::cached_kernel_count() const {
  std::shared_lock lock(impl_->mutex);
  return impl_->kernels.size();
}

}  // namespace cunp

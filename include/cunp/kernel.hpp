// cunp/kernel.hpp — user-written GPU code: ElementwiseKernel, a snippet of CUDA C++
// applied to every element, with CuPy's parameter syntax and type placeholders.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "cunp/ndarray.hpp"
#include "cunp/scalar.hpp"
#include "cunp/stream.hpp"

namespace cunp {

// One argument of a user kernel call: an array, or a scalar (a C++ arithmetic value
// is weak, like a Python scalar: it takes the dtype of the parameter it binds to).
class KernelArg {
 public:
  KernelArg(const ndarray& a) : value_(a) {}
  KernelArg(ndarray&& a) : value_(std::move(a)) {}
  KernelArg(const Scalar& s) : value_(s) {}
  template <typename T>
    requires(std::is_arithmetic_v<T>)
  KernelArg(T v) : value_(Scalar(v)) {}
  template <typename T>
  KernelArg(std::complex<T> v) : value_(Scalar(v)) {}

  bool is_array() const noexcept { return value_.index() == 0; }
  const ndarray& array() const { return std::get<0>(value_); }
  const Scalar& scalar() const { return std::get<1>(value_); }

 private:
  std::variant<ndarray, Scalar> value_;
};

// One parameter of a kernel's parameter list, as parsed: `raw T x`, `float32 y`.
struct KernelParam {
  std::string name;
  std::string type;            // as written: "T", "float32"
  std::optional<DType> dtype;  // set for a fixed dtype, empty for a type placeholder
  bool raw = false;
};

// Construction options of ElementwiseKernel (CuPy's keyword arguments).
struct ElementwiseKernelOptions {
  std::vector<std::string> options;  // extra NVRTC options, e.g. "-DSCALE=2"
  std::string preamble;              // code placed before the kernel (after the typedefs)
  bool reduce_dims = true;           // accepted for compatibility; axes are always merged
  bool no_return = false;            // operator() returns no arrays
  std::string loop_prep;             // code at the top of the kernel, before the loop
  std::string after_loop;            // code at the end of the kernel, after the loop
};

// Options of one call.
struct KernelCallOptions {
  // The loop size when every array argument is `raw` (required then, refused otherwise).
  std::optional<std::int64_t> size;
  int block_size = 128;  // threads per block
  // The stream to run on; default: the current stream of the arrays' device.
  std::optional<Stream> stream;
};

// Note [ElementwiseKernel]: CuPy's user-defined elementwise kernel.
//
//   ElementwiseKernel k("T x, T y", "T z", "z = x * y + 1", "fma1");
//   ndarray z = k({x, y})[0];          // z allocated with the broadcast shape
//   k({x, 2.0, z_out});                // outputs may be given
//
// Parameter lists are comma-separated `[raw] TYPE NAME`. TYPE is a dtype name
// (`float32`, `int64`, `bool`, `complex128`, ...) or a type placeholder (a single
// letter, or an identifier that is not a dtype name); every parameter with the same
// placeholder has the same dtype, decided from the arguments (outputs first, then
// input arrays; scalars take the dtype bound by arrays, else NumPy's default for
// their kind). Inside `operation`, each non-raw parameter is a value (`const T&`
// for inputs, `T&` for outputs) of element `i` of its broadcast array, `i` is the
// C-order element index, `_ind.size()` the number of elements, and a `raw`
// parameter is an array object indexed by hand: `x[_ind.size() - i - 1]`.
// Placeholders are typedefs (`typedef float T;`). The source is compiled with NVRTC
// on the first call for each combination of argument dtypes and layouts, and cached
// in the object, in memory and on disk (CUNP_CACHE_DIR). Compile errors throw
// CompileError with NVRTC's log. Arrays must live on a CUDA device.
class ElementwiseKernel {
 public:
  using Arg = KernelArg;

  // ValueError for a malformed parameter list or kernel name.
  ElementwiseKernel(std::string_view in_params, std::string_view out_params,
                    std::string operation, std::string name = "kernel",
                    ElementwiseKernelOptions options = {});

  // Runs the kernel on nin() inputs, or nin() inputs followed by nout() outputs.
  // Returns the outputs (empty when no_return is set). TypeError for wrong argument
  // counts or dtypes, ValueError for shapes that do not broadcast or mismatched outputs.
  std::vector<ndarray> operator()(const std::vector<Arg>& args, const KernelCallOptions& call = {}) const;

  // The CUDA source a call with these arguments compiles (no GPU needed; arrays may
  // live on any device). Runs every check of operator() except the device check.
  std::string cuda_source(const std::vector<Arg>& args, const KernelCallOptions& call = {}) const;

  const std::string& name() const noexcept;
  const std::string& operation() const noexcept;
  const ElementwiseKernelOptions& options() const noexcept;
  const std::vector<KernelParam>& in_params() const noexcept;
  const std::vector<KernelParam>& out_params() const noexcept;
  int nin() const noexcept;
  int nout() const noexcept;
  int nargs() const noexcept { return nin() + nout(); }
  // Number of distinct compiled kernels this object holds.
  std::size_t cached_kernel_count() const;

  struct Impl;  // opaque; copies share it (and its compiled kernels)

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace cunp

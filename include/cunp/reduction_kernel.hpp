// cunp/reduction_kernel.hpp — ReductionKernel: user-written GPU reductions with CuPy's
// parameter syntax (cupy.ReductionKernel), built on the parameter parsing and type
// placeholders of ElementwiseKernel (cunp/kernel.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cunp/kernel.hpp"
#include "cunp/reduce.hpp"

namespace cunp {

// Construction options of ReductionKernel (CuPy's keyword arguments).
struct ReductionKernelOptions {
  // The C++ type of the reduced values `a` and `b`; empty: the type of the first
  // output parameter (its placeholder, or its dtype's C++ name).
  std::string reduce_type;
  bool reduce_dims = true;           // accepted for compatibility; axes are always merged
  std::string preamble;              // code placed before the kernel (after the typedefs)
  std::vector<std::string> options;  // extra NVRTC options
};

// Options of one call: the reduced axes (None: all) and keepdims, as NumPy's; the
// stream (default: the current stream of the arrays' device).
struct ReductionCallOptions {
  Axes axis = {};
  bool keepdims = false;
  std::optional<Stream> stream;
};

// Note [ReductionKernel]: CuPy's user-defined reduction.
//
//   ReductionKernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
//   ndarray n = l2({x})[0];                            // over every axis
//   ndarray rows = l2({x}, {.axis = 1, .keepdims = true})[0];
//
// The inputs (non-raw arrays and scalars) broadcast together; for each output element
// the kernel maps every element of the reduced axes with `map_expr` (an expression of
// the input names, converted to the reduce type), combines the mapped values with
// `reduce_expr` (an expression of `a` and `b`), starting from `identity` (an
// expression; empty: none, and an empty reduction is a ValueError), then runs
// `post_map_expr` (a statement of `a` and the output names, e.g. "y = a / 2").
// The combining order is a tree, so `reduce_expr` should be associative and
// commutative. Types: placeholders and fixed dtypes as in ElementwiseKernel; outputs
// not given are allocated with the reduced shape. Compiled with NVRTC on the first
// call for each combination of dtypes and ranks and cached (object, memory, disk);
// compile errors throw CompileError with NVRTC's log. Arrays must live on a CUDA
// device (TypeError otherwise). raw parameters are not supported (ValueError).
class ReductionKernel {
 public:
  using Arg = KernelArg;

  ReductionKernel(std::string_view in_params, std::string_view out_params, std::string map_expr,
                  std::string reduce_expr, std::string post_map_expr, std::string identity,
                  std::string name = "reduce_kernel", ReductionKernelOptions options = {});

  // Runs the kernel on nin() inputs, or nin() inputs followed by nout() outputs.
  std::vector<ndarray> operator()(const std::vector<Arg>& args,
                                  const ReductionCallOptions& call = {}) const;

  // The CUDA source a call with these arguments compiles (no GPU needed; arrays may be
  // on any device). Runs every check of operator() except the device check.
  std::string cuda_source(const std::vector<Arg>& args,
                          const ReductionCallOptions& call = {}) const;

  const std::string& name() const noexcept;
  const std::string& map_expr() const noexcept;
  const std::string& reduce_expr() const noexcept;
  const std::string& post_map_expr() const noexcept;
  const std::string& identity() const noexcept;
  // The reduce type as given, or the default (see ReductionKernelOptions).
  const std::string& reduce_type() const noexcept;
  const ReductionKernelOptions& options() const noexcept;
  const std::vector<KernelParam>& in_params() const noexcept;
  const std::vector<KernelParam>& out_params() const noexcept;
  int nin() const noexcept;
  int nout() const noexcept;
  int nargs() const noexcept { return nin() + nout(); }
  std::size_t cached_kernel_count() const;

  struct Impl;  // opaque; copies share it (and its compiled kernels)

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace cunp

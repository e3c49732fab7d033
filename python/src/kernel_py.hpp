// python/src/kernel_py.hpp — the binding of user-defined kernels (kernel_py.cpp) and
// what the ElementwiseKernel and ReductionKernel bindings share.
#pragma once

#include <nanobind/nanobind.h>

#include <string>
#include <vector>

#include "convert.hpp"
#include "cunp/kernel.hpp"

namespace cunp::py {

// Adds _ElementwiseKernel to the extension module; module.cpp calls it.
void bind_kernels(nanobind::module_& m);

// A call argument of a user kernel: a cunp array or a scalar; TypeError naming
// `kernel_class` for a NumPy array.
KernelArg to_kernel_arg(nb::handle h, const char* kernel_class);
// A `stream=` keyword: a cunp.cuda.Stream (its handle is in `_s`) or a bare _core._Stream.
Stream to_stream(nb::handle value);
// Removes and returns the `arch` keyword of _compile (default 90).
int pop_arch(nb::kwargs& kwargs);
// Compiles `source` for sm_<arch> through the disk cache without a GPU; the cubin's size.
std::size_t compile_only(std::string name, std::string source, std::vector<std::string> options, int arch);
// The parameters as a list of dicts (name, type, dtype, raw), for the Python classes.
nb::list param_list(const std::vector<KernelParam>& params);

}  // namespace cunp::py

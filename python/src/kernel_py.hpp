// python/src/kernel_py.hpp — the binding of user-defined kernels (kernel_py.cpp).
#pragma once

#include <nanobind/nanobind.h>

namespace cunp::py {

// Adds _ElementwiseKernel to the extension module; module.cpp calls it.
void bind_kernels(nanobind::module_& m);

}  // namespace cunp::py

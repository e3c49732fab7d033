// python/src/module.cpp — the cunp._core extension module.
#include "convert.hpp"
#include "kernel_py.hpp"

NB_MODULE(_core, m) {
  m.doc() = "cunp's compiled core";
  cunp::py::bind_errors(m);
  cunp::py::bind_dtypes(m);
  cunp::py::bind_ndarray(m);
  cunp::py::bind_creation(m);
  cunp::py::bind_cuda(m);
  cunp::py::bind_ufuncs(m);
  cunp::py::bind_kernels(m);
  cunp::py::bind_manipulation(m);
  m.def("version", &cunp::version);
  m.def("show_config", &cunp::show_config);
}

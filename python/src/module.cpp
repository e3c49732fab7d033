// python/src/module.cpp — the cunp._core extension module.
#include "convert.hpp"
#include "kernel_py.hpp"

#include "runtime/vendor_lib.hpp"
#include "cunp/kernel_stats.hpp"

namespace cunp::py {

std::vector<Binder>& binders() {
  static std::vector<Binder> v;
  return v;
}

int register_binder(Binder binder) {
  binders().push_back(binder);
  return 0;
}

}  // namespace cunp::py

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
  for (cunp::py::Binder b : cunp::py::binders()) b(m);
  m.def("version", &cunp::version);
  m.def("show_config", &cunp::show_config);
  m.def("_kernel_cache_stats", [] {
    const cunp::KernelCacheStats s = cunp::kernel_cache_stats();
    nanobind::dict d;
    d["nvrtc_compiles"] = s.nvrtc_compiles;
    d["archive_hits"] = s.archive_hits;
    d["disk_hits"] = s.disk_hits;
    d["archive"] = s.archive;
    return d;
  });
  // The `nvidia` package directories of NVIDIA's CUDA wheels (Note [CUDA library search order]).
  m.def("_set_wheel_library_dirs", &cunp::cuda::set_wheel_library_dirs);
}

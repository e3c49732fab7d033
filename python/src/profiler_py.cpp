// python/src/profiler_py.cpp — cunpx.profiler's NVTX ranges and the CUDA profiler's
// start/stop (cunp/profiler.hpp).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <string>

#include "convert.hpp"
#include "cunp/profiler.hpp"

namespace nb = nanobind;
using nb::arg;

namespace cunp::py {
namespace {

void bind_profiler(nb::module_& m) {
  m.def("_nvtx_push", [](const std::string& message, std::uint32_t argb) { profiler::range_push(message, argb); },
        arg("message"), arg("argb") = 0);
  m.def("_nvtx_pop", &profiler::range_pop);
  m.def("_nvtx_palette", &profiler::palette_color, arg("color_id"));
  m.def("_profiler_start", [] {
    nb::gil_scoped_release nogil;
    profiler::start();
  });
  m.def("_profiler_stop", [] {
    nb::gil_scoped_release nogil;
    profiler::stop();
  });
}

}  // namespace

CUNP_PY_BINDINGS(bind_profiler);

}  // namespace cunp::py

// python/src/reduction_kernel_py.cpp — cunp._core._ReductionKernel, the base of
// cunp.ReductionKernel (python/cunp/_kernel.py).
#include <Python.h>

#include <utility>

#include "convert.hpp"
#include "runtime/kernel_cache.hpp"
#include "cunp/reduction_kernel.hpp"
#include "kernel_py.hpp"

namespace cunp::py {
namespace {

KernelArg to_reduction_arg(nb::handle h) { return to_kernel_arg(h, "ReductionKernel"); }

// args, then axis / keepdims / out / stream keywords (CuPy's call signature).
std::pair<std::vector<KernelArg>, ReductionCallOptions> to_call(const ReductionKernel& k,
                                                                nb::args args,
                                                                const nb::kwargs& kwargs) {
  std::vector<KernelArg> out;
  for (nb::handle h : args) out.push_back(to_reduction_arg(h));
  ReductionCallOptions call;
  for (auto [key, value] : kwargs) {
    const std::string name = nb::cast<std::string>(key);
    if (name == "axis") {
      call.axis = to_axes(value);
    } else if (name == "keepdims") {
      call.keepdims = nb::cast<bool>(value);
    } else if (name == "out") {
      if (value.is_none()) continue;
      if (k.nout() != 1) throw NotImplementedError("out= needs a kernel with one output");
      if (static_cast<int>(out.size()) != k.nin())
        throw ValueError("cannot specify 'out' as both a positional and keyword argument");
      out.push_back(to_reduction_arg(value));
    } else if (name == "stream") {
      if (!value.is_none()) call.stream = to_stream(value);
    } else {
      throw TypeError("Wrong arguments {'" + name +
                      "'}: ReductionKernel takes axis, keepdims, out and stream");
    }
  }
  return {std::move(out), std::move(call)};
}

void bind_reduction_kernel(nb::module_& m) {
  using nb::arg;
  nb::class_<ReductionKernel>(m, "_ReductionKernel")
      .def(
          "__init__",
          [](ReductionKernel* self, std::string in_params, std::string out_params,
             std::string map_expr, std::string reduce_expr, std::string post_map_expr,
             std::string identity, std::string name, std::string reduce_type, bool reduce_dims,
             std::string preamble, std::vector<std::string> options) {
            ReductionKernelOptions o{.reduce_type = std::move(reduce_type),
                                     .reduce_dims = reduce_dims,
                                     .preamble = std::move(preamble),
                                     .options = std::move(options)};
            new (self) ReductionKernel(in_params, out_params, std::move(map_expr),
                                       std::move(reduce_expr), std::move(post_map_expr),
                                       std::move(identity), std::move(name), std::move(o));
          },
          arg("in_params"), arg("out_params"), arg("map_expr"), arg("reduce_expr"),
          arg("post_map_expr"), arg("identity"), arg("name") = "reduce_kernel",
          arg("reduce_type") = "", arg("reduce_dims") = true, arg("preamble") = "",
          arg("options") = std::vector<std::string>{})
      .def(
          "_call",
          [](const ReductionKernel& self, nb::args args, nb::kwargs kwargs) {
            auto [kargs, call] = to_call(self, args, kwargs);
            std::vector<ndarray> outs;
            {
              nb::gil_scoped_release nogil;
              outs = self(kargs, call);
            }
            return outs;
          },
          "Runs the kernel; keywords: axis, keepdims, out, stream. Returns the outputs.")
      .def(
          "_cuda_source",
          [](const ReductionKernel& self, nb::args args, nb::kwargs kwargs) {
            auto [kargs, call] = to_call(self, args, kwargs);
            return self.cuda_source(kargs, call);
          },
          "The CUDA source a call with these arguments compiles (arrays may be on any device).")
      .def(
          "_compile",
          [](const ReductionKernel& self, nb::args args, nb::kwargs kwargs) {
            const int arch = pop_arch(kwargs);
            auto [kargs, call] = to_call(self, args, kwargs);
            return compile_only(self.name(), self.cuda_source(kargs, call), self.options().options, arch);
          },
          "Compiles the kernel a call with these arguments needs for sm_<arch> (keyword arch, "
          "default 90) "
          "without a GPU; returns the cubin's size.")
      .def_prop_ro("name", [](const ReductionKernel& k) { return k.name(); })
      .def_prop_ro("map_expr", [](const ReductionKernel& k) { return k.map_expr(); })
      .def_prop_ro("reduce_expr", [](const ReductionKernel& k) { return k.reduce_expr(); })
      .def_prop_ro("post_map_expr", [](const ReductionKernel& k) { return k.post_map_expr(); })
      .def_prop_ro("identity", [](const ReductionKernel& k) { return k.identity(); })
      .def_prop_ro("reduce_type", [](const ReductionKernel& k) { return k.reduce_type(); })
      .def_prop_ro("preamble", [](const ReductionKernel& k) { return k.options().preamble; })
      .def_prop_ro("reduce_dims", [](const ReductionKernel& k) { return k.options().reduce_dims; })
      .def_prop_ro("options",
                   [](const ReductionKernel& k) {
                     nb::list l;
                     for (const std::string& o : k.options().options) l.append(o);
                     return nb::tuple(l);
                   })
      .def_prop_ro("nin", [](const ReductionKernel& k) { return k.nin(); })
      .def_prop_ro("nout", [](const ReductionKernel& k) { return k.nout(); })
      .def_prop_ro("nargs", [](const ReductionKernel& k) { return k.nargs(); })
      .def_prop_ro("_in_params", [](const ReductionKernel& k) { return param_list(k.in_params()); })
      .def_prop_ro("_out_params",
                   [](const ReductionKernel& k) { return param_list(k.out_params()); })
      .def_prop_ro("_cached_kernel_count",
                   [](const ReductionKernel& k) { return k.cached_kernel_count(); });
}

}  // namespace

CUNP_PY_BINDINGS(bind_reduction_kernel);

}  // namespace cunp::py

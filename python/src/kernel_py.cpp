// python/src/kernel_py.cpp — user-defined kernels: cunp._core._ElementwiseKernel, the
// base of cunp.ElementwiseKernel (python/cunp/_kernel.py).
#include <utility>

#include "convert.hpp"
#include "runtime/kernel_cache.hpp"
#include "cunp/kernel.hpp"
#include "kernel_py.hpp"

namespace cunp::py {
namespace {

// The Python object: the C++ kernel plus the Python-only return convention.
struct PyElementwiseKernel {
  ElementwiseKernel kernel;
  bool return_tuple = false;
};

std::vector<KernelArg> to_kernel_args(nb::handle args) {
  std::vector<KernelArg> out;
  out.reserve(nb::len(args));
  for (nb::handle h : args) out.push_back(to_kernel_arg(h, "ElementwiseKernel"));
  return out;
}

KernelCallOptions to_call_options(const nb::kwargs& kwargs) {
  KernelCallOptions call;
  for (auto [key, value] : kwargs) {
    const std::string k = nb::cast<std::string>(key);
    if (k == "size") {
      if (!value.is_none()) call.size = nb::cast<std::int64_t>(value);
    } else if (k == "block_size") {
      call.block_size = nb::cast<int>(value);
    } else if (k == "stream") {
      if (!value.is_none()) call.stream = to_stream(value);
    } else {
      throw TypeError("Wrong arguments {'" + k + "'}: ElementwiseKernel takes size, block_size and stream");
    }
  }
  return call;
}

}  // namespace

KernelArg to_kernel_arg(nb::handle h, const char* kernel_class) {
  if (nb::isinstance<ndarray>(h)) return nb::cast<const ndarray&>(h);
  if (nb::isinstance(h, numpy().attr("ndarray")))
    throw TypeError(std::string("Unsupported type numpy.ndarray: ") + kernel_class +
                    " takes cunp arrays and scalars (convert with cunp.asarray)");
  return to_scalar(h);
}

Stream to_stream(nb::handle value) {
  // cunp.cuda streams: _handle() is the bound C++ stream, or, for Stream.null, Stream.ptds
  // and external streams of no fixed device, one for the current device.
  if (nb::hasattr(value, "_handle")) return nb::cast<Stream>(value.attr("_handle")());
  return nb::cast<Stream>(value);
}

int pop_arch(nb::kwargs& kwargs) {
  if (!kwargs.contains("arch")) return 90;
  const int arch = nb::cast<int>(kwargs["arch"]);
  nb::del(kwargs["arch"]);
  return arch;
}

std::size_t compile_only(std::string name, std::string source, std::vector<std::string> options, int arch) {
  cuda::KernelSource s;
  s.kernel_name = std::move(name);
  s.source = std::move(source);
  s.options.extra_options = std::move(options);
  nb::gil_scoped_release nogil;
  return cuda::compile_cached(s, arch, cuda::DiskCache::global()).cubin.size();
}

nb::list param_list(const std::vector<KernelParam>& params) {
  nb::list l;
  for (const KernelParam& p : params) {
    nb::dict d;
    d["name"] = p.name;
    d["type"] = p.type;
    d["dtype"] = p.dtype ? dtype_object(*p.dtype) : nb::none();
    d["raw"] = p.raw;
    l.append(d);
  }
  return l;
}

void bind_kernels(nb::module_& m) {
  using nb::arg;
  nb::class_<PyElementwiseKernel>(m, "_ElementwiseKernel")
      .def(
          "__init__",
          [](PyElementwiseKernel* self, std::string in_params, std::string out_params, std::string operation,
             std::string name, bool reduce_dims, std::string preamble, bool no_return, bool return_tuple,
             std::vector<std::string> options, std::string loop_prep, std::string after_loop) {
            ElementwiseKernelOptions o{.options = std::move(options),
                                       .preamble = std::move(preamble),
                                       .reduce_dims = reduce_dims,
                                       .no_return = no_return,
                                       .loop_prep = std::move(loop_prep),
                                       .after_loop = std::move(after_loop)};
            new (self) PyElementwiseKernel{
                ElementwiseKernel(in_params, out_params, std::move(operation), std::move(name), std::move(o)),
                return_tuple};
          },
          arg("in_params"), arg("out_params"), arg("operation"), arg("name") = "kernel", arg("reduce_dims") = true,
          arg("preamble") = "", arg("no_return") = false, arg("return_tuple") = false,
          arg("options") = std::vector<std::string>{}, arg("loop_prep") = "", arg("after_loop") = "")
      .def(
          "__call__",
          [](const PyElementwiseKernel& self, nb::args args, nb::kwargs kwargs) -> nb::object {
            const KernelCallOptions call = to_call_options(kwargs);
            const std::vector<KernelArg> kargs = to_kernel_args(args);
            std::vector<ndarray> outs;
            {
              nb::gil_scoped_release nogil;
              outs = self.kernel(kargs, call);
            }
            if (self.kernel.options().no_return) return nb::none();
            if (!self.return_tuple && outs.size() == 1) return nb::cast(std::move(outs[0]));
            nb::list l;
            for (ndarray& o : outs) l.append(nb::cast(std::move(o)));
            return nb::tuple(l);
          },
          "Runs the kernel on the inputs (and optionally the outputs); keywords: size, block_size, stream.")
      .def(
          "_cuda_source",
          [](const PyElementwiseKernel& self, nb::args args, nb::kwargs kwargs) {
            return self.kernel.cuda_source(to_kernel_args(args), to_call_options(kwargs));
          },
          "The CUDA source a call with these arguments compiles (arrays may be on any device).")
      .def(
          "_compile",
          [](const PyElementwiseKernel& self, nb::args args, nb::kwargs kwargs) {
            // Compile-only (no GPU): NVRTC through the disk cache for sm_<arch>.
            const int arch = pop_arch(kwargs);
            return compile_only(self.kernel.name(),
                                self.kernel.cuda_source(to_kernel_args(args), to_call_options(kwargs)),
                                self.kernel.options().options, arch);
          },
          "Compiles the kernel a call with these arguments needs for sm_<arch> (keyword arch, default 90) "
          "without a GPU; returns the cubin's size.")
      .def_prop_ro("name", [](const PyElementwiseKernel& self) { return self.kernel.name(); })
      .def_prop_ro("operation", [](const PyElementwiseKernel& self) { return self.kernel.operation(); })
      .def_prop_ro("preamble", [](const PyElementwiseKernel& self) { return self.kernel.options().preamble; })
      .def_prop_ro("loop_prep", [](const PyElementwiseKernel& self) { return self.kernel.options().loop_prep; })
      .def_prop_ro("after_loop", [](const PyElementwiseKernel& self) { return self.kernel.options().after_loop; })
      .def_prop_ro("options",
                   [](const PyElementwiseKernel& self) {
                     nb::list l;
                     for (const std::string& o : self.kernel.options().options) l.append(o);
                     return nb::tuple(l);
                   })
      .def_prop_ro("reduce_dims", [](const PyElementwiseKernel& self) { return self.kernel.options().reduce_dims; })
      .def_prop_ro("no_return", [](const PyElementwiseKernel& self) { return self.kernel.options().no_return; })
      .def_prop_ro("return_tuple", [](const PyElementwiseKernel& self) { return self.return_tuple; })
      .def_prop_ro("nin", [](const PyElementwiseKernel& self) { return self.kernel.nin(); })
      .def_prop_ro("nout", [](const PyElementwiseKernel& self) { return self.kernel.nout(); })
      .def_prop_ro("nargs", [](const PyElementwiseKernel& self) { return self.kernel.nargs(); })
      .def_prop_ro("_in_params", [](const PyElementwiseKernel& self) { return param_list(self.kernel.in_params()); })
      .def_prop_ro("_out_params", [](const PyElementwiseKernel& self) { return param_list(self.kernel.out_params()); })
      .def_prop_ro("_cached_kernel_count",
                   [](const PyElementwiseKernel& self) { return self.kernel.cached_kernel_count(); });
}

}  // namespace cunp::py

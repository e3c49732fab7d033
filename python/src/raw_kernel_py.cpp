// python/src/raw_kernel_py.cpp — cunp._core._RawKernel and _RawModule, the bases of
// cunp.RawKernel and cunp.RawModule (python/cunp/_raw_kernel.py).
#include <Python.h>

#include <climits>
#include <filesystem>
#include <utility>

#include "convert.hpp"
#include "kernel/raw_args.hpp"
#include "cunp/raw_kernel.hpp"
#include "kernel_py.hpp"

namespace cunp::py {
namespace {

std::vector<std::string> to_strings(nb::handle seq, const char* what) {
  std::vector<std::string> out;
  if (seq.is_none()) return out;
  if (PyUnicode_Check(seq.ptr())) return {nb::cast<std::string>(seq)};
  if (!PySequence_Check(seq.ptr()))
    throw TypeError(std::string(what) + " must be a tuple of str, got " +
                    nb::cast<std::string>(nb::str(seq.type().attr("__name__"))));
  for (nb::handle h : seq) {
    if (!PyUnicode_Check(h.ptr()))
      throw TypeError(std::string(what) + " must be a tuple of str, got an item of type " +
                      nb::cast<std::string>(nb::str(h.type().attr("__name__"))));
    out.push_back(nb::cast<std::string>(h));
  }
  return out;
}

RawModuleOptions to_options(nb::handle options, std::string backend, bool translate_cucomplex,
                            bool enable_cooperative_groups, nb::handle name_expressions,
                            bool jitify) {
  RawModuleOptions o;
  o.options = to_strings(options, "options");
  o.backend = std::move(backend);
  o.translate_cucomplex = translate_cucomplex;
  o.enable_cooperative_groups = enable_cooperative_groups;
  o.name_expressions = to_strings(name_expressions, "name_expressions");
  o.jitify = jitify;
  return o;
}

unsigned to_dim(nb::handle h, const char* what) {
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
    throw TypeError(std::string(what) + " must be an int or a tuple of up to 3 ints, got " +
                    nb::cast<std::string>(nb::str(h.type().attr("__name__"))));
  const long long v = nb::cast<long long>(nb::int_(h));
  if (v <= 0 || v > static_cast<long long>(UINT_MAX))
    throw ValueError(std::string(what) + " must be positive in every dimension, got " +
                     std::to_string(v));
  return static_cast<unsigned>(v);
}

Dim3 to_dim3(nb::handle h, const char* what) {
  if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr())) {
    const std::size_t n = nb::len(h);
    if (n < 1 || n > 3)
      throw ValueError(std::string(what) + " must have 1 to 3 dimensions, got " +
                       std::to_string(n));
    unsigned d[3] = {1, 1, 1};
    std::size_t i = 0;
    for (nb::handle x : h) d[i++] = to_dim(x, what);
    return Dim3(d[0], d[1], d[2]);
  }
  return Dim3(to_dim(h, what));
}

std::string py_type_name(nb::handle h) {
  nb::handle t = h.type();
  const std::string mod =
      nb::hasattr(t, "__module__") ? nb::cast<std::string>(nb::str(t.attr("__module__"))) : "";
  const std::string name = nb::cast<std::string>(nb::str(t.attr("__name__")));
  return mod.empty() || mod == "builtins" ? name : mod + "." + name;
}

RawArg to_raw_arg(nb::handle h, std::size_t i) {
  if (nb::isinstance<ndarray>(h)) return RawArg(nb::cast<const ndarray&>(h));
  nb::module_& np = numpy();
  if (nb::isinstance(h, np.attr("ndarray")))
    throw TypeError("RawKernel: args[" + std::to_string(i) +
                    "] is a numpy.ndarray; kernels take cunp arrays (convert with cunp.asarray)");
  // A structured NumPy scalar: the bytes of a struct parameter.
  if (nb::isinstance(h, np.attr("void"))) {
    nb::object b = h.attr("tobytes")();
    return RawArg::bytes(
        std::string(PyBytes_AsString(b.ptr()), static_cast<std::size_t>(PyBytes_Size(b.ptr()))));
  }
  if (nb::isinstance(h, np.attr("generic")) || is_python_scalar(h)) return RawArg(to_scalar(h));
  // cunp.cuda.MemoryPointer: an address on a device.
  if (nb::hasattr(h, "ptr") && nb::hasattr(h, "device_id") && nb::hasattr(h, "mem")) {
    const auto ptr = nb::cast<std::uintptr_t>(h.attr("ptr"));
    const int id = nb::cast<int>(h.attr("device_id"));
    return RawArg::pointer(reinterpret_cast<const void*>(ptr),
                           id < 0 ? Device::cpu() : Device::cuda(id));
  }
  throw TypeError(
      "RawKernel: args[" + std::to_string(i) + "] of type " + py_type_name(h) +
      " is not supported (cunp arrays, NumPy or Python scalars, NumPy structured scalars and "
      "cunp.cuda.MemoryPointer are)");
}

nb::object params_to_python(const std::optional<std::vector<RawKernelParam>>& params) {
  if (!params) return nb::none();
  nb::list l;
  for (const RawKernelParam& p : *params) {
    nb::dict d;
    d["name"] = p.name;
    d["type"] = p.type;
    d["kind"] = p.kind == RawParamKind::Pointer  ? "pointer"
                : p.kind == RawParamKind::Scalar ? "scalar"
                                                 : "other";
    d["dtype"] = p.dtype ? dtype_object(*p.dtype) : nb::none();
    d["size"] = p.size;
    l.append(d);
  }
  return l;
}

nb::dict attributes_dict(const RawKernelAttributes& a) {
  nb::dict d;
  d["max_threads_per_block"] = a.max_threads_per_block;
  d["shared_size_bytes"] = a.shared_size_bytes;
  d["const_size_bytes"] = a.const_size_bytes;
  d["local_size_bytes"] = a.local_size_bytes;
  d["num_regs"] = a.num_regs;
  d["ptx_version"] = a.ptx_version;
  d["binary_version"] = a.binary_version;
  d["cache_mode_ca"] = a.cache_mode_ca;
  d["max_dynamic_shared_size_bytes"] = a.max_dynamic_shared_size_bytes;
  d["preferred_shared_memory_carveout"] = a.preferred_shared_memory_carveout;
  return d;
}

nb::dict binary_to_python(const RawBinary& b) {
  nb::dict lowered;
  for (const auto& [expr, name] : b.lowered_names) lowered[nb::str(expr.c_str())] = name;
  nb::dict d;
  d["cubin"] = nb::bytes(b.cubin.data(), b.cubin.size());
  d["lowered_names"] = lowered;
  return d;
}

nb::tuple strings_tuple(const std::vector<std::string>& v) {
  nb::list l;
  for (const std::string& s : v) l.append(s);
  return nb::tuple(l);
}

void bind_raw_kernels(nb::module_& m) {
  using nb::arg;
  nb::class_<RawKernel>(m, "_RawKernel")
      .def(
          "__init__",
          [](RawKernel* self, std::string code, std::string name, nb::handle options,
             std::string backend, bool translate_cucomplex, bool enable_cooperative_groups,
             bool jitify) {
            new (self) RawKernel(std::move(code), std::move(name),
                                 to_options(options, std::move(backend), translate_cucomplex,
                                            enable_cooperative_groups, nb::none(), jitify));
          },
          arg("code"), arg("name"), arg("options") = nb::tuple(), arg("backend") = "nvrtc",
          arg("translate_cucomplex") = false, nb::kw_only(),
          arg("enable_cooperative_groups") = false, arg("jitify") = false)
      .def("__init__", [](RawKernel* self, const RawKernel& other) { new (self) RawKernel(other); })
      .def(
          "__call__",
          [](const RawKernel& self, nb::handle grid, nb::handle block, nb::handle args,
             std::size_t shared_mem, nb::handle stream) {
            if (!PyTuple_Check(args.ptr()) && !PyList_Check(args.ptr()))
              throw TypeError("RawKernel '" + self.name() +
                              "': args must be a tuple of kernel arguments, got " +
                              py_type_name(args));
            const Dim3 g = to_dim3(grid, "grid"), b = to_dim3(block, "block");
            std::vector<RawArg> kargs;
            kargs.reserve(nb::len(args));
            std::size_t i = 0;
            for (nb::handle h : args) kargs.push_back(to_raw_arg(h, i++));
            RawLaunchOptions launch{.shared_mem = shared_mem};
            if (!stream.is_none()) launch.stream = to_stream(stream);
            nb::gil_scoped_release nogil;
            self(g, b, kargs, launch);
          },
          arg("grid"), arg("block"), arg("args"), nb::kw_only(), arg("shared_mem") = 0,
          arg("stream") = nb::none(),
          "Launches grid x block threads with args (a tuple, one item per kernel parameter).")
      .def(
          "_pack_args",
          [](const RawKernel& self, nb::handle args, nb::handle device) {
            // The bytes each argument passes by the declared parameters, for a kernel on
            // `device` (default cpu, so that cpu arrays pass); no GPU, no compile.
            std::vector<RawArg> kargs;
            std::size_t i = 0;
            for (nb::handle h : args) kargs.push_back(to_raw_arg(h, i++));
            const cuda::raw::PackedArgs packed = cuda::raw::pack_args(
                kargs, self.declared_params(), to_optional_device(device).value_or(Device::cpu()),
                self.name());
            nb::list l;
            for (std::size_t k = 0; k < packed.count(); ++k) {
              const std::string_view b = packed.bytes(k);
              l.append(nb::bytes(b.data(), b.size()));
            }
            return l;
          },
          arg("args"), arg("device") = nb::none())
      .def(
          "compile",
          [](const RawKernel& self, nb::handle /*log_stream*/) {
            nb::gil_scoped_release nogil;
            self.compile();
          },
          arg("log_stream") = nb::none(), "Compiles and loads the kernel for the current device.")
      .def(
          "_compile",
          [](const RawKernel& self, int arch) {
            RawBinary b;
            {
              nb::gil_scoped_release nogil;
              b = self.module().cuda_binary(arch);
            }
            return binary_to_python(b);
          },
          nb::kw_only(), arg("arch") = 90,
          "Compiles the kernel's module for sm_<arch> without a GPU: {'cubin': bytes, "
          "'lowered_names': dict}.")
      .def_prop_ro("_params",
                   [](const RawKernel& self) { return params_to_python(self.declared_params()); })
      .def_prop_ro("code", [](const RawKernel& self) { return self.module().code(); })
      .def_prop_ro("name", [](const RawKernel& self) { return self.name(); })
      .def_prop_ro(
          "options",
          [](const RawKernel& self) { return strings_tuple(self.module().options().options); })
      .def_prop_ro("backend", [](const RawKernel& self) { return self.module().options().backend; })
      .def_prop_ro(
          "translate_cucomplex",
          [](const RawKernel& self) { return self.module().options().translate_cucomplex; })
      .def_prop_ro(
          "enable_cooperative_groups",
          [](const RawKernel& self) { return self.module().options().enable_cooperative_groups; })
      .def_prop_ro("jitify", [](const RawKernel& self) { return self.module().options().jitify; })
      .def_prop_ro("file_path",
                   [](const RawKernel& self) -> nb::object {
                     if (self.module().path().empty()) return nb::none();
                     return nb::str(self.module().path().string().c_str());
                   })
      .def_prop_ro("attributes",
                   [](const RawKernel& self) {
                     RawKernelAttributes a;
                     {
                       nb::gil_scoped_release nogil;
                       a = self.attributes();
                     }
                     return attributes_dict(a);
                   })
      .def_prop_rw(
          "max_dynamic_shared_size_bytes",
          [](const RawKernel& self) { return self.attributes().max_dynamic_shared_size_bytes; },
          [](RawKernel& self, int bytes) { self.set_max_dynamic_shared_size_bytes(bytes); })
      .def_prop_rw(
          "preferred_shared_memory_carveout",
          [](const RawKernel& self) { return self.attributes().preferred_shared_memory_carveout; },
          [](RawKernel& self, int percent) { self.set_preferred_shared_memory_carveout(percent); });

  nb::class_<RawModule>(m, "_RawModule")
      .def(
          "__init__",
          [](RawModule* self, nb::handle code, nb::handle path, nb::handle options,
             std::string backend, bool translate_cucomplex, bool enable_cooperative_groups,
             nb::handle name_expressions, bool jitify) {
            if (code.is_none() == path.is_none())
              throw TypeError(code.is_none() ? "RawModule: one of code or path is required"
                                             : "RawModule: code and path are mutually exclusive");
            RawModuleOptions o = to_options(options, std::move(backend), translate_cucomplex,
                                            enable_cooperative_groups, name_expressions, jitify);
            if (!code.is_none()) {
              if (!PyUnicode_Check(code.ptr()))
                throw TypeError("RawModule: code must be a str, got " + py_type_name(code));
              new (self) RawModule(nb::cast<std::string>(code), std::move(o));
            } else {
              const std::string p =
                  nb::cast<std::string>(nb::str(nb::module_::import_("os").attr("fspath")(path)));
              new (self) RawModule(RawModule::from_file(std::filesystem::path(p), std::move(o)));
            }
          },
          arg("code") = nb::none(), nb::kw_only(), arg("path") = nb::none(),
          arg("options") = nb::tuple(), arg("backend") = "nvrtc",
          arg("translate_cucomplex") = false, arg("enable_cooperative_groups") = false,
          arg("name_expressions") = nb::none(), arg("jitify") = false)
      .def(
          "_get_function",
          [](const RawModule& self, const std::string& name) {
            nb::gil_scoped_release nogil;
            return self.get_function(name);
          },
          arg("name"))
      .def(
          "_get_global",
          [](const RawModule& self, const std::string& name) {
            nb::gil_scoped_release nogil;
            return self.get_global(name);
          },
          arg("name"))
      .def(
          "compile",
          [](const RawModule& self, nb::handle /*log_stream*/) {
            nb::gil_scoped_release nogil;
            self.compile();
          },
          arg("log_stream") = nb::none(), "Compiles and loads the module for the current device.")
      .def(
          "_compile",
          [](const RawModule& self, int arch) {
            RawBinary b;
            {
              nb::gil_scoped_release nogil;
              b = self.cuda_binary(arch);
            }
            return binary_to_python(b);
          },
          nb::kw_only(), arg("arch") = 90,
          "Compiles the module for sm_<arch> without a GPU: {'cubin': bytes, 'lowered_names': "
          "dict}.")
      .def_prop_ro("code",
                   [](const RawModule& self) -> nb::object {
                     if (!self.from_source() || !self.path().empty()) return nb::none();
                     return nb::str(self.code().c_str(), self.code().size());
                   })
      .def_prop_ro("file_path",
                   [](const RawModule& self) -> nb::object {
                     if (self.path().empty()) return nb::none();
                     return nb::str(self.path().string().c_str());
                   })
      .def_prop_ro("options",
                   [](const RawModule& self) { return strings_tuple(self.options().options); })
      .def_prop_ro("backend", [](const RawModule& self) { return self.options().backend; })
      .def_prop_ro("translate_cucomplex",
                   [](const RawModule& self) { return self.options().translate_cucomplex; })
      .def_prop_ro("enable_cooperative_groups",
                   [](const RawModule& self) { return self.options().enable_cooperative_groups; })
      .def_prop_ro("name_expressions",
                   [](const RawModule& self) -> nb::object {
                     if (self.options().name_expressions.empty()) return nb::none();
                     return strings_tuple(self.options().name_expressions);
                   })
      .def_prop_ro("jitify", [](const RawModule& self) { return self.options().jitify; });
}

}  // namespace

CUNP_PY_BINDINGS(bind_raw_kernels);

}  // namespace cunp::py

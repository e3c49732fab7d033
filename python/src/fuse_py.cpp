// python/src/fuse_py.cpp — the C++ half of cunp.fuse (python/cunp/_fuse.py):
// _FusionTrace, the graph a Python trace records (src/kernel/fusion.hpp's Trace), and
// _FusedFunction, a fused function's programs by argument signature. The Python side
// only runs the user's function on proxy objects that call these.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "convert.hpp"
#include "kernel/user_elementwise.hpp"
#include "kernel/fusion.hpp"
#include "kernel_py.hpp"

namespace cunp::py {
namespace {

struct PyTrace {
  std::shared_ptr<fusion::Trace> trace;
};

struct PyFused {
  std::string name;
  fusion::ProgramCache programs;
};

KernelArg fuse_arg(nb::handle h, std::size_t k) {
  if (nb::isinstance<ndarray>(h)) return nb::cast<const ndarray&>(h);
  if (is_python_scalar(h) || nb::isinstance(h, numpy().attr("generic"))) return to_scalar(h);
  const std::string type = nb::cast<std::string>(nb::str(h.type().attr("__name__")));
  if (nb::isinstance(h, numpy().attr("ndarray")))
    throw TypeError("cunp.fuse: argument " + std::to_string(k) +
                    " is a numpy.ndarray; fused functions take cunp arrays and scalars (convert "
                    "with cunp.asarray)");
  throw TypeError("cunp.fuse: argument " + std::to_string(k) + " of type " + type +
                  " is not supported (fused functions take cunp arrays and scalars)");
}

std::vector<KernelArg> fuse_args(nb::handle args) {
  std::vector<KernelArg> out;
  out.reserve(nb::len(args));
  std::size_t k = 0;
  for (nb::handle h : args) out.push_back(fuse_arg(h, k++));
  return out;
}

FuseCallOptions call_options(nb::handle out, nb::handle stream) {
  FuseCallOptions o;
  if (!out.is_none()) {
    auto one = [&](nb::handle h) {
      if (!nb::isinstance<ndarray>(h)) throw TypeError("cunp.fuse: out= takes cunp arrays");
      o.out.push_back(nb::cast<const ndarray&>(h));
    };
    if (PyTuple_Check(out.ptr()))
      for (nb::handle h : out) one(h);
    else
      one(out);
  }
  if (!stream.is_none()) o.stream = to_stream(stream);
  return o;
}

nb::object results_to_python(std::vector<ndarray>&& r) {
  if (r.size() == 1) return nb::cast(std::move(r[0]));
  nb::list l;
  for (ndarray& a : r) l.append(nb::cast(std::move(a)));
  return nb::tuple(l);
}

bool on_cuda(const std::vector<KernelArg>& args) {
  for (const KernelArg& a : args)
    if (a.is_array()) return a.array().device().is_cuda();
  return false;
}

std::shared_ptr<const fusion::Program> program_of(const PyFused& f,
                                                  const std::vector<KernelArg>& args) {
  std::shared_ptr<const fusion::Program> p = f.programs.find(fusion::signature_key(args));
  if (!p) throw ValueError("cunp.fuse: these arguments have not been traced");
  return p;
}

void bind_fuse(nb::module_& m) {
  using nb::arg;
  nb::class_<PyTrace>(m, "_FusionTrace")
      .def(
          "__init__",
          [](PyTrace* self, nb::tuple args) {
            std::vector<fusion::ArgInfo> infos;
            std::size_t k = 0;
            for (nb::handle h : args) infos.push_back(fusion::arg_info(fuse_arg(h, k++)));
            new (self) PyTrace{std::make_shared<fusion::Trace>(std::move(infos))};
          },
          arg("args"), "A new trace of a function of these arguments (argument k is node k).")
      .def(
          "constant",
          [](PyTrace& t, nb::handle value) { return t.trace->constant(to_scalar(value)); },
          arg("value"))
      .def(
          "apply",
          [](PyTrace& t, const std::string& ufunc, std::vector<int> operands) {
            return t.trace->apply(ufunc::get(ufunc), operands);
          },
          arg("ufunc"), arg("operands"))
      .def("cast", [](PyTrace& t, int node,
                      nb::handle dtype) { return t.trace->cast(node, to_dtype(dtype)); })
      .def("where", [](PyTrace& t, int c, int x, int y) { return t.trace->where(c, x, y); })
      .def("clip", [](PyTrace& t, int a, int lo, int hi) { return t.trace->clip(a, lo, hi); })
      .def(
          "reduce",
          [](PyTrace& t, const std::string& name, int node, nb::handle axis, bool keepdims,
             nb::handle dtype) {
            const std::optional<fusion::ReductionName> r = fusion::reduction_by_name(name);
            if (!r)
              throw NotImplementedError("cunp.fuse: the reduction '" + name + "' cannot be fused");
            return t.trace->reduce(*r, node, to_axes(axis), keepdims, to_optional_dtype(dtype));
          },
          arg("name"), arg("node"), arg("axis").none(), arg("keepdims"), arg("dtype").none())
      .def("dtype",
           [](const PyTrace& t, int node) { return dtype_object(t.trace->node(node).dtype); })
      .def("ndim", [](const PyTrace& t, int node) { return t.trace->node(node).ndim; })
      .def("reduced", [](const PyTrace& t, int node) { return t.trace->node(node).reduced; })
      .def("__len__", [](const PyTrace& t) { return t.trace->nodes().size(); });

  nb::class_<PyFused>(m, "_FusedFunction")
      .def(
          "__init__",
          [](PyFused* self, std::string name) {
            if (!cuda::user::is_identifier(name))
              throw ValueError("Invalid kernel name: \"" + name + "\"");
            new (self) PyFused{std::move(name), {}};
          },
          arg("kernel_name"))
      .def(
          "__call__",
          [](const PyFused& f, nb::tuple args, nb::handle out, nb::handle stream) -> nb::object {
            std::vector<KernelArg> kargs = fuse_args(args);
            const std::shared_ptr<const fusion::Program> p =
                f.programs.find(fusion::signature_key(kargs));
            if (!p) return nb::none();  // a new signature: the Python side traces it
            const FuseCallOptions call = call_options(out, stream);
            std::vector<ndarray> r;
            if (on_cuda(kargs)) {
              nb::gil_scoped_release nogil;
              r = p->run(kargs, call);
            } else {
              r = p->run(kargs, call);
            }
            return results_to_python(std::move(r));
          },
          arg("args"), arg("out").none(), arg("stream").none(),
          "Runs the program traced for these arguments' signature; None when there is none yet.")
      .def(
          "define",
          [](PyFused& f, nb::tuple args, PyTrace& t, std::vector<int> results) {
            const std::vector<KernelArg> kargs = fuse_args(args);
            f.programs.insert(
                fusion::signature_key(kargs),
                std::make_shared<fusion::Program>(t.trace, std::move(results), f.name));
          },
          arg("args"), arg("trace"), arg("results"),
          "Keeps the trace of these arguments' signature.")
      .def(
          "_cuda_source",
          [](const PyFused& f, nb::tuple args, nb::handle out) {
            const std::vector<KernelArg> kargs = fuse_args(args);
            return program_of(f, kargs)->cuda_source(kargs, call_options(out, nb::none()));
          },
          arg("args"), arg("out").none())
      .def(
          "_compile",
          [](const PyFused& f, nb::tuple args, nb::handle out, int arch) {
            const std::vector<KernelArg> kargs = fuse_args(args);
            std::string src =
                program_of(f, kargs)->cuda_source(kargs, call_options(out, nb::none()));
            return compile_only(f.name, std::move(src), {"--fmad=false"}, arch);
          },
          arg("args"), arg("out").none(), arg("arch") = 90)
      .def_prop_ro("kernel_name", [](const PyFused& f) { return f.name; })
      .def_prop_ro("_cached_signature_count", [](const PyFused& f) { return f.programs.size(); });
}

}  // namespace

CUNP_PY_BINDINGS(bind_fuse);

}  // namespace cunp::py

// python/src/reductions_py.cpp — bindings of the reductions (cunp/reduce.hpp); the
// Python signatures live in python/cunp/_reductions.py.
#include <Python.h>

#include <string>

#include "convert.hpp"
#include "cunp/reduce.hpp"

namespace cunp::py {
namespace {


int to_axis(nb::handle h) {
  if (!PyIndex_Check(h.ptr())) throw TypeError("an integer is required for the axis");
  return nb::cast<int>(nb::int_(h));
}

ReduceOptions reduce_options(nb::handle axis, nb::handle dtype, std::optional<ndarray> out, bool keepdims,
                             nb::handle initial, std::optional<ndarray> where) {
  ReduceOptions o;
  o.axis = to_axes(axis);
  o.keepdims = keepdims;
  o.dtype = to_optional_dtype(dtype);
  o.out = std::move(out);
  if (!initial.is_none()) o.initial = to_scalar(initial);
  o.where = std::move(where);
  return o;
}

using ReduceFn = ndarray (*)(const ndarray&, const ReduceOptions&);

ReduceFn reduce_fn(const std::string& name) {
  static const std::pair<const char*, ReduceFn> table[] = {
      {"sum", &sum},         {"prod", &prod},         {"mean", &mean},       {"var", &var},
      {"std", &std},         {"min", &min},           {"max", &max},         {"ptp", &ptp},
      {"any", &any},         {"all", &all},           {"count_nonzero", &count_nonzero},
      {"nansum", &nansum},   {"nanprod", &nanprod},   {"nanmin", &nanmin},   {"nanmax", &nanmax},
      {"nanmean", &nanmean}, {"nanvar", &nanvar},     {"nanstd", &nanstd},
  };
  for (const auto& [n, f] : table)
    if (name == n) return f;
  throw ValueError("unknown reduction " + name);
}

void bind_reductions(nb::module_& m) {
  m.def(
      "_reduce",
      [](const std::string& name, const ndarray& a, nb::handle axis, nb::handle dtype, std::optional<ndarray> out,
         bool keepdims, double ddof, nb::handle initial, std::optional<ndarray> where) {
        ReduceOptions o = reduce_options(axis, dtype, std::move(out), keepdims, initial, std::move(where));
        o.ddof = ddof;
        return reduce_fn(name)(a, o);
      },
      nb::arg("name"), nb::arg("a"), nb::arg("axis").none(), nb::arg("dtype").none(), nb::arg("out").none(),
      nb::arg("keepdims"), nb::arg("ddof"), nb::arg("initial").none() = nb::none(),
      nb::arg("where").none() = nb::none());
  m.def(
      "_ufunc_reduce",
      [](const std::string& name, const ndarray& a, nb::handle axis, nb::handle dtype, std::optional<ndarray> out,
         bool keepdims, nb::handle initial, std::optional<ndarray> where) {
        return ufunc_reduce(name, a, reduce_options(axis, dtype, std::move(out), keepdims, initial, std::move(where)));
      },
      nb::arg("name"), nb::arg("a"), nb::arg("axis").none(), nb::arg("dtype").none(), nb::arg("out").none(),
      nb::arg("keepdims"), nb::arg("initial").none(), nb::arg("where").none());
  m.def(
      "_scan",
      [](const std::string& name, const ndarray& a, nb::handle axis, nb::handle dtype, std::optional<ndarray> out) {
        ScanOptions o;
        if (!axis.is_none()) o.axis = to_axis(axis);
        o.dtype = to_optional_dtype(dtype);
        o.out = std::move(out);
        if (name == "cumsum") return cumsum(a, o);
        if (name == "cumprod") return cumprod(a, o);
        if (name == "nancumsum") return nancumsum(a, o);
        if (name == "nancumprod") return nancumprod(a, o);
        return ufunc_accumulate(name, a, o);
      },
      nb::arg("name"), nb::arg("a"), nb::arg("axis").none(), nb::arg("dtype").none(), nb::arg("out").none());
  m.def(
      "_diff",
      [](const ndarray& a, int n, int axis, std::optional<ndarray> prepend, std::optional<ndarray> append) {
        return diff(a, {.n = n, .axis = axis, .prepend = std::move(prepend), .append = std::move(append)});
      },
      nb::arg("a"), nb::arg("n"), nb::arg("axis"), nb::arg("prepend").none(), nb::arg("append").none());
  m.def(
      "_argreduce",
      [](bool is_max, const ndarray& a, nb::handle axis, nb::handle out, bool keepdims, nb::handle dtype) {
        ArgReduceOptions o;
        if (!axis.is_none()) {
          // NumPy's axis converter: operator.index, bools refused.
          if (PyBool_Check(axis.ptr())) throw TypeError("an integer is required for the axis");
          const nb::object i = nb::steal(PyNumber_Index(axis.ptr()));
          if (!i.is_valid()) throw nb::python_error();
          o.axis = nb::cast<int>(i);
        }
        o.keepdims = keepdims;
        if (!out.is_none()) {
          if (!nb::isinstance<ndarray>(out)) throw TypeError("output must be an array");
          o.out = nb::cast<const ndarray&>(out);
        }
        o.dtype = to_optional_dtype(dtype);
        return is_max ? argmax(a, o) : argmin(a, o);
      },
      nb::arg("is_max"), nb::arg("a"), nb::arg("axis").none(), nb::arg("out").none(), nb::arg("keepdims"),
      nb::arg("dtype").none() = nb::none());
}

}  // namespace

CUNP_PY_BINDINGS(bind_reductions);

}  // namespace cunp::py

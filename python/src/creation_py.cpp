// python/src/creation_py.cpp — creation functions with NumPy's Python signatures.
#include <Python.h>

#include <cmath>

#include "convert.hpp"
#include "cunp/copyto.hpp"
#include "cunp/spacing.hpp"
#include "cunp/window.hpp"

namespace cunp::py {

nb::object as_numpy_view(const ndarray& a);

namespace {

ArrayOptions opts(nb::handle dtype, nb::handle order, nb::handle device) {
  return {.dtype = to_optional_dtype(dtype), .order = to_order(order, Order::C), .device = to_optional_device(device)};
}

LikeOptions like_opts(nb::handle dtype, nb::handle order, nb::handle shape, nb::handle device) {
  LikeOptions o{.dtype = to_optional_dtype(dtype), .order = to_order(order, Order::K)};
  if (!shape.is_none()) o.shape = to_shape(shape);
  o.device = to_optional_device(device);
  return o;
}

// The prototype of the *_like functions: a cunp array as it is, anything else (lists,
// NumPy arrays) converted on the current device, as NumPy's asarray would.
ndarray prototype(nb::handle h) {
  if (nb::isinstance<ndarray>(h)) return nb::cast<const ndarray&>(h);
  return as_cunp_array(h, current_device(), std::nullopt);
}

// A fill value that is a scalar (Python's weak, NumPy's strong) rather than an array-like.
bool is_scalar_fill(nb::handle h) { return is_python_scalar(h) || nb::isinstance(h, numpy().attr("generic")); }

// Fills `out` from an array-like fill value (broadcast, unsafe casting, as NumPy's copyto
// inside full).
ndarray fill_from(ndarray out, nb::handle fill) {
  const ndarray f = nb::isinstance<ndarray>(fill) ? nb::cast<const ndarray&>(fill)
                                                  : as_cunp_array(fill, out.device(), std::nullopt);
  out.assign(f);
  return out;
}

// np.linspace's num (operator.index: NumPy integers yes, floats no).
std::int64_t to_num(nb::handle num) {
  if (PyLong_CheckExact(num.ptr())) return nb::cast<std::int64_t>(num);
  if (PyBool_Check(num.ptr()) || !PyIndex_Check(num.ptr())) {
    throw TypeError("'" + nb::cast<std::string>(nb::str(num.type().attr("__name__"))) +
                    "' object cannot be interpreted as an integer");
  }
  PyObject* index = PyNumber_Index(num.ptr());
  if (!index) throw nb::python_error();
  return nb::cast<std::int64_t>(nb::steal(index));
}

Operand as_endpoint(nb::handle h, nb::handle device) {
  return to_operand(h, to_optional_device(device).value_or(current_device()));
}

SpaceOptions space_opts(bool endpoint, nb::handle dtype, int axis, nb::handle device) {
  return {.endpoint = endpoint, .dtype = to_optional_dtype(dtype), .device = to_optional_device(device), .axis = axis};
}

// arange's argument forms: arange(stop), arange(start, stop[, step[, dtype]]),
// arange(stop=...), arange(start, stop=...). (NumPy's TypeError for arange(start=3)
// alone is not reproduced: a keyword start cannot be told from a positional one
// without a **kwargs signature, which costs every call.)
ndarray arange_call(nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype, nb::handle device) {
  ArrayOptions o{.dtype = to_optional_dtype(dtype), .device = to_optional_device(device)};
  const Scalar d = step.is_none() ? Scalar(std::int64_t{1}) : to_scalar(step);
  if (stop.is_none()) {
    if (start.is_none()) throw TypeError("arange() requires stop to be specified.");
    return arange(Scalar(std::int64_t{0}), to_scalar(start), d, o);
  }
  // start=None beside a stop: arange(stop=3) starts at 0.
  return arange(start.is_none() ? Scalar(std::int64_t{0}) : to_scalar(start), to_scalar(stop), d, o);
}

// NumPy's step of linspace: NaN (a Python float) when undefined, a NumPy scalar for
// scalar endpoints, else an array.
nb::object step_object(const ndarray& step, std::int64_t div) {
  if (div <= 0) return nb::float_(std::nan(""));
  if (step.ndim() == 0) return dtype_object(step.dtype()).attr("type")(scalar_to_python(step.item()));
  return nb::cast(step);
}

}  // namespace

void bind_creation(nb::module_& m) {
  using nb::arg;
  m.def("empty", [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device, nb::handle) {
    return empty(to_shape(shape), opts(dtype, order, device));
  }, arg("shape"), arg("dtype") = nb::none(), arg("order").none() = "C", nb::kw_only(), arg("device") = nb::none(),
        arg("like") = nb::none());
  m.def("zeros", [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device, nb::handle) {
    return zeros(to_shape(shape), opts(dtype, order, device));
  }, arg("shape"), arg("dtype") = nb::none(), arg("order").none() = "C", nb::kw_only(), arg("device") = nb::none(),
        arg("like") = nb::none());
  m.def("ones", [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device, nb::handle) {
    return ones(to_shape(shape), opts(dtype, order, device));
  }, arg("shape"), arg("dtype") = nb::none(), arg("order").none() = "C", nb::kw_only(), arg("device") = nb::none(),
        arg("like") = nb::none());
  m.def("full", [](nb::handle shape, nb::handle fill, nb::handle dtype, nb::handle order, nb::handle device,
                   nb::handle) {
    ArrayOptions o = opts(dtype, order, device);
    if (is_scalar_fill(fill)) return full(to_shape(shape), to_scalar(fill), o);
    // An array-like fill value: NumPy's dtype is np.array(fill_value).dtype.
    const Device dev = o.device.value_or(current_device());
    const ndarray f = nb::isinstance<ndarray>(fill) ? nb::cast<const ndarray&>(fill) : as_cunp_array(fill, dev, std::nullopt);
    ndarray out = empty(to_shape(shape), {.dtype = o.dtype.value_or(f.dtype()), .order = o.order, .device = dev});
    out.assign(f);
    return out;
  }, arg("shape"), arg("fill_value"), arg("dtype") = nb::none(), arg("order").none() = "C", nb::kw_only(),
        arg("device") = nb::none(), arg("like") = nb::none());
  m.def("empty_like", [](nb::handle p, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape, nb::handle device) {
    return empty_like(prototype(p), like_opts(dtype, order, shape, device));
  }, arg("prototype"), arg("dtype") = nb::none(), arg("order").none() = "K", arg("subok") = nb::none(),
        arg("shape") = nb::none(), nb::kw_only(), arg("device") = nb::none());
  m.def("zeros_like", [](nb::handle p, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape, nb::handle device) {
    return zeros_like(prototype(p), like_opts(dtype, order, shape, device));
  }, arg("a"), arg("dtype") = nb::none(), arg("order").none() = "K", arg("subok") = nb::none(), arg("shape") = nb::none(),
        nb::kw_only(), arg("device") = nb::none());
  m.def("ones_like", [](nb::handle p, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape, nb::handle device) {
    return ones_like(prototype(p), like_opts(dtype, order, shape, device));
  }, arg("a"), arg("dtype") = nb::none(), arg("order").none() = "K", arg("subok") = nb::none(), arg("shape") = nb::none(),
        nb::kw_only(), arg("device") = nb::none());
  m.def("full_like", [](nb::handle p, nb::handle fill, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape,
                        nb::handle device) {
    const ndarray proto = prototype(p);
    if (is_scalar_fill(fill)) return full_like(proto, to_scalar(fill), like_opts(dtype, order, shape, device));
    return fill_from(empty_like(proto, like_opts(dtype, order, shape, device)), fill);
  }, arg("a"), arg("fill_value"), arg("dtype") = nb::none(), arg("order").none() = "K", arg("subok") = nb::none(),
        arg("shape") = nb::none(), nb::kw_only(), arg("device") = nb::none());
  m.def("arange", [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype, nb::handle device,
                     nb::handle) { return arange_call(start, stop, step, dtype, device); },
        arg("start") = nb::none(), arg("stop") = nb::none(), arg("step") = nb::none(), arg("dtype") = nb::none(),
        nb::kw_only(), arg("device") = nb::none(), arg("like") = nb::none());
  m.def("linspace", [](nb::handle start, nb::handle stop, nb::handle num, bool endpoint, bool retstep,
                       nb::handle dtype, int axis, nb::handle device) -> nb::object {
    const std::int64_t n = to_num(num);
    ndarray step;
    ndarray r = linspace(as_endpoint(start, device), as_endpoint(stop, device), n, space_opts(endpoint, dtype, axis, device),
                         retstep ? &step : nullptr);
    if (retstep) return nb::make_tuple(r, step_object(step, endpoint ? n - 1 : n));
    return nb::cast(r);
  }, arg("start"), arg("stop"), arg("num") = 50, arg("endpoint") = true, arg("retstep") = false,
        arg("dtype") = nb::none(), arg("axis") = 0, nb::kw_only(), arg("device") = nb::none());
  m.def("logspace", [](nb::handle start, nb::handle stop, nb::handle num, bool endpoint, nb::handle base,
                       nb::handle dtype, int axis, nb::handle device) {
    return logspace(as_endpoint(start, device), as_endpoint(stop, device), to_num(num), as_endpoint(base, device),
                    space_opts(endpoint, dtype, axis, device));
  }, arg("start"), arg("stop"), arg("num") = 50, arg("endpoint") = true, arg("base") = 10.0,
        arg("dtype") = nb::none(), arg("axis") = 0, nb::kw_only(), arg("device") = nb::none());
  m.def("geomspace", [](nb::handle start, nb::handle stop, nb::handle num, bool endpoint, nb::handle dtype, int axis,
                        nb::handle device) {
    return geomspace(as_endpoint(start, device), as_endpoint(stop, device), to_num(num),
                     space_opts(endpoint, dtype, axis, device));
  }, arg("start"), arg("stop"), arg("num") = 50, arg("endpoint") = true, arg("dtype") = nb::none(), arg("axis") = 0,
        nb::kw_only(), arg("device") = nb::none());
  m.def("eye", [](std::int64_t n, std::optional<std::int64_t> mm, std::int64_t k, nb::handle dtype, nb::handle order,
                  nb::handle device, nb::handle) {
    return eye(n, mm, k, opts(dtype, order, device));
  }, arg("N"), arg("M") = nb::none(), arg("k") = 0, arg("dtype") = nb::none(), arg("order").none() = "C", nb::kw_only(),
        arg("device") = nb::none(), arg("like") = nb::none());
  // Window functions: M as NumPy takes it (any real; floats count as in np.arange).
  m.def("bartlett", [](double M, nb::handle device) { return bartlett(M, {.device = to_optional_device(device)}); },
        arg("M"), nb::kw_only(), arg("device") = nb::none());
  m.def("blackman", [](double M, nb::handle device) { return blackman(M, {.device = to_optional_device(device)}); },
        arg("M"), nb::kw_only(), arg("device") = nb::none());
  m.def("hamming", [](double M, nb::handle device) { return hamming(M, {.device = to_optional_device(device)}); },
        arg("M"), nb::kw_only(), arg("device") = nb::none());
  m.def("hanning", [](double M, nb::handle device) { return hanning(M, {.device = to_optional_device(device)}); },
        arg("M"), nb::kw_only(), arg("device") = nb::none());
  m.def("kaiser", [](double M, double beta, nb::handle device) {
    return kaiser(M, beta, {.device = to_optional_device(device)});
  }, arg("M"), arg("beta"), nb::kw_only(), arg("device") = nb::none());
  m.def("identity", [](std::int64_t n, nb::handle dtype, nb::handle device, nb::handle) {
    return identity(n, opts(dtype, nb::none(), device));
  }, arg("n"), arg("dtype") = nb::none(), nb::kw_only(), arg("device") = nb::none(), arg("like") = nb::none());
  m.def("tri", [](std::int64_t n, std::optional<std::int64_t> mm, std::int64_t k, nb::handle dtype, nb::handle device,
                  nb::handle) {
    return tri(n, mm, k, opts(dtype, nb::none(), device));
  }, arg("N"), arg("M") = nb::none(), arg("k") = 0, arg("dtype") = nb::none(), nb::kw_only(), arg("device") = nb::none(),
        arg("like") = nb::none());
  m.def("copyto", [](nb::handle dst, nb::handle src, nb::handle casting, nb::handle where) {
    if (!nb::isinstance<ndarray>(dst)) {
      throw TypeError("copyto() argument 1 must be a cunp.ndarray, not " +
                      nb::cast<std::string>(nb::str(dst.type().attr("__name__"))));
    }
    const ndarray& d = nb::cast<const ndarray&>(dst);
    CopytoOptions o{.casting = parse_casting(nb::cast<std::string>(casting))};
    if (where.ptr() != Py_True) {
      o.where = nb::isinstance<ndarray>(where) ? nb::cast<const ndarray&>(where)
                : nb::hasattr(where, "dtype") ? as_cunp_array(where, d.device(), std::nullopt)
                                              : as_cunp_array(where, d.device(), DType::Bool);
    }
    copyto(d, to_operand(src, d.device()), o);
  }, arg("dst"), arg("src"), arg("casting") = "same_kind", arg("where") = true);
  m.def("_diag", [](const ndarray& v, std::int64_t k) { return diag(v, k); });
  m.def("_diagonal", [](const ndarray& v, std::int64_t k) { return diagonal(v, k); });
  m.def("_tril", [](const ndarray& v, std::int64_t k) { return tril(v, k); });
  m.def("_triu", [](const ndarray& v, std::int64_t k) { return triu(v, k); });
  m.def("_ascontiguousarray", [](const ndarray& a, nb::handle dtype) { return ascontiguousarray(a, to_optional_dtype(dtype)); },
        arg("a"), arg("dtype").none());
  m.def("_asfortranarray", [](const ndarray& a, nb::handle dtype) { return asfortranarray(a, to_optional_dtype(dtype)); },
        arg("a"), arg("dtype").none());
  m.def("empty_pinned", [](nb::handle shape, nb::handle dtype, nb::handle order) {
    return as_numpy_view(empty_pinned(to_shape(shape), to_optional_dtype(dtype).value_or(DType::Float64),
                                      to_order(order, Order::C)));
  }, arg("shape"), arg("dtype") = nb::none(), arg("order").none() = "C");
  m.def("zeros_pinned", [](nb::handle shape, nb::handle dtype, nb::handle order) {
    return as_numpy_view(zeros_pinned(to_shape(shape), to_optional_dtype(dtype).value_or(DType::Float64),
                                      to_order(order, Order::C)));
  }, arg("shape"), arg("dtype") = nb::none(), arg("order").none() = "C");
}

}  // namespace cunp::py

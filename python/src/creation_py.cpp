// python/src/creation_py.cpp — creation functions with NumPy's Python signatures.
#include "convert.hpp"

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

const ndarray& as_array(nb::handle h) {
  if (!nb::isinstance<ndarray>(h)) throw TypeError("expected a cunp.ndarray");
  return nb::cast<const ndarray&>(h);
}

}  // namespace

void bind_creation(nb::module_& m) {
  using nb::arg;
  m.def("empty", [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device) {
    return empty(to_shape(shape), opts(dtype, order, device));
  }, arg("shape"), arg("dtype") = nb::none(), arg("order") = "C", nb::kw_only(), arg("device") = nb::none());
  m.def("zeros", [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device) {
    return zeros(to_shape(shape), opts(dtype, order, device));
  }, arg("shape"), arg("dtype") = nb::none(), arg("order") = "C", nb::kw_only(), arg("device") = nb::none());
  m.def("ones", [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device) {
    return ones(to_shape(shape), opts(dtype, order, device));
  }, arg("shape"), arg("dtype") = nb::none(), arg("order") = "C", nb::kw_only(), arg("device") = nb::none());
  m.def("full", [](nb::handle shape, nb::handle fill, nb::handle dtype, nb::handle order, nb::handle device) {
    ArrayOptions o = opts(dtype, order, device);
    if (nb::isinstance<ndarray>(fill)) {
      const ndarray& f = nb::cast<const ndarray&>(fill);
      ndarray out = empty(to_shape(shape), {.dtype = o.dtype.value_or(f.dtype()), .order = o.order, .device = o.device});
      out.assign(f);
      return out;
    }
    return full(to_shape(shape), to_scalar(fill), o);
  }, arg("shape"), arg("fill_value"), arg("dtype") = nb::none(), arg("order") = "C", nb::kw_only(),
        arg("device") = nb::none());
  m.def("empty_like", [](nb::handle p, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape, nb::handle device) {
    return empty_like(as_array(p), like_opts(dtype, order, shape, device));
  }, arg("prototype"), arg("dtype") = nb::none(), arg("order") = "K", arg("subok") = nb::none(),
        arg("shape") = nb::none(), nb::kw_only(), arg("device") = nb::none());
  m.def("zeros_like", [](nb::handle p, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape, nb::handle device) {
    return zeros_like(as_array(p), like_opts(dtype, order, shape, device));
  }, arg("a"), arg("dtype") = nb::none(), arg("order") = "K", arg("subok") = nb::none(), arg("shape") = nb::none(),
        nb::kw_only(), arg("device") = nb::none());
  m.def("ones_like", [](nb::handle p, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape, nb::handle device) {
    return ones_like(as_array(p), like_opts(dtype, order, shape, device));
  }, arg("a"), arg("dtype") = nb::none(), arg("order") = "K", arg("subok") = nb::none(), arg("shape") = nb::none(),
        nb::kw_only(), arg("device") = nb::none());
  m.def("full_like", [](nb::handle p, nb::handle fill, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape,
                        nb::handle device) {
    return full_like(as_array(p), to_scalar(fill), like_opts(dtype, order, shape, device));
  }, arg("a"), arg("fill_value"), arg("dtype") = nb::none(), arg("order") = "K", arg("subok") = nb::none(),
        arg("shape") = nb::none(), nb::kw_only(), arg("device") = nb::none());
  m.def("arange", [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype, nb::handle device) {
    ArrayOptions o{.dtype = to_optional_dtype(dtype), .device = to_optional_device(device)};
    if (stop.is_none()) return arange(Scalar(0), to_scalar(start), step.is_none() ? Scalar(1) : to_scalar(step), o);
    return arange(to_scalar(start), to_scalar(stop), step.is_none() ? Scalar(1) : to_scalar(step), o);
  }, arg("start"), arg("stop") = nb::none(), arg("step") = nb::none(), arg("dtype") = nb::none(), nb::kw_only(),
        arg("device") = nb::none());
  m.def("linspace", [](nb::handle start, nb::handle stop, std::int64_t num, bool endpoint, bool retstep,
                       nb::handle dtype, int axis, nb::handle device) -> nb::object {
    if (axis != 0) throw NotImplementedError("linspace with axis != 0 is not supported yet");
    double step = 0;
    ndarray r = linspace(to_scalar(start), to_scalar(stop), num,
                         {.endpoint = endpoint, .dtype = to_optional_dtype(dtype), .device = to_optional_device(device)},
                         &step);
    if (retstep) return nb::make_tuple(r, step);
    return nb::cast(r);
  }, arg("start"), arg("stop"), arg("num") = 50, arg("endpoint") = true, arg("retstep") = false,
        arg("dtype") = nb::none(), arg("axis") = 0, nb::kw_only(), arg("device") = nb::none());
  m.def("logspace", [](nb::handle start, nb::handle stop, std::int64_t num, bool endpoint, double base,
                       nb::handle dtype, nb::handle device) {
    return logspace(to_scalar(start), to_scalar(stop), num, base,
                    {.endpoint = endpoint, .dtype = to_optional_dtype(dtype), .device = to_optional_device(device)});
  }, arg("start"), arg("stop"), arg("num") = 50, arg("endpoint") = true, arg("base") = 10.0,
        arg("dtype") = nb::none(), nb::kw_only(), arg("device") = nb::none());
  m.def("eye", [](std::int64_t n, std::optional<std::int64_t> mm, std::int64_t k, nb::handle dtype, nb::handle order,
                  nb::handle device) {
    return eye(n, mm, k, opts(dtype, order, device));
  }, arg("N"), arg("M") = nb::none(), arg("k") = 0, arg("dtype") = nb::none(), arg("order") = "C", nb::kw_only(),
        arg("device") = nb::none());
  m.def("identity", [](std::int64_t n, nb::handle dtype, nb::handle device) {
    return identity(n, opts(dtype, nb::none(), device));
  }, arg("n"), arg("dtype") = nb::none(), nb::kw_only(), arg("device") = nb::none());
  m.def("tri", [](std::int64_t n, std::optional<std::int64_t> mm, std::int64_t k, nb::handle dtype, nb::handle device) {
    return tri(n, mm, k, opts(dtype, nb::none(), device));
  }, arg("N"), arg("M") = nb::none(), arg("k") = 0, arg("dtype") = nb::none(), nb::kw_only(), arg("device") = nb::none());
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
  }, arg("shape"), arg("dtype") = nb::none(), arg("order") = "C");
  m.def("zeros_pinned", [](nb::handle shape, nb::handle dtype, nb::handle order) {
    return as_numpy_view(zeros_pinned(to_shape(shape), to_optional_dtype(dtype).value_or(DType::Float64),
                                      to_order(order, Order::C)));
  }, arg("shape"), arg("dtype") = nb::none(), arg("order") = "C");
}

}  // namespace cunp::py

// python/src/signal_py.cpp — cunp._core._signal: lfilter, sosfilt and the direct
// correlation of cunp/signal.hpp. python/cunpx/scipy/signal builds scipy.signal's
// filtering functions on top of them.
#include "convert.hpp"
#include "cunp/signal.hpp"

namespace cunp::py {

namespace {

// The data's device: that of the first cunp array among `data`, else the current one.
Device data_device(std::initializer_list<nb::handle> data) {
  for (nb::handle h : data)
    if (nb::isinstance<ndarray>(h)) return nb::cast<const ndarray&>(h).device();
  return current_device();
}

// Filter coefficients: a cunp array as it is; anything else stays on the host (Note
// [Filter coefficients on the host] in src/signal/filter.cpp).
ndarray coefficients(nb::handle h) {
  if (nb::isinstance<ndarray>(h)) return nb::cast<ndarray>(h);
  return as_cunp_array(h, Device::cpu(), std::nullopt);
}

int axis_of(nb::handle h) {
  if (!PyIndex_Check(h.ptr())) throw TypeError("an integer is required for the axis");
  return nb::cast<int>(nb::steal(PyNumber_Index(h.ptr())));
}

signal::FilterOptions options(nb::handle axis, nb::handle zi, Device device) {
  signal::FilterOptions o{.axis = axis_of(axis)};
  if (!zi.is_none()) o.zi = as_cunp_array(zi, device, std::nullopt);
  return o;
}

nb::object result(const signal::FilterResult& r) {
  if (r.zf) return nb::make_tuple(r.y, *r.zf);
  return nb::cast(r.y);
}

}  // namespace

void bind_signal(nb::module_& root) {
  nb::module_ m =
      root.def_submodule("_signal", "scipy.signal's linear filters and direct correlation");
  m.def(
      "lfilter",
      [](nb::handle b, nb::handle a, nb::handle x, nb::handle axis, nb::handle zi) {
        const Device dev = data_device({x, zi});
        const ndarray xa = as_cunp_array(x, dev, std::nullopt);
        return result(
            signal::lfilter(coefficients(b), coefficients(a), xa, options(axis, zi, dev)));
      },
      nb::arg("b"), nb::arg("a"), nb::arg("x"), nb::arg("axis") = -1, nb::arg("zi") = nb::none());
  m.def(
      "sosfilt",
      [](nb::handle sos, nb::handle x, nb::handle axis, nb::handle zi) {
        const Device dev = data_device({x, zi});
        const ndarray xa = as_cunp_array(x, dev, std::nullopt);
        return result(signal::sosfilt(coefficients(sos), xa, options(axis, zi, dev)));
      },
      nb::arg("sos"), nb::arg("x"), nb::arg("axis") = -1, nb::arg("zi") = nb::none());
  m.def(
      "correlate_valid",
      [](const ndarray& in, const ndarray& kernel, nb::handle before, nb::handle after,
         nb::handle fill) {
        signal::CorrelateOptions o;
        if (!before.is_none()) o.pad_before = to_shape(before);
        if (!after.is_none()) o.pad_after = to_shape(after);
        o.fill = to_scalar(fill);
        return signal::correlate_valid(in, kernel, o);
      },
      nb::arg("in"), nb::arg("kernel"), nb::arg("pad_before") = nb::none(),
      nb::arg("pad_after") = nb::none(), nb::arg("fill") = 0);
}

CUNP_PY_BINDINGS(bind_signal);

}  // namespace cunp::py

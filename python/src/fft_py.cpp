// python/src/fft_py.cpp — cunp._core._fft: the numpy.fft functions and the plan cache.
#include <array>
#include <cstdio>

#include "convert.hpp"
#include "cunp/fft.hpp"

namespace cunp::py {

namespace {

ndarray input(nb::handle a) { return as_cunp_array(a, current_device(), std::nullopt); }

std::optional<ndarray> out_array(nb::handle out) {
  if (out.is_none()) return std::nullopt;
  if (!nb::isinstance<ndarray>(out)) throw TypeError("out must be a cunp.ndarray");
  return nb::cast<ndarray>(out);
}

// NumPy's message for a bad `norm` differs between its versions and, before 2.5,
// between transforms (a space after "backward", only in the direction-swapping ones).
// cunp's message is the installed NumPy's: asked of NumPy once per kind, on the first
// bad value (the valid names never get here).
bool numpy_norm_message_has_space(bool swapped) {
  static const std::array<bool, 2> spaced = [] {
    std::array<bool, 2> r{false, true};
    try {
      nb::module_ np = nb::module_::import_("numpy");
      nb::object probe = np.attr("zeros")(2);
      for (int k = 0; k < 2; ++k) {
        try {
          np.attr("fft").attr(k ? "ihfft" : "fft")(probe, nb::arg("norm") = "?");
        } catch (nb::python_error& e) {
          r[k] = std::string(nb::str(e.value()).c_str()).find("\"backward\", ") != std::string::npos;
        }
      }
    } catch (nb::python_error&) {
      // no NumPy: NumPy 2.5's spelling
      r = {true, true};
    }
    return r;
  }();
  return spaced[swapped ? 1 : 0];
}

fft::Norm norm_of(nb::handle norm, bool swapped) {
  if (norm.is_none()) return fft::Norm::Backward;
  const std::string text = nb::cast<std::string>(nb::str(norm));
  if (text == "backward" || text == "ortho" || text == "forward") return fft::parse_norm(text, swapped);
  return fft::parse_norm(text, numpy_norm_message_has_space(swapped));
}

std::string type_name_of(nb::handle h) { return nb::type_name(h.type()).c_str(); }

// An integer argument as Python's operator.index takes it (NumPy ints and 0-d integer
// arrays too; floats raise TypeError, as in NumPy).
std::int64_t index_of(nb::handle h) {
  if (!PyIndex_Check(h.ptr()))
    throw TypeError("'" + type_name_of(h) + "' object cannot be interpreted as an integer");
  return nb::cast<std::int64_t>(nb::steal(PyNumber_Index(h.ptr())));
}

// NumPy iterates `axes` and `s` of the N-d transforms: an int is a TypeError there.
void require_iterable(nb::handle h) {
  if (!PyObject_HasAttrString(h.ptr(), "__iter__"))
    throw TypeError("'" + type_name_of(h) + "' object is not iterable");
}

// fftshift's `axes`: an int or a sequence of ints.
std::optional<std::vector<int>> int_list(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  if (PyIndex_Check(h.ptr())) return std::vector<int>{static_cast<int>(index_of(h))};
  std::vector<int> v;
  for (nb::handle x : h) v.push_back(static_cast<int>(index_of(x)));
  return v;
}

std::optional<std::vector<int>> axes_list(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  require_iterable(h);
  return int_list(h);
}

std::optional<std::vector<std::int64_t>> shape_list(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  require_iterable(h);
  std::vector<std::int64_t> v;
  for (nb::handle x : h) v.push_back(x.is_none() ? -1 : index_of(x));
  return v;
}

using OneD = ndarray (*)(const ndarray&, const fft::FftOptions&);
using ND = ndarray (*)(const ndarray&, const fft::FftnOptions&);

// `swapped`: NumPy computes the transform by swapping the direction (its norm message).
void def_1d(nb::module_& m, const char* name, OneD f, bool swapped) {
  m.def(name, [f, swapped](nb::handle a, nb::handle n, int axis, nb::handle norm, nb::handle out) {
    fft::FftOptions o{.axis = axis, .norm = norm_of(norm, swapped), .out = out_array(out)};
    if (!n.is_none()) o.n = index_of(n);
    return f(input(a), o);
  }, nb::arg("a"), nb::arg("n") = nb::none(), nb::arg("axis") = -1, nb::arg("norm") = nb::none(),
        nb::arg("out") = nb::none());
}

void def_nd(nb::module_& m, const char* name, ND f, bool swapped) {
  m.def(name, [f, swapped](nb::handle a, nb::handle s, nb::handle axes, nb::handle norm, nb::handle out) {
    return f(input(a),
             {.s = shape_list(s), .axes = axes_list(axes), .norm = norm_of(norm, swapped), .out = out_array(out)});
  }, nb::arg("a"), nb::arg("s") = nb::none(), nb::arg("axes") = nb::none(), nb::arg("norm") = nb::none(),
        nb::arg("out") = nb::none());
}

}  // namespace

void bind_fft(nb::module_& root) {
  nb::module_ m = root.def_submodule("_fft", "numpy.fft on cuFFT / FFTW");
  def_1d(m, "fft", &fft::fft, false);
  def_1d(m, "ifft", &fft::ifft, true);
  def_1d(m, "rfft", &fft::rfft, false);
  def_1d(m, "irfft", &fft::irfft, true);
  def_1d(m, "hfft", &fft::hfft, true);
  def_1d(m, "ihfft", &fft::ihfft, true);
  def_nd(m, "fftn", &fft::fftn, false);
  def_nd(m, "ifftn", &fft::ifftn, true);
  def_nd(m, "fft2", &fft::fft2, false);
  def_nd(m, "ifft2", &fft::ifft2, true);
  def_nd(m, "rfftn", &fft::rfftn, false);
  def_nd(m, "irfftn", &fft::irfftn, true);
  def_nd(m, "rfft2", &fft::rfft2, false);
  def_nd(m, "irfft2", &fft::irfft2, true);
  m.def("fftfreq", [](std::int64_t n, double d, nb::handle device) {
    return fft::fftfreq(n, d, {.device = to_optional_device(device)});
  }, nb::arg("n"), nb::arg("d") = 1.0, nb::kw_only(), nb::arg("device") = nb::none());
  m.def("rfftfreq", [](std::int64_t n, double d, nb::handle device) {
    return fft::rfftfreq(n, d, {.device = to_optional_device(device)});
  }, nb::arg("n"), nb::arg("d") = 1.0, nb::kw_only(), nb::arg("device") = nb::none());
  m.def("fftshift", [](nb::handle x, nb::handle axes) { return fft::fftshift(input(x), int_list(axes)); },
        nb::arg("x"), nb::arg("axes") = nb::none());
  m.def("ifftshift", [](nb::handle x, nb::handle axes) { return fft::ifftshift(input(x), int_list(axes)); },
        nb::arg("x"), nb::arg("axes") = nb::none());
  m.def("cpu_backend_available", &fft::cpu_backend_available);

  nb::class_<fft::PlanCache>(m, "PlanCache", "An LRU cache of FFT plans of one device (CuPy's PlanCache)")
      .def_prop_rw("size", &fft::PlanCache::get_size, &fft::PlanCache::set_size)
      .def_prop_rw("memsize", &fft::PlanCache::get_memsize, &fft::PlanCache::set_memsize)
      .def("get_size", &fft::PlanCache::get_size)
      .def("set_size", &fft::PlanCache::set_size, nb::arg("size"))
      .def("get_memsize", &fft::PlanCache::get_memsize)
      .def("set_memsize", &fft::PlanCache::set_memsize, nb::arg("memsize"))
      .def("get_curr_size", &fft::PlanCache::get_curr_size)
      .def("get_curr_memsize", &fft::PlanCache::get_curr_memsize)
      .def_prop_ro("hits", &fft::PlanCache::hits)
      .def_prop_ro("misses", &fft::PlanCache::misses)
      .def("clear", &fft::PlanCache::clear)
      .def("_info", &fft::PlanCache::show_info)
      .def("show_info", [](const fft::PlanCache& c) { nb::print(nb::str(c.show_info().c_str())); })
      .def("__len__", [](const fft::PlanCache& c) { return c.get_curr_size(); });
  m.def("get_plan_cache", [](nb::handle device) -> fft::PlanCache& {
    return fft::get_plan_cache(to_optional_device(device));
  }, nb::arg("device") = nb::none(), nb::rv_policy::reference);
}

CUNP_PY_BINDINGS(bind_fft);

}  // namespace cunp::py

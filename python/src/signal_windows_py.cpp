// python/src/signal_windows_py.cpp — cunp._core._signal_windows: scipy.signal's window
// functions with SciPy's Python signatures and messages, get_window's argument
// parsing, and upfirdn (cunp/signal_windows.hpp). cunpx.scipy.signal re-exports them.
#include <cmath>
#include <string>
#include <vector>

#include "convert.hpp"
#include "cunp/signal_windows.hpp"

namespace cunp::py {
namespace {

using namespace nb::literals;
using signal::WindowOptions;

// SciPy's _len_guards: M is a non-negative integer (a float that is not one, or a
// negative value, is a ValueError; an integral float a TypeError, as in SciPy).
std::int64_t window_length(nb::handle M) {
  double v;
  if (PyIndex_Check(M.ptr())) {
    const auto n = nb::cast<std::int64_t>(nb::int_(M));
    if (n < 0) throw ValueError("Window length M must be a non-negative integer");
    return n;
  }
  try {
    v = nb::cast<double>(nb::float_(M));
  } catch (const nb::python_error&) {
    throw TypeError("Window length M must be a non-negative integer, got " + std::string(nb::str(nb::repr(M)).c_str()));
  }
  if (!(v >= 0) || std::floor(v) != v) throw ValueError("Window length M must be a non-negative integer");
  // SciPy's length guard passes 4.0, then its array creation rejects the float.
  throw TypeError("'" + std::string(nb::str(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(M.ptr())))
                                                .attr("__name__"))
                                        .c_str()) +
                  "' object cannot be interpreted as an integer");
}

WindowOptions wopts(bool sym, nb::handle device) { return {.sym = sym, .device = to_optional_device(device)}; }

// A sequence of numbers (a list, a NumPy or cunp array) as host doubles.
std::vector<double> to_doubles(nb::handle a) {
  if (nb::isinstance<ndarray>(a)) {
    const ndarray& arr = nb::cast<const ndarray&>(a);
    return arr.astype(DType::Float64).ravel().to(Device::cpu()).to_vector<double>();
  }
  nb::object flat = numpy().attr("asarray")(a, "dtype"_a = "float64").attr("ravel")();
  return nb::cast<std::vector<double>>(flat.attr("tolist")());
}

std::string py_repr(nb::handle h) { return nb::str(nb::repr(h)).c_str(); }

void warn_chebwin(double at) {
  if (std::fabs(at) < 45 &&
      PyErr_WarnEx(PyExc_UserWarning,
                   "This window is not suitable for spectral analysis for attenuation values lower than about "
                   "45dB because the equivalent noise bandwidth of a Chebyshev window does not grow "
                   "monotonically with increasing sidelobe attenuation when the attenuation is smaller than "
                   "about 45 dB.",
                   2) < 0)
    throw nb::python_error();
}

// The `norm` of dpss: None, 2 or a name.
std::optional<std::string> dpss_norm(nb::handle norm) {
  if (norm.is_none()) return std::nullopt;
  if (nb::isinstance<nb::str>(norm)) return nb::cast<std::string>(norm);
  if (PyIndex_Check(norm.ptr()) && nb::cast<std::int64_t>(nb::int_(norm)) == 2) return std::string("2");
  throw ValueError("norm must be one of (2, 'approximate', 'subsample'), got " + py_repr(norm));
}

nb::object get_window(nb::handle window, nb::handle Nx, nb::handle fftbins, nb::handle device) {
  const std::optional<Device> dev = to_optional_device(device);
  if (!PyIndex_Check(Nx.ptr()) || nb::cast<std::int64_t>(nb::int_(Nx)) <= 0)
    throw ValueError("Parameter Nx=" + py_repr(Nx) + " is not a positive integer");
  if (!PyBool_Check(fftbins.ptr())) throw ValueError("Parameter fftbins=" + py_repr(fftbins) + " is not of type bool!");
  const auto n = nb::cast<std::int64_t>(nb::int_(Nx));
  const bool bins = nb::cast<bool>(fftbins);
  const bool is_tuple = nb::isinstance<nb::tuple>(window);
  if (!is_tuple && !nb::isinstance<nb::str>(window)) {
    double beta;
    try {
      beta = nb::cast<double>(nb::float_(window));
    } catch (const nb::python_error&) {
      throw ValueError("Parameter window=" + py_repr(window) + " must be a tuple, a string or a float!");
    }
    return nb::cast(signal::get_window(beta, n, bins, dev));
  }
  nb::tuple args;
  std::string name;
  if (is_tuple) {
    nb::tuple t = nb::borrow<nb::tuple>(window);
    if (t.size() == 0 || !nb::isinstance<nb::str>(t[0]))
      throw ValueError("First tuple entry of parameter window=" + py_repr(window) + " is not a str!");
    name = nb::cast<std::string>(t[0]);
    nb::list rest;
    for (std::size_t i = 1; i < t.size(); ++i) rest.append(t[i]);
    args = nb::tuple(rest);
  } else {
    name = nb::cast<std::string>(window);
  }
  std::string base = name;
  bool sym = !bins;
  if (base.ends_with("_symmetric")) {
    sym = true;
    base.resize(base.size() - 10);
  } else if (base.ends_with("_periodic")) {
    sym = false;
    base.resize(base.size() - 9);
  }
  const std::optional<signal::WindowName> w = signal::find_window(base);
  if (!w) throw ValueError("Invalid window name '" + base + "' in parameter window=" + py_repr(window) + "!");
  if (args.size() > 0 && w->parameters == signal::WindowParameters::None)
    throw ValueError("'" + base + "' does not allow parameters, but window=" + py_repr(window) + "!");
  if (args.size() == 0 && w->parameters == signal::WindowParameters::Required)
    throw ValueError("'" + base + "' must have parameters, but window=" + py_repr(window) + "!");
  const WindowOptions o{.sym = sym, .device = dev};
  const std::string& c = w->canonical;
  if (c == "dpss" && args.size() != 1)
    throw ValueError("Window " + base + " must have one parameter but window=" + py_repr(window));
  if (c == "general_cosine") {
    if (args.size() != 1) throw TypeError("general_cosine() takes one parameter (the coefficients), got " + py_repr(args));
    const std::vector<double> a = to_doubles(args[0]);
    return nb::cast(signal::general_cosine(n, a, o));
  }
  if (c == "exponential") {
    if (args.size() > 2) throw TypeError("exponential() takes at most 2 window parameters, got " + py_repr(args));
    std::optional<double> center;
    if (args.size() > 0 && !args[0].is_none()) center = nb::cast<double>(nb::float_(args[0]));
    return nb::cast(signal::exponential(n, center, args.size() > 1 ? nb::cast<double>(nb::float_(args[1])) : 1.0, o));
  }
  std::vector<double> params;
  for (nb::handle a : args) params.push_back(PyBool_Check(a.ptr()) ? (a.is(Py_True) ? 1.0 : 0.0)
                                                                   : nb::cast<double>(nb::float_(a)));
  if (c == "chebwin" && !params.empty()) warn_chebwin(params[0]);
  // The C++ get_window applies the suffix itself: hand it the full name.
  return nb::cast(signal::get_window(name, params, n, bins, dev));
}

void bind_signal_windows(nb::module_& m) {
  nb::module_ s = m.def_submodule("_signal_windows", "scipy.signal's windows and upfirdn (cunp/signal_windows.hpp)");
  using Fn = ndarray (*)(std::int64_t, WindowOptions);
  const std::pair<const char*, Fn> plain[] = {
      {"boxcar", &signal::boxcar},       {"triang", &signal::triang},
      {"parzen", &signal::parzen},       {"bohman", &signal::bohman},
      {"blackman", &signal::blackman},   {"nuttall", &signal::nuttall},
      {"blackmanharris", &signal::blackmanharris}, {"flattop", &signal::flattop},
      {"bartlett", &signal::bartlett},   {"hann", &signal::hann},
      {"barthann", &signal::barthann},   {"hamming", &signal::hamming},
      {"cosine", &signal::cosine},
  };
  for (const auto& [name, fn] : plain) {
    s.def(name, [fn](nb::handle M, bool sym, nb::handle device) { return fn(window_length(M), wopts(sym, device)); },
          "M"_a, "sym"_a = true, nb::kw_only(), "device"_a = nb::none());
  }
  s.def("lanczos", [](nb::handle M, bool sym, nb::handle device) {
    return signal::lanczos(window_length(M), wopts(sym, device));
  }, "M"_a, nb::kw_only(), "sym"_a = true, "device"_a = nb::none());
  s.def("general_cosine", [](nb::handle M, nb::handle a, bool sym, nb::handle device) {
    const std::vector<double> coef = to_doubles(a);
    return signal::general_cosine(window_length(M), coef, wopts(sym, device));
  }, "M"_a, "a"_a, "sym"_a = true, nb::kw_only(), "device"_a = nb::none());
  s.def("tukey", [](nb::handle M, double alpha, bool sym, nb::handle device) {
    return signal::tukey(window_length(M), alpha, wopts(sym, device));
  }, "M"_a, "alpha"_a = 0.5, "sym"_a = true, nb::kw_only(), "device"_a = nb::none());
  s.def("general_hamming", [](nb::handle M, double alpha, bool sym, nb::handle device) {
    return signal::general_hamming(window_length(M), alpha, wopts(sym, device));
  }, "M"_a, "alpha"_a, "sym"_a = true, nb::kw_only(), "device"_a = nb::none());
  s.def("kaiser", [](nb::handle M, double beta, bool sym, nb::handle device) {
    return signal::kaiser(window_length(M), beta, wopts(sym, device));
  }, "M"_a, "beta"_a, "sym"_a = true, nb::kw_only(), "device"_a = nb::none());
  s.def("kaiser_bessel_derived", [](nb::handle M, double beta, bool sym, nb::handle device) {
    // SciPy checks sym before M, and accepts any M < 1 as empty.
    if (!sym) throw ValueError("Kaiser-Bessel Derived windows are only defined for symmetric shapes");
    if (!PyIndex_Check(M.ptr()) && nb::cast<double>(nb::float_(M)) < 1)
      return signal::kaiser_bessel_derived(0, beta, wopts(sym, device));
    const auto m = nb::cast<std::int64_t>(nb::int_(M));
    return signal::kaiser_bessel_derived(m < 1 ? 0 : m, beta, wopts(sym, device));
  }, "M"_a, "beta"_a, nb::kw_only(), "sym"_a = true, "device"_a = nb::none());
  s.def("gaussian", [](nb::handle M, double std, bool sym, nb::handle device) {
    return signal::gaussian(window_length(M), std, wopts(sym, device));
  }, "M"_a, "std"_a, "sym"_a = true, nb::kw_only(), "device"_a = nb::none());
  s.def("general_gaussian", [](nb::handle M, double p, double sig, bool sym, nb::handle device) {
    return signal::general_gaussian(window_length(M), p, sig, wopts(sym, device));
  }, "M"_a, "p"_a, "sig"_a, "sym"_a = true, nb::kw_only(), "device"_a = nb::none());
  s.def("chebwin", [](nb::handle M, double at, bool sym, nb::handle device) {
    warn_chebwin(at);
    return signal::chebwin(window_length(M), at, wopts(sym, device));
  }, "M"_a, "at"_a, "sym"_a = true, nb::kw_only(), "device"_a = nb::none());
  s.def("exponential", [](nb::handle M, std::optional<double> center, double tau, bool sym, nb::handle device) {
    if (sym && center) throw ValueError("If sym==True, center must be None.");
    return signal::exponential(window_length(M), center, tau, wopts(sym, device));
  }, "M"_a, "center"_a = nb::none(), "tau"_a = 1.0, "sym"_a = true, nb::kw_only(), "device"_a = nb::none());
  s.def("taylor", [](nb::handle M, std::int64_t nbar, double sll, bool norm, bool sym, nb::handle device) {
    return signal::taylor(window_length(M), nbar, sll, norm, wopts(sym, device));
  }, "M"_a, "nbar"_a = 4, "sll"_a = 30, "norm"_a = true, "sym"_a = true, nb::kw_only(), "device"_a = nb::none());
  s.def("dpss", [](nb::handle M, double NW, nb::handle Kmax, bool sym, nb::handle norm, bool return_ratios,
                   nb::handle device) -> nb::object {
    signal::DpssOptions d{.Kmax = std::nullopt, .norm = dpss_norm(norm), .return_ratios = return_ratios};
    if (!Kmax.is_none()) {
      if (!PyIndex_Check(Kmax.ptr())) throw TypeError("Kmax must be an integer, got " + py_repr(Kmax));
      d.Kmax = nb::cast<std::int64_t>(nb::int_(Kmax));
    }
    const std::int64_t m = window_length(M);
    signal::DpssResult r = signal::dpss(m, NW, d, wopts(sym, device));
    if (!return_ratios) return nb::cast(r.windows);
    // SciPy gives a single taper's ratio as a 0-d array, or the float 1.0 for M <= 1.
    if (!d.Kmax && m <= 1) return nb::make_tuple(r.windows, 1.0);
    return nb::make_tuple(r.windows, *r.ratios);
  }, "M"_a, "NW"_a, "Kmax"_a = nb::none(), "sym"_a = true, "norm"_a = nb::none(), "return_ratios"_a = false,
        nb::kw_only(), "device"_a = nb::none());
  s.def("get_window", &get_window, "window"_a, "Nx"_a, "fftbins"_a = true, nb::kw_only(), "device"_a = nb::none());

  s.def("upfirdn", [](const ndarray& h, const ndarray& x, std::int64_t up, std::int64_t down, int axis,
                      const std::string& mode, double cval) {
    return signal::upfirdn(h, x, {.up = up, .down = down, .axis = axis, .mode = signal::parse_extension_mode(mode),
                                  .cval = cval});
  }, "h"_a, "x"_a, "up"_a = 1, "down"_a = 1, "axis"_a = -1, "mode"_a = "constant", "cval"_a = 0.0);
}

}  // namespace

CUNP_PY_BINDINGS(bind_signal_windows);

}  // namespace cunp::py

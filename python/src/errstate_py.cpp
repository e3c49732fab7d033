// python/src/errstate_py.cpp — np.seterr/geterr/seterrcall on the C++ error modes
// (cunp/errstate.hpp), and the warning handler that turns the library's warnings into
// Python warnings (RuntimeWarning, numpy.exceptions.ComplexWarning, DeprecationWarning).
#include <Python.h>

#include "convert.hpp"
#include "cunp/errstate.hpp"

namespace cunp::py {
namespace {

// The seterrcall object (a callable or an object with write()); None when unset.
// Note [Leaked Python objects] (dtypes_py.cpp): held in a never-destroyed slot.
PyObject*& errcall() {
  static PyObject* obj = Py_NewRef(Py_None);
  return obj;
}

PyObject* category(WarningKind kind) {
  switch (kind) {
    case WarningKind::Runtime: return PyExc_RuntimeWarning;
    case WarningKind::Deprecation: return PyExc_DeprecationWarning;
    case WarningKind::Complex: {
      static PyObject* c = nb::object(numpy().attr("exceptions").attr("ComplexWarning")).release().ptr();
      return c;
    }
  }
  return PyExc_RuntimeWarning;
}

void python_warning_handler(WarningKind kind, ErrorMode mode, int flags, const std::string& message) {
  switch (mode) {
    case ErrorMode::Call: {
      nb::handle f(errcall());
      if (f.is_none()) throw ValueError("floating-point error mode 'call' needs a callable set with seterrcall");
      // NumPy passes the kind of error ("divide by zero") and the flag bit.
      const std::string what = message.substr(0, message.find(" encountered in "));
      f(what, flags);
      return;
    }
    case ErrorMode::Log: {
      nb::handle f(errcall());
      if (f.is_none()) throw ValueError("floating-point error mode 'log' needs an object with write() set with seterrcall");
      f.attr("write")("Warning: " + message + "\n");
      return;
    }
    case ErrorMode::Print:
      nb::module_::import_("builtins").attr("print")("Warning: " + message);
      return;
    default:
      if (PyErr_WarnEx(category(kind), message.c_str(), 1) < 0) throw nb::python_error();
  }
}

nb::dict state_dict(const ErrorState& s) {
  nb::dict d;
  d["divide"] = name(s.divide);
  d["over"] = name(s.over);
  d["under"] = name(s.under);
  d["invalid"] = name(s.invalid);
  return d;
}

void bind_errstate(nb::module_& m) {
  set_warning_handler(&python_warning_handler);
  m.def("geterr", [] { return state_dict(geterr()); });
  m.def(
      "seterr",
      [](std::optional<std::string> all, std::optional<std::string> divide, std::optional<std::string> over,
         std::optional<std::string> under, std::optional<std::string> invalid) {
        ErrorState s = geterr();
        const ErrorState old = s;
        if (all) s.divide = s.over = s.under = s.invalid = parse_error_mode(*all);
        if (divide) s.divide = parse_error_mode(*divide);
        if (over) s.over = parse_error_mode(*over);
        if (under) s.under = parse_error_mode(*under);
        if (invalid) s.invalid = parse_error_mode(*invalid);
        seterr(s);
        return state_dict(old);
      },
      nb::arg("all").none() = nb::none(), nb::arg("divide").none() = nb::none(), nb::arg("over").none() = nb::none(),
      nb::arg("under").none() = nb::none(), nb::arg("invalid").none() = nb::none(),
      "np.seterr: sets the calling thread's floating-point error modes; returns the old ones.");
  m.def("geterrcall", [] { return nb::borrow(errcall()); });
  m.def("seterrcall", [](nb::handle func) {
    if (!func.is_none() && !PyCallable_Check(func.ptr()) && !nb::hasattr(func, "write")) {
      throw TypeError("Only callable can be used as callback");
    }
    nb::object old = nb::steal(errcall());
    errcall() = Py_NewRef(func.ptr());
    return old;
  }, nb::arg("func").none());
  m.def("_warn", [](int kind, const std::string& message) { warn(static_cast<WarningKind>(kind), message); });
}

}  // namespace

CUNP_PY_BINDINGS(bind_errstate);

}  // namespace cunp::py

// python/src/dtypes_py.cpp — dtype, scalar, shape and device conversions, and the
// promotion functions (result_type, promote_types, can_cast).
#include <Python.h>

#include <array>
#include <complex>
#include <unordered_map>

#include "convert.hpp"

namespace cunp::py {

// Note [Leaked Python objects]: module-level caches of Python objects are never
// destroyed: a static destructor would run after the interpreter is gone.
nb::module_& numpy() {
  static auto* np = new nb::module_(nb::module_::import_("numpy"));
  return *np;
}

nb::object dtype_object(DType dt) {
  static const auto* table = [] {
    auto* t = new std::array<nb::object, kNumDTypes>();
    for (int i = 0; i < kNumDTypes; ++i) {
      (*t)[static_cast<std::size_t>(i)] = numpy().attr("dtype")(std::string(name(static_cast<DType>(i))));
    }
    return t;
  }();
  return (*table)[static_cast<std::size_t>(dt)];
}

DType to_dtype(nb::handle obj) {
  // Note [dtype lookup cache]: dtype arguments are mostly the same few immortal objects
  // (np.float32, np.dtype('float32'), float); caching by identity keeps the hot path
  // free of numpy.dtype() calls. Strings and other objects take the slow path.
  static auto& cache = *new std::unordered_map<PyObject*, DType>();
  if (auto it = cache.find(obj.ptr()); it != cache.end()) return it->second;
  if (obj.is_none()) return DType::Float64;
  nb::object d = numpy().attr("dtype")(obj);
  const int num = nb::cast<int>(d.attr("num"));
  const char byteorder = nb::cast<std::string>(d.attr("byteorder"))[0];
  if (byteorder == '>') throw TypeError("cunp does not support non-native byte order dtypes");
  const DType dt = dtype_from_numpy_type_num(num);
  const bool cacheable = PyType_Check(obj.ptr()) || Py_IS_TYPE(obj.ptr(), Py_TYPE(dtype_object(DType::Float64).ptr())) ||
                         nb::isinstance(obj, numpy().attr("dtype"));
  if (cacheable) {
    Py_INCREF(obj.ptr());  // kept alive for the cache's lifetime
    cache.emplace(obj.ptr(), dt);
  }
  return dt;
}

std::optional<DType> to_optional_dtype(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_dtype(obj);
}

bool is_python_scalar(nb::handle obj) {
  return PyBool_Check(obj.ptr()) || PyLong_CheckExact(obj.ptr()) || PyFloat_CheckExact(obj.ptr()) ||
         PyComplex_CheckExact(obj.ptr());
}

Scalar to_scalar(nb::handle obj) {
  PyObject* o = obj.ptr();
  if (PyBool_Check(o)) return Scalar(o == Py_True);
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) return Scalar(static_cast<std::int64_t>(v));
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (!PyErr_Occurred()) return Scalar(static_cast<std::uint64_t>(u));
      PyErr_Clear();
    }
    // Beyond 64 bits: still a weak int (OverflowError against integer dtypes, a value
    // for floating ones), as NEP 50 has it.
    return Scalar::big_int(PyLong_AsDouble(o));
  }
  if (PyFloat_CheckExact(o)) return Scalar(PyFloat_AS_DOUBLE(o));
  if (PyComplex_CheckExact(o)) return Scalar(std::complex<double>(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)));
  // NumPy scalars and 0-d arrays of NumPy (strong): read through a 0-d numpy array.
  nb::object np_generic = numpy().attr("generic");
  if (nb::isinstance(obj, np_generic)) {
    const DType dt = to_dtype(obj.attr("dtype"));
    nb::object arr = numpy().attr("asarray")(obj);
    alignas(16) unsigned char buf[16];
    nb::object bytes = arr.attr("tobytes")();
    const char* data = PyBytes_AsString(bytes.ptr());
    std::memcpy(buf, data, itemsize(dt));
    return Scalar::read(dt, buf);
  }
  // Python int/float subclasses (e.g. IntEnum): treat as Python scalars.
  if (PyLong_Check(o)) return Scalar(static_cast<std::int64_t>(nb::cast<long long>(obj)));
  if (PyFloat_Check(o)) return Scalar(PyFloat_AsDouble(o));
  throw TypeError("expected a scalar, got " + nb::cast<std::string>(nb::str(obj.type().attr("__name__"))));
}

nb::object scalar_to_python(const Scalar& s) {
  switch (kind(s.dtype())) {
    case DTypeKind::Bool: return nb::bool_(s.to_bool());
    case DTypeKind::SignedInt: return nb::int_(s.to_int64());
    case DTypeKind::UnsignedInt: return nb::steal(PyLong_FromUnsignedLongLong(s.to_uint64()));
    case DTypeKind::Float: return nb::float_(s.to_double());
    case DTypeKind::Complex: {
      const auto c = s.to_complex();
      return nb::steal(PyComplex_FromDoubles(c.real(), c.imag()));
    }
  }
  return nb::none();
}

namespace {

std::string py_type_name(nb::handle obj) { return nb::cast<std::string>(nb::str(obj.type().attr("__name__"))); }

// One dimension: an int, a NumPy integer or a 0-d integer array (anything with
// __index__ but a bool, as NumPy has it).
std::int64_t to_dim(nb::handle item) {
  PyObject* o = item.ptr();
  if (PyLong_CheckExact(o)) return nb::cast<std::int64_t>(item);
  if (PyBool_Check(o) || !PyIndex_Check(o)) {
    throw TypeError("'" + py_type_name(item) + "' object cannot be interpreted as an integer");
  }
  PyObject* index = PyNumber_Index(o);
  if (!index) throw nb::python_error();
  return nb::cast<std::int64_t>(nb::steal(index));
}

// A 0-d array (NumPy's or cunp's) stands for one integer, not a sequence.
bool is_zero_dim(nb::handle obj) {
  return nb::hasattr(obj, "ndim") && nb::cast<int>(obj.attr("ndim")) == 0;
}

}  // namespace

Shape to_shape(nb::handle obj) {
  PyObject* o = obj.ptr();
  if (PyLong_CheckExact(o)) return {nb::cast<std::int64_t>(obj)};
  if (PyTuple_Check(o) || PyList_Check(o)) {
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    PyObject** items = PySequence_Fast_ITEMS(o);
    Shape s(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) s[static_cast<std::size_t>(i)] = to_dim(items[i]);
    return s;
  }
  if (PyBool_Check(o)) {
    throw TypeError("expected a sequence of integers or a single integer, got '" +
                    nb::cast<std::string>(nb::repr(obj)) + "'");
  }
  if (PyIndex_Check(o) && (!PySequence_Check(o) || is_zero_dim(obj))) return {to_dim(obj)};
  if (!PySequence_Check(o)) {
    throw TypeError("expected a sequence of integers or a single integer, got '" +
                    nb::cast<std::string>(nb::repr(obj)) + "'");
  }
  Shape s;
  for (nb::handle item : obj) s.push_back(to_dim(item));
  return s;
}

nb::tuple shape_to_tuple(const Shape& shape) {
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(shape.size()));
  for (std::size_t i = 0; i < shape.size(); ++i) {
    PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), PyLong_FromLongLong(shape[i]));
  }
  return nb::steal<nb::tuple>(t);
}

std::optional<Device> to_optional_device(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  if (nb::isinstance<nb::str>(obj)) return Device::parse(nb::cast<std::string>(obj));
  if (PyLong_Check(obj.ptr())) return Device::cuda(nb::cast<int>(obj));
  if (nb::hasattr(obj, "_cunp_device")) return Device::parse(nb::cast<std::string>(obj.attr("_cunp_device")));
  throw TypeError("device must be None, 'cpu', 'cuda', 'cuda:N', an int or a Device (got " +
                  nb::cast<std::string>(nb::repr(obj)) + ")");
}

Order to_order(nb::handle obj, Order dflt) {
  if (obj.is_none()) return dflt;
  return parse_order(nb::cast<std::string>(obj));
}

namespace {

void add_operand(nb::handle obj, std::vector<DType>& strong, std::vector<WeakKind>& weak) {
  if (is_python_scalar(obj)) {
    weak.push_back(to_scalar(obj).weak_kind());
  } else if (nb::hasattr(obj, "dtype") && !PyType_Check(obj.ptr())) {
    strong.push_back(to_dtype(obj.attr("dtype")));
  } else {
    strong.push_back(to_dtype(obj));
  }
}

}  // namespace

void bind_dtypes(nb::module_& m) {
  m.def("result_type", [](nb::args args) {
    std::vector<DType> strong;
    std::vector<WeakKind> weak;
    for (nb::handle a : args) add_operand(a, strong, weak);
    return dtype_object(result_type(strong, weak));
  });
  m.def("promote_types", [](nb::handle a, nb::handle b) { return dtype_object(promote_types(to_dtype(a), to_dtype(b))); },
        nb::arg("type1"), nb::arg("type2"));
  m.def(
      "can_cast",
      [](nb::handle from, nb::handle to, const std::string& casting) {
        if (is_python_scalar(from)) {
          throw TypeError("can_cast() does not support Python ints, floats, and complex because the result "
                          "used to depend on the value.\nThis change was part of adopting NEP 50, we may "
                          "explicitly allow them again in the future.");
        }
        const DType f = (nb::hasattr(from, "dtype") && !PyType_Check(from.ptr())) ? to_dtype(from.attr("dtype")) : to_dtype(from);
        return can_cast(f, to_dtype(to), parse_casting(casting));
      },
      nb::arg("from_"), nb::arg("to"), nb::arg("casting") = "safe");
  m.def("_finfo", [](nb::handle dt) {
    const FInfo f = finfo(to_dtype(dt));
    nb::dict d;
    d["bits"] = f.bits;
    d["eps"] = f.eps;
    d["epsneg"] = f.epsneg;
    d["max"] = f.max;
    d["min"] = f.min;
    d["tiny"] = f.tiny;
    d["smallest_normal"] = f.smallest_normal;
    d["smallest_subnormal"] = f.smallest_subnormal;
    d["resolution"] = f.resolution;
    d["precision"] = f.precision;
    d["nmant"] = f.nmant;
    d["nexp"] = f.nexp;
    d["minexp"] = f.minexp;
    d["maxexp"] = f.maxexp;
    d["machep"] = f.machep;
    d["negep"] = f.negep;
    d["iexp"] = f.iexp;
    d["dtype"] = dtype_object(f.dtype);
    return d;
  });
  m.def("_iinfo", [](nb::handle dt) {
    const IInfo i = iinfo(to_dtype(dt));
    nb::dict d;
    d["bits"] = i.bits;
    d["min"] = i.min;
    d["max"] = nb::steal(PyLong_FromUnsignedLongLong(i.max));
    d["dtype"] = dtype_object(i.dtype);
    return d;
  });
}

}  // namespace cunp::py

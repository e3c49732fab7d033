// python/src/indexing_py.cpp — a[...] with integer-array and boolean-mask indices
// (ndarray.__getitem__ / __setitem__), and cunp.take, put, nonzero, flatnonzero,
// argwhere, compress, take_along_axis (plus a.take, a.put, a.nonzero).
#include <Python.h>

#include "convert.hpp"
#include "cunp/indexing.hpp"

namespace cunp::py {

ndarray as_cunp_array(nb::handle value, Device device, std::optional<DType> dtype);

namespace {

const char* const kBadIndex =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are "
    "valid indices";

bool is_cunp(nb::handle h) { return nb::isinstance<ndarray>(h); }

// An index array on `device`: cunp arrays as they are, anything else through
// numpy.asarray (an empty list is an empty integer index, as in NumPy).
ndarray index_array(nb::handle k, Device device) {
  if (is_cunp(k)) return nb::cast<const ndarray&>(k);
  nb::object arr = numpy().attr("asarray")(k);
  if (nb::cast<std::int64_t>(arr.attr("size")) == 0 && PyList_Check(k.ptr()))
    arr = numpy().attr("asarray")(k, numpy().attr("int64"));
  const std::string kind = nb::cast<std::string>(arr.attr("dtype").attr("kind"));
  if (kind != "b" && kind != "i" && kind != "u")
    throw IndexError("arrays used as indices must be of integer (or boolean) type");
  return as_cunp_array(arr, device, std::nullopt);
}

void parse_one(nb::handle k, Device device, std::vector<FancyIndex>& out, bool& fancy) {
  PyObject* o = k.ptr();
  if (PyLong_CheckExact(o)) {
    const long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      throw IndexError("index " + nb::cast<std::string>(nb::str(k)) + " is out of bounds");
    }
    out.emplace_back(static_cast<std::int64_t>(v));
  } else if (PySlice_Check(o)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(o, &start, &stop, &step) < 0) throw nb::python_error();
    nb::handle s(o);
    Slice sl;
    if (!s.attr("start").is_none()) sl.start = start;
    if (!s.attr("stop").is_none()) sl.stop = stop;
    if (!s.attr("step").is_none()) sl.step = step;
    out.emplace_back(sl);
  } else if (o == Py_Ellipsis) {
    out.emplace_back(ellipsis);
  } else if (o == Py_None) {
    out.emplace_back(newaxis);
  } else if (PyBool_Check(o) || nb::isinstance(k, numpy().attr("bool_"))) {
    const bool truth = PyObject_IsTrue(o) != 0;
    ndarray b = empty(Shape{}, {.dtype = DType::Bool, .device = device});
    b.fill(Scalar(truth));
    out.emplace_back(std::move(b));
    fancy = true;
  } else if (is_cunp(k)) {
    const ndarray& a = nb::cast<const ndarray&>(k);
    if (a.ndim() == 0 && is_integer(a.dtype())) {
      out.emplace_back(a.item().to_int64());
    } else {
      if (!is_integer(a.dtype()) && a.dtype() != DType::Bool)
        throw IndexError("arrays used as indices must be of integer (or boolean) type");
      out.emplace_back(a);
      fancy = true;
    }
  } else if (PyList_Check(o) || nb::hasattr(k, "__array_interface__") || nb::hasattr(k, "__array__")) {
    ndarray a = index_array(k, device);
    if (a.ndim() == 0 && a.dtype() != DType::Bool) {
      out.emplace_back(a.item().to_int64());
    } else {
      out.emplace_back(std::move(a));
      fancy = true;
    }
  } else if (PyIndex_Check(o)) {
    out.emplace_back(static_cast<std::int64_t>(nb::cast<long long>(nb::int_(k))));
  } else {
    throw IndexError(kBadIndex);
  }
}

std::vector<FancyIndex> parse_key(nb::handle key, Device device, bool& fancy) {
  std::vector<FancyIndex> out;
  fancy = false;
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle k : nb::borrow<nb::tuple>(key)) parse_one(k, device, out, fancy);
  } else {
    parse_one(key, device, out, fancy);
  }
  return out;
}

ndarray py_getitem(const ndarray& a, nb::handle key) {
  bool fancy = false;
  const std::vector<FancyIndex> ix = parse_key(key, a.device(), fancy);
  return getitem(a, ix);
}

void py_setitem(const ndarray& a, nb::handle key, nb::handle value) {
  bool fancy = false;
  const std::vector<FancyIndex> ix = parse_key(key, a.device(), fancy);
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  if (!fancy && (is_python_scalar(value) || nb::isinstance(value, numpy().attr("generic")))) {
    std::vector<Index> basic;
    for (const FancyIndex& f : ix)
      std::visit(
          [&](const auto& v) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(v)>, ndarray>) basic.emplace_back(v);
          },
          f);
    a.view(basic).fill(to_scalar(value));
    return;
  }
  setitem(a, ix, as_cunp_array(value, a.device(), std::nullopt));
}

std::optional<int> to_axis(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return nb::cast<int>(axis);
}

void check_mode(nb::handle mode) {
  if (!mode.is_none() && nb::cast<std::string>(mode) != "raise")
    throw NotImplementedError("cunp supports only mode='raise' (out-of-bounds indices raise IndexError)");
}

ndarray py_take(nb::handle a, nb::handle indices, nb::handle axis, nb::handle out, nb::handle mode) {
  check_mode(mode);
  const ndarray arr = as_cunp_array(a, current_device(), std::nullopt);
  const ndarray idx = as_cunp_array(indices, arr.device(), std::nullopt);
  ndarray r = take(arr, idx, to_axis(axis));
  if (!out.is_none()) {
    const ndarray& o = nb::cast<const ndarray&>(out);
    if (o.shape() != r.shape()) throw ValueError("output array does not match result of ndarray.take");
    ndarray(o).assign(r);
    return o;
  }
  return r;
}

void py_put(const ndarray& a, nb::handle indices, nb::handle values, nb::handle mode) {
  check_mode(mode);
  put(a, as_cunp_array(indices, a.device(), std::nullopt), as_cunp_array(values, a.device(), std::nullopt));
}

nb::tuple to_tuple(const std::vector<ndarray>& arrays) {
  nb::list l;
  for (const ndarray& x : arrays) l.append(nb::cast(x));
  return nb::tuple(l);
}

ndarray arg(nb::handle a) { return as_cunp_array(a, current_device(), std::nullopt); }

}  // namespace

void bind_indexing(nb::module_& m) {
  nb::object cls = m.attr("ndarray");
  // Replaces (rather than overloads) bind_ndarray's __getitem__ / __setitem__.
  auto method = [&cls](const char* name, auto&& f, auto... extra) {
    if (nb::hasattr(cls, name)) nb::delattr(cls, name);
    cls.attr(name) = nb::cpp_function(std::forward<decltype(f)>(f), nb::scope(cls), nb::name(name),
                                      nb::is_method(), extra...);
  };
  method("__getitem__", [](const ndarray& a, nb::handle key) { return py_getitem(a, key); });
  method("__setitem__", [](const ndarray& a, nb::handle key, nb::handle value) { py_setitem(a, key, value); });
  method(
      "take",
      [](const ndarray& a, nb::handle indices, nb::handle axis, nb::handle out, nb::handle mode) {
        return py_take(nb::cast(a), indices, axis, out, mode);
      },
      nb::arg("indices"), nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::arg("mode") = "raise");
  method(
      "put", [](const ndarray& a, nb::handle indices, nb::handle values, nb::handle mode) { py_put(a, indices, values, mode); },
      nb::arg("indices"), nb::arg("values"), nb::arg("mode") = "raise");
  method("nonzero", [](const ndarray& a) { return to_tuple(nonzero(a)); });

  m.def("take", &py_take, nb::arg("a"), nb::arg("indices"), nb::arg("axis") = nb::none(),
        nb::arg("out") = nb::none(), nb::arg("mode") = "raise");
  m.def(
      "put",
      [](nb::handle a, nb::handle indices, nb::handle values, nb::handle mode) {
        if (!is_cunp(a)) throw TypeError("put() argument 1 must be cunp.ndarray, not " +
                                         nb::cast<std::string>(nb::str(a.type().attr("__name__"))));
        py_put(nb::cast<const ndarray&>(a), indices, values, mode);
      },
      nb::arg("a"), nb::arg("ind"), nb::arg("v"), nb::arg("mode") = "raise");
  m.def("nonzero", [](nb::handle a) { return to_tuple(nonzero(arg(a))); }, nb::arg("a"));
  m.def("flatnonzero", [](nb::handle a) { return flatnonzero(arg(a)); }, nb::arg("a"));
  m.def("argwhere", [](nb::handle a) { return argwhere(arg(a)); }, nb::arg("a"));
  m.def(
      "compress",
      [](nb::handle condition, nb::handle a, nb::handle axis) {
        const ndarray arr = arg(a);
        const ndarray c = as_cunp_array(condition, arr.device(), DType::Bool);
        return compress(c, arr, to_axis(axis));
      },
      nb::arg("condition"), nb::arg("a"), nb::arg("axis") = nb::none());
  m.def(
      "take_along_axis",
      [](nb::handle a, nb::handle indices, nb::handle axis) {
        const ndarray arr = arg(a);
        return take_along_axis(arr, as_cunp_array(indices, arr.device(), std::nullopt), to_axis(axis));
      },
      nb::arg("arr"), nb::arg("indices"), nb::arg("axis").none() = -1);
}
CUNP_PY_BINDINGS(bind_indexing);

}  // namespace cunp::py

// python/src/indexing_py.cpp — a[...] with integer-array and boolean-mask indices
// (ndarray.__getitem__ / __setitem__), the index routines (take, put, nonzero, choose,
// select, ravel_multi_index, ...; plus a.take, a.put, a.nonzero) and ufunc.at.
#include <Python.h>

#include "convert.hpp"
#include "cunp/indexing.hpp"

namespace cunp::py {

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


// NumPy's clipmode converter: None (raise), the exact names, or the integers CLIP (0),
// WRAP (1), RAISE (2); abbreviations and other cases are refused (NumPy 2).
ClipMode to_clip_mode(nb::handle mode) {
  if (mode.is_none()) return ClipMode::Raise;
  if (PyUnicode_Check(mode.ptr())) {
    const std::string m = nb::cast<std::string>(mode);
    if (m == "raise") return ClipMode::Raise;
    if (m == "wrap") return ClipMode::Wrap;
    if (m == "clip") return ClipMode::Clip;
    if (!m.empty() && std::string_view("cCwWrR").find(m[0]) != std::string_view::npos)
      throw ValueError("Use one of 'clip', 'raise', or 'wrap' for clip mode");
    throw ValueError("clipmode must be one of 'clip', 'raise', or 'wrap' (got '" + m + "')");
  }
  if (PyIndex_Check(mode.ptr())) {
    switch (nb::cast<long long>(nb::int_(mode))) {
      case 0: return ClipMode::Clip;
      case 1: return ClipMode::Wrap;
      case 2: return ClipMode::Raise;
      default: throw ValueError("integer clipmode must be RAISE, WRAP, or CLIP from 'numpy._core.multiarray'");
    }
  }
  throw TypeError("clipmode not understood");
}

// order= of ravel_multi_index / unravel_index: None (C) or a string.
Order order_arg(nb::handle order) {
  if (!order.is_none() && !PyUnicode_Check(order.ptr()))
    throw TypeError("order must be str, not " + nb::cast<std::string>(order.type().attr("__name__")));
  return to_order(order, Order::C);
}

// An index of an `int`-only argument (operator.index: TypeError for floats and lists).
std::int64_t index_value(nb::handle h) {
  const nb::object i = nb::steal(PyNumber_Index(h.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  return nb::cast<std::int64_t>(i);
}

// `dims` / `shape` of ravel_multi_index and unravel_index: an integer (NumPy integers
// and 0-d integer arrays included) or a sequence of them (tuples, lists, 1-d NumPy or
// cunp arrays).
std::vector<std::int64_t> dims_arg(nb::handle h) {
  nb::object obj = nb::borrow(h);
  if (is_cunp(h)) obj = h.attr("get")();
  const bool np_array = nb::isinstance(obj, numpy().attr("ndarray"));
  if (np_array ? nb::cast<int>(obj.attr("ndim")) == 0 : PyIndex_Check(obj.ptr()) != 0) return {index_value(obj)};
  const nb::object items = nb::steal(PySequence_Fast(obj.ptr(), "dims must be an integer or a sequence of integers"));
  if (!items.is_valid()) throw nb::python_error();
  std::vector<std::int64_t> v;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(items.ptr());
  for (Py_ssize_t i = 0; i < n; ++i) v.push_back(index_value(PySequence_Fast_GET_ITEM(items.ptr(), i)));
  return v;
}

// Coordinates / flat indices: cunp arrays as they are, anything else through numpy.asarray with NumPy's TypeErrors for non-integers.
ndarray int_index_arg(nb::handle x, Device device) {
  if (is_cunp(x)) {
    const ndarray& a = nb::cast<const ndarray&>(x);
    if (!is_integer(a.dtype()) && a.dtype() != DType::Bool) throw TypeError("only int indices permitted");
    return a;
  }
  const nb::object arr = numpy().attr("asarray")(x);
  const std::string kind = nb::cast<std::string>(arr.attr("dtype").attr("kind"));
  if (kind != "b" && kind != "i" && kind != "u") {
    if (nb::cast<std::int64_t>(arr.attr("size")) == 0 && (PyList_Check(x.ptr()) || PyTuple_Check(x.ptr())))
      throw TypeError("indices must be integral: the provided empty sequence was inferred as float. Wrap it with "
                      "'np.array(indices, dtype=np.intp)'");
    throw TypeError("only int indices permitted");
  }
  return as_cunp_array(arr, device, std::nullopt);
}

ndarray py_take(nb::handle a, nb::handle indices, nb::handle axis, nb::handle out, nb::handle mode) {
  const ClipMode cm = to_clip_mode(mode);
  const ndarray arr = as_cunp_array(a, current_device(), std::nullopt);
  const ndarray idx = as_cunp_array(indices, arr.device(), std::nullopt);
  ndarray r = take(arr, idx, to_axis(axis), cm);
  if (!out.is_none()) {
    const ndarray& o = nb::cast<const ndarray&>(out);
    if (o.shape() != r.shape()) throw ValueError("output array does not match result of ndarray.take");
    ndarray(o).assign(r);
    return o;
  }
  return r;
}

void py_put(const ndarray& a, nb::handle indices, nb::handle values, nb::handle mode) {
  const ClipMode cm = to_clip_mode(mode);
  const ndarray idx = as_cunp_array(indices, a.device(), std::nullopt);
  const ndarray vals = as_cunp_array(values, a.device(), std::nullopt);
  put(a, idx, vals, cm);
}

nb::tuple to_tuple(const std::vector<ndarray>& arrays) {
  nb::list l;
  for (const ndarray& x : arrays) l.append(nb::cast(x));
  return nb::tuple(l);
}

ndarray arg(nb::handle a) { return as_cunp_array(a, current_device(), std::nullopt); }
ndarray arg_on(nb::handle a, Device device) { return as_cunp_array(a, device, std::nullopt); }

std::vector<ndarray> arrays_on(nb::handle seq, Device device) {
  std::vector<ndarray> v;
  for (nb::handle x : seq) v.push_back(arg_on(x, device));
  return v;
}

// The device of the first cunp array among `items`, else the current device.
Device device_of(std::initializer_list<nb::handle> items) {
  for (nb::handle h : items) {
    if (is_cunp(h)) return nb::cast<const ndarray&>(h).device();
    if (PySequence_Check(h.ptr()) && !PyUnicode_Check(h.ptr()))
      for (nb::handle x : h)
        if (is_cunp(x)) return nb::cast<const ndarray&>(x).device();
  }
  return current_device();
}

std::vector<std::int64_t> shape_list(nb::handle h) {
  if (PyLong_Check(h.ptr()) || PyIndex_Check(h.ptr())) return {nb::cast<std::int64_t>(nb::int_(h))};
  std::vector<std::int64_t> v;
  for (nb::handle x : h) v.push_back(nb::cast<std::int64_t>(nb::int_(x)));
  return v;
}

// ufunc.at(a, indices, b=None), indices as in a[indices].
void py_ufunc_at(const std::string& name, nb::handle a, nb::handle indices, nb::handle b) {
  if (!is_cunp(a)) throw TypeError("ufunc.at: the first operand must be a cunp.ndarray");
  const ndarray& arr = nb::cast<const ndarray&>(a);
  bool fancy = false;
  const std::vector<FancyIndex> ix = parse_key(indices, arr.device(), fancy);
  if (b.is_none()) {
    ufunc_at(name, arr, ix);
  } else if (!is_cunp(b) && (is_python_scalar(b) || nb::isinstance(b, numpy().attr("generic")))) {
    ufunc_at(name, arr, ix, to_scalar(b));
  } else {
    ufunc_at(name, arr, ix, arg_on(b, arr.device()));
  }
}

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
  m.def(
      "put_along_axis",
      [](nb::handle a, nb::handle indices, nb::handle values, nb::handle axis) {
        if (!is_cunp(a)) throw TypeError("put_along_axis() argument 1 must be cunp.ndarray");
        const ndarray& arr = nb::cast<const ndarray&>(a);
        put_along_axis(arr, arg_on(indices, arr.device()), arg_on(values, arr.device()), to_axis(axis));
      },
      nb::arg("arr"), nb::arg("indices"), nb::arg("values"), nb::arg("axis").none());
  m.def(
      "extract",
      [](nb::handle condition, nb::handle a) {
        const ndarray arr = arg(a);
        return extract(arg_on(condition, arr.device()), arr);
      },
      nb::arg("condition"), nb::arg("arr"));
  m.def(
      "choose",
      [](nb::handle a, nb::handle choices, nb::handle out, nb::handle mode) -> nb::object {
        const Device dev = device_of({a, choices});
        const ndarray idx = arg_on(a, dev);
        std::vector<ndarray> cs;
        if (is_cunp(choices)) {
          const ndarray& c = nb::cast<const ndarray&>(choices);
          for (std::int64_t i = 0; i < (c.ndim() ? c.shape()[0] : 0); ++i) cs.push_back(c[i]);
        } else {
          cs = arrays_on(choices, dev);
        }
        ndarray r = choose(idx, cs, to_clip_mode(mode));
        if (!out.is_none()) {
          ndarray o = nb::cast<const ndarray&>(out);
          if (o.shape() != r.shape()) throw ValueError("choose: invalid shape for output array.");
          o.assign(r);
          return nb::borrow(out);
        }
        return nb::cast(r);
      },
      nb::arg("a"), nb::arg("choices"), nb::arg("out").none() = nb::none(), nb::arg("mode") = "raise");
  m.def(
      "select",
      [](nb::handle condlist, nb::handle choicelist, nb::handle dflt) {
        const Device dev = device_of({condlist, choicelist, dflt});
        const std::vector<ndarray> conds = arrays_on(condlist, dev);
        const std::vector<ndarray> choices = arrays_on(choicelist, dev);
        if (!is_cunp(dflt) && is_python_scalar(dflt)) return select(conds, choices, to_scalar(dflt));
        return select(conds, choices, arg_on(dflt, dev));
      },
      nb::arg("condlist"), nb::arg("choicelist"), nb::arg("default") = 0);
  m.def(
      "place",
      [](nb::handle a, nb::handle mask, nb::handle vals) {
        if (!is_cunp(a)) throw TypeError("argument 1 must be cunp.ndarray, not " +
                                         nb::cast<std::string>(nb::str(a.type().attr("__name__"))));
        const ndarray& arr = nb::cast<const ndarray&>(a);
        place(arr, as_cunp_array(mask, arr.device(), DType::Bool), arg_on(vals, arr.device()));
      },
      nb::arg("arr"), nb::arg("mask"), nb::arg("vals"));
  m.def(
      "putmask",
      [](nb::handle a, nb::handle mask, nb::handle values) {
        if (!is_cunp(a)) throw TypeError("putmask: first argument must be an array");
        const ndarray& arr = nb::cast<const ndarray&>(a);
        putmask(arr, as_cunp_array(mask, arr.device(), DType::Bool), arg_on(values, arr.device()));
      },
      nb::arg("a"), nb::arg("mask"), nb::arg("values"));
  m.def("diag_indices", [](std::int64_t n, int ndim) { return to_tuple(diag_indices(n, ndim)); }, nb::arg("n"),
        nb::arg("ndim") = 2);
  m.def("diag_indices_from", [](nb::handle a) { return to_tuple(diag_indices_from(arg(a))); }, nb::arg("arr"));
  m.def(
      "tril_indices",
      [](std::int64_t n, std::int64_t k, std::optional<std::int64_t> mm) { return to_tuple(tril_indices(n, k, mm)); },
      nb::arg("n"), nb::arg("k") = 0, nb::arg("m").none() = nb::none());
  m.def(
      "triu_indices",
      [](std::int64_t n, std::int64_t k, std::optional<std::int64_t> mm) { return to_tuple(triu_indices(n, k, mm)); },
      nb::arg("n"), nb::arg("k") = 0, nb::arg("m").none() = nb::none());
  m.def("tril_indices_from", [](nb::handle a, std::int64_t k) { return to_tuple(tril_indices_from(arg(a), k)); },
        nb::arg("arr"), nb::arg("k") = 0);
  m.def("triu_indices_from", [](nb::handle a, std::int64_t k) { return to_tuple(triu_indices_from(arg(a), k)); },
        nb::arg("arr"), nb::arg("k") = 0);
  m.def(
      "indices",
      [](nb::handle dimensions, nb::handle dtype, bool sparse) -> nb::object {
        const Shape dims = shape_list(dimensions);
        const DType dt = dtype.is_none() ? DType::Int64 : to_dtype(dtype);
        if (sparse) return to_tuple(indices_sparse(dims, dt));
        return nb::cast(indices(dims, dt));
      },
      nb::arg("dimensions"), nb::arg("dtype").none() = nb::none(), nb::arg("sparse") = false);
  m.def("ix_", [](nb::args args) {
    std::vector<ndarray> v;
    const Device dev = current_device();
    for (nb::handle x : args) {
      if (is_cunp(x)) {
        v.push_back(nb::cast<const ndarray&>(x));
        continue;
      }
      nb::object h = numpy().attr("asarray")(x);
      if (nb::cast<std::int64_t>(h.attr("size")) == 0) h = numpy().attr("asarray")(x, numpy().attr("int64"));
      v.push_back(as_cunp_array(h, dev, std::nullopt));
    }
    return to_tuple(ix_(v));
  });
  m.def(
      "ravel_multi_index",
      [](nb::handle multi_index, nb::handle dims, nb::handle mode, nb::handle order) {
        // Argument parsing first (NumPy's order of errors): dims, mode, order.
        const Shape shape = dims_arg(dims);
        std::vector<ClipMode> modes;
        const bool one_mode = mode.is_none() || PyUnicode_Check(mode.ptr()) || PyIndex_Check(mode.ptr());
        if (one_mode) {
          modes.push_back(to_clip_mode(mode));
        } else {
          for (nb::handle x : mode) modes.push_back(to_clip_mode(x));
        }
        const Order ord = order_arg(order);
        const Device dev = device_of({multi_index});
        std::vector<ndarray> coords;
        std::vector<nb::object> items;
        if (is_cunp(multi_index)) {
          const ndarray& c = nb::cast<const ndarray&>(multi_index);
          for (std::int64_t i = 0; i < (c.ndim() ? c.shape()[0] : 0); ++i) coords.push_back(c[i]);
        } else {
          for (nb::handle x : multi_index) items.push_back(nb::borrow(x));
        }
        if (coords.size() + items.size() != shape.size())
          throw ValueError("parameter multi_index must be a sequence of length " + std::to_string(shape.size()));
        // A sequence of modes has one per axis (a single mode is the C++ API's "every axis").
        if (!one_mode && modes.size() != shape.size())
          throw ValueError("list of clipmodes has wrong length (" + std::to_string(modes.size()) + " instead of " +
                           std::to_string(shape.size()) + ")");
        for (const nb::object& x : items) coords.push_back(int_index_arg(x, dev));
        return ravel_multi_index(coords, shape, modes, ord);
      },
      nb::arg("multi_index"), nb::arg("dims"), nb::arg("mode").none() = "raise", nb::arg("order").none() = "C");
  m.def(
      "unravel_index",
      [](nb::handle indices, nb::handle shape, nb::handle order) {
        const Shape dims = dims_arg(shape);
        const Order ord = order_arg(order);
        return to_tuple(unravel_index(int_index_arg(indices, current_device()), dims, ord));
      },
      nb::arg("indices").none(), nb::arg("shape"), nb::arg("order").none() = "C");
  m.def("_ufunc_at", &py_ufunc_at, nb::arg("name"), nb::arg("a"), nb::arg("indices"),
        nb::arg("b").none() = nb::none());
}
CUNP_PY_BINDINGS(bind_indexing);

}  // namespace cunp::py

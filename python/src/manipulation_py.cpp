// python/src/manipulation_py.cpp — bindings of the manipulation routines; argument
// normalization (ints vs sequences, None) happens here, semantics in C++.
#include <Python.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.hpp"

namespace cunp::py {

namespace {

std::vector<int> int_list(nb::handle h) {
  std::vector<int> v;
  if (PySequence_Check(h.ptr())) {
    for (nb::handle x : h) v.push_back(nb::cast<int>(x));
  } else {
    v.push_back(nb::cast<int>(h));
  }
  return v;
}

std::vector<std::int64_t> int64_list(nb::handle h) {
  std::vector<std::int64_t> v;
  if (PySequence_Check(h.ptr()) || nb::hasattr(h, "__array_interface__") || nb::isinstance<ndarray>(h)) {
    nb::object seq = nb::isinstance<ndarray>(h) ? nb::borrow(h).attr("tolist")() : nb::borrow(h);
    if (!PySequence_Check(seq.ptr())) {
      v.push_back(nb::cast<std::int64_t>(nb::int_(seq)));
      return v;
    }
    for (nb::handle x : seq) v.push_back(nb::cast<std::int64_t>(nb::int_(x)));
  } else {
    v.push_back(nb::cast<std::int64_t>(nb::int_(h)));
  }
  return v;
}

std::optional<std::vector<int>> optional_axes(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  return int_list(h);
}

ndarray arr(nb::handle h) { return as_cunp_array(h, current_device(), std::nullopt); }

// The arrays of a join. A cunp array is the sequence of its sub-arrays along axis 0;
// anything else must be a sequence (TypeError otherwise, NumPy's: `stack_message` for
// the stack family, which asks for __getitem__, concatenate's own message for
// concatenate, which asks for a sequence), whose items (cunp arrays, NumPy arrays,
// scalars, nested lists) land on the device of the first cunp array among them, else
// on the current device.
std::vector<ndarray> arrays(nb::handle seq, bool stack_family) {
  if (nb::isinstance<ndarray>(seq)) {
    const ndarray& a = nb::cast<const ndarray&>(seq);
    if (a.ndim() == 0) {
      throw TypeError(stack_family ? "iteration over a 0-d array" : "The first input argument needs to be a sequence");
    }
    std::vector<ndarray> v;
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) v.push_back(a[i]);
    return v;
  }
  if (stack_family ? !nb::hasattr(seq, "__getitem__") : !PySequence_Check(seq.ptr())) {
    throw TypeError(stack_family ? "arrays to stack must be passed as a \"sequence\" type such as list or tuple."
                                 : "The first input argument needs to be a sequence");
  }
  const nb::object items = nb::steal(PySequence_Fast(seq.ptr(), "arrays must be a sequence"));
  if (!items.is_valid()) throw nb::python_error();
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(items.ptr());
  PyObject** xs = PySequence_Fast_ITEMS(items.ptr());
  Device dev = current_device();
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (nb::isinstance<ndarray>(xs[i])) {
      dev = nb::cast<const ndarray&>(nb::handle(xs[i])).device();
      break;
    }
  }
  std::vector<ndarray> v;
  v.reserve(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    nb::handle x(xs[i]);
    v.push_back(nb::isinstance<ndarray>(x) ? nb::cast<const ndarray&>(x) : as_cunp_array(x, dev, std::nullopt));
  }
  return v;
}

// An integer argument (operator.index: TypeError for floats and strings).
int index_arg(nb::handle h) {
  if (PyLong_CheckExact(h.ptr())) return nb::cast<int>(h);
  const nb::object i = nb::steal(PyNumber_Index(h.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  return nb::cast<int>(i);
}

// concatenate's axis: an integer, not a bool (NumPy's PyArray_AxisConverter).
int concat_axis(nb::handle h) {
  if (PyBool_Check(h.ptr()) || nb::isinstance(h, numpy().attr("bool_"))) throw TypeError("an integer is required for the axis");
  return index_arg(h);
}

JoinOptions join_options(nb::handle out, nb::handle dtype, nb::handle casting) {
  JoinOptions o;
  o.casting = parse_casting(nb::cast<std::string>(casting));
  o.dtype = to_optional_dtype(dtype);
  if (!out.is_none()) {
    if (!nb::isinstance<ndarray>(out)) throw TypeError("'out' must be an array");
    o.out = nb::cast<const ndarray&>(out);
  }
  return o;
}

nb::list to_list(const std::vector<ndarray>& v) {
  nb::list l;
  for (const ndarray& a : v) l.append(nb::cast(a));
  return l;
}

}  // namespace

void bind_manipulation(nb::module_& m) {
  using nb::arg;
  m.def("moveaxis", [](nb::handle a, nb::handle s, nb::handle d) {
    const auto src = int_list(s), dst = int_list(d);
    return moveaxis(arr(a), src, dst);
  }, arg("a"), arg("source"), arg("destination"));
  m.def("swapaxes", [](nb::handle a, int x, int y) { return swapaxes(arr(a), x, y); }, arg("a"), arg("axis1"),
        arg("axis2"));
  m.def("rollaxis", [](nb::handle a, int axis, int start) { return rollaxis(arr(a), axis, start); },
        arg("a"), arg("axis"), arg("start") = 0);
  m.def("expand_dims", [](nb::handle a, nb::handle axis) { return expand_dims(arr(a), int_list(axis)); },
        arg("a"), arg("axis"));
  m.def("squeeze", [](nb::handle a, nb::handle axis) { return squeeze(arr(a), optional_axes(axis)); },
        arg("a"), arg("axis").none() = nb::none());
  auto atleast = [](auto fn) {
    return [fn](nb::args xs) -> nb::object {
      if (xs.size() == 1) return nb::cast(fn(arr(xs[0])));
      nb::list l;
      for (nb::handle x : xs) l.append(nb::cast(fn(arr(x))));
      return nb::tuple(l);
    };
  };
  m.def("atleast_1d", atleast([](const ndarray& a) { return atleast_1d(a); }));
  m.def("atleast_2d", atleast([](const ndarray& a) { return atleast_2d(a); }));
  m.def("atleast_3d", atleast([](const ndarray& a) { return atleast_3d(a); }));
  m.def("flip", [](nb::handle a, nb::handle axis) { return flip(arr(a), optional_axes(axis)); },
        arg("m"), arg("axis").none() = nb::none());
  m.def("fliplr", [](nb::handle a) { return fliplr(arr(a)); }, arg("m"));
  m.def("flipud", [](nb::handle a) { return flipud(arr(a)); }, arg("m"));
  m.def("rot90", [](nb::handle a, int k, nb::handle axes) {
    const auto ax = int_list(axes);
    if (ax.size() != 2) throw ValueError("len(axes) must be 2.");
    return rot90(arr(a), k, {ax[0], ax[1]});
  }, arg("m"), arg("k") = 1, arg("axes") = nb::make_tuple(0, 1));
  m.def("broadcast_arrays", [](nb::args xs) {
    std::vector<ndarray> v;
    for (nb::handle x : xs) v.push_back(arr(x));
    return nb::tuple(to_list(broadcast_arrays(v)));
  });
  // With out=, the out object itself is returned (NumPy's `r is out`).
  m.def("concatenate", [](nb::handle seq, nb::handle axis, nb::handle out, nb::handle dtype, nb::handle casting) {
    const JoinOptions o = join_options(out, dtype, casting);
    std::optional<int> ax;
    if (!axis.is_none()) ax = concat_axis(axis);
    ndarray r = concatenate(arrays(seq, false), ax, o);
    return out.is_none() ? nb::cast(std::move(r)) : nb::borrow(out);
  }, arg("arrays"), arg("axis").none() = 0, arg("out").none() = nb::none(), nb::kw_only(),
        arg("dtype").none() = nb::none(), arg("casting") = "same_kind");
  m.def("stack", [](nb::handle seq, nb::handle axis, nb::handle out, nb::handle dtype, nb::handle casting) {
    const JoinOptions o = join_options(out, dtype, casting);
    ndarray r = stack(arrays(seq, true), index_arg(axis), o);
    return out.is_none() ? nb::cast(std::move(r)) : nb::borrow(out);
  }, arg("arrays"), arg("axis") = 0, arg("out").none() = nb::none(), nb::kw_only(), arg("dtype").none() = nb::none(),
        arg("casting") = "same_kind");
  m.def("vstack", [](nb::handle seq, nb::handle dtype, nb::handle casting) {
    return vstack(arrays(seq, true), join_options(nb::none(), dtype, casting));
  }, arg("tup"), nb::kw_only(), arg("dtype").none() = nb::none(), arg("casting") = "same_kind");
  m.def("hstack", [](nb::handle seq, nb::handle dtype, nb::handle casting) {
    return hstack(arrays(seq, true), join_options(nb::none(), dtype, casting));
  }, arg("tup"), nb::kw_only(), arg("dtype").none() = nb::none(), arg("casting") = "same_kind");
  m.def("dstack", [](nb::handle seq) { return dstack(arrays(seq, true)); }, arg("tup"));
  m.def("column_stack", [](nb::handle seq) { return column_stack(arrays(seq, true)); }, arg("tup"));
  m.def("append", [](nb::handle a, nb::handle v, nb::handle axis) {
    std::optional<int> ax;
    if (!axis.is_none()) ax = concat_axis(axis);
    const ndarray x = arr(a);
    return append(x, nb::isinstance<ndarray>(v) ? nb::cast<const ndarray&>(v) : as_cunp_array(v, x.device(), std::nullopt), ax);
  }, arg("arr"), arg("values"), arg("axis").none() = nb::none());
  auto splitter = [](bool exact) {
    return [exact](nb::handle a, nb::handle sections, int axis) {
      const ndarray x = arr(a);
      if (PySequence_Check(sections.ptr()) || nb::isinstance<ndarray>(sections)) {
        const auto idx = int64_list(sections);
        return to_list(split(x, idx, axis));
      }
      const std::int64_t n = nb::cast<std::int64_t>(nb::int_(sections));
      return to_list(exact ? split(x, n, axis) : array_split(x, n, axis));
    };
  };
  m.def("split", splitter(true), arg("ary"), arg("indices_or_sections"), arg("axis") = 0);
  m.def("array_split", splitter(false), arg("ary"), arg("indices_or_sections"), arg("axis") = 0);
  auto axis_splitter = [](int which) {
    return [which](nb::handle a, nb::handle sections) {
      const ndarray x = arr(a);
      if (PySequence_Check(sections.ptr())) {
        const auto idx = int64_list(sections);
        if (which == 0 && x.ndim() == 0) throw ValueError("hsplit only works on arrays of 1 or more dimensions");
        if (which == 1 && x.ndim() < 2) throw ValueError("vsplit only works on arrays of 2 or more dimensions");
        if (which == 2 && x.ndim() < 3) throw ValueError("dsplit only works on arrays of 3 or more dimensions");
        const int ax = which == 0 ? (x.ndim() > 1 ? 1 : 0) : which == 1 ? 0 : 2;
        return to_list(split(x, idx, ax));
      }
      const std::int64_t n = nb::cast<std::int64_t>(nb::int_(sections));
      return to_list(which == 0 ? hsplit(x, n) : which == 1 ? vsplit(x, n) : dsplit(x, n));
    };
  };
  m.def("hsplit", axis_splitter(0), arg("ary"), arg("indices_or_sections"));
  m.def("vsplit", axis_splitter(1), arg("ary"), arg("indices_or_sections"));
  m.def("dsplit", axis_splitter(2), arg("ary"), arg("indices_or_sections"));
  m.def("tile", [](nb::handle a, nb::handle reps) { return tile(arr(a), int64_list(reps)); }, arg("A"), arg("reps"));
  m.def("repeat", [](nb::handle a, nb::handle repeats, nb::handle axis) {
    std::optional<int> ax;
    if (!axis.is_none()) ax = nb::cast<int>(axis);
    return repeat(arr(a), int64_list(repeats), ax);
  }, arg("a"), arg("repeats"), arg("axis").none() = nb::none());
  m.def("roll", [](nb::handle a, nb::handle shift, nb::handle axis) {
    return roll(arr(a), int64_list(shift), optional_axes(axis));
  }, arg("a"), arg("shift"), arg("axis").none() = nb::none());
  m.def("resize", [](nb::handle a, nb::handle shape) { return resize(arr(a), to_shape(shape)); }, arg("a"), arg("new_shape"));
  m.def("_pad", [](const ndarray& a, std::vector<std::pair<std::int64_t, std::int64_t>> widths, const std::string& mode,
                   double value) { return pad(a, widths, mode, value); });
  using Pairs = std::vector<std::pair<double, double>>;
  using Lengths = std::vector<std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>>;
  m.def("_pad_options", [](const ndarray& a, std::vector<std::pair<std::int64_t, std::int64_t>> widths,
                           const std::string& mode, Pairs constant_values, Pairs end_values, Lengths stat_length) {
    return pad(a, widths, mode,
               PadOptions{.constant_values = std::move(constant_values),
                          .end_values = std::move(end_values),
                          .stat_length = std::move(stat_length)});
  });
  m.def("trim_zeros", [](nb::handle filt, const std::string& trim, nb::handle axis) {
    return trim_zeros(arr(filt), trim, optional_axes(axis));
  }, arg("filt"), arg("trim") = "fb", arg("axis").none() = nb::none());
  m.def("_insert", [](const ndarray& a, bool scalar_obj, std::vector<std::int64_t> idx, const ndarray& values,
                      std::optional<int> axis) {
    if (scalar_obj) return insert(a, idx.at(0), values, axis);
    return insert(a, idx, values, axis);
  });
  m.def("_delete", [](const ndarray& a, std::vector<std::int64_t> idx, std::optional<int> axis) {
    return delete_(a, idx, axis);
  });
}

}  // namespace cunp::py

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

std::vector<ndarray> arrays(nb::handle seq) {
  if (nb::isinstance<ndarray>(seq)) {
    // An array is a sequence of its sub-arrays along axis 0.
    const ndarray& a = nb::cast<const ndarray&>(seq);
    std::vector<ndarray> v;
    for (std::int64_t i = 0; i < (a.ndim() ? a.shape()[0] : 0); ++i) v.push_back(a[i]);
    return v;
  }
  std::vector<ndarray> v;
  Device dev = current_device();
  for (nb::handle x : seq) {
    if (nb::isinstance<ndarray>(x)) {
      dev = nb::cast<const ndarray&>(x).device();
      break;
    }
  }
  for (nb::handle x : seq) v.push_back(nb::isinstance<ndarray>(x) ? nb::cast<const ndarray&>(x) : as_cunp_array(x, dev, std::nullopt));
  return v;
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
  m.def("swapaxes", [](nb::handle a, int x, int y) { return swapaxes(arr(a), x, y); });
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
  m.def("fliplr", [](nb::handle a) { return fliplr(arr(a)); });
  m.def("flipud", [](nb::handle a) { return flipud(arr(a)); });
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
  m.def("concatenate", [](nb::handle seq, nb::handle axis, nb::handle out, nb::handle dtype, const std::string& casting) -> nb::object {
    std::optional<int> ax;
    if (!axis.is_none()) ax = nb::cast<int>(axis);
    ndarray r = concatenate(arrays(seq), ax, to_optional_dtype(dtype));
    if (!out.is_none()) {
      ndarray o = nb::cast<const ndarray&>(out);
      if (o.shape() != r.shape()) throw ValueError("Output array is the wrong shape");
      o.assign(r, parse_casting(casting));
      return nb::borrow(out);
    }
    return nb::cast(r);
  }, arg("arrays"), arg("axis").none() = 0, arg("out").none() = nb::none(), nb::kw_only(),
        arg("dtype").none() = nb::none(), arg("casting") = "same_kind");
  m.def("stack", [](nb::handle seq, int axis) { return stack(arrays(seq), axis); }, arg("arrays"), arg("axis") = 0);
  m.def("vstack", [](nb::handle seq) { return vstack(arrays(seq)); });
  m.def("hstack", [](nb::handle seq) { return hstack(arrays(seq)); });
  m.def("dstack", [](nb::handle seq) { return dstack(arrays(seq)); });
  m.def("column_stack", [](nb::handle seq) { return column_stack(arrays(seq)); });
  m.def("append", [](nb::handle a, nb::handle v, nb::handle axis) {
    std::optional<int> ax;
    if (!axis.is_none()) ax = nb::cast<int>(axis);
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
  m.def("hsplit", axis_splitter(0));
  m.def("vsplit", axis_splitter(1));
  m.def("dsplit", axis_splitter(2));
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

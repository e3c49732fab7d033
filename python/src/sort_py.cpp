// python/src/sort_py.cpp — bindings of sorting, searching and set operations
// (cunp/sort.hpp); the Python signatures live in python/cunp/_sorting.py.
#include <string>

#include "convert.hpp"
#include "cunp/sort.hpp"

namespace cunp::py {
namespace {

SortOptions sort_options(nb::handle kind) {
  SortOptions o;
  if (!kind.is_none()) {
    if (!nb::isinstance<nb::str>(kind)) throw TypeError("sort kind must be a str or None");
    o.kind = parse_sort_kind(nb::cast<std::string>(kind));
  }
  return o;
}

nb::object or_none(const ndarray& a) { return a.defined() ? nb::cast(a) : nb::none(); }

void bind_sorting(nb::module_& m) {
  using nb::arg;
  m.def("_sort", [](const ndarray& a, std::optional<std::int64_t> axis, nb::handle kind) {
    return sort(a, axis, sort_options(kind));
  }, arg("a"), arg("axis").none(), arg("kind").none());
  m.def("_argsort", [](const ndarray& a, std::optional<std::int64_t> axis, nb::handle kind) {
    return argsort(a, axis, sort_options(kind));
  }, arg("a"), arg("axis").none(), arg("kind").none());
  m.def("_sort_inplace", [](const ndarray& a, std::int64_t axis, nb::handle kind) {
    sort_inplace(a, axis, sort_options(kind));
  }, arg("a"), arg("axis"), arg("kind").none());
  m.def("_lexsort", [](const std::vector<ndarray>& keys, std::int64_t axis) { return lexsort(keys, axis); },
        arg("keys"), arg("axis"));
  m.def("_partition", [](const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<std::int64_t> axis) {
    return partition(a, kth, axis);
  }, arg("a"), arg("kth"), arg("axis").none());
  m.def("_partition_inplace", &partition_inplace, arg("a"), arg("kth"), arg("axis"));
  m.def("_argpartition",
        [](const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<std::int64_t> axis) {
          return argpartition(a, kth, axis);
        }, arg("a"), arg("kth"), arg("axis").none());
  m.def("_sort_complex", &sort_complex, arg("a"));
  m.def("_searchsorted", [](const ndarray& a, const ndarray& v, nb::handle side, std::optional<ndarray> sorter) {
    // side: a str or bytes (NumPy's TypeError otherwise).
    std::string text;
    if (PyUnicode_Check(side.ptr())) {
      text = nb::cast<std::string>(side);
    } else if (PyBytes_Check(side.ptr())) {
      text = std::string(PyBytes_AsString(side.ptr()), static_cast<std::size_t>(PyBytes_Size(side.ptr())));
    } else {
      throw TypeError("search side must be str, not " + nb::cast<std::string>(side.type().attr("__name__")));
    }
    return searchsorted(a, v, parse_side(text), sorter);
  },
        arg("a"), arg("v"), arg("side").none(), arg("sorter").none());
  m.def("_unique", [](const ndarray& a, bool return_index, bool return_inverse, bool return_counts,
                      std::optional<std::int64_t> axis, bool equal_nan) {
    const UniqueResult r = unique(a, {.return_index = return_index, .return_inverse = return_inverse,
                                      .return_counts = return_counts, .axis = axis, .equal_nan = equal_nan});
    return nb::make_tuple(r.values, or_none(r.indices), or_none(r.inverse), or_none(r.counts));
  }, arg("a"), arg("return_index"), arg("return_inverse"), arg("return_counts"), arg("axis").none(),
     arg("equal_nan"));
  m.def("_isin", &isin, arg("element"), arg("test_elements"), arg("assume_unique"), arg("invert"));
  m.def("_in1d", &in1d, arg("ar1"), arg("ar2"), arg("assume_unique"), arg("invert"));
  m.def("_intersect1d", [](const ndarray& a, const ndarray& b, bool assume_unique, bool return_indices) -> nb::object {
    if (!return_indices) return nb::cast(intersect1d(a, b, assume_unique));
    const IntersectResult r = intersect1d_indices(a, b, assume_unique);
    return nb::make_tuple(r.values, r.indices1, r.indices2);
  }, arg("ar1"), arg("ar2"), arg("assume_unique"), arg("return_indices"));
  m.def("_union1d", &union1d, arg("ar1"), arg("ar2"));
  m.def("_setdiff1d", &setdiff1d, arg("ar1"), arg("ar2"), arg("assume_unique"));
  m.def("_setxor1d", &setxor1d, arg("ar1"), arg("ar2"), arg("assume_unique"));
}

}  // namespace

CUNP_PY_BINDINGS(bind_sorting);

}  // namespace cunp::py

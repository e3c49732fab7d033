// python/src/linalg_py.cpp — bindings of the matrix products and numpy.linalg; the
// Python package (cunp/linalg.py, cunp/_linalg_top.py) handles argument forms.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include "convert.hpp"
#include "cunp/linalg.hpp"

namespace cunp::py {

ndarray as_cunp_array(nb::handle value, Device device, std::optional<DType> dtype);

namespace {

ndarray arr(nb::handle h, Device dev) {
  if (nb::isinstance<ndarray>(h)) return nb::cast<const ndarray&>(h);
  return as_cunp_array(h, dev, std::nullopt);
}
Device device_of(nb::handle a, nb::handle b) {
  if (nb::isinstance<ndarray>(a)) return nb::cast<const ndarray&>(a).device();
  if (nb::isinstance<ndarray>(b)) return nb::cast<const ndarray&>(b).device();
  return current_device();
}
std::optional<ndarray> opt_out(nb::handle out) {
  if (out.is_none()) return std::nullopt;
  return nb::cast<ndarray>(out);
}
nb::list to_list(const std::vector<ndarray>& v) {
  nb::list l;
  for (const ndarray& a : v) l.append(nb::cast(a));
  return l;
}

void bind_linalg(nb::module_& m) {
  using nb::arg;
  auto binary = [](auto fn) {
    return [fn](nb::handle a, nb::handle b) {
      const Device d = device_of(a, b);
      return fn(arr(a, d), arr(b, d));
    };
  };
  m.def("_matmul", [](nb::handle a, nb::handle b, nb::handle out) {
    const Device d = device_of(a, b);
    return matmul(arr(a, d), arr(b, d), opt_out(out));
  }, arg("a"), arg("b"), arg("out").none() = nb::none());
  m.def("_dot", [](nb::handle a, nb::handle b, nb::handle out) {
    const Device d = device_of(a, b);
    return dot(arr(a, d), arr(b, d), opt_out(out));
  }, arg("a"), arg("b"), arg("out").none() = nb::none());
  m.def("_vdot", binary([](const ndarray& a, const ndarray& b) { return vdot(a, b); }));
  m.def("_inner", binary([](const ndarray& a, const ndarray& b) { return inner(a, b); }));
  m.def("_outer", binary([](const ndarray& a, const ndarray& b) { return outer(a, b); }));
  m.def("_tensordot_n", [](nb::handle a, nb::handle b, int n) {
    const Device d = device_of(a, b);
    return tensordot(arr(a, d), arr(b, d), n);
  });
  m.def("_tensordot_axes", [](nb::handle a, nb::handle b, std::vector<int> xa, std::vector<int> xb) {
    const Device d = device_of(a, b);
    return tensordot(arr(a, d), arr(b, d), xa, xb);
  });
  m.def("_trace", [](nb::handle a, std::int64_t offset, int axis1, int axis2, nb::handle dtype) {
    return trace(arr(a, current_device()), offset, axis1, axis2, to_optional_dtype(dtype));
  }, arg("a"), arg("offset"), arg("axis1"), arg("axis2"), arg("dtype").none());
  auto unary = [](auto fn) { return [fn](nb::handle a) { return fn(arr(a, current_device())); }; };
  m.def("_la_solve", binary([](const ndarray& a, const ndarray& b) { return linalg::solve(a, b); }));
  m.def("_la_inv", unary([](const ndarray& a) { return linalg::inv(a); }));
  m.def("_la_det", unary([](const ndarray& a) { return linalg::det(a); }));
  m.def("_la_slogdet", unary([](const ndarray& a) { return linalg::slogdet(a); }));
  m.def("_la_cholesky", [](nb::handle a, bool upper) { return linalg::cholesky(arr(a, current_device()), upper); });
  m.def("_la_qr", [](nb::handle a, std::string mode) { return to_list(linalg::qr(arr(a, current_device()), mode)); });
  m.def("_la_svd", [](nb::handle a, bool full, bool uv) {
    return to_list(linalg::svd(arr(a, current_device()), full, uv));
  });
  m.def("_la_eigh", [](nb::handle a, std::string uplo) { return linalg::eigh(arr(a, current_device()), uplo); });
  m.def("_la_eigvalsh", [](nb::handle a, std::string uplo) { return linalg::eigvalsh(arr(a, current_device()), uplo); });
  m.def("_la_eig", unary([](const ndarray& a) { return linalg::eig(a); }));
  m.def("_la_eigvals", unary([](const ndarray& a) { return linalg::eigvals(a); }));
  m.def("_la_matrix_power", [](nb::handle a, std::int64_t n) {
    return linalg::matrix_power(arr(a, current_device()), n);
  });
}

}  // namespace

CUNP_PY_BINDINGS(bind_linalg);

}  // namespace cunp::py

// python/src/linalg_py.cpp — bindings of the matrix products and numpy.linalg; the
// Python package (cunp/linalg.py, cunp/_linalg_top.py) handles argument forms.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.hpp"
#include "cunp/linalg.hpp"

namespace cunp::py {

namespace {

ndarray arr(nb::handle h, Device dev) { return as_cunp_array(h, dev, std::nullopt); }
Device device_of(nb::handle a, nb::handle b) {
  if (nb::isinstance<ndarray>(a)) return nb::cast<const ndarray&>(a).device();
  if (nb::isinstance<ndarray>(b)) return nb::cast<const ndarray&>(b).device();
  return current_device();
}
// Every item of `seq` as a cunp array on the device of its first cunp array (else the
// current device).
std::vector<ndarray> arrays_on_one_device(nb::handle seq) {
  Device d = current_device();
  for (nb::handle h : seq)
    if (nb::isinstance<ndarray>(h)) {
      d = nb::cast<const ndarray&>(h).device();
      break;
    }
  std::vector<ndarray> v;
  for (nb::handle h : seq) v.push_back(arr(h, d));
  return v;
}
std::optional<ndarray> opt_out(nb::handle out) {
  if (out.is_none()) return std::nullopt;
  if (!nb::isinstance<ndarray>(out))
    throw TypeError("out must be a cunp.ndarray, got " + std::string(nb::type_name(out.type()).c_str()));
  return nb::cast<ndarray>(out);
}
linalg::NormOrder to_norm_order(nb::handle ord) {
  if (ord.is_none()) return {};
  if (nb::isinstance<nb::str>(ord)) return linalg::NormOrder(nb::cast<std::string>(ord));
  return linalg::NormOrder(nb::cast<double>(ord));
}
std::optional<ndarray> opt_array(nb::handle h, Device dev) {
  if (h.is_none()) return std::nullopt;
  return arr(h, dev);
}
nb::list to_list(const std::vector<ndarray>& v) {
  nb::list l;
  for (const ndarray& a : v) l.append(nb::cast(a));
  return l;
}

// `a @ other` for an object that is no array-like but has __rmatmul__ (a LinearOperator,
// a sparse matrix): NotImplemented, so that Python calls other.__rmatmul__(a), as NumPy
// does for such operands. Arrays, scalars, sequences and the array protocols convert.
bool defers_matmul(nb::handle h) {
  if (nb::isinstance<ndarray>(h) || is_python_scalar(h) || PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) return false;
  if (nb::hasattr(h, "__array_interface__") || nb::hasattr(h, "__cuda_array_interface__") ||
      nb::hasattr(h, "__dlpack__") || nb::isinstance(h, numpy().attr("generic"))) {
    return false;
  }
  return nb::hasattr(h, "__rmatmul__");
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
  m.def("_matmul_full", [](nb::handle a, nb::handle b, nb::handle out, nb::handle dtype, const std::string& casting,
                           std::optional<std::vector<std::vector<int>>> axes) {
    const Device d = device_of(a, b);
    return matmul(arr(a, d), arr(b, d), MatmulOptions{.out = opt_out(out), .dtype = to_optional_dtype(dtype),
                                                      .casting = parse_casting(casting), .axes = std::move(axes)});
  }, arg("a"), arg("b"), arg("out").none(), arg("dtype").none(), arg("casting"), arg("axes").none());
  // ndarray's `@`, `@=` and reflected `@`, bound as methods (no Python frame per call).
  nb::object cls = m.attr("ndarray");
  cls.attr("__matmul__") = nb::cpp_function(
      [](const ndarray& self, nb::handle other) -> nb::object {
        if (defers_matmul(other)) return nb::borrow(Py_NotImplemented);
        return nb::cast(matmul(self, arr(other, self.device())));
      },
      nb::is_method(), nb::name("__matmul__"), nb::arg("other").none());
  cls.attr("__rmatmul__") = nb::cpp_function(
      [](const ndarray& self, nb::handle other) { return matmul(arr(other, self.device()), self); }, nb::is_method(),
      nb::name("__rmatmul__"), nb::arg("other").none());
  cls.attr("__imatmul__") = nb::cpp_function(
      [](nb::handle self_obj, nb::handle other) {
        const ndarray& self = nb::cast<const ndarray&>(self_obj);
        (void)matmul(self, arr(other, self.device()), self);
        return nb::borrow(self_obj);
      },
      nb::is_method(), nb::name("__imatmul__"), nb::arg("other").none());
  m.def("_dot", [](nb::handle a, nb::handle b, nb::handle out) {
    const Device d = device_of(a, b);
    return dot(arr(a, d), arr(b, d), opt_out(out));
  }, arg("a"), arg("b"), arg("out").none() = nb::none());
  m.def("_vdot", binary([](const ndarray& a, const ndarray& b) { return vdot(a, b); }));
  m.def("_inner", binary([](const ndarray& a, const ndarray& b) { return inner(a, b); }));
  m.def("_outer", [](nb::handle a, nb::handle b, nb::handle out) {
    const Device d = device_of(a, b);
    return outer(arr(a, d), arr(b, d), opt_out(out));
  }, arg("a"), arg("b"), arg("out").none() = nb::none());
  m.def("_tensordot_n", [](nb::handle a, nb::handle b, int n) {
    const Device d = device_of(a, b);
    return tensordot(arr(a, d), arr(b, d), n);
  });
  m.def("_tensordot_axes", [](nb::handle a, nb::handle b, std::vector<int> xa, std::vector<int> xb) {
    const Device d = device_of(a, b);
    return tensordot(arr(a, d), arr(b, d), xa, xb);
  });
  m.def("_trace", [](nb::handle a, std::int64_t offset, int axis1, int axis2, nb::handle dtype,
                     std::optional<ndarray> out) {
    return trace(arr(a, current_device()), offset, axis1, axis2, to_optional_dtype(dtype), std::move(out));
  }, arg("a"), arg("offset"), arg("axis1"), arg("axis2"), arg("dtype").none(), arg("out").none() = nb::none());
  m.def("_einsum", [](std::string subscripts, nb::sequence operands, nb::handle dtype, nb::handle out,
                      const std::string& casting) {
    return einsum(subscripts, arrays_on_one_device(operands),
                  {.dtype = to_optional_dtype(dtype), .out = opt_out(out), .casting = parse_casting(casting)});
  }, arg("subscripts"), arg("operands"), arg("dtype").none(), arg("out").none(), arg("casting"));
  m.def("_kron", binary([](const ndarray& a, const ndarray& b) { return kron(a, b); }));
  m.def("_cross", [](nb::handle a, nb::handle b, int axisa, int axisb, int axisc, std::optional<int> axis) {
    const Device d = device_of(a, b);
    return cross(arr(a, d), arr(b, d), {.axisa = axisa, .axisb = axisb, .axisc = axisc, .axis = axis});
  }, arg("a"), arg("b"), arg("axisa"), arg("axisb"), arg("axisc"), arg("axis").none());
  m.def("_la_multi_dot", [](nb::sequence arrays) { return linalg::multi_dot(arrays_on_one_device(arrays)); });
  m.def("_la_tensorsolve", [](nb::handle a, nb::handle b, std::optional<std::vector<int>> axes) {
    const Device d = device_of(a, b);
    return linalg::tensorsolve(arr(a, d), arr(b, d), axes);
  }, arg("a"), arg("b"), arg("axes").none());
  m.def("_la_tensorinv", [](nb::handle a, int ind) { return linalg::tensorinv(arr(a, current_device()), ind); });
  m.def("_la_norm", [](nb::handle x, nb::handle ord, std::optional<std::vector<int>> axis, bool keepdims) {
    return linalg::norm(arr(x, current_device()), {.ord = to_norm_order(ord), .axis = axis, .keepdims = keepdims});
  }, arg("x"), arg("ord").none(), arg("axis").none(), arg("keepdims"));
  m.def("_la_vector_norm", [](nb::handle x, nb::handle ord, std::optional<std::vector<int>> axis, bool keepdims) {
    return linalg::vector_norm(arr(x, current_device()),
                               {.ord = to_norm_order(ord), .axis = std::move(axis), .keepdims = keepdims});
  }, arg("x"), arg("ord").none(), arg("axis").none(), arg("keepdims"));
  m.def("_la_cond", [](nb::handle x, nb::handle p) { return linalg::cond(arr(x, current_device()), to_norm_order(p)); },
        arg("x"), arg("p").none());
  m.def("_la_matrix_rank", [](nb::handle A, nb::handle tol, bool hermitian, nb::handle rtol) {
    const ndarray a = arr(A, current_device());
    return linalg::matrix_rank(a, opt_array(tol, a.device()), hermitian, opt_array(rtol, a.device()));
  }, arg("A"), arg("tol").none(), arg("hermitian"), arg("rtol").none());
  m.def("_la_pinv", [](nb::handle a, nb::handle rcond, bool hermitian, nb::handle rtol, bool rtol_given) {
    const ndarray x = arr(a, current_device());
    return linalg::pinv(x, {.rcond = opt_array(rcond, x.device()), .hermitian = hermitian,
                            .rtol = opt_array(rtol, x.device()), .rtol_given = rtol_given});
  }, arg("a"), arg("rcond").none(), arg("hermitian"), arg("rtol").none(), arg("rtol_given"));
  m.def("_la_lstsq", [](nb::handle a, nb::handle b, std::optional<double> rcond) {
    const Device d = device_of(a, b);
    linalg::LstsqResult r = linalg::lstsq(arr(a, d), arr(b, d), rcond);
    return nb::make_tuple(r.x, r.residuals, r.rank, r.s);
  }, arg("a"), arg("b"), arg("rcond").none());
  auto unary = [](auto fn) { return [fn](nb::handle a) { return fn(arr(a, current_device())); }; };
  m.def("_la_solve", binary([](const ndarray& a, const ndarray& b) { return linalg::solve(a, b); }));
  m.def("_la_inv", unary([](const ndarray& a) { return linalg::inv(a); }));
  m.def("_la_det", unary([](const ndarray& a) { return linalg::det(a); }));
  m.def("_la_slogdet", unary([](const ndarray& a) { return linalg::slogdet(a); }));
  m.def("_la_cholesky", [](nb::handle a, bool upper) { return linalg::cholesky(arr(a, current_device()), upper); });
  m.def("_la_qr", [](nb::handle a, std::string mode) { return to_list(linalg::qr(arr(a, current_device()), mode)); });
  m.def("_la_svd", [](nb::handle a, bool full, bool uv, bool hermitian) {
    return to_list(linalg::svd(arr(a, current_device()), full, uv, hermitian));
  });
  m.def("_la_set_svd_driver", [](const std::string& name) { linalg::set_svd_driver(linalg::parse_svd_driver(name)); });
  m.def("_la_svd_driver", []() { return std::string(linalg::svd_driver_name(linalg::svd_driver())); });
  m.def("_la_svd_driver_for", [](std::int64_t rows, std::int64_t cols) {
    return std::string(linalg::svd_driver_name(linalg::svd_driver_for(rows, cols)));
  });
  m.def("_la_svd_error_estimate", []() { return linalg::svd_error_estimate(); });
  m.def("_la_eigh", [](nb::handle a, std::string uplo) { return linalg::eigh(arr(a, current_device()), uplo); });
  m.def("_la_eigvalsh", [](nb::handle a, std::string uplo) { return linalg::eigvalsh(arr(a, current_device()), uplo); });
  m.def("_la_eig", [](nb::handle a, bool real_if_all_real) {
    return linalg::eig(arr(a, current_device()), real_if_all_real);
  });
  m.def("_la_eigvals", [](nb::handle a, bool real_if_all_real) {
    return linalg::eigvals(arr(a, current_device()), real_if_all_real);
  });
  m.def("_la_matrix_power", [](nb::handle a, std::int64_t n) {
    return linalg::matrix_power(arr(a, current_device()), n);
  });
}

}  // namespace

CUNP_PY_BINDINGS(bind_linalg);

}  // namespace cunp::py

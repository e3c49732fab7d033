// src/linalg/least_squares.cpp — numpy.linalg.pinv and lstsq through the SVD.
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"

namespace cunp::linalg {
namespace {

ndarray conj_if(const ndarray& x) { return is_complex(x.dtype()) ? conjugate(x) : x; }

// pinv(a) = V diag(1/s) U^H over the singular values above rcond * max(s), written as
// NumPy does from usv, the SVD of conj(a): transpose(vt) · (s^-1 · transpose(u)).
ndarray pinv_from_svd(const std::vector<ndarray>& usv, const ndarray& rcond) {
  const ndarray& u = usv[0];
  const ndarray& s = usv[1];
  const ndarray& vt = usv[2];
  const ndarray cutoff =
      multiply(expand_dims(rcond, std::vector<int>{-1}), max(s, {.axis = -1, .keepdims = true})).astype(s.dtype());
  const ndarray large = greater(s, cutoff);
  const ndarray inv_s = where(large, divide(Scalar(1), where(large, s, Scalar(1))), Scalar(0)).astype(s.dtype());
  return matmul(swapaxes(vt, -1, -2), multiply(expand_dims(inv_s, std::vector<int>{-1}), swapaxes(u, -1, -2)));
}

}  // namespace

ndarray pinv(const ndarray& a, const PinvOptions& options) {
  if (a.ndim() < 2)
    throw LinAlgError(std::to_string(a.ndim()) + "-dimensional array given. Array must be at least two-dimensional");
  if (options.rcond && (options.rtol || options.rtol_given)) throw ValueError("`rtol` and `rcond` can't be both set.");
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back();
  ndarray rcond;
  if (options.rcond) {
    rcond = options.rcond->to(a.device());
  } else if (options.rtol) {
    rcond = options.rtol->to(a.device());
  } else {
    const double r = options.rtol_given ? static_cast<double>(std::max(m, n)) * finfo(a.dtype()).eps : 1e-15;
    rcond = full({}, Scalar(r), {.dtype = DType::Float64, .device = a.device()});
  }
  if (m * n == 0) {
    Shape s(a.shape().begin(), a.shape().end() - 2);
    s.push_back(n);
    s.push_back(m);
    return zeros(s, {.dtype = a.dtype(), .device = a.device()});
  }
  return pinv_from_svd(svd(conj_if(a), false, true, options.hermitian), rcond);
}

LstsqResult lstsq(const ndarray& a, const ndarray& b0, std::optional<double> rcond) {
  const bool vector_b = b0.ndim() == 1;
  const ndarray b = vector_b ? b0.reshape({-1, 1}) : b0;
  for (const ndarray* x : {&a, &b})
    if (x->ndim() != 2)
      throw LinAlgError(std::to_string(x->ndim()) + "-dimensional array given. Array must be two-dimensional");
  const std::int64_t m = a.shape()[0], n = a.shape()[1];
  if (b.shape()[0] != m) throw LinAlgError("Incompatible dimensions");
  // NumPy's _commonType: the computation in double precision, the results in the
  // inputs' (single when every inexact input is single).
  const DType dt0 = a.dtype(), dt1 = b.dtype();
  if (dt0 == DType::Float16 || dt1 == DType::Float16)
    throw TypeError("array type float16 is unsupported in linalg");
  const bool complex_in = is_complex(dt0) || is_complex(dt1);
  auto single = [](DType d) { return d == DType::Float32 || d == DType::Complex64; };
  const bool result_single = single(dt0) && single(dt1);
  const DType t = complex_in ? DType::Complex128 : DType::Float64;
  const DType result_t = result_single ? (complex_in ? DType::Complex64 : DType::Float32) : t;
  const DType result_real = real_dtype(result_t);
  const double rc = rcond ? *rcond : finfo(t).eps * static_cast<double>(std::max(m, n));

  const ndarray at = a.astype(t, {.copy = false}), bt = b.astype(t, {.copy = false});
  LstsqResult r;
  std::int64_t rank = 0;
  const std::int64_t k = std::min(m, n);
  // One SVD (of conj(a), whose singular values are a's) serves the rank, s and pinv.
  const std::vector<ndarray> usv = k ? svd(conj_if(at), false, true) : std::vector<ndarray>{};
  const ndarray s = k ? usv[1] : zeros({0}, {.dtype = real_dtype(t), .device = a.device()});
  if (k) {
    const ndarray cut = multiply(max(s), Scalar(rc));
    rank = static_cast<std::int64_t>(count_nonzero(greater(s, cut)).item().to_double());
  }
  r.rank = full({}, Scalar(rank), {.dtype = DType::Int32, .device = a.device()});
  ndarray x = k ? matmul(pinv_from_svd(usv, full({}, Scalar(rc), {.dtype = DType::Float64, .device = a.device()})), bt)
                : zeros({n, b.shape()[1]}, {.dtype = t, .device = a.device()});
  ndarray resid;
  if (rank == n && m > n) {
    const ndarray d = absolute(subtract(bt, matmul(at, x)));
    resid = sum(multiply(d, d), {.axis = 0});
  } else {
    resid = zeros({0}, {.dtype = real_dtype(t), .device = a.device()});
  }
  if (vector_b) x = x.reshape({n});
  r.x = x.astype(result_t);
  r.residuals = resid.astype(result_real);
  r.s = s.astype(result_real);
  return r;
}

}  // namespace cunp::linalg

// src/linalg/decompositions.cpp — numpy.linalg's factorizations and solvers over
// stacks of matrices: the batch is copied once into column-major buffers, the vendor
// layer (vendor.hpp) factors them, and the results are views of those buffers.
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <algorithm>
#include <complex>
#include <numeric>
#include <string>

#include "copy/copy.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"
#include "linalg/vendor.hpp"
#include "linalg/vendor_cuda.hpp"

namespace cunp::linalg {
namespace {

namespace vd = detail;

// The dtype LAPACK computes in: float64 for bool/integers (as NumPy); float16 is a
// TypeError, as in NumPy.
DType lapack_dtype(DType dt) {
  if (dt == DType::Float16) throw TypeError("array type float16 is unsupported in linalg");
  return is_inexact(dt) ? dt : DType::Float64;
}

void check_stack(const ndarray& a) {
  if (a.ndim() < 2)
    throw LinAlgError(std::to_string(a.ndim()) + "-dimensional array given. Array must be at least two-dimensional");
}
void check_square(const ndarray& a) {
  check_stack(a);
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    throw LinAlgError("Last 2 dimensions of the array must be square");
}

Shape batch_of(const ndarray& a) { return Shape(a.shape().begin(), a.shape().end() - 2); }
Shape with_tail(Shape s, std::initializer_list<std::int64_t> tail) {
  s.insert(s.end(), tail.begin(), tail.end());
  return s;
}

// A C-ordered copy (always a new buffer: LAPACK overwrites it) whose matrices are
// column-major: shape (..., cols, rows).
ndarray c_copy(const ndarray& a, DType dt) { return a.astype(dt, {.order = Order::C, .copy = true}); }
ndarray column_major(const ndarray& a, DType dt) { return c_copy(swapaxes(a, -1, -2), dt); }
// The (..., rows, cols) view of a column_major buffer.
ndarray matrices(const ndarray& buf) { return swapaxes(buf, -1, -2); }

void raise_on_info(const std::vector<int>& info, const char* message) {
  for (int i : info)
    if (i > 0) throw LinAlgError(message);
  for (int i : info)
    if (i < 0) throw ValueError("LAPACK reported an illegal argument (" + std::to_string(-i) + ")");
}

ndarray mask_where(const ndarray& keep, const ndarray& x) { return where(keep, x, Scalar(0)); }
ndarray lower_mask(std::int64_t r, std::int64_t c, Device dev) { return tri(r, c, 0, {.dtype = DType::Bool, .device = dev}); }
ndarray upper_mask(std::int64_t r, std::int64_t c, Device dev) {
  return logical_not(tri(r, c, -1, {.dtype = DType::Bool, .device = dev}));
}
ndarray conj_if(const ndarray& x) { return is_complex(x.dtype()) ? conjugate(x) : x; }

struct LU {
  ndarray buf, ipiv;
  std::vector<int> info;
};
LU lu_factor(const ndarray& a, DType dt) {
  const std::int64_t n = a.shape().back();
  LU r;
  r.buf = column_major(a, dt);
  const std::int64_t batch = n ? r.buf.size() / (n * n) : shape_size(batch_of(a));
  r.ipiv = empty(with_tail(batch_of(a), {n}), {.dtype = vd::pivot_dtype(a.device(), n, batch), .device = a.device()});
  r.info = vd::getrf(a.device(), dt, n, batch, r.buf.data(), r.ipiv.data());
  return r;
}

template <typename T>
void det_host(const ndarray& lu, const ndarray& ipiv, std::int64_t n, std::int64_t batch, T* sign, T* value,
              bool logdet) {
  using R = decltype(std::abs(T{}));
  const std::vector<T> l = lu.to(Device::cpu()).template to_vector<T>();
  const ndarray piv = ipiv.to(Device::cpu()).astype(DType::Int64);
  const std::vector<std::int64_t> p = piv.to_vector<std::int64_t>();
  for (std::int64_t q = 0; q < batch; ++q) {
    T s(1);
    R logabs = 0;
    T prod(1);
    for (std::int64_t i = 0; i < n; ++i) {
      const T d = l[static_cast<std::size_t>(q * n * n + i * n + i)];
      if (p[static_cast<std::size_t>(q * n + i)] != i + 1) s = -s;
      if (logdet) {
        const R ad = std::abs(d);
        if (ad == R(0)) {
          s = T(0);
          logabs = -INFINITY;
          break;
        }
        s *= d / ad;
        logabs += std::log(ad);
      } else {
        prod *= d;
      }
    }
    if (logdet) {
      sign[q] = s;
      value[q] = T(logabs);
    } else {
      value[q] = s * prod;
    }
  }
}

template <typename F>
void dispatch_float(DType dt, F&& f) {
  switch (dt) {
    case DType::Float32: return f.template operator()<float>();
    case DType::Float64: return f.template operator()<double>();
    case DType::Complex64: return f.template operator()<std::complex<float>>();
    case DType::Complex128: return f.template operator()<std::complex<double>>();
    default: throw TypeError("no LAPACK type for " + std::string(name(dt)));
  }
}

}  // namespace

ndarray solve(const ndarray& a, const ndarray& b) {
  check_square(a);
  const DType dt = lapack_dtype(promote_types(a.dtype(), b.dtype()));
  const std::int64_t n = a.shape().back();
  const bool vector_b = b.ndim() == 1;
  const ndarray b2 = vector_b ? b.reshape({n == b.shape()[0] ? n : b.shape()[0], 1}) : b;
  if (b2.ndim() < 2 || b2.shape()[b2.ndim() - 2] != n)
    throw ValueError("solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                     "(m,m),(m,n)->(m,n) (size " + std::to_string(b2.ndim() >= 2 ? b2.shape()[b2.ndim() - 2] : 0) +
                     " is different from " + std::to_string(n) + ")");
  const std::int64_t k = b2.shape().back();
  const Shape shapes[2] = {batch_of(a), batch_of(b2)};
  const Shape batch = broadcast_shapes(shapes);
  LU lu = lu_factor(a.broadcast_to(with_tail(batch, {n, n})), dt);
  raise_on_info(lu.info, "Singular matrix");
  ndarray x = column_major(b2.broadcast_to(with_tail(batch, {n, k})), dt);
  vd::getrs(a.device(), dt, n, k, shape_size(batch), lu.buf.data(), lu.ipiv.data(), x.data());
  ndarray r = matrices(x);
  return vector_b ? r.reshape(with_tail(batch, {n})) : r;
}

ndarray inv(const ndarray& a) {
  check_square(a);
  const DType dt = lapack_dtype(a.dtype());
  const std::int64_t n = a.shape().back();
  LU lu = lu_factor(a, dt);
  raise_on_info(lu.info, "Singular matrix");
  ndarray x = c_copy(eye(n, std::nullopt, 0, {.dtype = dt, .device = a.device()})
                         .broadcast_to(with_tail(batch_of(a), {n, n})), dt);
  vd::getrs(a.device(), dt, n, n, shape_size(batch_of(a)), lu.buf.data(), lu.ipiv.data(), x.data());
  return matrices(x);
}

ndarray det(const ndarray& a) {
  check_square(a);
  const DType dt = lapack_dtype(a.dtype());
  const std::int64_t n = a.shape().back(), batch = shape_size(batch_of(a));
  LU lu = lu_factor(a, dt);
  ndarray out = empty(batch_of(a), {.dtype = dt, .device = Device::cpu()});
  dispatch_float(dt, [&]<typename T>() {
    det_host<T>(lu.buf, lu.ipiv, n, batch, nullptr, static_cast<T*>(out.data()), false);
  });
  return out.to(a.device());
}

std::pair<ndarray, ndarray> slogdet(const ndarray& a) {
  check_square(a);
  const DType dt = lapack_dtype(a.dtype());
  const std::int64_t n = a.shape().back(), batch = shape_size(batch_of(a));
  LU lu = lu_factor(a, dt);
  ndarray sign = empty(batch_of(a), {.dtype = dt, .device = Device::cpu()});
  ndarray logabs = empty(batch_of(a), {.dtype = dt, .device = Device::cpu()});
  dispatch_float(dt, [&]<typename T>() {
    det_host<T>(lu.buf, lu.ipiv, n, batch, static_cast<T*>(sign.data()), static_cast<T*>(logabs.data()), true);
  });
  return {sign.to(a.device()), real(logabs).copy().to(a.device())};
}

ndarray cholesky(const ndarray& a, bool upper) {
  check_square(a);
  const DType dt = lapack_dtype(a.dtype());
  const std::int64_t n = a.shape().back();
  ndarray buf = column_major(a, dt);
  raise_on_info(vd::potrf(a.device(), dt, n, shape_size(batch_of(a)), buf.data(), true),
                "Matrix is not positive definite");
  ndarray l = mask_where(lower_mask(n, n, a.device()), matrices(buf));
  return upper ? conj_if(swapaxes(l, -1, -2)) : l;
}

std::vector<ndarray> qr(const ndarray& a, std::string_view mode) {
  if (mode != "reduced" && mode != "complete" && mode != "r" && mode != "raw")
    throw ValueError("Unrecognized mode '" + std::string(mode) + "'");
  check_stack(a);
  const DType dt = lapack_dtype(a.dtype());
  const Device dev = a.device();
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
  const std::int64_t batch = shape_size(batch_of(a));
  ndarray buf = column_major(a, dt);
  ndarray tau = empty(with_tail(batch_of(a), {k}), {.dtype = dt, .device = dev});
  vd::geqrf(dev, dt, m, n, batch, buf.data(), tau.data());
  if (mode == "raw") return {buf, tau};  // buf is (..., n, m): LAPACK's matrix, transposed
  const std::int64_t rrows = mode == "complete" ? m : k;
  ndarray r = mask_where(upper_mask(rrows, n, dev), matrices(buf).view({ellipsis, slice(0, rrows), slice()}));
  if (mode == "r") return {r};
  const std::int64_t qcols = mode == "complete" ? m : k;
  if (k == 0)  // no reflectors: Q is the identity (not left to ?orgqr's handling of k = 0)
    return {ascontiguousarray(eye(m, qcols, 0, {.dtype = dt, .device = dev}).broadcast_to(
                with_tail(batch_of(a), {m, qcols}))),
            r};
  ndarray q = zeros(with_tail(batch_of(a), {qcols, m}), {.dtype = dt, .device = dev});
  q.set_item({ellipsis, slice(0, k), slice()}, buf.view({ellipsis, slice(0, k), slice()}));
  vd::orgqr(dev, dt, m, qcols, k, batch, q.data(), tau.data());
  return {matrices(q), r};
}

namespace {
std::pair<ndarray, ndarray> eigh_impl(const ndarray& a, std::string_view UPLO, bool vectors);

// svd(hermitian=True): singular values are the eigenvalues' magnitudes; U holds the
// eigenvectors and Vh = (U diag(sign(w)))^H, both in descending order of |w|. The
// order is found on the host (one read of the eigenvalues).
std::vector<ndarray> svd_hermitian(const ndarray& a, bool compute_uv) {
  check_square(a);
  auto [w, v] = eigh_impl(a, "L", compute_uv);
  const ndarray s = absolute(w);
  const std::int64_t n = w.shape().back(), batch = n ? w.size() / n : 0;
  const std::vector<double> host = s.astype(DType::Float64).to(Device::cpu()).to_vector<double>();
  std::vector<std::int64_t> order(static_cast<std::size_t>(w.size()));
  for (std::int64_t q = 0; q < batch; ++q) {
    auto first = order.begin() + q * n;
    std::iota(first, first + n, std::int64_t{0});
    const double* row = host.data() + q * n;
    std::stable_sort(first, first + n, [row](std::int64_t i, std::int64_t j) { return row[i] > row[j]; });
  }
  const ndarray idx = from_host(order.data(), DType::Int64, w.shape(), a.device());
  const ndarray sorted_s = take_along_axis(s, idx, -1);
  if (!compute_uv) return {sorted_s};
  const ndarray cols = expand_dims(idx, std::vector<int>{-2});
  const ndarray u = take_along_axis(v, cols, -1);
  const ndarray sgn = take_along_axis(sign(w), idx, -1).astype(v.dtype());
  const ndarray vh = conj_if(swapaxes(multiply(u, expand_dims(sgn, std::vector<int>{-2})), -1, -2));
  return {u, sorted_s, vh};
}
}  // namespace

namespace {
std::atomic<int> forced_svd_driver{static_cast<int>(SvdDriver::Auto)};

// Note [SVD drivers]: 'auto' picks from what the H200 measured (float32 2048 x 2048 with
// U and Vh; diagnostic runs, docs/linalg.md; S error relative to the largest
// singular value against NumPy's float64 SVD):
//   gesvd   float32  293 ms
//   gesvdj  float32  217 ms, S error 3.2e-4 (rank-1024 matrix: 375 ms, 2.0e-4)
//   gesvdp  float32   65 ms, 1.6e-6 (rank 1024: 75 ms, S error 18, error estimate 7.8e4)
//   gesvdp  float64   74 ms, 7.0e-15 (rank 1024: 88 ms, 4.9e-15, estimate 0)
//   gesvdj  float64  354 ms
// So 'auto' is Gesvdp64 for every matrix with max(m, n) > kSvdJacobiSmall: the
// factorization runs gesvdp in float64 (complex128 for complex input) and the results
// are rounded to the input's precision; when gesvdp reports a failure or its error
// estimate (h_err_sigma) exceeds max(m, n) * eps * the largest singular value (eps of
// the result's precision), gesvd in float64 computes it again. Small matrices keep
// gesvdj, whose batched routine factors a stack of them in one call. Plain gesvdp and
// gesvdj stay available by name (set_svd_driver, CUNP_SVD_DRIVER); gesvdj and gesvdp get
// scratch U and V without vectors (they write them: an illegal address otherwise).
constexpr std::int64_t kSvdJacobiSmall = 32;
}  // namespace

void set_svd_driver(SvdDriver driver) { forced_svd_driver.store(static_cast<int>(driver)); }
SvdDriver svd_driver() { return static_cast<SvdDriver>(forced_svd_driver.load()); }

SvdDriver parse_svd_driver(std::string_view name) {
  if (name == "auto") return SvdDriver::Auto;
  if (name == "gesvd") return SvdDriver::Gesvd;
  if (name == "gesvdj") return SvdDriver::Gesvdj;
  if (name == "gesvdp") return SvdDriver::Gesvdp;
  if (name == "gesvdp64") return SvdDriver::Gesvdp64;
  throw ValueError("svd driver must be one of 'auto', 'gesvd', 'gesvdj', 'gesvdp', 'gesvdp64', got '" +
                   std::string(name) + "'");
}

const char* svd_driver_name(SvdDriver driver) {
  switch (driver) {
    case SvdDriver::Gesvd: return "gesvd";
    case SvdDriver::Gesvdj: return "gesvdj";
    case SvdDriver::Gesvdp: return "gesvdp";
    case SvdDriver::Gesvdp64: return "gesvdp64";
    case SvdDriver::Auto: break;
  }
  return "auto";
}

SvdDriver svd_driver_for(std::int64_t m, std::int64_t n) {
  SvdDriver d = svd_driver();
  if (d == SvdDriver::Auto) {
    const char* env = std::getenv("CUNP_SVD_DRIVER");
    if (env && *env) {
      try {
        d = parse_svd_driver(env);
      } catch (const ValueError&) {
        throw ValueError("CUNP_SVD_DRIVER must be one of 'auto', 'gesvd', 'gesvdj', 'gesvdp', 'gesvdp64', got '" +
                         std::string(env) + "'");
      }
    }
  }
  const std::int64_t l = std::max(m, n);
  if (d == SvdDriver::Auto) d = l <= kSvdJacobiSmall ? SvdDriver::Gesvdj : SvdDriver::Gesvdp64;
  if (d == SvdDriver::Gesvdj && l > INT32_MAX) d = SvdDriver::Gesvd;  // gesvdj has 32-bit sizes
  return d;
}

double svd_error_estimate() { return vd::gesvdp_error_estimate(); }

std::vector<ndarray> svd(const ndarray& a, bool full_matrices, bool compute_uv, bool hermitian) {
  if (hermitian) return svd_hermitian(a, compute_uv);
  check_stack(a);
  const DType dt = lapack_dtype(a.dtype()), rdt = real_dtype(dt);
  const Device dev = a.device();
  const std::int64_t ma = a.shape()[a.ndim() - 2], na = a.shape().back(), k = std::min(ma, na);
  const Shape bs = batch_of(a);
  const std::int64_t batch = shape_size(bs);
  if (k == 0) {
    ndarray s = empty(with_tail(bs, {0}), {.dtype = rdt, .device = dev});
    if (!compute_uv) return {s};
    auto eyes = [&](std::int64_t r, std::int64_t c) {
      return ascontiguousarray(eye(r, c, 0, {.dtype = dt, .device = dev}).broadcast_to(with_tail(bs, {r, c})));
    };
    return {eyes(ma, full_matrices ? ma : k), s, eyes(full_matrices ? na : k, na)};
  }
  // LAPACK's gesvd needs rows >= cols on cuSOLVER: a wide matrix is factored as its
  // conjugate transpose, A^H = U' S V'^H, so U = V' and Vh = U'^H.
  const bool wide = ma < na;
  const std::int64_t m = wide ? na : ma, n = wide ? ma : na;
  const char job = !compute_uv ? 'N' : full_matrices ? 'A' : 'S';
  const std::int64_t ucols = job == 'A' ? m : n;
  // One factorization in dtype `cdt` by `driver`: S, U and V^H or V (column-major), and
  // the info of each matrix.
  struct Factors {
    ndarray s, u, vt;
    std::vector<int> info;
    SvdDriver driver = SvdDriver::Gesvd;
  };
  auto factor = [&](DType cdt, SvdDriver driver) {
    ndarray buf = wide ? c_copy(conj_if(a), cdt) : column_major(a, cdt);
    Factors f;
    f.driver = driver;
    f.s = empty(with_tail(bs, {k}), {.dtype = real_dtype(cdt), .device = dev});
    f.u = compute_uv ? empty(with_tail(bs, {ucols, m}), {.dtype = cdt, .device = dev}) : ndarray();
    f.vt = compute_uv ? empty(with_tail(bs, {n, n}), {.dtype = cdt, .device = dev}) : ndarray();
    f.info = vd::gesvd(dev, cdt, m, n, batch, buf.data(), f.s.data(), compute_uv ? f.u.data() : nullptr,
                       compute_uv ? f.vt.data() : nullptr, job, driver);
    return f;
  };
  const SvdDriver driver = dev.is_cuda() ? svd_driver_for(m, n) : SvdDriver::Gesvd;
  Factors f;
  if (driver == SvdDriver::Gesvdp64) {
    // Note [SVD drivers]: gesvdp in double precision, checked by its error estimate.
    const DType wide_dt = is_complex(dt) ? DType::Complex128 : DType::Float64;
    f = factor(wide_dt, SvdDriver::Gesvdp);
    const double estimate = vd::gesvdp_error_estimate();
    const bool failed = std::any_of(f.info.begin(), f.info.end(), [](int i) { return i != 0; });
    const double eps = finfo(rdt).eps;
    const double smax = failed ? 0.0 : amax(f.s).item().to_double();
    if (failed || !(estimate <= static_cast<double>(std::max(m, n)) * eps * smax)) f = factor(wide_dt, SvdDriver::Gesvd);
    raise_on_info(f.info, "SVD did not converge");
    f.s = f.s.astype(rdt, {.copy = false});
    if (compute_uv) {
      f.u = f.u.astype(dt, {.copy = false});
      f.vt = f.vt.astype(dt, {.copy = false});
    }
  } else {
    f = factor(dt, driver);
    raise_on_info(f.info, "SVD did not converge");
  }
  if (!compute_uv) return {f.s};
  // Note [SVD drivers]: gesvd leaves V^H in vt (column-major), gesvdj/gesvdp leave V.
  const bool v_left = f.driver != SvdDriver::Gesvd;
  // vt's buffer holds X column-major: matrices(vt) is X, conj_if(vt) is X^H.
  if (wide) return {v_left ? matrices(f.vt) : conj_if(f.vt), f.s, conj_if(f.u)};
  return {matrices(f.u), f.s, v_left ? conj_if(f.vt) : matrices(f.vt)};
}

namespace {
std::pair<ndarray, ndarray> eigh_impl(const ndarray& a, std::string_view UPLO, bool vectors) {
  if (UPLO != "L" && UPLO != "U") throw ValueError("UPLO argument must be 'L' or 'U'");
  check_square(a);
  const DType dt = lapack_dtype(a.dtype());
  const std::int64_t n = a.shape().back();
  ndarray buf = column_major(a, dt);
  ndarray w = empty(with_tail(batch_of(a), {n}), {.dtype = real_dtype(dt), .device = a.device()});
  raise_on_info(vd::syevd(a.device(), dt, n, shape_size(batch_of(a)), buf.data(), w.data(), vectors, UPLO == "L"),
                "Eigenvalues did not converge");
  return {w, vectors ? matrices(buf) : ndarray()};
}

std::pair<ndarray, ndarray> eig_impl(const ndarray& a, bool vectors, bool real_if_all_real) {
  check_square(a);
  const DType dt = lapack_dtype(a.dtype()), ct = complex_dtype(dt);
  const std::int64_t n = a.shape().back(), batch = shape_size(batch_of(a));
  const Device dev = a.device();
  if (is_complex(dt)) {
    ndarray buf = column_major(a, ct);
    ndarray w = empty(with_tail(batch_of(a), {n}), {.dtype = ct, .device = dev});
    ndarray vr = vectors ? empty(with_tail(batch_of(a), {n, n}), {.dtype = ct, .device = dev}) : ndarray();
    raise_on_info(vd::geev(dev, ct, n, batch, buf.data(), w.data(), vectors ? vr.data() : nullptr, vectors),
                  "Eigenvalues did not converge");
    ndarray v = vectors ? matrices(vr) : ndarray();
    return {w, v};
  }
  // Note [Real eig]: a real input runs the real ?geev (LAPACK's on cpu, cuSOLVER's
  // all-real cusolverDnXgeev form on CUDA), as NumPy does, so a real
  // eigenvalue has an imaginary part of exactly 0 (a complex factorization of the same
  // matrix can leave rounding noise there). The results are complex, the vectors
  // unpacked from LAPACK's pairs (NumPy 2.5: gh-30411); with real_if_all_real (NumPy
  // 2.0-2.4) they are real when every eigenvalue of the call is.
  ndarray buf = column_major(a, dt);
  ndarray wri = empty(with_tail(batch_of(a), {2, n}), {.dtype = dt, .device = dev});  // real parts, imaginary parts
  ndarray vr = vectors ? empty(with_tail(batch_of(a), {n, n}), {.dtype = dt, .device = dev}) : ndarray();
  raise_on_info(vd::geev(dev, dt, n, batch, buf.data(), wri.data(), vectors ? vr.data() : nullptr, vectors),
                "Eigenvalues did not converge");
  const ndarray wr = wri.view({ellipsis, std::int64_t{0}, slice()});
  const ndarray wi = wri.view({ellipsis, std::int64_t{1}, slice()});
  const std::vector<double> im = wi.astype(DType::Float64).to(Device::cpu()).to_vector<double>();
  const bool all_real = std::all_of(im.begin(), im.end(), [](double x) { return x == 0.0; });
  const ndarray v = vectors ? matrices(vr) : ndarray();
  if (all_real && real_if_all_real) return {wr.copy(), vectors ? v.copy() : ndarray()};
  if (all_real) return {wr.astype(ct), vectors ? v.astype(ct) : ndarray()};
  ndarray w = empty(wr.shape(), {.dtype = ct, .device = dev});
  cunp::detail::copy_elements(real(w), wr);
  cunp::detail::copy_elements(imag(w), wi);
  if (!vectors) return {w, ndarray()};
  // Column j of V is v[:, re[j]] + i * sgn[j] * v[:, im[j]].
  std::vector<std::int64_t> re_col(im.size()), im_col(im.size());
  std::vector<double> sgn(im.size());
  for (std::int64_t q = 0; q < batch; ++q) {
    for (std::int64_t j = 0; j < n; ++j) {
      const std::size_t at = static_cast<std::size_t>(q * n + j);
      re_col[at] = im_col[at] = j;
      sgn[at] = 0.0;
      if (im[at] != 0.0 && j + 1 < n) {
        re_col[at] = re_col[at + 1] = j;
        im_col[at] = im_col[at + 1] = j + 1;
        sgn[at] = 1.0;
        sgn[at + 1] = -1.0;
        ++j;
      }
    }
  }
  const Shape cols_shape = with_tail(batch_of(a), {1, n});
  const ndarray re_idx = from_host(re_col.data(), DType::Int64, cols_shape, dev);
  const ndarray im_idx = from_host(im_col.data(), DType::Int64, cols_shape, dev);
  const ndarray sgn_arr = from_host(sgn.data(), DType::Float64, cols_shape, dev).astype(dt);
  ndarray vc = empty(v.shape(), {.dtype = ct, .device = dev});
  cunp::detail::copy_elements(real(vc), take_along_axis(v, re_idx, -1));
  cunp::detail::copy_elements(imag(vc), multiply(take_along_axis(v, im_idx, -1), sgn_arr));
  return {w, vc};
}
}  // namespace

std::pair<ndarray, ndarray> eigh(const ndarray& a, std::string_view UPLO) { return eigh_impl(a, UPLO, true); }
ndarray eigvalsh(const ndarray& a, std::string_view UPLO) { return eigh_impl(a, UPLO, false).first; }
std::pair<ndarray, ndarray> eig(const ndarray& a, bool real_if_all_real) {
  return eig_impl(a, true, real_if_all_real);
}
ndarray eigvals(const ndarray& a, bool real_if_all_real) { return eig_impl(a, false, real_if_all_real).first; }

ndarray matrix_power(const ndarray& a, std::int64_t n) {
  check_square(a);
  if (n == 0) {
    const std::int64_t m = a.shape().back();
    return ascontiguousarray(eye(m, std::nullopt, 0, {.dtype = a.dtype(), .device = a.device()})
                                 .broadcast_to(a.shape()));
  }
  ndarray base = n < 0 ? inv(a) : a;
  std::uint64_t e = n < 0 ? static_cast<std::uint64_t>(-(n + 1)) + 1 : static_cast<std::uint64_t>(n);
  ndarray result;
  while (e) {
    if (e & 1) result = result.defined() ? matmul(result, base) : base.copy();
    e >>= 1;
    if (e) base = matmul(base, base);
  }
  return result;
}

}  // namespace cunp::linalg

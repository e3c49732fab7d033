// src/linalg/vendor_cpu.cpp — the cpu device's BLAS/LAPACK layer: OpenBLAS's CBLAS and
// LAPACKE, one call per matrix of a batch.
#include "linalg/cpu_lapack.hpp"

#include <complex>
#include <limits>
#include <string>

#include "cunp/error.hpp"
#include "linalg/vendor.hpp"
#include "linalg/vendor_cuda.hpp"

namespace cunp::linalg::detail {
namespace {

// Note [Empty LAPACK calls]: a batch of no matrices, or of matrices with a zero
// dimension, has nothing to factor: the dispatchers below return (info 0 for each
// matrix) before reaching LAPACKE, cuBLAS or cuSOLVER, whose handling of zero sizes
// and of the null pointers of empty arrays differs by routine and version (cuSOLVER's
// buffer-size queries reject some, and a skipped call needs no handle or workspace).

using c64 = std::complex<float>;
using c128 = std::complex<double>;

lapack_int li(std::int64_t v, const char* what) {
  if (v > std::numeric_limits<lapack_int>::max())
    throw ValueError(std::string(what) + " is too large for LAPACK's 32-bit integers on the cpu device");
  return static_cast<lapack_int>(v);
}

template <typename T>
T* at(void* p, std::int64_t i, std::int64_t stride) {
  return static_cast<T*>(p) + i * stride;
}
template <typename T>
const T* at(const void* p, std::int64_t i, std::int64_t stride) {
  return static_cast<const T*>(p) + i * stride;
}

// Calls f.template operator()<T>() with T the element type of dt (BLAS types only).
template <typename F>
decltype(auto) dispatch(DType dt, F&& f) {
  switch (dt) {
    case DType::Float32: return f.template operator()<float>();
    case DType::Float64: return f.template operator()<double>();
    case DType::Complex64: return f.template operator()<c64>();
    case DType::Complex128: return f.template operator()<c128>();
    default: throw TypeError("linear algebra on the cpu device has no routine for " + std::string(name(dt)));
  }
}

#if CUNP_HAVE_CPU_LAPACK
CBLAS_TRANSPOSE op(bool t) { return t ? CblasTrans : CblasNoTrans; }
#endif

template <typename T>
void gemm_one(const GemmArgs& g, const T* a, const T* b, T* c) {
#if !CUNP_HAVE_CPU_LAPACK
  // Note [Builds without a CPU LAPACK]: products still work, as plain column-major loops.
  const auto at_a = [&](std::int64_t i, std::int64_t p) { return g.trans_a ? a[p + i * g.lda] : a[i + p * g.lda]; };
  const auto at_b = [&](std::int64_t p, std::int64_t j) { return g.trans_b ? b[j + p * g.ldb] : b[p + j * g.ldb]; };
  for (std::int64_t j = 0; j < g.n; ++j) {
    for (std::int64_t i = 0; i < g.m; ++i) c[i + j * g.ldc] = T(0);
    for (std::int64_t p = 0; p < g.k; ++p) {
      const T bpj = at_b(p, j);
      for (std::int64_t i = 0; i < g.m; ++i) c[i + j * g.ldc] += at_a(i, p) * bpj;
    }
  }
#else
  const int m = li(g.m, "m"), n = li(g.n, "n"), k = li(g.k, "k");
  const int lda = li(g.lda, "lda"), ldb = li(g.ldb, "ldb"), ldc = li(g.ldc, "ldc");
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasColMajor, op(g.trans_a), op(g.trans_b), m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasColMajor, op(g.trans_a), op(g.trans_b), m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
  } else {
    const T one(1), zero(0);
    if constexpr (std::is_same_v<T, c64>)
      cblas_cgemm(CblasColMajor, op(g.trans_a), op(g.trans_b), m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
    else
      cblas_zgemm(CblasColMajor, op(g.trans_a), op(g.trans_b), m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
  }
#endif
}

// Overloads naming the LAPACKE routine of each element type.
#define CUNP_LAPACKE4(fn, s, d, c, z)                                                  \
  template <typename... A> lapack_int fn(float*, A... args) { return LAPACKE_##s(args...); } \
  template <typename... A> lapack_int fn(double*, A... args) { return LAPACKE_##d(args...); } \
  template <typename... A> lapack_int fn(c64*, A... args) { return LAPACKE_##c(args...); }    \
  template <typename... A> lapack_int fn(c128*, A... args) { return LAPACKE_##z(args...); }
CUNP_LAPACKE4(lp_getrf, sgetrf, dgetrf, cgetrf, zgetrf)
CUNP_LAPACKE4(lp_getrs, sgetrs, dgetrs, cgetrs, zgetrs)
CUNP_LAPACKE4(lp_potrf, spotrf, dpotrf, cpotrf, zpotrf)
CUNP_LAPACKE4(lp_geqrf, sgeqrf, dgeqrf, cgeqrf, zgeqrf)
CUNP_LAPACKE4(lp_orgqr, sorgqr, dorgqr, cungqr, zungqr)
CUNP_LAPACKE4(lp_gesvd, sgesvd, dgesvd, cgesvd, zgesvd)
CUNP_LAPACKE4(lp_syevd, ssyevd, dsyevd, cheevd, zheevd)
#undef CUNP_LAPACKE4

template <typename T> struct real_of { using type = T; };
template <typename T> struct real_of<std::complex<T>> { using type = T; };

}  // namespace

DType pivot_dtype(Device device, std::int64_t n, std::int64_t batch) {
  if (device.is_cuda()) return lu_batched_cuda(n, batch) ? DType::Int32 : DType::Int64;
  return sizeof(lapack_int) == 8 ? DType::Int64 : DType::Int32;
}

void gemm(Device device, const GemmArgs& g) {
  if (g.m == 0 || g.n == 0 || g.batch == 0) return;
  if (device.is_cuda()) return gemm_cuda(device.index, g);
  dispatch(g.dtype, [&]<typename T>() {
    for (std::int64_t i = 0; i < g.batch; ++i)
      gemm_one<T>(g, at<T>(g.a, i, g.stride_a), at<T>(g.b, i, g.stride_b), at<T>(g.c, i, g.stride_c));
  });
}

std::vector<int> getrf(Device device, DType dt, std::int64_t n, std::int64_t batch, void* a, void* ipiv) {
  if (n == 0 || batch == 0) return std::vector<int>(static_cast<std::size_t>(batch));  // Note [Empty LAPACK calls]
  if (device.is_cuda()) return getrf_cuda(device.index, dt, n, batch, a, ipiv);
  std::vector<int> info(static_cast<std::size_t>(batch));
  dispatch(dt, [&]<typename T>() {
    const lapack_int N = li(n, "n");
    for (std::int64_t i = 0; i < batch; ++i)
      info[i] = lp_getrf(static_cast<T*>(nullptr), LAPACK_COL_MAJOR, N, N, at<T>(a, i, n * n), std::max(N, 1),
                         at<lapack_int>(ipiv, i, n));
  });
  return info;
}

void getrs(Device device, DType dt, std::int64_t n, std::int64_t nrhs, std::int64_t batch, const void* lu,
           const void* ipiv, void* b) {
  if (n == 0 || nrhs == 0 || batch == 0) return;
  if (device.is_cuda()) return getrs_cuda(device.index, dt, n, nrhs, batch, lu, ipiv, b);
  dispatch(dt, [&]<typename T>() {
    const lapack_int N = li(n, "n"), R = li(nrhs, "nrhs");
    for (std::int64_t i = 0; i < batch; ++i)
      lp_getrs(static_cast<T*>(nullptr), LAPACK_COL_MAJOR, 'N', N, R, at<T>(lu, i, n * n), std::max(N, 1),
               at<lapack_int>(ipiv, i, n), at<T>(b, i, n * nrhs), std::max(N, 1));
  });
}

std::vector<int> potrf(Device device, DType dt, std::int64_t n, std::int64_t batch, void* a, bool lower) {
  if (n == 0 || batch == 0) return std::vector<int>(static_cast<std::size_t>(batch));
  if (device.is_cuda()) return potrf_cuda(device.index, dt, n, batch, a, lower);
  std::vector<int> info(static_cast<std::size_t>(batch));
  dispatch(dt, [&]<typename T>() {
    const lapack_int N = li(n, "n");
    for (std::int64_t i = 0; i < batch; ++i)
      info[i] = lp_potrf(static_cast<T*>(nullptr), LAPACK_COL_MAJOR, lower ? 'L' : 'U', N, at<T>(a, i, n * n),
                         std::max(N, 1));
  });
  return info;
}

void geqrf(Device device, DType dt, std::int64_t m, std::int64_t n, std::int64_t batch, void* a, void* tau) {
  if (m == 0 || n == 0 || batch == 0) return;  // no reflectors (tau is empty)
  if (device.is_cuda()) return geqrf_cuda(device.index, dt, m, n, batch, a, tau);
  dispatch(dt, [&]<typename T>() {
    const lapack_int M = li(m, "m"), N = li(n, "n");
    for (std::int64_t i = 0; i < batch; ++i)
      lp_geqrf(static_cast<T*>(nullptr), LAPACK_COL_MAJOR, M, N, at<T>(a, i, m * n), std::max(M, 1),
               at<T>(tau, i, std::min(m, n)));
  });
}

void orgqr(Device device, DType dt, std::int64_t m, std::int64_t ncols, std::int64_t k, std::int64_t batch,
           void* a, const void* tau) {
  // k == 0 still runs: Q is then the identity's first ncols columns.
  if (m == 0 || ncols == 0 || batch == 0) return;
  if (device.is_cuda()) return orgqr_cuda(device.index, dt, m, ncols, k, batch, a, tau);
  dispatch(dt, [&]<typename T>() {
    const lapack_int M = li(m, "m"), N = li(ncols, "n"), K = li(k, "k");
    for (std::int64_t i = 0; i < batch; ++i)
      lp_orgqr(static_cast<T*>(nullptr), LAPACK_COL_MAJOR, M, N, K, at<T>(a, i, m * ncols), std::max(M, 1),
               at<T>(tau, i, k));
  });
}

std::vector<int> gesvd(Device device, DType dt, std::int64_t m, std::int64_t n, std::int64_t batch, void* a,
                       void* s, void* u, void* vt, char job, SvdDriver driver) {
  if (m == 0 || n == 0 || batch == 0) return std::vector<int>(static_cast<std::size_t>(batch));
  if (device.is_cuda()) return gesvd_cuda(device.index, dt, m, n, batch, a, s, u, vt, job, driver);
  std::vector<int> info(static_cast<std::size_t>(batch));
  dispatch(dt, [&]<typename T>() {
    using R = typename real_of<T>::type;
    const lapack_int M = li(m, "m"), N = li(n, "n");
    const std::int64_t ucols = job == 'A' ? m : n;
    std::vector<R> superb(static_cast<std::size_t>(std::max<std::int64_t>(std::min(m, n), 2)));
    for (std::int64_t i = 0; i < batch; ++i)
      info[i] = lp_gesvd(static_cast<T*>(nullptr), LAPACK_COL_MAJOR, job, job, M, N, at<T>(a, i, m * n),
                         std::max(M, 1), at<R>(s, i, std::min(m, n)),
                         job == 'N' ? nullptr : at<T>(u, i, m * ucols), std::max(M, 1),
                         job == 'N' ? nullptr : at<T>(vt, i, n * n), std::max(N, 1), superb.data());
  });
  return info;
}

std::vector<int> syevd(Device device, DType dt, std::int64_t n, std::int64_t batch, void* a, void* w, bool vectors,
                       bool lower) {
  if (n == 0 || batch == 0) return std::vector<int>(static_cast<std::size_t>(batch));
  if (device.is_cuda()) return syevd_cuda(device.index, dt, n, batch, a, w, vectors, lower);
  std::vector<int> info(static_cast<std::size_t>(batch));
  dispatch(dt, [&]<typename T>() {
    using R = typename real_of<T>::type;
    const lapack_int N = li(n, "n");
    for (std::int64_t i = 0; i < batch; ++i)
      info[i] = lp_syevd(static_cast<T*>(nullptr), LAPACK_COL_MAJOR, vectors ? 'V' : 'N', lower ? 'L' : 'U', N,
                         at<T>(a, i, n * n), std::max(N, 1), at<R>(w, i, n));
  });
  return info;
}

std::vector<int> geev(Device device, DType dt, std::int64_t n, std::int64_t batch, void* a, void* w, void* vr,
                      bool vectors) {
  if (n == 0 || batch == 0) return std::vector<int>(static_cast<std::size_t>(batch));
  if (device.is_cuda()) return geev_cuda(device.index, dt, n, batch, a, w, vr, vectors);
  std::vector<int> info(static_cast<std::size_t>(batch));
  const lapack_int N = li(n, "n");
  for (std::int64_t i = 0; i < batch; ++i) {
    const char jv = vectors ? 'V' : 'N';
    if (dt == DType::Complex64)
      info[i] = LAPACKE_cgeev(LAPACK_COL_MAJOR, 'N', jv, N, at<c64>(a, i, n * n), std::max(N, 1), at<c64>(w, i, n),
                              nullptr, 1, vectors ? at<c64>(vr, i, n * n) : nullptr, std::max(N, 1));
    else if (dt == DType::Complex128)
      info[i] = LAPACKE_zgeev(LAPACK_COL_MAJOR, 'N', jv, N, at<c128>(a, i, n * n), std::max(N, 1),
                              at<c128>(w, i, n), nullptr, 1, vectors ? at<c128>(vr, i, n * n) : nullptr,
                              std::max(N, 1));
    else if (dt == DType::Float64)
      info[i] = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', jv, N, at<double>(a, i, n * n), std::max(N, 1),
                              at<double>(w, i, 2 * n), at<double>(w, i, 2 * n) + n, nullptr, 1,
                              vectors ? at<double>(vr, i, n * n) : nullptr, std::max(N, 1));
    else if (dt == DType::Float32)
      info[i] = LAPACKE_sgeev(LAPACK_COL_MAJOR, 'N', jv, N, at<float>(a, i, n * n), std::max(N, 1),
                              at<float>(w, i, 2 * n), at<float>(w, i, 2 * n) + n, nullptr, 1,
                              vectors ? at<float>(vr, i, n * n) : nullptr, std::max(N, 1));
    else
      throw TypeError("geev computes in float32, float64, complex64 or complex128");
  }
  return info;
}

}  // namespace cunp::linalg::detail

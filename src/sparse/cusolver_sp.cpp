// src/sparse/cusolver_sp.cpp — spsolve on CUDA devices: cuSOLVER's sparse QR
// (cusolverSp<t>csrlsvqr), one right-hand side at a time (Note [Dense spsolve] in
// solve.cpp says why this API). A cusolverSp handle per (device, thread), bound to the
// current stream as the other vendor handles are; csrlsvqr returns when the solve is
// done (it reports `singularity` to the host).
//
// cuSOLVER marks the cusolverSp API deprecated (in favour of cuDSS); the marks are
// turned off here, since they would fail the -Werror build.
#define DISABLE_CUSOLVER_DEPRECATED
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusolverSp.h>
#include <cusparse.h>

#include <limits>
#include <string>
#include <unordered_map>

#include "runtime/runtime.hpp"
#include "runtime/vendor_handles.hpp"
#include "runtime/vendor_lib.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/stream.hpp"
#include "sparse/cusparse.hpp"

namespace cunp::sparse::detail {
namespace {

using cuda::check_cusolver;
void check_cusparse(cusparseStatus_t s, const char* call) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw CudaError(call, static_cast<int>(s),
                    "cusparseStatus_t " + std::to_string(static_cast<int>(s)));
}
#define CUNP_CUSOLVER_SP_CALL(fn, ...) check_cusolver(CUNP_VENDOR(cusolver, fn)(__VA_ARGS__), #fn)
#define CUNP_CUSPARSE_DESCR_CALL(fn, ...) \
  check_cusparse(CUNP_VENDOR(cusparse, fn)(__VA_ARGS__), #fn)

cusolverSpHandle_t sp_handle(int device) { return cuda::cusolver_sp_handle(device); }

class MatDescr {
 public:
  MatDescr() { CUNP_CUSPARSE_DESCR_CALL(cusparseCreateMatDescr, &d_); }  // general, zero-based
  ~MatDescr() {
    if (d_) (void)CUNP_VENDOR(cusparse, cusparseDestroyMatDescr)(d_);
  }
  MatDescr(const MatDescr&) = delete;
  MatDescr& operator=(const MatDescr&) = delete;
  operator cusparseMatDescr_t() const { return d_; }  // NOLINT(google-explicit-constructor)

 private:
  cusparseMatDescr_t d_ = nullptr;
};

// Solves one column: returns csrlsvqr's `singularity` (-1 when A is invertible).
template <typename T, typename R>
int solve_column(cusolverSpHandle_t h, const Csr& a, const MatDescr& descr, const void* b,
                 void* x) {
  const int n = static_cast<int>(a.shape.rows), nnz = static_cast<int>(a.nnz());
  const auto* val = static_cast<const T*>(a.data.data());
  const auto* rp = static_cast<const int*>(a.indptr.data());
  const auto* ci = static_cast<const int*>(a.indices.data());
  const auto* bs = static_cast<const T*>(b);
  auto* xs = static_cast<T*>(x);
  // reorder = 1: symrcm, to limit the fill of R. tol = 0: singular only when a pivot
  // of R is exactly zero, as SuperLU's spsolve reports exact singularity.
  constexpr int kReorder = 1;
  const R tol = 0;
  int singularity = -1;
  if constexpr (std::is_same_v<T, float>)
    CUNP_CUSOLVER_SP_CALL(cusolverSpScsrlsvqr, h, n, nnz, descr, val, rp, ci, bs, tol, kReorder, xs,
                          &singularity);
  else if constexpr (std::is_same_v<T, double>)
    CUNP_CUSOLVER_SP_CALL(cusolverSpDcsrlsvqr, h, n, nnz, descr, val, rp, ci, bs, tol, kReorder, xs,
                          &singularity);
  else if constexpr (std::is_same_v<T, cuComplex>)
    CUNP_CUSOLVER_SP_CALL(cusolverSpCcsrlsvqr, h, n, nnz, descr, val, rp, ci, bs, tol, kReorder, xs,
                          &singularity);
  else
    CUNP_CUSOLVER_SP_CALL(cusolverSpZcsrlsvqr, h, n, nnz, descr, val, rp, ci, bs, tol, kReorder, xs,
                          &singularity);
  return singularity;
}

}  // namespace

SolveResult spsolve_cusolver(const Csr& a, const ndarray& b) {
  const int device = a.device.index;
  cuda::DeviceScope scope(device);
  const DType dt = a.data.dtype();
  const std::int64_t n = a.shape.rows;
  const std::int64_t k = b.ndim() == 2 ? b.shape()[1] : 1;
  // b arrives F-ordered: column j starts j * n elements in; x is built the same way.
  ndarray x = empty(b.shape(), {.dtype = dt, .order = Order::F, .device = a.device});
  cusolverSpHandle_t h = sp_handle(device);
  const MatDescr descr;
  const std::size_t column = static_cast<std::size_t>(n) * itemsize(dt);
  const auto* bs = static_cast<const char*>(b.data());
  auto* xs = static_cast<char*>(x.data());
  bool singular = false;
  for (std::int64_t j = 0; j < k && !singular; ++j) {
    const void* bj = bs + static_cast<std::size_t>(j) * column;
    void* xj = xs + static_cast<std::size_t>(j) * column;
    int s = -1;
    switch (dt) {
      case DType::Float32:
        s = solve_column<float, float>(h, a, descr, bj, xj);
        break;
      case DType::Float64:
        s = solve_column<double, double>(h, a, descr, bj, xj);
        break;
      case DType::Complex64:
        s = solve_column<cuComplex, float>(h, a, descr, bj, xj);
        break;
      case DType::Complex128:
        s = solve_column<cuDoubleComplex, double>(h, a, descr, bj, xj);
        break;
      default:
        throw TypeError("spsolve computes in float32, float64, complex64 or complex128, not " +
                        std::string(name(dt)));
    }
    singular = s >= 0;
  }
  if (singular) x.fill(std::numeric_limits<double>::quiet_NaN());
  return {x, singular};
}

}  // namespace cunp::sparse::detail

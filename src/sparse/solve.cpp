// src/sparse/solve.cpp — spsolve_triangular and spsolve: argument checks and dtype
// rules (SciPy's), then cuSPARSE/cuSOLVER on CUDA devices (cusparse.cpp,
// cusolver_sp.cpp) or the cpu paths.
//
// Note [Dense spsolve]: on the cpu device spsolve factors the dense matrix with LAPACK's
// LU (cunp::linalg::solve), which gives SciPy's SuperLU solution to rounding for the
// matrices a dense factorization can hold: n <= kDenseSolveMaxN (16384, 2 GiB of float64)
// — above, NotImplementedError rather than an allocation that may not fit. A sparse LU
// of our own would add fill-reducing orderings and pivoting to maintain for a path that
// is the slow device anyway. On CUDA devices cuSOLVER's sparse QR (csrlsvqr) solves
// without densifying, for int32-indexed matrices (cuSOLVER deprecates cusolverSp in
// favour of cuDSS, which is not in the toolkit; the API is still in CUDA 13's
// libcusolver). Both report an (exactly) singular matrix instead of raising, as SciPy
// warns and returns NaN.
#include <limits>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/linalg.hpp"
#include "cunp/reduce.hpp"
#include "cunp/sparse.hpp"
#include "cunp/ufunc.hpp"
#include "sparse/common.hpp"
#include "sparse/cpu_loops.hpp"
#include "sparse/cusparse.hpp"

namespace cunp::sparse {

using detail::Csr;

namespace {

void check_system(const Csr& m, const ndarray& b, const char* who) {
  if (m.shape.rows != m.shape.cols)
    throw ValueError(std::string(who) + ": A must be a square matrix but its shape is (" +
                     std::to_string(m.shape.rows) + ", " + std::to_string(m.shape.cols) + ")");
  if (!b.defined() || (b.ndim() != 1 && b.ndim() != 2))
    throw ValueError(std::string(who) + ": b must have 1 or 2 dims but it has " +
                     std::to_string(b.ndim()));
  if (b.shape()[0] != m.shape.rows)
    throw ValueError(std::string(who) +
                     ": the size of the dimensions of A must be equal to the size of the first "
                     "dimension of b but the shape of A is (" +
                     std::to_string(m.shape.rows) + ", " + std::to_string(m.shape.cols) +
                     ") and b has " + std::to_string(b.shape()[0]) + " rows");
  detail::check_device(b, m.device, who);
}

// SciPy's _asfptype: the first of float32, float64, complex64, complex128 that dt casts
// to safely.
DType float_type(DType dt) {
  for (DType f : {DType::Float32, DType::Float64, DType::Complex64, DType::Complex128})
    if (can_cast(dt, f, Casting::Safe)) return f;
  return DType::Complex128;
}

}  // namespace

ndarray spsolve_triangular(const csr_matrix& a, const ndarray& b,
                           const TriangularOptions& options) {
  const char* who = "spsolve_triangular";
  Csr m = detail::prepare(a, who);
  check_system(m, b, who);
  const DType dt = promote_types(promote_types(m.data.dtype(), DType::Float32), b.dtype());
  m = detail::with_data(detail::prepare(sum_duplicates(m.matrix()), who), dt);
  if (!options.unit_diagonal && m.shape.rows > 0 &&
      cunp::any(equal(diagonal(m.matrix()), 0)).item().to_bool())
    throw LinAlgError("A is singular: zero entry on diagonal.");
  if (m.shape.rows == 0 || b.size() == 0)
    return zeros(b.shape(), {.dtype = dt, .device = m.device});
  // Only the triangle (and the diagonal) is kept: what cuSPARSE's fill mode reads of the
  // other one is not part of its contract (the substitution would skip it anyway).
  const ndarray rows = m.nnz() ? detail::expand_rows(m) : m.indices;
  const Csr tri = detail::filter_entries(
      m, options.lower ? less_equal(m.indices, rows) : greater_equal(m.indices, rows));
  if (tri.nnz() == 0) return b.astype(dt);  // unit diagonal (else singular above): x = b
  if (m.device.is_cuda())
    return detail::spsolve_triangular_cusparse(tri, b.astype(dt, {.order = Order::F}),
                                               options.lower, options.unit_diagonal);
  return detail::spsolve_triangular_cpu(tri, b.dtype() == dt ? b : b.astype(dt), options.lower,
                                        options.unit_diagonal);
}

SolveResult spsolve(const csr_matrix& a, const ndarray& b) {
  const char* who = "spsolve";
  Csr m = detail::prepare(a, who);
  check_system(m, b, who);
  const DType dt = promote_types(float_type(m.data.dtype()), b.dtype());
  m = detail::with_data(detail::prepare(sum_duplicates(m.matrix()), who), dt);
  if (m.shape.rows == 0 || b.size() == 0)
    return {zeros(b.shape(), {.dtype = dt, .device = m.device}), false};
  const auto nan_result = [&] {
    return SolveResult{full(b.shape(), std::numeric_limits<double>::quiet_NaN(),
                            {.dtype = dt, .device = m.device}),
                       true};
  };
  if (m.nnz() == 0) return nan_result();  // the zero matrix
  if (m.device.is_cuda()) {
    if (index_dtype(m.nnz(), m.shape) != DType::Int32)
      throw NotImplementedError(
          "spsolve: cuSOLVER's sparse QR takes 32-bit indices; the matrix needs 64-bit ones");
    return detail::spsolve_cusolver(detail::with_index(m, DType::Int32),
                                    b.astype(dt, {.order = Order::F}));
  }
  if (m.shape.rows > kDenseSolveMaxN)
    throw NotImplementedError(
        "spsolve on the cpu device factors the dense matrix (Note [Dense spsolve]): n = " +
        std::to_string(m.shape.rows) + " is above " + std::to_string(kDenseSolveMaxN));
  const ndarray dense = to_dense(m.matrix(), Order::C);
  try {
    return {linalg::solve(dense, b.astype(dt)), false};
  } catch (const LinAlgError&) {
    return nan_result();
  }
}

}  // namespace cunp::sparse

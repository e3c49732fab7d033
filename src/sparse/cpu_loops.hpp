// src/sparse/cpu_loops.hpp — the cpu-device loops of the products and the triangular
// solve (cpu_products.cpp, cpu_solve.cpp): SciPy's sparsetools algorithms, in the
// order sparsetools adds, threaded over rows where rows are independent. Inputs are
// checked matrices (common.hpp) on the cpu device whose data has the computation's
// dtype.
#pragma once

#include "cunp/sparse.hpp"
#include "sparse/common.hpp"

namespace cunp::sparse::detail {

// y = op(A) x; x contiguous of A's dtype (csr_matvec / csc_matvec).
ndarray matvec_cpu(const Csr& a, const ndarray& x, Operation op);
// C = op(A) B for any strides of B (csr_matvecs); C C-ordered, or F-ordered when B is
// F-contiguous and not C-contiguous.
ndarray matmat_cpu(const Csr& a, const ndarray& b, Operation op);
// C = A B (csr_matmat): sorted rows, results that are zero dropped, indices of `index`.
Csr matmul_cpu(const Csr& a, const Csr& b, DType index);
// x with A x = b by substitution over the `lower` (or upper) triangle of a canonical A;
// b 1-d or 2-d (any layout) of A's dtype; x of b's shape.
ndarray spsolve_triangular_cpu(const Csr& a, const ndarray& b, bool lower, bool unit_diagonal);

}  // namespace cunp::sparse::detail

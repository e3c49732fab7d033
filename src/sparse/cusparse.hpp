// src/sparse/cusparse.hpp — the cuSPARSE (and cuSOLVER sparse QR) paths of the sparse
// routines on CUDA devices (cusparse.cpp, cusolver_sp.cpp), on checked matrices
// (common.hpp's Csr) whose data already has the computation's dtype.
#pragma once

#include "cunp/sparse.hpp"
#include "sparse/common.hpp"

namespace cunp::sparse::detail {

// The data dtypes cuSPARSE computes in: float32, float64, complex64, complex128.
bool cusparse_dtype(DType dt) noexcept;

// CSR -> CSC with cusparseCsr2cscEx2 (int32 indices, a cusparse_dtype): data,
// row indices and column pointers of the CSC, as a Csr of the transpose.
Csr csr_to_csc_cusparse(const Csr& a);
// y = op(A) x (cusparseSpMV); x contiguous of A's dtype.
ndarray matvec_cusparse(const Csr& a, const ndarray& x, Operation op);
// C = op(A) B (cusparseSpMM); B C- or F-contiguous of A's dtype, C in B's layout.
ndarray matmat_cusparse(const Csr& a, const ndarray& b, Operation op);
// C = A B (cusparseSpGEMM) of two canonical int32-indexed matrices of one dtype.
Csr matmul_cusparse(const Csr& a, const Csr& b);
// x with A x = b for the `lower` or upper triangle of a canonical A (cusparseSpSV, one
// column of b at a time); b 1-d or 2-d of A's dtype, x of b's shape.
ndarray spsolve_triangular_cusparse(const Csr& a, const ndarray& b, bool lower, bool unit_diagonal);
// x with A x = b by cuSOLVER's sparse QR (cusolverSp<t>csrlsvqr), column by column;
// canonical int32-indexed A.
SolveResult spsolve_cusolver(const Csr& a, const ndarray& b);

}  // namespace cunp::sparse::detail

// src/linalg/vendor.hpp — the vendor-library layer of linear algebra: batched GEMM and
// the LAPACK routines, on raw buffers of one device. OpenBLAS/LAPACKE for cpu
// (vendor_cpu.cpp), cuBLAS/cuSOLVER for cuda (vendor_cuda.cpp).
//
// Every matrix here is column-major (BLAS/LAPACK's order) with a leading dimension;
// batches are `batch` matrices `stride` elements apart. Pointers are device pointers
// for CUDA devices. Routines returning std::vector<int> return LAPACK's `info` of each
// matrix (read back to the host: one small read per call on a GPU).
#pragma once

#include <cstdint>
#include <vector>

#include "cunp/device.hpp"
#include "cunp/dtype.hpp"
#include "cunp/linalg.hpp"

namespace cunp::linalg::detail {

struct GemmArgs {
  DType dtype;  // float16 (CUDA only), float32/64, complex64/128
  bool trans_a = false, trans_b = false;  // op(X) = X^T when set
  std::int64_t m = 0, n = 0, k = 0;       // C (m x n) = op(A) (m x k) · op(B) (k x n)
  const void* a = nullptr;
  std::int64_t lda = 1, stride_a = 0;
  const void* b = nullptr;
  std::int64_t ldb = 1, stride_b = 0;
  void* c = nullptr;
  std::int64_t ldc = 1, stride_c = 0;
  std::int64_t batch = 1;
};
void gemm(Device device, const GemmArgs& args);

// Integer and bool GEMM with NumPy's semantics (Note [Integer GEMM]): C (batch x m x n,
// C-ordered, of dtype) = A (m x k) B (k x n), integers wrapping, bool as the or of ands.
// A and B are read through byte strides (any sign, 0 for broadcast).
struct IntGemmArgs {
  DType dtype;  // bool or an integer type, of A, B and C alike
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  const void* a = nullptr;
  std::int64_t a_batch = 0, a_row = 0, a_col = 0;
  const void* b = nullptr;
  std::int64_t b_batch = 0, b_row = 0, b_col = 0;
  void* c = nullptr;
};
void int_gemm(Device device, const IntGemmArgs& args);

// The element type of the LU pivots of `batch` n x n matrices: int32 (LAPACK) on cpu;
// on CUDA int32 for the batched cuBLAS path (Note [Batched LU]), else int64.
DType pivot_dtype(Device device, std::int64_t n, std::int64_t batch);

// LU with partial pivoting of n x n matrices (lda = n); ipiv holds n pivots a matrix.
std::vector<int> getrf(Device device, DType dt, std::int64_t n, std::int64_t batch, void* a,
                       void* ipiv);
// Solves LU x = b in place for n x nrhs right-hand sides (ldb = n).
void getrs(Device device, DType dt, std::int64_t n, std::int64_t nrhs, std::int64_t batch,
           const void* lu, const void* ipiv, void* b);
// Cholesky of n x n matrices; the factor overwrites the `lower` (or upper) triangle.
std::vector<int> potrf(Device device, DType dt, std::int64_t n, std::int64_t batch, void* a,
                       bool lower);
// QR of m x n matrices (lda = m); tau holds min(m, n) scalars a matrix.
void geqrf(Device device, DType dt, std::int64_t m, std::int64_t n, std::int64_t batch, void* a,
           void* tau);
// Forms the m x ncols Q (lda = m) from the k reflectors left in `a` by geqrf.
void orgqr(Device device, DType dt, std::int64_t m, std::int64_t ncols, std::int64_t k,
           std::int64_t batch, void* a, const void* tau);
// SVD of m x n matrices with m >= n. job: 'N' (values only), 'S' (U is m x n, Vt is
// n x n), 'A' (U is m x m). s is real, descending. `driver` (never Auto; CUDA only, the
// cpu device always runs gesvd) picks the routine: Gesvd writes V^H into vt, Gesvdj and
// Gesvdp write V (n x n, ld n).
std::vector<int> gesvd(Device device, DType dt, std::int64_t m, std::int64_t n, std::int64_t batch,
                       void* a, void* s, void* u, void* vt, char job, SvdDriver driver = SvdDriver::Gesvd);
// Hermitian eigensolver (ascending eigenvalues, real w); vectors overwrite a.
std::vector<int> syevd(Device device, DType dt, std::int64_t n, std::int64_t batch, void* a,
                       void* w, bool vectors, bool lower);
// General eigensolver (right vectors, ldvr = n; vr may be null when !vectors). For
// complex64/128 matrices w (n a matrix) and vr are complex. For float32/64 matrices
// (LAPACK's ?geev on real data, as NumPy runs it) w holds 2n reals a matrix, the n real
// parts then the n imaginary parts (exactly 0 for a real eigenvalue), and vr is real in
// LAPACK's packed form: a conjugate pair (j, j+1) has vectors vr[:, j] +- i vr[:, j+1].
std::vector<int> geev(Device device, DType dt, std::int64_t n, std::int64_t batch, void* a,
                      void* w, void* vr, bool vectors);

}  // namespace cunp::linalg::detail

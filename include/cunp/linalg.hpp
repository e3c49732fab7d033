// cunp/linalg.hpp — matrix products (numpy.matmul, dot, ...) and numpy.linalg:
// OpenBLAS/LAPACKE on the cpu device, cuBLAS/cuSOLVER on CUDA devices.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp {

// np.matmul / `@`: 1-D operands are promoted to matrices and the added axis removed,
// leading (batch) axes broadcast. `out`, when given, must have the result's shape; the
// result is cast into it with 'same_kind'. Floating and complex dtypes go through BLAS
// (float16 accumulates in float32; TF32 only with CUNP_ALLOW_TF32=1); integer and bool
// dtypes use NumPy's result types (wrapping integer arithmetic; bool: or of ands).
// Differs: integer and bool matmul on CUDA devices raise NotImplementedError for now.
ndarray matmul(const ndarray& a, const ndarray& b, std::optional<ndarray> out = std::nullopt);
// np.dot (0-d operands multiply; N-D·M-D sums over a's last and b's second-to-last axis).
ndarray dot(const ndarray& a, const ndarray& b, std::optional<ndarray> out = std::nullopt);
// np.vdot: conj(a).ravel() · b.ravel(), a 0-d array.
ndarray vdot(const ndarray& a, const ndarray& b);
// np.inner: sums over the last axes.
ndarray inner(const ndarray& a, const ndarray& b);
// np.outer: a.ravel()[:, None] * b.ravel()[None, :].
ndarray outer(const ndarray& a, const ndarray& b);
// np.tensordot with axes=N (the last N of a with the first N of b) ...
ndarray tensordot(const ndarray& a, const ndarray& b, int axes = 2);
// ... and with explicit axis lists.
ndarray tensordot(const ndarray& a, const ndarray& b, std::span<const int> axes_a,
                  std::span<const int> axes_b);
// np.trace: sum of the diagonals on axes (axis1, axis2), with NumPy's sum dtype
// (small integers and bool widen to int64/uint64) unless `dtype` is given.
ndarray trace(const ndarray& a, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1,
              std::optional<DType> dtype = std::nullopt);

namespace linalg {

// All functions work on stacks of matrices in the last two axes, like NumPy 2, and
// raise LinAlgError (numpy.linalg.LinAlgError) where NumPy does. Integer and bool
// inputs compute in float64, float16 in float32 (NumPy has no float16 LAPACK either).

// Solves a x = b. b is (..., M) when it is 1-D, else (..., M, K) (NumPy 2 rules).
ndarray solve(const ndarray& a, const ndarray& b);
ndarray inv(const ndarray& a);
ndarray det(const ndarray& a);
// {sign, logabsdet}
std::pair<ndarray, ndarray> slogdet(const ndarray& a);
// The lower factor L (a = L L^H), or the upper one U (a = U^H U) when `upper`.
ndarray cholesky(const ndarray& a, bool upper = false);
// mode: "reduced" {Q, R}, "complete" {Q, R}, "r" {R}.
std::vector<ndarray> qr(const ndarray& a, std::string_view mode = "reduced");
// {U, S, Vh} when compute_uv, else {S}.
std::vector<ndarray> svd(const ndarray& a, bool full_matrices = true, bool compute_uv = true);
// {eigenvalues (ascending), eigenvectors} of a Hermitian matrix, reading the triangle UPLO.
std::pair<ndarray, ndarray> eigh(const ndarray& a, std::string_view UPLO = "L");
ndarray eigvalsh(const ndarray& a, std::string_view UPLO = "L");
// {eigenvalues, right eigenvectors}: complex, or real when every eigenvalue of a real
// input is real (as NumPy).
std::pair<ndarray, ndarray> eig(const ndarray& a);
ndarray eigvals(const ndarray& a);
ndarray matrix_power(const ndarray& a, std::int64_t n);

}  // namespace linalg
}  // namespace cunp

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
// leading (batch) axes broadcast. Options as NumPy's gufunc: `dtype` is the dtype the
// product computes in (default: the promoted inputs), the inputs cast to it and the
// result into `out` under `casting` (TypeError with NumPy's message otherwise). `out`'s
// core axes must match the result's, its leading axes may be a broadcast of the
// result's batch; it may be any strided array. `axes` names, for a, b and the result,
// the axes holding the matrices (two each, one for a 1-D operand, none for a 0-D
// result); they default to the last ones.
// Floating and complex dtypes go through BLAS
// (float16 accumulates in float32; TF32 only with CUNP_ALLOW_TF32=1); integer and bool
// dtypes use NumPy's result types (wrapping integer arithmetic; bool: or of ands).
// On CUDA devices integer and bool matmul run a generated tiled kernel.
struct MatmulOptions {
  std::optional<ndarray> out;
  std::optional<DType> dtype;
  Casting casting = Casting::SameKind;
  std::optional<std::vector<std::vector<int>>> axes;
};
ndarray matmul(const ndarray& a, const ndarray& b, const MatmulOptions& options);
ndarray matmul(const ndarray& a, const ndarray& b, std::optional<ndarray> out = std::nullopt);
// np.dot (0-d operands multiply; N-D·M-D sums over a's last and b's second-to-last axis).
// `out` must have exactly the result's dtype and shape and be C-contiguous (ValueError
// otherwise, as NumPy), except when a 0-d operand makes dot a multiply of a dtype
// outside BLAS: then the ufunc's out= rules apply (Note [dot out=]).
ndarray dot(const ndarray& a, const ndarray& b, std::optional<ndarray> out = std::nullopt);
// np.vdot: conj(a).ravel() · b.ravel(), a 0-d array.
ndarray vdot(const ndarray& a, const ndarray& b);
// np.inner: sums over the last axes.
ndarray inner(const ndarray& a, const ndarray& b);
// np.outer: multiply(a.ravel()[:, None], b.ravel()[None, :], out=out) (the ufunc's out= rules).
ndarray outer(const ndarray& a, const ndarray& b, std::optional<ndarray> out = std::nullopt);
// np.tensordot with axes=N (the last N of a with the first N of b) ...
ndarray tensordot(const ndarray& a, const ndarray& b, int axes = 2);
// ... and with explicit axis lists.
ndarray tensordot(const ndarray& a, const ndarray& b, std::span<const int> axes_a,
                  std::span<const int> axes_b);
// np.trace: sum of the diagonals on axes (axis1, axis2), with NumPy's sum dtype
// (small integers and bool widen to int64/uint64) unless `dtype` is given. `out`
// receives the sums as a reduction's out= does, and is returned.
ndarray trace(const ndarray& a, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1,
              std::optional<DType> dtype = std::nullopt, std::optional<ndarray> out = std::nullopt);

// np.einsum: any valid subscripts (implicit or explicit output, '...', repeated labels
// for diagonals and traces, size-1 dimensions broadcast). Repeated labels become strided
// views, labels only one operand has are summed, and the operands are contracted
// pairwise left to right through batched matmul (NumPy's optimize= changes nothing
// but the order; cunp keeps the written order). `dtype` is the type every step
// computes in and `out` receives the result, both cast under `casting` (NumPy's
// default 'safe'). One operand without `out` and without summed labels gives a view of
// it, whatever `dtype` says (NumPy's rule, Note [einsum views]).
struct EinsumOptions {
  std::optional<DType> dtype;
  std::optional<ndarray> out;
  Casting casting = Casting::Safe;
};
ndarray einsum(std::string_view subscripts, std::span<const ndarray> operands, const EinsumOptions& options = {});
// np.kron: the Kronecker product (the shorter shape padded with leading 1s).
ndarray kron(const ndarray& a, const ndarray& b);
// np.cross: 3-component vectors along axisa/axisb (NumPy 2.5: 2-component vectors
// raise ValueError); the result's vectors lie along axisc. `axis`, when set,
// overrides all three.
struct CrossOptions {
  int axisa = -1, axisb = -1, axisc = -1;
  std::optional<int> axis;
};
ndarray cross(const ndarray& a, const ndarray& b, const CrossOptions& options = {});

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
// mode: "reduced" {Q, R}, "complete" {Q, R}, "r" {R}, "raw" {h, tau} (h is LAPACK's
// reflector matrix transposed, shape (..., N, M), as NumPy returns it).
std::vector<ndarray> qr(const ndarray& a, std::string_view mode = "reduced");
// {U, S, Vh} when compute_uv, else {S}. With `hermitian` the factors come from eigh
// (singular values are |eigenvalues|, sorted descending; full_matrices is then moot).
std::vector<ndarray> svd(const ndarray& a, bool full_matrices = true, bool compute_uv = true,
                         bool hermitian = false);

// Note [SVD drivers]: the cuSOLVER routine svd uses on CUDA devices (the cpu device
// always runs LAPACK's gesvd). Gesvd: QR iteration (cusolverDnXgesvd); Gesvdj: Jacobi
// (cusolverDn<t>gesvdj); Gesvdp: polar decomposition + eigensolver (cusolverDnXgesvdp);
// Gesvdp64: gesvdp computed in float64 (complex128) and rounded to the input's
// precision, with gesvd in float64 again when gesvdp's error estimate is too large.
// Every driver returns the same results (U, S descending, Vh). Auto reads the
// environment variable CUNP_SVD_DRIVER (gesvd | gesvdj | gesvdp | gesvdp64 | auto) at
// every call, and without it picks by size (svd_driver_for).
enum class SvdDriver { Auto, Gesvd, Gesvdj, Gesvdp, Gesvdp64 };
// Forces a driver for every svd of the process (Auto: back to CUNP_SVD_DRIVER/the rule).
void set_svd_driver(SvdDriver driver);
SvdDriver svd_driver();  // the forced driver, Auto when none
// "auto", "gesvd", "gesvdj", "gesvdp", "gesvdp64"; ValueError for any other name.
SvdDriver parse_svd_driver(std::string_view name);
const char* svd_driver_name(SvdDriver driver);
// The driver svd uses on a CUDA device for matrices of m x n (never Auto): the forced
// one, else CUNP_SVD_DRIVER, else the size rule: gesvdj when max(m, n) <= 32, gesvdp64
// otherwise (Note [SVD drivers]).
SvdDriver svd_driver_for(std::int64_t m, std::int64_t n);
// The largest error estimate (cuSOLVER's h_err_sigma: the size of the perturbation
// that the polar decomposition added, relative to the matrix) of the matrices of this
// thread's last svd that ran gesvdp; 0 when none did.
double svd_error_estimate();
// {eigenvalues (ascending), eigenvectors} of a Hermitian matrix, reading the triangle UPLO.
std::pair<ndarray, ndarray> eigh(const ndarray& a, std::string_view UPLO = "L");
ndarray eigvalsh(const ndarray& a, std::string_view UPLO = "L");
// {eigenvalues, right eigenvectors}, always complex (NumPy 2.5). real_if_all_real: NumPy
// 2.0-2.4's rule instead, real results when every eigenvalue of a real input (over the
// whole call) is real. A real input runs the real ?geev either way (Note [Real eig]).
std::pair<ndarray, ndarray> eig(const ndarray& a, bool real_if_all_real = false);
ndarray eigvals(const ndarray& a, bool real_if_all_real = false);
// a^n by repeated squaring; n < 0 inverts first (LinAlgError when a is singular).
ndarray matrix_power(const ndarray& a, std::int64_t n);
// np.linalg.multi_dot: the chain product in the cheapest order (the first array may be
// 1-D, a row vector, and the last one 1-D, a column vector; those axes are dropped).
ndarray multi_dot(std::span<const ndarray> arrays);
// np.linalg.tensorsolve: x with tensordot(a, x, x.ndim) == b; `axes` of a are moved to
// the end first.
ndarray tensorsolve(const ndarray& a, const ndarray& b, std::optional<std::vector<int>> axes = std::nullopt);
// np.linalg.tensorinv: the inverse of a with respect to tensordot(·, ·, ind).
ndarray tensorinv(const ndarray& a, int ind = 2);

// NumPy's `ord` of norm and cond: None (the default), a number (±INFINITY included),
// or "fro" / "nuc".
class NormOrder {
 public:
  NormOrder() = default;
  NormOrder(double p) : kind_(Kind::Number), p_(p) {}  // NOLINT(google-explicit-constructor)
  NormOrder(int p) : kind_(Kind::Number), p_(p) {}     // NOLINT(google-explicit-constructor)
  NormOrder(std::string_view name);                    // NOLINT(google-explicit-constructor)
  NormOrder(const char* name) : NormOrder(std::string_view(name)) {}  // NOLINT(google-explicit-constructor)
  bool is_none() const noexcept { return kind_ == Kind::None; }
  bool is(double p) const noexcept { return kind_ == Kind::Number && p_ == p; }
  bool is_fro() const noexcept { return kind_ == Kind::Fro; }
  bool is_nuc() const noexcept { return kind_ == Kind::Nuc; }
  bool is_number() const noexcept { return kind_ == Kind::Number; }
  double value() const noexcept { return p_; }
  std::string str() const;

 private:
  enum class Kind { None, Number, Fro, Nuc } kind_ = Kind::None;
  double p_ = 0;
};

// np.linalg.norm: a vector norm over one axis, a matrix norm over two; with no axis,
// the 2-norm of the flattened array (ord None) or the norm of the 1-D/2-D array.
// Results are real; integers compute in float64.
struct NormOptions {
  NormOrder ord;
  std::optional<std::vector<int>> axis;
  bool keepdims = false;
};
ndarray norm(const ndarray& x, const NormOptions& options = {});
// np.linalg.vector_norm: a vector norm over one axis, several axes (taken as one) or,
// with no axis, the whole array. Results are real; integers compute in float64.
struct VectorNormOptions {
  NormOrder ord = 2;
  std::optional<std::vector<int>> axis;
  bool keepdims = false;
};
ndarray vector_norm(const ndarray& x, const VectorNormOptions& options = {});
// np.linalg.cond: from the singular values for p None/2/-2, else norm(x) * norm(inv(x));
// inf for singular matrices (NaN results become inf unless x holds a NaN, as NumPy).
ndarray cond(const ndarray& x, NormOrder p = {});
// np.linalg.matrix_rank: singular values above tol (default: rtol * the largest, rtol
// defaulting to max(M, N) * eps). tol/rtol broadcast against the batch shape.
ndarray matrix_rank(const ndarray& A, std::optional<ndarray> tol = std::nullopt, bool hermitian = false,
                    std::optional<ndarray> rtol = std::nullopt);
// np.linalg.pinv from the SVD; singular values at most rcond * the largest are dropped
// (rcond defaults to 1e-15; `rtol` is NumPy 2's alternative name, with its own default).
struct PinvOptions {
  std::optional<ndarray> rcond;
  bool hermitian = false;
  std::optional<ndarray> rtol;
  bool rtol_given = false;  // rtol=None passed explicitly (NumPy: max(M, N) * eps)
};
ndarray pinv(const ndarray& a, const PinvOptions& options = {});
// np.linalg.lstsq of a 2-D a: the minimum-norm solution, the residual sums of squares
// (empty unless a has full column rank and more rows than columns), the rank and the
// singular values. Computes in float64/complex128 like NumPy; results in the inputs'
// precision. `rank` is a 0-d int32 array (NumPy returns an int32 scalar: LAPACK's int).
struct LstsqResult {
  ndarray x, residuals;
  ndarray rank;
  ndarray s;
};
LstsqResult lstsq(const ndarray& a, const ndarray& b, std::optional<double> rcond = std::nullopt);

}  // namespace linalg
}  // namespace cunp

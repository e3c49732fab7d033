// cunp/sparse.hpp — the compute primitives of scipy.sparse (cunpx.scipy.sparse builds
// its classes on them): CSR/CSC/COO matrices as plain values holding cunp arrays, and
// the products, conversions, canonicalization, elementwise operations, reductions,
// indexing and triangular/general solves over them. Every function runs on the device
// of its arrays: cuSPARSE (and cuSOLVER's sparse QR) on CUDA devices, cunp's own
// threaded loops on the cpu device, with SciPy's results (to rounding) on both.
//
//   cunp::sparse::coo_matrix coo{data, row, col, {4, 5}};
//   cunp::sparse::csr_matrix a = cunp::sparse::coo_to_csr(coo);   // canonical CSR
//   cunp::ndarray y = cunp::sparse::matvec(a, x);                   // a @ x
//   cunp::sparse::csr_matrix c = cunp::sparse::matmul(a, cunp::sparse::csc_to_csr(b));
//
// Conventions (docs/sparse-internals.md has the full table):
//  - data may be any dtype but float16 (SciPy's sparse matrices do not take it:
//    ValueError); indices, indptr, row and col are int32 or int64 (other integer dtypes
//    are converted, anything else is a TypeError). A result's index dtype is int32
//    unless its nnz or a dimension exceeds 2^31 - 1 or an input's index arrays were
//    int64 (SciPy's get_index_dtype); IndexOptions::index_dtype forces one.
//  - The structure is trusted (as SciPy's routines trust it after check_format):
//    indptr is non-decreasing from 0 to nnz and every index is inside the shape;
//    check_format verifies that. Duplicates and unsorted rows are allowed everywhere.
//  - "Canonical" is SciPy's has_canonical_format: every row sorted, no duplicates.
//  - Results never share memory with the inputs unless a function says so.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "cunp/dtype.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::sparse {

// The dimensions of a sparse matrix.
struct MatrixShape {
  std::int64_t rows = 0, cols = 0;
  friend bool operator==(const MatrixShape&, const MatrixShape&) = default;
};

// Compressed sparse rows: row i holds data[indptr[i]:indptr[i+1]] at columns
// indices[indptr[i]:indptr[i+1]].
struct csr_matrix {
  ndarray data, indices, indptr;
  MatrixShape shape;
  std::int64_t nnz() const noexcept {
    return indices.size();
  }  // stored entries, duplicates included
};
// Compressed sparse columns: the same arrays compress the columns (indices are rows).
struct csc_matrix {
  ndarray data, indices, indptr;
  MatrixShape shape;
  std::int64_t nnz() const noexcept { return indices.size(); }
};
// Coordinates: entry k is data[k] at (row[k], col[k]).
struct coo_matrix {
  ndarray data, row, col;
  MatrixShape shape;
  std::int64_t nnz() const noexcept { return data.size(); }
};

// The transpose as the other compressed format over the same arrays (no copy).
csc_matrix transpose(const csr_matrix& a);
csr_matrix transpose(const csc_matrix& a);

// SciPy's get_index_dtype: int32 when nnz and both dimensions fit in it (and `at_least`
// is int32), else int64.
DType index_dtype(std::int64_t nnz, MatrixShape shape, DType at_least = DType::Int32);

struct IndexOptions {
  std::optional<DType> index_dtype;  // int32 or int64; nullopt: index_dtype()'s rule
};

// ValueError naming what is wrong, as scipy's check_format: array ranks and lengths
// always; with full_check also indptr monotonic from 0 and every index in range
// (reads the arrays back: synchronizes).
void check_format(const csr_matrix& a, bool full_check = false);

// ---- conversions -------------------------------------------------------------------

// COO -> CSR with SciPy's tocsr: sorted by (row, col), duplicates summed (in their
// order in the input) unless sum_duplicates is false (then duplicates stay, in input
// order, and only the rows are grouped).
struct CooToCsrOptions {
  bool sum_duplicates = true;
  std::optional<DType> index_dtype;
};
csr_matrix coo_to_csr(const coo_matrix& a, const CooToCsrOptions& options = {});
// CSR -> COO (scipy's tocoo): the row of every entry; col and data share the input's arrays.
coo_matrix csr_to_coo(const csr_matrix& a);
// CSR -> CSC (scipy's tocsc): within each column the entries keep their row order, so a
// CSR without duplicates gives a canonical CSC; duplicates are kept.
csc_matrix csr_to_csc(const csr_matrix& a, const IndexOptions& options = {});
csr_matrix csc_to_csr(const csc_matrix& a, const IndexOptions& options = {});
// The dense matrix (scipy's toarray; duplicates summed), C- or F-ordered.
ndarray to_dense(const csr_matrix& a, Order order = Order::C);
// A 2-d array's non-zero elements as a canonical CSR (NaN counts as non-zero).
csr_matrix from_dense(const ndarray& dense, const IndexOptions& options = {});

// ---- canonical form ----------------------------------------------------------------

// SciPy's has_sorted_indices (every row's indices ascending) and has_canonical_format
// (strictly ascending: sorted and no duplicates). Synchronize (they return a bool).
bool has_sorted_indices(const csr_matrix& a);
bool has_canonical_format(const csr_matrix& a);
// A copy with every row's entries ordered by column (stable: duplicates keep their order).
csr_matrix sort_indices(const csr_matrix& a);
// The canonical form (scipy's sum_duplicates): sorted rows, duplicates added in their
// stored order. Explicit zeros, also those a sum produces, stay.
csr_matrix sum_duplicates(const csr_matrix& a);
// Without the stored zeros (scipy's eliminate_zeros); the order of the rest is kept.
csr_matrix eliminate_zeros(const csr_matrix& a);
// data and indices cut to indptr[-1] entries (scipy's prune); ValueError when shorter.
csr_matrix prune(const csr_matrix& a);

// ---- products ----------------------------------------------------------------------

// op(A): A, its transpose, or its conjugate transpose.
enum class Operation : std::uint8_t { N, T, H };
Operation parse_operation(std::string_view text);  // "N", "T", "H" (ValueError otherwise)

// y = op(A) @ x for a 1-d x (SciPy's csr_matvec / csc_matvec). The dtype is NumPy's
// result_type of A.data and x, in which both are multiplied and summed (bool: or of
// ands; integers wrap). ValueError "dimension mismatch" for a wrong length.
ndarray matvec(const csr_matrix& a, const ndarray& x, Operation op = Operation::N);
// C = op(A) @ B for a 2-d dense B of any layout; C is C-ordered, or F-ordered when B is
// (the layout cuSPARSE then writes).
ndarray matmat(const csr_matrix& a, const ndarray& b, Operation op = Operation::N);
// C = A @ B of two CSR matrices (SpGEMM), of result_type(A.data, B.data). The cpu
// device gives SciPy's result (sorted rows, products that cancel to zero dropped);
// cuSPARSE's keeps such zeros. Canonical inputs are not required.
csr_matrix matmul(const csr_matrix& a, const csr_matrix& b, const IndexOptions& options = {});

// ---- elementwise operations of two matrices of one shape ---------------------------

// SciPy's _binopt over the union of the two patterns, the absent side reading as zero;
// entries whose result is zero are not stored. The result is canonical; its dtype is
// result_type(A, B), bool for the comparisons. Subtracting bools is a TypeError. Only
// operations with op(0, 0) == 0 are here: SciPy builds A >= B and A <= B as the
// complement of A < B and A > B (a dense-like result), and so can the caller.
enum class BinaryOp : std::uint8_t {
  Add,
  Subtract,
  Multiply,
  Maximum,
  Minimum,
  NotEqual,
  Less,
  Greater
};
BinaryOp parse_binary_op(std::string_view name);  // "add", ..., "greater"
csr_matrix binary_op(const csr_matrix& a, const csr_matrix& b, BinaryOp op);

// ---- reductions --------------------------------------------------------------------

// Sum over every entry (0-d), over the rows (axis 0: one value per column) or the
// columns (axis 1: one per row), as 1-d arrays. The dtype is np.sum's (bool and signed
// integers -> int64, unsigned -> uint64) unless `dtype` is given.
ndarray sum(const csr_matrix& a, std::optional<int> axis = std::nullopt,
            std::optional<DType> dtype = std::nullopt);
// max/min/argmax/argmin as the dense matrix would give them: implicit zeros count
// unless `explicit_only` (SciPy's explicit=True), NaN propagates (the first NaN's
// position for the arg-reductions), the first position wins ties. axis nullopt: a 0-d
// value (argmax: the flat C-order index); axis 0/1: one value per column/row (1-d).
// ValueError for a reduction over a zero-size dimension (and argmax of an empty or,
// with explicit_only, entry-less matrix).
enum class ReduceOp : std::uint8_t { Max, Min, ArgMax, ArgMin };
ReduceOp parse_reduce_op(std::string_view name);  // "max", "min", "argmax", "argmin"
ndarray reduce(const csr_matrix& a, ReduceOp op, std::optional<int> axis = std::nullopt,
               bool explicit_only = false);

// ---- indexing ----------------------------------------------------------------------

// The k-th diagonal (scipy's diagonal; duplicates summed), of the data dtype.
ndarray diagonal(const csr_matrix& a, std::int64_t k = 0);
// A[rows] for a 1-d integer array of row numbers (negative ones count from the end;
// IndexError out of range); rows may repeat and come in any order.
csr_matrix take_rows(const csr_matrix& a, const ndarray& rows);
// A[start:stop:step] (Python's slice semantics, std::nullopt for an omitted bound).
csr_matrix slice_rows(const csr_matrix& a, std::optional<std::int64_t> start,
                      std::optional<std::int64_t> stop,
                      std::optional<std::int64_t> step = std::nullopt);
// A[:, cols] for a 1-d integer array of column numbers (negative count from the end,
// IndexError out of range, repeats and any order allowed): column j of the result is
// column cols[j] of A; each row keeps its stored order.
csr_matrix take_cols(const csr_matrix& a, const ndarray& cols);

// ---- solves ------------------------------------------------------------------------

// x with A x = b for a triangular A (scipy.sparse.linalg.spsolve_triangular): b is 1-d
// or 2-d (n x k); x has b's shape and the dtype promote(promote(A, float32), b). Only
// the `lower` (or upper) triangle and the diagonal are read; with unit_diagonal the
// diagonal reads as ones. LinAlgError "A is singular: zero entry on diagonal." when a
// diagonal entry is zero or missing. cuSPARSE SpSV on CUDA devices, substitution on cpu.
struct TriangularOptions {
  bool lower = true;
  bool unit_diagonal = false;
};
ndarray spsolve_triangular(const csr_matrix& a, const ndarray& b,
                           const TriangularOptions& options = {});

// x with A x = b for a square A (scipy.sparse.linalg.spsolve) and b 1-d or 2-d; dtype
// promote(A's float type, b). `singular` is set when A is (numerically) singular, x is
// then all NaN (SciPy warns MatrixRankWarning and does the same). CUDA devices:
// cuSOLVER's sparse QR (cusolverSp?csrlsvqr, column by column, int32 indices);
// cpu device: LU of the dense matrix through LAPACK, for n <= kDenseSolveMaxN
// (NotImplementedError above: Note [Dense spsolve] in src/sparse/solve.cpp).
struct SolveResult {
  ndarray x;
  bool singular = false;
};
inline constexpr std::int64_t kDenseSolveMaxN = 16384;
SolveResult spsolve(const csr_matrix& a, const ndarray& b);

}  // namespace cunp::sparse

// src/sparse/elementwise.cpp — elementwise operations of two CSR matrices of one shape.
//
// Note [Sparse elementwise by row merge]: both operands are brought to canonical form
// (sum_duplicates, which is a no-op test when they already are), then one pass counts
// each row's non-zero results by merging the two sorted rows (binop_row of
// csr_rows.h, one thread or loop iteration per row), a prefix sum gives the result's
// indptr, and a second identical merge writes the entries. This is SciPy's
// csr_binop_csr_canonical on every device. cuSPARSE's csrgeam2 is gone from recent CUDA
// and SpGEAM does not compute max/min or comparisons; a COO concatenation + sort +
// segmented reduction would sort nnz(A) + nnz(B) keys where the merge reads each entry
// twice. A row is merged by one thread, so a matrix whose nonzeros sit in a few very
// long rows leaves most of a GPU idle; such matrices are rare in the elementwise case.
#include <string>

#include "cunp/error.hpp"
#include "cunp/sparse.hpp"
#include "sparse/common.hpp"

namespace cunp::sparse {

using detail::Csr;

// binop_row takes the operation as BinaryOp's value.
static_assert(static_cast<int>(BinaryOp::Add) == sparse_ops::kBinAdd &&
              static_cast<int>(BinaryOp::Minimum) == sparse_ops::kBinMinimum &&
              static_cast<int>(BinaryOp::NotEqual) == sparse_ops::kBinNotEqual &&
              static_cast<int>(BinaryOp::Greater) == sparse_ops::kBinGreater);

csr_matrix binary_op(const csr_matrix& a, const csr_matrix& b, BinaryOp op) {
  const char* who = "binary_op";
  if (a.shape != b.shape)
    throw ValueError("inconsistent shapes (" + std::to_string(a.shape.rows) + ", " +
                     std::to_string(a.shape.cols) + ") and (" + std::to_string(b.shape.rows) +
                     ", " + std::to_string(b.shape.cols) + ")");
  const Csr pa = detail::prepare(a, who);
  const Csr pb = detail::prepare(b, who);
  detail::check_device(pb.data, pa.device, who);
  const DType dt = promote_types(pa.data.dtype(), pb.data.dtype());
  if (op == BinaryOp::Subtract && dt == DType::Bool)
    throw TypeError(
        "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
        "operator, or the logical_xor function instead.");
  const bool compare = op >= BinaryOp::NotEqual;
  const DType out_dt = compare ? DType::Bool : dt;
  DType index = detail::wider_index(pa.index, pb.index);
  Csr ca = detail::with_data(
      detail::with_index(detail::prepare(sum_duplicates(pa.matrix()), who), index), dt);
  Csr cb = detail::with_data(
      detail::with_index(detail::prepare(sum_duplicates(pb.matrix()), who), index), dt);
  const MatrixShape shape = pa.shape;
  const Device device = pa.device;
  sparse_ops::BinopParams p{
      ca.data.data(),      ca.indices.data(), ca.indptr.data(), cb.data.data(), cb.indices.data(),
      cb.indptr.data(),    nullptr,           nullptr,          nullptr,        nullptr,
      static_cast<int>(op)};
  const std::int64_t work = ca.nnz() + cb.nnz() + shape.rows;
  ndarray counts = detail::empty_on(shape.rows, DType::Int64, device);
  p.counts = counts.data();
  detail::run_row_kernel(device, detail::spec(detail::RowKernel::BinopCount, dt, index), shape.rows,
                         p, work);
  const ndarray indptr = detail::prefix_sums(counts);
  const std::int64_t total = detail::last_value(indptr);
  if (index_dtype(total, shape, index) != index) {  // the result needs 64-bit indices
    index = DType::Int64;
    ca = detail::with_index(ca, index);
    cb = detail::with_index(cb, index);
    p.a_indices = ca.indices.data();
    p.a_indptr = ca.indptr.data();
    p.b_indices = cb.indices.data();
    p.b_indptr = cb.indptr.data();
  }
  ndarray data = detail::empty_on(total, out_dt, device);
  ndarray indices = detail::empty_on(total, index, device);
  p.out_indptr = indptr.data();
  p.out_data = data.data();
  p.out_indices = indices.data();
  detail::run_row_kernel(device, detail::spec(detail::RowKernel::BinopFill, dt, index), shape.rows,
                         p, work);
  return {data, indices, indptr.astype(index), shape};
}

}  // namespace cunp::sparse

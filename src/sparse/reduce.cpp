// src/sparse/reduce.cpp — sums, max/min and argmax/argmin of a CSR matrix.
//
// Note [Sparse reductions]: a reduction along the columns (axis 1) runs row_reduce of
// csr_rows.h once per row; along the rows (axis 0) it runs on the CSC (csr_to_csc),
// whose rows are the columns, so both add in SciPy's order (SciPy's sums are products
// with a vector of ones, adding each line in stored order). max/min/argmax/argmin need
// the canonical form (one entry per position, sorted) to see a line's implicit zeros;
// the whole-matrix argmax is the argmax over the lines' maxima, then that line's argmax,
// which is the first C-order position of the extreme value, as np.argmax of the dense
// matrix gives it. SciPy's own argmax compares a position in `data` with a column when
// the extreme is zero and ignores NaN against implicit zeros; cunp follows the dense
// result (docs/sparse-internals.md lists the difference).
#include "cunp/reduce.hpp"

#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/sparse.hpp"
#include "cunp/ufunc.hpp"
#include "sparse/common.hpp"

namespace cunp::sparse {

using detail::Csr;

namespace {

// np.sum's result dtype for data of `dt`.
DType sum_dtype(DType dt) {
  if (dt == DType::Bool || kind_char(dt) == 'i') return DType::Int64;
  if (kind_char(dt) == 'u') return DType::UInt64;
  return dt;
}

int normalize_axis(int axis) {
  if (axis < -2 || axis > 1) throw AxisError(axis, 2);
  return axis < 0 ? axis + 2 : axis;
}

// One value per line of `m` (rows of a CSR, columns when m is the CSC) of `line` columns.
ndarray reduce_lines(const Csr& m, int op, bool explicit_only, DType out_dt) {
  ndarray out = detail::empty_on(m.shape.rows, out_dt, m.device);
  const sparse_ops::RowReduceParams p{m.data.data(),        m.indices.data(), m.indptr.data(),
                                      out.data(),           m.shape.cols,     op,
                                      explicit_only ? 1 : 0};
  detail::run_row_kernel(m.device,
                         detail::spec(detail::RowKernel::RowReduce, m.data.dtype(), m.index),
                         m.shape.rows, p, m.nnz() + m.shape.rows);
  return out;
}

// The CSR whose rows are the lines of `axis` (its transpose for axis 0), optionally canonical.
Csr lines_of(const csr_matrix& a, int axis, bool canonical) {
  const csr_matrix c = canonical ? sum_duplicates(a) : a;
  if (axis == 1) return detail::prepare(c, "reduce");
  const csc_matrix t = csr_to_csc(c);
  return detail::prepare(transpose(t), "reduce");
}

const char* op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::Max:
      return "max";
    case ReduceOp::Min:
      return "min";
    case ReduceOp::ArgMax:
      return "argmax";
    default:
      return "argmin";
  }
}

}  // namespace

ndarray sum(const csr_matrix& a, std::optional<int> axis, std::optional<DType> dtype) {
  Csr m = detail::prepare(a, "sum");
  // The sums are the dense matrix's: bool duplicates combine as `or` before they count.
  if (m.data.dtype() == DType::Bool) m = detail::prepare(sum_duplicates(m.matrix()), "sum");
  if (dtype) {
    detail::check_data_dtype(*dtype, "sum");
    m = detail::with_data(m, *dtype);
  }
  const DType out_dt = dtype.value_or(sum_dtype(m.data.dtype()));
  if (!axis) return cunp::sum(m.data, {.dtype = out_dt});
  const int ax = normalize_axis(*axis);
  const Csr lines = lines_of(m.matrix(), ax, false);
  const ndarray out = reduce_lines(lines, sparse_ops::kRedSum, false, sum_dtype(m.data.dtype()));
  return out.dtype() == out_dt ? out : out.astype(out_dt);
}

ndarray reduce(const csr_matrix& a, ReduceOp op, std::optional<int> axis, bool explicit_only) {
  const Csr m = detail::prepare(a, op_name(op));
  const bool arg = op == ReduceOp::ArgMax || op == ReduceOp::ArgMin;
  const bool is_max = op == ReduceOp::Max || op == ReduceOp::ArgMax;
  const DType dt = m.data.dtype();
  const std::int64_t size = m.shape.rows * m.shape.cols;
  if (axis) {
    const int ax = normalize_axis(*axis);
    if ((ax == 0 ? m.shape.rows : m.shape.cols) == 0) {
      if (arg)
        throw ValueError(std::string("Cannot apply ") + op_name(op) +
                         " along a zero-sized dimension.");
      throw ValueError("zero-size array to reduction operation");
    }
    const Csr lines = lines_of(m.matrix(), ax, true);
    const int code = arg ? (is_max ? sparse_ops::kRedArgMax : sparse_ops::kRedArgMin)
                         : (is_max ? sparse_ops::kRedMax : sparse_ops::kRedMin);
    return reduce_lines(lines, code, explicit_only, arg ? DType::Int64 : dt);
  }
  if (size == 0) {
    if (arg) throw ValueError(std::string("Cannot apply ") + op_name(op) + " to an empty matrix.");
    throw ValueError("zero-size array to reduction operation");
  }
  if (m.nnz() == 0) {
    if (arg && explicit_only)
      throw ValueError(std::string("Cannot apply ") + op_name(op) +
                       " to zero matrix when explicit=True.");
    return arg ? zeros({}, {.dtype = DType::Int64, .device = m.device})
               : zeros({}, {.dtype = dt, .device = m.device});
  }
  const Csr c = detail::prepare(sum_duplicates(m.matrix()), op_name(op));
  if (!arg) {
    // SciPy: the reduction of the stored values, then with a zero if any position is
    // implicit (SciPy counts after summing duplicates, so the canonical nnz decides).
    ndarray v = is_max ? cunp::max(c.data) : cunp::min(c.data);
    if (!explicit_only && c.nnz() != size) {
      const ndarray zero = zeros({}, {.dtype = dt, .device = m.device});
      v = is_max ? maximum(zero, v) : minimum(zero, v);
    }
    return v;
  }
  const std::int64_t cols = m.shape.cols;
  if (explicit_only) {
    const ndarray k = is_max ? cunp::argmax(c.data) : cunp::argmin(c.data);
    const ndarray row = detail::gather(detail::expand_rows(c), k);
    return add(multiply(row.astype(DType::Int64), cols),
               detail::gather(c.indices, k).astype(DType::Int64));
  }
  // Note [Sparse reductions]: the line of the extreme value, then its column there.
  const ndarray best =
      reduce_lines(c, is_max ? sparse_ops::kRedMax : sparse_ops::kRedMin, false, dt);
  const ndarray where = reduce_lines(c, is_max ? sparse_ops::kRedArgMax : sparse_ops::kRedArgMin,
                                     false, DType::Int64);
  const ndarray row = is_max ? cunp::argmax(best) : cunp::argmin(best);
  return add(multiply(row, cols), detail::gather(where, row));
}

}  // namespace cunp::sparse

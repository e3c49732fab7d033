// src/sparse/products.cpp — SpMV, SpMM and SpGEMM: argument checks and dtype rules, then
// cuSPARSE (cusparse.cpp) on CUDA devices or the cpu loops (cpu_products.cpp).
//
// Note [Sparse products of other dtypes]: cuSPARSE multiplies float32, float64,
// complex64 and complex128 only. CuPy refuses the other dtypes; SciPy multiplies integer
// and bool matrices (wrapping, `or` of `and`s), so cunp does too: on a CUDA device such a
// product copies its operands to the host, runs the cpu loop and copies the result
// back — correct, and slow (PCIe both ways); docs/sparse-internals.md says so.
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/sparse.hpp"
#include "sparse/common.hpp"
#include "sparse/cpu_loops.hpp"
#include "sparse/cusparse.hpp"

namespace cunp::sparse {

using detail::Csr;

namespace {

std::string shape_text(std::int64_t r, std::int64_t c) {
  return "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
}

// The dtype a product of data `a` and `b` computes in (NumPy's result_type).
DType product_dtype(DType a, DType b, const char* who) {
  const DType dt = promote_types(a, b);
  detail::check_data_dtype(dt, who);
  return dt;
}

Operation effective(Operation op, DType dt) {
  return op == Operation::H && !is_complex(dt) ? Operation::T : op;
}

}  // namespace

ndarray matvec(const csr_matrix& a, const ndarray& x, Operation op) {
  const char* who = "matvec";
  Csr m = detail::prepare(a, who);
  if (!x.defined() || x.ndim() != 1) throw ValueError("matvec: x must be 1-d");
  detail::check_device(x, m.device, who);
  const std::int64_t n_in = op == Operation::N ? m.shape.cols : m.shape.rows;
  const std::int64_t n_out = op == Operation::N ? m.shape.rows : m.shape.cols;
  if (x.size() != n_in)
    throw ValueError("dimension mismatch: matrix " + shape_text(m.shape.rows, m.shape.cols) +
                     ", vector of " + std::to_string(x.size()) +
                     (op == Operation::N ? "" : " (transposed product)"));
  const DType dt = product_dtype(m.data.dtype(), x.dtype(), who);
  op = effective(op, dt);
  m = detail::with_data(m, dt);
  const ndarray xs = ascontiguousarray(x, dt);
  if (m.nnz() == 0 || n_out == 0) return zeros({n_out}, {.dtype = dt, .device = m.device});
  if (m.device.is_cuda()) {
    if (detail::cusparse_dtype(dt)) return detail::matvec_cusparse(m, xs, op);
    return detail::matvec_cpu(detail::to_cpu(m), xs.to(Device::cpu(), true), op).to(m.device);
  }
  return detail::matvec_cpu(m, xs, op);
}

ndarray matmat(const csr_matrix& a, const ndarray& b, Operation op) {
  const char* who = "matmat";
  Csr m = detail::prepare(a, who);
  if (!b.defined() || b.ndim() != 2) throw ValueError("matmat: b must be 2-d");
  detail::check_device(b, m.device, who);
  const std::int64_t n_in = op == Operation::N ? m.shape.cols : m.shape.rows;
  const std::int64_t n_out = op == Operation::N ? m.shape.rows : m.shape.cols;
  if (b.shape()[0] != n_in)
    throw ValueError("dimension mismatch: matrix " + shape_text(m.shape.rows, m.shape.cols) +
                     ", dense " + shape_text(b.shape()[0], b.shape()[1]) +
                     (op == Operation::N ? "" : " (transposed product)"));
  const DType dt = product_dtype(m.data.dtype(), b.dtype(), who);
  op = effective(op, dt);
  m = detail::with_data(m, dt);
  const bool f_layout = b.is_f_contiguous() && !b.is_c_contiguous();
  if (m.nnz() == 0 || n_out == 0 || b.shape()[1] == 0)
    return zeros({n_out, b.shape()[1]},
                 {.dtype = dt, .order = f_layout ? Order::F : Order::C, .device = m.device});
  if (m.device.is_cuda()) {
    // cuSPARSE reads a dense matrix with unit stride along one axis.
    const ndarray bs = (b.dtype() == dt && (b.is_c_contiguous() || b.is_f_contiguous()))
                           ? b
                           : b.astype(dt, {.order = f_layout ? Order::F : Order::C});
    if (detail::cusparse_dtype(dt)) return detail::matmat_cusparse(m, bs, op);
    return detail::matmat_cpu(detail::to_cpu(m), bs.to(Device::cpu(), true), op).to(m.device);
  }
  return detail::matmat_cpu(m, b.dtype() == dt ? b : b.astype(dt, {.order = Order::K}), op);
}

csr_matrix matmul(const csr_matrix& a, const csr_matrix& b, const IndexOptions& options) {
  const char* who = "matmul";
  Csr ma = detail::prepare(a, who);
  Csr mb = detail::prepare(b, who);
  detail::check_device(mb.data, ma.device, who);
  if (ma.shape.cols != mb.shape.rows)
    throw ValueError("dimension mismatch: " + shape_text(ma.shape.rows, ma.shape.cols) + " @ " +
                     shape_text(mb.shape.rows, mb.shape.cols));
  const DType dt = product_dtype(ma.data.dtype(), mb.data.dtype(), who);
  const MatrixShape shape{ma.shape.rows, mb.shape.cols};
  const DType wide = detail::wider_index(ma.index, mb.index);
  ma = detail::with_data(detail::with_index(ma, wide), dt);
  mb = detail::with_data(detail::with_index(mb, wide), dt);
  if (ma.device.is_cuda() && detail::cusparse_dtype(dt) && ma.nnz() > 0 && mb.nnz() > 0 &&
      index_dtype(std::max(ma.nnz(), mb.nnz()),
                  {std::max(shape.rows, ma.shape.cols), shape.cols}) == DType::Int32) {
    // cuSPARSE's SpGEMM takes int32 indices and wants canonical operands.
    const Csr ca =
        detail::with_index(detail::prepare(sum_duplicates(ma.matrix()), who), DType::Int32);
    const Csr cb =
        detail::with_index(detail::prepare(sum_duplicates(mb.matrix()), who), DType::Int32);
    const Csr c = detail::matmul_cusparse(ca, cb);
    const DType index = options.index_dtype.value_or(index_dtype(c.nnz(), shape, wide));
    return detail::with_index(c, index).matrix();
  }
  const bool roundtrip = ma.device.is_cuda();
  const Csr ha = roundtrip ? detail::to_cpu(ma) : ma;
  const Csr hb = roundtrip ? detail::to_cpu(mb) : mb;
  // The result's index dtype is only known from its nnz: computed in int64, narrowed after.
  const Csr c = detail::matmul_cpu(ha, hb, DType::Int64);
  const DType index = options.index_dtype.value_or(index_dtype(c.nnz(), shape, wide));
  const csr_matrix out = detail::with_index(c, index).matrix();
  return roundtrip ? detail::to_device(out, ma.device) : out;
}

}  // namespace cunp::sparse

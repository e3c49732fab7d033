// src/sparse/convert.cpp — conversions between COO, CSR, CSC and dense matrices.
//
// Note [Sparse conversions by sorting]: COO -> CSR sorts the entries by the key
// row * cols + col with a stable sort (sort_keys.cpp: a bounded CUB radix sort on CUDA
// devices, Note [Bounded radix sort]; a threaded stable sort on cpu), so duplicates stay
// in their input order and are then added left to right by one thread per run
// (segment_sum of csr_rows.h), as SciPy's sum_duplicates adds them. The sorted keys give
// the rows and columns back by division; the indptr comes from the sorted rows by
// compress_sorted (each entry writes the starts of the rows that begin at it), not by a
// search. CSR -> CSC is the same sort on the column index alone: a CSR's entries are
// already in row order and the sort is stable, so each column's rows come out
// ascending. cusparseCsr2cscEx2 does that transposition too (int32 indices, cuSPARSE's
// dtypes); CUNP_SPARSE_CSR2CSC=cusparse picks it on CUDA devices instead of the sort.
#include <cstdlib>
#include <cstring>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/sort.hpp"
#include "cunp/sparse.hpp"
#include "cunp/ufunc.hpp"
#include "sparse/common.hpp"
#include "sparse/cusparse.hpp"
#include "sparse/sort_keys.hpp"

namespace cunp::sparse {

using detail::Csr;

namespace {

// CUNP_SPARSE_CSR2CSC=cusparse: CSR -> CSC through cusparseCsr2cscEx2 where it applies.
bool csr2csc_by_cusparse() {
  static const bool on = [] {
    const char* v = std::getenv("CUNP_SPARSE_CSR2CSC");
    return v && std::strcmp(v, "cusparse") == 0;
  }();
  return on;
}

csr_matrix empty_csr(MatrixShape shape, DType data, DType index, Device device) {
  return {detail::empty_on(0, data, device), detail::empty_on(0, index, device),
          detail::zeros_on(shape.rows + 1, index, device), shape};
}

// The CSR of entries given by sorted keys (row * cols + col) and their values.
csr_matrix from_sorted_keys(const ndarray& keys, const ndarray& data, MatrixShape shape,
                            DType index) {
  const ndarray row = floor_divide(keys, shape.cols);
  const ndarray col = remainder(keys, shape.cols).astype(index);
  return {data, col, detail::compress_sorted(row, shape.rows, index), shape};
}

// The keys row * cols + col of the entries, unsigned, and the bits they need.
std::pair<ndarray, int> entry_keys(const ndarray& row, const ndarray& col, MatrixShape shape) {
  const auto bound =
      static_cast<std::uint64_t>(shape.rows) * static_cast<std::uint64_t>(shape.cols);
  const DType kt = detail::key_dtype(bound);
  return {add(multiply(row.astype(kt), shape.cols), col.astype(kt)), detail::key_bits(bound)};
}

}  // namespace

csr_matrix coo_to_csr(const coo_matrix& a, const CooToCsrOptions& options) {
  const char* who = "coo_to_csr";
  if (!a.data.defined() || a.data.ndim() != 1) throw ValueError("coo_to_csr: data must be 1-d");
  if (a.shape.rows < 0 || a.shape.cols < 0) throw ValueError("coo_to_csr: negative dimensions");
  detail::check_data_dtype(a.data.dtype(), who);
  const ndarray row = detail::as_index_array(a.row, "row", who);
  const ndarray col = detail::as_index_array(a.col, "col", who);
  if (row.size() != a.data.size() || col.size() != a.data.size())
    throw ValueError("coo_to_csr: row, column, and data array must all be the same length (" +
                     std::to_string(row.size()) + ", " + std::to_string(col.size()) + ", " +
                     std::to_string(a.data.size()) + ")");
  const Device device = a.data.device();
  detail::check_device(row, device, who);
  detail::check_device(col, device, who);
  const std::int64_t nnz = a.data.size();
  const DType index = options.index_dtype.value_or(
      index_dtype(nnz, a.shape, detail::wider_index(row.dtype(), col.dtype())));
  if (nnz == 0) return empty_csr(a.shape, a.data.dtype(), index, device);
  const ndarray data = ascontiguousarray(a.data);
  const auto [keys, bits] = entry_keys(row, col, a.shape);
  const detail::SortedKeys sk = detail::sort_keys(keys, bits);
  const ndarray& sorted = sk.keys;
  const ndarray& perm = sk.perm;
  if (!options.sum_duplicates)
    return from_sorted_keys(sorted, detail::gather(data, perm), a.shape, index);
  // A run starts where the key changes (Note [Sparse conversions by sorting]).
  const ndarray head = full({1}, true, {.dtype = DType::Bool, .device = device});
  const ndarray changes[] = {head, not_equal(sorted.view({slice(1, std::nullopt)}),
                                             sorted.view({slice(std::nullopt, -1)}))};
  const ndarray starts = flatnonzero(concatenate(changes));
  const std::int64_t runs = starts.size();
  ndarray summed;
  if (runs == nnz) {
    summed = detail::gather(data, perm);
  } else {
    // run j is [bounds[j], bounds[j + 1]), in perm's index dtype
    const ndarray tail = full({1}, nnz, {.dtype = perm.dtype(), .device = device});
    const ndarray bounds_parts[] = {starts.astype(perm.dtype()), tail};
    const ndarray bounds = concatenate(bounds_parts);
    summed = detail::empty_on(runs, data.dtype(), device);
    const sparse_ops::SegmentSumParams p{data.data(), perm.data(), bounds.data(), summed.data()};
    detail::run_row_kernel(device,
                           detail::spec(detail::RowKernel::SegmentSum, data.dtype(), perm.dtype()),
                           runs, p, nnz);
  }
  return from_sorted_keys(runs == nnz ? sorted : detail::gather(sorted, starts), summed, a.shape,
                          index);
}

coo_matrix csr_to_coo(const csr_matrix& a) {
  const Csr m = detail::prepare(a, "csr_to_coo");
  return {m.data, detail::expand_rows(m), m.indices, m.shape};
}

csc_matrix csr_to_csc(const csr_matrix& a, const IndexOptions& options) {
  const Csr m = detail::prepare(a, "csr_to_csc");
  const DType index = options.index_dtype.value_or(index_dtype(m.nnz(), m.shape, m.index));
  const MatrixShape t{m.shape.cols, m.shape.rows};
  if (m.nnz() == 0) {
    const csr_matrix e = empty_csr(t, m.data.dtype(), index, m.device);
    return {e.data, e.indices, e.indptr, m.shape};
  }
  if (m.device.is_cuda() && csr2csc_by_cusparse() && index == DType::Int32 &&
      m.index == DType::Int32 && detail::cusparse_dtype(m.data.dtype())) {
    const Csr c = detail::csr_to_csc_cusparse(m);
    return {c.data, c.indices, c.indptr, m.shape};
  }
  const auto bound = static_cast<std::uint64_t>(m.shape.cols);
  const detail::SortedKeys sk =
      detail::sort_keys(m.indices.astype(detail::key_dtype(bound)), detail::key_bits(bound));
  const ndarray& perm = sk.perm;
  const ndarray& cols = sk.keys;
  const ndarray rows = detail::gather(detail::expand_rows(m), perm);
  return {detail::gather(m.data, perm), rows.dtype() == index ? rows : rows.astype(index),
          detail::compress_sorted(cols, m.shape.cols, index), m.shape};
}

csr_matrix csc_to_csr(const csc_matrix& a, const IndexOptions& options) {
  const csc_matrix t = csr_to_csc(transpose(a), options);
  return {t.data, t.indices, t.indptr, a.shape};
}

ndarray to_dense(const csr_matrix& a, Order order) {
  const Csr m = detail::prepare(a, "to_dense");
  if (order != Order::C && order != Order::F)
    throw ValueError("to_dense: order must be 'C' or 'F'");
  ndarray out = zeros({m.shape.rows, m.shape.cols},
                      {.dtype = m.data.dtype(), .order = order, .device = m.device});
  if (m.nnz() == 0) return out;
  const std::int64_t item = out.itemsize();
  const sparse_ops::ToDenseParams p{m.data.data(),           m.indices.data(),
                                    m.indptr.data(),         out.data(),
                                    out.strides()[0] / item, out.strides()[1] / item};
  detail::run_row_kernel(m.device,
                         detail::spec(detail::RowKernel::ToDense, m.data.dtype(), m.index),
                         m.shape.rows, p, m.nnz() + m.shape.rows);
  return out;
}

csr_matrix from_dense(const ndarray& dense, const IndexOptions& options) {
  if (!dense.defined() || dense.ndim() != 2)
    throw ValueError("from_dense: expected a 2-d array, got " + std::to_string(dense.ndim()) +
                     "-d");
  detail::check_data_dtype(dense.dtype(), "from_dense");
  const MatrixShape shape{dense.shape()[0], dense.shape()[1]};
  const std::vector<ndarray> nz = nonzero(dense);
  const std::int64_t nnz = nz[0].size();
  const DType index = options.index_dtype.value_or(index_dtype(nnz, shape));
  if (nnz == 0) return empty_csr(shape, dense.dtype(), index, dense.device());
  const ndarray flat = add(multiply(nz[0], shape.cols), nz[1]);
  const ndarray data = detail::gather(dense.ravel(), flat);
  return {data, nz[1].astype(index), detail::compress_sorted(nz[0], shape.rows, index), shape};
}

}  // namespace cunp::sparse

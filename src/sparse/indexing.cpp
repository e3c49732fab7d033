// src/sparse/indexing.cpp — diagonals, row selection (A[rows], A[start:stop:step]) and
// column selection (A[:, cols]) of a CSR matrix.
//
// Note [Sparse row and column gathers]: both are built from cunp's array routines, so
// one code serves every device. A[rows]: the selected rows' lengths give the result's
// indptr by a prefix sum; expanding that indptr tells each result entry its result row,
// hence its source position (the source row's start plus its offset in the row), and
// two gathers move the indices and data. A[:, cols] is SciPy's csr_column_index: each
// stored entry of column j is repeated once per occurrence of j in cols (counts by
// bincount), the repeats' prefix sums give the indptr, expanding them gives each result
// entry its source entry, and the position among the repeats picks which occurrence of
// j (cols' positions sorted by column, stably) becomes the new column index.
#include "cunp/indexing.hpp"

#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/reduce.hpp"
#include "cunp/sort.hpp"
#include "cunp/sparse.hpp"
#include "cunp/statistics.hpp"
#include "cunp/ufunc.hpp"
#include "sparse/common.hpp"

namespace cunp::sparse {

using detail::Csr;

namespace {

// The positions of a 1-d integer array as int64 in [0, n) (negative ones count from the
// end); IndexError naming the first out-of-range value. Reads min and max back.
ndarray positions(const ndarray& index, std::int64_t n, Device device, const char* what) {
  const ndarray ix = detail::as_index_array(index, what, "sparse indexing").astype(DType::Int64);
  detail::check_device(ix, device, "sparse indexing");
  if (ix.size() == 0) return ix;
  const std::int64_t hi = cunp::max(ix).item().to_int64();
  const std::int64_t lo = cunp::min(ix).item().to_int64();
  if (hi >= n)
    throw IndexError(std::string(what) + " index (" + std::to_string(hi) + ") out of range");
  if (lo < -n)
    throw IndexError(std::string(what) + " index (" + std::to_string(lo) + ") out of range");
  if (lo >= 0) return ix;
  return where(less(ix, 0), add(ix, n), ix);
}

csr_matrix empty_rows(const Csr& m, std::int64_t rows, std::int64_t cols, DType index) {
  return {detail::empty_on(0, m.data.dtype(), m.device),
          detail::empty_on(0, index, m.device),
          detail::zeros_on(rows + 1, index, m.device),
          {rows, cols}};
}

// Python's slice.indices(n): the start, the step and the number of elements.
struct SliceRange {
  std::int64_t start, step, length;
};
SliceRange slice_range(std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                       std::optional<std::int64_t> step, std::int64_t n) {
  const std::int64_t st = step.value_or(1);
  if (st == 0) throw ValueError("slice step cannot be zero");
  auto clamp = [&](std::optional<std::int64_t> v, std::int64_t dflt) {
    if (!v) return dflt;
    std::int64_t x = *v < 0 ? *v + n : *v;
    if (x < 0) x = st < 0 ? -1 : 0;
    if (x >= n) x = st < 0 ? n - 1 : n;
    return x;
  };
  const std::int64_t b = clamp(start, st < 0 ? n - 1 : 0);
  const std::int64_t e = clamp(stop, st < 0 ? -1 : n);
  std::int64_t len = 0;
  if (st > 0 && e > b) len = (e - b + st - 1) / st;
  if (st < 0 && b > e) len = (b - e - st - 1) / (-st);
  return {b, st, len};
}

}  // namespace

ndarray diagonal(const csr_matrix& a, std::int64_t k) {
  const Csr m = detail::prepare(a, "diagonal");
  const std::int64_t row0 = k < 0 ? -k : 0, col0 = k > 0 ? k : 0;
  const std::int64_t len =
      std::max<std::int64_t>(0, std::min(m.shape.rows - row0, m.shape.cols - col0));
  ndarray out = detail::empty_on(len, m.data.dtype(), m.device);
  const sparse_ops::DiagonalParams p{
      m.data.data(), m.indices.data(), m.indptr.data(), out.data(), row0, col0};
  detail::run_row_kernel(m.device,
                         detail::spec(detail::RowKernel::Diagonal, m.data.dtype(), m.index), len, p,
                         m.nnz() + len);
  return out;
}

csr_matrix take_rows(const csr_matrix& a, const ndarray& rows) {
  const Csr m = detail::prepare(a, "take_rows");
  const ndarray r = positions(rows, m.shape.rows, m.device, "row");
  const std::int64_t n = r.size();
  const ndarray lengths = cunp::diff(m.indptr.astype(DType::Int64));
  const ndarray indptr = detail::prefix_sums(detail::gather(lengths, r));
  const std::int64_t total = detail::last_value(indptr);
  const DType index = index_dtype(total, {n, m.shape.cols}, m.index);
  if (total == 0)
    return {detail::empty_on(0, m.data.dtype(), m.device),
            detail::empty_on(0, index, m.device),
            indptr.astype(index),
            {n, m.shape.cols}};
  // Note [Sparse row and column gathers].
  const ndarray owner = detail::expand_indptr(indptr, total);
  const ndarray starts = detail::gather(m.indptr.astype(DType::Int64), detail::gather(r, owner));
  const ndarray offset =
      subtract(detail::arange_on(total, DType::Int64, m.device), detail::gather(indptr, owner));
  const ndarray src = add(starts, offset);
  const ndarray indices = detail::gather(m.indices, src);
  return {detail::gather(m.data, src),
          indices.dtype() == index ? indices : indices.astype(index),
          indptr.astype(index),
          {n, m.shape.cols}};
}

csr_matrix slice_rows(const csr_matrix& a, std::optional<std::int64_t> start,
                      std::optional<std::int64_t> stop, std::optional<std::int64_t> step) {
  const Csr m = detail::prepare(a, "slice_rows");
  const SliceRange s = slice_range(start, stop, step, m.shape.rows);
  if (s.length == 0) return empty_rows(m, 0, m.shape.cols, m.index);
  if (s.step != 1) {
    const ndarray rows = arange(Scalar(s.start), Scalar(s.start + s.step * s.length),
                                Scalar(s.step), {.dtype = DType::Int64, .device = m.device});
    return take_rows(m.matrix(), rows);
  }
  // A contiguous block of rows: its entries are one slice of data and indices.
  const std::int64_t b = m.indptr.item(s.start).to_int64();
  const std::int64_t e = m.indptr.item(s.start + s.length).to_int64();
  const ndarray ip = m.indptr.view({slice(s.start, s.start + s.length + 1)});
  return {m.data.view({slice(b, e)}).copy(),
          m.indices.view({slice(b, e)}).copy(),
          subtract(ip, Scalar(b)).astype(m.index),
          {s.length, m.shape.cols}};
}

csr_matrix take_cols(const csr_matrix& a, const ndarray& cols) {
  const Csr m = detail::prepare(a, "take_cols");
  const ndarray c = positions(cols, m.shape.cols, m.device, "column");
  const std::int64_t p = c.size();
  if (p == 0 || m.nnz() == 0)
    return empty_rows(m, m.shape.rows, p, index_dtype(0, {m.shape.rows, p}, m.index));
  // Note [Sparse row and column gathers].
  const ndarray counts = bincount(c, std::nullopt, m.shape.cols);
  const ndarray order = argsort(c, 0, {.kind = SortKind::Stable});
  const ndarray first = detail::prefix_sums(counts);  // where column j's positions start in `order`
  const ndarray repeats = detail::gather(counts, m.indices);
  const ndarray entry_starts = detail::prefix_sums(repeats);
  const std::int64_t total = detail::last_value(entry_starts);
  const DType index = index_dtype(total, {m.shape.rows, p}, m.index);
  const ndarray indptr = detail::gather(entry_starts, m.indptr).astype(index);
  if (total == 0)
    return {detail::empty_on(0, m.data.dtype(), m.device),
            detail::empty_on(0, index, m.device),
            indptr,
            {m.shape.rows, p}};
  const ndarray src = detail::expand_indptr(entry_starts, total);
  const ndarray within =
      subtract(detail::arange_on(total, DType::Int64, m.device), detail::gather(entry_starts, src));
  const ndarray slot = add(detail::gather(first, detail::gather(m.indices, src)), within);
  return {detail::gather(m.data, src),
          detail::gather(order, slot).astype(index),
          indptr,
          {m.shape.rows, p}};
}

}  // namespace cunp::sparse

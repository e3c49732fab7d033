// src/sparse/canonical.cpp — SciPy's canonical-format tests and the functions that
// bring a CSR to it or remove entries: sort_indices, sum_duplicates (a COO -> CSR
// round trip, Note [Sparse conversions by sorting]), eliminate_zeros and prune.
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/sort.hpp"
#include "cunp/sparse.hpp"
#include "cunp/ufunc.hpp"
#include "sparse/common.hpp"
#include "sparse/sort_keys.hpp"

namespace cunp::sparse {

using detail::Csr;

namespace {

bool rows_sorted(const Csr& m, bool strict) {
  if (m.shape.rows == 0 || m.nnz() == 0) return true;
  ndarray flags = detail::empty_on(m.shape.rows, DType::Bool, m.device);
  const sparse_ops::RowsSortedParams p{m.indptr.data(), m.indices.data(), flags.data(),
                                       strict ? 1 : 0};
  detail::run_row_kernel(m.device,
                         detail::spec(detail::RowKernel::RowsSorted, DType::Bool, m.index),
                         m.shape.rows, p, m.nnz() + m.shape.rows);
  return cunp::all(flags).item().to_bool();
}

csr_matrix copy_of(const Csr& m) {
  return {m.data.copy(), m.indices.copy(), m.indptr.copy(), m.shape};
}

}  // namespace

bool has_sorted_indices(const csr_matrix& a) {
  return rows_sorted(detail::prepare(a, "has_sorted_indices"), false);
}

bool has_canonical_format(const csr_matrix& a) {
  return rows_sorted(detail::prepare(a, "has_canonical_format"), true);
}

csr_matrix sort_indices(const csr_matrix& a) {
  const Csr m = detail::prepare(a, "sort_indices");
  if (m.nnz() == 0 || rows_sorted(m, false)) return copy_of(m);
  const auto bound =
      static_cast<std::uint64_t>(m.shape.rows) * static_cast<std::uint64_t>(m.shape.cols);
  const DType kt = detail::key_dtype(bound);
  const ndarray keys =
      add(multiply(detail::expand_rows(m).astype(kt), m.shape.cols), m.indices.astype(kt));
  const ndarray perm = detail::sort_keys(keys, detail::key_bits(bound)).perm;
  return {detail::gather(m.data, perm), detail::gather(m.indices, perm), m.indptr.copy(), m.shape};
}

csr_matrix sum_duplicates(const csr_matrix& a) {
  const Csr m = detail::prepare(a, "sum_duplicates");
  if (m.nnz() == 0 || rows_sorted(m, true)) return copy_of(m);
  const coo_matrix coo{m.data, detail::expand_rows(m), m.indices, m.shape};
  return coo_to_csr(coo, {.sum_duplicates = true, .index_dtype = m.index});
}

csr_matrix eliminate_zeros(const csr_matrix& a) {
  const Csr m = detail::prepare(a, "eliminate_zeros");
  if (m.nnz() == 0) return copy_of(m);
  return detail::filter_entries(m, not_equal(m.data, 0)).matrix();
}

csr_matrix prune(const csr_matrix& a) {
  if (!a.indptr.defined() || a.indptr.ndim() != 1 || a.indptr.size() != a.shape.rows + 1)
    throw ValueError("prune: index pointer size should be " + std::to_string(a.shape.rows + 1));
  const std::int64_t n = a.indptr.item(a.shape.rows).to_int64();
  if (n < 0 || a.indices.size() < n)
    throw ValueError("prune: indices array has fewer than nnz elements");
  if (a.data.size() < n) throw ValueError("prune: data array has fewer than nnz elements");
  const auto cut = [n](const ndarray& x) { return x.view({slice(0, n)}).copy(); };
  return {cut(a.data), cut(a.indices), a.indptr.copy(), a.shape};
}

}  // namespace cunp::sparse

// python/src/sparse_py.cpp — the compute primitives of cunpx.scipy.sparse as functions
// of cunp._core (`_sparse_*`), over the arrays of a matrix: a CSR is passed as
// (data, indices, indptr, shape), a COO as (data, row, col, shape), and a CSR result
// comes back as the tuple (data, indices, indptr). A CSC is the CSR of its transpose:
// pass its arrays with the shape reversed. docs/sparse-internals.md tables them all.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "convert.hpp"
#include "cunp/sparse.hpp"

namespace cunp::py {

namespace {

using sparse::csr_matrix;
using sparse::MatrixShape;

// The device of the first cunp array among `arrays`, else the current one.
Device device_of(std::initializer_list<nb::handle> arrays) {
  for (nb::handle h : arrays)
    if (nb::isinstance<ndarray>(h)) return nb::cast<const ndarray&>(h).device();
  return current_device();
}
ndarray arr(nb::handle h, Device device) { return as_cunp_array(h, device, std::nullopt); }

MatrixShape to_matrix_shape(nb::handle shape) {
  const Shape s = to_shape(shape);
  if (s.size() != 2)
    throw ValueError("a sparse matrix shape has two dimensions, not " + std::to_string(s.size()));
  return {s[0], s[1]};
}

csr_matrix csr(nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape) {
  const Device d = device_of({data, indices, indptr});
  return {arr(data, d), arr(indices, d), arr(indptr, d), to_matrix_shape(shape)};
}

nb::tuple triple(const csr_matrix& m) { return nb::make_tuple(m.data, m.indices, m.indptr); }

sparse::IndexOptions index_options(nb::handle index_dtype) {
  return {.index_dtype = to_optional_dtype(index_dtype)};
}

Order to_dense_order(nb::handle order) {
  const Order o = to_order(order, Order::C);
  if (o != Order::C && o != Order::F) throw ValueError("order must be 'C' or 'F'");
  return o;
}

std::optional<int> to_axis(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return nb::cast<int>(nb::int_(axis));
}

std::optional<std::int64_t> to_bound(nb::handle v) {
  if (v.is_none()) return std::nullopt;
  return nb::cast<std::int64_t>(nb::int_(v));
}

void bind_sparse(nb::module_& m) {
  using nb::arg;

  m.def(
      "_sparse_index_dtype",
      [](std::int64_t nnz, nb::handle shape) {
        return dtype_object(sparse::index_dtype(nnz, to_matrix_shape(shape)));
      },
      arg("nnz"), arg("shape"),
      "_sparse_index_dtype(nnz, shape) -> numpy.dtype\n\n"
      "int32 when nnz and both dimensions fit in it, else int64 (SciPy's get_index_dtype).");

  m.def(
      "_sparse_csr_check_format",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape,
         bool full_check) { sparse::check_format(csr(data, indices, indptr, shape), full_check); },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"), arg("full_check") = false,
      "_sparse_csr_check_format(data, indices, indptr, shape, full_check=False)\n\n"
      "ValueError unless the arrays form a CSR of `shape` (ranks and lengths; with full_check\n"
      "also indptr monotonic from 0 to nnz and every index in range: synchronizes).");

  // ---- conversions
  m.def(
      "_sparse_coo_to_csr",
      [](nb::handle data, nb::handle row, nb::handle col, nb::handle shape, bool sum_duplicates,
         nb::handle index_dtype) {
        const Device d = device_of({data, row, col});
        const sparse::coo_matrix coo{arr(data, d), arr(row, d), arr(col, d),
                                     to_matrix_shape(shape)};
        return triple(sparse::coo_to_csr(coo, {.sum_duplicates = sum_duplicates,
                                               .index_dtype = to_optional_dtype(index_dtype)}));
      },
      arg("data"), arg("row"), arg("col"), arg("shape"), arg("sum_duplicates") = true,
      arg("index_dtype").none() = nb::none(),
      "_sparse_coo_to_csr(data, row, col, shape, sum_duplicates=True, index_dtype=None)\n"
      "    -> (data, indices, indptr)\n\n"
      "COO -> CSR as scipy's tocsr: rows sorted by column, duplicates summed in input order\n"
      "(kept, in input order, when sum_duplicates is False). For COO -> CSC pass (data, col,\n"
      "row) and the reversed shape.");

  m.def(
      "_sparse_csr_to_coo",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape) {
        const sparse::coo_matrix c = sparse::csr_to_coo(csr(data, indices, indptr, shape));
        return nb::make_tuple(c.data, c.row, c.col);
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"),
      "_sparse_csr_to_coo(data, indices, indptr, shape) -> (data, row, col)\n\n"
      "The row of every entry; data and col are the input's arrays (shared, not copied).");

  m.def(
      "_sparse_csr_to_csc",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape,
         nb::handle index_dtype) {
        const sparse::csc_matrix c =
            sparse::csr_to_csc(csr(data, indices, indptr, shape), index_options(index_dtype));
        return nb::make_tuple(c.data, c.indices, c.indptr);
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"),
      arg("index_dtype").none() = nb::none(),
      "_sparse_csr_to_csc(data, indices, indptr, shape, index_dtype=None) -> (data, indices, "
      "indptr)\n\n"
      "The CSC arrays of the same matrix (indices are rows, indptr has shape[1] + 1 entries);\n"
      "each column keeps its entries' row order, duplicates stay. CSC -> CSR: pass the CSC's\n"
      "arrays with the reversed shape.");

  m.def(
      "_sparse_csr_to_dense",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape,
         nb::handle order) {
        return sparse::to_dense(csr(data, indices, indptr, shape), to_dense_order(order));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"), arg("order").none() = nb::none(),
      "_sparse_csr_to_dense(data, indices, indptr, shape, order='C') -> ndarray\n\n"
      "The dense matrix (duplicates summed), C- or F-ordered.");

  m.def(
      "_sparse_dense_to_csr",
      [](nb::handle a, nb::handle index_dtype) {
        return triple(sparse::from_dense(arr(a, device_of({a})), index_options(index_dtype)));
      },
      arg("a"), arg("index_dtype").none() = nb::none(),
      "_sparse_dense_to_csr(a, index_dtype=None) -> (data, indices, indptr)\n\n"
      "The non-zero elements of a 2-d array as a canonical CSR (NaN counts as non-zero).");

  // ---- canonical form
  m.def(
      "_sparse_csr_has_sorted_indices",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape) {
        return sparse::has_sorted_indices(csr(data, indices, indptr, shape));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"),
      "_sparse_csr_has_sorted_indices(data, indices, indptr, shape) -> bool\n\n"
      "Whether every row's indices ascend (synchronizes).");

  m.def(
      "_sparse_csr_has_canonical_format",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape) {
        return sparse::has_canonical_format(csr(data, indices, indptr, shape));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"),
      "_sparse_csr_has_canonical_format(data, indices, indptr, shape) -> bool\n\n"
      "Whether every row's indices strictly ascend: sorted, no duplicates (synchronizes).");

  m.def(
      "_sparse_csr_sort_indices",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape) {
        return triple(sparse::sort_indices(csr(data, indices, indptr, shape)));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"),
      "_sparse_csr_sort_indices(data, indices, indptr, shape) -> (data, indices, indptr)\n\n"
      "A copy with each row ordered by column (stable: duplicates keep their order).");

  m.def(
      "_sparse_csr_sum_duplicates",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape) {
        return triple(sparse::sum_duplicates(csr(data, indices, indptr, shape)));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"),
      "_sparse_csr_sum_duplicates(data, indices, indptr, shape) -> (data, indices, indptr)\n\n"
      "The canonical form: sorted rows, duplicates added in stored order; zeros stay.");

  m.def(
      "_sparse_csr_eliminate_zeros",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape) {
        return triple(sparse::eliminate_zeros(csr(data, indices, indptr, shape)));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"),
      "_sparse_csr_eliminate_zeros(data, indices, indptr, shape) -> (data, indices, indptr)\n\n"
      "Without the stored zeros; the other entries keep their order.");

  m.def(
      "_sparse_csr_prune",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape) {
        const Device d = device_of({data, indices, indptr});
        return triple(
            sparse::prune({arr(data, d), arr(indices, d), arr(indptr, d), to_matrix_shape(shape)}));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"),
      "_sparse_csr_prune(data, indices, indptr, shape) -> (data, indices, indptr)\n\n"
      "data and indices cut to indptr[-1] entries (copies); ValueError when shorter.");

  // ---- products
  m.def(
      "_sparse_csr_matvec",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape, nb::handle x,
         const std::string& op) {
        const csr_matrix a = csr(data, indices, indptr, shape);
        return sparse::matvec(a, arr(x, a.data.device()), sparse::parse_operation(op));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"), arg("x"), arg("op") = "N",
      "_sparse_csr_matvec(data, indices, indptr, shape, x, op='N') -> ndarray\n\n"
      "op(A) @ x for a 1-d x; op 'N' (A), 'T' (A.T) or 'H' (A.conj().T). dtype: result_type\n"
      "of data and x. cuSPARSE SpMV on CUDA devices. ValueError for a wrong length.");

  m.def(
      "_sparse_csr_matmat",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape, nb::handle b,
         const std::string& op) {
        const csr_matrix a = csr(data, indices, indptr, shape);
        return sparse::matmat(a, arr(b, a.data.device()), sparse::parse_operation(op));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"), arg("b"), arg("op") = "N",
      "_sparse_csr_matmat(data, indices, indptr, shape, b, op='N') -> ndarray\n\n"
      "op(A) @ b for a 2-d dense b of any layout (cuSPARSE SpMM on CUDA devices). The result\n"
      "is F-ordered when b is F-contiguous (and not C-contiguous), else C-ordered.");

  m.def(
      "_sparse_csr_matmul",
      [](nb::handle a_data, nb::handle a_indices, nb::handle a_indptr, nb::handle a_shape,
         nb::handle b_data, nb::handle b_indices, nb::handle b_indptr, nb::handle b_shape,
         nb::handle index_dtype) {
        return triple(sparse::matmul(csr(a_data, a_indices, a_indptr, a_shape),
                                     csr(b_data, b_indices, b_indptr, b_shape),
                                     index_options(index_dtype)));
      },
      arg("a_data"), arg("a_indices"), arg("a_indptr"), arg("a_shape"), arg("b_data"),
      arg("b_indices"), arg("b_indptr"), arg("b_shape"), arg("index_dtype").none() = nb::none(),
      "_sparse_csr_matmul(a_data, a_indices, a_indptr, a_shape, b_data, b_indices, b_indptr,\n"
      "                   b_shape, index_dtype=None) -> (data, indices, indptr)\n\n"
      "A @ B of two CSR matrices (cuSPARSE SpGEMM on CUDA devices; there products that cancel\n"
      "to zero stay stored, the cpu device drops them as SciPy does). Shape (A rows, B cols).");

  // ---- elementwise
  m.def(
      "_sparse_csr_binop",
      [](const std::string& op, nb::handle a_data, nb::handle a_indices, nb::handle a_indptr,
         nb::handle b_data, nb::handle b_indices, nb::handle b_indptr, nb::handle shape) {
        return triple(sparse::binary_op(csr(a_data, a_indices, a_indptr, shape),
                                        csr(b_data, b_indices, b_indptr, shape),
                                        sparse::parse_binary_op(op)));
      },
      arg("op"), arg("a_data"), arg("a_indices"), arg("a_indptr"), arg("b_data"), arg("b_indices"),
      arg("b_indptr"), arg("shape"),
      "_sparse_csr_binop(op, a_data, a_indices, a_indptr, b_data, b_indices, b_indptr, shape)\n"
      "    -> (data, indices, indptr)\n\n"
      "Elementwise op of two CSR matrices of one shape over the union of their patterns (an\n"
      "absent entry reads as zero), zero results not stored, canonical result. op: 'add',\n"
      "'subtract', 'multiply', 'maximum', 'minimum' (dtype result_type(A, B)) or 'not_equal',\n"
      "'less', 'greater' (bool): the operations with op(0, 0) == 0 (A >= B is not (A < B)).");

  // ---- reductions
  m.def(
      "_sparse_csr_sum",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape, nb::handle axis,
         nb::handle dtype) {
        return sparse::sum(csr(data, indices, indptr, shape), to_axis(axis),
                           to_optional_dtype(dtype));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"), arg("axis").none() = nb::none(),
      arg("dtype").none() = nb::none(),
      "_sparse_csr_sum(data, indices, indptr, shape, axis=None, dtype=None) -> ndarray\n\n"
      "Sum of every entry (0-d), or 1-d: per column (axis 0) or per row (axis 1). dtype: np.sum's\n"
      "(bool and signed -> int64, unsigned -> uint64) unless given.");

  m.def(
      "_sparse_csr_reduce",
      [](const std::string& op, nb::handle data, nb::handle indices, nb::handle indptr,
         nb::handle shape, nb::handle axis, bool explicit_only) {
        return sparse::reduce(csr(data, indices, indptr, shape), sparse::parse_reduce_op(op),
                              to_axis(axis), explicit_only);
      },
      arg("op"), arg("data"), arg("indices"), arg("indptr"), arg("shape"),
      arg("axis").none() = nb::none(), arg("explicit") = false,
      "_sparse_csr_reduce(op, data, indices, indptr, shape, axis=None, explicit=False) -> "
      "ndarray\n\n"
      "op 'max', 'min', 'argmax' or 'argmin' as the dense matrix gives it (implicit zeros count\n"
      "unless explicit; NaN propagates). axis None: 0-d (argmax: flat C index); 0/1: 1-d per\n"
      "column/row (values of the data dtype, arg-reductions int64). ValueError over a zero-size\n"
      "dimension.");

  // ---- indexing
  m.def(
      "_sparse_csr_diagonal",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape, std::int64_t k) {
        return sparse::diagonal(csr(data, indices, indptr, shape), k);
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"), arg("k") = 0,
      "_sparse_csr_diagonal(data, indices, indptr, shape, k=0) -> ndarray\n\n"
      "The k-th diagonal (duplicates summed), 1-d of the data dtype.");

  m.def(
      "_sparse_csr_take_rows",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape,
         nb::handle rows) {
        const csr_matrix a = csr(data, indices, indptr, shape);
        return triple(sparse::take_rows(a, arr(rows, a.data.device())));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"), arg("rows"),
      "_sparse_csr_take_rows(data, indices, indptr, shape, rows) -> (data, indices, indptr)\n\n"
      "A[rows] for a 1-d integer array (negative from the end, repeats and any order; IndexError\n"
      "out of range). Shape (len(rows), shape[1]).");

  m.def(
      "_sparse_csr_slice_rows",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape, nb::handle start,
         nb::handle stop, nb::handle step) {
        return triple(sparse::slice_rows(csr(data, indices, indptr, shape), to_bound(start),
                                         to_bound(stop), to_bound(step)));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"), arg("start").none() = nb::none(),
      arg("stop").none() = nb::none(), arg("step").none() = nb::none(),
      "_sparse_csr_slice_rows(data, indices, indptr, shape, start=None, stop=None, step=None)\n"
      "    -> (data, indices, indptr)\n\n"
      "A[start:stop:step] with Python's slice rules (copies). Rows: len(range(...)).");

  m.def(
      "_sparse_csr_take_cols",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape,
         nb::handle cols) {
        const csr_matrix a = csr(data, indices, indptr, shape);
        return triple(sparse::take_cols(a, arr(cols, a.data.device())));
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"), arg("cols"),
      "_sparse_csr_take_cols(data, indices, indptr, shape, cols) -> (data, indices, indptr)\n\n"
      "A[:, cols] for a 1-d integer array (negative from the end, repeats and any order;\n"
      "IndexError out of range). Shape (shape[0], len(cols)); rows keep their stored order.");

  // ---- solves
  m.def(
      "_sparse_csr_spsolve_triangular",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape, nb::handle b,
         bool lower, bool unit_diagonal) {
        const csr_matrix a = csr(data, indices, indptr, shape);
        return sparse::spsolve_triangular(a, arr(b, a.data.device()),
                                          {.lower = lower, .unit_diagonal = unit_diagonal});
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"), arg("b"), arg("lower") = true,
      arg("unit_diagonal") = false,
      "_sparse_csr_spsolve_triangular(data, indices, indptr, shape, b, lower=True,\n"
      "                               unit_diagonal=False) -> ndarray\n\n"
      "x with A x = b, A triangular (only that triangle and the diagonal are read); b 1-d or\n"
      "2-d, x of b's shape, dtype promote(promote(A, float32), b). LinAlgError for a zero or\n"
      "missing diagonal entry. cuSPARSE SpSV on CUDA devices.");

  m.def(
      "_sparse_csr_spsolve",
      [](nb::handle data, nb::handle indices, nb::handle indptr, nb::handle shape, nb::handle b) {
        const csr_matrix a = csr(data, indices, indptr, shape);
        const sparse::SolveResult r = sparse::spsolve(a, arr(b, a.data.device()));
        return nb::make_tuple(r.x, r.singular);
      },
      arg("data"), arg("indices"), arg("indptr"), arg("shape"), arg("b"),
      "_sparse_csr_spsolve(data, indices, indptr, shape, b) -> (x, singular)\n\n"
      "x with A x = b for a square A, b 1-d or 2-d; dtype promote(A's float type, b). singular:\n"
      "A is exactly singular, x is then all NaN (scipy warns MatrixRankWarning). CUDA devices:\n"
      "cuSOLVER sparse QR (int32 indices); cpu: dense LU, n <= 16384 (NotImplementedError above).");
}

}  // namespace

CUNP_PY_BINDINGS(bind_sparse);

}  // namespace cunp::py

"""The heavy primitives of cunpx.scipy.sparse, in one place: format conversion
(coo→csr, csr→csc), sorting and summing duplicates, products (SpMV, SpMM, SpGEMM),
elementwise combination of two matrices and segment reductions.

Every function here takes and returns cunp arrays (and Python ints for dimensions) and
is written with cunp array operations only (lexsort/argsort, cumsum, bincount, repeat,
searchsorted, ufunc.at, boolean compress), so it runs on every device; no Python loop
visits rows or stored entries.

Note [Sparse fast paths]: the compiled routines (cuSPARSE on CUDA devices, CSR loops on
cpu) come as ``cunp._core._sparse_<name>``. Each function below asks for its compiled
twin with ``_fast(name)`` first and falls back to the array-op version when the extension
has none, so switching a primitive to C++ touches this file alone. The compiled twin
takes the same arguments, in the same order, as the function here and returns the same
tuple; dtypes are NumPy dtypes, an elementwise operation or reduction is named by its
cunp ufunc's name (csr_binop's `op_name`; segment_reduce passes ``ufunc.__name__``).

The CSR routines read a compressed matrix as (n_major, n_minor, indptr, indices, data):
the same code serves CSC (a CSC matrix is the CSR matrix of its transpose).
"""
import numpy as _numpy

import cunp as _cunp
from cunp import _core

_INT64 = _numpy.dtype(_numpy.int64)


# Note [Compiled primitives]: the extension's sparse routines (src/sparse, cuSPARSE on
# CUDA devices) take the CSR as (data, indices, indptr, shape) and return
# (data, indices, indptr); the adapters below give them this module's signatures. A
# function without an adapter runs the composed cunp-array version.
def _matvec(op):
    def run(n, indptr, indices, data, x, out_dtype):
        rows = indptr.shape[0] - 1
        shape = (rows, x.shape[0]) if op == "N" else (rows, n)
        return _core._sparse_csr_matvec(data, indices, indptr, shape, x, op).astype(out_dtype, copy=False)
    return run


def _matmat(op):
    def run(n, indptr, indices, data, X, out_dtype):
        rows = indptr.shape[0] - 1
        shape = (rows, X.shape[0]) if op == "N" else (rows, n)
        return _core._sparse_csr_matmat(data, indices, indptr, shape, X, op).astype(out_dtype, copy=False)
    return run


def _coo_to_csr(n_major, n_minor, major, minor, data, idx_dtype, sum_duplicates=True):
    d, i, p = _core._sparse_coo_to_csr(data, major, minor, (n_major, n_minor), sum_duplicates,
                                       _numpy.dtype(fit_index_dtype(idx_dtype, major.shape[0])))
    return p, i, d


def _csr_to_csc(n_major, n_minor, indptr, indices, data, idx_dtype):
    d, i, p = _core._sparse_csr_to_csc(data, indices, indptr, (n_major, n_minor), _numpy.dtype(idx_dtype))
    return p, i, d


def _csr_spgemm(m, p, a, b, out_dtype, idx_dtype):
    (a_indptr, a_indices, a_data), (b_indptr, b_indices, b_data) = a, b
    k = b_indptr.shape[0] - 1
    d, i, ptr = _core._sparse_csr_matmul(a_data.astype(out_dtype, copy=False), a_indices, a_indptr, (m, k),
                                         b_data.astype(out_dtype, copy=False), b_indices, b_indptr, (k, p),
                                         _numpy.dtype(idx_dtype))
    d = d.astype(out_dtype, copy=False)
    # cuSPARSE keeps products that cancel to zero, and its row order is not documented as
    # sorted; SciPy's result has neither (the cpu routine already gives SciPy's).
    # Each fix-up runs only where needed: one check of the whole result (a reduction and
    # one transfer) is far cheaper than rebuilding or re-sorting a product of 2^28 entries.
    if d._device_str != "cpu":
        nz = d != 0
        if not bool(nz.all()):
            ptr, i, d = csr_eliminate(ptr, i, d, nz, ptr.dtype)
        if not csr_has_sorted_indices(ptr, i):
            i, d = csr_sort_indices(ptr, i, d)
    return ptr, i, d


_ADAPTERS = {"csr_spgemm": _csr_spgemm, "csr_matvec": _matvec("N"), "csr_matvec_transposed": _matvec("T"), "csr_matmat": _matmat("N"),
             "csr_matmat_transposed": _matmat("T"), "coo_to_csr": _coo_to_csr, "csr_to_csc": _csr_to_csc}


def _fast(name):
    if not hasattr(_core, "_sparse_csr_matvec"):
        return None
    return _ADAPTERS.get(name)


def _arange(n, dtype, like):
    return _cunp.arange(n, dtype=dtype, device=like.device)


def _zeros(shape, dtype, like):
    return _cunp.zeros(shape, dtype=dtype, device=like.device)


def expand_indptr(indptr, idx_dtype=None):
    """The major index of each stored entry (the row of each entry of a CSR matrix)."""
    fn = _fast("expand_indptr")
    if fn is not None:
        return fn(indptr, idx_dtype)
    n = indptr.shape[0] - 1
    dtype = indptr.dtype if idx_dtype is None else idx_dtype
    return _cunp.repeat(_arange(n, dtype, indptr), _cunp.diff(indptr))


def fit_index_dtype(idx_dtype, nnz):
    """int64 in place of `idx_dtype` when `nnz` entries do not fit int32 (an indptr
    holds nnz), else `idx_dtype`."""
    return _INT64 if nnz > _numpy.iinfo(_numpy.int32).max else _numpy.dtype(idx_dtype)


def counts_to_indptr(counts, idx_dtype):
    """indptr from the number of entries of each major line."""
    indptr = _zeros(counts.shape[0] + 1, idx_dtype, counts)
    if counts.shape[0]:
        indptr[1:] = _cunp.cumsum(counts)
    return indptr


def major_to_indptr(major, n_major, idx_dtype):
    """indptr of entries whose major indices (any order) are `major`."""
    return counts_to_indptr(_cunp.bincount(major, minlength=n_major), idx_dtype)


def _key_order(major, minor, n_major, n_minor):
    """The stable order sorting entries by (major, minor): one argsort of the int64 key
    major * n_minor + minor (a lexsort only where that key could overflow)."""
    if n_major * n_minor >= 2**63:
        return _cunp.lexsort((minor, major))
    key = major.astype(_INT64) * n_minor + minor.astype(_INT64)
    return _cunp.argsort(key, kind="stable")


def segment_sum(ids, values, n, out_dtype):
    """out[i] = sum of values[ids == i] (length n): bincount's weighted sums for
    floating and complex values (accumulated in float64), ufunc.at otherwise."""
    out_dtype = _numpy.dtype(out_dtype)
    if out_dtype.kind == "f" and ids.ndim == 1 and values.ndim == 1:
        return _cunp.bincount(ids, weights=values.astype(_numpy.float64), minlength=n).astype(out_dtype)
    if out_dtype.kind == "c" and ids.ndim == 1 and values.ndim == 1:
        v = values.astype(_numpy.complex128)
        re = _cunp.bincount(ids, weights=_cunp.real(v), minlength=n)
        im = _cunp.bincount(ids, weights=_cunp.imag(v), minlength=n)
        return (re + 1j * im).astype(out_dtype)
    out = _zeros((n,) + tuple(values.shape[1:]), out_dtype, values)
    if ids.shape[0]:
        _cunp.add.at(out, ids, values.astype(out_dtype))
    return out


def _sum_sorted_duplicates(major, minor, data):
    """Sums entries with equal (major, minor) keys that sit next to each other."""
    n = major.shape[0]
    if n < 2:
        return major, minor, data
    new = _cunp.ones(n, dtype=bool, device=major.device)
    new[1:] = (major[1:] != major[:-1]) | (minor[1:] != minor[:-1])
    if bool(new.all()):
        return major, minor, data
    group = _cunp.cumsum(new) - 1
    major, minor = major[new], minor[new]
    return major, minor, segment_sum(group, data, major.shape[0], data.dtype)


def coo_to_csr(n_major, n_minor, major, minor, data, idx_dtype, sum_duplicates=True):
    """(indptr, indices, data) of the entries (major, minor, data) in any order: sorted
    by major then minor, duplicates summed (kept, in input order, without
    `sum_duplicates`). Explicit zeros stay."""
    fn = _fast("coo_to_csr")
    if fn is not None:
        return fn(n_major, n_minor, major, minor, data, idx_dtype, sum_duplicates)
    if major.shape[0] == 0:
        return (_zeros(n_major + 1, idx_dtype, data), _zeros(0, idx_dtype, data), data.copy())
    order = _key_order(major, minor, n_major, n_minor) if sum_duplicates else _cunp.argsort(major, kind="stable")
    major, minor, data = major[order], minor[order], data[order]
    if sum_duplicates:
        major, minor, data = _sum_sorted_duplicates(major, minor, data)
    idx_dtype = fit_index_dtype(idx_dtype, minor.shape[0])
    return major_to_indptr(major, n_major, idx_dtype), minor.astype(idx_dtype), data


def csr_to_csc(n_major, n_minor, indptr, indices, data, idx_dtype):
    """The transpose's compressed form: (indptr, indices, data) of the same matrix
    compressed along the other axis, with sorted indices (duplicates kept)."""
    fn = _fast("csr_to_csc")
    if fn is not None:
        return fn(n_major, n_minor, indptr, indices, data, idx_dtype)
    major = expand_indptr(indptr, idx_dtype)
    # A stable sort by minor index keeps each minor line's entries in major order.
    order = _cunp.argsort(indices, kind="stable")
    return (major_to_indptr(indices, n_minor, idx_dtype), major[order], data[order])


def csr_has_sorted_indices(indptr, indices, strict=False):
    """Whether the indices increase along each major line (strictly: no duplicates)."""
    fn = _fast("csr_has_sorted_indices")
    if fn is not None:
        return fn(indptr, indices, strict)
    nnz = indices.shape[0]
    if nnz < 2:
        return True
    major = expand_indptr(indptr)
    same_line = major[1:] == major[:-1]
    step = indices[1:] > indices[:-1] if strict else indices[1:] >= indices[:-1]
    return bool((step | ~same_line).all())


def csr_sort_indices(indptr, indices, data):
    """(indices, data) with each major line's entries sorted by index (stable)."""
    fn = _fast("csr_sort_indices")
    if fn is not None:
        return fn(indptr, indices, data)
    if indices.shape[0] < 2:
        return indices.copy(), data.copy()
    order = _key_order(expand_indptr(indptr), indices, indptr.shape[0] - 1, int(indices.max()) + 1)
    return indices[order], data[order]


def csr_sum_duplicates(n_major, indptr, indices, data, idx_dtype):
    """The canonical form: sorted indices, duplicates summed (explicit zeros stay)."""
    fn = _fast("csr_sum_duplicates")
    if fn is not None:
        return fn(n_major, indptr, indices, data, idx_dtype)
    major = expand_indptr(indptr, idx_dtype)
    if indices.shape[0] > 1:
        order = _key_order(major, indices, n_major, int(indices.max()) + 1)
        major, indices, data = major[order], indices[order], data[order]
        major, indices, data = _sum_sorted_duplicates(major, indices, data)
    return major_to_indptr(major, n_major, idx_dtype), indices.astype(idx_dtype), data


def csr_eliminate(indptr, indices, data, keep, idx_dtype):
    """Keeps the entries where `keep` (a bool array over the entries) holds."""
    n_major = indptr.shape[0] - 1
    major = expand_indptr(indptr, idx_dtype)[keep]
    return major_to_indptr(major, n_major, idx_dtype), indices[keep], data[keep]


def csr_todense(n_major, n_minor, indptr, indices, data, out=None):
    """The dense (n_major, n_minor) array (duplicates summed) or its sum into `out`."""
    fn = _fast("csr_todense")
    if fn is not None:
        return fn(n_major, n_minor, indptr, indices, data, out)
    if out is None:
        out = _zeros((n_major, n_minor), data.dtype, data)
    if indices.shape[0]:
        _cunp.add.at(out, (expand_indptr(indptr), indices), data)
    return out


def csr_matvec(n_major, indptr, indices, data, x, out_dtype):
    """y = A @ x for the CSR matrix A (n_major rows) and a dense vector x."""
    fn = _fast("csr_matvec")
    if fn is not None:
        return fn(n_major, indptr, indices, data, x, out_dtype)
    prod = data.astype(out_dtype) * x[indices].astype(out_dtype)
    return segment_sum(expand_indptr(indptr), prod, n_major, out_dtype)


def csr_matvec_transposed(n_minor, indptr, indices, data, x, out_dtype):
    """y = A.T @ x for the CSR matrix A and a dense vector x (n_major entries)."""
    fn = _fast("csr_matvec_transposed")
    if fn is not None:
        return fn(n_minor, indptr, indices, data, x, out_dtype)
    prod = data.astype(out_dtype) * x[expand_indptr(indptr)].astype(out_dtype)
    return segment_sum(indices, prod, n_minor, out_dtype)


def csr_matmat(n_major, indptr, indices, data, X, out_dtype):
    """Y = A @ X for the CSR matrix A and a dense matrix X (k columns)."""
    fn = _fast("csr_matmat")
    if fn is not None:
        return fn(n_major, indptr, indices, data, X, out_dtype)
    Y = _zeros((n_major, X.shape[1]), out_dtype, data)
    if indices.shape[0] and X.shape[1]:
        prod = data.astype(out_dtype)[:, None] * X[indices].astype(out_dtype)
        _cunp.add.at(Y, expand_indptr(indptr), prod)
    return Y


def csr_matmat_transposed(n_minor, indptr, indices, data, X, out_dtype):
    """Y = A.T @ X for the CSR matrix A and a dense X with n_major rows."""
    fn = _fast("csr_matmat_transposed")
    if fn is not None:
        return fn(n_minor, indptr, indices, data, X, out_dtype)
    Y = _zeros((n_minor, X.shape[1]), out_dtype, data)
    if indices.shape[0] and X.shape[1]:
        prod = data.astype(out_dtype)[:, None] * X[expand_indptr(indptr)].astype(out_dtype)
        _cunp.add.at(Y, indices, prod)
    return Y


def csr_spgemm(m, p, a, b, out_dtype, idx_dtype):
    """C = A @ B for CSR matrices A (m rows) and B (p columns), each given as
    (indptr, indices, data): C's (indptr, indices, data), canonical, without the
    entries that sum to zero (as SciPy's csr_matmat drops them).

    Each stored A[i, k] is paired with the stored entries of row k of B (one expansion
    by repeat, as many products as the multiplication has), then the products are
    summed by (i, j)."""
    fn = _fast("csr_spgemm")
    if fn is not None:
        return fn(m, p, a, b, out_dtype, idx_dtype)
    a_indptr, a_indices, a_data = a
    b_indptr, b_indices, b_data = b
    like = a_data
    if a_indices.shape[0] == 0 or b_indices.shape[0] == 0:
        return (_zeros(m + 1, idx_dtype, like), _zeros(0, idx_dtype, like), _zeros(0, out_dtype, like))
    b_start = b_indptr[a_indices].astype(_INT64)
    counts = (b_indptr[a_indices + 1] - b_indptr[a_indices]).astype(_INT64)
    total = int(counts.sum())
    if total == 0:
        return (_zeros(m + 1, idx_dtype, like), _zeros(0, idx_dtype, like), _zeros(0, out_dtype, like))
    owner = _cunp.repeat(_arange(a_indices.shape[0], _INT64, like), counts)
    first = _cunp.cumsum(counts) - counts
    bpos = b_start[owner] + (_arange(total, _INT64, like) - first[owner])
    rows = expand_indptr(a_indptr, _INT64)[owner]
    cols = b_indices[bpos].astype(_INT64)
    vals = a_data.astype(out_dtype)[owner] * b_data.astype(out_dtype)[bpos]
    indptr, indices, data = coo_to_csr(m, p, rows, cols, vals, idx_dtype)
    nz = data != 0
    if not bool(nz.all()):
        indptr, indices, data = csr_eliminate(indptr, indices, data, nz, idx_dtype)
    return indptr, indices, data


def csr_binop(n_major, n_minor, a, b, op_name, out_dtype, idx_dtype):
    """op(A, B) elementwise for canonical compressed matrices A and B of one shape,
    each (indptr, indices, data), where op — the cunp ufunc named `op_name` (add,
    subtract, logical_xor, multiply, maximum, minimum, or a comparison) — has
    op(0, 0) == 0: evaluated over the union of the two patterns (an entry stored in one
    operand meets a zero from the other), results equal to zero (False) left out, as
    SciPy's csr_binop_csr does."""
    fn = _fast("csr_binop")
    if fn is not None:
        return fn(n_major, n_minor, a, b, op_name, out_dtype, idx_dtype)
    op = getattr(_cunp, op_name)
    like = a[2]
    keys = [expand_indptr(indptr, _INT64) * n_minor + indices.astype(_INT64) for indptr, indices, _ in (a, b)]
    na = keys[0].shape[0]
    allkeys = _cunp.concatenate(keys)
    if allkeys.shape[0] == 0:
        return (_zeros(n_major + 1, idx_dtype, like), _zeros(0, idx_dtype, like), _zeros(0, out_dtype, like))
    # One stable sort of both patterns: a key stored in both sits twice in a row, A's first.
    order = _cunp.argsort(allkeys, kind="stable")
    sorted_keys = allkeys[order]
    new = _cunp.ones(sorted_keys.shape[0], dtype=bool, device=like.device)
    new[1:] = sorted_keys[1:] != sorted_keys[:-1]
    group = _cunp.cumsum(new) - 1
    union = sorted_keys[new]
    from_a = order < na
    va = _zeros(union.shape[0], a[2].dtype, like)
    vb = _zeros(union.shape[0], b[2].dtype, like)
    va[group[from_a]] = a[2][order[from_a]]
    from_b = ~from_a
    vb[group[from_b]] = b[2][order[from_b] - na]
    result = op(va, vb)
    if result.dtype != out_dtype:
        result = result.astype(out_dtype)
    keep = result != 0
    union, result = union[keep], result[keep]
    major = union // n_minor if n_minor else union
    minor = union - major * n_minor
    idx_dtype = fit_index_dtype(idx_dtype, minor.shape[0])
    return major_to_indptr(major, n_major, idx_dtype), minor.astype(idx_dtype), result


def segment_reduce(ufunc, indptr, data, initial_empty):
    """ufunc.reduce of each major line's stored values ((n_major,) array); lines without
    entries get `initial_empty`. Used with maximum/minimum/fmax/fmin (the compiled twin
    gets the ufunc's name)."""
    fn = _fast("segment_reduce")
    if fn is not None:
        return fn(ufunc.__name__, indptr, data, initial_empty)
    n_major = indptr.shape[0] - 1
    out = _cunp.full(n_major, initial_empty, dtype=data.dtype, device=data.device)
    if data.shape[0]:
        starts = indptr[:-1]
        nonempty = indptr[1:] > starts
        out[nonempty] = data[starts[nonempty]]
        ufunc.at(out, expand_indptr(indptr), data)
    return out


def segment_first_missing(indptr, indices, n_minor):
    """For each major line of a canonical matrix, the first minor index with no stored
    entry (n_minor when the line is full)."""
    counts = _cunp.diff(indptr).astype(_INT64)
    out = counts.copy()  # a line holding 0..c-1 misses c first
    if indices.shape[0]:
        major = expand_indptr(indptr)
        pos = _arange(indices.shape[0], _INT64, indices) - indptr[:-1].astype(_INT64)[major]
        gap = indices.astype(_INT64) != pos
        _cunp.minimum.at(out, major[gap], pos[gap])
    return _cunp.minimum(out, n_minor)


def segment_arg_extreme(indptr, indices, data, extreme, n_minor, is_max, explicit=False):
    """SciPy's argmax/argmin of each major line of a canonical matrix with implicit
    zeros, given the line's extreme stored value `extreme`: the index of the first
    stored entry equal to it (a NaN matches a NaN) when it beats zero, the line is
    full or `explicit` asks for stored entries only; else the first implicit zero (or
    the stored extreme if it is a zero stored before that). Empty lines give 0."""
    n_major = indptr.shape[0] - 1
    counts = _cunp.diff(indptr)
    big = _numpy.iinfo(_numpy.int64).max
    first = _cunp.full(n_major, big, dtype=_INT64, device=data.device)
    if data.shape[0]:
        major = expand_indptr(indptr)
        target = extreme[major]
        hit = data == target
        if data.dtype.kind in "fc":
            hit = hit | (_cunp.isnan(data) & _cunp.isnan(target))
        _cunp.minimum.at(first, major[hit], indices.astype(_INT64)[hit])
    first = _cunp.where(first == big, 0, first)
    if explicit:
        return first
    zero = _zeros((), data.dtype, data)
    beats = extreme > zero if is_max else extreme < zero
    full = counts == n_minor
    missing = segment_first_missing(indptr, indices, n_minor)
    at_zero = _cunp.where(extreme == zero, _cunp.minimum(first, missing), missing)
    result = _cunp.where(beats | full, first, at_zero)
    return _cunp.where(counts == 0, 0, result)

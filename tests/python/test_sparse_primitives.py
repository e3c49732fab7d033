"""The sparse primitives of cunp._core (`_sparse_*`, the layer under cunpx.scipy.sparse)
against scipy.sparse and NumPy on every device. Matrices come in every awkward form:
empty, without entries, 1 x n, n x 1, with duplicates, unsorted rows and explicit
zeros. Values are small integers, so sums and products are exact in every dtype and
most comparisons are exact."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import cunp
from cunp import _core
from conftest import DEVICES

SHAPES = {"random": (9, 7), "no_entries": (5, 4), "row": (1, 12), "col": (12, 1), "zero_rows": (0, 3)}
KINDS = list(SHAPES)
DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64,
                                np.complex64, np.complex128)]
FLOAT_DTYPES = [np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128)]
_ids = [d.name for d in DTYPES]


def values(n, dtype, rng):
    """n small integers (zeros among them) of dtype."""
    v = rng.integers(-3, 4, size=n)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return v > 0
    if dtype.kind == "u":
        return np.abs(v).astype(dtype)
    if dtype.kind == "c":
        return (v + 1j * rng.integers(-2, 3, size=n)).astype(dtype)
    return v.astype(dtype)


def make(kind, dtype, rng, canonical=False):
    """A scipy csr_matrix built from its arrays (so duplicates and unsorted rows stay)."""
    m, n = SHAPES[kind]
    indices, indptr = [], [0]
    for i in range(m):
        count = 0 if kind in ("no_entries", "zero_rows") or i % 4 == 3 else int(rng.integers(0, min(2 * n, 6) + 1))
        cols = rng.integers(0, n, size=count)
        if canonical:
            cols = np.unique(cols)
        indices.extend(int(c) for c in cols)
        indptr.append(len(indices))
    data = values(len(indices), dtype, rng)
    return sp.csr_matrix((data, np.array(indices, np.int32), np.array(indptr, np.int32)), shape=(m, n))


def dev(m):
    """The CSR's arrays and shape as _sparse_* arguments: cunp arrays on the current device,
    copies (on cpu cunp.asarray shares NumPy's memory, and SciPy canonicalizes in place)."""
    return cunp.asarray(m.data.copy()), cunp.asarray(m.indices.copy()), cunp.asarray(m.indptr.copy()), m.shape


def triple_to_scipy(t, shape):
    data, indices, indptr = (a.get() for a in t)
    return sp.csr_matrix((data, indices, indptr), shape=shape)


def assert_csr_equal(t, want, exact_order=True):
    """cunp's (data, indices, indptr) against a scipy csr_matrix, arrays and dtypes."""
    data, indices, indptr = (a.get() for a in t)
    assert data.dtype == want.data.dtype
    assert indices.dtype == want.indices.dtype and indptr.dtype == want.indptr.dtype
    np.testing.assert_array_equal(indptr, want.indptr)
    if exact_order:
        np.testing.assert_array_equal(indices, want.indices)
        np.testing.assert_array_equal(data, want.data)
    else:
        np.testing.assert_array_equal(sp.csr_matrix((data, indices, indptr), shape=want.shape).toarray(),
                                      want.toarray())


def dense(m):
    return m.toarray()


# ---- conversions --------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids)
def test_coo_to_csr(device, kind, dtype, rng):
    coo = make(kind, dtype, rng).tocoo()
    order = rng.permutation(coo.nnz)  # any entry order
    row, col, data = coo.row[order], coo.col[order], coo.data[order]
    got = _core._sparse_coo_to_csr(cunp.asarray(data), cunp.asarray(row), cunp.asarray(col), coo.shape)
    want = sp.coo_matrix((data, (row, col)), shape=coo.shape).tocsr()
    want.sum_duplicates()
    assert_csr_equal(got, want)
    kept = _core._sparse_coo_to_csr(cunp.asarray(data), cunp.asarray(row), cunp.asarray(col), coo.shape,
                                    sum_duplicates=False)
    k = triple_to_scipy(kept, coo.shape)
    assert k.nnz == coo.nnz
    np.testing.assert_array_equal(k.toarray(), want.toarray())


def test_coo_to_csr_index_dtype(device, rng):
    coo = make("random", np.float64, rng).tocoo()
    args = (cunp.asarray(coo.data), cunp.asarray(coo.row.astype(np.int64)), cunp.asarray(coo.col), coo.shape)
    assert _core._sparse_coo_to_csr(*args)[1].dtype == np.int64  # an int64 input keeps int64 (SciPy's rule)
    assert _core._sparse_coo_to_csr(*args, index_dtype=np.int32)[2].dtype == np.int32
    assert _core._sparse_index_dtype(10, (3, 4)) == np.int32
    assert _core._sparse_index_dtype(2 ** 31, (3, 4)) == np.int64


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids)
def test_csr_to_coo_csc_dense(device, kind, dtype, rng):
    m = make(kind, dtype, rng)
    a = dev(m)
    data, row, col = (x.get() for x in _core._sparse_csr_to_coo(*a))
    want = m.tocoo()
    np.testing.assert_array_equal(row, want.row)
    np.testing.assert_array_equal(col, want.col)
    np.testing.assert_array_equal(data, want.data)
    # tocsc keeps duplicates, each column in row order, as SciPy's counting sort does
    assert_csr_equal(_core._sparse_csr_to_csc(*a), _csc_as_csr(m.tocsc()))
    for order in ("C", "F"):
        out = _core._sparse_csr_to_dense(*a, order=order)
        assert out.dtype == dtype and out.shape == m.shape
        assert out.flags.c_contiguous if order == "C" else out.flags.f_contiguous
        np.testing.assert_array_equal(out.get(), m.toarray())
    d = cunp.asarray(m.toarray())
    assert_csr_equal(_core._sparse_dense_to_csr(d), sp.csr_matrix(m.toarray()))


def _csc_as_csr(c):
    """A scipy csc_matrix's arrays as the CSR of its transpose."""
    return sp.csr_matrix((c.data, c.indices, c.indptr), shape=(c.shape[1], c.shape[0]))


def test_dense_to_csr_nan_and_layout(device):
    a = np.array([[0, np.nan, 0], [1.5, 0, -0.0], [0, 0, 2]])
    got = triple_to_scipy(_core._sparse_dense_to_csr(cunp.asarray(np.asfortranarray(a))), a.shape)
    np.testing.assert_array_equal(got.indices, [1, 0, 2])
    np.testing.assert_array_equal(got.toarray(), a)
    with pytest.raises(ValueError):
        _core._sparse_dense_to_csr(cunp.asarray(np.zeros(3)))


# ---- canonical form -----------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids)
def test_canonical_form(device, kind, dtype, rng):
    m = make(kind, dtype, rng)
    a = dev(m)
    assert _core._sparse_csr_has_sorted_indices(*a) == m.has_sorted_indices
    assert _core._sparse_csr_has_canonical_format(*a) == sp.csr_matrix(m).has_canonical_format
    s = _core._sparse_csr_sort_indices(*a)
    ss = triple_to_scipy(s, m.shape)
    assert ss.has_sorted_indices
    np.testing.assert_array_equal(ss.toarray(), m.toarray())
    want = m.copy()
    want.sum_duplicates()
    assert_csr_equal(_core._sparse_csr_sum_duplicates(*a), want)
    want_nz = m.copy()
    want_nz.eliminate_zeros()
    assert_csr_equal(_core._sparse_csr_eliminate_zeros(*a), want_nz)


def test_prune_and_check_format(device):
    data, indices, indptr = cunp.asarray([1.0, 2.0, 9.0]), cunp.asarray([0, 1, 2]), cunp.asarray([0, 1, 2])
    p = _core._sparse_csr_prune(data, indices, indptr, (2, 3))
    np.testing.assert_array_equal(p[0].get(), [1.0, 2.0])
    with pytest.raises(ValueError):
        _core._sparse_csr_check_format(data, indices, indptr, (2, 3), full_check=True)
    _core._sparse_csr_check_format(data, indices, indptr, (2, 3))  # shapes only: fine
    with pytest.raises(ValueError, match="index pointer"):
        _core._sparse_csr_check_format(data, indices, cunp.asarray([0, 1]), (2, 3))
    with pytest.raises(ValueError, match="column index"):
        _core._sparse_csr_check_format(data[:2], cunp.asarray([0, 3]), indptr, (2, 3), full_check=True)
    with pytest.raises(ValueError, match="float16"):
        _core._sparse_csr_to_dense(data.astype(np.float16), indices, cunp.asarray([0, 1, 3]), (2, 3))
    with pytest.raises(TypeError):
        _core._sparse_csr_to_dense(data, indices.astype(np.float64), cunp.asarray([0, 1, 3]), (2, 3))


# ---- products -----------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids)
def test_matvec(device, kind, dtype, rng):
    m = make(kind, dtype, rng)
    a = dev(m)
    x = values(m.shape[1], dtype, rng)
    xt = values(m.shape[0], dtype, rng)
    y = _core._sparse_csr_matvec(*a, cunp.asarray(x))
    want = m @ x
    assert y.dtype == want.dtype and y.shape == want.shape
    np.testing.assert_array_equal(y.get(), want)
    np.testing.assert_array_equal(_core._sparse_csr_matvec(*a, cunp.asarray(xt), op="T").get(), m.T @ xt)
    np.testing.assert_array_equal(_core._sparse_csr_matvec(*a, cunp.asarray(xt), op="H").get(), m.conj().T @ xt)
    with pytest.raises(ValueError, match="dimension mismatch"):
        _core._sparse_csr_matvec(*a, cunp.asarray(np.ones(m.shape[1] + 1, dtype)))


def test_matvec_mixed_dtypes(device, rng):
    m = make("random", np.int32, rng)
    x = rng.standard_normal(m.shape[1]).astype(np.float32)
    y = _core._sparse_csr_matvec(*dev(m), cunp.asarray(x))
    want = m @ x
    assert y.dtype == want.dtype == np.float64
    np.testing.assert_allclose(y.get(), want, rtol=1e-6)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids)
@pytest.mark.parametrize("layout", ["C", "F"])
def test_matmat(device, kind, dtype, layout, rng):
    m = make(kind, dtype, rng)
    a = dev(m)
    b = values(m.shape[1] * 3, dtype, rng).reshape(m.shape[1], 3)
    b = np.asfortranarray(b) if layout == "F" else b
    c = _core._sparse_csr_matmat(*a, cunp.asarray(b))
    want = m @ b
    assert c.dtype == want.dtype and c.shape == want.shape
    np.testing.assert_array_equal(c.get(), want)
    bt = values(m.shape[0] * 2, dtype, rng).reshape(m.shape[0], 2)
    np.testing.assert_array_equal(_core._sparse_csr_matmat(*a, cunp.asarray(bt), op="T").get(), m.T @ bt)
    np.testing.assert_array_equal(_core._sparse_csr_matmat(*a, cunp.asarray(bt), op="H").get(), m.conj().T @ bt)
    strided = cunp.asarray(np.ascontiguousarray(np.repeat(b, 2, axis=1)))[:, ::2]  # neither C nor F
    np.testing.assert_array_equal(_core._sparse_csr_matmat(*a, strided).get(), want)


@pytest.mark.parametrize("kind", ["random", "no_entries", "row", "col"])
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids)
def test_matmul(device, kind, dtype, rng):
    m = make(kind, dtype, rng)
    b = sp.csr_matrix(values(m.shape[1] * 5, dtype, rng).reshape(m.shape[1], 5) * (rng.random((m.shape[1], 5)) < 0.5))
    b = sp.csr_matrix((b.data.astype(dtype), b.indices, b.indptr), shape=b.shape)
    got = _core._sparse_csr_matmul(*dev(m), *dev(b))
    want = m @ b
    c = triple_to_scipy(got, want.shape)
    assert c.dtype == want.dtype
    np.testing.assert_array_equal(c.toarray(), want.toarray())
    if device == "cpu":  # SciPy's result: sorted, zero results dropped
        assert c.has_canonical_format and np.all(c.data != 0)
    with pytest.raises(ValueError, match="dimension mismatch"):
        _core._sparse_csr_matmul(*dev(m), *dev(make("random", dtype, rng)))


# ---- elementwise --------------------------------------------------------------------

OPS = {
    "add": lambda x, y: x + y,
    "subtract": lambda x, y: x - y,
    "multiply": lambda x, y: x * y,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "not_equal": lambda x, y: x != y,
    "less": lambda x, y: x < y,
    "greater": lambda x, y: x > y,
}


@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids)
def test_binop(device, op, kind, dtype, rng):
    ma, mb = make(kind, dtype, rng), make(kind, dtype, rng)
    if op == "subtract" and dtype == np.bool_:
        with pytest.raises(TypeError):
            _core._sparse_csr_binop(op, *dev(ma)[:3], *dev(mb))
        return
    got = triple_to_scipy(_core._sparse_csr_binop(op, *dev(ma)[:3], *dev(mb)), ma.shape)
    want = OPS[op](ma.toarray(), mb.toarray())
    assert got.dtype == want.dtype
    assert got.has_canonical_format and np.all(got.data != 0)
    np.testing.assert_array_equal(got.toarray(), want)
    if op in ("add", "multiply", "not_equal"):  # and SciPy's own result, entry for entry
        ref = {"add": ma + mb, "multiply": ma.multiply(mb), "not_equal": ma != mb}[op].tocsr()
        ref.sum_duplicates()
        ref.eliminate_zeros()
        assert got.nnz == ref.nnz


def test_binop_mixed_dtypes_and_shapes(device, rng):
    ma, mb = make("random", np.int8, rng), make("random", np.float32, rng)
    got = _core._sparse_csr_binop("add", *dev(ma)[:3], *dev(mb))
    assert got[0].dtype == np.float32
    np.testing.assert_array_equal(triple_to_scipy(got, ma.shape).toarray(), ma.toarray() + mb.toarray())
    with pytest.raises(ValueError):
        _core._sparse_csr_binop("add", *dev(ma)[:3], *dev(make("row", np.int8, rng)))
    with pytest.raises(ValueError):
        _core._sparse_csr_binop("less_equal", *dev(ma)[:3], *dev(ma))


# ---- reductions ---------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids)
def test_sum(device, kind, dtype, rng):
    m = make(kind, dtype, rng)
    a = dev(m)
    for axis in (None, 0, 1, -1):
        got = _core._sparse_csr_sum(*a, axis=axis)
        want = np.asarray(m.sum(axis=axis))
        want = want.reshape(()) if axis is None else want.ravel()
        assert got.dtype == want.dtype, axis
        np.testing.assert_array_equal(got.get(), want)
    to = np.complex64 if dtype.kind == "c" else np.float32
    got = _core._sparse_csr_sum(*a, axis=0, dtype=to)
    assert got.dtype == to
    np.testing.assert_array_equal(got.get(), np.asarray(m.sum(axis=0, dtype=to)).ravel())


@pytest.mark.parametrize("op", ["max", "min", "argmax", "argmin"])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids)
def test_reduce(device, op, kind, dtype, rng):
    m = make(kind, dtype, rng)
    a = dev(m)
    d = m.toarray()
    for axis in (None, 0, 1):
        empty = d.size == 0 if axis is None else d.shape[axis] == 0
        if empty:
            with pytest.raises(ValueError):
                _core._sparse_csr_reduce(op, *a, axis=axis)
            continue
        got = _core._sparse_csr_reduce(op, *a, axis=axis)
        want = getattr(d, op)(axis=axis)  # the dense matrix is the oracle (Note [Sparse reductions])
        if op.startswith("arg"):
            assert got.dtype == np.int64
        else:
            assert got.dtype == dtype
        np.testing.assert_array_equal(got.get(), want, err_msg="axis=%s" % axis)
        if op in ("max", "min") and axis is not None:  # SciPy agrees on max/min values
            np.testing.assert_array_equal(got.get(), np.asarray(getattr(m, op)(axis=axis).toarray()).ravel())


def test_reduce_explicit_and_nan(device):
    m = sp.csr_matrix((np.array([-1.0, -2.0, np.nan, 3.0]), np.array([1, 0, 2, 1]), np.array([0, 2, 2, 4])),
                      shape=(3, 3))
    a = dev(m)
    np.testing.assert_array_equal(_core._sparse_csr_reduce("max", *a, axis=1).get(), [0.0, 0.0, np.nan])
    np.testing.assert_array_equal(_core._sparse_csr_reduce("max", *a, axis=1, explicit=True).get(),
                                  np.asarray(m.max(axis=1, explicit=True).toarray()).ravel())
    np.testing.assert_array_equal(_core._sparse_csr_reduce("argmax", *a, axis=1).get(), [2, 0, 2])
    assert int(_core._sparse_csr_reduce("argmax", *a).get()) == np.argmax(m.toarray()) == 8
    assert np.isnan(float(_core._sparse_csr_reduce("min", *a).get()))
    # explicit: the stored entries only, NaN first as np.argmin has it: (2, 2)
    assert int(_core._sparse_csr_reduce("argmin", *a, explicit=True).get()) == 8
    m2 = sp.csr_matrix((np.array([-1.0, -2.0, 3.0]), np.array([1, 0, 1]), np.array([0, 2, 2, 3])), shape=(3, 3))
    assert int(_core._sparse_csr_reduce("argmin", *dev(m2), explicit=True).get()) == 0  # (0, 0): -2
    assert int(_core._sparse_csr_reduce("argmax", *dev(m2), explicit=True).get()) == 7  # (2, 1): 3
    empty = dev(sp.csr_matrix((3, 4), dtype=np.float64))
    with pytest.raises(ValueError, match="explicit"):
        _core._sparse_csr_reduce("argmax", *empty, explicit=True)
    assert int(_core._sparse_csr_reduce("argmax", *empty).get()) == 0
    with pytest.raises(ValueError):
        _core._sparse_csr_reduce("mean", *empty)


# ---- indexing -----------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids)
def test_diagonal(device, kind, dtype, rng):
    m = make(kind, dtype, rng)
    for k in (-3, -1, 0, 1, 2, 13):
        got = _core._sparse_csr_diagonal(*dev(m), k=k)
        want = m.diagonal(k)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("kind", ["random", "no_entries", "row", "col"])
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids)
def test_row_and_column_selection(device, kind, dtype, rng):
    m = make(kind, dtype, rng)
    a = dev(m)
    rows = rng.integers(-m.shape[0], m.shape[0], size=7)
    got = _core._sparse_csr_take_rows(*a, cunp.asarray(rows))
    np.testing.assert_array_equal(triple_to_scipy(got, (7, m.shape[1])).toarray(), m[rows].toarray())
    for s in (slice(1, 4), slice(None, None, 2), slice(None, None, -1), slice(-2, None), slice(3, 1)):
        want = m[s]
        got = _core._sparse_csr_slice_rows(*a, s.start, s.stop, s.step)
        np.testing.assert_array_equal(triple_to_scipy(got, want.shape).toarray(), want.toarray(), err_msg=str(s))
    cols = rng.integers(-m.shape[1], m.shape[1], size=6)
    got = _core._sparse_csr_take_cols(*a, cunp.asarray(cols))
    np.testing.assert_array_equal(triple_to_scipy(got, (m.shape[0], 6)).toarray(), m[:, cols].toarray())
    with pytest.raises(IndexError):
        _core._sparse_csr_take_rows(*a, cunp.asarray([m.shape[0]]))
    with pytest.raises(IndexError):
        _core._sparse_csr_take_cols(*a, cunp.asarray([-m.shape[1] - 1]))
    with pytest.raises(TypeError):
        _core._sparse_csr_take_rows(*a, cunp.asarray([0.5]))


# ---- solves -------------------------------------------------------------------------

def _triangular(n, dtype, rng, lower):
    d = rng.standard_normal((n, n)) * (rng.random((n, n)) < 0.4)
    d = np.tril(d) if lower else np.triu(d)
    d[np.diag_indices(n)] = rng.uniform(1, 2, n) * np.where(rng.random(n) < 0.5, -1, 1)
    if np.dtype(dtype).kind == "c":
        d = d + 1j * (d != 0) * rng.standard_normal((n, n))
    return sp.csr_matrix(d.astype(dtype))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + [np.dtype(np.int64)], ids=lambda d: d.name)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("bshape", [(12,), (12, 3)])
def test_spsolve_triangular(device, dtype, lower, bshape, rng):
    if dtype == np.int64:
        m = sp.csr_matrix(np.tril(rng.integers(1, 4, (12, 12))) if lower else np.triu(rng.integers(1, 4, (12, 12))))
    else:
        m = _triangular(12, dtype, rng, lower)
    b = rng.standard_normal(bshape).astype(dtype if dtype != np.int64 else np.float64)
    got = _core._sparse_csr_spsolve_triangular(*dev(m), cunp.asarray(b), lower=lower)
    want = spla.spsolve_triangular(m, b, lower=lower)
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 1e-4 if want.dtype in (np.float32, np.complex64) else 1e-10
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)
    unit = _core._sparse_csr_spsolve_triangular(*dev(m), cunp.asarray(b), lower=lower, unit_diagonal=True)
    np.testing.assert_allclose(unit.get(), spla.spsolve_triangular(m, b, lower=lower, unit_diagonal=True),
                               rtol=tol, atol=tol)


@pytest.mark.parametrize("lower", [True, False])
def test_spsolve_triangular_reads_one_triangle(device, lower, rng):
    d = rng.standard_normal((9, 9)) * (rng.random((9, 9)) < 0.5) + np.eye(9) * 3
    b = rng.standard_normal(9)
    got = _core._sparse_csr_spsolve_triangular(*dev(sp.csr_matrix(d)), cunp.asarray(b), lower=lower)
    tri = np.tril(d) if lower else np.triu(d)
    np.testing.assert_allclose(got.get(), np.linalg.solve(tri, b), rtol=1e-10, atol=1e-12)


def test_spsolve_triangular_errors(device):
    m = sp.csr_matrix(np.array([[1.0, 0], [2.0, 0]]))
    with pytest.raises(np.linalg.LinAlgError):
        _core._sparse_csr_spsolve_triangular(*dev(m), cunp.asarray([1.0, 1.0]))
    with pytest.raises(ValueError):
        _core._sparse_csr_spsolve_triangular(*dev(m), cunp.asarray([1.0, 1.0, 1.0]))
    with pytest.raises(ValueError):
        _core._sparse_csr_spsolve_triangular(*dev(sp.csr_matrix(np.ones((2, 3)))), cunp.asarray([1.0, 1.0]))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + [np.dtype(np.int32)], ids=lambda d: d.name)
@pytest.mark.parametrize("bshape", [(10,), (10, 2)])
def test_spsolve(device, dtype, bshape, rng):
    d = rng.standard_normal((10, 10)) * (rng.random((10, 10)) < 0.3) + np.eye(10) * 4
    if np.dtype(dtype).kind == "c":
        d = d + 1j * rng.standard_normal((10, 10)) * (d != 0)
    m = sp.csr_matrix(d.astype(dtype) if dtype != np.int32 else np.round(d).astype(np.int32))
    b = rng.standard_normal(bshape)
    x, singular = _core._sparse_csr_spsolve(*dev(m), cunp.asarray(b))
    want = spla.spsolve(m.tocsc(), b)
    assert not singular
    assert x.dtype == want.dtype and x.shape == want.shape
    np.testing.assert_allclose(x.get(), want, rtol=1e-4 if dtype == np.complex64 else 1e-9, atol=1e-6)


def test_spsolve_singular(device):
    m = sp.csr_matrix(np.array([[1.0, 2.0], [2.0, 4.0]]))
    x, singular = _core._sparse_csr_spsolve(*dev(m), cunp.asarray([1.0, 2.0]))
    assert singular and np.all(np.isnan(x.get()))
    x, singular = _core._sparse_csr_spsolve(*dev(sp.csr_matrix((3, 3))), cunp.asarray([1.0, 2.0, 3.0]))
    assert singular and x.shape == (3,) and np.all(np.isnan(x.get()))
    # a unit triangle without entries: x = b
    x = _core._sparse_csr_spsolve_triangular(*dev(sp.csr_matrix((3, 3), dtype=np.float32)),
                                             cunp.asarray([1.0, 2.0, 3.0]), unit_diagonal=True)
    np.testing.assert_array_equal(x.get(), [1.0, 2.0, 3.0])
    assert x.dtype == np.float64


# ---- devices ------------------------------------------------------------------------

@pytest.mark.skipif("cuda" not in DEVICES, reason="needs a CUDA device")
def test_arrays_on_two_devices(rng):
    m = make("random", np.float64, rng)
    with cunp.Device("cpu"):
        data = cunp.asarray(m.data)
    with cunp.Device("cuda:0"):
        indices, indptr = cunp.asarray(m.indices), cunp.asarray(m.indptr)
    with pytest.raises(ValueError, match="devices"):
        _core._sparse_csr_to_dense(data, indices, indptr, m.shape)


@pytest.mark.skipif("cuda" not in DEVICES, reason="needs a CUDA device")
def test_csr_to_csc_through_cusparse():
    """CUNP_SPARSE_CSR2CSC=cusparse (read once per process): cusparseCsr2cscEx2 gives the
    same CSC as the sort."""
    import os
    import subprocess
    import sys
    code = (
        "import numpy as np, scipy.sparse as sp, cunp\n"
        "from cunp import _core\n"
        "m = sp.random(300, 200, density=0.05, format='csr', random_state=3, dtype=np.float32)\n"
        "with cunp.Device('cuda:0'):\n"
        "    t = _core._sparse_csr_to_csc(*(cunp.asarray(x) for x in (m.data, m.indices, m.indptr)), m.shape)\n"
        "c = m.tocsc()\n"
        "assert all(np.array_equal(a.get(), b) for a, b in zip(t, (c.data, c.indices, c.indptr)))\n")
    env = dict(os.environ, CUNP_SPARSE_CSR2CSC="cusparse")
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=300)

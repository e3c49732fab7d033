"""Shared inputs and the SciPy oracle for the cunpx.scipy.sparse tests: random sparse
matrices with duplicates, unsorted indices and explicit zeros built identically for
scipy.sparse and cunpx.scipy.sparse, and `check`, which compares a cunpx result with
SciPy's (type flavour, format, shape, dtype and values)."""
import numpy
import scipy.sparse as ss

import cunp
import cunpx.scipy.sparse as cs
from helpers import test_rng

FORMATS = ["csr", "csc", "coo", "dia"]
KINDS = ["array", "matrix"]
DTYPES = [numpy.dtype(t) for t in (numpy.bool_, numpy.int8, numpy.int64, numpy.uint16, numpy.float32, numpy.float64,
                                   numpy.complex64, numpy.complex128)]
# Shapes: empty, a row, a column, square and tall.
SHAPES = [(0, 0), (0, 3), (1, 5), (5, 1), (4, 4), (6, 3)]


def classes(fmt, kind):
    """(SciPy class, cunpx class) of a format and flavour."""
    name = "%s_%s" % (fmt, kind)
    return getattr(ss, name), getattr(cs, name)


def values(n, dtype, rng):
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, n).astype(dtype)
    if dtype.kind in "iu":
        return rng.integers(0 if dtype.kind == "u" else -5, 6, n).astype(dtype)
    if dtype.kind == "f":
        return rng.integers(-8, 9, n).astype(dtype) / 2
    return (rng.integers(-8, 9, n) + 1j * rng.integers(-8, 9, n)).astype(dtype) / 2


def triplets(shape, dtype, density=0.4, duplicates=True, zeros=True, rng=None):
    """(data, row, col) host arrays: random positions, some repeated, some values 0."""
    rng = rng or test_rng()
    M, N = shape
    nnz = int(round(density * M * N))
    if M * N == 0:
        nnz = 0
    row = rng.integers(0, max(M, 1), nnz)
    col = rng.integers(0, max(N, 1), nnz)
    if duplicates and nnz > 1:
        row = numpy.concatenate([row, row[: nnz // 3]])
        col = numpy.concatenate([col, col[: nnz // 3]])
    data = values(row.shape[0], dtype, rng)
    if zeros and data.shape[0] > 2:
        data[::5] = 0
    return data, row.astype(numpy.int32), col.astype(numpy.int32)


def compressed_arrays(shape, fmt, data, row, col, rng=None):
    """(data, indices, indptr) of the triplets in CSR/CSC, each line's entries in a
    random order (unsorted indices, duplicates kept)."""
    rng = rng or test_rng()
    major, minor = (row, col) if fmt == "csr" else (col, row)
    n_major = shape[0] if fmt == "csr" else shape[1]
    perm = rng.permutation(major.shape[0])
    order = perm[numpy.argsort(major[perm], kind="stable")]
    indptr = numpy.zeros(n_major + 1, dtype=numpy.int32)
    numpy.cumsum(numpy.bincount(major, minlength=n_major), out=indptr[1:])
    return data[order], minor[order].astype(numpy.int32), indptr


def pair(fmt, kind, shape, dtype, density=0.4, duplicates=True, zeros=True, rng=None):
    """The same random matrix as (SciPy object, cunpx object) on the current device."""
    rng = rng or test_rng()
    host_cls, cls = classes(fmt, kind)
    data, row, col = triplets(shape, dtype, density, duplicates, zeros, rng)
    if fmt in ("csr", "csc"):
        d, ind, ptr = compressed_arrays(shape, fmt, data, row, col, rng)
        # cunp.asarray may share a host array's memory on cpu: SciPy gets its own copies.
        theirs = host_cls((d.copy(), ind.copy(), ptr.copy()), shape=shape)
        ours = cls((cunp.asarray(d), cunp.asarray(ind), cunp.asarray(ptr)), shape=shape)
    elif fmt == "coo":
        theirs = host_cls((data.copy(), (row.copy(), col.copy())), shape=shape)
        ours = cls((cunp.asarray(data), (cunp.asarray(row), cunp.asarray(col))), shape=shape)
    else:
        theirs = host_cls(ss.coo_matrix((data, (row, col)), shape=shape).toarray())
        ours = cls(cunp.asarray(theirs.toarray()))
    return theirs, ours


def dense_of(x):
    if isinstance(x, cunp.ndarray):
        return x.get()
    if cs.issparse(x):
        return x.toarray().get()
    if ss.issparse(x):
        return x.toarray()
    return numpy.asarray(x)


def _tol(dtype):
    """Sums run in another order than SciPy's: a few ulps apart."""
    dtype = numpy.dtype(dtype)
    if dtype in (numpy.float32, numpy.complex64):
        return 1e-5, 1e-5
    if dtype.kind in "fc":
        return 1e-12, 1e-12
    return 0, 0


def check(ours, theirs, *, fmt=True, dtype=True, flat_1d=False):
    """Asserts that a cunpx result matches SciPy's.

    A SciPy sparse result needs a cunpx sparse result of the same flavour (array or
    matrix), the same format unless `fmt` is False, shape and dtype. A dense SciPy
    result (ndarray or np.matrix) needs a cunp array of the same shape. A scalar needs
    a 0-d cunp array or a Python scalar. `flat_1d` accepts cunpx's 2-D (1, n)/(n, 1)
    or dense 1-D answer where SciPy ≥ 1.14 answers with a 1-D sparse array
    (docs/sparse.md: no 1-D sparse arrays in cunpx)."""
    if ss.issparse(theirs):
        if theirs.ndim == 1:
            assert flat_1d, "SciPy gave a 1-D sparse result: the test must say flat_1d"
            expected = theirs.toarray()
            got = dense_of(ours)
            assert got.size == expected.size and 1 in got.shape + (1,), (got.shape, expected.shape)
            got = got.reshape(expected.shape)
        else:
            assert cs.issparse(ours), "expected a cunpx sparse result, got %r" % type(ours)
            assert isinstance(ours, cs.sparray) == isinstance(theirs, ss.sparray), (type(ours), type(theirs))
            if fmt:
                assert ours.format == theirs.format, (ours.format, theirs.format)
            assert ours.shape == theirs.shape, (ours.shape, theirs.shape)
            expected, got = theirs.toarray(), dense_of(ours)
    elif isinstance(theirs, (numpy.ndarray, numpy.generic)) and numpy.ndim(theirs) > 0:
        expected = numpy.asarray(theirs)
        if flat_1d and cs.issparse(ours):
            got = dense_of(ours).reshape(expected.shape)
        else:
            assert isinstance(ours, cunp.ndarray), "expected a cunp array, got %r" % type(ours)
            got = ours.get()
        assert got.shape == expected.shape, (got.shape, expected.shape)
    else:
        expected = numpy.asarray(theirs)
        if isinstance(ours, cunp.ndarray):
            assert ours.ndim == 0, ours.shape
            got = ours.get()
        else:
            got = numpy.asarray(ours)
    if dtype:
        assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    rtol, atol = _tol(expected.dtype)
    if rtol:
        numpy.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        numpy.testing.assert_array_equal(got, expected)


def raises_like(fn_ours, fn_theirs):
    """Both raise, the same exception type (and SciPy's message when `message`)."""
    try:
        fn_theirs()
    except Exception as e:  # noqa: BLE001 - the oracle's exception type is the expectation
        expected = e
    else:
        raise AssertionError("SciPy did not raise")
    try:
        fn_ours()
    except Exception as e:  # noqa: BLE001
        assert type(e) is type(expected), (type(e), type(expected), e, expected)
        return e, expected
    raise AssertionError("cunpx did not raise (SciPy raised %r)" % expected)

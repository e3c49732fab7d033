"""Indexing CSR/CSC matrices against scipy.sparse: ints, slices (any step), integer
and boolean arrays, masks, and assignment (existing entries, new entries with
SparseEfficiencyWarning, explicit zeros, sparse values), on every device."""
import warnings

import numpy
import pytest
import scipy.sparse as ss

import cunp
import cunpx.scipy.sparse as cs
from sparse_cases import KINDS, check, pair, raises_like

GET_KEYS = [
    (1, 2), (-1, -1), (0, 0), 1, -2, (1, slice(None)), (slice(None), 1), (slice(None), -1), slice(1, 3),
    (slice(None, None, -1), slice(None, None, 2)), (slice(4, 0, -2), slice(1, 4)), (slice(1, 1), slice(None)),
    [0, 2], [3, 0, 3], (slice(None), [0, 2]), (slice(None), [3, 1, 3, 0]), ([0, 1], slice(1, 3)),
    ([0, 1], [1, 2]), ([-1, 0, 0], [0, -2, -2]), ([[0], [1]], [[1, 2]]), (1, [0, 2]), ([0, 2], 1),
    (Ellipsis, 1), (1, Ellipsis), numpy.array([True, False, True, False, True]),
    (slice(None), numpy.array([True, False, True, False])), (numpy.int64(1), numpy.int32(2)),
]
BAD_KEYS = [(5, 0), (0, 9), [0, 7], (slice(None), [-9]), 1.5, (1, 2, 3), None, [[[0, 1]]],
            numpy.array([True, False]), ([0, 1], [1, 2, 3])]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ss.SparseEfficiencyWarning)
        warnings.simplefilter("ignore", cs.SparseEfficiencyWarning)
        yield


def _key_for(key, device_arrays):
    """The key with its lists/NumPy arrays as cunp arrays (device_arrays) or as they are."""
    if not device_arrays:
        return key
    if isinstance(key, tuple):
        return tuple(_key_for(k, True) for k in key)
    if isinstance(key, list) or (isinstance(key, numpy.ndarray) and key.ndim > 0):
        return cunp.asarray(numpy.asarray(key))
    return key


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int8, numpy.complex64, numpy.bool_],
                         ids=lambda d: numpy.dtype(d).name)
def test_getitem(device, fmt, kind, dtype):
    A_t, A_o = pair(fmt, kind, (5, 4), dtype)
    for i, key in enumerate(GET_KEYS):
        expected = A_t[key]
        check(A_o[key], expected, flat_1d=True)
        if i % 3 == 0:
            check(A_o[_key_for(key, True)], expected, flat_1d=True)
    # Masks: a dense boolean array of the matrix's shape, or a sparse one.
    mask = numpy.arange(20).reshape(5, 4) % 3 == 0
    check(A_o[cunp.asarray(mask)], A_t[mask])
    check(A_o[A_o != 0], A_t[A_t != 0])
    for key in BAD_KEYS:
        e, expected = raises_like(lambda: A_o[key], lambda: A_t[key])
        if isinstance(key, tuple) and all(isinstance(k, int) for k in key) and len(key) == 2:
            assert str(e) == str(expected)
    # Iterating gives the rows; getrow/getcol on matrices.
    rows = list(A_o)
    assert len(rows) == 5
    check(rows[2], list(A_t)[2], flat_1d=True)
    if kind == "matrix":
        check(A_o.getrow(-1), A_t.getrow(-1))
        check(A_o.getcol(2), A_t.getcol(2))
        raises_like(lambda: A_o.getrow(5), lambda: A_t.getrow(5))


def test_getitem_empty_and_vectors(device):
    for shape in ((0, 3), (1, 5), (5, 1)):
        for fmt in ("csr", "csc"):
            A_t, A_o = pair(fmt, "matrix", shape, numpy.float64)
            check(A_o[:, :], A_t[:, :])
            check(A_o[::-1], A_t[::-1])
            if shape[0]:
                check(A_o[0], A_t[0])
                check(A_o[-1, :], A_t[-1, :])
            if shape[1] > 1:
                check(A_o[:, [1, 0, 1]], A_t[:, [1, 0, 1]])


SET_CASES = [
    ((1, 2), 7.0), ((0, 0), 0.0), ((slice(None), 1), 2.0), ((1, slice(None)), [1.0, 2.0, 3.0, 4.0]),
    ((slice(1, 3), slice(0, 2)), [[1.0, 2.0], [3.0, 4.0]]), (([0, 0, 4], [1, 1, 3]), [5.0, 6.0, 7.0]),
    (([0, 1], slice(None)), 0.0), (2, 9.0), ((slice(None), [0, 3]), [[1.0], [2.0], [3.0], [4.0], [5.0]]),
    (numpy.arange(20).reshape(5, 4) % 4 == 1, 8.0),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_setitem(device, fmt, kind):
    for dtype in (numpy.float64, numpy.complex128, numpy.int16):
        for key, value in SET_CASES:
            A_t, A_o = pair(fmt, kind, (5, 4), dtype)
            A_t[key] = value
            A_o[key] = value
            check(A_o, A_t)
            assert A_o.nnz == A_t.nnz, (key, A_o.nnz, A_t.nnz)
    # A sparse value: covered entries become zeros, then its entries are written.
    A_t, A_o = pair(fmt, kind, (5, 4), numpy.float64)
    V_t, V_o = pair("csr", kind, (2, 3), numpy.float64)
    A_t[1:3, 0:3] = V_t
    A_o[1:3, 0:3] = V_o
    check(A_o, A_t)
    assert A_o.nnz == A_t.nnz
    # A device array value and device index arrays.
    A_t[[0, 4], [3, 0]] = numpy.array([1.5, 2.5])
    A_o[cunp.asarray(numpy.array([0, 4])), cunp.asarray(numpy.array([3, 0]))] = cunp.asarray(numpy.array([1.5, 2.5]))
    check(A_o, A_t)


def test_setitem_warnings_and_errors(device):
    a = numpy.array([[1.0, 0, 2], [0, 0, 3]])
    A = cs.csr_array(cunp.asarray(a))
    with warnings.catch_warnings():
        warnings.simplefilter("error", cs.SparseEfficiencyWarning)
        A[0, 2] = 5.0  # an existing entry: no warning
        A[1, 2] = 0.0  # stays stored, as an explicit zero
    assert A.nnz == 3
    with pytest.warns(cs.SparseEfficiencyWarning, match="Changing the sparsity structure of a csr_array"):
        A[1, 0] = 4.0
    assert A.nnz == 4 and float(A[1, 0]) == 4.0
    for key, value in (((0, 0), [1.0, 2.0]), ((0, slice(None)), [1.0, 2.0]), ((5, 0), 1.0), ((0, [0, 9]), 1.0)):
        T = ss.csr_array(a)
        e, expected = raises_like(lambda: A.__setitem__(key, value), lambda: T.__setitem__(key, value))
    B = cs.csr_array(cunp.asarray(a))
    before = B.toarray().get()
    with pytest.raises(ValueError):
        B[[0, 1], [0, 1]] = [1.0, 2.0, 3.0]
    numpy.testing.assert_array_equal(B.toarray().get(), before)  # nothing half-written

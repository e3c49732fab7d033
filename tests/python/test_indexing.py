"""Advanced indexing (integer arrays, boolean masks) and the index routines against NumPy."""
import numpy
import pytest

import cunp
from helpers import assert_array_equal, numpy_cunp_equal, random_array


def _fn(xp, name):
    # cunp.<name> once the package re-exports it; cunp._core.<name> until then.
    if xp is numpy:
        return getattr(numpy, name)
    return getattr(cunp, name, None) or getattr(cunp._core, name)


def _arr(xp, shape=(4, 5, 6), dtype="float32"):
    base = numpy.arange(int(numpy.prod(shape))).reshape(shape).astype(dtype)
    return xp.asarray(base)


GET_KEYS = [
    ([0, 2],),
    ([-1, 0, -4],),
    (numpy.array([[0, 1], [3, 2]]),),
    ([1, 1, 1],),
    (slice(None), [0, 4]),
    (slice(None), slice(None), [5, 0, -1]),
    ([0, 1], [1, 2]),
    ([[0], [3]], [1, 2, 4]),
    ([0, 1], slice(None), [1, 2]),
    ([0, 1], slice(1, 3), 2),
    (1, slice(None), [0, 5]),
    (slice(None), [1, 2], [3, 4]),
    (Ellipsis, [0, 2]),
    ([0, 2], Ellipsis),
    (None, [0, 2], None),
    ([0, 2], None, [1, 1]),
    (slice(None, None, -1), [2, 0]),
    (numpy.array(2),),
    (numpy.array([], dtype=numpy.int64),),
    ([],),
    (numpy.array([1, 2], dtype=numpy.uint8), numpy.array([0, 1], dtype=numpy.int16)),
    (numpy.int64(1), [0, 2]),
    (True,),
    (False,),
    (slice(None), True),
]


@pytest.mark.parametrize("key", GET_KEYS, ids=range(len(GET_KEYS)))
@numpy_cunp_equal()
def test_getitem_int_arrays(key, device, xp):
    a = _arr(xp)
    k = tuple(xp.asarray(x) if isinstance(x, numpy.ndarray) and x.ndim and xp is cunp else x for x in key)
    return a[k if len(k) > 1 else k[0]]


MASK_KEYS = [
    lambda a: a > 50,
    lambda a: a[:, :, 0] > 40,
    lambda a: a[:, 0, 0] > 30,
    lambda a: (slice(None), a[0, :, 0] > 20),
    lambda a: (Ellipsis, a[0, 0, :] > 2),
    lambda a: (a[:, 0, 0] > 30, slice(None), [0, 1]),
    lambda a: (a[:, 0, 0] > 30, 1),
    lambda a: a < -1,
]


@pytest.mark.parametrize("make", MASK_KEYS, ids=range(len(MASK_KEYS)))
@numpy_cunp_equal()
def test_getitem_mask(make, device, xp):
    a = _arr(xp)
    return a[make(a)]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "float64", "complex64", "complex128", "float16"])
@numpy_cunp_equal()
def test_getitem_dtypes(dtype, device, xp):
    a = xp.asarray(random_array((7, 3), dtype, numpy.random.default_rng(0)))
    return a[[6, 0, 3, 3], 1:]


@numpy_cunp_equal()
def test_getitem_noncontiguous(device, xp):
    a = _arr(xp, (6, 8)).T[::2]
    return a[[0, 3], ::-2]


@numpy_cunp_equal()
def test_getitem_0d_result(device, xp):
    a = _arr(xp, (3, 4))
    return a[xp.asarray(numpy.array([2])), xp.asarray(numpy.array([3]))][0:1].reshape(()) + a[[1], 2]


SET_CASES = [
    ([0, 2], 7),
    ([0, 2, 0, 0], numpy.array([[1.0] * 6] * 5 * 4).reshape(4, 5, 6)),
    ((slice(None), [1, 1, 3]), numpy.arange(3 * 6 * 4).reshape(4, 3, 6)),
    (([0, 0, 1], [2, 2, 3]), numpy.arange(3)[:, None] * numpy.ones(6)),
    (([0, 1], slice(None), [0, 0]), -5.5),
    ((Ellipsis, [0, 5]), numpy.array([100, 200])),
    ((1, [0, 0, 0], 2), numpy.array([1, 2, 3])),
]


@pytest.mark.parametrize("key,value", SET_CASES, ids=range(len(SET_CASES)))
@numpy_cunp_equal()
def test_setitem_int_arrays(key, value, device, xp):
    a = _arr(xp, dtype="int32")
    v = xp.asarray(value) if isinstance(value, numpy.ndarray) else value
    a[key] = v
    return a


@numpy_cunp_equal()
def test_setitem_duplicates_last_wins(device, xp):
    a = xp.asarray(numpy.zeros(5))
    a[[1, 3, 1, 1, 3]] = xp.asarray(numpy.array([10.0, 20.0, 30.0, 40.0, 50.0]))
    return a


@numpy_cunp_equal()
def test_setitem_duplicates_2d(device, xp):
    a = xp.asarray(numpy.zeros((3, 4)))
    a[[0, 2, 0], [1, 1, 1]] = xp.asarray(numpy.array([1.0, 2.0, 3.0]))
    return a


@numpy_cunp_equal()
def test_setitem_mask(device, xp):
    a = _arr(xp, (4, 5))
    a[a > 10] = 0
    b = _arr(xp, (4, 5))
    b[b[:, 0] > 4] = xp.asarray(numpy.arange(5.0))
    c = _arr(xp, (4, 5), dtype="int64")
    c[c % 3 == 0] = xp.asarray(numpy.arange(7) * 1.7)
    return xp.stack([a, b, c.astype("float32")]) if hasattr(xp, "stack") else a


@numpy_cunp_equal()
def test_setitem_from_self(device, xp):
    a = _arr(xp, (6,))
    a[[1, 2, 3]] = a[[0, 1, 2]]
    return a


@pytest.mark.parametrize("key", [
    [3],
    [-4],
    (slice(None), [0, 7]),
    ([0], [0], [10]),
    (1, [1, 9]),
])
@numpy_cunp_equal()
def test_out_of_bounds(key, device, xp):
    return _arr(xp, (3, 4, 5))[key]


def test_out_of_bounds_message(device):
    a = cunp.asarray(numpy.arange(3))
    with pytest.raises(IndexError, match="index 10 is out of bounds for axis 0 with size 3"):
        a[[0, 10]]
    b = cunp.asarray(numpy.zeros((2, 3)))
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 1 with size 3"):
        b[:, [0, -4]]
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 1 with size 3"):
        b[[0, 1], [1, 5]] = 1.0


@pytest.mark.parametrize("key", [
    lambda xp: xp.asarray(numpy.array([True, False])),
    lambda xp: xp.asarray(numpy.ones((3, 2), dtype=bool)),
    lambda xp: (slice(None), xp.asarray(numpy.array([True] * 5))),
])
@numpy_cunp_equal()
def test_wrong_mask_shape(key, device, xp):
    return _arr(xp, (3, 4))[key(xp)]


@pytest.mark.parametrize("key", [
    lambda xp: xp.asarray(numpy.array([0.0, 1.0])),
    lambda xp: [0.5],
    lambda xp: 1.0,
    lambda xp: "a",
    lambda xp: ([0], [0], [0]),
])
@numpy_cunp_equal()
def test_bad_index(key, device, xp):
    return _arr(xp, (3, 4))[key(xp)]


@numpy_cunp_equal()
def test_setitem_shape_mismatch(device, xp):
    a = _arr(xp, (3, 4))
    a[[0, 1]] = xp.asarray(numpy.ones(3))
    return a


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@numpy_cunp_equal()
def test_take(axis, device, xp):
    a = _arr(xp, (4, 5))
    r1 = _fn(xp, "take")(a, xp.asarray(numpy.array([[0, 3], [-1, 2]])), axis=axis)
    r2 = a.take(xp.asarray(numpy.array([1, 1, 0])), axis=axis)
    return r1.sum() + r2.sum() if False else (r1, r2)


@numpy_cunp_equal()
def test_take_scalar_and_list(device, xp):
    a = _arr(xp, (4, 5))
    return _fn(xp, "take")(a, [0, 7, 19])


def test_take_errors(device):
    a = cunp.asarray(numpy.arange(3))
    with pytest.raises(IndexError, match="index 10 is out of bounds for axis 0 with size 3"):
        cunp._core.take(a, cunp.asarray(numpy.array([10])))
    with pytest.raises(TypeError):
        cunp._core.take(a, cunp.asarray(numpy.array([1.0])))


@numpy_cunp_equal()
def test_put(device, xp):
    a = _arr(xp, (3, 4))
    _fn(xp, "put")(a, [0, 5, -1, 5], xp.asarray(numpy.array([1.0, 2.0, 3.0, 4.0], dtype="float32")))
    b = _arr(xp, (3, 4))
    b.put(xp.asarray(numpy.array([1, 2, 3, 4, 5])), xp.asarray(numpy.array([7.0, 8.0])))
    c = _arr(xp, (4, 3)).T
    _fn(xp, "put")(c, [0, 1, 11], xp.asarray(numpy.array([9.0])))
    return (a, b, c)


def test_put_out_of_bounds(device):
    a = cunp.asarray(numpy.arange(3.0))
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        cunp._core.put(a, cunp.asarray(numpy.array([3])), cunp.asarray(numpy.array([1.0])))


@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 4), (0, 3), (5000,)])
@numpy_cunp_equal()
def test_nonzero_family(shape, device, xp):
    data = random_array(shape, "int8", numpy.random.default_rng(1), low=-1, high=1)
    a = xp.asarray(data)
    return (_fn(xp, "nonzero")(a), a.nonzero(), _fn(xp, "flatnonzero")(a), _fn(xp, "argwhere")(a))


@numpy_cunp_equal()
def test_nonzero_dtypes(device, xp):
    a = xp.asarray(numpy.array([0.0, -0.0, 1.5, numpy.nan, 0.0]))
    b = xp.asarray(numpy.array([0j, 1j, 0j]))
    return (_fn(xp, "flatnonzero")(a), _fn(xp, "flatnonzero")(b))


@numpy_cunp_equal()
def test_nonzero_0d(device, xp):
    return _fn(xp, "nonzero")(xp.asarray(numpy.array(3)))


@numpy_cunp_equal()
def test_argwhere_0d(device, xp):
    return (_fn(xp, "argwhere")(xp.asarray(numpy.array(3))), _fn(xp, "argwhere")(xp.asarray(numpy.array(0))))


@pytest.mark.parametrize("axis", [None, 0, 1])
@numpy_cunp_equal()
def test_compress(axis, device, xp):
    a = _arr(xp, (3, 4))
    return _fn(xp, "compress")([True, False, True], a, axis=axis)


@numpy_cunp_equal()
def test_compress_too_long(device, xp):
    return _fn(xp, "compress")([False, True, True, True, True], _arr(xp, (3,)))


@pytest.mark.parametrize("axis", [0, 1, -1, None])
@numpy_cunp_equal()
def test_take_along_axis(axis, device, xp):
    a = _arr(xp, (3, 4))
    if axis is None:
        idx = numpy.array([11, 0, 5])
    else:
        idx = numpy.argsort(-numpy.arange(12).reshape(3, 4) % 5, axis=axis)
    return _fn(xp, "take_along_axis")(a, xp.asarray(idx), axis=axis)


@numpy_cunp_equal()
def test_take_along_axis_broadcast(device, xp):
    a = _arr(xp, (3, 4))
    return _fn(xp, "take_along_axis")(a, xp.asarray(numpy.array([[0, 3]])), axis=1)


def _plain_slice(piece):
    return len(piece) == 1 and isinstance(piece[0], slice) and piece[0] == slice(None)


def test_random_fuzz(device):
    rng = numpy.random.default_rng(1234)
    for _ in range(250):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 5, size=ndim))
        host = numpy.arange(int(numpy.prod(shape)), dtype=numpy.float64).reshape(shape)
        parts = []  # the index pieces for each axis of `host`
        for d in range(ndim):
            r = rng.random()
            n = shape[d]
            if r < 0.3:
                parts.append([rng.integers(-n, n, size=tuple(rng.integers(1, 3, size=int(rng.integers(1, 3)))))])
            elif r < 0.45:
                parts.append([slice(int(rng.integers(-n, n)), None, int(rng.choice([-2, -1, 1, 2])))])
            elif r < 0.55:
                parts.append([int(rng.integers(-n, n))])
            elif r < 0.65:
                parts.append([None, slice(None)])
            elif r < 0.75:
                parts.append([rng.random(n) > 0.5])
            else:
                parts.append([slice(None)])
        # A two-axis mask in place of the first two axes' pieces; Ellipsis in place of
        # the trailing run of plain slices.
        if ndim >= 2 and rng.random() < 0.2:
            parts = [[rng.random(shape[:2]) > 0.4]] + parts[2:]
        trailing = 0
        while trailing < len(parts) and _plain_slice(parts[len(parts) - 1 - trailing]):
            trailing += 1
        if trailing and rng.random() < 0.5:
            parts = parts[:len(parts) - trailing] + [[Ellipsis]]
        key = [k for p in parts for k in p]
        key = tuple(key)
        try:
            expected = host[key]
        except IndexError:
            with pytest.raises(IndexError):
                cunp.asarray(host)[tuple(cunp.asarray(k) if isinstance(k, numpy.ndarray) else k for k in key)]
            continue
        a = cunp.asarray(host)
        ckey = tuple(cunp.asarray(k) if isinstance(k, numpy.ndarray) else k for k in key)
        assert_array_equal(a[ckey], expected)
        value = numpy.arange(expected.size, dtype=numpy.float64).reshape(expected.shape) + 1000
        host2 = host.copy()
        host2[key] = value
        a[ckey] = cunp.asarray(value)
        assert_array_equal(a, host2)


# ---- full-shape boolean masks (the single-compaction path on GPUs)

@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (4096,), (4097,), (3, 1000), (5, 6, 7)])
@numpy_cunp_equal()
def test_getitem_full_mask(shape, device, xp):
    host = random_array(shape, "float32", numpy.random.default_rng(5))
    a = xp.asarray(host)
    return a[a > 0], a[xp.asarray(host < -100)], a[xp.asarray(numpy.ones(shape, bool))]


@numpy_cunp_equal()
def test_getitem_full_mask_dtypes(dtype, device, xp):
    host = random_array((3, 517), dtype, numpy.random.default_rng(6))
    mask = numpy.random.default_rng(7).random((3, 517)) > 0.3
    a = xp.asarray(host)
    return a[xp.asarray(mask)], a.T[xp.asarray(mask.T)], a[:, ::-2][xp.asarray(mask[:, ::-2])]


# ---- index routines

@pytest.mark.parametrize("axis", [0, 1, -1, None])
@numpy_cunp_equal()
def test_put_along_axis(axis, device, xp):
    a = _arr(xp, (3, 4)).copy()
    rng = numpy.random.default_rng(3)
    idx = rng.integers(-4 if axis is None else -3, 3, size=(3, 2) if axis is not None else (5,))
    values = xp.asarray(numpy.arange(idx.size, dtype=numpy.float32).reshape(idx.shape) + 100)
    xp.put_along_axis(a, xp.asarray(idx), values if axis is not None else values.ravel(), axis=axis)
    return a


@numpy_cunp_equal()
def test_put_along_axis_out_of_bounds(device, xp):
    a = _arr(xp, (3, 4)).copy()
    xp.put_along_axis(a, xp.asarray(numpy.array([[0], [4], [1]])), 1.0, axis=1)
    return a


@numpy_cunp_equal()
def test_extract(device, xp):
    a = _arr(xp, (3, 4))
    return xp.extract(a % 3 == 0, a), xp.extract(xp.asarray(numpy.arange(12).reshape(3, 4) % 2), a)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("idx", [[0, 1, 2, 1], [[0, 2], [1, 0]], [3, -1, 5, 0]])
@numpy_cunp_equal()
def test_choose(mode, idx, device, xp):
    choices = [xp.asarray(numpy.arange(4) * 10 ** k) for k in range(3)]
    return xp.choose(xp.asarray(numpy.array(idx)), choices, mode=mode)


@numpy_cunp_equal()
def test_choose_broadcast_and_dtype(device, xp):
    choices = [xp.asarray(numpy.arange(3, dtype=numpy.int8)), xp.asarray(numpy.ones((2, 1), numpy.float32)),
               xp.asarray(numpy.array(5.5))]
    return xp.choose(xp.asarray(numpy.array([[0, 1, 2], [2, 1, 0]])), choices)


@numpy_cunp_equal()
def test_choose_float_index(device, xp):
    return xp.choose(xp.asarray(numpy.array([0.0, 1.0])), [xp.arange(2), xp.arange(2)])


@numpy_cunp_equal()
def test_select(device, xp):
    x = xp.asarray(numpy.arange(10))
    y = xp.asarray(numpy.arange(10, dtype=numpy.float32))
    return (xp.select([x < 3, x > 5], [x, x ** 2]), xp.select([x < 3, x > 5], [y, x], default=-1),
            xp.select([x > 100], [y]))


@pytest.mark.parametrize("case", ["nonbool", "length", "empty"])
@numpy_cunp_equal()
def test_select_errors(case, device, xp):
    x = xp.asarray(numpy.arange(4))
    if case == "nonbool":
        return xp.select([x], [x])
    if case == "length":
        return xp.select([x > 1, x > 2], [x])
    return xp.select([], [])


@numpy_cunp_equal()
def test_place_and_putmask(device, xp):
    a = _arr(xp, (3, 4)).copy()
    b = _arr(xp, (3, 4)).copy()
    xp.place(a, a % 2 == 0, xp.asarray(numpy.array([-1.0, -2.0, -3.0], numpy.float32)))
    xp.putmask(b, b > 5, xp.asarray(numpy.array([-1.0, -2.0, -3.0, -4.0, -5.0], numpy.float32)))
    return a, b


@pytest.mark.parametrize("case", ["place_size", "place_empty", "putmask_size"])
@numpy_cunp_equal()
def test_place_putmask_errors(case, device, xp):
    a = _arr(xp, (3, 4)).copy()
    if case == "place_size":
        xp.place(a, xp.asarray(numpy.ones(5, bool)), xp.asarray(numpy.ones(2, numpy.float32)))
    elif case == "place_empty":
        xp.place(a, a > 3, xp.asarray(numpy.zeros(0, numpy.float32)))
    else:
        xp.putmask(a, xp.asarray(numpy.ones(5, bool)), xp.asarray(numpy.ones(2, numpy.float32)))
    return a


@numpy_cunp_equal()
def test_diag_tri_indices(device, xp):
    a = _arr(xp, (4, 4))
    m = _arr(xp, (3, 5))
    return (xp.diag_indices(3), xp.diag_indices(2, 3), xp.diag_indices_from(a), a[xp.diag_indices_from(a)],
            xp.tril_indices(4), xp.tril_indices(3, -1, 5), xp.triu_indices(4, 1), xp.triu_indices(3, 0, 2),
            xp.tril_indices_from(m), xp.triu_indices_from(m, 2), m[xp.triu_indices_from(m, 1)])


@pytest.mark.parametrize("call", ["diag_1d", "diag_uneven", "tril_3d"])
@numpy_cunp_equal()
def test_diag_tri_indices_errors(call, device, xp):
    if call == "diag_1d":
        return xp.diag_indices_from(_arr(xp, (4,)))
    if call == "diag_uneven":
        return xp.diag_indices_from(_arr(xp, (3, 4)))
    return xp.tril_indices_from(_arr(xp, (2, 2, 2)))


@numpy_cunp_equal()
def test_indices_and_ix(device, xp):
    a = _arr(xp, (3, 4, 5))
    return (xp.indices((2, 3)), xp.indices((2, 3, 4), dtype=numpy.int32), xp.indices((3, 2), sparse=True),
            xp.indices(()), xp.ix_([0, 2], [True, False, True, True]), a[xp.ix_([2, 0], [1, 3], [4, 0, 1])])


@numpy_cunp_equal()
def test_ix_errors(device, xp):
    return xp.ix_(numpy.array([[1, 2]]))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip", ("wrap", "clip")])
@pytest.mark.parametrize("order", ["C", "F"])
@numpy_cunp_equal()
def test_ravel_multi_index(mode, order, device, xp):
    rows = numpy.array([0, 2, 1, 3, -1]) if mode != "raise" else numpy.array([0, 2, 1, 2, 0])
    cols = numpy.array([[1], [4], [0]]) if mode != "raise" else numpy.array([[1], [3], [0]])
    return xp.ravel_multi_index((xp.asarray(rows), xp.asarray(cols)), (3, 4), mode=mode, order=order)


@pytest.mark.parametrize("case", ["bounds", "negative", "float", "length"])
@numpy_cunp_equal()
def test_ravel_multi_index_errors(case, device, xp):
    if case == "float":
        return xp.ravel_multi_index((xp.asarray(numpy.array([0.0])), xp.asarray(numpy.array([1]))), (3, 4))
    if case == "length":
        return xp.ravel_multi_index((xp.asarray(numpy.array([0])),), (3, 4))
    bad = 3 if case == "bounds" else -1
    return xp.ravel_multi_index((xp.asarray(numpy.array([0, bad])), xp.asarray(numpy.array([1, 1]))), (3, 4))


@pytest.mark.parametrize("order", ["C", "F"])
@numpy_cunp_equal()
def test_unravel_index(order, device, xp):
    return (xp.unravel_index(xp.asarray(numpy.array([0, 5, 23, 17])), (2, 3, 4), order=order),
            xp.unravel_index(xp.asarray(numpy.array([[1, 2], [3, 0]])), (4,), order=order))


@pytest.mark.parametrize("value", [24, -1])
@numpy_cunp_equal()
def test_unravel_index_errors(value, device, xp):
    return xp.unravel_index(xp.asarray(numpy.array([0, value])), (2, 3, 4))


# Index keys as functions of the array module: index arrays of that module (cunp
# arrays for cunp) or NumPy arrays for both.
_EMPTY_KEYS = [
    lambda xp: (5, xp.zeros(3, bool)), lambda xp: (xp.zeros(2, bool), 7), lambda xp: (xp.asarray([5]), xp.zeros(0, int)),
    lambda xp: (xp.asarray([[5]]), xp.zeros((0, 1), int)), lambda xp: xp.zeros(0, bool), lambda xp: numpy.zeros(0, bool),
    lambda xp: xp.zeros(2, bool), lambda xp: (None, xp.zeros(0, bool)), lambda xp: (..., xp.zeros(0, bool)),
    lambda xp: (xp.zeros(0, bool), ...), lambda xp: (slice(None), xp.zeros(0, bool)), lambda xp: xp.zeros((0, 0), bool),
    lambda xp: xp.zeros((2, 0), bool), lambda xp: xp.zeros((0, 3), bool), lambda xp: xp.ones((2, 0), bool),
    lambda xp: ([5], xp.zeros(3, bool)), lambda xp: (xp.asarray(5), xp.zeros(3, bool)), lambda xp: ([5], slice(0)),
    lambda xp: (slice(0), [7]), lambda xp: ([5], xp.zeros(0, int)), lambda xp: (xp.zeros((0, 1), int) + 5, xp.zeros((1, 0), int)),
    lambda xp: (xp.zeros((0, 1), int) + 5, xp.zeros((1, 3), int)), lambda xp: xp.zeros(0, int) + 5,
    lambda xp: ([[5]], xp.zeros((1, 0), int)), lambda xp: [5], lambda xp: ([1], [5]), lambda xp: ([5, 0], [[0], [1]]),
    lambda xp: (xp.zeros(2, bool), [9]), lambda xp: (xp.zeros(2, bool), [[9]]), lambda xp: (xp.zeros(2, bool), slice(None), None),
    lambda xp: (xp.zeros(0, bool), xp.zeros(0, bool)), lambda xp: (xp.zeros(0, bool), 1), lambda xp: (xp.zeros(0, bool), 9),
    lambda xp: xp.zeros(1, bool), lambda xp: xp.ones(1, bool), lambda xp: xp.zeros(4, bool),
    lambda xp: (slice(None), xp.zeros(2, bool)), lambda xp: xp.zeros((0, 2), bool), lambda xp: xp.zeros((2, 3, 0), bool),
    lambda xp: (xp.zeros(0, bool),) * 3, lambda xp: xp.zeros((0, 0, 0), bool), lambda xp: (..., xp.zeros((0, 0), bool)),
    lambda xp: (None, xp.zeros((0, 0), bool), None), lambda xp: ([], []), lambda xp: ([], 7), lambda xp: (7, []),
    lambda xp: (xp.zeros(0, bool), [7]), lambda xp: (xp.asarray([], dtype=numpy.int8), 1),
    lambda xp: (xp.zeros(0, bool), None, 1), lambda xp: (xp.zeros(0, bool), slice(None), None),
    lambda xp: (None, ..., xp.zeros(0, bool)), lambda xp: (xp.zeros((2, 0), bool), None), lambda xp: False,
    lambda xp: True, lambda xp: (False, 5), lambda xp: (True, 5), lambda xp: (xp.asarray(False), [7]),
    lambda xp: (xp.zeros(3, bool), 7), lambda xp: (1, xp.zeros(0, bool)), lambda xp: (-3, xp.zeros(3, bool)),
    lambda xp: (2, xp.zeros(0, int)), lambda xp: (xp.zeros(0, int), -4), lambda xp: (xp.zeros(0, bool), -4),
    lambda xp: (numpy.zeros(0, bool), numpy.zeros(0, int)), lambda xp: (numpy.array([5]), numpy.zeros(0, int)),
    lambda xp: ([5], []), lambda xp: xp.zeros((2, 3), bool), lambda xp: (xp.zeros((2, 3), bool), None),
    lambda xp: (xp.zeros((0, 3), bool), 1), lambda xp: (xp.zeros((2, 0), bool), 1),
    lambda xp: (xp.zeros(0, bool), xp.zeros(1, int)), lambda xp: (xp.zeros(0, bool), xp.zeros(2, int)),
    lambda xp: (xp.zeros(2, bool), xp.zeros(2, int)), lambda xp: (xp.ones(2, bool), xp.zeros(3, int)),
    lambda xp: xp.asarray([[True, False, True], [False, False, True]]),
]
_EMPTY_BASES = [lambda xp: xp.arange(6).reshape(2, 3), lambda xp: xp.arange(6).reshape(2, 3)[::-1, ::2],
                lambda xp: xp.arange(6.0, dtype="float32").reshape(3, 2).T]
# (base, key) pairs of other shapes: 1-d, empty and 0-d arrays.
_EMPTY_OTHER = [(lambda xp: xp.arange(3), k) for k in (
    lambda xp: xp.zeros(0, bool), lambda xp: numpy.zeros(0, bool), lambda xp: (xp.zeros(0, bool), None), lambda xp: [],
    lambda xp: [9], lambda xp: xp.zeros(0, int) + 9, lambda xp: xp.zeros(1, bool), lambda xp: (..., xp.zeros(0, bool)))]
_EMPTY_OTHER += [(lambda xp: xp.arange(0), k) for k in (
    lambda xp: xp.zeros(0, bool), lambda xp: xp.zeros(0, int), lambda xp: [0], lambda xp: (xp.zeros(0, bool), None))]
_EMPTY_OTHER += [(lambda xp: xp.asarray(5), k) for k in (
    lambda xp: xp.zeros(0, bool), lambda xp: (None, xp.zeros(0, bool)), lambda xp: False, lambda xp: True,
    lambda xp: xp.asarray(False), lambda xp: (..., False), lambda xp: xp.zeros((), bool))]
_EMPTY_OTHER += [(lambda xp: xp.zeros((0, 3)), k) for k in (
    lambda xp: xp.zeros(0, bool), lambda xp: (xp.zeros(0, bool), 5), lambda xp: (xp.zeros(0, int), 5),
    lambda xp: (slice(None), 5), lambda xp: ([], 5), lambda xp: [5], lambda xp: [0], lambda xp: (slice(None), [5]),
    lambda xp: (xp.zeros(0, bool), [5]), lambda xp: xp.zeros((0, 3), bool))]
_EMPTY_OTHER += [(lambda xp: xp.zeros((3, 0)), k) for k in (
    lambda xp: (5, []), lambda xp: ([1, 5], slice(None)), lambda xp: xp.zeros(3, bool),
    lambda xp: (slice(None), xp.zeros(0, bool)), lambda xp: xp.zeros((3, 0), bool), lambda xp: ([1, 5], xp.zeros(0, bool)))]


def test_empty_masks_and_bounds_getitem(device):
    """Empty boolean masks where NumPy allows them (a mask's extents of length 0 are not
    checked), and every integer bounds-checked even when the selection is empty."""
    from cases import Message, check_cases
    pairs = [(b, k) for b in _EMPTY_BASES for k in _EMPTY_KEYS] + _EMPTY_OTHER
    check_cases(Message(lambda xp, b=b, k=k: b(xp)[k(xp)]) for b, k in pairs)


def test_empty_masks_and_bounds_setitem(device):
    from cases import Message, check_cases

    def assign(base, key, value):
        def case(xp):
            a = base(xp)
            a[key(xp)] = value(xp) if callable(value) else value
            return a
        return Message(case)
    values = [7, 2.5, lambda xp: xp.zeros(0), [1, 2], lambda xp: xp.ones((1, 3)), lambda xp: xp.ones((1, 0, 1)),
              lambda xp: xp.ones((2, 1, 3)), [[1]], [[[1]]], lambda xp: xp.ones(3, "f4")]
    pairs = [(b, k) for b in _EMPTY_BASES[:2] for k in _EMPTY_KEYS] + _EMPTY_OTHER
    check_cases(assign(b, k, v) for b, k in pairs for v in values)


def _ravel_cases():
    from cases import Message as M
    def resolve(x, xp):  # the arr(...) placeholders, also inside tuples and lists
        if callable(x):
            return x(xp)
        if isinstance(x, (tuple, list)):
            return type(x)(resolve(y, xp) for y in x)
        return x

    def call(name):
        def make(*a, **k):
            return M(lambda xp: getattr(xp, name)(*resolve(a, numpy if xp is numpy else xp), **k),
                     "%s%r %r" % (name, a, k))
        return make
    r, u = call("ravel_multi_index"), call("unravel_index")
    arr = lambda v, dt=None: lambda xp: xp.asarray(numpy.asarray(v, dtype=dt))  # noqa: E731
    cases = []
    # every dims form, scalar and array coordinates, every coordinate dtype
    for dims in [(3, 4), [3, 4], numpy.array([3, 4]), arr([3, 4]), (numpy.int64(3), numpy.int32(4))]:
        cases += [r((1, 2), dims), r(([1, 2], [0, 3]), dims), r((arr([[1, 2]]), arr([[0], [3]])), dims),
                  u(6, dims), u([6, 11], dims), u(arr([[6], [0]]), dims), u(arr(7, "int8"), dims)]
    for dims in [12, numpy.int32(12), numpy.array(12), [12], (12,)]:
        cases += [r((5,), dims), r([arr([5, 11])], dims), u(6, dims), u(arr([0, 11]), dims)]
    for dt in ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]:
        cases += [r((arr([1, 0], dt), arr([1, 1], dt)), (3, 4)), u(arr([1, 0], dt), (3, 4)),
                  u(arr([1, 0], dt), (3, 4), order="F")]
    for dt in ["float16", "float32", "float64", "complex64"]:
        cases += [r((arr([1], dt), [1]), (3, 4)), u(arr([1], dt), (3, 4))]
    cases += [
        r((numpy.int64(1), 2), (3, 4)), r((numpy.uint8(1), 2), (3, 4)), r([1], 3), r((), ()), r([], []),
        r(arr([[1, 2], [0, 1]]), (3, 4)), r(numpy.array([[1, 2], [0, 1]]), (3, 4)),
        r((arr(1), 2), (3, 4)), r((arr([1]), arr(2)), (3, 4)),
        r((lambda xp: xp.arange(6).reshape(2, 3)[:, ::2], 1), (3, 4)),
        r((arr([1, 2]), arr([[1], [2]])), (3, 4)), r(multi_index=(1, 2), dims=(3, 4)),
        # modes
        r((5, 2), (3, 4)), r((-1, 2), (3, 4)), r((5, 2), (3, 4), mode="wrap"), r((5, -2), (3, 4), mode="clip"),
        r((5, -2), (3, 4), mode=("clip", "wrap")), r((5, -2), (3, 4), mode=["clip", "wrap"]),
        r((7, 2), (3, 4), mode=("raise", "wrap")), r((5, -2), (3, 4), mode=("clip",)),
        r((1, 2), (3, 4), mode=("clip", "wrap", "raise")), r((5, -2), (3, 4), mode="bad"), r((1, 2), (3, 4), mode="W"),
        r((1, 2), (3, 4), mode="wr"), r((1, 2), (3, 4), mode=None), r((7, 2), (3, 4), mode=1), r((7, 2), (3, 4), mode=0),
        r((7, 2), (3, 4), mode=5), r(([0], [0]), (1, 1), mode=("clip", None)), r((1, 2), (3, 4), mode=["raise", "x"]),
        r((1, 2, 3), (3, 4), mode="x"), r((arr([-7, 30]), arr([9, -9])), (3, 4), mode="wrap", order="F"),
        r((arr([-7, 30], "int8"), arr([9, -9], "int16")), (3, 4), mode="clip"),
        # order
        r((1, 2), (3, 4), order="F"), r((1, 2), (3, 4), order="f"), r((1, 2), (3, 4), order="A"),
        r((1, 2), (3, 4), order="X"), r((1, 2), (3, 4), order=None), r((1, 2), (3, 4), order=5), r((1, 2), (3, 4), "wrap", "F"),
        # errors of the arguments
        r((1, 2, 3), (3, 4)), r((1.0, 2), (3, 4)), r(([1.0], [2]), (3, 4)), r(([1], [2]), (3, -4)),
        r(([1], [2]), (3, 0)), r(([1], [2]), (3, 0), mode="clip"), r(([1], [2]), (0, 4), mode="wrap"),
        r((arr([], "int64"), arr([], "int64")), (3, 0)), r(([], []), (3, 4)), r(((), ()), (3, 4)),
        r((arr([], "int64"), arr([], "int64")), (3, 4)), r((arr([], "float64"), []), (3, 4)),
        r((1, 2), (3.0, 4)), r((1, 2), [[3, 4]]), r((1, 2), (2 ** 40, 2 ** 40)),
        r((arr([], "int64"), arr([], "int64")), (2 ** 40, 2 ** 40)), r(([1, 2], [0, 1, 2]), (3, 4)).fn,
        r((1, 2), (2 ** 40, 2 ** 40), mode="bad"), r(([1.0], [1]), (3, 0, 1)),
        # unravel_index
        u(6, (3, 4), order="F"), u(6, (3, 4), order="f"), u(6, (3, 4), "F"), u(6, (3, 4), order="A"),
        u(6, (3, 4), order="Z"), u(5, (3, 4), order=None), u(5, (3, 4), order=5), u(indices=5, shape=(3, 4)),
        u(12, (3, 4)), u(-1, (3, 4)), u([1, -1], (3, 4)), u([1, 20, -1], (3, 4)), u(arr([[1, 20], [-5, 2]]), (3, 4)),
        u(6.0, (3, 4)), u([], (3, 4)), u((), (3, 4)), u(arr([], "int64"), (3, 4)), u(True, (3, 4)), u(numpy.bool_(1), (3,)),
        u(0, ()), u(1, ()), u(0, []), u(5, []), u(0, (3, 0)), u(arr([], "int64"), (3, 0)), u(0, (3, -4)),
        u(5, (-3, -4)), u(arr([0, 5, 11]), (-3, -4), order="F"), u(0, (3.0, 4)), u(5, [[3, 4]]),
        u(5, numpy.array([[3, 4]])), u(numpy.uint64(5), (3, 4)), u(arr([5], "uint64"), (3, 4)),
        u(arr([2 ** 63 + 1], "uint64"), (3,)), u(2 ** 70, (3, 4)), u(0, (2 ** 40, 2 ** 40)),
        u(5.5, (3, 4), order="A"), u("a", (3, 4)), u(None, (3, 4)), u(arr([], "float64"), (3,)),
        u(lambda xp: xp.arange(24, dtype="int16").reshape(2, 3, 4)[:, ::2], (2, 3, 4), order="F"),
        u(lambda xp: xp.asarray([1, 7])[::-1], (3, 4)), u(arr([2 ** 40]), (2 ** 20, 2 ** 20, 2)),
    ]
    return cases


def test_ravel_unravel_argument_forms(device):
    from cases import check_cases
    check_cases(_ravel_cases())


# ---- ufunc.at: scatter-accumulate with repeated indices

AT_UFUNCS = ["add", "subtract", "multiply", "maximum", "minimum"]


@pytest.mark.parametrize("name", AT_UFUNCS)
@numpy_cunp_equal(rtol=1e-2)
def test_ufunc_at_dtypes(name, dtype, device, xp):
    rng = numpy.random.default_rng(11)
    host = random_array((40,), dtype, rng, low=1, high=5)
    idx = rng.integers(-40, 40, size=300)
    vals = random_array((300,), dtype, rng, low=1, high=3)
    a = xp.asarray(host)
    getattr(xp, name).at(a, xp.asarray(idx), xp.asarray(vals))
    return a


@pytest.mark.parametrize("name", AT_UFUNCS)
@numpy_cunp_equal()
def test_ufunc_at_int_exact(name, device, xp):
    rng = numpy.random.default_rng(12)
    a = xp.asarray(rng.integers(-1000, 1000, size=(6, 7)))
    idx = (xp.asarray(rng.integers(0, 6, size=500)), xp.asarray(rng.integers(-7, 7, size=500)))
    getattr(xp, name).at(a, idx, xp.asarray(rng.integers(-5, 5, size=500)))
    return a


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@numpy_cunp_equal(rtol=1e-12)
def test_ufunc_at_forms(device, xp):
    a = xp.asarray(numpy.zeros((4, 5)))
    xp.add.at(a, ([0, 0, 3], slice(None)), 1.0)                      # scalar b, row slices
    xp.add.at(a, (slice(1, 3), [4, 4]), xp.asarray(numpy.array([[1.0, 2.0], [3.0, 4.0]])))
    xp.subtract.at(a, (Ellipsis, [0, 0]), 0.5)
    xp.multiply.at(a, (1, slice(None)), 3.0)                           # basic index
    xp.negative.at(a, ([2, 2, 3],))                                    # unary, applied twice at 2
    b = xp.asarray(numpy.arange(6, dtype=numpy.int64))
    xp.add.at(b, [0, 0, 5], 1.7)                                       # unsafe cast back per step
    c = xp.asarray(numpy.arange(4.0))
    xp.maximum.at(c, [0, 1, 1], xp.asarray(numpy.array([numpy.nan, 5.0, 2.0])))
    xp.minimum.at(c, [2, 2], xp.asarray(numpy.array([-1.0, numpy.nan])))
    d = xp.asarray(numpy.zeros(3, numpy.complex128))
    xp.add.at(d, [1, 1, 1], 1 + 2j)
    xp.multiply.at(d, [1, 1], 1j)
    e = xp.asarray(numpy.ones(3, numpy.int8))
    xp.add.at(e, [0] * 300, xp.asarray(numpy.ones(300, numpy.int8)))  # wraps, 1-byte CAS
    f = xp.asarray(numpy.arange(3, dtype=numpy.float16))
    xp.add.at(f, [2, 2, 2], 0.5)
    return a, b, c, d, e, f


@pytest.mark.parametrize("case", ["bounds", "no_b", "unary_b", "two_outputs", "shape", "bool_subtract"])
@numpy_cunp_equal()
def test_ufunc_at_errors(case, device, xp):
    a = xp.asarray(numpy.zeros(3))
    if case == "bounds":
        xp.add.at(a, xp.asarray(numpy.array([0, 3])), 1.0)
    elif case == "no_b":
        xp.add.at(a, [0])
    elif case == "unary_b":
        xp.negative.at(a, [0], 1.0)
    elif case == "two_outputs":
        xp.divmod.at(a, [0], 1.0)
    elif case == "shape":
        xp.add.at(a, [0, 1], xp.asarray(numpy.ones(3)))
    else:
        b = xp.asarray(numpy.zeros(3, bool))
        xp.subtract.at(b, [0], True)
    return a


def test_ufunc_at_bounds_message(device):
    a = cunp.zeros(3)
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 0 with size 3"):
        cunp.add.at(a, cunp.asarray(numpy.array([0, -4])), 1.0)


def test_ufunc_at_many_duplicates(device):
    # Every update lands on 8 positions: atomics must not lose any.
    n = 1 << 16
    idx = numpy.arange(n) % 8
    a = cunp.zeros(8, dtype=cunp.int64)
    cunp.add.at(a, cunp.asarray(idx), 1)
    assert_array_equal(a, numpy.full(8, n // 8, numpy.int64))
    f = cunp.zeros(8, dtype=cunp.float32)
    cunp.add.at(f, cunp.asarray(idx), cunp.ones(n, dtype=cunp.float32))
    assert_array_equal(f, numpy.full(8, n // 8, numpy.float32))
    m = cunp.zeros(8, dtype=cunp.float64)
    vals = numpy.random.default_rng(1).random(n)
    cunp.maximum.at(m, cunp.asarray(idx), cunp.asarray(vals))
    expected = numpy.zeros(8)
    numpy.maximum.at(expected, idx, vals)
    assert_array_equal(m, expected)


@pytest.mark.parametrize("mode", ["wrap", "clip"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@numpy_cunp_equal()
def test_take_put_modes(mode, axis, device, xp):
    a = _arr(xp, (3, 4))
    idx = xp.asarray(numpy.array([[-7, 0], [5, 13]]))
    b = _arr(xp, (3, 4)).copy()
    xp.put(b, idx, xp.asarray(numpy.array([1.0, 2.0, 3.0], numpy.float32)), mode=mode)
    return xp.take(a, idx, axis=axis, mode=mode), a.take(idx, axis=axis, mode=mode), b


@numpy_cunp_equal()
def test_index_methods(device, xp):
    a = _arr(xp, (3, 4))
    return (a.compress(xp.asarray(numpy.array([True, False, True])), axis=0),
            xp.asarray(numpy.array([1, 0, 2])).choose([xp.arange(3), xp.arange(3) * 10, xp.arange(3) * 100]),
            a.diagonal(), a.diagonal(1))


@numpy_cunp_equal()
def test_setitem_full_mask(dtype, device, xp):
    rng = numpy.random.default_rng(9)
    host = random_array((3, 1500), dtype, rng)
    mask = rng.random((3, 1500)) > 0.5
    a, b, c = xp.array(host), xp.array(host), xp.array(host)  # three copies (numpy.asarray would alias)
    vals = random_array((int(mask.sum()),), dtype, rng)
    a[xp.asarray(mask)] = xp.asarray(vals)
    b[xp.asarray(mask)] = xp.asarray(host[0, :1])  # broadcast from shape (1,)
    c[xp.asarray(numpy.zeros((3, 1500), bool))] = xp.asarray(vals[:1])
    return a, b, c


@pytest.mark.parametrize("count", [0, 2])
@numpy_cunp_equal()
def test_setitem_full_mask_count_mismatch(count, device, xp):
    a = _arr(xp, (4, 5)).copy()
    a[a > 7] = xp.asarray(numpy.ones(count, numpy.float32))
    return a

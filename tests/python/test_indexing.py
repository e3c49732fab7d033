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


def test_random_fuzz(device):
    rng = numpy.random.default_rng(1234)
    for _ in range(150):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 5, size=ndim))
        host = numpy.arange(int(numpy.prod(shape)), dtype=numpy.float64).reshape(shape)
        key = []
        for d in range(ndim):
            r = rng.random()
            n = shape[d]
            if r < 0.3:
                key.append(rng.integers(-n, n, size=tuple(rng.integers(1, 3, size=int(rng.integers(1, 3))))))
            elif r < 0.45:
                key.append(slice(int(rng.integers(-n, n)), None, int(rng.choice([-2, -1, 1, 2]))))
            elif r < 0.55:
                key.append(int(rng.integers(-n, n)))
            elif r < 0.65:
                key.append(None)
                key.append(slice(None))
            elif r < 0.75:
                key.append(rng.random(n) > 0.5)
            else:
                key.append(slice(None))
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

"""cunp.ndarray against NumPy: attributes, views, basic indexing, reshape, copies,
casts, fill, item and host conversions."""
import itertools

import numpy
import pytest

import cunp
from helpers import assert_array_equal, numpy_cunp_equal, random_array


def host_and_device(shape, dtype, rng=None):
    h = random_array(shape, dtype, rng)
    return h, cunp.asarray(h)


# ---- attributes ---------------------------------------------------------------

@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4, 5)])
def test_attributes(device, dtype, shape):
    h, d = host_and_device(shape, dtype)
    assert d.shape == h.shape
    assert d.dtype == h.dtype
    assert d.ndim == h.ndim
    assert d.size == h.size
    assert d.itemsize == h.itemsize
    assert d.nbytes == h.nbytes
    assert d.strides == h.strides
    assert d.flags.c_contiguous == h.flags.c_contiguous
    assert d.flags.f_contiguous == h.flags.f_contiguous
    assert d.flags["C_CONTIGUOUS"] == h.flags["C_CONTIGUOUS"]
    assert str(d.device) == device
    assert d.T.shape == h.T.shape and d.T.strides == h.T.strides


def test_owndata_and_base(device):
    a = cunp.arange(12)
    assert a.flags.owndata and a.base is None
    v = a[2:5]
    assert not v.flags.owndata and v.base is not None
    assert v.base.shape == (12,)
    vv = v[1:]
    assert vv.base.shape == (12,)  # the base is the owner, as in NumPy
    assert cunp.may_share_memory(a, vv)
    assert not cunp.may_share_memory(a, a.copy())


def test_views_share_memory(device):
    a = cunp.zeros((4, 5))
    v = a[1:3, ::2]
    v[...] = 7
    expected = numpy.zeros((4, 5))
    expected[1:3, ::2] = 7
    assert_array_equal(a, expected)


def test_len_and_iteration(device):
    h, d = host_and_device((3, 2), numpy.int32)
    assert len(d) == 3
    rows = [r.get() for r in d]
    for r, e in zip(rows, h):
        numpy.testing.assert_array_equal(r, e)
    with pytest.raises(TypeError):
        len(cunp.asarray(numpy.float64(1.0)))


# ---- basic indexing -----------------------------------------------------------

BASIC_KEYS = [
    0, -1, 2, slice(None), slice(1, None), slice(None, None, -1), slice(-2, None, -2), slice(5, 1, -1),
    slice(10, 20), slice(-100, 100, 3), (1, 2), (Ellipsis, 1), (None, 1), (1, None, slice(None, None, 2)),
    (slice(1, -1), Ellipsis, slice(None, None, -1)), (Ellipsis,), (), (None,), (None, Ellipsis, None),
    (-1, -1, -1), (0, slice(None), 0), numpy.int64(1), (numpy.int32(-2), slice(None)),
]


@pytest.mark.parametrize("key", BASIC_KEYS, ids=[repr(k) for k in BASIC_KEYS])
@numpy_cunp_equal()
def test_getitem_basic(device, key, xp):
    a = xp.asarray(numpy.arange(4 * 5 * 6, dtype=numpy.float32).reshape(4, 5, 6))
    return a[key]


@pytest.mark.parametrize("key", [(0, 0, 0, 0), 4, -5, (1, 5), (Ellipsis, Ellipsis), 1.5, "a"],
                         ids=lambda k: repr(k))
@numpy_cunp_equal()
def test_getitem_errors(device, key, xp):
    a = xp.asarray(numpy.arange(60).reshape(4, 5, 3))
    return a[key]


def test_getitem_step_zero(device):
    with pytest.raises(ValueError):
        cunp.arange(5)[::0]


def test_getitem_out_of_bounds_message(device):
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 1 with size 5"):
        cunp.zeros((3, 5))[0, 7]


def _random_basic_key(rng, shape):
    key = []
    dims = list(shape)
    used_ellipsis = False
    i = 0
    while i < len(dims):
        r = rng.random()
        n = dims[i]
        if r < 0.2 and n > 0:
            key.append(int(rng.integers(-n, n)))
            i += 1
        elif r < 0.3:
            key.append(None)
        elif r < 0.35 and not used_ellipsis:
            key.append(Ellipsis)
            used_ellipsis = True
            i = len(dims) - int(rng.integers(0, len(dims) - i + 1))
        else:
            start = None if rng.random() < 0.3 else int(rng.integers(-n - 2, n + 3))
            stop = None if rng.random() < 0.3 else int(rng.integers(-n - 2, n + 3))
            step = None if rng.random() < 0.3 else int(rng.choice([-3, -2, -1, 1, 2, 3]))
            key.append(slice(start, stop, step))
            i += 1
        if rng.random() < 0.15:
            break
    return tuple(key)


def test_basic_index_fuzz_get_and_set(device):
    rng = numpy.random.default_rng(1234)
    for trial in range(300):
        nd = int(rng.integers(0, 5))
        shape = tuple(int(rng.integers(0, 5)) for _ in range(nd))
        dtype = [numpy.int32, numpy.float64, numpy.complex64, numpy.bool_][trial % 4]
        h = random_array(shape, dtype, rng)
        d = cunp.asarray(h)
        key = _random_basic_key(rng, shape)
        expected = h[key]
        actual = d[key]
        assert_array_equal(actual, numpy.asarray(expected))
        # Assignment through the same index, with a broadcastable value.
        value = random_array(numpy.shape(expected)[-1:] if numpy.ndim(expected) else (), dtype, rng)
        h2 = h.copy()
        h2[key] = value
        d2 = cunp.asarray(h.copy())
        d2[key] = cunp.asarray(value)
        assert_array_equal(d2, h2)


@numpy_cunp_equal()
def test_setitem_broadcast_and_cast(device, xp):
    a = xp.zeros((4, 6), dtype=numpy.int32)
    a[1:-1, ::2] = xp.asarray(numpy.array([1.7, -2.2, 3.9]))
    a[0] = 5
    a[-1, ...] = xp.asarray(numpy.arange(6, dtype=numpy.int64))
    return a


@numpy_cunp_equal()
def test_setitem_shape_mismatch(device, xp):
    a = xp.zeros((4, 6))
    a[:, :2] = xp.asarray(numpy.ones((4, 3)))
    return a


@numpy_cunp_equal()
def test_setitem_overlapping_views(device, xp):
    a = xp.asarray(numpy.arange(10, dtype=numpy.float64))
    a[1:] = a[:-1]
    return a


@numpy_cunp_equal()
def test_setitem_from_list_and_numpy(device, xp):
    a = xp.zeros((2, 3))
    a[0] = [1, 2, 3]
    a[1] = numpy.array([4.5, 5.5, 6.5])
    return a


@numpy_cunp_equal()
def test_setitem_python_int_overflow(device, xp):
    a = xp.zeros(3, dtype=numpy.int8)
    a[0] = 300
    return a


def test_setitem_read_only(device):
    b = cunp.broadcast_to(cunp.arange(3), (2, 3))
    with pytest.raises(ValueError):
        b[0, 0] = 1


# ---- reshape, ravel, transpose, squeeze ----------------------------------------

@pytest.mark.parametrize("shape,new,order", [
    ((24,), (2, 3, 4), "C"), ((2, 3, 4), (6, 4), "C"), ((2, 3, 4), (-1,), "C"), ((2, 3, 4), (4, -1), "F"),
    ((2, 3, 4), (3, 8), "A"), ((0, 3), (3, 0), "C"), ((1,), (), "C"), ((), (1, 1), "C"),
    ((2, 3), (4, 2), "C"), ((2, 3), (-1, -1), "C"), ((6,), (4, -1), "C"),
])
@numpy_cunp_equal()
def test_reshape(device, shape, new, order, xp):
    a = xp.asarray(numpy.arange(int(numpy.prod(shape)), dtype=numpy.int16).reshape(shape))
    return a.reshape(new, order=order)


@pytest.mark.parametrize("make", [
    lambda a: a.T, lambda a: a[:, ::2], lambda a: a[::-1], lambda a: a[1:, 1:], lambda a: a.transpose(1, 0, 2),
], ids=["T", "step", "reversed", "offset", "perm"])
@pytest.mark.parametrize("new", [(-1,), (2, -1), (4, 3, -1)])
def test_reshape_view_iff_numpy_view(device, make, new):
    h = numpy.arange(4 * 6 * 2, dtype=numpy.float32).reshape(4, 6, 2)
    d = cunp.asarray(h)
    hv, dv = make(h), make(d)
    try:
        hr = hv.reshape(new)
    except ValueError:
        with pytest.raises(ValueError):
            dv.reshape(new)
        return
    dr = dv.reshape(new)
    assert_array_equal(dr, hr)
    assert (hr.base is not None and numpy.shares_memory(hr, h)) == cunp.may_share_memory(dr, d)


def test_reshape_args_forms(device):
    a = cunp.arange(6)
    assert a.reshape(2, 3).shape == (2, 3)
    assert a.reshape((3, 2)).shape == (3, 2)
    with pytest.raises(ValueError, match="cannot reshape array of size 6 into shape"):
        a.reshape(4, 2)


def test_shape_setter(device):
    a = cunp.arange(6)
    a.shape = (2, 3)
    assert a.shape == (2, 3)
    with pytest.raises(AttributeError):
        t = a.T
        t.shape = (6,)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("make", [lambda a: a, lambda a: a.T, lambda a: a[::2, ::-1], lambda a: a[:, 1]],
                         ids=["plain", "T", "strided", "column"])
@numpy_cunp_equal()
def test_ravel_and_flatten(device, order, make, xp):
    a = make(xp.asarray(numpy.arange(20, dtype=numpy.float64).reshape(4, 5)))
    return a.ravel(order), a.flatten(order if order != "K" else "C")


@pytest.mark.parametrize("axes", [None, (1, 0, 2), (2, 0, 1), (-1, 0, 1)])
@numpy_cunp_equal()
def test_transpose(device, axes, xp):
    a = xp.asarray(numpy.arange(24).reshape(2, 3, 4))
    return a.transpose(axes) if axes is not None else a.transpose()


@numpy_cunp_equal()
def test_transpose_bad_axes(device, xp):
    return xp.asarray(numpy.zeros((2, 3))).transpose(0, 0)


@pytest.mark.parametrize("axis", [None, 0, 2, (0, 2), -1, 1])
@numpy_cunp_equal()
def test_squeeze(device, axis, xp):
    return xp.asarray(numpy.zeros((1, 3, 1))).squeeze(axis=axis)


# ---- copies and casts ----------------------------------------------------------

@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("make", [lambda a: a, lambda a: a.T, lambda a: a[::-1, 1::2], lambda a: a.transpose(2, 0, 1)],
                         ids=["plain", "T", "neg", "perm"])
def test_copy_orders(device, order, make):
    h = numpy.arange(2 * 6 * 4, dtype=numpy.int32).reshape(2, 6, 4)
    d = cunp.asarray(h)
    hc = make(h).copy(order=order)
    dc = make(d).copy(order=order)
    assert_array_equal(dc, hc)
    assert dc.strides == hc.strides
    assert dc.flags.owndata


def test_astype_all_pairs(device):
    rng = numpy.random.default_rng(7)
    dtypes = [numpy.dtype(t) for t in "?bhilBHILefdFD"]
    for src in dtypes:
        h = random_array((37,), src, rng, low=0, high=100)
        d = cunp.asarray(h)
        strided_h = h[::3]
        strided_d = d[::3]
        for dst in dtypes:
            with numpy.errstate(all="ignore"):
                import warnings
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    expected = h.astype(dst)
                    expected_strided = strided_h.astype(dst)
            assert_array_equal(d.astype(dst), expected)
            assert_array_equal(strided_d.astype(dst), expected_strided)


@pytest.mark.parametrize("values,dst", [
    ([300.0, -1.0, 1e10, -1e10, 2.5e9], numpy.int8),
    ([300.0, -1.0, 70000.5], numpy.uint8),
    ([-1.0, 4e9, 2.0**40], numpy.uint32),
    ([3e9, -3e9, 1e20], numpy.int32),
    ([65519.0, 65520.0, 1e-8, 6e-8, -0.0, 1e5], numpy.float16),
    ([1.0000001, 3.4e38, 3.5e38, 1e-46], numpy.float32),
])
def test_astype_out_of_range_matches_numpy(device, values, dst):
    h = numpy.array(values, dtype=numpy.float64)
    with numpy.errstate(all="ignore"):
        expected = h.astype(dst)
    assert_array_equal(cunp.asarray(h).astype(dst), expected)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("pair", [("f8", "f4"), ("f4", "f8"), ("i8", "u8"), ("u1", "i2"), ("c8", "f4"), ("f4", "f4")])
@numpy_cunp_equal()
def test_astype_casting_rule(device, casting, pair, xp):
    a = xp.asarray(numpy.ones(3, dtype=pair[0]))
    return a.astype(pair[1], casting=casting)


def test_astype_copy_false(device):
    a = cunp.arange(4, dtype=numpy.float32)
    assert a.astype(numpy.float32, copy=False) is a or cunp.may_share_memory(a.astype(numpy.float32, copy=False), a)
    b = a.astype(numpy.float64, copy=False)
    assert not cunp.may_share_memory(a, b)


# ---- fill, item, host conversions ----------------------------------------------

@pytest.mark.parametrize("value", [0, 1, -3, 2.5, True, 1 + 2j, numpy.float32(1.5), numpy.int8(-4)])
def test_fill(device, dtype, value):
    h = numpy.empty((3, 4), dtype=dtype)
    d = cunp.empty((3, 4), dtype=dtype)
    try:
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            h.fill(value)
    except (TypeError, OverflowError) as e:
        with pytest.raises(type(e)):
            d.fill(value)
        return
    d.fill(value)
    assert_array_equal(d, h)
    v = d[:, ::2]
    v.fill(0)
    h[:, ::2] = 0
    assert_array_equal(d, h)


def test_item_and_scalars(device, dtype):
    h = random_array((2, 3), dtype)
    d = cunp.asarray(h)
    assert d.item(4) == h.item(4)
    assert type(d.item(4)) is type(h.item(4))
    assert d.item((1, 2)) == h.item((1, 2))
    assert d[1, 2].item() == h[1, 2].item()
    with pytest.raises(ValueError):
        d.item()
    with pytest.raises(IndexError):
        d.item(6)
    s = d[0, 0]
    if dtype.kind == "c":
        assert complex(s) == complex(h[0, 0])
    else:
        assert float(s) == float(h[0, 0])
        assert int(s) == int(h[0, 0])
    assert bool(s) == bool(h[0, 0])


def test_truth_value_errors(device):
    with pytest.raises(ValueError, match="ambiguous"):
        bool(cunp.arange(3))
    with pytest.raises(TypeError):
        float(cunp.arange(3))
    assert bool(cunp.zeros((1, 1))) is False


@pytest.mark.parametrize("shape", [(), (0,), (1,), (1, 1), (2,), (2, 3)])
@pytest.mark.parametrize("convert", [bool, int, float, complex])
def test_python_scalar_conversions_follow_numpy(device, shape, convert):
    """NumPy 2: bool() of any one-element array; int/float/complex of 0-d arrays only."""
    h = numpy.full(shape, 1.5)
    d = cunp.asarray(h)
    try:
        expected = convert(h)
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e)) as got:
            convert(d)
        assert str(got.value) == str(e)
    else:
        assert convert(d) == expected
        assert type(convert(d)) is type(expected)


def test_tolist(device, dtype):
    h = random_array((2, 3), dtype)
    assert cunp.asarray(h).tolist() == h.tolist()
    assert cunp.asarray(h[0, 0]).tolist() == h[0, 0].tolist()


def test_index_dunder(device):
    a = cunp.asarray(numpy.int64(3))
    assert [0, 1, 2, 3, 4][a] == 3
    with pytest.raises(TypeError):
        [0, 1][cunp.asarray(numpy.float64(1.0))]


def test_implicit_numpy_conversion(device):
    a = cunp.arange(3)
    if device == "cpu":
        numpy.testing.assert_array_equal(numpy.asarray(a), [0, 1, 2])
    else:
        with pytest.raises(TypeError, match=r"\.get\(\)"):
            numpy.asarray(a)


def test_get_and_set(device, dtype):
    h = random_array((3, 5), dtype)
    d = cunp.empty((3, 5), dtype=dtype)
    d.set(h)
    numpy.testing.assert_array_equal(d.get(), h)
    f = d.get(order="F")
    assert f.flags.f_contiguous
    numpy.testing.assert_array_equal(f, h)
    out = numpy.empty((3, 5), dtype=dtype)
    assert d.get(out=out) is out
    numpy.testing.assert_array_equal(out, h)
    # Non-contiguous target.
    d2 = cunp.zeros((3, 10), dtype=dtype)
    d2[:, ::2].set(h)
    numpy.testing.assert_array_equal(d2.get()[:, ::2], h)
    with pytest.raises(ValueError):
        d.set(h[:2])
    with pytest.raises(TypeError):
        d.set(h.astype(numpy.float32 if dtype != numpy.float32 else numpy.float64))


def test_broadcast_to(device):
    h = numpy.arange(3)
    d = cunp.broadcast_to(cunp.asarray(h), (4, 3))
    assert_array_equal(d, numpy.broadcast_to(h, (4, 3)))
    assert d.strides == (0, 8)
    assert not d.flags.writeable
    with pytest.raises(ValueError):
        cunp.broadcast_to(cunp.asarray(h), (4, 2))


@pytest.mark.parametrize("shape", [(0,), (2, 0)])
def test_empty_arrays(device, dtype, shape):
    d = cunp.zeros(shape, dtype=dtype)
    assert d.size == 0
    assert d.copy().shape == shape
    assert d.astype(numpy.float64).shape == shape
    d.fill(1)
    assert d.get().shape == shape


def test_big_copy_and_cast(device):
    rng = numpy.random.default_rng(3)
    h = rng.standard_normal((1 << 20) + 3).astype(numpy.float32)
    d = cunp.asarray(h)
    assert_array_equal(d.copy(), h.copy())
    assert_array_equal(d[1:].astype(numpy.float64), h[1:].astype(numpy.float64))
    assert_array_equal(d[::7].astype(numpy.float16), h[::7].astype(numpy.float16))

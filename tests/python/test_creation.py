"""Array creation against NumPy: empty/zeros/ones/full and *_like, ranges, eye/diag/tri,
conversions from host data and back, copy semantics, pinned host arrays."""
import numpy
import pytest

from helpers import assert_array_equal, numpy_cunp_equal, random_array
import cunp


def layout(a):
    """What an uninitialized array can be compared by: shape, dtype, strides, order flags.
    Strides of an empty array are not compared: they address nothing (NumPy 2.4 gives
    zeros for new empty arrays, a view keeps its base's)."""
    strides = a.strides if a.size else None
    return (a.shape, a.dtype, strides, bool(a.flags.c_contiguous), bool(a.flags.f_contiguous))


# ---- empty / zeros / ones


@pytest.mark.parametrize("shape", [3, (2, 3), (4, 1, 5), (), (0,), (2, 0, 3), [2, 3]], ids=str)
@pytest.mark.parametrize("order", ["C", "F"])
@numpy_cunp_equal()
def test_empty_layout(device, dtype, shape, order, xp):
    return layout(xp.empty(shape, dtype=dtype, order=order))


@numpy_cunp_equal()
def test_empty_default_dtype(device, xp):
    return layout(xp.empty((2, 2)))


@pytest.mark.parametrize("fn", ["empty", "zeros", "ones"])
@numpy_cunp_equal()
def test_negative_dimension_is_value_error(device, fn, xp):
    return getattr(xp, fn)((2, -1))


@pytest.mark.parametrize("fn", ["zeros", "ones"])
@pytest.mark.parametrize("shape", [5, (3, 4), (2, 3, 4), (), (0, 3)], ids=str)
@numpy_cunp_equal()
def test_zeros_ones_values(device, dtype, fn, shape, xp):
    return getattr(xp, fn)(shape, dtype=dtype)


@pytest.mark.parametrize("fn", ["zeros", "ones"])
@numpy_cunp_equal()
def test_zeros_ones_fortran_order(device, dtype, fn, xp):
    a = getattr(xp, fn)((3, 4, 2), dtype=dtype, order="F")
    return a, layout(a)


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty"])
@numpy_cunp_equal()
def test_creation_bad_order_is_value_error(device, fn, xp):
    return getattr(xp, fn)((2, 2), order="Q")


def test_creation_lands_on_current_device(device):
    for a in (cunp.empty(2), cunp.zeros(2), cunp.ones(2), cunp.full(2, 1), cunp.arange(2)):
        assert str(a.device) == device


# ---- full


@pytest.mark.parametrize("value", [True, False, 3, -7, 2**40, 2**63, -2.5, float("inf"), float("nan"), -0.0,
                                   1 + 2j], ids=repr)
@numpy_cunp_equal()
def test_full_python_scalar_no_dtype(device, value, xp):
    return xp.full((2, 3), value)


@pytest.mark.parametrize("value", [True, 0, 1, 100, 1.5, -0.0, 2 + 0j], ids=repr)
@numpy_cunp_equal()
def test_full_python_scalar_with_dtype(device, dtype, value, xp):
    if dtype.kind not in "c" and isinstance(value, complex):
        pytest.skip("complex to real drops the imaginary part with a warning")
    if dtype.kind in "biu" and isinstance(value, float):
        value = 2.0  # exact in every integer dtype
    return xp.full(4, value, dtype=dtype)


@pytest.mark.parametrize("value", [numpy.float32(1.5), numpy.int8(-3), numpy.uint64(2**63 + 5),
                                   numpy.float16(0.1), numpy.complex64(1 - 2j), numpy.bool_(True),
                                   numpy.int64(-2**40)], ids=lambda v: "%s(%r)" % (type(v).__name__, v.item()))
@numpy_cunp_equal()
def test_full_numpy_scalar_no_dtype(device, value, xp):
    return xp.full((3,), value)


@pytest.mark.parametrize("value", [numpy.float64(2.75), numpy.int16(-5), numpy.float16(0.1)],
                         ids=lambda v: type(v).__name__)
@pytest.mark.parametrize("target", [numpy.float32, numpy.int32, numpy.float64, numpy.complex128, numpy.bool_],
                         ids=lambda t: t.__name__)
@numpy_cunp_equal()
def test_full_numpy_scalar_with_dtype(device, value, target, xp):
    return xp.full(2, value, dtype=target)


@pytest.mark.parametrize("value,dt", [(300, numpy.int8), (-1, numpy.uint8), (128, numpy.int8),
                                      (-129, numpy.int8), (2**16, numpy.uint16), (2**31, numpy.int32),
                                      (2**63, numpy.int64), (-1, numpy.uint64)], ids=str)
@numpy_cunp_equal()
def test_full_python_int_overflow(device, value, dt, xp):
    return xp.full(3, value, dtype=dt)


@pytest.mark.parametrize("value,dt", [(127, numpy.int8), (-128, numpy.int8), (255, numpy.uint8),
                                      (2**64 - 1, numpy.uint64), (-2**63, numpy.int64)], ids=str)
@numpy_cunp_equal()
def test_full_python_int_at_the_limits(device, value, dt, xp):
    return xp.full(3, value, dtype=dt)


@numpy_cunp_equal()
def test_full_numpy_int_wraps_without_error(device, xp):
    # A NumPy scalar is strong: it is cast unsafely, no OverflowError.
    return xp.full(3, numpy.int64(300), dtype=numpy.int8)


@numpy_cunp_equal()
def test_full_float_into_integer_truncates(device, xp):
    return xp.full(3, -2.75, dtype=numpy.int32)


@numpy_cunp_equal()
def test_full_order_f(device, xp):
    a = xp.full((2, 3, 4), 7.0, order="F")
    return a, layout(a)


@numpy_cunp_equal()
def test_full_with_array_fill_broadcasts(device, xp):
    return xp.full((2, 3), xp.arange(3, dtype=numpy.int16))


@numpy_cunp_equal()
def test_full_with_array_fill_bad_shape(device, xp):
    return xp.full((2, 3), xp.arange(2))


# ---- *_like


def prototype(xp, kind, dtype=numpy.float64):
    host = numpy.arange(2 * 3 * 4).reshape(2, 3, 4).astype(dtype)
    base = xp.asarray(host)
    if kind == "C":
        return base
    if kind == "F":
        # Built from a NumPy F-ordered array so that these tests do not depend on asfortranarray.
        return xp.asarray(numpy.asfortranarray(host))
    if kind == "transposed":
        return base.transpose(1, 2, 0)
    if kind == "sliced":
        return base[:, ::2, ::-1]
    if kind == "1d-strided":
        return xp.asarray(numpy.arange(10.0).astype(dtype))[::3]
    if kind == "0d":
        return xp.asarray(numpy.array(4, dtype=dtype))
    if kind == "empty":
        return base[:, :0]
    raise AssertionError(kind)


PROTOTYPES = ["C", "F", "transposed", "sliced", "1d-strided", "0d", "empty"]


@pytest.mark.parametrize("kind", PROTOTYPES)
@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@numpy_cunp_equal()
def test_empty_like_layout(device, kind, order, xp):
    return layout(xp.empty_like(prototype(xp, kind), order=order))


@pytest.mark.parametrize("kind", PROTOTYPES)
@pytest.mark.parametrize("fn", ["zeros_like", "ones_like"])
@numpy_cunp_equal()
def test_zeros_ones_like_keep_layout(device, dtype, kind, fn, xp):
    a = getattr(xp, fn)(prototype(xp, kind, dtype))
    return a, layout(a)


@pytest.mark.parametrize("kind", ["C", "F", "transposed", "sliced"])
@pytest.mark.parametrize("new_dtype", [numpy.int8, numpy.complex128, numpy.float32, numpy.bool_],
                         ids=lambda t: t.__name__)
@numpy_cunp_equal()
def test_like_dtype_override(device, kind, new_dtype, xp):
    a = xp.ones_like(prototype(xp, kind), dtype=new_dtype)
    return a, layout(a)


@pytest.mark.parametrize("kind", ["C", "F", "transposed", "sliced", "0d"])
@pytest.mark.parametrize("shape", [(5,), (2, 7), (3, 2, 5), (4, 1, 2, 3), ()], ids=str)
@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
@numpy_cunp_equal()
def test_like_shape_override(device, kind, shape, order, xp):
    a = xp.zeros_like(prototype(xp, kind), shape=shape, order=order)
    return a, layout(a)


@pytest.mark.parametrize("kind", PROTOTYPES)
@pytest.mark.parametrize("value", [3, -1.5, True, 2 - 1j, numpy.float32(0.25)], ids=repr)
@numpy_cunp_equal()
def test_full_like(device, kind, value, xp):
    p = prototype(xp, kind, numpy.complex64 if isinstance(value, complex) else numpy.float64)
    a = xp.full_like(p, value)
    return a, layout(a)


@pytest.mark.parametrize("value,dt", [(300, numpy.int8), (-1, numpy.uint16), (2**32, numpy.uint32)], ids=str)
@numpy_cunp_equal()
def test_full_like_python_int_overflow(device, value, dt, xp):
    return xp.full_like(xp.zeros(3, dtype=dt), value)


@numpy_cunp_equal()
def test_full_like_with_dtype(device, xp):
    return xp.full_like(xp.zeros((2, 2), dtype=numpy.int32), 2.5, dtype=numpy.float32)


def test_like_keeps_device(device):
    p = cunp.zeros((2, 3))
    for a in (cunp.empty_like(p), cunp.zeros_like(p), cunp.ones_like(p), cunp.full_like(p, 2)):
        assert str(a.device) == device
        assert a.flags.owndata


# ---- arange


@pytest.mark.parametrize("args,kwargs", [
    ((5,), {}),
    ((0,), {}),
    ((-3,), {}),
    ((2, 10), {}),
    ((2, 10, 3), {}),
    ((10, 2, -2), {}),
    ((10, 2, -3), {}),
    ((5, 1), {}),
    ((1, 5, -1), {}),
    ((0.0, 1.0, 0.1), {}),
    ((1.0, -1.0, -0.25), {}),
    ((-3.5, 2), {}),
    ((0, 1, 0.1), {"dtype": numpy.float32}),
    ((0.5, 10.5, 1.5), {"dtype": numpy.float32}),
    ((3,), {"dtype": numpy.float16}),
    ((0.1, 1, 0.1), {"dtype": numpy.float16}),
    ((3,), {"dtype": numpy.int8}),
    ((2, 9, 2), {"dtype": numpy.uint16}),
    ((5,), {"dtype": numpy.float64}),
    ((4,), {"dtype": numpy.complex128}),
    ((0, 5, 0.5), {"dtype": numpy.int64}),
    ((1, 2**40, 2**38), {}),
    ((2,), {"dtype": numpy.bool_}),
], ids=lambda v: repr(v))
@numpy_cunp_equal()
def test_arange(device, args, kwargs, xp):
    return xp.arange(*args, **kwargs)


@pytest.mark.parametrize("args", [(numpy.float32(0.5), 3), (numpy.int8(2), 7), (numpy.uint8(1), 200, 50),
                                  (numpy.int16(1), 5, 0.5)], ids=repr)
@numpy_cunp_equal()
def test_arange_numpy_scalar_arguments(device, args, xp):
    return xp.arange(*args)


@pytest.mark.parametrize("args", [(0, 5, 0), (1.0, 2.0, 0.0)], ids=repr)
@numpy_cunp_equal()
def test_arange_zero_step(device, args, xp):
    return xp.arange(*args)


@numpy_cunp_equal()
def test_arange_bool_longer_than_two(device, xp):
    return xp.arange(3, dtype=bool)


@numpy_cunp_equal()
def test_arange_with_keywords(device, xp):
    return xp.arange(2, stop=8, step=2)


# ---- linspace / logspace


@pytest.mark.parametrize("args,kwargs", [
    ((0, 1, 5), {}),
    ((0, 1), {}),
    ((0, 1, 5), {"endpoint": False}),
    ((-2.5, 7, 11), {}),
    ((3, -3, 7), {}),
    ((1, 1, 4), {}),
    ((0, 1, 0), {}),
    ((0, 1, 1), {}),
    ((2, 5, 1), {"endpoint": False}),
    ((-5, 5, 7), {"dtype": numpy.int64}),
    ((0, 10, 4), {"dtype": numpy.int32}),
    ((0, 1, 6), {"dtype": numpy.float32}),
    ((0, 1, 6), {"dtype": numpy.float16}),
    ((numpy.float32(0), 1, 5), {}),
    ((0, numpy.float16(2), 5), {}),
    ((0, 100, 7), {"endpoint": False, "dtype": numpy.int16}),
    ((1e-300, 1e300, 9), {}),
], ids=lambda v: repr(v))
@numpy_cunp_equal()
def test_linspace(device, args, kwargs, xp):
    return xp.linspace(*args, **kwargs)


@pytest.mark.parametrize("args,kwargs", [
    ((0, 1, 5), {}),
    ((0, 1, 5), {"endpoint": False}),
    ((0, 1, 1), {}),
    ((0, 1, 0), {}),
    ((5, -5, 4), {}),
    ((3, 3, 3), {}),
], ids=lambda v: repr(v))
@numpy_cunp_equal()
def test_linspace_retstep(device, args, kwargs, xp):
    values, step = xp.linspace(*args, retstep=True, **kwargs)
    return values, float(step)


@numpy_cunp_equal()
def test_linspace_negative_num(device, xp):
    return xp.linspace(0, 1, -1)


@pytest.mark.parametrize("args,kwargs", [
    ((0, 3, 4), {}),
    ((0, 3), {}),
    ((-2, 2, 5), {}),
    ((0, 10, 11), {"base": 2.0}),
    ((0, 3, 4), {"endpoint": False}),
    ((0, 2, 5), {"dtype": numpy.float32}),
    ((0, 3, 4), {"dtype": numpy.int64}),
    ((1, 4, 7), {"base": 3.0, "dtype": numpy.int32}),
    ((0, 1, 0), {}),
    ((0, 1, 1), {}),
], ids=lambda v: repr(v))
@numpy_cunp_equal(rtol=1e-15)
def test_logspace(device, args, kwargs, xp):
    return xp.logspace(*args, **kwargs)


# ---- eye / identity / diag / diagonal / tri / tril / triu


@pytest.mark.parametrize("args,kwargs", [
    ((3,), {}),
    ((0,), {}),
    ((1,), {}),
    ((3, 4), {}),
    ((4, 3), {}),
    ((4, 3), {"k": 1}),
    ((3,), {"k": -1}),
    ((3, 5), {"k": 2}),
    ((5, 3), {"k": -3}),
    ((3,), {"k": 5}),
    ((3,), {"k": -5}),
    ((3,), {"dtype": numpy.int8}),
    ((2,), {"dtype": bool}),
    ((3,), {"dtype": numpy.complex64, "k": 1}),
], ids=lambda v: repr(v))
@numpy_cunp_equal()
def test_eye(device, args, kwargs, xp):
    return xp.eye(*args, **kwargs)


@numpy_cunp_equal()
def test_eye_order_f(device, xp):
    a = xp.eye(3, 4, k=1, order="F")
    return a, layout(a)


@pytest.mark.parametrize("n", [0, 1, 4])
@numpy_cunp_equal()
def test_identity(device, dtype, n, xp):
    return xp.identity(n, dtype=dtype)


@numpy_cunp_equal()
def test_identity_default_dtype(device, xp):
    return xp.identity(3)


@pytest.mark.parametrize("k", [0, 1, 2, -1, -3])
@numpy_cunp_equal()
def test_diag_1d_to_2d(device, dtype, k, xp):
    v = xp.asarray(random_array(4, dtype, numpy.random.default_rng(7)))
    return xp.diag(v, k)


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3)], ids=str)
@pytest.mark.parametrize("k", [0, 1, 2, -1, -2, 6, -6])
def test_diag_2d_to_diagonal(device, rng, shape, k):
    host = random_array(shape, numpy.float64, rng)

    @numpy_cunp_equal()
    def body(xp):
        d = xp.diag(xp.asarray(host), k)
        return d, d.shape, bool(d.flags.writeable)
    body()


def test_diag_non_contiguous_input(device, rng):
    host = random_array((6, 8), numpy.int32, rng)

    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(host)[::2, ::-2]
        return xp.diag(a), xp.diag(a, 1), xp.diag(a[0], -1)
    body()


@numpy_cunp_equal()
def test_diag_3d_is_value_error(device, xp):
    return xp.diag(xp.zeros((2, 2, 2)))


@numpy_cunp_equal()
def test_diag_from_list(device, xp):
    return xp.diag([1, 2, 3], 1)


@pytest.mark.parametrize("offset", [0, 1, -1, 3, -4])
def test_diagonal_2d(device, rng, offset):
    host = random_array((3, 4), numpy.complex64, rng)

    @numpy_cunp_equal()
    def body(xp):
        d = xp.diagonal(xp.asarray(host), offset)
        return d, bool(d.flags.writeable)
    body()


@pytest.mark.parametrize("axes", [(0, 1), (1, 2), (0, 2), (2, 0), (-1, -2)], ids=str)
@pytest.mark.parametrize("offset", [0, 1, -1])
def test_diagonal_3d(device, rng, axes, offset):
    host = random_array((2, 3, 4), numpy.float32, rng)

    @numpy_cunp_equal()
    def body(xp):
        return xp.diagonal(xp.asarray(host), offset, *axes)
    body()


@numpy_cunp_equal()
def test_diagonal_1d_is_value_error(device, xp):
    return xp.diagonal(xp.arange(3))


@pytest.mark.parametrize("args,kwargs", [
    ((3,), {}), ((3, 5), {}), ((3, 5), {"k": 1}), ((4,), {"k": -1}), ((4, 2), {"k": -2}),
    ((3,), {"k": 4}), ((0,), {}), ((3,), {"dtype": numpy.int32}), ((2, 3), {"dtype": bool}),
], ids=lambda v: repr(v))
@numpy_cunp_equal()
def test_tri(device, args, kwargs, xp):
    return xp.tri(*args, **kwargs)


@pytest.mark.parametrize("fn", ["tril", "triu"])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 3, 4), (2, 2, 3, 3), (0, 3), (3, 0)], ids=str)
@pytest.mark.parametrize("k", [0, 1, 2, -1, -2, 10, -10])
def test_tril_triu(device, rng, dtype, fn, shape, k):
    host = random_array(shape, dtype, rng)

    @numpy_cunp_equal()
    def body(xp):
        return getattr(xp, fn)(xp.asarray(host), k)
    body()


@pytest.mark.parametrize("fn", ["tril", "triu"])
def test_tril_triu_non_contiguous(device, rng, fn):
    host = random_array((5, 6), numpy.int64, rng)

    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(host)
        return getattr(xp, fn)(a.T, 1), getattr(xp, fn)(a[::-2, 1::2], -1), a
    body()


@pytest.mark.parametrize("fn", ["tril", "triu"])
@numpy_cunp_equal()
def test_tril_triu_1d_broadcasts_to_2d(device, fn, xp):
    return getattr(xp, fn)(xp.arange(1, 4))


# ---- asarray / array from host data


@pytest.mark.parametrize("obj", [
    [1, 2, 3],
    [1.0, 2, 3],
    [True, False],
    [1 + 2j, 3],
    [[1, 2], [3, 4]],
    [[[1.5], [2.5]], [[3.5], [4.5]]],
    [1, 2.5, 3j],
    [True, 2],
    [],
    [[], []],
    [2**63],
    [-1, 2**62],
    [numpy.float32(1), numpy.float32(2)],
    [numpy.int8(1), 2],
    (1, 2, 3),
    [(1, 2), (3, 4)],
], ids=repr)
@pytest.mark.parametrize("fn", ["asarray", "array"])
@numpy_cunp_equal()
def test_from_lists(device, obj, fn, xp):
    return getattr(xp, fn)(obj)


@pytest.mark.parametrize("obj", [[1, 2, 3], [1.5, -2.5], [[1, 2], [3, 4]], [True, False, True], 7, 2.5],
                         ids=repr)
@numpy_cunp_equal()
def test_from_lists_with_dtype(device, dtype, obj, xp):
    return xp.asarray(obj, dtype=dtype)


@numpy_cunp_equal()
def test_ragged_list_is_value_error(device, xp):
    return xp.asarray([[1, 2], [3]])


def test_python_int_too_large(device):
    # NumPy makes an object array, which cunp cannot hold.
    assert numpy.asarray([2**64]).dtype == object
    with pytest.raises((TypeError, OverflowError)):
        cunp.asarray([2**64])


@pytest.mark.parametrize("value", [5, -3, 2.5, True, 1j, float("nan"), -0.0], ids=repr)
@pytest.mark.parametrize("fn", ["asarray", "array"])
@numpy_cunp_equal()
def test_python_scalar_is_0d(device, value, fn, xp):
    a = getattr(xp, fn)(value)
    return a, a.ndim, a.shape


@pytest.mark.parametrize("shape", [(), (5,), (3, 4), (2, 3, 4), (0, 2)], ids=str)
def test_from_numpy_every_dtype(device, dtype, rng, shape):
    host = random_array(shape, dtype, rng)
    for fn in (cunp.asarray, cunp.array):
        a = fn(host)
        assert_array_equal(a, host)
        assert str(a.device) == device


def test_from_numpy_non_contiguous(device, dtype, rng):
    host = random_array((4, 6), dtype, rng)
    for view in (host.T, host[::2, ::-3], host[1:, 2]):
        assert_array_equal(cunp.asarray(view), view)
        assert_array_equal(cunp.array(view), view)


def test_from_numpy_special_values(device):
    host = numpy.array([numpy.nan, numpy.inf, -numpy.inf, -0.0, 0.0, 5e-324])
    a = cunp.asarray(host)
    assert_array_equal(a, host)
    assert numpy.signbit(a.get()[3]) and not numpy.signbit(a.get()[4])


def test_from_numpy_scalar(device, dtype):
    value = numpy.ones((), dtype=dtype)[()]
    a = cunp.asarray(value)
    assert a.shape == () and a.dtype == dtype
    assert a.item() == value.item()


@pytest.mark.parametrize("target", [numpy.float32, numpy.int16, numpy.complex128, numpy.bool_],
                         ids=lambda t: t.__name__)
def test_from_numpy_with_dtype(device, rng, dtype, target):
    host = random_array((3, 2), dtype, rng)
    if dtype.kind == "c" and numpy.dtype(target).kind != "c":
        host = host.real.copy()
    expected = host.astype(target)
    assert_array_equal(cunp.asarray(host, dtype=target), expected)
    assert_array_equal(cunp.array(host, dtype=target), expected)


def test_array_of_cunp_array_is_a_copy(device, dtype, rng):
    a = cunp.asarray(random_array((3, 4), dtype, rng))
    b = cunp.array(a)
    assert b is not a
    assert b.flags.owndata
    assert_array_equal(b, a.get())
    a.fill(1)
    b.fill(0)
    assert_array_equal(a, numpy.ones((3, 4), dtype=dtype))


def test_asarray_of_cunp_array_is_itself(device):
    a = cunp.arange(6).reshape(2, 3)
    assert cunp.asarray(a) is a
    assert cunp.asarray(a, dtype=a.dtype) is a
    assert cunp.array(a, copy=False) is a
    b = cunp.asarray(a, dtype=numpy.float32)
    assert b is not a and b.dtype == numpy.float32
    assert_array_equal(b, numpy.arange(6, dtype=numpy.float32).reshape(2, 3))


def test_array_copy_keeps_layout(device):
    f = cunp.asarray(numpy.asfortranarray(numpy.arange(6.0).reshape(2, 3)))
    assert f.flags.f_contiguous
    assert cunp.array(f).flags.f_contiguous
    assert cunp.array(f, order="C").flags.c_contiguous
    assert_array_equal(cunp.array(f, order="C"), numpy.arange(6.0).reshape(2, 3))


def test_asarray_numpy_shares_memory_on_cpu(device):
    host = numpy.arange(6.0)
    a = cunp.asarray(host)
    assert_array_equal(a, numpy.arange(6.0))
    host[2] = 42.0
    if device == "cpu":
        assert a.item(2) == 42.0
        a[3] = -1.0
        assert host[3] == -1.0
    else:
        assert a.item(2) == 2.0


def test_array_of_numpy_copies(device):
    host = numpy.arange(6.0)
    a = cunp.array(host)
    host[2] = 42.0
    assert a.item(2) == 2.0
    a[0] = 9.0
    assert host[0] == 0.0


def test_asarray_read_only_numpy(device):
    host = numpy.arange(3.0)
    host.flags.writeable = False
    a = cunp.asarray(host)
    assert_array_equal(a, host)
    if device == "cpu":
        assert not a.flags.writeable
        with pytest.raises(ValueError):
            a[0] = 1.0
    assert cunp.array(host).flags.writeable


@pytest.mark.parametrize("obj,ndmin", [([1, 2], 3), (5, 2), ([[1, 2]], 1), ([[1, 2]], 4), (2.5, 0)], ids=repr)
@numpy_cunp_equal()
def test_array_ndmin(device, obj, ndmin, xp):
    a = xp.array(obj, ndmin=ndmin)
    return a, a.shape


@numpy_cunp_equal()
def test_array_ndmin_of_array(device, xp):
    a = xp.array(xp.arange(3), ndmin=3)
    return a, a.shape


@pytest.mark.parametrize("fn", ["ascontiguousarray", "asfortranarray"])
@pytest.mark.parametrize("kind", ["C", "F", "transposed", "sliced", "1d-strided", "0d", "empty"])
@numpy_cunp_equal()
def test_ascontiguous_asfortran(device, fn, kind, xp):
    a = getattr(xp, fn)(prototype(xp, kind, numpy.int32))
    return a, layout(a)


@pytest.mark.parametrize("fn", ["ascontiguousarray", "asfortranarray"])
@numpy_cunp_equal()
def test_ascontiguous_asfortran_dtype(device, fn, xp):
    a = getattr(xp, fn)(prototype(xp, "transposed"), dtype=numpy.float32)
    return a, layout(a)


@pytest.mark.parametrize("fn", ["ascontiguousarray", "asfortranarray"])
@pytest.mark.parametrize("obj", [[[1, 2], [3, 4]], 5.0], ids=repr)
@numpy_cunp_equal()
def test_ascontiguous_asfortran_host_input(device, fn, obj, xp):
    a = getattr(xp, fn)(obj)
    return a, layout(a)


def test_ascontiguous_of_contiguous_shares_memory(device):
    a = cunp.arange(6).reshape(2, 3)
    b = cunp.ascontiguousarray(a)
    assert cunp.may_share_memory(a, b)
    f = cunp.asfortranarray(a.T)
    assert cunp.may_share_memory(a, f)


# ---- back to the host


def test_asnumpy_and_get(device, dtype, rng):
    host = random_array((3, 4), dtype, rng)
    a = cunp.asarray(host)
    for out in (cunp.asnumpy(a), a.get()):
        assert type(out) is numpy.ndarray
        assert out.dtype == dtype and out.shape == (3, 4)
        numpy.testing.assert_array_equal(out, host)
        assert out.flags.c_contiguous
        assert not numpy.shares_memory(out, host)


def test_get_non_contiguous(device, dtype, rng):
    host = random_array((4, 5), dtype, rng)
    a = cunp.asarray(host)
    for expected, view in ((host.T, a.T), (host[::-2, 1::2], a[::-2, 1::2]), (host[2], a[2])):
        out = view.get()
        numpy.testing.assert_array_equal(out, expected)
        assert out.dtype == dtype and out.flags.c_contiguous


@pytest.mark.parametrize("order", ["C", "F"])
def test_get_order(device, rng, order):
    host = random_array((3, 4, 2), numpy.float32, rng)
    a = cunp.asarray(host)
    for out in (a.get(order=order), cunp.asnumpy(a, order=order), a.T.get(order=order)):
        assert out.flags["C_CONTIGUOUS" if order == "C" else "F_CONTIGUOUS"]
    numpy.testing.assert_array_equal(a.get(order=order), host)
    numpy.testing.assert_array_equal(a.T.get(order=order), host.T)


def test_get_into_out(device, rng):
    host = random_array((2, 3), numpy.int16, rng)
    a = cunp.asarray(host)
    out = numpy.empty((2, 3), dtype=numpy.int16)
    assert a.get(out=out) is out
    numpy.testing.assert_array_equal(out, host)
    with pytest.raises(ValueError):
        a.get(out=numpy.empty((3, 2), dtype=numpy.int16))


def test_get_0d_and_empty(device):
    out = cunp.asarray(2.5).get()
    assert type(out) is numpy.ndarray and out.shape == () and out == 2.5
    empty = cunp.zeros((0, 3), dtype=numpy.int8).get()
    assert empty.shape == (0, 3) and empty.dtype == numpy.int8


def test_asnumpy_of_host_data():
    host = numpy.arange(3)
    assert cunp.asnumpy(host) is host
    out = cunp.asnumpy([1.5, 2.5])
    assert type(out) is numpy.ndarray and out.dtype == numpy.float64
    numpy.testing.assert_array_equal(out, [1.5, 2.5])


def test_set_from_host(device, dtype, rng):
    a = cunp.zeros((3, 4), dtype=dtype)
    host = random_array((3, 4), dtype, rng)
    a.set(host)
    assert_array_equal(a, host)
    host[0, 0] = host[1, 1]
    a.set(numpy.asfortranarray(host))
    assert_array_equal(a, host)


def test_set_into_non_contiguous_view(device, rng):
    a = cunp.zeros((4, 6), dtype=numpy.float64)
    host = random_array((2, 3), numpy.float64, rng)
    a[::2, ::2].set(host)
    expected = numpy.zeros((4, 6))
    expected[::2, ::2] = host
    assert_array_equal(a, expected)


def test_set_shape_mismatch(device):
    a = cunp.zeros((3, 4))
    with pytest.raises(ValueError):
        a.set(numpy.zeros((4, 3)))
    with pytest.raises(ValueError):
        a.set(numpy.zeros(12))
    assert_array_equal(a, numpy.zeros((3, 4)))


def test_set_dtype_mismatch(device):
    a = cunp.zeros(3, dtype=numpy.float32)
    with pytest.raises(TypeError):
        a.set(numpy.zeros(3, dtype=numpy.float64))
    with pytest.raises(TypeError):
        a.set(numpy.zeros(3, dtype=numpy.int32))


def test_get_array_module(device):
    a = cunp.zeros(2)
    h = numpy.zeros(2)
    assert cunp.get_array_module(a) is cunp
    assert cunp.get_array_module(h) is numpy
    assert cunp.get_array_module(h, a) is cunp
    assert cunp.get_array_module(h, 1.0, [1]) is numpy
    assert cunp.get_array_module() is numpy


# ---- pinned host memory


@pytest.mark.parametrize("fn", ["empty_pinned", "zeros_pinned"])
@pytest.mark.parametrize("shape,dt,order", [((3, 4), numpy.float32, "C"), (5, None, "C"),
                                            ((2, 3), numpy.complex128, "F"), ((0,), numpy.int8, "C")], ids=str)
def test_pinned(fn, shape, dt, order):
    try:
        out = getattr(cunp, fn)(shape, dtype=dt, order=order)
    except Exception as e:  # noqa: BLE001 - the type is what is checked
        assert type(e) is cunp.cuda.CUDARuntimeError, "%s raised %r" % (fn, e)
        return
    expected = numpy.zeros(shape, dtype=dt, order=order)
    assert type(out) is numpy.ndarray
    assert out.shape == expected.shape and out.dtype == expected.dtype
    assert out.strides == expected.strides
    if fn == "zeros_pinned":
        numpy.testing.assert_array_equal(out, expected)
    out[...] = 1
    numpy.testing.assert_array_equal(out, numpy.ones_like(expected))


# ---- argument forms of the creation functions (issue 17, Deliver 2)


def same(fn, **kw):
    """fn(xp) under NumPy and cunp: equal results, or exceptions of the same type."""
    numpy_cunp_equal(**kw)(lambda xp: fn(xp))()


SHAPE_FORMS = [3, (2, 3), [2, 3], (), [], (0,), numpy.int8(3), numpy.int64(2), (numpy.int16(2), numpy.uint8(3)),
               numpy.array(3), (numpy.array(2), 3), [numpy.intp(1), numpy.array(0)]]


def test_shape_argument_forms(device):
    for shape in SHAPE_FORMS:
        same(lambda xp: layout(xp.empty(shape)))
        same(lambda xp: layout(xp.empty(shape, order="F")))
        same(lambda xp: xp.zeros(shape))
        same(lambda xp: xp.ones(shape, dtype=numpy.int16))
        same(lambda xp: xp.full(shape, 7))
        same(lambda xp: xp.zeros_like(xp.ones((2, 2)), shape=shape))


@pytest.mark.parametrize("shape", [2.0, (2, 2.0), True, (True, 2), "3", None, (2, None), numpy.float64(2),
                                   numpy.array(2.0), numpy.array([2, 3])], ids=repr)
def test_shape_that_is_not_integers_is_type_error(device, shape):
    for fn in ("empty", "zeros", "ones"):
        if isinstance(shape, numpy.ndarray) and shape.ndim == 1:
            same(lambda xp: layout(getattr(xp, fn)(shape)))  # a 1-d integer array is a sequence of ints
            continue
        with pytest.raises(TypeError):
            getattr(cunp, fn)(shape)
        with pytest.raises(TypeError):
            getattr(numpy, fn)(shape)


@pytest.mark.parametrize("shape", [-1, (2, -1), [0, -3], numpy.int8(-2)], ids=repr)
def test_negative_dimensions_message(device, shape):
    for fn in (cunp.empty, cunp.zeros, cunp.ones, lambda s: cunp.full(s, 1)):
        with pytest.raises(ValueError, match="negative dimensions are not allowed"):
            fn(shape)
    for n, m in ((-1, None), (2, -1)):
        with pytest.raises(ValueError, match="negative dimensions are not allowed"):
            cunp.eye(n, m)


DTYPE_FORMS = [None, "f4", "float32", "<f8", "i", "int8", "u2", "c8", "?", "b", "e", "complex128", int, float,
               complex, bool, numpy.float32, numpy.int16, numpy.uint64, numpy.complex64, numpy.bool_,
               numpy.dtype("float16"), numpy.dtype("<i4"), numpy.dtype(numpy.uint8)]


def test_dtype_argument_forms(device):
    for dt in DTYPE_FORMS:
        same(lambda xp: layout(xp.empty((2, 3), dtype=dt)))
        same(lambda xp: xp.zeros((2, 3), dt))
        same(lambda xp: xp.ones(4, dtype=dt))
        same(lambda xp: xp.full((2,), 1, dtype=dt))
        same(lambda xp: xp.eye(3, dtype=dt))
        same(lambda xp: xp.identity(2, dtype=dt))
        same(lambda xp: xp.ones_like(xp.zeros(3), dtype=dt))
        same(lambda xp: xp.arange(3, dtype=dt) if dt not in ("?", bool, numpy.bool_) else xp.arange(2, dtype=dt))


@pytest.mark.parametrize("dt", ["x", 3, "foo", "float31", object()], ids=["x", "3", "foo", "float31", "object"])
def test_bad_dtype_is_type_error(device, dt):
    for fn in (lambda xp: xp.zeros(2, dtype=dt), lambda xp: xp.empty(2, dt), lambda xp: xp.full(2, 1, dt),
               lambda xp: xp.eye(2, dtype=dt), lambda xp: xp.arange(2, dtype=dt)):
        with pytest.raises(TypeError):
            fn(cunp)
        with pytest.raises(TypeError):
            fn(numpy)


def test_order_argument_forms(device):
    for order in ("C", "F", "c", "f", None, "A", "K", "Q"):
        same(lambda xp: layout(xp.empty((2, 3), order=order)))
        same(lambda xp: layout(xp.zeros((2, 3), order=order)))
        same(lambda xp: layout(xp.ones((2, 3), order=order)))
        same(lambda xp: layout(xp.full((2, 3), 2.0, order=order)))
        same(lambda xp: layout(xp.eye(3, 2, order=order)))
    for order in ("K", "A", "C", "F", None):
        same(lambda xp: layout(xp.empty_like(xp.ones((2, 3), order="F"), order=order)))
        same(lambda xp: layout(xp.full_like(xp.ones((2, 3), order="F"), 3, order=order)))


def test_like_and_device_keywords_are_accepted(device):
    proto = cunp.zeros(2)
    for like in (None, proto):
        for a in (cunp.empty(2, like=like), cunp.zeros(2, like=like), cunp.ones(2, like=like),
                  cunp.full(2, 1, like=like), cunp.eye(2, like=like), cunp.identity(2, like=like),
                  cunp.arange(2, like=like), cunp.asarray([1], like=like), cunp.array([1], like=like),
                  cunp.tri(2, like=like)):
            assert str(a.device) == device
    for a in (cunp.empty(2, device=device), cunp.zeros(2, device=device), cunp.full(2, 1, device=device),
              cunp.eye(2, device=device), cunp.arange(2, device=device), cunp.linspace(0, 1, 2, device=device),
              cunp.geomspace(1, 2, 2, device=device), cunp.logspace(0, 1, 2, device=device)):
        assert str(a.device) == device


@pytest.mark.parametrize("fill", [1.5, 1, True, 2**63, numpy.float32(2), numpy.array(3, numpy.int8),
                                  [1, 2, 3], [1, 2.5, 3], [[True], [False]], (1, 2, 3), numpy.arange(3, dtype=numpy.uint16),
                                  numpy.array([[1.5], [2.5]], numpy.float32)], ids=repr)
@numpy_cunp_equal()
def test_full_fill_value_dtype_and_broadcast(device, fill, xp):
    f = xp.asarray(fill) if isinstance(fill, numpy.ndarray) and fill.ndim else fill
    return xp.full((2, 3), f), xp.full((2, 3), f, dtype=numpy.float32), xp.full_like(xp.zeros((2, 3), int), f)


def test_full_complex_fill(device):
    same(lambda xp: (xp.full((2, 3), 1 + 1j), xp.full(2, [1j, 2]), xp.full(2, 2j, dtype=numpy.complex64)))


def test_full_array_fill_bad_shape(device):
    same(lambda xp: xp.full((2, 3), [1, 2]))
    same(lambda xp: xp.full_like(xp.zeros((2, 3)), [1, 2]))


def test_eye_argument_forms(device):
    for args, kw in [((numpy.int8(3),), {"k": numpy.int64(1)}), ((numpy.array(2),), {}), ((3, numpy.uint8(4)), {}),
                     ((3, 5, -2), {"dtype": "i2", "order": "F"}), ((0,), {}), ((4, 0), {}), ((3, 3, 5), {}),
                     ((3, None, -1), {"dtype": bool})]:
        same(lambda xp: (xp.eye(*args, **kw), layout(xp.eye(*args, **kw))))
    for bad in (2.0, "2", None):
        with pytest.raises(TypeError):
            cunp.eye(bad)
        with pytest.raises(TypeError):
            numpy.eye(bad)
    same(lambda xp: xp.identity(numpy.int16(3), dtype=int))


def test_like_functions_of_host_prototypes(device):
    for proto in ([1, 2], [[1.5], [2.5]], numpy.ones((2, 3), numpy.float32, order="F"), 3):
        same(lambda xp: layout(xp.empty_like(proto)))
        same(lambda xp: xp.zeros_like(proto))
        same(lambda xp: xp.ones_like(proto, dtype=bool))
        same(lambda xp: xp.full_like(proto, 2.5))


# ---- array / asarray / asanyarray


NESTED = [
    [1, 2.5], [1, True], [True, False], [1, 2**63], [[1, 2], [3, 4]], [(1, 2), [3, 4]], [], [[]], [[], []],
    [numpy.float32(1), 1.5], [numpy.int8(1), 2], [numpy.float16(1), numpy.float16(2)], [1 + 2j, 3],
    [numpy.ones(2, numpy.float32), [1, 2]], [numpy.arange(3), numpy.arange(3.0)],
    [[numpy.int8(1), 2], numpy.array([3, 4], numpy.int16)], 5, 2.5, True, 1j, numpy.float32(3), numpy.array(2),
    (1, 2, 3), ((1,), (2,)), range(4),
]


def test_array_dtype_inference_from_nested_host_data(device):
    for obj in NESTED:
        same(lambda xp: xp.array(obj))
        same(lambda xp: xp.asarray(obj))
        same(lambda xp: xp.asanyarray(obj))
        same(lambda xp: xp.array(obj, dtype=numpy.float32))


def test_array_from_nested_cunp_arrays(device):
    h32 = numpy.arange(3, dtype=numpy.float32)
    cases = [
        lambda xp: [xp.asarray(h32), xp.asarray(h32 + 1)],
        lambda xp: [xp.asarray(h32), [1, 2, 3]],
        lambda xp: [xp.asarray(h32), numpy.ones(3)],
        lambda xp: [[xp.asarray(h32)], [h32]],
        lambda xp: [xp.asarray(numpy.int8(3)), 2],
        lambda xp: (xp.asarray(numpy.arange(4).reshape(2, 2)), xp.zeros((2, 2), bool)),
        lambda xp: [xp.asarray(h32), xp.asarray(numpy.arange(4.0))],  # ragged
    ]
    for make in cases:
        same(lambda xp: xp.array(make(xp)))
        same(lambda xp: xp.asarray(make(xp), dtype=numpy.int64))
    out = cunp.array([cunp.ones(2), cunp.zeros(2)])
    assert str(out.device) == device


def test_ragged_nested_sequences_are_value_errors(device):
    for obj in ([[1], [2, 3]], [1, [2]], [[1, 2], [3]], [numpy.ones(2), numpy.ones(3)]):
        with pytest.raises(ValueError):
            cunp.array(obj)
        with pytest.raises(ValueError):
            numpy.array(obj)


def test_array_from_objects_with_array_protocols(device):
    class WithArray:
        def __init__(self, data):
            self.data = data

        def __array__(self, dtype=None, copy=None):
            return numpy.asarray(self.data, dtype=dtype)

    class WithInterface:
        def __init__(self, data):
            self._keep = numpy.ascontiguousarray(data)
            self.__array_interface__ = self._keep.__array_interface__

    for obj in (WithArray([[1, 2], [3, 4]]), WithArray(numpy.float32(2.5)), WithInterface(numpy.arange(6.0)),
                WithInterface(numpy.arange(4, dtype=numpy.int8).reshape(2, 2)), [WithArray([1, 2]), WithArray([3, 4])]):
        same(lambda xp: xp.array(obj))
        same(lambda xp: xp.asarray(obj, dtype=numpy.complex64))


def layout_ignoring_unit_axes(a):
    """layout() without the strides of length-1 axes (they address nothing; NumPy's
    ndmin gives its new unit axes strides that depend on the order)."""
    shape, dt, strides, c, f = layout(a)
    if strides is not None:
        strides = tuple(s if n != 1 else None for s, n in zip(strides, shape))
    return shape, dt, strides, c, f


def test_array_ndmin_and_order(device):
    for obj in (5, [1, 2], [[1, 2], [3, 4]], numpy.ones((2, 3)).T):
        for ndmin in (0, 1, 2, 4):
            for order in ("K", "A", "C", "F"):
                same(lambda xp: (lambda r: (r, layout_ignoring_unit_axes(r)))(xp.array(obj, ndmin=ndmin, order=order)))
    for order in ("K", "A", "C", "F", None):
        same(lambda xp: layout(xp.asarray(xp.asarray(numpy.ones((2, 3))).T, order=order)))
        same(lambda xp: layout(xp.array(xp.asarray(numpy.ones((3, 2))).T, order=order)))
    same(lambda xp: xp.asarray([1, 2], order="Q"))


def test_copy_false_raises_when_a_copy_is_needed(device):
    h = numpy.ones((2, 3))
    for make in (lambda xp: xp.asarray([1, 2], copy=False), lambda xp: xp.array(1, copy=False),
                 lambda xp: xp.asarray(h, dtype=numpy.float32, copy=False),
                 lambda xp: xp.array(h, order="F", copy=False)):
        same(make)
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            make(cunp)
    a = cunp.ones((2, 3))
    for make in (lambda: cunp.asarray(a, dtype=numpy.int32, copy=False), lambda: cunp.array(a, order="F", copy=False),
                 lambda: cunp.array(a.T, order="C", copy=False)):
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            make()
    if device != "cpu":
        # host -> device is always a copy
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            cunp.asarray(h, copy=False)
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            cunp.asarray(a, device="cpu", copy=False)
    else:
        wrapped = cunp.asarray(h, copy=False)  # the cpu device shares NumPy's memory
        assert wrapped._ptr == h.ctypes.data


def test_asarray_of_a_cunp_array_is_the_same_object(device):
    a = cunp.arange(6).reshape(2, 3)
    assert cunp.asarray(a) is a
    assert cunp.asanyarray(a) is a
    assert cunp.asarray(a, copy=False) is a
    assert cunp.asarray(a, dtype=a.dtype) is a
    assert cunp.asarray(a, device=device) is a
    assert cunp.asarray(a, order="C") is a
    assert cunp.array(a, copy=None) is a
    assert cunp.array(a, copy=False) is a
    b = cunp.array(a)
    assert b is not a and b.flags.owndata and not b._may_share_memory(a)
    assert_array_equal(b, a.get())
    c = cunp.asarray(a, copy=True)
    assert c is not a and not c._may_share_memory(a)
    t = a.T
    assert cunp.asarray(t, order="F") is t
    assert cunp.asarray(t, order="C") is not t


def test_array_copies_host_memory(device):
    h = numpy.arange(4.0)
    a, b = cunp.array(h), cunp.asarray(h, copy=True)
    h[0] = 99
    assert a.get()[0] == 0 and b.get()[0] == 0
    if device == "cpu":
        assert cunp.asarray(h).get()[0] == 99  # asarray shares on the cpu device


# ---- linspace / logspace / geomspace: array and complex endpoints, axis, dtypes


SPACE_ENDPOINTS = [
    (0, 1), (1j, 2 + 3j), (0, 1 + 1j), (-2.5, 7), (numpy.float32(0), 1), (numpy.float16(1), 3),
    ([0, 1], [2, 3]), ([[0], [1]], [2, 3, 4]), (numpy.arange(3, dtype=numpy.float32), 5),
    ([1, 2], 10j), (numpy.int8(-3), numpy.int8(100)), (0, 1e-320), (5, 5),
]


def test_linspace_endpoint_forms(device):
    for start, stop in SPACE_ENDPOINTS:
        for num in (0, 1, 2, 7):
            for endpoint in (True, False):
                same(lambda xp: xp.linspace(start, stop, num, endpoint=endpoint))
        nd = numpy.broadcast(numpy.asarray(start), numpy.asarray(stop)).ndim + 1
        for axis in range(-nd, nd):
            same(lambda xp: xp.linspace(start, stop, 4, axis=axis))
        same(lambda xp: xp.linspace(start, stop, 4, axis=nd))


def test_linspace_dtypes(device):
    for dt in (numpy.int8, numpy.uint8, numpy.int64, numpy.float16, numpy.float32, numpy.complex64, bool, None):
        same(lambda xp: xp.linspace(-3, 7, 6, dtype=dt))
        same(lambda xp: xp.linspace(2, 10, 11, endpoint=False, dtype=dt))
        same(lambda xp: xp.linspace([0, 1], [10, -10], 5, dtype=dt, axis=1))


def test_linspace_retstep_and_num_forms(device):
    for start, stop, num, endpoint in [(0, 10, 5, True), (0, 1, 1, True), (0, 1, 0, True), (0, 1, 1, False),
                                       ([0, 1], 2, 3, True), (numpy.float32(0), 1, 4, True), (1j, 2j, 3, True)]:
        same(lambda xp: xp.linspace(start, stop, num, endpoint=endpoint, retstep=True))
    _, step = cunp.linspace(0, 10, 5, retstep=True)
    assert type(step) is numpy.float64 and step == 2.5
    _, step = cunp.linspace(numpy.float32(0), 1, 5, retstep=True)
    assert type(step) is numpy.float32
    _, step = cunp.linspace(0, 1, 1, retstep=True)
    assert type(step) is float and step != step
    for num in (numpy.int8(3), numpy.array(3), 2.0, -1, "3"):
        same(lambda xp: xp.linspace(0, 1, num))


def test_logspace_forms(device):
    for start, stop, base in [(0, 2, 10.0), (0, 2, 2), (0, 2, numpy.float32(2)), (0, [1, 2], 10.0), (0, 1j, 10.0),
                              (0, 2, [2, 10]), ([0, 1], 2, [[2], [10]]), (numpy.float32(0), 1, 10.0)]:
        for axis in (0, 1, -1):
            same(lambda xp: xp.logspace(start, stop, 3, base=base, axis=axis), rtol=1e-15)
        same(lambda xp: xp.logspace(start, stop, 4, endpoint=False, base=base), rtol=1e-15)
    for dt in (int, numpy.int16, numpy.float32, complex):
        same(lambda xp: xp.logspace(0, 3, 4, dtype=dt), rtol=1e-6)
    same(lambda xp: xp.logspace(1, 2, 0))


def test_geomspace_forms(device):
    for start, stop in [(1, 1000), (-1, -1000), (1j, 1000j), (-1 + 0j, 1 + 0j), (1 + 1j, 1000 + 1000j), (2, 2),
                        (numpy.float32(1), 10), ([1, 10], [100, 1000]), ([1, -10], [100, -1000]), (1, 256),
                        (0.5, [2, 8, 32])]:
        for num in (0, 1, 4, 9):
            for endpoint in (True, False):
                same(lambda xp: xp.geomspace(start, stop, num, endpoint=endpoint), rtol=1e-14)
        same(lambda xp: xp.geomspace(start, stop, 3, axis=-1), rtol=1e-14)
    for dt in (int, numpy.int32, numpy.float32, numpy.complex64):
        same(lambda xp: xp.geomspace(1, 1e6, 7, dtype=dt), rtol=1e-6)


def test_geomspace_errors(device):
    for start, stop in [(0, 10), (1, 0), (1, [2, 0]), ([0, 1], 5), (0j, 1)]:
        with pytest.raises(ValueError, match="Geometric sequence cannot include zero"):
            cunp.geomspace(start, stop)
        with pytest.raises(ValueError, match="Geometric sequence cannot include zero"):
            numpy.geomspace(start, stop)
    same(lambda xp: xp.geomspace(1, 2, -1))


# ---- arange: every dtype, the length rule, the argument forms


ARANGE_ARGS = [(5,), (0,), (-3,), (2, 10), (2, 10, 3), (10, 2, -3), (1, 5, -1), (0.0, 1.0, 0.1), (1.0, -1.0, -0.25),
               (-3.5, 2), (0.5, 5, 1.5), (1, 2), (0, 2), (1, -1, -1), (250, 260), (-5, 5, 2), (0, 3 + 3j, 1)]
ALL_DTYPES = [numpy.bool_, numpy.int8, numpy.int16, numpy.int32, numpy.int64, numpy.uint8, numpy.uint16,
              numpy.uint32, numpy.uint64, numpy.float16, numpy.float32, numpy.float64, numpy.complex64,
              numpy.complex128]


def test_arange_every_dtype(device):
    import warnings
    for dt in ALL_DTYPES:
        for args in ARANGE_ARGS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # NumPy warns on complex -> real
                same(lambda xp: xp.arange(*args, dtype=dt))
    for args in ARANGE_ARGS:
        same(lambda xp: xp.arange(*args))


def test_arange_argument_dtypes(device):
    for args in [(numpy.uint64(5),), (numpy.int8(5),), (numpy.uint32(5),), (numpy.float32(0.5), 3),
                 (numpy.float16(1), 4), (numpy.complex64(1j), 3), (True,), (False, 2), (2**63, 2**63 + 3),
                 (2**63 - 3, 2**63 - 1), (1, 2**63 - 1, 2**62), (0, 2**63 + 2, 2**62), (0, 2**63),
                 (numpy.int64(2), 9, numpy.int8(3)), (0, 2**63 - 1), (0, 1e19), (0, 2**62), (0.0, 2.0**62)]:
        same(lambda xp: xp.arange(*args))


def test_arange_errors(device):
    for args, kw in [((0, 5, 0), {}), ((0.0, 5.0, 0.0), {}), ((0, numpy.inf), {}), ((0, numpy.nan), {}),
                     ((3,), {"dtype": bool}), ((0, 2**40, 2**39), {"dtype": numpy.int8}),
                     ((-3, 3), {"dtype": numpy.uint8}), ((None,), {}), ((), {}),
                     ((0, 1, 300), {"dtype": numpy.int8}), ((300, 0), {"dtype": numpy.int8})]:
        same(lambda xp: xp.arange(*args, **kw))
    with pytest.raises(OverflowError, match="Python integer 549755813888 out of bounds for int8"):
        cunp.arange(0, 2**40, 2**39, dtype=numpy.int8)
    with pytest.raises(TypeError, match="requires stop"):
        cunp.arange()


def test_arange_keyword_forms(device):
    for args, kw in [((), {"stop": 3}), ((1,), {"stop": 3}), ((), {"start": 1, "stop": 7, "step": 2}),
                     ((1, 7), {"step": 2, "dtype": numpy.float32}), ((1, 7, 2, numpy.int16), {}),
                     ((4,), {"dtype": None}), ((1, None), {})]:
        same(lambda xp: xp.arange(*args, **kw))
    with pytest.raises(TypeError):
        cunp.arange(1, stop=3, start=2)


# ---- copyto


def _copyto(xp, dst, src, **kw):
    xp.copyto(dst, src, **kw)
    return dst


COPYTO_CASES = [
    # (dst dtype, dst shape, src (a function of xp), keywords (or a function of xp giving them))
    (numpy.int8, (3,), lambda xp: 300, {}), (numpy.int8, (3,), lambda xp: 100, {}),
    (numpy.int8, (3,), lambda xp: 1.5, {}), (numpy.float32, (3,), lambda xp: 1.5, {}),
    (numpy.float32, (3,), lambda xp: 1 + 1j, {}), (numpy.uint8, (3,), lambda xp: -1, {}),
    (numpy.int8, (3,), lambda xp: 300, {"casting": "unsafe"}), (numpy.int8, (3,), lambda xp: numpy.int64(3), {}),
    (numpy.int8, (3,), lambda xp: numpy.float64(3), {}), (numpy.int8, (3,), lambda xp: xp.arange(3), {}),
    (numpy.int8, (3,), lambda xp: numpy.arange(3), {}), (numpy.int8, (3,), lambda xp: xp.arange(3.0), {}),
    (numpy.int8, (3,), lambda xp: xp.arange(3.0), {"casting": "unsafe"}),
    (numpy.float64, (2, 3), lambda xp: [1, 2, 3], {}), (numpy.float64, (2, 3), lambda xp: [1, 2], {}),
    (numpy.float64, (3,), lambda xp: 5, {"where": [True, False, True]}),
    (numpy.float64, (3,), lambda xp: [1, 2, 3], {"where": numpy.array([[1], [0]], bool)}),
    (numpy.float64, (3,), lambda xp: [1, 2, 3], {"where": [1, 0, 1]}),
    (numpy.float64, (3,), lambda xp: [1, 2, 3], lambda xp: {"where": xp.asarray(numpy.array([True, False, True]))}),
    (numpy.float64, (2, 3), lambda xp: [1, 2, 3], lambda xp: {"where": xp.asarray(numpy.array([[True], [False]]))}),
    (numpy.int32, (2, 3), lambda xp: xp.arange(6).reshape(2, 3), {"where": [True, False, True], "casting": "unsafe"}),
    (numpy.float64, (3,), lambda xp: 5, {"where": False}), (numpy.float64, (3,), lambda xp: 5, {"where": True}),
    (numpy.float64, (3,), lambda xp: 5, {"casting": "bogus"}), (numpy.int8, (3,), lambda xp: True, {}),
    (numpy.bool_, (3,), lambda xp: 2, {}), (numpy.bool_, (3,), lambda xp: True, {}),
    (numpy.int8, (3,), lambda xp: [1, 2, 3], {}), (numpy.int8, (3,), lambda xp: [1.5, 2, 3], {}),
    (numpy.float16, (3,), lambda xp: [1.5, 2, 3], {}), (numpy.float32, (3,), lambda xp: 1.5, {"casting": "safe"}),
    (numpy.int8, (3,), lambda xp: 1, {"casting": "safe"}),
    (numpy.int16, (3,), lambda xp: numpy.int32(1), {"casting": "safe"}),
    (numpy.int32, (3,), lambda xp: numpy.int16(1), {"casting": "safe"}),
    (numpy.int32, (3,), lambda xp: xp.ones(3, numpy.int64), {"casting": "safe"}),
    (numpy.int32, (3,), lambda xp: xp.ones(3, numpy.int64), {"casting": "same_kind"}),
    (numpy.int32, (3,), lambda xp: xp.ones(3, numpy.int64), {"casting": "equiv"}),
    (numpy.int64, (3,), lambda xp: xp.ones(3, numpy.int64), {"casting": "no"}),
    (numpy.complex64, (3,), lambda xp: 1 + 2j, {}), (numpy.complex64, (3,), lambda xp: xp.ones(3, complex), {}),
    (numpy.float64, (3,), lambda xp: xp.ones(3, complex), {}), (numpy.float64, (2, 2), lambda xp: xp.zeros((3, 2)), {}),
    (numpy.float64, (2, 0), lambda xp: 1, {}), (numpy.float64, (), lambda xp: [5], {}),
    (numpy.float64, (2, 1, 3), lambda xp: numpy.arange(3.0), {"where": numpy.array([[True], [False]])}),
]


def test_copyto_cases(device):
    for dt, shape, src, kw in COPYTO_CASES:
        same(lambda xp: _copyto(xp, xp.zeros(shape, dt), src(xp), **(kw(xp) if callable(kw) else kw)))


def test_copyto_into_strided_views_and_errors(device):
    same(lambda xp: (lambda a: (_copyto(xp, a[::2], 7), a)[1])(xp.zeros(5)))
    same(lambda xp: (lambda a: (_copyto(xp, a.T, xp.asarray(numpy.arange(6.0).reshape(3, 2))), a)[1])(xp.zeros((2, 3))))
    ro = cunp.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        cunp.copyto(ro, 1)
    with pytest.raises(TypeError, match=r"Cannot cast array data from dtype\('float64'\) to dtype\('int8'\) "
                                        r"according to the rule 'same_kind'"):
        cunp.copyto(cunp.zeros(3, numpy.int8), cunp.ones(3))
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for int8"):
        cunp.copyto(cunp.zeros(3, numpy.int8), 300)
    with pytest.raises(TypeError):
        cunp.copyto([1, 2], 3)

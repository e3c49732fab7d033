"""Scans (cumsum, cumprod, nancumsum, nancumprod, cumulative_sum/prod), diff and
ufunc.reduce / ufunc.accumulate against NumPy: dtypes x axes x layouts, empty, 0-d and
NaN cases, dtype=/out=, ndarray methods, errors."""
import numpy
import pytest

import cunp
from helpers import numpy_cunp_equal, random_array, test_rng

SHAPE = (3, 4, 5)
AXES = [None, 0, 1, -1]


def _small(dt, shape=SHAPE, nonzero=False):
    """Integer values (exact in every dtype, so sums and products compare exactly):
    [-3, 3], or {-2, -1, 1, 2} for products (no zeros, powers of two)."""
    dt = numpy.dtype(dt)
    rng = test_rng()
    if nonzero:
        v = rng.choice(numpy.array([-2, -1, 1, 2]), size=shape)
    else:
        v = rng.integers(-3, 4, size=shape)
    if dt.kind == "b":
        return (v > 0).astype(dt)
    if dt.kind == "u":
        v = numpy.abs(v)
    if dt.kind == "c":
        return (v + 1j * numpy.roll(v, 1)).astype(dt)
    return v.astype(dt)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("axis", AXES)
def test_cumsum_cumprod(device, dtype, name, axis):
    host = _small(dtype, nonzero=name == "cumprod")
    if name == "cumprod" and dtype.kind == "c":
        host = host.real.astype(dtype)  # products of complex values grow past exactness

    @numpy_cunp_equal()
    def check(xp):
        return getattr(xp, name)(xp.asarray(host), axis=axis)
    check()


@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("dt", [numpy.float16, numpy.float32, numpy.float64, numpy.complex64, numpy.int16,
                                numpy.bool_])
def test_nancumsum_nancumprod(device, name, axis, dt):
    host = _small(dt, nonzero=name == "nancumprod")
    if name == "nancumprod" and numpy.dtype(dt).kind == "c":
        host = host.real.astype(dt)  # as in test_cumsum_cumprod: complex products grow past exactness
    if numpy.dtype(dt).kind in "fc":
        host[0, 1, 2] = numpy.nan
        host[2, 3, 0] = numpy.nan

    @numpy_cunp_equal()
    def check(xp):
        return getattr(xp, name)(xp.asarray(host), axis=axis)
    check()


@pytest.mark.parametrize("dt", [numpy.float32, numpy.float64])
def test_nan_propagates(device, dt):
    host = _small(dt)
    host[1, 2, 3] = numpy.nan

    @numpy_cunp_equal()
    def check(xp):
        return xp.cumsum(xp.asarray(host), axis=1), xp.cumprod(xp.asarray(host))
    check()


@pytest.mark.parametrize("layout", ["transposed", "sliced", "reversed", "fortran"])
@pytest.mark.parametrize("axis", [None, 0, 1, 2])
def test_layouts(device, layout, axis):
    host = _small(numpy.int32, (6, 7, 8))

    @numpy_cunp_equal()
    def check(xp):
        a = xp.asarray(host)
        if layout == "transposed":
            a = a.transpose(2, 0, 1)
        elif layout == "sliced":
            a = a[::2, 1:, ::3]
        elif layout == "reversed":
            a = a[:, ::-1]
        else:
            a = xp.asfortranarray(a)
        return xp.cumsum(a, axis=axis)
    check()


@pytest.mark.parametrize("shape, axis", [((0,), None), ((0,), 0), ((0, 3), 0), ((0, 3), 1), ((3, 0), 1),
                                         ((2, 0, 4), None)])
@pytest.mark.parametrize("name", ["cumsum", "cumprod", "nancumsum"])
def test_empty(device, shape, axis, name):
    @numpy_cunp_equal()
    def check(xp):
        return getattr(xp, name)(xp.zeros(shape, dtype=xp.float32), axis=axis)
    check()


@pytest.mark.parametrize("axis", [None, 0, -1, 1])
def test_zero_d(device, axis):
    @numpy_cunp_equal()
    def check(xp):
        return xp.cumsum(xp.asarray(numpy.float32(3.5)), axis=axis)
    check()


@pytest.mark.parametrize("src, dt", [(numpy.int8, numpy.float32), (numpy.float32, numpy.float64),
                                     (numpy.uint8, numpy.int16), (numpy.bool_, numpy.bool_),
                                     (numpy.float64, numpy.complex128)])
def test_dtype_argument(device, src, dt):
    host = _small(src, nonzero=True)

    @numpy_cunp_equal()
    def check(xp):
        a = xp.asarray(host)
        return xp.cumsum(a, axis=1, dtype=dt), xp.cumprod(a, axis=0, dtype=dt)
    check()


@pytest.mark.parametrize("out_dt", [numpy.int64, numpy.float32, numpy.int16])
def test_out(device, out_dt):
    host = _small(numpy.float64)

    @numpy_cunp_equal()
    def check(xp):
        out = xp.zeros(SHAPE, dtype=out_dt)
        r = xp.cumsum(xp.asarray(host), axis=2, out=out)
        assert r is out
        return out
    check()


def test_out_errors(device):
    @numpy_cunp_equal()
    def wrong_size(xp):
        return xp.cumsum(xp.ones((2, 3)), out=xp.zeros(5))
    wrong_size()

    @numpy_cunp_equal()
    def bad_axis(xp):
        return xp.cumsum(xp.ones((2, 3)), axis=2)
    bad_axis()

    @numpy_cunp_equal()
    def bad_axis_0d(xp):
        return xp.cumsum(xp.asarray(1.0), axis=1)
    bad_axis_0d()


def test_methods(device):
    host = _small(numpy.int16)

    @numpy_cunp_equal()
    def check(xp):
        a = xp.asarray(host)
        return a.cumsum(), a.cumsum(axis=1), a.cumprod(axis=-1, dtype=xp.float64), a.cumsum(0, xp.int8)
    check()


@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative(device, include_initial):
    host = _small(numpy.int32, (4, 6))

    @numpy_cunp_equal()
    def check(xp):
        a = xp.asarray(host)
        return (xp.cumulative_sum(a, axis=1, include_initial=include_initial),
                xp.cumulative_prod(a[0], include_initial=include_initial))
    check()


def test_float32_accuracy_long(device):
    """Sequential float32 sums drift; cunp's stay close to the float64 cumsum, within a
    bound that grows with the length."""
    n = 3 * 2**20 + 17
    host = numpy.random.default_rng(0).uniform(-1, 1, n).astype(numpy.float32)
    got = cunp.cumsum(cunp.asarray(host)).get()
    exact = numpy.cumsum(host.astype(numpy.float64))
    scale = numpy.cumsum(numpy.abs(host.astype(numpy.float64)))
    err = numpy.abs(got - exact) / numpy.maximum(scale, 1.0)
    assert err.max() < 1e-7 * numpy.log2(n) * 10
    if device == "cpu":
        # Sequential in NumPy's order: bit-identical.
        numpy.testing.assert_array_equal(got, numpy.cumsum(host))


@pytest.mark.parametrize("shape, axis", [((5000, 64), 0), ((4, 300001), 1), ((70, 3000), 1), ((2**21 + 5,), 0),
                                         ((300, 40), 1), ((64, 5000), 0)])
def test_large_exact(device, shape, axis):
    """Every GPU launch shape (line / block kinds, with and without chunks) on values
    whose sums are exact."""
    host = _small(numpy.int32, shape)

    @numpy_cunp_equal()
    def check(xp):
        a = xp.asarray(host)
        return xp.cumsum(a, axis=axis), xp.cumsum(a.astype(xp.float64), axis=axis)
    check()


# One long line at and past the size threshold of the single-pass scans (CUB's for a
# contiguous float32/float64/int64/uint64 line, Note [CUB cumsum]; the Chained kernel
# with CUNP_SCAN_CHAINED=1, Note [Scan launch]; the chunked block scan otherwise),
# partial last tiles, every carried-value size (1, 4, 8, 16 bytes), strided and
# reversed input, in place, out= and every scan op.
_CHAINED_N = [2**16, 2**16 + 4097, 2**20 + 3]


@pytest.mark.parametrize("n", _CHAINED_N)
@pytest.mark.parametrize("dt", [numpy.float32, numpy.int32, numpy.int8, numpy.float64, numpy.complex128,
                                numpy.bool_, numpy.float16, numpy.int64, numpy.uint64],
                         ids=lambda d: numpy.dtype(d).name)
def test_chained_cumsum(device, n, dt):
    host = _small(dt, (n,))
    if numpy.dtype(dt) == numpy.float16:
        host = numpy.zeros(n, dtype=dt)  # prefixes stay 0 or 1: exact in float16
        host[::97] = 1
        host[50::97] = -1

    @numpy_cunp_equal()
    def check(xp):
        a = xp.asarray(host)
        results = [xp.cumsum(a), xp.cumsum(a[::-1]), xp.cumsum(a[1::2])]
        if xp.cumsum(a[:1]).dtype == a.dtype:
            inplace = a.copy()
            results.append(xp.cumsum(inplace, out=inplace))
            results.append(inplace)
        return results
    check()


@pytest.mark.parametrize("name", ["cumprod", "nancumsum", "maximum", "minimum", "multi-d"])
def test_chained_ops(device, name):
    n = 2**18 + 5
    host = _small(numpy.float64, (n,), nonzero=True)
    if name == "cumprod":
        host = numpy.ones(n)
        host[::1001] = -1.0
        host[5::7919] = 2.0
        host[6::7919] = 0.5
    if name == "nancumsum":
        host[::333] = numpy.nan

    @numpy_cunp_equal()
    def check(xp):
        a = xp.asarray(host)
        if name == "cumprod":
            return xp.cumprod(a)
        if name == "nancumsum":
            return xp.nancumsum(a)
        if name == "multi-d":
            out = xp.zeros(n - 5, dtype=numpy.float32)
            b = a[:-5].reshape(64, -1)
            return xp.cumsum(b), xp.cumsum(b, out=out), out
        return getattr(xp, name).accumulate(a)
    check()


# ---- diff ------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dt", [numpy.int64, numpy.uint8, numpy.float32, numpy.bool_, numpy.complex64])
def test_diff(device, n, axis, dt):
    host = _small(dt, (4, 5))

    @numpy_cunp_equal()
    def check(xp):
        return xp.diff(xp.asarray(host), n=n, axis=axis)
    check()


def test_diff_prepend_append(device):
    host = _small(numpy.int16, (3, 4))

    @numpy_cunp_equal()
    def check(xp):
        a = xp.asarray(host)
        return (xp.diff(a, prepend=0), xp.diff(a, append=xp.asarray(host[:, :2])),
                xp.diff(a, axis=0, prepend=xp.asarray(host[:1]), append=7),
                xp.diff(xp.asarray(host[0]), n=2, prepend=[1, 2]))
    check()


@pytest.mark.parametrize("case", ["0d", "negative", "axis"])
def test_diff_errors(device, case):
    @numpy_cunp_equal()
    def check(xp):
        if case == "0d":
            return xp.diff(xp.asarray(3))
        if case == "negative":
            return xp.diff(xp.arange(3), n=-1)
        return xp.diff(xp.ones((2, 2)), axis=2)
    check()


# ---- ufunc.reduce / ufunc.accumulate ----------------------------------------------------------

UFUNCS = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
          "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"]
UFUNC_DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int64, numpy.float32, numpy.float64]


def _ufunc_data(name, dt, shape=(4, 6)):
    host = _small(dt, shape, nonzero=name == "multiply")
    return host


@pytest.mark.parametrize("name", UFUNCS)
@pytest.mark.parametrize("dt", UFUNC_DTYPES)
@pytest.mark.parametrize("axis", [0, 1, None, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_ufunc_reduce(device, name, dt, axis, keepdims):
    host = _ufunc_data(name, dt)

    @numpy_cunp_equal()
    def check(xp):
        r = getattr(xp, name).reduce(xp.asarray(host), axis=axis, keepdims=keepdims)
        return xp.asarray(r) if xp is numpy else r
    check()


@pytest.mark.parametrize("name", UFUNCS)
@pytest.mark.parametrize("dt", UFUNC_DTYPES)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_ufunc_accumulate(device, name, dt, axis):
    host = _ufunc_data(name, dt)

    @numpy_cunp_equal()
    def check(xp):
        return getattr(xp, name).accumulate(xp.asarray(host), axis=axis)
    check()


def test_ufunc_reduce_default_axis_dtype_out(device):
    host = _small(numpy.int8, (3, 5))

    @numpy_cunp_equal()
    def check(xp):
        a = xp.asarray(host)
        out = xp.zeros(3, dtype=xp.float64)
        r = xp.add.reduce(a, axis=1, out=out)
        assert r is out
        return (xp.add.reduce(a), xp.multiply.reduce(a, dtype=xp.int8), xp.maximum.reduce(a, axis=1),
                xp.add.accumulate(a, dtype=xp.float32), xp.bitwise_or.accumulate(a, axis=1), out)
    check()


def test_ufunc_reduce_initial_and_where(device):
    host = _small(numpy.int32, (3, 5))
    mask = test_rng().integers(0, 2, size=(3, 5)).astype(bool)

    @numpy_cunp_equal()
    def check(xp):
        a = xp.asarray(host)
        w = xp.asarray(mask)
        return (xp.add.reduce(a, axis=1, initial=10), xp.add.reduce(a, axis=0, where=w),
                xp.maximum.reduce(a, axis=1, initial=-100, where=w),
                xp.minimum.reduce(xp.zeros((0, 2), dtype=xp.int32), axis=0, initial=4),
                xp.bitwise_xor.reduce(a, axis=1, where=w), xp.bitwise_and.reduce(a, axis=0, initial=6),
                xp.logical_xor.reduce(a, axis=1, where=w))
    check()


def test_ufunc_reduce_empty(device):
    @numpy_cunp_equal()
    def check(xp):
        e = xp.zeros((0, 3), dtype=xp.uint8)
        return (xp.add.reduce(e), xp.multiply.reduce(e), xp.bitwise_and.reduce(e), xp.bitwise_or.reduce(e),
                xp.logical_xor.reduce(e), xp.logical_and.reduce(e))
    check()


@pytest.mark.parametrize("case", ["max_empty", "bitwise_float", "unary", "acc_multi_axis", "acc_scalar",
                                  "where_no_identity"])
def test_ufunc_method_errors(device, case):
    @numpy_cunp_equal()
    def check(xp):
        if case == "max_empty":
            return xp.maximum.reduce(xp.zeros(0))
        if case == "bitwise_float":
            return xp.bitwise_and.reduce(xp.ones(3))
        if case == "unary":
            return xp.sin.reduce(xp.ones(3))
        if case == "acc_multi_axis":
            return xp.add.accumulate(xp.ones((2, 2)), axis=None)
        if case == "acc_scalar":
            return xp.add.accumulate(xp.asarray(3.0))
        return xp.maximum.reduce(xp.ones(3), where=xp.asarray([True, False, True]))
    check()


def test_float_reduce_matches_sum(device):
    host = random_array((40, 30), numpy.float64)

    @numpy_cunp_equal(rtol=1e-12)
    def check(xp):
        a = xp.asarray(host)
        return xp.add.reduce(a, axis=0), xp.add.accumulate(a, axis=1), xp.fmax.accumulate(a, axis=0)
    check()

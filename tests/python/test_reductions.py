"""Reductions (cunp._reductions) against NumPy: dtypes x axes x keepdims x layouts,
empty, 0-d and NaN cases, dtype=/out=, ndarray methods, errors."""
import numpy
import pytest

import cunp
from helpers import assert_array_equal, numpy_cunp_equal, random_array, test_rng

AXES = [None, 0, -1, (0, 2), (2, 0, 1), (1,)]
SHAPE = (3, 4, 5)


def _tol(dt, name):
    """Relative tolerance: float sums may associate differently from NumPy's loops."""
    dt = numpy.dtype(dt)
    if dt.kind in "fc" or name in ("mean", "var", "std", "nanmean", "nanvar", "nanstd"):
        if dt == numpy.float16:
            return 2e-3
        if dt in (numpy.float32, numpy.complex64):
            return 2e-5
        return 1e-12
    return 0.0


def _arr(xp, r):
    """Full reductions give NumPy scalars; as 0-d arrays they compare with tolerance."""
    return xp.asarray(r) if xp is numpy else r


def _atol(dt):
    """float16 results of NumPy's axis-0 loops round every partial sum to float16;
    cunp accumulates in float32 throughout. For the other floats: sums of values up to
    50 in another order differ by a few roundings of the partial sums, which no relative
    tolerance covers when the sum cancels to near zero."""
    dt = numpy.dtype(dt)
    if dt == numpy.float16:
        return 0.25
    if dt in (numpy.float32, numpy.complex64):
        return 1e-3
    if dt in (numpy.float64, numpy.complex128):
        return 1e-10
    return 0.0


def _data(dt, shape=SHAPE, low=-50, high=50):
    return random_array(shape, dt, low=low, high=high)


@pytest.mark.parametrize("name", ["sum", "prod"])
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_prod(device, dtype, name, axis, keepdims):
    host = _data(dtype, low=-3, high=3) if name == "prod" else _data(dtype)

    @numpy_cunp_equal(rtol=_tol(dtype, name), atol=_atol(dtype))
    def check(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(host), axis=axis, keepdims=keepdims))
    check()


@pytest.mark.parametrize("name", ["min", "max", "amin", "amax", "ptp"])
@pytest.mark.parametrize("axis", [None, 1, -1, (0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_min_max(device, dtype, name, axis, keepdims):
    host = _data(dtype)

    @numpy_cunp_equal()
    def check(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(host), axis=axis, keepdims=keepdims))
    check()


@pytest.mark.parametrize("name", ["argmin", "argmax"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_argmin_argmax(device, dtype, name, axis, keepdims):
    host = _data(dtype, low=-3, high=3)  # many ties: the first must win

    @numpy_cunp_equal()
    def check(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(host), axis=axis, keepdims=keepdims))
    check()


@pytest.mark.parametrize("name", ["mean", "var", "std"])
@pytest.mark.parametrize("axis", [None, 0, (0, 2), -1])
@pytest.mark.parametrize("ddof", [0, 1])
def test_mean_var_std(device, dtype, name, axis, ddof):
    host = _data(dtype)
    kw = {} if name == "mean" else {"ddof": ddof}

    # float16: NumPy's float16 mean/var come out of float32 math; others: sums that
    # cancel (see _atol).
    @numpy_cunp_equal(rtol=_tol(dtype, name), atol=1e-6 if dtype == numpy.float16 else _atol(dtype))
    def check(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(host), axis=axis, **kw))
    check()


@pytest.mark.parametrize("name", ["any", "all", "count_nonzero"])
@pytest.mark.parametrize("axis", [None, 0, (1, 2)])
def test_any_all_count(device, dtype, name, axis):
    host = _data(dtype, low=0, high=2)

    @numpy_cunp_equal()
    def check(xp):
        r = getattr(xp, name)(xp.asarray(host), axis=axis)
        if name == "count_nonzero" and axis is None:
            return int(r)  # NumPy gives a Python int there
        return r
    check()


NAN_DTYPES = [numpy.float16, numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


def _with_nans(dt):
    host = _data(dt)
    host.reshape(-1)[[3, 17, 40, 41]] = numpy.nan
    return host


@pytest.mark.parametrize("dt", NAN_DTYPES)
@pytest.mark.parametrize("name", ["sum", "max", "min", "argmax", "argmin", "mean", "ptp"])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_nan_propagation(device, dt, name, axis):
    host = _with_nans(dt)

    @numpy_cunp_equal(rtol=_tol(dt, name), atol=_atol(dt))
    def check(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(host), axis=axis))
    check()


@pytest.mark.parametrize("dt", NAN_DTYPES + [numpy.int32, numpy.bool_])
@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmin", "nanmax", "nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2)])
def test_nanfunctions(device, dt, name, axis):
    host = _with_nans(dt) if numpy.dtype(dt).kind in "fc" else _data(dt)
    if name == "nanprod":
        host = numpy.where(numpy.isnan(host), host, numpy.sign(host)) if numpy.dtype(dt).kind in "fc" else host % 2
    if dt == numpy.bool_ and name in ("nanvar", "nanstd"):
        pytest.skip("NumPy's nanvar of bool subtracts booleans")

    @numpy_cunp_equal(rtol=_tol(dt, name) or 1e-12, atol=_atol(dt))
    def check(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(host), axis=axis))
    check()


def test_nan_all_nan_slices(device):
    host = numpy.array([[numpy.nan, numpy.nan], [1.0, numpy.nan]])
    with numpy.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name in ("nanmax", "nanmin", "nanmean", "nanvar"):
                expected = getattr(numpy, name)(host, axis=1)
                assert_array_equal(getattr(cunp, name)(cunp.asarray(host), axis=1), expected)


@pytest.mark.parametrize("layout", ["transposed", "reversed", "sliced", "broadcast", "fortran"])
@pytest.mark.parametrize("name", ["sum", "max", "argmax", "mean", "any"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_layouts(device, layout, name, axis):
    base = _data(numpy.float64, (6, 8))
    if name == "argmax" and isinstance(axis, tuple):
        pytest.skip("argmax takes one axis")

    @numpy_cunp_equal(rtol=1e-12)
    def check(xp):
        a = xp.asarray(base)
        if layout == "transposed":
            a = a.T
        elif layout == "reversed":
            a = a[::-1, ::-2]
        elif layout == "sliced":
            a = a[1:5, 2:7]
        elif layout == "broadcast":
            a = xp.broadcast_to(a[:1], (5, 8))
        else:
            a = xp.asfortranarray(a)
        return _arr(xp, getattr(xp, name)(a, axis=axis))
    check()


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "argmax", "argmin", "any", "all", "mean",
                                  "ptp", "count_nonzero", "nanmax", "nansum"])
@pytest.mark.parametrize("shape,axis", [((0,), None), ((0, 3), 0), ((0, 3), 1), ((3, 0), None),
                                        ((3, 0), 0), ((2, 0, 3), (0, 2))])
def test_empty(device, name, shape, axis):
    if name.startswith("arg") and isinstance(axis, tuple):
        pytest.skip("argmax takes one axis")

    @numpy_cunp_equal()
    def check(xp):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = getattr(xp, name)(xp.zeros(shape), axis=axis)
        if name == "count_nonzero" and axis is None:
            return int(r)
        return r
    check()


def test_empty_error_message(device):
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum which has no identity"):
        cunp.min(cunp.zeros((0,)))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum which has no identity"):
        cunp.zeros((0, 2)).max(axis=0)
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        cunp.argmax(cunp.zeros((0,)))


@pytest.mark.parametrize("name", ["sum", "max", "argmax", "mean", "std", "all"])
def test_zero_d(device, name):
    @numpy_cunp_equal()
    def check(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(2.5)))
    check()

    if name in ("mean", "std"):
        return  # NumPy's mean/std index the shape with the axis and fail there

    @numpy_cunp_equal()
    def check_axis(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(2.5), axis=0))
    check_axis()


def test_results_are_0d_arrays(device):
    r = cunp.sum(cunp.arange(10))
    assert isinstance(r, cunp.ndarray) and r.shape == () and r.dtype == numpy.int64
    assert int(r) == 45


@pytest.mark.parametrize("src,dt", [(numpy.int8, None), (numpy.uint8, None), (numpy.bool_, None),
                                    (numpy.int32, numpy.float32), (numpy.float16, None),
                                    (numpy.float32, numpy.float64), (numpy.int16, numpy.int8),
                                    (numpy.complex64, None)])
@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "nansum"])
def test_result_dtypes(device, src, dt, name):
    host = _data(src, (4, 6), low=-2, high=3)

    @numpy_cunp_equal(rtol=_tol(dt or src, name), atol=_atol(dt or src))
    def check(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(host), axis=1, dtype=dt))
    check()


@pytest.mark.parametrize("name", ["sum", "max", "mean", "std", "any", "argmax"])
def test_out(device, name):
    host = _data(numpy.float64, (4, 6))

    @numpy_cunp_equal(rtol=1e-12)
    def check(xp):
        out = xp.zeros(4, dtype=numpy.int64 if name == "argmax" else numpy.float64)
        r = getattr(xp, name)(xp.asarray(host), axis=1, out=out)
        assert r is out
        return out
    check()

    @numpy_cunp_equal()
    def check_bad_shape(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(host), axis=1, out=xp.zeros(5, dtype=numpy.int64)))
    check_bad_shape()


def test_methods(device):
    host = _data(numpy.float64, (5, 7))

    @numpy_cunp_equal(rtol=1e-12)
    def check(xp):
        a = xp.asarray(host)
        return tuple(_arr(xp, r) for r in (a.sum(), a.sum(axis=1), a.prod(0), a.mean(axis=(0, 1), keepdims=True), a.max(),
                a.min(axis=0), a.argmax(), a.argmin(axis=1), a.any(), a.all(axis=0), a.std(ddof=1),
                a.var(axis=0)))
    check()


@pytest.mark.parametrize("axis", [3, -4, (0, 0), (1, -2)])
def test_axis_errors(device, axis):
    @numpy_cunp_equal()
    def check(xp):
        return xp.sum(xp.zeros((2, 3, 4)), axis=axis)
    check()


def test_axis_error_is_index_error_too(device):
    with pytest.raises(IndexError):
        cunp.sum(cunp.zeros((2, 3)), axis=2)


def test_float32_sum_is_pairwise(device):
    rng = numpy.random.default_rng(0)
    host = rng.uniform(0, 1, 1 << 20).astype(numpy.float32)
    r = float(cunp.sum(cunp.asarray(host)))
    exact = float(host.astype(numpy.float64).sum())
    assert abs(r - exact) / exact < 1e-6
    if device == "cpu":
        # One innermost row: the CPU loop uses the same association as NumPy's pairwise
        # sum (the GPU's block tree is another association, held to the bound above).
        assert r == float(numpy.sum(host))


def test_integer_wraparound_and_bool(device):
    @numpy_cunp_equal()
    def check(xp):
        big = xp.asarray(numpy.array([2**62, 2**62, 2**62], dtype=numpy.int64))
        flags = xp.asarray(numpy.array([True, True, False]))
        return (xp.sum(big), xp.sum(flags), xp.prod(flags), xp.max(flags), xp.argmax(flags),
                xp.sum(xp.asarray(numpy.array([200, 100], dtype=numpy.uint8))))
    check()


def test_ptp_bool_is_type_error(device):
    @numpy_cunp_equal()
    def check(xp):
        return xp.ptp(xp.asarray(numpy.array([True, False])))
    check()


# ---- where= and initial= ------------------------------------------------------------------

def _mask(shape, seed=1):
    return numpy.random.default_rng(seed).integers(0, 2, size=shape).astype(bool)


@pytest.mark.parametrize("name", ["sum", "prod", "nansum", "nanprod", "any", "all", "mean"])
@pytest.mark.parametrize("axis", [None, 0, (0, 2)])
@pytest.mark.parametrize("dt", [numpy.int16, numpy.float32, numpy.float64, numpy.bool_])
def test_where(device, name, axis, dt):
    host = _data(dt, low=-3, high=3)
    mask = _mask(SHAPE)
    # NumPy's masked loops associate float sums and products in their own order.
    kind = numpy.dtype(dt)
    rtol, atol = (2e-5, 1e-3) if kind == numpy.float32 else (1e-12, 1e-10) if kind == numpy.float64 else (0, 0)
    if name == "mean":
        rtol, atol = max(rtol, 1e-12), max(atol, 1e-10)

    @numpy_cunp_equal(rtol=rtol, atol=atol)
    def check(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(host), axis=axis, where=xp.asarray(mask)))
    check()


@pytest.mark.parametrize("name", ["max", "min", "nanmax", "nanmin"])
@pytest.mark.parametrize("axis", [None, 1])
def test_where_extrema_need_initial(device, name, axis):
    host = _data(numpy.float64)
    host[0, 1, 1] = numpy.nan
    mask = _mask(SHAPE, 2)

    @numpy_cunp_equal()
    def with_initial(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(host), axis=axis, where=xp.asarray(mask), initial=-7.5))
    with_initial()

    @numpy_cunp_equal()
    def without(xp):
        return getattr(xp, name)(xp.asarray(host), axis=axis, where=xp.asarray(mask))
    without()


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "nansum", "nanmax"])
@pytest.mark.parametrize("dt", [numpy.int32, numpy.float64, numpy.uint8])
def test_initial(device, name, dt):
    host = _data(dt, low=-2, high=3)

    # initial joins the float sum / product at another point of the order than NumPy's.
    @numpy_cunp_equal(rtol=1e-12, atol=1e-10)
    def check(xp):
        a = xp.asarray(host)
        return (_arr(xp, getattr(xp, name)(a, initial=3)),
                getattr(xp, name)(a, axis=(0, 2), initial=2, keepdims=True))
    check()


@pytest.mark.parametrize("name", ["max", "min", "sum"])
def test_initial_makes_empty_valid(device, name):
    @numpy_cunp_equal()
    def check(xp):
        e = xp.zeros((0, 4), dtype=xp.float32)
        return getattr(xp, name)(e, axis=0, initial=5.0), _arr(xp, getattr(xp, name)(e, initial=-1.0))
    check()


def test_where_broadcasts_and_checks_dtype(device):
    host = _data(numpy.int64)

    @numpy_cunp_equal()
    def row_mask(xp):
        return xp.sum(xp.asarray(host), axis=1, where=xp.asarray([True, False, True, True, False]))
    row_mask()

    @numpy_cunp_equal()
    def scalar_false(xp):
        return _arr(xp, xp.sum(xp.asarray(host), where=False))
    scalar_false()

    @numpy_cunp_equal()
    def int_mask(xp):
        return xp.sum(xp.asarray(host), where=xp.asarray(_mask(SHAPE).astype(numpy.int64)))
    int_mask()


@pytest.mark.parametrize("name", ["var", "std", "nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2)])
@pytest.mark.parametrize("dt", [numpy.int32, numpy.float32, numpy.float64, numpy.complex128])
def test_where_statistics(device, name, axis, dt):
    host = _data(dt)
    if numpy.dtype(dt).kind in "fc":
        host[1, 2, 3] = numpy.nan if name.startswith("nan") else host[1, 2, 3]
    mask = _mask(SHAPE, 3)
    mask[:, :, 0] = True  # every slice selects something
    rtol = 2e-5 if numpy.dtype(dt) == numpy.float32 else 1e-10

    @numpy_cunp_equal(rtol=rtol, atol=rtol)
    def check(xp):
        return _arr(xp, getattr(xp, name)(xp.asarray(host), axis=axis, where=xp.asarray(mask)))
    check()


# ---- The GPU kernel paths (Note [Reduce launch]): RowVector, ColVector, FullSmall and
# the var/std squared-deviation pass. Values are small integers stored in the dtype, so
# float sums are exact in any order (float16 excepted: its sums round to float16).

_KERNEL_DTYPES = [numpy.int8, numpy.float16, numpy.float32, numpy.float64, numpy.complex64, numpy.complex128,
                  numpy.bool_]


def _ints(shape, dt, low=-50, high=50):
    dt = numpy.dtype(dt)
    if dt == numpy.float16:  # partial sums stay small integers, exact in float16
        low, high = max(low, -1), min(high, 1)
    v = test_rng().integers(low, high + 1, size=shape)
    if dt.kind == "b":
        return (v > 0).astype(dt)
    if dt.kind == "u":
        return numpy.abs(v).astype(dt)
    if dt.kind == "c":
        w = test_rng().integers(low, high + 1, size=shape)
        return (v + 1j * w).astype(dt)
    return v.astype(dt)


def _tol16(dt):
    return {"rtol": 2e-3, "atol": 0.25} if numpy.dtype(dt) == numpy.float16 else {}


def _view(xp, host, layout):
    """Rows or columns that start anywhere: an offset base, a row pitch that breaks
    16-byte alignment, or a plain C array."""
    a = xp.asarray(host)
    if layout == "offset":  # base one element past an aligned address
        flat = xp.asarray(numpy.concatenate([host.reshape(-1)[:1], host.reshape(-1)]))
        return flat[1:].reshape(host.shape)
    if layout == "pitch":  # every row but the first starts unaligned
        return a[:, 1:]
    return a


@pytest.mark.parametrize("dt", _KERNEL_DTYPES, ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("n", [16, 17, 31, 100, 1027, 8195])
@pytest.mark.parametrize("layout", ["c", "offset", "pitch"])
@pytest.mark.parametrize("name", ["sum", "max", "argmax", "argmin"])
def test_rows_contiguous_axis(device, dt, n, layout, name):
    host = _ints((6, n), dt, -3, 3) if name.startswith("arg") else _ints((6, n), dt)

    @numpy_cunp_equal(**_tol16(dt))
    def check(xp):
        return getattr(xp, name)(_view(xp, host, layout), axis=-1)
    check()


@pytest.mark.parametrize("name", ["nanmax", "nanmin", "nansum", "argmax", "argmin", "max"])
def test_rows_contiguous_nan(device, name):
    host = _ints((9, 1029), numpy.float32, -3, 3)
    host[1, 7] = host[2, 1028] = host[3, 0] = host[3, 500] = numpy.nan
    host[4, :] = numpy.nan

    @numpy_cunp_equal()
    def check(xp):
        with numpy.errstate(invalid="ignore"):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                return getattr(xp, name)(xp.asarray(host)[:, 1:], axis=1)
    check()


@pytest.mark.parametrize("dt", _KERNEL_DTYPES, ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("shape", [(5, 8), (300, 12), (2000, 6), (70, 7), (1500, 1030), (3, 5, 20)])
@pytest.mark.parametrize("layout", ["c", "offset", "pitch"])
@pytest.mark.parametrize("name", ["sum", "min", "argmax"])
def test_columns(device, dt, shape, layout, name):
    host = _ints(shape, dt, -3, 3) if name == "argmax" else _ints(shape, dt)
    if layout == "pitch" and len(shape) != 2:
        pytest.skip("2-d layouts only")

    @numpy_cunp_equal(**_tol16(dt))
    def check(xp):
        return getattr(xp, name)(_view(xp, host, layout), axis=0)
    check()


@pytest.mark.parametrize("axis", [(0, 1), 0, (0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_columns_3d(device, axis, keepdims):
    host = _ints((400, 3, 16), numpy.float32)

    @numpy_cunp_equal()
    def check(xp):
        return xp.sum(xp.asarray(host), axis=axis, keepdims=keepdims)
    check()


@pytest.mark.parametrize("dt", _KERNEL_DTYPES, ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("n", [1, 2, 7, 1000, 4096, 4097, 70001])
@pytest.mark.parametrize("name", ["sum", "max", "argmin", "any"])
def test_full_small_and_large(device, dt, n, name):
    host = _ints((n,), dt, -3, 3) if name == "argmin" else _ints((n,), dt)

    @numpy_cunp_equal(**_tol16(dt))
    def check(xp):
        a = xp.asarray(host)
        return _arr(xp, getattr(xp, name)(a)), _arr(xp, getattr(xp, name)(a[1::3]))
    check()


def _var_tol(dt):
    dt = numpy.dtype(dt)
    if dt in (numpy.float32, numpy.complex64):
        return {"rtol": 1e-5, "atol": 1e-4}
    if dt == numpy.float16:
        return {"rtol": 2e-3, "atol": 1e-3}
    return {"rtol": 1e-12, "atol": 1e-12}


@pytest.mark.parametrize("dt", [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128, numpy.int16,
                                numpy.bool_, numpy.uint8], ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)])
@pytest.mark.parametrize("ddof", [0, 1, 3])
@pytest.mark.parametrize("name", ["var", "std"])
def test_var_std_one_pass(device, dt, axis, ddof, name):
    host = random_array((40, 7, 33), dt)

    @numpy_cunp_equal(**_var_tol(dt))
    def check(xp):
        a = xp.asarray(host)
        return (_arr(xp, getattr(xp, name)(a, axis=axis, ddof=ddof)),
                _arr(xp, getattr(xp, name)(a, axis=axis, ddof=ddof, keepdims=True)),
                _arr(xp, getattr(xp, name)(a.transpose(2, 0, 1)[:, 3:, ::2], axis=axis, ddof=ddof)))
    check()


@pytest.mark.parametrize("dt,acc", [(numpy.float32, numpy.float64), (numpy.int32, numpy.float32),
                                    (numpy.float16, numpy.float32), (numpy.complex64, numpy.complex128)])
@pytest.mark.parametrize("name", ["var", "std"])
def test_var_std_dtype(device, dt, acc, name):
    host = random_array((300, 20), dt)

    @numpy_cunp_equal(rtol=2e-5, atol=1e-4)
    def check(xp):
        a = xp.asarray(host)
        return _arr(xp, getattr(xp, name)(a, dtype=acc)), getattr(xp, name)(a, axis=0, dtype=acc, ddof=1)
    check()


@pytest.mark.parametrize("name", ["var", "std"])
def test_var_std_large_and_where(device, name):
    host = random_array((1 << 18,), numpy.float32, low=1000, high=1010)  # a large mean: needs two passes
    mask = random_array((4096,), numpy.bool_)

    # NumPy's where= sums are sequential: a smaller array keeps them accurate.
    @numpy_cunp_equal(rtol=1e-4)
    def check(xp):
        a = xp.asarray(host)
        return (_arr(xp, getattr(xp, name)(a)), _arr(xp, getattr(xp, name)(a[:4096], where=xp.asarray(mask))),
                getattr(xp, name)(a.reshape(512, 512), axis=1, ddof=2))
    check()


@pytest.mark.parametrize("name", ["var", "std"])
def test_var_std_out(device, name):
    host = random_array((30, 40), numpy.float64)

    # NumPy sums straight into the float32 out=; cunp rounds the float64 result once.
    @numpy_cunp_equal(rtol=1e-6)
    def check(xp):
        out = xp.zeros((40,), dtype=numpy.float32)
        r = getattr(xp, name)(xp.asarray(host), axis=0, out=out)
        return r, out
    check()


# ---- empty inputs, initial=, axis forms and out= of the extrema and arg-reductions

def _extrema_cases():
    from cases import Message as M
    cases = []
    for f in ["min", "max", "amin", "amax", "nanmin", "nanmax", "ptp", "argmin", "argmax"]:
        arg = f.startswith("arg")
        for shape, axis in [((0,), None), ((0,), 0), ((0, 3), None), ((0, 3), 0), ((0, 3), 1), ((3, 0), 1),
                            ((3, 0), 0), ((2, 0, 3), (0, 2)), ((2, 0, 3), (1,)), ((2, 0), ()), ((0,), -1)]:
            if arg and isinstance(axis, tuple):
                continue
            for dt in ["float64", "int8", "bool", "complex64", "float16", "uint64"]:
                cases.append(M(lambda xp, f=f, s=shape, a=axis, dt=dt: getattr(xp, f)(xp.zeros(s, dt), axis=a)))
            cases.append(M(lambda xp, f=f, s=shape, a=axis: getattr(xp, f)(xp.zeros(s, "i1"), axis=a, keepdims=True)))
            if not arg and f != "ptp":
                cases += [M(lambda xp, f=f, s=shape, a=axis: getattr(xp, f)(xp.zeros(s), axis=a, initial=5)),
                          M(lambda xp, f=f, s=shape, a=axis: getattr(xp, f)(xp.zeros(s, "u2"), axis=a, initial=7,
                                                                          keepdims=True))]
        if f in ("min", "max", "argmin", "argmax"):
            cases += [M(lambda xp, f=f: getattr(xp.zeros((0, 2)), f)(axis=0)),
                      M(lambda xp, f=f: getattr(xp.zeros((0, 2)), f)(1)),
                      M(lambda xp, f=f: getattr(xp.zeros((2, 0))[:, ::-1], f)())]
        cases.append(M(lambda xp, f=f: getattr(xp, f)(xp.zeros((4, 0)).T, 0)))
    cases += [
        M(lambda xp: xp.amin(xp.zeros(0), where=xp.zeros(0, bool))),
        M(lambda xp: xp.nanmin(xp.zeros(0, "i4"), where=xp.zeros(0, bool))),
        M(lambda xp: xp.nanmax(xp.zeros(0, "u1"), initial=3, where=xp.zeros(0, bool))),
        lambda xp: xp.nanmin(xp.zeros(0), initial=2, where=xp.zeros(0, bool)),
        lambda xp: xp.nanmax(xp.zeros(2) * xp.nan, initial=1), M(lambda xp: xp.ptp(xp.zeros(0), initial=1)),
        lambda xp: xp.min(xp.zeros(0), initial=xp.nan),
        lambda xp: xp.max(xp.zeros((0, 2)), axis=0, initial=-1, keepdims=True),
        lambda xp: xp.min(xp.ones((2, 3)), axis=1, initial=0.5, where=xp.asarray([True, False, True])),
        lambda xp: xp.min(xp.asarray(5)), lambda xp: xp.min(xp.asarray(5), axis=0), lambda xp: xp.min(xp.asarray(5), axis=()),
        lambda xp: xp.ptp(xp.asarray(5)), lambda xp: xp.nanmin(xp.asarray(xp.nan)),
    ]
    a = lambda xp: xp.asarray([[3, 1, 2], [0, 5, 4]])  # noqa: E731
    for f in ["argmax", "argmin"]:
        cases += [
            lambda xp, f=f: getattr(xp, f)(xp.asarray(5)), lambda xp, f=f: getattr(xp, f)(xp.asarray(5), axis=0),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(5), axis=-1), M(lambda xp, f=f: getattr(xp, f)(xp.asarray(5), axis=1)),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(5), keepdims=True), lambda xp, f=f: getattr(xp, f)(a(xp), keepdims=True),
            lambda xp, f=f: getattr(xp, f)(a(xp), axis=0, keepdims=True), lambda xp, f=f: getattr(xp, f)(a(xp).T, axis=1),
            lambda xp, f=f: getattr(xp, f)(a(xp)[:, ::-1], axis=1), M(lambda xp, f=f: getattr(xp, f)(a(xp), axis=(0, 1))),
            M(lambda xp, f=f: getattr(xp, f)(a(xp), axis=2)), M(lambda xp, f=f: getattr(xp, f)(a(xp), axis=1.0)),
            lambda xp, f=f: getattr(xp, f)(a(xp), axis=numpy.int8(1)), M(lambda xp, f=f: getattr(xp, f)(a(xp), axis=True)),
            lambda xp, f=f: getattr(xp, f)(a(xp), None, None, keepdims=True), lambda xp, f=f: getattr(a(xp), f)(None, None, keepdims=True),
            lambda xp, f=f: getattr(xp, f)(xp.asarray([1.0, numpy.nan, numpy.nan, 0])),
            lambda xp, f=f: getattr(xp, f)(xp.asarray([[1.0, numpy.nan], [numpy.nan, 0]]), axis=0),
            lambda xp, f=f: getattr(xp, f)(xp.asarray([1 + 1j, 1 + 0j, numpy.nan])),
            lambda xp, f=f: getattr(xp, f)(xp.asarray([True, False, True])), M(lambda xp, f=f: getattr(xp, f)(a(xp), out=[1])),
            M(lambda xp, f=f: getattr(xp, f)(a(xp), axis=1, out=xp.empty(3, "i8"))),
            M(lambda xp, f=f: getattr(xp, f)(a(xp), axis=1, keepdims=True, out=xp.empty(2, "i8"))),
        ]
        for dt in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool", "float16",
                   "float32", "float64", "complex64"]:
            def with_out(xp, f=f, dt=dt, shape=(3,), **kw):
                out = xp.empty(shape, dt)
                r = getattr(xp, f)(a(xp), out=out, **kw)
                return r is out, out
            cases += [M(lambda xp, w=with_out: w(xp, axis=0)), M(lambda xp, w=with_out: w(xp, shape=())),
                      M(lambda xp, w=with_out: w(xp, shape=(2, 1), axis=1, keepdims=True)),
                      M(lambda xp, f=f, dt=dt: (lambda o: (getattr(a(xp), f)(0, o) is o, o))(xp.empty(3, dt)))]
        cases.append(lambda xp, f=f: (lambda o: (getattr(xp, f)(a(xp), axis=1, out=o[:, 1]) is not None, o))(
            xp.zeros((2, 3), "i8")))
    return cases


def test_extrema_empty_initial_axis_out(device):
    """min/max/amin/amax/nanmin/nanmax/ptp/argmin/argmax against NumPy: empty inputs
    with NumPy's exact messages, initial= making them valid, axes with a non-empty
    result over a zero-length axis, 0-d inputs, out= dtypes and shapes."""
    from cases import check_cases
    check_cases(_extrema_cases())


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_argreduce_dtype(device, name):
    """CuPy's dtype= of argmax/argmin: the signed integer dtype of the indices, as a
    keyword (NumPy's positional out stays third), on the function and the method."""
    host = random_array((4, 70), numpy.float32)
    a = cunp.asarray(host)
    expect = getattr(numpy, name)(host, axis=1)
    for dt in ["int8", "int16", "int32", "int64", numpy.int32, numpy.dtype("int16")]:
        for r in (getattr(cunp, name)(a, axis=1, dtype=dt), getattr(a, name)(axis=1, dtype=dt),
                  getattr(a[:, ::-1], name)(1, dtype=dt)[:, None]):
            assert r.dtype == numpy.dtype(dt)
        assert_array_equal(getattr(cunp, name)(a, axis=1, dtype=dt), expect.astype(dt))
        r = getattr(cunp, name)(a, keepdims=True, dtype=dt)
        assert r.shape == (1, 1) and r.dtype == numpy.dtype(dt)
        # The flat index wraps into dt like the axis indices (280 elements: past int8).
        assert int(r[0, 0]) == int(numpy.asarray(getattr(numpy, name)(host)).astype(dt))
    assert getattr(cunp, name)(a, dtype=None).dtype == numpy.int64
    # Indices past the dtype's range wrap, as a cast does.
    wide = cunp.asarray(numpy.arange(300) if name == "argmax" else -numpy.arange(300))
    assert int(getattr(cunp, name)(wide, dtype="int8")) == numpy.int64(299).astype(numpy.int8)
    for bad in ["uint8", "uint64", "float32", "bool", "complex64"]:
        with pytest.raises(TypeError, match="signed integer"):
            getattr(cunp, name)(a, dtype=bad)
        with pytest.raises(TypeError, match="signed integer"):
            getattr(a, name)(dtype=bad)
    with pytest.raises(TypeError):
        getattr(cunp, name)(a, 1, None, False)  # keepdims and dtype are keyword-only, as NumPy's keepdims
    out = cunp.empty(4, "int32")
    assert getattr(cunp, name)(a, axis=1, out=out, dtype="int16") is out
    assert_array_equal(out, expect.astype("int32"))
    with pytest.raises(ValueError, match="attempt to get %s of an empty sequence" % name):
        getattr(cunp, name)(cunp.zeros((0, 3)), axis=0, dtype="int32")

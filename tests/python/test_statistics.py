"""Statistics (cunp._statistics) against NumPy: median/quantile/percentile and the nan*
variants over dtypes x axes x keepdims x methods with NaN and empty cases; average, cov,
corrcoef; histogram, histogram_bin_edges, bincount and digitize, including inputs large
enough for the threaded CPU loops and the multi-block GPU kernels; errors."""
import warnings

import numpy
import pytest

import cunp
from helpers import numpy_cunp_equal, random_array

REAL = [d for d in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                    "float16", "float32", "float64")]
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
           "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher",
           "midpoint", "nearest"]
AXES = [None, 0, -1, (0, 2), (2, 0)]
SHAPE = (3, 4, 5)


@pytest.fixture(autouse=True)
def _quiet():
    # NumPy warns for all-NaN slices, empty means and degrees of freedom <= 0.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _tol(dt):
    dt = numpy.dtype(dt)
    if dt == numpy.float16:
        return 1e-3
    if dt in (numpy.float32, numpy.complex64):
        return 1e-6
    return 1e-12


def _res(xp, r):
    """NumPy gives scalars for full reductions; cunp gives 0-d arrays."""
    return xp.asarray(r) if xp is numpy else r


def _with_nans(host):
    h = host.copy()
    h.flat[::7] = numpy.nan
    return h


# ---- median ---------------------------------------------------------------------------

@pytest.mark.parametrize("dt", REAL + ["complex64"])
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_median(device, dt, axis, keepdims):
    host = random_array(SHAPE, dt)

    @numpy_cunp_equal(rtol=_tol(dt))
    def check(xp):
        return _res(xp, xp.median(xp.asarray(host), axis=axis, keepdims=keepdims))
    check()


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
@pytest.mark.parametrize("axis", [None, 1, (0, 1)])
@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_nan(device, dt, axis, name):
    host = _with_nans(random_array(SHAPE, dt))
    host[0, :, :] = numpy.nan  # all-NaN slices along axis 1

    @numpy_cunp_equal(rtol=_tol(dt))
    def check(xp):
        return _res(xp, getattr(xp, name)(xp.asarray(host), axis=axis))
    check()


@pytest.mark.parametrize("name", ["median", "nanmedian"])
@pytest.mark.parametrize("shape,axis", [((0,), None), ((0, 3), 0), ((3, 0), 1), ((3, 0), 0), ((), None)])
def test_median_empty_and_0d(device, name, shape, axis):
    host = numpy.ones(shape)

    @numpy_cunp_equal()
    def check(xp):
        return _res(xp, getattr(xp, name)(xp.asarray(host), axis=axis))
    check()


def test_median_out(device):
    host = random_array((4, 6), "float64")
    out = cunp.empty(6)
    r = cunp.median(cunp.asarray(host), axis=0, out=out)
    assert r is out
    numpy.testing.assert_array_equal(out.get(), numpy.median(host, axis=0))


def test_median_axis_errors(device):
    a = cunp.ones((2, 3))
    with pytest.raises(numpy.exceptions.AxisError):
        cunp.median(a, axis=2)
    with pytest.raises(ValueError):
        cunp.median(a, axis=(0, 0))


# ---- quantile / percentile -------------------------------------------------------------

@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dt", ["int16", "uint8", "int64", "float16", "float32", "float64"])
@pytest.mark.parametrize("q", [0.0, 0.3, 0.5, 1.0, [0.1, 0.5, 0.99], "f4"])
def test_quantile_methods(device, method, dt, q):
    host = random_array((7, 11), dt)
    if q == "f4":
        q = numpy.array([0.25, 0.75], dtype=numpy.float32)

    @numpy_cunp_equal(rtol=_tol(dt) * 10)
    def check(xp):
        qq = xp.asarray(q) if isinstance(q, numpy.ndarray) else q
        return _res(xp, xp.quantile(xp.asarray(host), qq, axis=1, method=method))
    check()


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("name", ["quantile", "percentile", "nanquantile", "nanpercentile"])
def test_quantile_axes(device, axis, keepdims, name):
    host = random_array(SHAPE, "float32")
    q = [0.2, 0.9] if "quantile" in name else [20, 90]

    @numpy_cunp_equal(rtol=1e-6)
    def check(xp):
        return _res(xp, getattr(xp, name)(xp.asarray(host), q, axis=axis, keepdims=keepdims))
    check()


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint", "hazen",
                                    "inverted_cdf", "closest_observation"])
@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("q", [0.4, [0.0, 0.6, 1.0]])
def test_quantile_nan(device, method, name, dt, q):
    host = _with_nans(random_array((6, 9), dt))
    host[2, :] = numpy.nan
    host[4, :8] = numpy.nan  # a single valid value

    @numpy_cunp_equal(rtol=_tol(dt) * 10)
    def check(xp):
        return _res(xp, getattr(xp, name)(xp.asarray(host), q, axis=1, method=method))
    check()


def test_quantile_infinities(device):
    host = numpy.array([1.0, numpy.inf, -numpy.inf, 2.0])

    @numpy_cunp_equal()
    def check(xp):
        return xp.quantile(xp.asarray(host), [0.0, 0.5, 1.0])
    check()


def test_quantile_integer_q(device):
    host = random_array((5, 4), "float32")

    @numpy_cunp_equal()
    def check(xp):
        return xp.quantile(xp.asarray(host), xp.asarray(numpy.array([0, 1])), axis=0)
    check()


def test_nanquantile_int_and_empty(device):
    host = random_array((4, 5), "int32")

    @numpy_cunp_equal()
    def check(xp):
        return (xp.nanquantile(xp.asarray(host), [0.5], axis=0), _res(xp, xp.nanpercentile(xp.asarray(numpy.zeros((3, 0))), 50, axis=1)))
    check()


def test_quantile_out(device):
    host = random_array((4, 6), "float64")
    out = cunp.empty((2, 6))
    r = cunp.quantile(cunp.asarray(host), [0.1, 0.7], axis=0, out=out)
    assert r is out
    numpy.testing.assert_allclose(out.get(), numpy.quantile(host, [0.1, 0.7], axis=0), rtol=1e-12)


@pytest.mark.parametrize("call", [
    lambda xp, a: xp.quantile(a, 1.5),
    lambda xp, a: xp.quantile(a, [0.5, -0.1]),
    lambda xp, a: xp.percentile(a, 101),
    lambda xp, a: xp.nanpercentile(a, [-1]),
    lambda xp, a: xp.quantile(a, 0.5, method="cubic"),
    lambda xp, a: xp.quantile(xp.asarray(numpy.zeros(0)), 0.5),
    lambda xp, a: xp.quantile(xp.asarray(numpy.ones(3, dtype=complex)), 0.5),
    lambda xp, a: xp.quantile(a, numpy.nan),
])
def test_quantile_errors(device, call):
    host = random_array((5,), "float64")

    @numpy_cunp_equal()
    def check(xp):
        return call(xp, xp.asarray(host))
    check()


def test_percentile_message(device):
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        cunp.percentile(cunp.ones(3), 150)
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        cunp.quantile(cunp.ones(3), [2.0])


# ---- average / cov / corrcoef ------------------------------------------------------------

@pytest.mark.parametrize("dt", ["int32", "bool", "float32", "float64", "complex128"])
@pytest.mark.parametrize("axis,wshape", [(None, None), (None, SHAPE), (1, (4,)), ((0, 2), (3, 5)),
                                         ((2, 0), (5, 3)), (-1, SHAPE)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_average(device, dt, axis, wshape, keepdims):
    host = random_array(SHAPE, dt)
    w = None if wshape is None else random_array(wshape, "float32", low=1, high=5)

    # Sums of values up to 50 that cancel to near zero: float32 needs an absolute tolerance.
    @numpy_cunp_equal(rtol=_tol(dt) * 10, atol=1e-3 if dt == "float32" else 1e-10)
    def check(xp):
        ww = None if w is None else xp.asarray(w)
        avg, scl = xp.average(xp.asarray(host), axis=axis, weights=ww, returned=True, keepdims=keepdims)
        return _res(xp, avg), _res(xp, scl)
    check()


@pytest.mark.parametrize("call", [
    lambda xp, a: xp.average(a, weights=xp.asarray(numpy.ones(4))),
    lambda xp, a: xp.average(a, axis=1, weights=xp.asarray(numpy.ones(3))),
    lambda xp, a: xp.average(a, axis=0, weights=xp.asarray(numpy.zeros(3))),
])
def test_average_errors(device, call):
    host = random_array((3, 4), "float64")

    @numpy_cunp_equal()
    def check(xp):
        return call(xp, xp.asarray(host))
    check()


@pytest.mark.parametrize("kwargs", [
    {}, {"rowvar": False}, {"bias": True}, {"ddof": 3}, {"fweights": "f"}, {"aweights": "a"},
    {"fweights": "f", "aweights": "a"}, {"fweights": "f", "aweights": "a", "ddof": 0},
    {"y": "y"}, {"y": "y", "rowvar": False}, {"dtype": "float32"},
])
@pytest.mark.parametrize("dt", ["int64", "float32", "float64", "complex128"])
def test_cov(device, kwargs, dt):
    host = random_array((3, 8), dt)
    extra = {"f": random_array((8,), "int64", low=1, high=4), "a": random_array((8,), "float64", low=0.5, high=2),
             "y": random_array((2, 8), "float64")}

    # float32 covariances of values up to 50 that cancel to near zero: absolute tolerance.
    f32 = kwargs.get("dtype") == "float32"
    @numpy_cunp_equal(rtol=1e-5 if f32 or dt == "float32" else 1e-10, atol=2e-2 if f32 else 1e-8)
    def check(xp):
        kw = {k: (xp.asarray(extra[v]) if k in ("fweights", "aweights", "y") else v) for k, v in kwargs.items()}
        m = xp.asarray(host)
        if kwargs.get("rowvar") is False:
            m = xp.asarray(numpy.ascontiguousarray(host.T))
            if "y" in kw:
                kw["y"] = xp.asarray(numpy.ascontiguousarray(extra["y"].T))
        return _res(xp, xp.cov(m, **kw))
    check()


@pytest.mark.parametrize("host", [numpy.arange(5.0), numpy.array([[1.0, 2, 4], [3, 1, 0]])])
def test_cov_shapes(device, host):
    @numpy_cunp_equal(rtol=1e-12)
    def check(xp):
        return _res(xp, xp.cov(xp.asarray(host)))
    check()


@pytest.mark.parametrize("call", [
    lambda xp: xp.cov(xp.asarray(numpy.ones((2, 2, 2)))),
    lambda xp: xp.cov(xp.asarray(numpy.ones((2, 3))), fweights=xp.asarray(numpy.array([1.5, 1, 1]))),
    lambda xp: xp.cov(xp.asarray(numpy.ones((2, 3))), aweights=xp.asarray(numpy.array([-1.0, 1, 1]))),
    lambda xp: xp.cov(xp.asarray(numpy.ones((2, 3))), aweights=xp.asarray(numpy.ones(4))),
    lambda xp: xp.cov(xp.asarray(numpy.ones((2, 3))), ddof=1.5),
])
def test_cov_errors(device, call):
    @numpy_cunp_equal()
    def check(xp):
        return call(xp)
    check()


@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("dt", ["float32", "float64", "complex128", "int16"])
def test_corrcoef(device, rowvar, dt):
    host = random_array((4, 6), dt)

    @numpy_cunp_equal(rtol=1e-5 if dt == "float32" else 1e-10, atol=1e-7)
    def check(xp):
        return _res(xp, xp.corrcoef(xp.asarray(host), rowvar=rowvar))
    check()


def test_corrcoef_single_variable(device):
    @numpy_cunp_equal()
    def check(xp):
        return _res(xp, xp.corrcoef(xp.asarray(numpy.array([1.0, 2.0, 4.0]))))
    check()


# ---- histogram ---------------------------------------------------------------------------

HIST_DTYPES = ["bool", "int8", "uint8", "int32", "uint64", "int64", "float16", "float32", "float64"]


@pytest.mark.parametrize("dt", HIST_DTYPES)
@pytest.mark.parametrize("bins", [1, 10, 256])
@pytest.mark.parametrize("range_", [None, (-20, 30.5), (0, 1)])
def test_histogram_uniform(device, dt, bins, range_):
    host = random_array((1001,), dt)

    @numpy_cunp_equal()
    def check(xp):
        return xp.histogram(xp.asarray(host), bins=bins, range=range_)
    check()


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
def test_histogram_edges_exact(device, dt):
    # Values exactly on (and next to) the computed edges exercise NumPy's corrections.
    edges = numpy.histogram_bin_edges(numpy.array([0.1, 0.7], dtype=dt), bins=37)
    host = numpy.concatenate([edges, numpy.nextafter(edges, numpy.inf).astype(dt),
                              numpy.nextafter(edges, -numpy.inf).astype(dt)]).astype(dt)

    @numpy_cunp_equal()
    def check(xp):
        return (xp.histogram(xp.asarray(host), bins=37), xp.histogram(xp.asarray(host), bins=37, range=(0.1, 0.7)))
    check()


@pytest.mark.parametrize("dt", ["int16", "uint8", "float32", "float64", "bool"])
@pytest.mark.parametrize("edges", [[-10, 0, 5, 50], [0.5, 1, 1, 3.5, 20], [-100.5, 100], [3]])
def test_histogram_explicit(device, dt, edges):
    host = random_array((777,), dt)

    @numpy_cunp_equal()
    def check(xp):
        return xp.histogram(xp.asarray(host), bins=xp.asarray(numpy.array(edges)))
    check()


@pytest.mark.parametrize("wdt", ["float32", "float64", "int8", "complex128"])
@pytest.mark.parametrize("bins", [8, "edges"])
@pytest.mark.parametrize("density", [False, True])
def test_histogram_weights_density(device, wdt, bins, density):
    host = random_array((500,), "float64")
    w = random_array((500,), wdt, low=0, high=5)
    if bins == "edges":
        bins = numpy.array([-40.0, -3, 0, 10, 45])

    @numpy_cunp_equal(rtol=1e-5 if wdt == "float32" else 1e-12)
    def check(xp):
        b = xp.asarray(bins) if isinstance(bins, numpy.ndarray) else bins
        return xp.histogram(xp.asarray(host), bins=b, weights=xp.asarray(w), density=density)
    check()


@pytest.mark.parametrize("bins", [256, 5000, 100000])
@pytest.mark.parametrize("weighted", [False, True])
def test_histogram_large(device, bins, weighted):
    # Many blocks / threads; 100000 bins exceed the shared sub-histograms (global atomics).
    rng = numpy.random.default_rng(5)
    host = rng.normal(size=600_000).astype(numpy.float32)
    w = rng.uniform(0, 1, size=host.size) if weighted else None

    @numpy_cunp_equal(rtol=1e-9)
    def check(xp):
        # [1:] of the device array: not 16-byte aligned, so the kernels start with a scalar head.
        return xp.histogram(xp.asarray(host)[1:], bins=bins, weights=None if w is None else xp.asarray(w)[1:])
    check()


def test_histogram_strided_input(device):
    host = random_array((40, 30), "float32")

    @numpy_cunp_equal()
    def check(xp):
        return xp.histogram(xp.asarray(host)[:, ::3].T, bins=12)
    check()


@pytest.mark.parametrize("dt", ["int32", "float32", "float64"])
@pytest.mark.parametrize("est", ["auto", "fd", "doane", "scott", "rice", "sturges", "sqrt"])
def test_histogram_bin_edges_estimators(device, dt, est):
    host = random_array((300,), dt)

    @numpy_cunp_equal(rtol=1e-6)
    def check(xp):
        return (xp.histogram_bin_edges(xp.asarray(host), bins=est),
                xp.histogram(xp.asarray(host), bins=est, range=(-10, 20))[0])
    check()


@pytest.mark.parametrize("call", [
    lambda xp, a: xp.histogram(a, bins=0),
    lambda xp, a: xp.histogram(a, bins=2.5),
    lambda xp, a: xp.histogram(a, bins=xp.asarray(numpy.array([[1.0, 2.0]]))),
    lambda xp, a: xp.histogram(a, bins=xp.asarray(numpy.array([2.0, 1.0]))),
    lambda xp, a: xp.histogram(a, range=(2, 1)),
    lambda xp, a: xp.histogram(a, range=(0, numpy.inf)),
    lambda xp, a: xp.histogram(xp.asarray(numpy.array([1.0, numpy.nan]))),
    lambda xp, a: xp.histogram(a, weights=xp.asarray(numpy.ones(3))),
    lambda xp, a: xp.histogram(a, bins="cubic"),
    lambda xp, a: xp.histogram(a, bins="auto", weights=xp.asarray(numpy.ones(10))),
    lambda xp, a: xp.histogram_bin_edges(a, bins=-1),
])
def test_histogram_errors(device, call):
    host = random_array((10,), "float64")

    @numpy_cunp_equal()
    def check(xp):
        return call(xp, xp.asarray(host))
    check()


def test_histogram_empty(device):
    @numpy_cunp_equal()
    def check(xp):
        e = xp.asarray(numpy.zeros(0))
        return xp.histogram(e), xp.histogram(e, bins=xp.asarray(numpy.array([0.0, 1.0]))), xp.histogram_bin_edges(e, 3)
    check()


# ---- bincount / digitize -------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int32", "int64", "uint64"])
@pytest.mark.parametrize("minlength", [0, 3, 100])
@pytest.mark.parametrize("weighted", [False, True])
def test_bincount(device, dt, minlength, weighted):
    host = random_array((300,), dt, low=0, high=40)
    w = random_array((300,), "float32") if weighted else None

    @numpy_cunp_equal(rtol=1e-6)
    def check(xp):
        return xp.bincount(xp.asarray(host), weights=None if w is None else xp.asarray(w), minlength=minlength)
    check()


@pytest.mark.parametrize("high", [100, 50_000])
def test_bincount_large(device, high):
    host = numpy.random.default_rng(3).integers(0, high, size=400_000)

    @numpy_cunp_equal(rtol=1e-12)
    def check(xp):
        x = xp.asarray(host)[3:]
        return xp.bincount(x), xp.bincount(x, weights=xp.asarray(host * 0.5)[3:])
    check()


@pytest.mark.parametrize("call", [
    lambda xp: xp.bincount(xp.asarray(numpy.array([1, -1]))),
    lambda xp: xp.bincount(xp.asarray(numpy.array([1.0]))),
    lambda xp: xp.bincount(xp.asarray(numpy.zeros((2, 2), dtype=int))),
    lambda xp: xp.bincount(xp.asarray(numpy.array([1, 2])), minlength=-1),
    lambda xp: xp.bincount(xp.asarray(numpy.array([1, 2])), weights=xp.asarray(numpy.ones(3))),
    lambda xp: xp.bincount([]),
    lambda xp: xp.bincount(xp.asarray(numpy.zeros(0, dtype=int)), minlength=4),
])
def test_bincount_edge_cases(device, call):
    @numpy_cunp_equal()
    def check(xp):
        return call(xp)
    check()


@pytest.mark.parametrize("dt", ["int8", "uint16", "int64", "float16", "float32", "float64", "bool"])
@pytest.mark.parametrize("bins", [[-10, 0, 3, 20], [20.5, 3, 0, -10], [1, 1, 2], [], [5.0]])
@pytest.mark.parametrize("right", [False, True])
def test_digitize(device, dt, bins, right):
    host = random_array((6, 50), dt, low=-15, high=25)
    if host.dtype.kind == "f":
        host[0, :3] = [numpy.nan, numpy.inf, -numpy.inf]

    @numpy_cunp_equal()
    def check(xp):
        x = xp.asarray(host)
        return (xp.digitize(x, xp.asarray(numpy.array(bins)), right=right),
                xp.digitize(x[:, ::3], xp.asarray(numpy.array(bins)), right=right))
    check()


@pytest.mark.parametrize("call", [
    lambda xp: xp.digitize(xp.asarray(numpy.ones(3)), xp.asarray(numpy.array([1.0, 3, 2]))),
    lambda xp: xp.digitize(xp.asarray(numpy.ones(3)), xp.asarray(numpy.ones((2, 2)))),
    lambda xp: xp.digitize(xp.asarray(numpy.ones(3, dtype=complex)), xp.asarray(numpy.ones(2))),
])
def test_digitize_errors(device, call):
    @numpy_cunp_equal()
    def check(xp):
        return call(xp)
    check()


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "int8", "uint64", "bool"])
@pytest.mark.parametrize("range_", [None, (3, 3)])
def test_histogram_constant_data(device, dt, range_):
    # first == last: NumPy widens the range by 0.5 on each side (in the data's dtype
    # when the range comes from the data).
    host = numpy.full(9, 3 if dt != "bool" else 1, dtype=dt)

    @numpy_cunp_equal()
    def check(xp):
        return xp.histogram(xp.asarray(host), bins=5, range=range_)
    check()


@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_quantile_interpolation_keyword_is_gone(device, name):
    """NumPy 2.4 removed `interpolation=` (the old alias of `method=`): both raise TypeError."""
    for xp in (numpy, cunp):
        a = xp.asarray([1.0, 2.0, 3.0])
        with pytest.raises(TypeError, match="interpolation"):
            getattr(xp, name)(a, 0.5, interpolation="linear")

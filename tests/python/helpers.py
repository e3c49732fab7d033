"""The NumPy oracle: run one test body with xp=numpy and xp=cunp and compare."""
import functools
import os
import zlib

import numpy
import pytest

import cunp


_TEST_RNG = {}


def test_rng():
    """The running test's random generator, seeded from its node id (the same data on
    every run of that test, so a failure reproduces): repeated calls within one test
    continue one stream."""
    current = os.environ.get("PYTEST_CURRENT_TEST", "")
    node = current.rsplit(" (", 1)[0]
    gen = _TEST_RNG.get(node)
    if gen is None:
        _TEST_RNG.clear()  # one test at a time per process
        gen = _TEST_RNG[node] = numpy.random.default_rng(zlib.crc32(node.encode()))
    return gen


test_rng.__test__ = False  # a helper, not a test


def random_array(shape, dtype, rng=None, low=-50, high=50):
    """Fresh random host data of any dtype (a NumPy array, also for shape ())."""
    return numpy.asarray(_random(shape, dtype, rng, low, high))


def _random(shape, dtype, rng, low, high):
    rng = rng or test_rng()
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dtype)
    if dtype.kind == "u":
        return rng.integers(0, min(high, numpy.iinfo(dtype).max) + 1, size=shape).astype(dtype)
    if dtype.kind == "i":
        info = numpy.iinfo(dtype)
        return rng.integers(max(low, info.min), min(high, info.max) + 1, size=shape).astype(dtype)
    if dtype.kind == "f":
        return (rng.uniform(low, high, size=shape)).astype(dtype)
    real = rng.uniform(low, high, size=shape)
    imag = rng.uniform(low, high, size=shape)
    return (real + 1j * imag).astype(dtype)


def to_host(x):
    if isinstance(x, cunp.ndarray):
        return x.get()
    return x


def assert_array_equal(actual, expected, *, rtol=0.0, atol=0.0, check_dtype=True):
    """actual: a cunp array; expected: a NumPy array. Shape, dtype and values must agree
    (NaNs in the same places count as equal)."""
    assert isinstance(actual, cunp.ndarray), "expected a cunp.ndarray, got %r" % type(actual)
    expected = numpy.asarray(expected)
    assert actual.shape == expected.shape, "shape %r != %r" % (actual.shape, expected.shape)
    if check_dtype:
        assert actual.dtype == expected.dtype, "dtype %r != %r" % (actual.dtype, expected.dtype)
    host = actual.get()
    if rtol or atol:
        numpy.testing.assert_allclose(host, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        numpy.testing.assert_array_equal(host, expected, strict=False)


class Tolerance:
    """A result compared with its own tolerance instead of the test's, for the few
    results whose error is larger for a stated reason (e.g. the conditioning of
    complex float32 power)."""

    def __init__(self, value, rtol, atol=0.0):
        self.value, self.rtol, self.atol = value, rtol, atol


# complex64 x**y is exp(y*log(x)) in float32: the result's relative error is about
# |y*log(x)| ulps of the argument (|y*log(x)| reaches ~20 in the operator tests, ~1.2e-6
# before the libm's own few ulps), so exact-to-1e-6 agreement between two math
# libraries is not a property any float32 implementation has.
COMPLEX64_POWER_RTOL = 1e-5


def power_determined_part(xp, r, exponent):
    """x**s for a complex array x and a scalar |s| >= 2**24: the magnitude of the result is
    determined, its angle s*arg(x) is not (one ulp of arg(x) moves it by more than 2*pi),
    so two correct math libraries give infinities of different signs. Compare |x**s|.
    Other complex64 powers are compared to COMPLEX64_POWER_RTOL (see above). `exponent`
    is the scalar exponent of x**s, or None for s**x."""
    if (isinstance(r, xp.ndarray) and r.dtype.kind == "c" and isinstance(exponent, (int, float, complex))
            and not isinstance(exponent, bool) and abs(exponent) >= 2 ** 24):
        return xp.abs(r)
    if isinstance(r, xp.ndarray) and r.dtype == numpy.complex64:
        return Tolerance(r, COMPLEX64_POWER_RTOL)
    return r


def assert_same(actual, expected, **kw):
    if isinstance(expected, Tolerance):
        assert isinstance(actual, Tolerance)
        assert_same(actual.value, expected.value,
                    **dict(kw, rtol=expected.rtol, atol=expected.atol))
        return
    if isinstance(expected, numpy.ndarray):
        assert_array_equal(actual, expected, **kw)
    elif isinstance(expected, (tuple, list)):
        assert type(actual) is type(expected) and len(actual) == len(expected)
        for a, e in zip(actual, expected):
            assert_same(a, e, **kw)
    elif isinstance(expected, numpy.generic):
        # Reductions/items: cunp gives 0-d arrays or Python scalars where NumPy gives scalars.
        host = actual.get() if isinstance(actual, cunp.ndarray) else numpy.asarray(actual)
        if kw.get("check_dtype", True) and isinstance(actual, cunp.ndarray):
            assert host.dtype == expected.dtype
        if kw.get("rtol") or kw.get("atol"):
            # a scalar result under the tolerance its test gives the arrays
            numpy.testing.assert_allclose(host, expected, rtol=kw.get("rtol", 0.0), atol=kw.get("atol", 0.0),
                                          equal_nan=True)
        else:
            numpy.testing.assert_array_equal(host, expected)
    else:
        assert type(actual) is type(expected), "%r is not a %r" % (type(actual), type(expected))
        assert actual == expected or (actual != actual and expected != expected)


def numpy_cunp_equal(*, rtol=0.0, atol=0.0, check_dtype=True):
    """Decorator: calls the test with xp=numpy and xp=cunp and compares the results
    (values, dtypes, shapes), or checks that both raise the same exception type."""
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            np_err = cp_err = None
            expected = actual = None
            try:
                expected = fn(*args, xp=numpy, **kwargs)
            except Exception as e:  # noqa: BLE001 - the oracle's exception is the expectation
                np_err = e
            try:
                actual = fn(*args, xp=cunp, **kwargs)
            except Exception as e:  # noqa: BLE001
                cp_err = e
            if np_err is not None or cp_err is not None:
                if np_err is None:
                    raise cp_err
                if cp_err is None:
                    pytest.fail("NumPy raised %r but cunp returned %r" % (np_err, actual))
                assert isinstance(cp_err, type(np_err)), (
                    "NumPy raised %s(%s) but cunp raised %s(%s)" % (type(np_err).__name__, np_err,
                                                                   type(cp_err).__name__, cp_err))
                return
            assert expected is not None, "the test body must return a value to compare"
            assert_same(actual, expected, rtol=rtol, atol=atol, check_dtype=check_dtype)
        # pytest must not see the xp parameter.
        wrapper.__signature__ = _without_xp(fn)
        return wrapper
    return deco


def _without_xp(fn):
    import inspect

    sig = inspect.signature(fn)
    return sig.replace(parameters=[p for p in sig.parameters.values() if p.name != "xp"])

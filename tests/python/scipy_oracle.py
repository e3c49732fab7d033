"""The SciPy oracle of the cunpx.scipy.signal tests: one call made on scipy.signal with
NumPy arrays and on cunpx.scipy.signal with the same arrays moved to the current device
must give the same values, dtypes and shapes (cunp arrays on the current device where
SciPy gives NumPy arrays), or raise the same exception type (and message, when asked)."""
import warnings

import numpy
import scipy.signal

import cunp
import cunpx.scipy.signal as csignal


def to_device(value):
    """NumPy arrays (also inside tuples) as cunp arrays on the current device; lists,
    strings and scalars as they are (SciPy takes them as array-likes)."""
    if isinstance(value, numpy.ndarray):
        return cunp.asarray(value)
    if isinstance(value, tuple):
        return tuple(to_device(v) for v in value)
    return value


def default_rtol(dtype):
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "fc":
        return 0.0
    return 2e-5 if dtype in (numpy.float32, numpy.complex64) else 1e-10


def assert_close(actual, expected, rtol=None, atol=0.0, check_dtype=True, path="result"):
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected), \
            "%s: %r is not a tuple of %d" % (path, type(actual), len(expected))
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_close(a, e, rtol, atol, check_dtype, "%s[%d]" % (path, i))
        return
    if isinstance(expected, numpy.ndarray):
        assert isinstance(actual, cunp.ndarray), "%s: expected a cunp.ndarray, got %r" % (path, type(actual))
        assert actual.device == cunp.asarray(0).device, "%s: on %s, not the current device" % (path, actual.device)
        assert actual.shape == expected.shape, "%s: shape %r != %r" % (path, actual.shape, expected.shape)
        if check_dtype:
            assert actual.dtype == expected.dtype, "%s: dtype %r != %r" % (path, actual.dtype, expected.dtype)
        tol = default_rtol(expected.dtype) if rtol is None else rtol
        # An absolute floor relative to the largest magnitude: transforms spread rounding
        # evenly, so their smallest outputs carry the largest relative error (float32
        # FFTs ~20 ulps of the peak, float64 far less).
        finite = numpy.abs(expected[numpy.isfinite(expected)])
        scale = float(numpy.max(finite)) if finite.size else 0.0
        floor = (0.1 if expected.dtype in (numpy.float32, numpy.complex64) else 1e-3) * tol * scale
        numpy.testing.assert_allclose(actual.get(), expected, rtol=tol, atol=max(atol, floor), equal_nan=True,
                                      err_msg=path)
        return
    if isinstance(actual, cunp.ndarray):
        actual = actual.get()
    if isinstance(expected, (bool, numpy.bool_)):
        assert bool(actual) == bool(expected), path
    elif isinstance(expected, (int, float, complex, numpy.number)):
        tol = default_rtol(numpy.asarray(expected).dtype) if rtol is None else rtol
        numpy.testing.assert_allclose(numpy.asarray(actual), numpy.asarray(expected), rtol=tol, atol=atol,
                                      err_msg=path)
    else:
        assert actual == expected, "%s: %r != %r" % (path, actual, expected)


def outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as e:  # noqa: BLE001 - SciPy's exception is the expectation
            return None, e


def check(name, *args, rtol=None, atol=0.0, check_dtype=True, message=False, expected=None, **kwargs):
    """scipy.signal.<name>(*args, **kwargs) against cunpx.scipy.signal.<name> with the
    arrays on the current device. `expected`: a function giving SciPy's result instead
    (for the few calls whose SciPy form differs); `message`: compare the exception text."""
    want, want_err = outcome(expected or (lambda: _scipy_function(name)(*args, **kwargs)))
    got, got_err = outcome(lambda: _cunp_function(name)(*to_device(args), **{k: to_device(v) for k, v in
                                                                            kwargs.items()}))
    if want_err is not None or got_err is not None:
        assert want_err is not None, "%s: cunp raised %s(%s), SciPy returned" % (name, type(got_err).__name__, got_err)
        assert got_err is not None, "%s: SciPy raised %s(%s), cunp returned" % (name, type(want_err).__name__,
                                                                               want_err)
        assert isinstance(got_err, type(want_err)), "%s: SciPy raised %s(%s), cunp %s(%s)" % (
            name, type(want_err).__name__, want_err, type(got_err).__name__, got_err)
        if message:
            assert str(got_err) == str(want_err), "%s: message %r, SciPy's %r" % (name, str(got_err), str(want_err))
        return None
    assert_close(got, want, rtol, atol, check_dtype, name)
    return got


def _scipy_function(name):
    if name.startswith("windows."):
        return getattr(scipy.signal.windows, name[8:])
    return getattr(scipy.signal, name)


def _cunp_function(name):
    if name.startswith("windows."):
        return getattr(csignal.windows, name[8:])
    return getattr(csignal, name)

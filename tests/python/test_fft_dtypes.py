"""cunp.fft against NumPy 2 over every input dtype and the argument forms: norm=None,
n/s/axes forms and errors with NumPy's messages, out=, fftfreq/rfftfreq, the shifts."""
import warnings

import numpy
import pytest

import cunp

DTYPES = [numpy.dtype(t) for t in (
    numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32, numpy.uint32, numpy.int64,
    numpy.uint64, numpy.float16, numpy.float32, numpy.float64, numpy.complex64, numpy.complex128)]
ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn"]
# NumPy 2's hfft, ifft2 and irfft2 drop out= (they return a new array); cunp writes into
# it (docs/differences.md).
IGNORES_OUT = ["hfft", "ifft2", "irfft2"]
TOL = {"e": 2e-2, "f": 2e-4, "F": 2e-4, "d": 1e-10, "D": 1e-10}


def outcome(fn, xp):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return True, fn(xp)
    except Exception as e:  # noqa: BLE001 - the exception is the outcome compared
        return False, e


def same(fn, what, match=None, exact=False):
    """fn(numpy) and fn(cunp): the same dtype, shape and values, or exceptions of
    NumPy's type (TypeError for NumPy's TypeError subclasses; IndexError also for
    AxisError); `match`: a fragment of NumPy's message cunp's must contain too."""
    ok_n, rn = outcome(fn, numpy)
    ok_c, rc = outcome(fn, cunp)
    if not ok_n:
        assert not ok_c, "%s: NumPy raised %r, cunp returned" % (what, rn)
        base = TypeError if isinstance(rn, TypeError) else type(rn)
        assert isinstance(rc, base), "%s: NumPy %r, cunp %r" % (what, rn, rc)
        if exact:
            assert str(rc) == str(rn), (what, str(rc), str(rn))
        if match is not None:
            assert match in str(rn), (what, str(rn))
            assert match in str(rc), (what, str(rc))
        return
    assert ok_c, "%s: NumPy returned, cunp raised %r" % (what, rc)
    if isinstance(rn, (bool, numpy.bool_)):
        assert bool(rc) == bool(rn), what
        return
    rn = numpy.asarray(rn)
    assert isinstance(rc, cunp.ndarray), (what, type(rc))
    assert rc.dtype == rn.dtype, (what, rc.dtype, rn.dtype)
    assert rc.shape == rn.shape, (what, rc.shape, rn.shape)
    if rn.size:
        tol = TOL.get(rn.dtype.char, 0)
        scale = max(1.0, float(numpy.abs(rn).max()))
        numpy.testing.assert_allclose(rc.get(), rn, rtol=tol, atol=tol * scale, err_msg=what)


def test_fft_result_dtypes_every_input_dtype(device):
    """NumPy 2's dtypes: bool and integers compute in float64; float16, float32 and
    complex64 stay single (irfft/hfft of float16 give float16, irfft2/irfftn over more
    than one axis float32); rfft-family of complex input raises TypeError."""
    for dt in DTYPES:
        x = (numpy.arange(24).reshape(4, 6) % 3).astype(dt)
        for name in ONE_D + N_D:
            f = lambda xp: getattr(xp.fft, name)(xp.asarray(x))  # noqa: E731
            same(f, "%s %s" % (name, dt))
            same(lambda xp: getattr(xp.fft, name)(xp.asarray(x), norm=None), "%s norm=None %s" % (name, dt))
        for name in ["irfftn", "irfft2", "rfftn", "fftn"]:
            same(lambda xp: getattr(xp.fft, name)(xp.asarray(x), axes=(1,)), "%s one axis %s" % (name, dt))
        same(lambda xp: xp.fft.irfftn(xp.asarray(x), axes=(1, 1)), "irfftn repeated axis %s" % dt)


def test_fft_n_and_norm_forms(device):
    x = numpy.arange(24.0).reshape(4, 6)
    for name in ONE_D:
        f = lambda xp, **kw: getattr(xp.fft, name)(xp.asarray(x), **kw)  # noqa: E731
        for n in [0, -1, -7]:
            same(lambda xp: f(xp, n=n), "%s n=%d" % (name, n),
                 match="Invalid number of FFT data points (%d) specified." % n)
        for n in [1, 2, 3, 8, None, numpy.int64(5), numpy.int8(4)]:
            same(lambda xp: f(xp, n=n), "%s n=%r" % (name, n))
        same(lambda xp: f(xp, n=4.0), "%s n=4.0" % name, match="'float' object cannot be interpreted as an integer")
        for norm in ["backward", "ortho", "forward", None]:
            same(lambda xp: f(xp, norm=norm), "%s norm=%s" % (name, norm))
            same(lambda xp: f(xp, norm=norm, n=9), "%s norm=%s n=9" % (name, norm))
        for norm in ["bad", "Ortho", ""]:  # NumPy's exact text (one space more for inverse transforms)
            same(lambda xp: f(xp, norm=norm), "%s norm=%r" % (name, norm), exact=True)
        for axis in [0, -2, 1, 2, -3]:
            same(lambda xp: f(xp, axis=axis), "%s axis=%d" % (name, axis))
        same(lambda xp: getattr(xp.fft, name)(xp.asarray(numpy.float64(3.0))), "%s 0-d" % name)
        same(lambda xp: getattr(xp.fft, name)(xp.asarray(numpy.zeros((3, 0)))), "%s empty axis" % name,
             match="Invalid number of FFT data points (")
        same(lambda xp: getattr(xp.fft, name)(xp.asarray(numpy.zeros((0, 4)))), "%s empty batch" % name)
        same(lambda xp: getattr(xp.fft, name)(xp.asarray(x)[:, ::2]), "%s non-contiguous" % name)
        same(lambda xp: getattr(xp.fft, name)(xp.asarray(x).T), "%s transposed" % name)
        same(lambda xp: getattr(xp.fft, name)(xp.asarray(numpy.broadcast_to(x[0], (3, 6)))), "%s broadcast" % name)
        same(lambda xp: getattr(xp.fft, name)([1.0, 2.0, 3.0, 4.0]), "%s list" % name)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        cunp.fft.irfft(cunp.ones(1))  # default n = 2 * (1 - 1)


def test_fftn_s_and_axes_forms(device):
    x = numpy.arange(60.0).reshape(3, 4, 5)
    forms = [(None, None), ((2, 3), (0, 1)), ((2, 3), None), (None, (0,)), (None, (0, 0)), ((4,), (1,)),
             ((0, 3), (0, 1)), ((-1, 3), (0, 1)), ((None, 3), (0, 1)), ((2, 3, 4), (0, 1)), (None, ()), (None, (3,)),
             ((3,), (0, 1)), (None, (-1, 0)), (4, None), (4, (0,)), (None, 1), ([2, 3], [1, 2]),
             ((numpy.int64(2), 3), (0, 1)), ((2.0, 3), (0, 1)), ((8, 8, 8, 8), None)]
    for name in N_D:
        for s, axes in forms:
            msg = "Invalid number of FFT data points (0) specified." if s == (0, 3) else None
            if s == (2, 3, 4):
                msg = "Shape and axes have different lengths."
            same(lambda xp: getattr(xp.fft, name)(xp.asarray(x), s=s, axes=axes), "%s s=%s axes=%s" % (name, s, axes),
                 match=msg)
        for norm in [None, "backward", "ortho", "forward", "bad", ""]:
            same(lambda xp: getattr(xp.fft, name)(xp.asarray(x), norm=norm), "%s norm=%s" % (name, norm), exact=True)
        same(lambda xp: getattr(xp.fft, name)(xp.asarray(numpy.float64(3.0))), "%s 0-d" % name)
        same(lambda xp: getattr(xp.fft, name)(xp.asarray(x)[:, ::2, ::-1]), "%s strided" % name)
    # NumPy 2.0's deprecations: s without axes, None inside s
    for s, axes in [((2, 3), None), ((None, 3), (0, 1))]:
        with pytest.warns(DeprecationWarning):
            numpy.fft.fftn(x, s=s, axes=axes)
        with pytest.warns(DeprecationWarning):
            cunp.fft.fftn(cunp.asarray(x), s=s, axes=axes)


def test_fft_out(device):
    x = numpy.arange(24.0).reshape(4, 6)

    def into(xp, name, shape, dt, view=None, fn_kw=None):
        o = xp.zeros(shape, dt)
        target = o if view is None else o[view]
        r = getattr(xp.fft, name)(xp.asarray(x), out=target, **(fn_kw or {}))
        assert r is target
        return o

    for name in ONE_D + N_D:
        if name in IGNORES_OUT:
            continue
        r = getattr(numpy.fft, name)(x)
        for dt in [r.dtype, numpy.complex64, numpy.complex128, numpy.float64, numpy.float32]:
            same(lambda xp: into(xp, name, r.shape, dt), "%s out %s" % (name, numpy.dtype(dt)),
                 match="Cannot cast ufunc" if numpy.dtype(dt).kind == "f" and r.dtype.kind == "c" else None)
        wide = r.shape[:-1] + (2 * r.shape[-1],)
        same(lambda xp: into(xp, name, wide, r.dtype, (Ellipsis, slice(None, None, 2))), "%s strided out" % name)
        bad = r.shape[:-1] + (r.shape[-1] + 1,)
        same(lambda xp: into(xp, name, bad, r.dtype), "%s out of a wrong shape" % name,
             match="output array has wrong shape.")
    for name in IGNORES_OUT:
        r = getattr(numpy.fft, name)(x)
        o = cunp.zeros(r.shape, r.dtype)
        assert getattr(cunp.fft, name)(cunp.asarray(x), out=o) is o
        numpy.testing.assert_allclose(o.get(), r, rtol=1e-10, atol=1e-9)
    same(lambda xp: into(xp, "fft", (4, 9), numpy.complex128, fn_kw={"n": 9}), "out with n")


def test_fftfreq_and_shifts(device):
    for n in [1, 2, 4, 5, numpy.int32(4), numpy.int64(7)]:
        for d in [1.0, 0.5, 2, 0.1, numpy.float64(0.3)]:
            same(lambda xp: xp.fft.fftfreq(n, d), "fftfreq(%r, %r)" % (n, d))
            same(lambda xp: xp.fft.rfftfreq(n, d), "rfftfreq(%r, %r)" % (n, d))
            same(lambda xp: xp.fft.fftfreq(n, d=d), "fftfreq(%r, d=%r)" % (n, d))
    same(lambda xp: xp.fft.fftfreq(0), "fftfreq(0)")
    for n in [4.0, 2.5, "4"]:
        same(lambda xp: xp.fft.fftfreq(n), "fftfreq(%r)" % (n,), match="n should be an integer")
        same(lambda xp: xp.fft.rfftfreq(n), "rfftfreq(%r)" % (n,), match="n should be an integer")
    same(lambda xp: xp.fft.fftfreq(4, 1.0, None), "fftfreq device positional")
    assert cunp.fft.fftfreq(4, device="cpu").device == cunp.Device("cpu")
    x = numpy.arange(60.0).reshape(3, 4, 5)
    for axes in [None, 0, 1, -1, (0, 1), (1, 0), [0], (0, 0), (), numpy.int64(2)]:
        same(lambda xp: xp.fft.fftshift(xp.asarray(x), axes=axes), "fftshift axes=%s" % (axes,))
        same(lambda xp: xp.fft.ifftshift(xp.asarray(x), axes=axes), "ifftshift axes=%s" % (axes,))
    same(lambda xp: xp.fft.fftshift(xp.asarray(x), axes=3), "fftshift axis out of range")
    same(lambda xp: xp.fft.fftshift([1, 2, 3]), "fftshift list")
    same(lambda xp: xp.fft.fftshift(xp.asarray(numpy.arange(5, dtype=numpy.int8))), "fftshift int8")
    same(lambda xp: xp.fft.ifftshift(xp.asarray(numpy.zeros((0, 3)))), "ifftshift empty")

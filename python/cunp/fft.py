"""cunp.fft (NumPy's numpy.fft): cuFFT on CUDA devices, cunp's own FFT (or FFTW)
on the cpu device.

Every function takes NumPy 2's arguments (``n``/``s``, ``axis``/``axes``, ``norm``,
``out``) and gives NumPy 2's result dtypes (single precision stays single).
``config.get_plan_cache()`` is the plan cache of the current device, as in CuPy.
"""
import numbers as _numbers
import types as _types
import warnings as _warnings

from cunp import _core

_fft = _core._fft

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
           "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _warn_nd(s, axes):
    # NumPy 2.0's deprecations, so that code tested against NumPy warns the same way.
    if s is None:
        return
    if axes is None:
        _warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0).",
                       DeprecationWarning, stacklevel=3)
    if any(v is None for v in s):
        _warnings.warn("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0.",
                       DeprecationWarning, stacklevel=3)


def _result(r, out):
    # The C++ call wrote into `out`; hand back the caller's own object, as NumPy does.
    return r if out is None else out


def fft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.fft: the 1-d discrete Fourier transform."""
    return _result(_fft.fft(a, n, axis, norm, out), out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.ifft: the 1-d inverse discrete Fourier transform."""
    return _result(_fft.ifft(a, n, axis, norm, out), out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.rfft: the 1-d transform of real input (n//2+1 outputs)."""
    return _result(_fft.rfft(a, n, axis, norm, out), out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.irfft: the inverse of rfft (real output of length n, default 2*(m-1))."""
    return _result(_fft.irfft(a, n, axis, norm, out), out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.hfft: the transform of a Hermitian-symmetric signal (real output).
    Unlike NumPy (which ignores it), ``out`` receives the result."""
    return _result(_fft.hfft(a, n, axis, norm, out), out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.ihfft: the inverse of hfft."""
    return _result(_fft.ihfft(a, n, axis, norm, out), out)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """numpy.fft.fftn: the N-d discrete Fourier transform."""
    _warn_nd(s, axes)
    return _result(_fft.fftn(a, s, axes, norm, out), out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """numpy.fft.ifftn: the N-d inverse discrete Fourier transform."""
    _warn_nd(s, axes)
    return _result(_fft.ifftn(a, s, axes, norm, out), out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """numpy.fft.fft2: the 2-d discrete Fourier transform."""
    _warn_nd(s, axes)
    if axes is None:  # NumPy: every axis, as fftn
        return _result(_fft.fftn(a, s, None, norm, out), out)
    return _result(_fft.fft2(a, s, axes, norm, out), out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """numpy.fft.ifft2: the 2-d inverse discrete Fourier transform."""
    _warn_nd(s, axes)
    if axes is None:  # NumPy: every axis, as ifftn
        return _result(_fft.ifftn(a, s, None, norm, out), out)
    return _result(_fft.ifft2(a, s, axes, norm, out), out)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """numpy.fft.rfftn: the N-d transform of real input."""
    _warn_nd(s, axes)
    return _result(_fft.rfftn(a, s, axes, norm, out), out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """numpy.fft.irfftn: the inverse of rfftn."""
    _warn_nd(s, axes)
    return _result(_fft.irfftn(a, s, axes, norm, out), out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """numpy.fft.rfft2: the 2-d transform of real input."""
    _warn_nd(s, axes)
    if axes is None:  # NumPy: every axis, as rfftn
        return _result(_fft.rfftn(a, s, None, norm, out), out)
    return _result(_fft.rfft2(a, s, axes, norm, out), out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """numpy.fft.irfft2: the inverse of rfft2."""
    _warn_nd(s, axes)
    if axes is None:  # NumPy: every axis, as irfftn
        return _result(_fft.irfftn(a, s, None, norm, out), out)
    return _result(_fft.irfft2(a, s, axes, norm, out), out)


def _freq_n(n):
    if not isinstance(n, _numbers.Integral):
        raise ValueError("n should be an integer")
    return int(n)


def _freq_dtype(r, dtype, name):
    if dtype is None:
        return r
    import numpy

    dt = numpy.dtype(dtype)
    if dt.kind != "f":
        raise ValueError("%s: dtype must be a real floating-point dtype, got %s" % (name, dt))
    return r.astype(dt, copy=False)


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """numpy.fft.fftfreq: sample frequencies of fft (float64, or the Array API's dtype=,
    a real floating-point dtype)."""
    return _freq_dtype(_fft.fftfreq(_freq_n(n), d, device=device), dtype, "fftfreq")


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """numpy.fft.rfftfreq: sample frequencies of rfft (float64, or the Array API's dtype=,
    a real floating-point dtype)."""
    return _freq_dtype(_fft.rfftfreq(_freq_n(n), d, device=device), dtype, "rfftfreq")


def fftshift(x, axes=None):
    """numpy.fft.fftshift: moves the zero-frequency term to the centre."""
    return _fft.fftshift(x, axes)


def ifftshift(x, axes=None):
    """numpy.fft.ifftshift: the inverse of fftshift."""
    return _fft.ifftshift(x, axes)


def _get_plan_cache(device=None):
    """The FFT plan cache of `device` (default: the current device): cuFFT plans on a
    CUDA device, cpu FFT plans on the cpu device. size, memsize, show_info(), clear()."""
    return _fft.get_plan_cache(device)


def _get_plan_cache_size():
    """CuPy's cupy.fft.config.get_plan_cache_size(): the current device's plan limit."""
    return _get_plan_cache().get_size()


def _set_plan_cache_size(size):
    """CuPy's set_plan_cache_size(size): 0 disables caching, -1 removes the limit."""
    _get_plan_cache().set_size(size)


def _get_plan_cache_max_memsize():
    """CuPy's get_plan_cache_max_memsize(): the work-area byte limit (-1: none)."""
    return _get_plan_cache().get_memsize()


def _set_plan_cache_max_memsize(size):
    """CuPy's set_plan_cache_max_memsize(size): bytes of plan work areas (-1: no limit)."""
    _get_plan_cache().set_memsize(size)


def _clear_plan_cache():
    """CuPy's clear_plan_cache(): drops every cached plan of the current device."""
    _get_plan_cache().clear()


def _show_plan_cache_info():
    """CuPy's show_plan_cache_info(): prints the current device's plan cache."""
    _get_plan_cache().show_info()


config = _types.SimpleNamespace(
    get_plan_cache=_get_plan_cache, PlanCache=_fft.PlanCache,
    get_plan_cache_size=_get_plan_cache_size, set_plan_cache_size=_set_plan_cache_size,
    get_plan_cache_max_memsize=_get_plan_cache_max_memsize,
    set_plan_cache_max_memsize=_set_plan_cache_max_memsize,
    clear_plan_cache=_clear_plan_cache, show_plan_cache_info=_show_plan_cache_info)

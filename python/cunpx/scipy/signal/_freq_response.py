"""Frequency responses of scipy.signal for cunp: freqz, freqz_zpk, freqz_sos (and its
old name sosfreqz), group_delay, freqs, freqs_zpk and findfreqs.

The digital responses are evaluated on the device of the coefficients (the current
one for lists and NumPy arrays): an FFT of the numerator when that gives the requested
grid (SciPy's fast path for FIR filters), otherwise Horner's rule over exp(-jw) (one
fused multiply-add per coefficient over the whole grid) or a product over the roots.
The analog responses and group_delay, whose warnings depend on the values, are
computed on the host and returned as cunp arrays.
"""
import operator
import warnings
from math import pi

import numpy as np

import cunp
from cunpx.scipy.signal._host import device_of, host_function, validate_fs

__all__ = ["freqz", "freqz_zpk", "freqz_sos", "sosfreqz", "group_delay", "freqs", "freqs_zpk", "findfreqs"]

EPSILON = 2e-16


def _is_int_type(x):
    if np.ndim(x) != 0:
        return False
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


def _on_device(x, device):
    if isinstance(x, cunp.ndarray):
        return x if device is None or x.device == device else cunp.asarray(x, device=device)
    return cunp.asarray(np.asarray(x), device=device)


def _real_dtype(dt):
    dt = np.dtype(dt)
    if dt.kind == "c":
        return np.dtype(np.float32) if dt == np.complex64 else np.dtype(np.float64)
    return dt


def _horner(zm1, c):
    """sum_k c[k] zm1^k (c along its first axis, the rest broadcast against zm1),
    evaluated from the highest power."""
    out = c[-1] + zm1 * 0
    for i in range(2, c.shape[0] + 1):
        out = c[-i] + out * zm1
    return out


def freqz(b, a=1, worN=512, whole=False, plot=None, fs=2 * pi, include_nyquist=False):
    """scipy.signal.freqz: the frequency response of the digital filter b/a at worN
    points of [0, pi) (or [0, 2 pi) when whole) or at the given frequencies."""
    dev = device_of(b, a)
    b, a = _on_device(b, dev), _on_device(a, dev)
    if a.dtype.kind in "iub":
        a = a.astype(np.float64)
    res_dtype = np.result_type(b.dtype, a.dtype)
    real_dtype = _real_dtype(res_dtype)
    b = cunp.atleast_1d(b)
    a = cunp.atleast_1d(a)
    fs = validate_fs(fs, allow_none=False)
    if worN is None:
        worN = 512
    h = None
    if _is_int_type(worN):
        N = operator.index(worN)
        if N < 0:
            raise ValueError(f"worN must be nonnegative, got {N}")
        lastpoint = 2 * pi if whole else pi
        w = cunp.linspace(0, lastpoint, N, endpoint=include_nyquist and not whole, dtype=real_dtype, device=dev)
        n_fft = N if whole else (2 * (N - 1) if include_nyquist else 2 * N)
        if a.size == 1 and (b.ndim == 1 or b.shape[-1] == 1) and n_fft >= b.shape[0] and n_fft > 0:
            real = b.dtype.kind == "f" and a.dtype.kind == "f"
            h = (cunp.fft.rfft if real else cunp.fft.fft)(b, n=n_fft, axis=0)
            h = h[:min(N, h.shape[0]), ...]
            h /= a  # in place, as SciPy: float32 taps keep a complex64 response
            if real and whole:
                stop = None if n_fft % 2 == 1 else -1
                h = cunp.concatenate((h, cunp.conj(cunp.flip(h[1:stop, ...], axis=0))))
            if b.ndim > 1:
                h = cunp.moveaxis(h[..., 0], 0, -1)
    else:
        if isinstance(worN, complex):
            worN = worN.real
        w = cunp.atleast_1d(_on_device(worN, dev).astype(res_dtype))
        if w.dtype.kind in "iub":
            w = w.astype(np.float64)
        w = 2 * pi * w / fs
    if h is None:
        zm1 = cunp.exp(-1j * w)
        h = _horner(zm1, b) / _horner(zm1, a)
    w = w * (fs / (2 * pi))
    if plot is not None:
        plot(w, h)
    return w, h


def freqz_zpk(z, p, k, worN=512, whole=False, fs=2 * pi):
    """scipy.signal.freqz_zpk: the response k prod(e^jw - z) / prod(e^jw - p)."""
    dev = device_of(z, p)
    z, p = cunp.atleast_1d(_on_device(z, dev)), cunp.atleast_1d(_on_device(p, dev))
    res = np.result_type(z.dtype, p.dtype)
    res = np.float64 if res in (np.float64, np.complex128) else np.float32
    fs = validate_fs(fs, allow_none=False)
    lastpoint = 2 * pi if whole else pi
    if worN is None:
        worN = 512
    if _is_int_type(worN):
        w = cunp.linspace(0, lastpoint, worN, endpoint=False, dtype=res, device=dev)
    else:
        w = cunp.atleast_1d(_on_device(worN, dev))
        if w.dtype.kind in "iub":
            w = w.astype(np.float64)
        w = 2 * pi * w / fs
    zm1 = cunp.exp(1j * w)
    num = cunp.prod(zm1[None, :] - z[:, None], axis=0) if z.size else cunp.ones_like(zm1)
    den = cunp.prod(zm1[None, :] - p[:, None], axis=0) if p.size else cunp.ones_like(zm1)
    kk = np.asarray(k.get() if isinstance(k, cunp.ndarray) else k)
    h = (float(kk) if np.isrealobj(kk) else complex(kk)) * num / den
    return w * (fs / (2 * pi)), h


def freqz_sos(sos, worN=512, whole=False, fs=2 * pi):
    """scipy.signal.freqz_sos: the response of second-order sections (the product of
    each section's freqz)."""
    fs = validate_fs(fs, allow_none=False)
    dev = device_of(sos)
    sos = cunp.atleast_2d(_on_device(sos, dev))
    if sos.ndim != 2:
        raise ValueError("sos array must be 2D")
    n_sections, m = sos.shape
    if m != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if not bool(cunp.all(sos[:, 3] == 1)):
        raise ValueError("sos[:, 3] should be all ones")
    if n_sections == 0:
        raise ValueError("Cannot compute frequencies with no sections")
    h = 1.0
    for j in range(n_sections):
        w, rowh = freqz(sos[j, :3], sos[j, 3:], worN=worN, whole=whole, fs=fs)
        h = h * rowh
    return w, h


def sosfreqz(*args, **kwargs):
    """scipy.signal.sosfreqz: the old name of freqz_sos."""
    return freqz_sos(*args, **kwargs)


@host_function
def group_delay(system, w=512, whole=False, fs=2 * pi):
    """scipy.signal.group_delay: -d(phase)/dw of b/a, from the derivative of
    B(z) conj(A(z)) (Shpak's method); singular frequencies give 0 with a warning."""
    b, a = map(np.atleast_1d, system)
    if w is None:
        w = 512
    fs = validate_fs(fs, allow_none=False)
    if _is_int_type(w):
        w = np.linspace(0, 2 * pi if whole else pi, w, endpoint=False)
    else:
        w = 2 * pi * np.atleast_1d(w) / fs
    c = np.convolve(b, np.conjugate(a[::-1]))
    cr = c * np.arange(c.size)
    z = np.exp(-1j * w)
    num = np.polyval(cr[::-1], z)
    den = np.polyval(c[::-1], z)
    with np.errstate(divide="ignore", invalid="ignore"):
        gd = np.real(num / den) - a.size + 1
    singular = ~np.isfinite(gd)
    near_singular = np.absolute(den) < 10 * EPSILON
    if np.any(singular):
        gd[singular] = 0
        warnings.warn("The group delay is singular at frequencies [" + ", ".join(f"{ws:.3f}" for ws in w[singular])
                      + "], setting to 0", stacklevel=3)
    elif np.any(near_singular):
        warnings.warn("The filter's denominator is extremely small at frequencies ["
                      + ", ".join(f"{ws:.3f}" for ws in w[near_singular])
                      + "], around which a singularity may be present", stacklevel=3)
    return w * (fs / (2 * pi)), gd


def _findfreqs(num, den, N, kind="ba"):
    num, den = np.asarray(num), np.asarray(den)
    if kind == "ba":
        ep = np.atleast_1d(np.roots(den)) if den.size > 1 else np.array([], dtype=complex)
        tz = np.atleast_1d(np.roots(num)) if num.size > 1 else np.array([], dtype=complex)
    elif kind == "zp":
        ep, tz = np.atleast_1d(den), np.atleast_1d(num)
    else:
        raise ValueError("input must be one of {'ba', 'zp'}")
    ep, tz = ep.astype(complex), tz.astype(complex)
    if ep.shape[0] == 0:
        ep = np.asarray([-1000], dtype=ep.dtype)
    ez = np.concatenate((ep[ep.imag >= 0], tz[(np.abs(tz) < 1e5) & (tz.imag >= 0)]))
    integ = (np.abs(ez) < 1e-10).astype(ez.dtype)
    hfreq = np.round(np.log10(np.max(3 * np.abs(ez.real + integ) + 1.5 * ez.imag)) + 0.5)
    lfreq = np.round(np.log10(0.1 * np.min(np.abs((ez + integ).real) + 2 * ez.imag)) - 0.5)
    return np.real(np.logspace(lfreq.real, hfreq.real, N))


@host_function
def findfreqs(num, den, N, kind="ba"):
    """scipy.signal.findfreqs: N log-spaced frequencies covering the interesting part
    of an analog filter's response."""
    return _findfreqs(num, den, N, kind)


@host_function
def freqs(b, a, worN=200, plot=None):
    """scipy.signal.freqs: the response of the analog filter b/a at worN frequencies."""
    if worN is None:
        w = _findfreqs(b, a, 200)
    elif _is_int_type(worN):
        w = _findfreqs(b, a, worN)
    else:
        w = np.atleast_1d(worN)
    s = 1j * w
    h = np.polyval(b, s) / np.polyval(a, s)
    if plot is not None:
        plot(w, h)
    return w, h


@host_function
def freqs_zpk(z, p, k, worN=200):
    """scipy.signal.freqs_zpk: the response of the analog filter (z, p, k)."""
    z, p = np.atleast_1d(z), np.atleast_1d(p)
    k = np.asarray(k, dtype=np.float64)
    if k.size > 1:
        raise ValueError("k must be a single scalar gain")
    if worN is None:
        w = _findfreqs(z, p, 200, kind="zp")
    elif _is_int_type(worN):
        w = _findfreqs(z, p, worN, kind="zp")
    else:
        w = worN
    w = np.atleast_1d(w)
    s = 1j * w
    num = np.prod(s[None, :] - z[:, None], axis=0) if z.size else np.ones_like(s)
    den = np.prod(s[None, :] - p[:, None], axis=0) if p.size else np.ones_like(s)
    return w, k * num / den

"""Resampling of scipy.signal for cunp: upfirdn (the polyphase kernel in C++,
cunp/signal_windows.hpp), resample (Fourier method), resample_poly (polyphase FIR) and
decimate. Everything runs on the signal's device; only the FIR/IIR coefficients are
designed on the host.
"""
import math
import operator

import numpy as np

import cunp
from cunp._core import _signal_windows as _w
from cunpx.scipy.signal import _design, _filter_forms, _fir_design
from cunpx.scipy.signal._windows import get_window

__all__ = ["upfirdn", "resample", "resample_poly", "decimate"]

_UPFIRDN_MODES = ["constant", "wrap", "edge", "smooth", "symmetric", "reflect", "antisymmetric", "antireflect",
                  "line"]


def _as_cunp(x, device=None):
    if isinstance(x, cunp.ndarray):
        return x if device is None or x.device == device else cunp.asarray(x, device=device)
    return cunp.asarray(np.asarray(x), device=device)


def upfirdn(h, x, up=1, down=1, axis=-1, mode="constant", cval=0):
    """scipy.signal.upfirdn: upsample x by `up` (zero insertion), filter it with the FIR
    filter h and downsample by `down`, along `axis`, in one polyphase pass on x's device.
    `mode` extends the signal past its ends (numpy.pad's constant/symmetric/reflect/edge/
    wrap, or smooth, antisymmetric, antireflect, line); cval is the constant."""
    x = _as_cunp(x)
    h = _as_cunp(h, x.device)
    return _w.upfirdn(h, x, operator.index(up), operator.index(down), operator.index(axis), str(mode), float(cval))


def _output_len(len_h, in_len, up, down):
    return (((in_len - 1) * up + len_h) - 1) // down + 1


def resample(x, num, t=None, axis=0, window=None, domain="time"):
    """scipy.signal.resample: x resampled to `num` samples along `axis` by the Fourier
    method (truncating or zero-padding the spectrum), optionally weighting the
    spectrum by `window`; with `t`, also the new sample positions."""
    if domain not in ("time", "freq"):
        raise ValueError(f"Parameter domain={domain!r} not in ('time', 'freq')!")
    x = _as_cunp(x)
    num = operator.index(num)
    if x.ndim > 1:
        x = cunp.moveaxis(x, axis, -1)
    n_x = x.shape[-1]
    s_fac = n_x / num
    m = min(num, n_x)
    m2 = m // 2 + 1
    if window is None:
        W = None
    elif callable(window):
        W = _as_cunp(window(cunp.fft.fftfreq(n_x, device=x.device)), x.device)
    elif hasattr(window, "shape"):
        if tuple(window.shape) != (n_x,):
            raise ValueError(f"window.shape={tuple(window.shape)!r} != ({n_x},), i.e., window length is not equal "
                             "to number of frequency bins!")
        W = _as_cunp(window, x.device).copy()
    else:
        W = cunp.fft.fftshift(get_window(window, n_x, device=x.device)).astype(np.float64)
    if domain == "time" and x.dtype.kind != "c":
        X = cunp.fft.rfft(x)
        if W is not None:
            n_X = X.shape[-1]
            W[1:n_X] += cunp.flip(W[-n_X + 1:])
            W[1:n_X] /= 2
            X *= W[:n_X]
        X = X[..., :m2]
        if m % 2 == 0 and num != n_x:
            X = X.copy()
            X[..., m // 2] *= 2 if num < n_x else 0.5
        x_r = cunp.fft.irfft(X / s_fac, n=num)
    else:
        X = cunp.fft.fft(x) if domain == "time" else x
        if W is not None:
            X = X * W
        Y = cunp.zeros(X.shape[:-1] + (num,), dtype=X.dtype, device=x.device)
        Y[..., :m2] = X[..., :m2]
        if m2 < m:
            Y[..., m2 - m:] = X[..., m2 - m:]
        if m % 2 == 0:
            if num < n_x:
                Y[..., -m // 2] += X[..., -m // 2]
            elif n_x < num:
                Y[..., m // 2] /= 2
                Y[..., num - m // 2] = Y[..., m // 2]
        x_r = cunp.fft.ifft(Y / s_fac, n=num)
    if x_r.ndim > 1:
        x_r = cunp.moveaxis(x_r, -1, axis)
    if t is not None:
        t = _as_cunp(t, x.device)
        return x_r, t[0] + (t[1] - t[0]) * s_fac * cunp.arange(num, device=x.device)
    return x_r


def resample_poly(x, up, down, axis=0, window=("kaiser", 5.0), padtype="constant", cval=None):
    """scipy.signal.resample_poly: x resampled by up/down along `axis` with a zero-phase
    polyphase FIR filter (by default a Kaiser-windowed lowpass of 20 max(up, down) + 1
    taps), padding past the ends by `padtype`."""
    x = _as_cunp(x)
    if up != int(up):
        raise ValueError("up must be an integer")
    if down != int(down):
        raise ValueError("down must be an integer")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    if cval is not None and padtype != "constant":
        raise ValueError("cval has no effect when padtype is ", padtype)
    g = math.gcd(up, down)
    up //= g
    down //= g
    if up == down == 1:
        return x.copy()
    n_in = x.shape[axis]
    n_out = n_in * up
    n_out = n_out // down + bool(n_out % down)
    if isinstance(window, (list, cunp.ndarray, np.ndarray)):
        h = _as_cunp(window, x.device).copy()
        if h.ndim > 1:
            raise ValueError("window must be 1-D")
        half_len = (h.size - 1) // 2
    else:
        max_rate = max(up, down)
        half_len = 10 * max_rate
        taps = _fir_design._firwin(2 * half_len + 1, 1.0 / max_rate, window=window)
        dt = x.dtype if x.dtype.kind in "fc" else np.float64
        h = cunp.asarray(taps.astype(dt), device=x.device)
    h = h * up
    n_pre_pad = down - half_len % down
    n_post_pad = 0
    n_pre_remove = (half_len + n_pre_pad) // down
    while _output_len(h.shape[0] + n_pre_pad + n_post_pad, n_in, up, down) < n_out + n_pre_remove:
        n_post_pad += 1
    h = cunp.concatenate((cunp.zeros(n_pre_pad, dtype=h.dtype, device=x.device), h,
                          cunp.zeros(n_post_pad, dtype=h.dtype, device=x.device)))
    funcs = {"mean": cunp.mean, "median": cunp.median, "minimum": cunp.min, "maximum": cunp.max}
    mode, fill = "constant", 0
    if padtype in funcs:
        background = funcs[padtype](x, axis=axis, keepdims=True)
        x = x - background
    elif padtype in _UPFIRDN_MODES:
        mode = padtype
        if padtype == "constant":
            fill = 0 if cval is None else cval
    else:
        raise ValueError("padtype must be one of: maximum, mean, median, minimum, " + ", ".join(_UPFIRDN_MODES))
    y = upfirdn(h, x, up, down, axis=axis, mode=mode, cval=fill)
    keep = [slice(None)] * x.ndim
    keep[axis] = slice(n_pre_remove, n_pre_remove + n_out)
    y = y[tuple(keep)]
    if padtype in funcs:
        y = y + background
    return y


def decimate(x, q, n=None, ftype="iir", axis=-1, zero_phase=True):
    """scipy.signal.decimate: x lowpass-filtered (an order-8 Chebyshev I IIR filter, or a
    Hamming-windowed FIR of 20 q + 1 taps with ftype='fir') and downsampled by q.

    The FIR path runs through resample_poly/upfirdn; the IIR path needs the IIR filters
    of cunpx.scipy.signal (sosfiltfilt/sosfilt, or filtfilt/lfilter)."""
    x = _as_cunp(x)
    q = operator.index(q)
    if n is not None:
        n = operator.index(n)
    result_type = x.dtype
    if result_type.kind not in "fc" or result_type == np.float16:
        result_type = np.dtype(np.float64)
    sl = [slice(None)] * x.ndim
    if ftype == "fir":
        if n is None:
            n = 2 * (10 * q)
        b = _fir_design._firwin(n + 1, 1.0 / q, window="hamming").astype(result_type)
        if zero_phase:
            y = resample_poly(x, 1, q, axis=axis, window=cunp.asarray(b, device=x.device))
        else:
            n_out = x.shape[axis] // q + bool(x.shape[axis] % q)
            y = upfirdn(cunp.asarray(b, device=x.device), x, up=1, down=q, axis=axis)
            sl[axis] = slice(None, n_out, None)
        return y[tuple(sl)]
    if ftype != "iir":
        raise ValueError("invalid ftype")
    from cunpx.scipy import signal as _signal  # the IIR filters live beside this module
    sos = _design._iirfilter(8 if n is None else n, 0.8 / q, rp=0.05, btype="low", ftype="cheby1", output="sos")
    sos = cunp.asarray(sos.astype(result_type), device=x.device)
    if hasattr(_signal, "sosfiltfilt"):
        y = _signal.sosfiltfilt(sos, x, axis=axis) if zero_phase else _signal.sosfilt(sos, x, axis=axis)
    elif hasattr(_signal, "filtfilt"):
        b, a = _filter_forms._sos2tf(sos.get())
        b = cunp.asarray(b.astype(result_type), device=x.device)
        a = cunp.asarray(a.astype(result_type), device=x.device)
        y = _signal.filtfilt(b, a, x, axis=axis) if zero_phase else _signal.lfilter(b, a, x, axis=axis)
    else:
        raise NotImplementedError("decimate(ftype='iir') needs cunpx.scipy.signal.sosfiltfilt or filtfilt, "
                                  "which this build lacks; use ftype='fir'")
    sl[axis] = slice(None, None, q)
    return y[tuple(sl)]

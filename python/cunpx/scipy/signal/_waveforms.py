"""Waveforms of scipy.signal for cunp: chirp, sweep_poly, gausspulse, square, sawtooth
and unit_impulse, composed from cunp ufuncs on the device of `t` (the current device
for lists and NumPy arrays)."""
import numbers

import numpy as np

import cunp

__all__ = ["chirp", "sweep_poly", "gausspulse", "square", "sawtooth", "unit_impulse"]


def _as_cunp(x):
    return x if isinstance(x, cunp.ndarray) else cunp.asarray(np.asarray(x))


def _duty_wave(t, w, inside, outside):
    """The periodic wave of sawtooth/square: NaN where w is outside [0, 1], else
    inside(tmod, w) on the first w-fraction of each 2 pi period and outside(tmod, w)
    on the rest (float64, as SciPy's)."""
    t = _as_cunp(t)
    w = cunp.asarray(w, device=t.device) if not isinstance(w, cunp.ndarray) else w
    t, w = cunp.broadcast_arrays(t.astype(np.float64), w.astype(np.float64))
    tmod = cunp.mod(t, 2 * np.pi)
    with cunp.errstate(divide="ignore", invalid="ignore"):
        first = tmod < w * 2 * np.pi
        y = cunp.where(first, inside(tmod, w), outside(tmod, w))
    return cunp.where((w > 1) | (w < 0), np.nan, y)


def sawtooth(t, width=1):
    """scipy.signal.sawtooth: a sawtooth of period 2 pi rising from -1 to 1 on
    [0, 2 pi width) and falling back on [2 pi width, 2 pi)."""
    return _duty_wave(t, width, lambda tm, w: tm / (np.pi * w) - 1,
                      lambda tm, w: (np.pi * (w + 1) - tm) / (np.pi * (1 - w)))


def square(t, duty=0.5):
    """scipy.signal.square: a square wave of period 2 pi, 1 on the first `duty` of each
    period and -1 on the rest."""
    return _duty_wave(t, duty, lambda tm, w: cunp.ones_like(tm), lambda tm, w: -cunp.ones_like(tm))


def gausspulse(t, fc=1000, bw=0.5, bwr=-6, tpr=-60, retquad=False, retenv=False):
    """scipy.signal.gausspulse: a Gaussian-modulated sinusoid of centre frequency fc and
    fractional bandwidth bw at bwr dB; t='cutoff' gives the time where the envelope
    falls below tpr dB."""
    if fc < 0:
        raise ValueError(f"Center frequency (fc={fc:.2f}) must be >=0.")
    if bw <= 0:
        raise ValueError(f"Fractional bandwidth (bw={bw:.2f}) must be > 0.")
    if bwr >= 0:
        raise ValueError(f"Reference level for bandwidth (bwr={bwr:.2f}) must be < 0 dB")
    ref = pow(10.0, bwr / 20.0)
    a = -(np.pi * fc * bw) ** 2 / (4.0 * np.log(ref))
    if isinstance(t, str):
        if t == "cutoff":
            if tpr >= 0:
                raise ValueError("Reference level for time cutoff must be < 0 dB")
            tref = pow(10.0, tpr / 20.0)
            return np.sqrt(-np.log(tref) / a)
        raise ValueError("If `t` is a string, it must be 'cutoff'")
    t = _as_cunp(t)
    yenv = cunp.exp(-a * t * t)
    yI = yenv * cunp.cos(2 * np.pi * fc * t)
    if not retquad and not retenv:
        return yI
    yQ = yenv * cunp.sin(2 * np.pi * fc * t)
    if not retquad:
        return yI, yenv
    if not retenv:
        return yI, yQ
    return yI, yQ, yenv


def _chirp_phase(t, f0, t1, f1, method, vertex_zero):
    t = _as_cunp(t)
    if t.dtype.kind in "iub":
        t = t.astype(np.float64)
    f0, t1, f1 = float(f0), float(t1), float(f1)
    if method in ["linear", "lin", "li"]:
        beta = (f1 - f0) / t1
        return 2 * np.pi * (f0 * t + 0.5 * beta * t * t)
    if method in ["quadratic", "quad", "q"]:
        beta = (f1 - f0) / t1 ** 2
        if vertex_zero:
            return 2 * np.pi * (f0 * t + beta * t ** 3 / 3)
        return 2 * np.pi * (f1 * t + beta * ((t1 - t) ** 3 - t1 ** 3) / 3)
    if method in ["logarithmic", "log", "lo"]:
        if f0 * f1 <= 0.0:
            raise ValueError("For a logarithmic chirp, f0 and f1 must be nonzero and have the same sign.")
        if f0 == f1:
            return 2 * np.pi * f0 * t
        beta = t1 / np.log(f1 / f0)
        return 2 * np.pi * beta * f0 * (cunp.power(f1 / f0, t / t1) - 1.0)
    if method in ["hyperbolic", "hyp"]:
        if f0 == 0 or f1 == 0:
            raise ValueError("For a hyperbolic chirp, f0 and f1 must be nonzero.")
        if f0 == f1:
            return 2 * np.pi * f0 * t
        sing = -f1 * t1 / (f0 - f1)
        return 2 * np.pi * (-sing * f0) * cunp.log(cunp.abs(1 - t / sing))
    raise ValueError("method must be 'linear', 'quadratic', 'logarithmic', or 'hyperbolic', but a value of "
                     f"{method!r} was given.")


def chirp(t, f0, t1, f1, method="linear", phi=0, vertex_zero=True, *, complex=False):
    """scipy.signal.chirp: cos(phase(t) + phi) of a frequency sweep from f0 at t=0 to
    f1 at t1 (linear, quadratic, logarithmic or hyperbolic); exp(1j ...) when complex."""
    phase = _chirp_phase(t, f0, t1, f1, method, vertex_zero) + np.deg2rad(phi)
    return cunp.exp(1j * phase) if complex else cunp.cos(phase)


def sweep_poly(t, poly, phi=0):
    """scipy.signal.sweep_poly: cos(2 pi int_0^t poly(s) ds + phi) for a polynomial
    instantaneous frequency `poly` (coefficients, highest power first, or a poly1d)."""
    coeffs = np.asarray(poly.coeffs if isinstance(poly, np.poly1d) else
                        (poly.get() if isinstance(poly, cunp.ndarray) else poly), dtype=np.float64)
    intpoly = np.polyint(coeffs)
    t = _as_cunp(t)
    phase = 2 * np.pi * cunp.polyval(cunp.asarray(intpoly, device=t.device), t)
    return cunp.cos(phase + phi * np.pi / 180)


def unit_impulse(shape, idx=None, dtype=float):
    """scipy.signal.unit_impulse: zeros of `shape` with a one at `idx` (default the
    first element, 'mid' the middle, an int the same index on every axis)."""
    out = cunp.zeros(shape, dtype)
    shape = np.atleast_1d(shape)
    if idx is None:
        idx = (0,) * len(shape)
    elif isinstance(idx, str) and idx == "mid":
        idx = tuple(shape // 2)
    elif not hasattr(idx, "__iter__"):
        idx = (idx,) * len(shape)
    out[tuple(int(i) if isinstance(i, numbers.Integral) else i for i in idx)] = 1
    return out

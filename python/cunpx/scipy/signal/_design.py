"""IIR filter design of scipy.signal for cunp: iirfilter and its front ends (butter,
cheby1, cheby2, ellip, bessel, iirdesign), the analog prototypes, order selection
(buttord, cheb1ord, cheb2ord, ellipord) and notch/peak/comb filters. The forms and
transformations they use are in _filter_forms.py.

The coefficients are computed on the host with NumPy (_host.py says why) by our own
implementation of SciPy's algorithms, and returned as cunp arrays: ``b, a``, ``z, p``
and ``sos`` on the current device (or that of a cunp argument), the gain ``k`` a float.
"""
import math
import warnings

import numpy as np

from cunpx.scipy.signal import _iir_prototypes as _proto
from cunpx.scipy.signal._filter_forms import (
    _bilinear_zpk, _lp2bp_zpk, _lp2bs_zpk, _lp2hp_zpk, _lp2lp_zpk, _zpk2sos, _zpk2tf,
)
from cunpx.scipy.signal._host import host_function, validate_fs

__all__ = [
    "buttap", "cheb1ap", "cheb2ap", "ellipap", "besselap", "iirfilter", "iirdesign", "butter", "cheby1", "cheby2",
    "ellip", "bessel", "buttord", "cheb1ord", "cheb2ord", "ellipord", "iirnotch", "iirpeak", "iircomb",
]


# ---- IIR design ---------------------------------------------------------------------

_FILTERS = {
    "butter": ("butter", True), "butterworth": ("butter", True),
    "cauer": ("ellip", True), "elliptic": ("ellip", True), "ellip": ("ellip", True),
    "bessel": ("bessel", False), "bessel_phase": ("bessel", False), "bessel_delay": ("bessel", False),
    "bessel_mag": ("bessel", False),
    "cheby1": ("cheby1", True), "chebyshev1": ("cheby1", True), "chebyi": ("cheby1", True),
    "cheby2": ("cheby2", True), "chebyshev2": ("cheby2", True), "chebyii": ("cheby2", True),
}
_BESSEL_NORMS = {"bessel": "phase", "bessel_phase": "phase", "bessel_delay": "delay", "bessel_mag": "mag"}
_BANDS = {
    "band": "bandpass", "bandpass": "bandpass", "pass": "bandpass", "bp": "bandpass",
    "bs": "bandstop", "bandstop": "bandstop", "bands": "bandstop", "stop": "bandstop",
    "l": "lowpass", "low": "lowpass", "lowpass": "lowpass", "lp": "lowpass",
    "high": "highpass", "highpass": "highpass", "h": "highpass", "hp": "highpass",
}


def _iirfilter(N, Wn, rp=None, rs=None, btype="band", analog=False, ftype="butter", output="ba", fs=None):
    Wn = np.asarray(Wn, dtype=np.float64)
    fs = validate_fs(fs, allow_none=True)
    ftype, btype, output = (x.lower() for x in (ftype, btype, output))
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        Wn = Wn / (fs / 2)
    if np.any(Wn <= 0):
        raise ValueError("filter critical frequencies must be greater than 0")
    if Wn.size > 1 and not Wn[0] < Wn[1]:
        raise ValueError("Wn[0] must be less than Wn[1]")
    try:
        btype = _BANDS[btype]
    except KeyError:
        raise ValueError(f"'{btype}' is an invalid bandtype for filter.") from None
    try:
        kind = _FILTERS[ftype][0]
    except KeyError:
        raise ValueError(f"'{ftype}' is not a valid basic IIR filter.") from None
    if output not in ["ba", "zpk", "sos"]:
        raise ValueError(f"'{output}' is not a valid output form.")
    if rp is not None and rp < 0:
        raise ValueError("passband ripple (rp) must be positive")
    if rs is not None and rs < 0:
        raise ValueError("stopband attenuation (rs) must be positive")
    if kind == "butter":
        z, p, k = _proto.buttap(N)
    elif kind == "bessel":
        z, p, k = _proto.besselap(N, norm=_BESSEL_NORMS[ftype])
    elif kind == "cheby1":
        if rp is None:
            raise ValueError("passband ripple (rp) must be provided to design a Chebyshev I filter.")
        z, p, k = _proto.cheb1ap(N, rp)
    elif kind == "cheby2":
        if rs is None:
            raise ValueError("stopband attenuation (rs) must be provided to design an Chebyshev II filter.")
        z, p, k = _proto.cheb2ap(N, rs)
    else:
        if rs is None or rp is None:
            raise ValueError("Both rp and rs must be provided to design an elliptic filter.")
        z, p, k = _proto.ellipap(N, rp, rs)
    if not analog:
        if np.any(Wn <= 0) or np.any(Wn >= 1):
            if fs is not None:
                raise ValueError(f"Digital filter critical frequencies must be 0 < Wn < fs/2 (fs={fs} -> fs/2={fs / 2})")
            raise ValueError("Digital filter critical frequencies must be 0 < Wn < 1")
        fs = 2.0
        warped = 2 * fs * np.tan(np.pi * Wn / fs)
    else:
        warped = Wn
    if btype in ("lowpass", "highpass"):
        if Wn.size != 1:
            raise ValueError("Must specify a single critical frequency Wn for lowpass or highpass filter")
        transform = _lp2lp_zpk if btype == "lowpass" else _lp2hp_zpk
        z, p, k = transform(z, p, k, wo=float(np.ravel(warped)[0]))
    else:
        try:
            bw = warped[1] - warped[0]
            wo = np.sqrt(warped[0] * warped[1])
        except IndexError:
            raise ValueError("Wn must specify start and stop frequencies for bandpass or bandstop filter") from None
        transform = _lp2bp_zpk if btype == "bandpass" else _lp2bs_zpk
        z, p, k = transform(z, p, k, wo=wo, bw=bw)
    if not analog:
        z, p, k = _bilinear_zpk(z, p, k, fs=fs)
    if output == "zpk":
        return z, p, k
    if output == "ba":
        return _zpk2tf(z, p, k)
    return _zpk2sos(z, p, k, analog=analog)


# ---- order selection ----------------------------------------------------------------

def _fminbound(func, x1, x2, args=(), xtol=1e-5, maxfun=500):
    """Brent's bounded minimization (golden sections and parabolic steps; Brent,
    "Algorithms for minimization without derivatives", ch. 5), as scipy's fminbound."""
    golden = 0.5 * (3.0 - math.sqrt(5.0))
    sqrt_eps = math.sqrt(2.2e-16)
    a, b = x1, x2
    fulc = a + golden * (b - a)
    nfc = xf = fulc
    rat = e = 0.0
    x = xf
    fx = func(x, *args)
    ffulc = fnfc = fx
    xm = 0.5 * (a + b)
    tol1 = sqrt_eps * abs(xf) + xtol / 3.0
    tol2 = 2.0 * tol1
    num = 1
    while abs(xf - xm) > (tol2 - 0.5 * (b - a)):
        golden_step = True
        if abs(e) > tol1:
            golden_step = False
            r = (xf - nfc) * (fx - ffulc)
            q = (xf - fulc) * (fx - fnfc)
            p = (xf - fulc) * q - (xf - nfc) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = abs(q)
            r = e
            e = rat
            if abs(p) < abs(0.5 * q * r) and p > q * (a - xf) and p < q * (b - xf):
                rat = (p + 0.0) / q
                x = xf + rat
                if (x - a) < tol2 or (b - x) < tol2:
                    si = np.sign(xm - xf) + ((xm - xf) == 0)
                    rat = tol1 * si
            else:
                golden_step = True
        if golden_step:
            e = a - xf if xf >= xm else b - xf
            rat = golden * e
        si = np.sign(rat) + (rat == 0)
        x = xf + si * max(abs(rat), tol1)
        fu = func(x, *args)
        num += 1
        if fu <= fx:
            if x >= xf:
                a = xf
            else:
                b = xf
            fulc, ffulc = nfc, fnfc
            nfc, fnfc = xf, fx
            xf, fx = x, fu
        else:
            if x < xf:
                a = x
            else:
                b = x
            if fu <= fnfc or nfc == xf:
                fulc, ffulc = nfc, fnfc
                nfc, fnfc = x, fu
            elif fu <= ffulc or fulc == xf or fulc == nfc:
                fulc, ffulc = x, fu
        xm = 0.5 * (a + b)
        tol1 = sqrt_eps * abs(xf) + xtol / 3.0
        tol2 = 2.0 * tol1
        if num >= maxfun:
            break
    return xf


def _validate_gpass_gstop(gpass, gstop):
    if gpass <= 0.0:
        raise ValueError("gpass should be larger than 0.0")
    if gstop <= 0.0:
        raise ValueError("gstop should be larger than 0.0")
    if gpass > gstop:
        raise ValueError("gpass should be smaller than gstop")


def _band_stop_obj(wp, ind, passb, stopb, gpass, gstop, kind):
    """The order a band-stop filter needs with passband edge `ind` moved to wp."""
    passbC = passb.copy()
    passbC[ind] = wp
    nat = min(abs(stopb * (passbC[0] - passbC[1]) / (stopb ** 2 - passbC[0] * passbC[1])))
    if kind == "butter":
        GSTOP, GPASS = 10 ** (0.1 * abs(gstop)), 10 ** (0.1 * abs(gpass))
        return np.log10((GSTOP - 1.0) / (GPASS - 1.0)) / (2 * np.log10(nat))
    if kind == "cheby":
        GSTOP, GPASS = 10 ** (0.1 * abs(gstop)), 10 ** (0.1 * abs(gpass))
        return np.arccosh(np.sqrt((GSTOP - 1.0) / (GPASS - 1.0))) / np.arccosh(nat)
    GSTOP, GPASS = 10 ** (0.1 * gstop), 10 ** (0.1 * gpass)
    arg1 = np.sqrt((GPASS - 1.0) / (GSTOP - 1.0))
    arg0 = 1.0 / nat
    d0 = _proto.ellipk([arg0 ** 2, 1 - arg0 ** 2])
    d1 = _proto.ellipk([arg1 ** 2, 1 - arg1 ** 2])
    return d0[0] * d1[1] / (d0[1] * d1[0])


def _order_setup(wp, ws, gpass, gstop, analog, fs, kind):
    _validate_gpass_gstop(gpass, gstop)
    fs = validate_fs(fs, allow_none=True)
    wp = np.atleast_1d(np.asarray(wp, dtype=np.float64))
    ws = np.atleast_1d(np.asarray(ws, dtype=np.float64))
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        wp, ws = 2 * wp / fs, 2 * ws / fs
    filter_type = 2 * (wp.shape[0] - 1) + 1
    if wp[0] >= ws[0]:
        filter_type += 1
    if analog:
        passb, stopb = wp, ws
    else:
        passb, stopb = np.tan(np.pi * wp / 2.0), np.tan(np.pi * ws / 2.0)
    if filter_type == 1:
        nat = stopb / passb
    elif filter_type == 2:
        nat = passb / stopb
    elif filter_type == 3:
        wp0 = _fminbound(_band_stop_obj, passb[0], stopb[0] - 1e-12, args=(0, passb, stopb, gpass, gstop, kind))
        wp1 = _fminbound(_band_stop_obj, stopb[1] + 1e-12, passb[1], args=(1, passb, stopb, gpass, gstop, kind))
        passb = np.array([float(wp0), float(wp1)])
        nat = stopb * (passb[0] - passb[1]) / (stopb ** 2 - passb[0] * passb[1])
    else:
        nat = (stopb ** 2 - passb[0] * passb[1]) / (stopb * (passb[0] - passb[1]))
    return float(np.min(np.abs(nat))), passb, filter_type, fs


def _postprocess_wn(WN, analog, fs):
    wn = WN if analog else np.arctan(WN) * 2.0 / np.pi
    if wn.shape[0] == 1:
        wn = wn[0]
    if fs is not None:
        wn = wn * fs / 2
    return wn


def _buttord(wp, ws, gpass, gstop, analog=False, fs=None):
    nat, passb, filter_type, fs = _order_setup(wp, ws, gpass, gstop, analog, fs, "butter")
    GSTOP, GPASS = 10 ** (0.1 * abs(gstop)), 10 ** (0.1 * abs(gpass))
    order = int(math.ceil(math.log10((GSTOP - 1.0) / (GPASS - 1.0)) / (2 * math.log10(nat))))
    try:
        W0 = (GPASS - 1.0) ** (-1.0 / (2.0 * order))
    except ZeroDivisionError:
        W0 = 1.0
        warnings.warn("Order is zero...check input parameters.", RuntimeWarning, stacklevel=3)
    if filter_type == 1:
        WN = W0 * passb
    elif filter_type == 2:
        WN = passb / W0
    elif filter_type == 3:
        discr = np.sqrt((passb[1] - passb[0]) ** 2 + 4 * W0 ** 2 * passb[0] * passb[1])
        WN = np.sort(np.abs(np.array([(passb[1] - passb[0] + discr) / (2 * W0),
                                      (passb[1] - passb[0] - discr) / (2 * W0)])))
    else:
        W0 = np.array([-W0, W0])
        WN = -W0 * (passb[1] - passb[0]) / 2.0 + np.sqrt(W0 ** 2 / 4.0 * (passb[1] - passb[0]) ** 2
                                                          + passb[0] * passb[1])
        WN = np.sort(np.abs(WN))
    return order, _postprocess_wn(WN, analog, fs)


def _cheb_order(gpass, gstop, nat):
    GSTOP, GPASS = 10 ** (0.1 * abs(gstop)), 10 ** (0.1 * abs(gpass))
    v = math.acosh(math.sqrt((GSTOP - 1.0) / (GPASS - 1.0)))
    return int(math.ceil(v / math.acosh(nat))), v


def _cheb1ord(wp, ws, gpass, gstop, analog=False, fs=None):
    nat, passb, _, fs = _order_setup(wp, ws, gpass, gstop, analog, fs, "cheby")
    order, _ = _cheb_order(gpass, gstop, nat)
    return order, _postprocess_wn(passb, analog, fs)


def _cheb2ord(wp, ws, gpass, gstop, analog=False, fs=None):
    nat, passb, filter_type, fs = _order_setup(wp, ws, gpass, gstop, analog, fs, "cheby")
    order, v = _cheb_order(gpass, gstop, nat)
    new_freq = 1.0 / math.cosh(1.0 / order * v)
    if filter_type == 1:
        nat = passb / new_freq
    elif filter_type == 2:
        nat = passb * new_freq
    elif filter_type == 3:
        nat0 = new_freq / 2.0 * (passb[0] - passb[1]) + math.sqrt(
            new_freq ** 2 * (passb[1] - passb[0]) ** 2 / 4.0 + passb[1] * passb[0])
        nat = np.array([float(nat0), float(passb[1] * passb[0] / nat0)])
    else:
        nat0 = 1.0 / (2.0 * new_freq) * (passb[0] - passb[1]) + math.sqrt(
            (passb[1] - passb[0]) ** 2 / (4.0 * new_freq ** 2) + passb[1] * passb[0])
        nat = np.array([float(nat0), float(passb[0] * passb[1] / nat0)])
    return order, _postprocess_wn(nat, analog, fs)


def _ellipord(wp, ws, gpass, gstop, analog=False, fs=None):
    nat, passb, _, fs = _order_setup(wp, ws, gpass, gstop, analog, fs, "ellip")
    arg1_sq = _proto._pow10m1(0.1 * gpass) / _proto._pow10m1(0.1 * gstop)
    arg0 = 1.0 / nat
    d0 = (_proto.ellipk(arg0 ** 2), _proto.ellipkm1(arg0 ** 2))
    d1 = (_proto.ellipk(arg1_sq), _proto.ellipkm1(arg1_sq))
    order = int(np.ceil(d0[0] * d1[1] / (d0[1] * d1[0])))
    return order, _postprocess_wn(passb, analog, fs)


_ORDER_FUNCS = {"butter": _buttord, "cheby1": _cheb1ord, "cheby2": _cheb2ord, "ellip": _ellipord}


def _iirdesign(wp, ws, gpass, gstop, analog=False, ftype="ellip", output="ba", fs=None):
    try:
        kind, has_order = _FILTERS[ftype]
    except KeyError:
        raise ValueError(f"Invalid IIR filter type: {ftype}") from None
    if not has_order:
        raise ValueError(f"{ftype} does not have order selection. Use iirfilter function.")
    _validate_gpass_gstop(gpass, gstop)
    wp = np.atleast_1d(np.asarray(wp))
    ws = np.atleast_1d(np.asarray(ws))
    fs = validate_fs(fs, allow_none=True)
    if wp.shape[0] != ws.shape[0] or wp.shape not in [(1,), (2,)]:
        raise ValueError("wp and ws must have one or two elements each, and the same shape, got "
                         f"{wp.shape} and {ws.shape}")
    if np.any(wp <= 0) or np.any(ws <= 0):
        raise ValueError("Values for wp, ws must be greater than 0")
    if not analog:
        if fs is None:
            if np.any(wp >= 1) or np.any(ws >= 1):
                raise ValueError("Values for wp, ws must be less than 1")
        elif np.any(wp >= fs / 2) or np.any(ws >= fs / 2):
            raise ValueError(f"Values for wp, ws must be less than fs/2 (fs={fs} -> fs/2={fs / 2})")
    if wp.shape[0] == 2:
        if not ((ws[0] < wp[0] and wp[1] < ws[1]) or (wp[0] < ws[0] and ws[1] < wp[1])):
            raise ValueError("Passband must lie strictly inside stopband or vice versa")
    band_type = 2 * (wp.shape[0] - 1) + 1 + (1 if wp[0] >= ws[0] else 0)
    btype = {1: "lowpass", 2: "highpass", 3: "bandstop", 4: "bandpass"}[band_type]
    N, Wn = _ORDER_FUNCS[kind](wp, ws, gpass, gstop, analog=analog, fs=fs)
    return _iirfilter(N, Wn, rp=gpass, rs=gstop, analog=analog, btype=btype, ftype=ftype, output=output, fs=fs)


# ---- notch, peak, comb --------------------------------------------------------------

def _notch_peak(w0, Q, ftype, fs=2.0):
    fs = validate_fs(fs, allow_none=False)
    w0 = 2 * float(w0) / fs
    Q = float(Q)
    if w0 > 1.0 or w0 < 0.0:
        raise ValueError("w0 should be such that 0 < w0 < 1")
    bw = w0 / Q * np.pi
    w0 = w0 * np.pi
    beta = math.tan(bw / 2.0)
    gain = 1.0 / (1.0 + beta)
    if ftype == "notch":
        b = gain * np.array([1.0, -2.0 * math.cos(w0), 1.0])
    else:
        b = (1.0 - gain) * np.array([1.0, 0.0, -1.0])
    return b, np.array([1.0, -2.0 * gain * math.cos(w0), 2.0 * gain - 1.0])


def _iircomb(w0, Q, ftype="notch", fs=2.0, *, pass_zero=False):
    w0, Q = float(w0), float(Q)
    fs = validate_fs(fs, allow_none=False)
    ftype = ftype.lower()
    if not 0 < w0 < fs / 2:
        raise ValueError(f"w0 must be between 0 and {fs / 2} (Nyquist), but given {w0}.")
    if ftype not in ("notch", "peak"):
        raise ValueError("ftype must be either notch or peak.")
    N = round(fs / w0)
    if abs(w0 - fs / N) / fs > 1e-14:
        raise ValueError("fs must be divisible by w0.")
    w_delta = 2 * np.pi * w0 / fs / Q
    G0, G = (1, 0) if ftype == "notch" else (0, 1)
    beta = math.tan(N * w_delta / 4)
    ax = (1 - beta) / (1 + beta)
    bx = (G0 + G * beta) / (1 + beta)
    cx = (G0 - G * beta) / (1 + beta)
    negative = (ftype == "peak" and pass_zero) or (ftype == "notch" and not pass_zero)
    sgn = -1.0 if negative else 1
    b, a = np.zeros(N + 1), np.zeros(N + 1)
    b[0], b[-1] = bx, sgn * cx
    a[0], a[-1] = 1.0, sgn * ax
    return b, a


# ---- the public functions -----------------------------------------------------------

iirfilter = host_function(_iirfilter)
iirdesign = host_function(_iirdesign)
buttord = host_function(_buttord)
cheb1ord = host_function(_cheb1ord)
cheb2ord = host_function(_cheb2ord)
ellipord = host_function(_ellipord)
iircomb = host_function(_iircomb)


@host_function
def buttap(N):
    """scipy.signal.buttap: the analog Butterworth lowpass prototype (z, p, k)."""
    return _proto.buttap(N)


@host_function
def cheb1ap(N, rp):
    """scipy.signal.cheb1ap: the analog Chebyshev type I prototype (z, p, k)."""
    return _proto.cheb1ap(N, rp)


@host_function
def cheb2ap(N, rs):
    """scipy.signal.cheb2ap: the analog Chebyshev type II prototype (z, p, k)."""
    return _proto.cheb2ap(N, rs)


@host_function
def ellipap(N, rp, rs):
    """scipy.signal.ellipap: the analog elliptic prototype (z, p, k)."""
    return _proto.ellipap(N, rp, rs)


@host_function
def besselap(N, norm="phase"):
    """scipy.signal.besselap: the analog Bessel prototype (z, p, k)."""
    return _proto.besselap(N, norm)


@host_function
def butter(N, Wn, btype="low", analog=False, output="ba", fs=None):
    """scipy.signal.butter: an order-N Butterworth filter."""
    return _iirfilter(N, Wn, btype=btype, analog=analog, output=output, ftype="butter", fs=fs)


@host_function
def cheby1(N, rp, Wn, btype="low", analog=False, output="ba", fs=None):
    """scipy.signal.cheby1: an order-N Chebyshev type I filter of rp dB ripple."""
    return _iirfilter(N, Wn, rp=rp, btype=btype, analog=analog, output=output, ftype="cheby1", fs=fs)


@host_function
def cheby2(N, rs, Wn, btype="low", analog=False, output="ba", fs=None):
    """scipy.signal.cheby2: an order-N Chebyshev type II filter of rs dB attenuation."""
    return _iirfilter(N, Wn, rs=rs, btype=btype, analog=analog, output=output, ftype="cheby2", fs=fs)


@host_function
def ellip(N, rp, rs, Wn, btype="low", analog=False, output="ba", fs=None):
    """scipy.signal.ellip: an order-N elliptic (Cauer) filter."""
    return _iirfilter(N, Wn, rs=rs, rp=rp, btype=btype, analog=analog, output=output, ftype="elliptic", fs=fs)


@host_function
def bessel(N, Wn, btype="low", analog=False, output="ba", norm="phase", fs=None):
    """scipy.signal.bessel: an order-N Bessel/Thomson filter (norm 'phase', 'delay', 'mag')."""
    return _iirfilter(N, Wn, btype=btype, analog=analog, output=output, ftype="bessel_" + norm, fs=fs)


@host_function
def iirnotch(w0, Q, fs=2.0):
    """scipy.signal.iirnotch: a second-order notch at w0 of quality factor Q."""
    return _notch_peak(w0, Q, "notch", fs)


@host_function
def iirpeak(w0, Q, fs=2.0):
    """scipy.signal.iirpeak: a second-order peak (resonator) at w0 of quality factor Q."""
    return _notch_peak(w0, Q, "peak", fs)




def _annotate():
    docs = {
        iirfilter: "scipy.signal.iirfilter: an IIR filter of a prototype, band type and output form.",
        iirdesign: "scipy.signal.iirdesign: the lowest-order IIR filter meeting a pass/stop band spec.",
        buttord: "scipy.signal.buttord: the lowest Butterworth order and natural frequency for a spec.",
        cheb1ord: "scipy.signal.cheb1ord: the lowest Chebyshev I order and frequency for a spec.",
        cheb2ord: "scipy.signal.cheb2ord: the lowest Chebyshev II order and frequency for a spec.",
        ellipord: "scipy.signal.ellipord: the lowest elliptic order and frequency for a spec.",
        iircomb: "scipy.signal.iircomb: a comb notch or peak filter at multiples of w0.",
    }
    for f, d in docs.items():
        f.__doc__ = d


_annotate()
del _annotate

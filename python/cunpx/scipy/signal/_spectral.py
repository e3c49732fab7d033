"""Spectral analysis of scipy.signal for cunp: periodogram, welch, csd, coherence,
spectrogram, stft, istft, lombscargle, check_COLA and check_NOLA, on the signal's
device.

Note [Strided segments]: the overlapping segments of a signal are one strided view
(..., nseg, nperseg) of it, made with the ndarray constructor over the signal's own
memory (a zero-copy sliding window, like numpy's sliding_window_view); detrending,
windowing and one batched real or complex FFT then handle every segment at once, so no
Python loop runs over segments. The inverse (istft) overlap-adds the segments in
ceil(nperseg / step) strided passes: segments r = ceil(nperseg / step) apart do not
overlap, so each residue class is one reshape of zero-padded segments added in place.

Single-precision signals stay single precision (the window is cast to the signal's
precision, as SciPy's former implementation did); SciPy 1.17 computes csd through its
ShortTimeFFT in float64 and casts back, so float32 results agree to float32 rounding.
"""
import math
import warnings

import numpy as np

import cunp
from cunpx.scipy.signal._windows import get_window

__all__ = ["periodogram", "welch", "csd", "coherence", "spectrogram", "stft", "istft", "lombscargle",
           "check_COLA", "check_NOLA"]


def _as_cunp(x, device=None):
    if isinstance(x, cunp.ndarray):
        return x if device is None or x.device == device else cunp.asarray(x, device=device)
    return cunp.asarray(np.asarray(x), device=device)


def _segments(x, nperseg, step):
    """The view (..., nseg, nperseg) of x's last axis, segment k starting at k*step
    (Note [Strided segments])."""
    n = x.shape[-1]
    nseg = (n - nperseg) // step + 1 if n >= nperseg else 0
    if any(s < 0 for s in x.strides) or x.size == 0:
        x = cunp.ascontiguousarray(x)
    shape = x.shape[:-1] + (nseg, nperseg)
    if nseg == 0:
        return cunp.zeros(shape, dtype=x.dtype, device=x.device)
    strides = x.strides[:-1] + (step * x.strides[-1], x.strides[-1])
    return cunp.ndarray(shape, x.dtype, memptr=x.data, strides=strides)


def _real_dtype(dt):
    return np.dtype(np.float32) if np.dtype(dt) in (np.float32, np.complex64, np.float16) else np.dtype(np.float64)


def _detrend_last(d, kind):
    """scipy.signal.detrend(d, type=kind, axis=-1) for 'constant' and 'linear'."""
    if kind in ("constant", "c"):
        return d - cunp.mean(d, axis=-1, keepdims=True)
    if kind in ("linear", "l"):
        n = d.shape[-1]
        rdt = _real_dtype(d.dtype)
        t = cunp.arange(n, dtype=rdt, device=d.device) - (n - 1) / 2.0
        centred = d - cunp.mean(d, axis=-1, keepdims=True)
        denom = float((t * t).sum().item()) if n > 1 else 1.0
        slope = cunp.sum(centred * t, axis=-1, keepdims=True) / denom
        return centred - slope * t
    raise ValueError("Trend type must be 'linear' or 'constant'.")


def _detrend_func(detrend, axis):
    if not detrend:
        return lambda d: d
    if not callable(detrend):
        return lambda d: _detrend_last(d, detrend)
    if axis != -1:
        def moved(d):
            d = cunp.moveaxis(d, -1, axis)
            return cunp.moveaxis(detrend(d), axis, -1)
        return moved
    return detrend


def _window_for(window, nperseg, input_length, device, stacklevel=4):
    """_triage_segments: (window on the device, nperseg)."""
    if isinstance(window, (str, tuple)):
        if nperseg is None:
            nperseg = 256
        if nperseg > input_length:
            warnings.warn(f"nperseg = {nperseg:d} is greater than input length  = {input_length:d}, using "
                          f"nperseg = {input_length:d}", stacklevel=stacklevel)
            nperseg = input_length
        win = get_window(window, nperseg, device=device)
    else:
        win = _as_cunp(window, device)
        if win.ndim != 1:
            raise ValueError("window must be 1-D")
        if input_length < win.shape[-1]:
            raise ValueError("window is longer than input signal")
        if nperseg is None:
            nperseg = win.shape[0]
        elif nperseg != win.shape[0]:
            raise ValueError("value specified for nperseg is different from length of window")
    return win, nperseg


def _extend(x, n, kind):
    """The boundary extensions of stft: even, odd, constant (edge) and zeros, n samples
    on both ends of the last axis."""
    if n < 1:
        return x
    if kind == "zeros":
        z = cunp.zeros(x.shape[:-1] + (n,), dtype=x.dtype, device=x.device)
        return cunp.concatenate((z, x, z), axis=-1)
    if kind == "constant":
        left = cunp.broadcast_to(x[..., :1], x.shape[:-1] + (n,))
        right = cunp.broadcast_to(x[..., -1:], x.shape[:-1] + (n,))
        return cunp.concatenate((left, x, right), axis=-1)
    if n > x.shape[-1] - 1:
        raise ValueError(f"The extension length n ({n}) is too big. It must not exceed x.shape[axis]-1, which "
                         f"is {x.shape[-1] - 1}.")
    left = cunp.flip(x[..., 1:n + 1], axis=-1)
    right = cunp.flip(x[..., -n - 1:-1], axis=-1)
    if kind == "odd":
        left = 2 * x[..., :1] - left
        right = 2 * x[..., -1:] - right
    return cunp.concatenate((left, x, right), axis=-1)


_BOUNDARIES = ("even", "odd", "constant", "zeros", None)


def _fft_segments(x, win, detrend_func, nperseg, noverlap, nfft, sides):
    step = nperseg - noverlap
    seg = x[..., None] if (nperseg == 1 and noverlap == 0) else _segments(x, nperseg, step)
    seg = detrend_func(seg)
    seg = win * seg
    if sides == "twosided":
        return cunp.fft.fft(seg, n=nfft)
    return cunp.fft.rfft(cunp.real(seg) if seg.dtype.kind == "c" else seg, n=nfft)


def _spectral_helper(x, y, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, detrend="constant",
                     return_onesided=True, scaling="density", axis=-1, mode="psd", boundary=None, padded=False):
    """The segment spectra of x (and the cross spectra with y) with frequencies and
    segment times, as SciPy's _spectral_helper (Note [Strided segments])."""
    if mode not in ["psd", "stft"]:
        raise ValueError(f"Unknown value for mode {mode}, must be one of: {{'psd', 'stft'}}")
    if boundary not in _BOUNDARIES:
        raise ValueError(f"Unknown boundary option '{boundary}', must be one of: "
                         f"{['even', 'odd', 'constant', 'zeros', None]}")
    same_data = y is x
    if not same_data and mode != "psd":
        raise ValueError("x and y must be equal if mode is 'stft'")
    axis = int(axis)
    x = _as_cunp(x)
    if not same_data:
        y = _as_cunp(y, x.device)
        outdtype = np.result_type(x.dtype, y.dtype, np.complex64)
        xouter, youter = list(x.shape), list(y.shape)
        xouter.pop(axis)
        youter.pop(axis)
        try:
            outershape = np.broadcast_shapes(tuple(xouter), tuple(youter))
        except ValueError:
            raise ValueError("x and y cannot be broadcast together.") from None
    else:
        outdtype = np.result_type(x.dtype, np.complex64)
    if same_data:
        if x.size == 0:
            e = cunp.empty(x.shape, device=x.device)
            return e, e, e
    elif x.size == 0 or y.size == 0:
        shape = outershape + (min(x.shape[axis], y.shape[axis]),)
        e = cunp.moveaxis(cunp.empty(shape, device=x.device), -1, axis)
        return e, e, e
    if x.ndim > 1 and axis != -1:
        x = cunp.moveaxis(x, axis, -1)
        if not same_data and y.ndim > 1:
            y = cunp.moveaxis(y, axis, -1)
    if not same_data and x.shape[-1] != y.shape[-1]:
        if x.shape[-1] < y.shape[-1]:
            x = cunp.concatenate((x, cunp.zeros(x.shape[:-1] + (y.shape[-1] - x.shape[-1],), device=x.device)), -1)
        else:
            y = cunp.concatenate((y, cunp.zeros(y.shape[:-1] + (x.shape[-1] - y.shape[-1],), device=x.device)), -1)
    if nperseg is not None:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    win, nperseg = _window_for(window, nperseg, x.shape[-1], x.device, stacklevel=5)
    if nfft is None:
        nfft = nperseg
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    else:
        nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap
    if boundary is not None:
        x = _extend(x, nperseg // 2, boundary)
        if not same_data:
            y = _extend(y, nperseg // 2, boundary)
    if padded:
        nadd = (-(x.shape[-1] - nperseg) % nstep) % nperseg
        x = cunp.concatenate((x, cunp.zeros(x.shape[:-1] + (nadd,), dtype=x.dtype, device=x.device)), axis=-1)
        if not same_data:
            y = cunp.concatenate((y, cunp.zeros(y.shape[:-1] + (nadd,), dtype=y.dtype, device=x.device)), axis=-1)
    detrend_func = _detrend_func(detrend, axis)
    win = win.astype(_real_dtype(outdtype)) if win.dtype.kind != "c" else win.astype(outdtype)
    win_sum = float(cunp.sum(win).real.item())
    win_sq = float(cunp.sum(cunp.abs(win) ** 2).item())
    if scaling == "density":
        scale = 1.0 / (fs * win_sq)
    elif scaling == "spectrum":
        scale = 1.0 / win_sum ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling!r}")
    if mode == "stft":
        scale = math.sqrt(scale)
    if return_onesided:
        if x.dtype.kind == "c" or (not same_data and y.dtype.kind == "c"):
            sides = "twosided"
            warnings.warn("Input data is complex, switching to return_onesided=False", stacklevel=4)
        else:
            sides = "onesided"
    else:
        sides = "twosided"
    freqs = (cunp.fft.fftfreq if sides == "twosided" else cunp.fft.rfftfreq)(nfft, 1 / fs, device=x.device)
    result = _fft_segments(x, win, detrend_func, nperseg, noverlap, nfft, sides)
    if not same_data:
        result = cunp.conjugate(result) * _fft_segments(y, win, detrend_func, nperseg, noverlap, nfft, sides)
    elif mode == "psd":
        result = cunp.conjugate(result) * result
    result *= scale
    if sides == "onesided" and mode == "psd":
        if nfft % 2:
            result[..., 1:] *= 2
        else:
            result[..., 1:-1] *= 2
    time = cunp.arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, nperseg - noverlap, device=x.device) / float(fs)
    if boundary is not None:
        time -= nperseg / 2 / fs
    result = result.astype(outdtype)
    if same_data and mode != "stft":
        result = cunp.real(result)
    if axis < 0:
        axis -= 1
    return freqs, time, cunp.moveaxis(result, -1, axis)


def _median_bias(n):
    ii_2 = 2 * np.arange(1.0, (n - 1) // 2 + 1)
    return 1 + np.sum(1.0 / (ii_2 + 1) - 1.0 / ii_2)


def csd(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None, detrend="constant",
        return_onesided=True, scaling="density", axis=-1, average="mean"):
    """scipy.signal.csd: the cross power spectral density of x and y by Welch's method
    (segments of nperseg, overlap noverlap, averaged by mean or median)."""
    same_data, axis = y is x, int(axis)
    x = _as_cunp(x)
    if not same_data:
        y = _as_cunp(y, x.device)
        xo, yo = list(x.shape), list(y.shape)
        xo.pop(axis)
        yo.pop(axis)
        try:
            outer = np.broadcast_shapes(tuple(xo), tuple(yo))
        except ValueError:
            raise ValueError("x and y cannot be broadcast together.") from None
        if x.size == 0 or y.size == 0:
            e = cunp.moveaxis(cunp.empty(outer + (min(x.shape[axis], y.shape[axis]),), device=x.device), -1, axis)
            return e, e
        out_dtype = np.result_type(x.dtype, y.dtype, np.complex64)
        n = max(x.shape[axis], y.shape[axis])
    else:
        if x.size == 0:
            e = cunp.empty(x.shape, device=x.device)
            return e, e
        out_dtype = np.result_type(x.dtype, np.complex64)
        n = x.shape[axis]
    if isinstance(window, (str, tuple)):
        nperseg = int(nperseg) if nperseg is not None else 256
        if nperseg < 1:
            raise ValueError(f"Parameter nperseg={nperseg!r} is not a positive integer!")
        if n < nperseg:
            warnings.warn(f"nperseg={nperseg!r} is greater than signal length max(len(x), len(y)) = {n}, using "
                          f"nperseg = {n}", stacklevel=3)
            nperseg = n
        win = get_window(window, nperseg, device=x.device)
    else:
        win = _as_cunp(window, x.device)
        if nperseg is None:
            nperseg = win.shape[0]
    if nperseg != len(win):
        raise ValueError(f"nperseg={nperseg!r} does not equal len(win)={len(win)!r}")
    nfft = int(nfft) if nfft is not None else nperseg
    if nfft < nperseg:
        raise ValueError(f"nfft={nfft!r} must be greater than or equal to nperseg={nperseg!r}!")
    noverlap = int(noverlap) if noverlap is not None else nperseg // 2
    if noverlap >= nperseg:
        raise ValueError(f"noverlap={noverlap!r} must be less than nperseg={nperseg!r}!")
    if scaling not in ("spectrum", "density"):
        raise ValueError(f"Parameter scaling={scaling!r} not in {{'spectrum': 'magnitude', 'density': 'psd'}}!")
    if x.dtype.kind == "c" or (not same_data and y.dtype.kind == "c"):
        return_onesided = False
    if x.ndim > 1:
        x = cunp.moveaxis(x, axis, -1)
    if not same_data:
        if y.ndim > 1:
            y = cunp.moveaxis(y, axis, -1)
        if x.shape[-1] < n:
            x = cunp.concatenate((x, cunp.zeros(x.shape[:-1] + (n - x.shape[-1],), device=x.device)), axis=-1)
        if y.shape[-1] < n:
            y = cunp.concatenate((y, cunp.zeros(y.shape[:-1] + (n - y.shape[-1],), device=x.device)), axis=-1)
    sides = "onesided" if return_onesided else "twosided"
    detr = _detrend_func(detrend, -1)
    win = win.astype(_real_dtype(out_dtype)) if win.dtype.kind != "c" else win.astype(out_dtype)
    fs = float(fs)
    if scaling == "density":
        scale = 1.0 / (fs * float(cunp.sum(cunp.abs(win) ** 2).item()))
    else:
        scale = 1.0 / abs(complex(cunp.sum(win).item())) ** 2
    w = win.conj() if win.dtype.kind == "c" else win
    X = _fft_segments(x, w, detr, nperseg, noverlap, nfft, sides)  # (..., nseg, nfreq)
    nseg = X.shape[-2]
    if average not in ("mean", "median") and nseg > 1:
        raise ValueError(f"Parameter average={average!r} must be 'median' or 'mean'!")
    # Note [Welch averaging]: the scale and the one-sided doubling are applied after the
    # average (both are linear, and positive for the median), on nfreq values instead of
    # nseg x nfreq; the mean power of a real spectrum is the mean of the squares of its
    # float pairs (one elementwise pass over the complex spectra as floats, one reduction).
    if same_data and (average == "mean" or nseg <= 1):
        pairs = X.view(X.real.dtype).reshape(X.shape[:-1] + (X.shape[-1], 2))
        Pxy = cunp.sum(cunp.mean(pairs * pairs, axis=-3), axis=-1)
    else:
        P = cunp.real(X) ** 2 + cunp.imag(X) ** 2 if same_data else \
            cunp.conjugate(X) * _fft_segments(y, w, detr, nperseg, noverlap, nfft, sides)
        if nseg <= 1:
            Pxy = P.reshape(P.shape[:-2] + P.shape[-1:])
        elif average == "median":
            if P.dtype.kind == "c":
                Pxy = cunp.median(cunp.real(P), axis=-2) + 1j * cunp.median(cunp.imag(P), axis=-2)
            else:
                Pxy = cunp.median(P, axis=-2)
            Pxy = Pxy / _median_bias(nseg)
        else:
            Pxy = P.mean(axis=-2)
    Pxy = Pxy * scale
    if return_onesided:
        Pxy[..., 1:-1 if nfft % 2 == 0 else None] *= 2
    Pxy = Pxy.astype(out_dtype)
    if same_data:
        Pxy = cunp.real(Pxy)
    if axis != -1 and Pxy.ndim > 1:
        Pxy = cunp.moveaxis(Pxy, -1, axis)
    freqs = (cunp.fft.rfftfreq if return_onesided else cunp.fft.fftfreq)(nfft, 1 / fs, device=x.device)
    return freqs, Pxy


def welch(x, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None, detrend="constant",
          return_onesided=True, scaling="density", axis=-1, average="mean"):
    """scipy.signal.welch: the power spectral density of x by Welch's method."""
    freqs, Pxx = csd(x, x, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft, detrend=detrend,
                     return_onesided=return_onesided, scaling=scaling, axis=axis, average=average)
    return freqs, cunp.real(Pxx)


def periodogram(x, fs=1.0, window="boxcar", nfft=None, detrend="constant", return_onesided=True,
                scaling="density", axis=-1):
    """scipy.signal.periodogram: the power spectral density of x from one windowed FFT."""
    x = _as_cunp(x)
    if x.size == 0:
        e = cunp.empty(x.shape, device=x.device)
        return e, e
    if window is None:
        window = "boxcar"
    n = x.shape[axis]
    if nfft is None:
        nperseg = n
    elif nfft == n:
        nperseg = nfft
    elif nfft > n:
        nperseg = n
    else:
        s = [slice(None)] * x.ndim
        s[axis] = slice(None, nfft)
        x = x[tuple(s)]
        nperseg = nfft
        nfft = None
    if hasattr(window, "size") and not isinstance(window, (str, tuple)):
        if window.size != nperseg:
            raise ValueError("the size of the window must be the same size of the input on the specified axis")
    return welch(x, fs=fs, window=window, nperseg=nperseg, noverlap=0, nfft=nfft, detrend=detrend,
                 return_onesided=return_onesided, scaling=scaling, axis=axis)


def coherence(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None, detrend="constant",
              axis=-1):
    """scipy.signal.coherence: |Pxy|^2 / (Pxx Pyy), the magnitude-squared coherence."""
    kw = dict(fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft, detrend=detrend, axis=axis)
    freqs, Pxx = welch(x, **kw)
    _, Pyy = welch(y, **kw)
    _, Pxy = csd(x, y, **kw)
    return freqs, cunp.abs(Pxy) ** 2 / Pxx / Pyy


def spectrogram(x, fs=1.0, window=("tukey_periodic", 0.25), nperseg=None, noverlap=None, nfft=None,
                detrend="constant", return_onesided=True, scaling="density", axis=-1, mode="psd"):
    """scipy.signal.spectrogram: the spectra of consecutive segments (mode 'psd',
    'complex', 'magnitude', 'angle' or 'phase')."""
    modes = ["psd", "complex", "magnitude", "angle", "phase"]
    if mode not in modes:
        raise ValueError(f"unknown value for mode {mode}, must be one of {modes}")
    x = _as_cunp(x)
    window, nperseg = _window_for(window, nperseg, x.shape[axis], x.device)
    if noverlap is None:
        noverlap = nperseg // 8
    helper_mode = "psd" if mode == "psd" else "stft"
    freqs, time, Sxx = _spectral_helper(x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
                                        scaling, axis, mode=helper_mode)
    if mode == "magnitude":
        Sxx = cunp.abs(Sxx)
    elif mode in ("angle", "phase"):
        Sxx = cunp.angle(Sxx)
        if mode == "phase":
            Sxx = cunp.unwrap(Sxx, axis=axis - 1 if axis < 0 else axis)
    return freqs, time, Sxx


def stft(x, fs=1.0, window="hann_periodic", nperseg=256, noverlap=None, nfft=None, detrend=False,
         return_onesided=True, boundary="zeros", padded=True, axis=-1, scaling="spectrum"):
    """scipy.signal.stft: the short-time Fourier transform (legacy interface; see
    ShortTimeFFT), segments of nperseg with the boundary extended and zero padding."""
    if scaling == "psd":
        scaling = "density"
    elif scaling != "spectrum":
        raise ValueError(f"Parameter scaling={scaling!r} not in ['spectrum', 'psd']!")
    return _spectral_helper(x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling=scaling,
                            axis=axis, mode="stft", boundary=boundary, padded=padded)


def _overlap_add(frames, step, length):
    """sum of frames[..., k, :] placed at k*step, cut to `length` (Note [Strided
    segments]): ceil(nperseg/step) passes, each a reshape of non-overlapping segments."""
    nseg, nperseg = frames.shape[-2], frames.shape[-1]
    r = -(-nperseg // step)
    block = r * step
    count = -(-nseg // r)
    out = cunp.zeros(frames.shape[:-2] + ((r - 1) * step + count * block,), dtype=frames.dtype,
                     device=frames.device)
    for c in range(min(r, nseg)):
        seg = frames[..., c::r, :]
        padded = cunp.zeros(seg.shape[:-1] + (block,), dtype=frames.dtype, device=frames.device)
        padded[..., :nperseg] = seg
        flat = padded.reshape(seg.shape[:-2] + (seg.shape[-2] * block,))
        out[..., c * step:c * step + flat.shape[-1]] += flat
    return out[..., :length]


def istft(Zxx, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None, input_onesided=True,
          boundary=True, time_axis=-1, freq_axis=-2, scaling="spectrum"):
    """scipy.signal.istft: the inverse of stft by weighted overlap-add (legacy
    interface; see ShortTimeFFT.istft)."""
    Zxx = _as_cunp(Zxx)
    Zxx = Zxx + 0j if Zxx.dtype.kind != "c" else Zxx
    freq_axis, time_axis = int(freq_axis), int(time_axis)
    if Zxx.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    nseg = Zxx.shape[time_axis]
    n_default = 2 * (Zxx.shape[freq_axis] - 1) if input_onesided else Zxx.shape[freq_axis]
    if nperseg is None:
        nperseg = n_default
    else:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft = nperseg if (input_onesided and nperseg == n_default + 1) else n_default
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    else:
        nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap
    if time_axis != Zxx.ndim - 1 or freq_axis != Zxx.ndim - 2:
        if freq_axis < 0:
            freq_axis = Zxx.ndim + freq_axis
        if time_axis < 0:
            time_axis = Zxx.ndim + time_axis
        zouter = [i for i in range(Zxx.ndim) if i not in (time_axis, freq_axis)]
        Zxx = cunp.transpose(Zxx, zouter + [freq_axis, time_axis])
    if isinstance(window, (str, tuple)):
        win = get_window(window, nperseg, device=Zxx.device)
    else:
        win = _as_cunp(window, Zxx.device)
        if win.ndim != 1:
            raise ValueError("window must be 1-D")
        if win.shape[0] != nperseg:
            raise ValueError(f"window must have length of {nperseg}")
    ifunc = cunp.fft.irfft if input_onesided else cunp.fft.ifft
    xsubs = ifunc(Zxx, axis=-2, n=nfft)[..., :nperseg, :]
    if np.result_type(win.dtype, xsubs.dtype) != xsubs.dtype:
        win = win.astype(xsubs.dtype)
    if scaling == "spectrum":
        xsubs = xsubs * float(cunp.sum(win).real.item())
    elif scaling == "psd":
        xsubs = xsubs * math.sqrt(fs * float(cunp.sum(win ** 2).real.item()))
    else:
        raise ValueError(f"Parameter scaling={scaling!r} not in ['spectrum', 'psd']!")
    outputlength = nperseg + (nseg - 1) * nstep
    frames = cunp.swapaxes(xsubs, -1, -2) * win  # (..., nseg, nperseg)
    x = _overlap_add(frames, nstep, outputlength)
    w2 = cunp.broadcast_to(win * win, (nseg, nperseg))
    norm = _overlap_add(cunp.ascontiguousarray(w2), nstep, outputlength)
    if boundary:
        x = x[..., nperseg // 2:-(nperseg // 2)]
        norm = norm[..., nperseg // 2:-(nperseg // 2)]
    if int(cunp.sum(norm > 1e-10).item()) != norm.shape[-1]:
        warnings.warn("NOLA condition failed, STFT may not be invertible."
                      + (" Possibly due to missing boundary" if not boundary else ""), stacklevel=2)
    x = x / cunp.where(norm > 1e-10, norm, 1.0)
    if input_onesided:
        x = cunp.real(x)
    if x.ndim > 1 and time_axis != Zxx.ndim - 1:
        if freq_axis < time_axis:
            time_axis -= 1
        x = cunp.moveaxis(x, -1, time_axis)
    time = cunp.arange(x.shape[0], device=Zxx.device) / float(fs)
    return time, x


def lombscargle(x, y, freqs, *, precenter=None, normalize=False, weights=None, floating_mean=False):
    """scipy.signal.lombscargle: the generalized Lomb-Scargle periodogram of unevenly
    sampled y(x) at angular frequencies `freqs` (weights, floating mean, and the
    'power', 'normalize' and 'amplitude' normalizations of SciPy 1.15+)."""
    x = _as_cunp(x).astype(np.float64)
    dev = x.device
    y = _as_cunp(y, dev).astype(np.float64)
    freqs = _as_cunp(freqs, dev).astype(np.float64)
    weights = cunp.ones_like(y) if weights is None else _as_cunp(weights, dev).astype(np.float64)
    if not (x.ndim == 1 and x.size > 0 and x.shape == y.shape == weights.shape):
        raise ValueError("Parameters x, y, weights must be 1-D arrays of equal non-zero length!")
    if not (freqs.ndim == 1 and freqs.size > 0):
        raise ValueError("Parameter freqs must be a 1-D array of non-zero length!")
    if not (bool(cunp.all(weights >= 0)) and float(weights.sum().item()) > 0):
        raise ValueError("Parameter weights must have only non-negative entries which sum to a positive value!")
    if isinstance(normalize, bool):
        normalize = "normalize" if normalize else "power"
    if normalize not in ["power", "normalize", "amplitude"]:
        raise ValueError("Normalize must be: False (or 'power'), True (or 'normalize'), or 'amplitude'.")
    weights = weights * (1.0 / weights.sum())
    if precenter is not None:
        warnings.warn("Use of parameter 'precenter' is deprecated as of SciPy 1.17.0 and will be removed in "
                      "1.19.0. Please leave 'precenter' unspecified. Passing True to 'precenter' can be exactly "
                      "substituted by passing 'y = (y - y.mean())' into the input. Consider setting "
                      "`floating_mean` to True instead.", DeprecationWarning, stacklevel=2)
        if precenter:
            y = y - y.mean()
    wt = weights[:, None]
    wy = weights * y
    freqst = x[:, None] * freqs[None, :]
    coswt, sinwt = cunp.cos(freqst), cunp.sin(freqst)
    Y = float(cunp.dot(weights, y).item())
    CC = cunp.sum(wt * coswt * coswt, axis=0)
    SS = 1.0 - CC
    CS = cunp.sum(wt * coswt * sinwt, axis=0)
    if floating_mean:
        C = cunp.sum(wt * coswt, axis=0)
        S = cunp.sum(wt * sinwt, axis=0)
        CC = CC - C * C
        SS = SS - S * S
        CS = CS - C * S
    tau = 0.5 * cunp.arctan2(2.0 * CS, CC - SS)
    ftau = freqst - tau[None, :]
    cos_tau, sin_tau = cunp.cos(ftau), cunp.sin(ftau)
    YC = cunp.sum(wy[:, None] * cos_tau, axis=0)
    YS = cunp.sum(wy[:, None] * sin_tau, axis=0)
    CC = cunp.sum(wt * cos_tau * cos_tau, axis=0)
    SS = 1.0 - CC
    if floating_mean:
        C = cunp.sum(wt * cos_tau, axis=0)
        S = cunp.sum(wt * sin_tau, axis=0)
        YC = YC - Y * C
        YS = YS - Y * S
        CC = CC - C * C
        SS = SS - S * S
    epsneg = float(np.finfo(np.float64).epsneg)
    CC = cunp.maximum(CC, epsneg)
    SS = cunp.maximum(SS, epsneg)
    a = YC / CC
    b = YS / SS
    if normalize == "amplitude":
        return (a + 1j * b) * cunp.exp(1j * tau)
    pgram = 2.0 * (a * YC + b * YS)
    if normalize == "power":
        return pgram * (float(x.shape[0]) / 4.0)
    YY = float(cunp.dot(wy, y).item())
    if floating_mean:
        YY -= Y * Y
    return pgram * (0.5 / YY)


def _window_host(window, nperseg):
    if isinstance(window, (str, tuple)):
        return get_window(window, nperseg, device="cpu").get()
    win = window.get() if isinstance(window, cunp.ndarray) else np.asarray(window)
    if len(win.shape) != 1:
        raise ValueError("window must be 1-D")
    if win.shape[0] != nperseg:
        raise ValueError("window must have length of nperseg")
    return win


def _binsums(win, nperseg, noverlap):
    step = nperseg - noverlap
    sums = sum(win[ii * step:(ii + 1) * step] for ii in range(nperseg // step))
    if nperseg % step != 0:
        sums[:nperseg % step] += win[-(nperseg % step):]
    return sums


def check_COLA(window, nperseg, noverlap, tol=1e-10):
    """scipy.signal.check_COLA: whether the window's shifted copies sum to a constant
    (constant overlap-add), to within tol."""
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    noverlap = int(noverlap)
    sums = _binsums(_window_host(window, nperseg), nperseg, noverlap)
    return bool(np.max(np.abs(sums - np.median(sums))) < tol)


def check_NOLA(window, nperseg, noverlap, tol=1e-10):
    """scipy.signal.check_NOLA: whether the squared window's shifted copies never sum to
    (nearly) zero (nonzero overlap-add), the condition for an invertible STFT."""
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg")
    if noverlap < 0:
        raise ValueError("noverlap must be a nonnegative integer")
    noverlap = int(noverlap)
    win = _window_host(window, nperseg)
    return bool(np.min(_binsums(win ** 2, nperseg, noverlap)) > tol)


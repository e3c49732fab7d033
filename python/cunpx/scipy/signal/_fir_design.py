"""FIR filter design of scipy.signal for cunp: the window method (firwin), frequency
sampling (firwin2), least squares (firls), Parks-McClellan (remez) and the Kaiser
formulas (kaiserord, kaiser_beta, kaiser_atten).

Taps are computed on the host in float64 NumPy (_host.py says why) and returned as
cunp arrays on the current device (or that of a cunp argument); the windows come from
cunp's own get_window.
"""
import math
import warnings

import numpy as np

from cunpx.scipy.signal._host import host_function, validate_fs
from cunpx.scipy.signal._windows import get_window

__all__ = ["kaiser_beta", "kaiser_atten", "kaiserord", "firwin", "firwin2", "firls", "remez"]


def _host_window(window, numtaps):
    return get_window(window, numtaps, fftbins=False, device="cpu").get()


def kaiser_beta(a):
    """scipy.signal.kaiser_beta: the Kaiser beta for `a` dB stopband attenuation."""
    if a > 50:
        return 0.1102 * (a - 8.7)
    if a > 21:
        return 0.5842 * (a - 21) ** 0.4 + 0.07886 * (a - 21)
    return 0.0


def kaiser_atten(numtaps, width):
    """scipy.signal.kaiser_atten: the attenuation (dB) of a Kaiser FIR filter of
    `numtaps` taps and transition `width` (a fraction of Nyquist)."""
    return 2.285 * (numtaps - 1) * np.pi * width + 7.95


def kaiserord(ripple, width):
    """scipy.signal.kaiserord: (numtaps, beta) of the Kaiser window method for `ripple`
    dB and transition `width` (a fraction of Nyquist)."""
    A = abs(ripple)
    if A < 8:
        raise ValueError(f"Requested maximum ripple attenuation {A:f} is too small for the Kaiser formula.")
    beta = kaiser_beta(A)
    numtaps = (A - 7.95) / 2.285 / (np.pi * width) + 1
    return int(math.ceil(numtaps)), beta


def _firwin(numtaps, cutoff, *, width=None, window="hamming", pass_zero=True, scale=True, fs=None):
    fs = validate_fs(fs, allow_none=True)
    fs = 2 if fs is None else fs
    nyq = 0.5 * fs
    cutoff = np.atleast_1d(np.asarray(cutoff, dtype=np.float64)) / float(nyq)
    if cutoff.ndim > 1:
        raise ValueError("The cutoff argument must be at most one-dimensional.")
    if cutoff.size == 0:
        raise ValueError("At least one cutoff frequency must be given.")
    if cutoff.min() <= 0 or cutoff.max() >= 1:
        raise ValueError("Invalid cutoff frequency: frequencies must be greater than 0 and less than fs/2.")
    if np.any(np.diff(cutoff) <= 0):
        raise ValueError("Invalid cutoff frequencies: the frequencies must be strictly increasing.")
    if width is not None:
        window = ("kaiser", kaiser_beta(kaiser_atten(numtaps, float(width) / nyq)))
    if pass_zero in ("bandstop", "lowpass"):
        if pass_zero == "lowpass" and cutoff.size != 1:
            raise ValueError(f'cutoff must have one element if pass_zero=="lowpass", got {cutoff.shape}')
        if pass_zero == "bandstop" and cutoff.size <= 1:
            raise ValueError(f'cutoff must have at least two elements if pass_zero=="bandstop", got {cutoff.shape}')
        pass_zero = True
    elif pass_zero in ("bandpass", "highpass"):
        if pass_zero == "highpass" and cutoff.size != 1:
            raise ValueError(f'cutoff must have one element if pass_zero=="highpass", got {cutoff.shape}')
        if pass_zero == "bandpass" and cutoff.size <= 1:
            raise ValueError(f'cutoff must have at least two elements if pass_zero=="bandpass", got {cutoff.shape}')
        pass_zero = False
    elif not (pass_zero is True or pass_zero is False):
        raise ValueError(f"Parameter pass_zero={pass_zero!r} not in (True, False, 'bandpass', "
                         "'lowpass', 'highpass', 'bandstop')")
    pass_nyquist = (cutoff.size % 2 == 0) == pass_zero
    if pass_nyquist and numtaps % 2 == 0:
        raise ValueError("A filter with an even number of coefficients must have zero response at the "
                         "Nyquist frequency.")
    bands = np.concatenate((np.zeros(int(pass_zero)), cutoff, np.ones(int(pass_nyquist)))).reshape(-1, 2)
    m = np.arange(0, numtaps, dtype=np.float64) - 0.5 * (numtaps - 1)
    h = 0
    for left, right in bands:
        h = h + right * np.sinc(right * m)
        h = h - left * np.sinc(left * m)
    h = h * _host_window(window, numtaps)
    if scale:
        left, right = bands[0]
        freq = 0.0 if left == 0 else (1.0 if right == 1 else 0.5 * (left + right))
        h = h / np.sum(h * np.cos(np.pi * m * freq))
    return h


def _firwin2(numtaps, freq, gain, *, nfreqs=None, window="hamming", antisymmetric=False, fs=None):
    freq, gain = np.asarray(freq, dtype=np.float64), np.asarray(gain)
    fs = validate_fs(fs, allow_none=True)
    nyq = 0.5 * (2 if fs is None else fs)
    if freq.shape[0] != gain.shape[0]:
        raise ValueError("freq and gain must be of same length.")
    if nfreqs is not None and numtaps >= nfreqs:
        raise ValueError(f"ntaps must be less than nfreqs, but firwin2 was called with ntaps={numtaps} and "
                         f"nfreqs={nfreqs}")
    if freq[0] != 0 or freq[-1] != nyq:
        raise ValueError("freq must start with 0 and end with fs/2.")
    d = np.diff(freq)
    if np.any(d < 0):
        raise ValueError("The values in freq must be nondecreasing.")
    if np.any(d[:-1] + d[1:] == 0):
        raise ValueError("A value in freq must not occur more than twice.")
    if freq[1] == 0:
        raise ValueError("Value 0 must not be repeated in freq")
    if freq[-2] == nyq:
        raise ValueError("Value fs/2 must not be repeated in freq")
    ftype = (4 if numtaps % 2 == 0 else 3) if antisymmetric else (2 if numtaps % 2 == 0 else 1)
    if ftype == 2 and gain[-1] != 0.0:
        raise ValueError("A Type II filter must have zero gain at the Nyquist frequency.")
    if ftype == 3 and (gain[0] != 0.0 or gain[-1] != 0.0):
        raise ValueError("A Type III filter must have zero gain at zero and Nyquist frequencies.")
    if ftype == 4 and gain[0] != 0.0:
        raise ValueError("A Type IV filter must have zero gain at zero frequency.")
    if nfreqs is None:
        nfreqs = 1 + 2 ** int(math.ceil(math.log(numtaps, 2)))
    if np.any(d == 0):
        # A repeated frequency is a step: move the two points eps apart.
        freq = freq.copy()
        eps = np.finfo(np.float64).eps * nyq
        for k in range(freq.shape[0] - 1):
            if freq[k] == freq[k + 1]:
                freq[k] -= eps
                freq[k + 1] += eps
        if np.any(np.diff(freq) <= 0):
            raise ValueError("freq cannot contain numbers that are too close (within eps * (fs/2): "
                             f"{eps}) to a repeated value")
    x = np.linspace(0.0, nyq, nfreqs)
    fx = np.interp(x, freq, gain)
    shift = np.exp(-(numtaps - 1) / 2.0 * 1j * np.pi * x / nyq)
    if ftype > 2:
        shift = shift * 1j
    out = np.fft.irfft(fx * shift)[:numtaps]
    if window is not None:
        out = out * _host_window(window, numtaps)
    if ftype == 3:
        out[out.size // 2] = 0.0
    return out


def _firls(numtaps, bands, desired, *, weight=None, fs=None):
    bands, desired = np.asarray(bands, dtype=np.float64), np.asarray(desired, dtype=np.float64)
    fs = validate_fs(fs, allow_none=True)
    nyq = float(0.5 * (2 if fs is None else fs))
    numtaps = int(numtaps)
    if numtaps % 2 == 0 or numtaps < 1:
        raise ValueError("numtaps must be odd and >= 1")
    M = (numtaps - 1) // 2
    if nyq <= 0:
        raise ValueError(f"nyq must be positive, got {nyq} <= 0.")
    bands = bands.flatten() / nyq
    if len(bands) % 2 != 0:
        raise ValueError("bands must contain frequency pairs.")
    if (bands < 0).any() or (bands > 1).any():
        raise ValueError("bands must be between 0 and 1 relative to Nyquist")
    bands = bands.reshape((-1, 2))
    desired = desired.flatten()
    if bands.size != desired.size:
        raise ValueError(f"desired must have one entry per frequency, got {desired.size} gains for "
                         f"{bands.size} frequencies.")
    desired = desired.reshape((-1, 2))
    if (np.diff(bands) <= 0).any() or (np.diff(bands[:, 0]) < 0).any():
        raise ValueError("bands must be monotonically nondecreasing and have width > 0.")
    if (bands[:-1, 1] > bands[1:, 0]).any():
        raise ValueError("bands must not overlap.")
    if (desired < 0).any():
        raise ValueError("desired must be non-negative.")
    weight = np.ones(len(desired)) if weight is None else np.asarray(weight, dtype=np.float64).flatten()
    if len(weight) != len(desired):
        raise ValueError(f"weight must be the same size as the number of band pairs ({len(bands)}).")
    if (weight < 0).any():
        raise ValueError("weight must be non-negative.")
    # The normal equations Q a = b of the weighted squared error over the bands
    # (a Toeplitz-plus-Hankel Q; Selesnick's notes on least-squares FIR design).
    n = np.arange(numtaps)[:, None, None]
    q = np.dot(np.diff(np.sinc(bands * n) * bands, axis=2)[:, :, 0], weight)
    idx = np.arange(M + 1)
    Q = q[np.abs(idx[:, None] - idx[None, :])] + q[idx[:, None] + idx[None, :]]
    n = n[:M + 1]
    m = np.diff(desired, axis=1) / np.diff(bands, axis=1)
    c = desired[:, [0]] - bands[:, [0]] * m
    b = bands * (m * bands + c) * np.sinc(bands * n)
    b[0] -= m * bands * bands / 2.0
    b[1:] += m * np.cos(n[1:] * np.pi * bands) / (np.pi * n[1:]) ** 2
    b = np.dot(np.diff(b, axis=2)[:, :, 0], weight)
    # SciPy solves with Cholesky and falls back to least squares when Q is
    # ill-conditioned (reciprocal condition below machine epsilon).
    try:
        if 1.0 / np.linalg.cond(Q, 1) < np.finfo(np.float64).eps:
            raise np.linalg.LinAlgError("ill-conditioned")
        L = np.linalg.cholesky(Q)
        a = np.linalg.solve(L.T, np.linalg.solve(L, b))
    except np.linalg.LinAlgError:
        a = np.linalg.lstsq(Q, b, rcond=None)[0]
    return np.hstack((a[:0:-1], 2 * a[0], a[1:]))


# ---- Parks-McClellan ---------------------------------------------------------------

def _remez_grid(r, numtaps, bands, des, weight, density, negative):
    """The dense frequency grid (cycles/sample, in [0, 0.5]) with the desired response
    and weight on it: `density` points per extremal spacing, band edges exact."""
    delf = 0.5 / (density * r)
    grid0 = delf if (negative and delf > bands[0]) else bands[0]
    grid, D, W = [], [], []
    for band in range(len(des)):
        lowf = grid0 if band == 0 else bands[2 * band]
        highf = bands[2 * band + 1]
        k = int((highf - lowf) / delf + 0.5)
        if band == 0 and negative:
            k -= 1
        pts = lowf + delf * np.arange(k)
        if k:
            pts[-1] = highf
        grid.append(pts)
        D.append(np.full(k, des[band], dtype=np.float64))
        W.append(np.full(k, weight[band], dtype=np.float64))
    grid, D, W = np.concatenate(grid), np.concatenate(D), np.concatenate(W)
    # The amplitude of a type II filter (even, symmetric) vanishes at 0.5 and that of a
    # type III (odd, antisymmetric) there and at 0: those points leave the grid.
    if grid[-1] > 0.5 - delf:
        if negative and numtaps % 2:
            grid[-1] = 0.5 - delf
        elif not negative and numtaps % 2 == 0:
            grid, D, W = grid[:-1], D[:-1], W[:-1]
    return grid, D, W


def _remez_interpolator(ext, grid, D, W):
    """The alternation solution on the extremal set (Oppenheim & Schafer 7.131-7.133):
    the barycentric weights, delta, and the interpolated values at the extremals."""
    r = len(ext) - 1
    x = np.cos(2 * np.pi * grid[ext])
    diff = 2.0 * (x[:, None] - x[None, :])
    np.fill_diagonal(diff, 1.0)
    # Multiply the factors in an interleaved order (every ld-th one first), which keeps
    # the product of many small factors from underflowing.
    ld = (r - 1) // 15 + 1
    order = np.concatenate([np.arange(j, r + 1, ld) for j in range(ld)])
    denom = np.prod(diff[:, order], axis=1)
    denom = np.where(np.abs(denom) < 0.00001, 0.00001, denom)
    ad = 1.0 / denom
    sign = (-1.0) ** np.arange(r + 1)
    delta = np.sum(ad * D[ext]) / np.sum(sign * ad / W[ext])
    y = D[ext] - sign * delta / W[ext]
    return ad, x, y


def _remez_eval(freq, ad, x, y):
    """The Lagrange interpolant in barycentric form at `freq` (cycles/sample)."""
    xc = np.cos(2 * np.pi * np.asarray(freq, dtype=np.float64))
    c = xc[:, None] - x[None, :]
    hit = np.abs(c) < 1.0e-7
    c = np.where(hit, 1.0, c)
    t = ad[None, :] / c
    out = np.sum(t * y[None, :], axis=1) / np.sum(t, axis=1)
    on_node = hit.any(axis=1)
    if on_node.any():
        out[on_node] = y[np.argmax(hit[on_node], axis=1)]
    return out


def _remez_search(r, E):
    """The r + 1 alternating extremals of the error E on the grid, or None."""
    n = E.shape[0]
    found = []
    if (E[0] > 0.0 and E[0] > E[1]) or (E[0] < 0.0 and E[0] < E[1]):
        found.append(0)
    inner = np.arange(1, n - 1)
    peak = ((E[1:-1] >= E[:-2]) & (E[1:-1] > E[2:]) & (E[1:-1] > 0.0)) | \
           ((E[1:-1] <= E[:-2]) & (E[1:-1] < E[2:]) & (E[1:-1] < 0.0))
    found.extend(inner[peak].tolist())
    j = n - 1
    if (E[j] > 0.0 and E[j] > E[j - 1]) or (E[j] < 0.0 and E[j] < E[j - 1]):
        found.append(j)
    if len(found) > 2 * r or len(found) < r + 1:
        return None
    # Remove surplus extremals: the smallest of a non-alternating run, else the smaller
    # end one.
    while len(found) > r + 1:
        up = E[found[0]] > 0.0
        smallest = 0
        alternating = True
        for i in range(1, len(found)):
            if abs(E[found[i]]) < abs(E[found[smallest]]):
                smallest = i
            if up and E[found[i]] < 0.0:
                up = False
            elif not up and E[found[i]] > 0.0:
                up = True
            else:
                alternating = False
                break
        if alternating and len(found) == r + 2:
            smallest = len(found) - 1 if abs(E[found[-1]]) < abs(E[found[0]]) else 0
        del found[smallest]
    return np.asarray(found)


def _remez(numtaps, bands, desired, *, weight=None, type="bandpass", maxiter=25, grid_density=16, fs=None):
    fs = validate_fs(fs, allow_none=True)
    fs = 1.0 if fs is None else fs
    try:
        tnum = {"bandpass": 1, "differentiator": 2, "hilbert": 3}[type]
    except KeyError:
        raise ValueError("Type must be 'bandpass', 'differentiator', or 'hilbert'") from None
    bands = np.asarray(bands, dtype=np.float64).ravel() / fs
    desired = np.asarray(desired, dtype=np.float64).ravel()
    weight = np.ones(len(desired)) if weight is None else np.asarray(weight, dtype=np.float64).ravel()
    if len(desired) != len(weight) or len(bands) != 2 * len(desired):
        raise ValueError("The inputs desired and weight must have same length.\n  "
                         "The input bands must have twice this length.")
    if np.any(np.diff(bands) < 0) or bands[0] < 0:
        raise ValueError("Bands must be monotonic starting at zero.")
    if bands[-1] > 0.5:
        raise ValueError("Band edges should be less than 1/2 the sampling frequency")
    numtaps = int(numtaps)
    negative = tnum != 1
    r = numtaps // 2 + (1 if numtaps % 2 and not negative else 0)
    grid, D, W = _remez_grid(r, numtaps, bands, desired, weight, grid_density, negative)
    if tnum == 2:
        D = D * grid
        W = np.where(D > 0.0001, W / np.where(grid == 0, 1, grid), W)
    # Type II-IV filters: the amplitude is cos/sin(...) times a cosine polynomial.
    if not negative:
        if numtaps % 2 == 0:
            c = np.cos(np.pi * grid)
            D, W = D / c, W * c
    else:
        c = np.sin(2 * np.pi * grid) if numtaps % 2 else np.sin(np.pi * grid)
        D, W = D / c, W * c
    ext = (np.arange(r + 1) * (grid.size - 1)) // r
    converged = False
    for it in range(maxiter):
        ad, x, y = _remez_interpolator(ext, grid, D, W)
        E = W * (D - _remez_eval(grid, ad, x, y))
        new = _remez_search(r, E)
        if new is None:
            raise ValueError(f"Failure to converge at iteration {it}, try reducing transition band width.")
        ext = new
        err = np.abs(E[ext])
        if (err.max() - err.min()) / err.max() < 0.0001:
            converged = True
            break
    if not converged:
        warnings.warn(f"remez did not converge in maxiter={maxiter} iterations", RuntimeWarning, stacklevel=3)
    ad, x, y = _remez_interpolator(ext, grid, D, W)
    i = np.arange(numtaps // 2 + 1)
    f = i / numtaps
    if not negative:
        c = np.ones_like(f) if numtaps % 2 else np.cos(np.pi * f)
    else:
        c = np.sin(2 * np.pi * f) if numtaps % 2 else np.sin(np.pi * f)
    A = _remez_eval(f, ad, x, y) * c
    # Frequency sampling: the taps are the inverse DFT of the amplitude samples A.
    N = numtaps
    M = (N - 1.0) / 2.0
    n = np.arange(N)
    xk = 2 * np.pi * (n - M)[:, None] / N
    if not negative:
        kmax = int(M) if N % 2 else N // 2 - 1
        k = np.arange(1, kmax + 1)
        h = A[0] + 2.0 * np.sum(A[k][None, :] * np.cos(xk * k[None, :]), axis=1)
    else:
        kmax = int(M) if N % 2 else N // 2 - 1
        k = np.arange(1, kmax + 1)
        # Antisymmetric taps run from +lobe to -lobe: h[n] = -(2/N) sum_k A_k sin(k x_n).
        h = -2.0 * np.sum(A[k][None, :] * np.sin(xk * k[None, :]), axis=1)
        if N % 2 == 0:
            h = h - A[N // 2] * np.sin(np.pi * (n - M))
    return h / N


firwin = host_function(_firwin)
firwin2 = host_function(_firwin2)
firls = host_function(_firls)
remez = host_function(_remez)
firwin.__doc__ = "scipy.signal.firwin: a linear-phase FIR filter by the window method."
firwin2.__doc__ = "scipy.signal.firwin2: a FIR filter by frequency sampling of a piecewise-linear gain."
firls.__doc__ = "scipy.signal.firls: the least-squares linear-phase FIR filter for a band specification."
remez.__doc__ = "scipy.signal.remez: the minimax (Parks-McClellan) FIR filter for a band specification."

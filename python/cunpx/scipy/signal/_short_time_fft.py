"""scipy.signal.ShortTimeFFT for cunp: the short-time Fourier transform class of SciPy
1.12+ (stft, stft_detrend, spectrogram, istft and the bookkeeping properties: k_min,
p_min, p_max, lower_border_end, upper_border_begin, t, f, extent, ...).

The window and its dual live on the device (properties ``win``, ``dual_win``); the
bookkeeping (which slices touch the signal) is integer arithmetic on a host copy of the
window. stft frames the padded signal as one strided view and transforms every slice
in one batched FFT; istft overlap-adds all slices in ceil(m_num / hop) passes (Note
[Strided segments] in _spectral.py).

Differs from SciPy: the transform keeps the signal's precision (complex64 for float32
input and window; SciPy always computes complex128).
"""
from functools import cached_property

import numpy as np

import cunp
from cunpx.scipy.signal._spectral import _as_cunp, _detrend_last, _overlap_add, _segments
from cunpx.scipy.signal._windows import get_window

__all__ = ["ShortTimeFFT", "closest_STFT_dual_window"]

_FFT_MODES = ("twosided", "centered", "onesided", "onesided2X")
_PAD_TYPES = ("zeros", "edge", "even", "odd")


def _host(x):
    return x.get() if isinstance(x, cunp.ndarray) else np.asarray(x)


def _dual_canonical_host(win, hop):
    if hop > len(win):
        raise ValueError(f"hop={hop!r} is larger than window length of {len(win)} => STFT not invertible!")
    if issubclass(win.dtype.type, np.integer):
        raise ValueError("Parameter 'win' cannot be of integer type, but "
                         f"win.dtype={win.dtype!r} => STFT not invertible!")
    w2 = win.real ** 2 + win.imag ** 2
    DD = w2.copy()
    for k in range(hop, len(win), hop):
        DD[k:] += w2[:-k]
        DD[:-k] += w2[k:]
    if not np.all(DD >= np.finfo(win.dtype).resolution * max(DD)):
        raise ValueError("Short-time Fourier Transform not invertible!")
    return win / DD


def closest_STFT_dual_window(win, hop, desired_dual=None, *, scaled=True):
    """scipy.signal.closest_STFT_dual_window: the dual window nearest desired_dual (ones
    by default) and its scale factor."""
    dev = win.device if isinstance(win, cunp.ndarray) else None
    win = _host(win)
    desired_dual = np.ones_like(win) if desired_dual is None else _host(desired_dual)
    if not (win.ndim == 1 and win.shape == desired_dual.shape):
        raise ValueError("Parameters `win` and `desired_dual` are not 1d arrays of equal length "
                         f"(win.shape={win.shape!r}, desired_dual.shape={desired_dual.shape!r})!")
    if not all(np.isfinite(win)):
        raise ValueError("Parameter win must have finite entries!")
    if not all(np.isfinite(desired_dual)):
        raise ValueError("Parameter desired_dual must have finite entries!")
    if not (isinstance(hop, (int, np.integer)) and 1 <= hop <= len(win)):
        raise ValueError(f"Parameter hop={hop!r} is not an integer between 1 and len(win)={len(win)!r}!")
    w_d = _dual_canonical_host(win, hop)
    wdd = win.conjugate() * desired_dual
    q_d = wdd.copy()
    for k in range(hop, len(win), hop):
        q_d[k:] += wdd[:-k]
        q_d[:-k] += wdd[k:]
    q_d = w_d * q_d
    if not scaled:
        return cunp.asarray(w_d + desired_dual - q_d, device=dev), 1.0
    numerator = q_d.conjugate().T @ w_d
    denominator = q_d.T.real @ q_d.real + q_d.T.imag @ q_d.imag
    if not (abs(numerator) > 0 and denominator > np.finfo(w_d.dtype).resolution):
        raise ValueError("Unable to calculate scaled closest dual window due to numerically unstable scaling "
                         "factor! Try setting parameter `scaled` to False.")
    alpha = numerator / denominator
    return cunp.asarray(w_d + alpha * (desired_dual - q_d), device=dev), alpha


class ShortTimeFFT:
    """scipy.signal.ShortTimeFFT on cunp arrays: win (1-d), hop (samples between
    slices), fs; fft_mode 'twosided', 'centered', 'onesided' or 'onesided2X'; mfft (the
    FFT length, default len(win)); dual_win; scale_to 'magnitude' or 'psd';
    phase_shift (samples, or None)."""

    def __init__(self, win, hop, fs, *, fft_mode="onesided", mfft=None, dual_win=None, scale_to=None,
                 phase_shift=0):
        self._device = win.device if isinstance(win, cunp.ndarray) else None
        w = _host(win)
        if not (w.ndim == 1 and w.size > 0):
            raise ValueError(f"Parameter win must be 1d, but win.shape={w.shape!r}!")
        if not all(np.isfinite(w)):
            raise ValueError("Parameter win must have finite entries!")
        if not (isinstance(hop, (int, np.integer)) and hop >= 1):
            raise ValueError(f"Parameter hop={hop!r} is not an integer >= 1!")
        self._win_h, self._hop = w, int(hop)
        self._win = None
        self.fs = fs
        self._scaling = None
        self._fac_mag = self._fac_psd = None
        self._lower_border_end = None
        self._cache_post_padding = (-1, (0, 0))
        self._cache_upper_border_begin = (-1, (0, 0))
        self.mfft = len(w) if mfft is None else mfft
        self._dual_h = None
        self._dual = None
        if dual_win is not None:
            d = _host(dual_win)
            if d.shape != w.shape:
                raise ValueError(f"dual_win.shape={d.shape!r} must equal win.shape={w.shape!r}!")
            if not all(np.isfinite(d)):
                raise ValueError("Parameter dual_win must be a finite array!")
            self._dual_h = d
        self._fft_mode = "onesided"
        if scale_to is not None:
            self.scale_to(scale_to)
        self.fft_mode, self.phase_shift = fft_mode, phase_shift

    # ---- construction helpers
    @classmethod
    def from_dual(cls, dual_win, hop, fs, *, fft_mode="onesided", mfft=None, scale_to=None, phase_shift=0):
        """A ShortTimeFFT whose window is the canonical dual of `dual_win`."""
        win = _dual_canonical_host(_host(dual_win), hop)
        return cls(win=cunp.asarray(win), hop=hop, fs=fs, fft_mode=fft_mode, mfft=mfft, dual_win=dual_win,
                   scale_to=scale_to, phase_shift=phase_shift)

    @classmethod
    def from_window(cls, win_param, fs, nperseg, noverlap, *, symmetric_win=False, fft_mode="onesided", mfft=None,
                    scale_to=None, phase_shift=0):
        """A ShortTimeFFT of get_window(win_param, nperseg) with hop nperseg - noverlap."""
        win = get_window(win_param, nperseg, fftbins=not symmetric_win)
        return cls(win, hop=nperseg - noverlap, fs=fs, fft_mode=fft_mode, mfft=mfft, scale_to=scale_to,
                   phase_shift=phase_shift)

    @classmethod
    def from_win_equals_dual(cls, desired_win, hop, fs, *, fft_mode="onesided", mfft=None, scale_to=None,
                             phase_shift=0):
        """A ShortTimeFFT whose window equals its dual, closest to desired_win."""
        d = _host(desired_win)
        if not (d.ndim == 1 and d.size > 0):
            raise ValueError(f"Parameter desired_win is not 1d, but desired_win.shape={d.shape!r}!")
        if issubclass(d.dtype.type, np.integer):
            raise ValueError("Parameter desired_win cannot be of integer type, but "
                             f"desired_win.dtype={d.dtype!r} => cast to float | complex ")
        if not all(np.isfinite(d)):
            raise ValueError("Parameter desired_win must have finite entries!")
        if not (isinstance(hop, (int, np.integer)) and 1 <= hop <= len(d)):
            raise ValueError(f"Parameter hop={hop!r} is not an integer between 1 and len(desired_win)={len(d)!r}!")
        if scale_to not in ["magnitude", "psd", "unitary", None]:
            raise ValueError(f"Parameter scale_to={scale_to!r} not in ['magnitude', 'psd', 'unitary', None]!")
        mfft = len(d) if mfft is None else mfft
        s_fac = np.sqrt(mfft) if scale_to == "unitary" else 1
        win = d.copy()
        resolution = np.finfo(win.dtype).resolution * max(win)
        for m in range(hop):
            a = np.linalg.norm(d[m::hop])
            if not a > resolution:
                raise ValueError(f"Parameter desired_win does not have valid STFT dual window for hop={hop!r}!")
            win[m::hop] /= a
        SFT = cls(win=cunp.asarray(win / s_fac), hop=hop, fs=fs, fft_mode=fft_mode, mfft=mfft,
                  dual_win=win * s_fac, phase_shift=phase_shift, scale_to=None if scale_to == "unitary" else scale_to)
        if scale_to == "unitary":
            SFT._scaling = scale_to
        return SFT

    # ---- parameters
    @property
    def win(self):
        """The window (a cunp array on the device)."""
        if self._win is None:
            self._win = cunp.asarray(self._win_h, device=self._device)
        return self._win

    @property
    def hop(self):
        return self._hop

    @property
    def T(self):
        return 1 / self._fs

    @T.setter
    def T(self, v):
        if not v > 0:
            raise ValueError(f"Sampling interval T={v} must be positive!")
        self._fs = 1 / v

    @property
    def fs(self):
        return self._fs

    @fs.setter
    def fs(self, v):
        if not v > 0:
            raise ValueError(f"Sampling frequency fs={v} must be positive!")
        self._fs = v

    @property
    def fft_mode(self):
        return self._fft_mode

    @fft_mode.setter
    def fft_mode(self, t):
        if t not in _FFT_MODES:
            raise ValueError(f"fft_mode='{t}' not in {_FFT_MODES}!")
        if t in {"onesided", "onesided2X"} and np.iscomplexobj(self._win_h):
            raise ValueError(f"One-sided spectra, i.e., fft_mode='{t}', are not allowed for complex-valued "
                             "windows!")
        if t == "onesided2X" and self.scaling is None:
            raise ValueError(f"For scaling is None, fft_mode='{t}' is invalid!Do scale_to('psd') or "
                             "scale_to('magnitude')!")
        self._fft_mode = t

    @property
    def mfft(self):
        return self._mfft

    @mfft.setter
    def mfft(self, n_):
        if not n_ >= self.m_num:
            raise ValueError(f"Attribute mfft={n_} needs to be at least the window length m_num={self.m_num}!")
        self._mfft = n_

    @property
    def scaling(self):
        return self._scaling

    def scale_to(self, scaling):
        """Scales the window (and its dual) so that the spectrum is 'magnitude' or 'psd'."""
        if scaling not in {"magnitude", "psd"}:
            raise ValueError(f"scaling={scaling!r} not in {{'magnitude', 'psd'}}!")
        if self._scaling == scaling:
            return
        s_fac = self.fac_psd if scaling == "psd" else self.fac_magnitude
        self._win_h = self._win_h * s_fac
        self._win = None
        if self._dual_h is not None:
            self._dual_h = self._dual_h / s_fac
            self._dual = None
        self._fac_mag, self._fac_psd = None, None
        self._scaling = scaling

    @property
    def phase_shift(self):
        return self._phase_shift

    @phase_shift.setter
    def phase_shift(self, v):
        if v is None:
            self._phase_shift = v
            return
        if not isinstance(v, (int, np.integer)):
            raise ValueError(f"phase_shift={v} has the unit samples. Hence it needs to be an int or it may be None!")
        if not -self.mfft < v < self.mfft:
            raise ValueError(f"-mfft < phase_shift < mfft does not hold for mfft={self.mfft}, phase_shift={v}!")
        self._phase_shift = v

    # ---- the transform
    def _padded(self, x, k_off, p0, p1, padding):
        """The signal stretch the slices p0..p1 cover, padded past the ends."""
        if padding not in _PAD_TYPES:
            raise ValueError(f"Parameter padding={padding!r} not in {_PAD_TYPES}!")
        n, n1 = x.shape[-1], (p1 - p0) * self.hop
        k0 = p0 * self.hop - self.m_num_mid + k_off
        k1 = k0 + n1 + self.m_num
        i0, i1 = max(k0, 0), min(k1, n)
        before, after = -min(k0, 0), max(k1 - n, 0)
        part = x[..., i0:i1]
        if before == 0 and after == 0:
            return part
        width = [(0, 0)] * (x.ndim - 1) + [(before, after)]
        if padding == "zeros":
            return cunp.pad(part, width, mode="constant")
        if padding == "edge":
            return cunp.pad(part, width, mode="edge")
        if padding == "even":
            return cunp.pad(part, width, mode="reflect")
        m = part.shape[-1]
        if before <= m - 1 and after <= m - 1:
            even = cunp.pad(part, width, mode="reflect")
            left = 2 * part[..., :1] - even[..., :before]
            right = 2 * part[..., -1:] - even[..., even.shape[-1] - after:]
            return cunp.concatenate((left, part, right), axis=-1)
        # Reflections beyond one period: NumPy's odd reflection on the host.
        return cunp.asarray(np.pad(part.get(), width, mode="reflect", reflect_type="odd"), device=x.device)

    def _fft_func(self, x):
        if self.phase_shift is not None:
            if x.shape[-1] < self.mfft:
                x = cunp.concatenate((x, cunp.zeros(x.shape[:-1] + (self.mfft - x.shape[-1],), dtype=x.dtype,
                                                    device=x.device)), axis=-1)
            p_s = (self.phase_shift + self.m_num_mid) % self.m_num
            x = cunp.roll(x, -p_s, axis=-1)
        if self.fft_mode == "twosided":
            return cunp.fft.fft(x, n=self.mfft, axis=-1)
        if self.fft_mode == "centered":
            return cunp.fft.fftshift(cunp.fft.fft(x, self.mfft, axis=-1), axes=-1)
        X = cunp.fft.rfft(x, n=self.mfft, axis=-1)
        if self.fft_mode == "onesided2X":
            fac = np.sqrt(2) if self.scaling == "psd" else 2
            X[..., 1:-1 if self.mfft % 2 == 0 else None] *= fac
        return X

    def _ifft_func(self, X):
        if self.fft_mode == "twosided":
            x = cunp.fft.ifft(X, n=self.mfft, axis=-1)
        elif self.fft_mode == "centered":
            x = cunp.fft.ifft(cunp.fft.ifftshift(X, axes=-1), n=self.mfft, axis=-1)
        elif self.fft_mode == "onesided":
            x = cunp.fft.irfft(X, n=self.mfft, axis=-1)
        else:
            Xc = X.copy()
            fac = np.sqrt(2) if self.scaling == "psd" else 2
            Xc[..., 1:-1 if self.mfft % 2 == 0 else None] /= fac
            x = cunp.fft.irfft(Xc, n=self.mfft, axis=-1)
        if self.phase_shift is None:
            return x[..., :self.m_num]
        p_s = (self.phase_shift + self.m_num_mid) % self.m_num
        return cunp.roll(x, p_s, axis=-1)[..., :self.m_num]

    def stft(self, x, p0=None, p1=None, *, k_offset=0, padding="zeros", axis=-1):
        """The STFT of x along `axis`: slices p0..p1 (default all that touch the signal),
        frequencies on the second to last axis of the result and slices on the last."""
        return self.stft_detrend(x, None, p0, p1, k_offset=k_offset, padding=padding, axis=axis)

    def stft_detrend(self, x, detr, p0=None, p1=None, *, k_offset=0, padding="zeros", axis=-1):
        """stft with each slice detrended first ('constant', 'linear' or a function)."""
        x = _as_cunp(x, self._device)
        if self.onesided_fft and x.dtype.kind == "c":
            raise ValueError(f"Complex-valued `x` not allowed for self.fft_mode={self.fft_mode!r}'! Set property "
                             "`fft_mode` to 'twosided' or 'centered'.")
        if isinstance(detr, str):
            kind = detr
            detr = lambda d: _detrend_last(d, kind)  # noqa: E731
        elif not (detr is None or callable(detr)):
            raise ValueError(f"Parameter detr={detr!r} is not a str, function or None!")
        n = x.shape[axis]
        m2p = self.m_num - self.m_num_mid
        if not n >= m2p:
            e_str = f"len(x)={n!r}" if x.ndim == 1 else f"of axis={axis!r} of {x.shape}"
            raise ValueError(f"{e_str} must be >= ceil(m_num/2) = {m2p}!")
        if x.ndim > 1:
            x = cunp.moveaxis(x, axis, -1)
        p0, p1 = self.p_range(n, p0, p1)
        x1 = self._padded(x, k_offset, p0, p1, padding)
        seg = _segments(x1, self.m_num, self.hop)[..., :p1 - p0, :]
        if detr is not None:
            seg = detr(seg)
        w = self.win
        if w.dtype.kind == "c":
            w = cunp.conj(w)
        elif seg.dtype in (np.float32, np.complex64):
            w = w.astype(np.float32)
        S = self._fft_func(seg * w)
        S = cunp.swapaxes(S, -1, -2)
        if x.ndim > 1:
            return cunp.moveaxis(S, -2, axis if axis >= 0 else axis - 1)
        return S

    def spectrogram(self, x, y=None, detr=None, *, p0=None, p1=None, k_offset=0, padding="zeros", axis=-1):
        """|STFT(x)|^2, or STFT(x) conj(STFT(y)) (the cross spectrogram)."""
        Sx = self.stft_detrend(x, detr, p0, p1, k_offset=k_offset, padding=padding, axis=axis)
        if y is None or y is x:
            return cunp.real(Sx) ** 2 + cunp.imag(Sx) ** 2
        Sy = self.stft_detrend(y, detr, p0, p1, k_offset=k_offset, padding=padding, axis=axis)
        return Sx * cunp.conj(Sy)

    @property
    def dual_win(self):
        """The canonical dual window (a cunp array), computed on first use."""
        if self._dual_h is None:
            self._dual_h = _dual_canonical_host(self._win_h, self.hop)
        if self._dual is None:
            self._dual = cunp.asarray(self._dual_h, device=self._device)
        return self._dual

    @property
    def invertible(self):
        try:
            return len(self.dual_win) > 0
        except ValueError:
            return False

    def istft(self, S, k0=0, k1=None, *, f_axis=-2, t_axis=-1):
        """The inverse STFT: samples k0..k1 of the signal from its slices (the dual window
        weights each inverse FFT before the overlap-add)."""
        S = _as_cunp(S, self._device)
        if f_axis == t_axis:
            raise ValueError(f"f_axis={f_axis!r} may not be equal to t_axis={t_axis!r}!")
        if S.shape[f_axis] != self.f_pts:
            raise ValueError(f"S.shape[f_axis]={S.shape[f_axis]!r} must be equal to self.f_pts={self.f_pts!r} "
                             f"(S.shape={S.shape!r})!")
        n_min = self.m_num - self.m_num_mid
        q_num = self.p_num(n_min)
        if not S.shape[t_axis] >= q_num:
            raise ValueError(f"S.shape[t_axis]={S.shape[t_axis]!r} needs to have at least {q_num} slices "
                             f"(S.shape={S.shape!r})!")
        if t_axis != S.ndim - 1 or f_axis != S.ndim - 2:
            t_axis = S.ndim + t_axis if t_axis < 0 else t_axis
            f_axis = S.ndim + f_axis if f_axis < 0 else f_axis
            S = cunp.moveaxis(S, (f_axis, t_axis), (-2, -1))
        q_max = S.shape[-1] + self.p_min
        k_max = (q_max - 1) * self.hop + self.m_num - self.m_num_mid
        k1 = k_max if k1 is None else k1
        if not self.k_min <= k0 < k1 <= k_max:
            raise ValueError(f"(self.k_min={self.k_min!r}) <= (k0={k0!r}) < (k1={k1!r}) <= (k_max={k_max!r}) "
                             "is false!")
        num_pts = k1 - k0
        if not num_pts >= n_min:
            raise ValueError(f"(k1={k1!r}) - (k0={k0!r}) = {num_pts} has to be at least the half the window "
                             f"length {n_min}!")
        q0 = k0 // self.hop + self.p_min if k0 >= 0 else k0 // self.hop
        q1 = min(self.p_max(k1), q_max)
        k_q0, k_q1 = self.nearest_k_p(k0), self.nearest_k_p(k1, left=False)
        n_pts = k_q1 - k_q0 + self.m_num - self.m_num_mid
        frames = self._ifft_func(cunp.swapaxes(S[..., :, q0 - self.p_min:q1 - self.p_min], -1, -2))
        frames = frames * self.dual_win
        if self.onesided_fft:
            frames = cunp.real(frames)
        # Slice q starts at q*hop - m_num_mid; the output covers [k0, k0 + n_pts).
        start = q0 * self.hop - self.m_num_mid
        span = (q1 - q0 - 1) * self.hop + self.m_num
        acc = _overlap_add(frames, self.hop, span)
        x = cunp.zeros(S.shape[:-2] + (n_pts,), dtype=frames.dtype, device=S.device)
        lo, hi = max(start, k0), min(start + span, k0 + n_pts)
        if hi > lo:
            x[..., lo - k0:hi - k0] = acc[..., lo - start:hi - start]
        x = x[..., :k1 - k0]
        if x.ndim > 1:
            x = cunp.moveaxis(x, -1, f_axis if f_axis < x.ndim else t_axis)
        return x

    # ---- scale factors and bookkeeping
    @property
    def fac_magnitude(self):
        if self.scaling == "magnitude":
            return 1
        if self._fac_mag is None:
            self._fac_mag = 1 / abs(sum(self._win_h))
        return self._fac_mag

    @property
    def fac_psd(self):
        if self.scaling == "psd":
            return 1
        if self._fac_psd is None:
            self._fac_psd = 1 / np.sqrt(sum(self._win_h.real ** 2 + self._win_h.imag ** 2) / self.T)
        return self._fac_psd

    @property
    def m_num(self):
        return len(self._win_h)

    @property
    def m_num_mid(self):
        return self.m_num // 2

    @cached_property
    def _pre_padding(self):
        w2 = self._win_h.real ** 2 + self._win_h.imag ** 2
        n0 = -self.m_num_mid
        for p_, n_ in enumerate(range(n0, n0 - self.m_num - 1, -self.hop)):
            n_next = n_ - self.hop
            if n_next + self.m_num <= 0 or all(w2[n_next:] == 0):
                return n_, -p_
        raise RuntimeError("This code line should never run! Please file a bug.")

    @property
    def k_min(self):
        return self._pre_padding[0]

    @property
    def p_min(self):
        return self._pre_padding[1]

    def _post_padding(self, n):
        m2p = self.m_num - self.m_num_mid
        if not n >= m2p:
            raise ValueError(f"Parameter n must be >= ceil(m_num/2) = {m2p}!")
        last_arg, last_value = self._cache_post_padding
        if n == last_arg:
            return last_value
        w2 = self._win_h.real ** 2 + self._win_h.imag ** 2
        q1 = n // self.hop
        k1 = q1 * self.hop - self.m_num_mid
        for q_, k_ in enumerate(range(k1, n + self.m_num, self.hop), start=q1):
            n_next = k_ + self.hop
            if n_next >= n or all(w2[:n - n_next] == 0):
                value = (k_ + self.m_num, q_ + 1)
                self._cache_post_padding = (n, value)
                return value
        raise RuntimeError("This code line should never run! Please file a bug.")

    def k_max(self, n):
        return self._post_padding(n)[0]

    def p_max(self, n):
        return self._post_padding(n)[1]

    def p_num(self, n):
        return self.p_max(n) - self.p_min

    @property
    def lower_border_end(self):
        if self._lower_border_end is not None:
            return self._lower_border_end
        m0 = np.flatnonzero(self._win_h.real ** 2 + self._win_h.imag ** 2)[0]
        k0 = -self.m_num_mid + m0
        for q_, k_ in enumerate(range(k0, self.hop + 1, self.hop)):
            if k_ + self.hop >= 0:
                self._lower_border_end = (k_ + self.m_num, q_ + 1)
                return self._lower_border_end
        self._lower_border_end = (0, max(self.p_min, 0))
        return self._lower_border_end

    def upper_border_begin(self, n):
        m2p = self.m_num - self.m_num_mid
        if not n >= m2p:
            raise ValueError(f"Parameter n must be >= ceil(m_num/2) = {m2p}!")
        last_arg, last_value = self._cache_upper_border_begin
        if n == last_arg:
            return last_value
        w2 = self._win_h.real ** 2 + self._win_h.imag ** 2
        q2 = n // self.hop + 1
        q1 = max((n - self.m_num) // self.hop - 1, -1)
        for q_ in range(q2, q1, -1):
            k_ = q_ * self.hop + (self.m_num - self.m_num_mid)
            if k_ <= n or all(w2[n - k_:] == 0):
                value = ((q_ + 1) * self.hop - self.m_num_mid, q_ + 1)
                self._cache_upper_border_begin = (n, value)
                return value
        raise RuntimeError("This code line should never run! Please file a bug.")

    @property
    def delta_t(self):
        return self.T * self.hop

    def p_range(self, n, p0=None, p1=None):
        p_max = self.p_max(n)
        p0_ = self.p_min if p0 is None else p0
        p1_ = p_max if p1 is None else p1
        if not self.p_min <= p0_ < p1_ <= p_max:
            raise ValueError(f"Invalid Parameter p0={p0!r}, p1={p1!r}, i.e., self.p_min={self.p_min!r} <= p0 < p1 "
                             f"<= p_max={p_max!r} does not hold for signal length n={n!r}!")
        return p0_, p1_

    def t(self, n, p0=None, p1=None, k_offset=0):
        """The times of the slices' centres for a signal of n samples."""
        if not (isinstance(n, (int, np.integer)) and n > 0):
            raise ValueError(f"Parameter n={n!r} is not a positive integer!")
        p0, p1 = self.p_range(n, p0, p1)
        return cunp.arange(p0, p1, device=self._device) * self.delta_t + k_offset * self.T

    def nearest_k_p(self, k, left=True):
        p_q, remainder = divmod(k, self.hop)
        if remainder == 0:
            return k
        return p_q * self.hop if left else (p_q + 1) * self.hop

    @property
    def delta_f(self):
        return 1 / (self.mfft * self.T)

    @property
    def f_pts(self):
        return self.mfft // 2 + 1 if self.onesided_fft else self.mfft

    @property
    def onesided_fft(self):
        return self.fft_mode in {"onesided", "onesided2X"}

    @property
    def f(self):
        """The frequencies of the STFT's rows (a cunp array)."""
        if self.fft_mode in {"onesided", "onesided2X"}:
            return cunp.fft.rfftfreq(self.mfft, self.T, device=self._device)
        if self.fft_mode == "twosided":
            return cunp.fft.fftfreq(self.mfft, self.T, device=self._device)
        return cunp.fft.fftshift(cunp.fft.fftfreq(self.mfft, self.T, device=self._device))

    def extent(self, n, axes_seq="tf", center_bins=False):
        """(t0, t1, f0, f1) of the STFT of n samples, for matplotlib's imshow."""
        if axes_seq not in ("tf", "ft"):
            raise ValueError(f"Parameter axes_seq={axes_seq!r} not in ['tf', 'ft']!")
        if self.onesided_fft:
            q0, q1 = 0, self.f_pts
        elif self.fft_mode == "centered":
            q0 = -(self.mfft // 2)
            q1 = self.mfft // 2 if self.mfft % 2 == 0 else self.mfft // 2 + 1
        else:
            raise ValueError(f"Attribute fft_mode={self.fft_mode} must be in ['centered', 'onesided', "
                             "'onesided2X']")
        p0, p1 = self.p_min, self.p_max(n)
        if center_bins:
            t0, t1 = self.delta_t * (p0 - 0.5), self.delta_t * (p1 - 0.5)
            f0, f1 = self.delta_f * (q0 - 0.5), self.delta_f * (q1 - 0.5)
        else:
            t0, t1 = self.delta_t * p0, self.delta_t * p1
            f0, f1 = self.delta_f * q0, self.delta_f * q1
        return (t0, t1, f0, f1) if axes_seq == "tf" else (f0, f1, t0, t1)

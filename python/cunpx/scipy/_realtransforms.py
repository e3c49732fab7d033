"""DCT and DST of types 1-4 (scipy.fft.dct/idct/dst/idst and their n-d forms) on cunp
arrays: each type is one complex FFT of an even or odd extension of the input (cuFFT on
CUDA devices), with SciPy's definitions and its "backward", "ortho" and "forward"
normalizations (orthogonalize=None means True for "ortho", as in SciPy)."""
import math

import numpy as _numpy

import cunp as _cunp

_SQRT2 = math.sqrt(2.0)


def _fit(x, n, axis):
    """x with `axis` last, cut or zero-padded to n."""
    x = _cunp.moveaxis(x, axis, -1)
    m = x.shape[-1]
    if n is None or n == m:
        return x, m
    if n < 1:
        raise ValueError("invalid number of data points (%d) specified" % n)
    if n < m:
        return x[..., :n], n
    pad = _cunp.zeros(x.shape[:-1] + (n - m,), dtype=x.dtype, device=x.device)
    return _cunp.concatenate([x, pad], axis=-1), n


def _spread(x, length, positions, signs=None):
    """An array of `length` on the last axis, x's samples at `positions` (signed)."""
    v = _cunp.zeros(x.shape[:-1] + (length,), dtype=x.dtype, device=x.device)
    v[..., positions] = x if signs is None else x * signs
    return v


def _dct_unnormalized(x, t):
    N = x.shape[-1]
    d = x.device
    if t == 1:
        if N < 2:
            raise ValueError("DCT-I is not defined for size < 2")
        ext = _cunp.concatenate([x, x[..., -2:0:-1]], axis=-1)
        return _cunp.real(_cunp.fft.fft(ext, axis=-1))[..., :N]
    if t == 2:
        n = _cunp.arange(N, device=d)
        v = _spread(x, 4 * N, 2 * n + 1)
        v[..., 4 * N - (2 * n + 1)] = x
        return _cunp.real(_cunp.fft.fft(v, axis=-1))[..., :N]
    if t == 3:
        w = x.copy()
        w[..., 1:] *= 2
        v = _spread(w, 4 * N, _cunp.arange(N, device=d))
        k = _cunp.arange(N, device=d)
        return _cunp.real(_cunp.fft.ifft(v, axis=-1) * (4 * N))[..., 2 * k + 1]
    if t == 4:
        n = _cunp.arange(N, device=d)
        v = _spread(x, 8 * N, 2 * n + 1)
        return 2 * _cunp.real(_cunp.fft.fft(v, axis=-1))[..., 2 * n + 1]
    raise ValueError("invalid DCT type %r: 1, 2, 3 or 4" % (t,))


def _dst_unnormalized(x, t):
    N = x.shape[-1]
    d = x.device
    if t == 1:
        zero = _cunp.zeros(x.shape[:-1] + (1,), dtype=x.dtype, device=d)
        ext = _cunp.concatenate([zero, x, zero, -x[..., ::-1]], axis=-1)
        return -_cunp.imag(_cunp.fft.fft(ext, axis=-1))[..., 1:N + 1]
    if t == 2:
        n = _cunp.arange(N, device=d)
        v = _spread(x, 4 * N, 2 * n + 1)
        v[..., 4 * N - (2 * n + 1)] = -x
        return -_cunp.imag(_cunp.fft.fft(v, axis=-1))[..., 1:N + 1]
    if t == 3:
        w = x * 2
        w[..., N - 1] = x[..., N - 1]
        v = _spread(w, 4 * N, _cunp.arange(1, N + 1, device=d))
        k = _cunp.arange(N, device=d)
        return _cunp.imag(_cunp.fft.ifft(v, axis=-1) * (4 * N))[..., 2 * k + 1]
    if t == 4:
        n = _cunp.arange(N, device=d)
        v = _spread(x, 8 * N, 2 * n + 1)
        return -2 * _cunp.imag(_cunp.fft.fft(v, axis=-1))[..., 2 * n + 1]
    raise ValueError("invalid DST type %r: 1, 2, 3 or 4" % (t,))


def _scale(N, t, kind):
    """The factor of the unnormalized transform's inverse (SciPy's "backward" inverse)."""
    if t == 1:
        return 2.0 * (N - 1) if kind == "dct" else 2.0 * (N + 1)
    return 2.0 * N


_INVERSE = {1: 1, 2: 3, 3: 2, 4: 4}


def _check_norm(norm):
    if norm not in (None, "backward", "ortho", "forward"):
        raise ValueError('Invalid norm value %r; should be "backward", "ortho" or "forward".' % (norm,))
    return "backward" if norm is None else norm


def _transform(x, t, n, axis, norm, orthogonalize, kind, inverse):
    norm = _check_norm(norm)
    x = _cunp.asarray(x)
    if x.dtype.kind == "c":
        # The real and imaginary parts separately. SciPy (1.17) applies orthogonalize to
        # complex input only as norm="ortho" implies it, whatever the argument says: so here.
        re = _transform(_cunp.real(x), t, n, axis, norm, None, kind, inverse)
        im = _transform(_cunp.imag(x), t, n, axis, norm, None, kind, inverse)
        return re + 1j * im
    if t not in (1, 2, 3, 4):
        raise ValueError("invalid %s type %r: 1, 2, 3 or 4" % (kind.upper(), t))
    if x.dtype.kind != "f" or x.dtype.itemsize < 4:
        x = x.astype(_numpy.float64)
    if x.ndim == 0:
        raise ValueError("input must not be 0-d")
    axis = int(axis)
    if not -x.ndim <= axis < x.ndim:
        raise _numpy.exceptions.AxisError(axis, x.ndim)
    y, N = _fit(x, n, axis)
    y = y.copy()
    tt = _INVERSE[t] if inverse else t
    ortho = norm == "ortho"
    orth = ortho if orthogonalize is None else bool(orthogonalize)
    # ortho pre-scaling of the input (the matrix made orthogonal, SciPy's orthogonalize)
    if orth:
        if kind == "dct" and tt == 1:
            y[..., 0] *= _SQRT2
            y[..., N - 1] *= _SQRT2
        elif kind == "dct" and tt == 3:
            y[..., 0] *= _SQRT2
        elif kind == "dst" and tt == 3:
            y[..., N - 1] *= _SQRT2
    r = _dct_unnormalized(y, tt) if kind == "dct" else _dst_unnormalized(y, tt)
    s = _scale(N, tt, kind)
    if ortho:
        r = r / math.sqrt(s)
    elif (norm == "backward") == inverse:  # backward inverse, or forward transform under "forward"
        r = r / s
    if orth:
        if kind == "dct" and tt == 1:
            r[..., 0] /= _SQRT2
            r[..., N - 1] /= _SQRT2
        elif kind == "dct" and tt == 2:
            r[..., 0] /= _SQRT2
        elif kind == "dst" and tt == 2:
            r[..., N - 1] /= _SQRT2
    r = r.astype(x.dtype, copy=False)
    return _cunp.moveaxis(r, -1, axis)


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    return _transform(x, type, n, axis, norm, orthogonalize, "dct", False)


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    return _transform(x, type, n, axis, norm, orthogonalize, "dct", True)


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    return _transform(x, type, n, axis, norm, orthogonalize, "dst", False)


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    return _transform(x, type, n, axis, norm, orthogonalize, "dst", True)


def _nd(one):
    def transform(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
        x = _cunp.asarray(x)
        if axes is None:
            axes = tuple(range(x.ndim)) if s is None else tuple(range(x.ndim - len(s), x.ndim))
        axes = (axes,) if isinstance(axes, int) else tuple(axes)
        sizes = [None] * len(axes) if s is None else list((s,) if isinstance(s, int) else s)
        if len(sizes) != len(axes):
            raise ValueError("when given, axes and shape arguments have to be of the same length")
        for ax, n in zip(axes, sizes):
            x = one(x, type=type, n=n, axis=ax, norm=norm, orthogonalize=orthogonalize)
        return x
    transform.__name__ = transform.__qualname__ = one.__name__ + "n"
    return transform


dctn, idctn, dstn, idstn = _nd(dct), _nd(idct), _nd(dst), _nd(idst)

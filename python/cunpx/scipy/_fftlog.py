"""scipy.fft.fht, ifht and fhtoffset: Hamilton's FFTLog, the fast Hankel transform of a
logarithmically spaced periodic sequence (A. J. S. Hamilton, "Uncorrelated modes of the
non-linear power spectrum", MNRAS 312, 2000, Appendix B).

The transform is a convolution in log space: with L = n·dln, the m-th Fourier
coefficient of the (biased) input is multiplied by

    u_m = exp(-2πi m/L · offset) · U_mu(q + 2πi m/L),
    U_mu(x) = 2^x Γ((mu + 1 + x)/2) / Γ((mu + 1 - x)/2),

and the output is the reversed inverse transform. The n/2 + 1 coefficients come from a
complex log-gamma evaluated on the host (NumPy, float64; small and computed once per
call); the transforms and products run on the array's device."""
import math

import numpy as _numpy

import cunp as _cunp

_LN2 = math.log(2.0)
# Stirling's series for log Γ: B_{2k} / (2k (2k - 1)).
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156)


def _loggamma(z):
    """Principal-branch log Γ of complex z (NumPy, float64) for Re z > -K: shifted up by
    the recurrence to Re z >= 16, then Stirling's series (relative error ~1e-16)."""
    z = _numpy.asarray(z, dtype=complex)
    shift = _numpy.zeros_like(z)
    w = z.copy()
    k = _numpy.maximum(_numpy.ceil(16 - w.real), 0).astype(int)
    for step in range(int(k.max()) if k.size else 0):
        active = step < k
        shift = _numpy.where(active, shift + _numpy.log(w), shift)
        w = _numpy.where(active, w + 1, w)
    r = 1 / w
    r2 = r * r
    series = _numpy.zeros_like(w)
    for c in reversed(_STIRLING):
        series = series * r2 + c
    return (w - 0.5) * _numpy.log(w) - w + 0.5 * math.log(2 * math.pi) + series * r - shift


def _coefficients(n, dln, mu, offset, bias):
    m = _numpy.arange(n // 2 + 1)
    y = _numpy.pi * m / (n * dln)  # = 2π m / (2L): the imaginary part of the Γ arguments
    xp, xm = (mu + 1 + bias) / 2, (mu + 1 - bias) / 2
    log_u = _LN2 * bias + 2j * y * (_LN2 - offset) + _loggamma(xp + 1j * y) - _loggamma(xm - 1j * y)
    u = _numpy.exp(log_u)
    if n % 2 == 0:
        u[-1] = u[-1].real  # the Nyquist coefficient of a real sequence is real
    return u


def _check(a, dln, mu):
    a = _cunp.asarray(a)
    if a.dtype.kind == "c":
        raise TypeError("fht: a must be real, got dtype %s" % a.dtype)
    if a.ndim == 0:
        raise ValueError("fht: a must have at least one dimension")
    return a if a.dtype.kind == "f" else a.astype(_numpy.float64)


def _transform(a, dln, mu, offset, bias, inverse):
    a = _check(a, dln, mu)
    n = a.shape[-1]
    if n == 0:
        return a.copy()
    j = _cunp.arange(n, dtype=_numpy.float64) - (n - 1) / 2
    # The forward transform is taken of a·r^-q and multiplies its result by k^-q (r, k the
    # log-centred grids, q the bias); the inverse undoes those factors in reverse order.
    in_scale = -bias * j * dln if not inverse else bias * (j * dln + offset)
    out_scale = -bias * (j * dln + offset) if not inverse else bias * j * dln
    if bias != 0:
        a = a * _cunp.exp(in_scale).astype(a.dtype)
    u = _coefficients(n, dln, mu, offset, bias)
    # The output is reversed, so the inverse divides by the conjugate coefficients.
    u = 1 / u.conj() if inverse else u
    if not _numpy.all(_numpy.isfinite(u)):
        u = _numpy.where(_numpy.isfinite(u), u, 0)
    coeff = _cunp.asarray(u.astype(_numpy.complex64 if a.dtype == _numpy.float32 else _numpy.complex128))
    spectrum = _cunp.fft.rfft(a, axis=-1)
    out = _cunp.fft.irfft(spectrum * coeff, n, axis=-1)[..., ::-1]
    if bias != 0:
        out = out * _cunp.exp(out_scale).astype(out.dtype)
    return out.astype(a.dtype, copy=False)


def fht(a, dln, mu, offset=0.0, bias=0.0):
    """scipy.fft.fht: the fast Hankel transform of the log-spaced sequence `a` along its
    last axis (order `mu`, log spacing `dln`, log offset `offset`, power-law `bias`)."""
    return _transform(a, float(dln), float(mu), float(offset), float(bias), inverse=False)


def ifht(A, dln, mu, offset=0.0, bias=0.0):
    """scipy.fft.ifht: the inverse of fht with the same parameters."""
    return _transform(A, float(dln), float(mu), float(offset), float(bias), inverse=True)


def fhtoffset(dln, mu, initial=0.0, bias=0.0):
    """scipy.fft.fhtoffset: the offset nearest `initial` for which the transform of a
    sequence has low ringing (the coefficient at the Nyquist mode is real)."""
    dln, mu, initial, bias = float(dln), float(mu), float(initial), float(bias)
    y = math.pi / (2 * dln)
    zp = _loggamma((mu + 1 + bias) / 2 + 1j * y)
    zm = _loggamma((mu + 1 - bias) / 2 + 1j * y)
    arg = (_LN2 - initial) / dln + (zp.imag + zm.imag) / math.pi
    return initial + (arg - round(arg)) * dln

"""The transfer-function forms of scipy.signal for cunp and the moves between them:
tf2zpk, zpk2tf, tf2sos, sos2tf, zpk2sos (SciPy's section pairing), sos2zpk, normalize,
and the frequency transformations lp2lp, lp2hp, lp2bp, lp2bs and bilinear with their
_zpk forms.

Computed on the host with NumPy (_host.py says why) and returned as cunp arrays on the
current device (or that of a cunp argument); gains stay floats.
"""
import warnings
from math import comb

import numpy as np

from cunpx.scipy.signal._host import host_function, validate_fs

__all__ = [
    "normalize", "tf2zpk", "zpk2tf", "zpk2sos", "sos2zpk", "lp2lp_zpk", "lp2hp_zpk", "sos2tf", "tf2sos",
    "lp2bp_zpk", "lp2bs_zpk", "bilinear_zpk", "lp2lp", "lp2hp", "lp2bp", "lp2bs", "bilinear", "BadCoefficients",
]


class BadCoefficients(UserWarning):
    """Warning about badly conditioned filter coefficients (scipy.signal.BadCoefficients)."""


# ---- polynomials and forms ----------------------------------------------------------

def _roots(c):
    c = np.atleast_1d(c)
    return np.roots(c) if c.shape[0] >= 2 else np.array([], dtype=c.dtype)


def _poly(zeros):
    """The monic polynomial of `zeros`, real when they come in conjugate pairs."""
    zeros = np.atleast_1d(np.asarray(zeros))
    if zeros.shape[0] == 0:
        return np.asarray(1.0, dtype=np.real(zeros).dtype)
    a = np.ones((1,), dtype=zeros.dtype)
    for z in zeros:
        a = np.convolve(a, np.array([1, -z], dtype=zeros.dtype))
    if np.iscomplexobj(a):
        roots = np.asarray(zeros, dtype=complex)
        if np.all(np.sort(roots.imag) == np.sort(roots.conj().imag)):
            a = a.real.copy()
    return a


def _trim_front(v):
    nz = np.flatnonzero(v != 0)
    return v[nz[0]:] if nz.size else v[:0]


def _align_nums(nums):
    try:
        nums = np.asarray(nums)
        if not np.issubdtype(nums.dtype, np.number):
            raise ValueError("dtype of numerator is non-numeric")
        return nums
    except ValueError:
        nums = [np.atleast_1d(np.asarray(n)) for n in nums]
        width = max(n.size for n in nums)
        out = np.zeros((len(nums), width))
        for i, n in enumerate(nums):
            out[i, -n.size:] = n
        return out


def _normalize(b, a):
    den = np.atleast_1d(np.asarray(a))
    num = np.atleast_2d(_align_nums(b))
    if den.ndim != 1:
        raise ValueError("Denominator polynomial must be rank-1 array.")
    if num.ndim > 2:
        raise ValueError("Numerator polynomial must be rank-1 or rank-2 array.")
    if np.all(den == 0):
        raise ValueError("Denominator must have at least on nonzero element.")
    den = _trim_front(den)
    num, den = num / den[0], den / den[0]
    leading = 0
    for j in range(num.shape[-1]):
        if np.all(np.abs(num[:, j]) <= 1e-14):
            leading += 1
        else:
            break
    if leading > 0:
        warnings.warn("Badly conditioned filter coefficients (numerator): the results may be meaningless",
                      BadCoefficients, stacklevel=3)
        if leading == num.shape[1]:
            leading -= 1
        num = num[:, leading:]
    if num.shape[0] == 1:
        num = num[0, :]
    return num, den


def _tf2zpk(b, a):
    b, a = _normalize(b, a)
    dt = np.result_type(a, b, np.float64)
    b, a = b.astype(dt), a.astype(dt)
    k = b[0]
    b = b / b[0]
    return _roots(b), _roots(a), k


def _zpk2tf(z, p, k):
    z, p = np.asarray(z), np.asarray(p)
    k = np.asarray(k, dtype=np.result_type(np.real(z), np.real(p), k))
    if np.issubdtype(k.dtype, np.integer):
        k = k.astype(np.float64)
    z = np.atleast_1d(z)
    k = np.atleast_1d(k)
    if z.ndim > 1:
        temp = _poly(z[0])
        b = np.empty((z.shape[0], z.shape[1] + 1), dtype=temp.dtype)
        ks = [k[0]] * z.shape[0] if k.shape[0] == 1 else k
        for i in range(z.shape[0]):
            b[i] = np.asarray(ks[i], dtype=b.dtype) * _poly(z[i])
    else:
        b = np.multiply(k, _poly(z))
    return b, np.atleast_1d(_poly(p))


def _cplxreal(z, tol=None):
    """z split into the complex values with positive imaginary part (one of each
    conjugate pair, ordered by real part) and the real values; ValueError when a
    complex value has no conjugate."""
    z = np.atleast_1d(z)
    if z.size == 0:
        return z, z
    if z.ndim != 1:
        raise ValueError("_cplxreal only accepts 1-D input")
    if tol is None:
        tol = 100 * np.finfo((1.0 * z).dtype).eps
    z = z[np.lexsort((abs(z.imag), z.real))]
    real = abs(z.imag) <= tol * abs(z)
    zr = z[real].real
    if len(zr) == len(z):
        return np.array([]), zr
    z = z[~real]
    zp, zn = z[z.imag > 0], z[z.imag < 0]
    if len(zp) != len(zn):
        raise ValueError("Array contains complex value with no matching conjugate.")
    same_real = np.diff(zp.real) <= tol * abs(zp[:-1])
    diffs = np.diff(np.concatenate(([0], same_real, [0])))
    for start, stop in zip(np.nonzero(diffs > 0)[0], np.nonzero(diffs < 0)[0] + 1):
        for chunk in (zp[start:stop], zn[start:stop]):
            chunk[...] = chunk[np.lexsort([abs(chunk.imag)])]
    if any(abs(zp - zn.conj()) > tol * abs(zn)):
        raise ValueError("Array contains complex value with no matching conjugate.")
    return (zp + zn.conj()) / 2, zr


def _nearest(fro, to, which):
    order = np.argsort(np.abs(fro - to))
    if which == "any":
        return order[0]
    mask = np.isreal(fro[order])
    if which == "complex":
        mask = ~mask
    return order[np.nonzero(mask)[0][0]]


def _single_section(z, p):
    sos = np.zeros(6)
    b, a = _zpk2tf(z, p, 1)
    sos[3 - len(b):3] = b
    sos[6 - len(a):6] = a
    return sos


# Note [Section pairing]: zpk2sos follows SciPy's algorithm so that the sections come out
# in the same order: poles are taken worst first (closest to the unit circle, or to the
# imaginary axis for analog filters), each paired with its conjugate (or the next worst
# real pole) and with the zeros nearest to it; the last section built is the first row,
# which carries the gain.
def _zpk2sos(z, p, k, pairing=None, *, analog=False):
    z, p, k = np.asarray(z), np.asarray(p), np.asarray(k)
    if pairing is None:
        pairing = "minimal" if analog else "nearest"
    valid = ["nearest", "keep_odd", "minimal"]
    if pairing not in valid:
        raise ValueError(f"pairing must be one of {valid}, not {pairing}")
    if analog and pairing != "minimal":
        raise ValueError('for analog zpk2sos conversion, pairing must be "minimal"')
    if len(z) == len(p) == 0:
        row = [0.0, 0.0, k, 0.0, 0.0, 1.0] if analog else [k, 0.0, 0.0, 1.0, 0.0, 0.0]
        return np.asarray([row], dtype=np.float64)
    if pairing != "minimal":
        p = np.concatenate((p, np.zeros(max(len(z) - len(p), 0))))
        z = np.concatenate((z, np.zeros(max(len(p) - len(z), 0))))
        n_sections = (max(len(p), len(z)) + 1) // 2
        if len(p) % 2 == 1 and pairing == "nearest":
            p = np.concatenate((p, [0.0]))
            z = np.concatenate((z, [0.0]))
    else:
        if len(p) < len(z):
            raise ValueError("for analog zpk2sos conversion, must have len(p)>=len(z)")
        n_sections = (len(p) + 1) // 2
    z = np.concatenate(_cplxreal(z))
    p = np.concatenate(_cplxreal(p))
    if not np.isreal(k):
        raise ValueError("k must be real")
    k = k.real

    def worst(v):
        return np.argmin(np.abs(np.real(v))) if analog else np.argmin(np.abs(1 - np.abs(v)))

    sos = np.zeros((n_sections, 6))
    for si in range(n_sections - 1, -1, -1):
        i1 = worst(p)
        p1 = p[i1]
        p = np.delete(p, i1)
        if np.isreal(p1) and np.isreal(p).sum() == 0:
            if pairing != "minimal":
                j = _nearest(z, p1, "real")
                z1 = z[j]
                z = np.delete(z, j)
                sos[si] = _single_section([z1, 0], [p1, 0])
            elif len(z) > 0:
                j = _nearest(z, p1, "real")
                z1 = z[j]
                z = np.delete(z, j)
                sos[si] = _single_section([z1], [p1])
            else:
                sos[si] = _single_section([], [p1])
        elif (len(p) + 1 == len(z) and not np.isreal(p1) and np.isreal(p).sum() == 1
              and np.isreal(z).sum() == 1):
            j = _nearest(z, p1, "complex")
            z1 = z[j]
            z = np.delete(z, j)
            sos[si] = _single_section([z1, z1.conj()], [p1, p1.conj()])
        else:
            if np.isreal(p1):
                real_idx = np.flatnonzero(np.isreal(p))
                i2 = real_idx[worst(p[real_idx])]
                p2 = p[i2]
                p = np.delete(p, i2)
            else:
                p2 = p1.conj()
            if len(z) > 0:
                j = _nearest(z, p1, "any")
                z1 = z[j]
                z = np.delete(z, j)
                if not np.isreal(z1):
                    sos[si] = _single_section([z1, z1.conj()], [p1, p2])
                elif len(z) > 0:
                    j2 = _nearest(z, p1, "real")
                    z2 = z[j2]
                    z = np.delete(z, j2)
                    sos[si] = _single_section([z1, z2], [p1, p2])
                else:
                    sos[si] = _single_section([z1], [p1, p2])
            else:
                sos[si] = _single_section([], [p1, p2])
    sos[0][:3] *= k
    return sos


def _validate_sos(sos):
    sos = np.atleast_2d(np.asarray(sos))
    if sos.ndim != 2:
        raise ValueError("sos array must be 2D")
    n_sections, m = sos.shape
    if m != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if not np.all(sos[:, 3] == 1):
        raise ValueError("sos[:, 3] should be all ones")
    return sos, n_sections


def _sos2tf(sos):
    sos = np.asarray(sos)
    dt = np.float64 if np.issubdtype(sos.dtype, np.integer) else sos.dtype
    b, a = np.array([1], dtype=dt), np.array([1], dtype=dt)
    for s in sos:
        b = np.convolve(_poly1d(b), _poly1d(s[:3]))
        a = np.convolve(_poly1d(a), _poly1d(s[3:]))
    return b, a


def _poly1d(c):
    c = _trim_front(np.atleast_1d(c))
    return c if c.shape[0] else np.zeros(1, dtype=c.dtype)


def _sos2zpk(sos):
    sos = np.asarray(sos)
    n = sos.shape[0]
    z = np.zeros(n * 2, dtype=np.complex128)
    p = np.zeros(n * 2, dtype=np.complex128)
    k = 1.0
    for i in range(n):
        zi, pi_, ki = _tf2zpk(sos[i, :3], sos[i, 3:])
        z[2 * i:2 * i + len(zi)] = zi
        p[2 * i:2 * i + len(pi_)] = pi_
        k *= ki
    return z, p, k


# ---- frequency transformations ------------------------------------------------------

def _relative_degree(z, p):
    degree = p.shape[0] - z.shape[0]
    if degree < 0:
        raise ValueError("Improper transfer function. Must have at least as many poles as zeros.")
    return degree


def _zp(z, p):
    return np.atleast_1d(np.asarray(z)), np.atleast_1d(np.asarray(p))


def _lp2lp_zpk(z, p, k, wo=1.0):
    z, p = _zp(z, p)
    wo = float(wo)
    degree = _relative_degree(z, p)
    return wo * z, wo * p, k * wo ** degree


def _lp2hp_zpk(z, p, k, wo=1.0):
    z, p = _zp(z, p)
    wo = float(wo)
    degree = _relative_degree(z, p)
    z_hp = np.concatenate((wo / z, np.zeros(degree)))
    return z_hp, wo / p, k * np.real(np.prod(-z) / np.prod(-p))


def _promote_float(z, p):
    dt = np.result_type(z, p, np.float64)
    return z.astype(dt), p.astype(dt)


def _lp2bp_zpk(z, p, k, wo=1.0, bw=1.0):
    z, p = _promote_float(*_zp(z, p))
    wo, bw = float(wo), float(bw)
    degree = _relative_degree(z, p)
    z_lp = (z * bw / 2).astype(np.complex128)
    p_lp = (p * bw / 2).astype(np.complex128)
    z_bp = np.concatenate((z_lp + np.sqrt(z_lp ** 2 - wo ** 2), z_lp - np.sqrt(z_lp ** 2 - wo ** 2)))
    p_bp = np.concatenate((p_lp + np.sqrt(p_lp ** 2 - wo ** 2), p_lp - np.sqrt(p_lp ** 2 - wo ** 2)))
    return np.concatenate((z_bp, np.zeros(degree))), p_bp, k * bw ** degree


def _lp2bs_zpk(z, p, k, wo=1.0, bw=1.0):
    z, p = _promote_float(*_zp(z, p))
    wo, bw = float(wo), float(bw)
    degree = _relative_degree(z, p)
    z_hp = (bw / 2 / z).astype(np.complex128)
    p_hp = (bw / 2 / p).astype(np.complex128)
    z_bs = np.concatenate((z_hp + np.sqrt(z_hp ** 2 - wo ** 2), z_hp - np.sqrt(z_hp ** 2 - wo ** 2)))
    p_bs = np.concatenate((p_hp + np.sqrt(p_hp ** 2 - wo ** 2), p_hp - np.sqrt(p_hp ** 2 - wo ** 2)))
    z_bs = np.concatenate((z_bs, np.full(degree, +1j * wo), np.full(degree, -1j * wo)))
    return z_bs, p_bs, k * np.real(np.prod(-z) / np.prod(-p))


def _bilinear_zpk(z, p, k, fs):
    z, p = _zp(z, p)
    fs = validate_fs(fs, allow_none=False)
    degree = _relative_degree(z, p)
    fs2 = 2.0 * fs
    z_z = np.concatenate(((fs2 + z) / (fs2 - z), -np.ones(degree)))
    return z_z, (fs2 + p) / (fs2 - p), k * np.real(np.prod(fs2 - z) / np.prod(fs2 - p))


def _ba_float(b, a):
    b, a = np.atleast_1d(np.asarray(b)), np.atleast_1d(np.asarray(a))
    dt = np.result_type(a, b, np.float64)
    return b.astype(dt), a.astype(dt)


def _scalar_wo(wo):
    try:
        return float(wo)
    except TypeError:
        return float(np.asarray(wo).ravel()[0])


def _lp2lp(b, a, wo=1.0):
    b, a = _ba_float(b, a)
    wo = _scalar_wo(wo)
    d, n = a.shape[0], b.shape[0]
    M = max(d, n)
    pwo = wo ** np.arange(M - 1, -1, -1, dtype=np.float64)
    s1, s2 = max(n - d, 0), max(d - n, 0)
    return _normalize(b * pwo[s1] / pwo[s2:], a * pwo[s1] / pwo[s1:])


def _lp2hp(b, a, wo=1.0):
    b, a = _ba_float(b, a)
    wo = _scalar_wo(wo)
    d, n = a.shape[0], b.shape[0]
    pwo = wo ** np.arange(max(d, n), dtype=b.dtype) if wo != 1 else np.ones(max(d, n), dtype=b.dtype)
    if d >= n:
        outa = a[::-1] * pwo
        outb = np.zeros(d, dtype=b.dtype)
        outb[:n] = b[::-1] * pwo[:n]
    else:
        outb = b[::-1] * pwo
        outa = np.zeros(n, dtype=a.dtype)
        outa[:d] = a[::-1] * pwo[:d]
    return _normalize(outb, outa)


def _lp2bp(b, a, wo=1.0, bw=1.0):
    b, a = _ba_float(b, a)
    D, N = a.shape[0] - 1, b.shape[0] - 1
    ma = max(N, D)
    wosq = wo * wo

    def transform(c, deg, length):
        out = np.empty(length + 1, dtype=c.dtype)
        for j in range(length + 1):
            val = 0.0
            for i in range(deg + 1):
                for kk in range(i + 1):
                    if ma - i + 2 * kk == j:
                        val += comb(i, kk) * c[deg - i] * wosq ** (i - kk) / bw ** i
            out[length - j] = val
        return out

    return _normalize(transform(b, N, N + ma), transform(a, D, D + ma))


def _lp2bs(b, a, wo=1.0, bw=1.0):
    b, a = _ba_float(b, a)
    D, N = a.shape[0] - 1, b.shape[0] - 1
    M = max(N, D)
    wosq = wo * wo

    def transform(c, deg):
        out = np.empty(2 * M + 1, dtype=c.dtype)
        for j in range(2 * M + 1):
            val = 0.0
            for i in range(deg + 1):
                for kk in range(M - i + 1):
                    if i + 2 * kk == j:
                        val += comb(M - i, kk) * c[deg - i] * wosq ** (M - i - kk) * bw ** i
            out[2 * M - j] = val
        return out

    return _normalize(transform(b, N), transform(a, D))


def _bilinear(b, a, fs=1.0):
    b, a = np.atleast_1d(np.asarray(b)), np.atleast_1d(np.asarray(a))
    if a.ndim != 1:
        raise ValueError(f"Parameter a is not a 1d array since a.shape={a.shape!r}")
    if b.ndim != 1:
        raise ValueError(f"Parameter b is not a 1d array since b.shape={b.shape!r}")
    b, a = np.trim_zeros(b, "f"), np.trim_zeros(a, "f")
    fs = validate_fs(fs, allow_none=False)
    fac = np.sqrt(fs * 2)
    P = np.polynomial.Polynomial
    zp1, zm1 = P((+1, 1)) / fac, P((-1, 1)) * fac
    N = max(len(a), len(b)) - 1
    num = sum(c * zp1 ** (N - q) * zm1 ** q for q, c in enumerate(b[::-1]))
    den = sum(c * zp1 ** (N - q) * zm1 ** q for q, c in enumerate(a[::-1]))
    return _normalize(num.coef[::-1].copy(), den.coef[::-1].copy())


# ---- the public functions -----------------------------------------------------------

normalize = host_function(_normalize)
tf2zpk = host_function(_tf2zpk)
zpk2tf = host_function(_zpk2tf)
zpk2sos = host_function(_zpk2sos)
sos2zpk = host_function(_sos2zpk)
lp2lp_zpk = host_function(_lp2lp_zpk)
lp2hp_zpk = host_function(_lp2hp_zpk)
lp2bp_zpk = host_function(_lp2bp_zpk)
lp2bs_zpk = host_function(_lp2bs_zpk)
bilinear_zpk = host_function(_bilinear_zpk)
lp2lp = host_function(_lp2lp)
lp2hp = host_function(_lp2hp)
lp2bp = host_function(_lp2bp)
lp2bs = host_function(_lp2bs)
bilinear = host_function(_bilinear)


@host_function
def sos2tf(sos):
    """scipy.signal.sos2tf: the product of the sections' polynomials."""
    return _sos2tf(sos)


@host_function
def tf2sos(b, a, pairing=None, *, analog=False):
    """scipy.signal.tf2sos: tf2zpk, then zpk2sos."""
    return _zpk2sos(*_tf2zpk(b, a), pairing=pairing, analog=analog)




def _annotate():
    docs = {
        normalize: "scipy.signal.normalize: b and a divided by a's leading coefficient, leading zeros of b removed.",
        tf2zpk: "scipy.signal.tf2zpk: zeros, poles and gain of b/a.",
        zpk2tf: "scipy.signal.zpk2tf: b and a of the zeros, poles and gain.",
        zpk2sos: "scipy.signal.zpk2sos: second-order sections, paired as SciPy pairs them (Note [Section pairing]).",
        sos2zpk: "scipy.signal.sos2zpk: zeros, poles and gain of the sections (two of each per section).",
        lp2lp_zpk: "scipy.signal.lp2lp_zpk: a lowpass prototype moved to cutoff wo.",
        lp2hp_zpk: "scipy.signal.lp2hp_zpk: a lowpass prototype turned highpass at wo.",
        lp2bp_zpk: "scipy.signal.lp2bp_zpk: a lowpass prototype turned bandpass at wo of width bw.",
        lp2bs_zpk: "scipy.signal.lp2bs_zpk: a lowpass prototype turned bandstop at wo of width bw.",
        bilinear_zpk: "scipy.signal.bilinear_zpk: the bilinear transform of an analog zpk filter at fs.",
        lp2lp: "scipy.signal.lp2lp: lp2lp_zpk in transfer-function form.",
        lp2hp: "scipy.signal.lp2hp: lp2hp_zpk in transfer-function form.",
        lp2bp: "scipy.signal.lp2bp: lp2bp_zpk in transfer-function form.",
        lp2bs: "scipy.signal.lp2bs: lp2bs_zpk in transfer-function form.",
        bilinear: "scipy.signal.bilinear: the bilinear transform of an analog b/a filter at fs.",
    }
    for f, d in docs.items():
        f.__doc__ = d


_annotate()
del _annotate

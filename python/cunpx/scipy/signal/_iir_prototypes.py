"""The analog lowpass prototypes of scipy.signal (buttap, cheb1ap, cheb2ap, ellipap,
besselap) and the elliptic-function arithmetic they need, computed on the host with
NumPy (a filter has tens of coefficients; its design is a few hundred host flops).

Each prototype returns ``(z, p, k)`` as NumPy arrays and a float gain, the analog
lowpass of cutoff 1 rad/s; _design.py transforms and places them on a device.

Methods (reimplemented from the published mathematics):
  - complete elliptic integral K(m): the arithmetic-geometric mean (Abramowitz &
    Stegun 17.6), with K(1 - p) computed from p directly so that m near 1 keeps its
    precision (ellipkm1);
  - Jacobi sn, cn, dn: the descending Landen transformation through the AGM (A&S
    16.4), with A&S 16.13/16.15's expansions for m near 0 and near 1;
  - the elliptic degree equation and the inverse of sn: Orfanidis, "Lecture notes on
    elliptic filter design" (nomes, Eq. 49; Landen iteration for arcsn);
  - Bessel polynomial zeros: the Aberth-Ehrlich iteration started from Campos &
    Calderon's asymptotic estimates, the polynomial evaluated with its three-term
    recurrence y_n = (2n-1) x y_{n-1} + y_{n-2} in decimal arithmetic (Note [Bessel
    zeros]; SciPy evaluates the modified Bessel function K_{n+1/2} instead).
"""
import math

import numpy as np

EPSILON = 2e-16
_ELLIPDEG_MMAX = 7
_ARC_JAC_SN_MAXITER = 10


def _check_order(N):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    return int(N)


# ---- elliptic functions -------------------------------------------------------------

def _agm(a, b):
    """The arithmetic-geometric mean of a and b (scalars or arrays)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    for _ in range(64):
        if np.all(np.abs(a - b) <= 1e-17 * np.abs(a)):
            break
        a, b = (a + b) / 2, np.sqrt(a * b)
    return a


def ellipk(m):
    """K(m) = integral_0^{pi/2} dt / sqrt(1 - m sin^2 t) for m < 1 (inf at 1)."""
    m = np.asarray(m, float)
    with np.errstate(divide="ignore"):
        out = np.pi / (2 * _agm(1.0, np.sqrt(np.maximum(1 - m, 0.0))))
    return np.where(m == 1, np.inf, out)


def ellipkm1(p):
    """K(1 - p), accurate for small p."""
    p = np.asarray(p, float)
    with np.errstate(divide="ignore"):
        out = np.pi / (2 * _agm(1.0, np.sqrt(np.maximum(p, 0.0))))
    return np.where(p == 0, np.inf, out)


def _ellipj_scalar(u, m):
    if m < 1e-9:
        t, b = math.sin(u), math.cos(u)
        ai = 0.25 * m * (u - t * b)
        return t - ai * b, b + ai * t, 1.0 - 0.5 * m * t * t, u - ai
    if m >= 0.9999999999:
        ai = 0.25 * (1.0 - m)
        b = math.cosh(u)
        t = math.tanh(u)
        phi = 1.0 / b
        twon = b * math.sinh(u)
        sn = t + ai * (twon - u) / (b * b)
        ph = 2.0 * math.atan(math.exp(u)) - math.pi / 2 + ai * (twon - u) / b
        ai *= t * phi
        return sn, phi - ai * (twon - u), phi + ai * (twon + u), ph
    a = [1.0]
    c = [math.sqrt(m)]
    b = math.sqrt(1.0 - m)
    twon = 1.0
    while abs(c[-1] / a[-1]) > 1.11e-16:
        if len(a) > 8:
            break
        a_prev = a[-1]
        a.append((a_prev + b) / 2)
        c.append((a_prev - b) / 2)
        b = math.sqrt(a_prev * b)
        twon *= 2
    phi = twon * a[-1] * u
    i = len(a) - 1
    b_last = phi
    while i > 0:
        t = c[i] * math.sin(phi) / a[i]
        b_last = phi
        phi = (math.asin(t) + phi) / 2
        i -= 1
    sn, cn = math.sin(phi), math.cos(phi)
    return sn, cn, cn / math.cos(phi - b_last), phi


def ellipj(u, m):
    """Jacobi's sn, cn, dn and the amplitude ph of (u, m), 0 <= m <= 1, elementwise."""
    u, m = np.broadcast_arrays(np.asarray(u, float), np.asarray(m, float))
    out = np.empty((4,) + u.shape)
    for idx in np.ndindex(u.shape):
        out[(slice(None),) + idx] = _ellipj_scalar(float(u[idx]), float(m[idx]))
    return out[0], out[1], out[2], out[3]


def _ellipdeg(n, m1):
    """The m with n K(m)/K'(m) = K(m1)/K'(m1) (Orfanidis Eq. 49, through nomes)."""
    K1 = ellipk(m1)
    K1p = ellipkm1(m1)
    q1 = np.exp(-np.pi * K1p / K1)
    q = q1 ** (1 / n)
    mnum = np.arange(_ELLIPDEG_MMAX + 1)
    mden = np.arange(1, _ELLIPDEG_MMAX + 2)
    num = np.sum(q ** (mnum * (mnum + 1)))
    den = 1 + 2 * np.sum(q ** (mden ** 2))
    return float(16 * q * (num / den) ** 4)


def _arc_jac_sn(w, m):
    """z with sn(z, m) = w for complex w, by the descending Landen transformation."""
    def complement(kx):
        return ((1 - kx) * (1 + kx)) ** 0.5

    k = m ** 0.5
    if k > 1:
        return np.nan
    if k == 1:
        return np.arctanh(w)
    ks = [k]
    while ks[-1] != 0:
        kp = complement(ks[-1])
        ks.append((1 - kp) / (1 + kp))
        if len(ks) > _ARC_JAC_SN_MAXITER + 1:
            raise ValueError("Landen transformation not converging")
    K = np.prod(1 + np.array(ks[1:])) * np.pi / 2
    wn = w
    for kn, knext in zip(ks[:-1], ks[1:]):
        wn = 2 * wn / ((1 + knext) * (1 + complement(kn * wn)))
    return K * (2 / np.pi * np.arcsin(wn))


def _arc_jac_sc1(w, m):
    """Real z with sc(z, 1 - m) = w."""
    z = _arc_jac_sn(1j * w, m)
    if abs(z.real) > 1e-14:
        raise ValueError("arc sc did not come out imaginary")
    return z.imag


def _pow10m1(x):
    return math.expm1(math.log(10) * x)


# ---- prototypes ---------------------------------------------------------------------

def buttap(N):
    """Butterworth: N poles evenly on the left half of the unit circle, no zeros."""
    N = _check_order(N)
    m = np.arange(-N + 1, N, 2, dtype=np.float64)
    return np.array([], dtype=np.float64), -np.exp(1j * np.pi * m / (2 * N)), 1.0


def cheb1ap(N, rp):
    """Chebyshev type I of `rp` dB passband ripple."""
    N = _check_order(N)
    if N == 0:
        return np.array([]), np.array([], dtype=complex), 10 ** (-rp / 20)
    eps = math.sqrt(10 ** (0.1 * rp) - 1.0)
    mu = 1.0 / N * math.asinh(1 / eps)
    theta = np.pi * np.arange(-N + 1, N, 2, dtype=np.float64) / (2 * N)
    p = -np.sinh(mu + 1j * theta)
    k = float(np.real(np.prod(-p)))
    if N % 2 == 0:
        k = k / math.sqrt(1 + eps * eps)
    return np.array([], dtype=np.float64), p, k


def cheb2ap(N, rs):
    """Chebyshev type II of `rs` dB stopband attenuation."""
    N = _check_order(N)
    if N == 0:
        return np.array([], dtype=complex), np.array([], dtype=complex), 1.0
    de = 1.0 / math.sqrt(10 ** (0.1 * rs) - 1)
    mu = math.asinh(1.0 / de) / N
    if N % 2:
        m = np.concatenate((np.arange(-N + 1, 0, 2, dtype=float), np.arange(2, N, 2, dtype=float)))
    else:
        m = np.arange(-N + 1, N, 2, dtype=float)
    z = 1j / np.sin(m * np.pi / (2 * N))
    theta = np.pi * np.arange(-N + 1, N, 2, dtype=float) / (2 * N)
    p = -1 / np.sinh(mu + 1j * theta)
    k = float(np.real(np.prod(-p) / np.prod(-z)))
    return z, p, k


def ellipap(N, rp, rs):
    """Elliptic (Cauer) of `rp` dB ripple and `rs` dB attenuation (Orfanidis)."""
    N = _check_order(N)
    if N == 0:
        return np.array([], dtype=complex), np.array([], dtype=complex), 10 ** (-rp / 20)
    if N == 1:
        p = -math.sqrt(1.0 / _pow10m1(0.1 * rp))
        return np.array([], dtype=complex), np.array([p], dtype=complex), -p
    eps_sq = _pow10m1(0.1 * rp)
    eps = math.sqrt(eps_sq)
    ck1_sq = eps_sq / _pow10m1(0.1 * rs)
    if ck1_sq == 0:
        raise ValueError("Cannot design a filter with given rp and rs specifications.")
    k1 = float(ellipk(ck1_sq))
    m = _ellipdeg(N, ck1_sq)
    capk = float(ellipk(m))
    j = np.arange(1 - N % 2, N, 2)
    s, c, d, _ = ellipj(j * capk / N, m * np.ones(len(j)))
    snew = s[np.abs(s) > EPSILON]
    z = 1j * (1.0 / (np.sqrt(m) * snew))
    z = np.concatenate((z, np.conjugate(z)))
    r = _arc_jac_sc1(1.0 / eps, ck1_sq)
    v0 = capk * r / (N * k1)
    sv, cv, dv, _ = ellipj(v0, 1 - m)
    p = -(c * d * sv * cv + 1j * s * dv) / (1 - (d * sv) ** 2.0)
    if N % 2:
        keep = np.abs(p.imag) > EPSILON * np.sqrt(np.sum(p * np.conjugate(p)).real)
        p = np.concatenate((p, np.conjugate(p[keep])))
    else:
        p = np.concatenate((p, np.conjugate(p)))
    k = (np.prod(-p) / np.prod(-z)).real
    if N % 2 == 0:
        k = k / np.sqrt(1 + eps_sq)
    return z.astype(complex), p.astype(complex), float(k)


def _falling_factorial(x, n):
    val = 1
    for k in range(x - n + 1, x + 1):
        val *= k
    return val


def _campos_zeros(n):
    """Campos & Calderon's asymptotic estimates of the Bessel polynomial's zeros."""
    if n == 1:
        return np.asarray([-1 + 0j])
    pv = np.polynomial.polynomial.polyval
    s = pv(n, [0, 0, 2, 0, -3, 1])
    b3 = pv(n, [16, -8]) / s
    b2 = pv(n, [-24, -12, 12]) / s
    b1 = pv(n, [8, 24, -12, -2]) / s
    b0 = pv(n, [0, -6, 0, 5, -1]) / s
    r = pv(n, [0, 0, 2, 1])
    a1 = pv(n, [-6, -6]) / r
    a2 = 6 / r
    k = np.arange(1, n + 1)
    return pv(k, [0, a1, a2]) + 1j * pv(k, [b0, b1, b2, b3])


class _DecComplex:
    """A complex number of two decimal.Decimal parts: just enough arithmetic for the
    Bessel zeros (Note [Bessel zeros])."""
    __slots__ = ("re", "im")

    def __init__(self, re, im):
        self.re, self.im = re, im

    def __add__(self, o):
        return _DecComplex(self.re + o.re, self.im + o.im)

    def __sub__(self, o):
        return _DecComplex(self.re - o.re, self.im - o.im)

    def __mul__(self, o):
        return _DecComplex(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)

    def scale(self, s):
        return _DecComplex(self.re * s, self.im * s)

    def __truediv__(self, o):
        d = o.re * o.re + o.im * o.im
        return _DecComplex((self.re * o.re + self.im * o.im) / d, (self.im * o.re - self.re * o.im) / d)

    def abs2(self):
        return self.re * self.re + self.im * self.im


def _bessel_y(n, x):
    """y_n(x) and y_n'(x) by the three-term recurrence y_k = (2k-1) x y_{k-1} + y_{k-2}."""
    one, zero = _DecComplex(x.re * 0 + 1, x.re * 0), _DecComplex(x.re * 0, x.re * 0)
    y0, y1 = one, one + x
    d0, d1 = zero, one
    for k in range(2, n + 1):
        y0, y1 = y1, (x * y1).scale(2 * k - 1) + y0
        d0, d1 = d1, (y0 + x * d1).scale(2 * k - 1) + d0
    return (y1, d1) if n >= 1 else (one, zero)


# Note [Bessel zeros]: y_N's value near its zeros is a sum of terms up to ~10^(N/2)
# times larger (its coefficients (N+k)!/((N-k)! k! 2^k) alternate in effect over the left
# half plane), so float64 evaluation -- by the recurrence or by a companion/tridiagonal
# eigenvalue problem -- loses every digit by N ~ 40 (measured: 1e-13 at N = 10, 1e-2 at
# N = 40). The Aberth-Ehrlich iteration therefore runs in decimal arithmetic with
# 30 + N digits, which leaves the rounded float64 zeros exact to the last bit or two.
def _bessel_zeros(N):
    """The zeros of y_N: Aberth-Ehrlich iterations from Campos & Calderon's estimates."""
    if N == 0:
        return np.asarray([])
    import decimal

    with decimal.localcontext() as ctx:
        ctx.prec = 30 + N
        D = decimal.Decimal
        x = [_DecComplex(D(float(v.real)), D(float(v.imag))) for v in _campos_zeros(N)]
        tol = D(10) ** -22  # far below float64 resolution, above what rounding leaves
        for _ in range(200):
            worst = D(0)
            new = []
            for k in range(N):
                f, fp = _bessel_y(N, x[k])
                alpha = (f / fp).scale(D(-1))
                beta = _DecComplex(D(0), D(0))
                for j in range(N):
                    if j != k:
                        beta = beta + _DecComplex(D(1), D(0)) / (x[k] - x[j])
                step = alpha / (_DecComplex(D(1), D(0)) + alpha * beta)
                new.append(x[k] + step)
                worst = max(worst, step.abs2() / max(x[k].abs2(), D(1e-300)))
            x = new
            if worst < tol * tol:
                break
        else:
            raise RuntimeError("Bessel polynomial zeros failed to converge")
        z = np.array([complex(float(v.re), float(v.im)) for v in x])
    # The estimates come in conjugate order (k and N+1-k): average each pair.
    z = np.mean((z, z[::-1].conj()), 0)
    if abs(np.sum(z) + 1) > 1e-13:
        raise RuntimeError("Generated zeros are inaccurate")
    return z


def _norm_factor(p, k):
    """The frequency where the magnitude of k / prod(jw - p) falls to 1/sqrt(2), by the
    secant method from 1.5 (SciPy's optimize.newton without a derivative)."""
    def cutoff(w):
        return np.abs(k / np.prod(1j * w - p)) - 1 / math.sqrt(2)

    x0 = 1.5
    x1 = x0 * (1 + 1e-4) + 1e-4
    f0, f1 = cutoff(x0), cutoff(x1)
    for _ in range(50):
        if f1 == f0:
            break
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        if abs(x2 - x1) < 1.48e-8 * max(1.0, abs(x2)) * 1e-4:
            x1 = x2
            break
        x0, f0 = x1, f1
        x1, f1 = x2, cutoff(x2)
    return x1


def besselap(N, norm="phase"):
    """Bessel/Thomson: `norm` 'phase' (asymptotic phase of the unit-delay filter at the
    cutoff), 'delay' (unit group delay at DC) or 'mag' (-3 dB at 1 rad/s)."""
    N = _check_order(N)
    if N == 0:
        p = np.array([], dtype=complex)
        k = 1
    else:
        p = 1 / _bessel_zeros(N)
        a_last = _falling_factorial(2 * N, N) // 2 ** N
        if norm in ("delay", "mag"):
            k = a_last
            if norm == "mag":
                nf = _norm_factor(p, k)
                p = p / nf
                k = nf ** (-N) * a_last
        elif norm == "phase":
            p = p * 10 ** (-math.log10(a_last) / N)
            k = 1
        else:
            raise ValueError("normalization not understood")
    return np.array([], dtype=np.float64), np.asarray(p, dtype=complex), float(k)

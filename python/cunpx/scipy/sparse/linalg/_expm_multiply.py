"""expm_multiply: the action e^{tA} B of the matrix exponential without forming it
(scipy.sparse.linalg.expm_multiply; Al-Mohy and Higham, "Computing the action of the
matrix exponential", SIAM J. Sci. Comput. 33(2), 2011).

Algorithm 3.2 of the paper: A is shifted by mu = trace(A) / n, the truncated Taylor
series of degree m* is applied s times to t/s steps, with (m*, s) chosen by the paper's
code fragment 3.1 from ||A||_1 and estimates of ||A^p||_1^(1/p) (onenormest), and each
series stops early when two consecutive terms fall below the tolerance 2^-53 relative to
the sum (the paper's tolerance for double precision, which SciPy uses for every dtype).
The series runs on the device; each term's stopping test reads two norms in one
transfer.

With start/stop/num (a grid of q + 1 evenly spaced times, as numpy.linspace) the first
point is computed by Algorithm 3.2 and each next one from the previous with a step h =
(stop - start) / q, the parameters chosen once for hA (the paper's algorithm 5.2 in the
case q <= s; it is also correct, with a few more products, when q > s).

Differences from SciPy: the result keeps float32 when A and B are float32 (SciPy returns
float64); the first grid point gets parameters chosen for its own time.
"""
import math
import warnings

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse.linalg import _util
from cunpx.scipy.sparse.linalg._interface import IdentityOperator, LinearOperator, aslinearoperator
from cunpx.scipy.sparse.linalg._norm import _CSR, onenormest

__all__ = ["expm_multiply"]

_TOL = 2.0 ** -53

# theta_m for the truncated Taylor series in double precision: the largest ||tA||_1 / s for
# which degree m meets the tolerance 2^-53 (Al-Mohy and Higham 2011, Table 3.1)
_THETA = {1: 2.29e-16, 2: 2.58e-8, 3: 1.39e-5, 4: 3.40e-4, 5: 2.40e-3, 6: 9.07e-3, 7: 2.38e-2, 8: 5.00e-2,
          9: 8.96e-2, 10: 1.44e-1, 11: 2.14e-1, 12: 3.00e-1, 13: 4.00e-1, 14: 5.14e-1, 15: 6.41e-1,
          16: 7.81e-1, 17: 9.31e-1, 18: 1.09, 19: 1.26, 20: 1.44, 21: 1.62, 22: 1.82, 23: 2.01, 24: 2.22,
          25: 2.43, 26: 2.64, 27: 2.86, 28: 3.08, 29: 3.31, 30: 3.54, 35: 4.7, 40: 6.0, 45: 7.2, 50: 8.5,
          55: 9.9}
_M_MAX, _ELL = 55, 2


def _p_max(m_max):
    """The largest p with p (p - 1) <= m_max + 1."""
    p = 1
    while (p + 1) * p <= m_max + 1:
        p += 1
    return p


class _NormInfo:
    """||tA||_1 and the lazily estimated d_p = ||(tA)^p||_1^(1/p) of the shifted operator."""

    def __init__(self, op, one_norm, t):
        self.op, self.t = op, t
        self.one_norm = abs(t) * one_norm
        self._d = {}

    def d(self, p):
        if p not in self._d:
            est = onenormest((self.t * self.op) ** p, t=_ELL)
            self._d[p] = est ** (1.0 / p)
        return self._d[p]

    def alpha(self, p):
        return max(self.d(p), self.d(p + 1))


def _parameters(info, n0):
    """(m*, s): code fragment 3.1 of Al-Mohy and Higham."""
    if info.one_norm == 0:
        return 0, 1
    pm = _p_max(_M_MAX)
    best = None
    if info.one_norm <= 2 * _ELL * pm * (pm + 3) * _THETA[_M_MAX] / float(n0 * _M_MAX):   # condition 3.13
        for m, theta in _THETA.items():
            s = int(math.ceil(info.one_norm / theta))
            if best is None or m * s < best[0] * best[1]:
                best = (m, s)
        return best
    for p in range(2, pm + 1):
        for m in range(p * (p - 1) - 1, _M_MAX + 1):
            if m in _THETA:
                s = int(math.ceil(info.alpha(p) / _THETA[m]))
                if best is None or m * s < best[0] * best[1]:
                    best = (m, s)
    return best[0], max(best[1], 1)


def _inf_norm(B):
    """||B||_inf on the device (max |b| for a vector, the largest row sum for a matrix)."""
    a = _cunp.abs(B)
    return a.max() if B.ndim == 1 else a.sum(axis=1).max()


def _core(apply, B, t, mu, m_star, s):
    """Algorithm 3.2's loop: e^{t(A - mu I)} B by s steps of the degree-m* Taylor series,
    times e^{t mu}."""
    F = B
    eta = complex(_numpy.exp(t * mu / s)) if isinstance(mu, complex) else math.exp(t * mu / s)
    for _ in range(s):
        c1 = float(_inf_norm(B))
        for j in range(m_star):
            B = (t / (s * (j + 1))) * apply(B)
            c2_d = _inf_norm(B)
            F = F + B
            c2, fn = _util.host_values(c2_d, _inf_norm(F)).real
            if c1 + c2 <= _TOL * fn:
                break
            c1 = c2
        F = eta * F
        B = F
    return F


def _trace(A):
    if isinstance(A, _cunp.ndarray):
        return _cunp.trace(A).item()
    if hasattr(A, "diagonal"):
        return _cunp.asarray(A.diagonal()).sum().item()
    c = _CSR(A)
    return c.data[c.rows == c.indices].sum().item()


def traceest(A, m3, seed=None):
    """An estimate of trace(A) from 3 m3 products (Hutch++: Meyer, Musco, Musco and
    Woodruff 2021)."""
    rng = _numpy.random.default_rng(seed)
    n = A.shape[-1]
    dt = _util.float_dtype(A.dtype if A.dtype is not None else _numpy.float64)
    S = _cunp.asarray(rng.choice([-1.0, 1.0], [n, m3]).astype(dt))
    Q, _ = _cunp.linalg.qr(_cunp.asarray(A.matmat(S)))
    tr_qaq = _cunp.trace(Q.conj().T @ _cunp.asarray(A.matmat(Q)))
    G = _cunp.asarray(rng.choice([-1.0, 1.0], [n, m3]).astype(dt))
    right = G - Q @ (Q.conj().T @ G)
    tr_gag = _cunp.trace(right.conj().T @ _cunp.asarray(A.matmat(right)))
    return (tr_qaq + tr_gag / m3).item()


def _shifted_one_norm(A, mu, op):
    """||A - mu I||_1: exact for dense and sparse matrices, estimated for operators."""
    if isinstance(A, _cunp.ndarray):
        n = A.shape[0]
        return float(_cunp.linalg.norm(A - mu * _cunp.eye(n, dtype=A.dtype), 1))
    if _util.is_sparse(A):
        c = _CSR(A)
        n = A.shape[0]
        diag = c.rows == c.indices
        vals = _cunp.where(diag, _cunp.abs(c.data - mu), c.abs)
        col = _cunp.zeros(n, dtype=vals.dtype)
        _cunp.add.at(col, c.indices, vals)
        has_diag = _cunp.zeros(n, dtype=_numpy.int64)
        _cunp.add.at(has_diag, c.indices, diag.astype(_numpy.int64))
        col = col + _cunp.where(has_diag == 0, abs(mu), 0.0)
        return float(col.max())
    return float(onenormest(op))


def _prepare(A, B, traceA, m3):
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("expected A to be like a square matrix")
    if A.shape[1] != B.shape[0]:
        raise ValueError("shapes of matrices A %s and B %s are incompatible" % (A.shape, B.shape))
    if B.ndim not in (1, 2):
        raise ValueError("expected B to be like a matrix or a vector")
    n = A.shape[0]
    n0 = 1 if B.ndim == 1 else B.shape[1]
    is_op = isinstance(A, LinearOperator)
    if _util.is_scipy_sparse(A) or isinstance(A, _numpy.ndarray):
        A = aslinearoperator(A).A
    if traceA is None:
        if is_op:
            warnings.warn("Trace of LinearOperator not available, it will be estimated. Provide `traceA` to ensure "
                          "performance.", stacklevel=4)
            traceA = traceest(A, m3=m3)
        else:
            traceA = _trace(A)
    mu = complex(traceA) / n if isinstance(traceA, complex) and complex(traceA).imag != 0 else float(
        _numpy.real(traceA)) / n
    Aop = aslinearoperator(A)
    dtype = _numpy.result_type(_util.float_dtype(Aop.dtype if Aop.dtype is not None else _numpy.float64),
                               _util.float_dtype(B.dtype), *([_numpy.complex64] if isinstance(mu, complex) else []))
    shifted = Aop - mu * IdentityOperator(Aop.shape, dtype=dtype) if mu != 0 else Aop
    if is_op:
        def apply(X):
            return shifted.dot(X)
    else:
        def apply(X):
            return A @ X - mu * X if mu != 0 else A @ X
    one_norm = _shifted_one_norm(A, mu, shifted)
    return apply, shifted, mu, one_norm, n0, B.astype(dtype)


def expm_multiply(A, B, start=None, stop=None, num=None, endpoint=None, traceA=None):
    """e^{tA} B for t = 1, or for the times ``numpy.linspace(start, stop, num,
    endpoint)`` (then the result's first axis runs over the times). A is a dense or
    sparse matrix or a LinearOperator (then give `traceA`, or it is estimated)."""
    B = _cunp.asarray(B)
    with _cunp.Device(B.device), _cunp.errstate(divide="ignore", invalid="ignore"):
        if all(arg is None for arg in (start, stop, num, endpoint)):
            apply, shifted, mu, one_norm, n0, B = _prepare(A, B, traceA, 1)
            m_star, s = _parameters(_NormInfo(shifted, one_norm, 1.0), n0)
            return _core(apply, B, 1.0, mu, m_star, s)
        return _interval(A, B, start, stop, num, endpoint, traceA)


def _interval(A, B, start, stop, num, endpoint, traceA):
    apply, shifted, mu, one_norm, n0, B = _prepare(A, B, traceA, 5)
    kw = {"retstep": True}
    if num is not None:
        kw["num"] = num
    if endpoint is not None:
        kw["endpoint"] = endpoint
    samples, h = _numpy.linspace(start, stop, **kw)
    if len(samples) < 2:
        raise ValueError("at least two time points are required")
    t0, h = float(samples[0]), float(h)
    X = _cunp.empty((len(samples),) + B.shape, dtype=B.dtype)
    m0, s0 = _parameters(_NormInfo(shifted, one_norm, t0), n0)
    X[0] = _core(apply, B, t0, mu, m0, s0)
    m_h, s_h = _parameters(_NormInfo(shifted, one_norm, h), n0)
    for k in range(len(samples) - 1):
        X[k + 1] = _core(apply, X[k], h, mu, m_h, s_h)
    return X

"""Restarted GMRES (scipy.sparse.linalg.gmres, SciPy >= 1.12 signature).

SciPy's algorithm: Arnoldi with left preconditioning, Givens rotations on the
Hessenberg matrix, SciPy's inner stopping tolerance ``ptol`` (adapted after each cycle)
and its three callback types ('legacy', 'pr_norm', 'x'). The Krylov basis is a
(restart + 1, n) cunp array on the device; the small Hessenberg matrix, the rotations
and the triangular solve live on the host.

Note [GMRES orthogonalisation]: SciPy orthogonalises each new vector by modified
Gram-Schmidt, one dot product and one update per basis vector: j device round trips in
the j-th step. Here it is classical Gram-Schmidt applied twice (CGS2: two matrix-vector
products with the basis, h = V^H w and w -= V h, per pass), which is as accurate as
modified Gram-Schmidt (Giraud, Langou, Rozloznik 2005) and needs one transfer per step:
the new Hessenberg column and the norms the breakdown test compares, read together.
"""
import math
import warnings

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse.linalg import _util

__all__ = ["gmres"]


def _givens(f, g):
    """(c, s, r) with c real, [[c, s], [-conj(s), c]] @ [f, g] = [r, 0] (LAPACK's lartg)."""
    if g == 0:
        return 1.0, 0.0 * g, f
    if f == 0:
        ag = abs(g)
        return 0.0, _numpy.conj(g) / ag, ag + 0.0 * g
    af = abs(f)
    d = math.hypot(af, abs(g))
    phase = f / af
    return af / d, phase * _numpy.conj(g) / d, phase * d


def _project(V, w, complex_):
    """V^H w for the rows of V."""
    if complex_:
        return _cunp.conj(V @ _cunp.conj(w))
    return V @ w


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0., restart=None, maxiter=None, M=None, callback=None,
          callback_type=None):
    """Generalised minimal residual iteration, restarted every `restart` (default 20)
    inner steps; `maxiter` counts restart cycles, as in SciPy. Returns (x, info)."""
    if callback is not None and callback_type is None:
        warnings.warn("scipy.sparse.linalg.gmres called without specifying `callback_type`. The default value will "
                      "be changed in a future release. For compatibility, specify a value for `callback_type` "
                      "explicitly, e.g., ``gmres(..., callback_type='pr_norm')``, or to retain the old behavior "
                      "``gmres(..., callback_type='legacy')``", category=DeprecationWarning, stacklevel=2)
    if callback_type is None:
        callback_type = "legacy"
    if callback_type not in ("x", "pr_norm", "legacy"):
        raise ValueError("Unknown callback_type: %r" % (callback_type,))
    if callback is None:
        callback_type = None
    s = _util.System(A, M, x0, b)
    with _cunp.Device(s.device), _cunp.errstate(divide="ignore", invalid="ignore"):
        return _gmres(s, rtol, atol, restart, maxiter, callback, callback_type)


def _gmres(s, rtol, atol, restart, maxiter, callback, callback_type):
    x, b, n, matvec = s.x, s.b, s.n, s.A.matvec
    bnrm2 = float(_cunp.linalg.norm(b))
    atol = _util.atol_for("gmres", bnrm2, atol, rtol)
    if bnrm2 == 0:
        return b, 0
    eps = float(_numpy.finfo(x.dtype).eps)
    complex_ = x.dtype.kind == "c"
    hdt = _numpy.complex128 if complex_ else _numpy.float64
    maxiter = n * 10 if maxiter is None else int(maxiter)
    restart = min(20 if restart is None else int(restart), n)
    Mb_nrm2 = float(_cunp.linalg.norm(s.psolve(b)))
    ptol_max_factor = 1.0
    ptol = Mb_nrm2 * min(ptol_max_factor, atol / bnrm2)
    presid = 0.0
    V = _cunp.empty((restart + 1, n), dtype=x.dtype)
    h = _numpy.zeros((restart, restart + 1), dtype=hdt)   # h[col] is column col of the Hessenberg matrix
    givens = _numpy.zeros((restart, 2), dtype=hdt)
    inner_iter = 0
    rnorm = None
    r = None
    for iteration in range(maxiter):
        if iteration == 0:
            r = s.residual()
            if float(_cunp.linalg.norm(r)) < atol:
                return x, 0
        z = s.psolve(r)
        tmp = _cunp.linalg.norm(z)
        V[0] = z / tmp
        S = _numpy.zeros(restart + 1, dtype=hdt)
        S[0] = float(tmp)
        breakdown = False
        for col in range(restart):
            w = s.psolve(matvec(V[col]))
            h0 = _cunp.linalg.norm(w)
            Vc = V[:col + 1]
            hc = _project(Vc, w, complex_)
            w = w - Vc.T @ hc
            hc2 = _project(Vc, w, complex_)
            w = w - Vc.T @ hc2
            h1 = _cunp.linalg.norm(w)
            vals = _util.host_values(hc + hc2, h1, h0)
            h[col, :col + 1] = vals[:col + 1]
            h1v, h0v = float(vals[col + 1].real), float(vals[col + 2].real)
            h[col, col + 1] = h1v
            if h1v <= eps * h0v:
                h[col, col + 1] = 0
                V[col + 1] = w
                breakdown = True
            else:
                V[col + 1] = w / h1
            for k in range(col):
                c, sn = givens[k, 0].real, givens[k, 1]
                n0, n1 = h[col, k], h[col, k + 1]
                h[col, k], h[col, k + 1] = c * n0 + sn * n1, -_numpy.conj(sn) * n0 + c * n1
            c, sn, mag = _givens(h[col, col], h[col, col + 1])
            givens[col] = c, sn
            h[col, col], h[col, col + 1] = mag, 0
            tmp = -_numpy.conj(sn) * S[col]
            S[col], S[col + 1] = c * S[col], tmp
            presid = float(abs(tmp))
            inner_iter += 1
            if callback_type in ("legacy", "pr_norm"):
                callback(presid / bnrm2)
            if callback_type == "legacy" and inner_iter == maxiter:
                break
            if presid <= ptol or breakdown:
                break
        if h[col, col] == 0:
            S[col] = 0
        # back substitution with the upper triangular R = h[:col+1, :col+1].T
        y = _numpy.array(S[:col + 1])
        for k in range(col, 0, -1):
            if y[k] != 0:
                y[k] /= h[k, k]
                y[:k] -= y[k] * h[k, :k]
        if y[0] != 0:
            y[0] /= h[0, 0]
        x += V[:col + 1].T @ _cunp.asarray(y.astype(x.dtype))
        r = b - matvec(x)
        rnorm = float(_cunp.linalg.norm(r))
        if callback_type == "legacy" and inner_iter == maxiter:
            return x, 0 if rnorm <= atol else maxiter
        if callback_type == "x":
            callback(x)
        if rnorm <= atol:
            break
        if breakdown:
            break
        if presid <= ptol:
            ptol_max_factor = max(eps, 0.25 * ptol_max_factor)
        else:
            ptol_max_factor = min(1.0, 1.5 * ptol_max_factor)
        ptol = presid * min(ptol_max_factor, atol / rnorm)
    info = 0 if (rnorm is not None and rnorm <= atol) else maxiter
    return x, info

"""MINRES for symmetric (Hermitian) indefinite systems (scipy.sparse.linalg.minres).

Paige and Saunders' recurrence as SciPy runs it (Lanczos with a symmetric positive
definite preconditioner, one Givens rotation per step, SciPy's stopping tests and
``istop`` rules; the result is ``(x, info)``, info = maxiter when the iteration limit
was reached, else 0). The vectors live on the device; the recurrence's scalars are
Python floats on the host.

Note [MINRES with one transfer per step]: a step needs three values on the host: the
Lanczos coefficients alpha and beta, and ||x|| for the stopping tests. The tests of step
k are made after the Lanczos part of step k + 1 has been queued (it reads and writes
only the Lanczos vectors, never x), so alpha, beta of step k + 1 and ||x_k|| are read
together. When the tests stop the iteration at step k, x_k is returned unchanged; the
extra Lanczos step is the only cost. Complex Hermitian matrices use conjugated inner
products (SciPy's minres uses unconjugated ones, correct only for real matrices).
"""
import math

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse.linalg import _util

__all__ = ["minres"]


def _inner(a, b):
    return _cunp.real(_cunp.vdot(a, b))


def _check_symmetric(s, y, r1, eps):
    w = s.A.matvec(y)
    r2 = s.A.matvec(w)
    sv, tv = _util.host_values(_inner(w, w), _inner(y, r2)).real
    if abs(sv - tv) > (sv + eps) * eps ** (1.0 / 3.0):
        raise ValueError("non-symmetric matrix")
    r2 = s.psolve(y)
    sv, tv = _util.host_values(_inner(y, y), _inner(r1, r2)).real
    if abs(sv - tv) > (sv + eps) * eps ** (1.0 / 3.0):
        raise ValueError("non-symmetric preconditioner")


def minres(A, b, x0=None, *, rtol=1e-5, shift=0.0, maxiter=None, M=None, callback=None, show=False,
           check=False):
    """Minimum residual iteration for A x = b with A Hermitian (possibly indefinite)
    and M Hermitian positive definite. Returns (x, info)."""
    s = _util.System(A, M, x0, b)
    with _cunp.Device(s.device), _cunp.errstate(divide="ignore", invalid="ignore"):
        return _minres(s, float(rtol), float(shift), maxiter, callback, show, check)


def _minres(s, rtol, shift, maxiter, callback, show, check):
    n, x, b, matvec = s.n, s.x, s.b, s.A.matvec
    maxiter = 5 * n if maxiter is None else int(maxiter)
    xtype = x.dtype
    eps = float(_numpy.finfo(xtype).eps)
    r1 = s.residual()
    y = s.psolve(r1)
    beta1, bnorm = _util.host_values(_inner(r1, y), _cunp.linalg.norm(b)).real
    if beta1 < 0:
        raise ValueError("indefinite preconditioner")
    if beta1 == 0:
        return x, 0
    if bnorm == 0:
        return b, 0
    beta1 = math.sqrt(beta1)
    if check:
        _check_symmetric(s, y, r1, eps)

    istop = itn = 0
    Anorm = Acond = rnorm = ynorm = 0.0
    oldb = 0.0
    beta = beta1
    dbar = epsln = 0.0
    phibar = beta1
    rhs1, rhs2 = beta1, 0.0
    tnorm2 = gmax = 0.0
    gmin = float(_numpy.finfo(xtype).max)
    cs, sn = -1.0, 0.0
    w = _cunp.zeros(n, dtype=xtype)
    w2 = _cunp.zeros(n, dtype=xtype)
    r2 = r1
    pending = None   # (ynorm of the last step on the device, its host quantities for the tests)

    def tests(ynorm, Anorm, rnorm, root, Acond, itn, istop):
        epsx = Anorm * ynorm * eps
        test1 = math.inf if (ynorm == 0 or Anorm == 0) else rnorm / (Anorm * ynorm)
        test2 = math.inf if Anorm == 0 else root / Anorm
        if istop == 0:
            t1, t2 = 1 + test1, 1 + test2
            if t2 <= 1:
                istop = 2
            if t1 <= 1:
                istop = 1
            if itn >= maxiter:
                istop = 6
            if Acond >= 0.1 / eps:
                istop = 4
            if epsx >= beta1:
                istop = 3
            if test2 <= rtol:
                istop = 2
            if test1 <= rtol:
                istop = 1
        return istop

    while itn < maxiter:
        # the Lanczos part of step itn + 1 (touches v, y, r1, r2 only)
        v = y * (1.0 / beta)
        y = matvec(v)
        if shift != 0:
            y = y - shift * v
        if itn >= 1:
            y = y - (beta / oldb) * r1
        alfa_d = _inner(v, y)
        y = y - (alfa_d / beta).astype(y.dtype) * r2
        r1, r2 = r2, y
        y = s.psolve(r2)
        beta_d = _inner(r2, y)
        vals = _util.host_values(alfa_d, beta_d, *((pending[0],) if pending else ())).real
        if pending:
            istop = tests(float(vals[2]), *pending[1], istop)
            ynorm = float(vals[2])
            if callback is not None:
                callback(x)
            pending = None
            if istop != 0:
                break
        itn += 1
        alfa, beta_sq = float(vals[0]), float(vals[1])
        oldb = beta
        if beta_sq < 0:
            raise ValueError("non-symmetric matrix")
        beta = math.sqrt(beta_sq)
        tnorm2 += alfa ** 2 + oldb ** 2 + beta ** 2
        if itn == 1 and beta / beta1 <= 10 * eps:
            istop = -1  # terminate after this step
        oldeps = epsln
        delta = cs * dbar + sn * alfa
        gbar = sn * dbar - cs * alfa
        epsln = sn * beta
        dbar = -cs * beta
        root = math.hypot(gbar, dbar)
        gamma = max(math.hypot(gbar, beta), eps)
        cs, sn = gbar / gamma, beta / gamma
        phi = cs * phibar
        phibar = sn * phibar
        denom = 1.0 / gamma
        w1, w2 = w2, w
        w = (v - oldeps * w1 - delta * w2) * denom
        x += phi * w
        gmax, gmin = max(gmax, gamma), min(gmin, gamma)
        z = rhs1 / gamma
        rhs1 = rhs2 - delta * z
        rhs2 = -epsln * z
        Anorm = math.sqrt(tnorm2)
        rnorm = phibar
        Acond = gmax / gmin
        pending = (_cunp.linalg.norm(x), (Anorm, rnorm, root, Acond, itn))
    if pending:
        ynorm = float(pending[0])
        istop = tests(ynorm, *pending[1], istop)
        if callback is not None:
            callback(x)
    if show:
        print("Exit  minres.    istop   =  %3g               itn   =%5g" % (istop, itn))
        print("Exit  minres.    Anorm   =  %12.4e      Acond =  %12.4e" % (Anorm, Acond))
        print("Exit  minres.    rnorm   =  %12.4e      ynorm =  %12.4e" % (rnorm, ynorm))
    return x, (maxiter if istop == 6 else 0)

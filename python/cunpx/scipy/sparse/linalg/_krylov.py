"""The short-recurrence Krylov solvers cg, cgs, bicg and bicgstab (scipy.sparse.linalg's,
SciPy >= 1.12 signatures: ``rtol=``, ``atol=``, ``x0=``, ``maxiter=``, ``M=``,
``callback=``; the result is ``(x, info)`` with SciPy's info codes: 0 converged,
maxiter when the iteration limit was reached, -10 / -11 on breakdown).

Each function runs SciPy's recurrence on the device of ``b`` with cunp operations: the
scalars (rho, alpha, beta, omega) stay 0-d device arrays, so the vectors' updates never
wait for the host.

Note [One host synchronisation per iteration]: SciPy tests the residual norm, and for
cgs, bicg and bicgstab the breakdown quantities, several times an iteration. Here every
test of an iteration reads its values with one transfer (``_util.host_values``), and the
tests that SciPy makes in the middle of an iteration (``rv == 0``; bicgstab's ``||s||``)
are read with the next iteration's: the iteration computes its update of x into a
separate vector, and the next read decides whether that update is taken (and the
callback called) or SciPy's early return happens with the previous x. Results, info
codes and callbacks are SciPy's; only the work of one extra half iteration is done
before such a return. When the tolerance is zero (``rtol=0, atol=0``) the residual test
can never pass, and cg's iterations do not synchronise at all (only ||b|| is read, once).
"""
import math

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse.linalg import _fused, _util

__all__ = ["cg", "cgs", "bicg", "bicgstab"]


def _norm(v):
    return _cunp.linalg.norm(v)


def _dot(a, b):
    """vdot for complex vectors, dot for real ones (SciPy's choice)."""
    return _cunp.vdot(a, b)


def _setup(name, A, b, x0, M, rtol, atol, maxiter):
    s = _util.System(A, M, x0, b)
    bnrm2 = float(_norm(s.b))
    atol = _util.atol_for(name, bnrm2, atol, rtol)
    if maxiter is None:
        maxiter = s.n * 10
    return s, bnrm2, atol, int(maxiter)


def cg(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """Conjugate gradients for a Hermitian positive definite A (scipy.sparse.linalg.cg).

    Converged when ||b - A x|| < max(atol, rtol ||b||). Returns (x, info)."""
    s, bnrm2, atol, maxiter = _setup("cg", A, b, x0, M, rtol, atol, maxiter)
    if bnrm2 == 0:
        return s.b, 0
    with _cunp.Device(s.device), _cunp.errstate(divide="ignore", invalid="ignore"):
        x, matvec = s.x, s.A.matvec
        r = s.residual()
        check = atol > 0
        rho_prev = p = None
        for iteration in range(maxiter):
            if s.M is None:
                z = r
                rho = _dot(r, r)  # ||r||^2: the residual test needs no second reduction
                if check and math.sqrt(max(float(_numpy.real(rho.get())), 0.0)) < atol:
                    return x, 0
            else:
                if check and float(_norm(r)) < atol:
                    return x, 0
                z = s.psolve(r)
                rho = _dot(r, z)
            if iteration > 0:
                _fused.xpby(z, rho / rho_prev, p)
            else:
                p = _cunp.array(z, copy=True)
            q = matvec(p)
            alpha = rho / _dot(p, q)
            _fused.axpy2(alpha, p, q, x, r)
            rho_prev = rho
            if callback:
                callback(x)
        return x, maxiter


def bicg(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """Biconjugate gradients (scipy.sparse.linalg.bicg); A needs rmatvec (A^H x)."""
    s, bnrm2, atol, maxiter = _setup("bicg", A, b, x0, M, rtol, atol, maxiter)
    if bnrm2 == 0:
        return s.b, 0
    with _cunp.Device(s.device), _cunp.errstate(divide="ignore", invalid="ignore"):
        x, matvec, rmatvec = s.x, s.A.matvec, s.A.rmatvec
        rhotol = float(_numpy.finfo(x.dtype).eps) ** 2
        r = s.residual()
        rtilde = _cunp.array(r, copy=True)
        rho_prev = p = ptilde = None
        pending = None  # (rv, alpha) of the previous iteration: x += alpha p not yet taken
        for iteration in range(maxiter):
            z, ztilde = s.psolve(r), s.rpsolve(rtilde)
            rho = _dot(rtilde, z)
            vals = _util.host_values(_norm(r), rho, *(pending[:1] if pending else ()))
            if pending:
                if vals[2] == 0:
                    return x, -11
                _fused.axpy(pending[1], p, x)
                if callback:
                    callback(x)
            if vals[0].real < atol:
                return x, 0
            if abs(vals[1]) < rhotol:
                return x, -10
            if iteration > 0:
                beta = rho / rho_prev
                _fused.xpby(z, beta, p)
                _fused.xpby(ztilde, _cunp.conj(beta), ptilde)
            else:
                p = _cunp.array(z, copy=True)
                ptilde = _cunp.array(ztilde, copy=True)
            q, qtilde = matvec(p), rmatvec(ptilde)
            rv = _dot(ptilde, q)
            alpha = rho / rv
            _fused.axpy(-alpha, q, r)
            _fused.axpy(-_cunp.conj(alpha), qtilde, rtilde)
            rho_prev = rho
            pending = (rv, alpha)
        if pending:
            if _util.host_values(pending[0])[0] == 0:
                return x, -11
            _fused.axpy(pending[1], p, x)
            if callback:
                callback(x)
        return x, maxiter


def cgs(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """Conjugate gradients squared (scipy.sparse.linalg.cgs)."""
    s, bnrm2, atol, maxiter = _setup("cgs", A, b, x0, M, rtol, atol, maxiter)
    if bnrm2 == 0:
        return s.b, 0
    with _cunp.Device(s.device), _cunp.errstate(divide="ignore", invalid="ignore"):
        x, b, matvec = s.x, s.b, s.A.matvec
        rhotol = float(_numpy.finfo(x.dtype).eps) ** 2
        r = s.residual()
        rtilde = _cunp.array(r, copy=True)
        rho_prev = p = u = q = None
        pending = None  # (rv, x_new): the update of the previous iteration, not yet taken
        for iteration in range(maxiter):
            rho = _dot(rtilde, r)
            vals = _util.host_values(_norm(r), rho, *(pending[:1] if pending else ()))
            if pending:
                if vals[2] == 0:
                    return x, -11
                x = pending[1]
                if callback:
                    callback(x)
            if vals[0].real < atol:
                return x, 0
            if abs(vals[1]) < rhotol:
                return x, -10
            if iteration > 0:
                beta = rho / rho_prev
                u = r + beta * q
                _fused.xpby(q, beta, p)
                _fused.xpby(u, beta, p)
            else:
                p = _cunp.array(r, copy=True)
                u = _cunp.array(r, copy=True)
            phat = s.psolve(p)
            vhat = matvec(phat)
            rv = _dot(rtilde, vhat)
            alpha = rho / rv
            q = u - alpha * vhat
            uhat = s.psolve(u + q)
            x_new = x + alpha * uhat
            r = b - matvec(x_new)
            rho_prev = rho
            pending = (rv, x_new)
        if pending:
            if _util.host_values(pending[0])[0] == 0:
                return x, -11
            x = pending[1]
            if callback:
                callback(x)
        return x, maxiter


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """Biconjugate gradients stabilised (scipy.sparse.linalg.bicgstab)."""
    s, bnrm2, atol, maxiter = _setup("bicgstab", A, b, x0, M, rtol, atol, maxiter)
    if bnrm2 == 0:
        return s.b, 0
    with _cunp.Device(s.device), _cunp.errstate(divide="ignore", invalid="ignore"):
        x, matvec = s.x, s.A.matvec
        rhotol = float(_numpy.finfo(x.dtype).eps) ** 2
        omegatol = rhotol
        r = s.residual()
        rtilde = _cunp.array(r, copy=True)
        rho_prev = omega = alpha = p = v = None
        # the previous iteration's (rv, ||s||, omega, x + alpha phat, x + alpha phat + omega shat)
        pending = None
        for iteration in range(maxiter):
            rho = _dot(rtilde, r)
            vals = _util.host_values(_norm(r), rho, *(pending[:3] if pending else ()))
            if pending:
                if vals[2] == 0:
                    return x, -11
                if vals[3].real < atol:
                    return pending[3], 0
                x = pending[4]
                if callback:
                    callback(x)
            if vals[0].real < atol:
                return x, 0
            if abs(vals[1]) < rhotol:
                return x, -10
            if iteration > 0:
                if abs(vals[4]) < omegatol:
                    return x, -11
                beta = (rho / rho_prev) * (alpha / omega)
                _fused.axpy(-omega, v, p)
                _fused.xpby(r, beta, p)
            else:
                p = _cunp.array(r, copy=True)
            phat = s.psolve(p)
            v = matvec(phat)
            rv = _dot(rtilde, v)
            alpha = rho / rv
            _fused.axpy(-alpha, v, r)          # r is now s
            snorm = _norm(r)
            x_half = x + alpha * phat
            shat = s.psolve(r)
            t = matvec(shat)
            omega = _dot(t, r) / _dot(t, t)
            x_full = x_half + omega * shat
            _fused.axpy(-omega, t, r)
            rho_prev = rho
            pending = (rv, snorm, omega, x_half, x_full)
        if pending:
            vals = _util.host_values(*pending[:2])
            if vals[0] == 0:
                return x, -11
            if vals[1].real < atol:
                return pending[3], 0
            x = pending[4]
            if callback:
                callback(x)
        return x, maxiter

"""LSMR for least-squares problems min ||A x - b||^2 + damp^2 ||x||^2
(scipy.sparse.linalg.lsmr; Fong and Saunders 2011).

SciPy's recurrence, stopping rules and 8-tuple result ``(x, istop, itn, normr, normar,
norma, conda, normx)``; x is a cunp array, the rest Python floats. One transfer per
iteration: the bidiagonalisation's beta and alpha (as in lsqr, Note [LSQR with one
transfer per step]) and ||x|| of the previous iteration, whose stopping tests are made
after the next bidiagonalisation step is queued (that step does not touch x, so an
iteration that stops returns x unchanged).

Differences from SciPy: x has the working dtype of A, b and x0 (float32 stays float32;
SciPy returns float64), and ``show=True`` prints only the final summary.
"""
import math

import cunp as _cunp
from cunpx.scipy.sparse.linalg import _util
from cunpx.scipy.sparse.linalg._lsqr import div, least_squares_system, sym_ortho

__all__ = ["lsmr"]


def lsmr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, maxiter=None, show=False, x0=None):
    """Least-squares solution of A x = b (A of any shape); see scipy.sparse.linalg.lsmr."""
    A, b, dtype, x0 = least_squares_system(A, b, x0)
    with _cunp.Device(b.device), _cunp.errstate(divide="ignore", invalid="ignore"):
        return _lsmr(A, b, dtype, x0, float(damp), float(atol), float(btol), float(conlim), maxiter, show)


def _lsmr(A, b, dtype, x0, damp, atol, btol, conlim, maxiter, show):
    m, n = A.shape
    maxiter = min(m, n) if maxiter is None else int(maxiter)
    rdt = _util.real_dtype(dtype)
    u = b
    if x0 is None:
        x = _cunp.zeros(n, dtype=dtype)
        normb = beta = float(_cunp.linalg.norm(b))
    else:
        x = x0.astype(dtype, copy=True)
        u = u - A.matvec(x)
        normb, beta = (float(v) for v in _util.host_values(_cunp.linalg.norm(b), _cunp.linalg.norm(u)).real)
    if beta > 0:
        u = u * (1 / beta)
        v = A.rmatvec(u)
        alpha = float(_cunp.linalg.norm(v))
    else:
        v = _cunp.zeros(n, dtype=dtype)
        alpha = 0.0
    if alpha > 0:
        v = v * (1 / alpha)

    itn = istop = 0
    zetabar = alpha * beta
    alphabar = alpha
    rho = rhobar = cbar = 1.0
    sbar = 0.0
    h = _cunp.array(v, copy=True)
    hbar = _cunp.zeros(n, dtype=dtype)
    betadd, betad = beta, 0.0
    rhodold = 1.0
    tautildeold = thetatilde = zeta = d = 0.0
    normA2 = alpha * alpha
    maxrbar, minrbar = 0.0, 1e100
    normA = math.sqrt(normA2)
    condA = 1.0
    normx = 0.0
    ctol = 1 / conlim if conlim > 0 else 0
    normr = beta
    normar = alpha * beta
    if normar == 0:
        return x, istop, itn, normr, normar, normA, condA, normx
    if normb == 0:
        x[...] = 0
        return x, istop, itn, normr, normar, normA, condA, normx

    def tests(normx, normr, normar, normA, condA, itn):
        test1 = div(normr, normb)
        test2 = normar / (normA * normr) if normA * normr != 0 else math.inf
        test3 = 1 / condA
        t1 = div(test1, 1 + div(normA * normx, normb))
        rtol = btol + atol * div(normA * normx, normb)
        stop = 0
        if itn >= maxiter:
            stop = 7
        if 1 + test3 <= 1:
            stop = 6
        if 1 + test2 <= 1:
            stop = 5
        if 1 + t1 <= 1:
            stop = 4
        if test3 <= ctol:
            stop = 3
        if test2 <= atol:
            stop = 2
        if test1 <= rtol:
            stop = 1
        return stop

    pending = None  # (||x|| on the device, the other quantities of the previous iteration's tests)
    while itn < maxiter:
        u_raw = A.matvec(v) - alpha * u
        beta_d = _cunp.linalg.norm(u_raw).astype(rdt)
        u_scaled = u_raw / beta_d
        v_raw = A.rmatvec(u_scaled) - beta_d * v
        alpha_d = _cunp.linalg.norm(v_raw)
        vals = _util.host_values(beta_d, alpha_d, *((pending[0],) if pending else ())).real
        if pending:
            normx = float(vals[2])
            istop = tests(normx, *pending[1])
            pending = None
            if istop > 0:
                break
        itn += 1
        beta = float(vals[0])
        if beta > 0:
            u = u_scaled
            alpha = float(vals[1])
            v = v_raw * (1 / alpha) if alpha > 0 else v_raw
        else:
            u = u_raw
        chat, shat, alphahat = sym_ortho(alphabar, damp)
        rhoold = rho
        c, s, rho = sym_ortho(alphahat, beta)
        thetanew = s * alpha
        alphabar = c * alpha
        rhobarold = rhobar
        zetaold = zeta
        thetabar = sbar * rho
        rhotemp = cbar * rho
        cbar, sbar, rhobar = sym_ortho(cbar * rho, thetanew)
        zeta = cbar * zetabar
        zetabar = -sbar * zetabar
        hbar *= -(thetabar * rho / (rhoold * rhobarold))
        hbar += h
        x += (zeta / (rho * rhobar)) * hbar
        h *= -(thetanew / rho)
        h += v
        betaacute = chat * betadd
        betacheck = -shat * betadd
        betahat = c * betaacute
        betadd = -s * betaacute
        thetatildeold = thetatilde
        ctildeold, stildeold, rhotildeold = sym_ortho(rhodold, thetabar)
        thetatilde = stildeold * rhobar
        rhodold = ctildeold * rhobar
        betad = -stildeold * betad + ctildeold * betahat
        tautildeold = (zetaold - thetatildeold * tautildeold) / rhotildeold
        taud = (zeta - thetatilde * tautildeold) / rhodold
        d += betacheck * betacheck
        normr = math.sqrt(d + (betad - taud) ** 2 + betadd * betadd)
        normA2 += beta * beta
        normA = math.sqrt(normA2)
        normA2 += alpha * alpha
        maxrbar = max(maxrbar, rhobarold)
        if itn > 1:
            minrbar = min(minrbar, rhobarold)
        condA = max(maxrbar, rhotemp) / min(minrbar, rhotemp)
        normar = abs(zetabar)
        pending = (_cunp.linalg.norm(x), (normr, normar, normA, condA, itn))
    if pending:
        normx = float(pending[0])
        istop = tests(normx, *pending[1])
    if show:
        print("LSMR finished: istop =%8g    normr =%8.1e    normA =%8.1e    normAr =%8.1e" % (istop, normr, normA,
                                                                                            normar))
        print("               itn   =%8g    condA =%8.1e    normx =%8.1e" % (itn, condA, normx))
    return x, istop, itn, normr, normar, normA, condA, normx

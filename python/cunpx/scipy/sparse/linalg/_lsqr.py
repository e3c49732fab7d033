"""LSQR for least-squares problems min ||A x - b||^2 + damp^2 ||x||^2
(scipy.sparse.linalg.lsqr; Paige and Saunders 1982).

SciPy's recurrence, stopping rules and 10-tuple result ``(x, istop, itn, r1norm,
r2norm, anorm, acond, arnorm, xnorm, var)``; x and var are cunp arrays, the others
Python floats. The Golub-Kahan bidiagonalisation runs on the device; its scalars come
to the host once per iteration.

Note [LSQR with one transfer per step]: a step needs beta = ||A v - alpha u||, then
alpha = ||A^H u - beta v|| with u already divided by beta, and ||w|| for the estimate of
cond(A). All three are computed on the device with beta kept as a 0-d array and read
together; when beta (or alpha) turns out to be zero the step takes SciPy's branch with
the vectors from before the division.

Differences from SciPy: x has the working dtype of A and b (float32 stays float32; SciPy
returns float64), and ``show=True`` prints only the final summary.
"""
import math

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse.linalg import _util
from cunpx.scipy.sparse.linalg._interface import aslinearoperator

__all__ = ["lsqr"]

_EPS = float(_numpy.finfo(_numpy.float64).eps)


def _sign(a):
    return (a > 0) - (a < 0)


def div(a, b):
    """a / b for Python floats, with NumPy's inf / nan where b is zero."""
    if b != 0:
        return a / b
    return math.copysign(math.inf, a) if a != 0 else math.nan


def sym_ortho(a, b):
    """A stable Givens rotation (c, s, r) with [c s; -s c] [a; b] = [r; 0], r >= 0
    (Choi, Paige and Saunders' SymOrtho)."""
    if b == 0:
        return _sign(a), 0, abs(a)
    if a == 0:
        return 0, _sign(b), abs(b)
    if abs(b) > abs(a):
        tau = a / b
        s = _sign(b) / math.sqrt(1 + tau * tau)
        c = s * tau
        return c, s, b / s
    tau = b / a
    c = _sign(a) / math.sqrt(1 + tau * tau)
    s = c * tau
    return c, s, a / c


def least_squares_system(A, b, x0):
    """(A as an operator, b as a 1-d device vector, the working dtype, x0 or None)."""
    A = aslinearoperator(A)
    b = _cunp.atleast_1d(_cunp.asarray(b))
    if b.ndim > 1:
        b = b.squeeze()
    m, n = A.shape
    if b.shape != (m,):
        raise ValueError("shapes of A %s and b %s are incompatible" % (A.shape, b.shape))
    dts = [A.dtype if A.dtype is not None else A.matvec(_cunp.zeros(n, _numpy.int8)).dtype, b.dtype]
    if x0 is not None:
        x0 = _cunp.atleast_1d(_cunp.asarray(x0))
        if x0.shape != (n,):
            raise ValueError("shapes of A %s and x0 %s are incompatible" % (A.shape, x0.shape))
        dts.append(x0.dtype)
    dtype = _numpy.result_type(*[_util.float_dtype(d) for d in dts])
    return A, b.astype(dtype, copy=False), dtype, x0


def lsqr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, iter_lim=None, show=False, calc_var=False, x0=None):
    """Least-squares solution of A x = b (A of any shape); see scipy.sparse.linalg.lsqr."""
    A, b, dtype, x0 = least_squares_system(A, b, x0)
    with _cunp.Device(b.device), _cunp.errstate(divide="ignore", invalid="ignore"):
        return _lsqr(A, b, dtype, x0, float(damp), float(atol), float(btol), float(conlim), iter_lim, show,
                     calc_var)


def _lsqr(A, b, dtype, x0, damp, atol, btol, conlim, iter_lim, show, calc_var):
    m, n = A.shape
    iter_lim = 2 * n if iter_lim is None else int(iter_lim)
    rdt = _util.real_dtype(dtype)
    var = _cunp.zeros(n, dtype=rdt)
    itn = istop = 0
    ctol = 1 / conlim if conlim > 0 else 0
    anorm = acond = 0.0
    dampsq = damp ** 2
    ddnorm = res2 = xnorm = xxnorm = z = 0.0
    cs2, sn2 = -1.0, 0.0
    u = b
    if x0 is None:
        x = _cunp.zeros(n, dtype=dtype)
        bnorm = beta = float(_cunp.linalg.norm(b))
    else:
        x = x0.astype(dtype, copy=True)
        u = u - A.matvec(x)
        bnorm, beta = _util.host_values(_cunp.linalg.norm(b), _cunp.linalg.norm(u)).real
    if beta > 0:
        u = u * (1 / beta)
        v = A.rmatvec(u)
        alfa = float(_cunp.linalg.norm(v))
    else:
        v = _cunp.array(x, copy=True)
        alfa = 0.0
    if alfa > 0:
        v = v * (1 / alfa)
    w = _cunp.array(v, copy=True)
    rhobar, phibar = alfa, beta
    rnorm = r1norm = r2norm = beta
    arnorm = alfa * beta
    if arnorm == 0:
        return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var

    while itn < iter_lim:
        itn += 1
        u_raw = A.matvec(v) - alfa * u
        beta_d = _cunp.linalg.norm(u_raw).astype(rdt)
        u_scaled = u_raw / beta_d
        v_raw = A.rmatvec(u_scaled) - beta_d * v
        alfa_d = _cunp.linalg.norm(v_raw)
        beta, alfa_new, wnorm = _util.host_values(beta_d, alfa_d, _cunp.linalg.norm(w)).real
        beta = float(beta)
        if beta > 0:
            u = u_scaled
            anorm = math.sqrt(anorm ** 2 + alfa ** 2 + beta ** 2 + dampsq)
            alfa = float(alfa_new)
            v = v_raw * (1 / alfa) if alfa > 0 else v_raw
        else:
            u = u_raw
        if damp > 0:
            rhobar1 = math.sqrt(rhobar ** 2 + dampsq)
            cs1, sn1 = rhobar / rhobar1, damp / rhobar1
            psi = sn1 * phibar
            phibar = cs1 * phibar
        else:
            rhobar1, psi = rhobar, 0.0
        cs, sn, rho = sym_ortho(rhobar1, beta)
        theta = sn * alfa
        rhobar = -cs * alfa
        phi = cs * phibar
        phibar = sn * phibar
        tau = sn * phi
        t1, t2 = phi / rho, -theta / rho
        if calc_var:
            var += _cunp.abs(w * (1 / rho)) ** 2
        x += t1 * w
        w = v + t2 * w
        ddnorm += (float(wnorm) / rho) ** 2
        delta = sn2 * rho
        gambar = -cs2 * rho
        rhs = phi - delta * z
        zbar = rhs / gambar
        xnorm = math.sqrt(xxnorm + zbar ** 2)
        gamma = math.sqrt(gambar ** 2 + theta ** 2)
        cs2, sn2 = gambar / gamma, theta / gamma
        z = rhs / gamma
        xxnorm += z ** 2
        acond = anorm * math.sqrt(ddnorm)
        res1 = phibar ** 2
        res2 += psi ** 2
        rnorm = math.sqrt(res1 + res2)
        arnorm = alfa * abs(tau)
        if damp > 0:
            r1sq = rnorm ** 2 - dampsq * xxnorm
            r1norm = math.copysign(math.sqrt(abs(r1sq)), r1sq) if r1sq != 0 else 0.0
        else:
            r1norm = rnorm
        r2norm = rnorm
        test1 = div(rnorm, bnorm)
        test2 = arnorm / (anorm * rnorm + _EPS)
        test3 = 1 / (acond + _EPS)
        t1 = div(test1, 1 + div(anorm * xnorm, bnorm))
        rtol = btol + atol * div(anorm * xnorm, bnorm)
        if itn >= iter_lim:
            istop = 7
        if 1 + test3 <= 1:
            istop = 6
        if 1 + test2 <= 1:
            istop = 5
        if 1 + t1 <= 1:
            istop = 4
        if test3 <= ctol:
            istop = 3
        if test2 <= atol:
            istop = 2
        if test1 <= rtol:
            istop = 1
        if istop != 0:
            break
    if show:
        print("LSQR finished: istop =%8g   r1norm =%8.1e   anorm =%8.1e   arnorm =%8.1e" % (istop, r1norm, anorm,
                                                                                          arnorm))
        print("               itn   =%8g   r2norm =%8.1e   acond =%8.1e   xnorm  =%8.1e" % (itn, r2norm, acond, xnorm))
    return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var

"""scipy.special's functions that are not ufuncs, composed from cunp's ufuncs and
reductions: softmax, log_softmax, logsumexp, comb, perm, factorial, factorial2,
multigammaln, polygamma, zeta(x, q=None) and lambertw(z, k=0, tol=1e-8)."""
import math
import numbers

import numpy

import cunp
from cunp import _core

_u = _core._special_ufuncs

__all__ = ["softmax", "log_softmax", "logsumexp", "comb", "perm", "factorial", "factorial2",
           "multigammaln", "polygamma", "zeta", "lambertw"]


def _is_python_int(v):
    return isinstance(v, (numbers.Integral, numpy.integer)) and not isinstance(v, (bool, numpy.bool_))


def _scalar_result(r, *inputs):
    """A 0-d result of all-scalar inputs as NumPy's scalar (SciPy returns np.float64)."""
    if all(numpy.ndim(i) == 0 and not isinstance(i, cunp.ndarray) for i in inputs):
        return cunp.asnumpy(r)[()]
    return r


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log(sum(b * exp(a))) along `axis` without overflow (scipy.special.logsumexp).

    The largest finite element is factored out; with `return_sign` the result is the
    pair (log|s|, sign(s)) so that negative weights `b` are allowed."""
    a = cunp.asarray(a)
    if b is not None:
        b = cunp.asarray(b)
        a, b = cunp.broadcast_arrays(a, b)
        # elements with weight 0 do not take part in the maximum
        a_for_max = cunp.where(b != 0, a, -cunp.inf)
    else:
        a_for_max = a
    if a.size == 0:
        a_max = cunp.zeros(cunp.sum(a, axis=axis, keepdims=True).shape, dtype=cunp.result_type(a.dtype, cunp.float64)
                           if a.dtype.kind in "biu" else a.dtype)
    else:
        a_max = cunp.max(a_for_max, axis=axis, keepdims=True)
        a_max = cunp.where(cunp.isfinite(a_max), a_max, 0)
    if b is not None:
        # weight 0 removes the element (also where a - a_max is inf)
        tmp = cunp.where(b != 0, b * cunp.exp(cunp.where(b != 0, a - a_max, 0)), 0)
    else:
        tmp = cunp.exp(a - a_max)
    s = cunp.sum(tmp, axis=axis, keepdims=keepdims)
    if return_sign:
        sgn = cunp.sign(s)
        s = cunp.abs(s)
    with cunp.errstate(divide="ignore"):
        out = cunp.log(s)
    if not keepdims:
        a_max = cunp.squeeze(a_max, axis=axis) if axis is not None else a_max.reshape(())
    out = out + a_max
    if return_sign:
        return out, sgn
    return out


def softmax(x, axis=None):
    """exp(x) / sum(exp(x)) along `axis`, computed from x - max(x) (scipy.special.softmax)."""
    x = cunp.asarray(x)
    x_max = cunp.max(x, axis=axis, keepdims=True)
    e = cunp.exp(x - x_max)
    return e / cunp.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=None):
    """x - logsumexp(x) along `axis` (scipy.special.log_softmax)."""
    x = cunp.asarray(x)
    x_max = cunp.max(x, axis=axis, keepdims=True)
    x_max = cunp.where(cunp.isfinite(x_max), x_max, 0)
    tmp = x - x_max
    with cunp.errstate(divide="ignore"):
        s = cunp.log(cunp.sum(cunp.exp(tmp), axis=axis, keepdims=True))
    return tmp - s


def comb(N, k, *, exact=False, repetition=False):
    """The number of combinations of N things taken k at a time (scipy.special.comb):
    binom(N, k) where 0 <= k <= N, else 0; exact=True computes Python ints."""
    if repetition:
        return comb(N + k - 1, k, exact=exact)
    if exact:
        if not (_is_python_int(N) or (numpy.ndim(N) == 0 and float(N) == int(N))) or \
                not (_is_python_int(k) or (numpy.ndim(k) == 0 and float(k) == int(k))):
            raise ValueError("Non-integer `N` and `k` with `exact=True` is not supported.")
        N, k = int(N), int(k)
        if k > N or N < 0 or k < 0:
            return 0
        return math.comb(N, k)
    Na, ka = cunp.asarray(N), cunp.asarray(k)
    cond = (ka <= Na) & (Na >= 0) & (ka >= 0)
    vals = cunp.where(cond, _u["binom"](Na, ka), 0.0)
    return _scalar_result(vals, N, k)


def perm(N, k, exact=False):
    """Permutations of N things taken k at a time, N! / (N - k)! (scipy.special.perm):
    poch(N - k + 1, k) where 0 <= k <= N, else 0; exact=True computes Python ints."""
    if exact:
        if not (_is_python_int(N) or float(N) == int(N)) or not (_is_python_int(k) or float(k) == int(k)):
            raise ValueError("Non-integer `N` and `k` with `exact=True` is not supported.")
        N, k = int(N), int(k)
        if k > N or N < 0 or k < 0:
            return 0
        return math.perm(N, k)
    Na, ka = cunp.asarray(N), cunp.asarray(k)
    cond = (ka <= Na) & (Na >= 0) & (ka >= 0)
    vals = cunp.where(cond, _u["poch"](Na - ka + 1, ka), 0.0)
    return _scalar_result(vals, N, k)


_EXTEND_MESSAGE = ("In order to use non-integer arguments, you must opt into this by passing "
                   "`extend='complex'`. Note that this changes the result for all negative arguments "
                   "(which by default return 0).")


def _check_extend(extend):
    if extend != "zero":
        raise NotImplementedError("factorial(extend=%r): only extend='zero' is implemented" % (extend,))


def factorial(n, exact=False, extend="zero"):
    """n! = gamma(n + 1), 0 for negative n (scipy.special.factorial). exact=True gives
    Python ints for integer n (int64 arrays where they fit)."""
    _check_extend(extend)
    if exact:
        if numpy.ndim(n) == 0 and not isinstance(n, cunp.ndarray):
            if not _is_python_int(n):
                raise ValueError("`factorial` with `exact=True` does not support non-integral scalar arguments.")
            return math.factorial(n) if n >= 0 else 0
        host = cunp.asnumpy(n) if isinstance(n, cunp.ndarray) else numpy.asarray(n)
        if host.dtype.kind not in "biu":
            raise ValueError("`factorial` with `exact=True` does not support non-integral arrays.")
        vals = [math.factorial(int(v)) if v >= 0 else 0 for v in host.ravel()]
        if any(v > numpy.iinfo(numpy.int64).max for v in vals):
            raise OverflowError("factorial(exact=True): a result does not fit in int64")
        return cunp.asarray(numpy.array(vals, dtype=numpy.int64).reshape(host.shape))
    na = cunp.asarray(n)
    r = cunp.where(na >= 0, _u["gamma"](na + 1.0), 0.0)
    return _scalar_result(r, n)


def factorial2(n, exact=False, extend="zero"):
    """The double factorial n!! (scipy.special.factorial2): for integer n >= 0,
    2^(n/2) gamma(n/2 + 1) at even n and 2^((n+1)/2) gamma(n/2 + 1) / sqrt(pi) at odd n;
    0 for negative n."""
    _check_extend(extend)
    host = cunp.asnumpy(n) if isinstance(n, cunp.ndarray) else numpy.asarray(n)
    if host.dtype.kind not in "biu":
        raise ValueError(_EXTEND_MESSAGE)
    if exact:
        def f2(v):
            v = int(v)
            return math.prod(range(v, 0, -2)) if v > 0 else (1 if v == 0 else 0)
        if host.ndim == 0 and not isinstance(n, cunp.ndarray):
            return f2(host)
        vals = [f2(v) for v in host.ravel()]
        if any(v > numpy.iinfo(numpy.int64).max for v in vals):
            raise OverflowError("factorial2(exact=True): a result does not fit in int64")
        return cunp.asarray(numpy.array(vals, dtype=numpy.int64).reshape(host.shape))
    na = cunp.asarray(n).astype(cunp.float64)
    half = na / 2
    even = 2.0 ** half * _u["gamma"](half + 1)
    odd = 2.0 ** ((na + 1) / 2) * _u["gamma"](half + 1) / math.sqrt(math.pi)
    r = cunp.where(na < 0, 0.0, cunp.where(na % 2 == 0, even, odd))
    return _scalar_result(r, n)


def multigammaln(a, d):
    """The log of the multivariate gamma function of dimension d
    (scipy.special.multigammaln): d (d-1) / 4 log(pi) + sum_j gammaln(a - j/2)."""
    if not (numpy.ndim(d) == 0 and float(d) == int(d)):
        raise ValueError("d should be a positive integer (dimension)")
    d = int(d)
    if d <= 0:
        raise ValueError("d should be a positive integer (dimension)")
    aa = cunp.asarray(a)
    if bool(cunp.any(aa <= 0.5 * (d - 1))):
        raise ValueError("condition a (%s) > 0.5 * (d-1) (%s) not met" % (a, 0.5 * (d - 1)))
    res = (d * (d - 1) * 0.25) * math.log(math.pi)
    r = res + sum(_u["gammaln"](aa - 0.5 * j) for j in range(d))
    return _scalar_result(r, a)


def polygamma(n, x):
    """The n-th derivative of the digamma function (scipy.special.polygamma):
    (-1)^(n+1) n! zeta(n + 1, x), and digamma(x) for n = 0."""
    na, xa = cunp.asarray(n), cunp.asarray(x)
    fac2 = (-1.0) ** (na + 1) * _u["gamma"](na + 1.0) * _u["_zeta"](na + 1, xa)
    r = cunp.where(na == 0, _u["psi"](xa), fac2)
    return _scalar_result(r, n, x)


def zeta(x, q=None, out=None):
    """The Riemann zeta function (q None) or the Hurwitz zeta function
    sum_k (k + q)^-x (scipy.special.zeta)."""
    if q is None:
        return _u["_riemann_zeta"](x, out=out)
    return _u["_zeta"](x, q, out=out)


def lambertw(z, k=0, tol=1e-8):
    """The Lambert W function on branch k: w with w exp(w) = z (scipy.special.lambertw);
    complex results, Halley's iteration stopped at relative step `tol`."""
    k = cunp.asarray(k).astype(cunp.int64)
    return _u["_lambertw"](z, k, tol)

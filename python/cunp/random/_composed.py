"""Distributions composed from cunp's kernels' ones, on the device (NumPy's formulas and
messages; the streams are cunp's own): standard_cauchy, standard_t, f,
noncentral_chisquare, noncentral_f, power, triangular, wald, negative_binomial,
logseries, dirichlet, multinomial, multivariate_normal and bytes. Attached to Generator
and RandomState, with the module-level functions, by cunp.random."""
import warnings

import numpy

import cunp
from cunp.random._generator import Generator, _finish


def _shape(size, *params):
    if size is not None:
        return tuple(int(s) for s in numpy.atleast_1d(size))
    return numpy.broadcast_shapes(*(numpy.shape(p) for p in params))


def _arr(x, dtype=numpy.float64):
    return x if isinstance(x, cunp.ndarray) else cunp.asarray(x, dtype=dtype)


def _check(condition_fails, message):
    """Raises ValueError(message) when any element fails (NumPy checks every parameter)."""
    bad = condition_fails if isinstance(condition_fails, bool) else bool(cunp.any(condition_fails))
    if bad:
        raise ValueError(message)


def _normal(g, shape, dtype):
    return g.standard_normal(shape, dtype=dtype)


def standard_cauchy(self, size=None, dtype=numpy.float64):
    shape = _shape(size)
    return _finish(_normal(self, shape, dtype) / _normal(self, shape, dtype), size)


def standard_t(self, df, size=None, dtype=numpy.float64):
    df = _arr(df)
    _check(~(df > 0), "df <= 0")
    shape = _shape(size, df)
    num = _normal(self, shape, dtype)
    denom = self.standard_gamma(cunp.broadcast_to(df / 2, shape), shape, dtype=dtype)
    return _finish((cunp.sqrt(df / 2) * num / cunp.sqrt(denom)).astype(dtype, copy=False), size)


def f(self, dfnum, dfden, size=None, dtype=numpy.float64):
    dfnum, dfden = _arr(dfnum), _arr(dfden)
    _check(~(dfnum > 0), "dfnum <= 0")
    _check(~(dfden > 0), "dfden <= 0")
    shape = _shape(size, dfnum, dfden)
    num = self.chisquare(cunp.broadcast_to(dfnum, shape), shape, dtype=dtype)
    den = self.chisquare(cunp.broadcast_to(dfden, shape), shape, dtype=dtype)
    return _finish(((num * dfden) / (den * dfnum)).astype(dtype, copy=False), size)


def _noncentral_chisquare(g, df, nonc, shape, dtype):
    df = cunp.broadcast_to(df, shape)
    nonc = cunp.broadcast_to(nonc, shape)
    # df > 1: chi2(df - 1) + N(sqrt(nonc), 1)^2; df <= 1: chi2(df + 2 Poisson(nonc / 2)).
    big = g.chisquare(cunp.where(df > 1, df - 1, 1.0), shape, dtype=dtype) + \
        (_normal(g, shape, dtype) + cunp.sqrt(nonc)) ** 2
    i = g.poisson(nonc / 2, shape)
    small = g.chisquare(df + 2 * i, shape, dtype=dtype)
    plain = g.chisquare(df, shape, dtype=dtype)
    return cunp.where(nonc == 0, plain, cunp.where(df > 1, big, small)).astype(dtype, copy=False)


def noncentral_chisquare(self, df, nonc, size=None, dtype=numpy.float64):
    df, nonc = _arr(df), _arr(nonc)
    _check(~(df > 0), "df <= 0")
    _check(~(nonc >= 0), "nonc < 0")
    shape = _shape(size, df, nonc)
    return _finish(_noncentral_chisquare(self, df, nonc, shape, dtype), size)


def noncentral_f(self, dfnum, dfden, nonc, size=None, dtype=numpy.float64):
    dfnum, dfden, nonc = _arr(dfnum), _arr(dfden), _arr(nonc)
    _check(~(dfnum > 0), "dfnum <= 0")
    _check(~(dfden > 0), "dfden <= 0")
    _check(~(nonc >= 0), "nonc < 0")
    shape = _shape(size, dfnum, dfden, nonc)
    t = _noncentral_chisquare(self, dfnum, nonc, shape, dtype) * dfden
    return _finish((t / (self.chisquare(cunp.broadcast_to(dfden, shape), shape, dtype=dtype) * dfnum))
                   .astype(dtype, copy=False), size)


def power(self, a, size=None, dtype=numpy.float64):
    a = _arr(a)
    _check(~(a > 0), "a <= 0")
    shape = _shape(size, a)
    e = self.standard_exponential(shape, dtype=dtype)
    return _finish(((-cunp.expm1(-e)) ** (1.0 / a)).astype(dtype, copy=False), size)


def triangular(self, left, mode, right, size=None, dtype=numpy.float64):
    left, mode, right = _arr(left), _arr(mode), _arr(right)
    _check(left > mode, "left > mode")
    _check(mode > right, "mode > right")
    _check(left == right, "left == right")
    shape = _shape(size, left, mode, right)
    base = right - left
    ratio = (mode - left) / base
    u = self.random(shape, dtype=numpy.float64)
    r = cunp.where(u <= ratio, left + cunp.sqrt(u * (mode - left) * base),
                   right - cunp.sqrt((1.0 - u) * (right - mode) * base))
    return _finish(r.astype(dtype, copy=False), size)


def wald(self, mean, scale, size=None, dtype=numpy.float64):
    mean, scale = _arr(mean), _arr(scale)
    _check(~(mean > 0), "mean <= 0")
    _check(~(scale > 0), "scale <= 0")
    shape = _shape(size, mean, scale)
    y = _normal(self, shape, numpy.float64)
    y = mean * y * y
    x = mean + (mean / (2 * scale)) * (y - cunp.sqrt(4 * scale * y + y * y))
    u = self.random(shape)
    return _finish(cunp.where(u <= mean / (mean + x), x, mean * mean / x).astype(dtype, copy=False), size)


def negative_binomial(self, n, p, size=None):
    n, p = _arr(n), _arr(p)
    _check(~(n > 0), "n <= 0")
    _check(~((p > 0) & (p <= 1)), "p <= 0, p > 1 or p contains NaNs")
    shape = _shape(size, n, p)
    lam = self.gamma(cunp.broadcast_to(n, shape), cunp.broadcast_to((1 - p) / p, shape), shape)
    return _finish(self.poisson(lam, shape), size)


def logseries(self, p, size=None):
    p = _arr(p)
    _check(~((p >= 0) & (p < 1)), "p < 0, p >= 1 or p is NaN")
    shape = _shape(size, p)
    p = cunp.broadcast_to(p, shape)
    # Kemp's second accelerated generator, as NumPy draws it.
    r = cunp.log1p(-p)
    v = self.random(shape)
    u = self.random(shape)
    q = -cunp.expm1(r * u)
    with cunp.errstate(divide="ignore", invalid="ignore"):
        k = cunp.floor(1 + cunp.log(v) / cunp.log(q))
    k = cunp.where((k < 1) | (v == 0) | cunp.isnan(k), 1.0, k)
    res = cunp.where(v >= p, 1.0, cunp.where(v <= q * q, k, cunp.where(v >= q, 1.0, 2.0)))
    return _finish(res.astype(numpy.int64), size)


def dirichlet(self, alpha, size=None):
    alpha = _arr(alpha)
    if alpha.ndim != 1:
        raise ValueError("object of too small depth for desired array" if alpha.ndim == 0 else
                         "setting an array element with a sequence. The requested array would exceed the "
                         "maximum number of dimension of 1.")
    _check(~(alpha >= 0), "alpha < 0")
    k = alpha.shape[0]
    lead = () if size is None else tuple(int(s) for s in numpy.atleast_1d(size))
    g = self.standard_gamma(cunp.broadcast_to(alpha, lead + (k,)), lead + (k,))
    total = g.sum(axis=-1, keepdims=True)
    return g / total


def multinomial(self, n, pvals, size=None):
    pvals = _arr(pvals)
    if pvals.ndim != 1:
        raise ValueError("pvals must be a 1-d sequence")
    k = pvals.shape[0]
    hp = pvals.get()
    if k == 0 or hp[:-1].sum() > 1.0 + 1e-12:
        raise ValueError("sum(pvals[:-1]) > 1.0")
    if ((hp < 0) | (hp > 1) | numpy.isnan(hp)).any():
        raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
    n = _arr(n, numpy.int64)
    _check(n < 0, "n < 0")
    lead = tuple(int(s) for s in numpy.atleast_1d(size)) if size is not None else n.shape
    remaining = cunp.broadcast_to(n, lead).astype(numpy.int64)
    left = 1.0
    cols = []
    for j in range(k - 1):
        pj = min(max(float(hp[j]) / left, 0.0), 1.0) if left > 0 else 0.0
        x = self.binomial(remaining, pj, lead) if lead else cunp.asarray(self.binomial(remaining, pj))
        x = cunp.asarray(x, dtype=numpy.int64)
        cols.append(x)
        remaining = remaining - x
        left -= float(hp[j])
    cols.append(remaining)
    return cunp.stack(cols, axis=-1)


def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd"):
    mean, cov = _arr(mean), _arr(cov)
    if mean.ndim != 1:
        raise ValueError("mean must be 1 dimensional")
    if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
        raise ValueError("cov must be 2 dimensional and square")
    if mean.shape[0] != cov.shape[0]:
        raise ValueError("mean and cov must have same length")
    if check_valid not in ("warn", "raise", "ignore"):
        raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
    if method not in ("svd", "eigh", "cholesky"):
        raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
    k = mean.shape[0]
    lead = () if size is None else tuple(int(s) for s in numpy.atleast_1d(size))
    z = self.standard_normal(lead + (k,))
    if method == "cholesky":
        factor = cunp.linalg.cholesky(cov).T
    else:
        if method == "svd":
            u, s, vh = cunp.linalg.svd(cov)
            psd = bool(cunp.allclose((vh.T * s) @ vh, cov, rtol=tol, atol=tol))
            factor = cunp.sqrt(s)[:, None] * vh
        else:
            s, u = cunp.linalg.eigh(cov)
            psd = not bool(cunp.any(s < -tol))
            factor = cunp.sqrt(cunp.abs(s))[:, None] * u.T
        if check_valid != "ignore" and not psd:
            if check_valid == "warn":
                warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=2)
            else:
                raise ValueError("covariance is not symmetric positive-semidefinite.")
    return z @ factor + mean


def _rejection(g, shape, propose):
    """Fills `shape` by rejection: propose(n) -> (values, accepted) for n pending draws,
    repeated on the still-pending ones (each round keeps most of them)."""
    n = int(numpy.prod(shape)) if shape else 1
    out = None
    pending = cunp.arange(n)
    while pending.size:
        values, ok = propose(pending)
        if out is None:
            out = cunp.empty(n, dtype=values.dtype)
        out[pending[ok]] = values[ok]
        pending = pending[~ok]
    return out.reshape(shape)


def vonmises(self, mu, kappa, size=None, dtype=numpy.float64):
    mu, kappa = _arr(mu), _arr(kappa)
    _check(kappa < 0, "kappa < 0")
    shape = _shape(size, mu, kappa)
    mu_f = cunp.broadcast_to(mu, shape).ravel()
    k_f = cunp.broadcast_to(kappa, shape).ravel()
    # Best and Fisher's rejection sampler on the wrapped Cauchy envelope, as NumPy draws it.
    with cunp.errstate(divide="ignore", invalid="ignore"):
        r = 1 + cunp.sqrt(1 + 4 * k_f * k_f)
        rho = (r - cunp.sqrt(2 * r)) / (2 * k_f)
        s = cunp.where(k_f < 1e-5, 1 / k_f + k_f, (1 + rho * rho) / (2 * rho))

    def propose(idx):
        ss, kk = s[idx], k_f[idx]
        u, v = self.random(idx.shape), self.random(idx.shape)
        z = cunp.cos(cunp.pi * u)
        w = (1 + ss * z) / (ss + z)
        y = kk * (ss - w)
        with cunp.errstate(divide="ignore", invalid="ignore"):
            ok = (y * (2 - y) - v >= 0) | (cunp.log(y / v) + 1 - y >= 0) | cunp.isnan(kk)
        return w, ok

    w = _rejection(self, (mu_f.size,), propose)
    u = self.random(w.shape)
    angle = cunp.arccos(cunp.clip(w, -1, 1))
    angle = cunp.where(u < 0.5, -angle, angle) + mu_f
    # Tiny kappa: uniform on the circle; huge kappa: the wrapped normal limit.
    angle = cunp.where(k_f < 1e-8, cunp.pi * (2 * self.random(w.shape) - 1), angle)
    big = k_f > 1e6
    if bool(cunp.any(big)):
        angle = cunp.where(big, mu_f + cunp.sqrt(1 / k_f) * self.standard_normal(w.shape), angle)
    neg = angle < 0
    mod = cunp.fmod(cunp.abs(angle) + cunp.pi, 2 * cunp.pi) - cunp.pi
    res = cunp.where(neg, -mod, mod).reshape(shape)
    return _finish(res.astype(dtype, copy=False), size)


def zipf(self, a, size=None):
    a = _arr(a)
    _check(~(a > 1), "a <= 1 or a is NaN")
    shape = _shape(size, a)
    a_f = cunp.broadcast_to(a, shape).ravel()

    def propose(idx):
        am1 = a_f[idx] - 1
        b = 2.0 ** am1
        u = 1 - self.random(idx.shape)
        v = self.random(idx.shape)
        with cunp.errstate(over="ignore", divide="ignore", invalid="ignore"):
            x = cunp.floor(u ** (-1 / am1))
            t = (1 + 1 / x) ** am1
            ok = (x >= 1) & (x < 9.2e18) & (v * x * (t - 1) / (b - 1) <= t / b)
        return cunp.where(ok, x, 1.0), ok

    res = _rejection(self, (a_f.size,), propose).astype(numpy.int64).reshape(shape)
    return _finish(res, size)


def _lgamma_from_1(x):
    """log Γ(x) for float64 x >= 1: six recurrence steps up, then Stirling's series
    (absolute error below 1e-15 for every x >= 1)."""
    z = x + 6
    shift = cunp.log(x) + cunp.log(x + 1) + cunp.log(x + 2) + cunp.log(x + 3) + cunp.log(x + 4) + cunp.log(x + 5)
    r = 1 / z
    r2 = r * r
    series = r * (1 / 12 - r2 * (1 / 360 - r2 * (1 / 1260 - r2 * (1 / 1680 - r2 / 1188))))
    return (z - 0.5) * cunp.log(z) - z + 0.9189385332046728 + series - shift


def hypergeometric(self, ngood, nbad, nsample, size=None):
    """The number of good items among `nsample` drawn without replacement from `ngood`
    good and `nbad` bad ones: Stadlober's ratio-of-uniforms sampler (HRUA), on the
    device, for every parameter set (NumPy's checks and messages)."""
    ngood, nbad, nsample = (_arr(v, numpy.int64) for v in (ngood, nbad, nsample))
    for name, v in (("ngood", ngood), ("nbad", nbad), ("nsample", nsample)):
        if v.dtype.kind not in "iu":
            raise TypeError("%s must be an integer, got dtype %s" % (name, v.dtype))
    _check(ngood < 0, "ngood < 0")
    _check(nbad < 0, "nbad < 0")
    _check(nsample < 0, "nsample < 0")
    _check(ngood + nbad < nsample, "ngood + nbad < nsample")
    _check(ngood + nbad > 10**9, "ngood + nbad > 1000000000 is not supported by cunp.random.hypergeometric")
    shape = _shape(size, ngood, nbad, nsample)
    good = cunp.broadcast_to(ngood, shape).ravel().astype(numpy.float64)
    bad = cunp.broadcast_to(nbad, shape).ravel().astype(numpy.float64)
    sample = cunp.broadcast_to(nsample, shape).ravel().astype(numpy.float64)
    pop = good + bad
    lo, hi = cunp.minimum(good, bad), cunp.maximum(good, bad)
    m = cunp.minimum(sample, pop - sample)
    with cunp.errstate(divide="ignore", invalid="ignore"):
        d4 = lo / pop
        d6 = m * d4 + 0.5
        d7 = cunp.sqrt((pop - m) * sample * d4 * (1 - d4) / (pop - 1) + 0.5)
    d8 = 1.7155277699214135 * d7 + 0.8989161620588988  # 2 sqrt(2/e), 3 - 2 sqrt(3/e)
    d9 = cunp.floor((m + 1) * (lo + 1) / (pop + 2))

    def log_terms(z, idx):
        return (_lgamma_from_1(z + 1) + _lgamma_from_1(lo[idx] - z + 1) + _lgamma_from_1(m[idx] - z + 1)
                + _lgamma_from_1(hi[idx] - m[idx] + z + 1))

    d10 = log_terms(d9, slice(None))
    d11 = cunp.minimum(cunp.minimum(m, lo) + 1, cunp.floor(d6 + 16 * d7))
    trivial = (m == 0) | (lo == 0)

    def propose(idx):
        x, y = self.random(idx.shape), self.random(idx.shape)
        with cunp.errstate(divide="ignore", invalid="ignore"):
            w = d6[idx] + d8[idx] * (y - 0.5) / x
            inside = (w >= 0) & (w < d11[idx])
            z = cunp.floor(cunp.where(inside, w, 0))
            t = d10[idx] - log_terms(z, idx)
            accept = inside & ((x * (4 - x) - 3 <= t) | ((x * (x - t) < 1) & (2 * cunp.log(x) <= t)))
        return cunp.where(trivial[idx], 0.0, z), accept | trivial[idx]

    z = _rejection(self, (good.size,), propose)
    z = cunp.where(good > bad, m - z, z)
    z = cunp.where(m < sample, good - z, z)
    return _finish(z.astype(numpy.int64).reshape(shape), size)


def bytes(self, length):
    """`length` random bytes (drawn on the current device, returned as Python bytes)."""
    return self.integers(0, 256, size=int(length), dtype=numpy.uint8).get().tobytes()


_GENERATOR_METHODS = (standard_cauchy, standard_t, f, noncentral_chisquare, noncentral_f, power, triangular, wald,
                      negative_binomial, logseries, dirichlet, multinomial, multivariate_normal, bytes, vonmises, zipf,
                      hypergeometric)
for _m in _GENERATOR_METHODS:
    setattr(Generator, _m.__name__, _m)


# ---- the legacy API: RandomState methods and the module-level functions
def _legacy(name):
    def method(self, *args, **kwargs):
        return getattr(self._gen, name)(*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = "numpy.random.RandomState.%s over cunp's Philox stream." % name
    return method


def _module_function(name):
    from cunp.random._legacy import get_random_state

    def function(*args, **kwargs):
        return getattr(get_random_state(), name)(*args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = "numpy.random.%s over the RandomState of get_random_state()." % name
    return function


def _attach_legacy(namespace):
    from cunp.random._legacy import RandomState

    for m in _GENERATOR_METHODS:
        setattr(RandomState, m.__name__, _legacy(m.__name__))
        namespace[m.__name__] = _module_function(m.__name__)

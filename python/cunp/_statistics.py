"""Statistics with NumPy's names and signatures: median, percentile, quantile and their
nan* variants, average, cov, corrcoef, histogram, histogram_bin_edges, bincount and
digitize. Semantics live in C++ (cunp/statistics.hpp); this module turns NumPy's
argument forms into the binding's."""
import operator

import numpy as _numpy

from cunp import _core
from cunp._array import asarray, ndarray

__all__ = [
    "median", "nanmedian", "quantile", "nanquantile", "percentile", "nanpercentile",
    "average", "cov", "corrcoef", "histogram", "histogram_bin_edges", "bincount", "digitize",
]


def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _opt(a):
    return None if a is None else _arr(a)


def _result(r, out):
    return out if out is not None else r


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """np.median: NaN where a slice holds a NaN; integers give float64."""
    return _result(_core._median(False, _arr(a), axis, out, keepdims), out)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """np.nanmedian: NaNs are left out; an all-NaN slice gives NaN."""
    return _result(_core._median(True, _arr(a), axis, out, keepdims), out)


def _q(q):
    """A Python int/float stays a (weak) number, as NumPy 2's weak_q; anything else
    becomes a host array with NumPy's dtype for it (q is small and read on the host)."""
    if type(q) in (int, float):
        return float(q)
    if isinstance(q, ndarray):
        return q
    return asarray(_numpy.asarray(q), device="cpu")


def _quantile(kind, a, q, axis, out, method, keepdims, weights):
    # NumPy 2.4 removed the `interpolation=` alias of `method=`: it is a TypeError here too.
    if weights is not None:
        raise NotImplementedError("%s with weights= is not supported by cunp yet" % kind)
    return _result(_core._quantile(kind, _arr(a), _q(q), axis, method, out, keepdims), out)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
             weights=None):
    """np.quantile; `method` takes NumPy's 13 names."""
    return _quantile("quantile", a, q, axis, out, method, keepdims, weights)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                weights=None):
    return _quantile("nanquantile", a, q, axis, out, method, keepdims, weights)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
               weights=None):
    """np.percentile: quantile of q / 100."""
    return _quantile("percentile", a, q, axis, out, method, keepdims, weights)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None):
    return _quantile("nanpercentile", a, q, axis, out, method, keepdims, weights)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """np.average: returns (average, sum of weights) when `returned`."""
    return _core._average(_arr(a), axis, _opt(weights), bool(returned), bool(keepdims))


def _ddof(ddof):
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    return None if ddof is None else int(ddof)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """np.cov (squeezed like NumPy: a 0-d array for a single variable)."""
    return _core._cov(_arr(m), _opt(y), bool(rowvar), bool(bias), _ddof(ddof), _opt(fweights),
                      _opt(aweights), dtype)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    return _core._corrcoef(_arr(x), _opt(y), bool(rowvar), dtype)


def _bins(bins):
    if isinstance(bins, str):
        return bins
    if isinstance(bins, ndarray):
        return bins
    if _numpy.ndim(bins) == 0:
        try:
            return operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
    return asarray(bins)


def histogram(a, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """np.histogram: (counts or weight sums, bin edges)."""
    return _core._histogram(False, _arr(a), _bins(bins), range, _opt(weights), bool(density))


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    return _core._histogram(True, _arr(a), _bins(bins), range, _opt(weights), False)


def bincount(x, /, weights=None, minlength=0):
    """np.bincount: int64 counts, or float64 sums of `weights`."""
    if not isinstance(x, ndarray):
        host = _numpy.asarray(x)
        if host.size == 0 and not isinstance(x, _numpy.ndarray):
            host = host.astype(_numpy.intp)  # NumPy reads a list as intp
        x = asarray(host)
    return _core._bincount(x, _opt(weights), operator.index(minlength))


def digitize(x, bins, right=False):
    """np.digitize: int64 bin indices (a 0-d array for a scalar x)."""
    return _core._digitize(_arr(x), _arr(bins), bool(right))

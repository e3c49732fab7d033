"""Reductions with NumPy's names and signatures (sum, mean, argmax, nanstd, ...);
the ndarray methods calling them are in _ndarray.py. Semantics live in C++ (cunp/reduce.hpp)."""
from cunp import _core, _fuse
from cunp._array import asarray, ndarray

__all__ = [
    "sum", "prod", "product", "mean", "var", "std", "min", "max", "amin", "amax", "ptp",
    "argmin", "argmax", "any", "all", "count_nonzero", "nansum", "nanprod", "nanmin",
    "nanmax", "nanmean", "nanvar", "nanstd", "cumsum", "cumprod", "cumulative_sum",
    "cumulative_prod", "nancumsum", "nancumprod", "diff",
]


def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _arr_on(v, a):
    return v if isinstance(v, ndarray) else asarray(v, device=a.device)


def _reduce(name, a, axis, dtype, out, keepdims, ddof, initial=None, where=True):
    # One Python frame on the common path (a cunp array, no where=): small reductions
    # are dominated by per-call overhead.
    if type(a) is not ndarray:
        if type(a) is _fuse._Traced:
            return a.__cunp_reduce__(name, axis, dtype, out, keepdims, ddof, initial, where)
        a = _arr(a)
    r = _core._reduce(name, a, axis, dtype, out, keepdims, ddof, initial,
                      None if where is True else _arr_on(where, a))
    return out if out is not None else r


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    return _reduce("sum", a, axis, dtype, out, keepdims, 0, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    return _reduce("prod", a, axis, dtype, out, keepdims, 0, initial, where)


product = prod


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    return _reduce("mean", a, axis, dtype, out, keepdims, 0, None, where)


def _ddof(name, ddof, correction, mean):
    """The delta degrees of freedom of var/std: NumPy's ddof= or the Array API's
    correction= (either, not both; any real number)."""
    if mean is not None:
        raise NotImplementedError("mean= is not supported by cunp's %s yet" % name)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    return float(ddof)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """np.var; ``correction=`` is the Array API's name of ``ddof``."""
    return _reduce("var", a, axis, dtype, out, keepdims, _ddof("var", ddof, correction, mean), None, where)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """np.std; ``correction=`` is the Array API's name of ``ddof``."""
    return _reduce("std", a, axis, dtype, out, keepdims, _ddof("std", ddof, correction, mean), None, where)


def _minmax(name):
    def f(a, axis=None, out=None, keepdims=False, initial=None, where=True):
        return _reduce(name, a, axis, None, out, keepdims, 0, initial, where)
    f.__name__ = name
    f.__doc__ = "np.%s: NaN propagates; ValueError for an empty reduction." % name
    return f


min = _minmax("min")  # noqa: A001
max = _minmax("max")  # noqa: A001
amin = min
amax = max


def ptp(a, axis=None, out=None, keepdims=False):
    return _reduce("ptp", a, axis, None, out, keepdims, 0)


def argmax(a, axis=None, out=None, *, keepdims=False, dtype=None):
    """np.argmax; `dtype=` (keyword-only) is CuPy's: the signed integer dtype of the
    returned indices."""
    r = _core._argreduce(True, _arr(a), axis, out, keepdims, dtype)
    return out if out is not None else r


def argmin(a, axis=None, out=None, *, keepdims=False, dtype=None):
    """np.argmin; `dtype=` (keyword-only) is CuPy's: the signed integer dtype of the
    returned indices."""
    r = _core._argreduce(False, _arr(a), axis, out, keepdims, dtype)
    return out if out is not None else r


def any(a, axis=None, out=None, keepdims=False, *, where=True):  # noqa: A001
    return _reduce("any", a, axis, None, out, keepdims, 0, None, where)


def all(a, axis=None, out=None, keepdims=False, *, where=True):  # noqa: A001
    return _reduce("all", a, axis, None, out, keepdims, 0, None, where)


def count_nonzero(a, axis=None, *, keepdims=False):
    """np.count_nonzero; a 0-d int64 array where NumPy returns a Python int (axis=None)."""
    return _reduce("count_nonzero", a, axis, None, None, keepdims, 0)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    return _reduce("nansum", a, axis, dtype, out, keepdims, 0, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    return _reduce("nanprod", a, axis, dtype, out, keepdims, 0, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _reduce("nanmin", a, axis, None, out, keepdims, 0, initial, where)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _reduce("nanmax", a, axis, None, out, keepdims, 0, initial, where)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    return _reduce("nanmean", a, axis, dtype, out, keepdims, 0, None, where)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
           correction=None):
    return _reduce("nanvar", a, axis, dtype, out, keepdims, _ddof("nanvar", ddof, correction, mean), None, where)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
           correction=None):
    return _reduce("nanstd", a, axis, dtype, out, keepdims, _ddof("nanstd", ddof, correction, mean), None, where)


# ---- scans and diff
def _scan(name, a, axis, dtype, out):
    r = _core._scan(name, _arr(a), axis, dtype, out)
    return out if out is not None else r


def cumsum(a, axis=None, dtype=None, out=None):
    """np.cumsum: ints and bool accumulate in int64 (unsigned in uint64); float16 in float32."""
    return _scan("cumsum", a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    """np.cumprod: the dtype rules of cumsum."""
    return _scan("cumprod", a, axis, dtype, out)


def nancumsum(a, axis=None, dtype=None, out=None):
    """np.nancumsum: NaN counts as 0."""
    return _scan("nancumsum", a, axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """np.nancumprod: NaN counts as 1."""
    return _scan("nancumprod", a, axis, dtype, out)


def _cumulative(name, x, axis, dtype, out, include_initial):
    x = _arr(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("axis must be specified for multi-dimensional arrays")
        axis = 0 if x.ndim == 1 else None
    r = _scan(name, x, axis, dtype, None if include_initial else out)
    if include_initial:
        from cunp._manipulation import concatenate
        ax = 0 if axis is None else axis
        shape = list(r.shape)
        shape[ax] = 1
        init = _core.zeros(tuple(shape), dtype=r.dtype, device=r.device) if name == "cumsum" else \
            _core.ones(tuple(shape), dtype=r.dtype, device=r.device)
        r = concatenate((init, r), axis=ax)
        if out is not None:
            out[...] = r
            return out
    return r


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """np.cumulative_sum (the array API's cumsum)."""
    return _cumulative("cumsum", x, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """np.cumulative_prod (the array API's cumprod)."""
    return _cumulative("cumprod", x, axis, dtype, out, include_initial)


_NOVALUE = object()


def diff(a, n=1, axis=-1, prepend=_NOVALUE, append=_NOVALUE):
    """np.diff: the n-th discrete difference along axis (not_equal for bool).
    ``prepend=None``/``append=None`` add nothing, as in the Array API (NumPy raises)."""
    a = _arr(a)
    pre = None if prepend is _NOVALUE or prepend is None else _arr_on(prepend, a)
    app = None if append is _NOVALUE or append is None else _arr_on(append, a)
    return _core._diff(a, int(n), int(axis), pre, app)

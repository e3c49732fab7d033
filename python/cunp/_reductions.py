"""Reductions with NumPy's names and signatures (sum, mean, argmax, nanstd, ...), and
the matching ndarray methods. Semantics live in C++ (cunp/reduce.hpp)."""
from cunp import _core
from cunp._array import asarray, ndarray

__all__ = [
    "sum", "prod", "product", "mean", "var", "std", "min", "max", "amin", "amax", "ptp",
    "argmin", "argmax", "any", "all", "count_nonzero", "nansum", "nanprod", "nanmin",
    "nanmax", "nanmean", "nanvar", "nanstd",
]



def _reduce(name, a, axis, dtype, out, keepdims, ddof):
    r = _core._reduce(name, a, axis, dtype, out, keepdims, ddof)
    return out if out is not None else r


def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _check_where(where):
    if where is not True:
        raise NotImplementedError("where= is not supported by cunp's reductions yet")


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    _check_where(where)
    if initial is not None:
        raise NotImplementedError("initial= is not supported by cunp's reductions yet")
    return _reduce("sum", _arr(a), axis, dtype, out, keepdims, 0)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    _check_where(where)
    if initial is not None:
        raise NotImplementedError("initial= is not supported by cunp's reductions yet")
    return _reduce("prod", _arr(a), axis, dtype, out, keepdims, 0)


product = prod


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    _check_where(where)
    return _reduce("mean", _arr(a), axis, dtype, out, keepdims, 0)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    _check_where(where)
    if mean is not None:
        raise NotImplementedError("mean= is not supported by cunp's var yet")
    if correction is not None:
        ddof = correction
    return _reduce("var", _arr(a), axis, dtype, out, keepdims, int(ddof))


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    _check_where(where)
    if mean is not None:
        raise NotImplementedError("mean= is not supported by cunp's std yet")
    if correction is not None:
        ddof = correction
    return _reduce("std", _arr(a), axis, dtype, out, keepdims, int(ddof))


def _minmax(name):
    def f(a, axis=None, out=None, keepdims=False, initial=None, where=True):
        _check_where(where)
        if initial is not None:
            raise NotImplementedError("initial= is not supported by cunp's reductions yet")
        return _reduce(name, _arr(a), axis, None, out, keepdims, 0)
    f.__name__ = name
    f.__doc__ = "np.%s: NaN propagates; ValueError for an empty reduction." % name
    return f


min = _minmax("min")  # noqa: A001
max = _minmax("max")  # noqa: A001
amin = min
amax = max


def ptp(a, axis=None, out=None, keepdims=False):
    return _reduce("ptp", _arr(a), axis, None, out, keepdims, 0)


def argmax(a, axis=None, out=None, *, keepdims=False):
    r = _core._argreduce(True, _arr(a), axis, out, keepdims)
    return out if out is not None else r


def argmin(a, axis=None, out=None, *, keepdims=False):
    r = _core._argreduce(False, _arr(a), axis, out, keepdims)
    return out if out is not None else r


def any(a, axis=None, out=None, keepdims=False, *, where=True):  # noqa: A001
    _check_where(where)
    return _reduce("any", _arr(a), axis, None, out, keepdims, 0)


def all(a, axis=None, out=None, keepdims=False, *, where=True):  # noqa: A001
    _check_where(where)
    return _reduce("all", _arr(a), axis, None, out, keepdims, 0)


def count_nonzero(a, axis=None, *, keepdims=False):
    """np.count_nonzero; a 0-d int64 array where NumPy returns a Python int (axis=None)."""
    return _reduce("count_nonzero", _arr(a), axis, None, None, keepdims, 0)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    _check_where(where)
    return _reduce("nansum", _arr(a), axis, dtype, out, keepdims, 0)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    _check_where(where)
    return _reduce("nanprod", _arr(a), axis, dtype, out, keepdims, 0)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    _check_where(where)
    return _reduce("nanmin", _arr(a), axis, None, out, keepdims, 0)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    _check_where(where)
    return _reduce("nanmax", _arr(a), axis, None, out, keepdims, 0)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    _check_where(where)
    return _reduce("nanmean", _arr(a), axis, dtype, out, keepdims, 0)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
           correction=None):
    _check_where(where)
    if correction is not None:
        ddof = correction
    return _reduce("nanvar", _arr(a), axis, dtype, out, keepdims, int(ddof))


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
           correction=None):
    _check_where(where)
    if correction is not None:
        ddof = correction
    return _reduce("nanstd", _arr(a), axis, dtype, out, keepdims, int(ddof))


# ---- ndarray methods (NumPy's signatures: the array is self)
def _method(fn):
    def m(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    m.__name__ = fn.__name__
    m.__doc__ = fn.__doc__
    return m


for _name, _fn in (("sum", sum), ("prod", prod), ("mean", mean), ("var", var), ("std", std),
                   ("min", min), ("max", max), ("argmin", argmin),
                   ("argmax", argmax), ("any", any), ("all", all)):
    setattr(ndarray, _name, _method(_fn))
del _name, _fn

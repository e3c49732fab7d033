"""The ufunc objects (cunp.add, cunp.sin, ...) and the elementwise functions built on them."""
from cunp import _core
from cunp._array import asarray, ndarray

ufunc = _core.ufunc
_ufuncs = _core._ufuncs

# NumPy's aliases of ufuncs, as the same objects.
_ALIASES = {"divide": "true_divide", "mod": "remainder", "abs": "absolute", "conj": "conjugate",
            "bitwise_not": "invert", "bitwise_invert": "invert", "pow": "power"}


def _export():
    names = dict(_ufuncs)
    for alias, target in _ALIASES.items():
        if target in names:
            names[alias] = names[target]
    return {k: v for k, v in names.items() if not k.startswith("_")}


def _ufunc_at(self, a, indices, b=None):
    """ufunc.at(a, indices, b=None): unbuffered in-place a[indices] = ufunc(a[indices], b);
    repeated indices accumulate (np.add.at(a, [0, 0], 1) adds 2)."""
    _core._ufunc_at(self.__name__, a, indices, b)


ufunc.at = _ufunc_at

globals().update(_export())
__all__ = sorted(_export())


def where(condition, x=None, y=None):
    """np.where(condition, x, y); the one-argument form is nonzero()."""
    if x is None and y is None:
        return _core.nonzero(condition if isinstance(condition, ndarray) else asarray(condition))
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return _core._where3(condition, x, y)


def clip(a, a_min=None, a_max=None, out=None, **kwargs):
    """np.clip: NaN in the array or a bound propagates."""
    a_min = kwargs.pop("min", a_min)
    a_max = kwargs.pop("max", a_max)
    if kwargs:
        raise TypeError("clip() got unexpected keyword arguments %r" % sorted(kwargs))
    return _core._clip(a if isinstance(a, ndarray) else asarray(a), a_min, a_max, out)


def real(val):
    return _core._real(asarray(val))


def imag(val):
    return _core._imag(asarray(val))


def angle(z, deg=False):
    return _core._angle(z if isinstance(z, ndarray) else asarray(z), deg)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    x = asarray(x)
    r = _core._nan_to_num(x, nan, posinf, neginf)
    if not copy:
        x[...] = r
        return x
    return r


def around(a, decimals=0, out=None):
    r = _core._around(asarray(a), decimals)
    if out is not None:
        out[...] = r
        return out
    return r


round = around  # noqa: A001 - NumPy's name


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _core._isclose(a, b, rtol, atol, equal_nan)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(_core._allclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2, equal_nan=False):
    try:
        a1, a2 = asarray(a1), asarray(a2, device=asarray(a1).device)
    except (TypeError, ValueError):
        return False
    return bool(_core._array_equal(a1, a2, equal_nan))


def _real_prop(self):
    return _core._real(self)


def _real_set(self, value):
    _core._real(self)[...] = value


def _imag_prop(self):
    return _core._imag(self)


def _imag_set(self, value):
    if self.dtype.kind != "c":
        raise TypeError("array does not have imaginary part to set")
    _core._imag(self)[...] = value


ndarray.real = property(_real_prop, _real_set)
ndarray.imag = property(_imag_prop, _imag_set)
ndarray.conj = lambda self: _ufuncs["conjugate"](self)
ndarray.conjugate = ndarray.conj
ndarray.clip = lambda self, min=None, max=None, out=None, **kwargs: clip(self, min, max, out, **kwargs)
ndarray.round = lambda self, decimals=0, out=None: around(self, decimals, out)


# ---- ufunc.reduce / ufunc.accumulate (semantics in C++: cunp/reduce.hpp)
def _ufunc_method_array(array):
    return array if isinstance(array, ndarray) else asarray(array)


def _single_out(out):
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        return out[0]
    return out


def _ufunc_reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """ufunc.reduce for add, multiply, maximum, minimum, fmax, fmin, logical_and/or/xor
    and bitwise_and/or/xor."""
    a = _ufunc_method_array(array)
    out = _single_out(out)
    w = None if where is True else (where if isinstance(where, ndarray) else asarray(where, device=a.device))
    r = _core._ufunc_reduce(self.__name__, a, axis, dtype, out, bool(keepdims), initial, w)
    return out if out is not None else r


def _ufunc_accumulate(self, array, axis=0, dtype=None, out=None):
    """ufunc.accumulate for the ufuncs that reduce (see reduce)."""
    a = _ufunc_method_array(array)
    out = _single_out(out)
    if axis is None or isinstance(axis, tuple):
        if a.ndim > 1 or isinstance(axis, tuple) and len(axis) != 1:
            raise ValueError("accumulate does not allow multiple axes")
        axis = axis[0] if isinstance(axis, tuple) else 0
    r = _core._scan(self.__name__, a, axis, dtype, out)
    return out if out is not None else r


ufunc.reduce = _ufunc_reduce
ufunc.accumulate = _ufunc_accumulate

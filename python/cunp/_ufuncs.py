"""The ufunc objects (cunp.add, cunp.sin, ...) and the elementwise functions built on them."""
from cunp import _core, _fuse, _signatures
from cunp._array import asarray, ndarray

ufunc = _core.ufunc
_ufuncs = _core._ufuncs

# NumPy's aliases of ufuncs, as the same objects (NumPy 2 has the Array API's names too:
# acos is arccos, bitwise_left_shift is left_shift, ...).
_ALIASES = {"divide": "true_divide", "mod": "remainder", "abs": "absolute", "conj": "conjugate",
            "bitwise_not": "invert", "bitwise_invert": "invert", "pow": "power",
            "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh", "atan": "arctan",
            "atan2": "arctan2", "atanh": "arctanh", "bitwise_left_shift": "left_shift",
            "bitwise_right_shift": "right_shift"}


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
_signatures.sign_ufuncs(_ufuncs.values())


# ---- floating-point error handling (cunp/errstate.hpp: per thread, read on cpu only)
seterr = _core.seterr
geterr = _core.geterr
seterrcall = _core.seterrcall
geterrcall = _core.geterrcall
_UNSET = object()


class errstate:
    """np.errstate(call=..., all=, divide=, over=, under=, invalid=): the error modes
    ('ignore', 'warn', 'raise', 'call', 'print', 'log') for a with-block or, as a
    decorator, for each call of a function. cuda kernels report no errors
    (docs/differences.md)."""

    __slots__ = ("_call", "_modes", "_saved")

    def __init__(self, *, call=_UNSET, all=None, divide=None, over=None, under=None, invalid=None):
        self._call = call
        self._modes = dict(all=all, divide=divide, over=over, under=under, invalid=invalid)
        self._saved = None

    def __enter__(self):
        if self._saved is not None:
            raise TypeError("Cannot enter `np.errstate` twice.")
        self._saved = self._set()
        return self

    def __exit__(self, *exc_info):
        self._restore(self._saved)
        self._saved = None

    def _set(self):
        old_call = seterrcall(self._call) if self._call is not _UNSET else _UNSET
        return seterr(**self._modes), old_call

    @staticmethod
    def _restore(saved):
        modes, old_call = saved
        seterr(**modes)
        if old_call is not _UNSET:
            seterrcall(old_call)

    def __call__(self, func):
        import functools

        @functools.wraps(func)
        def inner(*args, **kwargs):
            saved = self._set()
            try:
                return func(*args, **kwargs)
            finally:
                self._restore(saved)

        return inner


def where(condition, x=None, y=None):
    """np.where(condition, x, y); the one-argument form is nonzero()."""
    if x is None and y is None:
        return _core.nonzero(condition if isinstance(condition, ndarray) else asarray(condition))
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    if _fuse._tracing:
        return _fuse._where(condition, x, y)
    return _core._where3(condition, x, y)


def clip(a, min=None, max=None, out=None, *, a_min=_UNSET, a_max=_UNSET, **kwargs):  # noqa: A002
    """np.clip with the Array API's signature ``clip(x, /, min=None, max=None)``: either
    bound (or both, giving a copy) may be None. NumPy's keyword form (a_min= and a_max=,
    both) is accepted too. NaN in the array or a bound propagates."""
    if a_min is not _UNSET or a_max is not _UNSET:
        # NumPy's form: both bounds, by these names.
        if a_min is _UNSET or a_max is _UNSET:
            raise TypeError("clip() missing 1 required positional argument: '%s'"
                            % ("a_min" if a_min is _UNSET else "a_max"))
        if min is not None or max is not None:
            raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` are provided is "
                             "forbidden.")
    else:
        a_min, a_max = min, max
    if _fuse._tracing:
        traced = _fuse._clip(a, a_min, a_max, out, **kwargs)
        if traced is not None:
            return traced
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    a = a if isinstance(a, ndarray) else asarray(a)
    if kwargs:
        dtype, casting = kwargs.pop("dtype", None), kwargs.pop("casting", None)
        where = kwargs.pop("where", True)
        kwargs.pop("order", None), kwargs.pop("subok", None)
        if kwargs:
            raise TypeError("'%s' is an invalid keyword to ufunc 'clip'" % sorted(kwargs)[0])
        if where is not True:
            # where=: the clip ufunc itself (or minimum/maximum for one bound).
            kw = dict(out=out, where=where, dtype=dtype, casting=casting or "same_kind")
            if a_min is None and a_max is None:
                return _ufuncs["positive"](a, **kw) if a.dtype.kind != "b" else _ufuncs["logical_or"](a, False, **kw)
            if a_min is None:
                return _ufuncs["minimum"](a, a_max, **kw)
            if a_max is None:
                return _ufuncs["maximum"](a, a_min, **kw)
            return _ufuncs["clip"](a, a_min, a_max, **kw)
        return _core._clip(a, a_min, a_max, out, dtype, casting)
    return _core._clip(a, a_min, a_max, out, None, None)


def real(val):
    return _core._real(asarray(val))


def imag(val):
    return _core._imag(asarray(val))


def angle(z, deg=False):
    return _core._angle(z if isinstance(z, ndarray) else asarray(z), deg)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """np.nan_to_num; nan, posinf and neginf may be arrays broadcasting against x."""
    if not isinstance(x, ndarray):
        return _core._nan_to_num(asarray(x), False, nan, posinf, neginf)
    r = _core._nan_to_num(x, bool(copy), nan, posinf, neginf)
    return r if copy else x


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

"""NumPy's dispatch protocols and Python's object protocols on ``cunp.ndarray``.

``__array_ufunc__`` and ``__array_function__`` make ``numpy.add(x, y)``,
``numpy.concatenate([x, x])`` or ``numpy.linalg.norm(x)`` run in cunp when an operand is
a cunp array, returning cunp arrays; a NumPy array beside a cunp array on a CUDA device
raises TypeError (no silent transfer), as does a NumPy function or ufunc cunp does not
implement. ``__reduce__`` pickles through the host and keeps the device; ``__iter__``
walks the first axis. The ufunc methods ``outer`` and ``reduceat`` live here too.
"""
import sys

import numpy as _numpy

from cunp import _core

ndarray = _core.ndarray
_NUMPY_ARRAY = _numpy.ndarray
_cunp = sys.modules["cunp"]  # the package being initialized: its attributes are read per call


def _cunp_module(func):
    module = getattr(func, "__module__", None) or ""
    for prefix in ("linalg", "fft", "random"):
        if module == "numpy." + prefix or module.startswith("numpy." + prefix + "."):
            return getattr(_cunp, prefix)
    return _cunp if module == "numpy" or module.startswith("numpy.") else None


_MISSING = object()
# NumPy function -> (cunp module, name), or _MISSING. Names, not the objects: a cache of
# extension objects would outlive the extension at interpreter exit.
_FUNCTIONS = {}


def _implementation(func):
    module = _cunp_module(func)
    impl = getattr(module, func.__name__, None) if module is not None else None
    # A name cunp re-exports from NumPy is NumPy's own function: not an implementation.
    if impl is None or impl is func or not callable(impl):
        return _MISSING
    return (module, func.__name__)


def _qualified(func):
    module = getattr(func, "__module__", None) or "numpy"
    return "%s.%s" % ("numpy" if module.startswith("numpy._") else module, func.__name__)


def _cuda_array_in(values, depth=0):
    """The first cunp array on a CUDA device among values (lists and tuples one level
    down, dict values too), or None."""
    for v in values:
        if type(v) is ndarray:
            if v._device_str != "cpu":
                return v
        elif depth == 0 and isinstance(v, (list, tuple)):
            found = _cuda_array_in(v, 1)
            if found is not None:
                return found
    return None


def _mixing_error(what, cuda_array):
    return TypeError(
        "%s: a cunp array on %s and a numpy.ndarray cannot be mixed in one call (cunp does not copy "
        "host data implicitly); move the NumPy array with cunp.asarray(...) or the cunp array to the "
        "host with .get()" % (what, cuda_array._device_str))


def _on_cpu(values):
    """NumPy arrays among values (one level into lists/tuples) as cunp cpu arrays, zero-copy."""
    out = []
    for v in values:
        if isinstance(v, _NUMPY_ARRAY):
            v = _asarray_cpu(v)
        elif type(v) in (list, tuple) and any(isinstance(x, _NUMPY_ARRAY) for x in v):
            v = type(v)(_on_cpu(v))
        out.append(v)
    return out


def _asarray_cpu(v):
    return _cunp.asarray(v, device="cpu")


# ---- __array_function__ ---------------------------------------------------------------

def _array_function(self, func, types, args, kwargs):
    where = _FUNCTIONS.get(func)
    if where is None:
        where = _FUNCTIONS[func] = _implementation(func)
    has_numpy = False
    for t in types:
        if t is ndarray:
            continue
        if issubclass(t, _NUMPY_ARRAY):
            has_numpy = True
        elif not issubclass(t, ndarray):
            return NotImplemented  # another library's array: let it answer
    if where is _MISSING:
        raise TypeError("cunp does not implement %s (called with a cunp array)" % _qualified(func))
    impl = getattr(where[0], where[1])
    if has_numpy:
        cuda_array = _cuda_array_in(args)
        if cuda_array is None:
            cuda_array = _cuda_array_in(kwargs.values())
        if cuda_array is not None:
            raise _mixing_error(_qualified(func), cuda_array)
        args = _on_cpu(args)
        kwargs = dict(zip(kwargs, _on_cpu(kwargs.values())))
    return impl(*args, **kwargs)


# ---- __array_ufunc__ ------------------------------------------------------------------

_UFUNC_METHODS = ("__call__", "reduce", "accumulate", "reduceat", "outer", "at")


_UFUNCS = {}  # NumPy ufunc -> the name of cunp's ufunc (or of the function standing for it)


def _cunp_ufunc(ufunc):
    # A cunp ufunc, or a function standing for one (cunp.matmul, a gufunc in NumPy).
    name = getattr(ufunc, "__name__", "")
    u = getattr(_cunp, name, None)
    ok = isinstance(u, _core.ufunc) or (callable(u) and u is not ufunc and not isinstance(u, type))
    return name if ok else _MISSING


def _ufunc_name(ufunc, method):
    name = "numpy.%s" % getattr(ufunc, "__name__", ufunc)
    return name if method == "__call__" else "%s.%s" % (name, method)


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    name = _UFUNCS.get(ufunc)
    if name is None:
        name = _UFUNCS[ufunc] = _cunp_ufunc(ufunc)
    out = kwargs.get("out")
    operands = inputs if out is None else inputs + out
    has_numpy = False
    for x in operands:
        if type(x) is ndarray or x is None:
            continue
        if isinstance(x, _NUMPY_ARRAY):
            has_numpy = True
        elif hasattr(x, "__array_ufunc__") and not isinstance(x, (_numpy.generic, ndarray)):
            return NotImplemented  # another library's array (Dask, xarray ...) decides
    if name is _MISSING:
        raise TypeError("cunp does not implement the ufunc %s (called with a cunp array)" % _ufunc_name(ufunc, method))
    cu = getattr(_cunp, name)
    if method != "__call__" and (method not in _UFUNC_METHODS or not hasattr(cu, method)):
        raise TypeError("cunp does not implement the ufunc method %s (called with a cunp array)"
                        % _ufunc_name(ufunc, method))
    if has_numpy:
        if method == "__call__":
            # NumPy hands a NumPy scalar on the left of a comparison over as a 0-d array
            # (np.int8(2) < x calls less(array(2, int8), x)); a 0-d input is a scalar of
            # its dtype (the same promotion as the 0-d array), not host data to refuse.
            inputs = tuple(x[()] if type(x) is _NUMPY_ARRAY and x.ndim == 0 else x for x in inputs)
            operands = inputs if out is None else inputs + out
        cuda_array = _cuda_array_in(operands)
        if cuda_array is not None and any(isinstance(x, _NUMPY_ARRAY) for x in operands):
            raise _mixing_error(_ufunc_name(ufunc, method), cuda_array)
        inputs = tuple(_on_cpu(inputs))
        if out is not None:
            out = tuple(_on_cpu(out))
            if any(not isinstance(o, ndarray) for o in out if o is not None):
                raise TypeError("%s: out= must hold cunp arrays" % _ufunc_name(ufunc, method))
    if out is not None:
        kwargs["out"] = out[0] if len(out) == 1 else out
    if "subok" in kwargs and kwargs["subok"] is True:
        del kwargs["subok"]
    if method == "__call__":
        return cu(*inputs, **kwargs)
    return getattr(cu, method)(*inputs, **kwargs)


# ---- ufunc.outer and ufunc.reduceat ----------------------------------------------------

def _ufunc_outer(self, A, B, /, **kwargs):
    """ufunc.outer(A, B): the ufunc over every pair, shape A.shape + B.shape."""
    if self.nin != 2:
        raise ValueError("method outer is only supported for binary functions")
    a, b = _cunp.asarray(A), _cunp.asarray(B)
    return self(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)


def _ufunc_reduceat(self, array, indices, axis=0, dtype=None, out=None):
    """ufunc.reduceat: reduces array[indices[i]:indices[i+1]] along axis for each i (the
    last slice runs to the end); where indices[i] >= indices[i+1] the result is
    array[indices[i]], as NumPy gives it."""
    if self.nin != 2:
        raise ValueError("reduceat only supported for binary functions")
    a = _cunp.asarray(array)
    if a.ndim == 0:
        raise TypeError("cannot perform reduceat with a 0-d array")
    ax = int(axis)
    if not -a.ndim <= ax < a.ndim:
        raise _numpy.exceptions.AxisError(axis, a.ndim)
    ax %= a.ndim
    idx = _numpy.asarray(indices.get() if isinstance(indices, ndarray) else indices)
    if idx.ndim != 1:
        raise ValueError("index array must be 1-D")
    if idx.size and not _numpy.issubdtype(idx.dtype, _numpy.integer):
        raise TypeError("Cannot cast array data from dtype(%r) to dtype('int64') according to the rule 'safe'"
                        % idx.dtype.name)
    n = a.shape[ax]
    for i in idx:
        if not 0 <= int(i) < n:
            raise IndexError("index %d out-of-bounds in %s.reduceat [0, %d)" % (int(i), self.__name__, n))
    moved = _cunp.moveaxis(a, ax, 0)
    pieces = []
    for k, start in enumerate(idx):
        start = int(start)
        stop = int(idx[k + 1]) if k + 1 < len(idx) else n
        if start < stop:
            pieces.append(self.reduce(moved[start:stop], axis=0, dtype=dtype))
        else:
            pieces.append(moved[start] if dtype is None else moved[start].astype(dtype))
    if pieces:
        result = _cunp.stack(pieces)
    else:
        result = _cunp.empty((0,) + moved.shape[1:], dtype=dtype or a.dtype, device=a.device)
    result = _cunp.moveaxis(result, 0, ax)
    if out is not None:
        o = out[0] if isinstance(out, tuple) else out
        _cunp.copyto(o, result, casting="same_kind")
        return o
    return result


_core.ufunc.outer = _ufunc_outer
_core.ufunc.reduceat = _ufunc_reduceat


# ---- Python's object protocols ---------------------------------------------------------

def _rebuild(host, device):
    """Unpickles an array: its host copy moved to the device it was pickled from (the
    current CUDA device when that one is absent here, cpu when no GPU is)."""
    try:
        return _cunp.asarray(host, device=device)
    except Exception:  # noqa: BLE001 - that device is not here: fall back to the default one
        return _cunp.asarray(host)


def _reduce(self):
    return _rebuild, (self.get() if self._device_str != "cpu" else self._numpy_view().copy(), self._device_str)


def _reduce_ex(self, protocol):
    return _reduce(self)


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))

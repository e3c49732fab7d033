"""Argument handling shared by the sparse formats (scipy.sparse._sputils): the dtypes
SciPy's sparse containers accept, the index dtype (int32, int64 past int32's range),
shape and axis checks, and moving index/data arguments onto one device."""
import operator

import numpy as _numpy

import cunp as _cunp

ndarray = _cunp.ndarray

# scipy.sparse's supported dtypes, in SciPy's order of preference for upcast (longdouble
# and clongdouble have no cunp counterpart).
SUPPORTED_DTYPES = [_numpy.dtype(t) for t in (
    _numpy.bool_, _numpy.int8, _numpy.uint8, _numpy.int16, _numpy.uint16, _numpy.int32, _numpy.uint32,
    _numpy.int64, _numpy.uint64, _numpy.float32, _numpy.float64, _numpy.complex64, _numpy.complex128)]
_SUPPORTED_NAMES = ("bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, longlong, ulonglong, "
                    "float32, float64, longdouble, complex64, complex128, clongdouble")
_INT32_MAX = int(_numpy.iinfo(_numpy.int32).max)
_INT32_MIN = int(_numpy.iinfo(_numpy.int32).min)


def check_dtype(dtype):
    """The dtype, or SciPy's ValueError for one scipy.sparse does not hold (float16, object)."""
    dtype = _numpy.dtype(dtype)
    if dtype == _numpy.object_:
        raise ValueError("object dtype is not supported by sparse matrices")
    if dtype not in SUPPORTED_DTYPES:
        raise ValueError("scipy.sparse does not support dtype %s. The only supported types are: %s."
                         % (dtype, _SUPPORTED_NAMES))
    return dtype


def getdtype(dtype, a=None, default=None):
    """SciPy's getdtype: `dtype`, else a's dtype, else `default`, checked."""
    if dtype is None:
        if a is not None:
            return check_dtype(a.dtype)
        if default is None:
            raise TypeError("could not interpret data type")
        return check_dtype(default)
    return check_dtype(dtype)


def upcast(*dtypes):
    """The first supported dtype that the NumPy result type of `dtypes` casts to safely."""
    t = _numpy.result_type(*dtypes)
    for s in SUPPORTED_DTYPES:
        if _numpy.can_cast(t, s):
            return s
    raise TypeError("no supported conversion for types: %r" % (dtypes,))


def upcast_scalar(dtype, scalar):
    """The dtype of `array_of_dtype * scalar` under NEP 50 (Python scalars are weak)."""
    return _numpy.result_type(_numpy.empty(0, dtype=dtype), scalar) if _is_python_scalar(scalar) \
        else _numpy.result_type(dtype, _numpy.asarray(scalar).dtype)


def _is_python_scalar(x):
    return isinstance(x, (bool, int, float, complex))


def get_sum_dtype(dtype):
    """NumPy's sum dtype: small integers (and bool) accumulate in int64 / uint64."""
    dtype = _numpy.dtype(dtype)
    if dtype.kind == "u" and dtype.itemsize < 8:
        return _numpy.dtype(_numpy.uint64)
    if dtype.kind in "bi" and dtype.itemsize < 8:
        return _numpy.dtype(_numpy.int64)
    return dtype


def get_index_dtype(arrays=(), maxval=None, check_contents=False):
    """scipy.sparse.get_index_dtype: int32 when `maxval` and the arrays (their dtypes, or
    with check_contents their values) fit in int32, else int64. Checking the contents of
    a device array reads its min and max (one synchronisation)."""
    if maxval is not None and int(maxval) > _INT32_MAX:
        return _numpy.dtype(_numpy.int64)
    if isinstance(arrays, (ndarray, _numpy.ndarray)):
        arrays = (arrays,)
    for arr in arrays:
        dt = _numpy.dtype(arr.dtype) if hasattr(arr, "dtype") else _numpy.asarray(arr).dtype
        if _numpy.can_cast(dt, _numpy.int32):
            continue
        if not check_contents or dt.kind not in "iu":
            return _numpy.dtype(_numpy.int64)
        size = arr.size if hasattr(arr, "size") else _numpy.asarray(arr).size
        if size == 0:
            continue
        lo, hi = _host_min_max(arr)
        if lo < _INT32_MIN or hi > _INT32_MAX:
            return _numpy.dtype(_numpy.int64)
    return _numpy.dtype(_numpy.int32)


def _host_min_max(arr):
    if isinstance(arr, ndarray):
        both = _cunp.stack([arr.min(), arr.max()]).get()
        return int(both[0]), int(both[1])
    host = _numpy.asarray(arr)
    return int(host.min()), int(host.max())


def isscalarlike(x):
    """A Python/NumPy scalar or a 0-d array (NumPy's or cunp's)."""
    return _numpy.isscalar(x) or (isinstance(x, (_numpy.ndarray, ndarray)) and x.ndim == 0)


def isintlike(x):
    if _numpy.ndim(x) != 0 if not isinstance(x, ndarray) else x.ndim != 0:
        return False
    try:
        operator.index(x)
    except (TypeError, ValueError):
        try:
            loose = bool(int(x) == x)
        except (TypeError, ValueError):
            return False
        if loose:
            raise ValueError("Inexact indices into sparse matrices are not allowed")
        return loose
    return True


def isshape(x, nonneg=False):
    """A tuple of two ints (non-negative with `nonneg`)."""
    if not isinstance(x, tuple) or len(x) != 2:
        return False
    if not all(isintlike(v) for v in x):
        return False
    return not nonneg or (x[0] >= 0 and x[1] >= 0)


def isdense(x):
    """A dense array: NumPy's or cunp's."""
    return isinstance(x, (_numpy.ndarray, ndarray))


def check_shape(shape):
    """A shape as a tuple of two non-negative ints, with SciPy's errors."""
    if isinstance(shape, (int, _numpy.integer)):
        shape = (shape,)
    try:
        shape = tuple(operator.index(s) for s in shape)
    except TypeError:
        raise TypeError("expected a sequence of integers for the shape, got %r" % (shape,)) from None
    if len(shape) != 2:
        raise ValueError("shape must be a 2-tuple")
    if any(s < 0 for s in shape):
        raise ValueError("'shape' elements cannot be negative")
    return shape


def validateaxis(axis, ndim=2):
    """SciPy's validateaxis: None (all axes) or a tuple of non-negative axes."""
    if axis is None:
        return None
    if axis == ():
        raise ValueError("sparse does not accept 0D axis (). Either use toarray (for dense) "
                         "or copy (for sparse).")
    if not isinstance(axis, tuple):
        if not _numpy.issubdtype(_numpy.dtype(type(axis)), _numpy.integer):
            raise TypeError("axis must be an integer/tuple of ints, not %s" % type(axis))
        axis = (axis,)
    canon = []
    for ax in axis:
        if not isintlike(ax):
            raise TypeError("axis must be an integer. (given %s)" % (ax,))
        ax = int(ax)
        if ax < 0:
            ax += ndim
        if ax < 0 or ax >= ndim:
            raise ValueError("axis out of range for ndim")
        canon.append(ax)
    if len(canon) != len(set(canon)):
        raise ValueError("duplicate value in axis")
    if len(canon) == ndim:
        return None
    return tuple(canon)


def device_of(*arrays):
    """The device of the first cunp array among `arrays`, else None (the current device)."""
    for a in arrays:
        if isinstance(a, ndarray):
            return a.device
    return None


def to_device(x, device, dtype=None, copy=False):
    """`x` (cunp, NumPy, a list) as a cunp array on `device`, cast to `dtype`; a copy only
    where `copy` asks for one or the conversion needs it."""
    if isinstance(x, ndarray):
        if device is not None and str(x.device) != str(device):
            raise ValueError("sparse operands must be on one device: got arrays on %s and %s" % (x.device, device))
        if dtype is not None and x.dtype != dtype:
            return x.astype(dtype)
        return x.copy() if copy else x
    host = _numpy.asarray(x) if dtype is None else _numpy.asarray(x, dtype=dtype)
    return _cunp.asarray(host, device=device)

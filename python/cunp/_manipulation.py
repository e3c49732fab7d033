"""Array manipulation routines with NumPy's signatures."""
import numbers

import numpy as _numpy

from cunp import _core
from cunp._array import asarray, ndarray, transpose

from cunp._core import (  # noqa: F401 - re-exported
    moveaxis, swapaxes, rollaxis, expand_dims, squeeze, atleast_1d, atleast_2d, atleast_3d,
    flip, fliplr, flipud, rot90, broadcast_arrays, concatenate, stack, vstack, hstack, dstack,
    column_stack, append, split, array_split, hsplit, vsplit, dsplit, tile, repeat, roll, resize,
    trim_zeros,
)

# NumPy 2's (and the Array API's) names of concatenate and transpose, as the same objects.
concat = concatenate
permute_dims = transpose
# Shapes only, on the host: NumPy's function (NumPy 2's broadcast_shapes is the standard's).
broadcast_shapes = _numpy.broadcast_shapes


def unstack(x, /, *, axis=0):
    """numpy.unstack: the slices of `x` along `axis`, as a tuple of views."""
    x = x if isinstance(x, ndarray) else asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    return tuple(moveaxis(x, axis, 0))


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """numpy.meshgrid: coordinate arrays from 1-d coordinate vectors (each input is
    flattened), 'xy' (Cartesian) or 'ij' (matrix) indexing; ``sparse=True`` keeps the
    broadcastable shapes, ``copy=False`` returns broadcast views."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    first = next((x for x in xi if isinstance(x, ndarray)), None)
    ones = (1,) * len(xi)
    out = []
    for i, x in enumerate(xi):
        x = x if isinstance(x, ndarray) else asarray(x, device=None if first is None else first.device)
        out.append(x.reshape(ones[:i] + (-1,) + ones[i + 1:]))
    if indexing == "xy" and len(xi) > 1:
        out[0] = out[0].reshape((1, -1) + ones[2:])
        out[1] = out[1].reshape((-1, 1) + ones[2:])
    if not sparse:
        out = broadcast_arrays(*out)
    if copy:
        out = [x.copy() for x in out]
    return tuple(out)


_PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum", "mean", "median",
              "minimum", "empty")


def _pad_widths(pad_width, ndim):
    """NumPy's pad_width forms: n, (n,), (before, after), ((b0, a0), (b1, a1), ...)."""
    w = _numpy.asarray(pad_width)
    if w.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    w = _numpy.broadcast_to(w, (ndim, 2)) if w.ndim < 2 or w.shape == (1, 2) else w
    if w.shape != (ndim, 2):
        raise ValueError("operands could not be broadcast together with remapped shapes")
    return [(int(b), int(a)) for b, a in w]


def _pairs(value, ndim, name, cast=float):
    """NumPy's per-axis forms: v, (v,), (before, after), ((b0, a0), (b1, a1), ...)."""
    if value is None:
        return [(None, None)] * ndim
    w = _numpy.asarray(value, dtype=object)
    try:
        w = _numpy.broadcast_to(w, (ndim, 2)) if w.ndim < 2 or w.shape == (1, 2) else w
    except ValueError:
        raise ValueError("operands could not be broadcast together with remapped shapes") from None
    if w.shape != (ndim, 2):
        raise ValueError("%s must have one (before, after) pair per axis" % name)
    return [tuple(None if x is None else cast(x) for x in pair) for pair in w]


def _number(x):
    if isinstance(x, ndarray):
        x = x.item()
    if isinstance(x, complex) or (isinstance(x, _numpy.generic) and _numpy.iscomplexobj(x)):
        raise NotImplementedError("complex constant_values/end_values are not available yet")
    if not isinstance(x, (numbers.Number, _numpy.generic)):
        raise TypeError("pad values must be numbers")
    return float(x)


def _length(x):
    if x is None:
        return None
    v = int(x)
    if v < 0:
        raise ValueError("index can't contain negative values")
    return v


def pad(array, pad_width, mode="constant", **kwargs):
    """np.pad for the modes constant (constant_values), edge, reflect, symmetric, wrap,
    linear_ramp (end_values), maximum/mean/median/minimum (stat_length) and empty."""
    a = asarray(array)
    if callable(mode) or mode not in _PAD_MODES:
        raise NotImplementedError("pad mode %r is not available yet (supported: %s)" % (mode, ", ".join(_PAD_MODES)))
    allowed = {"constant": {"constant_values"}, "reflect": {"reflect_type"}, "symmetric": {"reflect_type"},
               "linear_ramp": {"end_values"}, "maximum": {"stat_length"}, "mean": {"stat_length"},
               "median": {"stat_length"}, "minimum": {"stat_length"}}
    unexpected = set(kwargs) - allowed.get(mode, set())
    if unexpected:
        raise ValueError("unsupported keyword arguments for mode '%s': %s" % (mode, unexpected))
    if kwargs.get("reflect_type", "even") != "even":
        raise NotImplementedError("reflect_type='odd' is not available yet")
    widths = _pad_widths(pad_width, a.ndim)
    constant = _pairs(kwargs.get("constant_values", 0), a.ndim, "constant_values", _number)
    ends = _pairs(kwargs.get("end_values", 0), a.ndim, "end_values", _number)
    stats = _pairs(kwargs.get("stat_length"), a.ndim, "stat_length", _length)
    return _core._pad_options(a, widths, mode, constant, ends, stats)


def _index_list(obj, n):
    """insert/delete's obj as a list of ints (a slice expanded over an axis of n)."""
    if isinstance(obj, slice):
        return list(range(*obj.indices(n)))
    if isinstance(obj, ndarray):
        obj = obj.get()
    idx = _numpy.asarray(obj)
    if idx.size == 0 and not isinstance(obj, _numpy.ndarray):
        idx = idx.astype(_numpy.intp)
    if idx.dtype.kind == "b":
        raise IndexError("boolean arrays as obj are not supported here")
    if idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return [int(i) for i in idx.ravel()]


def _axis_length(a, axis):
    if axis is None:
        return a.size
    return a.shape[axis % a.ndim] if a.ndim else 0


def insert(arr, obj, values, axis=None):
    """np.insert: values inserted before the given indices (a scalar obj inserts one block)."""
    a = asarray(arr)
    n = _axis_length(a, axis)
    v = asarray(values, device=a.device, dtype=a.dtype)
    if isinstance(obj, (bool, _numpy.bool_)):
        raise IndexError("boolean obj is not supported by insert")
    if isinstance(obj, numbers.Integral) or (isinstance(obj, (ndarray, _numpy.ndarray)) and obj.ndim == 0):
        return _core._insert(a, True, [int(obj)], v, axis)
    if not isinstance(obj, slice) and _numpy.ndim(obj if not isinstance(obj, ndarray) else obj.get()) > 1:
        raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    return _core._insert(a, False, _index_list(obj, n), v, axis)


def delete(arr, obj, axis=None):
    """np.delete: arr without the positions obj (int, slice, integer or boolean array)."""
    a = asarray(arr)
    n = _axis_length(a, axis)
    if not isinstance(obj, slice):
        host = obj.get() if isinstance(obj, ndarray) else obj
        mask = _numpy.asarray(host)
        if mask.dtype.kind == "b" and not isinstance(host, (bool, _numpy.bool_)):
            if mask.shape != (n,):
                raise ValueError("boolean array argument obj to delete must be one dimensional and match the axis "
                                 "length of %d" % n)
            return _core._delete(a, [int(i) for i in _numpy.flatnonzero(mask)], axis)
    return _core._delete(a, _index_list(obj, n), axis)

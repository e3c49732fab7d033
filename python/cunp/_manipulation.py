"""Array manipulation routines with NumPy's signatures."""
import numbers

import numpy as _numpy

from cunp import _core
from cunp._array import asarray, ndarray

from cunp._core import (  # noqa: F401 - re-exported
    moveaxis, swapaxes, rollaxis, expand_dims, squeeze, atleast_1d, atleast_2d, atleast_3d,
    flip, fliplr, flipud, rot90, broadcast_arrays, concatenate, stack, vstack, hstack, dstack,
    column_stack, append, split, array_split, hsplit, vsplit, dsplit, tile, repeat, roll, resize,
)

_PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


def _pad_widths(pad_width, ndim):
    """NumPy's pad_width forms: n, (n,), (before, after), ((b0, a0), (b1, a1), ...)."""
    w = _numpy.asarray(pad_width)
    if w.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    w = _numpy.broadcast_to(w, (ndim, 2)) if w.ndim < 2 or w.shape == (1, 2) else w
    if w.shape != (ndim, 2):
        raise ValueError("operands could not be broadcast together with remapped shapes")
    return [(int(b), int(a)) for b, a in w]


def pad(array, pad_width, mode="constant", **kwargs):
    """np.pad for the modes constant (constant_values), edge, reflect, symmetric, wrap."""
    a = asarray(array)
    if callable(mode) or mode not in _PAD_MODES:
        raise NotImplementedError("pad mode %r is not available yet (supported: %s)" % (mode, ", ".join(_PAD_MODES)))
    allowed = {"constant": {"constant_values"}, "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}}
    unexpected = set(kwargs) - allowed.get(mode, set())
    if unexpected:
        raise ValueError("unsupported keyword arguments for mode '%s': %s" % (mode, unexpected))
    if kwargs.get("reflect_type", "even") != "even":
        raise NotImplementedError("reflect_type='odd' is not available yet")
    widths = _pad_widths(pad_width, a.ndim)
    value = kwargs.get("constant_values", 0)
    if not isinstance(value, numbers.Number) or isinstance(value, complex):
        raise NotImplementedError("constant_values must be one real number for now")
    return _core._pad(a, widths, mode, float(value))


ndarray.swapaxes = lambda self, axis1, axis2: _core.swapaxes(self, axis1, axis2)
ndarray.repeat = lambda self, repeats, axis=None: _core.repeat(self, repeats, axis)

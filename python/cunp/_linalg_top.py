"""Matrix products in the top-level namespace (numpy.matmul, dot, ...) and the
ndarray methods built on them (`@`, `@=`, ndarray.dot)."""
import numbers

import numpy as _numpy

from cunp import _core
from cunp._core import ndarray

__all__ = ["matmul", "dot", "vdot", "inner", "outer", "tensordot", "trace"]


def _cast(result, dtype):
    return result if dtype is None or _numpy.dtype(dtype) == result.dtype else result.astype(dtype)


def matmul(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True):
    """numpy.matmul: batched matrix product with broadcasting (also ``x1 @ x2``)."""
    if casting != "same_kind":
        raise NotImplementedError("matmul: only casting='same_kind' is supported")
    if dtype is not None:
        r = _cast(_core._matmul(x1, x2, None), dtype)
        if out is None:
            return r
        out[...] = r
        return out
    if out is None:
        return _core._matmul(x1, x2, None)
    _core._matmul(x1, x2, out)
    return out


def dot(a, b, out=None):
    """numpy.dot."""
    if out is None:
        return _core._dot(a, b, None)
    _core._dot(a, b, out)
    return out


def vdot(a, b, /):
    """numpy.vdot: the conjugated dot product of the flattened inputs."""
    return _core._vdot(a, b)


def inner(a, b, /):
    """numpy.inner: sums over the last axes."""
    return _core._inner(a, b)


def outer(a, b, out=None):
    """numpy.outer."""
    r = _core._outer(a, b)
    if out is not None:
        out[...] = r
        return out
    return r


def _axis_list(x):
    if isinstance(x, numbers.Integral):
        return [int(x)]
    return [int(i) for i in x]


def tensordot(a, b, axes=2):
    """numpy.tensordot with axes=N or axes=(axes_a, axes_b)."""
    if isinstance(axes, numbers.Integral):
        return _core._tensordot_n(a, b, int(axes))
    try:
        axes_a, axes_b = axes
    except (TypeError, ValueError):
        raise ValueError("axes must be an integer or a pair of axis sequences") from None
    return _core._tensordot_axes(a, b, _axis_list(axes_a), _axis_list(axes_b))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """numpy.trace."""
    from cunp._array import asarray

    r = _core._trace(asarray(a), int(offset), int(axis1), int(axis2), dtype)
    if out is not None:
        out[...] = r
        return out
    return r


def _imatmul(self, other):
    _core._matmul(self, other, self)
    return self


ndarray.__matmul__ = lambda self, other: _core._matmul(self, other, None)
ndarray.__rmatmul__ = lambda self, other: _core._matmul(other, self, None)
ndarray.__imatmul__ = _imatmul
ndarray.dot = lambda self, b, out=None: dot(self, b, out)
ndarray.trace = lambda self, offset=0, axis1=0, axis2=1, dtype=None, out=None: trace(
    self, offset, axis1, axis2, dtype, out)

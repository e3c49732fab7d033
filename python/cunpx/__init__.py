"""cunpx: the cupyx-shaped companion of cunp (``import cupyx`` → ``import cunpx``).

``cunpx.scipy`` (``fft``, ``linalg``), ``cunpx.profiler`` (``benchmark``),
``cunpx.fallback_mode.numpy`` (NumPy's namespace, run by cunp where it can), pinned host
arrays, ``scatter_add/max/min`` and ``rsqrt``.
"""
import numpy as _numpy

import cunp as _cunp
from cunp import empty_pinned, zeros_pinned

from cunpx import fallback_mode, profiler, scipy  # noqa: F401
from cunpx import jit  # noqa: F401


def empty_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    """A NumPy array in page-locked host memory shaped like `a` (cupyx.empty_like_pinned)."""
    shape = _numpy.shape(a) if shape is None else shape
    dtype = a.dtype if dtype is None else dtype
    if order in ("K", "A"):
        flags = getattr(a, "flags", None)
        order = "F" if flags is not None and flags.f_contiguous and not flags.c_contiguous else "C"
    return empty_pinned(shape, dtype=dtype, order=order)


def zeros_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    """As :func:`empty_like_pinned`, filled with zeros."""
    out = empty_like_pinned(a, dtype=dtype, order=order, subok=subok, shape=shape)
    out[...] = 0
    return out


def scatter_add(a, slices, value):
    """``a[slices] += value`` with repeated indices accumulating (``cunp.add.at``)."""
    _cunp.add.at(a, slices, value)


def scatter_max(a, slices, value):
    """``a[slices] = maximum(a[slices], value)``, repeated indices included."""
    _cunp.maximum.at(a, slices, value)


def scatter_min(a, slices, value):
    """``a[slices] = minimum(a[slices], value)``, repeated indices included."""
    _cunp.minimum.at(a, slices, value)


def rsqrt(x, out=None):
    """The reciprocal square root ``1 / sqrt(x)`` elementwise (cupyx.rsqrt)."""
    r = _cunp.reciprocal(_cunp.sqrt(x))
    if out is None:
        return r
    _cunp.copyto(out, r, casting="same_kind")
    return out

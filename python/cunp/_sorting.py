"""Sorting, searching and set operations with NumPy's names and signatures (sort,
argsort, lexsort, partition, searchsorted, unique, isin, intersect1d, ...); the
ndarray methods calling them are in _ndarray.py. Semantics live in C++ (cunp/sort.hpp)."""
import collections
import operator

import numpy as _numpy

from cunp import _core
from cunp._array import asarray, ndarray

__all__ = [
    "sort", "argsort", "lexsort", "partition", "argpartition", "sort_complex", "searchsorted",
    "unique", "unique_values", "unique_counts", "unique_inverse", "unique_all", "isin", "in1d",
    "intersect1d", "union1d", "setdiff1d", "setxor1d",
]

UniqueAllResult = collections.namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = collections.namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = collections.namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _arr(a, like=None):
    if isinstance(a, ndarray):
        return a
    if isinstance(like, ndarray):
        return asarray(a, device=like._device_str)
    return asarray(a)


def _axis(axis):
    return None if axis is None else operator.index(axis)


def _kth(kth):
    if isinstance(kth, ndarray):
        kth = kth.get()
    try:
        return [operator.index(kth)]
    except TypeError:
        return [operator.index(k) for k in kth]


def _no_order(order):
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """numpy.sort: a sorted copy; NaNs last; stable whatever `kind` says.
    ``descending=True`` (the Array API's) gives the reverse order (NaNs first)."""
    _no_order(order)
    r = _core._sort(_arr(a), _axis(axis), kind)
    return _core.flip(r, -1 if axis is None else axis) if descending and r.ndim else r


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """numpy.argsort: int64 indices of a stable sort. ``descending=True`` (the Array
    API's) sorts in descending order and stays stable: equal elements keep their order."""
    _no_order(order)
    a = _arr(a)
    if not descending or a.ndim == 0:
        return _core._argsort(a, _axis(axis), kind)
    if axis is None:
        a, axis = a.reshape(-1), -1
    axis = _axis(axis)
    # The stable ascending order of the reversed array, read backwards, is the stable
    # descending order of the array, counted from its end.
    r = _core.flip(_core._argsort(_core.flip(a, axis), axis, kind), axis)
    return (a.shape[axis] - 1) - r


def lexsort(keys, axis=-1):
    """numpy.lexsort: the last key is the primary one."""
    if isinstance(keys, ndarray):
        keys = [keys[i] for i in range(keys.shape[0])] if keys.ndim > 0 else [keys]
    keys = list(keys)
    first = next((k for k in keys if isinstance(k, ndarray)), None)
    return _core._lexsort([_arr(k, first) for k in keys], operator.index(axis))


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """numpy.partition (the order inside each part is unspecified)."""
    _no_order(order)
    return _core._partition(_arr(a), _kth(kth), _axis(axis))


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """numpy.argpartition."""
    _no_order(order)
    return _core._argpartition(_arr(a), _kth(kth), _axis(axis))


def sort_complex(a):
    """numpy.sort_complex."""
    return _core._sort_complex(_arr(a))


def searchsorted(a, v, side="left", sorter=None):
    """numpy.searchsorted: int64 insertion points (an array of v's shape)."""
    a = _arr(a)
    if not isinstance(v, ndarray):
        # NumPy compares in promote_types(a.dtype, v's own dtype): a Python int is int64
        # (uint64 past it), a float float64 -- not the weak scalars of the ufuncs.
        if isinstance(v, (bool, int, float, complex)):
            v = _numpy.asarray(v)
            if v.dtype == object:
                v = _numpy.asarray(float(v))  # an int beyond 64 bits: above or below every element
        v = asarray(v, device=a._device_str)
    if sorter is not None:
        sorter = _arr(sorter, a)
    return _core._searchsorted(a, v, side, sorter)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):  # noqa: A002 - NumPy's name
    """numpy.unique: sorted unique values, and the requested index arrays."""
    values, index, inverse, counts = _core._unique(_arr(ar), bool(return_index), bool(return_inverse),
                                                   bool(return_counts), _axis(axis), bool(equal_nan))
    extra = [x for x, want in ((index, return_index), (inverse, return_inverse), (counts, return_counts)) if want]
    return (values, *extra) if extra else values


def unique_values(x):
    """numpy.unique_values (NaNs are not collapsed)."""
    return unique(x, equal_nan=False)


def unique_counts(x):
    """numpy.unique_counts."""
    values, counts = unique(x, return_counts=True, equal_nan=False)
    return UniqueCountsResult(values, counts)


def unique_inverse(x):
    """numpy.unique_inverse: the inverse has x's shape."""
    values, inverse = unique(x, return_inverse=True, equal_nan=False)
    return UniqueInverseResult(values, inverse)


def unique_all(x):
    """numpy.unique_all."""
    values, index, inverse, counts = unique(x, return_index=True, return_inverse=True, return_counts=True,
                                            equal_nan=False)
    return UniqueAllResult(values, index, inverse, counts)


def _pair(a, b):
    first = a if isinstance(a, ndarray) else b
    return _arr(a, first), _arr(b, first)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """numpy.isin: a bool array of element's shape."""
    element, test_elements = _pair(element, test_elements)
    return _core._isin(element, test_elements, bool(assume_unique), bool(invert))


def in1d(ar1, ar2, assume_unique=False, invert=False, *, kind=None):
    """numpy.in1d (deprecated in NumPy 2.0): isin of the flattened ar1."""
    ar1, ar2 = _pair(ar1, ar2)
    return _core._in1d(ar1, ar2, bool(assume_unique), bool(invert))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """numpy.intersect1d."""
    ar1, ar2 = _pair(ar1, ar2)
    return _core._intersect1d(ar1, ar2, bool(assume_unique), bool(return_indices))


def union1d(ar1, ar2):
    """numpy.union1d."""
    return _core._union1d(*_pair(ar1, ar2))


def setdiff1d(ar1, ar2, assume_unique=False):
    """numpy.setdiff1d."""
    ar1, ar2 = _pair(ar1, ar2)
    return _core._setdiff1d(ar1, ar2, bool(assume_unique))


def setxor1d(ar1, ar2, assume_unique=False):
    """numpy.setxor1d."""
    ar1, ar2 = _pair(ar1, ar2)
    return _core._setxor1d(ar1, ar2, bool(assume_unique))

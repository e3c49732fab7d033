"""The ndarray type's Python attributes, all of them (the class itself is bound in C++):
``flags`` (NumPy's flagsobj), ``flat`` (NumPy's flatiter), ``data`` (a
cunp.cuda.MemoryPointer), the NumPy protocols, and the methods that call the routine
families (sum, sort, clip, dot, ...)."""
import operator as _operator

from cunp import _core
from cunp._array_api import _array_namespace

ndarray = _core.ndarray

# NumPy's flag bits (numpy.ndarray.flags.num).
_C, _F, _OWNDATA, _ALIGNED, _WRITEABLE, _WRITEBACKIFCOPY = 0x1, 0x2, 0x4, 0x100, 0x400, 0x2000


class flagsobj:
    """``ndarray.flags``: NumPy's memory-layout flags of one array, read live.

    Attributes and item keys are NumPy's; ``writeable`` (``'W'``) can be set (True only
    where the base is writeable, as in NumPy); ``aligned`` and ``writebackifcopy`` accept
    the values they already have.
    """

    __slots__ = ("_a",)

    def __init__(self, a):
        self._a = a

    c_contiguous = property(lambda self: self._a._c_contiguous)
    f_contiguous = property(lambda self: self._a._f_contiguous)
    owndata = property(lambda self: self._a._owndata)
    contiguous = c_contiguous
    fortran = f_contiguous
    fnc = property(lambda self: self._a._f_contiguous and not self._a._c_contiguous)
    forc = property(lambda self: self._a._f_contiguous or self._a._c_contiguous)
    behaved = property(lambda self: self._a._aligned and self._a._writeable)
    carray = property(lambda self: self.behaved and self._a._c_contiguous)
    # NumPy's FARRAY test: any of ALIGNED, WRITEABLE, F_CONTIGUOUS set, C_CONTIGUOUS not
    # (so a strided or read-only view can be an "farray"); reproduced as NumPy gives it.
    farray = property(lambda self: (self._a._aligned or self._a._writeable or self._a._f_contiguous)
                      and not self._a._c_contiguous)

    @property
    def writeable(self):
        return self._a._writeable

    @writeable.setter
    def writeable(self, value):
        self._a._writeable = bool(value)

    @property
    def aligned(self):
        return self._a._aligned

    @aligned.setter
    def aligned(self, value):
        if bool(value) != self._a._aligned:
            raise ValueError("cunp cannot change the ALIGNED flag: it is computed from the address and strides")

    @property
    def writebackifcopy(self):
        return False

    @writebackifcopy.setter
    def writebackifcopy(self, value):
        if value:
            raise ValueError("cannot set WRITEBACKIFCOPY flag to True")

    @property
    def num(self):
        a = self._a
        return ((_C if a._c_contiguous else 0) | (_F if a._f_contiguous else 0) | (_OWNDATA if a._owndata else 0)
                | (_ALIGNED if a._aligned else 0) | (_WRITEABLE if a._writeable else 0))

    _keys = {"C": "c_contiguous", "C_CONTIGUOUS": "c_contiguous", "CONTIGUOUS": "c_contiguous",
             "F": "f_contiguous", "F_CONTIGUOUS": "f_contiguous", "FORTRAN": "f_contiguous",
             "O": "owndata", "OWNDATA": "owndata", "W": "writeable", "WRITEABLE": "writeable",
             "A": "aligned", "ALIGNED": "aligned", "X": "writebackifcopy", "WRITEBACKIFCOPY": "writebackifcopy",
             "B": "behaved", "BEHAVED": "behaved", "CA": "carray", "CARRAY": "carray",
             "FA": "farray", "FARRAY": "farray", "FNC": "fnc", "FORC": "forc"}
    _settable = ("writeable", "aligned", "writebackifcopy")

    def _attr(self, key):
        if isinstance(key, bytes):
            key = key.decode("ascii", "replace")
        name = self._keys.get(key) if isinstance(key, str) else None
        if name is None:
            raise KeyError("Unknown flag")
        return name

    def __getitem__(self, key):
        return getattr(self, self._attr(key))

    def __setitem__(self, key, value):
        name = self._attr(key)
        if name not in self._settable:
            raise KeyError("Unknown flag")
        setattr(self, name, value)

    def __eq__(self, other):
        if not isinstance(other, flagsobj):
            return NotImplemented
        return self.num == other.num

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    def __repr__(self):
        return "".join("  %s : %s\n" % (k, getattr(self, k.lower())) for k in
                       ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY"))


def _unravel(i, shape):
    coords = []
    for n in reversed(shape):
        i, r = divmod(i, n)
        coords.append(r)
    return tuple(reversed(coords))


def _is_integer_key(key):
    """An int, a NumPy integer, or a 0-d integer array (cunp or NumPy)."""
    if isinstance(key, (bool, list, tuple, slice)) or key is Ellipsis or key is None:
        return False
    if getattr(key, "ndim", 0) != 0 or getattr(getattr(key, "dtype", None), "kind", "i") not in "iu":
        return False
    try:
        _operator.index(key)
    except TypeError:
        return False
    return True


class flatiter:
    """``ndarray.flat``: the elements in C order, as NumPy's flatiter.

    Iterating yields the elements one by one (``index``/``coords`` follow it);
    ``flat[i]`` is one element, ``flat[slice | int array | mask]`` a new 1-d array
    (a copy, as in NumPy); ``flat[key] = values`` assigns, repeating ``values`` in
    order until the selection is filled. Non-contiguous arrays read and write in
    place through their own strides (a copy only when the key needs one).
    """

    __slots__ = ("_base", "_index")

    def __init__(self, a):
        self._base = a
        self._index = 0

    @property
    def base(self):
        return self._base

    @property
    def index(self):
        return self._index

    @property
    def coords(self):
        return _unravel(self._index, self._base.shape)

    def __len__(self):
        return self._base.size

    def __iter__(self):
        return self

    def __next__(self):
        i = self._index
        if i >= self._base.size:
            raise StopIteration
        self._index = i + 1
        return self._element(i)

    def _element(self, i):
        a = self._base
        return a[i] if a.ndim == 1 else a[_unravel(i, a.shape)]

    def _check(self, i):
        n = self._base.size
        if not -n <= i < n:
            raise IndexError("index %d is out of bounds for size %d" % (i, n))
        return i % n if n else i

    def __getitem__(self, key):
        if _is_integer_key(key):
            return self._element(self._check(_operator.index(key)))
        if key is Ellipsis or (isinstance(key, tuple) and len(key) == 0):
            return self._base.flatten()
        if isinstance(key, tuple) and len(key) == 1:
            key = key[0]
        out = self._base.reshape(-1)[key]
        return out.copy() if isinstance(key, slice) else out

    def __setitem__(self, key, value):
        a = self._base
        if not a._writeable:
            raise ValueError("underlying array is read-only")
        if key is Ellipsis or (isinstance(key, tuple) and len(key) == 0):
            key = slice(None)
        elif isinstance(key, tuple) and len(key) == 1:
            key = key[0]
        if isinstance(value, (int, float, complex)) and not isinstance(value, bool):
            # NumPy converts a Python scalar to the array's type first: 1j into a real
            # array is a TypeError, 300 into int8 an OverflowError; for one element
            # (an integer key) it reports them as a ValueError.
            try:
                a.dtype.type(value)
            except (TypeError, OverflowError) as e:
                if _is_integer_key(key):
                    raise ValueError("Error setting single item of array.") from e
                raise
        if _is_integer_key(key):
            i = self._check(_operator.index(key))
            v = value if isinstance(value, ndarray) else _asarray(value, a)
            a[_unravel(i, a.shape)] = v.reshape(-1)[0] if v.size else v
            return
        # A C-contiguous array is its own flat view; others write back after a copy.
        in_place = a._c_contiguous
        lin = a.reshape(-1) if in_place else a.flatten()
        n = lin[key].size if not isinstance(key, slice) else len(range(*key.indices(lin.size)))
        v = _asarray(value, a).reshape(-1)
        if n == 0 or v.size == 0:
            return
        if v.size != n:
            from cunp import arange

            v = v[arange(n, device=a.device) % v.size] if v.size > 1 else v.reshape(())
        if v.ndim and not isinstance(key, slice):
            v = v.reshape(lin[key].shape)
        lin[key] = v
        if not in_place:
            a[...] = lin.reshape(a.shape)

    def copy(self):
        """A flattened copy of the array (numpy.flatiter.copy)."""
        return self._base.flatten()

    def __array__(self, dtype=None, copy=None):
        return self._base.flatten().__array__(dtype)


def _asarray(value, like):
    from cunp._array import asarray

    return asarray(value, device=like.device) if not isinstance(value, ndarray) else value


def _flat_set(self, value):
    if not self._writeable:
        raise ValueError("array is read-only")
    flatiter(self)[...] = value


def _data(self):
    from cunp.cuda.memory import Memory, MemoryPointer

    return MemoryPointer(Memory(self), self._offset)


def _setflags(self, *, write=None, align=None, uic=None):
    """ndarray.setflags: WRITEABLE (and ALIGNED / WRITEBACKIFCOPY to the values they have)."""
    flags = flagsobj(self)
    if write is not None:
        flags.writeable = write
    if align is not None:
        flags.aligned = align
    if uic is not None:
        flags.writebackifcopy = uic


def _matrix_transpose(self):
    if self.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return self.swapaxes(-1, -2)


def _tobytes(self, order="C"):
    """ndarray.tobytes: the elements' bytes in C (or F; A: F for F-only-contiguous arrays) order."""
    if order is None:
        order = "C"
    if order not in ("C", "F", "A", "K"):
        raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got %r)" % (order,))
    if order == "A":
        order = "F" if self._f_contiguous and not self._c_contiguous else "C"
    return _core._to_numpy(self, "F" if order == "F" else "C").tobytes(order="F" if order == "F" else "C")


# ---- The ndarray type -----------------------------------------------------------------
# The class is bound in C++ (python/src/ndarray_py.cpp: construction, shape and dtype
# attributes, indexing, arithmetic operators, astype/reshape/view/copy/get, ...); every
# attribute the Python layer adds is defined below, in this one place. The functions
# they call live with their families; cunp/__init__.py imports this module after them.
from cunp import _array, _interop, _namespace_rest, _protocols, _reductions, _sorting, _ufuncs  # noqa: E402
from cunp._linalg_top import dot as _dot, trace as _trace  # noqa: E402


def _method(fn):
    """A method calling fn(self, ...), named and documented as fn."""
    def m(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    m.__name__ = fn.__name__
    m.__doc__ = fn.__doc__
    return m


# Layout, memory and the Array API.
ndarray.__array_namespace__ = _array_namespace
ndarray.setflags = _setflags
ndarray.mT = property(_matrix_transpose)
ndarray.tobytes = _tobytes
ndarray.flags = property(flagsobj)
ndarray.flat = property(flatiter, _flat_set)
ndarray.data = property(_data)
ndarray.device = property(_array._device_of)
ndarray.to_device = _array._to_device
ndarray.__repr__ = _namespace_rest._repr
ndarray.__str__ = _namespace_rest._str

# NumPy interoperability: conversion, the dispatch protocols, pickling, iteration.
ndarray.__array__ = _array._array_dunder
ndarray.__array_priority__ = 100.0
ndarray.__array_function__ = _protocols._array_function
ndarray.__array_ufunc__ = _protocols._array_ufunc
ndarray.__reduce__ = _protocols._reduce
ndarray.__reduce_ex__ = _protocols._reduce_ex
ndarray.__iter__ = _protocols._iter
ndarray.__dlpack__ = _interop._dlpack
ndarray.__dlpack_device__ = _interop._dlpack_device
ndarray.__cuda_array_interface__ = property(_interop._cuda_array_interface)


# Complex parts (views; setting them writes into the array).
def _real_get(self):
    return _core._real(self)


def _real_set(self, value):
    _core._real(self)[...] = value


def _imag_get(self):
    return _core._imag(self)


def _imag_set(self, value):
    if self.dtype.kind != "c":
        raise TypeError("array does not have imaginary part to set")
    _core._imag(self)[...] = value


def _conj(self):
    return _ufuncs._ufuncs["conjugate"](self)


def _clip(self, min=None, max=None, out=None, **kwargs):
    return _ufuncs.clip(self, min, max, out, **kwargs)


def _round(self, decimals=0, out=None):
    return _ufuncs.around(self, decimals, out)


ndarray.real = property(_real_get, _real_set)
ndarray.imag = property(_imag_get, _imag_set)
ndarray.conj = ndarray.conjugate = _conj
ndarray.clip = _clip
ndarray.round = _round

# Reductions and scans (NumPy's signatures: the array is self).
for _name in ("sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "any", "all", "cumsum",
              "cumprod"):
    setattr(ndarray, _name, _method(getattr(_reductions, _name)))
del _name


# Linear algebra (__matmul__, __rmatmul__ and __imatmul__ are bound in C++, linalg_py.cpp).
def _dot_method(self, b, out=None):
    return _dot(self, b, out)


def _trace_method(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return _trace(self, offset, axis1, axis2, dtype, out)


ndarray.dot = _dot_method
ndarray.trace = _trace_method


# Shape and selection.
def _swapaxes(self, axis1, axis2):
    return _core.swapaxes(self, axis1, axis2)


def _compress(self, condition, axis=None, out=None):
    r = _core.compress(condition, self, axis)
    if out is None:
        return r
    if out.shape != r.shape:
        raise ValueError("output array does not match result of ndarray.compress: shape %r, expected %r"
                         % (out.shape, r.shape))
    out[...] = r
    return out


def _choose(self, choices, out=None, mode="raise"):
    return _core.choose(self, choices, out, mode)


def _diagonal(self, offset=0, axis1=0, axis2=1):
    return _array.diagonal(self, offset, axis1, axis2)


def _repeat(self, repeats, axis=None):
    return _core.repeat(self, repeats, axis)


ndarray.swapaxes = _swapaxes
ndarray.compress = _compress
ndarray.choose = _choose
ndarray.diagonal = _diagonal
ndarray.repeat = _repeat


# Sorting and searching; sort and partition work in place (in C++).
def _sort(self, axis=-1, kind=None, order=None, *, stable=None):
    """ndarray.sort: sorts in place."""
    _sorting._no_order(order)
    _core._sort_inplace(self, _operator.index(axis), kind)


def _argsort(self, axis=-1, kind=None, order=None, *, stable=None):
    return _sorting.argsort(self, axis, kind, order)


def _partition(self, kth, axis=-1, kind="introselect", order=None):
    """ndarray.partition: partitions in place."""
    _sorting._no_order(order)
    _core._partition_inplace(self, _sorting._kth(kth), _operator.index(axis))


def _argpartition(self, kth, axis=-1, kind="introselect", order=None):
    return _sorting.argpartition(self, kth, axis, kind, order)


def _searchsorted(self, v, side="left", sorter=None):
    return _sorting.searchsorted(self, v, side, sorter)


for _name, _fn in (("sort", _sort), ("argsort", _argsort), ("partition", _partition),
                   ("argpartition", _argpartition), ("searchsorted", _searchsorted)):
    _fn.__name__ = _fn.__qualname__ = _name
    setattr(ndarray, _name, _fn)
del _name, _fn

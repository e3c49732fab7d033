"""The ndarray attributes kept in Python: ``flags`` (NumPy's flagsobj), ``flat``
(NumPy's flatiter), ``data`` (a cunp.cuda.MemoryPointer), ``mT``, ``setflags``,
``tobytes`` and ``__array_namespace__`` (the Array API's, from _array_api.py)."""
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


ndarray.__array_namespace__ = _array_namespace
ndarray.setflags = _setflags
ndarray.mT = property(_matrix_transpose)
ndarray.tobytes = _tobytes
ndarray.flags = property(flagsobj)
ndarray.flat = property(flatiter, _flat_set)
ndarray.data = property(_data)

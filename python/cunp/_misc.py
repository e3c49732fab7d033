"""The rest of NumPy's namespace that works through the host: file and text I/O
(save, load, savez, savez_compressed, savetxt, loadtxt, genfromtxt, fromfile, tofile's
readers, frombuffer, fromstring, fromiter, fromregex), printing to strings (array2string,
array_repr, array_str, base_repr, binary_repr), dtype utilities (issubdtype, mintypecode,
typename), index iterators (ndindex, ndenumerate), isfortran, row_stack and vectorize (the Python
function called per element on host copies). Data read from
the host lands on the current device (or `device=`); data written comes from the device
in one copy, as CuPy's versions do."""
import warnings

import numpy as _numpy

from cunp import _core

ndarray = _core.ndarray

__all__ = ["save", "load", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt", "fromfile", "frombuffer",
           "fromstring", "fromiter", "fromregex", "array2string", "array_repr", "array_str", "base_repr",
           "binary_repr", "issubdtype", "mintypecode", "typename", "ndindex", "ndenumerate", "isfortran",
           "row_stack", "vectorize"]

# Pure host utilities: NumPy's own.
from numpy import base_repr, binary_repr, issubdtype, mintypecode, typename, ndindex  # noqa: E402


def _asarray(host, device=None):
    import cunp

    return cunp.asarray(host, device=device)


def _host(a):
    return a.get() if isinstance(a, ndarray) else a


def _host_tree(v):
    if isinstance(v, ndarray):
        return v.get()
    if type(v) in (list, tuple):
        return type(v)(_host_tree(x) for x in v)
    return v


# ---- I/O ------------------------------------------------------------------------------------

def save(file, arr, allow_pickle=True, **kwargs):
    """numpy.save of the array's host copy."""
    _numpy.save(file, _host(arr), allow_pickle=allow_pickle, **kwargs)


class _NpzFile:
    """numpy.load's NpzFile with each member read onto the device."""

    def __init__(self, npz, device):
        self._npz, self._device = npz, device
        self.files = npz.files

    def __getitem__(self, key):
        return _asarray(self._npz[key], self._device)

    def __contains__(self, key):
        return key in self._npz

    def __iter__(self):
        return iter(self._npz)

    def __len__(self):
        return len(self._npz)

    def keys(self):
        return self._npz.keys()

    def items(self):
        return [(k, self[k]) for k in self.files]

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *, max_header_size=10000,
         device=None):
    """numpy.load onto the device: an array for .npy files, a lazily converting mapping
    for .npz archives; pickled objects that are not arrays come back as NumPy loads them."""
    r = _numpy.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports, encoding=encoding,
                    max_header_size=max_header_size)
    if isinstance(r, _numpy.lib.npyio.NpzFile):
        return _NpzFile(r, device)
    if isinstance(r, _numpy.ndarray) and r.dtype.kind in "biufc":
        return _asarray(r, device)
    return r


def savez(file, *args, **kwds):
    _numpy.savez(file, *[_host(a) for a in args], **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, **kwds):
    _numpy.savez_compressed(file, *[_host(a) for a in args], **{k: _host(v) for k, v in kwds.items()})


def savetxt(fname, X, *args, **kwargs):
    _numpy.savetxt(fname, _host(X), *args, **kwargs)


def _reader(name):
    reader = getattr(_numpy, name)

    def read(*args, device=None, **kwargs):
        return _asarray(reader(*_host_tree(list(args)), **kwargs), device)

    read.__name__ = read.__qualname__ = name
    read.__doc__ = "numpy.%s, the result on the current device (or `device=`)." % name
    return read


loadtxt = _reader("loadtxt")
genfromtxt = _reader("genfromtxt")
fromfile = _reader("fromfile")
frombuffer = _reader("frombuffer")
fromstring = _reader("fromstring")
fromiter = _reader("fromiter")
fromregex = _reader("fromregex")


# ---- printing to strings ------------------------------------------------------------------------

def array2string(a, *args, **kwargs):
    return _numpy.array2string(_host(a), *args, **kwargs)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    return _numpy.array_repr(_host(arr), max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    return _numpy.array_str(_host(a), max_line_width, precision, suppress_small)


# ---- iteration and layout -----------------------------------------------------------------------

class ndenumerate:
    """numpy.ndenumerate over a cunp array: (index, value) pairs, read from one host copy."""

    def __init__(self, arr):
        self._it = _numpy.ndenumerate(_numpy.asarray(_host(arr)))

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


def isfortran(a):
    """True when `a` is Fortran-contiguous and not C-contiguous (numpy.isfortran)."""
    flags = a.flags
    return bool(flags.f_contiguous and not flags.c_contiguous)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """numpy.row_stack: vstack, deprecated since NumPy 2.0 (DeprecationWarning as NumPy)."""
    import cunp

    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, stacklevel=2)
    return cunp.vstack(tup, dtype=dtype, casting=casting)


class vectorize:
    """numpy.vectorize for cunp arrays: the Python function runs once per element, on the
    host, over host copies of the cunp arguments (NumPy's broadcasting, otypes=,
    excluded=, signature=, cache=); numeric results come back on the device of the first
    cunp argument. A loop of Python calls: for speed write an ElementwiseKernel."""

    def __init__(self, pyfunc=None, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        self._options = dict(otypes=otypes, doc=doc, excluded=excluded, cache=cache, signature=signature)
        self.pyfunc = pyfunc
        self._vec = None if pyfunc is None else _numpy.vectorize(pyfunc, **self._options)
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)

    def __call__(self, *args, **kwargs):
        if self._vec is None:  # used as @vectorize(otypes=...): the function comes now
            return vectorize(args[0], **self._options)
        device = None
        for v in list(args) + list(kwargs.values()):
            if isinstance(v, ndarray):
                device = v.device
                break
        result = self._vec(*_host_tree(list(args)), **{k: _host(v) for k, v in kwargs.items()})

        def back(r):
            if isinstance(r, _numpy.ndarray) and r.dtype.kind in "biufc":
                return _asarray(r, device)
            return r
        return tuple(back(r) for r in result) if isinstance(result, tuple) else back(result)

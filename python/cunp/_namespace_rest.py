"""The last of NumPy's main namespace: ``broadcast``, ``frompyfunc``, ``poly1d``, the
print options (``set_printoptions``, ``get_printoptions``, ``printoptions``, honoured by
cunp's repr/str), ``format_float_positional/scientific``, ``getbufsize/setbufsize``,
``get_include``, ``show_runtime``, ``info`` and the ``long``/``ulong`` scalar types.

What is not here is listed with its reason in docs/differences.md ("Names cunp does not
have"): the matrix class, string/object/datetime types, memmap, nditer."""
import contextlib
import os

import numpy as _numpy

from cunp import _core

ndarray = _core.ndarray

__all__ = ["broadcast", "frompyfunc", "poly1d", "set_printoptions", "get_printoptions", "printoptions",
           "format_float_positional", "format_float_scientific", "getbufsize", "setbufsize", "get_include",
           "show_runtime", "info", "long", "ulong"]

from numpy import format_float_positional, format_float_scientific, long, ulong  # noqa: E402,F401


def _cunp():
    import cunp

    return cunp


def _host(a):
    return a.get() if isinstance(a, ndarray) else a


# ---- print options ------------------------------------------------------------------------------
# Note [Print options]: cunp's C++ printer writes NumPy 2's default format character for
# character (and fast). Non-default options are NumPy's own: while any differs from the
# default, repr/str of a cunp array format its host copy with numpy.array_repr/array_str
# under those options. The options are cunp's (set_printoptions here does not change
# NumPy's), per process like NumPy's.

_DEFAULT_PRINT = dict(_numpy.get_printoptions())
_print_options = dict(_DEFAULT_PRINT)
_cpp_repr = ndarray.__repr__
_cpp_str = ndarray.__str__


def _custom():
    return _print_options != _DEFAULT_PRINT


def _with_options(fmt):
    opts = {k: v for k, v in _print_options.items() if k in _DEFAULT_PRINT}
    with _numpy.printoptions(**opts):
        return fmt()


def _repr(self):
    if not _custom():
        return _cpp_repr(self)
    return _with_options(lambda: _numpy.array_repr(self.get()))


def _str(self):
    if not _custom():
        return _cpp_str(self)
    return _with_options(lambda: _numpy.array_str(self.get()))


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None, nanstr=None,
                     infstr=None, formatter=None, sign=None, floatmode=None, *, legacy=None, override_repr=None):
    """numpy.set_printoptions for cunp arrays' repr/str (validated by NumPy)."""
    given = dict(precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth,
                 suppress=suppress, nanstr=nanstr, infstr=infstr, formatter=formatter, sign=sign,
                 floatmode=floatmode, legacy=legacy, override_repr=override_repr)
    given = {k: v for k, v in given.items() if v is not None}
    saved = _numpy.get_printoptions()
    try:  # NumPy checks the values (TypeError/ValueError as numpy.set_printoptions)
        _numpy.set_printoptions(**{**{k: v for k, v in _print_options.items() if k in _DEFAULT_PRINT}, **given})
        _print_options.clear()
        _print_options.update(_numpy.get_printoptions())
    finally:
        _numpy.set_printoptions(**{k: v for k, v in saved.items() if k in _DEFAULT_PRINT})


def get_printoptions():
    """numpy.get_printoptions of cunp's print options."""
    return dict(_print_options)


@contextlib.contextmanager
def printoptions(*args, **kwargs):
    """numpy.printoptions: set_printoptions for a with-block, restored after it."""
    saved = dict(_print_options)
    set_printoptions(*args, **kwargs)
    try:
        yield get_printoptions()
    finally:
        _print_options.clear()
        _print_options.update(saved)


# ---- buffers, build information -----------------------------------------------------------------
_bufsize = 8192


def getbufsize():
    """numpy.getbufsize: the size of the ufunc buffer (cunp's loops do not buffer; the
    value is kept for programs that set and read it)."""
    return _bufsize


def setbufsize(size):
    """numpy.setbufsize: returns the previous size; NumPy's checks on the value."""
    global _bufsize
    size = int(size)
    if size < 0:
        raise ValueError("buffer size must be non-negative")
    if size > 10e6:
        raise ValueError("Buffer size, %s, is too big" % size)
    old, _bufsize = _bufsize, size
    return old


def get_include():
    """The directory of cunp's C++ headers (``#include <cunp/cunp.hpp>``) when they are
    installed beside the package or in the source tree; NumPy's get_include() answers
    for NumPy's C API, which cunp does not have."""
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "include"), os.path.join(here, "..", "..", "include"),
                      os.path.join(here, "..", "..", "..", "include")):
        if os.path.isfile(os.path.join(candidate, "cunp", "cunp.hpp")):
            return os.path.normpath(candidate)
    return os.path.join(here, "include")


def show_runtime():
    """numpy.show_runtime's role: prints cunp's configuration (devices, libraries)."""
    _cunp().show_config()


def info(object=None, maxwidth=76, output=None, toplevel="cunp"):
    """numpy.info for cunp objects (their docstrings and signatures)."""
    return _numpy.info(object, maxwidth=maxwidth, output=output, toplevel=toplevel)


# ---- broadcast ----------------------------------------------------------------------------------

class broadcast:
    """numpy.broadcast over cunp arrays (and scalars, NumPy arrays): the broadcast
    ``shape``, ``ndim``/``nd``, ``size``, ``numiter``; iterating yields tuples of
    elements (read from one host copy of each operand, made on first iteration), with
    ``index`` and ``reset()`` as NumPy's. ``iters`` are the operands' flat iterators."""

    def __init__(self, *args):
        if len(args) > 64:
            raise ValueError("Need at least 0 and at most 64 array objects.")
        self._args = args
        self.shape = _numpy.broadcast_shapes(*[_numpy.shape(a) if not isinstance(a, ndarray) else a.shape
                                               for a in args])
        self.numiter = len(args)
        self._it = None

    @property
    def ndim(self):
        return len(self.shape)

    nd = ndim

    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def _host_broadcast(self):
        if self._it is None:
            self._it = _numpy.broadcast(*[_host(a) for a in self._args])
        return self._it

    @property
    def index(self):
        return self._it.index if self._it is not None else 0

    @property
    def iters(self):
        return self._host_broadcast().iters

    def reset(self):
        if self._it is not None:
            self._it.reset()

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._host_broadcast())


# ---- frompyfunc ---------------------------------------------------------------------------------

class _PyUfunc:
    """What frompyfunc returns: a ufunc-shaped callable (nin, nout, nargs, ntypes, types,
    identity, __name__) whose loop is the Python function called once per element on host
    copies of the operands, as numpy.frompyfunc's. NumPy returns object arrays; cunp has
    no object dtype, so the results are converted to the dtype NumPy infers for their
    values (numbers → a cunp array on the operands' device; anything else stays a NumPy
    object array)."""

    def __init__(self, func, nin, nout, identity):
        self._np = _numpy.frompyfunc(func, nin, nout, **({} if identity is None else {"identity": identity}))
        self.__name__ = self._np.__name__
        self.__doc__ = getattr(func, "__doc__", None)
        self.nin, self.nout, self.nargs = self._np.nin, self._np.nout, self._np.nargs
        self.ntypes, self.types, self.identity = self._np.ntypes, self._np.types, self._np.identity
        self.signature = None

    def _back(self, r, device):
        if isinstance(r, _numpy.ndarray) and r.dtype == object:
            try:
                values = _numpy.array(r.tolist())
            except (ValueError, TypeError):
                return r
            if values.dtype.kind in "biufc" and values.shape == r.shape:
                return _cunp().asarray(values, device=device)
            return r
        return r

    def _device(self, args):
        for a in args:
            if isinstance(a, ndarray):
                return a.device
        return None

    def __call__(self, *args, **kwargs):
        device = self._device(args)
        out = kwargs.pop("out", None)
        result = self._np(*[_host(a) for a in args], **kwargs)
        results = result if isinstance(result, tuple) else (result,)
        results = tuple(self._back(r, device) for r in results)
        if out is not None:
            outs = out if isinstance(out, tuple) else (out,)
            for o, r in zip(outs, results):
                o[...] = r
            results = outs
        return results if isinstance(result, tuple) else results[0]

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_numpy._NoValue, where=True):
        kw = dict(axis=axis, keepdims=keepdims, where=_host(where))
        if initial is not _numpy._NoValue:
            kw["initial"] = initial
        r = self._np.reduce(_numpy.asarray(_host(array), dtype=object), **kw)
        r = self._back(r, self._device((array,))) if isinstance(r, _numpy.ndarray) else r
        if out is not None:
            out[...] = r
            return out
        return r

    def accumulate(self, array, axis=0, dtype=None, out=None):
        r = self._back(self._np.accumulate(_numpy.asarray(_host(array), dtype=object), axis=axis),
                       self._device((array,)))
        if out is not None:
            out[...] = r
            return out
        return r

    def outer(self, A, B, **kwargs):
        r = self._np.outer(_numpy.asarray(_host(A), dtype=object), _numpy.asarray(_host(B), dtype=object),
                           **kwargs)
        results = r if isinstance(r, tuple) else (r,)
        device = self._device((A, B))
        results = tuple(self._back(x, device) for x in results)
        return results if isinstance(r, tuple) else results[0]

    def __repr__(self):
        return "<ufunc '%s'>" % self.__name__


def frompyfunc(func, /, nin, nout, *, identity=None):
    """numpy.frompyfunc: a ufunc-shaped callable running `func` per element on the host
    (see _PyUfunc for the result types)."""
    if not callable(func):
        raise TypeError("function must be callable")
    return _PyUfunc(func, nin, nout, identity)


# ---- poly1d -------------------------------------------------------------------------------------

class poly1d:
    """numpy.poly1d with its coefficients in a cunp array (cupy.poly1d): calling it
    evaluates on the device (polyval), arithmetic (+ - * / ** with polynomials and
    scalars), ``roots``, ``deriv``, ``integ``, ``order``, ``coeffs``/``c``/``coef``/
    ``coefficients``, ``variable``, indexing by power; printing as NumPy's."""

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        cunp = _cunp()
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs.copy()
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = cunp.poly(c_or_r)
        c = cunp.atleast_1d(cunp.asarray(c_or_r))
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        nz = _numpy.flatnonzero(_numpy.asarray(c.get()))
        c = c[int(nz[0]):] if nz.size else cunp.zeros(1, dtype=c.dtype)
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self):
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        return self._variable

    @property
    def order(self):
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def roots(self):
        return _cunp().roots(self._coeffs)

    r = roots

    def __array__(self, dtype=None, copy=None):
        a = self._coeffs.get()
        return a if dtype is None else a.astype(dtype)

    def __len__(self):
        return self.order

    def __call__(self, val):
        if isinstance(val, poly1d):
            return poly1d(_numpy.polyval(_numpy.poly1d(self._coeffs.get()), _numpy.poly1d(val._coeffs.get())).coeffs)
        return _cunp().polyval(self._coeffs, val)

    def _other(self, other):
        return other if isinstance(other, poly1d) else poly1d(other)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __add__(self, other):
        return poly1d(_cunp().polyadd(self._coeffs, self._other(other)._coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(_cunp().polysub(self._coeffs, self._other(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(_cunp().polysub(self._other(other)._coeffs, self._coeffs))

    def __mul__(self, other):
        if _numpy.isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(_cunp().polymul(self._coeffs, self._other(other)._coeffs))

    def __rmul__(self, other):
        return self.__mul__(other)

    def __pow__(self, n):
        if not _numpy.isscalar(n) or int(n) != n or n < 0:
            raise ValueError("Power to non-negative integers only.")
        res = poly1d([1])
        for _ in range(int(n)):
            res = res * self
        return res

    def __truediv__(self, other):
        if _numpy.isscalar(other):
            return poly1d(self._coeffs / other)
        q, r = _cunp().polydiv(self._coeffs, self._other(other)._coeffs)
        return poly1d(q), poly1d(r)

    __div__ = __truediv__

    def __rtruediv__(self, other):
        q, r = _cunp().polydiv(self._other(other)._coeffs, self._coeffs)
        return poly1d(q), poly1d(r)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool((self._coeffs == other._coeffs).all())

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, power):
        ind = self.order - power
        if ind < 0 or power < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[ind]

    def __setitem__(self, power, value):
        cunp = _cunp()
        if power < 0:
            raise ValueError("Does not support negative powers.")
        if power > self.order:
            zr = cunp.zeros(power - self.order, dtype=self._coeffs.dtype)
            self._coeffs = cunp.concatenate((zr, self._coeffs))
        self._coeffs[self.order - power] = value

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        return poly1d(_cunp().polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        return poly1d(_cunp().polyder(self._coeffs, m=m))

    def _host_poly(self):
        return _numpy.poly1d(self._coeffs.get(), variable=self._variable)

    def __repr__(self):
        return repr(self._host_poly())

    def __str__(self):
        return str(self._host_poly())

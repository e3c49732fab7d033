"""Kernel fusion: CuPy's ``cupy.fuse``.

``@cunp.fuse()`` (or ``cunp.fuse(func)``) runs ``func`` once per argument signature on
proxy objects that record what it does (src/kernel/fusion.hpp's trace, with every dtype
resolved as the op-by-op calls resolve it), then runs each later call as ONE generated
kernel on CUDA devices, and as the recorded ufunc calls on the cpu device. The C++
library holds the graph, the kernels and the per-signature cache; this module only
feeds the trace.
"""
import functools
import linecache
import sys

import numpy as _numpy

from cunp import _core

__all__ = ["fuse", "Fusion"]

# >0 while some thread traces: cunp.where and cunp.clip check it (one global lookup on
# their common path) before looking for traced operands.
_tracing = 0

_PYTHON_SCALARS = (bool, int, float, complex)


class _Traced:
    """A value inside a function being traced by cunp.fuse: an argument, or the result
    of an operation on traced values and scalars. It knows its dtype and ndim, not its
    shape or values."""

    __slots__ = ("_trace", "_node")
    __hash__ = None

    def __init__(self, trace, node):
        self._trace = trace
        self._node = node

    # ---- what is known while tracing
    @property
    def dtype(self):
        return self._trace.dtype(self._node)

    @property
    def ndim(self):
        return self._trace.ndim(self._node)

    def __repr__(self):
        return "<cunp.fuse traced array, dtype=%s, ndim=%d>" % (self.dtype, self.ndim)

    # ---- what is not
    @property
    def shape(self):
        raise NotImplementedError("cunp.fuse: the shape of a traced array is unknown while tracing "
                                  "(its dtype and ndim are known)")

    @property
    def size(self):
        raise NotImplementedError("cunp.fuse: the size of a traced array is unknown while tracing")

    def _unsupported(self, what):
        raise NotImplementedError("cunp.fuse: %s cannot be fused (fused functions take ufuncs, operators, "
                                  "scalars, where, clip, astype and one trailing reduction)" % what)

    def __getitem__(self, key):
        self._unsupported("indexing (x[...])")

    def __setitem__(self, key, value):
        self._unsupported("item assignment (x[...] = v)")

    def __bool__(self):
        raise TypeError("cunp.fuse: the truth value of a traced array is unknown while tracing; "
                        "use cunp.where instead of if, and, or, not")

    def __len__(self):
        raise TypeError("cunp.fuse: len() of a traced array is unknown while tracing")

    def __iter__(self):
        raise TypeError("cunp.fuse: a traced array cannot be iterated")

    def _no_conversion(self, *args):
        raise TypeError("cunp.fuse: a traced array has no value while tracing (int(), float(), complex())")

    __int__ = __float__ = __complex__ = __index__ = _no_conversion

    def __array__(self, *args, **kwargs):
        raise TypeError("cunp.fuse: %s cannot take a traced array; fused functions take ufuncs, operators, "
                        "where, clip, astype and one trailing reduction" % _caller_name())

    # ---- operations
    def _apply(self, ufunc, *operands):
        return _Traced(self._trace, self._trace.apply(ufunc, [self._operand(o, ufunc) for o in operands]))

    def _operand(self, value, what):
        if type(value) is _Traced:
            if value._trace is not self._trace:
                raise ValueError("cunp.fuse: a traced value of another fused call was used in %s" % what)
            return value._node
        if isinstance(value, _PYTHON_SCALARS) or isinstance(value, _numpy.generic):
            return self._trace.constant(value)
        if isinstance(value, _core.ndarray):
            raise TypeError("cunp.fuse: %s of a cunp array that is not an argument of the fused function "
                            "(a global or closure variable); pass it as an argument" % what)
        raise TypeError("cunp.fuse: %s of a traced array and a %s is not supported (scalars and traced arrays "
                        "are)" % (what, type(value).__name__))

    def __cunp_ufunc__(self, name, args, kwargs):
        # cunp.<ufunc>(...) with traced operands (ufunc_py.cpp hands the call here).
        for k, v in kwargs.items():
            if v is not None and not (k in ("casting",) and v == "same_kind") and not (k == "where" and v is True):
                raise NotImplementedError("cunp.fuse: %s(%s=...) inside a fused function is not supported"
                                          % (name, k))
        return self._ufunc_call(name, args)

    def _ufunc_call(self, name, args):
        uf = _UFUNCS.get(name) or _core._special_ufuncs.get(name)
        if uf is not None and len(args) > uf.nin:
            raise NotImplementedError("cunp.fuse: %s() with an output argument inside a fused function is not "
                                      "supported" % name)
        return self._apply(name, *args)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # numpy.<ufunc>(...) with traced operands: the cunp ufunc of the same name.
        if method != "__call__":
            raise NotImplementedError("cunp.fuse: numpy.%s.%s cannot be fused" % (ufunc.__name__, method))
        try:
            return self.__cunp_ufunc__(ufunc.__name__, inputs, kwargs)
        except ValueError as e:
            if "no ufunc named" not in str(e):
                raise
            raise NotImplementedError("cunp.fuse: numpy.%s has no cunp ufunc to fuse" % ufunc.__name__) from None

    def __array_function__(self, func, types, args, kwargs):
        impl = _ARRAY_FUNCTIONS.get(func.__name__)
        if impl is None:
            raise NotImplementedError("cunp.fuse: numpy.%s cannot be fused" % func.__name__)
        return impl(*args, **kwargs)

    def __pow__(self, other):
        # NumPy's `a ** 2` is square(a) (bool ** 2 is int8), as cunp's ndarray operator.
        if type(other) is int and other == 2:
            return self._apply("square", self)
        return self._apply("power", self, other)

    def __rpow__(self, other):
        return self._apply("power", other, self)

    def __divmod__(self, other):
        self._unsupported("divmod (two outputs)")

    __rdivmod__ = __divmod__

    def __matmul__(self, other):
        self._unsupported("matmul (@)")

    __rmatmul__ = __matmul__

    def _in_place(self, other):
        self._unsupported("an in-place operator (x += y; write x = x + y)")

    __iadd__ = __isub__ = __imul__ = __itruediv__ = __ifloordiv__ = __imod__ = __ipow__ = _in_place
    __iand__ = __ior__ = __ixor__ = __ilshift__ = __irshift__ = _in_place

    def astype(self, dtype, order="K", casting=None, subok=None, copy=True):
        return _Traced(self._trace, self._trace.cast(self._node, _numpy.dtype(dtype)))

    # ---- the reductions (at most one, as the function's last operation)
    def __cunp_reduce__(self, name, axis=None, dtype=None, out=None, keepdims=False, ddof=0, initial=None,
                        where=True):
        if name not in ("sum", "prod", "min", "max", "mean", "any", "all"):
            raise NotImplementedError("cunp.fuse: the reduction %s cannot be fused (sum, prod, min, max, mean, "
                                      "any and all can)" % name)
        for what, value, default in (("out", out, None), ("initial", initial, None), ("where", where, True)):
            if value is not default:
                raise NotImplementedError("cunp.fuse: %s(%s=) inside a fused function is not supported"
                                          % (name, what))
        if dtype is not None and name not in ("sum", "prod", "mean"):
            raise TypeError("%s() got an unexpected keyword argument 'dtype'" % name)
        return _Traced(self._trace, self._trace.reduce(name, self._node, axis, bool(keepdims), dtype))

    def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        return self.__cunp_reduce__("sum", axis, dtype, out, keepdims, 0, initial, where)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        return self.__cunp_reduce__("prod", axis, dtype, out, keepdims, 0, initial, where)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
        return self.__cunp_reduce__("mean", axis, dtype, out, keepdims, 0, None, where)

    def min(self, axis=None, out=None, keepdims=False, initial=None, where=True):
        return self.__cunp_reduce__("min", axis, None, out, keepdims, 0, initial, where)

    def max(self, axis=None, out=None, keepdims=False, initial=None, where=True):
        return self.__cunp_reduce__("max", axis, None, out, keepdims, 0, initial, where)

    def any(self, axis=None, out=None, keepdims=False, *, where=True):
        return self.__cunp_reduce__("any", axis, None, out, keepdims, 0, None, where)

    def all(self, axis=None, out=None, keepdims=False, *, where=True):
        return self.__cunp_reduce__("all", axis, None, out, keepdims, 0, None, where)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        self._unsupported("the ndarray attribute or method '%s'" % name)


_UFUNCS = _core._ufuncs


def _binary(name, reflected=False):
    if reflected:
        def op(self, other):
            return self._apply(name, other, self)
    else:
        def op(self, other):
            return self._apply(name, self, other)
    return op


for _op, _uf in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "true_divide"),
                 ("floordiv", "floor_divide"), ("mod", "remainder"), ("and", "bitwise_and"), ("or", "bitwise_or"),
                 ("xor", "bitwise_xor"), ("lshift", "left_shift"), ("rshift", "right_shift")):
    setattr(_Traced, "__%s__" % _op, _binary(_uf))
    setattr(_Traced, "__r%s__" % _op, _binary(_uf, True))
for _op, _uf in (("eq", "equal"), ("ne", "not_equal"), ("lt", "less"), ("le", "less_equal"), ("gt", "greater"),
                 ("ge", "greater_equal")):
    setattr(_Traced, "__%s__" % _op, _binary(_uf))
for _op, _uf in (("neg", "negative"), ("pos", "positive"), ("abs", "absolute"), ("invert", "invert")):
    setattr(_Traced, "__%s__" % _op, (lambda u: lambda self: self._apply(u, self))(_uf))
del _op, _uf


def _traced_of(values):
    for v in values:
        if type(v) is _Traced:
            return v
    return None


def _where(condition, x, y):
    """cunp.where(condition, x, y) while tracing (cunp._ufuncs.where forwards here)."""
    t = _traced_of((condition, x, y))
    if t is None:
        return _core._where3(condition, x, y)
    return _Traced(t._trace, t._trace.where(*(t._operand(v, "where") for v in (condition, x, y))))


def _clip(a, a_min, a_max, out=None, **kwargs):
    """cunp.clip(a, a_min, a_max) while tracing; None for the traced arguments otherwise."""
    t = _traced_of((a, a_min, a_max))
    if t is None:
        return None
    if out is not None or any(v is not None for v in kwargs.values()):
        raise NotImplementedError("cunp.fuse: clip(out=, dtype=, ...) inside a fused function is not supported")
    lo = -1 if a_min is None else t._operand(a_min, "clip")
    hi = -1 if a_max is None else t._operand(a_max, "clip")
    return _Traced(t._trace, t._trace.clip(t._operand(a, "clip"), lo, hi))


def _array_where(condition, x=None, y=None):
    if x is None or y is None:
        raise NotImplementedError("cunp.fuse: where(condition) (nonzero) cannot be fused")
    return _where(condition, x, y)


def _array_clip(a, a_min=None, a_max=None, out=None, **kwargs):
    kwargs.pop("min", None), kwargs.pop("max", None)
    return _clip(a, a_min, a_max, out, **kwargs)


def _array_reduction(name):
    def f(a, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
        t = _traced_of((a,))
        if t is None:
            raise TypeError("cunp.fuse: numpy.%s of a non-traced value inside a fused function" % name)
        if name in ("min", "max", "any", "all") and dtype is not None:
            out, dtype = dtype, None  # numpy.amax(a, axis, out, keepdims): out is the third
        return a.__cunp_reduce__(name, axis, dtype, out, keepdims, **kwargs)
    return f


_ARRAY_FUNCTIONS = {"where": _array_where, "clip": _array_clip}
for _name in ("sum", "prod", "mean", "min", "max", "any", "all"):
    _ARRAY_FUNCTIONS[_name] = _array_reduction(_name)
_ARRAY_FUNCTIONS["amin"] = _ARRAY_FUNCTIONS["min"]
_ARRAY_FUNCTIONS["amax"] = _ARRAY_FUNCTIONS["max"]
del _name


def _caller_name():
    """The name of the cunp (or NumPy) function that received a traced array: the
    outermost frame of the library below the user's code."""
    f = sys._getframe(2)
    name = None
    while f is not None:
        mod = f.f_globals.get("__name__", "")
        if mod.split(".")[0] in ("cunp", "numpy"):
            if not f.f_code.co_name.startswith("_") and mod != __name__:
                name = "%s.%s" % (mod.split(".")[0], f.f_code.co_name)
        elif name is not None:
            break
        f = f.f_back
    return name or "a function that is not a ufunc"


def _kernel_name(func):
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in getattr(func, "__name__", "fused"))
    if not name or name[0].isdigit():
        name = "_" + name
    return name


def _where_in_user_code(tb):
    """'file:line: source' of the innermost frame of the traced function's own code."""
    last = None
    while tb is not None:
        mod = tb.tb_frame.f_globals.get("__name__", "")
        if mod.split(".")[0] not in ("cunp",):
            last = tb
        tb = tb.tb_next
    if last is None:
        return None
    code = last.tb_frame.f_code
    line = linecache.getline(code.co_filename, last.tb_lineno).strip()
    return "%s:%d%s" % (code.co_filename, last.tb_lineno, (": " + line) if line else "")


class Fusion:
    """A fused function (what ``cunp.fuse`` returns).

    Calling it, ``f(*args, out=None, stream=None)``, runs the function on cunp arrays and
    scalars (Python scalars are weak, as NumPy 2 reads them) as one kernel on a CUDA
    device; ``out=`` receives the result (a tuple for several results). The first call
    for each argument signature (per argument: dtype, ndim, array or scalar) traces the
    function; the trace and its kernels are kept.
    """

    def __init__(self, func, kernel_name=None):
        if not callable(func):
            raise TypeError("cunp.fuse: the fused object must be callable, got %s" % type(func).__name__)
        self.func = func
        self.kernel_name = kernel_name if kernel_name is not None else _kernel_name(func)
        self._fn = _core._FusedFunction(self.kernel_name)
        functools.update_wrapper(self, func)

    def __call__(self, *args, out=None, stream=None):
        r = self._fn(args, out, stream)
        if r is None:
            self._trace(args)
            r = self._fn(args, out, stream)
        return r if out is None else out

    def _trace(self, args):
        global _tracing
        trace = _core._FusionTrace(args)
        proxies = [_Traced(trace, k) for k in range(len(args))]
        _tracing += 1
        try:
            result = self.func(*proxies)
        except Exception as e:
            where = _where_in_user_code(e.__traceback__)
            if where and hasattr(e, "add_note"):
                e.add_note("(while cunp.fuse traced %s, at %s)" % (getattr(self.func, "__name__", "?"), where))
            raise
        finally:
            _tracing -= 1
        results = result if isinstance(result, tuple) else (result,)
        nodes = []
        for r in results:
            if type(r) is not _Traced or r._trace is not trace:
                raise TypeError("cunp.fuse: the fused function must return traced arrays (results of operations "
                                "on its arguments) or a tuple of them, got %s" % type(r).__name__)
            nodes.append(r._node)
        if not nodes:
            raise TypeError("cunp.fuse: the fused function returned an empty tuple")
        self._fn.define(args, trace, nodes)

    def _cuda_source(self, *args, out=None):
        """The CUDA source a call with these arguments compiles (any device; no GPU needed)."""
        self._ensure_traced(args)
        return self._fn._cuda_source(args, out)

    def _compile(self, *args, out=None, arch=90):
        """Compiles the kernel a call with these arguments needs for sm_<arch> without a
        GPU (NVRTC through the disk cache); returns the cubin's size."""
        self._ensure_traced(args)
        return self._fn._compile(args, out, arch)

    def _ensure_traced(self, args):
        try:
            self._fn._cuda_source(args, None)
        except ValueError as e:
            if "have not been traced" not in str(e):
                raise
            self._trace(args)

    def __repr__(self):
        return "<cunp.Fusion %r>" % (self.kernel_name,)


def fuse(*args, **kwargs):
    """cupy.fuse: ``@cunp.fuse()``, ``@cunp.fuse(kernel_name='k')`` or ``cunp.fuse(func)``.

    The function may use cunp's ufuncs and operators, NumPy's ufuncs, Python and NumPy
    scalars, ``cunp.where``, ``cunp.clip``, ``astype`` and, as its last operation, one
    reduction (sum, prod, min/amin, max/amax, mean, any, all; axis, keepdims, dtype).
    Results, dtypes and broadcasting are those of the same code run op by op.
    Anything else raises TypeError or NotImplementedError naming the operation.
    """
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return Fusion(args[0])
    if args:
        raise TypeError("fuse() takes a function, or keyword arguments only (kernel_name=)")
    kernel_name = kwargs.pop("kernel_name", None)
    if kwargs:
        raise TypeError("fuse() got an unexpected keyword argument '%s'" % sorted(kwargs)[0])
    return lambda func: Fusion(func, kernel_name=kernel_name)


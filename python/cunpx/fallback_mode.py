"""cunpx.fallback_mode: ``from cunpx.fallback_mode import numpy as np`` gives NumPy's
namespace where each name runs in cunp when cunp has it and otherwise falls back to NumPy
on the host: cunp arrays among the arguments are copied to the host, NumPy computes, and
NumPy arrays in the result come back as cunp arrays on the device of the first cunp
argument (cupyx.fallback_mode). Each fallback emits a :class:`FallbackWarning` naming the
function (``warnings.simplefilter("ignore", FallbackWarning)`` silences them)."""
import types
import warnings

import numpy as _numpy

import cunp as _cunp


class FallbackWarning(UserWarning):
    """A cunpx.fallback_mode call that ran in NumPy on the host."""


def _first_device(values):
    for v in values:
        if isinstance(v, _cunp.ndarray):
            return v.device
        if isinstance(v, (list, tuple)):
            d = _first_device(v)
            if d is not None:
                return d
        if isinstance(v, dict):
            d = _first_device(v.values())
            if d is not None:
                return d
    return None


def _to_host(v):
    if isinstance(v, _cunp.ndarray):
        return _cunp.asnumpy(v)
    if type(v) in (list, tuple):
        return type(v)(_to_host(x) for x in v)
    if type(v) is dict:
        return {k: _to_host(x) for k, x in v.items()}
    return v


def _to_device(v, device):
    if isinstance(v, _numpy.ndarray) and v.dtype.kind in "biufc":
        return _cunp.asarray(v, device=device)
    if type(v) in (list, tuple):
        return type(v)(_to_device(x, device) for x in v)
    if isinstance(v, tuple) and hasattr(v, "_fields"):  # namedtuple results
        return type(v)(*(_to_device(x, device) for x in v))
    return v


class _Fallback:
    """One NumPy callable: cunp's when it exists, NumPy's on host copies otherwise."""

    def __init__(self, qualname, cunp_obj, numpy_obj):
        self._qualname = qualname
        self._cunp = cunp_obj
        self._numpy = numpy_obj
        self.__name__ = getattr(numpy_obj, "__name__", qualname.rsplit(".", 1)[-1])
        self.__doc__ = getattr(numpy_obj, "__doc__", None)

    def __call__(self, *args, **kwargs):
        if self._cunp is not None:
            return self._cunp(*args, **kwargs)
        warnings.warn("'%s' is not in cunp: falling back to NumPy on the host" % self._qualname, FallbackWarning,
                      stacklevel=2)
        device = _first_device(args) or _first_device(kwargs.values())
        result = self._numpy(*_to_host(args), **_to_host(kwargs))
        return result if device is None else _to_device(result, device)

    def __repr__(self):
        where = "cunp" if self._cunp is not None else "numpy (fallback)"
        return "<fallback_mode function %s: %s>" % (self._qualname, where)


class _Namespace(types.ModuleType):
    """NumPy's module `numpy_module` seen through cunp's module `cunp_module`."""

    def __init__(self, name, numpy_module, cunp_module):
        super().__init__(name)
        self._numpy_module = numpy_module
        self._cunp_module = cunp_module

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        numpy_obj = getattr(self._numpy_module, attr)  # AttributeError as NumPy's
        cunp_obj = getattr(self._cunp_module, attr, None) if self._cunp_module is not None else None
        if isinstance(numpy_obj, types.ModuleType):
            value = _Namespace("%s.%s" % (self.__name__, attr), numpy_obj, cunp_obj)
        elif cunp_obj is not None and not callable(numpy_obj):
            value = cunp_obj  # constants, dtypes
        elif isinstance(numpy_obj, type):
            value = cunp_obj if cunp_obj is not None else numpy_obj  # classes: dtypes, ndarray ...
        elif callable(numpy_obj):
            value = _Fallback("%s.%s" % (self._numpy_module.__name__, attr),
                              cunp_obj if callable(cunp_obj) else None, numpy_obj)
        else:
            value = numpy_obj
        setattr(self, attr, value)
        return value

    def __dir__(self):
        return dir(self._numpy_module)


numpy = _Namespace("cunpx.fallback_mode.numpy", _numpy, _cunp)

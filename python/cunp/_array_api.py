"""The Python Array API standard's entry points: ``__array_api_version__``,
``ndarray.__array_namespace__`` (attached in _ndarray.py) and the inspection object of
``__array_namespace_info__()`` (docs/interop.md, "The Array API standard")."""
import sys

import numpy as _numpy

from cunp import _core
from cunp._array import Device, _device_object

__array_api_version__ = "2025.12"
# The versions __array_namespace__(api_version=) accepts: cunp's namespace is a superset
# of each earlier revision.
_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")

# The dimensions every cunp routine handles: NumPy's limit, which host conversions share,
# and the strided parameter blocks of the CUDA reduction kernels (kReduceMaxDims).
_MAX_DIMENSIONS = 64

# The standard's data types, by canonical name (float16 is cunp's but not the standard's).
_DTYPES = {name: _numpy.dtype(name) for name in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128")}
_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "integral": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
    "numeric": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float32", "float64", "complex64", "complex128"),
}


def _array_namespace(self, /, *, api_version=None):
    """The Array API namespace of cunp arrays: the ``cunp`` module, for every supported
    revision of the standard (``api_version=None``: the newest, 2025.12)."""
    if api_version is not None:
        if not isinstance(api_version, str):
            raise ValueError("Only None and strings are allowed as the Array API version, but received: %r."
                             % (api_version,))
        if api_version not in _API_VERSIONS:
            raise ValueError('Version "%s" of the Array API Standard is not supported (cunp supports %s).'
                             % (api_version, ", ".join(_API_VERSIONS)))
    return sys.modules["cunp"]


class ArrayNamespaceInfo:
    """The inspection object of the Array API (``cunp.__array_namespace_info__()``):
    cunp's capabilities, devices and data types."""

    __slots__ = ()

    def capabilities(self):
        """Boolean indexing and data-dependent output shapes (unique_*, nonzero, repeat
        with an array) are supported on every device; arrays have at most 64 dimensions."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": _MAX_DIMENSIONS}

    def default_device(self):
        """The device arrays are created on without ``device=``: the thread's current one
        (``with cunp.Device(...)``), else ``cuda:0`` when a GPU is usable, else ``cpu``."""
        return _device_object(_core._current_device())

    def devices(self):
        """The cpu device, then each CUDA device (cunp.cuda.Device objects)."""
        from cunp import cuda

        return (Device("cpu"),) + tuple(cuda.Device(i) for i in range(_core._device_count()))

    def _check_device(self, device):
        if device is None:
            return
        devices = self.devices()
        try:
            name = str(Device(device))
        except (TypeError, ValueError, RuntimeError):  # RuntimeError: "cuda" without a GPU
            name = None
        if name not in [str(d) for d in devices]:
            raise ValueError("Device not understood. Only %s are supported, but received: %r"
                             % (", ".join('"%s"' % d for d in devices), device))

    def default_dtypes(self, *, device=None):
        """The default dtypes (the same on every device): float64, complex128 and int64
        (also for indexing)."""
        self._check_device(device)
        return {"real floating": _DTYPES["float64"], "complex floating": _DTYPES["complex128"],
                "integral": _DTYPES["int64"], "indexing": _DTYPES["int64"]}

    def dtypes(self, *, device=None, kind=None):
        """The standard's data types cunp supports (all of them, on every device), by
        canonical name; `kind` (a kind name or a tuple of them) selects a subset."""
        self._check_device(device)
        if kind is None:
            return dict(_DTYPES)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        names = set()
        for k in kinds:
            if not isinstance(k, str) or k not in _KINDS:
                raise ValueError("unsupported kind: %r (expected None, one of %s, or a tuple of them)"
                                 % (k, ", ".join(repr(n) for n in _KINDS)))
            names.update(_KINDS[k])
        return {n: dt for n, dt in _DTYPES.items() if n in names}

    def __repr__(self):
        return "<cunp array namespace info (Array API %s)>" % __array_api_version__


def __array_namespace_info__():
    """The Array API inspection object (see ArrayNamespaceInfo)."""
    return ArrayNamespaceInfo()

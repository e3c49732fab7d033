"""Sharing memory with other array libraries without copying (docs/interop.md):
``ndarray.__dlpack__``, ``__dlpack_device__``, ``__cuda_array_interface__``,
``cunp.from_dlpack``, and the import of objects exposing ``__cuda_array_interface__``
that ``cunp.asarray``/``cunp.array`` use. The capsules, pointers and stream handshakes
are C++ (include/cunp/interop.hpp, python/src/interop_py.cpp)."""
import numpy as _numpy

from cunp import _core

ndarray = _core.ndarray

# DLDeviceType values (dlpack.h).
kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged = 1, 2, 3, 13


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """Exports the array as a DLPack capsule (the array API's ``__dlpack__``).

    ``max_version``: a consumer reading DLPack 1.x passes ``(1, 0)`` or later and gets a
    ``"dltensor_versioned"`` capsule (read-only arrays flagged as such); ``None`` gives a
    legacy ``"dltensor"`` capsule (BufferError for a read-only array, as NumPy).
    ``stream`` (CUDA arrays): the consumer's stream, ``None`` or ``1`` the legacy
    default stream, ``2`` the per-thread default stream, another int a
    ``cudaStream_t``; it is made to wait for the work queued on the array. ``-1``: no
    synchronization; ``0`` is ValueError. cpu arrays (and ``dl_device`` cpu) take only
    ``None``. ``dl_device``: ``(1, 0)`` copies a CUDA array to the host (unless
    ``copy=False``: BufferError); other devices are BufferError. ``copy``: ``True``
    always exports a copy, ``False`` never does.
    """
    return _core._to_dlpack(self, stream, max_version, dl_device, copy)


def _dlpack_device(self):
    """``(device_type, device_id)``: ``(1, 0)`` for the cpu, ``(2, N)`` for ``cuda:N``."""
    return _core._dlpack_device(self)


def _cuda_array_interface(self):
    """The CUDA Array Interface (version 3) of a CUDA array; AttributeError on the cpu,
    so ``hasattr(a, '__cuda_array_interface__')`` tells the two apart.

    ``stream`` is cunp's current stream of the array's device (``1`` for the legacy
    default stream, ``2`` for the per-thread one): the consumer waits on it for the work
    queued on the array."""
    return _core._cuda_array_interface(self)


def _is_capsule(x):
    return type(x).__name__ == "PyCapsule"


def from_dlpack(x, /, *, device=None, copy=None):
    """numpy.from_dlpack / the array API's from_dlpack: a cunp array sharing the memory
    of ``x`` (an object with ``__dlpack__``, or a DLPack capsule as older libraries'
    ``to_dlpack()`` return).

    kDLCPU and kDLCUDAHost memory becomes a cpu array, kDLCUDA and kDLCUDAManaged memory a
    ``cuda:N`` array. For a CUDA producer cunp passes its current stream of that device,
    so the producer orders its pending work before cunp's. ``device``: ``"cpu"`` or
    ``"cuda:N"``, copying when the memory is elsewhere (a CUDA producer is asked to copy
    to the host itself). ``copy``: ``True`` always copies, ``False`` never (BufferError
    when the device differs). A capsule can be imported once (BufferError after).
    """
    if device is None:
        return _core._from_dlpack(x, copy)  # the common case, in one C++ call
    from cunp._array import Device

    target = str(Device(device))
    if _is_capsule(x):
        out, copied = _core._from_dlpack_capsule(x), False
    else:
        out, copied = _import_dlpack(x, target, copy)
    if target is not None and out._device_str != target:
        if copy is False:
            raise BufferError("from_dlpack: the array is on %s and device=%r needs a copy, but copy=False"
                              % (out._device_str, target))
        out, copied = out._to_device(target), True
    if copy and not copied:
        out = out.copy(order="K")
    return out


def _producer_device(dev_type, dev_id):
    if dev_type in (kDLCPU, kDLCUDAHost):
        return "cpu"
    if dev_type in (kDLCUDA, kDLCUDAManaged):
        return "cuda:%d" % dev_id
    return None


def _import_dlpack(x, target, copy):
    """(array, whether the producer made a copy) from an object with ``__dlpack__``."""
    device_fn = getattr(x, "__dlpack_device__", None)
    if device_fn is None or not hasattr(x, "__dlpack__"):
        raise TypeError("from_dlpack: expected an object with __dlpack__ and __dlpack_device__ methods or a "
                        "DLPack capsule, got %s" % type(x).__name__)
    dev_type, dev_id = (int(v) for v in device_fn())
    stream = None
    if dev_type in (kDLCUDA, kDLCUDAManaged):
        if _core._device_count() == 0:
            raise BufferError("from_dlpack: the array is on CUDA device %d, but CUDA is unavailable (%s)"
                              % (dev_id, _core._cuda_unavailable_reason()))
        stream = _core._current_stream(dev_id).ptr
    kwargs = {"stream": stream, "max_version": (1, 0), "copy": copy}
    here = _producer_device(dev_type, dev_id)
    if target == "cpu" and here != "cpu":
        # The producer moves the data to the host itself (it may be on a device cunp cannot read).
        kwargs.update(stream=None, dl_device=(kDLCPU, 0))
    elif target is not None and target != here and copy:
        kwargs["copy"] = None  # cunp's transfer to `target` is the copy
    try:
        capsule = x.__dlpack__(**kwargs)
    except TypeError:
        # A producer from before DLPack 1.0: no max_version, dl_device or copy keywords.
        capsule = x.__dlpack__() if stream is None else x.__dlpack__(stream=stream)
        return _core._from_dlpack_capsule(capsule), False
    return _core._from_dlpack_capsule(capsule), kwargs["copy"] is True or "dl_device" in kwargs


_CUNP_TYPE_CHARS = frozenset("?bBhHiIlLqQefdFD")  # NumPy's type characters of cunp's 14 dtypes


def cuda_array_interface_of(obj):
    """``obj.__cuda_array_interface__``, or None for objects without one (host data)."""
    if isinstance(obj, (list, tuple, int, float, complex, _numpy.ndarray, _numpy.generic)):
        return None
    return getattr(obj, "__cuda_array_interface__", None)


def _cai_dtype(typestr):
    """The NumPy dtype of a ``__cuda_array_interface__`` typestr, or the protocol's
    TypeError. C++ caches the answer by the typestr's text, so each one comes here once."""
    dtype = _numpy.dtype(typestr)
    if dtype.char not in _CUNP_TYPE_CHARS:
        raise TypeError("__cuda_array_interface__ typestr %r: cunp arrays cannot hold dtype %s (only bool, "
                        "integer, floating and complex up to 8 and 16 bytes)" % (typestr, dtype))
    if not dtype.isnative:
        raise TypeError("__cuda_array_interface__ typestr %r is not in the native byte order; cunp arrays "
                        "cannot hold it" % (typestr,))
    return dtype


def from_cuda_array_interface(obj, iface):
    """A cunp array viewing the memory ``obj`` describes with ``iface`` (its
    ``__cuda_array_interface__``), keeping ``obj`` alive; no copy.

    The array is on the CUDA device owning the pointer, non-writeable when the interface
    says read-only. A ``stream`` other than None makes cunp's current stream of that
    device wait for it (the consumer's side of the protocol). One C++ call
    (python/src/interop_py.cpp)."""
    return _core._from_cuda_array_interface(obj, iface, _cai_dtype)


def import_cuda_array_interface(obj):
    """``from_cuda_array_interface(obj, obj.__cuda_array_interface__)``, or None for
    objects without the interface (host data), in one C++ call."""
    return _core._cuda_array_interface_import(obj, _cai_dtype)


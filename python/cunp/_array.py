"""Array conversion, device objects and small array functions of the top-level namespace."""
import numpy as _numpy

from cunp import _core

ndarray = _core.ndarray


class Device:
    """A device an array can live on: ``Device("cpu")``, ``Device("cuda:1")``.

    Used as a context manager it makes the device current for the thread, so array
    creation without ``device=`` lands there.
    """

    __slots__ = ("_cunp_device", "_previous")

    def __init__(self, device="cpu"):
        if isinstance(device, Device):
            device = device._cunp_device
        elif isinstance(device, int):
            device = "cuda:%d" % device
        self._cunp_device = _normalize(device)
        self._previous = []

    @property
    def type(self):
        return "cpu" if self._cunp_device == "cpu" else "cuda"

    @property
    def id(self):
        return 0 if self._cunp_device == "cpu" else int(self._cunp_device.split(":")[1])

    def use(self):
        _core._set_thread_device(self._cunp_device)

    def __enter__(self):
        self._previous.append(_core._thread_device())
        _core._set_thread_device(self._cunp_device)
        return self

    def __exit__(self, *exc):
        _core._set_thread_device(self._previous.pop())
        return False

    def __eq__(self, other):
        if isinstance(other, Device):
            return self._cunp_device == other._cunp_device
        if isinstance(other, str):
            try:
                return self._cunp_device == _normalize(other)
            except ValueError:
                return False
        return NotImplemented

    def __hash__(self):
        return hash(self._cunp_device)

    def __repr__(self):
        return "<Device %s>" % self._cunp_device

    def __str__(self):
        return self._cunp_device


def _normalize(text):
    if text == "cuda" or text == "gpu":
        return "cuda:%d" % _core.getDevice()
    if text.startswith("gpu:"):
        text = "cuda:" + text[4:]
    if text != "cpu" and not (text.startswith("cuda:") and text[5:].isdigit()):
        raise ValueError("invalid device %r (expected 'cpu', 'cuda' or 'cuda:N')" % (text,))
    return text


def _device_of(a):
    from cunp import cuda

    d = a._device_str
    if d == "cpu":
        return Device("cpu")
    return cuda.Device(int(d[5:]))


def _array_dunder(self, dtype=None, copy=None):
    if self._device_str != "cpu":
        raise TypeError("Implicit conversion to a NumPy array is not allowed. "
                        "Please use `.get()` to construct a NumPy array explicitly.")
    out = self._numpy_view()
    if dtype is not None and _numpy.dtype(dtype) != out.dtype:
        return out.astype(dtype)
    return out.copy() if copy else out


ndarray.device = property(_device_of)
ndarray.__array__ = _array_dunder
ndarray.to_device = lambda self, device, stream=None: self._to_device(str(Device(device)) if not isinstance(device, str) else _normalize(device))
ndarray.__array_priority__ = 100.0


def asarray(a, dtype=None, order=None, *, device=None, copy=None):
    """numpy.asarray: no copy when `a` is already a cunp array on the target device.

    Host data (NumPy arrays, lists, scalars) is copied to the device; on the ``cpu``
    device a NumPy array is wrapped without copying.
    """
    dev = None if device is None else str(Device(device))
    if isinstance(a, ndarray):
        out = a
        if dev is not None and a._device_str != dev:
            out = out._to_device(dev)
        elif copy:
            out = out.copy(order="K" if order is None else order)
        if dtype is not None and _numpy.dtype(dtype) != out.dtype:
            out = out.astype(dtype, order="K" if order is None else order)
        if order in ("C", "F") and not getattr(out.flags, "c_contiguous" if order == "C" else "f_contiguous"):
            out = out.copy(order=order)
        return out
    if order is not None and not isinstance(a, _numpy.ndarray):
        a = _numpy.asarray(a, dtype=dtype, order=order)
    elif order in ("C", "F"):
        a = _numpy.asarray(a, dtype=dtype, order=order)
    out = _core._as_cunp(a, dev, dtype)
    if copy and out._device_str == "cpu" and isinstance(a, _numpy.ndarray):
        out = out.copy(order="K")
    return out


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, device=None):
    """numpy.array: copies unless ``copy=False`` allows reusing `obj`."""
    layout = order if order in ("C", "F") else None
    out = asarray(obj, dtype=dtype, order=layout, device=device,
                  copy=None if copy is False else bool(copy))
    if copy is not False and out is obj:
        out = out.copy(order=layout or "K")
    if ndmin > out.ndim:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return out


asanyarray = asarray


def asnumpy(a, stream=None, order="C", out=None):
    """Returns a NumPy array: ``a.get()`` for cunp arrays, ``numpy.asarray`` otherwise."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, order=order, out=out)
    return _numpy.asarray(a, order=order)


def get_array_module(*args):
    """cunp if any argument is a cunp array, else numpy (for CPU/GPU-generic code)."""
    import cunp

    for a in args:
        if isinstance(a, ndarray):
            return cunp
    return _numpy


def ascontiguousarray(a, dtype=None, *, like=None):
    return _core._ascontiguousarray(asarray(a), dtype)


def asfortranarray(a, dtype=None, *, like=None):
    return _core._asfortranarray(asarray(a), dtype)


def copy(a, order="K"):
    return asarray(a).copy(order=order)


def diag(v, k=0):
    return _core._diag(asarray(v), k)


def diagonal(a, offset=0, axis1=0, axis2=1):
    a = asarray(a)
    if (axis1, axis2) != (0, 1) or a.ndim != 2:
        axes = [i for i in range(a.ndim) if i not in (axis1 % a.ndim, axis2 % a.ndim)]
        a = a.transpose(axes + [axis1 % a.ndim, axis2 % a.ndim])
    return _core._diagonal(a, offset)


def tril(m, k=0):
    return _core._tril(asarray(m), k)


def triu(m, k=0):
    return _core._triu(asarray(m), k)


def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    """numpy.reshape; ``newshape=`` is NumPy's older name of ``shape``."""
    if newshape is not None:
        if shape is not None:
            raise TypeError("You cannot specify 'newshape' and 'shape' arguments at the same time.")
        shape = newshape
    if shape is None:
        raise TypeError("reshape() missing 1 required positional argument: 'shape'")
    return asarray(a).reshape(shape, order=order, copy=copy)


def ravel(a, order="C"):
    return asarray(a).ravel(order=order)


def transpose(a, axes=None):
    return asarray(a).transpose(axes)


def shape(a):
    return asarray(a).shape


def ndim(a):
    return asarray(a).ndim


def size(a, axis=None):
    a = asarray(a)
    return a.size if axis is None else a.shape[axis]


def may_share_memory(a, b, max_work=None):
    return isinstance(a, ndarray) and isinstance(b, ndarray) and a._may_share_memory(b)


def copyto(dst, src, casting="same_kind", where=True):
    if where is not True:
        raise NotImplementedError("copyto(where=...) is not available yet")
    src = asarray(src, device=dst.device) if not isinstance(src, ndarray) else src
    if not _core.can_cast(src.dtype, dst.dtype, casting):
        raise TypeError("Cannot cast array data from %r to %r according to the rule %r"
                        % (src.dtype, dst.dtype, casting))
    dst[...] = src


def broadcast_to(array, shape, subok=False):
    return _core._broadcast_to(asarray(array), shape)


finfo = _numpy.finfo
iinfo = _numpy.iinfo


def show_config(*, _file=None):
    """Prints cunp's version, CUDA versions and devices (like cupy.show_config)."""
    print(_core.show_config(), end="", file=_file)


from cunp import _ndarray  # noqa: E402,F401 - ndarray.flags, .flat and .data

"""Array conversion, device objects and small array functions of the top-level namespace."""
import numpy as _numpy

from cunp import _core, _interop

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
        elif not isinstance(device, str):
            raise TypeError("invalid device %r (expected 'cpu', 'cuda', 'cuda:N', an int or a Device)" % (device,))
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


def _device_object(name):
    """The device object of a device name: Device("cpu"), or cunp.cuda.Device(n) for "cuda:n"."""
    if name == "cpu":
        return Device("cpu")
    from cunp import cuda

    return cuda.Device(int(name[5:]))


def _device_of(a):
    return _device_object(a._device_str)


def _array_dunder(self, dtype=None, copy=None):
    if self._device_str != "cpu":
        raise TypeError("Implicit conversion to a NumPy array is not allowed. "
                        "Please use `.get()` to construct a NumPy array explicitly.")
    out = self._numpy_view()
    if dtype is not None and _numpy.dtype(dtype) != out.dtype:
        return out.astype(dtype)
    return out.copy() if copy else out


def _to_device(self, device, /, *, stream=None):
    """The array on `device` (itself when it is there already); with a cunp.cuda stream,
    the copy is ordered on that stream."""
    target = _normalize(device) if isinstance(device, str) else str(Device(device))
    if stream is not None:
        from cunp.cuda.stream import _BaseStream

        if not isinstance(stream, _BaseStream):
            raise TypeError("to_device: stream must be a cunp.cuda.Stream or None, not %s" % type(stream).__name__)
    if target == self._device_str:
        return self
    if stream is None:
        return self._to_device(target)
    with stream:
        return self._to_device(target)


_COPY_NEEDED = (
    "Unable to avoid copy while creating an array as requested.\n"
    "If using `np.array(obj, copy=False)` replace it with `np.asarray(obj)` to allow a copy when needed "
    "(no behavior change in NumPy 1.x).\n"
    "For more details, see https://numpy.org/devdocs/numpy_2_0_migration_guide.html"
    "#adapting-to-changes-in-the-copy-keyword.")


_cai_dtype = _interop._cai_dtype


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """numpy.asarray: `a` itself when it is a cunp array on the target device already in
    the requested dtype and layout; otherwise a copy (``copy=False`` raises ValueError
    when one is needed, as NumPy 2 does; a host-to-device transfer is always one).

    Host data (NumPy arrays, nested lists mixing scalars and arrays, objects with
    ``__array__``) goes through ``numpy.asarray`` for NumPy's dtype inference and
    errors; on the ``cpu`` device a NumPy array is wrapped without copying. Objects
    exposing ``__cuda_array_interface__`` (PyTorch, CuPy, Numba device arrays) are
    viewed in place on their CUDA device, keeping the object alive (docs/interop.md).
    """
    if dtype is None and device is None and order is None and not copy:
        if type(a) is ndarray:
            return a
        # Another library's device array, viewed in one C++ call (None: host data).
        if (out := _core._cuda_array_interface_import(a, _cai_dtype)) is not None:
            return out
        return _convert(a, dtype, order, device, copy, 0, interface_checked=True)
    return _convert(a, dtype, order, device, copy, 0)


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """numpy.asanyarray: as asarray (cunp has no ndarray subclasses)."""
    return asarray(a, dtype, order, device=device, copy=copy)


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, device=None, like=None):
    """numpy.array: a copy unless ``copy=None`` (copy only when needed) or ``copy=False``
    (never copy: ValueError when one is needed)."""
    return _convert(obj, dtype, order, device, copy, ndmin)


def _convert(a, dtype, order, device, copy, ndmin, interface_checked=False):
    if order is not None:
        order = order.upper() if isinstance(order, str) else order
        if order not in ("C", "F", "A", "K"):
            raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got %r)" % (order,))
    dev = None if device is None else str(Device(device))
    if isinstance(a, ndarray):
        out = _convert_cunp(a, dtype, order, dev, copy)
    elif not interface_checked and (view := _interop.import_cuda_array_interface(a)) is not None:
        # Device memory of another library: viewed in place, never through numpy.asarray.
        out = _convert_cunp(view, dtype, order, dev, copy)
    else:
        out = _convert_host(a, dtype, order, dev, copy)
    if ndmin > out.ndim:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return out


def _convert_cunp(a, dtype, order, dev, copy):
    out, copied = a, False
    if dev is not None and a._device_str != dev:
        if copy is False:
            raise ValueError(_COPY_NEEDED)
        out, copied = out._to_device(dev), True
    if dtype is not None and _numpy.dtype(dtype) != out.dtype:
        if copy is False:
            raise ValueError(_COPY_NEEDED)
        out, copied = out.astype(dtype, order=order or "K"), True
    if order in ("C", "F") and not (out._c_contiguous if order == "C" else out._f_contiguous):
        if copy is False:
            raise ValueError(_COPY_NEEDED)
        out, copied = out.copy(order=order), True
    if copy and not copied:
        out = out.copy(order=order or "K")
    return out


def _convert_host(a, dtype, order, dev, copy):
    on_cpu = (dev or _core._current_device()) == "cpu"
    if copy is False and not on_cpu:
        raise ValueError(_COPY_NEEDED)
    # On the cpu device the NumPy array is the result's memory, so NumPy's own copy
    # rule applies; for a device the upload is the copy.
    np_copy = copy if on_cpu else None
    try:
        host = _numpy.asarray(a, dtype=dtype, order=order, copy=np_copy)
    except TypeError:
        if not isinstance(a, (list, tuple)):
            raise
        # Device arrays inside a nested sequence refuse implicit conversion: bring them
        # to the host, then let NumPy infer the dtype and shape of the whole.
        host = _numpy.asarray(_host_nested(a), dtype=dtype, order=order, copy=np_copy)
    return _core._as_cunp(host, dev, None)


def _host_nested(obj):
    if isinstance(obj, ndarray):
        return obj.get()
    if isinstance(obj, (list, tuple)):
        return [_host_nested(x) for x in obj]
    return obj


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


# np.copyto (C++: include/cunp/copyto.hpp): casting rules, NEP 50 scalars, where masks.
copyto = _core.copyto


def broadcast_to(array, shape, subok=False):
    return _core._broadcast_to(asarray(array), shape)


finfo = _numpy.finfo
iinfo = _numpy.iinfo
# numpy.isdtype: cunp's dtypes are NumPy's.
isdtype = _numpy.isdtype


def astype(x, dtype, /, *, copy=True, device=None):
    """numpy.astype (the Array API's function form of ndarray.astype): `x` in `dtype`, on
    `device` when one is given; ``copy=False`` returns `x` itself when neither changes."""
    if not isinstance(x, ndarray):
        raise TypeError("Input should be a cunp array. It is a %s instead." % type(x))
    if device is not None:
        moved = _to_device(x, device)
        if moved is not x:
            return moved.astype(dtype, copy=False)
    if not copy and _numpy.dtype(dtype) == x.dtype:
        return x
    return x.astype(dtype, copy=copy)


def show_config(*, _file=None):
    """Prints cunp's version, CUDA versions and devices (like cupy.show_config)."""
    print(_core.show_config(), end="", file=_file)

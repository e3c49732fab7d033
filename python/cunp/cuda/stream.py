"""Streams and events, as cupy.cuda's. Every cunp operation runs on the current stream of
its device; ``with stream:`` and ``stream.use()`` choose it."""
import operator
import threading
import warnings

from cunp import _core

_tls = threading.local()

_LEGACY = "legacy"          # Stream.null: cudaStreamLegacy, reported as ptr 0 (CuPy's)
_PER_THREAD = "per_thread"  # Stream.ptds: cudaStreamPerThread
_EXTERNAL = "external"      # a stream some other library created and destroys


def _thread_state():
    """The calling thread's current Stream object per device (what use() and ``with`` set)
    and the ``with`` blocks' (device, previous stream) stack."""
    try:
        return _tls.state
    except AttributeError:
        _tls.state = ({}, [])
        return _tls.state


def _resolve_device(device_id):
    return _core.getDevice() if device_id == -1 else device_id


class _BaseStream:
    """What every stream object has: ``ptr``, ``device_id`` (``-1``: whichever CUDA device is
    current when it is used), the CUDA stream protocol, synchronization, callbacks,
    events and ``with``.

    ``_s`` is the C++ stream when the object is bound to one device; the singleton default
    streams and external streams of unknown device (``device_id == -1``) make one per call
    for the current device instead.
    """

    def _init(self, ptr, device_id, kind, handle):
        self.ptr = ptr
        self.device_id = device_id
        self._kind = kind
        self._s = handle

    def _handle(self, device_id=-1):
        if self._s is not None:
            return self._s
        if self._kind == _LEGACY:
            return _core._Stream.legacy(device_id)
        if self._kind == _PER_THREAD:
            return _core._Stream.per_thread(device_id)
        return _core._Stream.external(self.ptr, device_id)

    def _device_for_use(self):
        """The device this stream becomes current on: RuntimeError when it was created on
        another device than the current one (CuPy's rule)."""
        current = _core.getDevice()
        if self.device_id != -1 and self.device_id != current:
            raise RuntimeError(
                "The device that the stream is created on (%d) does not match with the "
                "current device (%d)" % (self.device_id, current))
        return current

    def _make_current(self, device_id):
        _core._set_current_stream(self._handle(device_id))
        _thread_state()[0][device_id] = self

    def __eq__(self, other):
        # ptr alone, as CuPy: Stream.null and Stream(null=True), or two wrappers of one
        # foreign stream, are the same stream.
        if isinstance(other, _BaseStream):
            return self.ptr == other.ptr
        return False

    def __hash__(self):
        return hash(self.ptr)

    def __repr__(self):
        return "<%s %d (device %d)>" % (type(self).__name__, self.ptr, self.device_id)

    def __cuda_stream__(self):
        """The CUDA stream protocol: ``(version, cudaStream_t address)``, version 0."""
        return (0, self.ptr)

    def __enter__(self):
        device_id = self._device_for_use()
        previous = get_current_stream(device_id)
        _thread_state()[1].append((device_id, previous))
        self._make_current(device_id)
        return self

    def __exit__(self, *exc):
        device_id, previous = _thread_state()[1].pop()
        previous._make_current(device_id)
        return False

    def use(self):
        """Makes this stream current for its device (``with`` restores the previous one)."""
        self._make_current(self._device_for_use())
        return self

    @property
    def done(self):
        """True when all work enqueued on the stream has finished."""
        return self._handle().query()

    def synchronize(self):
        """Waits for the stream to finish its enqueued work."""
        self._handle().synchronize()

    def add_callback(self, callback, arg):
        """Calls ``callback(stream, error_status, arg)`` on a host thread once the work
        enqueued so far has finished; later work on the stream waits for it.

        The callback must not call CUDA (no cunp GPU operations). It takes the GIL, so do
        not block on this stream in a call that holds the GIL meanwhile (``synchronize()``
        and ``Event.synchronize()`` release it). An exception it raises goes to
        ``sys.unraisablehook``.
        """
        self._handle().add_callback(lambda status: callback(self, status, arg))

    def launch_host_func(self, callback, arg):
        """Calls ``callback(arg)`` on a host thread once the work enqueued so far has
        finished (cudaLaunchHostFunc); the rules of :meth:`add_callback` apply."""
        self._handle().launch_host_func(lambda: callback(arg))

    def record(self, event=None):
        """Records ``event`` (a new Event when None) on this stream and returns it."""
        if event is None:
            event = Event()
        event.record(self)
        return event

    def wait_event(self, event):
        """Makes later work on this stream wait until ``event`` has completed."""
        self._handle().wait_event(event._e)


class Stream(_BaseStream):
    """A CUDA stream, as ``cupy.cuda.Stream(null=False, non_blocking=False, ptds=False,
    priority=None)``.

    ``null=True`` is the legacy default stream (the ``Stream.null`` singleton, ``ptr == 0``),
    ``ptds=True`` the per-thread default stream (``Stream.ptds``); otherwise a new stream
    of the current device, destroyed with the object. ``non_blocking`` streams do not
    synchronize with the legacy default stream; lower ``priority`` numbers run first.
    """

    null = None  # the singletons are made below
    ptds = None

    def __init__(self, null=False, non_blocking=False, ptds=False, priority=None):
        if null:
            self._init(0, -1, _LEGACY, None)
        elif ptds:
            self._init(_core._STREAM_PER_THREAD, -1, _PER_THREAD, None)
        else:
            s = _core._Stream.create(-1, bool(non_blocking), 0 if priority is None else int(priority))
            self._init(s.ptr, s.device_id, None, s)

    @classmethod
    def from_external(cls, obj, device_id=-1):
        """Wraps a stream another library created, without owning it.

        ``obj`` is an object with the CUDA stream protocol (``__cuda_stream__()`` returning
        ``(0, ptr)``, as CuPy 14 takes; a reference to it is kept) or the raw
        ``cudaStream_t`` address as an int. ``device_id`` names the stream's device
        (default: the current one).

        The creator keeps the stream alive: arrays allocated while it is current record
        an event on it when they are freed, so free them before the stream is destroyed.
        """
        proto = getattr(obj, "__cuda_stream__", None)
        if proto is None:
            try:
                ptr = operator.index(obj)
            except TypeError:
                raise AttributeError(
                    "Object of type %s does not implement the CUDA stream protocol "
                    "(__cuda_stream__ method)" % type(obj).__name__) from None
        else:
            result = proto()
            if not isinstance(result, tuple) or len(result) != 2:
                raise TypeError("__cuda_stream__() must return a 2-tuple of (version, stream_ptr), "
                                "got %s" % type(result).__name__)
            version, ptr = result
            if not isinstance(version, int) or not isinstance(ptr, int):
                raise TypeError("__cuda_stream__() must return (int, int), got (%s, %s)"
                                % (type(version).__name__, type(ptr).__name__))
            if version != 0:
                raise ValueError("__cuda_stream__() returned unsupported version %d, only "
                                 "version 0 is supported" % version)
        s = _core._Stream.external(ptr, int(device_id))
        stream = cls.__new__(cls)
        stream._init(ptr, s.device_id, _EXTERNAL, s)
        if proto is not None:
            stream._foreign_stream_ref = obj  # keeps the foreign stream alive
        return stream


class ExternalStream(_BaseStream):
    """A ``cudaStream_t`` created elsewhere, not owned (deprecated in CuPy 14: use
    :meth:`Stream.from_external`). ``device_id=-1``: used on whichever device is current."""

    def __init__(self, ptr, device_id=-1):
        warnings.warn("ExternalStream is deprecated. Use Stream.from_external() instead to "
                      "interoperate with external streams that implement the CUDA stream protocol.",
                      DeprecationWarning, stacklevel=2)
        ptr = int(ptr)
        device_id = int(device_id)
        self._init(ptr, device_id, _EXTERNAL,
                   None if device_id == -1 else _core._Stream.external(ptr, device_id))


Stream.null = Stream(null=True)
Stream.ptds = Stream(ptds=True)


def get_current_stream(device_id=-1):
    """The calling thread's current stream of a device (default: the current device):
    the object made current by ``use()``/``with``, else ``Stream.null`` (``Stream.ptds``
    under CUNP_CUDA_PER_THREAD_DEFAULT_STREAM=1)."""
    device_id = _resolve_device(-1 if device_id is None else int(device_id))
    current = _core._current_stream(device_id)
    obj = _thread_state()[0].get(device_id)
    if obj is not None and obj._handle(device_id).ptr == current.ptr:
        return obj
    if current.ptr == _core._STREAM_LEGACY:
        return Stream.null
    if current.ptr == _core._STREAM_PER_THREAD:
        return Stream.ptds
    # Made current from C++ (StreamGuard): wrap it.
    stream = Stream.__new__(Stream)
    stream._init(current.ptr, current.device_id, _EXTERNAL, current)
    return stream


class Event:
    """A CUDA event, as ``cupy.cuda.Event(block=False, disable_timing=False,
    interprocess=False)``: ``block`` makes ``synchronize()`` sleep instead of spin,
    ``interprocess`` needs ``disable_timing`` (ValueError otherwise)."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self._e = _core._Event(bool(block), bool(disable_timing), bool(interprocess))

    ptr = property(lambda self: self._e.ptr, doc="The cudaEvent_t address.")

    @property
    def done(self):
        """True when the work recorded before the event has completed."""
        return self._e.query()

    def record(self, stream=None):
        """Records the event on ``stream`` (default: the current stream)."""
        self._e.record(None if stream is None else stream._handle())

    def synchronize(self):
        """Waits until the event has completed."""
        self._e.synchronize()

    def __repr__(self):
        return "<Event %d (device %d)>" % (self.ptr, self._e.device_id)


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events."""
    return _core.get_elapsed_time(start_event._e, end_event._e)

"""Streams and events. Every cunp operation runs on the current stream of its device."""
from cunp import _core


class Stream:
    """A CUDA stream; ``with stream:`` makes it current. ``Stream.null`` is the null stream."""

    def __init__(self, null=False, non_blocking=False, ptr=0, priority=0, *, _handle=None):
        if _handle is not None:
            self._s = _handle
        elif null:
            self._s = _core._Stream.null(-1)
        elif ptr:
            self._s = _core._Stream.external(ptr, -1)
        else:
            self._s = _core._Stream.create(-1, non_blocking, priority)
        self._previous = []

    ptr = property(lambda self: self._s.ptr)
    device_id = property(lambda self: self._s.device_id)
    done = property(lambda self: self._s.query())

    def synchronize(self):
        self._s.synchronize()

    def use(self):
        _core._set_current_stream(self._s)
        return self

    def record(self, event=None):
        if event is None:
            event = Event()
        event.record(self)
        return event

    def wait_event(self, event):
        self._s.wait_event(event._e)

    def __enter__(self):
        self._previous.append(_core._current_stream(self._s.device_id))
        _core._set_current_stream(self._s)
        return self

    def __exit__(self, *exc):
        _core._set_current_stream(self._previous.pop())
        return False

    def __eq__(self, other):
        return isinstance(other, Stream) and self.ptr == other.ptr and self.device_id == other.device_id

    def __hash__(self):
        return hash((self.ptr, self.device_id))

    def __repr__(self):
        return "<Stream %#x (device %d)>" % (self.ptr, self.device_id)


class _NullStreamDescriptor:
    def __get__(self, obj, cls):
        return Stream(null=True)


Stream.null = _NullStreamDescriptor()


class ExternalStream(Stream):
    """Wraps a cudaStream_t created elsewhere (not owned)."""

    def __init__(self, ptr, device_id=-1):
        super().__init__(_handle=_core._Stream.external(ptr, device_id))


def get_current_stream(device_id=-1):
    """The calling thread's current stream of a device (default: the current device)."""
    return Stream(_handle=_core._current_stream(device_id))


class Event:
    """A CUDA event: ``record(stream=None)``, ``synchronize()``, ``done``."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self._e = _core._Event(block, disable_timing, interprocess)

    ptr = property(lambda self: self._e.ptr)
    done = property(lambda self: self._e.query())

    def record(self, stream=None):
        self._e.record(None if stream is None else stream._s)

    def synchronize(self):
        self._e.synchronize()


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events."""
    return _core.get_elapsed_time(start_event._e, end_event._e)

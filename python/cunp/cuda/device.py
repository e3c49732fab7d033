"""CUDA devices: ``Device(i).use()``, ``with Device(i):``."""
from cunp import _core
from cunp._array import Device as _BaseDevice


def is_available():
    """True when at least one CUDA device is usable."""
    return _core._device_count() > 0


def get_device_id():
    """The current CUDA device's index."""
    return _core.getDevice()


class Device(_BaseDevice):
    """CUDA device `device` (default: the current one), like cupy.cuda.Device."""

    __slots__ = ()

    def __init__(self, device=None):
        if device is None:
            device = _core.getDevice() if is_available() else 0
        if isinstance(device, _BaseDevice):
            device = device.id
        super().__init__("cuda:%d" % int(device))

    def use(self):
        n = _core._device_count()
        if not 0 <= self.id < n:
            if n == 0:
                _core.getDeviceCount()  # raises CUDARuntimeError naming the reason
            raise ValueError("device cuda:%d does not exist (there are %d CUDA devices)" % (self.id, n))
        super().use()

    def __enter__(self):
        self._previous.append(_core._thread_device())
        self.use()
        return self

    def synchronize(self):
        _core._device_synchronize(self.id)

    @property
    def compute_capability(self):
        p = _core.getDeviceProperties(self.id)
        return "%d%d" % (p["major"], p["minor"])

    @property
    def mem_info(self):
        prev = _core.getDevice()
        _core.setDevice(self.id)
        try:
            return _core.memGetInfo()
        finally:
            _core.setDevice(prev)

    def __repr__(self):
        return "<CUDA Device %d>" % self.id

    def __int__(self):
        return self.id

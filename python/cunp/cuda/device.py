"""CUDA devices: ``Device(i).use()``, ``with Device(i):``, and what CuPy's Device reports
about one (attributes, compute capability, PCI bus id, memory)."""
from cunp import _core
from cunp._array import Device as _BaseDevice

_attributes = {}  # device id -> attribute dict (fixed for the process, as CuPy memoizes it)


def is_available():
    """True when at least one CUDA device is usable."""
    return _core._device_count() > 0


def get_device_id():
    """The current CUDA device's index."""
    return _core.getDevice()


class Device(_BaseDevice):
    """CUDA device `device` (an int or a Device; default: the current one), like
    cupy.cuda.Device.

    Devices compare by id with other Devices (``==``, ``<``, ...); as in CuPy a Device is
    never equal to an int and does not order against one. ``int(d)`` is the id.
    """

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
        return self

    def __enter__(self):
        self._previous.append(_core._thread_device())
        self.use()
        return self

    def synchronize(self):
        _core._device_synchronize(self.id)

    @classmethod
    def from_pci_bus_id(cls, pci_bus_id):
        """The device at a PCI bus id ``"[domain]:[bus]:[device].[function]"`` (hexadecimal),
        as :attr:`pci_bus_id` gives it."""
        return cls(_core._device_from_pci_bus_id(pci_bus_id))

    @property
    def compute_capability(self):
        """Major and minor compute capability as one string: ``'90'`` for 9.0."""
        return _core._compute_capability(self.id)

    @property
    def attributes(self):
        """Every cudaDeviceGetAttribute value, keyed by the attribute's name without the
        ``cudaDevAttr`` prefix (``'MaxThreadsPerBlock'``, ``'MultiProcessorCount'``)."""
        d = _attributes.get(self.id)
        if d is None:
            d = _attributes[self.id] = _core._device_attributes(self.id)
        return dict(d)

    @property
    def pci_bus_id(self):
        """The PCI bus id, ``"[domain]:[bus]:[device].[function]"`` in hexadecimal."""
        return _core._pci_bus_id(self.id)

    @property
    def mem_info(self):
        """``(free, total)`` bytes of device memory."""
        return _core._mem_info(self.id)

    def __lt__(self, other):
        return self.id < other.id if isinstance(other, Device) else NotImplemented

    def __le__(self, other):
        return self.id <= other.id if isinstance(other, Device) else NotImplemented

    def __gt__(self, other):
        return self.id > other.id if isinstance(other, Device) else NotImplemented

    def __ge__(self, other):
        return self.id >= other.id if isinstance(other, Device) else NotImplemented

    def __repr__(self):
        return "<CUDA Device %d>" % self.id

    def __int__(self):
        return self.id

"""Memory pools, allocator selection and memory handles (cupy.cuda.memory's API)."""
import operator

from cunp import _core

OutOfMemoryError = _core.OutOfMemoryError


class MemoryPool:
    """A caching pool of CUDA device memory (cupy.cuda.MemoryPool): freed blocks return
    here, not to the driver. ``MemoryPool()`` is a new pool over cudaMalloc,
    ``MemoryPool(allocator)`` takes its segments from ``allocator(size)``, which returns a
    MemoryPointer (``malloc_managed``, or any allocator of CuPy's shape); the pointer is
    kept until the pool gives the segment back. Arrays use the pool once it is selected
    with ``set_allocator(pool.malloc)``; ``get_default_memory_pool()`` is the one they use
    otherwise. Statistics are those of the current device."""

    def __init__(self, allocator=None):
        self._device = -1
        self._default = False
        if allocator is None:
            self._pool = _core._DeviceMemoryPool("cuda")
        elif allocator is malloc_managed:
            self._pool = _core._DeviceMemoryPool("managed")  # cudaMallocManaged, no Python call per segment
        elif callable(allocator):
            held = _HeldAllocations(allocator)
            self._pool = _core._DeviceMemoryPool("callback", held.malloc, held.free)
        else:
            raise TypeError("allocator must be None or a callable taking a size and returning a MemoryPointer, "
                            "got %r" % (allocator,))

    @classmethod
    def _of_device(cls, device):
        """The handle of a device's default pool (get_default_memory_pool)."""
        self = cls.__new__(cls)
        self._device = device
        self._default = True
        self._pool = None
        return self

    def _p(self):
        if self._pool is None:
            self._pool = _core._get_default_memory_pool(self._device)
        return self._pool

    def used_bytes(self):
        return self._p().used_bytes()

    def free_bytes(self):
        return self._p().free_bytes()

    def total_bytes(self):
        return self._p().total_bytes()

    def n_free_blocks(self):
        return self._p().n_free_blocks()

    def free_all_blocks(self, stream=None):
        self._p().free_all_blocks()

    def set_limit(self, size=None, fraction=None):
        """Caps the pool at `size` bytes or `fraction` of the device's memory (0: none)."""
        if fraction is not None:
            if size is not None:
                raise ValueError("size and fraction cannot be specified at one time")
            if not 0 <= fraction <= 1:
                raise ValueError("memory limit fraction out of range: %r" % (fraction,))
            total = _core.memGetInfo()[1]
            size = int(total * fraction)
        self._p().set_limit(0 if size is None else int(size))

    def get_limit(self):
        return self._p().get_limit()

    def malloc(self, size):
        """A MemoryPointer to `size` bytes from this pool on the current device and stream
        (cupy MemoryPool.malloc); the bound method is what set_allocator takes."""
        size = operator.index(size)
        if size < 0:
            raise ValueError("size must be non-negative, got %d" % size)
        p = self._p()
        array = p.malloc(size) if isinstance(p, _core._DeviceMemoryPool) else _core._pool_malloc(p, size)
        return MemoryPointer(Memory(array), 0)


class _HeldAllocations:
    """A CuPy-shaped allocator (size -> MemoryPointer) as the address-level malloc/free
    that cunp's pools and set_allocator call: each returned pointer object is held
    until its memory is freed (dropping it frees the memory, as in CuPy's pools)."""

    def __init__(self, allocator):
        self._allocator = allocator
        self._held = {}

    def malloc(self, size, *_):  # (size) from a pool; (size, device, stream) as an external allocator
        try:
            pointer = self._allocator(max(int(size), 1))
        except (OutOfMemoryError, MemoryError):
            return 0  # out of memory: the pool frees its cache and tries once more
        ptr = int(pointer.ptr)
        self._held[ptr] = pointer
        return ptr

    def free(self, ptr, *_):
        self._held.pop(int(ptr), None)


class PinnedMemoryPool(MemoryPool):
    """The pool of page-locked host memory used by empty_pinned/zeros_pinned (every
    PinnedMemoryPool is a handle to that one pool; an own pinned pool over an allocator
    is not provided)."""

    def __init__(self, allocator=None):
        if allocator is not None:
            raise TypeError("PinnedMemoryPool(allocator=) is not supported: cunp has one pinned pool")
        self._device = -1
        self._default = True
        self._pool = None

    def malloc(self, size):
        raise NotImplementedError("use cunp.empty_pinned to allocate page-locked memory")

    def _p(self):
        if self._pool is None:
            self._pool = _core._get_default_pinned_memory_pool()
        return self._pool


_default_pools = {}
_pinned_pool = PinnedMemoryPool()


def get_default_memory_pool(device=-1):
    device = _core.getDevice() if device == -1 else device
    pool = _default_pools.get(device)
    if pool is None:
        pool = _default_pools[device] = MemoryPool._of_device(device)
    return pool


def get_default_pinned_memory_pool():
    return _pinned_pool


def malloc_managed(size):
    """A MemoryPointer to `size` bytes of managed (unified) memory on the current device,
    no pool (cupy.cuda.malloc_managed). As an allocator (set_allocator(malloc_managed),
    MemoryPool(malloc_managed)) cunp calls cudaMallocManaged directly."""
    size = operator.index(size)
    if size < 0:
        raise ValueError("size must be non-negative, got %d" % size)
    return MemoryPointer(Memory(_core._malloc_managed(size)), 0)


class ExternalAllocator:
    """Plugs in foreign allocation: ``malloc(nbytes, device, stream) -> ptr`` and
    ``free(ptr, nbytes, device, stream)`` (e.g. an RMM resource)."""

    def __init__(self, malloc, free):
        self.malloc = malloc
        self.free = free


_current = "pool"


def _is_pool_malloc(allocator, pinned):
    """True for the bound ``malloc`` of a (Pinned)MemoryPool, as CuPy's allocators are given."""
    owner = getattr(allocator, "__self__", None)
    return getattr(allocator, "__func__", None) in (MemoryPool.malloc, PinnedMemoryPool.malloc) and \
        isinstance(owner, MemoryPool) and isinstance(owner, PinnedMemoryPool) == pinned


def set_allocator(allocator=None):
    """Selects where device memory comes from: ``None`` (cudaMalloc/cudaFree each time),
    a MemoryPool's ``malloc`` (``get_default_memory_pool().malloc``, the default, or a
    pool of its own), ``malloc_managed``, an ``ExternalAllocator``, or any callable
    taking a size and returning a MemoryPointer (the shape of CuPy's allocators, e.g.
    RMM's), which is called for every allocation and whose pointer is held until the
    array's memory is freed."""
    global _current
    if allocator is None:
        _core._set_allocator("direct")
        _current = None
    elif allocator is malloc_managed:
        _core._set_allocator("managed")
        _current = allocator
    elif isinstance(allocator, ExternalAllocator):
        _core._set_allocator("external", allocator.malloc, allocator.free)
        _current = allocator
    elif _is_pool_malloc(allocator, pinned=False):
        pool = allocator.__self__
        if pool._default:
            _core._set_allocator("pool")
        else:
            _core._set_allocator_pool(pool._pool)
        _current = allocator
    elif callable(allocator) and not _is_pool_malloc(allocator, pinned=True):
        held = _HeldAllocations(allocator)
        _core._set_allocator("external", held.malloc, held.free)
        _current = allocator
    else:
        raise TypeError("allocator must be None, a MemoryPool's malloc, malloc_managed, an ExternalAllocator or a "
                        "callable taking a size and returning a MemoryPointer")


def get_allocator():
    return _current


class using_allocator:
    """``with cunp.cuda.using_allocator(allocator):`` selects `allocator` (as
    :func:`set_allocator` takes it) inside the block and restores the previous one after."""

    def __init__(self, allocator=None):
        self._allocator = allocator
        self._previous = []

    def __enter__(self):
        self._previous.append(get_allocator())
        set_allocator(self._allocator)
        return self

    def __exit__(self, *exc):
        global _current
        previous = self._previous.pop()
        if previous == "pool":
            _core._set_allocator("pool")
            _current = previous
        else:
            set_allocator(previous)
        return False


def set_pinned_memory_allocator(allocator=None):
    """Where page-locked host memory (empty_pinned, staging of transfers) comes from:
    ``None`` (cudaHostAlloc/cudaFreeHost for each buffer) or a PinnedMemoryPool's
    ``malloc`` (the pinned pool, the default)."""
    if allocator is None:
        _core._set_pinned_memory_pooled(False)
    elif _is_pool_malloc(allocator, pinned=True):
        _core._set_pinned_memory_pooled(True)
    else:
        raise TypeError("set_pinned_memory_allocator: allocator must be None or a PinnedMemoryPool's malloc, "
                        "got %r" % (allocator,))


class Memory:
    """One allocation of a cunp array (cupy.cuda.Memory): its start address, byte size
    and device. Holding it keeps the allocation alive."""

    __slots__ = ("_array",)

    def __init__(self, array):
        # A uint8 view of the whole allocation: shares its storage, so it keeps it alive.
        self._array = array._storage_array()

    @property
    def ptr(self):
        return self._array._ptr

    @property
    def size(self):
        return self._array.nbytes

    @property
    def device_id(self):
        d = self._array._device_str
        return -1 if d == "cpu" else int(d[5:])

    @property
    def device(self):
        return self._array.device

    def __repr__(self):
        return "<cunp.cuda.Memory 0x%x, %d bytes on %s>" % (self.ptr, self.size, self._array._device_str)


class UnownedMemory(Memory):
    """Memory cunp did not allocate, at address ``ptr`` and ``size`` bytes long, kept
    alive by ``owner`` (cupy.cuda.UnownedMemory): ``MemoryPointer(UnownedMemory(...),
    offset)`` is a ``memptr=`` for ``cunp.ndarray(shape, dtype, memptr=..., strides=...)``,
    and ``owner`` lives as long as any array viewing the memory does.

    ``device_id``: the CUDA device holding the memory; ``None`` asks CUDA which device
    owns ``ptr`` (host memory, or no GPU at all, gives the cpu device); ``-1`` is the
    cpu, as ``Memory.device_id`` reports it. When the last view of device memory goes,
    cunp first waits for the stream that was current when this object was made, then
    drops its reference to ``owner``.
    """

    __slots__ = ()

    def __init__(self, ptr, size, owner, device_id=None):
        ptr, size = operator.index(ptr), operator.index(size)
        if size < 0:
            raise ValueError("size must be non-negative, got %d" % size)
        if ptr < 0:
            raise ValueError("ptr must be a non-negative address, got %d" % ptr)
        if device_id is None:
            device = _core._pointer_device(ptr)
        else:
            device_id = operator.index(device_id)
            if device_id < -1:
                raise ValueError("device_id must be -1 (the cpu), a CUDA device index or None, got %d" % device_id)
            device = "cpu" if device_id == -1 else "cuda:%d" % device_id
        # The whole range as bytes; its release drops the reference to owner.
        self._array = _core._from_pointer(ptr, (size,), "uint8", None, device, owner)

    def __repr__(self):
        return "<cunp.cuda.UnownedMemory 0x%x, %d bytes on %s>" % (self.ptr, self.size, self._array._device_str)


class MemoryPointer:
    """A byte address inside a Memory (cupy.cuda.MemoryPointer); ``ndarray.data`` gives
    one for the array's first element. ``ptr`` is that address (a host address for the
    cpu device), ``size`` the bytes from it to the end of the allocation."""

    __slots__ = ("mem", "_offset")

    def __init__(self, mem, offset=0):
        offset = int(offset)
        if not 0 <= offset <= mem.size:
            raise ValueError("offset %d is outside the allocation of %d bytes" % (offset, mem.size))
        self.mem = mem
        self._offset = offset

    @property
    def ptr(self):
        return self.mem.ptr + self._offset

    @property
    def size(self):
        return self.mem.size - self._offset

    @property
    def device_id(self):
        return self.mem.device_id

    @property
    def device(self):
        return self.mem.device

    def __add__(self, offset):
        if not isinstance(offset, int):
            return NotImplemented
        return MemoryPointer(self.mem, self._offset + offset)

    __radd__ = __add__

    def __sub__(self, offset):
        if not isinstance(offset, int):
            return NotImplemented
        return MemoryPointer(self.mem, self._offset - offset)

    def __eq__(self, other):
        if not isinstance(other, MemoryPointer):
            return NotImplemented
        return self.ptr == other.ptr and self.device_id == other.device_id

    def __hash__(self):
        return hash((self.ptr, self.device_id))

    def __repr__(self):
        return "<cunp.cuda.MemoryPointer 0x%x of %r>" % (self.ptr, self.mem)

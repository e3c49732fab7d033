"""cunp.cuda: devices, streams, events, memory pools and the CUDA runtime."""
from cunp import _core
from cunp.cuda import runtime, memory, nccl
from cunp.cuda.device import Device, get_device_id, is_available
from cunp.cuda.stream import Stream, ExternalStream, Event, get_current_stream, get_elapsed_time
from cunp.cuda.memory import (
    MemoryPool, PinnedMemoryPool, OutOfMemoryError, get_default_memory_pool,
    get_default_pinned_memory_pool, set_allocator, get_allocator, malloc_managed,
    ExternalAllocator, Memory, MemoryPointer, UnownedMemory, using_allocator, set_pinned_memory_allocator,
)

CUDARuntimeError = _core.CUDARuntimeError
CompileException = _core.CompileException

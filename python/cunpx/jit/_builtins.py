"""The names a cunpx.jit kernel can use that only mean something on the device
(cupyx.jit's): thread and block indices, grid helpers, synchronization, shared memory,
atomics and warp shuffles. Outside a kernel they raise; the translator recognizes the
objects themselves, so ``from cunpx.jit import threadIdx`` works as well as
``jit.threadIdx``."""


class _DeviceOnly:
    __slots__ = ("name", "doc")

    def __init__(self, name, doc):
        self.name = name
        self.doc = doc

    def __call__(self, *args, **kwargs):
        raise RuntimeError("cunpx.jit.%s can only be used inside a kernel (@cunpx.jit.rawkernel)" % self.name)

    def __repr__(self):
        return "<cunpx.jit.%s>" % self.name

    @property
    def __doc__(self):
        return self.doc


class Dim3(_DeviceOnly):
    """threadIdx, blockIdx, blockDim, gridDim: `.x`, `.y`, `.z` are unsigned ints, as in CUDA."""

    @property
    def x(self):
        self()

    y = z = x


threadIdx = Dim3("threadIdx", "The thread's index in its block (.x, .y, .z; unsigned int).")
blockIdx = Dim3("blockIdx", "The block's index in the grid (.x, .y, .z; unsigned int).")
blockDim = Dim3("blockDim", "The block's shape (.x, .y, .z; unsigned int).")
gridDim = Dim3("gridDim", "The grid's shape in blocks (.x, .y, .z; unsigned int).")

grid = _DeviceOnly("grid", "grid(ndim): the thread's global index blockIdx * blockDim + threadIdx (int64; "
                           "a tuple of ndim for ndim 2 or 3).")
gridsize = _DeviceOnly("gridsize", "gridsize(ndim): the number of threads of the grid, blockDim * gridDim "
                                   "(int64; a tuple for ndim 2 or 3): the step of grid-stride loops.")
laneid = _DeviceOnly("laneid", "laneid(): the thread's lane in its warp (unsigned int).")
warpsize = _DeviceOnly("warpsize", "warpsize: the number of threads of a warp (32; int).")
syncthreads = _DeviceOnly("syncthreads", "syncthreads(): __syncthreads().")
syncwarp = _DeviceOnly("syncwarp", "syncwarp(mask=0xffffffff): __syncwarp(mask).")
shared_memory = _DeviceOnly("shared_memory", "shared_memory(dtype, size, alignment=None): a 1-d array of size "
                                             "elements in shared memory; size None: the launch's dynamic shared "
                                             "memory (shared_mem=).")

_ATOMIC_DOCS = {
    "atomic_add": "atomicAdd", "atomic_sub": "atomicSub", "atomic_exch": "atomicExch", "atomic_min": "atomicMin",
    "atomic_max": "atomicMax", "atomic_inc": "atomicInc", "atomic_dec": "atomicDec", "atomic_cas": "atomicCAS",
    "atomic_and": "atomicAnd", "atomic_or": "atomicOr", "atomic_xor": "atomicXor",
}
ATOMICS = {}
for _name, _cuda in _ATOMIC_DOCS.items():
    _sig = "(array, index, compare, value)" if _name == "atomic_cas" else "(array, index, value)"
    ATOMICS[_name] = _DeviceOnly(_name, "%s%s: %s on array[index]; returns the old value." % (_name, _sig, _cuda))
globals().update(ATOMICS)

SHUFFLES = {
    "shfl_sync": _DeviceOnly("shfl_sync", "shfl_sync(mask, var, srcLane, width=32): __shfl_sync."),
    "shfl_up_sync": _DeviceOnly("shfl_up_sync", "shfl_up_sync(mask, var, delta, width=32): __shfl_up_sync."),
    "shfl_down_sync": _DeviceOnly("shfl_down_sync", "shfl_down_sync(mask, var, delta, width=32): __shfl_down_sync."),
    "shfl_xor_sync": _DeviceOnly("shfl_xor_sync", "shfl_xor_sync(mask, var, laneMask, width=32): __shfl_xor_sync."),
}
globals().update(SHUFFLES)
del _name, _cuda, _sig

__all__ = ["threadIdx", "blockIdx", "blockDim", "gridDim", "grid", "gridsize", "laneid", "warpsize", "syncthreads",
           "syncwarp", "shared_memory", *ATOMICS, *SHUFFLES]

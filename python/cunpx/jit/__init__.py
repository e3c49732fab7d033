"""cunpx.jit: CUDA kernels written in Python (cupyx.jit).

    from cunpx import jit

    @jit.rawkernel()
    def saxpy(a, x, y, out, n):
        for i in range(jit.grid(1), n, jit.gridsize(1)):
            out[i] = a * x[i] + y[i]

    saxpy[128, 256](numpy.float32(2), x, y, out, x.size)

The function is translated to CUDA C++ for the types of its arguments and compiled with
NVRTC through cunp.RawKernel (``saxpy.cached_code`` shows the source). Kernels use
``threadIdx``, ``blockIdx``, ``blockDim``, ``gridDim``, ``grid``, ``gridsize``,
``laneid``, ``warpsize``, ``syncthreads``, ``syncwarp``, ``shared_memory``, the
``atomic_*`` functions and the ``shfl_*_sync`` warp shuffles below, plus Python's
if/for/while, ``range``, arithmetic, and math functions (``math.sin``, ``cunp.sin``).
"""
from cunpx.jit._builtins import (  # noqa: F401
    threadIdx, blockIdx, blockDim, gridDim, grid, gridsize, laneid, warpsize, syncthreads, syncwarp,
    shared_memory, atomic_add, atomic_sub, atomic_exch, atomic_min, atomic_max, atomic_inc, atomic_dec,
    atomic_cas, atomic_and, atomic_or, atomic_xor, shfl_sync, shfl_up_sync, shfl_down_sync, shfl_xor_sync,
)
from cunpx.jit._kernel import RawKernel, rawkernel  # noqa: F401

__all__ = ["rawkernel", "RawKernel", "threadIdx", "blockIdx", "blockDim", "gridDim", "grid", "gridsize", "laneid",
           "warpsize", "syncthreads", "syncwarp", "shared_memory", "atomic_add", "atomic_sub", "atomic_exch",
           "atomic_min", "atomic_max", "atomic_inc", "atomic_dec", "atomic_cas", "atomic_and", "atomic_or",
           "atomic_xor", "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync"]

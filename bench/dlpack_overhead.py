#!/usr/bin/env python3
"""Host time per call of cunp's zero-copy exchange paths (docs/interop.md).

    PYTHONPATH=build/python python3 bench/dlpack_overhead.py [--repeat 15] [--number 2000] [--stat min]

Each row is the median (or with `--stat min` the fastest, steadier on a loaded machine)
over `--repeat` timeit loops of `--number` calls, in µs per call.
The cpu rows (NumPy <-> cunp through DLPack) run everywhere and time the same code paths
as the CUDA rows except the CUDA-specific parts (streams, device checks). On a machine
with a GPU, the PyTorch, Numba (CUDA Array Interface) and CuPy rows run when those
libraries import; every row also checks that no copy was made (the same data pointer).
"""
import argparse
import statistics
import sys
import timeit

import numpy

import cunp


def _time_us(stmt, env, repeat, number, stat):
    timer = timeit.Timer(stmt, globals=env)
    timer.timeit(max(1, number // 10))  # warm-up: caches, first-call imports
    times = timer.repeat(repeat=repeat, number=number)
    return (min(times) if stat == "min" else statistics.median(times)) / number * 1e6


def _ptr(x):
    """The data pointer of an array of any of the libraries timed here."""
    if isinstance(x, cunp.ndarray):
        return x.data.ptr
    if isinstance(x, numpy.ndarray):
        return x.__array_interface__["data"][0]
    if hasattr(x, "data_ptr"):
        return x.data_ptr()
    return x.__cuda_array_interface__["data"][0]


def _cpu_cases():
    n = numpy.arange(1024, dtype=numpy.float32)
    c = cunp.asarray(numpy.arange(1024, dtype=numpy.float32), device="cpu")
    env = {"cunp": cunp, "numpy": numpy, "n": n, "c": c}
    yield "numpy.from_dlpack(numpy)  [reference]", "numpy.from_dlpack(n)", env, n
    yield "cunp.from_dlpack(numpy)", "cunp.from_dlpack(n)", env, n
    yield "numpy.from_dlpack(cunp cpu)", "numpy.from_dlpack(c)", env, c
    yield "cunp.from_dlpack(cunp cpu)", "cunp.from_dlpack(c)", env, c
    # The host path of asarray, which first checks for a __cuda_array_interface__.
    yield "cunp.asarray(numpy)  [cpu default device]", "cunp.asarray(n)", env, n
    yield "cunp.asarray(numpy, device='cpu')", "cunp.asarray(n, device='cpu')", env, n
    yield "c.__dlpack__(max_version=(1, 0))", "c.__dlpack__(max_version=(1, 0))", env, None
    yield "c.__dlpack_device__()", "c.__dlpack_device__()", env, None


def _gpu_cases():
    if cunp._core._device_count() == 0:
        return
    a = cunp.arange(1024, dtype=cunp.float32, device="cuda")
    try:
        import torch

        t = torch.arange(1024, dtype=torch.float32, device="cuda")
        env = {"cunp": cunp, "torch": torch, "t": t, "a": a}
        yield "cunp.from_dlpack(torch)", "cunp.from_dlpack(t)", env, t
        yield "torch.from_dlpack(cunp)", "torch.from_dlpack(a)", env, a
        yield "cunp.asarray(torch)  [CAI]", "cunp.asarray(t)", env, t
        # What the producer and the consumer cost by themselves: the floor of the rows above.
        yield "t.__dlpack__(stream=1, max_version=(1, 0))  [torch alone]", \
            "t.__dlpack__(stream=1, max_version=(1, 0))", env, None
        yield "torch.from_dlpack(t)  [torch alone]", "torch.from_dlpack(t)", env, t
    except ImportError:
        print("# torch: not importable, rows skipped", file=sys.stderr)
    try:
        from numba import cuda as numba_cuda

        nb = numba_cuda.device_array(1024, dtype=numpy.float32)
        env = {"cunp": cunp, "nb": nb, "numba_cuda": numba_cuda, "a": a}
        yield "cunp.asarray(numba)  [CAI]", "cunp.asarray(nb)", env, nb
        yield "nb.__cuda_array_interface__  [numba alone]", "nb.__cuda_array_interface__", env, None
        yield "a.__cuda_array_interface__", "a.__cuda_array_interface__", env, None
    except ImportError:
        print("# numba: not importable, rows skipped", file=sys.stderr)
    try:
        import cupy

        cp = cupy.arange(1024, dtype=cupy.float32)
        env = {"cunp": cunp, "cupy": cupy, "cp": cp, "a": a}
        yield "cunp.from_dlpack(cupy)", "cunp.from_dlpack(cp)", env, cp
        yield "cupy.from_dlpack(cunp)", "cupy.from_dlpack(a)", env, a
        yield "cunp.asarray(cupy)  [CAI]", "cunp.asarray(cp)", env, cp
        yield "cupy.asarray(cunp)  [CAI]", "cupy.asarray(a)", env, a
        try:
            import torch

            t = torch.arange(1024, dtype=torch.float32, device="cuda")
            env = {"cupy": cupy, "torch": torch, "t": t, "cp": cp}
            yield "cupy.from_dlpack(torch)  [reference]", "cupy.from_dlpack(t)", env, t
            yield "torch.from_dlpack(cupy)  [reference]", "torch.from_dlpack(cp)", env, cp
        except ImportError:
            pass
    except ImportError:
        print("# cupy: not importable, rows skipped", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--number", type=int, default=2000)
    p.add_argument("--stat", choices=("median", "min"), default="median")
    args = p.parse_args()
    print("%-58s %10s  %s" % ("path", "µs/call", "zero-copy"))
    for name, stmt, env, source in list(_cpu_cases()) + list(_gpu_cases()):
        us = _time_us(stmt, env, args.repeat, args.number, args.stat)
        same = ""
        if source is not None:
            out = eval(stmt, env)  # noqa: S307 - the statements above
            same = "yes" if _ptr(out) == _ptr(source) else "NO (copied)"
        print("%-58s %10.2f  %s" % (name, us, same))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""cunp benchmark harness (DESIGN.md §11).

Runs the same workloads on cunp, on CuPy when it is importable and sees a GPU, and
(with --numpy) on NumPy, then prints ONE table:

    workload | cunp | cupy | ratio | GB/s | target | pass/fail

* GPU workloads are timed with CUDA events of the library under test (cunp's own
  ``cunp.cuda.Event`` for cunp, ``cupy.cuda.Event`` for CuPy) after warm-up; the
  reported time is the median of the repeats.
* Host-overhead workloads call a small operation N times from Python (20,000 by
  default), synchronize once at the end and report microseconds per call
  (time.perf_counter around the loop and the synchronization).
* ratio = cupy time / cunp time: above 1 means cunp is faster.
* GB/s counts each input read once and each output written once (cunp's time).
* Inputs are random, never zeros; each library's first result is checked.

Cases live in a registry (``CASES``); a new case is one call to ``gpu_case`` or
``host_case``. Targets live beside each case.

Usage:
    PYTHONPATH=build/python python bench/bench.py [--quick] [--filter SUB]
        [--json out.json] [--cpp-bench build/cunp_bench] [--numpy]
"""
from __future__ import annotations

import argparse
import ctypes
import datetime
import functools
import gc
import json
import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import time
import traceback

import numpy as np

MiB = 1 << 20
GiB = 1 << 30
N27 = 1 << 27           # 2^27 elements: 512 MiB of float32
N_XFER = GiB // 4       # float32 elements in 1 GiB
SMALL = 1000            # elements of the small-op arrays


class Skip(Exception):
    """A case (or one library's side of it) does not apply here."""


# =============================================================================
# Libraries under test
# =============================================================================
class Lib:
    """One array library: how to time it and how to move data to and from it."""

    name = "?"
    xp = None
    gpu = False          # arrays live on a CUDA device
    error = None         # why it is unavailable, if it is

    def event(self):
        raise NotImplementedError

    def elapsed_ms(self, start, end):
        raise NotImplementedError

    def sync(self):
        pass

    def asarray(self, host):
        return self.xp.asarray(host)

    def to_numpy(self, a):
        return np.asarray(a)

    def empty_pinned(self, shape, dtype):
        return np.empty(shape, dtype)

    def free_memory(self):
        gc.collect()

    def version(self):
        return getattr(self.xp, "__version__", None)


class NumpyLib(Lib):
    name = "numpy"

    def __init__(self):
        self.xp = np


class CunpLib(Lib):
    name = "cunp"

    def __init__(self):
        try:
            import cunp
        except Exception as e:  # noqa: BLE001 - report any import failure
            self.error = "import cunp failed: %s: %s" % (type(e).__name__, e)
            return
        self.xp = cunp
        self.gpu = False
        try:
            count = cunp.cuda.runtime.getDeviceCount()
        except Exception:  # noqa: BLE001 - no driver, no GPU
            count = 0
        if count > 0 and os.environ.get("CUNP_DEVICE", "").strip().lower() not in ("cpu",):
            self.gpu = True

    def event(self):
        return self.xp.cuda.Event()

    def elapsed_ms(self, start, end):
        return float(self.xp.cuda.get_elapsed_time(start, end))

    def sync(self):
        if self.gpu:
            self.xp.cuda.Device().synchronize()

    def to_numpy(self, a):
        if isinstance(a, np.ndarray):
            return a
        return self.xp.asnumpy(a)

    def empty_pinned(self, shape, dtype):
        return self.xp.empty_pinned(shape, dtype)

    def free_memory(self):
        gc.collect()
        if self.gpu:
            self.sync()
            try:
                self.xp.cuda.get_default_memory_pool().free_all_blocks()
                self.xp.cuda.get_default_pinned_memory_pool().free_all_blocks()
            except Exception:  # noqa: BLE001 - pools are optional for the harness
                pass


class CupyLib(Lib):
    name = "cupy"

    def __init__(self):
        try:
            import cupy
            import cupyx
        except Exception as e:  # noqa: BLE001
            self.error = "import cupy failed: %s: %s" % (type(e).__name__, e)
            return
        try:
            count = cupy.cuda.runtime.getDeviceCount()
        except Exception as e:  # noqa: BLE001
            self.error = "cupy sees no GPU: %s" % e
            return
        if count < 1:
            self.error = "cupy sees no GPU"
            return
        self.xp = cupy
        self.cupyx = cupyx
        self.gpu = True

    def event(self):
        return self.xp.cuda.Event()

    def elapsed_ms(self, start, end):
        return float(self.xp.cuda.get_elapsed_time(start, end))

    def sync(self):
        self.xp.cuda.Device().synchronize()

    def to_numpy(self, a):
        if isinstance(a, np.ndarray):
            return a
        return self.xp.asnumpy(a)

    def empty_pinned(self, shape, dtype):
        return self.cupyx.empty_pinned(shape, dtype)

    def free_memory(self):
        gc.collect()
        self.sync()
        self.xp.get_default_memory_pool().free_all_blocks()
        self.xp.get_default_pinned_memory_pool().free_all_blocks()


# =============================================================================
# Data: random inputs, generated once on the host and shared by every library
# =============================================================================
_HOST_CACHE: dict = {}


def host_random(n, dtype=np.float32, seed=0):
    """A random host array of n elements (never zeros), cached across cases."""
    key = (n, np.dtype(dtype).str, seed)
    a = _HOST_CACHE.get(key)
    if a is None:
        rng = np.random.default_rng(12345 + seed)
        dt = np.dtype(dtype)
        if dt.kind == "f":
            a = rng.random(n, dtype=np.float32 if dt.itemsize <= 4 else np.float64).astype(dt, copy=False)
            a += dt.type(0.5)  # keep values away from zero
        elif dt.kind in "iu":
            a = rng.integers(1, 100, size=n, dtype=dt)
        elif dt.kind == "c":
            a = (rng.random(n) + 1j * rng.random(n)).astype(dt)
        elif dt.kind == "b":
            a = rng.random(n) < 0.5
        else:
            raise TypeError("no random data for dtype %s" % dt)
        _HOST_CACHE[key] = a
    return a


class Data:
    """Per-library input factory handed to case setups (device arrays are cached)."""

    def __init__(self, lib):
        self.lib = lib
        self._dev: dict = {}

    def host(self, n, dtype=np.float32, seed=0):
        return host_random(n, dtype, seed)

    def rand(self, n, dtype=np.float32, seed=0):
        """Random array of n elements on the library's device."""
        key = (n, np.dtype(dtype).str, seed)
        a = self._dev.get(key)
        if a is None:
            a = self.lib.asarray(host_random(n, dtype, seed))
            self.lib.sync()
            self._dev[key] = a
        return a

    def clear(self):
        self._dev.clear()


# =============================================================================
# Targets
# =============================================================================
class Target:
    """A performance goal; evaluate() returns (passed or None, detail text)."""

    text = ""
    refs: tuple = ()

    def evaluate(self, res, results):
        return None, ""


class NoTarget(Target):
    text = "-"


class RatioAtLeast(Target):
    """cupy time / cunp time >= r (needs both)."""

    def __init__(self, r, text=None):
        self.r = r
        self.text = text or ("≥%g× cupy" % r if r != 1 else "≤ cupy")

    def evaluate(self, res, results):
        if res.get("ratio") is None:
            return None, ""
        return res["ratio"] >= self.r, ""


class FractionOf(Target):
    """cunp bandwidth >= frac × the bandwidth of reference case `ref`."""

    def __init__(self, ref, frac, label=None):
        self.ref, self.frac = ref, frac
        self.refs = (ref,)
        self.text = "≥%d%% %s" % (round(frac * 100), label or ref)

    def evaluate(self, res, results):
        ref = results.get(self.ref)
        if ref is None or res.get("gbps") is None:
            return None, ""
        ref_gbps = ref.get("gbps") or ref.get("cupy_gbps")
        if not ref_gbps:
            return None, ""
        f = res["gbps"] / ref_gbps
        res["fraction_of_ref"] = f
        return f >= self.frac, "%.0f%%" % (100 * f)


class AtMost(Target):
    """cunp's value (in the case's unit) <= limit."""

    def __init__(self, limit, unit):
        self.limit, self.unit = limit, unit
        self.text = "< %g %s" % (limit, unit)

    def evaluate(self, res, results):
        if res.get("cunp") is None:
            return None, ""
        return res["cunp"] < self.limit, ""


# =============================================================================
# The case registry
# =============================================================================
class Case:
    def __init__(self, name, kind, *, unit, target=None, nbytes=None, slow=False, note="", **kw):
        self.name, self.kind, self.unit = name, kind, unit
        self.target = target or NoTarget()
        self.nbytes = nbytes
        self.slow = slow
        self.note = note
        self.kw = kw


CASES: list = []


def _register(case):
    if any(c.name == case.name for c in CASES):
        raise ValueError("duplicate bench case %r" % case.name)
    CASES.append(case)
    return case


def gpu_case(name, setup=None, *, cunp=None, cupy=None, numpy=None, nbytes=None, check=None,
             target=None, slow=False, note="", gpu_only=True):
    """A large workload timed with CUDA events (median of repeats, in ms).

    setup(xp, d) -> fn: builds inputs through d (a Data) and returns the zero-argument
    callable that is timed; its return value goes to check(out, d, lib) -> bool,
    which sees the first call's result. `cunp=`/`cupy=` override `setup` for one
    library; `numpy=True` also times `setup` on NumPy (host clock) with --numpy, or
    `numpy=` gives a NumPy-specific setup.
    """
    if numpy is True:
        numpy = setup
    return _register(Case(name, "gpu", unit="ms", target=target or RatioAtLeast(0.9), nbytes=nbytes,
                          slow=slow, note=note, setups={"cunp": cunp or setup, "cupy": cupy or setup,
                                                        "numpy": numpy or None},
                          check=check, gpu_only=gpu_only))


def host_case(name, stmt, setup=None, *, target=None, numpy=True, note=""):
    """Host overhead of a small call from Python, in µs/call.

    `stmt` is run N times in an inlined loop with names from setup(xp, d) -> dict
    (plus `xp`, `np`, `f32`); the device is synchronized once at the end.
    """
    return _register(Case(name, "host", unit="µs", target=target or NoTarget(), note=note,
                          stmt=stmt, setup=setup, numpy=numpy))


def special_case(name, runner, *, unit, target=None, nbytes=None, slow=False, note="", gpu_only=False):
    """A case with its own runner(ctx) -> dict(cunp=..., cupy=..., ...)."""
    return _register(Case(name, "special", unit=unit, target=target, nbytes=nbytes, slow=slow, note=note,
                          runner=runner, gpu_only=gpu_only))


# ---- helpers for case definitions -------------------------------------------
def _equal_to(expected_fn):
    def check(out, d, lib):
        return bool(np.array_equal(lib.to_numpy(out), expected_fn(d)))
    return check


def _set_into(dst, src):
    def run():
        dst.set(src)
        return dst
    return run


def _pinned_copy_of(lib, host):
    p = lib.empty_pinned(host.shape, host.dtype)
    np.copyto(p, host)
    return p


def _poisoned_like(lib, host, pinned):
    buf = lib.empty_pinned(host.shape, host.dtype) if pinned else np.empty_like(host)
    buf.fill(np.nan)  # touches every page, and shows elements the copy missed
    return buf


def _get_into(n, pinned):
    """D2H into preallocated (pinned or pageable) host memory: a.get(out=buf)."""
    def setup(xp, d):
        src = d.rand(n)
        out = _poisoned_like(d.lib, d.host(n), pinned)
        return functools.partial(src.get, out=out)
    return setup


# ---- raw cudaMemcpy, the bandwidth ceiling ------------------------------------
def _device_ptr(a):
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is not None:
        return int(cai["data"][0])
    data = getattr(a, "data", None)
    ptr = getattr(data, "ptr", None)
    if ptr is not None:
        return int(ptr)
    for attr in ("_ptr", "data_ptr", "_data_ptr"):
        v = getattr(a, attr, None)
        if v is not None:
            return int(v() if callable(v) else v)
    raise Skip("cunp exposes no device pointer (__cuda_array_interface__, .data.ptr, ._ptr)")


def _libcudart():
    """The cudart already loaded into this process (by cunp), through ctypes."""
    path = None
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                if "libcudart.so" in line:
                    path = line.split()[-1]
                    break
    except OSError:
        pass
    names = [path] if path else []
    names += ["libcudart.so", "libcudart.so.13", "libcudart.so.12"]
    for nm in names:
        try:
            return ctypes.CDLL(nm)
        except OSError:
            continue
    raise Skip("libcudart not found for a raw cudaMemcpy")


def _memcpy_setup_cunp(n):
    def setup(xp, d):
        src = d.rand(n)
        dst = xp.empty(n, dtype=np.float32)
        sp, dp = _device_ptr(src), _device_ptr(dst)
        rt = _libcudart()
        rt.cudaMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        rt.cudaMemcpy.restype = ctypes.c_int
        nbytes = n * 4

        def run():
            rc = rt.cudaMemcpy(dp, sp, nbytes, 3)  # cudaMemcpyDeviceToDevice
            if rc != 0:
                raise RuntimeError("cudaMemcpy failed with code %d" % rc)
            return dst
        return run
    return setup


def _memcpy_setup_cupy(n):
    def setup(xp, d):
        src = d.rand(n)
        dst = xp.empty(n, dtype=np.float32)
        rt = xp.cuda.runtime

        def run():
            rt.memcpy(dst.data.ptr, src.data.ptr, n * 4, rt.memcpyDeviceToDevice)
            return dst
        return run
    return setup


# ---- import time -----------------------------------------------------------------
def _median_run_s(code, reps, env=None):
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           env=env, timeout=120)
        ts.append(time.perf_counter() - t0)
        if p.returncode != 0:
            lines = p.stderr.decode(errors="replace").strip().splitlines() or ["exit %d" % p.returncode]
            raise RuntimeError("python -c %r failed: %s" % (code, lines[-1][-200:]))
    return statistics.median(ts)


def _import_time(ctx):
    """Seconds of `import X` in a fresh interpreter, minus an empty interpreter's start."""
    reps = 3 if ctx.quick else 7
    base = _median_run_s("pass", reps)
    out = {"baseline_s": base, "errors": {}}
    for name in ("cunp", "cupy"):
        if ctx.libs[name].xp is None:
            continue
        try:
            out[name] = max(0.0, _median_run_s("import " + name, reps) - base)
        except Exception as e:  # noqa: BLE001
            out["errors"][name] = "%s: %s" % (type(e).__name__, e)
    if ctx.libs["cunp"].gpu and "cunp" in out:
        # the target is stated for a machine without a GPU: also time it with the GPU hidden
        env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
        try:
            out["cunp_gpu_hidden_s"] = max(0.0, _median_run_s("import cunp", reps, env) - base)
        except Exception as e:  # noqa: BLE001
            out["cunp_gpu_hidden_error"] = str(e)
    return out


# =============================================================================
# The cases of the foundation issue. Later issues add one line per case.
# =============================================================================
# -- transfers: 1 GiB of float32, host <-> device (cunp's convenient path against
#    CuPy's fastest one: ndarray.set / get(out=) into preallocated memory)
gpu_case("h2d_pinned_1GiB", nbytes=GiB,
         cunp=lambda xp, d: functools.partial(xp.asarray, _pinned_copy_of(d.lib, d.host(N_XFER))),
         cupy=lambda xp, d: _set_into(xp.empty(N_XFER, dtype=np.float32), _pinned_copy_of(d.lib, d.host(N_XFER))),
         check=_equal_to(lambda d: d.host(N_XFER)), note="cunp asarray(pinned) vs cupy set(pinned)")
gpu_case("d2h_pinned_1GiB", _get_into(N_XFER, pinned=True), nbytes=GiB,
         check=_equal_to(lambda d: d.host(N_XFER)), note="get(out=pinned)")
gpu_case("h2d_pageable_1GiB", nbytes=GiB, slow=True,
         cunp=lambda xp, d: functools.partial(xp.asarray, d.host(N_XFER)),
         cupy=lambda xp, d: _set_into(xp.empty(N_XFER, dtype=np.float32), d.host(N_XFER)),
         check=_equal_to(lambda d: d.host(N_XFER)), note="cunp asarray(pageable) vs cupy set(pageable)")
gpu_case("d2h_pageable_1GiB", _get_into(N_XFER, pinned=False), nbytes=GiB, slow=True,
         check=_equal_to(lambda d: d.host(N_XFER)), note="get(out=pageable)")
# -- device memory: the cudaMemcpy ceiling, then copies and fills of 2^27 elements
gpu_case("memcpy_d2d_512MiB", nbytes=2 * N27 * 4, target=NoTarget(),
         cunp=_memcpy_setup_cunp(N27), cupy=_memcpy_setup_cupy(N27),
         check=_equal_to(lambda d: d.host(N27)), note="raw cudaMemcpyDeviceToDevice (reference)")
gpu_case("copy_512MiB", lambda xp, d: d.rand(N27).copy, numpy=True, nbytes=2 * N27 * 4,
         target=FractionOf("memcpy_d2d_512MiB", 0.90, "memcpy"), check=_equal_to(lambda d: d.host(N27)))
gpu_case("astype_f32_f64", lambda xp, d: functools.partial(d.rand(N27).astype, np.float64), numpy=True,
         nbytes=N27 * (4 + 8), check=_equal_to(lambda d: d.host(N27).astype(np.float64)))
gpu_case("zeros_f32", lambda xp, d: functools.partial(xp.zeros, N27, dtype=np.float32),
         nbytes=N27 * 4, check=lambda out, d, lib: not np.any(lib.to_numpy(out)))
gpu_case("arange_i32", lambda xp, d: functools.partial(xp.arange, N27, dtype=np.int32), numpy=True,
         nbytes=N27 * 4, check=_equal_to(lambda d: np.arange(N27, dtype=np.int32)))
# -- host overhead of small calls from Python (µs/call)
_small = lambda xp, d: {"a": d.rand(SMALL)}  # noqa: E731
host_case("small_empty", "xp.empty(1000, dtype=f32)", target=RatioAtLeast(1.0))
host_case("small_zeros", "xp.zeros(1000, dtype=f32)", target=RatioAtLeast(1.0))
host_case("small_slice_view", "a[1:-1]", _small, target=RatioAtLeast(1.0))
host_case("small_reshape", "a.reshape(10, 100)", _small, target=RatioAtLeast(1.0))
host_case("small_copy", "a.copy()", _small, target=RatioAtLeast(1.0))
# -- elementwise (ufuncs), 2^27 float32 elements
def _close_to(expected_fn, rtol=1e-5, atol=1e-6):
    def check(out, d, lib):
        return bool(np.allclose(lib.to_numpy(out), expected_fn(d), rtol=rtol, atol=atol, equal_nan=True))
    return check


gpu_case("sin_f32", lambda xp, d: functools.partial(xp.sin, d.rand(N27)), numpy=True, nbytes=2 * N27 * 4,
         target=RatioAtLeast(2.0), check=_close_to(lambda d: np.sin(d.host(N27))))
gpu_case("exp_f32", lambda xp, d: functools.partial(xp.exp, d.rand(N27)), numpy=True, nbytes=2 * N27 * 4,
         target=RatioAtLeast(2.0), check=_close_to(lambda d: np.exp(d.host(N27))))
gpu_case("scalar_mul_f32", lambda xp, d: functools.partial(xp.multiply, d.rand(N27), 2.5), numpy=True,
         nbytes=2 * N27 * 4, target=RatioAtLeast(2.0), check=_equal_to(lambda d: d.host(N27) * np.float32(2.5)))
gpu_case("add_f32", lambda xp, d: functools.partial(xp.add, d.rand(N27), d.rand(N27, seed=1)), numpy=True,
         nbytes=3 * N27 * 4, target=RatioAtLeast(1.5),
         check=_equal_to(lambda d: d.host(N27) + d.host(N27, seed=1)))
gpu_case("add_out_f32",
         lambda xp, d: functools.partial(xp.add, d.rand(N27), d.rand(N27, seed=1), out=xp.empty(N27, dtype=np.float32)),
         nbytes=3 * N27 * 4, target=RatioAtLeast(1.5), check=_equal_to(lambda d: d.host(N27) + d.host(N27, seed=1)))
gpu_case("strided_add_half", lambda xp, d: (lambda a: functools.partial(xp.add, a[::2], a[::2]))(d.rand(N27)),
         numpy=True, nbytes=3 * (N27 // 2) * 4, target=RatioAtLeast(1.2),
         check=_equal_to(lambda d: d.host(N27)[::2] * np.float32(2)))
gpu_case("broadcast_add_16384x8192",
         lambda xp, d: functools.partial(xp.add, d.rand(16384).reshape(16384, 1), d.rand(8192, seed=1).reshape(1, 8192)),
         numpy=True, nbytes=N27 * 4, target=RatioAtLeast(1.2),
         check=_equal_to(lambda d: d.host(16384).reshape(16384, 1) + d.host(8192, seed=1).reshape(1, 8192)))
host_case("small_add", "a + b", lambda xp, d: {"a": d.rand(SMALL), "b": d.rand(SMALL, seed=1)},
          target=AtMost(6.0, "µs"))
host_case("small_add_out", "xp.add(a, b, out=c)",
          lambda xp, d: {"a": d.rand(SMALL), "b": d.rand(SMALL, seed=1), "c": xp.empty(SMALL, dtype=np.float32)},
          target=AtMost(6.0, "µs"))
host_case("small_sin", "xp.sin(a)", _small, target=AtMost(6.0, "µs"))
# -- ElementwiseKernel (user CUDA C++): z = a*b + c, 2^27 float32; call overhead; first call
def _ek_fma(xp, d):
    k = xp.ElementwiseKernel("T a, T b, T c", "T z", "z = a * b + c", "bench_ek_fma")
    return functools.partial(k, d.rand(N27), d.rand(N27, seed=1), d.rand(N27, seed=2),
                             xp.empty(N27, dtype=np.float32))


gpu_case("ek_fma_f32", _ek_fma, nbytes=4 * N27 * 4, target=RatioAtLeast(1.0),
         check=_close_to(lambda d: d.host(N27) * d.host(N27, seed=1) + d.host(N27, seed=2)))
host_case("small_ek_fma", "k(a, a, a)", lambda xp, d: {"a": d.rand(SMALL), "k": xp.ElementwiseKernel(
    "T a, T b, T c", "T z", "z = a * b + c", "bench_ek_small")}, target=RatioAtLeast(1.0))


def _ek_first_call(ctx):
    import tempfile
    code = ("import time, numpy as np, {0} as xp\n"
            "a = xp.asarray(np.arange(1000, dtype=np.float32) + 1); xp.cuda.Device().synchronize()\n"
            "k = xp.ElementwiseKernel('T a, T b, T c', 'T z', 'z = a * b + c', 'bench_ek_first')\n"
            "t = time.perf_counter(); k(a, a, a); xp.cuda.Device().synchronize()\n"
            "print((time.perf_counter() - t) * 1e3)\n")
    out = {}
    for lib in ("cunp", "cupy"):
        if ctx.libs[lib].xp is None:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, CUNP_CACHE_DIR=tmp, CUPY_CACHE_DIR=tmp)

            def run():
                return float(subprocess.run([sys.executable, "-c", code.format(lib)], env=env, capture_output=True,
                                            text=True, check=True, timeout=120).stdout)
            out[lib] = run()               # empty cache
            out[lib + "_warm_ms"] = run()  # warm disk cache, fresh process
    return out


special_case("ek_first_call", _ek_first_call, unit="ms", target=AtMost(120, "ms"), gpu_only=True,
             note="fresh process, empty kernel cache (target <=120 ms); *_warm_ms: warm disk cache (target <=2 ms)")
# -- C++ host overhead targets (µs/call), for the rows of bench/cpp/bench_host_overhead.cpp
CPP_TARGETS_US = {"cpp_small_add": 4.0, "cpp_small_sin": 4.0, "cpp_small_add_out": 4.0}
# -- import time (seconds, subprocess minus an empty interpreter)
special_case("import_time", _import_time, unit="s", target=AtMost(0.3, "s"),
             note="python -c 'import X' minus python -c 'pass'")


# =============================================================================
# Running
# =============================================================================
class Context:
    def __init__(self, args, libs):
        self.args = args
        self.quick = args.quick
        self.libs = libs
        self.data = {name: Data(lib) for name, lib in libs.items() if lib.xp is not None}
        self.repeats = args.repeats or (7 if args.quick else 20)
        self.warmup = 2 if args.quick else 3
        self.calls = args.calls or (5000 if args.quick else 20000)


def _time_gpu(lib, fn, ctx):
    """Median CUDA-event time (ms) of fn() after warm-up; also min/max."""
    for _ in range(ctx.warmup):
        out = fn()
        del out
    lib.sync()
    times = []
    for _ in range(ctx.repeats):
        start, end = lib.event(), lib.event()
        start.record()
        out = fn()
        end.record()
        end.synchronize()
        times.append(lib.elapsed_ms(start, end))
        del out
    return times


def _time_host_clock(lib, fn, ctx):
    """NumPy: host clock (nothing is asynchronous)."""
    fn()
    times = []
    for _ in range(max(3, ctx.repeats // 4)):
        t0 = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t0) * 1e3)
        del out
    return times


def run_gpu_case(case, lib, ctx):
    setup = case.kw["setups"].get(lib.name)
    if setup is None:
        raise Skip("no %s version" % lib.name)
    if lib.name != "numpy" and not lib.gpu and case.kw["gpu_only"]:
        raise Skip("no GPU")
    d = ctx.data[lib.name]
    fn = setup(lib.xp, d)
    out = fn()  # first call: compilation, allocation; its result is checked
    lib.sync()
    check = case.kw.get("check")
    checked = None
    if check is not None and not ctx.args.no_check:
        checked = bool(check(out, d, lib))
    del out
    times = _time_host_clock(lib, fn, ctx) if lib.name == "numpy" else _time_gpu(lib, fn, ctx)
    del fn
    r = {"ms": statistics.median(times), "min": min(times), "max": max(times), "n": len(times)}
    if checked is not None:
        r["check"] = checked
    return r


def _compile_loop(stmt):
    src = "def _loop(_n):\n    for _ in range(_n):\n        %s\n" % stmt
    return src


def run_host_case(case, lib, ctx):
    if lib.name == "numpy" and not case.kw.get("numpy"):
        raise Skip("no numpy version")
    d = ctx.data[lib.name]
    ns = {"xp": lib.xp, "np": np, "f32": np.float32}
    if case.kw.get("setup") is not None:
        ns.update(case.kw["setup"](lib.xp, d))
    lib.sync()
    exec(compile(_compile_loop(case.kw["stmt"]), "<bench %s>" % case.name, "exec"), ns)  # noqa: S102
    loop = ns["_loop"]
    n = ctx.calls
    loop(min(n, 1000))
    lib.sync()
    per_call = []
    for _ in range(3 if ctx.quick else 5):
        t0 = time.perf_counter()
        loop(n)
        lib.sync()
        per_call.append((time.perf_counter() - t0) / n * 1e6)
    return {"us": statistics.median(per_call), "min": min(per_call), "max": max(per_call), "calls": n}


def _gbps(nbytes, ms):
    if not nbytes or not ms:
        return None
    return nbytes / (ms * 1e-3) / 1e9


def run_case(case, ctx):
    res = {"name": case.name, "kind": case.kind, "unit": case.unit, "note": case.note, "errors": {},
           "skipped": {}}
    if case.kind == "special":
        if case.kw.get("gpu_only") and not any(l.gpu for l in ctx.libs.values()):
            res["skipped"]["all"] = "no GPU"
            return res
        try:
            r = case.kw["runner"](ctx)
            res["errors"].update(r.pop("errors", {}))
            res.update(r)
        except Skip as e:
            res["skipped"]["all"] = str(e)
        except Exception as e:  # noqa: BLE001
            res["errors"]["cunp"] = "%s: %s" % (type(e).__name__, e)
        return res
    names = ["cunp", "cupy"] + (["numpy"] if ctx.args.numpy else [])
    for name in names:
        lib = ctx.libs.get(name)
        if lib is None or lib.xp is None:
            res["skipped"][name] = lib.error if lib else "not run"
            continue
        try:
            if case.kind == "gpu":
                r = run_gpu_case(case, lib, ctx)
                res[name] = r["ms"]
                res[name + "_stats"] = r
                if r.get("check") is False:
                    res["errors"][name] = "wrong result"
            else:
                r = run_host_case(case, lib, ctx)
                res[name] = r["us"]
                res[name + "_stats"] = r
        except Skip as e:
            res["skipped"][name] = str(e)
        except Exception as e:  # noqa: BLE001 - a failing library must not stop the run
            res["errors"][name] = "%s: %s" % (type(e).__name__, e)
            if ctx.args.verbose:
                traceback.print_exc()
        finally:
            if case.kind == "gpu":
                lib.free_memory()
    return res


def finish(res, case, results):
    cu, cp_ = res.get("cunp"), res.get("cupy")
    res["ratio"] = (cp_ / cu) if (cu and cp_) else None
    nbytes = case.nbytes
    res["nbytes"] = nbytes
    res["gbps"] = _gbps(nbytes, cu) if case.unit == "ms" else None
    res["cupy_gbps"] = _gbps(nbytes, cp_) if case.unit == "ms" else None
    res["target"] = case.target.text
    passed, detail = case.target.evaluate(res, results)
    if res["errors"].get("cunp"):
        status = "ERROR"
    elif passed is None:
        status = "-" if isinstance(case.target, NoTarget) or res.get("cunp") is None else "n/a"
    else:
        status = "pass" if passed else "FAIL"
    details = [detail] if detail else []
    if res["errors"].get("cupy"):
        details.append("cupy error")
    if details:
        status += " (%s)" % ", ".join(details)
    res["passed"] = passed
    res["status"] = status


# ---- the C++ host-overhead program ----------------------------------------------
_CPP_LINE = re.compile(r"^CUNP_BENCH\s+(.*)$")


def parse_cpp_bench(text):
    rows = []
    for line in text.splitlines():
        m = _CPP_LINE.match(line.strip())
        if not m:
            continue
        fields = dict(kv.split("=", 1) for kv in m.group(1).split() if "=" in kv)
        if "name" in fields and "us_per_call" in fields:
            rows.append(fields)
    return rows


def run_cpp_bench(path, ctx):
    cmd = [path]
    if ctx.quick:
        cmd.append("--quick")
    if ctx.args.calls:
        cmd += ["--calls", str(ctx.args.calls)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return [], "cannot run %s: %s" % (path, e)
    rows = parse_cpp_bench(p.stdout)
    err = None
    if p.returncode != 0:
        err = "%s exited with %d: %s" % (path, p.returncode, (p.stderr or p.stdout).strip()[-300:])
    return rows, err


# ---- output -------------------------------------------------------------------
def _fmt_value(v, unit):
    if v is None:
        return ""
    if unit == "ms":
        return "%.4g ms" % v
    if unit == "µs":
        return "%.3g µs" % v
    if unit == "s":
        return "%.3f s" % v
    return "%.4g %s" % (v, unit)


def _cell(res, name):
    if name in res and res[name] is not None:
        return _fmt_value(res[name], res["unit"])
    if res.get("errors", {}).get(name):
        return "error"
    return "-"


def format_table(results, with_numpy=False):
    head = ["workload", "cunp", "cupy"] + (["numpy"] if with_numpy else []) + \
        ["ratio", "GB/s", "target", "pass/fail"]
    rows = []
    for r in results:
        row = [r["name"], _cell(r, "cunp"), _cell(r, "cupy")]
        if with_numpy:
            row.append(_cell(r, "numpy"))
        row += ["%.2f" % r["ratio"] if r.get("ratio") else "-",
                "%.1f" % r["gbps"] if r.get("gbps") else "-",
                r.get("target") or "-", r.get("status") or "-"]
        rows.append(row)
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    lines = ["| " + " | ".join(str(c).ljust(w) for c, w in zip(row, widths)) + " |" for row in [head] + rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def _gpu_name(libs):
    for name in ("cupy", "cunp"):
        lib = libs.get(name)
        if lib is not None and lib.xp is not None and lib.gpu:
            try:
                props = lib.xp.cuda.runtime.getDeviceProperties(0)
                n = props["name"]
                return n.decode() if isinstance(n, bytes) else str(n)
            except Exception:  # noqa: BLE001
                pass
    return None


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="ratio = cupy time / cunp time (>1: cunp faster). "
                                       "Cases: " + ", ".join(c.name for c in CASES))
    p.add_argument("--quick", action="store_true", help="fewer repeats and calls; skip slow cases")
    p.add_argument("--filter", action="append", default=[], metavar="SUB",
                   help="run only cases whose name contains SUB (repeatable)")
    p.add_argument("--json", metavar="PATH", help="write the results as JSON to PATH")
    p.add_argument("--cpp-bench", metavar="PATH", help="run the C++ host-overhead program and merge its rows")
    p.add_argument("--numpy", action="store_true", help="also time NumPy (adds a column)")
    p.add_argument("--no-cupy", action="store_true", help="do not import CuPy")
    p.add_argument("--repeats", type=int, default=0, help="timed repeats of each GPU case (default 20; quick 7)")
    p.add_argument("--calls", type=int, default=0, help="calls per host-overhead loop (default 20000; quick 5000)")
    p.add_argument("--no-check", action="store_true", help="skip checking each library's first result")
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    p.add_argument("--fail-on-target", action="store_true", help="exit 1 when a target is missed")
    p.add_argument("--require-gpu", action="store_true", help="exit 1 when cunp sees no GPU")
    p.add_argument("-v", "--verbose", action="store_true", help="print tracebacks of failing cases")
    args = p.parse_args(argv)

    if args.list:
        for c in CASES:
            print("%-22s %-8s %-4s %-18s %s" % (c.name, c.kind, c.unit, c.target.text, c.note))
        return 0

    selected = [c for c in CASES if not args.filter or any(f in c.name for f in args.filter)]
    if args.quick:
        selected = [c for c in selected if not c.slow]
    # pull in reference cases that a selected case's target needs
    names = {c.name for c in selected}
    for c in list(selected):
        for ref in c.target.refs:
            if ref not in names:
                names.add(ref)
    selected = [c for c in CASES if c.name in names]

    libs = {"cunp": CunpLib(), "cupy": CupyLib() if not args.no_cupy else None, "numpy": NumpyLib()}
    if libs["cupy"] is None:
        libs["cupy"] = Lib()
        libs["cupy"].name, libs["cupy"].error = "cupy", "disabled by --no-cupy"
    ctx = Context(args, libs)

    print("cunp bench: python %s, numpy %s" % (platform.python_version(), np.__version__), flush=True)
    for name in ("cunp", "cupy"):
        lib = libs[name]
        if lib.xp is None:
            print("  %s: unavailable (%s)" % (name, lib.error), flush=True)
        else:
            print("  %s %s: %s" % (name, lib.version(), "GPU" if lib.gpu else "no GPU (cpu device)"), flush=True)
    gpu_name = _gpu_name(libs)
    if gpu_name:
        print("  device: %s" % gpu_name, flush=True)

    results = {}
    ordered = []
    t_start = time.perf_counter()
    for case in selected:
        t0 = time.perf_counter()
        res = run_case(case, ctx)
        finish(res, case, results)
        results[case.name] = res
        ordered.append(res)
        msg = "  %-22s cunp=%s cupy=%s  %s (%.1fs)" % (case.name, _cell(res, "cunp"), _cell(res, "cupy"),
                                                      res["status"], time.perf_counter() - t0)
        print(msg, flush=True)
        for who, why in res["errors"].items():
            print("      %s error: %s" % (who, why), flush=True)
        for who, why in res["skipped"].items():
            if who == "cupy" and libs["cupy"].xp is None:
                continue
            if who == "numpy" and not args.numpy:
                continue
            print("      %s skipped: %s" % (who, why), flush=True)
    for d in ctx.data.values():
        d.clear()

    cpp_error = None
    if args.cpp_bench:
        rows, cpp_error = run_cpp_bench(args.cpp_bench, ctx)
        for row in rows:
            name = row["name"]
            if args.filter and not any(f in name for f in args.filter):
                continue
            us = float(row["us_per_call"])
            limit = CPP_TARGETS_US.get(name)
            passed = None if limit is None else us <= limit
            res = {"name": name, "kind": "cpp", "unit": "µs", "note": "C++ " + row.get("device", ""),
                   "errors": {}, "skipped": {}, "cunp": us, "ratio": None, "gbps": None,
                   "target": "-" if limit is None else "< %g µs" % limit,
                   "status": "-" if limit is None else ("pass" if passed else "FAIL"), "passed": passed,
                   "calls": int(row.get("calls", 0) or 0), "device": row.get("device")}
            results[name] = res
            ordered.append(res)
        if cpp_error:
            print("  C++ bench: %s" % cpp_error, flush=True)
        elif not rows:
            cpp_error = "no CUNP_BENCH lines in the output of %s" % args.cpp_bench
            print("  C++ bench: %s" % cpp_error, flush=True)

    cunp_errors = [r["name"] for r in ordered if r["errors"].get("cunp")]
    missed = [r["name"] for r in ordered if r.get("passed") is False]

    if args.json:
        doc = {
            "when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "host": socket.gethostname(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "cunp": libs["cunp"].version() if libs["cunp"].xp is not None else None,
            "cunp_gpu": libs["cunp"].gpu,
            "cupy": libs["cupy"].version() if libs["cupy"].xp is not None else None,
            "device": gpu_name,
            "args": vars(args),
            "seconds": time.perf_counter() - t_start,
            "cpp_bench_error": cpp_error,
            "results": ordered,
        }
        d = os.path.dirname(os.path.abspath(args.json))
        os.makedirs(d, exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1, default=str)

    print()
    print("== cunp bench results (ratio = cupy/cunp, >1: cunp faster; GPU rows: median CUDA-event ms; "
          "small_*: µs/call from Python) ==")
    print(format_table(ordered, with_numpy=args.numpy))
    if cunp_errors:
        print("cunp errors in: " + ", ".join(cunp_errors))
    if missed:
        print("targets missed: " + ", ".join(missed))
    no_gpu = args.require_gpu and not libs["cunp"].gpu
    if no_gpu:
        print("cunp sees no GPU (--require-gpu): %s" % (libs["cunp"].error or "GPU cases were skipped"))
    if cunp_errors or cpp_error or no_gpu:
        return 1
    if args.fail_on_target and missed:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

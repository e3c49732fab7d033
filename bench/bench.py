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
``host_case``, under a group (``group("fft")``) that ``--only`` can select. Targets
live beside each case. A case whose cunp function does not exist yet (or raises
NotImplementedError) is reported as ``missing`` and does not fail the run.

Usage:
    PYTHONPATH=build/python python bench/bench.py [--quick] [--only REGEX] [--filter SUB]
        [--json out.json] [--cpp-bench build/cunp_bench] [--numpy] [--list]
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

    def _upload(self, key, host):
        """host() on the library's device, uploaded once per `key`."""
        a = self._dev.get(key)
        if a is None:
            a = self.lib.asarray(host())
            self.lib.sync()
            self._dev[key] = a
        return a

    def rand(self, n, dtype=np.float32, seed=0):
        """Random array of n elements on the library's device."""
        return self._upload((n, np.dtype(dtype).str, seed), lambda: host_random(n, dtype, seed))

    def custom(self, key, make):
        """A host array built once by make() (cached as `key`), on the library's device."""
        return self._upload(("custom", key), lambda: self.host_custom(key, make))

    def host_custom(self, key, make):
        """The host side of custom(key, make)."""
        hkey = ("custom", key)
        h = _HOST_CACHE.get(hkey)
        if h is None:
            h = _HOST_CACHE[hkey] = make()
        return h

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


def TimeAtMost(frac):
    """cunp's time <= frac × CuPy's (host-overhead targets): ratio >= 1/frac."""
    return RatioAtLeast(1.0 / frac, "≤%g× cupy time" % frac)


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


class AtMostMoreThan(Target):
    """cunp's value <= cunp's value of reference case `ref` + extra (the cost of a path
    that dispatches to the reference call)."""

    def __init__(self, ref, extra, unit):
        self.ref, self.extra, self.unit = ref, extra, unit
        self.refs = (ref,)
        self.text = "≤ %s + %g %s" % (ref, extra, unit)

    def evaluate(self, res, results):
        ref = results.get(self.ref)
        if ref is None or ref.get("cunp") is None or res.get("cunp") is None:
            return None, ""
        more = res["cunp"] - ref["cunp"]
        return more <= self.extra, "+%.2f %s" % (more, self.unit)


# =============================================================================
# The case registry
# =============================================================================
class Case:
    def __init__(self, name, kind, *, unit, target=None, nbytes=None, slow=False, note="", group=None,
                 requires=(), repeats=None, warmup=None, flops=None, **kw):
        self.name, self.kind, self.unit = name, kind, unit
        self.target = target or NoTarget()
        self.nbytes = nbytes
        self.flops = flops
        self.slow = slow
        self.note = note
        self.group = group or _GROUP[0]
        # dotted names the case needs in the library module ("linalg.eigh", "sort")
        self.requires = tuple(requires)
        # caps on the timed repeats / warm-up calls for long workloads (None: the run's)
        self.repeats, self.warmup = repeats, warmup
        self.kw = kw


CASES: list = []
_GROUP = ["misc"]


def group(name):
    """Cases registered from here on belong to group `name` (what --only matches)."""
    _GROUP[0] = name


def _register(case):
    if any(c.name == case.name for c in CASES):
        raise ValueError("duplicate bench case %r" % case.name)
    CASES.append(case)
    return case


def gpu_case(name, setup=None, *, cunp=None, cupy=None, numpy=None, nbytes=None, check=None,
             target=None, slow=False, note="", gpu_only=True, group=None, requires=(), repeats=None,
             warmup=None, flops=None):
    """A large workload timed with CUDA events (median of repeats, in ms).

    setup(xp, d) -> fn: builds inputs through d (a Data) and returns the zero-argument
    callable that is timed; its return value goes to check(out, d, lib) -> bool,
    which sees the first call's result. `cunp=`/`cupy=` override `setup` for one
    library; `numpy=True` also times `setup` on NumPy (host clock) with --numpy, or
    `numpy=` gives a NumPy-specific setup. `requires`: dotted names the workload needs
    in the library module (a missing one makes the row "missing"); `repeats`/`warmup`
    cap the timed and warm-up calls of long workloads; `flops` adds TFLOP/s.
    """
    if numpy is True:
        numpy = setup
    return _register(Case(name, "gpu", unit="ms", target=target or RatioAtLeast(0.9), nbytes=nbytes,
                          slow=slow, note=note, group=group, requires=requires, repeats=repeats,
                          warmup=warmup, flops=flops,
                          setups={"cunp": cunp or setup, "cupy": cupy or setup, "numpy": numpy or None},
                          check=check, gpu_only=gpu_only))


def host_case(name, stmt, setup=None, *, target=None, numpy=True, note="", group=None, requires=()):
    """Host overhead of a small call from Python, in µs/call.

    `stmt` is run N times in an inlined loop with names from setup(xp, d) -> dict
    (plus `xp`, `np`, `f32`); the device is synchronized once at the end.
    """
    return _register(Case(name, "host", unit="µs", target=target or NoTarget(), note=note, group=group,
                          requires=requires, stmt=stmt, setup=setup, numpy=numpy))


def special_case(name, runner, *, unit, target=None, nbytes=None, slow=False, note="", gpu_only=False,
                 group=None):
    """A case with its own runner(ctx) -> dict(cunp=..., cupy=..., ...)."""
    return _register(Case(name, "special", unit=unit, target=target, nbytes=nbytes, slow=slow, note=note,
                          group=group, runner=runner, gpu_only=gpu_only))


class Missing(Exception):
    """cunp lacks the function a case needs (reported as "missing", not as an error)."""


def companion(xp):
    """The cupyx-shaped companion of a library module: cunpx for cunp, cupyx for cupy
    (AttributeError when there is none, so that a case needing it reads "missing")."""
    import importlib
    try:
        return importlib.import_module(xp.__name__ + "x")
    except ImportError as e:
        raise AttributeError("module %r has no companion %sx (%s)" % (xp.__name__, xp.__name__, e)) from e


def _lookup(xp, dotted):
    """A dotted name in the library module; "x.scipy.sparse" names one in its companion
    (cunpx / cupyx). Submodules are imported on the way."""
    import importlib
    parts = dotted.split(".")
    obj = xp
    if parts[0] == "x":
        obj, parts = companion(xp), parts[1:]
    for part in parts:
        try:
            obj = getattr(obj, part)
        except AttributeError:
            try:
                obj = importlib.import_module(obj.__name__ + "." + part)
            except (ImportError, AttributeError):
                raise AttributeError("%r has no %s" % (obj, part)) from None
    return obj


def _missing_names(xp, names):
    out = []
    for n in names:
        try:
            _lookup(xp, n)
        except AttributeError:
            out.append(n)
    return out


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
group("transfer")
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
group("memory")
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
group("small")
_small = lambda xp, d: {"a": d.rand(SMALL)}  # noqa: E731
host_case("small_empty", "xp.empty(1000, dtype=f32)", target=RatioAtLeast(1.0))
host_case("small_zeros", "xp.zeros(1000, dtype=f32)", target=RatioAtLeast(1.0))
host_case("small_slice_view", "a[1:-1]", _small, target=RatioAtLeast(1.0))
host_case("small_reshape", "a.reshape(10, 100)", _small, target=RatioAtLeast(1.0))
host_case("small_copy", "a.copy()", _small, target=RatioAtLeast(1.0))
# -- elementwise (ufuncs), 2^27 float32 elements
group("elementwise")
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
# -- NumPy's protocols: np.add / np.concatenate on device arrays dispatch to the library
_two = lambda xp, d: {"a": d.rand(SMALL), "b": d.rand(SMALL, seed=1)}  # noqa: E731
host_case("small_add_call", "xp.add(a, b)", _two)
host_case("proto_add", "np.add(a, b)", _two, target=AtMostMoreThan("small_add_call", 2.0, "µs"),
          note="__array_ufunc__")
# -- zero-copy exchange with PyTorch and Numba (DLPack, the CUDA Array Interface)
def _torch_tensor(xp, d):
    import torch
    return {"t": torch.arange(SMALL, dtype=torch.float32, device="cuda")}


def _torch_and_array(xp, d):
    import torch
    return {"torch": torch, "a": d.rand(SMALL)}


def _numba_array(xp, d):
    from numba import cuda as numba_cuda
    return {"n": numba_cuda.device_array(SMALL, dtype=np.float32)}


host_case("dlpack_from_torch", "xp.from_dlpack(t)", _torch_tensor, target=AtMost(5.0, "µs"), numpy=False,
          note="DLPack import of a torch CUDA tensor")
host_case("dlpack_to_torch", "torch.from_dlpack(a)", _torch_and_array, target=AtMost(5.0, "µs"), numpy=False,
          note="torch's DLPack import of a device array")
host_case("cai_from_numba", "xp.asarray(n)", _numba_array, target=AtMost(5.0, "µs"), numpy=False,
          note="__cuda_array_interface__ import of a Numba device array")
host_case("small_concatenate", "xp.concatenate([a, b])", _two)
host_case("proto_concatenate", "np.concatenate([a, b])", _two,
          target=AtMostMoreThan("small_concatenate", 2.0, "µs"), note="__array_function__")
# -- the cpu device against NumPy (issue: the cpu device as fast as NumPy): 2^24 float32
#    ufuncs, reductions and a scan. These rows run without a GPU too (cunp timed with the
#    host clock when it is not on a GPU); `--only cpu --numpy` on a machine without one,
#    or with CUNP_DEVICE=cpu.
group("cpu")
N24 = 1 << 24


def _cpu_case(name, fn, nbytes, check=None):
    gpu_case("cpu_" + name, lambda xp, d: functools.partial(fn, xp, d.rand(N24), d.rand(N24, seed=1)), numpy=True,
             nbytes=nbytes, target=RatioAtLeast(1.0), gpu_only=False, check=check,
             note="2^24 float32; ratio against NumPy on the cpu device")


_cpu_case("sin", lambda xp, a, b: xp.sin(a), 2 * N24 * 4, _close_to(lambda d: np.sin(d.host(N24))))
_cpu_case("exp", lambda xp, a, b: xp.exp(a), 2 * N24 * 4, _close_to(lambda d: np.exp(d.host(N24))))
_cpu_case("log", lambda xp, a, b: xp.log(a), 2 * N24 * 4, _close_to(lambda d: np.log(d.host(N24))))
_cpu_case("sqrt", lambda xp, a, b: xp.sqrt(a), 2 * N24 * 4, _equal_to(lambda d: np.sqrt(d.host(N24))))
_cpu_case("add", lambda xp, a, b: xp.add(a, b), 3 * N24 * 4,
          _equal_to(lambda d: d.host(N24) + d.host(N24, seed=1)))
_cpu_case("multiply", lambda xp, a, b: xp.multiply(a, b), 3 * N24 * 4,
          _equal_to(lambda d: d.host(N24) * d.host(N24, seed=1)))
_cpu_case("axpy", lambda xp, a, b: a * 2.5 + a, 4 * N24 * 4,
          _equal_to(lambda d: d.host(N24) * np.float32(2.5) + d.host(N24)))
_cpu_case("less", lambda xp, a, b: xp.less(a, b), N24 * 9, _equal_to(lambda d: d.host(N24) < d.host(N24, seed=1)))
_cpu_case("where", lambda xp, a, b: xp.where(a < 0.5, a, b), N24 * 13,
          _equal_to(lambda d: np.where(d.host(N24) < 0.5, d.host(N24), d.host(N24, seed=1))))
_cpu_case("sum", lambda xp, a, b: a.sum(), N24 * 4, _close_to(lambda d: d.host(N24).sum(), rtol=1e-4))
_cpu_case("mean", lambda xp, a, b: a.mean(), N24 * 4, _close_to(lambda d: d.host(N24).mean(), rtol=1e-4))
_cpu_case("max", lambda xp, a, b: a.max(), N24 * 4, _equal_to(lambda d: d.host(N24).max()))
_cpu_case("argmax", lambda xp, a, b: a.argmax(), N24 * 4, _equal_to(lambda d: d.host(N24).argmax()))
_cpu_case("std", lambda xp, a, b: a.std(), N24 * 4, _close_to(lambda d: d.host(N24).std(), rtol=1e-4))
_cpu_case("cumsum", lambda xp, a, b: xp.cumsum(a), 2 * N24 * 4,
          _close_to(lambda d: np.cumsum(d.host(N24)), rtol=1e-3, atol=1e-1))
# -- ElementwiseKernel (user CUDA C++): z = a*b + c, 2^27 float32; call overhead; first call
group("kernel")
def _ek_fma(xp, d):
    k = xp.ElementwiseKernel("T a, T b, T c", "T z", "z = a * b + c", "bench_ek_fma")
    return functools.partial(k, d.rand(N27), d.rand(N27, seed=1), d.rand(N27, seed=2),
                             xp.empty(N27, dtype=np.float32))


gpu_case("ek_fma_f32", _ek_fma, nbytes=4 * N27 * 4, target=RatioAtLeast(1.0),
         check=_close_to(lambda d: d.host(N27) * d.host(N27, seed=1) + d.host(N27, seed=2)))
host_case("small_ek_fma", "k(a, a, a)", lambda xp, d: {"a": d.rand(SMALL), "k": xp.ElementwiseKernel(
    "T a, T b, T c", "T z", "z = a * b + c", "bench_ek_small")}, target=RatioAtLeast(1.0))


# -- fuse: sqrt((x - y) ** 2 + 1) as one kernel, then with a trailing sum; a fused call's overhead
def _fuse_dist(xp):
    # named functions: cupy.fuse names its kernel after the function (a lambda's "<lambda>" does not compile)
    def fused_dist(x, y):
        return xp.sqrt((x - y) ** 2 + 1)
    return xp.fuse(fused_dist)


def _fuse_dist_sum(xp):
    def fused_dist_sum(x, y):
        return xp.sqrt((x - y) ** 2 + 1).sum()
    return xp.fuse(fused_dist_sum)


def _dist_host(d):
    return np.sqrt((d.host(N27) - d.host(N27, seed=1)) ** 2 + 1)


gpu_case("fuse_dist_f32", lambda xp, d: functools.partial(_fuse_dist(xp), d.rand(N27), d.rand(N27, seed=1)),
         nbytes=3 * 4 * N27, target=RatioAtLeast(1.2), requires=("fuse",), check=_close_to(_dist_host),
         note="fuse(lambda x, y: sqrt((x - y) ** 2 + 1)) vs cupy.fuse")
gpu_case("fuse_dist_sum_f32",
         lambda xp, d: functools.partial(_fuse_dist_sum(xp), d.rand(N27), d.rand(N27, seed=1)),
         nbytes=2 * 4 * N27, target=RatioAtLeast(1.5), requires=("fuse",),
         check=_close_to(lambda d: _dist_host(d).astype(np.float64).sum(), rtol=1e-4, atol=0),
         note="the same ending in .sum(): one reduction kernel")
host_case("small_fuse_dist", "f(a, b)", lambda xp, d: {"a": d.rand(SMALL), "b": d.rand(SMALL, seed=1),
                                                       "f": _fuse_dist(xp)},
          target=AtMostMoreThan("small_add_call", 6.0, "µs"), numpy=False, requires=("fuse",),
          note="one fused call on 1000 elements vs one ufunc call")


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
group("import")
# -- C++ host overhead targets (µs/call), for the rows of bench/cpp/bench_host_overhead.cpp
CPP_TARGETS_US = {"cpp_small_add": 4.0, "cpp_small_sin": 4.0, "cpp_small_add_out": 4.0}
# -- import time (seconds, subprocess minus an empty interpreter)
special_case("import_time", _import_time, unit="s", target=AtMost(0.3, "s"),
             note="python -c 'import X' minus python -c 'pass'")


# =============================================================================
# Cases of the later issues: reductions (4), indexing (5), linear algebra (6),
# FFT (7), random (8), sorting (9). Checks compare with NumPy on the host, on a
# sample where a full NumPy reference would take seconds.
# =============================================================================
N20, N24, N26 = 1 << 20, 1 << 24, 1 << 26
ROWS, COLS = 16384, 8192  # a 2^27-element matrix
_EXPECTED: dict = {}


def _memo(key, fn):
    """fn() once per run (NumPy references shared by both libraries' checks)."""
    if key not in _EXPECTED:
        _EXPECTED[key] = fn()
    return _EXPECTED[key]


def _host_ints(n, high, dtype, seed):
    return lambda: np.random.default_rng(777 + seed).integers(0, high, size=n, dtype=dtype)


def _allclose_to(expected_fn, key, rtol=1e-5, atol=0.0):
    def check(out, d, lib):
        return bool(np.allclose(lib.to_numpy(out), _memo(key, lambda: expected_fn(d)), rtol=rtol, atol=atol))
    return check


def _rel_l2_to(expected_fn, key, tol):
    """||out - expected|| <= tol * ||expected|| (transforms, products)."""
    def check(out, d, lib):
        got = lib.to_numpy(out).astype(np.complex128 if np.iscomplexobj(out) else np.float64)
        exp = _memo(key, lambda: expected_fn(d))
        return bool(got.shape == exp.shape and np.linalg.norm(got - exp) <= tol * np.linalg.norm(exp))
    return check


def _rows(a, k=4):
    """The first k rows of a 2-D array (a view; only these rows are copied to the host)."""
    return a[:k]


# -- issue 4: reductions, scans, statistics (float32, 2^27 elements) ---------------------
group("reduce")
gpu_case("sum_f32", lambda xp, d: functools.partial(xp.sum, d.rand(N27)), nbytes=N27 * 4,
         target=RatioAtLeast(1.0), requires=("sum",),
         check=_allclose_to(lambda d: d.host(N27).sum(dtype=np.float64), "sum", rtol=1e-5))
gpu_case("max_f32", lambda xp, d: functools.partial(xp.max, d.rand(N27)), nbytes=N27 * 4,
         target=RatioAtLeast(1.0), requires=("max",), check=_equal_to(lambda d: d.host(N27).max()))
gpu_case("argmax_f32", lambda xp, d: functools.partial(xp.argmax, d.rand(N27)), nbytes=N27 * 4,
         target=RatioAtLeast(1.0), requires=("argmax",), check=_equal_to(lambda d: d.host(N27).argmax()))
gpu_case("mean_f32", lambda xp, d: functools.partial(xp.mean, d.rand(N27)), nbytes=N27 * 4,
         target=RatioAtLeast(1.0), requires=("mean",),
         check=_allclose_to(lambda d: d.host(N27).mean(dtype=np.float64), "mean", rtol=1e-5))
gpu_case("sum_axis0_16384x8192", lambda xp, d: functools.partial(xp.sum, d.rand(N27).reshape(ROWS, COLS), axis=0),
         nbytes=N27 * 4 + COLS * 4, target=RatioAtLeast(2.5), requires=("sum",),
         check=_allclose_to(lambda d: d.host(N27).reshape(ROWS, COLS).sum(axis=0, dtype=np.float64), "sum0",
                            rtol=1e-5))
gpu_case("sum_axis1_16384x8192", lambda xp, d: functools.partial(xp.sum, d.rand(N27).reshape(ROWS, COLS), axis=1),
         nbytes=N27 * 4 + ROWS * 4, target=RatioAtLeast(1.0), requires=("sum",),
         check=_allclose_to(lambda d: d.host(N27).reshape(ROWS, COLS).sum(axis=1, dtype=np.float64), "sum1",
                            rtol=1e-5))
gpu_case("std_f32", lambda xp, d: functools.partial(xp.std, d.rand(N27)), nbytes=N27 * 4,
         target=AtMost(0.3, "ms"), requires=("std",),
         check=_allclose_to(lambda d: d.host(N27).std(dtype=np.float64), "std", rtol=1e-4),
         note="whole-array std (CuPy takes ~95 ms)")


def _cumsum_check(out, d, lib):
    got = lib.to_numpy(out)
    idx = np.linspace(0, N27 - 1, 4097).astype(np.int64)
    exp = _memo("cumsum", lambda: np.cumsum(d.host(N27), dtype=np.float64)[idx])
    return bool(got.shape == (N27,) and np.allclose(got[idx], exp, rtol=1e-3))


gpu_case("cumsum_f32", lambda xp, d: functools.partial(xp.cumsum, d.rand(N27)), nbytes=2 * N27 * 4,
         target=RatioAtLeast(2.0), requires=("cumsum",), check=_cumsum_check)


def _histogram_check(out, d, lib):
    hist = lib.to_numpy(out[0])
    exp = _memo("hist256", lambda: np.histogram(d.host(N27), bins=256)[0])
    # bin edges computed in another order may move an element across a boundary
    return bool(hist.shape == (256,) and hist.sum() == N27 and np.abs(hist - exp).sum() <= 1e-5 * N27)


gpu_case("histogram_256", lambda xp, d: functools.partial(xp.histogram, d.rand(N27), bins=256), nbytes=N27 * 4,
         target=RatioAtLeast(1.5), requires=("histogram",), check=_histogram_check)
host_case("small_sum", "xp.sum(a)", _small, target=TimeAtMost(0.6), requires=("sum",))
host_case("small_sum_axis0_64x64", "xp.sum(b, axis=0)", lambda xp, d: {"b": d.rand(4096).reshape(64, 64)},
          target=TimeAtMost(0.6), requires=("sum",))

# -- issue 5: indexing and non-contiguous copies --------------------------------------------
group("index")
gpu_case("transpose_copy_16384x8192",
         lambda xp, d: functools.partial(xp.ascontiguousarray, d.rand(N27).reshape(ROWS, COLS).T),
         nbytes=2 * N27 * 4, target=RatioAtLeast(2.5), requires=("ascontiguousarray",),
         check=lambda out, d, lib: bool(out.shape == (COLS, ROWS) and np.array_equal(
             lib.to_numpy(out[::97]), d.host(N27).reshape(ROWS, COLS).T[::97])))


def _mask_select(xp, d):
    a = d.rand(N27)
    return lambda: a[a > 1.0]


gpu_case("bool_mask_select", _mask_select, nbytes=N27 * 4 + N27 // 2 * 4, target=RatioAtLeast(2.0),
         check=_equal_to(lambda d: _memo("mask", lambda: d.host(N27)[d.host(N27) > 1.0])),
         note="a[a > 1.0] on values in [0.5, 1.5): half kept, like a > 0.5 on [0, 1)")
_IDX24 = _host_ints(N24, N27, np.int64, 1)


def _gather(xp, d):
    a, idx = d.rand(N27), d.custom("idx24", _IDX24)
    return lambda: a[idx]


gpu_case("gather_2^24_of_2^27", _gather, nbytes=N24 * (8 + 4 + 4), target=RatioAtLeast(1.0),
         check=_equal_to(lambda d: d.host(N27)[d.host_custom("idx24", _IDX24)]),
         note="a[idx], 2^24 random int64 indices; cunp checks bounds, CuPy does not")
host_case("small_fancy_index", "x[xp.arange(10)]", lambda xp, d: {"x": d.rand(SMALL)}, target=TimeAtMost(0.5))
host_case("small_where", "xp.where(c, x, y)",
          lambda xp, d: {"c": d.rand(SMALL) > 1.0, "x": d.rand(SMALL), "y": d.rand(SMALL, seed=1)},
          target=TimeAtMost(0.5), requires=("where",))

# -- issue 6: linear algebra ---------------------------------------------------------------
group("linalg")
N_LA, N_SVD = 4096, 2048


def _la_general(n, seed):
    return lambda: host_random(n * n, np.float32, seed).reshape(n, n)


def _la_spd(n):
    """Symmetric, strictly diagonally dominant, positive diagonal: SPD and well conditioned."""
    def make():
        r = host_random(n * n, np.float32, 3).reshape(n, n)
        s = (r + r.T) * np.float32(0.5)
        s[np.diag_indices(n)] += np.float32(2 * n)
        return s
    return make


_SPD = _la_spd(N_LA)
_GEN = _la_general(N_LA, 5)
_GEN_SVD = _la_general(N_SVD, 6)


def _matmul_setup(n, dt):
    return lambda xp, d: functools.partial(xp.matmul, d.rand(n * n, dt).reshape(n, n),
                                           d.rand(n * n, dt, seed=1).reshape(n, n))


def _matmul_check(n, dt, tol):
    def check(out, d, lib):
        got = lib.to_numpy(_rows(out)).astype(np.float64)
        exp = _memo(("matmul", n, np.dtype(dt).str), lambda: d.host(n * n, dt).reshape(n, n)[:4].astype(np.float64)
                    @ d.host(n * n, dt, seed=1).reshape(n, n).astype(np.float64))
        return bool(np.allclose(got, exp, rtol=tol))
    return check


for _dt, _tol in ((np.float32, 1e-4), (np.float64, 1e-10), (np.float16, 1e-2)):
    gpu_case("matmul_%s_8192" % np.dtype(_dt).name, _matmul_setup(8192, _dt), flops=2 * 8192 ** 3,
             target=RatioAtLeast(0.97), requires=("matmul",), check=_matmul_check(8192, _dt, _tol),
             repeats=10, nbytes=None, note="TF32 off in both libraries" if _dt is np.float32 else "")


def _bmm_setup(xp, d):
    n = 1024 * 64 * 64
    return functools.partial(xp.matmul, d.rand(n).reshape(1024, 64, 64), d.rand(n, seed=1).reshape(1024, 64, 64))


gpu_case("matmul_batched_1024x64x64", _bmm_setup, flops=2 * 1024 * 64 ** 3, target=RatioAtLeast(1.0),
         requires=("matmul",),
         check=_allclose_to(lambda d: d.host(1 << 22).reshape(1024, 64, 64).astype(np.float64)
                            @ d.host(1 << 22, seed=1).reshape(1024, 64, 64), "bmm", rtol=1e-4))
host_case("small_matmul_64", "a @ b", lambda xp, d: {"a": d.rand(4096).reshape(64, 64),
                                                     "b": d.rand(4096, seed=1).reshape(64, 64)},
          target=TimeAtMost(0.5), requires=("matmul",))


def _solve_check(out, d, lib):
    x = lib.to_numpy(out).astype(np.float64)
    a, b = d.host_custom("spd", _SPD).astype(np.float64), d.host(N_LA, seed=4).astype(np.float64)
    return bool(np.linalg.norm(a @ x - b) <= 1e-4 * np.linalg.norm(b))


def _inv_check(out, d, lib):
    x = lib.to_numpy(out).astype(np.float64)
    a = d.host_custom("spd", _SPD)[:4].astype(np.float64)
    return bool(np.allclose(a @ x, np.eye(N_LA)[:4], atol=1e-4))


def _cholesky_check(out, d, lib):
    low = lib.to_numpy(out).astype(np.float64)
    a = d.host_custom("spd", _SPD)[:4].astype(np.float64)
    return bool(np.allclose(low[:4] @ low.T, a, atol=1e-3 * np.abs(a).max()) and np.allclose(np.triu(low, 1), 0))


def _qr_check(out, d, lib):
    q, r = (lib.to_numpy(x).astype(np.float64) for x in out)
    a = d.host_custom("gen", _GEN)[:4].astype(np.float64)
    return bool(np.allclose(q[:4] @ r, a, atol=1e-3 * np.abs(a).max()))


def _eigh_check(out, d, lib):
    w, v = (lib.to_numpy(x).astype(np.float64) for x in out)
    a = d.host_custom("spd", _SPD).astype(np.float64)
    k = [0, 1, N_LA - 1]
    return bool(np.all(np.diff(w) >= 0) and
                np.allclose(a @ v[:, k], v[:, k] * w[k], atol=1e-3 * np.abs(w).max()))


def _svd_check(out, d, lib):
    u, s_, vh = (lib.to_numpy(x).astype(np.float64) for x in out)
    a = d.host_custom("gen_svd", _GEN_SVD)[:4].astype(np.float64)
    return bool(np.all(np.diff(s_) <= 0) and np.allclose((u[:4] * s_) @ vh, a, atol=1e-3 * s_[0] / N_SVD ** 0.5))


_n3 = float(N_LA) ** 3
gpu_case("solve_f32_4096", lambda xp, d: functools.partial(xp.linalg.solve, d.custom("spd", _SPD), d.rand(N_LA, seed=4)),
         flops=2 * _n3 / 3, target=RatioAtLeast(0.95), requires=("linalg.solve",), check=_solve_check, repeats=10)
gpu_case("inv_f32_4096", lambda xp, d: functools.partial(xp.linalg.inv, d.custom("spd", _SPD)),
         flops=2 * _n3, target=RatioAtLeast(0.95), requires=("linalg.inv",), check=_inv_check, repeats=10)
gpu_case("cholesky_f32_4096", lambda xp, d: functools.partial(xp.linalg.cholesky, d.custom("spd", _SPD)),
         flops=_n3 / 3, target=RatioAtLeast(0.95), requires=("linalg.cholesky",), check=_cholesky_check,
         repeats=10)
gpu_case("qr_f32_4096", lambda xp, d: functools.partial(xp.linalg.qr, d.custom("gen", _GEN)),
         target=RatioAtLeast(0.95), requires=("linalg.qr",), check=_qr_check, repeats=5, warmup=1,
         note="mode='reduced' (Q and R)")
gpu_case("eigh_f32_4096", lambda xp, d: functools.partial(xp.linalg.eigh, d.custom("spd", _SPD)),
         target=RatioAtLeast(0.95), requires=("linalg.eigh",), check=_eigh_check, repeats=3, warmup=1,
         note="eigenvalues and eigenvectors")
gpu_case("svd_f32_2048", lambda xp, d: functools.partial(xp.linalg.svd, d.custom("gen_svd", _GEN_SVD)),
         target=RatioAtLeast(1.5), requires=("linalg.svd",), check=_svd_check, repeats=3, warmup=1,
         note="full_matrices=True, U, S and Vh")


def _svd_driver_setup(driver):
    """cunp's svd of the 2048^2 matrix with one cuSOLVER routine forced for the call."""
    def setup(xp, d):
        a = d.custom("gen_svd", _GEN_SVD)

        def run():
            xp.linalg._set_svd_driver(driver)
            try:
                return xp.linalg.svd(a)
            finally:
                xp.linalg._set_svd_driver("auto")
        return run
    return setup


# Note [SVD drivers] (docs/linalg.md): the rows that pick svd's default routine by
# measurement; CuPy runs its own (gesvd) in each.
for _drv in ("gesvd", "gesvdj", "gesvdp", "gesvdp64"):
    gpu_case("svd_f32_2048_" + _drv, cunp=_svd_driver_setup(_drv),
             cupy=lambda xp, d: functools.partial(xp.linalg.svd, d.custom("gen_svd", _GEN_SVD)),
             target=NoTarget(), requires=("linalg.svd",), check=_svd_check, repeats=2 if _drv == "gesvdj" else 3,
             warmup=1, note="cunp forced to cusolver " + _drv + " (CUNP_SVD_DRIVER); picks the default")


# -- issue 21: sparse linear algebra (group "sparse", registered beside linalg) ----------------
M_POISSON = 2048          # grid side: 2048^2 = 4.2M unknowns, 21M stored entries
CG_ITERS = 100


def _poisson_csr(m):
    """The 5-point Laplacian of an m x m grid as CSR arrays (float64 data, int32
    indices), built row by row in column order: (i-1, j), (i, j-1), (i, j), (i, j+1),
    (i+1, j)."""
    n = m * m
    idx = np.arange(n, dtype=np.int64).reshape(m, m)
    cols = np.stack([idx - m, idx - 1, idx, idx + 1, idx + m], axis=-1)
    ok = np.ones((m, m, 5), dtype=bool)
    ok[0, :, 0] = ok[-1, :, 4] = False
    ok[:, 0, 1] = ok[:, -1, 3] = False
    vals = np.broadcast_to(np.array([-1.0, -1.0, 4.0, -1.0, -1.0]), ok.shape)
    indptr = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(ok.reshape(n, 5).sum(axis=1), out=indptr[1:])
    return vals[ok].copy(), cols[ok].astype(np.int32), indptr


def _poisson_part(k):
    return lambda: _memo(("poisson", M_POISSON), lambda: _poisson_csr(M_POISSON))[k]


def _poisson_b():
    return np.random.default_rng(21).standard_normal(M_POISSON * M_POISSON)


def _cg_setup(xp, d):
    """cg on the Poisson matrix for exactly CG_ITERS iterations (rtol=0, atol=0: the
    residual test never passes), the matrix built with the library's sparse module."""
    n = M_POISSON * M_POISSON
    sparse = _lookup(xp, "x.scipy.sparse")
    A = sparse.csr_matrix((d.custom("pois_data", _poisson_part(0)), d.custom("pois_indices", _poisson_part(1)),
                           d.custom("pois_indptr", _poisson_part(2))), shape=(n, n))
    b = d.custom("pois_b", _poisson_b)
    cg = _lookup(xp, "x.scipy.sparse.linalg.cg")
    return functools.partial(cg, A, b, rtol=0.0, atol=0.0, maxiter=CG_ITERS)


def _cg_check(out, d, lib):
    """info is the iteration count and the residual fell: ||b - A x|| < 0.5 ||b||."""
    x, info = out
    if info != CG_ITERS:
        return False
    x = lib.to_numpy(x)
    data, indices, indptr = _memo(("poisson", M_POISSON), lambda: _poisson_csr(M_POISSON))
    b = d.host_custom("pois_b", _poisson_b)
    r = b - np.add.reduceat(data * x[indices], indptr[:-1])
    return bool(np.isfinite(r).all() and np.linalg.norm(r) < 0.5 * np.linalg.norm(b))


gpu_case("cg_poisson2d_2048^2_100it", _cg_setup, nbytes=None, target=RatioAtLeast(1.0), group="sparse",
         requires=("x.scipy.sparse.csr_matrix", "x.scipy.sparse.linalg.cg"), check=_cg_check, repeats=10, warmup=2,
         note="float64, 5-point Laplacian (21M entries), rtol=0, atol=0, maxiter=100 vs cupyx cg")


# -- issue 7: FFT ---------------------------------------------------------------------------
group("fft")
N_FFT2 = 4096


def _fft_in(shape, dt):
    n = int(np.prod(shape))
    return lambda d: d.rand(n, dt).reshape(shape)


_FFT_CASES = [  # name, function, input shape, input dtype, bytes moved, NumPy reference
    ("fft_c64_2^24", "fft", (N24,), np.complex64, 2 * N24 * 8, lambda h: np.fft.fft(h)),
    ("fft2_c64_4096^2", "fft2", (N_FFT2, N_FFT2), np.complex64, 2 * N_FFT2 ** 2 * 8, lambda h: np.fft.fft2(h)),
    ("rfft_f32_4096x4096", "rfft", (N_FFT2, N_FFT2), np.float32, N_FFT2 ** 2 * 4 + N_FFT2 * (N_FFT2 // 2 + 1) * 8,
     lambda h: np.fft.rfft(h)),
]


def _fft_setup(fn, shape, dt, cold):
    def setup(xp, d):
        x = _fft_in(shape, dt)(d)
        f = _lookup(xp, "fft." + fn)
        if not cold:
            return functools.partial(f, x)
        cache = xp.fft.config.get_plan_cache()

        def run():
            cache.clear()  # every call plans again, in both libraries
            return f(x)
        return run
    return setup


for _name, _fn, _shape, _dt, _bytes, _ref in _FFT_CASES:
    _n = int(np.prod(_shape))
    _check = _rel_l2_to((lambda n, shape, dt, ref: lambda d: ref(d.host(n, dt).reshape(shape).astype(
        np.complex128 if np.dtype(dt).kind == "c" else np.float64)))(_n, _shape, _dt, _ref), _name, 1e-5)
    gpu_case(_name, _fft_setup(_fn, _shape, _dt, False), nbytes=_bytes, target=RatioAtLeast(0.97),
             requires=("fft." + _fn,), check=_check)
    gpu_case(_name + "_cold", _fft_setup(_fn, _shape, _dt, True), nbytes=_bytes, target=NoTarget(),
             requires=("fft." + _fn, "fft.config.get_plan_cache"), check=_check, repeats=10,
             note="plan cache cleared before every call (planning included; reported only)")
host_case("small_fft_1024", "xp.fft.fft(a)", lambda xp, d: {"a": d.rand(1024, np.complex64)},
          target=TimeAtMost(0.6), requires=("fft.fft",))

# -- issue 8: random numbers (2^27 float32 / int32) ------------------------------------------


def _gen_setup(method, *args, **kw):
    def setup(xp, d):
        rng = xp.random.default_rng(1234)
        return functools.partial(getattr(rng, method), *args, **kw)
    return setup


def _sample_check(kind):
    def check(out, d, lib):
        s = lib.to_numpy(out[: 1 << 22]).astype(np.float64)
        if out.shape != (N27,):
            return False
        if kind == "uniform":
            return bool(out.dtype == np.float32 and s.min() >= 0 and s.max() < 1 and abs(s.mean() - 0.5) < 0.01)
        if kind == "normal":
            return bool(out.dtype == np.float32 and abs(s.mean()) < 0.01 and abs(s.std() - 1) < 0.01)
        return bool(out.dtype == np.int32 and s.min() >= 0 and s.max() < (1 << 20)
                    and abs(s.mean() / (1 << 20) - 0.5) < 0.01)
    return check


group("random")
gpu_case("gen_random_f32", _gen_setup("random", N27, dtype=np.float32), nbytes=N27 * 4, target=RatioAtLeast(1.0),
         requires=("random.default_rng",), check=_sample_check("uniform"),
         note="Generator.random(dtype=float32) in both libraries")
gpu_case("gen_random_f32_vs_legacy", nbytes=N27 * 4, target=RatioAtLeast(4.0), requires=("random.default_rng",),
         cunp=_gen_setup("random", N27, dtype=np.float32),
         cupy=lambda xp, d: functools.partial(xp.random.rand, N27, dtype=np.float32),
         check=_sample_check("uniform"), note="cunp Generator.random vs CuPy's legacy rand(dtype=float32)")
gpu_case("gen_normal_f32", _gen_setup("standard_normal", N27, dtype=np.float32), nbytes=N27 * 4,
         target=RatioAtLeast(1.0), requires=("random.default_rng",), check=_sample_check("normal"),
         note="Generator.standard_normal(dtype=float32) in both libraries")
gpu_case("gen_normal_f32_vs_legacy", nbytes=N27 * 4, target=RatioAtLeast(4.0), requires=("random.default_rng",),
         cunp=_gen_setup("standard_normal", N27, dtype=np.float32),
         cupy=lambda xp, d: functools.partial(xp.random.randn, N27, dtype=np.float32),
         check=_sample_check("normal"), note="cunp Generator.standard_normal vs CuPy's legacy randn(dtype=float32)")
gpu_case("gen_integers_i32", _gen_setup("integers", 0, 1 << 20, size=N27, dtype=np.int32), nbytes=N27 * 4,
         target=RatioAtLeast(1.0), requires=("random.default_rng",), check=_sample_check("integers"),
         note="Generator.integers(0, 2**20, dtype=int32)")

# -- issue 9: sorting, searching, sets ----------------------------------------------------------
group("sort")


def _sorted_check(out, d, lib):
    got = lib.to_numpy(out)
    h = d.host(N26)
    total = _memo("sum26", lambda: h.sum(dtype=np.float64))
    return bool(got.shape == (N26,) and np.all(got[1:] >= got[:-1]) and got[0] == h.min() and
                np.isclose(got.sum(dtype=np.float64), total, rtol=1e-12))


def _argsorted_check(out, d, lib):
    idx = lib.to_numpy(out)
    if idx.shape != (N26,) or idx.dtype.kind not in "iu":
        return False
    v = d.host(N26)[idx]
    return bool(np.all(v[1:] >= v[:-1]) and idx.astype(np.int64).sum() == N26 * (N26 - 1) // 2)


def _rows_sorted_check(out, d, lib):
    got = lib.to_numpy(out)
    h = d.host(N26, seed=1).reshape(65536, 1024)
    sums = _memo("rowsums", lambda: h.sum(axis=1, dtype=np.float64))
    return bool(got.shape == h.shape and np.all(got[:, 1:] >= got[:, :-1]) and
                np.allclose(got.sum(axis=1, dtype=np.float64), sums, rtol=1e-12))


_UNIQ = _host_ints(N24, 1 << 20, np.int32, 2)


def _sorted_haystack():
    steps = np.random.default_rng(99).random(N26) + 0.5
    return np.cumsum(steps).astype(np.float32)  # non-decreasing (repeats allowed)


def _needles():
    return (np.random.default_rng(98).random(N24) * (0.75 * N26)).astype(np.float32)


def _searchsorted_check(out, d, lib):
    got = lib.to_numpy(out[:65536])
    exp = _memo("ss", lambda: np.searchsorted(d.host_custom("hay", _sorted_haystack),
                                              d.host_custom("needles", _needles)[:65536]))
    return bool(out.shape == (N24,) and np.array_equal(got, exp))


gpu_case("sort_f32_2^26", lambda xp, d: functools.partial(xp.sort, d.rand(N26)), nbytes=2 * N26 * 4,
         target=RatioAtLeast(1.0), requires=("sort",), check=_sorted_check)
gpu_case("argsort_f32_2^26", lambda xp, d: functools.partial(xp.argsort, d.rand(N26)), nbytes=N26 * (4 + 8),
         target=RatioAtLeast(1.0), requires=("argsort",), check=_argsorted_check)
gpu_case("sort_rows_65536x1024",
         lambda xp, d: functools.partial(xp.sort, d.rand(N26, seed=1).reshape(65536, 1024), axis=-1),
         nbytes=2 * N26 * 4, target=RatioAtLeast(1.0), requires=("sort",), check=_rows_sorted_check,
         note="float32, sorted along the last axis")
gpu_case("unique_i32_2^24", lambda xp, d: functools.partial(xp.unique, d.custom("uniq", _UNIQ)), nbytes=N24 * 4,
         target=RatioAtLeast(1.0), requires=("unique",),
         check=_equal_to(lambda d: _memo("uniq", lambda: np.unique(d.host_custom("uniq", _UNIQ)))),
         note="2^24 int32 values in [0, 2^20)")
gpu_case("searchsorted_2^24_in_2^26",
         lambda xp, d: functools.partial(xp.searchsorted, d.custom("hay", _sorted_haystack),
                                         d.custom("needles", _needles)),
         nbytes=N24 * (4 + 8), target=RatioAtLeast(1.0), requires=("searchsorted",), check=_searchsorted_check,
         note="float32 queries into sorted float32 values")
group("namespace")


def _interp_grid():
    return np.sort(np.random.default_rng(7).random(N20)).astype(np.float32)


def _interp(xp, d):
    return functools.partial(xp.interp, d.rand(N24, seed=3), d.custom("igrid", _interp_grid), d.rand(N20, seed=4))


def _poly16(xp, d):
    return functools.partial(xp.polyval, d.custom("p16", lambda: (np.arange(17, dtype=np.float32) - 8) / 8),
                             d.rand(N27))


gpu_case("interp_2^24_into_2^20", _interp, nbytes=N24 * 8 + N20 * 8, target=RatioAtLeast(1.0),
         requires=("interp",), check=_close_to(lambda d: np.interp(d.host(N24, seed=3), d.host_custom(
             "igrid", _interp_grid), d.host(N20, seed=4)), rtol=1e-5, atol=1e-5), note="float32")
gpu_case("gradient_8192x8192", lambda xp, d: functools.partial(xp.gradient, d.rand(N26).reshape(8192, 8192)),
         nbytes=3 * N26 * 4, target=RatioAtLeast(1.0), requires=("gradient",), note="float32, both axes")
gpu_case("histogram2d_2^24_256x256",
         lambda xp, d: functools.partial(xp.histogram2d, d.rand(N24, seed=5), d.rand(N24, seed=6), bins=256),
         nbytes=N24 * 8, target=RatioAtLeast(1.0), requires=("histogram2d",), note="float32 points in [0, 1)")
gpu_case("polyval_deg16_2^27", _poly16, nbytes=2 * N27 * 4, target=RatioAtLeast(1.0), requires=("polyval",),
         check=_close_to(lambda d: np.polyval((np.arange(17, dtype=np.float32) - 8) / 8, d.host(N27)),
                         rtol=1e-4, atol=1e-4), note="float32 points, float32 coefficients")
gpu_case("convolve_2^20_by_2^10",
         lambda xp, d: functools.partial(xp.convolve, d.rand(N20, seed=8), d.rand(1024, seed=9)),
         nbytes=(N20 + 1024) * 4 * 2, target=RatioAtLeast(1.0), requires=("convolve",), note="float32, mode full")


def _profiler_agreement(ctx):
    """cunpx.profiler.benchmark's GPU time of `a + b` against CUDA-event timing of the
    same call (median of each); the row is their ratio, target within 2%."""
    import cunp
    import cunpx.profiler
    if ctx.libs["cunp"].xp is None or not cunp.cuda.is_available():
        return {}
    a = cunp.asarray(host_random(N26))
    b = cunp.asarray(host_random(N26, seed=1))
    res = cunpx.profiler.benchmark(cunp.add, (a, b), n_repeat=100, n_warmup=10)
    profiled = float(np.median(res.gpu_times[0])) * 1e3
    start, end = cunp.cuda.Event(), cunp.cuda.Event()
    times = []
    for _ in range(100):
        start.record()
        cunp.add(a, b)
        end.record()
        end.synchronize()
        times.append(cunp.cuda.get_elapsed_time(start, end))
    return {"cunp": profiled / float(np.median(times)), "cupy": None}


class _WithinOf(Target):
    def __init__(self, frac):
        self.frac = frac
        self.text = "within %g%% of 1" % (100 * frac)

    def evaluate(self, res, results):
        if res.get("cunp") is None:
            return None, ""
        return abs(res["cunp"] - 1) <= self.frac, ""


special_case("profiler_benchmark_vs_events", _profiler_agreement, unit="ratio", target=_WithinOf(0.02),
             gpu_only=True, note="cunpx.profiler.benchmark median GPU time of a + b (2^26 float32) / CUDA-event median")

# -- issue 22: scipy.signal (cunpx.scipy.signal against cupyx.scipy.signal) -------------------
group("signal")
N_WELCH_SEG = 1024


def _signal_module(xp):
    """cunpx.scipy.signal beside cunp, cupyx.scipy.signal beside cupy."""
    if xp.__name__ == "cunp":
        import cunpx.scipy.signal as sig
    else:
        import cupyx.scipy.signal as sig
    return sig


def _welch_reference(h):
    """Welch's PSD of h (Hann periodic, nperseg 1024, 50% overlap, constant detrend,
    density scaling, fs 1) in float64 with NumPy, 4096 segments at a time."""
    n, step = N_WELCH_SEG, N_WELCH_SEG // 2
    w = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)
    nseg = (h.shape[0] - n) // step + 1
    frames = np.lib.stride_tricks.sliding_window_view(h, n)[::step]
    acc = np.zeros(n // 2 + 1)
    for s in range(0, nseg, 4096):
        seg = frames[s:s + 4096].astype(np.float64)
        seg = (seg - seg.mean(axis=1, keepdims=True)) * w
        spec = np.fft.rfft(seg, axis=1)
        acc += (spec.real ** 2 + spec.imag ** 2).sum(axis=0)
    psd = acc / nseg / (w * w).sum()
    psd[1:-1] *= 2
    return psd


def _welch_check(out, d, lib):
    _, pxx = out
    got = lib.to_numpy(pxx).astype(np.float64)
    exp = _memo("welch26", lambda: _welch_reference(d.host(N26)))
    return bool(got.shape == exp.shape and np.linalg.norm(got - exp) <= 1e-4 * np.linalg.norm(exp))


gpu_case("welch_f32_2^26", lambda xp, d: functools.partial(_signal_module(xp).welch, d.rand(N26),
                                                           nperseg=N_WELCH_SEG),
         nbytes=N26 * 4, target=RatioAtLeast(1.0), check=_welch_check,
         note="nperseg 1024, Hann, 50% overlap: strided segments, detrend, one batched rfft, mean")


# -- issue 22: scipy.signal's filtering half (convolution, linear filters), same group ------
N16 = 1 << 16


def _biquads(sections):
    """A stable filter of `sections` second-order sections (poles of radius 0.5..0.8)."""
    rows = []
    for k in range(sections):
        r, w = 0.5 + 0.3 * k / max(1, sections - 1), 0.3 + 0.6 * k
        rows.append([0.2, 0.3, 0.1, 1.0, -2.0 * r * np.cos(w), r * r])
    return np.array(rows)


def _ba_of(sos):
    b, a = np.array([1.0]), np.array([1.0])
    for row in sos:
        b, a = np.convolve(b, row[:3]), np.convolve(a, row[3:])
    return b, a


_SOS4 = _biquads(4)
_B8, _A8 = _ba_of(_SOS4)  # order 8


def _scipy_ref(fn):
    """A float64 SciPy reference for a check (None: SciPy is not installed, not checked)."""
    def ref(d):
        try:
            import scipy.signal as ss
        except ImportError:
            return None
        return fn(ss, d)
    return ref


def _signal_check(key, ref, tol):
    def check(out, d, lib):
        exp = _memo(key, lambda: ref(d))
        if exp is None:
            return True
        got = lib.to_numpy(out).astype(np.float64)
        return bool(got.shape == exp.shape and np.linalg.norm(got - exp) <= tol * np.linalg.norm(exp))
    return check


def _sig_setup(make):
    def setup(xp, d):
        return make(_signal_module(xp), xp, d)
    return setup


for _n1, _n2 in ((N24, N16), (N16, N16)):
    _name = "fftconvolve_f32_2^%dx2^%d" % (_n1.bit_length() - 1, _n2.bit_length() - 1)
    gpu_case(_name, _sig_setup(lambda sig, xp, d, n1=_n1, n2=_n2: functools.partial(
                 sig.fftconvolve, d.rand(n1, seed=3), d.rand(n2, seed=4))),
             nbytes=(_n1 + _n2 + _n1 + _n2 - 1) * 4, target=RatioAtLeast(1.0),
             check=_signal_check(_name, _scipy_ref(lambda ss, d, n1=_n1, n2=_n2: ss.fftconvolve(
                 d.host(n1, seed=3).astype(np.float64), d.host(n2, seed=4).astype(np.float64))), 1e-4),
             note="full mode, float32 (cuFFT R2C/C2R of next_fast_len)")
gpu_case("convolve2d_f32_4096^2_9x9", _sig_setup(lambda sig, xp, d: functools.partial(
             sig.convolve2d, d.rand(4096 * 4096, seed=5).reshape(4096, 4096), d.rand(81, seed=6).reshape(9, 9),
             mode="same")),
         nbytes=2 * 4096 * 4096 * 4, target=RatioAtLeast(1.0),
         check=_signal_check("convolve2d_9x9", _scipy_ref(lambda ss, d: ss.convolve2d(
             d.host(4096 * 4096, seed=5).reshape(4096, 4096).astype(np.float64),
             d.host(81, seed=6).reshape(9, 9).astype(np.float64), mode="same")), 1e-5),
         note="direct method, mode='same', boundary='fill'")
gpu_case("lfilter_f32_2^24_order8", _sig_setup(lambda sig, xp, d: functools.partial(
             sig.lfilter, xp.asarray(_B8.astype(np.float32)), xp.asarray(_A8.astype(np.float32)),
             d.rand(N24, seed=7))),
         nbytes=2 * N24 * 4, target=RatioAtLeast(1.0),
         check=_signal_check("lfilter8", _scipy_ref(lambda ss, d: ss.lfilter(
             _B8.astype(np.float32).astype(np.float64), _A8.astype(np.float32).astype(np.float64),
             d.host(N24, seed=7).astype(np.float64))), 1e-4),
         note="one lane of 2^24 samples, an order-8 IIR filter; cunp scans over time in blocks "
              "(Note [Blocked IIR scan]); expect >=5x where CuPy filters sequentially")
gpu_case("sosfilt_f32_2^24_4sections", _sig_setup(lambda sig, xp, d: functools.partial(
             sig.sosfilt, xp.asarray(_SOS4.astype(np.float32)), d.rand(N24, seed=8))),
         nbytes=2 * N24 * 4, target=RatioAtLeast(1.0), requires=(),
         check=_signal_check("sosfilt4", _scipy_ref(lambda ss, d: ss.sosfilt(
             _SOS4.astype(np.float32).astype(np.float64), d.host(N24, seed=8).astype(np.float64))), 1e-4),
         note="one lane of 2^24 samples, 4 second-order sections")




# -- issue 22: scipy.special ufuncs on 2^27 float32 (cunpx against cupyx.scipy.special) ------
group("special")
N_SPECIAL_CHECK = 1 << 20   # the leading elements compared with SciPy in float64


def _special_fn(xp, name):
    if xp.__name__ == "cunp":
        import cunpx.scipy.special as sc
    else:
        import cupyx.scipy.special as sc
    return getattr(sc, name)


def _special_input(scale):
    return host_random(N27, np.float32, 9) * np.float32(scale)


def _special_check(name, scale):
    def check(out, d, lib):
        try:
            import scipy.special as ss
        except ImportError:
            return True
        x = d.host_custom(("special_in", scale), lambda: _special_input(scale))[:N_SPECIAL_CHECK]
        exp = getattr(ss, name)(x.astype(np.float64))
        got = lib.to_numpy(out[:N_SPECIAL_CHECK]).astype(np.float64)
        return bool(np.allclose(got, exp, rtol=1e-5, atol=1e-6, equal_nan=True))
    return check


# (name, input scale): erf on [0, 4), gammaln on [0, 50), j0 on [0, 50), i0e on [0, 50)
for _fn, _scale in (("erf", 4.0), ("gammaln", 50.0), ("j0", 50.0), ("i0e", 50.0)):
    gpu_case("special_%s_f32" % _fn,
             lambda xp, d, fn=_fn, scale=_scale: functools.partial(
                 _special_fn(xp, fn), d.custom(("special_in", scale), lambda scale=scale: _special_input(scale))),
             nbytes=2 * 4 * N27, target=RatioAtLeast(1.5), check=_special_check(_fn, _scale),
             note="%s of 2^27 float32; GB/s against copy_512MiB tells memory- from compute-bound" % _fn)


# -- issue 21: sparse matrices (cunpx.scipy.sparse against cupyx.scipy.sparse) --------
group("sparse")
SP_ROWS, SP_PER_ROW = 1 << 24, 8           # SpMV, conversions: 2^27 nonzeros
SPMM_ROWS, SPMM_RHS = 1 << 22, 64          # SpMM: 2^25 nonzeros times 64 columns
SPGEMM_ROWS, SPGEMM_PER_ROW = 1 << 20, 16  # SpGEMM A @ A


def _host_csr(rows, per_row, seed):
    """A square CSR with per_row distinct, sorted random columns in every row (canonical),
    float32 values away from zero: (data, indices, indptr) on the host."""
    def make():
        rng = np.random.default_rng(300 + seed)
        cols = np.sort(rng.integers(0, rows - per_row, size=(rows, per_row), dtype=np.int32), axis=1)
        cols += np.arange(per_row, dtype=np.int32)  # strictly increasing, < rows
        data = rng.random(rows * per_row, dtype=np.float32) + np.float32(0.5)
        indptr = np.arange(0, rows * per_row + 1, per_row, dtype=np.int32)
        return data, cols.reshape(-1), indptr
    return make


_SPMV = _host_csr(SP_ROWS, SP_PER_ROW, 0)
_SPMM = _host_csr(SPMM_ROWS, SP_PER_ROW, 1)
_SPGEMM = _host_csr(SPGEMM_ROWS, SPGEMM_PER_ROW, 2)


def _host_coo():
    """The entries of _SPMV in a random order (no duplicates): (data, row, col)."""
    data, indices, _ = _memo_host("spmv", _SPMV)
    perm = np.random.default_rng(310).permutation(data.size)
    rows = np.repeat(np.arange(SP_ROWS, dtype=np.int32), SP_PER_ROW)
    return data[perm], rows[perm], indices[perm]


def _memo_host(key, make):
    return _memo(("sparse-host", key), make)


class _CoreCsr:
    """A bench-only stand-in for cunpx.scipy.sparse.csr_matrix over cunp._core's sparse
    primitives, used while cunpx.scipy.sparse is not importable."""

    def __init__(self, arg, shape):
        import cunp
        self._core = cunp._core
        self.data, self.indices, self.indptr = arg
        self.shape = tuple(shape)

    def _args(self):
        return self.data, self.indices, self.indptr, self.shape

    def __matmul__(self, other):
        if isinstance(other, _CoreCsr):
            t = self._core._sparse_csr_matmul(*self._args(), *other._args())
            return _CoreCsr(t, (self.shape[0], other.shape[1]))
        if other.ndim == 1:
            return self._core._sparse_csr_matvec(*self._args(), other)
        return self._core._sparse_csr_matmat(*self._args(), other)

    def tocsc(self):
        return _CoreCsr(self._core._sparse_csr_to_csc(*self._args()), self.shape[::-1])


class _CoreCoo:
    def __init__(self, arg, shape):
        import cunp
        self._core = cunp._core
        self.data, (self.row, self.col) = arg
        self.shape = tuple(shape)

    def tocsr(self):
        return _CoreCsr(self._core._sparse_coo_to_csr(self.data, self.row, self.col, self.shape), self.shape)


class _CoreSparse:
    csr_matrix = _CoreCsr
    coo_matrix = _CoreCoo


def _sparse_module(xp):
    """cupyx.scipy.sparse for CuPy; cunpx.scipy.sparse for cunp (the primitives' stand-in
    until that package exists)."""
    if xp.__name__.startswith("cupy"):
        import cupyx.scipy.sparse
        return cupyx.scipy.sparse
    try:
        import cunpx.scipy.sparse as s
        if hasattr(s, "csr_matrix"):
            return s
    except ImportError:
        pass
    if not hasattr(xp, "_core") or not hasattr(xp._core, "_sparse_csr_matvec"):
        raise Missing("cunpx.scipy.sparse")
    return _CoreSparse


def _device_csr(xp, d, key, make, rows):
    sps = _sparse_module(xp)
    data, indices, indptr = (d.custom((key, k), (lambda k=k: _memo_host(key, make)[k])) for k in range(3))
    return sps.csr_matrix((data, indices, indptr), shape=(rows, rows))


def _spmv_setup(xp, d):
    a = _device_csr(xp, d, "spmv", _SPMV, SP_ROWS)
    x = d.rand(SP_ROWS, seed=7)
    return lambda: a @ x


def _spmv_check(out, d, lib):
    data, indices, _ = _memo_host("spmv", _SPMV)
    k = min(4096, SP_ROWS)
    x = d.host(SP_ROWS, seed=7)
    exp = (data[:k * SP_PER_ROW].astype(np.float64) * x[indices[:k * SP_PER_ROW]]).reshape(k, SP_PER_ROW).sum(1)
    got = lib.to_numpy(out[:k])
    return bool(out.shape == (SP_ROWS,) and np.allclose(got, exp, rtol=1e-5))


def _spmm_setup(xp, d):
    a = _device_csr(xp, d, "spmm", _SPMM, SPMM_ROWS)
    b = xp.asfortranarray(d.rand(SPMM_ROWS * SPMM_RHS, seed=8).reshape(SPMM_ROWS, SPMM_RHS))
    return lambda: a @ b


def _spmm_check(out, d, lib):
    data, indices, _ = _memo_host("spmm", _SPMM)
    k = min(256, SPMM_ROWS)
    b = d.host(SPMM_ROWS * SPMM_RHS, seed=8).reshape(SPMM_ROWS, SPMM_RHS)
    w = data[:k * SP_PER_ROW].astype(np.float64).reshape(k, SP_PER_ROW, 1)
    exp = (w * b[indices[:k * SP_PER_ROW]].reshape(k, SP_PER_ROW, SPMM_RHS)).sum(1)
    got = lib.to_numpy(out[:k])
    return bool(out.shape == (SPMM_ROWS, SPMM_RHS) and np.allclose(got, exp, rtol=1e-5))


def _spgemm_setup(xp, d):
    a = _device_csr(xp, d, "spgemm", _SPGEMM, SPGEMM_ROWS)
    return lambda: a @ a


def _spgemm_check(out, d, lib):
    data, indices, indptr = _memo_host("spgemm", _SPGEMM)
    got_ptr = lib.to_numpy(out.indptr[:9]).astype(np.int64)
    got_idx = lib.to_numpy(out.indices[:int(got_ptr[-1])])
    got_val = lib.to_numpy(out.data[:int(got_ptr[-1])])
    for i in range(8):  # rows 0..7 against a dense accumulation on the host
        acc = {}
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            for q in range(indptr[j], indptr[j + 1]):
                acc[indices[q]] = acc.get(indices[q], 0.0) + float(data[p]) * float(data[q])
        cols = got_idx[got_ptr[i]:got_ptr[i + 1]]
        vals = got_val[got_ptr[i]:got_ptr[i + 1]]
        if sorted(acc) != sorted(int(c) for c in cols):
            return False
        if not all(np.isclose(v, acc[int(c)], rtol=1e-5) for c, v in zip(cols, vals)):
            return False
    return True


def _csc_indptr():
    _, indices, _ = _memo_host("spmv", _SPMV)
    return np.concatenate([[0], np.cumsum(np.bincount(indices, minlength=SP_ROWS))])


def _tocsc_setup(xp, d):
    a = _device_csr(xp, d, "spmv", _SPMV, SP_ROWS)
    return a.tocsc


def _tocsc_check(out, d, lib):
    exp = _memo_host("csc_indptr", _csc_indptr)
    return bool(np.array_equal(lib.to_numpy(out.indptr).astype(np.int64), exp))


def _tocsr_setup(xp, d):
    sps = _sparse_module(xp)
    data, row, col = (d.custom(("coo", k), (lambda k=k: _memo_host("coo", _host_coo)[k])) for k in range(3))
    coo = sps.coo_matrix((data, (row, col)), shape=(SP_ROWS, SP_ROWS))
    return coo.tocsr


def _tocsr_check(out, d, lib):
    data, indices, indptr = _memo_host("spmv", _SPMV)
    n = 1 << 16
    return bool(np.array_equal(lib.to_numpy(out.indptr).astype(np.int64), indptr) and
                np.array_equal(lib.to_numpy(out.indices[:n]), indices[:n]) and
                np.array_equal(lib.to_numpy(out.data[:n]), data[:n]))


_SPMV_BYTES = SP_ROWS * SP_PER_ROW * 8 + (SP_ROWS + 1) * 4 + 2 * SP_ROWS * 4
gpu_case("spmv_csr_f32_2^24x2^24_nnz2^27", _spmv_setup, nbytes=_SPMV_BYTES, target=RatioAtLeast(1.0),
         check=_spmv_check, note="8 sorted random columns per row; cuSPARSE SpMV in both")
gpu_case("spmm_csr_f32_2^22_nnz2^25_x64", _spmm_setup,
         nbytes=SPMM_ROWS * SP_PER_ROW * 8 + 2 * SPMM_ROWS * SPMM_RHS * 4, flops=2 * SPMM_ROWS * SP_PER_ROW * SPMM_RHS,
         target=RatioAtLeast(1.0), check=_spmm_check, note="F-ordered dense operand (no copy in either library)")
gpu_case("spgemm_csr_f32_2^20_16perrow_AxA", _spgemm_setup, target=RatioAtLeast(1.0), check=_spgemm_check,
         repeats=10, note="A @ A, canonical A; cuSPARSE SpGEMM in both")
gpu_case("csr_to_csc_f32_nnz2^27", _tocsc_setup, nbytes=2 * SP_ROWS * SP_PER_ROW * 8 + 2 * (SP_ROWS + 1) * 4,
         target=RatioAtLeast(1.2), check=_tocsc_check)
gpu_case("coo_to_csr_f32_nnz2^27", _tocsr_setup, nbytes=SP_ROWS * SP_PER_ROW * (12 + 8) + (SP_ROWS + 1) * 4,
         target=RatioAtLeast(1.2), check=_tocsr_check, note="entries in random order, no duplicates")
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


def _counts(case, ctx):
    """(warm-up calls, timed repeats) of a case: the run's, capped by the case's own."""
    warmup, repeats = ctx.warmup, ctx.repeats
    if case is not None and case.warmup is not None:
        warmup = min(warmup, case.warmup)
    if case is not None and case.repeats is not None and not ctx.args.repeats:
        repeats = min(repeats, case.repeats)
    return warmup, repeats


def _time_gpu(lib, fn, ctx, case=None):
    """Median CUDA-event time (ms) of fn() after warm-up; also min/max."""
    warmup, repeats = _counts(case, ctx)
    for _ in range(warmup):
        out = fn()
        del out
    lib.sync()
    times = []
    for _ in range(repeats):
        start, end = lib.event(), lib.event()
        start.record()
        out = fn()
        end.record()
        end.synchronize()
        times.append(lib.elapsed_ms(start, end))
        del out
    return times


def _time_host_clock(lib, fn, ctx, case=None):
    """NumPy: host clock (nothing is asynchronous)."""
    fn()
    times = []
    for _ in range(max(3, _counts(case, ctx)[1] // 4)):
        t0 = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t0) * 1e3)
        del out
    return times


def _check_requires(case, lib):
    missing = _missing_names(lib.xp, case.requires)
    if not missing:
        return
    if lib.name == "cunp":
        raise Missing("cunp has no " + ", ".join(missing))
    raise Skip("%s has no %s" % (lib.name, ", ".join(missing)))


def _first_call(lib, setup, d):
    """setup() and the first call; a cunp function that does not exist (AttributeError on
    the module or a submodule) or is not implemented here becomes Missing."""
    try:
        fn = setup(lib.xp, d)
        return fn, fn()
    except NotImplementedError as e:
        if lib.name == "cunp":
            raise Missing("NotImplementedError: %s" % e) from e
        raise
    except AttributeError as e:
        if lib.name == "cunp" and "module" in str(e):
            raise Missing("AttributeError: %s" % e) from e
        raise


def run_gpu_case(case, lib, ctx):
    setup = case.kw["setups"].get(lib.name)
    if setup is None:
        raise Skip("no %s version" % lib.name)
    if lib.name != "numpy" and not lib.gpu and case.kw["gpu_only"]:
        raise Skip("no GPU")
    _check_requires(case, lib)
    d = ctx.data[lib.name]
    fn, out = _first_call(lib, setup, d)  # first call: compilation, allocation; its result is checked
    lib.sync()
    check = case.kw.get("check")
    checked = None
    if check is not None and not ctx.args.no_check:
        checked = bool(check(out, d, lib))
    del out
    host_clock = lib.name == "numpy" or not lib.gpu  # (cunp on its cpu device: nothing asynchronous)
    times = _time_host_clock(lib, fn, ctx, case) if host_clock else _time_gpu(lib, fn, ctx, case)
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
    _check_requires(case, lib)
    d = ctx.data[lib.name]
    ns = {"xp": lib.xp, "np": np, "f32": np.float32}
    if case.kw.get("setup") is not None:
        ns.update(case.kw["setup"](lib.xp, d))
    lib.sync()
    exec(compile(_compile_loop(case.kw["stmt"]), "<bench %s>" % case.name, "exec"), ns)  # noqa: S102
    loop = ns["_loop"]
    n = ctx.calls
    try:
        loop(min(n, 1000))
    except NotImplementedError as e:
        if lib.name == "cunp":
            raise Missing("NotImplementedError: %s" % e) from e
        raise
    except AttributeError as e:
        if lib.name == "cunp" and "module" in str(e):
            raise Missing("AttributeError: %s" % e) from e
        raise
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
        except Missing as e:
            res["missing"] = str(e)
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
    res["group"] = case.group
    res["gbps"] = _gbps(nbytes, cu) if case.unit == "ms" else None
    res["cupy_gbps"] = _gbps(nbytes, cp_) if case.unit == "ms" else None
    res["tflops"] = case.flops / (cu * 1e-3) / 1e12 if (case.flops and cu and case.unit == "ms") else None
    res["cupy_tflops"] = case.flops / (cp_ * 1e-3) / 1e12 if (case.flops and cp_ and case.unit == "ms") else None
    res["target"] = case.target.text
    passed, detail = case.target.evaluate(res, results)
    if res.get("missing"):
        passed, status = None, "missing"
    elif res["errors"].get("cunp"):
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
    if name == "cunp" and res.get("missing"):
        return "missing"
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
        rate = "-"
        if r.get("gbps"):
            rate = "%.1f" % r["gbps"]
        elif r.get("tflops"):
            rate = "%.2f TF/s" % r["tflops"]
        row += ["%.2f" % r["ratio"] if r.get("ratio") else "-", rate,
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


def _groups():
    seen = []
    for c in CASES:
        if c.group not in seen:
            seen.append(c.group)
    return seen


def _selected(case, only, filters):
    if filters and not any(f in case.name for f in filters):
        return False
    if only and not any(rx.search(case.name) or rx.fullmatch(case.group) for rx in only):
        return False
    return True


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="ratio = cupy time / cunp time (>1: cunp faster). Groups: " +
                                       ", ".join(_groups()) + ". --list prints every case and its target.")
    p.add_argument("--quick", action="store_true", help="fewer repeats and calls; skip slow cases")
    p.add_argument("--only", action="append", default=[], metavar="REGEX",
                   help="run only cases whose name matches REGEX (re.search) or whose group is REGEX "
                        "(re.fullmatch), e.g. --only 'fft|sort' or --only '^matmul_' (repeatable)")
    p.add_argument("--filter", action="append", default=[], metavar="SUB",
                   help="run only cases whose name contains SUB (repeatable)")
    p.add_argument("--json", metavar="PATH", help="write the results as JSON to PATH")
    p.add_argument("--cpp-bench", metavar="PATH", help="run the C++ host-overhead program and merge its rows")
    p.add_argument("--numpy", action="store_true", help="also time NumPy (adds a column)")
    p.add_argument("--no-cupy", action="store_true", help="do not import CuPy")
    p.add_argument("--repeats", type=int, default=0, help="timed repeats of each GPU case (default 20; quick 7)")
    p.add_argument("--calls", type=int, default=0, help="calls per host-overhead loop (default 20000; quick 5000)")
    p.add_argument("--no-check", action="store_true", help="skip checking each library's first result")
    p.add_argument("--list", action="store_true", help="list the (selected) cases, groups and targets and exit")
    p.add_argument("--fail-on-target", action="store_true", help="exit 1 when a target is missed")
    p.add_argument("--require-gpu", action="store_true", help="exit 1 when cunp sees no GPU")
    p.add_argument("-v", "--verbose", action="store_true", help="print tracebacks of failing cases")
    args = p.parse_args(argv)
    try:
        only = [re.compile(rx) for rx in args.only]
    except re.error as e:
        p.error("--only: bad regular expression: %s" % e)

    selected = [c for c in CASES if _selected(c, only, args.filter)]
    if args.list:
        print("%-28s %-11s %-7s %-4s %-18s %s" % ("case", "group", "kind", "unit", "target", "note"))
        for c in selected:
            if args.quick and c.slow:
                continue
            print("%-28s %-11s %-7s %-4s %-18s %s" % (c.name, c.group, c.kind, c.unit, c.target.text, c.note))
        return 0

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
        if res.get("missing"):
            print("      cunp missing: %s" % res["missing"], flush=True)
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
            if (args.filter and not any(f in name for f in args.filter)) or \
                    (only and not any(rx.search(name) for rx in only)):
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

    cunp_errors = [r["name"] for r in ordered if r["errors"].get("cunp") and not r.get("missing")]
    missed = [r["name"] for r in ordered if r.get("passed") is False]
    missing = [r["name"] for r in ordered if r.get("missing")]

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
    if missing:
        print("missing in cunp (not counted as errors): " + ", ".join(missing))
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

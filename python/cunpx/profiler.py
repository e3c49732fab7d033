"""cunpx.profiler: ``benchmark`` times a function on the host and on every GPU it runs
on (cupyx.profiler.benchmark's API and result)."""
import math
import time

import numpy as _numpy

import cunp as _cunp


class _PerfCaseResult:
    """The timings of one benchmark: ``cpu_times`` (seconds, one per repeat) and
    ``gpu_times`` (seconds, one row per device)."""

    def __init__(self, name, ts, devices):
        self.name = name
        self._ts = ts
        self._devices = tuple(devices)

    @property
    def cpu_times(self):
        return self._ts[0]

    @property
    def gpu_times(self):
        return self._ts[1:]

    @staticmethod
    def _to_str_per_item(device_name, t):
        t_us = t * 1e6
        s = "    %s: %9.3f us" % (device_name, t_us.mean())
        if t.size > 1:
            s += "   +/- %6.3f (min: %9.3f / max: %9.3f) us" % (t_us.std(), t_us.min(), t_us.max())
        return s

    def to_str(self, show_gpu=False):
        results = [self._to_str_per_item("CPU", self._ts[0])]
        if show_gpu:
            for i, d in enumerate(self._devices):
                results.append(self._to_str_per_item("GPU-%d" % d, self._ts[1 + i]))
        return "%s:%s" % (self.name, " ".join(results))

    def __str__(self):
        return self.to_str(show_gpu=True)

    __repr__ = __str__


def benchmark(func, args=(), kwargs={}, n_repeat=10000, *, name=None, n_warmup=10, max_duration=math.inf,
              devices=None):
    """Runs ``func(*args, **kwargs)`` `n_warmup` times, then up to `n_repeat` times (stopping
    once `max_duration` seconds have been spent), recording the host time of each call and,
    for each device in `devices` (default: the current CUDA device, none without a GPU), the
    time between CUDA events recorded on its current stream before and after the call."""
    if name is None:
        name = getattr(func, "__name__", repr(func))
    if not callable(func):
        raise TypeError("func must be callable, got %r" % (func,))
    if n_repeat < 1:
        raise ValueError("n_repeat must be at least 1, got %r" % (n_repeat,))
    if devices is None:
        devices = (_cunp.cuda.Device().id,) if _cunp.cuda.is_available() else ()
    devices = tuple(int(d) for d in devices)
    for _ in range(n_warmup):
        func(*args, **kwargs)
    events = []
    for d in devices:
        with _cunp.cuda.Device(d):
            events.append([(_cunp.cuda.Event(), _cunp.cuda.Event()) for _ in range(n_repeat)])
    cpu = []
    spent = 0.0
    for i in range(n_repeat):
        for k, d in enumerate(devices):
            with _cunp.cuda.Device(d):
                events[k][i][0].record()
        t0 = time.perf_counter()
        func(*args, **kwargs)
        t1 = time.perf_counter()
        for k, d in enumerate(devices):
            with _cunp.cuda.Device(d):
                events[k][i][1].record()
        cpu.append(t1 - t0)
        for k, d in enumerate(devices):
            events[k][i][1].synchronize()
        spent += time.perf_counter() - t0
        if spent >= max_duration:
            break
    n = len(cpu)
    ts = _numpy.empty((1 + len(devices), n), dtype=_numpy.float64)
    ts[0] = cpu
    for k in range(len(devices)):
        ts[1 + k] = [_cunp.cuda.get_elapsed_time(start, end) * 1e-3 for start, end in events[k][:n]]
    return _PerfCaseResult(name, ts, devices)

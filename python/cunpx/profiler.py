"""cunpx.profiler: ``benchmark`` times a function on the host and on every GPU it runs
on (cupyx.profiler.benchmark's API and result); ``time_range`` marks NVTX ranges for
Nsight Systems (a context manager and a decorator); ``profile`` is the CUDA profiler's
start/stop region; ``%load_ext cunpx.profiler`` adds IPython's ``%gpu_timeit``."""
import contextlib
import functools
import math
import time

import numpy as _numpy

import cunp as _cunp
from cunp import _core


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


class time_range:
    """An NVTX range named `message` around a ``with`` block or every call of a decorated
    function (cupyx.profiler.time_range). `color_id` picks CuPy's palette colour,
    `argb_color` an 0xAARRGGBB colour (not both); `sync=True` synchronizes the current
    device before the range opens and before it closes, so the range covers the GPU work."""

    def __init__(self, message=None, color_id=None, argb_color=None, sync=False):
        if color_id is not None and argb_color is not None:
            raise ValueError("Only either color_id or argb_color can be specified")
        self.message = message
        self.argb = 0 if argb_color is None and color_id is None else (
            int(argb_color) & 0xFFFFFFFF if argb_color is not None else _core._nvtx_palette(int(color_id)))
        self.sync = sync

    def _synchronize(self):
        if self.sync and _cunp.cuda.is_available():
            _cunp.cuda.Device().synchronize()

    def __enter__(self):
        if self.message is None:
            raise ValueError("when used as a context manager, the message argument cannot be None")
        self._synchronize()
        _core._nvtx_push(str(self.message), self.argb)
        return self

    def __exit__(self, *exc):
        self._synchronize()
        _core._nvtx_pop()
        return False

    def __call__(self, func):
        message = self.message if self.message is not None else func.__name__
        outer = self

        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            with time_range(message, argb_color=outer.argb or None, sync=outer.sync):
                return func(*args, **kwargs)
        return wrapped


@contextlib.contextmanager
def profile():
    """The CUDA profiler's capture region: cudaProfilerStart on entry, cudaProfilerStop on
    exit (for a profiler started with ``--capture-range=cudaProfilerApi``)."""
    _core._profiler_start()
    try:
        yield
    finally:
        _core._profiler_stop()


def load_ipython_extension(ipython):
    """``%load_ext cunpx.profiler``: ``%gpu_timeit stmt`` and ``%%gpu_timeit`` print the
    :func:`benchmark` of a statement (``-n`` repeats, ``-w`` warm-up calls)."""
    from IPython.core.magic import register_line_cell_magic

    @register_line_cell_magic
    def gpu_timeit(line, cell=None):
        args = line.split()
        n_repeat, n_warmup = 10000, 10
        while args and args[0] in ("-n", "-w") and len(args) > 1:
            if args[0] == "-n":
                n_repeat = int(args[1])
            else:
                n_warmup = int(args[1])
            args = args[2:]
        code = cell if cell is not None else " ".join(args)
        namespace = ipython.user_ns
        compiled = compile(code, "<gpu_timeit>", "exec")
        result = benchmark(lambda: exec(compiled, namespace), n_repeat=n_repeat, n_warmup=n_warmup,
                           name="gpu_timeit", max_duration=10.0)
        print(result)
        return None

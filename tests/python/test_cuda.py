"""Devices, streams, events, memory pools and transfers (cunp.cuda)."""
import ctypes
import gc
import os
import re
import subprocess
import sys
import threading
import time

import numpy
import pytest

import cunp
from conftest import DEVICES, needs_cuda
from helpers import assert_array_equal, random_array


def test_device_objects():
    assert cunp.Device("cpu") == "cpu"
    assert str(cunp.Device("cpu")) == "cpu"
    assert cunp.Device("cuda:1").id == 1
    assert cunp.Device("cuda:1").type == "cuda"
    with pytest.raises(ValueError):
        cunp.Device("tpu")
    with cunp.Device("cpu"):
        assert cunp.zeros(2).device == "cpu"


def test_device_count_matches_availability():
    if cunp.cuda.is_available():
        assert cunp.cuda.runtime.getDeviceCount() >= 1
    else:
        with pytest.raises(cunp.cuda.CUDARuntimeError):
            cunp.cuda.runtime.getDeviceCount()


def test_show_config_lists_versions(capsys):
    cunp.show_config()
    out = capsys.readouterr().out
    for key in ("cunp", "CUDA Runtime Version", "NVRTC Version", "cuBLAS Version", "Device Count"):
        assert key in out
    assert cunp.__version__ in out


def test_cpu_default_without_gpu_and_env_override():
    code = "import cunp; print(cunp.zeros(1).device)"
    env = dict(os.environ, CUNP_DEVICE="cpu")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "cpu"
    env = dict(os.environ, CUNP_DEVICE="bogus")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert r.returncode != 0 and "ValueError" in r.stderr


def test_cuda_device_errors_without_gpu():
    if cunp.cuda.is_available():
        n = cunp.cuda.runtime.getDeviceCount()
        with pytest.raises(ValueError):
            cunp.zeros(3, device="cuda:%d" % n)
    else:
        with pytest.raises(cunp.cuda.CUDARuntimeError):
            cunp.zeros(3, device="cuda:0")
        with pytest.raises(cunp.cuda.CUDARuntimeError):
            cunp.cuda.Device(0).use()


def test_device_context_restores(device):
    before = cunp.zeros(1).device
    with cunp.Device("cpu"):
        assert cunp.zeros(1).device == "cpu"
    assert cunp.zeros(1).device == before


@pytest.mark.parametrize("src", DEVICES)
@pytest.mark.parametrize("dst", DEVICES)
def test_transfer_between_devices(src, dst, dtype):
    src = "cuda:0" if src == "cuda" else src
    dst = "cuda:0" if dst == "cuda" else dst
    h = random_array((5, 7), dtype)
    a = cunp.asarray(h, device=src)
    b = a.to_device(dst)
    assert b.device == dst
    assert_array_equal(b, h)
    # Non-contiguous source, broadcasting assignment across devices.
    c = cunp.zeros((5, 7), dtype=dtype, device=dst)
    c[...] = a[:, ::-1]
    assert_array_equal(c, h[:, ::-1])
    c[...] = a[0]
    assert_array_equal(c, numpy.broadcast_to(h[0], (5, 7)))


@needs_cuda
def test_cuda_device_use_and_context():
    d = cunp.cuda.Device(0)
    d.use()
    assert cunp.zeros(1).device == "cuda:0"
    with cunp.cuda.Device(0) as dev:
        assert dev.id == 0
        assert len(dev.compute_capability) >= 2
        free, total = dev.mem_info
        assert 0 < free <= total
    d.synchronize()


@needs_cuda
def test_streams_and_events():
    s = cunp.cuda.Stream(non_blocking=True)
    assert s.ptr != 0
    assert cunp.cuda.get_current_stream() == cunp.cuda.Stream.null
    with s:
        assert cunp.cuda.get_current_stream() == s
        a = cunp.asarray(numpy.arange(1 << 20, dtype=numpy.float32), device="cuda:0")
        start = cunp.cuda.Event()
        end = cunp.cuda.Event()
        start.record()
        b = a.astype(numpy.float64)
        end.record()
        end.synchronize()
        assert end.done
        assert cunp.cuda.get_elapsed_time(start, end) >= 0
    assert cunp.cuda.get_current_stream() == cunp.cuda.Stream.null
    s.synchronize()
    assert s.done
    numpy.testing.assert_array_equal(b.get(), numpy.arange(1 << 20, dtype=numpy.float64))
    with pytest.warns(DeprecationWarning, match="Stream.from_external"):
        ext = cunp.cuda.ExternalStream(s.ptr)
    assert ext.ptr == s.ptr


@needs_cuda
def test_stream_wait_event_orders_work():
    s1 = cunp.cuda.Stream(non_blocking=True)
    s2 = cunp.cuda.Stream(non_blocking=True)
    h = numpy.random.default_rng(0).standard_normal(1 << 22).astype(numpy.float32)
    with s1:
        a = cunp.asarray(h, device="cuda:0")
        b = a.astype(numpy.float64)
        e = s1.record()
    s2.wait_event(e)
    with s2:
        c = b.astype(numpy.float32)
    s2.synchronize()
    numpy.testing.assert_array_equal(c.get(), h)


@needs_cuda
def test_memory_pool_reuse_and_stats():
    pool = cunp.cuda.get_default_memory_pool()
    pool.free_all_blocks()
    base_used = pool.used_bytes()
    a = cunp.empty(1 << 20, dtype=numpy.float32, device="cuda:0")
    ptr = a._ptr
    assert pool.used_bytes() >= base_used + (1 << 22)
    del a
    assert pool.used_bytes() == base_used
    assert pool.total_bytes() >= 1 << 22
    b = cunp.empty(1 << 20, dtype=numpy.float32, device="cuda:0")
    assert b._ptr == ptr  # the freed block comes back
    del b
    pool.free_all_blocks()
    assert pool.free_bytes() == 0 or pool.n_free_blocks() == 0


@needs_cuda
def test_memory_pool_limit_and_oom():
    pool = cunp.cuda.get_default_memory_pool()
    pool.free_all_blocks()
    pool.set_limit(size=64 << 20)
    try:
        assert pool.get_limit() == 64 << 20
        with pytest.raises(cunp.cuda.OutOfMemoryError, match="bytes"):
            cunp.empty(128 << 20, dtype=numpy.uint8, device="cuda:0")
        with pytest.raises(MemoryError):
            cunp.empty(128 << 20, dtype=numpy.uint8, device="cuda:0")
        a = cunp.empty(16 << 20, dtype=numpy.uint8, device="cuda:0")
        del a
    finally:
        pool.set_limit(size=0)


@needs_cuda
def test_gpu_memory_limit_env():
    code = ("import cunp, numpy\n"
            "p = cunp.cuda.get_default_memory_pool()\n"
            "print(p.get_limit())\n"
            "try:\n    cunp.empty(64 << 20, dtype=numpy.uint8, device='cuda:0')\n"
            "except cunp.cuda.OutOfMemoryError:\n    print('oom')\n")
    env = dict(os.environ, CUNP_GPU_MEMORY_LIMIT=str(32 << 20))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(32 << 20), "oom"]


@needs_cuda
def test_pinned_memory():
    p = cunp.empty_pinned((1000,), dtype=numpy.float32)
    assert isinstance(p, numpy.ndarray) and p.shape == (1000,) and p.dtype == numpy.float32
    z = cunp.zeros_pinned((10, 10))
    assert not z.any()
    p[:] = numpy.arange(1000)
    d = cunp.asarray(p, device="cuda:0")
    out = cunp.zeros_pinned((1000,), dtype=numpy.float32)
    d.get(out=out)
    numpy.testing.assert_array_equal(out, numpy.arange(1000, dtype=numpy.float32))
    assert cunp.cuda.get_default_pinned_memory_pool().total_bytes() > 0


@needs_cuda
def test_managed_and_direct_allocators():
    try:
        cunp.cuda.set_allocator(cunp.cuda.malloc_managed)
        a = cunp.arange(100, dtype=numpy.float64, device="cuda:0")
        numpy.testing.assert_array_equal(a.get(), numpy.arange(100.0))
        cunp.cuda.set_allocator(None)
        b = cunp.ones(10, device="cuda:0")
        assert b.get().sum() == 10
    finally:
        cunp.cuda.set_allocator(cunp.cuda.get_default_memory_pool().malloc)


def test_pool_api_without_gpu():
    if cunp.cuda.is_available():
        pytest.skip("covered by the GPU tests")
    with pytest.raises(cunp.cuda.CUDARuntimeError):
        cunp.cuda.get_default_memory_pool().used_bytes()


# ---- CuPy's cuda objects: Stream, Event, Device


class _ProtocolStream:
    """A foreign stream object speaking the CUDA stream protocol (as PyTorch's does)."""

    def __init__(self, result):
        self.result = result

    def __cuda_stream__(self):
        return self.result


def _cudart():
    """The CUDA runtime cunp loaded, through ctypes: the stand-in for another library."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            if "libcudart.so" in line:
                lib = ctypes.CDLL(line.split()[-1])
                lib.cudaStreamQuery.argtypes = [ctypes.c_void_p]
                lib.cudaStreamDestroy.argtypes = [ctypes.c_void_p]
                return lib
    pytest.skip("libcudart is not loaded as a shared library")


def _default_stream():
    per_thread = os.environ.get("CUNP_CUDA_PER_THREAD_DEFAULT_STREAM") == "1"
    return cunp.cuda.Stream.ptds if per_thread else cunp.cuda.Stream.null


def _restore_null_stream():
    _default_stream().use()


def test_stream_singletons():
    Stream = cunp.cuda.Stream
    null, ptds = Stream.null, Stream.ptds
    assert type(null) is Stream and type(ptds) is Stream
    assert Stream.null is null and Stream.ptds is ptds
    assert (null.ptr, null.device_id) == (0, -1)
    assert (ptds.ptr, ptds.device_id) == (2, -1)  # cudaStreamPerThread
    assert null.__cuda_stream__() == (0, 0)
    assert ptds.__cuda_stream__() == (0, 2)
    assert repr(null) == "<Stream 0 (device -1)>"
    assert repr(ptds) == "<Stream 2 (device -1)>"
    # New objects of the same stream compare (and hash) equal, as CuPy's compare ptr.
    assert Stream(null=True) == null and hash(Stream(null=True)) == hash(null)
    assert Stream(ptds=True) == ptds
    assert Stream(True, False, True) == null  # null wins over ptds
    assert null != ptds
    assert len({null, Stream(null=True), ptds, Stream(ptds=True)}) == 2
    assert (null == 0) is False and (null == "0") is False and null != object()


def test_event_interprocess_requires_disable_timing():
    # CuPy's rule, checked before any CUDA call (so also without a GPU).
    for kwargs in ({"interprocess": True}, {"interprocess": True, "block": True},
                   {"interprocess": True, "disable_timing": False}):
        with pytest.raises(ValueError, match="Timing must be disabled for interprocess events"):
            cunp.cuda.Event(**kwargs)
    with pytest.raises(ValueError, match="Timing must be disabled"):
        cunp.cuda.Event(False, False, True)


def test_stream_from_external_protocol_errors():
    # Validation of the protocol object comes before any CUDA call.
    from_external = cunp.cuda.Stream.from_external
    for obj in (object(), "0x1234", 1.5, None):
        with pytest.raises(AttributeError, match="does not implement the CUDA stream protocol"):
            from_external(obj)
    for result in ([0, 1], (0,), (0, 1, 2), 7, None):
        with pytest.raises(TypeError, match="must return a 2-tuple"):
            from_external(_ProtocolStream(result))
    for result in ((0, "1"), ("0", 1), (0, 1.0), (0.0, 1)):
        with pytest.raises(TypeError, match=r"must return \(int, int\)"):
            from_external(_ProtocolStream(result))
    with pytest.raises(ValueError, match="unsupported version 1"):
        from_external(_ProtocolStream((1, 1234)))


def test_cuda_objects_without_gpu():
    if cunp.cuda.is_available():
        pytest.skip("a CUDA device is present")
    cuda = cunp.cuda
    calls = {
        "Stream()": lambda: cuda.Stream(),
        "Stream(non_blocking=True)": lambda: cuda.Stream(non_blocking=True),
        "Stream(priority=-1)": lambda: cuda.Stream(priority=-1),
        "Stream.null.synchronize": cuda.Stream.null.synchronize,
        "Stream.null.done": lambda: cuda.Stream.null.done,
        "Stream.ptds.synchronize": cuda.Stream.ptds.synchronize,
        "Stream.null.use": cuda.Stream.null.use,
        "with Stream.ptds": lambda: cuda.Stream.ptds.__enter__(),
        "Stream.null.record": cuda.Stream.null.record,
        "Stream.null.launch_host_func": lambda: cuda.Stream.null.launch_host_func(print, 1),
        "Stream.null.add_callback": lambda: cuda.Stream.null.add_callback(print, 1),
        "Stream.from_external(ptr)": lambda: cuda.Stream.from_external(0x1234),
        "Stream.from_external(ptr, 0)": lambda: cuda.Stream.from_external(0x1234, device_id=0),
        "Stream.from_external(obj)": lambda: cuda.Stream.from_external(_ProtocolStream((0, 0x1234))),
        "get_current_stream()": cuda.get_current_stream,
        "get_current_stream(0)": lambda: cuda.get_current_stream(0),
        "Event()": cuda.Event,
        "Event(block, disable_timing, interprocess)": lambda: cuda.Event(True, True, True),
        "Device(0).attributes": lambda: cuda.Device(0).attributes,
        "Device(0).compute_capability": lambda: cuda.Device(0).compute_capability,
        "Device(0).pci_bus_id": lambda: cuda.Device(0).pci_bus_id,
        "Device(0).mem_info": lambda: cuda.Device(0).mem_info,
        "Device(0).synchronize": lambda: cuda.Device(0).synchronize(),
        "Device(0).use": lambda: cuda.Device(0).use(),
        "Device.from_pci_bus_id": lambda: cuda.Device.from_pci_bus_id("0000:01:00.0"),
    }
    for name, call in calls.items():
        with pytest.raises(cuda.CUDARuntimeError, match="CUDA is unavailable") as info:
            call()
        assert isinstance(info.value, RuntimeError), name
    # An ExternalStream of unknown device makes no CUDA call until it is used.
    with pytest.warns(DeprecationWarning):
        ext = cuda.ExternalStream(0x1234)
    assert (ext.ptr, ext.device_id) == (0x1234, -1)
    assert repr(ext) == "<ExternalStream %d (device -1)>" % 0x1234
    assert ext.__cuda_stream__() == (0, 0x1234)
    with pytest.raises(cuda.CUDARuntimeError):
        ext.synchronize()


def test_cuda_device_comparisons():
    D = cunp.cuda.Device
    assert D(0) == D(0) and D(1) != D(0)
    assert D(0) < D(1) <= D(1) < D(2)
    assert D(2) > D(1) >= D(1) > D(0)
    assert not D(1) < D(1) and not D(1) > D(1)
    assert sorted([D(2), D(0), D(1)]) == [D(0), D(1), D(2)]
    assert max(D(0), D(3)).id == 3
    # As CuPy: a Device never equals an int and does not order against one.
    assert (D(0) == 0) is False and D(0) != 0 and (1 == D(1)) is False
    for op in ("__lt__", "__le__", "__gt__", "__ge__"):
        assert getattr(D(0), op)(1) is NotImplemented
    with pytest.raises(TypeError):
        D(0) < 1
    with pytest.raises(TypeError):
        1 >= D(0)
    with pytest.raises(TypeError):
        D(0) < cunp.Device("cpu")
    assert int(D(3)) == 3 and D(3).id == 3
    assert D(D(2)).id == 2 and D(numpy.int64(1)).id == 1
    assert repr(D(1)) == "<CUDA Device 1>"
    assert hash(D(1)) == hash(D(1)) and len({D(1), D(1), D(2)}) == 2
    assert D(0) == "cuda:0" and D(0) != "cpu"  # cunp's device strings still compare
    with pytest.raises(TypeError):
        D.from_pci_bus_id(5)


@needs_cuda
def test_cuda_device_queries():
    rt = _cudart()
    d = cunp.cuda.Device(0)
    attrs = d.attributes
    assert len(attrs) > 80
    for k, v in attrs.items():
        assert isinstance(k, str) and not k.startswith("cudaDevAttr") and type(v) is int, (k, v)
    sm = ctypes.c_int(-1)
    assert rt.cudaDeviceGetAttribute(ctypes.byref(sm), 16, 0) == 0  # cudaDevAttrMultiProcessorCount
    assert attrs["MultiProcessorCount"] == sm.value
    props = cunp.cuda.runtime.getDeviceProperties(0)
    assert attrs["MultiProcessorCount"] == props["multiProcessorCount"]
    assert attrs["MaxThreadsPerBlock"] == props["maxThreadsPerBlock"]
    assert attrs["WarpSize"] == 32
    attrs["WarpSize"] = 0  # a copy: the device's stay
    assert d.attributes["WarpSize"] == 32
    cc = d.compute_capability
    assert cc == "%d%d" % (attrs["ComputeCapabilityMajor"], attrs["ComputeCapabilityMinor"])
    assert cc == "%d%d" % (props["major"], props["minor"])
    if b"H200" in props["name"] or b"H100" in props["name"]:
        assert cc == "90"
    bus = d.pci_bus_id
    assert re.fullmatch(r"[0-9A-Fa-f]+:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f]", bus), bus
    assert int(bus.split(":")[1], 16) == attrs["PciBusId"]
    for i in range(cunp.cuda.runtime.getDeviceCount()):
        back = cunp.cuda.Device.from_pci_bus_id(cunp.cuda.Device(i).pci_bus_id)
        assert type(back) is cunp.cuda.Device and back == cunp.cuda.Device(i)
    with pytest.raises(cunp.cuda.CUDARuntimeError):
        cunp.cuda.Device.from_pci_bus_id("not a bus id")
    free, total = d.mem_info
    assert 0 < free <= total
    assert total == props["totalGlobalMem"]
    d.synchronize()
    assert d.use() is d
    n = cunp.cuda.runtime.getDeviceCount()
    for prop in ("attributes", "compute_capability", "pci_bus_id", "mem_info"):
        with pytest.raises(ValueError, match="does not exist"):
            getattr(cunp.cuda.Device(n), prop)
    with pytest.raises(ValueError, match="does not exist"):
        cunp.cuda.Device(n).synchronize()


@needs_cuda
def test_stream_objects_and_current_stream():
    Stream = cunp.cuda.Stream
    get = cunp.cuda.get_current_stream
    default = _default_stream()
    try:
        assert get() is default and get(0) is default
        Stream.null.synchronize()
        Stream.ptds.synchronize()
        assert Stream.null.done and Stream.ptds.done
        s = Stream()
        assert s.device_id == 0 and s.ptr not in (0, 1, 2)
        assert repr(s) == "<Stream %d (device 0)>" % s.ptr
        assert s.__cuda_stream__() == (0, s.ptr)
        assert s != Stream.null and s == Stream.from_external(s.ptr)
        for kwargs in ({"non_blocking": True}, {"priority": -1}, {"priority": 0}):
            t = Stream(**kwargs)
            assert t.ptr not in (0, 1, 2, s.ptr)
        with Stream.ptds:
            assert get() is Stream.ptds
            a = cunp.arange(10, device="cuda:0") * 2
            numpy.testing.assert_array_equal(a.get(), numpy.arange(10) * 2)
        assert get() is default
        s1, s2 = Stream(non_blocking=True), Stream(non_blocking=True)
        with s1 as entered:
            assert entered is s1 and get() is s1
            with s2:
                assert get() is s2 and get(0) is s2
            assert get() is s1
            with Stream.null:
                assert get() is Stream.null
            assert get() is s1
        assert get() is default
        assert s1.use() is s1
        assert get() is s1
        b = cunp.ones(1 << 16, device="cuda:0") + 1
        s1.synchronize()
        assert s1.done
        numpy.testing.assert_array_equal(b.get(), numpy.full(1 << 16, 2.0))
        Stream.null.use()
        assert get() is Stream.null
    finally:
        _restore_null_stream()


@needs_cuda
def test_stream_from_external_wraps_a_foreign_stream():
    rt = _cudart()
    raw = ctypes.c_void_p()
    assert rt.cudaStreamCreate(ctypes.byref(raw)) == 0
    ptr = raw.value
    try:
        foreign = _ProtocolStream((0, ptr))
        s = cunp.cuda.Stream.from_external(foreign)
        assert type(s) is cunp.cuda.Stream
        assert (s.ptr, s.device_id) == (ptr, 0)
        assert s.__cuda_stream__() == (0, ptr)
        assert s._foreign_stream_ref is foreign
        assert s == cunp.cuda.Stream.from_external(ptr) == cunp.cuda.Stream.from_external(ptr, device_id=0)
        h = numpy.arange(1 << 16, dtype=numpy.float32)
        ran = []
        with s:
            assert cunp.cuda.get_current_stream() is s
            a = cunp.asarray(h, device="cuda:0")
            b = a * 2
            s.launch_host_func(ran.append, "after b")
        s.synchronize()
        assert ran == ["after b"]
        numpy.testing.assert_array_equal(b.get(), h * 2)
        with pytest.warns(DeprecationWarning):
            ext = cunp.cuda.ExternalStream(ptr)
        assert ext == s and ext.device_id == -1
        with ext:
            c = b + 1
        ext.synchronize()
        assert ext.done
        numpy.testing.assert_array_equal(c.get(), h * 2 + 1)
        # Blocks allocated on a stream record an event on it when freed: the arrays go
        # before the owner destroys the stream (on a failure above it is left alive).
        del a, b, c, s, ext
        gc.collect()
        assert rt.cudaStreamQuery(ptr) == 0  # not destroyed by cunp: still a live stream
        assert rt.cudaStreamDestroy(ptr) == 0
    finally:
        _restore_null_stream()


@needs_cuda
def test_stream_host_callbacks():
    s = cunp.cuda.Stream(non_blocking=True)
    seen, order = [], []
    arg = object()
    s.add_callback(lambda stream, status, a: seen.append((stream, status, a, threading.get_ident())), arg)
    for i in range(3):
        s.launch_host_func(order.append, i)
    s.synchronize()
    assert len(seen) == 1
    stream, status, got, tid = seen[0]
    assert stream is s and status == 0 and got is arg
    assert tid != threading.get_ident()  # a CUDA host thread
    assert order == [0, 1, 2]
    # A callback runs after the work enqueued before it.
    try:
        with s:
            b = cunp.arange(1 << 20, dtype=numpy.float64, device="cuda:0") * 3
            s.launch_host_func(order.append, "after")
    finally:
        _restore_null_stream()
    s.synchronize()
    assert order[-1] == "after"
    numpy.testing.assert_array_equal(b.get(), numpy.arange(1 << 20, dtype=numpy.float64) * 3)
    # A raising callback reaches sys.unraisablehook; later work still runs.
    caught = []
    old_hook = sys.unraisablehook
    sys.unraisablehook = lambda u: caught.append(u.exc_type)
    try:
        def boom(x):
            raise KeyError(x)
        s.launch_host_func(boom, "k")
        s.add_callback(lambda *a: boom("k2"), None)
        s.launch_host_func(order.append, "next")
        s.synchronize()
    finally:
        sys.unraisablehook = old_hook
    assert caught == [KeyError, KeyError]
    assert order[-1] == "next"


@needs_cuda
def test_stream_wait_event_holds_back_later_work():
    Stream = cunp.cuda.Stream
    s1, s2, control = Stream(non_blocking=True), Stream(non_blocking=True), Stream(non_blocking=True)
    gate = threading.Event()
    s1.launch_host_func(lambda g: g.wait(10), gate)  # s1 is stuck until the gate opens
    e = s1.record()
    assert type(e) is cunp.cuda.Event
    s2.wait_event(e)
    try:
        with control:  # device work, not a host func: CUDA may run all host funcs on one thread
            cunp.ones(1024, device="cuda:0")
    finally:
        _restore_null_stream()
    time.sleep(0.2)
    try:
        control.synchronize()
        assert control.done  # waits for nothing
        assert not e.done
        assert not s2.done   # waits for e, behind the gate
    finally:
        gate.set()
    s2.synchronize()
    assert e.done and s1.done and s2.done
    e2 = cunp.cuda.Event()
    assert s1.record(e2) is e2
    e2.synchronize()
    assert e2.done


@needs_cuda
def test_events_time_a_kernel():
    Event = cunp.cuda.Event
    e = Event()
    assert e.ptr != 0 and e.done  # never recorded: complete
    for kwargs in ({"block": True}, {"disable_timing": True},
                   {"interprocess": True, "disable_timing": True}):
        assert Event(**kwargs).ptr != 0
    s = cunp.cuda.Stream()
    start, end = Event(), Event()
    try:
        with s:
            a = cunp.arange(1 << 24, dtype=numpy.float64, device="cuda:0")
            cunp.sin(a[:8])  # compiles the kernel outside the timed region
            s.synchronize()
            start.record()
            b = cunp.sin(a)
            end.record(s)
    finally:
        _restore_null_stream()
    end.synchronize()
    assert end.done
    ms = cunp.cuda.get_elapsed_time(start, end)
    assert type(ms) is float and 0 < ms < 10000
    numpy.testing.assert_allclose(b[:4].get(), numpy.sin(numpy.arange(4.0)))
    untimed = Event(disable_timing=True)
    untimed.record(s)
    untimed.synchronize()
    with pytest.raises(cunp.cuda.CUDARuntimeError):
        cunp.cuda.get_elapsed_time(start, untimed)
    on_null = Event()
    on_null.record(cunp.cuda.Stream.null)
    on_null.synchronize()
    assert on_null.done

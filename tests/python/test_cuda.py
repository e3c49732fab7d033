"""Devices, streams, events, memory pools and transfers (cunp.cuda)."""
import os
import subprocess
import sys

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

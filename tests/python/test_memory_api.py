"""CuPy's memory API names: the top-level pool getters, using_allocator,
set_pinned_memory_allocator, and the CUPY_* environment names cunp honours."""
import os
import subprocess
import sys

import numpy
import pytest

import cunp

needs_cuda = pytest.mark.skipif(not cunp.cuda.is_available(), reason="needs a CUDA device")


def test_top_level_pool_getters_are_cudas():
    assert cunp.get_default_memory_pool is cunp.cuda.get_default_memory_pool
    assert cunp.get_default_pinned_memory_pool is cunp.cuda.get_default_pinned_memory_pool
    assert isinstance(cunp.get_default_pinned_memory_pool(), cunp.cuda.PinnedMemoryPool)


def test_using_allocator_restores_the_previous_one():
    assert cunp.cuda.get_allocator() == "pool"
    with cunp.cuda.using_allocator(None):
        assert cunp.cuda.get_allocator() is None
        with cunp.cuda.using_allocator(cunp.cuda.malloc_managed):
            assert cunp.cuda.get_allocator() is cunp.cuda.malloc_managed
        assert cunp.cuda.get_allocator() is None
    assert cunp.cuda.get_allocator() == "pool"
    with pytest.raises(TypeError, match="allocator must be"):
        with cunp.cuda.using_allocator(42):
            pass
    assert cunp.cuda.get_allocator() == "pool"


def test_set_pinned_memory_allocator_arguments():
    with pytest.raises(TypeError, match="PinnedMemoryPool's malloc"):
        cunp.cuda.set_pinned_memory_allocator(cunp.cuda.MemoryPool().malloc)
    with pytest.raises(TypeError, match="allocator must be"):
        cunp.cuda.set_allocator(cunp.cuda.PinnedMemoryPool().malloc)
    cunp.cuda.set_pinned_memory_allocator(None)
    cunp.cuda.set_pinned_memory_allocator(cunp.cuda.PinnedMemoryPool().malloc)


@needs_cuda
def test_pinned_memory_without_the_pool():
    pool = cunp.get_default_pinned_memory_pool()
    pool.free_all_blocks()
    try:
        cunp.cuda.set_pinned_memory_allocator(None)
        before = pool.total_bytes()
        h = cunp.empty_pinned((1 << 20,), dtype=numpy.float32)
        h[...] = numpy.arange(1 << 20, dtype=numpy.float32)
        assert pool.total_bytes() == before  # not from the pool
        d = cunp.asarray(h, device="cuda:0")
        numpy.testing.assert_array_equal(d.get(), h)
        del h
    finally:
        cunp.cuda.set_pinned_memory_allocator(cunp.cuda.PinnedMemoryPool().malloc)
    h = cunp.empty_pinned((1 << 20,), dtype=numpy.float32)
    assert pool.total_bytes() >= (1 << 22)  # back to the pool
    del h


@needs_cuda
def test_cupy_gpu_memory_limit_is_honoured():
    code = ("import cunp\n"
            "print(cunp.get_default_memory_pool().get_limit())\n")
    env = {k: v for k, v in os.environ.items() if k not in ("CUNP_GPU_MEMORY_LIMIT", "CUPY_GPU_MEMORY_LIMIT")}
    r = subprocess.run([sys.executable, "-c", code], env=dict(env, CUPY_GPU_MEMORY_LIMIT="123456789"),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout.split()[-1]) == 123456789
    r = subprocess.run([sys.executable, "-c", code],
                       env=dict(env, CUPY_GPU_MEMORY_LIMIT="123456789", CUNP_GPU_MEMORY_LIMIT="987654321"),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout.split()[-1]) == 987654321


# ---- MemoryPool(allocator=) and allocator callables


def test_memory_pool_arguments_and_selection_without_allocating():
    own = cunp.cuda.MemoryPool()
    managed = cunp.cuda.MemoryPool(cunp.cuda.malloc_managed)
    calls = []
    custom = cunp.cuda.MemoryPool(allocator=lambda size: calls.append(size))
    with pytest.raises(TypeError, match="allocator must be None or a callable"):
        cunp.cuda.MemoryPool(allocator=42)
    with pytest.raises(TypeError, match="not supported"):
        cunp.cuda.PinnedMemoryPool(allocator=cunp.cuda.malloc_managed)
    own.set_limit(size=1 << 20)
    assert own.get_limit() == 1 << 20
    for pool in (own, managed, custom):
        with cunp.cuda.using_allocator(pool.malloc):
            assert cunp.cuda.get_allocator() == pool.malloc
        assert cunp.cuda.get_allocator() == "pool"
    plain = lambda size: calls.append(size)  # noqa: E731 - an allocator of CuPy's shape
    with cunp.cuda.using_allocator(plain):
        assert cunp.cuda.get_allocator() is plain
        cunp.zeros(3, device="cpu")  # the cpu device does not ask it
    assert cunp.cuda.get_allocator() == "pool"
    assert calls == []  # nothing was allocated
    with pytest.raises(TypeError, match="allocator must be"):
        cunp.cuda.set_allocator(cunp.cuda.PinnedMemoryPool().malloc)


def test_memory_pool_without_gpu_raises_cuda_errors():
    if cunp.cuda.is_available():
        pytest.skip("covered by the GPU tests")
    with pytest.raises(cunp.cuda.CUDARuntimeError):
        cunp.cuda.MemoryPool().used_bytes()
    with pytest.raises(cunp.cuda.CUDARuntimeError):
        cunp.cuda.MemoryPool(cunp.cuda.malloc_managed).malloc(16)
    with pytest.raises(cunp.cuda.CUDARuntimeError):
        cunp.cuda.malloc_managed(16)
    with pytest.raises(ValueError):
        cunp.cuda.malloc_managed(-1)


@needs_cuda
def test_memory_pool_over_a_python_allocator():
    calls = []

    def allocator(size):
        calls.append(size)
        return cunp.cuda.malloc_managed(size)

    pool = cunp.cuda.MemoryPool(allocator)
    p = pool.malloc(1000)
    assert isinstance(p, cunp.cuda.MemoryPointer) and p.ptr != 0 and p.device_id == 0
    assert len(calls) == 1 and pool.used_bytes() == 1024
    del p
    q = pool.malloc(1000)  # the cached block: no new segment
    assert len(calls) == 1
    del q
    with cunp.cuda.using_allocator(pool.malloc):
        a = cunp.arange(1 << 20, dtype=numpy.float32, device="cuda:0")
        b = a * 2
        assert pool.used_bytes() >= 2 * (4 << 20)
    numpy.testing.assert_array_equal(b.get(), numpy.arange(1 << 20, dtype=numpy.float32) * 2)
    del a, b
    pool.free_all_blocks()
    assert pool.total_bytes() == 0


@needs_cuda
def test_memory_pool_of_managed_memory_and_callable_allocator():
    pool = cunp.cuda.MemoryPool(cunp.cuda.malloc_managed)
    with cunp.cuda.using_allocator(pool.malloc):
        a = cunp.ones(1000, device="cuda:0")
    assert pool.used_bytes() >= 8000
    assert a.get().sum() == 1000
    default = cunp.get_default_memory_pool()
    p = default.malloc(4096)
    assert p.size >= 4096 and p.device_id == 0
    m = cunp.cuda.malloc_managed(256)
    assert m.size == 256
    held = []

    def plain(size):
        held.append(size)
        return cunp.cuda.malloc_managed(size)

    with cunp.cuda.using_allocator(plain):  # a callable of CuPy's shape, called per allocation
        c = cunp.zeros(10, device="cuda:0")
    assert held == [80]
    assert c.get().sum() == 0

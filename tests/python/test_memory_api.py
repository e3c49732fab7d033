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

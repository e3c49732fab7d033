"""cunp.cuda.UnownedMemory (python/cunp/cuda/memory.py): memory another library owns,
as a memptr= of cunp.ndarray, its owner kept alive while any view exists. Host memory
(a NumPy array) runs everywhere; device memory needs a GPU."""
import gc
import sys

import numpy
import pytest

import cunp
from conftest import needs_cuda
from helpers import assert_array_equal

UnownedMemory = cunp.cuda.UnownedMemory
MemoryPointer = cunp.cuda.MemoryPointer


def test_host_memory_views_and_owner_lifetime():
    h = numpy.arange(10, dtype=numpy.float64)
    base = sys.getrefcount(h)
    mem = UnownedMemory(h.ctypes.data, h.nbytes, h)
    assert isinstance(mem, cunp.cuda.Memory)
    assert mem.ptr == h.ctypes.data and mem.size == 80 and mem.device_id == -1
    assert sys.getrefcount(h) == base + 1
    a = cunp.ndarray((4,), numpy.float64, memptr=MemoryPointer(mem, 8), strides=(16,))
    assert a.device == "cpu" and a._ptr == h.ctypes.data + 8
    assert_array_equal(a, numpy.array([1.0, 3.0, 5.0, 7.0]))
    a[0] = -1.0
    assert h[1] == -1.0
    h[7] = 70.0
    assert a[3].item() == 70.0
    del mem
    gc.collect()
    assert sys.getrefcount(h) == base + 1  # the view still holds the owner
    del a
    gc.collect()
    assert sys.getrefcount(h) == base


def test_memptr_bounds_and_arguments():
    h = numpy.zeros(4, dtype=numpy.int32)
    mem = UnownedMemory(h.ctypes.data, h.nbytes, h, device_id=-1)
    whole = cunp.ndarray((4,), numpy.int32, memptr=MemoryPointer(mem, 0))
    assert whole._ptr == h.ctypes.data
    with pytest.raises(TypeError, match="too small"):
        cunp.ndarray((4,), numpy.int32, memptr=MemoryPointer(mem, 4))
    with pytest.raises(ValueError, match="strides"):
        cunp.ndarray((3,), numpy.int32, memptr=MemoryPointer(mem, 0), strides=(8,))
    with pytest.raises(ValueError, match="outside"):
        MemoryPointer(mem, 17)
    with pytest.raises(ValueError, match="non-negative"):
        UnownedMemory(h.ctypes.data, -1, h)
    with pytest.raises(ValueError, match="device_id"):
        UnownedMemory(h.ctypes.data, 4, h, device_id=-2)
    with pytest.raises(ValueError, match="null"):
        UnownedMemory(0, 16, None)
    assert UnownedMemory(0, 0, None).size == 0
    assert "UnownedMemory" in repr(mem)


@pytest.mark.skipif(cunp.cuda.is_available(), reason="checks the error without a GPU")
def test_a_cuda_device_id_without_a_gpu():
    h = numpy.zeros(2)
    with pytest.raises((ValueError, cunp.cuda.CUDARuntimeError)):
        UnownedMemory(h.ctypes.data, h.nbytes, h, device_id=0)


@needs_cuda
def test_device_memory_of_another_owner():
    owner = cunp.arange(12.0, device="cuda:0")
    mem = UnownedMemory(owner._ptr, owner.nbytes, owner)
    assert mem.device_id == 0
    a = cunp.ndarray((2, 3), numpy.float64, memptr=MemoryPointer(mem, 8 * 6))
    assert a.device == "cuda:0" and a._ptr == owner._ptr + 48
    assert_array_equal(a, numpy.arange(6.0, 12.0).reshape(2, 3))
    a[0, 0] = 100.0
    assert owner[6].item() == 100.0
    explicit = UnownedMemory(owner._ptr, owner.nbytes, owner, device_id=0)
    assert explicit.device_id == 0
    del owner, mem, explicit
    gc.collect()
    assert_array_equal(a, numpy.array([[100.0, 7.0, 8.0], [9.0, 10.0, 11.0]]))

"""DLPack both ways (python/cunp/_interop.py, src/interop/dlpack.cpp): memory shared
with NumPy (same address, writes seen both ways), every dtype and layout, versioned and
legacy capsules read through ctypes, consumption rules, copy/dl_device/stream
arguments, lifetimes. The CUDA part skips without a GPU; PyTorch, CuPy and JAX cases
skip when those are not importable."""
import ctypes
import gc
import sys
import threading
import time

import numpy
import pytest

import cunp
from conftest import ALL_DTYPES, needs_cuda
from helpers import assert_array_equal, random_array

kDLCPU, kDLCUDA, kDLCUDAHost, kDLOpenCL = 1, 2, 3, 4
kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex, kDLBool = 0, 1, 2, 4, 5, 6
READ_ONLY, IS_COPIED = 1, 2


# ---- the DLPack structs, to look inside capsules and to build foreign ones

class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p), ("deleter", DELETER),
                ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


_api = ctypes.pythonapi
_api.PyCapsule_GetName.restype = ctypes.c_char_p
_api.PyCapsule_GetName.argtypes = [ctypes.py_object]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
VERSIONED_NAME = b"dltensor_versioned"  # PyCapsule_New keeps the pointer: these must outlive the capsules


def capsule_name(cap):
    return _api.PyCapsule_GetName(cap).decode()


def versioned_struct(cap):
    """The capsule's DLManagedTensorVersioned, read in place (the struct keeps the capsule alive)."""
    t = DLManagedTensorVersioned.from_address(_api.PyCapsule_GetPointer(cap, VERSIONED_NAME))
    t.capsule = cap
    return t


class ForeignTensor:
    """A DLManagedTensorVersioned built here over a NumPy buffer, with a counting
    deleter: what another library's capsule holds."""

    def __init__(self, values, shape, strides=None, code=kDLFloat, bits=64, lanes=1, byte_offset=0,
                 device=(kDLCPU, 0), version=(1, 0), flags=0):
        self.values = values
        self.deleted = 0
        self._shape = (ctypes.c_int64 * len(shape))(*shape)
        self._strides = None if strides is None else (ctypes.c_int64 * len(strides))(*strides)
        self._deleter = DELETER(self._delete)
        t = DLManagedTensorVersioned()
        t.version = DLPackVersion(*version)
        t.deleter = self._deleter
        t.flags = flags
        t.dl_tensor = DLTensor(values.ctypes.data, DLDevice(*device), len(shape), DLDataType(code, bits, lanes),
                               self._shape, self._strides, byte_offset)
        self.struct = t
        self.capsule = _api.PyCapsule_New(ctypes.addressof(t), VERSIONED_NAME, None)

    def _delete(self, ptr):
        assert ptr == ctypes.addressof(self.struct)
        self.deleted += 1


# ---- NumPy <-> cunp on the cpu


def _roundtrip_writes(np_view, cunp_view):
    one = numpy.ones((), np_view.dtype)
    zero = numpy.zeros((), np_view.dtype)
    np_view[(0,) * np_view.ndim] = one
    assert cunp_view[(0,) * cunp_view.ndim].item() == one.item()
    cunp_view[(-1,) * cunp_view.ndim] = zero
    assert np_view[(-1,) * np_view.ndim] == zero


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: d.name)
def test_numpy_from_dlpack_shares_a_cunp_array(dtype):
    h = random_array((3, 4), dtype)
    a = cunp.asarray(h.copy(), device="cpu")
    n = numpy.from_dlpack(a)
    assert n.dtype == dtype and n.shape == (3, 4)
    assert n.__array_interface__["data"][0] == a._ptr
    numpy.testing.assert_array_equal(n, h)
    _roundtrip_writes(n, a)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: d.name)
def test_cunp_from_dlpack_shares_a_numpy_array(dtype):
    n = random_array((2, 5), dtype)
    a = cunp.from_dlpack(n)
    assert isinstance(a, cunp.ndarray) and a.device == "cpu"
    assert a._ptr == n.ctypes.data
    assert_array_equal(a, n.copy())
    _roundtrip_writes(n, a)


@pytest.mark.parametrize("index", [
    (slice(None, None, -1),), (slice(None, None, -2), slice(1, None, 3)), (slice(1, 3), slice(None, None, -1)),
], ids=["reversed", "negative-and-step", "row-slice-reversed-cols"])
def test_strided_views_both_ways(index):
    base = numpy.arange(48, dtype=numpy.float32).reshape(6, 8)
    n = base[index]
    a = cunp.from_dlpack(n)
    assert a.strides == n.strides and a._ptr == n.ctypes.data
    assert_array_equal(a, n)
    c = cunp.asarray(base.copy(), device="cpu")[index]
    back = numpy.from_dlpack(c)
    assert back.strides == c.strides
    assert back.__array_interface__["data"][0] == c._ptr
    numpy.testing.assert_array_equal(back, n)


def test_transposed_and_zero_strides():
    c = cunp.asarray(numpy.arange(6.0).reshape(2, 3), device="cpu").T
    n = numpy.from_dlpack(c)
    assert n.strides == (8, 24) and n.flags.f_contiguous
    numpy.testing.assert_array_equal(n, numpy.arange(6.0).reshape(2, 3).T)
    b = cunp.broadcast_to(cunp.asarray(numpy.arange(3.0), device="cpu"), (4, 3))
    nb = numpy.from_dlpack(b)  # NumPy asks for a versioned capsule, which can say read-only
    assert nb.strides == (0, 8) and not nb.flags.writeable
    numpy.testing.assert_array_equal(nb, numpy.broadcast_to(numpy.arange(3.0), (4, 3)))
    a = cunp.from_dlpack(numpy.broadcast_to(numpy.arange(3), (2, 3)))
    assert a.strides == (0, 8) and not a.flags.writeable


@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3)])
def test_zero_dim_and_empty(shape):
    h = numpy.full(shape, 7.5, dtype=numpy.float64)
    a = cunp.from_dlpack(h)
    assert a.shape == shape and a.dtype == numpy.float64
    assert_array_equal(a, h)
    c = cunp.asarray(h.copy(), device="cpu")
    n = numpy.from_dlpack(c)
    assert n.shape == shape
    numpy.testing.assert_array_equal(n, h)
    if shape == ():
        assert a.item() == 7.5 and n[()] == 7.5


def test_byte_strides_that_are_not_whole_items_are_refused():
    odd = cunp.ndarray((3,), numpy.int16, buffer=numpy.zeros(10, numpy.uint8), offset=1, strides=(3,))
    with pytest.raises(BufferError, match="multiple of itemsize"):
        odd.__dlpack__(max_version=(1, 0))
    with pytest.raises(BufferError, match="multiple of itemsize"):
        numpy.from_dlpack(odd)


def test_read_only_arrays():
    n = numpy.arange(4.0)
    n.flags.writeable = False
    a = cunp.from_dlpack(n)
    assert not a.flags.writeable and a._ptr == n.ctypes.data
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 1.0
    c = cunp.asarray(numpy.arange(3.0), device="cpu")
    c.flags.writeable = False
    back = numpy.from_dlpack(c)
    assert not back.flags.writeable
    assert versioned_struct(c.__dlpack__(max_version=(1, 0))).flags == READ_ONLY
    # The legacy struct cannot say read-only: refused unless it carries a copy (NumPy's rule).
    with pytest.raises(BufferError, match="readonly"):
        c.__dlpack__()
    copied = cunp.from_dlpack(c.__dlpack__(copy=True))
    assert copied.flags.writeable and copied._ptr != c._ptr
    assert_array_equal(copied, numpy.arange(3.0))


@pytest.mark.parametrize("max_version, name", [
    (None, "dltensor"), ((0, 8), "dltensor"), ((1, 0), "dltensor_versioned"), ((1, 3), "dltensor_versioned"),
    ((2, 0), "dltensor_versioned"),
])
def test_versioned_and_legacy_capsules(max_version, name):
    a = cunp.asarray(numpy.arange(6, dtype=numpy.int32).reshape(2, 3), device="cpu")
    cap = a.__dlpack__(max_version=max_version)
    assert type(cap).__name__ == "PyCapsule"
    assert capsule_name(cap) == name
    b = cunp.from_dlpack(cap)
    assert capsule_name(cap) == "used_" + name
    assert b._ptr == a._ptr
    assert_array_equal(b, numpy.arange(6, dtype=numpy.int32).reshape(2, 3))


def test_versioned_capsule_fields():
    a = cunp.asarray(numpy.arange(12, dtype=numpy.complex64).reshape(3, 4), device="cpu")[:, ::2]
    t = versioned_struct(a.__dlpack__(max_version=(1, 0)))
    assert (t.version.major, t.version.minor) == (1, 0)
    assert t.flags == 0
    dl = t.dl_tensor
    assert dl.data == a._ptr and dl.byte_offset == 0
    assert (dl.device.device_type, dl.device.device_id) == (kDLCPU, 0)
    assert (dl.dtype.code, dl.dtype.bits, dl.dtype.lanes) == (kDLComplex, 64, 1)
    assert dl.ndim == 2
    assert [dl.shape[i] for i in range(2)] == [3, 2]
    assert [dl.strides[i] for i in range(2)] == [4, 2]  # elements
    copy = versioned_struct(a.__dlpack__(max_version=(1, 0), copy=True))
    assert copy.flags == IS_COPIED and copy.dl_tensor.data != a._ptr


@pytest.mark.parametrize("dtype, code, bits", [
    (numpy.bool_, kDLBool, 8), (numpy.int8, kDLInt, 8), (numpy.uint32, kDLUInt, 32), (numpy.float16, kDLFloat, 16),
    (numpy.float64, kDLFloat, 64), (numpy.complex128, kDLComplex, 128),
])
def test_dtype_codes(dtype, code, bits):
    a = cunp.zeros(3, dtype=dtype, device="cpu")
    dl = versioned_struct(a.__dlpack__(max_version=(1, 0))).dl_tensor
    assert (dl.dtype.code, dl.dtype.bits, dl.dtype.lanes) == (code, bits, 1)


def test_a_capsule_is_consumed_once():
    a = cunp.asarray(numpy.arange(3.0), device="cpu")
    for cap, used in ((a.__dlpack__(max_version=(1, 0)), "used_dltensor_versioned"),
                      (a.__dlpack__(), "used_dltensor"), (numpy.arange(3.0).__dlpack__(), "used_dltensor")):
        cunp.from_dlpack(cap)
        assert capsule_name(cap) == used
        with pytest.raises(BufferError, match="already consumed"):
            cunp.from_dlpack(cap)
    with pytest.raises(TypeError, match="__dlpack__"):
        cunp.from_dlpack([1, 2, 3])


def test_an_unconsumed_capsule_frees_its_tensor():
    h = numpy.arange(5.0)
    c = cunp.from_dlpack(h)  # c's storage holds h (through NumPy's deleter) until c goes
    base = sys.getrefcount(h)
    cap = c.__dlpack__(max_version=(1, 0))  # the tensor holds c's storage
    del c
    gc.collect()
    assert sys.getrefcount(h) == base  # still held by the capsule's tensor
    del cap
    gc.collect()
    assert sys.getrefcount(h) == base - 1  # the capsule's destructor ran the deleter


def test_consumer_outlives_the_producer():
    a = cunp.asarray(numpy.arange(10.0), device="cpu") * 2
    n = numpy.from_dlpack(a)
    del a
    gc.collect()
    numpy.testing.assert_array_equal(n, numpy.arange(10.0) * 2)
    h = numpy.arange(8, dtype=numpy.int64) + 100
    c = cunp.from_dlpack(h)
    del h
    gc.collect()
    assert_array_equal(c, numpy.arange(8, dtype=numpy.int64) + 100)


def test_the_deleter_runs_when_the_last_view_goes():
    h = numpy.arange(6.0)
    base = sys.getrefcount(h)
    c = cunp.from_dlpack(h)
    assert sys.getrefcount(h) > base
    view = c[::2]
    del c
    gc.collect()
    assert sys.getrefcount(h) > base
    assert_array_equal(view, numpy.arange(0.0, 6.0, 2.0))
    del view
    gc.collect()
    assert sys.getrefcount(h) == base


def test_copy_argument():
    h = numpy.arange(4.0)
    assert cunp.from_dlpack(h, copy=False)._ptr == h.ctypes.data
    assert cunp.from_dlpack(h, copy=None)._ptr == h.ctypes.data
    c = cunp.from_dlpack(h, copy=True)
    assert c._ptr != h.ctypes.data
    c[0] = 9.0
    assert h[0] == 0.0
    a = cunp.asarray(numpy.arange(4.0), device="cpu")
    assert numpy.from_dlpack(a, copy=False).__array_interface__["data"][0] == a._ptr
    n = numpy.from_dlpack(a, copy=True)
    assert n.__array_interface__["data"][0] != a._ptr
    n[1] = -1.0
    assert a[1].item() == 1.0
    assert cunp.from_dlpack(h, device="cpu", copy=False)._ptr == h.ctypes.data
    with pytest.raises(BufferError, match="copy=False"):
        cunp.from_dlpack(h, device="cuda:0", copy=False)
    with pytest.raises(ValueError):
        cunp.from_dlpack(h, device="tpu")


def test_dl_device_and_stream_arguments_of_a_cpu_array():
    a = cunp.asarray(numpy.arange(3.0), device="cpu")
    assert a.__dlpack_device__() == (kDLCPU, 0)
    assert all(type(v) is int for v in a.__dlpack_device__())
    same = a.__dlpack__(max_version=(1, 0), dl_device=(kDLCPU, 0), copy=False)
    assert versioned_struct(same).dl_tensor.data == a._ptr
    for dl_device in ((kDLCUDA, 0), (kDLOpenCL, 0), (kDLCUDAHost, 0)):
        with pytest.raises(BufferError, match="unsupported device"):
            a.__dlpack__(max_version=(1, 0), dl_device=dl_device)
    for stream in (0, 1, 5, -1):
        with pytest.raises(ValueError, match="stream must be None"):
            a.__dlpack__(stream=stream)
    with pytest.raises(TypeError, match="max_version"):
        a.__dlpack__(max_version=1)
    with pytest.raises(TypeError, match="dl_device"):
        a.__dlpack__(dl_device=1)
    with pytest.raises(TypeError):
        a.__dlpack__(None)  # keyword-only, as the standard has it


class RecordingProducer:
    """A producer that records what from_dlpack asked of it."""

    def __init__(self, array):
        self.array = array
        self.calls = []

    def __dlpack__(self, **kwargs):
        self.calls.append(kwargs)
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


class OldProducer:
    """A producer from before DLPack 1.0: only stream=."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_what_from_dlpack_asks_a_cpu_producer():
    p = RecordingProducer(numpy.arange(3.0))
    a = cunp.from_dlpack(p)
    assert p.calls == [{"stream": None, "max_version": (1, 0), "copy": None}]
    assert a._ptr == p.array.ctypes.data
    cunp.from_dlpack(p, copy=True)
    assert p.calls[-1]["copy"] is True


def test_producers_from_before_dlpack_1():
    h = numpy.arange(5, dtype=numpy.int16)
    a = cunp.from_dlpack(OldProducer(h))
    assert a._ptr == h.ctypes.data
    c = cunp.from_dlpack(OldProducer(h), copy=True)  # the old producer cannot copy: cunp does
    assert c._ptr != h.ctypes.data
    assert_array_equal(c, h)


class OddDeviceProducer(RecordingProducer):
    """A producer whose __dlpack_device__ answers with something other than a tuple of ints."""

    def __init__(self, array, device):
        super().__init__(array)
        self.device = device

    def __dlpack_device__(self):
        return self.device


def test_from_dlpack_reads_the_producers_device_as_python_unpacks_it():
    h = numpy.arange(4.0)
    for device in ([kDLCPU, 0], (numpy.int64(kDLCPU), numpy.int32(0)), iter((kDLCPU, 0))):
        a = cunp.from_dlpack(OddDeviceProducer(h, device))
        assert a._ptr == h.ctypes.data and a._device_str == "cpu"
    with pytest.raises(ValueError, match="not enough values to unpack"):
        cunp.from_dlpack(OddDeviceProducer(h, (kDLCPU,)))
    with pytest.raises(ValueError, match="too many values to unpack"):
        cunp.from_dlpack(OddDeviceProducer(h, (kDLCPU, 0, 0)))
    with pytest.raises(TypeError):
        cunp.from_dlpack(OddDeviceProducer(h, 1))
    with pytest.raises(TypeError):
        cunp.from_dlpack(OddDeviceProducer(h, (None, 0)))


def test_from_dlpack_errors_of_the_producer_and_of_the_argument():
    class NoDevice:
        def __dlpack__(self, **kwargs):
            raise AssertionError("not called")

    class NoDLPack:
        def __dlpack_device__(self):
            return (kDLCPU, 0)

    for x in (NoDevice(), NoDLPack(), numpy.arange(3).tolist(), 3):
        with pytest.raises(TypeError, match="__dlpack__ and __dlpack_device__"):
            cunp.from_dlpack(x)

    class Refusing(RecordingProducer):
        def __dlpack__(self, **kwargs):
            self.calls.append(kwargs)
            raise BufferError("refused")

    p = Refusing(numpy.arange(3.0))
    with pytest.raises(BufferError, match="refused"):  # only TypeError means "retry without keywords"
        cunp.from_dlpack(p)
    assert len(p.calls) == 1


def test_from_dlpack_copies_exactly_when_asked():
    h = numpy.arange(6.0).reshape(2, 3)
    assert cunp.from_dlpack(h)._ptr == h.ctypes.data
    assert cunp.from_dlpack(h, copy=False)._ptr == h.ctypes.data
    assert cunp.from_dlpack(h.__dlpack__(max_version=(1, 0)))._ptr == h.ctypes.data
    for copy in (True, 1):  # a truthy copy other than True: the producer may not copy, so cunp does
        for x in (h, h.__dlpack__(max_version=(1, 0)), h.__dlpack__(), RecordingProducer(h)):
            c = cunp.from_dlpack(x, copy=copy)
            assert c._ptr != h.ctypes.data
            assert_array_equal(c, h)
    p = RecordingProducer(h)
    cunp.from_dlpack(p, copy=1)
    assert p.calls[-1] == {"stream": None, "max_version": (1, 0), "copy": 1}
    # The producer's copy is not copied again (NumPy's copy is the array the producer returned).
    p = RecordingProducer(h)
    c = cunp.from_dlpack(p, copy=True)
    assert p.calls[-1]["copy"] is True and c._ptr != h.ctypes.data


def test_dlpack_device_of_cunp_arrays():
    assert cunp.zeros(2, device="cpu").__dlpack_device__() == (kDLCPU, 0)
    assert all(type(v) is int for v in cunp.zeros(2, device="cpu").__dlpack_device__())


# ---- foreign tensors built here: what cunp reads, refuses, and frees exactly once

def test_foreign_tensor_with_offset_and_element_strides():
    f = ForeignTensor(numpy.arange(8.0), shape=(3,), strides=(2,), byte_offset=8)
    a = cunp.from_dlpack(f.capsule)
    assert capsule_name(f.capsule) == "used_dltensor_versioned"
    assert a.strides == (16,) and a._ptr == f.values.ctypes.data + 8
    assert_array_equal(a, numpy.array([1.0, 3.0, 5.0]))
    a[1] = -3.0
    assert f.values[3] == -3.0
    view = a[1:]
    del a
    gc.collect()
    assert f.deleted == 0
    del view
    gc.collect()
    assert f.deleted == 1


def test_foreign_tensor_flags_and_host_devices():
    f = ForeignTensor(numpy.arange(4.0), shape=(2, 2), flags=READ_ONLY, device=(kDLCUDAHost, 0))
    a = cunp.from_dlpack(f.capsule)
    assert a.device == "cpu" and not a.flags.writeable
    assert a.strides == (16, 8)  # null strides: C-contiguous
    del a
    gc.collect()
    assert f.deleted == 1


@pytest.mark.parametrize("kwargs, match", [
    (dict(code=kDLBfloat, bits=16), "kDLBfloat"),
    (dict(code=kDLFloat, bits=32, lanes=4), "4 lanes"),
    (dict(code=kDLBool, bits=1), "1 bits"),
    (dict(device=(kDLOpenCL, 0)), "device type 4"),
    (dict(version=(2, 0)), "version 2.0"),
], ids=["bfloat16", "vector-lanes", "packed-bool", "opencl", "major-2"])
def test_refused_foreign_tensors_stay_unconsumed(kwargs, match):
    f = ForeignTensor(numpy.zeros(4), shape=(2,), **kwargs)
    with pytest.raises(BufferError, match=match):
        cunp.from_dlpack(f.capsule)
    assert capsule_name(f.capsule) == "dltensor_versioned"  # still the producer's to free
    assert f.deleted == 0


@pytest.mark.skipif(cunp.cuda.is_available(), reason="checks the error without a GPU")
def test_foreign_cuda_tensor_without_a_gpu():
    f = ForeignTensor(numpy.zeros(2), shape=(2,), device=(kDLCUDA, 0))
    with pytest.raises(BufferError, match="CUDA"):
        cunp.from_dlpack(f.capsule)
    assert f.deleted == 0


# ---- other libraries on the cpu

def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch")
    t = torch.arange(6, dtype=torch.float32)
    a = cunp.from_dlpack(t)
    assert a._ptr == t.data_ptr() and a.device == "cpu"
    a[0] = 5.0
    assert t[0].item() == 5.0
    c = cunp.asarray(numpy.arange(4.0), device="cpu")
    back = torch.from_dlpack(c)
    assert back.data_ptr() == c._ptr
    back[1] = 7.0
    assert c[1].item() == 7.0


# ---- CUDA

@needs_cuda
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: d.name)
def test_cuda_round_trip_shares_memory(dtype):
    h = random_array((4, 3), dtype)
    a = cunp.asarray(h, device="cuda:0")
    assert a.__dlpack_device__() == (kDLCUDA, 0)
    cap = a.__dlpack__(stream=1, max_version=(1, 0))
    t = versioned_struct(cap)
    assert (t.dl_tensor.device.device_type, t.dl_tensor.device.device_id) == (kDLCUDA, 0)
    b = cunp.from_dlpack(cap)
    assert b.device == "cuda:0" and b._ptr == a._ptr and b.dtype == dtype
    assert_array_equal(b, h)
    b[0, 0] = numpy.ones((), dtype)
    assert a[0, 0].item() == numpy.ones((), dtype).item()
    c = cunp.from_dlpack(a[::-1, 1:])
    assert c._ptr == a[::-1, 1:]._ptr and c.strides == a[::-1, 1:].strides


@needs_cuda
def test_cuda_export_arguments():
    a = cunp.arange(5, dtype=numpy.int32, device="cuda:0")
    with pytest.raises(ValueError, match="stream=0"):
        a.__dlpack__(stream=0)
    other = cunp.cuda.Stream(non_blocking=True)  # alive while its address is used
    for stream in (None, 1, 2, -1, other.ptr):
        assert versioned_struct(a.__dlpack__(stream=stream, max_version=(1, 0))).dl_tensor.data == a._ptr
    with pytest.raises(BufferError, match="copy=False"):
        a.__dlpack__(max_version=(1, 0), dl_device=(kDLCPU, 0), copy=False)
    with pytest.raises(ValueError, match="stream must be None"):
        a.__dlpack__(max_version=(1, 0), dl_device=(kDLCPU, 0), stream=1)
    host = a.__dlpack__(max_version=(1, 0), dl_device=(kDLCPU, 0))
    t = versioned_struct(host)
    assert t.dl_tensor.device.device_type == kDLCPU and t.flags == IS_COPIED
    n = numpy.from_dlpack(_CapsuleHolder(host, (kDLCPU, 0)))
    numpy.testing.assert_array_equal(n, numpy.arange(5, dtype=numpy.int32))
    moved = cunp.from_dlpack(a, device="cpu")
    assert moved.device == "cpu"
    assert_array_equal(moved, numpy.arange(5, dtype=numpy.int32))
    up = cunp.from_dlpack(numpy.arange(3.0), device="cuda:0")
    assert up.device == "cuda:0"
    assert_array_equal(up, numpy.arange(3.0))


class _CapsuleHolder:
    """Hands out one ready capsule (NumPy's from_dlpack takes objects, not capsules)."""

    def __init__(self, capsule, device):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


@needs_cuda
def test_from_dlpack_passes_cunps_current_stream():
    src = cunp.arange(4.0, device="cuda:0")
    p = RecordingProducer(src)
    cunp.from_dlpack(p)
    # The default stream: 1 (legacy), or 2 under CUNP_CUDA_PER_THREAD_DEFAULT_STREAM=1.
    assert p.calls[-1]["stream"] == cunp._core._current_stream(0).ptr
    assert p.calls[-1]["stream"] in (1, 2)
    s = cunp.cuda.Stream(non_blocking=True)
    with s:
        b = cunp.from_dlpack(p)
    assert p.calls[-1]["stream"] == s.ptr
    assert b._ptr == src._ptr
    cunp.from_dlpack(p, device="cpu")
    assert p.calls[-1]["stream"] is None and p.calls[-1]["dl_device"] == (kDLCPU, 0)


@needs_cuda
def test_export_makes_the_consumer_stream_wait():
    Stream = cunp.cuda.Stream
    producer, consumer = Stream(non_blocking=True), Stream(non_blocking=True)
    gate = threading.Event()
    with producer:
        a = cunp.ones(1024, device="cuda:0")
        producer.launch_host_func(lambda g: g.wait(10), gate)  # the producer is stuck until the gate opens
        cap = a.__dlpack__(stream=consumer.ptr, max_version=(1, 0))
    time.sleep(0.2)
    try:
        assert not consumer.done  # it waits for the producer's pending work
    finally:
        gate.set()
    consumer.synchronize()
    assert producer.done
    assert_array_equal(cunp.from_dlpack(cap), numpy.ones(1024))
    # stream=-1: no synchronization at all.
    gate2 = threading.Event()
    with producer:
        producer.launch_host_func(lambda g: g.wait(10), gate2)
        a.__dlpack__(stream=-1, max_version=(1, 0))
    try:
        time.sleep(0.1)
        assert consumer.done
    finally:
        gate2.set()
    producer.synchronize()


@needs_cuda
def test_cuda_consumer_outlives_the_producer():
    a = cunp.arange(1000.0, device="cuda:0") + 1
    b = cunp.from_dlpack(a.__dlpack__(max_version=(1, 0)))
    del a
    gc.collect()
    assert_array_equal(b, numpy.arange(1000.0) + 1)


@needs_cuda
def test_torch_cuda_tensors():
    torch = pytest.importorskip("torch")
    t = torch.arange(8, dtype=torch.float32, device="cuda")
    a = cunp.from_dlpack(t)
    assert a.device == "cuda:0" and a._ptr == t.data_ptr()
    a[0] = 42.0
    cunp.cuda.Device().synchronize()
    assert t[0].item() == 42.0
    c = cunp.arange(6.0, device="cuda:0")
    back = torch.from_dlpack(c)
    assert back.data_ptr() == c._ptr and back.device.type == "cuda"
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        back2 = torch.from_dlpack(c)  # torch passes its current stream; cunp orders it
        assert back2.sum().item() == 15.0


@needs_cuda
def test_cupy_arrays():
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(10, dtype=cupy.float64)
    a = cunp.from_dlpack(x)
    assert a._ptr == x.data.ptr
    a[3] = -1.0
    assert float(x[3]) == -1.0
    c = cunp.arange(5.0, device="cuda:0")
    y = cupy.from_dlpack(c)
    assert y.data.ptr == c._ptr
    numpy.testing.assert_array_equal(cupy.asnumpy(y), numpy.arange(5.0))


@needs_cuda
def test_jax_arrays():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("JAX has no GPU here")
    x = jnp.arange(6.0, dtype=jnp.float32)
    a = cunp.from_dlpack(x)
    assert a.device == "cuda:0"
    assert_array_equal(a, numpy.arange(6.0, dtype=numpy.float32))
    c = cunp.arange(4.0, dtype=numpy.float32, device="cuda:0")
    y = jnp.from_dlpack(c)
    numpy.testing.assert_array_equal(numpy.asarray(y), numpy.arange(4.0, dtype=numpy.float32))

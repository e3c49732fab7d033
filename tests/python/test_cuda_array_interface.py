"""The CUDA Array Interface (version 3) both ways (python/cunp/_interop.py): the
dict cunp arrays export, and cunp.asarray/cunp.array viewing any object that exposes
one (a pure-Python producer over a cunp allocation, PyTorch, CuPy, Numba) without
copying, keeping it alive and honouring its stream. Only the checks that need no
device memory run without a GPU."""
import gc
import threading
import time
import weakref

import numpy
import pytest

import cunp
from conftest import ALL_DTYPES, needs_cuda
from helpers import assert_array_equal, random_array


class Producer:
    """Exposes __cuda_array_interface__ for memory it owns (a cunp array), the way any
    library would: its own address, shape, strides, typestr, stream."""

    def __init__(self, array, readonly=False, stream=None, strides="auto", **extra):
        self.array = array
        iface = {
            "shape": array.shape,
            "typestr": array.dtype.str,
            "data": (array._ptr if array.size else 0, readonly),
            "version": 3,
            "strides": (None if array.flags.c_contiguous else array.strides) if strides == "auto" else strides,
        }
        if stream is not None:
            iface["stream"] = stream
        iface.update(extra)
        self.iface = iface

    @property
    def __cuda_array_interface__(self):
        return self.iface

    def __array__(self, *args, **kwargs):
        raise AssertionError("cunp must not read a __cuda_array_interface__ object through numpy.asarray")


class HostProducer(Producer):
    """A producer that (wrongly) describes host memory."""

    def __init__(self, host, **extra):
        self.array = host
        self.iface = {"shape": host.shape, "typestr": host.dtype.str, "data": (host.ctypes.data, False),
                      "version": 3, "strides": None}
        self.iface.update(extra)


# ---- without a GPU

def test_cpu_arrays_have_no_cuda_array_interface():
    a = cunp.zeros(3, device="cpu")
    assert not hasattr(a, "__cuda_array_interface__")
    with pytest.raises(AttributeError, match="cpu"):
        a.__cuda_array_interface__  # noqa: B018


def test_host_memory_is_refused_without_touching_numpy():
    h = numpy.arange(4.0)
    for convert in (cunp.asarray, cunp.array):
        with pytest.raises(ValueError, match="not memory of a CUDA device"):
            convert(HostProducer(h))


@pytest.mark.parametrize("change, error, match", [
    ({"typestr": ">f8"}, TypeError, "native byte order"),
    ({"typestr": "|O"}, TypeError, "dtype"),
    ({"mask": object()}, ValueError, "mask"),
], ids=["byte-swapped", "object-dtype", "masked"])
def test_malformed_interfaces(change, error, match):
    p = HostProducer(numpy.arange(4.0), **change)
    with pytest.raises(error, match=match):
        cunp.asarray(p)


def test_missing_entries_and_non_dict_interfaces():
    p = HostProducer(numpy.arange(2.0))
    del p.iface["typestr"]
    with pytest.raises(ValueError, match="typestr"):
        cunp.asarray(p)
    p.iface = [1, 2]
    with pytest.raises(TypeError, match="must be a dict"):
        cunp.asarray(p)


def test_malformed_entries_are_refused_each_time():
    h = numpy.arange(4.0)
    for _ in range(2):  # a refused typestr is not remembered as a dtype
        with pytest.raises(TypeError, match="dtype"):
            cunp.asarray(HostProducer(h, typestr="|O"))
        with pytest.raises(TypeError, match="native byte order"):
            cunp.asarray(HostProducer(h, typestr=">f8"))
    with pytest.raises(ValueError, match="not enough values to unpack"):
        cunp.asarray(HostProducer(h, data=(h.ctypes.data,)))
    with pytest.raises(TypeError):
        cunp.asarray(HostProducer(h, shape=(None,)))
    with pytest.raises(TypeError, match="data pointer must be an address"):
        cunp.asarray(HostProducer(h, data=(-8, False)))
    p = HostProducer(h)
    del p.iface["data"]
    with pytest.raises(ValueError, match="'data'"):
        cunp.asarray(p)
    p = HostProducer(h)
    del p.iface["shape"]
    with pytest.raises(ValueError, match="'shape'"):
        cunp.asarray(p)


def test_every_conversion_takes_the_interface():
    h = numpy.arange(4.0)
    for convert in (cunp.asarray, cunp.asanyarray, cunp.array,
                    lambda x: cunp.asarray(x, copy=False), lambda x: cunp.asarray(x, dtype=numpy.float64)):
        with pytest.raises(ValueError, match="not memory of a CUDA device"):
            convert(HostProducer(h))


# ---- the export

@needs_cuda
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: d.name)
def test_exported_dict(dtype):
    a = cunp.asarray(random_array((3, 4), dtype), device="cuda:0")
    iface = a.__cuda_array_interface__
    assert iface["shape"] == (3, 4)
    assert iface["typestr"] == dtype.str
    assert iface["descr"] == [("", dtype.str)]
    assert iface["data"] == (a._ptr, False)
    assert iface["strides"] is None
    assert iface["version"] == 3
    # The default stream: 1 (legacy), or 2 under CUNP_CUDA_PER_THREAD_DEFAULT_STREAM=1; never 0.
    assert iface["stream"] == cunp._core._current_stream(0).ptr
    assert iface["stream"] in (1, 2)
    assert iface.get("mask") is None


@needs_cuda
def test_exported_strides_read_only_empty_and_stream():
    a = cunp.arange(24.0, device="cuda:0").reshape(4, 6)
    v = a[::-1, ::2]
    iface = v.__cuda_array_interface__
    assert iface["strides"] == v.strides == (-48, 16)
    assert iface["data"][0] == v._ptr
    assert cunp.broadcast_to(a[0], (2, 6)).__cuda_array_interface__["data"][1] is True
    assert a.T.__cuda_array_interface__["strides"] == (8, 48)
    e = cunp.zeros((0, 3), device="cuda:0")
    assert e.__cuda_array_interface__["data"] == (0, False)
    assert e.__cuda_array_interface__["shape"] == (0, 3)
    s = cunp.cuda.Stream(non_blocking=True)
    with s:
        assert a.__cuda_array_interface__["stream"] == s.ptr


# ---- the import

@needs_cuda
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: d.name)
def test_asarray_views_a_producer_in_place(dtype):
    h = random_array((5, 2), dtype)
    src = cunp.asarray(h, device="cuda:0")
    a = cunp.asarray(Producer(src))
    assert isinstance(a, cunp.ndarray)
    assert a._ptr == src._ptr and a.device == "cuda:0" and a.dtype == dtype
    assert_array_equal(a, h)
    a[0, 0] = numpy.zeros((), dtype)
    assert src[0, 0].item() == numpy.zeros((), dtype).item()


@needs_cuda
def test_strided_read_only_and_copies():
    src = cunp.arange(30.0, device="cuda:0").reshape(5, 6)
    view = src[::2, ::-3]
    a = cunp.asarray(Producer(view))
    assert a._ptr == view._ptr and a.strides == view.strides
    assert_array_equal(a, numpy.arange(30.0).reshape(5, 6)[::2, ::-3])
    ro = cunp.asarray(Producer(src, readonly=True))
    assert not ro.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        ro[0, 0] = 1.0
    copied = cunp.array(Producer(src))  # cunp.array copies by default
    assert copied._ptr != src._ptr
    assert_array_equal(copied, numpy.arange(30.0).reshape(5, 6))
    assert cunp.asarray(Producer(src), copy=True)._ptr != src._ptr
    assert cunp.asarray(Producer(src), copy=False)._ptr == src._ptr
    as32 = cunp.asarray(Producer(src), dtype=numpy.float32)
    assert as32.dtype == numpy.float32 and as32._ptr != src._ptr
    host = cunp.asarray(Producer(src), device="cpu")
    assert host.device == "cpu"
    assert_array_equal(host, numpy.arange(30.0).reshape(5, 6))
    empty = cunp.asarray(Producer(cunp.zeros((0, 4), device="cuda:0")))
    assert empty.shape == (0, 4) and empty.device == "cuda:0"


@needs_cuda
def test_the_producer_lives_as_long_as_a_view():
    src = cunp.arange(10.0, device="cuda:0")
    p = Producer(src)
    alive = weakref.ref(p)
    a = cunp.asarray(p)[2:]
    del p, src
    gc.collect()
    assert alive() is not None
    assert_array_equal(a, numpy.arange(2.0, 10.0))
    del a
    gc.collect()
    assert alive() is None


@needs_cuda
def test_stream_entry():
    src = cunp.ones(8, device="cuda:0")
    with pytest.raises(ValueError, match="not allowed"):
        cunp.asarray(Producer(src, stream=0))
    for stream in (None, 1, 2):
        assert cunp.asarray(Producer(src, stream=stream))._ptr == src._ptr
    Stream = cunp.cuda.Stream
    producer, consumer = Stream(non_blocking=True), Stream(non_blocking=True)
    gate = threading.Event()
    producer.launch_host_func(lambda g: g.wait(10), gate)  # the producer's work is pending
    try:
        with consumer:
            a = cunp.asarray(Producer(src, stream=producer.ptr))  # cunp's current stream waits on it
        time.sleep(0.2)
        assert not consumer.done
    finally:
        gate.set()
    consumer.synchronize()
    assert producer.done
    assert_array_equal(a, numpy.ones(8))


@needs_cuda
def test_torch():
    torch = pytest.importorskip("torch")
    t = torch.arange(6, dtype=torch.float32, device="cuda").reshape(2, 3)
    a = cunp.asarray(t)
    assert a._ptr == t.data_ptr() and a.shape == (2, 3) and a.device == "cuda:0"
    a[1, 1] = -1.0
    cunp.cuda.Device().synchronize()
    assert t[1, 1].item() == -1.0
    c = cunp.arange(4.0, device="cuda:0")
    back = torch.as_tensor(c, device="cuda")
    assert back.data_ptr() == c._ptr


@needs_cuda
def test_cupy():
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(12, dtype=cupy.int32).reshape(3, 4)[:, 1:]
    a = cunp.asarray(x)
    assert a._ptr == x.data.ptr and a.strides == x.strides
    assert_array_equal(a, numpy.arange(12, dtype=numpy.int32).reshape(3, 4)[:, 1:])
    c = cunp.arange(5.0, device="cuda:0")
    y = cupy.asarray(c)
    assert y.data.ptr == c._ptr


@needs_cuda
def test_numba():
    numba_cuda = pytest.importorskip("numba.cuda")
    if not numba_cuda.is_available():
        pytest.skip("numba.cuda has no GPU here")
    c = cunp.arange(6.0, device="cuda:0")
    d = numba_cuda.as_cuda_array(c)
    assert d.device_ctypes_pointer.value == c._ptr
    numpy.testing.assert_array_equal(d.copy_to_host(), numpy.arange(6.0))
    x = numba_cuda.to_device(numpy.arange(4, dtype=numpy.int64))
    a = cunp.asarray(x)
    assert a._ptr == x.device_ctypes_pointer.value
    assert_array_equal(a, numpy.arange(4, dtype=numpy.int64))


@needs_cuda
def test_the_one_call_import_keeps_every_rule():
    src = cunp.arange(12.0, device="cuda:0").reshape(3, 4)[:, ::2]
    p = Producer(src, readonly=True)
    p.iface["shape"] = list(src.shape)  # sequences other than tuples, as Python unpacks them
    p.iface["strides"] = list(src.strides)
    p.iface["data"] = [src._ptr, 1]
    for convert in (cunp.asarray, cunp.asanyarray, lambda x: cunp.asarray(x, copy=False)):
        a = convert(p)
        assert a._ptr == src._ptr and a.strides == src.strides and not a.flags.writeable
        assert_array_equal(a, src.get())
    c = cunp.asarray(p, copy=True)
    assert c._ptr != src._ptr and c.flags.writeable
    assert_array_equal(c, src.get())
    assert cunp.asarray(Producer(src), dtype=numpy.float32).dtype == numpy.float32
    s = cunp.cuda.Stream(non_blocking=True)
    with s:  # the producer's stream is cunp's current one: nothing to order
        a = cunp.asarray(Producer(src, stream=s.ptr))
        assert a._ptr == src._ptr
        assert_array_equal(a, src.get())


@needs_cuda
def test_dlpack_device_of_cuda_arrays():
    d = cunp.zeros(2, device="cuda:0").__dlpack_device__()
    assert d == (2, 0) and all(type(v) is int for v in d)

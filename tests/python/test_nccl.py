"""cunp.cuda.nccl (NCCL collectives), peer access between devices, and operations that mix
devices. Without a GPU the NCCL calls must raise CUDARuntimeError; with one GPU NCCL runs
one rank on it; the tests marked for two GPUs skip with fewer (docs/multi-gpu.md lists
them)."""
import numpy
import pytest

import cunp
from cunp.cuda import nccl, runtime

N_GPUS = cunp.cuda.runtime.getDeviceCount() if cunp.cuda.is_available() else 0
needs_gpu = pytest.mark.skipif(N_GPUS == 0, reason="needs a CUDA device")
needs_nccl = pytest.mark.skipif(not nccl.is_available(), reason="needs a CUDA device and libnccl")
needs_2_gpus = pytest.mark.skipif(N_GPUS < 2, reason="needs 2 CUDA devices")


def _libnccl_loads():
    try:
        nccl.get_version()
    except RuntimeError:
        return False
    return True


# ---- API surface (no GPU needed)

def test_constants_are_nccls_values():
    assert (nccl.NCCL_INT8, nccl.NCCL_UINT8, nccl.NCCL_INT32, nccl.NCCL_UINT32, nccl.NCCL_INT64,
            nccl.NCCL_UINT64, nccl.NCCL_FLOAT16, nccl.NCCL_FLOAT32, nccl.NCCL_FLOAT64,
            nccl.NCCL_BFLOAT16) == tuple(range(10))
    assert (nccl.NCCL_CHAR, nccl.NCCL_INT, nccl.NCCL_HALF, nccl.NCCL_FLOAT, nccl.NCCL_DOUBLE) == (0, 2, 6, 7, 8)
    assert (nccl.NCCL_SUM, nccl.NCCL_PROD, nccl.NCCL_MAX, nccl.NCCL_MIN, nccl.NCCL_AVG) == (0, 1, 2, 3, 4)


def test_api_surface_is_cupys():
    for name in ("get_version", "get_build_version", "get_unique_id", "groupStart", "groupEnd",
                 "NcclCommunicator", "NcclError"):
        assert hasattr(nccl, name), name
    for name in ("initAll", "allReduce", "bcast", "broadcast", "reduce", "allGather", "reduceScatter",
                 "send", "recv", "device_id", "rank_id", "size", "destroy", "abort", "check_async_error",
                 "all_reduce", "all_gather", "reduce_scatter", "broadcast_array", "reduce_array",
                 "send_array", "recv_array"):
        assert hasattr(nccl.NcclCommunicator, name), name
    assert issubclass(nccl.NcclError, runtime.CUDARuntimeError)
    assert issubclass(nccl.NcclError, RuntimeError)
    assert hasattr(cunp.cuda, "nccl")


def test_get_datatype():
    assert nccl.get_datatype(numpy.float32) == nccl.NCCL_FLOAT32
    assert nccl.get_datatype("int64") == nccl.NCCL_INT64
    with pytest.raises(TypeError, match="complex128"):
        nccl.get_datatype(numpy.complex128)


def test_version():
    if not _libnccl_loads():
        with pytest.raises(runtime.CUDARuntimeError, match="NCCL is not available"):
            nccl.get_version()
        return
    v = nccl.get_version()
    assert v >= 20000
    if nccl.get_build_version():
        assert v // 10000 == nccl.get_build_version() // 10000


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="commId"):
        nccl.NcclCommunicator(1, (0,) * 5, 0)
    with pytest.raises(ValueError, match="ndev"):
        nccl.NcclCommunicator(0, (0,) * 128, 0)
    with pytest.raises(ValueError, match="rank 3"):
        nccl.NcclCommunicator(2, (0,) * 128, 3)
    with pytest.raises(ValueError, match="devices is empty"):
        nccl.NcclCommunicator.initAll([])


@pytest.mark.skipif(N_GPUS > 0, reason="a CUDA device is present")
@pytest.mark.parametrize("call", [
    lambda: nccl.get_unique_id(),
    lambda: nccl.groupStart(),
    lambda: nccl.groupEnd(),
    lambda: nccl.NcclCommunicator(1, (0,) * 128, 0),
    lambda: nccl.NcclCommunicator.initAll(1),
    lambda: runtime.deviceCanAccessPeer(0, 1),
    lambda: runtime.deviceEnablePeerAccess(1),
    lambda: runtime.deviceDisablePeerAccess(1),
], ids=["get_unique_id", "groupStart", "groupEnd", "NcclCommunicator", "initAll", "deviceCanAccessPeer",
        "deviceEnablePeerAccess", "deviceDisablePeerAccess"])
def test_without_a_gpu_every_call_raises(call):
    with pytest.raises(runtime.CUDARuntimeError, match="CUDA is unavailable"):
        call()
    assert not nccl.is_available()


# ---- one GPU: one rank

@needs_nccl
def test_one_rank_all_reduce_is_the_input():
    with cunp.cuda.Device(0):
        comm = nccl.NcclCommunicator(1, nccl.get_unique_id(), 0)
        assert (comm.size(), comm.rank_id(), comm.device_id()) == (1, 0, 0)
        host = numpy.arange(4096, dtype=numpy.float32) * 0.5
        x = cunp.asarray(host)
        y = cunp.zeros_like(x)
        stream = cunp.cuda.get_current_stream()
        comm.allReduce(x.data.ptr, y.data.ptr, x.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, stream.ptr)
        numpy.testing.assert_array_equal(cunp.asnumpy(y), host)
        # the array helper, in place and out of place, and a complex sum
        z = comm.all_reduce(x, cunp.empty_like(x), nccl.NCCL_SUM)
        numpy.testing.assert_array_equal(cunp.asnumpy(z), host)
        c = cunp.asarray(host + 1j * host)
        comm.all_reduce(c)
        numpy.testing.assert_array_equal(cunp.asnumpy(c), host + 1j * host)
        g = comm.all_gather(x)
        numpy.testing.assert_array_equal(cunp.asnumpy(g), host)
        r = comm.reduce_scatter(x, op=nccl.NCCL_MAX)
        numpy.testing.assert_array_equal(cunp.asnumpy(r), host)
        b = comm.broadcast_array(x, cunp.zeros_like(x), root=0)
        numpy.testing.assert_array_equal(cunp.asnumpy(b), host)
        comm.check_async_error()
        comm.destroy()
        with pytest.raises(ValueError, match="destroyed"):
            comm.size()


@needs_nccl
def test_array_arguments_are_checked():
    with cunp.cuda.Device(0):
        comm = nccl.NcclCommunicator.initAll([0])[0]
        x = cunp.arange(10, dtype=cunp.float32)
        with pytest.raises(ValueError, match="recvbuf"):
            comm.all_reduce(x, cunp.zeros(5, dtype=cunp.float32))
        with pytest.raises(TypeError, match="dtype"):
            comm.all_reduce(x, cunp.zeros(10, dtype=cunp.float64))
        with pytest.raises(TypeError, match="bool"):
            comm.all_reduce(cunp.zeros(10, dtype=bool))
        with pytest.raises(ValueError, match="C-contiguous"):
            comm.all_reduce(cunp.zeros(20, dtype=cunp.float32)[::2])
        with pytest.raises(ValueError, match="cpu"):
            comm.all_reduce(cunp.zeros(10, dtype=cunp.float32, device="cpu"))
        with pytest.raises(nccl.NcclError):  # root 5 of 1 rank: NCCL's own error
            comm.broadcast(x.data.ptr, x.data.ptr, 10, nccl.NCCL_FLOAT32, 5, 0)


# ---- two GPUs

@needs_2_gpus
def test_peer_access_queries():
    can = runtime.deviceCanAccessPeer(0, 1)
    assert can in (0, 1)
    if can:
        with cunp.cuda.Device(0):
            try:
                runtime.deviceEnablePeerAccess(1)
            except runtime.CUDARuntimeError as e:  # already enabled by an earlier test
                assert "PeerAccessAlreadyEnabled" in str(e) or "already" in str(e)


@needs_2_gpus
@pytest.mark.parametrize("how", ["asarray", "to_device", "copyto", "strided"])
def test_copy_between_gpus(how):
    host = numpy.arange(3 * 1000, dtype=numpy.float64).reshape(3, 1000)
    with cunp.cuda.Device(0):
        a = cunp.asarray(host)
        a = a * 2  # pending work on device 0's stream when the copy is enqueued
    if how == "asarray":
        b = cunp.asarray(a, device="cuda:1")
    elif how == "to_device":
        b = a.to_device("cuda:1")
    elif how == "copyto":
        b = cunp.zeros(host.shape, dtype=host.dtype, device="cuda:1")
        cunp.copyto(b, a)
    else:
        b = cunp.asarray(a[:, ::3], device="cuda:1")
        host = host[:, ::3]
    assert b.device == cunp.Device("cuda:1")
    numpy.testing.assert_array_equal(cunp.asnumpy(b), host * 2)


@needs_2_gpus
@needs_nccl
def test_all_reduce_across_two_gpus_in_one_process():
    comms = nccl.NcclCommunicator.initAll([0, 1])
    n = 1 << 20
    hosts = [numpy.random.default_rng(k).random(n, dtype=numpy.float32) for k in range(2)]
    xs = []
    for k in range(2):
        with cunp.cuda.Device(k):
            xs.append(cunp.asarray(hosts[k]))
    nccl.groupStart()
    for k in range(2):
        with cunp.cuda.Device(k):
            comms[k].all_reduce(xs[k])
    nccl.groupEnd()
    expected = hosts[0] + hosts[1]
    for k in range(2):
        numpy.testing.assert_allclose(cunp.asnumpy(xs[k]), expected, rtol=1e-6)


# ---- operations mixing devices: ValueError naming both

def _device_names():
    names = ["cpu"] + ["cuda:%d" % i for i in range(N_GPUS)]
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]


PAIRS = _device_names()


@pytest.mark.skipif(not PAIRS, reason="needs 2 devices (cpu and a GPU, or 2 GPUs)")
@pytest.mark.parametrize("pair", PAIRS or [("cpu", "cpu")], ids=lambda p: "-".join(p))
@pytest.mark.parametrize("op", ["add", "matmul", "concatenate", "einsum"])
def test_mixing_devices_raises_naming_both(pair, op):
    d0, d1 = pair
    a = cunp.ones((4, 4), device=d0)
    b = cunp.ones((4, 4), device=d1)
    fn = {"add": lambda: a + b, "matmul": lambda: a @ b,
          "concatenate": lambda: cunp.concatenate([a, b]),
          "einsum": lambda: cunp.einsum("ij,jk->ik", a, b)}[op]
    with pytest.raises(ValueError) as info:
        fn()
    assert d0 in str(info.value) and d1 in str(info.value), str(info.value)

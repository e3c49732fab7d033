"""NCCL collectives between CUDA devices, shaped like ``cupy.cuda.nccl``.

``NcclCommunicator(ndev, commId, rank)`` joins rank `rank` of `ndev` on the current CUDA
device; ``NcclCommunicator.initAll(devices)`` makes one per device in this process. Its
camelCase methods take raw device pointers, an ``NCCL_*`` datatype and op and a stream
(an int, as CuPy; a cunp Stream also works). The snake_case methods (``all_reduce``,
``broadcast``, ``reduce``, ``all_gather``, ``reduce_scatter``, ``send``, ``recv``) take
cunp arrays on the communicator's device and run on that device's current stream.

libnccl is loaded on first use (the toolkit's, or a ``libnccl.so.2`` on the loader's
path, such as the ``nvidia-nccl`` wheel's after its directory is in ``LD_LIBRARY_PATH``).
Without it, or without a GPU, every call raises ``CUDARuntimeError`` saying why; a failed
NCCL call raises :class:`NcclError` (a ``CUDARuntimeError``) with NCCL's message.
See docs/multi-gpu.md.
"""
from cunp import _core

NcclError = _core.NcclError

# ncclDataType_t
NCCL_INT8 = NCCL_CHAR = 0
NCCL_UINT8 = 1
NCCL_INT32 = NCCL_INT = 2
NCCL_UINT32 = 3
NCCL_INT64 = 4
NCCL_UINT64 = 5
NCCL_FLOAT16 = NCCL_HALF = 6
NCCL_FLOAT32 = NCCL_FLOAT = 7
NCCL_FLOAT64 = NCCL_DOUBLE = 8
NCCL_BFLOAT16 = 9
# ncclRedOp_t
NCCL_SUM = 0
NCCL_PROD = 1
NCCL_MAX = 2
NCCL_MIN = 3
NCCL_AVG = 4

_DTYPES = {"int8": NCCL_INT8, "uint8": NCCL_UINT8, "int32": NCCL_INT32, "uint32": NCCL_UINT32,
           "int64": NCCL_INT64, "uint64": NCCL_UINT64, "float16": NCCL_FLOAT16,
           "float32": NCCL_FLOAT32, "float64": NCCL_FLOAT64}


def get_version():
    """The loaded libnccl's version code (ncclGetVersion: 22803 for NCCL 2.28.3)."""
    return _core._nccl_get_version()


def get_build_version():
    """The version of the nccl.h cunp was compiled with (0 if it had none)."""
    return _core._nccl_get_build_version()


def is_available():
    """True when libnccl loads and a CUDA device is usable (never raises)."""
    if _core._device_count() == 0:
        return False
    try:
        get_version()
    except RuntimeError:
        return False
    return True


def get_unique_id():
    """A new communicator id (a tuple of 128 ints, as CuPy's): made by one rank and handed
    to every rank's NcclCommunicator."""
    return _core._nccl_get_unique_id()


def groupStart():
    """Starts a group of NCCL calls (ncclGroupStart): needed when one thread drives several
    communicators, or for matching send/recv pairs."""
    _core._nccl_group_start()


def groupEnd():
    """Ends the group started by groupStart and launches its calls (ncclGroupEnd)."""
    _core._nccl_group_end()


def get_datatype(dtype):
    """The NCCL_* datatype of a NumPy/cunp dtype (TypeError for one NCCL does not have)."""
    import numpy
    name = numpy.dtype(dtype).name
    if name not in _DTYPES:
        raise TypeError("NCCL has no datatype for dtype %s" % name)
    return _DTYPES[name]


def _stream_ptr(stream):
    if stream is None:
        return 0
    ptr = getattr(stream, "ptr", stream)
    return int(ptr)


def _ptr(buf):
    """A raw pointer argument: an int, or anything with ``.data.ptr`` / ``.ptr``."""
    if isinstance(buf, int):
        return buf
    data = getattr(buf, "data", None)
    if data is not None and hasattr(data, "ptr"):
        return int(data.ptr)
    return int(getattr(buf, "ptr", buf))


class NcclCommunicator:
    """One rank of an NCCL communicator (cupy.cuda.nccl.NcclCommunicator)."""

    __slots__ = ("_c",)

    def __init__(self, ndev, commId, rank):
        self._c = _core._NcclCommunicator(int(ndev), commId, int(rank))

    @staticmethod
    def initAll(devices):
        """One communicator per device in this process (ncclCommInitAll). `devices` is a
        list of device ids or an int n (devices 0..n-1), as in CuPy."""
        if isinstance(devices, int):
            devices = list(range(devices))
        out = []
        for c in _core._NcclCommunicator.init_all([int(d) for d in devices]):
            comm = NcclCommunicator.__new__(NcclCommunicator)
            comm._c = c
            out.append(comm)
        return out

    # ---- the communicator
    @property
    def comm(self):
        """The ncclComm_t as an int (0 once destroyed)."""
        return self._c.comm

    def device_id(self):
        return self._c.device_id()

    def rank_id(self):
        return self._c.rank_id()

    def size(self):
        return self._c.size()

    def destroy(self):
        self._c.destroy()

    def abort(self):
        self._c.abort()

    def check_async_error(self):
        self._c.check_async_error()

    # ---- raw pointers, as CuPy
    def allReduce(self, sendbuf, recvbuf, count, datatype, op, stream):
        self._c.allReduce(_ptr(sendbuf), _ptr(recvbuf), count, datatype, op, _stream_ptr(stream))

    def bcast(self, buff, count, datatype, root, stream):
        self._c.bcast(_ptr(buff), count, datatype, root, _stream_ptr(stream))

    def broadcast(self, sendbuff, recvbuff, count, datatype, root, stream):
        self._c.broadcast(_ptr(sendbuff), _ptr(recvbuff), count, datatype, root, _stream_ptr(stream))

    def reduce(self, sendbuf, recvbuf, count, datatype, op, root, stream):
        self._c.reduce(_ptr(sendbuf), _ptr(recvbuf), count, datatype, op, root, _stream_ptr(stream))

    def allGather(self, sendbuf, recvbuf, count, datatype, stream):
        self._c.allGather(_ptr(sendbuf), _ptr(recvbuf), count, datatype, _stream_ptr(stream))

    def reduceScatter(self, sendbuf, recvbuf, recvcount, datatype, op, stream):
        self._c.reduceScatter(_ptr(sendbuf), _ptr(recvbuf), recvcount, datatype, op, _stream_ptr(stream))

    def send(self, sendbuf, count, datatype, peer, stream):
        self._c.send(_ptr(sendbuf), count, datatype, peer, _stream_ptr(stream))

    def recv(self, recvbuf, count, datatype, peer, stream):
        self._c.recv(_ptr(recvbuf), count, datatype, peer, _stream_ptr(stream))

    # ---- cunp arrays on the communicator's device, on its current stream
    def _empty(self, size, like):
        import cunp
        return cunp.empty((size,), dtype=like.dtype, device="cuda:%d" % self.device_id())

    def all_reduce(self, sendbuf, recvbuf=None, op=NCCL_SUM):
        """Reduces `sendbuf` over all ranks into `recvbuf` (default: in place); returns it."""
        recvbuf = sendbuf if recvbuf is None else recvbuf
        self._c._all_reduce(sendbuf, recvbuf, op)
        return recvbuf

    def broadcast_array(self, sendbuf, recvbuf=None, root=0):
        """Copies root's `sendbuf` into every rank's `recvbuf` (default: in place)."""
        recvbuf = sendbuf if recvbuf is None else recvbuf
        self._c._broadcast(sendbuf, recvbuf, root)
        return recvbuf

    def reduce_array(self, sendbuf, recvbuf=None, op=NCCL_SUM, root=0):
        """Reduces `sendbuf` over all ranks into root's `recvbuf` (default: in place)."""
        recvbuf = sendbuf if recvbuf is None else recvbuf
        self._c._reduce(sendbuf, recvbuf, op, root)
        return recvbuf

    def all_gather(self, sendbuf, recvbuf=None):
        """Every rank's `sendbuf`, in rank order, in `recvbuf` (default: a new 1-D array of
        size() * sendbuf.size)."""
        if recvbuf is None:
            recvbuf = self._empty(self.size() * sendbuf.size, sendbuf)
        self._c._all_gather(sendbuf, recvbuf)
        return recvbuf

    def reduce_scatter(self, sendbuf, recvbuf=None, op=NCCL_SUM):
        """Reduces `sendbuf` over all ranks and leaves block rank_id() of it in `recvbuf`
        (default: a new 1-D array of sendbuf.size / size())."""
        if recvbuf is None:
            n = self.size()
            if sendbuf.size % n:
                raise ValueError("nccl reduce_scatter: sendbuf.size (%d) is not a multiple of size() (%d)"
                                 % (sendbuf.size, n))
            recvbuf = self._empty(sendbuf.size // n, sendbuf)
        self._c._reduce_scatter(sendbuf, recvbuf, op)
        return recvbuf

    def send_array(self, array, peer):
        """Sends `array` to rank `peer` (pair with its recv_array; group both directions)."""
        self._c._send(array, peer)

    def recv_array(self, array, peer):
        """Receives into `array` from rank `peer`; returns it."""
        self._c._recv(array, peer)
        return array

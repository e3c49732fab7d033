"""cunp: NumPy and SciPy for NVIDIA GPUs.

``import cunp as np`` runs NumPy programs on the default device: ``cuda:0`` when a
GPU is usable, otherwise ``cpu`` (``CUNP_DEVICE`` overrides).
"""
import numpy as _numpy

from cunp import _core


def _nvidia_wheel_dirs():
    # NVIDIA's CUDA wheels (nvidia-cublas, nvidia-cuda-nvrtc, ...) install their libraries
    # under site-packages/nvidia/<name>/lib; the CUDA libraries are searched there after
    # CUNP_CUDA_PATH/CUDA_PATH and before the system loader (docs/install.md). Cheap:
    # one stat per sys.path entry, nothing imported or loaded.
    import os
    import sys
    dirs = []
    for entry in sys.path:
        d = os.path.join(entry or ".", "nvidia")
        if os.path.isdir(d) and d not in dirs:
            dirs.append(os.path.abspath(d))
    return dirs


_core._set_wheel_library_dirs(_nvidia_wheel_dirs())
from cunp._core import ndarray, result_type, promote_types, can_cast
from cunp._core import empty, zeros, ones, full, empty_like, zeros_like, ones_like, full_like
from cunp._core import arange, linspace, logspace, geomspace, eye, identity, tri
from cunp._core import bartlett, blackman, hamming, hanning, kaiser
from cunp._core import empty_pinned, zeros_pinned
from cunp import cuda
from cunp.cuda import get_default_memory_pool, get_default_pinned_memory_pool  # CuPy's top-level names
from cunp._kernel import ElementwiseKernel, ReductionKernel
from cunp._raw_kernel import RawKernel, RawModule
from cunp._fuse import fuse, Fusion  # noqa: F401
from cunp._reductions import *  # noqa: F401,F403 - sum, mean, ... (their module lists them)
from cunp._statistics import *  # noqa: F401,F403 - median, quantile, histogram, ...
from cunp import fft, linalg, random  # noqa: F401
from cunp._linalg_top import matmul, dot, vdot, inner, outer, tensordot, trace  # noqa: F401
from cunp._linalg_top import einsum, einsum_path, kron, cross, vecdot, matrix_transpose  # noqa: F401
from cunp._core import take, put, nonzero, flatnonzero, argwhere, compress, take_along_axis  # noqa: F401
from cunp._core import (  # noqa: F401 - index routines
    put_along_axis, extract, choose, select, place, putmask, diag_indices, diag_indices_from, tril_indices,
    tril_indices_from, triu_indices, triu_indices_from, indices, ix_, ravel_multi_index, unravel_index,
)
from cunp._sorting import *  # noqa: F401,F403 - sort, argsort, unique, isin, ... (its module lists them)
from cunp._manipulation import (  # noqa: F401
    moveaxis, swapaxes, rollaxis, expand_dims, squeeze, atleast_1d, atleast_2d, atleast_3d,
    flip, fliplr, flipud, rot90, broadcast_arrays, concatenate, stack, vstack, hstack, dstack,
    column_stack, append, split, array_split, hsplit, vsplit, dsplit, tile, repeat, roll, resize, pad,
    trim_zeros, insert, delete, concat, permute_dims, broadcast_shapes, unstack, meshgrid,
)
from cunp._ufuncs import *  # noqa: F401,F403 - every ufunc: add, sin, ...
from cunp._ufuncs import (
    ufunc, where, clip, real, imag, angle, nan_to_num, around, round, isclose, allclose, array_equal,
    errstate, seterr, geterr, seterrcall, geterrcall,
)
from cunp._array import (
    Device, asarray, array, asanyarray, asnumpy, ascontiguousarray, asfortranarray, copy,
    diag, diagonal, tril, triu, get_array_module, finfo, iinfo, show_config, reshape, ravel,
    transpose, shape, ndim, size, may_share_memory, copyto, broadcast_to, astype, isdtype,
)
from cunp._array_api import __array_api_version__, __array_namespace_info__  # noqa: F401
from cunp._interop import from_dlpack  # noqa: F401 - also ndarray.__dlpack__, __cuda_array_interface__

from cunp import _protocols  # noqa: E402,F401 - __array_ufunc__, __array_function__, pickling

from cunp._functions_extra import *  # noqa: E402,F401,F403 - interp, convolve, poly*, gradient, ...
from cunp._misc import *  # noqa: E402,F401,F403 - I/O, printing to strings, ndindex, ...
from cunp._namespace_rest import *  # noqa: E402,F401,F403 - broadcast, frompyfunc, poly1d, print options
from cunp._ndarray import flatiter  # noqa: E402,F401 - and every Python attribute of ndarray
__version__ = _core.version()

# dtypes are NumPy's own objects, so `a.dtype == np.float32` and `cunp.float32 is
# numpy.float32` both hold.
from numpy import (  # noqa: E402
    dtype, bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32,
    float64, complex64, complex128, intp, uintp, byte, ubyte, short, ushort, intc, uintc,
    longlong, ulonglong, half, single, double, csingle, cdouble, generic, number, integer,
    signedinteger, unsignedinteger, floating, complexfloating, inexact, newaxis,
    pi, e, inf, nan, euler_gamma,
)
from numpy import bool  # noqa: E402,A004
from numpy import int_, uint  # noqa: E402

# inspect.signature() for the functions and methods bound in C++ (cunp/_signatures.py).
from cunp import _signatures  # noqa: E402

_signatures.sign_namespace(globals(), __name__)
_signatures.sign_namespace(vars(cuda.runtime), cuda.runtime.__name__)
_signatures.sign_methods(ndarray)

__all__ = [n for n in dir() if not n.startswith("_")]

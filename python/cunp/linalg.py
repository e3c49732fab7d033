"""cunp.linalg (NumPy's numpy.linalg): LAPACKE on the cpu device, cuSOLVER on CUDA
devices; every function works on stacks of matrices like NumPy 2."""
import numbers
from collections import namedtuple

import numpy as _numpy
from numpy.linalg import LinAlgError

from cunp import _core
from cunp._array import asarray
from cunp._linalg_top import cross as _top_cross
from cunp._linalg_top import matmul, matrix_transpose, tensordot, vdot, vecdot  # noqa: F401 - numpy.linalg has them
from cunp._linalg_top import outer as _top_outer
from cunp._linalg_top import trace as _top_trace

__all__ = [
    "LinAlgError", "solve", "inv", "det", "slogdet", "cholesky", "qr", "svd", "eigh", "eigvalsh", "eig",
    "eigvals", "norm", "matrix_power", "matrix_rank", "pinv", "lstsq", "matmul", "outer", "tensordot", "trace",
    "vdot", "multi_dot", "cond", "tensorsolve", "tensorinv", "svdvals", "matrix_transpose", "vector_norm",
    "matrix_norm", "diagonal", "cross", "vecdot",
]

SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])


def solve(a, b):
    """numpy.linalg.solve (b is a vector only when it is 1-D, as in NumPy 2)."""
    return _core._la_solve(asarray(a), b)


def inv(a):
    return _core._la_inv(asarray(a))


def det(a):
    return _core._la_det(asarray(a))


def slogdet(a):
    return SlogdetResult(*_core._la_slogdet(asarray(a)))


def cholesky(a, /, *, upper=False):
    return _core._la_cholesky(asarray(a), bool(upper))


def qr(a, mode="reduced"):
    """numpy.linalg.qr: mode 'reduced', 'complete', 'r' or 'raw' ((h, tau), h being
    LAPACK's reflectors transposed, as NumPy)."""
    r = _core._la_qr(asarray(a), mode)
    if mode == "r":
        return r[0]
    if mode == "raw":
        return r[0], r[1]
    return QRResult(r[0], r[1])


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """numpy.linalg.svd (hermitian=True: from eigh, as NumPy)."""
    r = _core._la_svd(asarray(a), bool(full_matrices), bool(compute_uv), bool(hermitian))
    return SVDResult(*r) if compute_uv else r[0]


def _set_svd_driver(name):
    """Forces the cuSOLVER routine of svd on CUDA devices for the whole process:
    'gesvd', 'gesvdj', 'gesvdp', 'gesvdp64' (gesvdp in float64, checked by its error
    estimate), or 'auto' (the CUNP_SVD_DRIVER variable, else the size rule of
    docs/linalg.md). The cpu device always runs LAPACK's gesvd."""
    _core._la_set_svd_driver(str(name))


def _svd_driver():
    """The forced svd driver ('auto' when none is)."""
    return _core._la_svd_driver()


def _svd_driver_for(m, n):
    """The driver svd would use on a CUDA device for m x n matrices now."""
    return _core._la_svd_driver_for(int(m), int(n))


def _svd_error_estimate():
    """gesvdp's error estimate (h_err_sigma) of this thread's last svd that ran it
    (the largest over its batch); 0.0 when none did."""
    return _core._la_svd_error_estimate()


def svdvals(x, /):
    """numpy.linalg.svdvals: the singular values, descending."""
    return svd(x, compute_uv=False)


def outer(x1, x2, /):
    """numpy.linalg.outer: the outer product of two 1-d arrays (cunp.outer flattens its
    inputs instead)."""
    x1 = asarray(x1)
    x2 = asarray(x2, device=x1.device)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are x1.ndim=%d and x2.ndim=%d."
                         % (x1.ndim, x2.ndim))
    return _top_outer(x1, x2)


def trace(x, /, *, offset=0, dtype=None):
    """numpy.linalg.trace: the sums along the diagonals of the last two axes (cunp.trace
    takes the first two by default)."""
    return _top_trace(asarray(x), offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def diagonal(x, /, *, offset=0):
    """numpy.linalg.diagonal: the diagonals of the last two axes (a view)."""
    import cunp

    return cunp.diagonal(asarray(x), offset=offset, axis1=-2, axis2=-1)


def tensorsolve(a, b, axes=None):
    """numpy.linalg.tensorsolve."""
    return _core._la_tensorsolve(asarray(a), b, None if axes is None else [int(x) for x in axes])


def tensorinv(a, ind=2):
    """numpy.linalg.tensorinv."""
    return _core._la_tensorinv(asarray(a), int(ind))


def eigh(a, UPLO="L"):
    return EighResult(*_core._la_eigh(asarray(a), UPLO))


def eigvalsh(a, UPLO="L"):
    return _core._la_eigvalsh(asarray(a), UPLO)


# NumPy 2.5 made eig/eigvals of real input always complex (gh-30411); with an older
# NumPy installed cunp keeps that NumPy's rule (real when every eigenvalue is real).
_EIG_REAL_IF_ALL_REAL = tuple(int(x) for x in _numpy.__version__.split(".")[:2]) < (2, 5)


def eig(a):
    return EigResult(*_core._la_eig(asarray(a), _EIG_REAL_IF_ALL_REAL))


def eigvals(a):
    return _core._la_eigvals(asarray(a), _EIG_REAL_IF_ALL_REAL)


def matrix_power(a, n):
    if not isinstance(n, numbers.Integral):
        raise TypeError("exponent must be an integer")
    return _core._la_matrix_power(asarray(a), int(n))


def multi_dot(arrays, *, out=None):
    """numpy.linalg.multi_dot, multiplied in the cheapest (matrix-chain) order."""
    r = _core._la_multi_dot([asarray(x) for x in arrays])
    if out is not None:
        out[...] = r
        return out
    return r


def _axis_arg(axis):
    if axis is None:
        return None
    if isinstance(axis, numbers.Integral):
        return [int(axis)]
    return [int(a) for a in axis]


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm: vector and matrix norms, over `axis` (an int or a pair)."""
    return _core._la_norm(asarray(x), ord, _axis_arg(axis), bool(keepdims))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """numpy.linalg.matrix_rank (a 0-d int64 array)."""
    return _core._la_matrix_rank(asarray(A), tol, bool(hermitian), rtol)


_NO_VALUE = object()


def pinv(a, rcond=None, hermitian=False, *, rtol=_NO_VALUE):
    """numpy.linalg.pinv, from the SVD."""
    given = rtol is not _NO_VALUE
    return _core._la_pinv(asarray(a), rcond, bool(hermitian), rtol if given else None, given)


def lstsq(a, b, rcond=None):
    """numpy.linalg.lstsq: (x, residuals, rank, singular values)."""
    return tuple(_core._la_lstsq(asarray(a), b, None if rcond is None else float(rcond)))


def cond(x, p=None):
    """numpy.linalg.cond: p None/2/-2 from the singular values, other p as
    norm(x) * norm(inv(x)); a singular matrix gives inf."""
    return _core._la_cond(asarray(x), p)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """numpy.linalg.vector_norm: a vector norm over one axis, several axes (treated as
    one) or the whole array."""
    return _core._la_vector_norm(asarray(x), ord, _axis_arg(axis), bool(keepdims))


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """numpy.linalg.matrix_norm: norm(x, ord, axis=(-2, -1))."""
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def cross(x1, x2, /, *, axis=-1):
    """numpy.linalg.cross: the cross product of 3-vectors along `axis` (cunp.cross checks
    that they have 3 components)."""
    return _top_cross(asarray(x1), asarray(x2), axis=axis)

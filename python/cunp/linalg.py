"""cunp.linalg (NumPy's numpy.linalg): LAPACKE on the cpu device, cuSOLVER on CUDA
devices; every function works on stacks of matrices like NumPy 2."""
import numbers
from collections import namedtuple

import numpy as _numpy
from numpy.linalg import LinAlgError

from cunp import _core
from cunp._array import asarray
from cunp._linalg_top import matmul, outer, tensordot, trace, vdot  # noqa: F401 - numpy.linalg has them

__all__ = [
    "LinAlgError", "solve", "inv", "det", "slogdet", "cholesky", "qr", "svd", "eigh", "eigvalsh", "eig",
    "eigvals", "norm", "matrix_power", "matrix_rank", "pinv", "lstsq", "matmul", "outer", "tensordot", "trace",
    "vdot", "multi_dot", "cond",
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
    if mode == "raw":
        raise NotImplementedError("qr(mode='raw') is not available yet")
    r = _core._la_qr(asarray(a), mode)
    return r[0] if mode == "r" else QRResult(r[0], r[1])


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    r = _core._la_svd(asarray(a), bool(full_matrices), bool(compute_uv))
    return SVDResult(*r) if compute_uv else r[0]


def eigh(a, UPLO="L"):
    return EighResult(*_core._la_eigh(asarray(a), UPLO))


def eigvalsh(a, UPLO="L"):
    return _core._la_eigvalsh(asarray(a), UPLO)


def eig(a):
    return EigResult(*_core._la_eig(asarray(a)))


def eigvals(a):
    return _core._la_eigvals(asarray(a))


def matrix_power(a, n):
    if not isinstance(n, numbers.Integral):
        raise TypeError("exponent must be an integer")
    return _core._la_matrix_power(asarray(a), int(n))


def multi_dot(arrays, *, out=None):
    """numpy.linalg.multi_dot, multiplied left to right."""
    arrays = [asarray(x) for x in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    r = arrays[0]
    for x in arrays[1:]:
        r = matmul(r, x)
    if out is not None:
        out[...] = r
        return out
    return r


# ---- reductions used by norm and friends
# Note [Linalg reductions]: sums are GEMMs with a vector of ones (so they run on every
# device); max/min go through the host until cunp's reductions take them over.

def _sum_last(x):
    n = x.shape[-1]
    return matmul(x, _core.ones((n,), x.dtype, "C", device=x._device_str))


def _sum(x, axis):
    return _sum_last(_core.moveaxis(x, axis, -1))


def _host_reduce(fn, x, axis):
    return asarray(fn(x.get(), axis=axis), device=x._device_str)


def _real_float(x):
    if x.dtype.kind not in "fc":
        x = x.astype(_numpy.float64)
    return x


def _abs(x):
    import cunp

    return cunp.absolute(x)


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm: vector and matrix norms, over `axis` (an int or a pair)."""
    import cunp

    x = _real_float(asarray(x))
    nd = x.ndim
    if axis is None:
        if ord is None:
            flat = x.reshape(-1)
            r = cunp.sqrt(cunp.real(_core._vdot(flat, flat)))
            return r.reshape((1,) * nd) if keepdims else r
        if nd == 1:
            axis = (0,)
        elif nd == 2:
            axis = (0, 1)
        else:
            raise ValueError("Improper number of dimensions to norm.")
    elif isinstance(axis, numbers.Integral):
        axis = (int(axis),)
    for a in axis:
        if not -nd <= a < nd:
            raise _numpy.exceptions.AxisError(a, nd)
    axis = tuple(int(a) % nd for a in axis)
    if len(axis) == 1:
        r = _vector_norm(x, ord, axis[0])
    elif len(axis) == 2:
        if axis[0] == axis[1]:
            raise ValueError("Duplicate axes given.")
        r = _matrix_norm(x, ord, axis[0], axis[1])
    else:
        raise ValueError("Improper number of dimensions to norm.")
    if keepdims:
        shape = list(x.shape)
        for a in axis:
            shape[a] = 1
        r = r.reshape(tuple(shape))
    return r


def _vector_norm(x, ord, axis):
    import cunp

    a = _abs(x)
    if ord is None or ord == 2:
        return cunp.sqrt(_sum(a * a, axis))
    if ord == _numpy.inf:
        return _host_reduce(_numpy.max, a, axis)
    if ord == -_numpy.inf:
        return _host_reduce(_numpy.min, a, axis)
    if ord == 0:
        return _sum((x != 0).astype(a.dtype), axis)
    if ord == 1:
        return _sum(a, axis)
    if isinstance(ord, str):
        raise ValueError("Invalid norm order '%s' for vectors" % ord)
    return cunp.power(_sum(cunp.power(a, ord), axis), 1.0 / ord)


def _matrix_norm(x, ord, row_axis, col_axis):
    import cunp

    if ord is None or ord == "fro":
        a = _abs(x)
        s = _sum(a * a, col_axis)
        return cunp.sqrt(_sum(s, row_axis if row_axis < col_axis else row_axis - 1))
    if ord in (2, -2, "nuc"):
        m = _core.moveaxis(x, [row_axis, col_axis], [-2, -1])
        s = svd(m, compute_uv=False)
        if ord == "nuc":
            return _sum_last(s)
        return _host_reduce(_numpy.max if ord == 2 else _numpy.min, s, -1)
    if ord in (1, -1, _numpy.inf, -_numpy.inf):
        a = _abs(x)
        if ord in (1, -1):
            s = _sum(a, row_axis)
            rest = col_axis - 1 if col_axis > row_axis else col_axis
        else:
            s = _sum(a, col_axis)
            rest = row_axis - 1 if row_axis > col_axis else row_axis
        return _host_reduce(_numpy.max if ord in (1, _numpy.inf) else _numpy.min, s, rest)
    raise ValueError("Invalid norm order for matrices.")


def _default_tol(s, m, n):
    return _host_reduce(_numpy.max, s, -1).get() * max(m, n) * _numpy.finfo(s.dtype).eps


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    A = _real_float(asarray(A))
    if A.ndim < 2:
        return asarray(int(not bool((A.get() == 0).all())), device=A._device_str)
    s = svd(A, compute_uv=False).get()
    m, n = A.shape[-2:]
    if tol is None:
        r = rtol if rtol is not None else max(m, n) * _numpy.finfo(s.dtype).eps
        tol = s.max(axis=-1, keepdims=True, initial=0.0) * r
    else:
        tol = _numpy.asarray(tol)[..., None]
    return asarray(_numpy.count_nonzero(s > tol, axis=-1), device=A._device_str)


def pinv(a, rcond=None, hermitian=False, *, rtol=None):
    import cunp

    a = _real_float(asarray(a))
    m, n = a.shape[-2:]
    if m == 0 or n == 0:
        return _core.zeros(a.shape[:-2] + (n, m), a.dtype, "C", device=a._device_str)
    if rcond is None:
        rcond = rtol if rtol is not None else 1e-15
    u, s, vt = svd(a, full_matrices=False)
    sh = s.get()
    cutoff = _numpy.asarray(rcond)[..., None] * sh.max(axis=-1, keepdims=True)
    inv_s = asarray(_numpy.where(sh > cutoff, 1.0 / _numpy.where(sh > cutoff, sh, 1.0), 0.0).astype(sh.dtype),
                    device=a._device_str)
    vh = _core.swapaxes(cunp.conjugate(vt), -1, -2)
    uh = _core.swapaxes(cunp.conjugate(u), -1, -2)
    return matmul(vh * inv_s[..., None, :], uh)


def lstsq(a, b, rcond=None):
    """numpy.linalg.lstsq: (x, residuals, rank, singular values), from the SVD."""
    import cunp

    a = _real_float(asarray(a))
    b = asarray(b, device=a._device_str)
    if a.ndim != 2:
        raise LinAlgError("%d-dimensional array given. Array must be two-dimensional" % a.ndim)
    m, n = a.shape
    vector_b = b.ndim == 1
    b2 = b.reshape(m, 1) if vector_b else b
    if b2.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    if rcond is None:
        rcond = _numpy.finfo(_numpy.result_type(a.dtype, _numpy.float32) if a.dtype.kind == "f" else a.dtype).eps * max(m, n)
    s = svd(a, compute_uv=False) if min(m, n) else _core.zeros((0,), _numpy.dtype(a.dtype.char.lower() if a.dtype.kind == "c" else a.dtype), "C", device=a._device_str)
    sh = s.get()
    rank = int(_numpy.count_nonzero(sh > rcond * (sh.max() if sh.size else 0.0)))
    x = matmul(pinv(a, rcond=rcond), b2)
    rdt = _numpy.empty(0, a.dtype).real.dtype
    if rank == n and m > n:
        r = b2 - matmul(a, x)
        resid = _sum(_abs(r) * _abs(r), 0).astype(rdt)
    else:
        resid = _core.zeros((0,), rdt, "C", device=a._device_str)
    if vector_b:
        x = x.reshape(n)
        if resid.size:
            resid = resid.reshape(1)
    return x, resid, rank, s


def cond(x, p=None):
    """numpy.linalg.cond (2-norm by default; other p through norm(x) * norm(inv(x)))."""
    import cunp

    x = asarray(x)
    if p is None or p in (2, -2):
        s = svd(x, compute_uv=False).get()
        r = s[..., 0] / s[..., -1] if p in (None, 2) else s[..., -1] / s[..., 0]
        return asarray(r, device=x._device_str)
    return norm(x, p, axis=(-2, -1)) * norm(inv(x), p, axis=(-2, -1))

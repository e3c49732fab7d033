"""The direct solvers spsolve, spsolve_triangular, splu (a SuperLU-like object) and
factorized (scipy.sparse.linalg's and cupyx.scipy.sparse.linalg's).

Each uses the sparse primitive of the extension when the build has it
(``cunp._core._sparse_csr_spsolve``, ``_sparse_csr_spsolve_triangular``; a
``_sparse_csr_splu`` is looked up too: cuSPARSE / cuSOLVER on CUDA devices) and
otherwise a fallback composed of cunp operations that runs on every device:

- spsolve_triangular: blocked substitution over the CSR rows. Each block of
  ``_BLOCK`` rows subtracts the products with the solved part (one scatter-add over the
  block's stored entries) and multiplies by the inverse of its dense diagonal block.
  Any size; the work is O(nnz + n * _BLOCK).
- spsolve, splu, factorized: the dense matrix, for n <= DENSE_FALLBACK_MAX_N (8192
  rows: 512 MiB in float64); a larger matrix raises NotImplementedError naming the
  missing primitive. spsolve factors with cunp.linalg.solve (LAPACK / cuSOLVER getrf);
  splu keeps a blocked LU with partial pivoting (Note [Dense LU fallback]) so that
  each later solve costs O(n^2).

Dense cunp arrays are accepted wherever SciPy takes a sparse matrix (SciPy converts them
with a SparseEfficiencyWarning).
"""
import warnings

import numpy as _numpy
from numpy.linalg import LinAlgError

import cunp as _cunp
from cunpx.scipy.sparse.linalg import _util

__all__ = ["spsolve", "spsolve_triangular", "splu", "factorized", "SuperLU", "MatrixRankWarning",
           "DENSE_FALLBACK_MAX_N"]

DENSE_FALLBACK_MAX_N = 8192
_BLOCK = 128

class MatrixRankWarning(UserWarning):
    """The matrix of a direct solve is singular (scipy.sparse.linalg.MatrixRankWarning;
    cunpx's own class, so that importing this module does not import SciPy)."""


def _native(name):
    """The extension's CSR primitive for `name` (``_sparse_csr_spsolve(data, indices,
    indptr, shape, b) -> (x, singular)``, ``_sparse_csr_spsolve_triangular(data, indices,
    indptr, shape, b, lower, unit_diagonal) -> x``), or None in a build without it."""
    return getattr(_cunp._core, "_sparse_csr_" + name, None) or getattr(_cunp._core, "_sparse_" + name, None)


def _as_matrix(A):
    """A dense cunp array, or a sparse matrix whose arrays are on the device."""
    if isinstance(A, (_cunp.ndarray, _numpy.ndarray)):
        return _cunp.asarray(A)
    if _util.is_sparse(A):
        return A
    return _cunp.asarray(A)


def _dense(A, name):
    """The dense cunp array of A (n <= DENSE_FALLBACK_MAX_N)."""
    if isinstance(A, _cunp.ndarray):
        return A
    n = A.shape[0]
    if n > DENSE_FALLBACK_MAX_N:
        raise NotImplementedError(
            "%s: this build has no sparse direct solver (cunp._core._sparse_%s) and the matrix has %d rows, more than "
            "the dense fallback takes (DENSE_FALLBACK_MAX_N = %d); use an iterative solver (cg, gmres, ...)"
            % (name, name, n, DENSE_FALLBACK_MAX_N))
    data, indices, indptr = _util.csr_arrays(A)
    rows = _cunp.repeat(_cunp.arange(A.shape[0], dtype=indices.dtype), _cunp.diff(indptr))
    D = _cunp.zeros(tuple(A.shape), dtype=data.dtype)
    D[rows, indices] = data
    return D


def _solve_dtype(*dts):
    return _numpy.result_type(*[_util.float_dtype(d) for d in dts])


# ---- spsolve ------------------------------------------------------------------------------

def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """x with A x = b for a square sparse A and a dense or sparse b (vector or matrix):
    x is 1-d when b is a vector or a single column, a sparse matrix when b is sparse. A
    singular A gives a MatrixRankWarning and an x of NaNs, as in SciPy."""
    A = _as_matrix(A)
    M, N = A.shape
    if M != N:
        raise ValueError("matrix must be square (has shape %s)" % ((M, N),))
    b_sparse = _util.is_sparse(b)
    bd = _dense(b, "spsolve") if b_sparse else _cunp.asarray(b)
    b_is_vector = bd.ndim == 1 or (bd.ndim == 2 and bd.shape[1] == 1)
    if M != bd.shape[0]:
        raise ValueError("matrix - rhs dimension mismatch (%s - %s)" % (A.shape, bd.shape[0]))
    if b_is_vector:
        bd = bd.reshape(-1)
    dtype = _solve_dtype(A.dtype, bd.dtype)
    bd = bd.astype(dtype, copy=False)
    with _cunp.Device(bd.device):
        x = _spsolve(A, bd, dtype)
    if b_sparse and not b_is_vector:
        return _sparse_like(b, x)
    return x


def _spsolve(A, bd, dtype):
    M, N = A.shape
    native = _native("spsolve")
    singular = False
    if native is not None and _util.is_sparse(A):
        data, indices, indptr = _util.csr_arrays(A)
        x, singular = native(data, indices, indptr, (M, N), bd)
    else:
        D = _dense(A, "spsolve").astype(dtype, copy=False)
        try:
            x = _cunp.linalg.solve(D, bd)
        except LinAlgError:
            singular, x = True, None
    if singular:
        warnings.warn("Matrix is exactly singular", MatrixRankWarning, stacklevel=3)
        x = _cunp.full(bd.shape, _numpy.nan, dtype=dtype)
    return x


def _sparse_like(b, x):
    """A dense result as a sparse matrix of b's kind (cunpx's csr_matrix when b is not
    a SciPy matrix)."""
    if _util.is_scipy_sparse(b):
        import scipy.sparse
        return scipy.sparse.csr_matrix(_cunp.asnumpy(x))
    from cunpx.scipy import sparse as _sp
    return _sp.csr_matrix(x)


# ---- triangular solves -------------------------------------------------------------------

def _block_inverse(T):
    return _cunp.linalg.inv(T)


def _dense_triangular(T, b, lower, unit_diagonal):
    """x with T x = b for the `lower` (or upper) triangle of the dense T: blocked
    substitution, each diagonal block applied through its inverse."""
    n = T.shape[0]
    T = _cunp.tril(T) if lower else _cunp.triu(T)
    if unit_diagonal:
        idx = _cunp.arange(n)
        T = T.copy()
        T[idx, idx] = 1
    x = _cunp.empty(b.shape, dtype=b.dtype)
    blocks = list(range(0, n, _BLOCK))
    for i0 in (blocks if lower else reversed(blocks)):
        i1 = min(i0 + _BLOCK, n)
        rhs = b[i0:i1]
        if lower and i0 > 0:
            rhs = rhs - T[i0:i1, :i0] @ x[:i0]
        elif not lower and i1 < n:
            rhs = rhs - T[i0:i1, i1:] @ x[i1:]
        x[i0:i1] = _block_inverse(T[i0:i1, i0:i1]) @ rhs
    return x


def _sparse_triangular(A, b, lower, unit_diagonal):
    """x with A x = b for the `lower` (or upper) triangle of the sparse A, by blocks of
    rows of its CSR arrays."""
    n = A.shape[0]
    data, indices, indptr = _util.csr_arrays(A)
    data = data.astype(b.dtype, copy=False)
    ptr = _cunp.asnumpy(indptr).astype(_numpy.int64)
    rows = _cunp.repeat(_cunp.arange(n, dtype=indices.dtype), _cunp.diff(indptr))
    keep = (indices <= rows) if lower else (indices >= rows)
    if unit_diagonal:
        keep = keep & (indices != rows)
    x = _cunp.zeros(b.shape, dtype=b.dtype)   # zeros: masked-out entries read x[0] times 0
    two_d = b.ndim == 2
    blocks = list(range(0, n, _BLOCK))
    for i0 in (blocks if lower else reversed(blocks)):
        i1 = min(i0 + _BLOCK, n)
        e0, e1 = int(ptr[i0]), int(ptr[i1])
        r, c, v, k = rows[e0:e1], indices[e0:e1], data[e0:e1], keep[e0:e1]
        v = _cunp.where(k, v, _cunp.zeros((), dtype=v.dtype))
        inside = (c >= i0) & (c < i1)
        # the block's diagonal part, dense
        D = _cunp.zeros((i1 - i0, i1 - i0), dtype=b.dtype)
        _cunp.add.at(D, (r - i0, _cunp.where(inside, c - i0, 0)), _cunp.where(inside, v, _cunp.zeros((), v.dtype)))
        if unit_diagonal:
            idx = _cunp.arange(i1 - i0)
            D[idx, idx] = 1
        # minus the products with the part of x already solved
        rhs = _cunp.array(b[i0:i1], copy=True)
        outside = ~inside & k
        if (lower and i0 > 0) or (not lower and i1 < n):
            cc = _cunp.where(outside, c, 0)
            vv = _cunp.where(outside, v, _cunp.zeros((), v.dtype))
            contrib = (vv[:, None] * x[cc]) if two_d else vv * x[cc]
            _cunp.subtract.at(rhs, r - i0, contrib)
        x[i0:i1] = _block_inverse(D) @ rhs
    return x


def _diagonal_check(A, n):
    """LinAlgError when a diagonal entry of A is zero or missing (SciPy's message)."""
    if isinstance(A, _cunp.ndarray):
        d = _cunp.diagonal(A)
    else:
        data, indices, indptr = _util.csr_arrays(A)
        rows = _cunp.repeat(_cunp.arange(n, dtype=indices.dtype), _cunp.diff(indptr))
        d = _cunp.zeros(n, dtype=data.dtype)
        on = rows == indices
        _cunp.add.at(d, _cunp.where(on, rows, 0), _cunp.where(on, data, _cunp.zeros((), data.dtype)))
    if bool((d == 0).any()):
        raise LinAlgError("A is singular: zero entry on diagonal.")


def spsolve_triangular(A, b, lower=True, overwrite_A=False, overwrite_b=False, unit_diagonal=False):
    """x with A x = b for a triangular sparse A (only its `lower` or upper triangle and
    the diagonal are read); b is 1-d or 2-d and x has its shape."""
    A = _as_matrix(A)
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("A must be a square matrix but its shape is %s." % (tuple(A.shape),))
    b = _cunp.asarray(b)
    n = A.shape[0]
    if b.ndim not in (1, 2) or b.shape[0] != n:
        raise ValueError("The size of the dimensions of A must be equal to the size of the first dimension of b but "
                         "the shape of A is %s and the shape of b is %s." % (tuple(A.shape), b.shape))
    dtype = _solve_dtype(A.dtype, b.dtype)
    b = b.astype(dtype, copy=False)
    with _cunp.Device(b.device):
        native = _native("spsolve_triangular")
        if native is not None and _util.is_sparse(A):
            data, indices, indptr = _util.csr_arrays(A)
            return native(data, indices, indptr, (n, n), b, bool(lower), bool(unit_diagonal))
        if not unit_diagonal:
            _diagonal_check(A, n)
        if isinstance(A, _cunp.ndarray):
            return _dense_triangular(A.astype(dtype, copy=False), b, lower, unit_diagonal)
        return _sparse_triangular(A, b, lower, unit_diagonal)


# ---- splu ---------------------------------------------------------------------------------

def _lu_blocked(a):
    """(lu, order): P a = L U with partial pivoting, L unit lower and U upper in one
    matrix, a[order] = L U (order: a NumPy int64 array); None for a singular matrix.

    Note [Dense LU fallback]: right-looking blocked LU. Each panel of _BLOCK columns is
    factored column by column (pivot search, one row swap, a rank-1 update of the panel
    only), then U12 = L11^-1 A12 and the trailing matrix A22 -= L21 U12 are one solve and
    one matrix product, so nearly all the flops run in the GEMM (cuBLAS / OpenBLAS). The
    pivot search reads one index per column, the only host round trip."""
    lu = a.copy()
    n = lu.shape[0]
    order = _numpy.arange(n)
    for j0 in range(0, n, _BLOCK):
        j1 = min(j0 + _BLOCK, n)
        for j in range(j0, j1):
            col = lu[j:, j]
            mag = _cunp.abs(_cunp.real(col)) + _cunp.abs(_cunp.imag(col)) if col.dtype.kind == "c" else _cunp.abs(col)
            p_rel = _cunp.argmax(mag)
            vals = _util.host_values(p_rel, mag[p_rel]).real
            if vals[1] == 0:
                return None
            p = j + int(vals[0])
            if p != j:
                row = lu[j].copy()
                lu[j] = lu[p]
                lu[p] = row
                order[[j, p]] = order[[p, j]]
            if j + 1 < n:
                lu[j + 1:, j] /= lu[j, j]
                if j + 1 < j1:
                    lu[j + 1:, j + 1:j1] -= lu[j + 1:, j:j + 1] * lu[j:j + 1, j + 1:j1]
        if j1 < n:
            L11 = _cunp.tril(lu[j0:j1, j0:j1], -1) + _cunp.eye(j1 - j0, dtype=lu.dtype)
            lu[j0:j1, j1:] = _cunp.linalg.solve(L11, lu[j0:j1, j1:])
            lu[j1:, j1:] -= lu[j1:, j0:j1] @ lu[j0:j1, j1:]
    return lu, order


class SuperLU:
    """An LU factorisation Pr A Pc = L U (scipy.sparse.linalg.SuperLU): ``solve(rhs,
    trans='N'|'T'|'H')``, ``shape``, ``nnz`` (entries of L and U), ``perm_r``,
    ``perm_c`` (NumPy int32 arrays, as SciPy's), ``L`` and ``U`` (sparse csc matrices
    when cunpx.scipy.sparse is there, else dense cunp arrays)."""

    def __init__(self, lu, order):
        n = lu.shape[0]
        self.shape = (n, n)
        self._lu = lu
        self._order = order
        self._order_dev = _cunp.asarray(order)
        perm_r = _numpy.empty(n, dtype=_numpy.int32)
        perm_r[order] = _numpy.arange(n, dtype=_numpy.int32)
        self.perm_r = perm_r
        self.perm_c = _numpy.arange(n, dtype=_numpy.int32)
        self._Ld = _cunp.tril(lu, -1) + _cunp.eye(n, dtype=lu.dtype)
        self._Ud = _cunp.triu(lu)
        self.nnz = int(_cunp.count_nonzero(self._Ld)) + int(_cunp.count_nonzero(self._Ud))
        # inverses of the diagonal blocks, so that each solve is O(n^2) matrix-vector work
        self._Linv = [_block_inverse(self._Ld[i:i + _BLOCK, i:i + _BLOCK]) for i in range(0, n, _BLOCK)]
        self._Uinv = [_block_inverse(self._Ud[i:i + _BLOCK, i:i + _BLOCK]) for i in range(0, n, _BLOCK)]

    @property
    def L(self):
        return _as_csc(self._Ld)

    @property
    def U(self):
        return _as_csc(self._Ud)

    def _substitute(self, T, inv, b, lower, adjoint):
        """x with op(T) x = b, op the identity, or the transpose (conjugated when
        adjoint is 'H') that turns a lower T into an upper one."""
        n = T.shape[0]
        x = _cunp.empty(b.shape, dtype=b.dtype)
        blocks = list(range(0, n, _BLOCK))
        for bi, i0 in (enumerate(blocks) if lower else reversed(list(enumerate(blocks)))):
            i1 = min(i0 + _BLOCK, n)
            rhs = b[i0:i1]
            if adjoint is None:
                if lower and i0 > 0:
                    rhs = rhs - T[i0:i1, :i0] @ x[:i0]
                elif not lower and i1 < n:
                    rhs = rhs - T[i0:i1, i1:] @ x[i1:]
                x[i0:i1] = inv[bi] @ rhs
            else:
                # op(T)[i0:i1, cols] = T[cols, i0:i1]^T (or ^H)
                conj = _cunp.conj if adjoint == "H" else (lambda m: m)
                if lower and i0 > 0:
                    rhs = rhs - conj(T[:i0, i0:i1]).T @ x[:i0]
                elif not lower and i1 < n:
                    rhs = rhs - conj(T[i1:, i0:i1]).T @ x[i1:]
                x[i0:i1] = conj(inv[bi]).T @ rhs
        return x

    def solve(self, rhs, trans="N"):
        """x with A x = rhs ('N'), A^T x = rhs ('T') or A^H x = rhs ('H')."""
        if trans not in ("N", "T", "H"):
            raise ValueError("trans must be N, T, or H")
        with _cunp.Device(self._lu.device):
            return self._solve(_cunp.asarray(rhs), trans)

    def _solve(self, b, trans):
        n = self.shape[0]
        if b.shape[0] != n or b.ndim not in (1, 2):
            raise ValueError("b is of incompatible size")
        dtype = _numpy.result_type(self._lu.dtype, _util.float_dtype(b.dtype))
        b = b.astype(dtype, copy=False)
        L, U = self._Ld.astype(dtype, copy=False), self._Ud.astype(dtype, copy=False)
        Li = [m.astype(dtype, copy=False) for m in self._Linv]
        Ui = [m.astype(dtype, copy=False) for m in self._Uinv]
        if trans == "N":
            y = self._substitute(L, Li, b[self._order_dev], True, None)
            return self._substitute(U, Ui, y, False, None)
        # A^T = U^T L^T P: U^T is lower, L^T upper
        y = self._substitute(U, Ui, b, True, trans)
        z = self._substitute(L, Li, y, False, trans)
        x = _cunp.empty_like(z)
        x[self._order_dev] = z
        return x


def _as_csc(M):
    try:
        from cunpx.scipy import sparse as _sp
        csc = getattr(_sp, "csc_matrix", None)
    except ImportError:
        csc = None
    return csc(M) if csc is not None else M


def splu(A, permc_spec=None, diag_pivot_thresh=None, relax=None, panel_size=None, options=None):
    """The LU factorisation of a square matrix as a SuperLU object (partial pivoting by
    rows; perm_c is the identity). RuntimeError "Factor is exactly singular" for a
    singular matrix, as SciPy."""
    A = _as_matrix(A)
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("can only factor square matrices")
    native = _native("splu")
    if native is not None and _util.is_sparse(A):
        data, indices, indptr = _util.csr_arrays(A)
        return native(data, indices, indptr, tuple(A.shape))
    dtype = _util.float_dtype(A.dtype)
    a = _dense(A, "splu").astype(dtype, copy=False)
    with _cunp.Device(a.device):
        res = _lu_blocked(a)
        if res is None:
            raise RuntimeError("Factor is exactly singular")
        return SuperLU(*res)


def factorized(A):
    """A function solving A x = b with A factored once (scipy.sparse.linalg.factorized)."""
    return splu(A).solve

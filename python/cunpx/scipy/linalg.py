"""cunpx.scipy.linalg: scipy.linalg's essentials for cunp arrays, on cunp.linalg
(cuSOLVER/cuBLAS on CUDA devices, LAPACK on cpu): solve, inv, det, solve_triangular,
cho_factor/cho_solve, lu_factor/lu_solve/lu (partial pivoting, one rank-1 update per
column on the device), expm, and the special matrices block_diag, toeplitz, circulant,
hankel, tri, khatri_rao, kron."""
import warnings
import numpy as _numpy

import cunp as _cunp

__all__ = ["solve", "inv", "det", "solve_triangular", "cho_factor", "cho_solve", "lu_factor", "lu_solve", "lu",
           "expm", "block_diag", "toeplitz", "circulant", "hankel", "tri", "khatri_rao", "kron"]


def _square(a, name):
    a = _cunp.asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("%s: expected a square matrix, got shape %s" % (name, a.shape))
    return a


def _finite(a, check_finite):
    if check_finite and a.dtype.kind in "fc" and not bool(_cunp.isfinite(a).all()):
        raise ValueError("array must not contain infs or NaNs")
    return a


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True, assume_a=None,
          transposed=False):
    a = _finite(_square(a, "solve"), check_finite)
    b = _finite(_cunp.asarray(b), check_finite)
    if transposed:
        if a.dtype.kind == "c":
            raise NotImplementedError("scipy.linalg.solve can currently not solve a^T x = b or a^H x = b for "
                                      "complex matrices.")
        a = a.mT
    if assume_a in ("pos", "positive definite"):
        c, low = cho_factor(a, lower=True, check_finite=False)
        return cho_solve((c, low), b, check_finite=False)
    return _cunp.linalg.solve(a, b)


def inv(a, overwrite_a=False, check_finite=True):
    return _cunp.linalg.inv(_finite(_square(a, "inv"), check_finite))


def det(a, overwrite_a=False, check_finite=True):
    return _cunp.linalg.det(_finite(_square(a, "det"), check_finite))


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, check_finite=True):
    """Solves a x = b for triangular a (the other triangle of `a` is not read);
    trans 0/'N', 1/'T', 2/'C'."""
    a = _finite(_square(a, "solve_triangular"), check_finite)
    b = _finite(_cunp.asarray(b), check_finite)
    if a.shape[-1] != b.shape[0]:
        raise ValueError("shapes of a %s and b %s are incompatible" % (a.shape, b.shape))
    t = _cunp.tril(a) if lower else _cunp.triu(a)
    if unit_diagonal:
        n = a.shape[-1]
        t = t - _cunp.diag(_cunp.diagonal(t)) + _cunp.eye(n, dtype=t.dtype, device=t.device)
    if trans in (1, "T"):
        t = t.T
    elif trans in (2, "C"):
        t = t.conj().T
    elif trans not in (0, "N"):
        raise ValueError("trans must be 0, 1, 2, 'N', 'T' or 'C', got %r" % (trans,))
    return _cunp.linalg.solve(t, b)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """(c, lower): the Cholesky factor in the `lower` (or upper) triangle of c. The other
    triangle holds zeros here (SciPy leaves whatever was there: unspecified)."""
    a = _finite(_square(a, "cho_factor"), check_finite)
    L = _cunp.linalg.cholesky(a)
    return (L, True) if lower else (L.conj().T, False)


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    c, lower = c_and_lower
    c = _cunp.asarray(c)
    b = _finite(_cunp.asarray(b), check_finite)
    if c.ndim != 2 or c.shape[0] != c.shape[1]:
        raise ValueError("The factored matrix c is not square.")
    if c.shape[1] != b.shape[0]:
        raise ValueError("incompatible dimensions (%s and %s)" % (c.shape, b.shape))
    L = _cunp.tril(c) if lower else _cunp.triu(c).conj().T
    y = _cunp.linalg.solve(L, b)
    return _cunp.linalg.solve(L.conj().T, y)


def _lu_in_place(a):
    """Gaussian elimination with partial pivoting on a copy of the 2-d `a`: (lu, piv) in
    LAPACK's getrf layout (piv[j]: the row swapped with row j, 0-based, int32)."""
    lu = a.astype(_numpy.result_type(a.dtype, _numpy.float32), copy=True)
    m, n = lu.shape
    k = min(m, n)
    piv = _numpy.empty(k, dtype=_numpy.int32)
    zero_at = None
    for j in range(k):
        col = lu[j:, j]
        # LAPACK's i?amax: |re| + |im| for complex columns
        size = _cunp.abs(_cunp.real(col)) + _cunp.abs(_cunp.imag(col)) if col.dtype.kind == "c" else _cunp.abs(col)
        p = j + int(_cunp.argmax(size))
        piv[j] = p
        if p != j:
            row = lu[j].copy()
            lu[j] = lu[p]
            lu[p] = row
        pivot = lu[j, j]
        if bool(pivot == 0):
            if zero_at is None:
                zero_at = j
            continue
        if j + 1 < m:
            lu[j + 1:, j] /= pivot
            if j + 1 < n:
                lu[j + 1:, j + 1:] -= lu[j + 1:, j:j + 1] * lu[j:j + 1, j + 1:]
    if zero_at is not None:
        warnings.warn("Diagonal number %d is exactly zero. Singular matrix." % (zero_at + 1), _LinAlgWarning(),
                      stacklevel=3)
    return lu, piv


def _LinAlgWarning():
    try:
        from scipy.linalg import LinAlgWarning
        return LinAlgWarning
    except ImportError:  # SciPy absent: a RuntimeWarning of the same name
        return type("LinAlgWarning", (RuntimeWarning,), {})


def lu_factor(a, overwrite_a=False, check_finite=True):
    """(lu, piv): L (unit diagonal, below) and U (on and above) in one matrix, and the
    row interchanges, as scipy.linalg.lu_factor (LAPACK getrf) returns them."""
    a = _finite(_cunp.asarray(a), check_finite)
    if a.ndim != 2:
        raise ValueError("expected a 2-d array, got shape %s" % (a.shape,))
    lu, piv = _lu_in_place(a)
    return lu, _cunp.asarray(piv, device=lu.device)


def _row_order(piv, m):
    """The permutation of rows that the interchanges in piv perform: a[order] = L U."""
    order = _numpy.arange(m)
    for j, p in enumerate(piv):
        order[[j, p]] = order[[p, j]]
    return order


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    lu, piv = lu_and_piv
    lu = _cunp.asarray(lu)
    b = _finite(_cunp.asarray(b), check_finite)
    n = lu.shape[0]
    if lu.ndim != 2 or lu.shape[1] != n:
        raise ValueError("expected a square LU factorization, got shape %s" % (lu.shape,))
    if b.shape[0] != n:
        raise ValueError("Shapes of lu %s and b %s are incompatible" % (lu.shape, b.shape))
    order = _row_order(_cunp.asnumpy(piv), n)
    L = _cunp.tril(lu, -1) + _cunp.eye(n, dtype=lu.dtype, device=lu.device)
    U = _cunp.triu(lu)
    if trans in (0, "N"):
        return solve_triangular(U, solve_triangular(L, b[order], lower=True, check_finite=False), check_finite=False)
    if trans in (1, "T", 2, "C"):
        t = 1 if trans in (1, "T") else 2
        y = solve_triangular(U, b, trans=t, check_finite=False)
        x = solve_triangular(L, y, trans=t, lower=True, check_finite=False)
        out = _cunp.empty_like(x)
        out[order] = x
        return out
    raise ValueError("trans must be 0, 1, 2, 'N', 'T' or 'C', got %r" % (trans,))


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
    """scipy.linalg.lu: (p, l, u) with a = p @ l @ u (p a permutation matrix, or with
    p_indices=True row indices such that a = l[p] @ u); permute_l=True gives (p @ l, u)."""
    a = _finite(_cunp.asarray(a), check_finite)
    if a.ndim != 2:
        raise ValueError("expected a 2-d array, got shape %s" % (a.shape,))
    m, n = a.shape
    k = min(m, n)
    if a.size == 0:
        lu_m = a.astype(_numpy.result_type(a.dtype, _numpy.float32))
        piv = _numpy.empty(0, dtype=_numpy.int32)
    else:
        lu_m, piv = _lu_in_place(a)
    L = _cunp.tril(lu_m, -1)[:, :k] + _cunp.eye(m, k, dtype=lu_m.dtype, device=lu_m.device)
    U = _cunp.triu(lu_m)[:k, :]
    order = _row_order(piv, m)  # a[order] = L @ U
    inverse = _numpy.empty(m, dtype=_numpy.int64)
    inverse[order] = _numpy.arange(m)
    if permute_l:
        return L[_cunp.asarray(inverse, device=L.device)], U
    if p_indices:
        return _cunp.asarray(inverse.astype(_numpy.int32), device=L.device), L, U
    P = _cunp.zeros((m, m), dtype=lu_m.dtype, device=lu_m.device)
    P[_cunp.asarray(order, device=P.device), _cunp.arange(m, device=P.device)] = 1
    return P, L, U


# Padé coefficients of degree 13 (Higham 2005, "The scaling and squaring method for the
# matrix exponential revisited").
_B13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
        10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.)
_THETA13 = 5.371920351148152


def expm(A):
    """The matrix exponential by scaling and squaring with a [13/13] Padé approximant
    (square matrices, or stacks of them)."""
    a = _cunp.asarray(A)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected a square matrix (or a stack of them), got shape %s" % (a.shape,))
    if a.dtype.kind not in "fc":
        a = a.astype(_numpy.float64)
    n = a.shape[-1]
    if n == 0:
        return a.copy()
    norm1 = float(_cunp.abs(a).sum(axis=-2).max())
    s = max(0, int(_numpy.ceil(_numpy.log2(norm1 / _THETA13)))) if norm1 > _THETA13 else 0
    a = a / (2.0 ** s)
    ident = _cunp.broadcast_to(_cunp.eye(n, dtype=a.dtype, device=a.device), a.shape)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    b = _B13
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * ident)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * ident
    r = _cunp.linalg.solve(v - u, v + u)
    for _ in range(s):
        r = r @ r
    return r


def block_diag(*arrs):
    if not arrs:
        return _cunp.empty((1, 0))
    mats = []
    for x in arrs:
        x = _cunp.asarray(x)
        if x.ndim > 2:
            raise ValueError("arguments in the following positions have dimension greater than 2: %s"
                             % [i for i, y in enumerate(arrs) if _numpy.ndim(y) > 2])
        mats.append(_cunp.atleast_2d(x))
    dtype = _cunp.result_type(*mats)
    rows = sum(m.shape[0] for m in mats)
    cols = sum(m.shape[1] for m in mats)
    out = _cunp.zeros((rows, cols), dtype=dtype, device=mats[0].device)
    r = c = 0
    for m in mats:
        out[r:r + m.shape[0], c:c + m.shape[1]] = m
        r += m.shape[0]
        c += m.shape[1]
    return out


def toeplitz(c, r=None):
    c = _cunp.asarray(c).ravel()
    r = c.conj() if r is None else _cunp.asarray(r).ravel()
    vals = _cunp.concatenate((c[::-1], r[1:]))
    i = _cunp.arange(c.size, device=vals.device)[:, None]
    j = _cunp.arange(r.size, device=vals.device)[None, :]
    return vals[c.size - 1 - i + j]


def circulant(c):
    c = _cunp.asarray(c).ravel()
    n = c.size
    i = _cunp.arange(n, device=c.device)[:, None]
    j = _cunp.arange(n, device=c.device)[None, :]
    return c[(i - j) % n] if n else _cunp.empty((0, 0), dtype=c.dtype, device=c.device)


def hankel(c, r=None):
    c = _cunp.asarray(c).ravel()
    r = _cunp.zeros_like(c) if r is None else _cunp.asarray(r).ravel()
    vals = _cunp.concatenate((c, r[1:]))
    i = _cunp.arange(c.size, device=vals.device)[:, None]
    j = _cunp.arange(r.size, device=vals.device)[None, :]
    return vals[i + j]


def tri(N, M=None, k=0, dtype=None):
    return _cunp.tri(N, M, k, dtype=dtype if dtype is not None else _numpy.float64)


def khatri_rao(a, b):
    a, b = _cunp.asarray(a), _cunp.asarray(b)
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError("The both arrays should be 2-dimensional.")
    if a.shape[1] != b.shape[1]:
        raise ValueError("The number of columns for both arrays should be equal.")
    return (a[:, None, :] * b[None, :, :]).reshape(-1, a.shape[1])


def kron(a, b):
    return _cunp.kron(a, b)

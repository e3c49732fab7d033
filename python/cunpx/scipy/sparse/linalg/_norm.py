"""norm (scipy.sparse.linalg.norm: matrix and vector norms of a sparse matrix) and
onenormest (Higham and Tisseur's block 1-norm estimator).

norm reads the matrix's canonical CSR arrays on the device (Note [Duck-typed sparse
matrices] in _util) and reduces them with cunp operations: column sums by
``cunp.add.at`` over the column indices, row sums by the same over the expanded row
indices, so it needs nothing from the matrix class beyond ``tocsr()``. Results are cunp
arrays (0-d for matrix norms, 1-d for vector norms), as cupyx returns them.
"""
import numbers

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse.linalg import _util
from cunpx.scipy.sparse.linalg._interface import aslinearoperator

__all__ = ["norm", "onenormest"]


class _CSR:
    """A sparse matrix's canonical CSR arrays, their absolute values and row indices."""

    def __init__(self, x):
        self.shape = tuple(x.shape)
        self.data, self.indices, self.indptr = _util.csr_arrays(x)
        self.abs = _cunp.abs(self.data)
        m = self.shape[0]
        self.rows = _cunp.repeat(_cunp.arange(m, dtype=self.indices.dtype), _cunp.diff(self.indptr))

    def segments(self, axis):
        """(segment id of each entry, number of segments, length of each segment) for a
        reduction along `axis` (0: one segment per column, 1: one per row)."""
        if axis == 0:
            return self.indices, self.shape[1], self.shape[0]
        return self.rows, self.shape[0], self.shape[1]

    def segment_sum(self, values, axis):
        seg, count, _ = self.segments(axis)
        dt = values.dtype
        if dt.kind in "biu":
            dt = _numpy.dtype(_numpy.uint64 if dt.kind == "u" else _numpy.int64)
        out = _cunp.zeros(count, dtype=dt)
        _cunp.add.at(out, seg, values.astype(dt, copy=False))
        return out

    def segment_max(self, axis):
        seg, count, _ = self.segments(axis)
        out = _cunp.zeros(count, dtype=self.abs.dtype)
        _cunp.maximum.at(out, seg, self.abs)
        return out

    def segment_min(self, axis):
        """min |x| along axis, implicit zeros included."""
        seg, count, length = self.segments(axis)
        big = _numpy.inf if self.abs.dtype.kind == "f" else _numpy.iinfo(self.abs.dtype).max
        out = _cunp.full(count, big, dtype=self.abs.dtype)
        _cunp.minimum.at(out, seg, self.abs)
        stored = self.segment_sum(_cunp.ones(self.abs.shape, dtype=_numpy.int64), axis)
        return _cunp.where(stored < length, _cunp.zeros((), dtype=out.dtype), out)


def _frobenius(data):
    return _cunp.linalg.norm(data)


def norm(x, ord=None, axis=None):
    """Norm of a sparse matrix (scipy.sparse.linalg.norm): with axis None or a pair of
    axes, the matrix norms 'fro' (default), 1, -1, inf, -inf and 2 (the largest
    singular value, by svds); with one axis, the vector norms of each row or column
    (inf, -inf, 0, 1, 2 and any other real p, SciPy's definitions)."""
    if not _util.is_sparse(x):
        raise TypeError("input is not sparse. use numpy.linalg.norm")
    if axis is None and ord in (None, "fro", "f"):
        return _frobenius(_util.csr_arrays(x)[0])
    nd = 2
    if axis is None:
        axis = (0, 1)
    elif not isinstance(axis, tuple):
        msg = "'axis' must be None, an integer or a tuple of integers"
        try:
            int_axis = int(axis)
        except TypeError as e:
            raise TypeError(msg) from e
        if axis != int_axis:
            raise TypeError(msg)
        axis = (int_axis,)
    if len(axis) == 2:
        row_axis, col_axis = axis
        if not (-nd <= row_axis < nd and -nd <= col_axis < nd):
            raise ValueError("Invalid axis %r for an array with shape %r" % (axis, tuple(x.shape)))
        if row_axis % nd == col_axis % nd:
            raise ValueError("Duplicate axes given.")
        if ord == 2:
            from cunpx.scipy.sparse.linalg._eigen import svds
            return svds(x, k=1, return_singular_vectors=False)[0]
        if ord == -2:
            raise NotImplementedError
        if ord in (None, "f", "fro"):
            return _frobenius(_util.csr_arrays(x)[0])
        c = _CSR(x)
        # summing over row_axis gives one sum per index of the other axis
        if ord == 1:
            return c.segment_sum(c.abs, row_axis % nd).max()
        if ord == _numpy.inf:
            return c.segment_sum(c.abs, col_axis % nd).max()
        if ord == -1:
            return c.segment_sum(c.abs, row_axis % nd).min()
        if ord == -_numpy.inf:
            return c.segment_sum(c.abs, col_axis % nd).min()
        raise ValueError("Invalid norm order for matrices.")
    if len(axis) == 1:
        a, = axis
        if not -nd <= a < nd:
            raise ValueError("Invalid axis %r for an array with shape %r" % (axis, tuple(x.shape)))
        a %= nd
        c = _CSR(x)
        if ord == _numpy.inf:
            return c.segment_max(a)
        if ord == -_numpy.inf:
            return c.segment_min(a)
        if ord == 0:
            return c.segment_sum((c.data != 0).astype(_numpy.int64), a)
        if ord == 1:
            return c.segment_sum(c.abs, a)
        if ord in (2, None):
            return _cunp.sqrt(c.segment_sum(c.abs * c.abs, a))
        if not isinstance(ord, numbers.Number) or isinstance(ord, str):
            raise ValueError("Invalid norm order for vectors.")
        # SciPy's definition: only the stored entries are raised to the power
        return _cunp.power(c.segment_sum(c.abs.astype(_numpy.result_type(c.abs.dtype, _numpy.float64)
                                                      if c.abs.dtype.kind != "f" else c.abs.dtype) ** ord, a),
                           1 / ord)
    raise ValueError("Improper number of dimensions to norm.")


# ---- onenormest -------------------------------------------------------------------------

def _sign_round_up(Y):
    """Y / |Y| elementwise with 1 where Y is zero."""
    if Y.dtype.kind == "c":
        a = _cunp.abs(Y)
        return _cunp.where(a == 0, _cunp.ones((), dtype=Y.dtype), Y / _cunp.where(a == 0, 1, a))
    return _cunp.where(Y >= 0, _cunp.ones((), dtype=Y.dtype), -_cunp.ones((), dtype=Y.dtype))


def _resample_parallel(S, S_old, n, rng, dtype):
    """Replaces each column of the +-1 matrix S that is parallel to an earlier column of
    S or to a column of S_old by a random +-1 column (Higham and Tisseur, step 4)."""
    t = S.shape[1]
    for i in range(t):
        for _ in range(max(n // t, 1)):
            prev = S[:, :i] if S_old is None else _cunp.concatenate([S_old, S[:, :i]], axis=1)
            if prev.shape[1] == 0:
                break
            if not bool((_cunp.abs(prev.T @ S[:, i]) == n).any()):
                break
            S[:, i] = _cunp.asarray(rng.choice([-1.0, 1.0], size=n).astype(dtype))
    return S


def onenormest(A, t=2, itmax=5, compute_v=False, compute_w=False):
    """A lower bound of ||A||_1, usually exact (scipy.sparse.linalg.onenormest; Higham and
    Tisseur 2000, Algorithm 2.4). A needs matmat and its adjoint's (rmatmat). Returns est,
    or (est, v, w) with ||A v||_1 = est ||v||_1 and w = A v as asked."""
    A = aslinearoperator(A)
    if A.shape[0] != A.shape[1]:
        raise ValueError("expected the operator to act like a square matrix")
    n = A.shape[1]
    if t >= n:
        # small operators: the exact norm from the explicit matrix
        dt = _util.float_dtype(A.dtype if A.dtype is not None else _numpy.float64)
        E = _cunp.asarray(A.matmat(_cunp.eye(n, dtype=dt)))
        col = _cunp.abs(E).sum(axis=0)
        j = int(_cunp.argmax(col))
        est = float(col[j])
        v = _cunp.zeros(n, dtype=_numpy.float64)
        v[j] = 1
        w = E[:, j]
    else:
        est, v, w = _onenormest_core(A, n, int(t), int(itmax))
    out = [est]
    if compute_v:
        out.append(v)
    if compute_w:
        out.append(w)
    return out[0] if len(out) == 1 else tuple(out)


def _onenormest_core(A, n, t, itmax):
    rng = _numpy.random.default_rng(0)   # deterministic estimates, like a fixed start matrix
    dtype = _util.float_dtype(A.dtype if A.dtype is not None else _numpy.float64)
    real = dtype.kind != "c"
    X = _numpy.ones((n, t))
    if t > 1:
        X[:, 1:] = rng.choice([-1.0, 1.0], size=(n, t - 1))
    X = _cunp.asarray((X / n).astype(_util.real_dtype(dtype)))
    if t > 1:
        X = _resample_parallel(X * n, None, n, rng, X.dtype) / n
    ind_hist = []
    est_old = 0.0
    S = None
    ind = None
    ind_best = 0
    w = None
    k = 1
    while True:
        Y = _cunp.asarray(A.matmat(X))
        colnorms = _cunp.abs(Y).sum(axis=0).get()
        best_j = int(_numpy.argmax(colnorms))
        est = float(colnorms[best_j])
        if est > est_old or k == 2:
            if k >= 2:
                ind_best = int(ind[best_j])
            w = Y[:, best_j]
        if k >= 2 and est <= est_old:
            est = est_old
            break
        est_old = est
        S_old = S
        if k > itmax:
            break
        S = _sign_round_up(Y)
        if real and S_old is not None:
            G = _cunp.abs(S_old.T @ S).get()
            if bool(_numpy.all((G == n).any(axis=0))):
                break   # every column of S is parallel to one of S_old: no progress
        if real and t > 1:
            S = _resample_parallel(S, S_old, n, rng, S.dtype)
        Z = _cunp.asarray(A.rmatmat(S))
        h = _cunp.abs(Z).max(axis=1)
        need = min(n, t + len(ind_hist))
        order = _cunp.argsort(-h)[:need].get()
        h_max = float(h[int(order[0])])
        if k >= 2 and h_max == float(h[ind_best]):
            break
        if t > 1 and set(order[:t].tolist()) <= set(ind_hist):
            break
        fresh = [int(i) for i in order if int(i) not in ind_hist][:t]
        if len(fresh) < t:
            fresh += [int(i) for i in order if int(i) in ind_hist][:t - len(fresh)]
        ind = _numpy.asarray(fresh)
        X = _cunp.zeros((n, t), dtype=X.dtype)
        X[_cunp.asarray(ind), _cunp.arange(t)] = 1
        ind_hist.extend(fresh)
        k += 1
    v = _cunp.zeros(n, dtype=_numpy.float64)
    v[ind_best] = 1
    return est, v, w

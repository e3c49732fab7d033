"""DIAgonal format: dia_array and dia_matrix (scipy.sparse._dia). ``data[d, j]`` holds
the entry at column j of diagonal ``offsets[d]`` (row ``j - offsets[d]``); positions
outside the matrix are padding. Products and elementwise operations between matrices
go through CSR (their results are CSR where SciPy keeps some DIA)."""
import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse import _sputils
from cunpx.scipy.sparse._base import register, sparray, spmatrix
from cunpx.scipy.sparse._operators import _is_host_sparse, issparse
from cunpx.scipy.sparse._data import _data_matrix

__all__ = ["dia_array", "dia_matrix", "isspmatrix_dia"]

ndarray = _cunp.ndarray
_INT64 = _numpy.dtype(_numpy.int64)


class _dia_base(_data_matrix):
    format = "dia"

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None, device=None):
        if dtype is not None:
            dtype = _sputils.check_dtype(dtype)
        if self._is_array and _numpy.isscalar(arg1):
            raise ValueError("scipy sparse array classes do not support instantiation from a scalar")
        if issparse(arg1):
            src = arg1 if arg1.format == "dia" else arg1.todia()
            data, offsets = src.data, src.offsets
            if copy and src is arg1:
                data, offsets = data.copy(), offsets.copy()
            self._set(data, offsets, src.shape, dtype)
            return
        if _is_host_sparse(arg1):
            host = arg1.todia()
            _sputils.check_dtype(host.dtype)
            dev = device
            self._set(_cunp.asarray(host.data, device=dev), _cunp.asarray(host.offsets, device=dev), host.shape,
                      dtype)
            return
        if isinstance(arg1, tuple):
            if _sputils.isshape(arg1):
                M, N = _sputils.check_shape(arg1)
                dev = device
                idx = _sputils.get_index_dtype(maxval=max(M, N))
                self._set(_cunp.zeros((0, 0), dtype=dtype or _numpy.float64, device=dev),
                          _cunp.zeros(0, dtype=idx, device=dev), (M, N), None)
                return
            if len(arg1) == 2:
                self._from_diagonals(arg1, shape, dtype, copy, device)
                return
            raise ValueError("unrecognized form for %s constructor" % type(self).__name__)
        coo = self._coo_container(arg1, shape=shape, dtype=dtype, device=device)
        src = coo.todia()
        self._set(src.data, src.offsets, src.shape, None)

    def _from_diagonals(self, arg1, shape, dtype, copy, device):
        data, offsets = arg1
        if shape is None:
            raise ValueError("expected a shape argument")
        shape = _sputils.check_shape(shape)
        dev = device if device is not None else _sputils.device_of(data, offsets)
        if isinstance(data, ndarray):
            data_a = _sputils.to_device(data, dev)
        else:
            host = _numpy.atleast_1d(_numpy.asarray(data))
            _sputils.check_dtype(host.dtype if dtype is None else dtype)
            data_a = _cunp.asarray(host, device=dev)
        if data_a.ndim == 1:
            data_a = data_a.reshape(1, -1)
        off_host = offsets.get() if isinstance(offsets, ndarray) else _numpy.atleast_1d(_numpy.asarray(offsets))
        if off_host.ndim == 0:
            off_host = off_host.reshape(1)
        if data_a.ndim != 2:
            raise ValueError("data array must have rank 2")
        if off_host.ndim != 1:
            raise ValueError("offsets array must have rank 1")
        if data_a.shape[0] != off_host.shape[0]:
            raise ValueError("number of diagonals (%d) does not match the number of offsets (%d)"
                             % (data_a.shape[0], off_host.shape[0]))
        if _numpy.unique(off_host).shape[0] != off_host.shape[0]:
            raise ValueError("offset array contains duplicate values")
        idx = _sputils.get_index_dtype(maxval=max(shape))
        off = _cunp.asarray(off_host.astype(idx), device=dev)
        if copy:
            data_a = data_a.copy()
        self._set(data_a, off, shape, dtype)

    def _set(self, data, offsets, shape, dtype):
        shape = _sputils.check_shape(shape)
        if dtype is not None and data.dtype != dtype:
            data = data.astype(dtype)
        _sputils.check_dtype(data.dtype)
        self.data, self.offsets = data, offsets
        self._shape = shape

    @classmethod
    def _new(cls, data, offsets, shape):
        out = cls.__new__(cls)
        _sputils.check_dtype(data.dtype)
        out.data, out.offsets = data, offsets
        out._shape = tuple(shape)
        return out

    def _with_data(self, data, copy=True):
        return self._new(data, self.offsets.copy() if copy else self.offsets, self.shape)

    # ---- structure --------------------------------------------------------------------

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        return "<DIAgonal sparse %s of dtype '%s'\n\twith %d stored elements (%d diagonals) and shape %s>" % (
            kind, self.dtype, self.nnz, self.data.shape[0], self.shape)

    def _positions(self):
        """(rows, cols, valid) of every slot of the data array."""
        M, N = self.shape
        n_diag, L = self.data.shape
        cols = _cunp.broadcast_to(_cunp.arange(L, dtype=_INT64, device=self.device).reshape(1, -1), (n_diag, L))
        rows = cols - self.offsets.astype(_INT64).reshape(-1, 1)
        valid = (rows >= 0) & (rows < M) & (cols < N)
        return rows, cols, valid

    def _getnnz(self, axis=None):
        if axis is not None:
            raise NotImplementedError("_getnnz over an axis is not implemented for DIA format")
        M, N = self.shape
        L = min(self.data.shape[1], N)
        off = self.offsets.astype(_INT64)
        if off.shape[0] == 0:
            return 0
        return int(_cunp.maximum(_cunp.minimum(M + off, L) - _cunp.maximum(off, 0), 0).sum())

    def count_nonzero(self, axis=None):
        if axis is not None:
            return self.tocoo().count_nonzero(axis=axis)
        _, _, valid = self._positions()
        return int(_cunp.count_nonzero(valid & (self.data != 0)))

    # ---- conversions ------------------------------------------------------------------

    def _to_host(self, host_sparse):
        cls = getattr(host_sparse, "dia_%s" % ("array" if self._is_array else "matrix"))
        return cls((self.data.get(), self.offsets.get()), shape=self.shape)

    def todia(self, copy=False):
        return self.copy() if copy else self

    def tocoo(self, copy=False):
        """COO of the stored slots inside the matrix whose values are not zero."""
        rows, cols, valid = self._positions()
        keep = valid & (self.data != 0)
        idx = _sputils.get_index_dtype(maxval=max(self.shape))
        return self._coo_container._new(self.data[keep], rows[keep].astype(idx), cols[keep].astype(idx), self.shape)

    def toarray(self, order=None, out=None):
        return self.tocoo().toarray(order=order, out=out)

    def transpose(self, axes=None, copy=False):
        if axes is not None and axes != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping dimensions "
                             "is the only logical permutation.")
        M, N = self.shape
        n_diag, L = self.data.shape
        off = self.offsets.astype(_INT64).reshape(-1, 1)
        # Column c of diagonal -k of A.T is column c + k of diagonal k of A.
        src = _cunp.arange(M, dtype=_INT64, device=self.device).reshape(1, -1) + off
        valid = (src >= 0) & (src < L)
        rows = _cunp.broadcast_to(_cunp.arange(n_diag, dtype=_INT64, device=self.device).reshape(-1, 1), src.shape)
        gathered = self.data[rows, _cunp.clip(src, 0, max(L - 1, 0))] if L else \
            _cunp.zeros((n_diag, M), dtype=self.dtype, device=self.device)
        data = _cunp.where(valid, gathered, _cunp.zeros((), dtype=self.dtype, device=self.device))
        return self._new(data.astype(self.dtype), -self.offsets, (N, M))

    def diagonal(self, k=0):
        M, N = self.shape
        k = int(k)
        if k <= -M or k >= N:
            return _cunp.zeros(0, dtype=self.dtype, device=self.device)
        first, last = max(0, k), min(M + k, N)
        length = last - first
        off = self.offsets.get()
        where = _numpy.flatnonzero(off == k)
        if where.shape[0] == 0:
            return _cunp.zeros(length, dtype=self.dtype, device=self.device)
        d = int(where[0])
        L = self.data.shape[1]
        out = _cunp.zeros(length, dtype=self.dtype, device=self.device)
        stop = min(last, L)
        if stop > first:
            out[:stop - first] = self.data[d, first:stop]
        return out

    # ---- arithmetic: DIA with DIA stays DIA (through CSR), as SciPy ------------------

    def _dia_if(self, result, other):
        return result.todia() if getattr(other, "format", None) == "dia" and result.format != "dia" else result

    def _add_sparse(self, other):
        if getattr(other, "format", None) != "dia":
            return other._add_sparse(self)  # the other operand's format, as SciPy
        return self.tocsr()._add_sparse(other).todia()

    def _sub_sparse(self, other):
        return self._dia_if(self.tocsr()._sub_sparse(other), other)

    def _multiply_sparse(self, other):
        return self._dia_if(self.tocsr()._multiply_sparse(other), other)

    def _matmul_sparse(self, other):
        return self._dia_if(self.tocsr()._matmul_sparse(other), other)

    def _multiply_dense(self, other):
        """self * dense: the stored slots times the dense values there (DIA; degenerate
        shapes go through CSR and give COO, as SciPy)."""
        if (other.ndim > 2 or 0 in self.shape or 1 in self.shape or 0 in other.shape
                or _numpy.broadcast_shapes(self.shape, tuple(other.shape)) != self.shape):
            return self.tocsr()._multiply_dense(other)
        rows, cols, valid = self._positions()
        M, N = self.shape
        full = _cunp.broadcast_to(other, self.shape)
        picked = full[_cunp.clip(rows, 0, max(M - 1, 0)), _cunp.clip(cols, 0, max(N - 1, 0))] if M and N else \
            _cunp.zeros(self.data.shape, dtype=other.dtype, device=self.device)
        product = _cunp.multiply(self.data, picked)
        return self._with_data(_cunp.where(valid, product, _cunp.zeros((), dtype=product.dtype,
                                                                         device=self.device)))

    def _setdiag(self, values, k):
        M, N = self.shape
        vals = _sputils.to_device(values, self.device) if isinstance(values, ndarray) else \
            _cunp.asarray(_numpy.asarray(values), device=self.device)
        n_values = None if vals.ndim == 0 else vals.shape[0]
        if k < 0:
            n = min(M + k, N) if n_values is None else min(M + k, N, n_values)
            lo, hi = 0, n
        else:
            n = min(M, N - k) if n_values is None else min(M, N - k, n_values)
            lo, hi = k, k + n
        if n <= 0:
            return
        vals = _cunp.broadcast_to(vals, (n,)) if vals.ndim == 0 else vals[:n]
        vals = vals.astype(self.dtype)
        rows, cols = self.data.shape
        off = self.offsets.get()
        where = _numpy.flatnonzero(off == k)
        if where.shape[0]:
            if hi > cols:
                data = _cunp.zeros((rows, hi), dtype=self.dtype, device=self.device)
                data[:, :cols] = self.data
                self.data = data
            self.data[int(where[0]), lo:hi] = vals
            return
        width = max(hi, cols)
        data = _cunp.zeros((rows + 1, width), dtype=self.dtype, device=self.device)
        data[:-1, :cols] = self.data
        data[-1, lo:hi] = vals
        self.data = data
        self.offsets = _cunp.concatenate([self.offsets, _cunp.asarray(_numpy.array([k], dtype=off.dtype),
                                                                      device=self.device)])


@register
class dia_array(sparray, _dia_base):
    """A sparse array in DIAgonal format (scipy.sparse.dia_array): ``dia_array(D)``,
    ``dia_array(S)``, ``dia_array((M, N))``, ``dia_array((data, offsets), shape=(M, N))``."""


@register
class dia_matrix(spmatrix, _dia_base):
    """A sparse matrix in DIAgonal format (scipy.sparse.dia_matrix)."""


def isspmatrix_dia(x):
    """Whether `x` is a dia_matrix (not a dia_array, as SciPy ≥ 1.11)."""
    return isinstance(x, dia_matrix)

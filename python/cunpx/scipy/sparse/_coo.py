"""COOrdinate format: coo_array and coo_matrix (scipy.sparse._coo), the (data,
(row, col)) triplets; duplicates are allowed and summed by every conversion."""
import warnings

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse import _kernels, _sputils
from cunpx.scipy.sparse._base import register, sparray, spmatrix
from cunpx.scipy.sparse._operators import SparseEfficiencyWarning, _is_host_sparse, issparse
from cunpx.scipy.sparse._data import _data_matrix, _minmax_mixin

__all__ = ["coo_array", "coo_matrix", "isspmatrix_coo"]

ndarray = _cunp.ndarray
_INT64 = _numpy.dtype(_numpy.int64)


class _coo_base(_data_matrix, _minmax_mixin):
    format = "coo"

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None, device=None):
        if dtype is not None:
            dtype = _sputils.check_dtype(dtype)
        if self._is_array and _numpy.isscalar(arg1):
            raise ValueError("scipy sparse array classes do not support instantiation from a scalar")
        if issparse(arg1):
            src = arg1 if arg1.format == "coo" else arg1.tocoo()
            data, row, col = src.data, src.row, src.col
            if copy:
                data, row, col = data.copy(), row.copy(), col.copy()
            self._set(data, row, col, src.shape if shape is None else _sputils.check_shape(shape), dtype)
            self.has_canonical_format = getattr(src, "has_canonical_format", False) if src.format == "coo" else False
            return
        if _is_host_sparse(arg1):
            host = arg1.tocoo()
            _sputils.check_dtype(host.dtype)
            dev = device
            idx = _sputils.get_index_dtype((host.row, host.col), maxval=max(host.shape) if host.shape else 0)
            self._set(_cunp.asarray(host.data, device=dev), _cunp.asarray(host.row.astype(idx), device=dev),
                      _cunp.asarray(host.col.astype(idx), device=dev), host.shape, dtype)
            self.has_canonical_format = bool(host.has_canonical_format)
            return
        if isinstance(arg1, tuple):
            if _sputils.isshape(arg1):
                M, N = _sputils.check_shape(arg1)
                idx = _sputils.get_index_dtype(maxval=max(M, N))
                dev = device
                self._set(_cunp.zeros(0, dtype=dtype or _numpy.float64, device=dev),
                          _cunp.zeros(0, dtype=idx, device=dev), _cunp.zeros(0, dtype=idx, device=dev), (M, N), None)
                self.has_canonical_format = True
                return
            if len(arg1) == 2:
                self._from_triplets(arg1, shape, dtype, copy, device)
                return
            raise ValueError("unrecognized %s constructor usage" % type(self).__name__)
        self._from_dense(arg1, shape, dtype, device)

    def _from_triplets(self, arg1, shape, dtype, copy, device):
        try:
            obj, (row, col) = arg1
        except (TypeError, ValueError):
            raise TypeError("invalid input format") from None
        dev = device if device is not None else _sputils.device_of(obj, row, col)
        if isinstance(obj, ndarray):
            data = _sputils.to_device(obj, dev)
        else:
            host = _numpy.asarray(obj)
            _sputils.check_dtype(host.dtype if dtype is None else dtype)
            data = _cunp.asarray(host, device=dev)
        _sputils.check_dtype(data.dtype if dtype is None else dtype)
        coords = []
        for c in (row, col):
            arr = c if isinstance(c, ndarray) else _numpy.asarray(c)
            if arr.dtype.kind == "f" and arr.size:
                raise TypeError("'numpy.float64' object cannot be interpreted as an integer")
            if arr.dtype.kind not in "biu" and arr.size:
                raise ValueError("row and column index arrays must have an integer dtype, got %s" % arr.dtype)
            coords.append(arr)
        if data.ndim > 1 or coords[0].ndim != 1 or coords[1].ndim != 1:
            data = data.ravel()
        if not (data.shape[0] == coords[0].shape[0] == coords[1].shape[0]):
            raise ValueError("all index and data arrays must have the same length")
        if shape is not None:
            shape = _sputils.check_shape(shape)
        idx = _sputils.get_index_dtype(tuple(coords), maxval=max(shape) if shape is not None else None,
                                       check_contents=True)
        row_a = _sputils.to_device(coords[0], dev, dtype=idx)
        col_a = _sputils.to_device(coords[1], dev, dtype=idx)
        nnz = data.shape[0]
        if nnz:
            bounds = _cunp.stack([row_a.min().astype(_INT64), row_a.max().astype(_INT64),
                                  col_a.min().astype(_INT64), col_a.max().astype(_INT64)]).get()
        if shape is None:
            if nnz == 0:
                raise ValueError("cannot infer dimensions from zero sized index arrays")
            shape = (int(bounds[1]) + 1, int(bounds[3]) + 1)
            idx2 = _sputils.get_index_dtype(maxval=max(shape))
            if idx2 != idx:
                row_a, col_a = row_a.astype(idx2), col_a.astype(idx2)
        if nnz:
            for axis, (lo, hi) in enumerate(((bounds[0], bounds[1]), (bounds[2], bounds[3]))):
                if int(hi) >= shape[axis]:
                    raise ValueError("axis %d index %d exceeds matrix dimension %d" % (axis, int(hi), shape[axis]))
                if int(lo) < 0:
                    raise ValueError("negative axis %d index: %d" % (axis, int(lo)))
        if copy:  # (cunp.asarray may have wrapped a NumPy argument's memory on cpu)
            data, row_a, col_a = data.copy(), row_a.copy(), col_a.copy()
        self._set(data, row_a, col_a, shape, dtype)
        self.has_canonical_format = False

    def _from_dense(self, arg1, shape, dtype, device):
        if isinstance(arg1, ndarray):
            dense = arg1 if device is None else _sputils.to_device(arg1, device)
        else:
            host = _numpy.asarray(arg1)
            if host.dtype == _numpy.object_:
                raise ValueError("unrecognized %s constructor input: %r" % (type(self).__name__, arg1))
            _sputils.check_dtype(host.dtype if dtype is None else dtype)
            dense = _cunp.asarray(host, device=device)
        _sputils.check_dtype(dense.dtype if dtype is None else dtype)
        if dense.ndim > 2:
            raise ValueError("expected dimension <= 2 array or matrix")
        if dense.ndim < 2:
            dense = dense.reshape(1, -1)
        if shape is not None and _sputils.check_shape(shape) != tuple(dense.shape):
            raise ValueError("inconsistent shapes: %s != %s" % (_sputils.check_shape(shape), tuple(dense.shape)))
        if dtype is not None:
            dense = dense.astype(dtype)
        row, col = _cunp.nonzero(dense)
        idx = _sputils.get_index_dtype(maxval=max(dense.shape + (row.shape[0],)))
        self._set(dense[row, col], row.astype(idx), col.astype(idx), dense.shape, None)
        self.has_canonical_format = True

    def _set(self, data, row, col, shape, dtype):
        shape = _sputils.check_shape(shape)
        if dtype is not None and data.dtype != dtype:
            data = data.astype(dtype)
        _sputils.check_dtype(data.dtype)
        self.data, self.row, self.col = data, row, col
        self._shape = shape

    @classmethod
    def _new(cls, data, row, col, shape, canonical=False):
        out = cls.__new__(cls)
        _sputils.check_dtype(data.dtype)
        out.data, out.row, out.col = data, row, col
        out._shape = tuple(shape)
        out.has_canonical_format = bool(canonical)
        return out

    # ---- structure --------------------------------------------------------------------

    @property
    def coords(self):
        """(row, col): the index arrays (SciPy ≥ 1.13)."""
        return (self.row, self.col)

    @coords.setter
    def coords(self, value):
        self.row, self.col = value

    def _getnnz(self, axis=None):
        if axis is None:
            return int(self.data.shape[0])
        axis = _sputils.validateaxis(axis)[0]
        if axis == 0:
            return _cunp.bincount(self.col, minlength=self.shape[1])
        return _cunp.bincount(self.row, minlength=self.shape[0])

    def count_nonzero(self, axis=None):
        self.sum_duplicates()
        nz = self.data != 0
        axis = _sputils.validateaxis(axis)
        if axis is None:
            return int(_cunp.count_nonzero(nz))
        if axis[0] == 0:
            return _cunp.bincount(self.col[nz], minlength=self.shape[1])
        return _cunp.bincount(self.row[nz], minlength=self.shape[0])

    def _index_dtype(self):
        return _sputils.get_index_dtype((self.row, self.col), maxval=max(self.shape + (self.nnz,)))

    def sum_duplicates(self):
        """Sums duplicate entries in place; the entries end sorted by (row, col)."""
        if self.has_canonical_format:
            return
        M, N = self.shape
        idx = self._index_dtype()
        indptr, col, data = _kernels.coo_to_csr(M, N, self.row, self.col, self.data, idx)
        self.row, self.col, self.data = _kernels.expand_indptr(indptr), col, data
        self.has_canonical_format = True

    def eliminate_zeros(self):
        """Removes the stored zeros in place."""
        keep = self.data != 0
        if bool(keep.all()):
            return
        self.data, self.row, self.col = self.data[keep], self.row[keep], self.col[keep]

    def _canonical_arrays(self):
        """The canonical CSR arrays (indptr, indices, data) of this matrix."""
        M, N = self.shape
        return _kernels.coo_to_csr(M, N, self.row, self.col, self.data, self._index_dtype())

    def _with_data(self, data, copy=True):
        row, col = (self.row.copy(), self.col.copy()) if copy else (self.row, self.col)
        return self._new(data, row, col, self.shape, canonical=self.has_canonical_format)

    # ---- conversions ------------------------------------------------------------------

    def _to_host(self, host_sparse):
        cls = getattr(host_sparse, "coo_%s" % ("array" if self._is_array else "matrix"))
        out = cls((self.data.get(), (self.row.get(), self.col.get())), shape=self.shape)
        out.has_canonical_format = self.has_canonical_format
        return out

    def tocoo(self, copy=False):
        return self.copy() if copy else self

    def tocsr(self, copy=False):
        """CSR with duplicates summed and sorted indices (explicit zeros kept)."""
        M, N = self.shape
        indptr, indices, data = _kernels.coo_to_csr(M, N, self.row, self.col, self.data, self._index_dtype())
        return self._csr_container._new(data, indices, indptr, self.shape, canonical=True)

    def tocsc(self, copy=False):
        M, N = self.shape
        indptr, indices, data = _kernels.coo_to_csr(N, M, self.col, self.row, self.data, self._index_dtype())
        return self._csc_container._new(data, indices, indptr, self.shape, canonical=True)

    def todia(self, copy=False):
        """DIA with one stored diagonal per occupied diagonal (SciPy's layout: the data
        array has max(col) + 1 columns)."""
        self.sum_duplicates()
        ks = self.col.astype(_INT64) - self.row.astype(_INT64)
        diags, diag_idx = _cunp.unique(ks, return_inverse=True)
        if diags.shape[0] > 100:
            warnings.warn("Constructing a DIA matrix with %d diagonals is inefficient" % diags.shape[0],
                          SparseEfficiencyWarning, stacklevel=2)
        if self.data.shape[0] == 0:
            data = _cunp.zeros((0, 0), dtype=self.dtype, device=self.device)
        else:
            data = _cunp.zeros((diags.shape[0], int(self.col.max()) + 1), dtype=self.dtype, device=self.device)
            data[diag_idx, self.col] = self.data
        return self._dia_container._new(data, diags.astype(self._index_dtype()), self.shape)

    def toarray(self, order=None, out=None):
        if out is not None:
            if order is not None:
                raise ValueError("order cannot be specified if out is not None")
            if tuple(out.shape) != self.shape or out.dtype != self.dtype:
                raise ValueError("out array must be same dtype and shape as sparse array")
            out[...] = 0
        else:
            out = _cunp.zeros(self.shape, dtype=self.dtype, device=self.device)
        if self.nnz:
            _cunp.add.at(out, (self.row, self.col), self.data)
        return _cunp.asfortranarray(out) if order == "F" else out

    def transpose(self, axes=None, copy=False):
        if axes is not None and axes != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping dimensions "
                             "is the only logical permutation.")
        data, row, col = (self.data.copy(), self.row.copy(), self.col.copy()) if copy else \
            (self.data, self.row, self.col)
        return self._new(data, col, row, self.shape[::-1])

    def reshape(self, *args, order="C", copy=False):
        from cunpx.scipy.sparse._base import _reshape_shape
        shape = _reshape_shape(args[0] if len(args) == 1 else args, self.shape)
        if shape == self.shape:
            return self.copy() if copy else self
        M, N = self.shape
        r, c = self.row.astype(_INT64), self.col.astype(_INT64)
        if order == "C":
            flat = r * N + c
            new_row, new_col = flat // shape[1], flat % shape[1]
        elif order == "F":
            flat = c * M + r
            new_row, new_col = flat % shape[0], flat // shape[0]
        else:
            raise ValueError("'order' must be 'C' or 'F'")
        idx = _sputils.get_index_dtype(maxval=max(shape))
        data = self.data.copy() if copy else self.data
        return self._new(data, new_row.astype(idx), new_col.astype(idx), shape)

    # ---- arithmetic and products ------------------------------------------------------

    def _add_dense(self, other):
        if tuple(other.shape) != self.shape:
            raise ValueError("Incompatible shapes (%s and %s)" % (self.shape, tuple(other.shape)))
        dtype = _sputils.upcast(self.dtype, other.dtype)
        result = other.astype(dtype, copy=True)
        if self.nnz:
            _cunp.add.at(result, (self.row, self.col), self.data.astype(dtype))
        return result

    def _sum_axis(self, axis, dtype):
        """Sums along an axis; duplicates count one by one (SciPy's product with ones)."""
        ids = self.col if axis == 0 else self.row
        return _kernels.segment_sum(ids, self.data.astype(dtype), self.shape[1 - axis], dtype)

    def _matmul_vector(self, other):
        dtype = _sputils.upcast(self.dtype, other.dtype)
        y = _cunp.zeros(self.shape[0], dtype=dtype, device=self.device)
        if self.nnz:
            _cunp.add.at(y, self.row, self.data.astype(dtype) * other[self.col].astype(dtype))
        return y

    def diagonal(self, k=0):
        M, N = self.shape
        k = int(k)
        length = max(0, min(M + min(k, 0), N - max(k, 0)))
        out = _cunp.zeros(length, dtype=self.dtype, device=self.device)
        if length == 0 or self.nnz == 0:
            return out
        r, c = self.row.astype(_INT64), self.col.astype(_INT64)
        on = (c - r) == k
        _cunp.add.at(out, r[on] if k >= 0 else c[on], self.data[on])
        return out

    def _setdiag(self, values, k):
        """Replaces the stored entries of diagonal k (within the values' length) by
        `values` (SciPy's COO setdiag: no warning, the entries move to the end)."""
        rows, cols, vals = self._diag_positions(values, k)
        r, c = self.row.astype(_INT64), self.col.astype(_INT64)
        length = rows.shape[0]
        on = (c - r) == k
        first = r if k >= 0 else c
        keep = ~(on & (first < length))
        idx = _sputils.get_index_dtype((self.row, self.col), maxval=max(self.shape + (self.nnz + length,)))
        self.row = _cunp.concatenate([self.row[keep].astype(idx), rows.astype(idx)])
        self.col = _cunp.concatenate([self.col[keep].astype(idx), cols.astype(idx)])
        self.data = _cunp.concatenate([self.data[keep], vals])
        self.has_canonical_format = False


@register
class coo_array(sparray, _coo_base):
    """A sparse array in COOrdinate format (scipy.sparse.coo_array): ``coo_array(D)``,
    ``coo_array(S)``, ``coo_array((M, N), dtype=)``, ``coo_array((data, (row, col)), shape=)``."""


@register
class coo_matrix(spmatrix, _coo_base):
    """A sparse matrix in COOrdinate format (scipy.sparse.coo_matrix)."""


def isspmatrix_coo(x):
    """Whether `x` is a coo_matrix (not a coo_array, as SciPy ≥ 1.11)."""
    return isinstance(x, coo_matrix)

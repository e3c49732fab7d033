"""The compressed formats' shared implementation (scipy.sparse._compressed): CSR and
CSC are one class read along a major axis (rows for CSR, columns for CSC), so every
routine is written once for (n_major, n_minor, indptr, indices, data) and a CSC matrix
is handed to it as the CSR matrix of its transpose."""
import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse import _kernels, _sputils
from cunpx.scipy.sparse._operators import _is_host_sparse, issparse
from cunpx.scipy.sparse._data import _data_matrix, _minmax_mixin
from cunpx.scipy.sparse._index import CompressedIndexMixin

ndarray = _cunp.ndarray
_INT64 = _numpy.dtype(_numpy.int64)


class _cs_matrix(_data_matrix, _minmax_mixin, CompressedIndexMixin):
    """CSR/CSC: ``data``, ``indices`` (minor index of each entry), ``indptr`` (where each
    major line starts)."""

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None, device=None):
        if dtype is not None:
            dtype = _sputils.check_dtype(dtype)
        if self._is_array and _numpy.isscalar(arg1):
            raise ValueError("scipy sparse array classes do not support instantiation from a scalar")
        sorted_flag = canonical_flag = None
        if issparse(arg1):
            if shape is not None and _sputils.check_shape(shape) != arg1.shape:
                arg1 = arg1.reshape(_sputils.check_shape(shape))
            src = arg1 if arg1.format == self.format else arg1.asformat(self.format)
            data, indices, indptr, arg_shape = src.data, src.indices, src.indptr, src.shape
            sorted_flag = getattr(src, "_has_sorted_indices", None)
            canonical_flag = getattr(src, "_has_canonical_format", None)
            if copy:
                data, indices, indptr = data.copy(), indices.copy(), indptr.copy()
            self._install(data, indices, indptr, arg_shape, dtype, checked=True)
            if sorted_flag is not None:
                self._has_sorted_indices = sorted_flag
            if canonical_flag is not None:
                self._has_canonical_format = canonical_flag
            return
        if _is_host_sparse(arg1):
            host = arg1.asformat(self.format)
            dev = device
            _sputils.check_dtype(host.dtype)
            data = _cunp.asarray(host.data, device=dev)
            idx = _sputils.get_index_dtype((host.indices, host.indptr), maxval=max(host.shape) if host.shape else 0)
            self._install(data, _cunp.asarray(host.indices.astype(idx), device=dev),
                          _cunp.asarray(host.indptr.astype(idx), device=dev),
                          host.shape if shape is None else _sputils.check_shape(shape), dtype, checked=True)
            if host.has_sorted_indices:
                self._has_sorted_indices = True
            return
        if isinstance(arg1, tuple):
            if _sputils.isshape(arg1):
                M, N = _sputils.check_shape(arg1)
                idx = _sputils.get_index_dtype(maxval=max(M, N))
                dev = device
                major = self._swap((M, N))[0]
                self._install(_cunp.zeros(0, dtype=dtype or _numpy.float64, device=dev),
                              _cunp.zeros(0, dtype=idx, device=dev), _cunp.zeros(major + 1, dtype=idx, device=dev),
                              (M, N), None, checked=True)
                self._has_sorted_indices = True
                self._has_canonical_format = True
                return
            if len(arg1) == 2:
                coo = self._coo_container(arg1, shape=shape, dtype=dtype, device=device)
                src = coo.asformat(self.format)
                self._install(src.data, src.indices, src.indptr, src.shape, None, checked=True)
                self._has_sorted_indices = True
                self._has_canonical_format = True
                return
            if len(arg1) == 3:
                self._from_arrays(arg1, shape, dtype, copy, device)
                return
            raise ValueError("unrecognized %s constructor usage" % type(self).__name__)
        self._from_dense(arg1, shape, dtype, device)

    # ---- construction -------------------------------------------------------------------

    def _from_arrays(self, arrays, shape, dtype, copy, device):
        data, indices, indptr = arrays
        dev = device if device is not None else _sputils.device_of(data, indices, indptr)
        data_a = _sputils.to_device(data, dev) if isinstance(data, ndarray) else None
        if data_a is None:
            host = _numpy.asarray(data)
            _sputils.check_dtype(host.dtype if dtype is None else dtype)
            data_a = _cunp.asarray(host, device=dev)
        _sputils.check_dtype(data_a.dtype if dtype is None else dtype)
        ind = indices if isinstance(indices, ndarray) else _numpy.asarray(indices)
        ptr = indptr if isinstance(indptr, ndarray) else _numpy.asarray(indptr)
        if data_a.ndim != 1 or ind.ndim != 1 or ptr.ndim != 1:
            raise ValueError("data, indices, and indptr should be 1-D")
        for name, arr in (("indices", ind), ("indptr", ptr)):
            if arr.dtype.kind not in "biuf" and not (arr.size == 0):
                raise ValueError("%s array has non-integer dtype (%s)" % (name, arr.dtype))
        if shape is not None:
            shape = _sputils.check_shape(shape)
        idx = _sputils.get_index_dtype((ind, ptr), maxval=max(shape) if shape is not None else None,
                                       check_contents=True)
        ind = _sputils.to_device(ind, dev, dtype=idx)
        ptr = _sputils.to_device(ptr, dev, dtype=idx)
        if shape is None:
            if ind.shape[0] == 0:
                minor = 0
            else:
                minor = int(ind.max()) + 1
            shape = self._swap((ptr.shape[0] - 1, minor))
            if shape[0] < 0 or shape[1] < 0:
                raise ValueError("unable to infer matrix dimensions")
        if copy:  # (cunp.asarray may have wrapped a NumPy argument's memory on cpu)
            data_a, ind, ptr = data_a.copy(), ind.copy(), ptr.copy()
        self._install(data_a, ind, ptr, shape, dtype, checked=False)

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
            raise ValueError("shape %s does not match the shape %s of the dense input"
                             % (_sputils.check_shape(shape), tuple(dense.shape)))
        if dtype is not None:
            dense = dense.astype(dtype)
        M, N = dense.shape
        major_view = dense if self.format == "csr" else dense.T
        rows, cols = _cunp.nonzero(major_view)
        nnz = rows.shape[0]
        idx = _sputils.get_index_dtype(maxval=max(M, N, nnz))
        data = major_view[rows, cols]
        indptr = _kernels.major_to_indptr(rows, major_view.shape[0], idx)
        self._install(data, cols.astype(idx), indptr, (M, N), None, checked=True)
        self._has_sorted_indices = True
        self._has_canonical_format = True

    def _install(self, data, indices, indptr, shape, dtype, checked):
        """Sets the arrays after SciPy's light format check (and prune); nothing is set
        when a check fails."""
        shape = _sputils.check_shape(shape)
        M, N = self._swap(shape)
        if not checked:
            if indptr.shape[0] != M + 1:
                raise ValueError("index pointer size %d should be %d" % (indptr.shape[0], M + 1))
            ends = _cunp.stack([indptr[0], indptr[-1]]).get()
            if int(ends[0]) != 0:
                raise ValueError("index pointer should start with 0")
            if indices.shape[0] != data.shape[0]:
                raise ValueError("indices and data should have the same size")
            nnz = int(ends[1])
            if nnz > indices.shape[0]:
                raise ValueError("Last value of index pointer should be less than the size of index and data arrays")
            if nnz < indices.shape[0]:
                indices, data = indices[:nnz], data[:nnz]
            idx = _sputils.get_index_dtype((indices, indptr), maxval=max(nnz, M, N))
            if indices.dtype != idx:
                indices, indptr = indices.astype(idx), indptr.astype(idx)
        if dtype is not None and data.dtype != dtype:
            data = data.astype(dtype)
        _sputils.check_dtype(data.dtype)
        self.data, self.indices, self.indptr = data, indices, indptr
        self._shape = shape

    def check_format(self, full_check=True):
        """SciPy's check_format: the arrays' lengths and dtypes, and with `full_check`
        the index bounds and a non-decreasing indptr (ValueError naming what fails)."""
        M, N = self._swap(self.shape)
        if self.indptr.ndim != 1 or self.indices.ndim != 1 or self.data.ndim != 1:
            raise ValueError("data, indices, and indptr should be 1-D")
        if self.indptr.shape[0] != M + 1:
            raise ValueError("index pointer size %d should be %d" % (self.indptr.shape[0], M + 1))
        if int(self.indptr[0]) != 0:
            raise ValueError("index pointer should start with 0")
        if self.indices.shape[0] != self.data.shape[0]:
            raise ValueError("indices and data should have the same size")
        if int(self.indptr[-1]) > self.indices.shape[0]:
            raise ValueError("Last value of index pointer should be less than the size of index and data arrays")
        self.prune()
        if full_check and self.nnz > 0:
            if int(self.indices.max()) >= N:
                raise ValueError("indices must be < %d" % N)
            if int(self.indices.min()) < 0:
                raise ValueError("indices must be >= 0")
            if int(_cunp.diff(self.indptr).min()) < 0:
                raise ValueError("indptr must be a non-decreasing sequence")

    # ---- structure --------------------------------------------------------------------

    def _getnnz(self, axis=None):
        if axis is None:
            return int(self.indices.shape[0])
        axis = _sputils.validateaxis(axis)[0]
        major_axis = 0 if self.format == "csr" else 1
        if axis == major_axis:
            return _cunp.bincount(self.indices, minlength=self._swap(self.shape)[1])
        return _cunp.diff(self.indptr)

    def count_nonzero(self, axis=None):
        """The number of stored values that are not zero (duplicates summed first)."""
        self.sum_duplicates()
        nz = self.data != 0
        if axis is None:
            return int(_cunp.count_nonzero(nz))
        axis = _sputils.validateaxis(axis)
        if axis is None:
            return int(_cunp.count_nonzero(nz))
        major_axis = 0 if self.format == "csr" else 1
        if axis[0] == major_axis:
            return _cunp.bincount(self.indices[nz], minlength=self._swap(self.shape)[1])
        return _cunp.bincount(_kernels.expand_indptr(self.indptr)[nz], minlength=self._swap(self.shape)[0])

    @property
    def has_sorted_indices(self):
        """Whether each major line's indices increase (checked once, then remembered)."""
        if not hasattr(self, "_has_sorted_indices"):
            self._has_sorted_indices = _kernels.csr_has_sorted_indices(self.indptr, self.indices)
        return self._has_sorted_indices

    @has_sorted_indices.setter
    def has_sorted_indices(self, value):
        self._has_sorted_indices = bool(value)

    @property
    def has_canonical_format(self):
        """Sorted indices and no duplicates."""
        if not getattr(self, "_has_sorted_indices", True):
            self._has_canonical_format = False
        elif not hasattr(self, "_has_canonical_format"):
            self._has_canonical_format = _kernels.csr_has_sorted_indices(self.indptr, self.indices, strict=True)
            if self._has_canonical_format:
                self._has_sorted_indices = True
        return self._has_canonical_format

    @has_canonical_format.setter
    def has_canonical_format(self, value):
        self._has_canonical_format = bool(value)
        if value:
            self._has_sorted_indices = True

    def _reset_flags(self):
        for name in ("_has_sorted_indices", "_has_canonical_format"):
            if hasattr(self, name):
                delattr(self, name)

    def sort_indices(self):
        """Sorts each major line's indices in place."""
        if not self.has_sorted_indices:
            self.indices, self.data = _kernels.csr_sort_indices(self.indptr, self.indices, self.data)
            self._has_sorted_indices = True

    def sorted_indices(self):
        """A copy with sorted indices."""
        A = self.copy()
        A.sort_indices()
        return A

    def sum_duplicates(self):
        """Sums duplicate entries and sorts the indices, in place (canonical format)."""
        if self.has_canonical_format:
            return
        M = self._swap(self.shape)[0]
        self.indptr, self.indices, self.data = _kernels.csr_sum_duplicates(M, self.indptr, self.indices, self.data,
                                                                            self.indices.dtype)
        self._has_sorted_indices = True
        self._has_canonical_format = True

    def eliminate_zeros(self):
        """Removes the stored zeros, in place."""
        keep = self.data != 0
        if bool(keep.all()):
            return
        self.indptr, self.indices, self.data = _kernels.csr_eliminate(self.indptr, self.indices, self.data, keep,
                                                                       self.indices.dtype)

    def prune(self):
        """Drops storage past indptr[-1] (SciPy's prune)."""
        M = self._swap(self.shape)[0]
        if self.indptr.shape[0] != M + 1:
            raise ValueError("index pointer has invalid length")
        nnz = int(self.indptr[-1])
        if self.indices.shape[0] < nnz:
            raise ValueError("indices array has fewer than nnz elements")
        if self.data.shape[0] < nnz:
            raise ValueError("data array has fewer than nnz elements")
        self.indices = self.indices[:nnz]
        self.data = self.data[:nnz]

    def _canonical_arrays(self):
        """(indptr, indices, data) in canonical form, without changing self."""
        if self.has_canonical_format:
            return self.indptr, self.indices, self.data
        M = self._swap(self.shape)[0]
        return _kernels.csr_sum_duplicates(M, self.indptr, self.indices, self.data, self.indices.dtype)

    def _with_data(self, data, copy=True):
        indices, indptr = (self.indices.copy(), self.indptr.copy()) if copy else (self.indices, self.indptr)
        out = self._new(data, indices, indptr, self.shape)
        for name in ("_has_sorted_indices", "_has_canonical_format"):
            if hasattr(self, name):
                setattr(out, name, getattr(self, name))
        return out

    @classmethod
    def _new(cls, data, indices, indptr, shape, sorted_indices=None, canonical=None):
        """A matrix of this class on already checked arrays (no copies, no syncs)."""
        out = cls.__new__(cls)
        _sputils.check_dtype(data.dtype)
        out.data, out.indices, out.indptr = data, indices, indptr
        out._shape = tuple(shape)
        if canonical:
            out._has_sorted_indices = out._has_canonical_format = True
        elif sorted_indices is not None:
            out._has_sorted_indices = bool(sorted_indices)
        return out

    # ---- conversions ------------------------------------------------------------------

    def _to_host(self, host_sparse):
        cls = getattr(host_sparse, "%s_%s" % (self.format, "array" if self._is_array else "matrix"))
        return cls((self.data.get(), self.indices.get(), self.indptr.get()), shape=self.shape)

    def tocoo(self, copy=True):
        major = _kernels.expand_indptr(self.indptr)
        minor = self.indices.copy() if copy else self.indices
        row, col = self._swap((major, minor))
        data = self.data.copy() if copy else self.data
        return self._coo_container._new(data, row, col, self.shape, canonical=self.format == "csr"
                                        and getattr(self, "_has_canonical_format", False))

    def toarray(self, order=None, out=None):
        if out is not None:
            if order is not None:
                raise ValueError("order cannot be specified if out is not None")
            if tuple(out.shape) != self.shape or out.dtype != self.dtype:
                raise ValueError("out array must be same dtype and shape as sparse array")
            out[...] = 0
            target = out if self.format == "csr" else out.T
            _kernels.csr_todense(*self._swap(self.shape), self.indptr, self.indices, self.data, out=target)
            return out
        dense = _kernels.csr_todense(*self._swap(self.shape), self.indptr, self.indices, self.data)
        if self.format == "csc":
            dense = dense.T
        if order == "C" or (order is None and self.format == "csr"):
            return _cunp.ascontiguousarray(dense)
        return _cunp.asfortranarray(dense) if order == "F" else dense

    def transpose(self, axes=None, copy=False):
        if axes is not None and axes != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping dimensions "
                             "is the only logical permutation.")
        other = "csc" if self.format == "csr" else "csr"
        arrays = (self.data, self.indices, self.indptr)
        if copy:
            arrays = tuple(a.copy() for a in arrays)
        out = self._container_of(other)._new(*arrays, self.shape[::-1])
        for name in ("_has_sorted_indices", "_has_canonical_format"):
            if hasattr(self, name):
                setattr(out, name, getattr(self, name))
        return out

    def _convert_compressed(self, fmt, copy):
        if fmt == self.format:
            return self.copy() if copy else self
        M, N = self._swap(self.shape)
        indptr, indices, data = _kernels.csr_to_csc(M, N, self.indptr, self.indices, self.data,
                                                    self.indices.dtype)
        return self._container_of(fmt)._new(data, indices, indptr, self.shape, sorted_indices=True)

    def tocsr(self, copy=False):
        return self._convert_compressed("csr", copy)

    def tocsc(self, copy=False):
        return self._convert_compressed("csc", copy)

    # ---- arithmetic -------------------------------------------------------------------

    def _compressed_like(self, other):
        """other (any sparse format) as this format's canonical arrays."""
        other = other if other.format == self.format else other.asformat(self.format)
        return other._canonical_arrays()

    def _binopt(self, other, op):
        """op(self, other) elementwise for a ufunc (or ufunc name) with op(0, 0) == 0
        (add, subtract, multiply, maximum, minimum, comparisons): this format,
        canonical, zeros dropped."""
        self._check_device(other)
        name = op if isinstance(op, str) else op.__name__
        if name == "subtract" and self.dtype == _numpy.bool_ and other.dtype == _numpy.bool_:
            # SciPy subtracts bool matrices in C++ bool arithmetic: true where exactly one holds.
            name = "logical_xor"
        probe = getattr(_numpy, name)(_numpy.zeros(1, self.dtype), _numpy.zeros(1, other.dtype))
        out_dtype = probe.dtype if probe.dtype == _numpy.bool_ else _sputils.upcast(self.dtype, other.dtype)
        M, N = self._swap(self.shape)
        idx = _sputils.get_index_dtype(maxval=max(M, N, self.nnz + other.nnz))
        indptr, indices, data = _kernels.csr_binop(M, N, self._canonical_arrays(), self._compressed_like(other),
                                                   name, _numpy.dtype(out_dtype), idx)
        return self._new(data, indices, indptr, self.shape, canonical=True)

    def _add_sparse(self, other):
        return self._binopt(other, _cunp.add)

    def _sub_sparse(self, other):
        return self._binopt(other, "subtract")

    def _scalar_binopt(self, other, op):
        """op(self, scalar) on the stored values for op(0, scalar) == 0, zeros dropped."""
        self.sum_duplicates()
        res = self._with_data(op(self.data, other), copy=True)
        res.eliminate_zeros()
        return res

    def _add_dense(self, other):
        if tuple(other.shape) != self.shape:
            raise ValueError("Incompatible shapes (%s and %s)" % (self.shape, tuple(other.shape)))
        dtype = _sputils.upcast(self.dtype, other.dtype)
        result = other.astype(dtype, copy=True) if self.format == "csr" else other.T.astype(dtype, copy=True)
        _kernels.csr_todense(*self._swap(self.shape), self.indptr, self.indices, self.data.astype(dtype),
                             out=result)
        return result if self.format == "csr" else result.T

    def _multiply_sparse(self, other):
        if other.shape == self.shape:
            return self._binopt(other, _cunp.multiply)
        if other.shape == (1, 1):
            return self._mul_scalar(other.toarray()[0, 0])
        if self.shape == (1, 1):
            return other._mul_scalar(self.data.sum())
        sM, sN = self.shape
        oM, oN = other.shape
        from cunpx.scipy.sparse._construct import _diag_csr
        is_array = self._is_array
        if sM == 1 and oN == 1:
            return other._matmul_sparse(self.tocsc())
        if sN == 1 and oM == 1:
            return self._matmul_sparse(other.tocsc())
        if oM == 1 and sN == oN:
            return self._matmul_sparse(_diag_csr(other.toarray().ravel(), is_array))
        if sM == 1 and sN == oN:
            return other.tocsr()._matmul_sparse(_diag_csr(self.toarray().ravel(), is_array))
        if oN == 1 and sM == oM:
            return _diag_csr(other.toarray().ravel(), is_array)._matmul_sparse(self)
        if sN == 1 and sM == oM:
            return _diag_csr(self.toarray().ravel(), is_array)._matmul_sparse(other)
        raise ValueError("inconsistent shapes %s and %s" % (self.shape, other.shape))

    def _multiply_dense(self, other):
        """self * dense (broadcast): a COO matrix of the stored entries' products (SciPy
        ≥ 1.11), or dense where the dense operand has more than 2 dimensions."""
        if other.ndim > 2:
            return _cunp.multiply(self.toarray(), other)
        if other.size == 1:
            bshape = _numpy.broadcast_shapes(self.shape, tuple(other.shape))
            return self._mul_scalar(other.reshape(())).reshape(bshape)
        if self.shape == (1, 1):
            bshape = _numpy.broadcast_shapes(self.shape, tuple(other.shape))
            return _cunp.multiply(self.data.sum(), other).reshape(bshape)
        try:
            bshape = _numpy.broadcast_shapes(self.shape, tuple(other.shape))
        except ValueError:
            raise ValueError("inconsistent shapes %s and %s" % (self.shape, tuple(other.shape))) from None
        coo = self.tocoo()
        row, col, data = coo.row, coo.col, coo.data
        M, N = self.shape
        bM, bN = bshape
        idx = _sputils.get_index_dtype(maxval=max(bM, bN, coo.nnz * max(bM // max(M, 1), bN // max(N, 1))))
        if M == 1 and bM != 1:
            nnz = data.shape[0]
            row = _cunp.repeat(_cunp.arange(bM, dtype=idx, device=self.device), nnz)
            col, data = _cunp.tile(col, bM), _cunp.tile(data, bM)
        if N == 1 and bN != 1:
            nnz = data.shape[0]
            col = _cunp.tile(_cunp.arange(bN, dtype=idx, device=self.device), nnz)
            row, data = _cunp.repeat(row, bN), _cunp.repeat(data, bN)
        full = _cunp.broadcast_to(other, bshape)
        values = _cunp.multiply(data, full[row, col])
        return self._coo_container._new(values, row.astype(idx), col.astype(idx), bshape)

    def _matmul_vector(self, other):
        dtype = _sputils.upcast(self.dtype, other.dtype)
        M, N = self._swap(self.shape)
        if self.format == "csr":
            return _kernels.csr_matvec(M, self.indptr, self.indices, self.data, other, dtype)
        return _kernels.csr_matvec_transposed(N, self.indptr, self.indices, self.data, other, dtype)

    def _matmul_multivector(self, other):
        dtype = _sputils.upcast(self.dtype, other.dtype)
        M, N = self._swap(self.shape)
        if self.format == "csr":
            return _kernels.csr_matmat(M, self.indptr, self.indices, self.data, other, dtype)
        return _kernels.csr_matmat_transposed(N, self.indptr, self.indices, self.data, other, dtype)

    def _matmul_sparse(self, other):
        dtype = _sputils.upcast(self.dtype, other.dtype)
        M, K = self.shape
        P = other.shape[1]
        idx = _sputils.get_index_dtype(maxval=max(M, K, P, self.nnz, other.nnz))
        if self.format == "csr":
            b = other.tocsr()
            indptr, indices, data = _kernels.csr_spgemm(M, P, (self.indptr, self.indices, self.data),
                                                        (b.indptr, b.indices, b.data), dtype, idx)
        else:
            # C^T = B^T A^T: a CSC matrix is the CSR matrix of its transpose.
            b = other.tocsc()
            indptr, indices, data = _kernels.csr_spgemm(P, M, (b.indptr, b.indices, b.data),
                                                        (self.indptr, self.indices, self.data), dtype, idx)
        return self._new(data, indices, indptr, (M, P), canonical=True)

    # ---- reductions and diagonals -----------------------------------------------------

    def _sum_axis(self, axis, dtype):
        M, N = self._swap(self.shape)
        major_axis = 0 if self.format == "csr" else 1
        data = self.data.astype(dtype)
        if axis == major_axis:
            out = _cunp.zeros(N, dtype=dtype, device=self.device)
            if self.nnz:
                _cunp.add.at(out, self.indices, data)
        else:
            out = _cunp.zeros(M, dtype=dtype, device=self.device)
            if self.nnz:
                _cunp.add.at(out, _kernels.expand_indptr(self.indptr), data)
        return out

    def diagonal(self, k=0):
        M, N = self.shape
        k = int(k)
        length = max(0, min(M + min(k, 0), N - max(k, 0)))
        out = _cunp.zeros(length, dtype=self.dtype, device=self.device)
        if length == 0 or self.nnz == 0:
            return out
        major = _kernels.expand_indptr(self.indptr).astype(_INT64)
        minor = self.indices.astype(_INT64)
        row, col = self._swap((major, minor))
        on = (col - row) == k
        pos = row[on] if k >= 0 else col[on]
        _cunp.add.at(out, pos, self.data[on])
        return out

    def _setdiag(self, values, k):
        if 0 in self.shape:
            return
        rows, cols, vals = self._diag_positions(values, k)
        if rows.shape[0] == 0:
            return
        self._set_many(rows, cols, vals, warn=False)

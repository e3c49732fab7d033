"""Indexing of CSR and CSC matrices (scipy.sparse._index): ``A[i, j]``, rows, columns,
slices with any step, integer and boolean arrays, boolean masks, and assignment
(SparseEfficiencyWarning where new entries enter the structure).

Keys are first reduced to one form per axis (an int, a slice or an int64 device array
already wrapped and bounds-checked, IndexMixin), then served by the compressed formats'
routines (CompressedIndexMixin): ``_submatrix`` (outer selection along both axes),
``_sample`` (the values at broadcast (row, col) pairs), ``_set_many`` and ``_zero_many``.
"""
import warnings

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse import _kernels, _sputils
from cunpx.scipy.sparse._operators import SparseEfficiencyWarning, issparse

ndarray = _cunp.ndarray
_INT_TYPES = (int, _numpy.integer)
_INT64 = _numpy.dtype(_numpy.int64)


def _is_bool_array(x):
    return isinstance(x, (ndarray, _numpy.ndarray)) and x.dtype == _numpy.bool_


def _as_index_array(idx, device):
    if isinstance(idx, ndarray):
        return _sputils.to_device(idx, device)
    host = _numpy.asarray(idx)
    if host.size == 0 and host.dtype.kind == "f":
        host = host.astype(_numpy.int64)
    return _cunp.asarray(host, device=device)


def _check_bounds(arr, n):
    """arr (an integer cunp array) with negative entries wrapped, or IndexError."""
    arr = arr.astype(_numpy.int64)
    if arr.size == 0:
        return arr
    lo_hi = _cunp.stack([arr.min(), arr.max()]).get()
    lo, hi = int(lo_hi[0]), int(lo_hi[1])
    if hi >= n:
        raise IndexError("index (%d) out of range" % hi)
    if lo < -n:
        raise IndexError("index (%d) out of range" % lo)
    if lo < 0:
        arr = _cunp.where(arr < 0, arr + n, arr)
    return arr


def _normalize_axis_index(idx, n, axis, device, fmt):
    """One axis of a key: an int, a slice or an int64 array (any ndim ≤ 2)."""
    if isinstance(idx, slice):
        return idx
    if isinstance(idx, (bool, _numpy.bool_)):
        raise IndexError("boolean scalar indices are not supported")
    if isinstance(idx, _INT_TYPES) or (isinstance(idx, (ndarray, _numpy.ndarray)) and idx.ndim == 0
                                        and idx.dtype.kind in "iu"):
        i = int(idx)
        if i < -n or i >= n:
            raise IndexError("index (%d) out of range" % i)
        return i + n if i < 0 else i
    if idx is None:
        raise IndexError("Indexing that leads to >2D is not supported by %s format. Try converting to COO format"
                         % fmt)
    if issparse(idx):
        raise IndexError("a sparse index is only accepted as a full boolean mask")
    if isinstance(idx, (float, complex, _numpy.floating)):
        raise IndexError("Index dimension must be 1 or 2. Got 0")
    arr = _as_index_array(idx, device)
    if arr.dtype == _numpy.bool_:
        if arr.ndim != 1 or arr.shape[0] != n:
            raise IndexError("bool index %d has shape %s instead of (%d,)" % (axis, arr.shape, n))
        return _cunp.flatnonzero(arr).astype(_numpy.int64)
    if arr.dtype.kind not in "iu":
        raise IndexError("only integers, slices (`:`), ellipsis (`...`), and integer or boolean arrays are "
                         "valid indices")
    if arr.ndim > 2:
        raise IndexError("Index dimension must be 1 or 2")
    return _check_bounds(arr, n)


def _unpack_key(key, shape, device, fmt):
    """(row, col) of a key, or ('mask', rows, cols) for a full 2-D boolean mask."""
    M, N = shape
    if issparse(key) or (_is_bool_array(key) and key.ndim == 2):
        if tuple(key.shape) != (M, N):
            raise IndexError("boolean index shape %s does not match the array shape %s" % (tuple(key.shape), shape))
        if issparse(key):
            rows, cols = key.nonzero()
            rows, cols = rows.astype(_numpy.int64), cols.astype(_numpy.int64)
        else:
            rows, cols = _cunp.nonzero(_as_index_array(key, device))
        return "mask", rows, cols
    if not isinstance(key, tuple):
        key = (key,)
    if any(k is Ellipsis for k in key):
        pos = [i for i, k in enumerate(key) if k is Ellipsis]
        if len(pos) > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        fill = 2 - (len(key) - 1)
        key = key[:pos[0]] + (slice(None),) * max(fill, 0) + key[pos[0] + 1:]
    if len(key) > 2:
        raise IndexError("Too many indices for array or tuple index out of range. Key %s needs %dD. Array is 2D"
                         % (key, len(key)))
    if len(key) == 1:
        key = key + (slice(None),)
    row, col = key
    for k in (row, col):
        if k is None:
            raise IndexError("Indexing that leads to >2D is not supported by %s format. Try converting to COO "
                             "format" % fmt)
    row = _normalize_axis_index(row, M, 0, device, fmt)
    col = _normalize_axis_index(col, N, 1, device, fmt)
    return row, col


def _slice_range(s, n, device):
    return _cunp.arange(*s.indices(n), dtype=_numpy.int64, device=device)


class IndexMixin:
    """__getitem__ and __setitem__ for the compressed formats."""

    def __getitem__(self, key):
        parts = _unpack_key(key, self.shape, self.device, self.format)
        if parts[0] == "mask":
            _, rows, cols = parts
            return self._reduced(self._sample(rows, cols), 0)
        row, col = parts
        if isinstance(row, int) and isinstance(col, int):
            return self._sample_one(row, col)
        row_arr, col_arr = isinstance(row, ndarray), isinstance(col, ndarray)
        if row_arr and col_arr:
            return self._get_inner(row, col)
        if (row_arr and row.ndim > 1) or (col_arr and col.ndim > 1):
            raise IndexError("Indexing that leads to >2D is not supported by %s format. Try converting to COO format"
                             % self.format)
        row = slice(row, row + 1) if isinstance(row, int) else row
        col = slice(col, col + 1) if isinstance(col, int) else col
        return self._submatrix(row, col)

    def _get_inner(self, row, col):
        try:
            shape = _numpy.broadcast_shapes(row.shape, col.shape)
        except ValueError:
            raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes %s %s"
                             % (_shape_str(row.shape), _shape_str(col.shape))) from None
        r = _cunp.broadcast_to(row, shape).ravel()
        c = _cunp.broadcast_to(col, shape).ravel()
        values = self._sample(r, c)
        if len(shape) == 1:
            return self._reduced(values, 0)
        return self.__class__(values.reshape(shape))

    def _index_pairs(self, key):
        """Broadcast (rows, cols) arrays of an assignment key, and the shape of the target."""
        parts = _unpack_key(key, self.shape, self.device, self.format)
        if parts[0] == "mask":
            _, rows, cols = parts
            return rows, cols, (rows.shape[0],), True
        row, col = parts
        if isinstance(row, int) and isinstance(col, int):
            return None, None, (row, col), False
        dev = self.device
        # SciPy's forms: a slice is a column (rows) or a row (columns) of indices; an int
        # is a 1-element array; the two then broadcast.
        if isinstance(row, slice):
            row_a = _slice_range(row, self.shape[0], dev).reshape(-1, 1)
        elif isinstance(row, int):
            row_a = _cunp.asarray(_numpy.array([row], dtype=_numpy.int64), device=dev)
        else:
            row_a = row
        if isinstance(col, slice):
            col_a = _slice_range(col, self.shape[1], dev).reshape(1, -1)
            if row_a.ndim == 1:
                row_a = row_a.reshape(-1, 1)
        elif isinstance(col, int):
            col_a = _cunp.asarray(_numpy.array([col], dtype=_numpy.int64), device=dev)
        else:
            col_a = col
        try:
            shape = _numpy.broadcast_shapes(row_a.shape, col_a.shape)
        except ValueError:
            raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes %s %s"
                             % (_shape_str(row_a.shape), _shape_str(col_a.shape))) from None
        return _cunp.broadcast_to(row_a, shape), _cunp.broadcast_to(col_a, shape), shape, False

    def __setitem__(self, key, x):
        rows, cols, shape, is_mask = self._index_pairs(key)
        if rows is None:
            if issparse(x):
                x = x.toarray()
            value = _sputils.to_device(x, self.device, dtype=None) if isinstance(x, ndarray) else \
                _cunp.asarray(_numpy.asarray(x, dtype=self.dtype), device=self.device)
            if value.size != 1:
                raise ValueError("Trying to assign a sequence to an item")
            r, c = shape
            dev = self.device
            self._set_many(_cunp.asarray(_numpy.array([r], dtype=_numpy.int64), device=dev),
                           _cunp.asarray(_numpy.array([c], dtype=_numpy.int64), device=dev),
                           value.reshape(1).astype(self.dtype))
            return
        if issparse(x):
            if len(shape) == 1:
                x = x.toarray()
            else:
                self._set_sparse(rows, cols, shape, x)
                return
        if isinstance(x, ndarray):
            value = _sputils.to_device(x, self.device).astype(self.dtype)
        else:
            value = _cunp.asarray(_numpy.asarray(x, dtype=self.dtype), device=self.device)
        value = _broadcast_value(value, shape)
        if value.size == 0:
            return
        self._set_many(rows.ravel(), cols.ravel(), value.ravel())

    def _set_sparse(self, rows, cols, shape, x):
        """A[rows, cols] = sparse x: the covered stored entries become zeros, then x's
        stored entries (duplicates summed) are written, a 1-row / 1-column x repeated
        along the target (SciPy's order)."""
        x = x.tocoo(copy=True)
        x.sum_duplicates()
        if rows.ndim != 2:
            rows, cols = rows.reshape(1, -1), cols.reshape(1, -1)
        M, N = rows.shape
        broadcast_row = M != 1 and x.shape[0] == 1
        broadcast_col = N != 1 and x.shape[1] == 1
        if (x.shape[0] != M and not broadcast_row) or (x.shape[1] != N and not broadcast_col):
            raise ValueError("shape mismatch in assignment")
        self._zero_many(rows.ravel(), cols.ravel())
        if x.nnz == 0:
            return
        r, c, v = x.row.astype(_numpy.int64), x.col.astype(_numpy.int64), x.data.astype(self.dtype)
        dev = self.device
        if broadcast_row:
            r = _cunp.repeat(_cunp.arange(M, dtype=_numpy.int64, device=dev), r.shape[0])
            c, v = _cunp.tile(c, M), _cunp.tile(v, M)
        if broadcast_col:
            r = _cunp.repeat(r, N)
            c = _cunp.tile(_cunp.arange(N, dtype=_numpy.int64, device=dev), c.shape[0])
            v = _cunp.repeat(v, N)
        self._set_many(rows[r, c], cols[r, c], v)


class CompressedIndexMixin(IndexMixin):
    """The routines behind indexing a CSR/CSC matrix, read along its major axis."""

    def _sample(self, rows, cols):
        """The dense values at the (row, col) pairs (1-D arrays)."""
        major, minor = self._swap((rows, cols))
        indptr, indices, data = self._canonical_arrays()
        out = _cunp.zeros(major.shape[0], dtype=self.dtype, device=self.device)
        if indices.shape[0] == 0 or major.shape[0] == 0:
            return out
        pos, found = self._find(indptr, indices, major, minor)
        out[found] = data[pos[found]]
        return out

    def _find(self, indptr, indices, major, minor):
        """Positions of (major, minor) in canonical arrays, and whether each is stored."""
        n_minor = self._swap(self.shape)[1]
        keys = _kernels.expand_indptr(indptr, _INT64) * n_minor + indices.astype(_INT64)
        query = major.astype(_INT64) * n_minor + minor.astype(_INT64)
        pos = _cunp.searchsorted(keys, query)
        clipped = _cunp.minimum(pos, keys.shape[0] - 1)
        found = (pos < keys.shape[0]) & (keys[clipped] == query)
        return clipped, found

    def _offsets(self, major, minor):
        """Positions of (major, minor) among the stored entries and whether each is
        stored, leaving the structure as it is unless a sought position is stored more
        than once (then duplicates are summed first, as SciPy's csr_sample_offsets)."""
        if self.has_canonical_format:
            return self._find(self.indptr, self.indices, major, minor)
        n_minor = self._swap(self.shape)[1]
        keys = _kernels.expand_indptr(self.indptr, _INT64) * n_minor + self.indices.astype(_INT64)
        order = _cunp.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        query = major.astype(_INT64) * n_minor + minor.astype(_INT64)
        lo = _cunp.searchsorted(sorted_keys, query, side="left")
        hi = _cunp.searchsorted(sorted_keys, query, side="right")
        if bool((hi - lo > 1).any()):
            self.sum_duplicates()
            return self._find(self.indptr, self.indices, major, minor)
        found = hi > lo
        return order[_cunp.minimum(lo, keys.shape[0] - 1)], found

    def _sample_one(self, row, col):
        major, minor = self._swap((row, col))
        start_stop = self.indptr[major:major + 2].get()
        lo, hi = int(start_stop[0]), int(start_stop[1])
        hit = self.indices[lo:hi] == minor
        return _cunp.sum(self.data[lo:hi] * hit, dtype=self.dtype) if self.dtype != _numpy.bool_ else \
            _cunp.any(self.data[lo:hi] & hit)

    def _submatrix(self, row, col):
        """self[row, col] for slices and 1-D int64 arrays (outer selection)."""
        major, minor = self._swap((row, col))
        M, N = self._swap(self.shape)
        indptr, indices, data = self.indptr, self.indices, self.data
        idx = indices.dtype
        dev = self.device
        sorted_out = getattr(self, "_has_sorted_indices", None)
        # Major axis: a contiguous slice is a view of the arrays; anything else gathers lines.
        if isinstance(major, slice) and major.indices(M)[2] == 1:
            start, stop, _ = major.indices(M)
            stop = max(stop, start)
            ends = _cunp.stack([indptr[start], indptr[stop]]).get()
            lo, hi = int(ends[0]), int(ends[1])
            indptr = indptr[start:stop + 1] - indptr[start]
            indices, data = indices[lo:hi], data[lo:hi]
            n_major = stop - start
        else:
            sel = _slice_range(major, M, dev) if isinstance(major, slice) else major
            n_major = sel.shape[0]
            starts = indptr[sel].astype(_INT64) if n_major else _cunp.zeros(0, dtype=_INT64, device=dev)
            counts = (indptr[sel + 1].astype(_INT64) - starts) if n_major else starts
            total = int(counts.sum()) if n_major else 0
            idx = _kernels.fit_index_dtype(idx, total)
            new_indptr = _kernels.counts_to_indptr(counts, idx)
            if total:
                owner = _cunp.repeat(_cunp.arange(n_major, dtype=_INT64, device=dev), counts)
                first = _cunp.cumsum(counts) - counts
                pos = starts[owner] + (_cunp.arange(total, dtype=_INT64, device=dev) - first[owner])
                indices, data = indices[pos].astype(idx), data[pos]
            else:
                indices, data = indices[:0], data[:0]
            indptr = new_indptr
        # Minor axis.
        if isinstance(minor, slice):
            start, stop, step = minor.indices(N)
            n_minor = len(range(start, stop, step))
            if not (start == 0 and step == 1 and n_minor == N):
                j = indices.astype(_INT64)
                if step > 0:
                    keep = (j >= start) & (j < stop) & ((j - start) % step == 0)
                    new = (j - start) // step
                else:
                    keep = (j <= start) & (j > stop) & ((start - j) % (-step) == 0)
                    new = (start - j) // (-step)
                    sorted_out = None  # reversed lines: checked when asked
                indptr, indices, data = _kernels.csr_eliminate(indptr, new.astype(idx), data, keep, idx)
        else:
            n_minor = minor.shape[0]
            order = _cunp.argsort(minor, kind="stable")
            sorted_minor = minor[order]
            j = indices.astype(_INT64)
            lo = _cunp.searchsorted(sorted_minor, j, side="left")
            hi = _cunp.searchsorted(sorted_minor, j, side="right")
            counts = hi - lo
            total = int(counts.sum()) if j.shape[0] else 0
            idx = _kernels.fit_index_dtype(idx, total)
            line = _kernels.expand_indptr(indptr, _INT64)
            if total:
                owner = _cunp.repeat(_cunp.arange(j.shape[0], dtype=_INT64, device=dev), counts)
                first = _cunp.cumsum(counts) - counts
                k = lo[owner] + (_cunp.arange(total, dtype=_INT64, device=dev) - first[owner])
                indices, data, line = order[k].astype(idx), data[owner], line[owner]
            else:
                indices, data, line = indices[:0], data[:0], line[:0]
            indptr = _kernels.major_to_indptr(line, n_major, idx)
            sorted_out = None
        shape = self._swap((n_major, n_minor))
        out = self._new(data, indices, indptr, shape, sorted_indices=sorted_out)
        return out

    def _zero_many(self, rows, cols):
        """Stored entries at (rows, cols) become explicit zeros (no structure change)."""
        if self.nnz == 0 or rows.shape[0] == 0:
            return
        major, minor = self._swap((rows, cols))
        pos, found = self._offsets(major, minor)
        self.data[pos[found]] = 0

    def _set_many(self, rows, cols, x, warn=True):
        """self[rows[k], cols[k]] = x[k]; the last of repeated positions wins; missing
        positions are inserted (with a SparseEfficiencyWarning when `warn`)."""
        major, minor = self._swap((rows.astype(_INT64), cols.astype(_INT64)))
        n_minor = self._swap(self.shape)[1]
        x = x.astype(self.dtype)
        # The last assignment to each position wins.
        query = major * n_minor + minor
        order = _cunp.argsort(query, kind="stable")
        q_sorted = query[order]
        last = _cunp.ones(q_sorted.shape[0], dtype=bool, device=self.device)
        if q_sorted.shape[0] > 1:
            last[:-1] = q_sorted[1:] != q_sorted[:-1]
        pick = order[last]
        major, minor, x = major[pick], minor[pick], x[pick]
        if self.nnz:
            pos, found = self._offsets(major, minor)
            self.data[pos[found]] = x[found]
            missing = ~found
            if not bool(missing.any()):
                return
            major, minor, x = major[missing], minor[missing], x[missing]
        if warn:
            warnings.warn("Changing the sparsity structure of a %s is expensive. lil and dok are more efficient."
                          % type(self).__name__, SparseEfficiencyWarning, stacklevel=3)
        M, N = self._swap(self.shape)
        idx = _sputils.get_index_dtype((self.indices, self.indptr), maxval=max(M, N, self.nnz + x.shape[0]))
        # New entries go after the old ones of their line (SciPy's _insert_many), the
        # line sorted when it was; duplicates already stored stay.
        was_sorted = self.has_sorted_indices
        was_canonical = self.has_canonical_format
        all_major = _cunp.concatenate([_kernels.expand_indptr(self.indptr, _INT64), major])
        all_minor = _cunp.concatenate([self.indices.astype(_INT64), minor])
        all_data = _cunp.concatenate([self.data, x])
        self.indptr, self.indices, self.data = _kernels.coo_to_csr(M, N, all_major, all_minor, all_data, idx,
                                                                   sum_duplicates=False)
        self._reset_flags()
        if was_sorted:
            self.indices, self.data = _kernels.csr_sort_indices(self.indptr, self.indices, self.data)
            self._has_sorted_indices = True
            if was_canonical:
                self._has_canonical_format = True


def _broadcast_value(value, shape):
    """value broadcast against the target (SciPy: both broadcast, then the shapes must
    agree)."""
    try:
        full = _numpy.broadcast_shapes(tuple(value.shape), tuple(shape))
    except ValueError:
        full = None
    if full != tuple(shape):
        raise ValueError("shape mismatch in assignment")
    return _cunp.broadcast_to(value, shape)


def _shape_str(shape):
    return "(" + ",".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"

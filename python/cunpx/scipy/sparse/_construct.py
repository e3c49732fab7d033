"""Building sparse matrices (scipy.sparse._construct): eye, identity, diags, spdiags,
random, kron, kronsum, hstack/vstack/bmat/block_array, block_diag.

Functions named as SciPy's matrix builders (eye, identity, diags, spdiags, random, rand)
return sparse matrices; the ``*_array`` ones return sparse arrays; the combining ones
(kron, hstack, ...) return arrays when any input is an array. ``device=`` (keyword,
cunp's addition) places what is built from scratch; by default the current device.
"""
import math
import numbers
import warnings

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse import _sputils
from cunpx.scipy.sparse._base import _CONTAINERS, issparse, sparray

__all__ = ["eye", "eye_array", "identity", "diags", "diags_array", "spdiags", "random", "rand", "random_array",
           "kron", "kronsum", "hstack", "vstack", "bmat", "block_array", "block_diag"]

ndarray = _cunp.ndarray
_NoValue = object()


def _cls(fmt, is_array):
    return _CONTAINERS[(fmt, is_array)]


def _device(device):
    """None (the current device) or the device named."""
    return None if device is None else (device if isinstance(device, _cunp.Device) else _cunp.Device(device))


def _diag_csr(values, is_array):
    """The diagonal matrix of a dense 1-D array, as CSR."""
    n = values.shape[0]
    idx = _sputils.get_index_dtype(maxval=n)
    ar = _cunp.arange(n + 1, dtype=idx, device=values.device)
    return _cls("csr", is_array)._new(values.copy(), ar[:n].copy(), ar, (n, n), canonical=True)


def _eye(m, n, k, dtype, format, is_array, device):
    n = m if n is None else n
    m, n, k = int(m), int(n), int(k)
    dtype = _sputils.getdtype(dtype)
    dev = _device(device)
    if m == n and k == 0 and format in ("csr", "csc", "coo"):
        idx = _sputils.get_index_dtype(maxval=n)
        ar = _cunp.arange(n + 1, dtype=idx, device=dev)
        data = _cunp.ones(n, dtype=dtype, device=dev)
        if format == "coo":
            return _cls("coo", is_array)._new(data, ar[:n].copy(), ar[:n].copy(), (n, n), canonical=True)
        return _cls(format, is_array)._new(data, ar[:n].copy(), ar, (n, n), canonical=True)
    data = _cunp.ones((1, max(0, min(m + k, n))), dtype=dtype, device=dev)
    return _diags(data, [k], (m, n), None, dtype, is_array, dev).asformat(format)


def eye(m, n=None, k=0, dtype=float, format=None, *, device=None):
    """An m×n sparse matrix with ones on diagonal k (DIA unless `format` says)."""
    return _eye(m, n, k, dtype, format, False, device)


def eye_array(m, n=None, *, k=0, dtype=float, format=None, device=None):
    """As eye, a sparse array."""
    return _eye(m, n, k, dtype, format, True, device)


def identity(n, dtype="d", format=None, *, device=None):
    """The n×n identity as a sparse matrix."""
    return _eye(n, n, 0, dtype, format, False, device)


def _diags(diagonals, offsets, shape, format, dtype, is_array, device):
    """diags_array's body: `diagonals` a list of 1-D arrays (host or device)."""
    dev = device
    if isinstance(offsets, (numbers.Integral, _numpy.integer)) or (isinstance(offsets, _numpy.ndarray)
                                                                    and offsets.ndim == 0):
        if len(diagonals) == 0 or _sputils.isscalarlike(diagonals[0]):
            diagonals = [diagonals]
        else:
            raise ValueError("Different number of diagonals and offsets.")
    diagonals = [_atleast_1d(d, dev) for d in diagonals]
    offsets = [int(o) for o in _numpy.atleast_1d(offsets.get() if isinstance(offsets, ndarray) else offsets)]
    if len(diagonals) != len(offsets):
        raise ValueError("Different number of diagonals and offsets.")
    if shape is None:
        m = diagonals[0].shape[0] + abs(int(offsets[0]))
        shape = (m, m)
    dtypes = [d.dtype for d in diagonals]
    if dtype is None:
        dtype = _numpy.result_type(*dtypes)
    elif dtype is _NoValue:
        dtype = _numpy.dtype(_numpy.common_type(*[_numpy.empty(0, dtype=d) for d in dtypes]))
        future = _numpy.result_type(*dtypes)
        if dtype != future:
            warnings.warn("Input has data type %s, but the output has been cast to %s.  In the future, the output "
                          "data type will match the input. To avoid this warning, set the `dtype` parameter to "
                          "`None` to have the output dtype match the input, or set it to the desired output data "
                          "type." % (future, dtype), FutureWarning, stacklevel=3)
    dtype = _sputils.check_dtype(dtype)
    m, n = _sputils.check_shape(shape)
    width = max(0, max(min(m + off, n - off) + max(0, off) for off in offsets))
    data = _cunp.zeros((len(offsets), width), dtype=dtype, device=dev)
    K = min(m, n)
    for j, (diagonal, off) in enumerate(zip(diagonals, offsets)):
        k = max(0, off)
        length = min(m + off, n - off, K)
        if length < 0:
            raise ValueError("Offset %d (index %d) out of bounds" % (off, j))
        if diagonal.shape[0] != length and diagonal.shape[0] != 1 and diagonal.shape[0] < length:
            raise ValueError("Diagonal length (index %d: %d at offset %d) does not agree with array size (%d, %d)."
                             % (j, diagonal.shape[0], off, m, n))
        if length:
            data[j, k:k + length] = diagonal[:length] if diagonal.shape[0] != 1 else diagonal
    idx = _sputils.get_index_dtype(maxval=max(m, n))
    off_arr = _cunp.asarray(_numpy.array(offsets, dtype=idx), device=dev)
    return _cls("dia", is_array)._new(data, off_arr, (m, n)).asformat(format)


def _atleast_1d(d, device):
    if isinstance(d, ndarray):
        d = _sputils.to_device(d, device)
        return d.reshape(1) if d.ndim == 0 else d
    return _cunp.asarray(_numpy.atleast_1d(_numpy.asarray(d)), device=device)


def _device_of_list(values, device):
    if device is not None:
        return _device(device)
    for v in values if isinstance(values, (list, tuple)) else [values]:
        if isinstance(v, ndarray):
            return v.device
    return None


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=_NoValue, device=None):
    """The sparse array with `diagonals` on the diagonals `offsets` (DIA unless
    `format` says); a length-1 diagonal is broadcast."""
    dev = _device_of_list(diagonals, device)
    return _diags(diagonals, offsets, shape, format, dtype, True, dev)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=_NoValue, *, device=None):
    """As diags_array, a sparse matrix."""
    dev = _device_of_list(diagonals, device)
    return _diags(diagonals, offsets, shape, format, dtype, False, dev)


def spdiags(data, diags, m=None, n=None, format=None, *, device=None):
    """The sparse matrix whose diagonal diags[i] holds data[i] (DIA's own layout:
    data[i, j] sits in column j)."""
    if m is None and n is None:
        m = n = len(data[0])
    elif n is None:
        m, n = m
    cls = _cls("dia", False)
    return cls((data, diags), shape=(m, n), device=device).asformat(format)


def _random(shape, density, format, dtype, rng, data_sampler, is_array, device):
    """SciPy's algorithm with a NumPy generator on the host (the same seed gives the
    same matrix as SciPy), moved to the device."""
    if density < 0 or density > 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    shape = _sputils.check_shape(shape)
    dtype = _sputils.getdtype(dtype, default=_numpy.float64)
    elements = math.prod(shape)
    size = int(round(density * elements))
    rng = _numpy.random.default_rng(rng) if not isinstance(rng, (_numpy.random.Generator,
                                                                _numpy.random.RandomState)) else rng
    if data_sampler is None:
        if dtype.kind in "iu":
            info = _numpy.iinfo(dtype)
            if isinstance(rng, _numpy.random.Generator):
                def data_sampler(size):
                    return rng.integers(info.min, info.max, size, dtype=dtype)
            else:
                def data_sampler(size):
                    return rng.randint(info.min, info.max, size, dtype=dtype)
        elif dtype.kind == "c":
            def data_sampler(size):
                return rng.uniform(size=size) + rng.uniform(size=size) * 1j
        else:
            data_sampler = rng.uniform
    if elements < _numpy.iinfo(_numpy.int32).max:
        raveled = rng.choice(elements, size=size, replace=False)
        ind = _numpy.unravel_index(raveled, shape=shape, order="F")
    else:
        seen = set()
        while len(seen) < size:
            seen.update(_numpy.asarray(rng.integers(0, elements, size=size - len(seen))).tolist())
        ind = _numpy.unravel_index(_numpy.array(sorted(seen), dtype=_numpy.int64), shape=shape, order="F")
    idx = _sputils.get_index_dtype(maxval=max(shape))
    vals = _numpy.asarray(data_sampler(size=size)).astype(dtype, copy=False)
    dev = _device(device)
    row = _cunp.asarray(ind[0].astype(idx), device=dev)
    col = _cunp.asarray(ind[1].astype(idx), device=dev)
    coo = _cls("coo", is_array)._new(_cunp.asarray(vals, device=dev), row, col, shape)
    return coo.asformat(format)


def random_array(shape, *, density=0.01, format="coo", dtype=None, rng=None, random_state=None,
                 data_sampler=None, device=None):
    """A sparse array with round(density · M · N) entries at distinct random
    positions, values from `data_sampler` (uniform on [0, 1) by default)."""
    return _random(shape, density, format, dtype, rng if rng is not None else random_state, data_sampler, True,
                   device)


def random(m, n, density=0.01, format="coo", dtype=None, rng=None, data_rvs=None, *, random_state=None,
           device=None):
    """As random_array, an m×n sparse matrix (`data_rvs` samples the values)."""
    return _random((m, n), density, format, dtype, rng if rng is not None else random_state, data_rvs, False,
                   device)


def rand(m, n, density=0.01, format="coo", dtype=None, rng=None, *, random_state=None, device=None):
    """A uniformly distributed random sparse matrix (as random)."""
    return random(m, n, density=density, format=format, dtype=dtype, rng=rng, random_state=random_state,
                  device=device)


def _any_array(*objs):
    return any(isinstance(o, sparray) for o in objs)


def _as_coo(x, is_array, device):
    cls = _cls("coo", is_array)
    if issparse(x):
        return x.tocoo() if x._is_array == is_array else cls(x.tocoo())
    if isinstance(x, ndarray):
        return cls(x)
    return cls(_cunp.asarray(_numpy.atleast_2d(_numpy.asarray(x)), device=device))


def kron(A, B, format=None):
    """The Kronecker product (COO unless `format` says; SciPy's default BSR is not in
    cunpx)."""
    is_array = _any_array(A, B)
    dev = _device_of_list([getattr(A, "data", A), getattr(B, "data", B)], None)
    A, B = _as_coo(A, is_array, dev), _as_coo(B, is_array, dev)
    shape = (A.shape[0] * B.shape[0], A.shape[1] * B.shape[1])
    cls = _cls("coo", is_array)
    if A.nnz == 0 or B.nnz == 0:
        return cls(shape, device=dev).asformat(format)  # float64, as SciPy's empty result
    idx = _sputils.get_index_dtype((A.row, A.col), maxval=max(shape))
    Bm, Bn = B.shape
    row = (A.row.astype(idx).reshape(-1, 1) * Bm + B.row.astype(idx).reshape(1, -1)).ravel()
    col = (A.col.astype(idx).reshape(-1, 1) * Bn + B.col.astype(idx).reshape(1, -1)).ravel()
    data = (A.data.reshape(-1, 1) * B.data.reshape(1, -1)).ravel()
    return cls._new(data, row, col, shape).asformat(format)


def kronsum(A, B, format=None):
    """kron(I_m, A) + kron(B, I_n) for square A (n×n) and B (m×m)."""
    is_array = _any_array(A, B)
    dev = _device_of_list([getattr(A, "data", A), getattr(B, "data", B)], None)
    A, B = _as_coo(A, is_array, dev), _as_coo(B, is_array, dev)
    if A.shape[0] != A.shape[1]:
        raise ValueError("A is not square")
    if B.shape[0] != B.shape[1]:
        raise ValueError("B is not square")
    dtype = _sputils.upcast(A.dtype, B.dtype)
    I_n = _eye(A.shape[0], None, 0, dtype, None, is_array, dev)
    I_m = _eye(B.shape[0], None, 0, dtype, None, is_array, dev)
    L = kron(I_m, A, format="coo")
    R = kron(B, I_n, format="coo")
    return (L + R).asformat(format)


def _block_grid(blocks):
    if isinstance(blocks, _numpy.ndarray):
        blocks = blocks.tolist()
    grid = [list(r.tolist() if isinstance(r, _numpy.ndarray) else r) if isinstance(r, (list, tuple, _numpy.ndarray))
            else None for r in blocks]
    if any(r is None for r in grid):
        raise ValueError("blocks must be 2-D")
    return grid


def _block(grid, format, dtype, is_array):
    M = len(grid)
    N = len(grid[0]) if M else 0
    if M == 0 or N == 0 or any(len(r) != N for r in grid):
        raise ValueError("blocks must be 2-D")
    flat = [b for r in grid for b in r if b is not None]
    dev = _device_of_list([getattr(b, "data", b) for b in flat], None)
    coo = [[None if b is None else _as_coo(b, is_array, dev) for b in r] for r in grid]
    brow = [0] * M
    bcol = [0] * N
    for i in range(M):
        for j in range(N):
            A = coo[i][j]
            if A is None:
                continue
            if brow[i] == 0:
                brow[i] = A.shape[0]
            elif brow[i] != A.shape[0]:
                raise ValueError("blocks[%d,:] has incompatible row dimensions. Got blocks[%d,%d].shape[0] == %d, "
                                 "expected %d." % (i, i, j, A.shape[0], brow[i]))
            if bcol[j] == 0:
                bcol[j] = A.shape[1]
            elif bcol[j] != A.shape[1]:
                raise ValueError("blocks[:,%d] has incompatible column dimensions. Got blocks[%d,%d].shape[1] == %d, "
                                 "expected %d." % (j, i, j, A.shape[1], bcol[j]))
    present = [A for r in coo for A in r if A is not None]
    if dtype is None:
        dtype = _sputils.upcast(*[A.dtype for A in present]) if present else _numpy.dtype(_numpy.float64)
    dtype = _sputils.getdtype(dtype)
    row_off = [0]
    for s in brow:
        row_off.append(row_off[-1] + s)
    col_off = [0]
    for s in bcol:
        col_off.append(col_off[-1] + s)
    shape = (row_off[-1], col_off[-1])
    idx = _sputils.get_index_dtype([A.row for A in present], maxval=max(shape + (sum(A.nnz for A in present),)))
    rows, cols, datas = [], [], []
    for i in range(M):
        for j in range(N):
            A = coo[i][j]
            if A is None:
                continue
            rows.append(A.row.astype(idx) + row_off[i])
            cols.append(A.col.astype(idx) + col_off[j])
            datas.append(A.data.astype(dtype))
    cls = _cls("coo", is_array)
    if rows:
        out = cls._new(_cunp.concatenate(datas), _cunp.concatenate(rows).astype(idx),
                       _cunp.concatenate(cols).astype(idx), shape)
    else:
        out = cls(shape, dtype=dtype, device=dev)
    if format is None:
        formats = {b.format for b in flat if issparse(b)}
        if len(formats) == 1 and len(flat) == sum(issparse(b) for b in flat) and formats <= {"csr", "csc"}:
            format = formats.pop()
    return out.asformat(format)


def hstack(blocks, format=None, dtype=None):
    """Blocks side by side (CSR for CSR blocks, CSC for CSC blocks, else COO)."""
    blocks = list(blocks)
    return _block([blocks], format, dtype, _any_array(*blocks))


def vstack(blocks, format=None, dtype=None):
    """Blocks one above another."""
    blocks = list(blocks)
    return _block([[b] for b in blocks], format, dtype, _any_array(*blocks))


def bmat(blocks, format=None, dtype=None):
    """A sparse matrix from a 2-D grid of blocks (None for an empty block)."""
    grid = _block_grid(blocks)
    return _block(grid, format, dtype, _any_array(*[b for r in grid for b in r]))


def block_array(blocks, *, format=None, dtype=None):
    """As bmat, a sparse array."""
    return _block(_block_grid(blocks), format, dtype, True)


def block_diag(mats, format=None, dtype=None):
    """The block-diagonal matrix of `mats` (sparse, dense or scalars)."""
    mats = list(mats)
    is_array = _any_array(*mats)
    dev = _device_of_list([getattr(a, "data", a) for a in mats], None)
    rows, cols, datas = [], [], []
    r_idx = c_idx = 0
    coos = [_as_coo(a, is_array, dev) for a in mats]
    for a in coos:
        rows.append(a.row.astype(_numpy.int64) + r_idx)
        cols.append(a.col.astype(_numpy.int64) + c_idx)
        datas.append(a.data)
        r_idx += a.shape[0]
        c_idx += a.shape[1]
    idx = _sputils.get_index_dtype(maxval=max(r_idx, c_idx))
    cls = _cls("coo", is_array)
    if not coos:
        raise ValueError("block_diag needs at least one matrix")
    out_dtype = _sputils.upcast(*[a.dtype for a in coos]) if dtype is None else _sputils.getdtype(dtype)
    out = cls._new(_cunp.concatenate([d.astype(out_dtype) for d in datas]), _cunp.concatenate(rows).astype(idx),
                   _cunp.concatenate(cols).astype(idx), (r_idx, c_idx))
    return out.asformat(format)

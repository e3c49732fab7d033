"""The base of every sparse container (scipy.sparse._base): attributes, conversions and
reductions written once over ``tocsr()`` (the operators are in _operators.py), and the
two flavours: ``sparray`` (``*`` is elementwise, reductions give 1-D arrays)
and ``spmatrix`` (``*`` and ``**`` are matrix products, reductions give 2-D arrays).

Dense results are cunp arrays on the matrix's device: where SciPy returns an
``np.matrix`` (a matrix's ``todense()``, ``sum(axis=0)``) cunp returns the 2-D cunp array
of the same shape, as cupyx does.
"""
import math
import operator

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse import _sputils
from cunpx.scipy.sparse._operators import SparseEfficiencyWarning, SparseWarning, _operators, issparse  # noqa: F401

ndarray = _cunp.ndarray

__all__ = ["SparseWarning", "SparseEfficiencyWarning", "SparseFormatError", "issparse", "isspmatrix",
           "sparray", "spmatrix"]


class SparseFormatError(ValueError):
    """scipy.sparse.SparseFormatError."""


# (format, is_array) -> class, filled by the format modules.
_CONTAINERS = {}
_FORMAT_NAMES = {"csr": "Compressed Sparse Row", "csc": "Compressed Sparse Column", "coo": "COOrdinate",
                 "dia": "DIAgonal"}


def register(cls):
    _CONTAINERS[(cls.format, issubclass(cls, sparray))] = cls
    return cls


def isspmatrix(x):
    """Whether `x` is a cunpx sparse matrix (not a sparse array, as SciPy ≥ 1.11)."""
    return isinstance(x, spmatrix)


class _spbase(_operators):
    """The methods every format shares; the formats provide ``tocsr``/``tocoo`` and the
    storage (``data`` and the index arrays)."""

    __array_priority__ = 10.1
    __array_ufunc__ = None  # NumPy operators defer to the reflected sparse method
    format = None
    _is_array = False

    # ---- containers -------------------------------------------------------------------

    @classmethod
    def _container_of(cls, fmt):
        return _CONTAINERS[(fmt, cls._is_array)]

    @property
    def _csr_container(self):
        return self._container_of("csr")

    @property
    def _csc_container(self):
        return self._container_of("csc")

    @property
    def _coo_container(self):
        return self._container_of("coo")

    @property
    def _dia_container(self):
        return self._container_of("dia")

    # ---- attributes -------------------------------------------------------------------

    @property
    def shape(self):
        return self._shape

    @property
    def ndim(self):
        return 2

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def device(self):
        """The device the arrays of this matrix live on (a cunp.Device)."""
        return self.data.device

    @property
    def nnz(self):
        """The number of stored values, explicit zeros included."""
        return self._getnnz()

    @property
    def size(self):
        return self._getnnz()

    @property
    def T(self):
        return self.transpose()

    @property
    def H(self):
        """The conjugate transpose (cupyx's ``H``; SciPy ≥ 1.14 has ``.conj().T``)."""
        return self.conjugate().transpose()

    def getH(self):
        return self.conjugate().transpose()

    @property
    def real(self):
        return self._real()

    @property
    def imag(self):
        return self._imag()

    def _zeros(self, shape, dtype):
        return _cunp.zeros(shape, dtype=dtype, device=self.device)

    # ---- Python protocols -------------------------------------------------------------

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        return "<%s sparse %s of dtype '%s'\n\twith %d stored elements and shape %s>" % (
            _FORMAT_NAMES[self.format], kind, self.dtype, self.nnz, self.shape)

    def __str__(self):
        return str(self.get())

    def __bool__(self):
        if self.shape == (1, 1):
            return self.nnz != 0 and bool(self.tocsr().sum() != 0)
        raise ValueError("The truth value of an array with more than one element is ambiguous. "
                         "Use a.any() or a.all().")

    __nonzero__ = __bool__

    def __len__(self):
        raise TypeError("sparse array length is ambiguous; use getnnz() or shape[0]")

    def __iter__(self):
        csr = self.tocsr()
        for r in range(self.shape[0]):
            yield csr[r, :]

    def __array__(self, dtype=None, copy=None):
        raise TypeError("Implicit conversion of a cunpx sparse matrix to a NumPy array is not allowed: "
                        "use .get() for a SciPy sparse matrix or .toarray().get() for a dense NumPy array")

    # ---- conversions --------------------------------------------------------------------

    def asformat(self, format, copy=False):
        """This matrix in `format` ('csr', 'csc', 'coo', 'dia'; None keeps the format)."""
        if format is None or format == self.format:
            return self.copy() if copy else self
        try:
            convert = getattr(self, "to" + format)
        except AttributeError:
            raise ValueError("Format %s is unknown." % format) from None
        return convert(copy=copy)

    def tocsr(self, copy=False):
        return self.tocoo(copy=copy).tocsr(copy=False)

    def tocsc(self, copy=False):
        return self.tocsr(copy=copy).tocsc(copy=False)

    def tocoo(self, copy=False):
        return self.tocsr(copy=False).tocoo(copy=copy)

    def todia(self, copy=False):
        return self.tocoo(copy=copy).todia(copy=False)

    def toarray(self, order=None, out=None):
        """The dense cunp array (on this matrix's device)."""
        return self.tocoo(copy=False).toarray(order=order, out=out)

    def todense(self, order=None, out=None):
        """As toarray (SciPy gives an np.matrix for a sparse matrix; cunp has none)."""
        return self.toarray(order=order, out=out)

    def get(self, stream=None):
        """The SciPy sparse object of this format and flavour, on the host."""
        import scipy.sparse as host_sparse
        return self._to_host(host_sparse)

    def copy(self):
        return self.__class__(self, copy=True)

    def astype(self, dtype, casting="unsafe", copy=True):
        dtype = _sputils.getdtype(dtype)
        if self.dtype != dtype:
            return self.tocsr().astype(dtype, casting=casting, copy=copy).asformat(self.format)
        return self.copy() if copy else self

    def reshape(self, *args, order="C", copy=False):
        """A matrix of another shape with the same entries (read in C or F order); COO
        unless the shape is unchanged."""
        shape = args[0] if len(args) == 1 else args
        shape = _reshape_shape(shape, self.shape)
        if shape == self.shape:
            return self.copy() if copy else self
        return self.tocoo(copy=copy).reshape(shape, order=order, copy=False)

    def resize(self, *shape):
        """Changes the shape in place: entries inside the new shape stay where they are,
        the others are dropped."""
        shape = _sputils.check_shape(shape[0] if len(shape) == 1 else shape)
        coo = self.tocoo()
        keep = (coo.row < shape[0]) & (coo.col < shape[1])
        idx = _sputils.get_index_dtype(maxval=max(shape))
        resized = coo._new(coo.data[keep], coo.row[keep].astype(idx), coo.col[keep].astype(idx), shape,
                           canonical=coo.has_canonical_format)
        self.__dict__.clear()
        self.__dict__.update(resized.asformat(self.format).__dict__)

    def transpose(self, axes=None, copy=False):
        return self.tocsr(copy=copy).transpose(axes=axes, copy=False)

    def conjugate(self, copy=True):
        if self.dtype.kind == "c":
            return self.tocsr(copy=copy).conjugate(copy=False)
        return self.copy() if copy else self

    def conj(self, copy=True):
        return self.conjugate(copy=copy)

    def _real(self):
        return self.tocsr()._real()

    def _imag(self):
        return self.tocsr()._imag()

    def nonzero(self):
        """(row, col) of the stored entries that are not zero."""
        A = self.tocoo()
        nz = A.data != 0
        return A.row[nz], A.col[nz]

    def count_nonzero(self, axis=None):
        return self.tocoo().count_nonzero(axis=axis)

    def _getnnz(self, axis=None):
        raise NotImplementedError("getnnz not implemented for %s." % type(self).__name__)

    # ---- reductions -------------------------------------------------------------------

    def _reduced(self, dense_1d, axis):
        """A reduction along `axis` (0 or 1): 1-D for arrays, 2-D for matrices."""
        if self._is_array:
            return dense_1d
        return dense_1d.reshape((1, -1) if axis == 0 else (-1, 1))

    def sum(self, axis=None, dtype=None, out=None):
        """Sums over all entries (a 0-d array) or along an axis."""
        axis = _sputils.validateaxis(axis)
        res_dtype = _sputils.get_sum_dtype(self.dtype)
        if axis is None:
            # SciPy sums the deduplicated values (in place), so int8/bool duplicates
            # first combine in their own dtype.
            data = self._deduped_data() if hasattr(self, "sum_duplicates") else self.tocsr().data
            total = _cunp.sum(data, dtype=dtype or res_dtype)
            return _store_out(total, out)
        result = (self if hasattr(self, "_sum_axis") else self.tocsr())._sum_axis(axis[0], res_dtype)
        if dtype is not None:
            result = result.astype(dtype)
        result = self._reduced(result, axis[0])
        return _store_out(result, out)

    def mean(self, axis=None, dtype=None, out=None):
        """The mean over all entries or along an axis (float64 for integer input)."""
        axis = _sputils.validateaxis(axis)
        integral = self.dtype.kind in "biu"
        inter_dtype = _numpy.dtype(_numpy.float64) if integral else self.dtype
        inter = self.astype(inter_dtype, copy=False)
        denom = math.prod(self.shape) if axis is None else math.prod(self.shape[a] for a in axis)
        res = inter._mul_scalar(1.0 / denom).sum(axis=axis, dtype=inter_dtype, out=out)
        if dtype is not None and out is None:
            return res.astype(dtype)
        return res

    def diagonal(self, k=0):
        """The k-th diagonal as a dense 1-D array."""
        return self.tocsr().diagonal(k=k)

    def trace(self, offset=0):
        return self.diagonal(k=offset).sum()

    def setdiag(self, values, k=0):
        """Sets the k-th diagonal to `values` (a scalar, or as many values as fit)."""
        M, N = self.shape
        if (k > 0 and k >= N) or (k < 0 and -k >= M):
            raise ValueError("k exceeds array dimensions")
        self._setdiag(values, k)

    def _diag_positions(self, values, k):
        """(rows, cols, values) of a setdiag call as device arrays."""
        M, N = self.shape
        if isinstance(values, ndarray):
            vals = _sputils.to_device(values, self.device)
        else:
            vals = _cunp.asarray(_numpy.asarray(values), device=self.device)
        length = min(M + k, N) if k < 0 else min(M, N - k)
        if vals.ndim != 0:
            length = min(length, vals.shape[0])
        length = max(length, 0)
        i = _cunp.arange(length, dtype=_numpy.int64, device=self.device)
        rows, cols = (i - k, i) if k < 0 else (i, i + k)
        vals = _cunp.broadcast_to(vals, (length,)) if vals.ndim == 0 else vals[:length]
        return rows, cols, vals.astype(self.dtype)

    def _setdiag(self, values, k):
        rows, cols, vals = self._diag_positions(values, k)
        if rows.shape[0] == 0:
            return
        self[rows, cols] = vals

    # ---- the SciPy object -------------------------------------------------------------

    def _to_host(self, host_sparse):
        raise NotImplementedError


def _store_out(result, out):
    if out is None:
        return result
    if tuple(out.shape) != tuple(result.shape):
        raise ValueError("out dimensions do not match shape")
    _cunp.copyto(out, result, casting="unsafe")
    return out


def _reshape_shape(shape, current):
    if isinstance(shape, (int, _numpy.integer)):
        shape = (shape,)
    shape = tuple(operator.index(s) for s in shape)
    size = math.prod(current)
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if -1 in shape:
        known = math.prod(s for s in shape if s != -1)
        if known == 0 or size % known:
            raise ValueError("cannot reshape array of size %d into shape %s" % (size, shape))
        shape = tuple(size // known if s == -1 else s for s in shape)
    if len(shape) != 2:
        raise ValueError("cunpx sparse matrices are 2-D: cannot reshape into shape %s" % (shape,))
    if math.prod(shape) != size:
        raise ValueError("cannot reshape array of size %d into shape %s" % (size, shape))
    return shape


class sparray:
    """The sparse array flavour (scipy.sparse.sparray): ``*`` is elementwise, ``**`` the
    elementwise power, reductions along an axis give 1-D arrays."""

    _is_array = True

    def __mul__(self, other):
        return self.multiply(other)

    def __rmul__(self, other):
        return self.multiply(other)

    def __pow__(self, other):
        return self.power(other)


class spmatrix:
    """The sparse matrix flavour (scipy.sparse.spmatrix): ``*`` and ``**`` are matrix
    products, reductions along an axis give 2-D arrays."""

    _is_array = False

    def __mul__(self, other):
        return self._matmul_dispatch(other)

    def __rmul__(self, other):
        return self._rmatmul_dispatch(other)

    def __pow__(self, power):
        M, N = self.shape
        if M != N:
            raise TypeError("sparse matrix is not square")
        if not _sputils.isintlike(power):
            raise ValueError("exponent must be an integer")
        power = int(power)
        if power < 0:
            raise ValueError("exponent must be >= 0")
        from cunpx.scipy.sparse._construct import eye
        if power == 0:
            return eye(M, dtype=self.dtype, format="csr", device=self.device)
        result, base = None, self
        while power:
            if power & 1:
                result = base if result is None else result @ base
            power >>= 1
            if power:
                base = base @ base
        return result

    def getnnz(self, axis=None):
        """The number of stored values (with axis: per column / per row)."""
        return self._getnnz(axis=axis)

    def getformat(self):
        return self.format

    def asfptype(self):
        """This matrix with a floating dtype (float32/float64/complex64/complex128)."""
        if self.dtype.kind in "fc":
            return self
        for fp in (_numpy.float32, _numpy.float64, _numpy.complex64, _numpy.complex128):
            if _numpy.can_cast(self.dtype, fp):
                return self.astype(fp, copy=False)
        raise TypeError("cannot upcast [%s] to a floating point format" % self.dtype.name)

    def get_shape(self):
        return self._shape

    def getshape(self):
        return self._shape

    def getmaxprint(self):
        return 50

    def getcol(self, j):
        """Column j as an (m, 1) sparse matrix."""
        N = self.shape[1]
        j = operator.index(j)
        if j < 0:
            j += N
        if j < 0 or j >= N:
            raise IndexError("index out of bounds")
        return (self if self.format in ("csr", "csc") else self.tocsr())[:, j]

    def getrow(self, i):
        """Row i as a (1, n) sparse matrix."""
        M = self.shape[0]
        i = operator.index(i)
        if i < 0:
            i += M
        if i < 0 or i >= M:
            raise IndexError("index out of bounds")
        return self.tocsr()[i, :]

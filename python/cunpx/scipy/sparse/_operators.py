"""The arithmetic of the sparse containers (scipy.sparse._base's operators): ``+ - * /``
with scalars, dense and sparse operands, ``multiply``, ``maximum``/``minimum``, the
comparisons (SparseEfficiencyWarning where the result is dense-like), and the matrix
products ``@``/``dot`` dispatched to SpMV, SpMM or SpGEMM. Written once over the
formats' primitives (``_add_sparse``, ``_binopt``, ``_matmul_vector``, ...), which fall
back to CSR."""
import operator
import warnings

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse import _sputils

ndarray = _cunp.ndarray


class SparseWarning(Warning):
    """scipy.sparse.SparseWarning."""


class SparseEfficiencyWarning(SparseWarning):
    """scipy.sparse.SparseEfficiencyWarning: an operation that changes the sparsity
    structure or makes a dense result."""


_OP_SYMBOLS = {operator.eq: "==", operator.ne: "!=", operator.lt: "<", operator.gt: ">", operator.le: "<=",
               operator.ge: ">="}
_OP_NEGATED = {operator.eq: operator.ne, operator.ne: operator.eq, operator.lt: operator.ge,
               operator.gt: operator.le, operator.le: operator.gt, operator.ge: operator.lt}
_OP_UFUNC = {operator.eq: "equal", operator.ne: "not_equal", operator.lt: "less", operator.gt: "greater",
             operator.le: "less_equal", operator.ge: "greater_equal"}


def _is_host_sparse(x):
    mod = type(x).__module__ or ""
    return mod.startswith("scipy.sparse") and hasattr(x, "tocoo") and hasattr(x, "format")


def issparse(x):
    """Whether `x` is a cunpx sparse array or matrix."""
    return isinstance(x, _operators)


def _dense_operand(other, device):
    """A dense operand as a cunp array on `device` (None for what is not array-like)."""
    if isinstance(other, ndarray):
        return _sputils.to_device(other, device)
    if isinstance(other, _numpy.ndarray) or isinstance(other, (list, tuple)):
        host = _numpy.asarray(other)
        if host.dtype == _numpy.object_:
            return None
        return _cunp.asarray(host, device=device)
    return None


class _operators:
    """The operators and products of every sparse container."""

    # ---- arithmetic -------------------------------------------------------------------

    def _mul_scalar(self, other):
        return self.tocsr()._mul_scalar(other)

    def __neg__(self):
        return -self.tocsr()

    def __abs__(self):
        return abs(self.tocsr())

    def __round__(self, ndigits=0):
        return round(self.tocsr(), ndigits)

    def __pos__(self):
        return self.copy()

    def __add__(self, other):
        if _sputils.isscalarlike(other):
            if other == 0:
                return self.copy()
            raise NotImplementedError("adding a nonzero scalar to a sparse array is not supported")
        if issparse(other):
            if other.shape != self.shape:
                raise ValueError("inconsistent shapes")
            return self._add_sparse(other)
        dense = _dense_operand(other, self.device)
        if dense is None:
            return NotImplemented
        return self._add_dense(_cunp.broadcast_to(dense, self.shape))

    def __radd__(self, other):
        return self.__add__(other)

    def __sub__(self, other):
        if _sputils.isscalarlike(other):
            if other == 0:
                return self.copy()
            raise NotImplementedError("subtracting a nonzero scalar from a sparse array is not supported")
        if issparse(other):
            if other.shape != self.shape:
                raise ValueError("inconsistent shapes")
            return self._sub_sparse(other)
        dense = _dense_operand(other, self.device)
        if dense is None:
            return NotImplemented
        return self.toarray() - _cunp.broadcast_to(dense, self.shape)

    def __rsub__(self, other):
        if _sputils.isscalarlike(other):
            if other == 0:
                return -self.copy()
            raise NotImplementedError("subtracting a sparse array from a nonzero scalar is not supported")
        dense = _dense_operand(other, self.device)
        if dense is None:
            return NotImplemented
        return _cunp.broadcast_to(dense, self.shape) - self.toarray()

    def _add_dense(self, other):
        return self.toarray() + other

    def _check_device(self, other):
        if str(other.device) != str(self.device):
            raise ValueError("sparse operands must be on one device: got %s and %s" % (self.device, other.device))

    def multiply(self, other):
        """Elementwise product with a scalar, a dense array (broadcast) or a sparse matrix."""
        if _sputils.isscalarlike(other):
            return self._mul_scalar(other)
        if issparse(other):
            self._check_device(other)
            return self._multiply_sparse(other)
        dense = _dense_operand(other, self.device)
        if dense is None:
            return NotImplemented
        return self._multiply_dense(dense)

    def _maximum_minimum(self, other, ufunc):
        if _sputils.isscalarlike(other):
            other_value = other.item() if hasattr(other, "item") else other
            if ufunc(_numpy.zeros((), self.dtype), other_value):
                sign = "positive" if ufunc is _numpy.maximum else "negative"
                warnings.warn("Taking %s with a %s number results in a dense matrix." % (ufunc.__name__, sign),
                              SparseEfficiencyWarning, stacklevel=3)
                dense = getattr(_cunp, ufunc.__name__)(self.toarray(), other_value)
                return self.__class__(dense)
            return self._scalar_binopt(other_value, getattr(_cunp, ufunc.__name__))
        if issparse(other):
            if other.shape != self.shape:
                raise ValueError("inconsistent shapes self.shape=%s other.shape=%s" % (self.shape, other.shape))
            return self._binopt(other, getattr(_cunp, ufunc.__name__))
        dense = _dense_operand(other, self.device)
        if dense is None:
            raise NotImplementedError("maximum or minimum with an unrecognized array type is not supported")
        return getattr(_cunp, ufunc.__name__)(self.toarray(), dense)

    def maximum(self, other):
        """Elementwise maximum with a scalar, a dense array or a sparse matrix."""
        return self._maximum_minimum(other, _numpy.maximum)

    def minimum(self, other):
        """Elementwise minimum with a scalar, a dense array or a sparse matrix."""
        return self._maximum_minimum(other, _numpy.minimum)

    def power(self, n, dtype=None):
        """Elementwise power of the stored values (n a scalar)."""
        return self.tocsr().power(n, dtype=dtype)

    def dot(self, other):
        """The matrix product (``self * scalar`` for a scalar)."""
        if _numpy.isscalar(other):
            return self * other
        return self @ other

    def _divide(self, other, rdivide=False):
        if _sputils.isscalarlike(other):
            if rdivide:
                return _cunp.divide(other, self.toarray())
            if _numpy.can_cast(self.dtype, _numpy.float64):
                return self.astype(_numpy.float64, copy=False)._mul_scalar(1 / other)
            r = self._mul_scalar(1 / other)
            scalar_dtype = _numpy.asarray(other).dtype
            if self.dtype.kind in "iu" and scalar_dtype.kind in "iu":
                return r.astype(self.dtype, copy=False)
            return r
        if issparse(other):
            if rdivide:
                return other._divide(self)
            if other.shape != self.shape:
                raise ValueError("inconsistent shapes")
            num = self.toarray()
            if _numpy.can_cast(self.dtype, _numpy.float64):
                num = num.astype(_numpy.float64)
            return _cunp.true_divide(num, other.toarray())
        dense = _dense_operand(other, self.device)
        if dense is None:
            return NotImplemented
        if rdivide:
            return _cunp.true_divide(dense, self.toarray())
        return self.multiply(_cunp.true_divide(1, dense))

    def __truediv__(self, other):
        return self._divide(other)

    def __rtruediv__(self, other):
        return NotImplemented

    def __iadd__(self, other):
        return NotImplemented

    def __isub__(self, other):
        return NotImplemented

    def __imul__(self, other):
        return NotImplemented

    def __itruediv__(self, other):
        return NotImplemented

    # ---- comparisons ------------------------------------------------------------------

    def _comparison(self, other, op):
        ufunc = getattr(_cunp, _OP_UFUNC[op])
        if _sputils.isscalarlike(other):
            value = other.item() if hasattr(other, "item") else other
            if not op(0, value):
                if _numpy.isnan(value):
                    return self.__class__(self.shape, dtype=_numpy.bool_, device=self.device)
                return self._scalar_binopt(value, ufunc)
            warnings.warn("Comparing a sparse matrix with %s using %s is inefficient. Try using %s instead."
                          % (value, _OP_SYMBOLS[op], _OP_SYMBOLS[_OP_NEGATED[op]]),
                          SparseEfficiencyWarning, stacklevel=3)
            if _numpy.isnan(value):
                return self.__class__(_cunp.ones(self.shape, dtype=bool, device=self.device))
            cs = self if self.format in ("csr", "csc") else self.tocsr()
            inv = cs._scalar_binopt(value, getattr(_cunp, _OP_UFUNC[_OP_NEGATED[op]]))
            return cs.__class__(_cunp.ones(self.shape, dtype=bool, device=self.device)) - inv
        if issparse(other):
            if self.shape != other.shape:
                if op in (operator.eq, operator.ne):
                    return op is operator.ne
                raise ValueError("inconsistent shape")
            cs = self if self.format in ("csr", "csc") else self.tocsr()
            if not op(0, 0):
                return cs._binopt(other, ufunc)
            warnings.warn("Comparing two sparse matrices using %s is inefficient. Try using %s instead."
                          % (_OP_SYMBOLS[op], _OP_SYMBOLS[_OP_NEGATED[op]]), SparseEfficiencyWarning, stacklevel=3)
            inv = cs._binopt(other, getattr(_cunp, _OP_UFUNC[_OP_NEGATED[op]]))
            return cs.__class__(_cunp.ones(self.shape, dtype=bool, device=self.device)) - inv
        dense = _dense_operand(other, self.device)
        if dense is None:
            return NotImplemented
        return ufunc(self.toarray(), dense)

    def __eq__(self, other):
        return self._comparison(other, operator.eq)

    def __ne__(self, other):
        return self._comparison(other, operator.ne)

    def __lt__(self, other):
        return self._comparison(other, operator.lt)

    def __gt__(self, other):
        return self._comparison(other, operator.gt)

    def __le__(self, other):
        return self._comparison(other, operator.le)

    def __ge__(self, other):
        return self._comparison(other, operator.ge)

    __hash__ = None

    # ---- matrix products --------------------------------------------------------------

    def _matmul_dispatch(self, other):
        M, N = self.shape
        if _sputils.isscalarlike(other):
            return self._mul_scalar(other)
        prefix = "matmul: dimension mismatch with signature"
        if issparse(other):
            if N != other.shape[0]:
                raise ValueError("%s (n,k=%d),(k=%d,m)->(n,m)" % (prefix, N, other.shape[0]))
            self._check_device(other)
            return self._matmul_sparse(other)
        dense = _dense_operand(other, self.device)
        if dense is None:
            if _is_host_sparse(other):
                raise TypeError("cannot multiply a cunpx sparse matrix by a scipy.sparse one: convert it with "
                                "%s(...)" % type(self).__name__)
            return NotImplemented
        if dense.ndim == 1 or (dense.ndim == 2 and dense.shape[1] == 1):
            if dense.shape[0] != N:
                raise ValueError("%s (n,k=%d),(k=%d,1?)->(n,1?)" % (prefix, N, dense.shape[0]))
            result = self._matmul_vector(dense.ravel())
            return result.reshape(M, 1) if dense.ndim == 2 else result
        if dense.ndim == 2:
            if dense.shape[0] != N:
                raise ValueError("%s (n,k=%d),(k=%d,m)->(n,m)" % (prefix, N, dense.shape[0]))
            return self._matmul_multivector(dense)
        raise ValueError("could not interpret dimensions")

    def _rmatmul_dispatch(self, other):
        if _sputils.isscalarlike(other):
            return self._mul_scalar(other)
        dense = _dense_operand(other, self.device)
        if dense is None:
            return NotImplemented
        if dense.ndim == 1:
            return self.transpose()._matmul_dispatch(dense)
        result = self.transpose()._matmul_dispatch(dense.T)
        return result.T

    def __matmul__(self, other):
        if _sputils.isscalarlike(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._matmul_dispatch(other)

    def __rmatmul__(self, other):
        if _sputils.isscalarlike(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._rmatmul_dispatch(other)

    def _add_sparse(self, other):
        return self.tocsr()._add_sparse(other)

    def _sub_sparse(self, other):
        return self.tocsr()._sub_sparse(other)

    def _multiply_sparse(self, other):
        return self.tocsr()._multiply_sparse(other)

    def _multiply_dense(self, other):
        return self.tocsr()._multiply_dense(other)

    def _binopt(self, other, op):
        return self.tocsr()._binopt(other, op)

    def _scalar_binopt(self, other, op):
        return self.tocsr()._scalar_binopt(other, op)

    def _matmul_vector(self, other):
        return self.tocsr()._matmul_vector(other)

    def _matmul_multivector(self, other):
        return self.tocsr()._matmul_multivector(other)

    def _matmul_sparse(self, other):
        return self.tocsr()._matmul_sparse(other)


"""LinearOperator and aslinearoperator (scipy.sparse.linalg's abstract operators,
cupyx.scipy.sparse.linalg's on cunp arrays).

A LinearOperator is a shape, a dtype and functions computing A @ x (and optionally
A^H @ x); products with cunp arrays return cunp arrays on the same device. The class
follows SciPy's: subclasses implement ``_matvec`` or ``_matmat`` (and ``_rmatvec`` /
``_rmatmat`` / ``_adjoint``); ``LinearOperator(shape, matvec, ...)`` builds one from
functions; ``+ - * @ ** /``, ``.H``/``.adjoint()``, ``.T``/``.transpose()`` compose
operators lazily with SciPy's shape checks and messages.

Differences from SciPy: inputs are converted with ``cunp.asarray`` (a NumPy array is
copied to the current device) and results are cunp arrays; there is no ``np.matrix``
handling.
"""
import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse.linalg import _util

__all__ = ["LinearOperator", "aslinearoperator", "IdentityOperator", "MatrixLinearOperator"]


def _isshape(shape):
    return (len(shape) == 2 and all(isinstance(s, (int, _numpy.integer)) and not isinstance(s, bool)
                                    for s in shape) and min(shape) >= 0)


def _is_scalar(x):
    return _numpy.isscalar(x) and not isinstance(x, (str, bytes))


def _asarray(x):
    """A product's operand or result as a cunp array (sparse matrices pass through)."""
    if _util.is_sparse(x):
        return x
    return _cunp.asarray(x)


class LinearOperator:
    """Common interface for performing matrix-vector products (scipy.sparse.linalg.
    LinearOperator). ``LinearOperator(shape, matvec, rmatvec=None, matmat=None,
    dtype=None, rmatmat=None)``; without ``dtype`` it is found by applying ``matvec``
    to an int8 zero vector, as SciPy does."""

    ndim = 2

    def __new__(cls, *args, **kwargs):
        if cls is LinearOperator:
            return super().__new__(_CustomLinearOperator)
        obj = super().__new__(cls)
        if type(obj)._matvec == LinearOperator._matvec and type(obj)._matmat == LinearOperator._matmat:
            import warnings
            warnings.warn("LinearOperator subclass should implement at least one of _matvec and _matmat.",
                          category=RuntimeWarning, stacklevel=2)
        return obj

    def __init__(self, dtype, shape):
        if dtype is not None:
            dtype = _numpy.dtype(dtype)
        shape = tuple(shape)
        if not _isshape(shape):
            raise ValueError("invalid shape %r (must be 2-d)" % (shape,))
        self.dtype = dtype
        self.shape = (int(shape[0]), int(shape[1]))

    def _init_dtype(self):
        """The dtype of matvec applied to an int8 zero vector (the smallest type in
        NumPy's promotion order), when none was given."""
        if self.dtype is None:
            v = _cunp.zeros(self.shape[-1], dtype=_numpy.int8)
            try:
                self.dtype = _numpy.dtype(_cunp.asarray(self.matvec(v)).dtype)
            except OverflowError:
                self.dtype = _numpy.dtype(int)

    # -- the defaults each subclass may override --------------------------------------------
    def _matmat(self, X):
        """Column by column through matvec (slow; subclasses override it)."""
        return _cunp.hstack([self.matvec(col.reshape(-1, 1)) for col in X.T])

    def _matvec(self, x):
        return self.matmat(x.reshape(-1, 1))

    def _rmatvec(self, x):
        if type(self)._adjoint == LinearOperator._adjoint:
            if type(self)._rmatmat != LinearOperator._rmatmat:
                return self._rmatmat(x.reshape(-1, 1)).reshape(-1)
            raise NotImplementedError
        return self.H.matvec(x)

    def _rmatmat(self, X):
        if type(self)._adjoint == LinearOperator._adjoint:
            return _cunp.hstack([self.rmatvec(col.reshape(-1, 1)) for col in X.T])
        return self.H.matmat(X)

    def _adjoint(self):
        return _AdjointLinearOperator(self)

    def _transpose(self):
        return _TransposedLinearOperator(self)

    # -- the public products -----------------------------------------------------------------
    def matvec(self, x):
        """y = A @ x for x of shape (N,) or (N, 1); y has shape (M,) or (M, 1)."""
        x = _cunp.asarray(x)
        M, N = self.shape
        if x.shape != (N,) and x.shape != (N, 1):
            raise ValueError("dimension mismatch")
        y = _cunp.asarray(self._matvec(x))
        return y.reshape(M) if x.ndim == 1 else y.reshape(M, 1)

    def rmatvec(self, x):
        """y = A^H @ x for x of shape (M,) or (M, 1)."""
        x = _cunp.asarray(x)
        M, N = self.shape
        if x.shape != (M,) and x.shape != (M, 1):
            raise ValueError("dimension mismatch")
        y = _cunp.asarray(self._rmatvec(x))
        return y.reshape(N) if x.ndim == 1 else y.reshape(N, 1)

    def matmat(self, X):
        """Y = A @ X for a 2-d X of shape (N, K)."""
        X = _asarray(X)
        if X.ndim != 2:
            raise ValueError("expected 2-d ndarray or matrix, not %d-d" % X.ndim)
        if X.shape[0] != self.shape[1]:
            raise ValueError("dimension mismatch: %s, %s" % (self.shape, X.shape))
        return self._sparse_guard(self._matmat, X)

    def rmatmat(self, X):
        """Y = A^H @ X for a 2-d X of shape (M, K)."""
        X = _asarray(X)
        if X.ndim != 2:
            raise ValueError("expected 2-d ndarray or matrix, not %d-d" % X.ndim)
        if X.shape[0] != self.shape[0]:
            raise ValueError("dimension mismatch: %s, %s" % (self.shape, X.shape))
        return self._sparse_guard(self._rmatmat, X)

    @staticmethod
    def _sparse_guard(fn, X):
        try:
            return fn(X)
        except Exception as e:
            if _util.is_sparse(X):
                raise TypeError("Unable to multiply a LinearOperator with a sparse matrix. Wrap the matrix in "
                                "aslinearoperator first.") from e
            raise

    def dot(self, x):
        """A @ x for an array x (1-d: matvec, 2-d: matmat), a product operator for a
        LinearOperator x, a scaled operator for a scalar x."""
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(self, x)
        if _is_scalar(x):
            return _ScaledLinearOperator(self, x)
        x = _asarray(x)
        if x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1):
            return self.matvec(x)
        if x.ndim == 2:
            return self.matmat(x)
        raise ValueError("expected 1-d or 2-d array or matrix, got %r" % (x,))

    def _rdot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(x, self)
        if _is_scalar(x):
            return _ScaledLinearOperator(self, x)
        x = _asarray(x)
        if x.ndim == 1 or (x.ndim == 2 and x.shape[0] == 1):
            return self.T.matvec(x.T).T
        if x.ndim == 2:
            return self.T.matmat(x.T).T
        raise ValueError("expected 1-d or 2-d array or matrix, got %r" % (x,))

    def __call__(self, x):
        return self @ x

    def __mul__(self, x):
        return self.dot(x)

    def __rmul__(self, x):
        if _is_scalar(x):
            return _ScaledLinearOperator(self, x)
        return self._rdot(x)

    def __matmul__(self, other):
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__mul__(other)

    def __rmatmul__(self, other):
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__rmul__(other)

    def __truediv__(self, other):
        if not _is_scalar(other):
            raise ValueError("Can only divide a linear operator by a scalar.")
        return _ScaledLinearOperator(self, 1.0 / other)

    def __pow__(self, p):
        if _is_scalar(p):
            return _PowerLinearOperator(self, p)
        return NotImplemented

    def __add__(self, x):
        if isinstance(x, LinearOperator):
            return _SumLinearOperator(self, x)
        return NotImplemented

    def __neg__(self):
        return _ScaledLinearOperator(self, -1)

    def __sub__(self, x):
        return self.__add__(-x)

    # cunp arrays defer to these operators instead of treating the operator as an array
    __array_priority__ = 100
    __array_ufunc__ = None

    def __repr__(self):
        M, N = self.shape
        dt = "unspecified dtype" if self.dtype is None else "dtype=" + str(self.dtype)
        return "<%dx%d %s with %s>" % (M, N, type(self).__name__, dt)

    def adjoint(self):
        """The Hermitian adjoint A^H (also ``.H``)."""
        return self._adjoint()

    H = property(adjoint)

    def transpose(self):
        """The transpose A^T (also ``.T``)."""
        return self._transpose()

    T = property(transpose)


class _CustomLinearOperator(LinearOperator):
    """An operator defined by user functions."""

    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None):
        super().__init__(dtype, shape)
        self.args = ()
        self.__matvec_impl = matvec
        self.__rmatvec_impl = rmatvec
        self.__rmatmat_impl = rmatmat
        self.__matmat_impl = matmat
        self._init_dtype()

    def _matmat(self, X):
        if self.__matmat_impl is not None:
            return self.__matmat_impl(X)
        return super()._matmat(X)

    def _matvec(self, x):
        return self.__matvec_impl(x)

    def _rmatvec(self, x):
        if self.__rmatvec_impl is None:
            raise NotImplementedError("rmatvec is not defined")
        return self.__rmatvec_impl(x)

    def _rmatmat(self, X):
        if self.__rmatmat_impl is not None:
            return self.__rmatmat_impl(X)
        return super()._rmatmat(X)

    def _adjoint(self):
        return _CustomLinearOperator(shape=(self.shape[1], self.shape[0]), matvec=self.__rmatvec_impl,
                                     rmatvec=self.__matvec_impl, matmat=self.__rmatmat_impl,
                                     rmatmat=self.__matmat_impl, dtype=self.dtype)


class _AdjointLinearOperator(LinearOperator):
    def __init__(self, A):
        super().__init__(dtype=A.dtype, shape=(A.shape[1], A.shape[0]))
        self.A = A
        self.args = (A,)

    def _matvec(self, x):
        return self.A._rmatvec(x)

    def _rmatvec(self, x):
        return self.A._matvec(x)

    def _matmat(self, x):
        return self.A._rmatmat(x)

    def _rmatmat(self, x):
        return self.A._matmat(x)


class _TransposedLinearOperator(LinearOperator):
    def __init__(self, A):
        super().__init__(dtype=A.dtype, shape=(A.shape[1], A.shape[0]))
        self.A = A
        self.args = (A,)

    def _matvec(self, x):
        return _cunp.conj(self.A._rmatvec(_cunp.conj(x)))

    def _rmatvec(self, x):
        return _cunp.conj(self.A._matvec(_cunp.conj(x)))

    def _matmat(self, x):
        return _cunp.conj(self.A._rmatmat(_cunp.conj(x)))

    def _rmatmat(self, x):
        return _cunp.conj(self.A._matmat(_cunp.conj(x)))


def _get_dtype(operators, dtypes=None):
    dtypes = list(dtypes or [])
    for obj in operators:
        if obj is not None and getattr(obj, "dtype", None) is not None:
            dtypes.append(obj.dtype)
    return _numpy.result_type(*dtypes)


class _SumLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if not isinstance(A, LinearOperator) or not isinstance(B, LinearOperator):
            raise ValueError("both operands have to be a LinearOperator")
        if A.shape != B.shape:
            raise ValueError("cannot add %r and %r: shape mismatch" % (A, B))
        self.args = (A, B)
        super().__init__(_get_dtype([A, B]), A.shape)

    def _matvec(self, x):
        return self.args[0].matvec(x) + self.args[1].matvec(x)

    def _rmatvec(self, x):
        return self.args[0].rmatvec(x) + self.args[1].rmatvec(x)

    def _rmatmat(self, x):
        return self.args[0].rmatmat(x) + self.args[1].rmatmat(x)

    def _matmat(self, x):
        return self.args[0].matmat(x) + self.args[1].matmat(x)

    def _adjoint(self):
        A, B = self.args
        return A.H + B.H


class _ProductLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if not isinstance(A, LinearOperator) or not isinstance(B, LinearOperator):
            raise ValueError("both operands have to be a LinearOperator")
        if A.shape[1] != B.shape[0]:
            raise ValueError("cannot multiply %r and %r: shape mismatch" % (A, B))
        super().__init__(_get_dtype([A, B]), (A.shape[0], B.shape[1]))
        self.args = (A, B)

    def _matvec(self, x):
        return self.args[0].matvec(self.args[1].matvec(x))

    def _rmatvec(self, x):
        return self.args[1].rmatvec(self.args[0].rmatvec(x))

    def _rmatmat(self, x):
        return self.args[1].rmatmat(self.args[0].rmatmat(x))

    def _matmat(self, x):
        return self.args[0].matmat(self.args[1].matmat(x))

    def _adjoint(self):
        A, B = self.args
        return B.H @ A.H


class _ScaledLinearOperator(LinearOperator):
    def __init__(self, A, alpha):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if not _is_scalar(alpha):
            raise ValueError("scalar expected as alpha")
        if isinstance(A, _ScaledLinearOperator):
            A, alpha_original = A.args
            alpha = alpha * alpha_original
        super().__init__(_get_dtype([A], [type(alpha)]), A.shape)
        self.args = (A, alpha)

    # Note: alpha multiplies the product as given (a Python float is weak and keeps a
    # float32 product float32, a NumPy float64 promotes it), exactly as in SciPy, so the
    # results' dtypes match SciPy's even where they differ from self.dtype.
    def _matvec(self, x):
        return self.args[1] * self.args[0].matvec(x)

    def _rmatvec(self, x):
        return _numpy.conj(self.args[1]) * self.args[0].rmatvec(x)

    def _rmatmat(self, x):
        return _numpy.conj(self.args[1]) * self.args[0].rmatmat(x)

    def _matmat(self, x):
        return self.args[1] * self.args[0].matmat(x)

    def _adjoint(self):
        A, alpha = self.args
        return A.H * _numpy.conj(alpha)


class _PowerLinearOperator(LinearOperator):
    def __init__(self, A, p):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if A.shape[0] != A.shape[1]:
            raise ValueError("square LinearOperator expected, got %r" % (A,))
        if not (isinstance(p, (int, _numpy.integer)) or (_is_scalar(p) and float(p) == int(p))) or p < 0:
            raise ValueError("non-negative integer expected as p")
        super().__init__(_get_dtype([A]), A.shape)
        self.args = (A, int(p))

    def _power(self, fun, x):
        res = _cunp.array(x, copy=True)
        for _ in range(self.args[1]):
            res = fun(res)
        return res

    def _matvec(self, x):
        return self._power(self.args[0].matvec, x)

    def _rmatvec(self, x):
        return self._power(self.args[0].rmatvec, x)

    def _rmatmat(self, x):
        return self._power(self.args[0].rmatmat, x)

    def _matmat(self, x):
        return self._power(self.args[0].matmat, x)

    def _adjoint(self):
        A, p = self.args
        return A.H ** p


class MatrixLinearOperator(LinearOperator):
    """A dense cunp array or a sparse matrix seen as an operator: A @ X, and for the
    adjoint A.T @ X (real) or conj(A.T @ conj(X)) (complex: no conjugated copy of a
    dense A is made; a sparse A's A.T.conj() is built once)."""

    def __init__(self, A):
        super().__init__(A.dtype, A.shape)
        self.A = A
        self.__adj = None
        self.args = (A,)

    def _matmat(self, X):
        return self.A @ X

    def _matvec(self, x):
        return self.A @ x

    def _adjoint(self):
        if self.__adj is None:
            self.__adj = _AdjointMatrixOperator(self)
        return self.__adj


class _AdjointMatrixOperator(MatrixLinearOperator):
    def __init__(self, parent):
        A = parent.A
        LinearOperator.__init__(self, A.dtype, (A.shape[1], A.shape[0]))
        self.args = (A,)
        self._parent = parent
        self._complex = _numpy.dtype(A.dtype).kind == "c"
        self._dense = isinstance(A, _cunp.ndarray)
        if not self._complex:
            self.A = A.T
        elif self._dense:
            self.A = None  # products conjugate the operand and the result instead
        else:
            self.A = A.T.conj()

    def _matmat(self, X):
        if self.A is None:
            return _cunp.conj(self.args[0].T @ _cunp.conj(X))
        return self.A @ X

    _matvec = _matmat

    def _adjoint(self):
        return self._parent


class IdentityOperator(LinearOperator):
    """The identity operator of a given shape (x is returned unchanged)."""

    def __init__(self, shape, dtype=None):
        super().__init__(dtype, shape)

    def _matvec(self, x):
        return x

    def _rmatvec(self, x):
        return x

    def _rmatmat(self, x):
        return x

    def _matmat(self, x):
        return x

    def _adjoint(self):
        return self


def _from_scipy_sparse(A):
    """A SciPy sparse matrix on the device: a cunpx sparse matrix when that module is
    there, else a dense cunp array."""
    try:
        from cunpx.scipy import sparse as _sp
        csr = getattr(_sp, "csr_matrix", None)
    except ImportError:
        csr = None
    if csr is not None:
        h = A.tocsr()
        return csr((_cunp.asarray(h.data), _cunp.asarray(h.indices), _cunp.asarray(h.indptr)), shape=h.shape)
    return _cunp.asarray(A.toarray())


def aslinearoperator(A):
    """A as a LinearOperator: a LinearOperator itself; a cunp or NumPy array of up to
    2 dimensions (NumPy's is copied to the current device); a sparse matrix (cunpx's,
    or SciPy's copied to the device); an object with ``shape`` and ``matvec`` (and
    optionally ``rmatvec``, ``rmatmat``, ``dtype``); or any object with a 2-d
    ``shape``, a ``dtype`` and ``@``."""
    if isinstance(A, LinearOperator):
        return A
    if isinstance(A, (_cunp.ndarray, _numpy.ndarray)):
        if A.ndim > 2:
            raise ValueError("array must have ndim <= 2")
        return MatrixLinearOperator(_cunp.atleast_2d(_cunp.asarray(A)))
    if _util.is_scipy_sparse(A):
        return MatrixLinearOperator(_from_scipy_sparse(A))
    if _util.is_sparse(A):
        return MatrixLinearOperator(A)
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return LinearOperator(A.shape, A.matvec, rmatvec=getattr(A, "rmatvec", None),
                              rmatmat=getattr(A, "rmatmat", None), dtype=getattr(A, "dtype", None))
    if len(getattr(A, "shape", ())) == 2 and hasattr(A, "dtype") and hasattr(A, "__matmul__"):
        return MatrixLinearOperator(A)
    raise TypeError("type not understood")

"""Shared pieces of cunpx.scipy.sparse.linalg: recognising sparse matrices by their
interface, their CSR arrays on the device, SciPy's ``make_system`` for the Krylov
solvers, and fetching several device scalars with one transfer.

Note [Duck-typed sparse matrices]: the solvers never import a sparse matrix class. A
sparse matrix is anything with ``shape``, ``dtype`` and ``tocsr()`` (cunpx's and
SciPy's sparse matrices and arrays): products go through ``A @ x``, norms and the
direct solvers read ``A.tocsr()``'s ``data``/``indices``/``indptr``. This keeps the
module independent of how the matrix classes are written and lets every function take
SciPy's matrices too (their arrays are copied to the device once).
"""
import numpy as _numpy

import cunp as _cunp


def is_sparse(A):
    """True for a sparse matrix or array (cunpx's or SciPy's): anything with ``tocsr``
    and a 2-d ``shape`` that is not a dense array."""
    if isinstance(A, (_cunp.ndarray, _numpy.ndarray)):
        return False
    return hasattr(A, "tocsr") and len(getattr(A, "shape", ())) == 2


def is_scipy_sparse(A):
    """True for SciPy's (host) sparse matrices and arrays (SciPy is imported only for
    objects of its own classes)."""
    if not (type(A).__module__ or "").startswith("scipy."):
        return False
    import scipy.sparse
    return scipy.sparse.issparse(A)


def csr_arrays(A):
    """(data, indices, indptr) of a sparse matrix in canonical CSR form (sorted, no
    duplicate entries), as cunp arrays on the current device."""
    csr = A.tocsr()
    if getattr(csr, "has_canonical_format", True) is False and hasattr(csr, "sum_duplicates"):
        csr = csr.copy()
        csr.sum_duplicates()
    return _cunp.asarray(csr.data), _cunp.asarray(csr.indices), _cunp.asarray(csr.indptr)


def device_of(*objs):
    """The device of the first of objs that lives on one: a cunp array, a sparse matrix
    with device arrays (its ``data``), an operator wrapping either (its ``A``); the
    current device if none does."""
    for o in objs:
        for cand in (o, getattr(o, "data", None), getattr(o, "A", None), getattr(getattr(o, "A", None), "data", None)):
            if isinstance(cand, _cunp.ndarray):
                return cand.device
    return _cunp.empty(0).device


def host_values(*values):
    """The values of several cunp arrays (0-d or 1-d) and Python numbers, read with one
    transfer (one device synchronisation for all): a flat NumPy array, complex128 when
    any input is complex, else float64."""
    devs = [v for v in values if isinstance(v, _cunp.ndarray)]
    if not devs:
        return _numpy.asarray(values).ravel()
    dt = _numpy.complex128 if any(v.dtype.kind == "c" for v in devs) else _numpy.float64
    parts = [v.reshape(-1).astype(dt) if isinstance(v, _cunp.ndarray)
             else _cunp.full(1, v, dtype=dt, device=devs[0].device) for v in values]
    return _cunp.concatenate(parts).get()


def float_dtype(dt):
    """SciPy's coerce() of a dtype to one of float32, float64, complex64, complex128."""
    dt = _numpy.dtype(dt)
    return dt if dt.char in "fdFD" else _numpy.dtype(_numpy.float64)


def coerce(a, b):
    """The iterative solvers' working dtype for operator dtype a and right-hand side b
    (SciPy's _isolve.utils.coerce: anything not float32/64, complex64/128 counts as
    float64)."""
    return _numpy.result_type(float_dtype(a), float_dtype(b))


def real_dtype(dt):
    return _numpy.dtype(_numpy.finfo(_numpy.dtype(dt)).dtype)


def as_vector(x, n, name, A_shape):
    """`x` as a 1-d cunp array of n elements; SciPy accepts (n,) and (n, 1)."""
    x = _cunp.asarray(x)
    if x.shape != (n,) and x.shape != (n, 1):
        raise ValueError("shapes of A %s and %s %s are incompatible" % (A_shape, name, x.shape))
    return x.reshape(n)


class System:
    """SciPy's make_system: A as a square LinearOperator, the preconditioner (None for
    the identity, which the solvers then skip), b and x in the working dtype."""

    def __init__(self, A, M, x0, b):
        from cunpx.scipy.sparse.linalg._interface import aslinearoperator
        A_ = A
        A = aslinearoperator(A)
        if A.shape[0] != A.shape[1]:
            raise ValueError("expected square matrix, but got shape=%s" % ((A.shape,),))
        n = A.shape[0]
        b = _cunp.asarray(b)
        if not (b.shape == (n, 1) or b.shape == (n,)):
            raise ValueError("shapes of A %s and b %s are incompatible" % (A.shape, b.shape))
        if b.dtype.char not in "fdFD":
            b = b.astype(_numpy.float64)
        a_dtype = A.dtype if A.dtype is not None else A.matvec(b).dtype
        xtype = coerce(a_dtype, b.dtype)
        self.device = b.device
        with _cunp.Device(self.device):
            self.b = b.astype(xtype, copy=False).reshape(n)
            if M is None:
                psolve = getattr(A_, "psolve", None)
                rpsolve = getattr(A_, "rpsolve", None)
                if psolve is None and rpsolve is None:
                    self.M = None
                else:
                    from cunpx.scipy.sparse.linalg._interface import LinearOperator
                    ident = _identity
                    self.M = LinearOperator(A.shape, matvec=psolve or ident, rmatvec=rpsolve or ident,
                                            dtype=A.dtype)
            else:
                self.M = aslinearoperator(M)
                if A.shape != self.M.shape:
                    raise ValueError("matrix and preconditioner have different shapes")
            self.x0_given = x0 is not None
            if x0 is None:
                self.x = _cunp.zeros(n, dtype=xtype)
            elif isinstance(x0, str):
                if x0 != "Mb":
                    raise ValueError("x0 must be an array or 'Mb', got %r" % (x0,))
                self.x = self.psolve(self.b.copy()).astype(xtype, copy=True)
            else:
                x = _cunp.array(_cunp.asarray(x0), dtype=xtype, copy=True)
                if not (x.shape == (n, 1) or x.shape == (n,)):
                    raise ValueError("shapes of A %s and x0 %s are incompatible" % (A.shape, x.shape))
                self.x = x.reshape(n)
        self.A, self.n, self.dtype = A, n, xtype

    def psolve(self, r):
        return r if self.M is None else self.M.matvec(r)

    def rpsolve(self, r):
        return r if self.M is None else self.M.rmatvec(r)

    def residual(self):
        """b - A x, skipping the product when x0 was not given (x is zero)."""
        if not self.x0_given:
            return self.b.copy()
        return self.b - self.A.matvec(self.x)


def _identity(x):
    return x


def atol_for(name, b_norm, atol, rtol):
    """SciPy's _get_atol_rtol: max(atol, rtol * ||b||), atol a non-negative real."""
    if atol is None or isinstance(atol, str) or atol < 0:
        raise ValueError("'scipy.sparse.linalg.%s' called with invalid `atol`=%s; if set, `atol` must be a real, "
                         "non-negative number." % (name, atol))
    return max(float(atol), float(rtol) * float(b_norm))

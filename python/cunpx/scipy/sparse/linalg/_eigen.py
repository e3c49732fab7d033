"""eigsh and svds (scipy.sparse.linalg's, cupyx.scipy.sparse.linalg's) by thick-restart
Lanczos on the device.

Note [Thick-restart Lanczos]: eigsh builds an orthonormal Krylov basis V (ncv + 1 rows
of n, on the device) and the projected matrix T = V^H A V (ncv x ncv, on the host).
Each new vector is orthogonalised against the whole basis by classical Gram-Schmidt
applied twice (two matrix-vector products with V per pass, cuBLAS through cunp's
matmul), which keeps V orthonormal to working precision without the selective
reorthogonalisation bookkeeping. The Rayleigh-Ritz step diagonalises T on the host
(numpy.linalg.eigh, float64); a Ritz pair (theta, V^T s) is converged when its
residual norm |beta_m s_m| <= tol max(eps^(2/3), |theta|) (ARPACK's test). Without
convergence the iteration restarts from the best `nkeep` Ritz vectors and the residual
vector (Wu and Simon's thick restart: T becomes an arrowhead matrix), which is
mathematically what ARPACK's implicitly restarted Lanczos keeps. A restart cycle runs
its Lanczos steps without reading anything on the host (the projections stay in a
device copy of T), so a cycle costs one device synchronisation.

svds applies eigsh to A^H A (or A A^H, whichever is smaller) and takes the singular
triplets from a thin SVD of A V (or A^H U): zero singular values get orthonormal
vectors, and the singular values come from the product rather than the square roots of
the eigenvalues.
"""
import warnings

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse.linalg import _util
from cunpx.scipy.sparse.linalg._interface import LinearOperator, aslinearoperator

__all__ = ["eigsh", "svds", "ArpackError", "ArpackNoConvergence"]

_WHICH = ("LM", "SM", "LA", "SA", "BE")


class ArpackError(RuntimeError):
    """The eigensolver failed (scipy.sparse.linalg.ArpackError)."""

    def __init__(self, info, msg=None):
        super().__init__("ARPACK error %s: %s" % (info, msg or "Unknown error"))


class ArpackNoConvergence(ArpackError):
    """The eigensolver did not converge in maxiter restarts; ``eigenvalues`` and
    ``eigenvectors`` hold the pairs that did (scipy.sparse.linalg.ArpackNoConvergence)."""

    def __init__(self, msg, eigenvalues, eigenvectors):
        ArpackError.__init__(self, -1, msg)
        self.eigenvalues = eigenvalues
        self.eigenvectors = eigenvectors


def _order(theta, which):
    """Indices of the Ritz values, most wanted first."""
    if which == "LM":
        return _numpy.argsort(-_numpy.abs(theta), kind="stable")
    if which == "SM":
        return _numpy.argsort(_numpy.abs(theta), kind="stable")
    if which == "LA":
        return _numpy.argsort(-theta, kind="stable")
    if which == "SA":
        return _numpy.argsort(theta, kind="stable")
    # BE: alternately from the high and the low end, starting high (ARPACK's choice)
    asc = _numpy.argsort(theta, kind="stable")
    lo, hi, out = 0, len(asc) - 1, []
    while lo <= hi:
        out.append(asc[hi])
        hi -= 1
        if lo <= hi:
            out.append(asc[lo])
            lo += 1
    return _numpy.asarray(out, dtype=_numpy.intp)


class _Lanczos:
    """The Krylov basis, the Lanczos coefficients on the device and the Lanczos steps
    (Note [Thick-restart Lanczos])."""

    def __init__(self, matvec, n, ncv, dtype, rng):
        self.matvec, self.n, self.ncv, self.dtype = matvec, n, ncv, dtype
        self.complex = dtype.kind == "c"
        self.V = _cunp.zeros((ncv + 1, n), dtype=dtype)
        self.coef = _cunp.zeros((3, ncv), dtype=_util.real_dtype(dtype))  # alpha_j, beta_j, ||A V[j]||
        self.rng = rng

    def _project(self, Vj, w):
        if self.complex:
            return _cunp.conj(Vj @ _cunp.conj(w))
        return Vj @ w

    def orthogonalize(self, w, j):
        """w minus its projection on V[:j] (twice), and the projection's coefficients."""
        Vj = self.V[:j]
        h = self._project(Vj, w)
        w = w - Vj.T @ h
        h2 = self._project(Vj, w)
        return w - Vj.T @ h2, h + h2

    def random_vector(self, j):
        """A random unit vector orthogonal to V[:j] (after a breakdown)."""
        r = self.rng.uniform(-1, 1, size=self.n)
        if self.complex:
            r = r + 1j * self.rng.uniform(-1, 1, size=self.n)
        w = _cunp.asarray(r.astype(self.dtype))
        if j > 0:
            w, _ = self.orthogonalize(w, j)
        return w / _cunp.linalg.norm(w)

    def expand(self, start, stop):
        """Lanczos steps start .. stop-1 on the device: V[j+1], alpha_j = <V[j], A V[j]>
        and beta_j = ||the orthogonalised A V[j]||; returns (alpha, beta) with one
        transfer. The orthogonalisation's other coefficients are rounding errors (or, for
        j = start after a restart, the couplings the restart already knows exactly) and
        are dropped, as in every Lanczos method.

        Note [Lanczos breakdown]: when A V[j] lies in the span of V[:j+1] to working
        precision (beta_j <= 100 eps ||A V[j]||; an identity matrix does it at every step),
        the orthogonalised vector is rounding noise, mostly inside that span, and
        normalising it would destroy the basis' orthogonality within a few steps. Such a
        step keeps beta_j = 0 (an error of at most 100 eps ||A|| in T) and continues from a
        random vector orthogonal to the basis; the steps after it are redone."""
        eps = float(_numpy.finfo(self.dtype).eps)
        while True:
            for j in range(start, stop):
                w = _cunp.asarray(self.matvec(self.V[j])).astype(self.dtype, copy=False).reshape(self.n)
                self.coef[2, j] = _cunp.linalg.norm(w)
                w, h = self.orthogonalize(w, j + 1)
                beta = _cunp.linalg.norm(w)
                self.V[j + 1] = w / beta
                self.coef[0, j] = _cunp.real(h[j])
                self.coef[1, j] = beta
            alpha, beta, h0 = self.coef.get().astype(_numpy.float64)
            last = stop - 1 if self.ncv < self.n else stop - 2   # a basis of all of C^n has no next vector
            bad = [j for j in range(start, last + 1)
                   if not beta[j] > 100 * eps * h0[j] or not _numpy.isfinite(beta[j])]
            if not bad:
                return alpha, beta
            j = bad[0]
            self.V[j + 1] = self.random_vector(j + 1)
            self.coef[1, j] = 0
            if j + 1 == stop:
                alpha, beta, _ = self.coef.get().astype(_numpy.float64)
                return alpha, beta
            start = j + 1


def _projected(alpha, beta, theta_keep, coupling, m):
    """The real symmetric m x m projection V^H A V: the kept Ritz values and their
    couplings to the first new vector (an arrowhead), then the Lanczos tridiagonal."""
    nk = len(theta_keep)
    H = _numpy.zeros((m, m))
    H[_numpy.arange(nk), _numpy.arange(nk)] = theta_keep
    H[nk, :nk] = H[:nk, nk] = coupling
    idx = _numpy.arange(nk, m)
    H[idx, idx] = alpha[nk:m]
    idx = _numpy.arange(nk, m - 1)
    H[idx + 1, idx] = H[idx, idx + 1] = beta[nk:m - 1]
    return H


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True, Minv=None, OPinv=None, mode="normal", rng=None):
    """k eigenvalues (ascending) and eigenvectors of the Hermitian matrix or operator A
    (scipy.sparse.linalg.eigsh; which: 'LM', 'SM', 'LA', 'SA', 'BE'). The generalised
    (M), shift-invert (sigma) and other modes are not supported."""
    if M is not None or Minv is not None or OPinv is not None or sigma is not None or mode != "normal":
        raise NotImplementedError("eigsh: only the standard problem (M=None, sigma=None, mode='normal') is "
                                  "supported")
    dtype = _numpy.dtype(A.dtype) if getattr(A, "dtype", None) is not None else None
    if dtype is not None and dtype.kind == "c" and which == "BE":
        raise ValueError("which='BE' cannot be used with complex matrix A")
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("expected square matrix (shape=%s)" % (A.shape,))
    n = A.shape[0]
    if k <= 0:
        raise ValueError("k must be greater than 0.")
    if k >= n:
        warnings.warn("k >= N for N * N square matrix. Attempting to use scipy.linalg.eigh instead.",
                      RuntimeWarning, stacklevel=2)
        if _util.is_sparse(A):
            raise TypeError("Cannot use scipy.linalg.eigh for sparse A with k >= N. Use scipy.linalg.eigh("
                            "A.toarray()) or reduce k.")
        if isinstance(A, LinearOperator):
            raise TypeError("Cannot use scipy.linalg.eigh for LinearOperator A with k >= N.")
        a = _cunp.asarray(A)
        if return_eigenvectors:
            return tuple(_cunp.linalg.eigh(a))
        return _cunp.linalg.eigvalsh(a)
    op = aslinearoperator(A)
    dtype = op.dtype
    if dtype.char not in "fdFD":
        raise ValueError("matrix type must be 'f', 'd', 'F', or 'D'")
    if which not in _WHICH:
        raise ValueError("which must be one of %s" % " ".join(_WHICH))
    if maxiter is not None and maxiter <= 0:
        raise ValueError("maxiter must be positive, maxiter=%d" % maxiter)
    ncv = min(max(2 * k + 1, 20) if ncv is None else int(ncv), n)
    if ncv > n or ncv <= k:
        raise ValueError("ncv must be k<ncv<=n, ncv=%d" % ncv)
    maxiter = n * 10 if maxiter is None else int(maxiter)
    device = _util.device_of(v0, A, op)
    with _cunp.Device(device), _cunp.errstate(divide="ignore", invalid="ignore"):
        w, X = _thick_restart(op.matvec, n, k, which, v0, ncv, maxiter, float(tol), dtype,
                              _numpy.random.default_rng(rng), return_eigenvectors)
    return (w, X) if return_eigenvectors else w


def _thick_restart(matvec, n, k, which, v0, ncv, maxiter, tol, dtype, rng, vectors):
    eps = float(_numpy.finfo(dtype).eps)
    tol = tol if tol > 0 else eps
    eps23 = eps ** (2.0 / 3.0)
    lz = _Lanczos(matvec, n, ncv, dtype, rng)
    if v0 is None:
        lz.V[0] = lz.random_vector(0)
    else:
        v = _cunp.asarray(v0).astype(dtype).reshape(n)
        lz.V[0] = v / _cunp.linalg.norm(v)
    # Note: a restart keeps the k wanted Ritz vectors and half of the others, at most ncv - 2,
    # so that every cycle adds at least two Lanczos vectors.
    nkeep_max = max(k, min(k + (ncv - k) // 2, ncv - 2))
    nkeep = 0
    theta_keep = coupling = _numpy.zeros(0)
    rdt = _util.real_dtype(dtype)
    for cycle in range(maxiter):
        alpha, beta = lz.expand(nkeep, ncv)
        theta, S = _numpy.linalg.eigh(_projected(alpha, beta, theta_keep, coupling, ncv))
        beta_m = 0.0 if ncv == n else float(beta[ncv - 1])   # ncv == n: the Ritz pairs are exact
        resid = beta_m * _numpy.abs(S[ncv - 1, :])
        order = _order(theta, which)
        want = order[:k]
        converged = resid[want] <= tol * _numpy.maximum(eps23, _numpy.abs(theta[want]))
        if converged.all() or cycle == maxiter - 1:
            break
        keep = order[:nkeep_max]
        Y = _cunp.asarray(S[:, keep].T.astype(dtype)) @ lz.V[:ncv]
        nkeep = len(keep)
        lz.V[nkeep] = lz.V[ncv]
        lz.V[:nkeep] = Y
        theta_keep, coupling = theta[keep], beta_m * S[ncv - 1, keep]
    ok = want[converged] if not converged.all() else want
    sel = ok[_numpy.argsort(theta[ok], kind="stable")]
    w = _cunp.asarray(theta[sel].astype(rdt))
    X = None
    if vectors or not converged.all():
        X = (_cunp.asarray(S[:, sel].T.astype(dtype)) @ lz.V[:ncv]).T.copy()
    if not converged.all():
        raise ArpackNoConvergence("No convergence (%d iterations, %d/%d eigenvectors converged)"
                                  % (maxiter, len(ok), k), w, X)
    return w, X


def svds(A, k=6, ncv=None, tol=0, which="LM", v0=None, maxiter=None, return_singular_vectors=True,
         solver="arpack", rng=None, options=None, *, random_state=None):
    """k singular values (ascending) and vectors of A (scipy.sparse.linalg.svds; which:
    'LM' largest, 'SM' smallest). Returns (u, s, vh), or s, or (u, s, None) /
    (None, s, vh) for return_singular_vectors 'u' / 'vh'. Every `solver` runs the
    Lanczos iteration of eigsh on A^H A or A A^H."""
    if which not in ("LM", "SM"):
        raise ValueError("`which` must be in {'SM', 'LM'}.")
    if solver not in ("arpack", "propack", "lobpcg"):
        raise ValueError("solver must be one of {'arpack', 'propack', 'lobpcg'}.")
    if return_singular_vectors not in (True, False, "u", "vh"):
        raise ValueError("`return_singular_vectors` must be True, False, 'u', or 'vh'.")
    op = aslinearoperator(A)
    m, n = op.shape
    if not isinstance(k, (int, _numpy.integer)) or isinstance(k, bool) or not 0 < k < min(m, n):
        raise ValueError("`k` must be an integer satisfying `0 < k < min(A.shape)`.")
    dtype = _util.float_dtype(op.dtype)
    if op.dtype is not None and op.dtype.char not in "fdFD":
        raise ValueError("`A` must be of floating or complex floating data type.")
    transpose = m < n   # eigsh on the smaller of A^H A (n x n) and A A^H (m x m)
    small = m if transpose else n
    if v0 is not None:
        v0 = _cunp.asarray(v0)
        if v0.shape != (small,):
            raise ValueError("`v0` must have shape %s." % ((small,),))
    if transpose:
        gram = LinearOperator((m, m), matvec=lambda x: op.matvec(op.rmatvec(x)), dtype=dtype)
    else:
        gram = LinearOperator((n, n), matvec=lambda x: op.rmatvec(op.matvec(x)), dtype=dtype)
    ewhich = "LA" if which == "LM" else "SA"
    seed = rng if rng is not None else random_state
    with _cunp.Device(_util.device_of(v0, A, op)):
        return _svds(op, gram, transpose, k, ncv, tol, ewhich, v0, maxiter, seed, return_singular_vectors)


def _svds(op, gram, transpose, k, ncv, tol, ewhich, v0, maxiter, seed, return_singular_vectors):
    lam, Q = eigsh(gram, k=k, ncv=ncv, tol=tol, which=ewhich, v0=v0, maxiter=maxiter, rng=seed)
    # thin SVD of A Q (or A^H Q): exact triplets of the projected problem
    P = op.rmatmat(Q) if transpose else op.matmat(Q)
    U2, s, W2h = _cunp.linalg.svd(P, full_matrices=False)
    rev = _cunp.arange(k - 1, -1, -1)  # ascending, as SciPy returns them
    s = s[rev]
    if not return_singular_vectors:
        return s
    U2 = U2[:, rev]
    other = Q @ W2h.conj().T[:, rev]   # the singular vectors of the side eigsh worked on
    if transpose:
        u, vh = other, U2.conj().T
    else:
        u, vh = U2, other.conj().T
    if return_singular_vectors == "u":
        return u, s, None
    if return_singular_vectors == "vh":
        return None, s, vh
    return u, s, vh

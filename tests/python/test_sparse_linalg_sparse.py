"""cunpx.scipy.sparse.linalg with cunpx's own sparse matrices (csr_matrix built from
device arrays) against scipy.sparse.linalg on the same SciPy matrices, on every device:
the solvers, eigsh/svds, norm, expm_multiply and the direct solvers."""
import numpy
import pytest
import scipy.sparse
import scipy.sparse.linalg as ssl

import cunp
import cunpx.scipy.sparse.linalg as sla

try:
    from cunpx.scipy.sparse import csr_matrix
except ImportError:
    csr_matrix = None

pytestmark = pytest.mark.skipif(csr_matrix is None, reason="needs cunpx.scipy.sparse")


def _close(got, want, rtol, atol=0.0):
    assert isinstance(got, cunp.ndarray), type(got)
    assert got.shape == numpy.shape(want), (got.shape, numpy.shape(want))
    numpy.testing.assert_allclose(got.get(), want, rtol=rtol, atol=atol)


def to_device(h):
    """A cunpx csr_matrix with the arrays of the SciPy matrix h."""
    h = scipy.sparse.csr_matrix(h)
    return csr_matrix((cunp.asarray(h.data), cunp.asarray(h.indices), cunp.asarray(h.indptr)), shape=h.shape)


def poisson2d(m, dtype=numpy.float64):
    T = scipy.sparse.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(m, m))
    eye = scipy.sparse.identity(m)
    return (scipy.sparse.kron(eye, T) + scipy.sparse.kron(T, eye)).tocsr().astype(dtype)


def convection(m, dtype=numpy.float64):
    n = m * m
    A = poisson2d(m) + 0.6 * (scipy.sparse.identity(n) - scipy.sparse.eye(n, k=-1))
    return A.tocsr().astype(dtype)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex128], ids=lambda d: numpy.dtype(d).name)
def test_iterative_solvers(device, dtype, rng):
    rt = 1e-3 if dtype == numpy.float32 else 1e-7
    tol = 1e-6 if dtype == numpy.float32 else 1e-10
    b = rng.standard_normal(64).astype(dtype)
    for name, h in (("cg", poisson2d(8, dtype)), ("minres", poisson2d(8, dtype)), ("gmres", convection(8, dtype)),
                    ("bicgstab", convection(8, dtype)), ("cgs", convection(8, dtype)), ("bicg", convection(8, dtype))):
        if name == "minres" and dtype == numpy.complex128:
            continue   # SciPy's minres is for real matrices
        x, info = getattr(sla, name)(to_device(h), cunp.asarray(b), rtol=tol)
        xs, infos = getattr(ssl, name)(h, b, rtol=tol)
        assert info == infos == 0, name
        _close(x, xs.astype(dtype), rt, rt)


def test_least_squares(device, rng):
    h = scipy.sparse.random(50, 20, density=0.2, random_state=4, format="csr") + scipy.sparse.eye(50, 20)
    b = rng.standard_normal(50)
    for name in ("lsqr", "lsmr"):
        r = getattr(sla, name)(to_device(h), cunp.asarray(b), atol=1e-12, btol=1e-12)
        rs = getattr(ssl, name)(h, b, atol=1e-12, btol=1e-12)
        assert r[1] == rs[1] and r[2] == rs[2]
        _close(r[0], rs[0], 1e-8, 1e-10)


def test_linear_operator_of_a_sparse_matrix(device, rng):
    h = (scipy.sparse.random(6, 4, density=0.5, random_state=2, format="csr")
         + 1j * scipy.sparse.random(6, 4, density=0.5, random_state=3, format="csr")).tocsr()
    op = sla.aslinearoperator(to_device(h))
    x, y = rng.standard_normal(4), rng.standard_normal(6)
    _close(op.matvec(cunp.asarray(x)), h @ x, 1e-12)
    _close(op.rmatvec(cunp.asarray(y)), h.conj().T @ y, 1e-12)
    _close(op.T.matvec(cunp.asarray(y)), h.T @ y, 1e-12)
    _close(op.matmat(cunp.asarray(numpy.eye(4))), h.toarray(), 1e-12)


def test_eigsh_and_svds(device):
    h = (poisson2d(10) + scipy.sparse.diags(numpy.linspace(0, 0.5, 100))).tocsr()
    ref = numpy.linalg.eigvalsh(h.toarray())
    w, v = sla.eigsh(to_device(h), k=4, which="LA")
    _close(w, ref[-4:], 1e-9)
    _close(sla.eigsh(to_device(h), k=3, which="SA", return_eigenvectors=False), ref[:3], 1e-9)
    r = scipy.sparse.random(40, 25, density=0.2, random_state=6, format="csr")
    u, s, vh = sla.svds(to_device(r), k=3)
    _close(s, numpy.linalg.svd(r.toarray(), compute_uv=False)[:3][::-1], 1e-9)
    us, ss, vhs = ssl.svds(r, k=3)
    numpy.testing.assert_allclose((u.get() * s.get()) @ vh.get(), (us * ss) @ vhs, atol=1e-9)


def test_norm(device):
    h = scipy.sparse.random(7, 5, density=0.4, random_state=5, format="csr") * 10 - scipy.sparse.eye(7, 5)
    h = h.tocsr()
    d = to_device(h)
    for ord in (None, "fro", 1, -1, numpy.inf, -numpy.inf):
        numpy.testing.assert_allclose(float(sla.norm(d, ord=ord)), ssl.norm(h, ord=ord), rtol=1e-12)
    for ord in (None, 1, 0, numpy.inf, -numpy.inf, 3):
        for axis in (0, 1):
            _close(sla.norm(d, ord=ord, axis=axis), numpy.asarray(ssl.norm(h, ord=ord, axis=axis)).ravel(), 1e-12)


def test_expm_multiply(device, rng):
    h = (-poisson2d(5) + 0.3 * scipy.sparse.eye(25, k=1)).tocsr()
    B = rng.standard_normal((25, 2))
    _close(sla.expm_multiply(to_device(h), cunp.asarray(B)), ssl.expm_multiply(h, B), 1e-10, 1e-12)
    got = sla.expm_multiply(to_device(h), cunp.asarray(B[:, 0]), start=0, stop=1, num=3)
    _close(got, ssl.expm_multiply(h, B[:, 0], start=0, stop=1, num=3), 1e-10, 1e-12)


def test_direct_solvers(device, rng):
    h = convection(6)
    b = rng.standard_normal(36)
    _close(sla.spsolve(to_device(h), cunp.asarray(b)), ssl.spsolve(h, b), 1e-10, 1e-12)
    B = rng.standard_normal((36, 2))
    _close(sla.spsolve(to_device(h), cunp.asarray(B)), ssl.spsolve(h, B), 1e-10, 1e-12)
    for lower in (True, False):
        t = scipy.sparse.tril(h, format="csr") if lower else scipy.sparse.triu(h, format="csr")
        _close(sla.spsolve_triangular(to_device(t), cunp.asarray(b), lower=lower),
               ssl.spsolve_triangular(t, b, lower=lower), 1e-10, 1e-12)
    lu = sla.splu(to_device(h))
    for trans in ("N", "T", "H"):
        _close(lu.solve(cunp.asarray(b), trans=trans), ssl.splu(h.tocsc()).solve(b, trans=trans), 1e-10, 1e-12)
    _close(sla.factorized(to_device(h))(cunp.asarray(b)), ssl.spsolve(h, b), 1e-10, 1e-12)

"""Matrix products and cunp.linalg against NumPy (values, dtypes, shapes, errors), with
decompositions also checked by their defining properties."""
import numpy
import pytest

import cunp
from cunp import _linalg_top as top  # cunp.matmul etc. once cunp/__init__.py imports it
from helpers import numpy_cunp_equal, random_array

FLOATS = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]
TOL = {numpy.dtype(numpy.float16): 1e-2, numpy.dtype(numpy.float32): 1e-4, numpy.dtype(numpy.complex64): 1e-4,
       numpy.dtype(numpy.float64): 1e-10, numpy.dtype(numpy.complex128): 1e-10}


def close(actual, expected, dtype=None, check_dtype=True):
    expected = numpy.asarray(expected)
    assert isinstance(actual, cunp.ndarray)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    if check_dtype:
        assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    tol = TOL.get(numpy.dtype(dtype or expected.dtype), 0)
    scale = max(1.0, float(numpy.abs(expected).max())) if expected.size else 1.0
    numpy.testing.assert_allclose(actual.get(), expected, rtol=tol, atol=tol * scale)


def rand(shape, dtype, rng, low=-3, high=3):
    return random_array(shape, dtype, rng, low, high)


@pytest.mark.parametrize("dtype", [numpy.float16] + FLOATS)
@pytest.mark.parametrize("sa,sb", [((3, 4), (4, 5)), ((4,), (4, 2)), ((3, 4), (4,)), ((4,), (4,)),
                                   ((2, 3, 4), (4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((0, 3), (3, 2)),
                                   ((3, 0), (0, 2)), ((1, 1), (1, 1))])
def test_matmul(device, dtype, sa, sb, rng):
    a, b = rand(sa, dtype, rng), rand(sb, dtype, rng)
    close(cunp.asarray(a) @ cunp.asarray(b), a @ b)
    close(top.matmul(cunp.asarray(a), cunp.asarray(b)), numpy.matmul(a, b))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("case", ["128^3", "129x128x128", "t_and_slice", "batch", "broadcast_batch", "nan_inf",
                                  "large_tiles", "long_k"])
def test_matmul_small_float_kernel(device, dtype, case, rng):
    """Products up to 2^21 multiply-adds with k <= 1024 run cunp's generated GEMM on CUDA
    devices and larger ones, or longer k, cuBLAS (docs/linalg.md, Note [Small float GEMM],
    Note [Long inner dimension]): both sides of the thresholds, views read through their
    strides, batches, and NaN/inf propagation."""
    if case == "128^3":
        a, b = rand((128, 128), dtype, rng), rand((128, 128), dtype, rng)
    elif case == "long_k":   # few outputs, k past 1024: cuBLAS
        a, b = rand((3, 3000), dtype, rng), rand((3000, 2), dtype, rng)
    elif case == "129x128x128":
        a, b = rand((129, 128), dtype, rng), rand((128, 128), dtype, rng)
    elif case == "t_and_slice":
        ha, hb = rand((30, 24), dtype, rng), rand((60, 33), dtype, rng)
        a, b = ha.T, hb[::2, 1::2]
    elif case == "batch":
        a, b = rand((3, 17, 9), dtype, rng), rand((3, 9, 23), dtype, rng)
    elif case == "broadcast_batch":
        a, b = rand((4, 1, 8, 5), dtype, rng), rand((3, 5, 6), dtype, rng)
    elif case == "large_tiles":  # 140 output tiles of 64 x 64: the large tiling (Note [GEMM tiles])
        a, b = rand((140, 20, 9), dtype, rng), rand((140, 9, 12), dtype, rng)
    else:
        a, b = rand((6, 5), dtype, rng), rand((5, 4), dtype, rng)
        a[1, 2], a[3, 0], b[4, 3] = numpy.nan, numpy.inf, -numpy.inf
    ca, cb = cunp.asarray(a), cunp.asarray(b)
    if case == "t_and_slice":  # a transposed view and a strided slice on the device
        ca, cb = cunp.asarray(ha).T, cunp.asarray(hb)[::2, 1::2]
        assert not ca.flags.c_contiguous and not cb.flags.c_contiguous
    got = ca @ cb
    with numpy.errstate(invalid="ignore"):
        want = a @ b
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(got.get(), want, rtol=TOL[numpy.dtype(dtype)] * 10, atol=TOL[numpy.dtype(dtype)] * 10)


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.int32, numpy.uint16, numpy.int64])
def test_matmul_integer(device, dtype, rng):
    a, b = rand((2, 3, 4), dtype, rng), rand((4, 5), dtype, rng)
    close(cunp.asarray(a) @ cunp.asarray(b), a @ b)


def test_matmul_mixed_dtypes_and_layouts(device, rng):
    a, b = rand((5, 4), numpy.float32, rng), rand((5, 6), numpy.float64, rng)
    close(cunp.asarray(a).T @ cunp.asarray(b), a.T @ b)  # transposed operand, promotion
    c = rand((6, 8), numpy.float64, rng)
    close(cunp.asarray(c)[:, ::2] @ cunp.asarray(c)[::2, ::2].T, c[:, ::2] @ c[::2, ::2].T)
    d = rand((3, 4, 5), numpy.complex64, rng)
    close(top.matmul(cunp.asarray(d).transpose(0, 2, 1), cunp.asarray(d)), d.transpose(0, 2, 1) @ d)


def test_matmul_out_and_inplace(device, rng):
    a, b = rand((3, 3), numpy.float64, rng), rand((3, 3), numpy.float64, rng)
    out = cunp.empty((3, 3), numpy.float64)
    r = top.matmul(cunp.asarray(a), cunp.asarray(b), out=out)
    assert r is out
    close(out, a @ b)
    x = cunp.asarray(a.copy())
    x @= cunp.asarray(b)
    close(x, a @ b)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128, numpy.int32])
def test_matmul_out_forms(device, dtype, rng):
    # out= written directly (C-contiguous, the result's dtype), cast into (another dtype),
    # through a strided view, aliasing an operand, batched, and from 1-D operands.
    a, b = rand((2, 4, 3), dtype, rng), rand((3, 5), dtype, rng)
    expect = a @ b
    out = cunp.zeros((2, 4, 5), dtype)
    assert top.matmul(cunp.asarray(a), cunp.asarray(b), out=out) is out
    close(out, expect)
    out64 = cunp.zeros((2, 4, 5), numpy.complex128)
    top.matmul(cunp.asarray(a), cunp.asarray(b), out=out64)
    close(out64, expect.astype(numpy.complex128), dtype=dtype)  # computed in dtype, then cast
    big = cunp.zeros((2, 4, 10), dtype)
    view = big[:, :, ::2]
    assert top.matmul(cunp.asarray(a), cunp.asarray(b), out=view) is view
    close(big[:, :, ::2], expect)
    close(big[:, :, 1::2], numpy.zeros((2, 4, 5), dtype))
    sq, m = rand((4, 4), dtype, rng), rand((4, 4), dtype, rng)
    x = cunp.array(sq)  # copies: on cpu, asarray may share NumPy's buffer
    top.matmul(x, cunp.array(m), out=x)  # out is operand 0
    close(x, sq @ m)
    y = cunp.array(m)
    top.matmul(cunp.array(sq), y, out=y)  # out is operand 1
    close(y, sq @ m)
    z = cunp.array(sq)
    z @= z
    close(z, sq @ sq)
    t = cunp.array(sq)
    top.matmul(t.T, cunp.array(m), out=t)  # out overlaps a transposed view of operand 0
    close(t, sq.T @ m)
    v = rand((4,), dtype, rng)
    outv = cunp.zeros((4,), dtype)
    assert top.matmul(cunp.asarray(sq), cunp.asarray(v), out=outv) is outv
    close(outv, sq @ v)
    with pytest.raises(ValueError, match=r"Output operand 0 has a mismatch in its core dimension 1, .*\(size 5 is "
                                         r"different from 4\)"):  # NumPy's message
        top.matmul(cunp.asarray(sq), cunp.asarray(m), out=cunp.zeros((4, 5), dtype))
    with pytest.raises(ValueError):
        x @= cunp.array(rand((4, 2), dtype, rng))
    close(cunp.asarray(sq) @ m.tolist(), sq @ numpy.array(m.tolist()))  # reflected and foreign operands
    close(sq.tolist() @ cunp.asarray(m), numpy.array(sq.tolist()) @ m)


def test_matmul_errors(device):
    with pytest.raises(ValueError):
        cunp.asarray(numpy.ones((2, 3))) @ cunp.asarray(numpy.ones((2, 3)))
    with pytest.raises(ValueError):
        top.matmul(cunp.asarray(numpy.float64(1.0)), cunp.asarray(numpy.ones(2)))
    with pytest.raises(ValueError):
        cunp.asarray(numpy.ones((2, 2, 2))) @ cunp.asarray(numpy.ones((3, 2, 2)))


@pytest.mark.parametrize("dtype", FLOATS + [numpy.int64])
def test_products(device, dtype, rng):
    a, b = rand((2, 3, 4), dtype, rng), rand((5, 4, 2), dtype, rng)
    v, w = rand((4,), dtype, rng), rand((4,), dtype, rng)
    close(top.dot(cunp.asarray(a), cunp.asarray(b)), numpy.dot(a, b))
    close(top.dot(cunp.asarray(v), cunp.asarray(w)), numpy.dot(v, w))
    close(top.dot(cunp.asarray(a), cunp.asarray(v)), numpy.dot(a, v))
    close(top.dot(cunp.asarray(v), cunp.asarray(b)), numpy.dot(v, b))
    close(cunp.asarray(a).dot(cunp.asarray(b)), a.dot(b))
    close(top.vdot(cunp.asarray(v), cunp.asarray(w)), numpy.vdot(v, w))
    close(top.inner(cunp.asarray(a), cunp.asarray(b[:, :, 0])), numpy.inner(a, b[:, :, 0]))
    close(top.outer(cunp.asarray(v), cunp.asarray(w)), numpy.outer(v, w))
    t = rand((4, 3, 5), dtype, rng)
    close(top.tensordot(cunp.asarray(a), cunp.asarray(t), axes=([1, 2], [1, 0])),
          numpy.tensordot(a, t, axes=([1, 2], [1, 0])))
    c = rand((3, 4, 5), dtype, rng)
    close(top.tensordot(cunp.asarray(a), cunp.asarray(c), axes=2), numpy.tensordot(a, c, axes=2))
    close(top.tensordot(cunp.asarray(a), cunp.asarray(c), axes=0), numpy.tensordot(a, c, axes=0))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128, numpy.int32, numpy.bool_, numpy.uint8])
def test_trace(device, dtype, rng):
    a = rand((3, 4, 5), dtype, rng)
    for kw in [{}, {"offset": 1}, {"offset": -2, "axis1": 1, "axis2": 2}, {"offset": 9}]:
        close(top.trace(cunp.asarray(a), **kw), numpy.trace(a, **kw))
    close(cunp.asarray(a).trace(), a.trace())


def spd(shape, dtype, rng):
    x = rand(shape, dtype, rng)
    n = shape[-1]
    return (x @ numpy.conj(numpy.swapaxes(x, -1, -2)) + n * numpy.eye(n)).astype(dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3), (1, 1), (0, 0), (2, 0, 0)])
def test_solve_inv_det(device, dtype, shape, rng):
    a = spd(shape, dtype, rng)
    b = rand(shape[:-1] + (2,), dtype, rng)
    close(cunp.linalg.solve(cunp.asarray(a), cunp.asarray(b)), numpy.linalg.solve(a, b))
    close(cunp.linalg.inv(cunp.asarray(a)), numpy.linalg.inv(a))
    close(cunp.linalg.det(cunp.asarray(a)), numpy.linalg.det(a))
    s, l = cunp.linalg.slogdet(cunp.asarray(a))
    es, el = numpy.linalg.slogdet(a)
    close(s, es)
    close(l, el)


def test_solve_vector_and_int(device, rng):
    a = spd((3, 3), numpy.float64, rng)
    b = rand((3,), numpy.float64, rng)
    close(cunp.linalg.solve(cunp.asarray(a), cunp.asarray(b)), numpy.linalg.solve(a, b))
    ai = numpy.array([[2, 1], [1, 3]])
    close(cunp.linalg.inv(cunp.asarray(ai)), numpy.linalg.inv(ai))
    close(cunp.linalg.det(cunp.asarray(ai.T)), numpy.linalg.det(ai.T))


def test_singular_errors(device):
    s = cunp.asarray(numpy.array([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.inv(s)
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.solve(s, cunp.asarray(numpy.ones(2)))
    close(cunp.linalg.det(s), numpy.linalg.det(s.get()))
    sign, logdet = cunp.linalg.slogdet(s)
    assert sign.get() == 0 and logdet.get() == -numpy.inf
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.cholesky(cunp.asarray(numpy.array([[1.0, 2.0], [2.0, 1.0]])))
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.inv(cunp.asarray(numpy.ones((2, 3))))
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.det(cunp.asarray(numpy.ones(3)))
    with pytest.raises(TypeError):
        cunp.linalg.inv(cunp.asarray(numpy.eye(2, dtype=numpy.float16)))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3), (1, 1)])
def test_cholesky(device, dtype, shape, rng):
    a = spd(shape, dtype, rng)
    close(cunp.linalg.cholesky(cunp.asarray(a)), numpy.linalg.cholesky(a))
    close(cunp.linalg.cholesky(cunp.asarray(a), upper=True), numpy.linalg.cholesky(a, upper=True))


def eye_like(n, dtype):
    return numpy.eye(n, dtype=dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (2, 3, 2), (1, 1)])
def test_qr(device, dtype, shape, rng):
    a = rand(shape, dtype, rng)
    for mode in ("reduced", "complete"):
        q, r = cunp.linalg.qr(cunp.asarray(a), mode=mode)
        eq, er = numpy.linalg.qr(a, mode=mode)
        assert q.shape == eq.shape and r.shape == er.shape and q.dtype == eq.dtype
        qh, rh = q.get(), r.get()
        close(cunp.asarray(qh @ rh), a)
        close(cunp.asarray(numpy.conj(numpy.swapaxes(qh, -1, -2)) @ qh), numpy.broadcast_to(eye_like(qh.shape[-1], dtype), qh.shape[:-2] + (qh.shape[-1],) * 2))
        assert numpy.allclose(numpy.tril(rh, -1), 0)
    r = cunp.linalg.qr(cunp.asarray(a), mode="r")
    assert r.shape == numpy.linalg.qr(a, mode="r").shape


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (2, 2, 3), (1, 1), (0, 3)])
def test_svd(device, dtype, shape, rng):
    a = rand(shape, dtype, rng)
    close(cunp.linalg.svd(cunp.asarray(a), compute_uv=False), numpy.linalg.svd(a, compute_uv=False))
    for full in (True, False):
        u, s, vh = cunp.linalg.svd(cunp.asarray(a), full_matrices=full)
        eu, es, evh = numpy.linalg.svd(a, full_matrices=full)
        assert (u.shape, s.shape, vh.shape) == (eu.shape, es.shape, evh.shape)
        assert u.dtype == eu.dtype and s.dtype == es.dtype
        k = s.shape[-1]
        uh, vhh = u.get(), vh.get()
        close(cunp.asarray((uh[..., :, :k] * s.get()[..., None, :]) @ vhh[..., :k, :]), a)


SVD_DRIVERS = ["gesvd", "gesvdj", "gesvdp", "gesvdp64"]


@pytest.fixture(params=SVD_DRIVERS)
def svd_driver(request):
    """Forces one cuSOLVER svd routine for the test (the cpu device always runs gesvd)."""
    cunp.linalg._set_svd_driver(request.param)
    try:
        yield request.param
    finally:
        cunp.linalg._set_svd_driver("auto")


def check_svd(a, u, s, vh, full, rank=None):
    """u, s, vh (cunp) against a (NumPy): NumPy's shapes and dtypes, S descending and
    equal to NumPy's, A = U S Vh, and orthonormal columns of U and rows of Vh (the
    first `rank` of them only when given)."""
    eu, es, evh = numpy.linalg.svd(a, full_matrices=full)
    assert (u.shape, s.shape, vh.shape) == (eu.shape, es.shape, evh.shape)
    assert (u.dtype, s.dtype, vh.dtype) == (eu.dtype, es.dtype, evh.dtype)
    close(s, es)
    uh, sh, vhh = u.get(), s.get(), vh.get()
    assert numpy.all(numpy.diff(sh, axis=-1) <= TOL[numpy.dtype(a.dtype)] * max(1.0, float(numpy.abs(es).max())))
    k = sh.shape[-1]
    close(cunp.asarray((uh[..., :, :k] * sh[..., None, :]) @ vhh[..., :k, :]), a)
    uc = uh if rank is None else uh[..., :, :rank]
    vr = vhh if rank is None else vhh[..., :rank, :]
    close(cunp.asarray(numpy.conj(numpy.swapaxes(uc, -1, -2)) @ uc),
          numpy.broadcast_to(numpy.eye(uc.shape[-1], dtype=a.dtype), uc.shape[:-2] + (uc.shape[-1],) * 2))
    close(cunp.asarray(vr @ numpy.conj(numpy.swapaxes(vr, -1, -2))),
          numpy.broadcast_to(numpy.eye(vr.shape[-2], dtype=a.dtype), vr.shape[:-2] + (vr.shape[-2],) * 2))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (3, 5, 5), (2, 3, 2), (1, 1), (40, 33), (33, 70)])
def test_svd_drivers(device, svd_driver, dtype, shape, rng):
    a = rand(shape, dtype, rng)
    close(cunp.linalg.svd(cunp.asarray(a), compute_uv=False), numpy.linalg.svd(a, compute_uv=False))
    for full in (True, False):
        u, s, vh = cunp.linalg.svd(cunp.asarray(a), full_matrices=full)
        check_svd(a, u, s, vh, full)
    assert cunp.linalg._svd_driver() == svd_driver


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128])
def test_svd_drivers_rank_deficient(device, svd_driver, dtype, rng):
    # rank 3 of 8 x 6. gesvdp (docs/linalg.md, Note [SVD drivers]) is as accurate as its
    # error estimate says on such a matrix (1e-3 in float32 on the H200), and its singular
    # vectors of zero singular values need not be orthonormal: under it S and U S Vh are
    # checked against that estimate; gesvd and gesvdj get the full check.
    a = (rand((8, 3), dtype, rng) @ rand((3, 6), dtype, rng)).astype(dtype)
    for full in (True, False):
        u, s, vh = cunp.linalg.svd(cunp.asarray(a), full_matrices=full)
        if svd_driver != "gesvdp" or device == "cpu":
            check_svd(a, u, s, vh, full)
            continue
        est = cunp.linalg._svd_error_estimate()
        es = numpy.linalg.svd(a, compute_uv=False)
        atol = 4 * est + TOL[numpy.dtype(dtype)] * float(es[0])
        numpy.testing.assert_allclose(s.get(), es, rtol=0, atol=atol)
        uh, vhh = u.get(), vh.get()
        numpy.testing.assert_allclose((uh[:, :6] * s.get()) @ vhh[:6, :], a, rtol=0, atol=atol)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex64, numpy.float64])
@pytest.mark.parametrize("rank", [None, 60])
def test_svd_auto_accuracy(device, dtype, rank, rng):
    """'auto' svd of a 300 x 200 matrix (full rank, or rank 60) is as accurate as its
    precision allows: singular values within 50 eps of the largest against NumPy's
    float64/complex128 SVD, and U S Vh within the same of A."""
    a = rand((300, 200), dtype, rng)
    if rank:
        a = (rand((300, rank), dtype, rng) @ rand((rank, 200), dtype, rng)).astype(dtype)
    wide = numpy.complex128 if numpy.iscomplexobj(a) else numpy.float64
    es = numpy.linalg.svd(a.astype(wide), compute_uv=False)
    eps = numpy.finfo(dtype).eps
    u, s, vh = cunp.linalg.svd(cunp.asarray(a), full_matrices=False)
    assert s.dtype == numpy.finfo(dtype).dtype and u.dtype == dtype
    sh = s.get().astype(numpy.float64)
    assert numpy.max(numpy.abs(sh - es)) <= 50 * eps * es[0]
    rec = (u.get().astype(wide) * sh) @ vh.get().astype(wide)
    assert numpy.max(numpy.abs(rec - a)) <= 50 * eps * es[0]


def test_svd_driver_rule(monkeypatch):
    monkeypatch.delenv("CUNP_SVD_DRIVER", raising=False)
    assert cunp.linalg._svd_driver() == "auto"
    rule = cunp.linalg._svd_driver_for
    # 'auto': gesvdj up to max(m, n) = 32, gesvdp in float64 with its error estimate
    # checked above (src/linalg/decompositions.cpp, Note [SVD drivers]).
    assert [rule(8, 8), rule(32, 30), rule(64, 30), rule(2048, 2048), rule(512, 1024), rule(4097, 16),
            rule(10000, 10000)] == ["gesvdj"] * 2 + ["gesvdp64"] * 5
    monkeypatch.setenv("CUNP_SVD_DRIVER", "gesvdj")
    assert rule(2048, 2048) == "gesvdj"
    cunp.linalg._set_svd_driver("gesvd")  # the forced driver wins over the variable
    try:
        assert rule(2048, 2048) == "gesvd" and rule(8, 8) == "gesvd"
    finally:
        cunp.linalg._set_svd_driver("auto")
    monkeypatch.setenv("CUNP_SVD_DRIVER", "qr")
    with pytest.raises(ValueError, match="CUNP_SVD_DRIVER"):
        rule(8, 8)
    with pytest.raises(ValueError, match="svd driver"):
        cunp.linalg._set_svd_driver("jacobi")
    assert cunp.linalg._svd_driver() == "auto"


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(device, dtype, uplo, rng):
    a = spd((2, 4, 4), dtype, rng)
    w, v = cunp.linalg.eigh(cunp.asarray(a), UPLO=uplo)
    ew, _ = numpy.linalg.eigh(a, UPLO=uplo)
    close(w, ew)
    close(cunp.linalg.eigvalsh(cunp.asarray(a), UPLO=uplo), numpy.linalg.eigvalsh(a, UPLO=uplo))
    vh = v.get()
    close(cunp.asarray(a @ vh), vh * w.get()[..., None, :], dtype=dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_eig(device, dtype, rng):
    a = rand((2, 4, 4), dtype, rng)
    w, v = cunp.linalg.eig(cunp.asarray(a))
    ew = numpy.linalg.eigvals(a)
    assert w.dtype == ew.dtype
    wh, vh = w.get(), v.get()
    tol = TOL[numpy.dtype(dtype)] * 100
    numpy.testing.assert_allclose(a @ vh, vh * wh[..., None, :], rtol=tol, atol=tol * 10)
    got = cunp.linalg.eigvals(cunp.asarray(a)).get()
    for g, e in zip(got, ew):
        assert all(numpy.abs(g - x).min() < tol * 10 for x in e)
    sym = numpy.array([[2.0, 1.0], [1.0, 2.0]])
    # float64 up to NumPy 2.4, complex128 from 2.5 (always complex): the installed NumPy's rule
    assert cunp.linalg.eigvals(cunp.asarray(sym)).dtype == numpy.linalg.eigvals(sym).dtype


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex64])
def test_norm(device, dtype, rng):
    x = rand((3, 4, 5), dtype, rng)
    cx = cunp.asarray(x)
    close(cunp.linalg.norm(cx), numpy.linalg.norm(x))
    close(cunp.linalg.norm(cx, keepdims=True), numpy.linalg.norm(x, keepdims=True))
    for ord in (None, 1, 2, numpy.inf, -numpy.inf, 0, 3):
        close(cunp.linalg.norm(cx, ord=ord, axis=1), numpy.linalg.norm(x, ord=ord, axis=1))
    for ord in (None, "fro", "nuc", 1, -1, 2, -2, numpy.inf, -numpy.inf):
        close(cunp.linalg.norm(cx, ord=ord, axis=(2, 0)), numpy.linalg.norm(x, ord=ord, axis=(2, 0)))
        close(cunp.linalg.norm(cx, ord=ord, axis=(1, 2), keepdims=True),
              numpy.linalg.norm(x, ord=ord, axis=(1, 2), keepdims=True))
    with pytest.raises(ValueError):
        cunp.linalg.norm(cx, ord=1)


def test_matrix_power_rank_pinv_lstsq(device, rng):
    a = rand((2, 3, 3), numpy.float64, rng)
    for n in (0, 1, 2, 5, -1, -3):
        close(cunp.linalg.matrix_power(cunp.asarray(a), n), numpy.linalg.matrix_power(a, n))
    low = rand((5, 2), numpy.float64, rng) @ rand((2, 4), numpy.float64, rng)
    assert int(cunp.linalg.matrix_rank(cunp.asarray(low)).get()) == numpy.linalg.matrix_rank(low)
    close(cunp.linalg.pinv(cunp.asarray(low)), numpy.linalg.pinv(low))
    tall = rand((6, 3), numpy.float64, rng)
    b = rand((6,), numpy.float64, rng)
    x, res, rank, s = cunp.linalg.lstsq(cunp.asarray(tall), cunp.asarray(b))
    ex, eres, erank, es = numpy.linalg.lstsq(tall, b)
    close(x, ex)
    close(res, eres)
    assert rank == erank
    close(s, es)


# ---- integer/bool matmul (a generated kernel on CUDA devices) and trace

@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32,
                                   numpy.uint32, numpy.int64, numpy.uint64])
def test_matmul_integer_tiles_and_layouts(device, dtype, rng):
    # Several output tiles, k past one 16-wide slice, a broadcast batch, a transposed
    # and a reversed operand.
    a = rand((3, 70, 37), dtype, rng, 0, 100)
    b = rand((37, 130), dtype, rng, 0, 100)
    close(cunp.asarray(a) @ cunp.asarray(b), a @ b)
    close(top.matmul(cunp.asarray(b).T, cunp.asarray(a).transpose(0, 2, 1)[:, ::-1]),
          numpy.matmul(b.T, a.transpose(0, 2, 1)[:, ::-1]))
    v = rand((37,), dtype, rng, 0, 100)
    close(top.dot(cunp.asarray(a), cunp.asarray(v)), numpy.dot(a, v))
    close(top.matmul(cunp.asarray(v), cunp.asarray(b)), numpy.matmul(v, b))
    # 140 x 2 x 2 output tiles of 64 x 64, partial ones included: enough to take the
    # large tiling on CUDA devices (the cases above take the small one, Note [GEMM tiles]).
    c = rand((140, 66, 17), dtype, rng, 0, 100)
    d = rand((17, 70), dtype, rng, 0, 100)
    close(cunp.asarray(c) @ cunp.asarray(d), c @ d)


def test_matmul_integer_wraps_and_mixed(device):
    a = numpy.full((2, 300), 100, numpy.int8)
    close(cunp.asarray(a) @ cunp.asarray(a.T), a @ a.T)  # 300 * 10000 wraps in int8
    big = numpy.full((1, 3), 2 ** 62, numpy.int64)
    close(cunp.asarray(big) @ cunp.asarray(numpy.full((3, 1), 3, numpy.int64)), big @ numpy.full((3, 1), 3, numpy.int64))
    x, y = numpy.arange(6, dtype=numpy.int8).reshape(2, 3), numpy.arange(6, dtype=numpy.uint16).reshape(3, 2)
    close(cunp.asarray(x) @ cunp.asarray(y), x @ y)  # promotes to int32
    bx = numpy.array([[True, False], [False, False]])
    close(cunp.asarray(bx) @ cunp.asarray(bx), bx @ bx)
    empty_k = numpy.zeros((2, 0), numpy.int32)
    close(cunp.asarray(empty_k) @ cunp.asarray(numpy.zeros((0, 3), numpy.int32)), empty_k @ numpy.zeros((0, 3), numpy.int32))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.int64, numpy.uint32, numpy.bool_, numpy.float16])
def test_trace_dtypes(device, dtype, rng):
    a = rand((4, 5, 3), dtype, rng)
    for kw in [{}, {"dtype": numpy.int8}, {"axis1": 2, "axis2": 0, "offset": 1}]:
        if dtype == numpy.float16 and "dtype" in kw:
            continue
        close(top.trace(cunp.asarray(a), **kw), numpy.trace(a, **kw), dtype=numpy.float16 if dtype == numpy.float16 else None)


# ---- einsum

EINSUM_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk", [(2, 3), (3, 4)]), ("ii", [(3, 3)]), ("ii->i", [(3, 3)]),
    ("ij->ji", [(2, 3)]), ("ij->", [(2, 3)]), ("i,i", [(4,), (4,)]), ("i,j", [(4,), (3,)]), ("i,i->i", [(4,), (4,)]),
    ("...ij,...jk->...ik", [(5, 2, 3), (5, 3, 4)]), ("...ij,...jk", [(5, 2, 3), (3, 4)]),
    ("bij,bjk->bik", [(5, 2, 3), (5, 3, 4)]), ("ijk,jil->kl", [(3, 4, 5), (4, 3, 2)]), ("iij->j", [(3, 3, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("a,b,c", [(2,), (3,), (4,)]), ("ij,ij->ij", [(2, 3), (2, 3)]),
    ("ij,jk", [(2, 1), (3, 4)]), ("i...,i...->...", [(3, 2, 2), (3, 2, 2)]), ("...", [(2, 3)]),
    ("Ba,ab", [(2, 3), (3, 2)]), ("ij,jk->ik", [(0, 3), (3, 4)]), ("ij,jk->ik", [(2, 0), (0, 4)]),
    ("ijk,ijk->", [(2, 3, 4), (2, 3, 4)]), ("ijkl,jl->ik", [(2, 3, 4, 5), (3, 5)]),
    ("ij,jk,ik->i", [(2, 3), (3, 4), (2, 4)]), ("i i -> i", [(3, 3)]), ("bii->bi", [(2, 3, 3)]),
]


@pytest.mark.parametrize("subscripts,shapes", EINSUM_CASES)
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex64, numpy.int32])
def test_einsum(device, subscripts, shapes, dtype, rng):
    ops = [rand(s, dtype, rng) for s in shapes]
    close(cunp.einsum(subscripts, *[cunp.asarray(x) for x in ops]), numpy.einsum(subscripts, *ops))


def test_einsum_small_types_out_dtype_and_forms(device, rng):
    i8 = numpy.full(40, 100, numpy.int8)
    close(cunp.einsum("i,i", cunp.asarray(i8), cunp.asarray(numpy.ones(40, numpy.int8))), numpy.einsum("i,i", i8, numpy.ones(40, numpy.int8)))
    close(cunp.einsum("i->", cunp.asarray(i8)), numpy.einsum("i->", i8))
    bx, by = rand((4, 3), numpy.bool_, rng), rand((3, 2), numpy.bool_, rng)
    close(cunp.einsum("ij,jk", cunp.asarray(bx), cunp.asarray(by)), numpy.einsum("ij,jk", bx, by))
    close(cunp.einsum("ij->", cunp.asarray(bx)), numpy.einsum("ij->", bx))
    a, b = rand((2, 3), numpy.float32, rng), rand((3, 4), numpy.float32, rng)
    close(cunp.einsum("ij,jk", cunp.asarray(a), cunp.asarray(b), dtype=numpy.float64),
          numpy.einsum("ij,jk", a, b, dtype=numpy.float64))
    out = cunp.empty((2, 4), numpy.float64)
    r = cunp.einsum("ij,jk", cunp.asarray(a), cunp.asarray(b), out=out)
    assert r is out
    close(out, numpy.einsum("ij,jk", a, b).astype(numpy.float64), dtype=numpy.float32)
    close(cunp.einsum("ij,jk,kl", cunp.asarray(a), cunp.asarray(b), cunp.asarray(b.T), optimize=True),
          numpy.einsum("ij,jk,kl", a, b, b.T, optimize=True))
    close(cunp.einsum(cunp.asarray(a), [0, 1], cunp.asarray(b), [1, 2], [0, 2]), numpy.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    close(cunp.einsum(cunp.asarray(a), [Ellipsis, 1], cunp.asarray(a), [Ellipsis, 1]),
          numpy.einsum(a, [Ellipsis, 1], a, [Ellipsis, 1]))
    close(cunp.einsum("ij->ji", a), numpy.einsum("ij->ji", a))  # a NumPy operand is taken in
    path = cunp.einsum_path("ij,jk,kl", a, b, b.T)
    assert path[0] == numpy.einsum_path("ij,jk,kl", a, b, b.T)[0]
    with pytest.raises(TypeError):
        cunp.einsum("ij,jk", cunp.asarray(a), cunp.asarray(b.astype(numpy.float64)), dtype=numpy.float32)
    b64 = b.astype(numpy.float64)
    close(cunp.einsum("ij,jk", cunp.asarray(a), cunp.asarray(b64), dtype=numpy.float32, casting="same_kind"),
          numpy.einsum("ij,jk", a, b64, dtype=numpy.float32, casting="same_kind"))
    with pytest.raises(ValueError):
        cunp.einsum("ij,jk", cunp.asarray(a), cunp.asarray(b), casting="sometimes")


@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk->ik", [(2, 3)]), ("i1", [(2,)]), ("ij->ii", [(2, 3)]), ("ij->k", [(2, 3)]), ("ii", [(2, 3)]),
    ("ij", [(2, 3, 4)]), ("ijk", [(2, 3)]), ("...i->i", [(2, 3)]), ("i.j", [(2, 3)]), ("i...j...", [(2, 3)]),
    ("ij,jk", [(2, 3), (4, 5)]), ("i-j", [(2, 3)]), ("i,i", [(2,), (2,), (2,)]),
])
@numpy_cunp_equal()
def test_einsum_errors(xp, device, subscripts, shapes):
    return xp.einsum(subscripts, *[xp.ones(s) for s in shapes])


# ---- kron, cross

@pytest.mark.parametrize("sa,sb", [((2, 3), (4, 5)), ((3,), (2, 2)), ((2, 2), (3,)), ((2, 1, 3), (4, 2)), ((), (3,)),
                                   ((0, 2), (2, 2))])
@pytest.mark.parametrize("dtype", [numpy.int16, numpy.float32, numpy.complex128])
def test_kron(device, sa, sb, dtype, rng):
    a, b = rand(sa, dtype, rng), rand(sb, numpy.float32, rng)
    close(cunp.kron(cunp.asarray(a), cunp.asarray(b)), numpy.kron(a, b))


@pytest.mark.parametrize("sa,sb,kw", [((3,), (3,), {}), ((4, 3), (3,), {}), ((5, 3), (1, 3), {}),
                                      ((3, 4), (4, 3), {"axisa": 0}), ((3, 4), (3, 4), {"axis": 0}),
                                      ((4, 3), (4, 3), {"axisc": 0}), ((3, 5), (3, 5), {"axisa": 0, "axisb": 0})])
@pytest.mark.parametrize("dtype", [numpy.int64, numpy.float64, numpy.complex64])
def test_cross(device, sa, sb, kw, dtype, rng):
    a, b = rand(sa, dtype, rng), rand(sb, dtype, rng)
    close(cunp.cross(cunp.asarray(a), cunp.asarray(b), **kw), numpy.cross(a, b, **kw))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("sa,sb,kw", [((4,), (3,), {}), ((3,), (), {}), ((3,), (3,), {"axisc": 2}),
                                      ((2, 3), (2, 3), {"axisa": 3})])
@numpy_cunp_equal()
def test_cross_errors(xp, device, sa, sb, kw):
    return xp.cross(xp.ones(sa), xp.ones(sb), **kw)


@pytest.mark.parametrize("sa,sb,kw", [((2,), (2,), {}), ((5, 2), (5, 3), {}), ((5, 3), (5, 2), {}),
                                      ((2, 5), (2, 5), {"axisa": 0, "axisb": 0})])
def test_cross_two_component_vectors(device, sa, sb, kw):
    # NumPy 2.5 raises for 2-component vectors (2.0-2.4 deprecated them); cunp follows 2.5.
    with pytest.raises(ValueError, match="3-dimensional vectors"):
        cunp.cross(cunp.ones(sa), cunp.ones(sb), **kw)


# ---- numpy.linalg additions

def test_tensorsolve_tensorinv_multi_dot(device, rng):
    a, b = rand((2, 3, 6), numpy.float64, rng), rand((2, 3), numpy.float64, rng)
    close(cunp.linalg.tensorsolve(cunp.asarray(a), cunp.asarray(b)), numpy.linalg.tensorsolve(a, b))
    a2 = rand((6, 2, 3), numpy.float64, rng)
    close(cunp.linalg.tensorsolve(cunp.asarray(a2), cunp.asarray(b), axes=(0,)),
          numpy.linalg.tensorsolve(a2, b, axes=(0,)))
    t = rand((4, 6, 8, 3), numpy.float64, rng)
    close(cunp.linalg.tensorinv(cunp.asarray(t)), numpy.linalg.tensorinv(t))
    t1 = rand((24, 2, 3, 4), numpy.float64, rng)
    close(cunp.linalg.tensorinv(cunp.asarray(t1), ind=1), numpy.linalg.tensorinv(t1, ind=1))
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.tensorinv(cunp.asarray(numpy.ones((2, 3))), ind=1)
    with pytest.raises(ValueError):
        cunp.linalg.tensorinv(cunp.asarray(t), ind=0)
    for shapes in ([(10,), (10, 100), (100, 5), (5, 50), (50,)], [(3, 10), (10, 100), (100, 5), (5, 50)],
                   [(3, 10), (10, 100), (100, 5)], [(2, 3), (3,)]):
        ms = [rand(s, numpy.float64, rng) for s in shapes]
        close(cunp.linalg.multi_dot([cunp.asarray(m) for m in ms]), numpy.linalg.multi_dot(ms))
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.multi_dot([cunp.ones((2, 2)), cunp.ones((2, 2, 2)), cunp.ones((2, 2))])


@pytest.mark.parametrize("dtype", FLOATS)
def test_qr_raw_and_svd_hermitian(device, dtype, rng):
    x = rand((2, 5, 3), dtype, rng)
    h, tau = cunp.linalg.qr(cunp.asarray(x), mode="raw")
    eh, et = numpy.linalg.qr(x, mode="raw")
    assert (h.shape, tau.shape, h.dtype, tau.dtype) == (eh.shape, et.shape, eh.dtype, et.dtype)
    tol = TOL[numpy.dtype(dtype)] * 10
    # R (the upper part of h^T) is unique up to the signs of its rows.
    numpy.testing.assert_allclose(numpy.abs(numpy.triu(numpy.swapaxes(h.get(), -1, -2))[..., :3, :]),
                                  numpy.abs(numpy.triu(numpy.swapaxes(eh, -1, -2))[..., :3, :]), rtol=tol, atol=tol * 10)
    s = spd((2, 4, 4), dtype, rng) - 6 * numpy.eye(4, dtype=dtype)  # Hermitian, mixed signs
    u, sv, vh = cunp.linalg.svd(cunp.asarray(s), hermitian=True)
    close(sv, numpy.linalg.svd(s, hermitian=True)[1])
    close(cunp.asarray((u.get() * sv.get()[..., None, :]) @ vh.get()), s)
    close(cunp.linalg.svd(cunp.asarray(s), compute_uv=False, hermitian=True),
          numpy.linalg.svd(s, compute_uv=False, hermitian=True))
    close(cunp.linalg.svdvals(cunp.asarray(x)), numpy.linalg.svdvals(x))


@pytest.mark.parametrize("p", [None, 1, -1, 2, -2, numpy.inf, -numpy.inf, "fro", "nuc"])
def test_cond(device, p, rng):
    x = rand((3, 3, 3), numpy.float64, rng)
    close(cunp.linalg.cond(cunp.asarray(x), p), numpy.linalg.cond(x, p), dtype=numpy.float32)
    if p != "nuc":  # NumPy's SVD of the NaN inverse fails there
        sing = numpy.array([[1.0, 2.0], [2.0, 4.0]])
        c = cunp.linalg.cond(cunp.asarray(sing), p)
        if p in (None, 2):
            # s_max / s_min with s_min at rounding level: its size depends on the SVD
            # routine (NumPy's LAPACK gesvd: 4.8e16; cuSOLVER gesvdj: 5.5e34).
            assert c.dtype == numpy.float64 and float(c.get()) > 1e15
        else:
            close(c, numpy.linalg.cond(sing, p), dtype=numpy.float32)


def test_vector_matrix_norm(device, rng):
    x = rand((3, 4, 5), numpy.float32, rng)
    cx = cunp.asarray(x)
    close(cunp.linalg.vector_norm(cx), numpy.linalg.vector_norm(x))
    close(cunp.linalg.vector_norm(cx, axis=(0, 2), keepdims=True, ord=3),
          numpy.linalg.vector_norm(x, axis=(0, 2), keepdims=True, ord=3))
    close(cunp.linalg.vector_norm(cx, axis=1, ord=numpy.inf), numpy.linalg.vector_norm(x, axis=1, ord=numpy.inf))
    close(cunp.linalg.matrix_norm(cx, ord="nuc"), numpy.linalg.matrix_norm(x, ord="nuc"))
    close(cunp.linalg.matrix_norm(cx, keepdims=True), numpy.linalg.matrix_norm(x, keepdims=True))
    close(cunp.linalg.diagonal(cx, offset=1), numpy.linalg.diagonal(x, offset=1))
    close(cunp.linalg.matrix_transpose(cx), numpy.linalg.matrix_transpose(x))


# ---- stacks of small matrices (the batched cuBLAS/cuSOLVER paths on CUDA devices)

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 5, 32, 64, 65])
def test_batched_small_solvers(device, dtype, n, rng):
    a = spd((7, n, n), dtype, rng)
    b = rand((7, n, 3), dtype, rng)
    close(cunp.linalg.solve(cunp.asarray(a), cunp.asarray(b)), numpy.linalg.solve(a, b), dtype=dtype)
    close(cunp.linalg.inv(cunp.asarray(a)), numpy.linalg.inv(a), dtype=dtype)
    close(cunp.linalg.cholesky(cunp.asarray(a)), numpy.linalg.cholesky(a), dtype=dtype)
    s, l = cunp.linalg.slogdet(cunp.asarray(a))
    es, el = numpy.linalg.slogdet(a)
    close(s, es)
    close(l, el)
    bad = a.copy()
    bad[3] = 0  # one singular (and not positive-definite) matrix in the stack
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.solve(cunp.asarray(bad), cunp.asarray(b))
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.inv(cunp.asarray(bad))
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.cholesky(cunp.asarray(bad))
    if n <= 5:  # larger determinants overflow float32
        close(cunp.linalg.det(cunp.asarray(bad)), numpy.linalg.det(bad), dtype=dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 6, 32, 33])
def test_batched_eigh(device, dtype, n, rng):
    a = spd((5, n, n), dtype, rng)
    w, v = cunp.linalg.eigh(cunp.asarray(a))
    ew = numpy.linalg.eigvalsh(a)
    close(w, ew)
    vh = v.get()
    close(cunp.asarray(a @ vh), vh * w.get()[..., None, :], dtype=dtype)
    close(cunp.linalg.eigvalsh(cunp.asarray(a), UPLO="U"), numpy.linalg.eigvalsh(a, UPLO="U"))


def test_linalg_cross_vecdot(device, rng):
    a, b = rand((4, 3), numpy.float64, rng), rand((4, 3), numpy.float64, rng)
    close(cunp.linalg.cross(cunp.asarray(a), cunp.asarray(b)), numpy.linalg.cross(a, b))
    close(cunp.linalg.cross(cunp.asarray(a.T), cunp.asarray(b.T), axis=0), numpy.linalg.cross(a.T, b.T, axis=0))
    with pytest.raises(ValueError):
        cunp.linalg.cross(cunp.asarray(a[:, :2]), cunp.asarray(b[:, :2]))
    c, d = rand((2, 5), numpy.complex128, rng), rand((5,), numpy.complex128, rng)
    close(cunp.linalg.vecdot(cunp.asarray(c), cunp.asarray(d)), numpy.linalg.vecdot(c, d))
    close(cunp.linalg.vecdot(cunp.asarray(a), cunp.asarray(b), axis=0), numpy.linalg.vecdot(a, b, axis=0))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128])
def test_rank_pinv_lstsq_forms(device, dtype, rng):
    low = (rand((3, 5, 2), dtype, rng) @ rand((3, 2, 4), dtype, rng)).astype(dtype)
    clow = cunp.asarray(low)
    close(cunp.linalg.matrix_rank(clow), numpy.linalg.matrix_rank(low))
    close(cunp.linalg.matrix_rank(clow, tol=1e3), numpy.linalg.matrix_rank(low, tol=1e3))
    close(cunp.linalg.matrix_rank(clow, rtol=numpy.array([1e-3, 0.5, 1e-6])),
          numpy.linalg.matrix_rank(low, rtol=numpy.array([1e-3, 0.5, 1e-6])))
    close(cunp.linalg.matrix_rank(cunp.asarray(numpy.zeros(3))), numpy.linalg.matrix_rank(numpy.zeros(3)))
    herm = spd((4, 4), dtype, rng)
    close(cunp.linalg.matrix_rank(cunp.asarray(herm), hermitian=True), numpy.linalg.matrix_rank(herm, hermitian=True))
    tol = TOL[numpy.dtype(dtype)] * 100
    full_rank = rand((3, 5, 4), dtype, rng)
    for m, kw in [(full_rank, {}), (full_rank, {"rtol": None}), (low, {"rcond": 1e-3}), (low, {"rtol": 1e-2})]:
        # low rank only with a cutoff well above rounding noise
        got, exp = cunp.linalg.pinv(cunp.asarray(m), **kw), numpy.linalg.pinv(m, **kw)
        assert got.dtype == exp.dtype
        numpy.testing.assert_allclose(got.get(), exp, rtol=tol, atol=tol)
    numpy.testing.assert_allclose(cunp.linalg.pinv(cunp.asarray(herm), hermitian=True).get(),
                                  numpy.linalg.pinv(herm, hermitian=True), rtol=tol, atol=tol)
    with pytest.raises(ValueError):
        cunp.linalg.pinv(clow, rcond=1e-3, rtol=1e-3)
    assert cunp.linalg.pinv(cunp.asarray(numpy.zeros((2, 0, 3), dtype))).shape == (2, 3, 0)
    for sa, sb in [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 6), (3,)), ((4, 4), (4, 1))]:
        a, b = rand(sa, dtype, rng), rand(sb, dtype, rng)
        x, res, rank, s = cunp.linalg.lstsq(cunp.asarray(a), cunp.asarray(b))
        ex, eres, erank, es = numpy.linalg.lstsq(a, b)
        assert rank == erank
        for got, exp in ((x, ex), (res, eres), (s, es)):
            assert got.shape == exp.shape and got.dtype == exp.dtype
            numpy.testing.assert_allclose(got.get(), exp, rtol=tol, atol=tol * 10)
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.lstsq(cunp.asarray(rand((4, 3), dtype, rng)), cunp.asarray(rand((5,), dtype, rng)))


def test_norm_inputs_and_errors(device, rng):
    x = rand((3, 4), numpy.int32, rng)
    close(cunp.linalg.norm(cunp.asarray(x)), numpy.linalg.norm(x))
    close(cunp.linalg.norm(cunp.asarray(x), ord=1), numpy.linalg.norm(x, ord=1))
    close(cunp.linalg.norm(cunp.asarray(x[0]), ord=-2), numpy.linalg.norm(x[0].astype(float), ord=-2))
    close(cunp.linalg.norm(cunp.asarray(x), axis=(1, 0), keepdims=True), numpy.linalg.norm(x, axis=(1, 0), keepdims=True))
    f = cunp.asarray(rand((2, 3, 4), numpy.float64, rng))
    for kw, err in [({"ord": "fro", "axis": 0}, ValueError), ({"ord": 3, "axis": (0, 1)}, ValueError),
                    ({"axis": (0, 0)}, ValueError), ({"axis": (0, 1, 2)}, ValueError), ({"ord": 2}, ValueError),
                    ({"axis": 5}, numpy.exceptions.AxisError), ({"ord": "bad", "axis": 0}, ValueError)]:
        with pytest.raises(err):
            cunp.linalg.norm(f, **kw)
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.cond(cunp.asarray(numpy.zeros((0, 0))))
    with pytest.raises(numpy.linalg.LinAlgError):
        cunp.linalg.cond(cunp.asarray(numpy.ones((2, 3))), 1)

"""Matrix products and cunp.linalg against NumPy (values, dtypes, shapes, errors), with
decompositions also checked by their defining properties."""
import numpy
import pytest

import cunp
from cunp import _linalg_top as top  # cunp.matmul etc. once cunp/__init__.py imports it
from helpers import random_array

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
    assert cunp.linalg.eigvals(cunp.asarray(sym)).dtype == numpy.float64


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

"""cunpx, the cupyx-shaped package: scipy.fft and scipy.linalg against SciPy, the
profiler's benchmark, fallback_mode.numpy, pinned arrays, scatter_* and rsqrt, on every
device."""
import warnings

import numpy
import pytest
import scipy.fft
import scipy.linalg

import cunp
import cunpx


def _close(got, want, rtol=1e-10, atol=1e-12):
    assert type(got) is cunp.ndarray, type(got)
    assert got.shape == numpy.shape(want)
    numpy.testing.assert_allclose(got.get(), want, rtol=rtol, atol=atol)


@pytest.fixture
def rng():
    return numpy.random.default_rng(11)


# ---- cunpx.scipy.fft -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "hfft", "ihfft"])
def test_scipy_fft_one_axis(device, name, rng):
    h = rng.standard_normal((4, 10))
    if name in ("fft", "ifft", "hfft"):
        h = h + 1j * rng.standard_normal((4, 10))
    x = cunp.asarray(h, device=device)
    f, g = getattr(cunpx.scipy.fft, name), getattr(scipy.fft, name)
    for kw in ({}, {"n": 7}, {"axis": 0}, {"norm": "ortho"}, {"n": 12, "axis": 0, "norm": "forward"},
               {"workers": 4, "overwrite_x": True}):
        _close(f(x, **kw), g(h, **kw))
    with pytest.raises(NotImplementedError, match="plan"):
        f(x, plan=object())


@pytest.mark.parametrize("name", ["fft2", "ifft2", "fftn", "ifftn", "rfft2", "rfftn", "irfftn"])
def test_scipy_fft_many_axes(device, name, rng):
    h = rng.standard_normal((3, 4, 6))
    if not name.startswith("rfft"):
        h = h + 1j * rng.standard_normal((3, 4, 6))
    x = cunp.asarray(h, device=device)
    f, g = getattr(cunpx.scipy.fft, name), getattr(scipy.fft, name)
    for kw in ({}, {"axes": (0, 2)}, {"s": (5, 8), "axes": (1, 2)}, {"norm": "ortho"}):
        _close(f(x, **kw), g(h, **kw))


def test_scipy_fft_helpers(device):
    _close(cunpx.scipy.fft.fftfreq(8, 0.5, device=device), scipy.fft.fftfreq(8, 0.5))
    _close(cunpx.scipy.fft.rfftfreq(9, device=device), scipy.fft.rfftfreq(9))
    h = numpy.arange(10.0)
    _close(cunpx.scipy.fft.fftshift(cunp.asarray(h, device=device)), scipy.fft.fftshift(h))


def test_next_fast_len():
    def smooth7(n):
        for p in (2, 3, 5, 7):
            while n % p == 0:
                n //= p
        return n == 1
    for t in list(range(0, 200)) + [1021, 4097, 65537, 10 ** 6 + 3]:
        got = cunpx.scipy.fft.next_fast_len(t)
        assert got >= t and (t <= 1 or smooth7(got)), (t, got)
        assert all(not smooth7(m) for m in range(max(t, 2), got)), (t, got)  # the smallest
    assert cunpx.scipy.fft.next_fast_len(numpy.int64(97), real=True) == 98
    with pytest.raises(ValueError):
        cunpx.scipy.fft.next_fast_len(-1)
    with pytest.raises(TypeError):
        cunpx.scipy.fft.next_fast_len(2.5)


# ---- cunpx.scipy.linalg ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex128, numpy.float32])
def test_scipy_linalg_solvers(device, dtype, rng):
    n = 6
    a = rng.standard_normal((n, n)) + n * numpy.eye(n)
    b = rng.standard_normal((n, 3))
    if dtype == numpy.complex128:
        a = a + 1j * rng.standard_normal((n, n))
        b = b + 1j * rng.standard_normal((n, 3))
    a, b = a.astype(dtype), b.astype(dtype)
    tol = 1e-4 if dtype == numpy.float32 else 1e-10
    A, B = cunp.asarray(a, device=device), cunp.asarray(b, device=device)
    L = cunpx.scipy.linalg
    _close(L.solve(A, B), scipy.linalg.solve(a, b), rtol=tol, atol=tol)
    if dtype == numpy.complex128:
        with pytest.raises(NotImplementedError):  # as SciPy
            L.solve(A, B, transposed=True)
    else:
        _close(L.solve(A, B, transposed=True), scipy.linalg.solve(a, b, transposed=True), rtol=tol, atol=tol)
    _close(L.inv(A), scipy.linalg.inv(a), rtol=tol, atol=tol)
    numpy.testing.assert_allclose(complex(L.det(A)), complex(scipy.linalg.det(a)), rtol=tol)
    for lower in (False, True):
        for trans in (0, 1, 2, "N", "T", "C"):
            for unit in (False, True):
                _close(L.solve_triangular(A, B, trans=trans, lower=lower, unit_diagonal=unit),
                       scipy.linalg.solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit),
                       rtol=tol * 100, atol=tol * 100)
    spd = a @ a.conj().T + n * numpy.eye(n, dtype=dtype)
    SPD = cunp.asarray(spd, device=device)
    for lower in (False, True):
        c, low = L.cho_factor(SPD, lower=lower)
        assert low == lower
        ref = scipy.linalg.cho_factor(spd, lower=lower)[0]
        tri_ = numpy.tril if lower else numpy.triu
        _close(c, tri_(ref), rtol=tol, atol=tol)
        _close(L.cho_solve((c, low), B), scipy.linalg.cho_solve((ref, lower), b), rtol=tol, atol=tol)
    _close(L.solve(SPD, B, assume_a="pos"), scipy.linalg.solve(spd, b, assume_a="pos"), rtol=tol, atol=tol)
    with pytest.raises(ValueError, match="infs or NaNs"):
        L.solve(A * numpy.nan, B)
    with pytest.raises(ValueError, match="square"):
        L.inv(A[:, :2])
    with pytest.raises(numpy.linalg.LinAlgError):
        L.cho_factor(-SPD)


def test_expm(device, rng):
    for h in (rng.standard_normal((5, 5)), 30 * rng.standard_normal((4, 4)), numpy.zeros((3, 3)),
              rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4)), numpy.array([[1.0, 2.0], [0.0, 1.0]]),
              rng.standard_normal((2, 3, 3))):
        _close(cunpx.scipy.linalg.expm(cunp.asarray(h, device=device)), scipy.linalg.expm(h), rtol=1e-9,
               atol=1e-9 * max(1.0, float(numpy.abs(scipy.linalg.expm(h)).max())))
    with pytest.raises(ValueError, match="square"):
        cunpx.scipy.linalg.expm(cunp.ones((2, 3), device=device))


def test_special_matrices(device, rng):
    d = device
    c, r = rng.standard_normal(4), rng.standard_normal(6)
    cz = c + 1j * rng.standard_normal(4)
    L = cunpx.scipy.linalg
    _close(L.toeplitz(cunp.asarray(c, device=d), cunp.asarray(r, device=d)), scipy.linalg.toeplitz(c, r))
    _close(L.toeplitz(cunp.asarray(cz, device=d)), scipy.linalg.toeplitz(cz))
    _close(L.circulant(cunp.asarray(c, device=d)), scipy.linalg.circulant(c))
    _close(L.hankel(cunp.asarray(c, device=d)), scipy.linalg.hankel(c))
    _close(L.hankel(cunp.asarray(c, device=d), cunp.asarray(r, device=d)), scipy.linalg.hankel(c, r))
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((4, 3))
    _close(L.khatri_rao(cunp.asarray(a, device=d), cunp.asarray(b, device=d)), scipy.linalg.khatri_rao(a, b))
    _close(L.kron(cunp.asarray(a, device=d), cunp.asarray(b, device=d)), numpy.kron(a, b))
    blocks = [numpy.ones((2, 2)), numpy.arange(3.0), numpy.array([[5, 6]], dtype=numpy.int32), numpy.zeros((0, 2))]
    got = L.block_diag(*[cunp.asarray(x, device=d) for x in blocks])
    want = scipy.linalg.block_diag(*blocks)
    assert got.dtype == want.dtype
    _close(got, want)
    _close(L.tri(4, 3, 1), numpy.tri(4, 3, 1))
    with pytest.raises(ValueError):
        L.khatri_rao(cunp.ones((2, 3), device=d), cunp.ones((2, 4), device=d))


# ---- profiler, fallback_mode, pinned, scatter, rsqrt -------------------------------------------

def test_profiler_benchmark(device):
    x = cunp.arange(1000.0, device=device)
    r = cunpx.profiler.benchmark(cunp.sin, (x,), n_repeat=20, n_warmup=2, name="sin")
    assert r.name == "sin" and r.cpu_times.shape == (20,) and (r.cpu_times > 0).all()
    ngpu = 1 if cunp.cuda.is_available() else 0
    assert r.gpu_times.shape == (ngpu, 20) and (r.gpu_times >= 0).all()
    text = str(r)
    assert text.startswith("sin:") and "CPU:" in text and " us" in text
    assert ("GPU-0" in text) == bool(ngpu)
    short = cunpx.profiler.benchmark(lambda: cunp.sin(x), n_repeat=100000, max_duration=0.05)
    assert 1 <= short.cpu_times.size < 100000
    assert cunpx.profiler.benchmark(cunp.sin, (x,), n_repeat=3, devices=()).gpu_times.shape == (0, 3)
    with pytest.raises(TypeError):
        cunpx.profiler.benchmark(42)


def test_fallback_mode(device):
    fnp = cunpx.fallback_mode.numpy
    x = cunp.asarray(numpy.array([3.0, 1.0, 2.0]), device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = fnp.sort(x)  # cunp has it: no warning, no host copy
    assert type(r) is cunp.ndarray
    assert fnp.float32 is numpy.float32 and fnp.pi == numpy.pi
    with pytest.warns(cunpx.fallback_mode.FallbackWarning, match="numpy.busday_count"):
        n = fnp.busday_count("2026-12-01", "2026-12-08")
    assert n == numpy.busday_count("2026-12-01", "2026-12-08")
    with pytest.warns(cunpx.fallback_mode.FallbackWarning, match="numpy.lib.stride_tricks.sliding_window_view"):
        w = fnp.lib.stride_tricks.sliding_window_view(x, 2)
    assert type(w) is cunp.ndarray and str(w.device) == str(x.device)
    numpy.testing.assert_array_equal(w.get(), numpy.lib.stride_tricks.sliding_window_view(x.get(), 2))
    _close(fnp.linalg.norm(x), numpy.linalg.norm(x.get()))
    with pytest.raises(AttributeError):
        fnp.no_such_function


def test_pinned_scatter_rsqrt(device):
    x = cunp.zeros(5, device=device)
    cunpx.scatter_add(x, cunp.asarray([0, 1, 1, 4], device=device), 2.0)
    numpy.testing.assert_array_equal(x.get(), [2, 4, 0, 0, 2])
    cunpx.scatter_max(x, [0, 2, 2], cunp.asarray([1.0, 3.0, 5.0], device=device))
    numpy.testing.assert_array_equal(x.get(), [2, 4, 5, 0, 2])
    cunpx.scatter_min(x, [1, 1], cunp.asarray([3.0, -1.0], device=device))
    numpy.testing.assert_array_equal(x.get(), [2, -1, 5, 0, 2])
    h = numpy.array([1.0, 4.0, 0.25, 0.0])
    with numpy.errstate(divide="ignore"):
        want = 1 / numpy.sqrt(h)
    with cunp.errstate(divide="ignore"):
        _close(cunpx.rsqrt(cunp.asarray(h, device=device)), want)
        out = cunp.empty(4, device=device)
        assert cunpx.rsqrt(cunp.asarray(h, device=device), out=out) is out
    _close(out, want)
    if cunp.cuda.is_available():
        p = cunpx.empty_like_pinned(numpy.ones((2, 3), dtype=numpy.float32))
        assert type(p) is numpy.ndarray and p.shape == (2, 3) and p.dtype == numpy.float32
        z = cunpx.zeros_like_pinned(numpy.ones((2, 3)), shape=(4,))
        assert z.shape == (4,) and not z.any()


def test_profiler_time_range_and_profile(device):
    tr = cunpx.profiler.time_range
    with tr("block", color_id=3, sync=True) as r:
        assert isinstance(r, tr)
    with tr("argb", argb_color=0xFF112233):
        with tr("nested"):
            pass

    @tr()
    def add_one(a):
        """doc"""
        return a + 1

    @tr("named", sync=True)
    def twice(a):
        return 2 * a

    x = cunp.arange(4, device=device)
    numpy.testing.assert_array_equal(add_one(x).get(), numpy.arange(1, 5))
    numpy.testing.assert_array_equal(twice(x).get(), 2 * numpy.arange(4))
    assert add_one.__name__ == "add_one" and add_one.__doc__ == "doc"
    with pytest.raises(ValueError, match="either color_id or argb_color"):
        tr("m", color_id=1, argb_color=1)
    with pytest.raises(ValueError, match="cannot be None"):
        with tr():
            pass
    with pytest.raises(ZeroDivisionError):  # the range closes on an exception
        with tr("raises"):
            1 / 0
    if cunp.cuda.is_available():
        with cunpx.profiler.profile():
            (x + 1).sum()
    else:
        with pytest.raises(cunp.cuda.CUDARuntimeError, match="cudaProfilerStart"):
            with cunpx.profiler.profile():
                pass


def test_profiler_ipython_extension(device):
    IPython = pytest.importorskip("IPython")
    from IPython.testing.globalipapp import start_ipython

    ip = start_ipython()
    ip.run_line_magic("load_ext", "cunpx.profiler")
    ip.user_ns["x"] = cunp.arange(10.0, device=device)
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        ip.run_line_magic("gpu_timeit", "-n 5 -w 1 cunp.sin(x)" if "cunp" in ip.user_ns else "-n 5 -w 1 x + 1")
        ip.run_cell_magic("gpu_timeit", "-n 3", "y = x * 2\ny.sum()")
    text = buf.getvalue()
    assert text.count("gpu_timeit:") == 2 and "CPU:" in text


@pytest.mark.parametrize("kind", ["dct", "idct", "dst", "idst"])
@pytest.mark.parametrize("t", [1, 2, 3, 4])
def test_scipy_fft_real_transforms(device, kind, t, rng):
    x = rng.standard_normal((4, 6, 5))
    inputs = [x, x + 1j * rng.standard_normal(x.shape), x.astype(numpy.float32), (x * 10).astype(numpy.int16),
              x[:, ::-2]]
    f, g = getattr(cunpx.scipy.fft, kind), getattr(scipy.fft, kind)
    for kw in ({}, {"norm": "ortho"}, {"norm": "forward"}, {"norm": "backward"}, {"orthogonalize": True},
               {"norm": "ortho", "orthogonalize": False}, {"n": 3, "axis": 1}, {"n": 9, "axis": 0, "norm": "ortho"},
               {"axis": -2}, {"workers": 2, "overwrite_x": True}):
        for h in inputs:
            want = g(h.copy(), type=t, **kw)  # (overwrite_x=True may use the input as scratch)
            got = f(cunp.asarray(h, device=device), type=t, **kw)
            assert got.dtype == want.dtype, (kw, h.dtype)
            tol = 2e-5 if h.dtype == numpy.float32 else 1e-10
            _close(got, want, rtol=tol, atol=tol)
    fn, gn = getattr(cunpx.scipy.fft, kind + "n"), getattr(scipy.fft, kind + "n")
    for kw in ({}, {"axes": (0, 2)}, {"s": (4, 7), "axes": (1, 2), "norm": "ortho"}, {"axes": 1}):
        _close(fn(cunp.asarray(x, device=device), type=t, **kw), gn(x, type=t, **kw))
    with pytest.raises(ValueError):
        f(cunp.asarray(x, device=device), type=5)
    with pytest.raises(ValueError):
        f(cunp.asarray(x, device=device), type=t, norm="bogus")


def test_scipy_linalg_lu(device, rng):
    L = cunpx.scipy.linalg
    cases = [rng.standard_normal((5, 5)), rng.standard_normal((4, 6)), rng.standard_normal((6, 3)),
             rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4)), numpy.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]]),
             numpy.arange(9).reshape(3, 3) % 4, rng.standard_normal((6, 6)).astype(numpy.float32)]
    for a in cases:
        A = cunp.asarray(a, device=device)
        tol = 1e-4 if a.dtype == numpy.float32 else 1e-10
        lu, piv = L.lu_factor(A)
        lu_ref, piv_ref = scipy.linalg.lu_factor(a)
        _close(lu, lu_ref, rtol=tol, atol=tol)
        assert piv.dtype == numpy.int32
        numpy.testing.assert_array_equal(piv.get(), piv_ref)
        for got, want in zip(L.lu(A), scipy.linalg.lu(a)):
            _close(got, want, rtol=tol, atol=tol)
        got_p, _, _ = L.lu(A, p_indices=True)
        numpy.testing.assert_array_equal(got_p.get(), scipy.linalg.lu(a, p_indices=True)[0])
        for got, want in zip(L.lu(A, permute_l=True), scipy.linalg.lu(a, permute_l=True)):
            _close(got, want, rtol=tol, atol=tol)
        if a.shape[0] == a.shape[1]:
            b = rng.standard_normal((a.shape[0], 2))
            for trans in (0, 1, 2):
                _close(L.lu_solve((lu, piv), cunp.asarray(b, device=device), trans=trans),
                       scipy.linalg.lu_solve((lu_ref, piv_ref), b, trans=trans), rtol=tol * 10, atol=tol * 10)
    with pytest.warns(scipy.linalg.LinAlgWarning, match="Diagonal number 1 is exactly zero"):
        L.lu_factor(cunp.zeros((2, 2), device=device))

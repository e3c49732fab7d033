"""cunp.fft against numpy.fft: values, dtypes and shapes, errors, plan cache."""
import numpy
import pytest

import cunp
from helpers import numpy_cunp_equal, random_array

NORMS = [None, "backward", "ortho", "forward"]
SIZES = [1, 2, 7, 8, 15, 16, 17, 97, 128]


def _tol(dtype):
    return 1e-5 if numpy.dtype(dtype) in (numpy.complex64, numpy.float32, numpy.float16) else 1e-12


def check(actual, expected, tol=None):
    """Shape and dtype exactly; values to a relative error (scaled by the largest value)."""
    assert isinstance(actual, cunp.ndarray)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    host = actual.get()
    tol = _tol(expected.dtype) if tol is None else tol
    scale = max(float(numpy.abs(expected).max(initial=0.0)), 1.0)
    numpy.testing.assert_allclose(host, expected, rtol=tol, atol=tol * scale)


def both(fn, x, *args, tol=None, **kw):
    expected = getattr(numpy.fft, fn)(x, *args, **kw)
    actual = getattr(cunp.fft, fn)(cunp.asarray(x), *args, **kw)
    check(actual, expected, tol)
    return actual


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("fn", ["fft", "ifft"])
@pytest.mark.parametrize("dt", [numpy.complex64, numpy.complex128])
def test_complex_1d_sizes(device, fn, n, norm, dt):
    x = random_array((3, n), dt)
    both(fn, x, norm=norm)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("dt", [numpy.float32, numpy.float64])
def test_real_1d_sizes(device, n, norm, dt):
    x = random_array((2, n), dt)
    both("rfft", x, norm=norm)
    spec = numpy.fft.rfft(x)
    both("irfft", spec, n=n, norm=norm)
    both("ihfft", x, norm=norm)
    both("hfft", spec, n=n, norm=norm)


@pytest.mark.parametrize("dt", [numpy.bool_, numpy.int8, numpy.int32, numpy.uint16, numpy.int64, numpy.float16,
                                numpy.float32, numpy.float64, numpy.complex64, numpy.complex128])
def test_result_dtypes(device, dt):
    x = random_array((4, 6), dt)
    tol = 2e-3 if dt == numpy.float16 else None
    for fn in ("fft", "ifft", "fftn", "ifft2", "irfft", "hfft"):
        both(fn, x, tol=tol)
    if numpy.dtype(dt).kind != "c":
        for fn in ("rfft", "rfftn", "rfft2", "ihfft"):
            both(fn, x, tol=tol)
    for norm in ("ortho", "forward"):
        both("irfft", x, norm=norm, tol=tol)


@pytest.mark.parametrize("n", [1, 3, 5, 8, 12, 31])
@pytest.mark.parametrize("fn", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_n_pads_and_truncates(device, fn, n):
    x = random_array((2, 9), numpy.float64 if fn in ("rfft", "ihfft") else numpy.complex128)
    both(fn, x, n=n)
    both(fn, x, n=n, axis=0)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
@pytest.mark.parametrize("fn", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_axis(device, fn, axis):
    x = random_array((4, 5, 6), numpy.float32 if fn in ("rfft", "ihfft") else numpy.complex64)
    both(fn, x, axis=axis)


AXES = [None, (0,), (1,), (-1,), (0, 1), (1, 0), (0, 2), (2, 0, 1), (0, 1, 2), (1, 1), (0, 2, 0), (-1, -3)]


@pytest.mark.parametrize("axes", AXES)
@pytest.mark.parametrize("fn", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_nd_axes(device, fn, axes):
    x = random_array((4, 5, 6), numpy.float64 if fn == "rfftn" else numpy.complex128)
    both(fn, x, axes=axes)


@pytest.mark.parametrize("fn", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_nd_more_axes_than_one_plan(device, fn):
    # Four and five axes: more than one plan's rank, so several passes.
    x = random_array((2, 3, 4, 5, 3), numpy.float64 if fn == "rfftn" else numpy.complex128)
    both(fn, x)
    both(fn, x, axes=(0, 1, 2, 4))


@pytest.mark.parametrize("s,axes", [((3, 4), (0, 1)), ((8, 2), (1, 2)), ((1, 7, 9), (0, 1, 2)), ((-1, 10), (0, 2)),
                                    ((5, 3), (2, 2)), ((6,), (1,))])
@pytest.mark.parametrize("fn", ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"])
@pytest.mark.parametrize("norm", NORMS)
def test_nd_s(device, fn, s, axes, norm):
    if fn.endswith("2") and len(axes) != 2:
        axes = (0, 2)
        s = (3, 5)
    x = random_array((4, 5, 6), numpy.float64 if fn.startswith("rfft") else numpy.complex128)
    both(fn, x, s=s, axes=axes, norm=norm)


@pytest.mark.parametrize("fn", ["fft2", "ifft2", "rfft2", "irfft2"])
def test_2d_defaults(device, fn):
    x = random_array((3, 6, 10), numpy.float32 if fn == "rfft2" else numpy.complex64)
    both(fn, x)


def test_s_without_axes_warns_like_numpy(device):
    x = random_array((4, 6), numpy.complex128)
    with pytest.warns(DeprecationWarning):
        expected = numpy.fft.fftn(x, s=(3, 5))
    with pytest.warns(DeprecationWarning):
        actual = cunp.fft.fftn(cunp.asarray(x), s=(3, 5))
    check(actual, expected)


VIEWS = [
    lambda a: a[::2],
    lambda a: a[:, ::-1],
    lambda a: a.T,
    lambda a: a[1:, 2:7:3],
    lambda a: a[::-2, ::3].T,
]


@pytest.mark.parametrize("view", range(len(VIEWS)))
@pytest.mark.parametrize("fn", ["fft", "ifft", "fftn", "fft2", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft"])
def test_non_contiguous_views(device, fn, view):
    real = fn in ("rfft", "rfftn", "ihfft")
    host = random_array((10, 12), numpy.float64 if real else numpy.complex128)
    x = VIEWS[view](host)
    expected = getattr(numpy.fft, fn)(x)
    dev = VIEWS[view](cunp.asarray(host))
    before = dev.get()
    check(getattr(cunp.fft, fn)(dev), expected)
    numpy.testing.assert_array_equal(dev.get(), before)  # the input is left alone


def test_batched_leading_axes(device):
    x = random_array((3, 2, 4, 16), numpy.complex64)
    both("fft", x)
    both("fft", x, axis=1)
    both("fftn", x, axes=(2, 3))
    both("rfft", x.real.copy(), axis=2)


def test_out(device):
    x = random_array((4, 8), numpy.complex128)
    out = cunp.empty((4, 8), dtype=numpy.complex128)
    r = cunp.fft.fft(cunp.asarray(x), out=out, norm="ortho")
    assert r is out
    check(out, numpy.fft.fft(x, norm="ortho"))
    # A narrower dtype casts (same_kind), a strided view is written through.
    out64 = cunp.empty((4, 8), dtype=numpy.complex64)
    cunp.fft.fftn(cunp.asarray(x), out=out64)
    check(out64, numpy.fft.fftn(x).astype(numpy.complex64), tol=1e-5)
    big = cunp.zeros((8, 8), dtype=numpy.complex128)
    cunp.fft.ifft(cunp.asarray(x), out=big[::2])
    check(big[::2], numpy.fft.ifft(x))
    check(big[1::2], numpy.zeros((4, 8), numpy.complex128))
    xr = random_array((4, 8), numpy.float64)
    outr = cunp.empty((4, 5), dtype=numpy.complex128)
    cunp.fft.rfft(cunp.asarray(xr), out=outr)
    check(outr, numpy.fft.rfft(xr))
    outi = cunp.empty((4, 8), dtype=numpy.float64)
    cunp.fft.irfft(cunp.asarray(numpy.fft.rfft(xr)), out=outi)
    check(outi, numpy.fft.irfft(numpy.fft.rfft(xr)))


def test_out_aliasing_input(device):
    x = random_array((4, 8), numpy.complex128)
    expected = numpy.fft.fft(x)
    a = cunp.array(x)  # on the cpu device asarray may share x's memory
    r = cunp.fft.fft(a, out=a)
    assert r is a
    check(a, expected)


@pytest.mark.parametrize("case", [
    lambda xp, x: xp.fft.fft(x, n=0),
    lambda xp, x: xp.fft.fft(x, n=-3),
    lambda xp, x: xp.fft.fft(x, axis=2),
    lambda xp, x: xp.fft.fft(x, axis=-3),
    lambda xp, x: xp.fft.rfft(x, n=3, axis=5),
    lambda xp, x: xp.fft.fft(x, norm="bogus"),
    lambda xp, x: xp.fft.fftn(x, s=(2,), axes=(0, 1)),
    lambda xp, x: xp.fft.fftn(x, s=(2, 0), axes=(0, 1)),
    lambda xp, x: xp.fft.fftn(x, axes=(0, 4)),
    lambda xp, x: xp.fft.fft(x[:, :0]),
    lambda xp, x: xp.fft.irfft(x[:, :1]),
    lambda xp, x: xp.fft.rfft(x * 1j),
    lambda xp, x: xp.fft.ihfft(x * 1j),
    lambda xp, x: xp.fft.fft(x, out=xp.empty((4, 7), dtype=xp.complex128)),
    lambda xp, x: xp.fft.rfftn(x, axes=()),
    lambda xp, x: xp.fft.fft2(x[0]),
])
def test_errors_like_numpy(device, case):
    host = random_array((4, 8), numpy.float64)

    @numpy_cunp_equal()
    def body(xp):
        x = host if xp is numpy else cunp.asarray(host)
        return case(xp, x)

    with pytest.raises(Exception):
        case(numpy, host)
    body()


def test_out_dtype_error(device):
    # NumPy raises UFuncTypeError, a TypeError.
    x = random_array((4, 8), numpy.float64)
    with pytest.raises(TypeError):
        numpy.fft.fft(x, out=numpy.empty((4, 8)))
    with pytest.raises(TypeError, match="same_kind"):
        cunp.fft.fft(cunp.asarray(x), out=cunp.empty((4, 8)))
    with pytest.raises(TypeError):
        cunp.fft.irfft(cunp.asarray(x), out=cunp.empty((4, 14), dtype=numpy.int64))


def test_empty_batch(device):
    x = numpy.zeros((0, 8), numpy.complex64)
    both("fft", x)
    both("rfft", x.real.copy())
    both("fftn", x, axes=(1,))


def test_fftn_without_axes_returns_input(device):
    x = cunp.asarray(random_array((3,), numpy.float64))
    assert cunp.fft.fftn(x, axes=()) is x or cunp.fft.fftn(x, axes=()).dtype == numpy.float64


@pytest.mark.parametrize("n", [1, 2, 7, 8])
@pytest.mark.parametrize("d", [1.0, 0.1, 3])
def test_freq(device, n, d):
    check(cunp.fft.fftfreq(n, d), numpy.fft.fftfreq(n, d), tol=0)
    check(cunp.fft.rfftfreq(n, d), numpy.fft.rfftfreq(n, d), tol=0)
    assert cunp.fft.fftfreq(n, d).device == cunp.asarray([1.0]).device


@pytest.mark.parametrize("shape", [(7,), (8,), (3, 4), (5, 6, 3)])
@pytest.mark.parametrize("axes", [None, 0, -1, (0,), (0, -1)])
def test_shift(device, shape, axes):
    x = numpy.arange(numpy.prod(shape)).reshape(shape)
    if axes is not None and len(shape) == 1 and axes == (0, -1):
        axes = (0,)
    for fn in ("fftshift", "ifftshift"):
        expected = getattr(numpy.fft, fn)(x, axes=axes)
        actual = getattr(cunp.fft, fn)(cunp.asarray(x), axes=axes)
        check(actual, expected, tol=0)
    r = cunp.fft.ifftshift(cunp.fft.fftshift(cunp.asarray(x), axes=axes), axes=axes)
    numpy.testing.assert_array_equal(r.get(), x)


def test_plan_cache(device, capsys):
    cache = cunp.fft.config.get_plan_cache()
    assert cunp.fft.config.get_plan_cache(device) is cache or \
        cunp.fft.config.get_plan_cache(device).get_size() == cache.get_size()
    old_size = cache.size
    try:
        cache.clear()
        cache.size = 16
        assert cache.get_curr_size() == 0 and len(cache) == 0
        x = cunp.asarray(random_array((4, 32), numpy.complex64))
        cunp.fft.fft(x)
        assert cache.get_curr_size() == 1 and cache.misses == 1
        cunp.fft.fft(x)
        assert cache.get_curr_size() == 1 and cache.hits == 1
        # show_info lists the cached plan by its key (a batch of 4 complex64 transforms of 32).
        info = cache._info()
        assert "FFT plan cache" in info and "C2C f32 fwd n=(32) batch=4" in info, info
        assert "current / max size   : 1 / 16" in info, info
        for n in (33, 34, 35):
            cunp.fft.fft(x, n=n)
        assert cache.get_curr_size() == 4
        info = cache._info()
        # most recently used first
        assert info.index("n=(35)") < info.index("n=(34)") < info.index("n=(33)") < info.index("n=(32)"), info
        cache.size = 2
        assert cache.get_size() == 2 and cache.get_curr_size() == 2
        info = cache._info()
        assert "n=(35)" in info and "n=(34)" in info and "n=(32)" not in info, info
        cache.set_size(0)
        assert cache.get_curr_size() == 0 and cache.get_curr_memsize() == 0
        y = cunp.fft.fft(x, n=40)  # planned, used once, not cached
        check(y, numpy.fft.fft(x.get(), n=40))
        assert cache.get_curr_size() == 0
        assert "cache enabled? False" in cache._info()
        assert cache.memsize == -1 or cache.memsize >= 0
        capsys.readouterr()
        cache.show_info()
        assert "FFT plan cache" in capsys.readouterr().out
        with pytest.raises(ValueError, match="size"):
            cache.size = -5
        with pytest.raises(ValueError, match="memsize"):
            cache.memsize = -7
    finally:
        cache.size = old_size
        cache.clear()


def test_plan_cache_memsize(device):
    cache = cunp.fft.config.get_plan_cache()
    old_size, old_memsize = cache.size, cache.memsize
    try:
        cache.clear()
        cache.size = 16
        cache.memsize = -1
        # A prime length needs a work area on cuFFT (Bluestein); cpu plans need none.
        x = cunp.asarray(random_array((2, 1009), numpy.complex128))
        cunp.fft.fft(x)
        assert cache.get_curr_size() == 1
        work = cache.get_curr_memsize()
        assert work >= 0
        if work > 0:
            # a limit below the plan's work area evicts it, and the next call plans again
            cache.memsize = work - 1
            assert cache.get_curr_size() == 0 and cache.get_curr_memsize() == 0
            check(cunp.fft.fft(x), numpy.fft.fft(x.get()))
            assert cache.get_curr_size() == 0 and cache.misses == 2
        else:
            cache.memsize = 0
            assert cache.get_curr_size() == 1
        cache.memsize = -1
        cunp.fft.fft(x)
        assert cache.get_curr_size() == 1 and cache.get_curr_memsize() == work
    finally:
        cache.memsize = old_memsize
        cache.size = old_size
        cache.clear()


def test_plan_cache_config_functions(device, capsys):
    cfg = cunp.fft.config
    old = cfg.get_plan_cache_size()
    try:
        cfg.set_plan_cache_size(3)
        assert cfg.get_plan_cache_size() == 3 == cfg.get_plan_cache().size
        cfg.set_plan_cache_max_memsize(1 << 30)
        assert cfg.get_plan_cache_max_memsize() == 1 << 30
        cfg.set_plan_cache_max_memsize(-1)
        x = cunp.asarray(random_array((8,), numpy.complex64))
        for n in (8, 9, 10, 11):
            cunp.fft.fft(x, n=n)
        assert cfg.get_plan_cache().get_curr_size() == 3
        cfg.show_plan_cache_info()
        assert "current / max size   : 3 / 3" in capsys.readouterr().out
        cfg.clear_plan_cache()
        assert cfg.get_plan_cache().get_curr_size() == 0
    finally:
        cfg.set_plan_cache_size(old)
        cfg.clear_plan_cache()


def test_plan_cache_clear_between_calls_keeps_results(device):
    # Plans dropped (clear, eviction) right after use must not disturb work in flight.
    cache = cunp.fft.config.get_plan_cache()
    old_size = cache.size
    try:
        cache.size = 1
        host = random_array((64, 256), numpy.complex64)
        x = cunp.asarray(host)
        results = []
        for i in range(6):
            results.append(cunp.fft.fft(x, n=256 + (i % 3)))
            if i % 2:
                cache.clear()
        for i, r in enumerate(results):
            check(r, numpy.fft.fft(host, n=256 + (i % 3)))
    finally:
        cache.size = old_size
        cache.clear()


def test_fft_on_current_stream(device):
    # cuFFT is bound to the current stream at every call: the padding copy, the
    # transform and the normalization of one call all run in order on a
    # non-blocking stream, and a cached plan moves between streams. (The cpu
    # device has no streams: the same calls run synchronously there.)
    import contextlib
    host = random_array((256, 4096), numpy.complex64)
    expected = numpy.fft.fft(host, n=4099, norm="forward")
    x = cunp.asarray(host)
    for _ in range(2):
        s = cunp.cuda.Stream(non_blocking=True) if device.startswith("cuda") else None
        with s if s is not None else contextlib.nullcontext():
            r = cunp.fft.fft(x, n=4099, norm="forward")
            back = cunp.fft.ifft(r, n=4099, norm="forward")
        if s is not None:
            s.synchronize()
        check(r, expected)
        check(back, host_pad(host, 4099), tol=1e-4)


def host_pad(a, n):
    out = numpy.zeros(a.shape[:-1] + (n,), a.dtype)
    out[..., :a.shape[-1]] = a
    return out


def test_roundtrip_large_prime(device):
    x = random_array((1009,), numpy.complex128)
    r = cunp.fft.ifft(cunp.fft.fft(cunp.asarray(x)))
    check(r, x)

"""cunpx.scipy.signal's filtering half (convolution, linear filters, rank/Wiener/
Savitzky-Golay filters, detrend, hilbert, peak finding) against SciPy on every device:
the same inputs, the result's dtype, shape and values (rtol by dtype), its device, and
SciPy's exception types for bad arguments."""
import warnings

import numpy
import pytest

import cunp
import cunpx.scipy.signal as cs

scipy_signal = pytest.importorskip("scipy.signal")
import scipy  # noqa: E402

FILTER_DTYPES = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]
# The blocked scan of CUDA devices and the sequential recurrence round differently; IIR
# filters amplify that by their gain, so single precision is compared loosely.
RTOL = {numpy.dtype(numpy.float32): 2e-4, numpy.dtype(numpy.complex64): 2e-4,
        numpy.dtype(numpy.float64): 1e-9, numpy.dtype(numpy.complex128): 1e-9}


def _tol(dt):
    return RTOL.get(numpy.dtype(dt), 1e-9)


def check(got, want, device, rtol=None, atol=None, dtype=True):
    """got (cunp arrays, tuples, dicts) equals want (SciPy's NumPy results)."""
    if isinstance(want, dict):
        assert sorted(got) == sorted(want)
        for k in want:
            check(got[k], want[k], device, rtol, atol, dtype)
        return
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w, device, rtol, atol, dtype)
        return
    want = numpy.asarray(want)
    assert isinstance(got, cunp.ndarray), type(got)
    assert str(got.device) == device
    assert got.shape == want.shape, (got.shape, want.shape)
    if dtype:
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
    r = _tol(want.dtype) if rtol is None else rtol
    scale = float(numpy.abs(want).max()) if want.size and want.dtype.kind in "fc" else 0.0
    a = r * scale if atol is None else atol
    numpy.testing.assert_allclose(got.get(), want, rtol=r, atol=a, equal_nan=True)


def data(rng, shape, dt):
    x = rng.standard_normal(shape)
    if numpy.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def same_error(fn_cunp, fn_scipy):
    """Both raise, the same exception type."""
    with pytest.raises(Exception) as want:
        fn_scipy()
    with pytest.raises(want.type):
        fn_cunp()


BA = scipy_signal.butter(4, 0.2)
SOS = scipy_signal.butter(6, 0.15, output="sos")


# ---- lfilter / sosfilt ----------------------------------------------------------------------

LAYOUTS = [((1000,), -1), ((3, 500), -1), ((40, 3), 0), ((2, 3, 64), 1)]


@pytest.mark.parametrize("dt", FILTER_DTYPES, ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("shape,axis", LAYOUTS, ids=str)
def test_lfilter(device, rng, dt, shape, axis):
    x = data(rng, shape, dt)
    b, a = (c.astype(numpy.dtype(dt).char.lower()) for c in BA)
    check(cs.lfilter(b, a, x, axis=axis), scipy_signal.lfilter(b, a, x, axis=axis), device)
    zshape = list(shape)
    zshape[axis] = 4
    zi = data(rng, zshape, dt)
    check(cs.lfilter(b, a, cunp.asarray(x), axis, zi), scipy_signal.lfilter(b, a, x, axis, zi), device)


@pytest.mark.parametrize("dt", FILTER_DTYPES, ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("shape,axis", LAYOUTS, ids=str)
def test_sosfilt(device, rng, dt, shape, axis):
    x = data(rng, shape, dt)
    sos = SOS.astype(numpy.dtype(dt).char.lower())
    check(cs.sosfilt(sos, x, axis=axis), scipy_signal.sosfilt(sos, x, axis=axis), device)
    zshape = [3] + list(shape)
    zshape[axis % len(shape) + 1] = 2
    zi = data(rng, zshape, dt)
    check(cs.sosfilt(sos, x, axis, zi), scipy_signal.sosfilt(sos, x, axis, zi), device)


def test_lfilter_long_signal(device, rng):
    # Long enough for three levels of the CUDA scan (2^21 samples / 32 per chunk / 256).
    x = rng.standard_normal(3 << 20)
    zi = rng.standard_normal(4)
    check(cs.lfilter(*BA, x, zi=zi), scipy_signal.lfilter(*BA, x, zi=zi), device)
    xf = x[: 1 << 20].astype(numpy.float32)
    sos6 = scipy_signal.butter(12, 0.2, output="sos").astype(numpy.float32)  # two passes of sections on CUDA
    zi = rng.standard_normal((6, 2)).astype(numpy.float32)
    check(cs.sosfilt(sos6, xf, zi=zi), scipy_signal.sosfilt(sos6, xf, zi=zi), device, rtol=1e-3)


def test_lfilter_shapes_of_filters(device, rng):
    x = rng.standard_normal((4, 300))
    cases = [
        ([0.5, 0.25], [2.0]),                     # FIR (len(a) == 1), normalized by a[0]
        (numpy.ones(40) / 40, [1.0]),             # a long FIR
        ([1.0, 2.0], [1.0, 0.0, 0.0]),            # a == [1, 0, 0]: FIR through the IIR path
        ([3.0], [2.0]),                           # a gain
        ([1.0, -0.5], [1.0, 0.5, 0.2, 0.1, -0.1]),
        (*scipy_signal.butter(12, 0.3),),         # order 12: 32 states on CUDA
        (*scipy_signal.cheby1(18, 1, 0.3),),      # order 18
        (numpy.r_[1.0, numpy.zeros(39)], numpy.r_[1.0, numpy.zeros(38), 0.01]),  # order 39: no register variant
    ]
    for b, a in cases:
        check(cs.lfilter(b, a, x), scipy_signal.lfilter(b, a, x), device)
        p = max(len(a), len(b)) - 1
        zi = rng.standard_normal((4, p))
        check(cs.lfilter(b, a, x, zi=zi), scipy_signal.lfilter(b, a, x, zi=zi), device)
        check(cs.lfilter(b, a, x[:, :2], zi=zi), scipy_signal.lfilter(b, a, x[:, :2], zi=zi), device)


def test_lfilter_zi_broadcast_and_strides(device, rng):
    x = rng.standard_normal((5, 6, 50))
    for zi_shape in [(1, 1, 4), (5, 1, 4), (1, 6, 4)]:
        zi = rng.standard_normal(zi_shape)
        check(cs.lfilter(*BA, x, zi=zi), scipy_signal.lfilter(*BA, x, zi=zi), device)
    xs = x[::2, ::-1, 3:]  # a strided, reversed view
    check(cs.lfilter(*BA, cunp.asarray(x)[::2, ::-1, 3:], axis=1), scipy_signal.lfilter(*BA, xs, axis=1), device)
    check(cs.lfilter([1, 2], [2.0], x[..., 0], zi=numpy.ones((5, 1)), axis=1),
          scipy_signal.lfilter([1, 2], [2.0], x[..., 0], zi=numpy.ones((5, 1)), axis=1), device)


def test_many_lanes(device, rng):
    # More lanes than the CUDA scan takes: one thread per lane.
    x = rng.standard_normal((20000, 24)).astype(numpy.float32)
    check(cs.lfilter(*BA, x), scipy_signal.lfilter(*BA, x), device)
    check(cs.sosfilt(SOS, x, axis=0), scipy_signal.sosfilt(SOS, x, axis=0), device)
    sos20 = numpy.tile(SOS[:1], (20, 1))  # 40 states: the state in global memory on CUDA
    check(cs.sosfilt(sos20, x[:50]), scipy_signal.sosfilt(sos20, x[:50]), device)


def test_filter_dtypes(device):
    x = numpy.arange(10)
    check(cs.lfilter([1, 2], [1, 0.5], x), scipy_signal.lfilter([1, 2], [1, 0.5], x), device)
    check(cs.lfilter(numpy.float32([1, 2]), numpy.float32([1, 0.5]), x.astype(numpy.int16)),
          scipy_signal.lfilter(numpy.float32([1, 2]), numpy.float32([1, 0.5]), x.astype(numpy.int16)), device)
    check(cs.lfilter([1j], [1, 0.5], x.astype(numpy.float32)),
          scipy_signal.lfilter([1j], [1, 0.5], x.astype(numpy.float32)), device)
    check(cs.lfilter([1.0], [1, 0.5], x.astype(numpy.float32), zi=numpy.zeros(1, numpy.complex64)),
          scipy_signal.lfilter([1.0], [1, 0.5], x.astype(numpy.float32), zi=numpy.zeros(1, numpy.complex64)), device)
    check(cs.sosfilt(SOS.astype(numpy.float32), x.astype(numpy.complex64)),
          scipy_signal.sosfilt(SOS.astype(numpy.float32), x.astype(numpy.complex64)), device)
    for fn, args in [(cs.lfilter, ([1, 2], [1], x)), (cs.lfilter, ([1, 2], [1, 2], x)),
                     (cs.lfilter, (numpy.float16([1, 2]), numpy.float16([1, 2]), x.astype(numpy.float16))),
                     (cs.sosfilt, (numpy.int32([[1, 2, 0, 1, 0, 0]]), x.astype(numpy.int32)))]:
        sfn = getattr(scipy_signal, fn.__name__)
        same_error(lambda: fn(*args), lambda: sfn(*args))
        with pytest.raises(NotImplementedError):
            fn(*args)


def test_filter_empty(device):
    for shape, axis, zi in [((0,), -1, None), ((5, 0), -1, numpy.ones((5, 4))), ((0, 5), -1, numpy.ones((0, 4))),
                            ((3, 0), 0, numpy.ones((4, 0)))]:
        x = numpy.zeros(shape)
        got = cs.lfilter(*BA, x, axis=axis, zi=zi)
        want = scipy_signal.lfilter(*BA, x, axis=axis, zi=zi)
        if zi is None:
            check(got, want, device)
        else:  # no samples: the final state is zi (SciPy returns uninitialized memory here)
            check(got[0], want[0], device)
            check(got[1], zi, device)
    same_error(lambda: cs.lfilter([1, 2], [1.0], numpy.zeros(0)),
               lambda: scipy_signal.lfilter([1, 2], [1.0], numpy.zeros(0)))
    got = cs.sosfilt(SOS, numpy.zeros((4, 0)))
    assert got.shape == (4, 0) and str(got.device) == device
    got, zf = cs.sosfilt(SOS, numpy.zeros((4, 0)), zi=numpy.ones((3, 4, 2)))
    check(zf, numpy.ones((3, 4, 2)), device)


def test_filter_errors(device):
    x = numpy.ones((3, 4))
    bad = [
        (([], [1, 0.5], x), {}), (([[1, 2]], [1, 0.5], x), {}), (([1, 2], [], x), {}),
        (([1, 2], [0, 0.5], x), {}), (([1, 2], [1, 0.5], 3.0), {}), (([1, 2], [1.0], 3.0), {}),
        (([1, 2], [1, 0.5], x), {"axis": 2}), (([1, 2], [1.0], x), {"axis": -3}),
        (([1, 2], [1, 0.5], x), {"zi": numpy.ones((3, 2))}), (([1, 2], [1, 0.5], x), {"zi": numpy.ones(1)}),
        (([1, 2], [1, 0.5], x), {"zi": numpy.ones((3, 1, 1))}), (([1, 2], [1.0], x), {"zi": numpy.ones((2, 1))}),
        (([1, 2], [1.0], x), {"zi": numpy.ones(1)}),
    ]
    for args, kw in bad:
        same_error(lambda: cs.lfilter(*args, **kw), lambda: scipy_signal.lfilter(*args, **kw))
    for sos, kw in [(numpy.zeros((2, 5)), {}), (numpy.zeros((1, 1, 6)), {}), ([[1, 2, 0, 2, 0, 0]], {}),
                    (SOS, {"zi": numpy.ones((3, 3, 3))}), (SOS, {"zi": numpy.ones((3, 2))})]:
        same_error(lambda: cs.sosfilt(sos, x, **kw), lambda: scipy_signal.sosfilt(sos, x, **kw))
    same_error(lambda: cs.sosfilt(SOS, 1.0), lambda: scipy_signal.sosfilt(SOS, 1.0))
    with pytest.raises(ValueError, match="BUG: filter coefficient a\\[0\\] == 0"):
        cs.lfilter([1, 2], [0, 1], x)
    with pytest.raises(ValueError, match="Invalid zi shape"):
        cs.sosfilt(SOS, x, zi=numpy.ones((3, 3, 3)))


# ---- filtfilt and the initial states ---------------------------------------------------------

@pytest.mark.parametrize("padtype", ["odd", "even", "constant", None])
def test_filtfilt(device, rng, padtype):
    x = rng.standard_normal((3, 200))
    check(cs.filtfilt(*BA, x, padtype=padtype), scipy_signal.filtfilt(*BA, x, padtype=padtype), device)
    check(cs.sosfiltfilt(SOS, x.T, axis=0, padtype=padtype),
          scipy_signal.sosfiltfilt(SOS, x.T, axis=0, padtype=padtype), device)
    check(cs.filtfilt(*BA, x, padlen=30, padtype=padtype), scipy_signal.filtfilt(*BA, x, padlen=30, padtype=padtype),
          device)


def test_filtfilt_gust(device, rng):
    x = rng.standard_normal((2, 150))
    check(cs.filtfilt(*BA, x, method="gust"), scipy_signal.filtfilt(*BA, x, method="gust"), device)
    check(cs.filtfilt(*BA, x[0], method="gust", irlen=40), scipy_signal.filtfilt(*BA, x[0], method="gust", irlen=40),
          device)
    check(cs.filtfilt(*BA, x.T, axis=0, method="gust"), scipy_signal.filtfilt(*BA, x.T, axis=0, method="gust"),
          device)


def test_filtfilt_errors(device):
    x = numpy.ones(10)
    for kw in [{"method": "bad"}, {"padtype": "bad"}, {"padlen": 10}, {}]:
        same_error(lambda: cs.filtfilt(*BA, x, **kw), lambda: scipy_signal.filtfilt(*BA, x, **kw))
    same_error(lambda: cs.sosfiltfilt(SOS, x), lambda: scipy_signal.sosfiltfilt(SOS, x))
    same_error(lambda: cs.sosfiltfilt(SOS[:, :5], numpy.ones(100)), lambda: scipy_signal.sosfiltfilt(SOS[:, :5],
                                                                                                      numpy.ones(100)))


# SciPy 1.18 rewrote lfilter_zi as a cumulative sum (zi[k] = sum_{j>k} b[j] - y a[j] with
# y = sum(b) / sum(a)) in place of 1.17's linear solve: a[0] == 0 and sum(a) == 0 raise
# ValueError, one coefficient gives an empty state and float16 stays float16, where 1.17
# dropped leading zeros of `a`, raised ValueError for one coefficient, TypeError for
# float16 and LinAlgError for sum(a) == 0. cunp follows 1.18; with an older SciPy these
# cases are checked against 1.18's documented behaviour (the values of a 1.17 call on
# the same filter where 1.18 keeps them).
SCIPY_118 = tuple(int(p) for p in scipy.__version__.split(".")[:2]) >= (1, 18)


def test_initial_states_scipy_118(device):
    if SCIPY_118:
        for args in [([1.0], [0, 1, 0.5]), ([1, 2], [1, -1]), ([[1]], [1])]:
            same_error(lambda: cs.lfilter_zi(*args), lambda: scipy_signal.lfilter_zi(*args))
        check(cs.lfilter_zi([1], [1]), scipy_signal.lfilter_zi([1], [1]), device)
        b16, a16 = numpy.float16([1, 2]), numpy.float16([1, 0.5])
        check(cs.lfilter_zi(b16, a16), scipy_signal.lfilter_zi(b16, a16), device, rtol=1e-3)
        return
    for args in [([1.0], [0, 1, 0.5]), ([1, 2], [1, -1]), ([[1]], [1])]:
        with pytest.raises(ValueError):
            cs.lfilter_zi(*args)
    check(cs.lfilter_zi([1], [1]), numpy.zeros(0), device)
    got = cs.lfilter_zi(numpy.float16([1, 2]), numpy.float16([1, 0.5]))
    check(got, scipy_signal.lfilter_zi([1.0, 2.0], [1.0, 0.5]).astype(numpy.float16), device, rtol=1e-3)


def test_initial_states(device):
    check(cs.lfilter_zi(*BA), scipy_signal.lfilter_zi(*BA), device)
    check(cs.lfilter_zi([1, 2, 3], [2]), scipy_signal.lfilter_zi([1, 2, 3], [2]), device)
    check(cs.lfilter_zi([1.0, 2.0], [1, 0.5, 0.0]), scipy_signal.lfilter_zi([1.0, 2.0], [1, 0.5, 0.0]), device)
    check(cs.lfilter_zi(numpy.float32([1, 2, 3]), numpy.float32([1, 0.5])),
          scipy_signal.lfilter_zi(numpy.float32([1, 2, 3]), numpy.float32([1, 0.5])), device, rtol=1e-6)
    check(cs.lfilter_zi([1j, 2], [1, 0.5]), scipy_signal.lfilter_zi([1j, 2], [1, 0.5]), device)
    check(cs.sosfilt_zi(SOS), scipy_signal.sosfilt_zi(SOS), device)
    check(cs.sosfilt_zi(numpy.array([[1, 2, 1, 1, 0, 0]])), scipy_signal.sosfilt_zi(numpy.array([[1, 2, 1, 1, 0, 0]])),
          device)
    for args in [(BA[0], BA[1], [1.0, 2.0], [0.5]), ([1, 2], [1, 3], [1, 2]), ([1, 2, 3], [2, 1], [1.0]),
                 ([1], [1, 0.5, 0.25], [1 + 1j])]:
        check(cs.lfiltic(*args), scipy_signal.lfiltic(*args), device)
    for fn, args in [(cs.lfilter_zi, ([1], [0, 0])), (cs.lfiltic, ([1], [], [1])),
                     (cs.lfiltic, ([1], [0, 1], [1])), (cs.sosfilt_zi, (numpy.ones((2, 5)),))]:
        sfn = getattr(scipy_signal, fn.__name__)
        same_error(lambda: fn(*args), lambda: sfn(*args))


# ---- convolution -------------------------------------------------------------------------------

MODES = ["full", "same", "valid"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("method", ["direct", "fft", "auto"])
def test_convolve_correlate(device, rng, mode, method):
    pairs = [(rng.standard_normal(50), rng.standard_normal(7)),
             (rng.standard_normal((13, 17)), rng.standard_normal((4, 5))),
             (data(rng, (9, 6, 5), numpy.complex128), data(rng, (2, 3, 3), numpy.complex128)),
             (data(rng, (30,), numpy.float32), data(rng, (6,), numpy.float32))]
    for a, b in pairs:
        for x, y in [(a, b), (b, a)]:
            if mode == "valid" and x.size < y.size and method != "direct":
                continue
            tol = {} if x.dtype != numpy.float32 else {"rtol": 1e-5}
            check(cs.convolve(x, y, mode, method), scipy_signal.convolve(x, y, mode, method), device, **tol)
            check(cs.correlate(x, y, mode, method), scipy_signal.correlate(x, y, mode, method), device, **tol)


def test_convolve_integers_and_scalars(device, rng):
    a = rng.integers(-5, 5, (7, 9))
    b = rng.integers(-5, 5, (3, 2))
    for method in ["direct", "fft", "auto"]:
        check(cs.convolve(a, b, method=method), scipy_signal.convolve(a, b, method=method), device)
    a8, b8 = (a * 30).astype(numpy.int8), (b * 30).astype(numpy.int8)
    check(cs.convolve(a8, b8, method="direct"), scipy_signal.convolve(a8, b8, method="direct"), device)
    check(cs.correlate(a, b.astype(numpy.float32), "same", "direct"),
          scipy_signal.correlate(a, b.astype(numpy.float32), "same", "direct"), device)
    check(cs.convolve(numpy.float64(3), numpy.float64(2)), scipy_signal.convolve(numpy.float64(3), numpy.float64(2)),
          device)
    check(cs.correlate(numpy.complex128(3j), numpy.complex128(2j)),
          scipy_signal.correlate(numpy.complex128(3j), numpy.complex128(2j)), device)
    assert cs.choose_conv_method(a, b) == scipy_signal.choose_conv_method(a, b) == "direct"
    big = numpy.full(10, 2 ** 40)
    assert cs.choose_conv_method(big, big) == "direct"  # past float64's exact integers
    method, times = cs.choose_conv_method(a.astype(float), b.astype(float), measure=True)
    assert method in ("fft", "direct") and set(times) == {"fft", "direct"}


def test_convolve_errors(device):
    a, b = numpy.ones((3, 4)), numpy.ones((2, 5))
    for args in [(a, b, "valid"), (a, numpy.ones(3)), (a, a, "bad"), (a, a, "full", "bad"),
                 (a, a, "bad", "direct")]:
        same_error(lambda: cs.convolve(*args), lambda: scipy_signal.convolve(*args))
        same_error(lambda: cs.correlate(*args), lambda: scipy_signal.correlate(*args))
    for kw in [{"axes": [5]}, {"axes": [0, 0]}, {"axes": []}, {"axes": 1.5}, {"mode": "bad"}]:
        same_error(lambda: cs.fftconvolve(a, a, **kw), lambda: scipy_signal.fftconvolve(a, a, **kw))
    same_error(lambda: cs.fftconvolve(a, numpy.ones((2, 3)), axes=0),
               lambda: scipy_signal.fftconvolve(a, numpy.ones((2, 3)), axes=0))
    same_error(lambda: cs.choose_conv_method(a, a, mode="bad"), lambda: scipy_signal.choose_conv_method(a, a, "bad"))
    same_error(lambda: cs.correlation_lags(3, 5, "bad"), lambda: scipy_signal.correlation_lags(3, 5, "bad"))
    with pytest.raises(ValueError):
        cs.convolve([], [1, 2], method="direct")
    empty = cs.fftconvolve(numpy.zeros(0), numpy.ones(3))
    assert empty.shape == (0,) and str(empty.device) == device


@pytest.mark.parametrize("mode", MODES)
def test_fftconvolve_oaconvolve(device, rng, mode):
    a2, k2 = rng.standard_normal((13, 17)), rng.standard_normal((4, 5))
    check(cs.fftconvolve(a2, k2, mode), scipy_signal.fftconvolve(a2, k2, mode), device)
    check(cs.fftconvolve(a2, k2[:, :1], mode, axes=0), scipy_signal.fftconvolve(a2, k2[:, :1], mode, axes=0), device)
    f32 = a2.astype(numpy.float32)
    check(cs.fftconvolve(f32, f32[:3], mode), scipy_signal.fftconvolve(f32, f32[:3], mode), device, rtol=1e-5)
    long1, short1 = rng.standard_normal(1000), rng.standard_normal(9)
    for x, y in [(long1, short1), (short1, long1)]:
        if mode == "valid" and x.size < y.size:
            continue
        check(cs.oaconvolve(x, y, mode), scipy_signal.oaconvolve(x, y, mode), device)
    big, kb = data(rng, (300, 40), numpy.complex128), rng.standard_normal((9, 3))
    check(cs.oaconvolve(big, kb, mode), scipy_signal.oaconvolve(big, kb, mode), device)
    check(cs.oaconvolve(big, kb[:, :1], mode, axes=0), scipy_signal.oaconvolve(big, kb[:, :1], mode, axes=0), device)
    check(cs.oaconvolve(big.real, big.real[:20, :3], mode), scipy_signal.oaconvolve(big.real, big.real[:20, :3], mode),
          device)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("boundary", ["fill", "wrap", "symm"])
def test_convolve2d_correlate2d(device, rng, mode, boundary):
    a, k = rng.standard_normal((13, 17)), rng.standard_normal((4, 5))
    ac, kc = data(rng, (9, 8), numpy.complex128), data(rng, (3, 2), numpy.complex128)
    check(cs.convolve2d(a, k, mode, boundary, 1.5), scipy_signal.convolve2d(a, k, mode, boundary, 1.5), device)
    check(cs.correlate2d(ac, kc, mode, boundary, 0.5j), scipy_signal.correlate2d(ac, kc, mode, boundary, 0.5j),
          device)
    check(cs.correlate2d(kc, ac, mode, boundary), scipy_signal.correlate2d(kc, ac, mode, boundary), device)
    small, large = k[:2, :3], a[:6, :7]  # the kernel larger than the image
    check(cs.convolve2d(small, large, mode, boundary), scipy_signal.convolve2d(small, large, mode, boundary), device)
    ia, ik = rng.integers(-9, 9, (6, 5)), rng.integers(-9, 9, (2, 3))
    check(cs.convolve2d(ia, ik, mode, boundary, 2), scipy_signal.convolve2d(ia, ik, mode, boundary, 2), device)


def test_convolve2d_errors(device):
    a = numpy.ones((3, 4))
    for args, kw in [((a, numpy.ones(5)), {}), ((a, a), {"boundary": "bad"}), ((a, a), {"mode": "bad"}),
                     ((a, a), {"fillvalue": [1, 2]}), ((a, numpy.ones((2, 5)), "valid"), {}),
                     ((a, a), {"fillvalue": 1j})]:
        same_error(lambda: cs.convolve2d(*args, **kw), lambda: scipy_signal.convolve2d(*args, **kw))
        same_error(lambda: cs.correlate2d(*args, **kw), lambda: scipy_signal.correlate2d(*args, **kw))


def test_lags_deconvolve_hilbert(device, rng):
    for n1, n2 in [(10, 4), (4, 10), (7, 7), (8, 3)]:
        for mode in MODES:
            check(cs.correlation_lags(n1, n2, mode), scipy_signal.correlation_lags(n1, n2, mode), device)
    sig = numpy.convolve([1, 2, 1.0], rng.standard_normal(20))
    check(cs.deconvolve(sig, [1, 2, 1.0]), scipy_signal.deconvolve(sig, [1, 2, 1.0]), device)
    q, r = cs.deconvolve([1.0, 2.0], [1.0, 2.0, 3.0])
    assert q == [] and r.shape == (2,)
    same_error(lambda: cs.deconvolve([1, 2], [[1]]), lambda: scipy_signal.deconvolve([1, 2], [[1]]))
    x = rng.standard_normal((6, 9))
    check(cs.hilbert(x), scipy_signal.hilbert(x), device)
    check(cs.hilbert(x, N=16, axis=0), scipy_signal.hilbert(x, N=16, axis=0), device)
    check(cs.hilbert(x.astype(numpy.float32)), scipy_signal.hilbert(x.astype(numpy.float32)), device, rtol=1e-5)
    check(cs.hilbert2(x), scipy_signal.hilbert2(x), device)
    check(cs.hilbert2(x, N=(8, 7)), scipy_signal.hilbert2(x, N=(8, 7)), device)
    for fn, args, kw in [(cs.hilbert, (x + 1j,), {}), (cs.hilbert, (x,), {"N": 0}), (cs.hilbert2, (x + 1j,), {}),
                         (cs.hilbert2, (x,), {"axes": (0, 0)}), (cs.hilbert2, (x,), {"N": (3, -1)})]:
        sfn = getattr(scipy_signal, fn.__name__)
        same_error(lambda: fn(*args, **kw), lambda: sfn(*args, **kw))


# ---- detrend, rank filters, Wiener, Savitzky-Golay --------------------------------------------------

def test_detrend(device, rng):
    x = rng.standard_normal((4, 120)) + numpy.arange(120)
    for t in ["linear", "constant"]:
        check(cs.detrend(x, type=t), scipy_signal.detrend(x, type=t), device)
        check(cs.detrend(x.T, axis=0, type=t), scipy_signal.detrend(x.T, axis=0, type=t), device)
    check(cs.detrend(x, bp=[30, 70]), scipy_signal.detrend(x, bp=[30, 70]), device)
    check(cs.detrend(numpy.arange(20) ** 2), scipy_signal.detrend(numpy.arange(20) ** 2), device)
    check(cs.detrend(x.astype(numpy.complex64), bp=5), scipy_signal.detrend(x.astype(numpy.complex64), bp=5), device,
          rtol=1e-4)
    for kw in [{"type": "bad"}, {"bp": [500]}]:
        same_error(lambda: cs.detrend(x, **kw), lambda: scipy_signal.detrend(x, **kw))


def test_rank_filters(device, rng):
    im = rng.standard_normal((20, 25))
    for ks in [None, 5, [5, 3]]:
        check(cs.medfilt(im, ks), scipy_signal.medfilt(im, ks), device)
    check(cs.medfilt(im[0], 7), scipy_signal.medfilt(im[0], 7), device)
    ints = numpy.arange(60).reshape(3, 4, 5) % 7
    check(cs.medfilt(ints, [3, 1, 3]), scipy_signal.medfilt(ints, [3, 1, 3]), device)
    check(cs.medfilt2d(im, 5), scipy_signal.medfilt2d(im, 5), device)
    u8 = (im * 40 + 100).astype(numpy.uint8)
    check(cs.medfilt2d(u8, [3, 5]), scipy_signal.medfilt2d(u8, [3, 5]), device)
    check(cs.medfilt2d(ints[0].astype(numpy.int16)), scipy_signal.medfilt2d(ints[0].astype(numpy.int16)), device)
    dom = numpy.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])
    for rank in [0, 2, 4]:
        check(cs.order_filter(im, dom, rank), scipy_signal.order_filter(im, dom, rank), device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check(cs.medfilt(im[:2], 5), scipy_signal.medfilt(im[:2], 5), device)
    with pytest.warns(UserWarning, match="kernel_size exceeds"):
        cs.medfilt(im[:2], 5)
    for fn, args in [(cs.medfilt, (im, 4)), (cs.medfilt, (im.astype(numpy.float16),)), (cs.medfilt2d, (im, [3, 4])),
                     (cs.order_filter, (im, numpy.ones((2, 3)), 0)),
                     (cs.order_filter, (im.astype(numpy.complex64), dom, 0))]:
        sfn = getattr(scipy_signal, fn.__name__)
        same_error(lambda: fn(*args), lambda: sfn(*args))


def test_wiener(device, rng):
    im = rng.standard_normal((20, 25))
    check(cs.wiener(im), scipy_signal.wiener(im), device)
    check(cs.wiener(im, 5, 0.3), scipy_signal.wiener(im, 5, 0.3), device)
    check(cs.wiener(im[0], [7]), scipy_signal.wiener(im[0], [7]), device)


@pytest.mark.parametrize("mode", ["mirror", "constant", "nearest", "wrap", "interp"])
def test_savgol(device, rng, mode):
    x = rng.standard_normal((3, 60))
    for wl, po, dv in [(5, 2, 0), (7, 3, 1), (6, 2, 0), (11, 4, 2), (5, 1, 3)]:
        check(cs.savgol_coeffs(wl, po, dv), scipy_signal.savgol_coeffs(wl, po, dv), "cpu" if device == "cpu" else device)
        check(cs.savgol_filter(x, wl, po, dv, mode=mode, cval=0.5),
              scipy_signal.savgol_filter(x, wl, po, dv, mode=mode, cval=0.5), device)
    check(cs.savgol_filter(x.T, 9, 3, axis=0, mode=mode), scipy_signal.savgol_filter(x.T, 9, 3, axis=0, mode=mode),
          device)
    f32 = x.astype(numpy.float32)
    check(cs.savgol_filter(f32, 9, 3, deriv=1, delta=0.5, mode=mode),
          scipy_signal.savgol_filter(f32, 9, 3, deriv=1, delta=0.5, mode=mode), device, rtol=1e-4)
    ints = numpy.arange(30) % 7
    check(cs.savgol_filter(ints, 5, 2, mode=mode), scipy_signal.savgol_filter(ints, 5, 2, mode=mode), device)


def test_savgol_errors(device):
    x = numpy.ones(10)
    check(cs.savgol_coeffs(5, 2, pos=1, use="dot"), scipy_signal.savgol_coeffs(5, 2, pos=1, use="dot"), device)
    for args, kw in [((5, 5), {}), ((5, 2), {"pos": 5}), ((5, 2), {"use": "bad"})]:
        same_error(lambda: cs.savgol_coeffs(*args, **kw), lambda: scipy_signal.savgol_coeffs(*args, **kw))
    for args, kw in [((x, 5, 2), {"mode": "bad"}), ((x, 11, 2), {}), ((x, 5, 6), {})]:
        same_error(lambda: cs.savgol_filter(*args, **kw), lambda: scipy_signal.savgol_filter(*args, **kw))


# ---- peaks ----------------------------------------------------------------------------------

PEAK_CONDITIONS = [{}, {"height": 0.5}, {"height": (0.2, 0.9)}, {"threshold": 0.1}, {"distance": 10},
                   {"prominence": 0.5}, {"width": 3}, {"plateau_size": 1},
                   {"prominence": (0.2, 2), "wlen": 40, "width": (1, 20), "rel_height": 0.7},
                   {"height": "array", "distance": 3.5}]


@pytest.mark.parametrize("conditions", PEAK_CONDITIONS, ids=str)
def test_find_peaks(device, rng, conditions):
    sig = numpy.sin(numpy.linspace(0, 20, 500)) + 0.3 * rng.standard_normal(500)
    if conditions.get("height") == "array":
        conditions = dict(conditions, height=numpy.full(500, 0.3))
    check(cs.find_peaks(cunp.asarray(sig), **conditions), scipy_signal.find_peaks(sig, **conditions), device)


def test_peak_properties(device, rng):
    sig = numpy.sin(numpy.linspace(0, 20, 500)) + 0.3 * rng.standard_normal(500)
    peaks, _ = scipy_signal.find_peaks(sig)
    check(cs.peak_prominences(cunp.asarray(sig), peaks), scipy_signal.peak_prominences(sig, peaks), device)
    check(cs.peak_prominences(cunp.asarray(sig), peaks, wlen=20.5), scipy_signal.peak_prominences(sig, peaks, wlen=20.5),
          device)
    for rel in [0.0, 0.5, 1.0]:
        check(cs.peak_widths(cunp.asarray(sig), peaks, rel_height=rel), scipy_signal.peak_widths(sig, peaks, rel_height=rel),
              device)
    plateaus = numpy.array([0, 1, 1, 1, 0, 2, 2, 0, 3, 1, 1, 4, 4, 4, 4, 0, 5, 5])
    check(cs.find_peaks(cunp.asarray(plateaus), plateau_size=(1, 3)),
          scipy_signal.find_peaks(plateaus, plateau_size=(1, 3)), device)
    check(cs.find_peaks(cunp.asarray(numpy.array([1.0, 2.0]))), scipy_signal.find_peaks([1.0, 2.0]), device)
    flat = numpy.array([0.0, 1.0, 1.0, 0.0])
    with pytest.warns(cs.PeakPropertyWarning):
        cs.peak_widths(cunp.asarray(flat), [1], rel_height=0)
    for fn, args, kw in [(cs.find_peaks, (numpy.ones((2, 3)),), {}), (cs.find_peaks, (sig,), {"distance": 0.5}),
                         (cs.peak_prominences, (sig, [600]), {}), (cs.peak_prominences, (sig, [1.5]), {}),
                         (cs.peak_prominences, (sig, peaks), {"wlen": 1}),
                         (cs.peak_widths, (sig, peaks), {"rel_height": -1}),
                         (cs.find_peaks, (sig,), {"height": numpy.ones(3)})]:
        sfn = getattr(scipy_signal, fn.__name__)
        same_error(lambda: fn(*args, **kw), lambda: sfn(*args, **kw))


def test_argrelextrema(device, rng):
    sig = rng.standard_normal(200)
    im = rng.standard_normal((20, 25))
    check(cs.argrelmax(cunp.asarray(sig), order=3), scipy_signal.argrelmax(sig, order=3), device)
    check(cs.argrelmin(cunp.asarray(im), axis=1, order=2, mode="wrap"),
          scipy_signal.argrelmin(im, axis=1, order=2, mode="wrap"), device)
    check(cs.argrelextrema(cunp.asarray(im), numpy.greater_equal, axis=0),
          scipy_signal.argrelextrema(im, numpy.greater_equal, axis=0), device)
    same_error(lambda: cs.argrelmax(sig, order=0), lambda: scipy_signal.argrelmax(sig, order=0))


def test_peak_walks_random(device, rng):
    # Ties, plateaus, NaNs, windows and arbitrary (non-peak) indices, against SciPy's walks.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for trial in range(24):
            n = int(rng.integers(1, 300))
            x = [rng.standard_normal(n), rng.integers(0, 4, n).astype(float),
                 numpy.cumsum(rng.standard_normal(n))][trial % 3]
            if trial % 4 == 3:
                x[rng.random(n) < 0.05] = numpy.nan
            peaks = scipy_signal.find_peaks(x)[0] if trial % 2 else rng.integers(0, n, 12)
            for wlen in [None, 5, 41.5]:
                prom = scipy_signal.peak_prominences(x, peaks, wlen=wlen)
                check(cs.peak_prominences(cunp.asarray(x), peaks, wlen=wlen), prom, device, rtol=0, atol=0)
                for rel in [0.0, 0.4, 1.0]:
                    check(cs.peak_widths(cunp.asarray(x), peaks, rel_height=rel, prominence_data=prom),
                          scipy_signal.peak_widths(x, peaks, rel_height=rel, prominence_data=prom), device,
                          rtol=1e-12, atol=1e-12)

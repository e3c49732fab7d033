"""cunpx.scipy.signal's filter design against SciPy: the IIR designs in every band type,
analog and digital, in the ba/zpk/sos forms; order selection; notch, peak and comb
filters; the tf/zpk/sos conversions and frequency transformations; the FIR designs;
the frequency responses; SciPy's errors for bad orders, band types and frequencies;
on every device (coefficients arrive as cunp arrays on the current device)."""
import warnings

import numpy
import pytest
import scipy.signal

import cunp
import cunpx.scipy.signal as csignal
from scipy_oracle import check

BANDS = [("lowpass", 0.3), ("highpass", 0.3), ("bandpass", [0.2, 0.5]), ("bandstop", [0.2, 0.5])]


def _sorted_roots(result):
    """zpk with z and p sorted, for comparing roots whose order np.roots leaves open."""
    z, p, k = result
    return numpy.sort_complex(numpy.atleast_1d(z)), numpy.sort_complex(numpy.atleast_1d(p)), k


@pytest.mark.parametrize("btype,Wn", BANDS)
@pytest.mark.parametrize("analog", [False, True])
def test_iir_designs(device, btype, Wn, analog):
    Wn = numpy.asarray(Wn) * (10.0 if analog else 1.0)
    for output in ("ba", "zpk", "sos"):
        kw = dict(btype=btype, analog=analog, output=output)
        tol = dict(rtol=1e-8, atol=1e-12)
        check("butter", 4, Wn, **kw, **tol)
        check("cheby1", 5, 1.0, Wn, **kw, **tol)
        check("cheby2", 4, 40, Wn, **kw, **tol)
        check("ellip", 5, 0.5, 50, Wn, **kw, **tol)
        check("bessel", 4, Wn, norm="mag", **kw, **tol)
        check("bessel", 3, Wn, norm="delay", **kw, **tol)
        check("iirfilter", 3, Wn, rp=1, rs=30, ftype="ellip", **kw, **tol)


def test_iir_high_orders_fs_and_sections(device):
    check("butter", 12, 100, fs=1000, output="sos", rtol=1e-8, atol=1e-14)
    check("cheby1", 9, 0.1, [100, 200], btype="band", fs=1000, output="sos", rtol=1e-7, atol=1e-14)
    check("ellip", 8, 1, 80, 0.25, output="sos", rtol=1e-7, atol=1e-14)
    check("bessel", 24, 0.3, output="sos", rtol=1e-7, atol=1e-14)
    check("bessel", 40, 0.4, analog=True, output="zpk", rtol=1e-9, atol=1e-12)
    check("butter", 0, 0.2)
    got = csignal.butter(4, 0.3, output="zpk")
    assert isinstance(got[2], float) or numpy.ndim(got[2]) == 0


def test_iir_errors(device):
    for args, kw in [((3, 1.2), {}), ((3, [0.2, 0.5]), dict(btype="foo")), ((-1, 0.3), {}), ((2.5, 0.3), {}),
                     ((3, [0.5, 0.2]), dict(btype="band")), ((3, 0.2), dict(btype="band")), ((3, [0.2, 0.3]), {}),
                     ((3, 0.3), dict(output="x")), ((3, 0.0), {}), ((3, 100), dict(fs=150)),
                     ((3, 10), dict(fs=100, analog=True))]:
        check("butter", *args, message=True, **kw)
    check("iirfilter", 3, 0.3, ftype="foo", message=True)
    check("cheby1", 3, None, 0.3, message=True)
    check("cheby1", 3, -1, 0.3, message=True)
    check("ellip", 3, 1, None, 0.3, message=True)
    check("bessel", 3, 0.3, norm="bad")


def test_prototypes(device):
    for N in (0, 1, 4, 7):
        check("buttap", N, expected=lambda N=N: scipy.signal.buttap(N), rtol=1e-12, atol=1e-14)
        check("cheb1ap", N, 2.0, rtol=1e-12, atol=1e-14)
        for f, args in [("cheb2ap", (30,)), ("ellipap", (1.0, 50)), ("besselap", ())]:
            want = _sorted_roots(getattr(scipy.signal, f)(N, *args))
            got = _sorted_roots(tuple(v.get() if isinstance(v, cunp.ndarray) else v
                                      for v in getattr(csignal, f)(N, *args)))
            for g, w in zip(got, want):
                numpy.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)
    check("buttap", -1, message=True)


@pytest.mark.parametrize("name", ["buttord", "cheb1ord", "cheb2ord", "ellipord"])
def test_order_selection(device, name):
    for wp, ws, gpass, gstop, kw in [(0.2, 0.3, 3, 40, {}), (0.3, 0.2, 1, 60, {}), ([0.2, 0.5], [0.1, 0.6], 3, 40, {}),
                                     ([0.1, 0.6], [0.2, 0.5], 3, 40, {}), (20, 30, 3, 60, dict(analog=True)),
                                     ([20, 50], [14, 60], 2, 45, dict(analog=True)), (100, 150, 1, 30, dict(fs=1000)),
                                     ([100, 250], [150, 200], 1, 30, dict(fs=1000))]:
        check(name, wp, ws, gpass, gstop, rtol=1e-4, **kw)
    check(name, 0.2, 0.3, 0, 40, message=True)
    check(name, 0.2, 0.3, 50, 40, message=True)


def test_iirdesign_notch_peak_comb(device):
    check("iirdesign", 0.2, 0.3, 1, 40, rtol=1e-6, atol=1e-12)
    check("iirdesign", [0.2, 0.5], [0.1, 0.6], 1, 40, ftype="cheby2", output="sos", rtol=1e-6, atol=1e-12)
    check("iirdesign", 0.2, 0.3, 1, 40, ftype="bessel", message=True)
    check("iirdesign", [0.2, 0.5], [0.3, 0.6], 1, 40, message=True)
    check("iirnotch", 60, 30, fs=1000, rtol=1e-12)
    check("iirpeak", 0.3, 5, rtol=1e-12)
    check("iirnotch", 1.5, 5, message=True)
    for kw in [dict(), dict(ftype="peak"), dict(ftype="peak", pass_zero=True), dict(pass_zero=True)]:
        check("iircomb", 100, 30, fs=1000, rtol=1e-12, **kw)
    check("iircomb", 70, 30, fs=1000, message=True)
    check("iircomb", 100, 30, ftype="x", fs=1000, message=True)


def test_conversions(device):
    b, a = scipy.signal.butter(5, [0.2, 0.4], "band")
    z, p, k = scipy.signal.butter(5, [0.2, 0.4], "band", output="zpk")
    sos = scipy.signal.butter(5, [0.2, 0.4], "band", output="sos")
    tol = dict(rtol=1e-7, atol=1e-12)
    got = csignal.tf2zpk(cunp.asarray(b), cunp.asarray(a))
    want = scipy.signal.tf2zpk(b, a)
    for g, w in zip(_sorted_roots(tuple(v.get() if isinstance(v, cunp.ndarray) else v for v in got)),
                    _sorted_roots(want)):
        numpy.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-10)
    check("zpk2tf", z, p, k, **tol)
    check("tf2sos", b, a, **tol)
    check("tf2sos", b, a, "keep_odd", **tol)
    check("sos2tf", sos, **tol)
    check("zpk2sos", z, p, k, **tol)
    check("zpk2sos", numpy.array([1j, -1j, 0.5]), numpy.array([0.9, 0.3 + 0.2j, 0.3 - 0.2j, -0.1]), 2.0, **tol)
    check("zpk2sos", numpy.array([1j, -1j]), numpy.array([0.9j, -0.9j, 0.5]), 1.0, pairing="minimal", **tol)
    check("zpk2sos", *scipy.signal.butter(3, 1.0, analog=True, output="zpk"), analog=True, **tol)
    check("zpk2sos", [], [], 2.0)
    check("zpk2sos", z, p, k, pairing="bad", message=True)
    check("zpk2sos", numpy.array([1j]), numpy.array([0.5, 0.2]), 1.0, message=True)
    s = csignal.sos2zpk(cunp.asarray(sos))
    w = scipy.signal.sos2zpk(sos)
    for gv, wv in zip(_sorted_roots(tuple(v.get() if isinstance(v, cunp.ndarray) else v for v in s)),
                      _sorted_roots(w)):
        numpy.testing.assert_allclose(gv, wv, rtol=1e-6, atol=1e-9)
    check("normalize", [0, 2, 4], [2, 1], **tol)
    check("normalize", [[1, 2], [3, 4]], [2, 1], **tol)
    check("normalize", [1, 2], [0, 0], message=True)
    with pytest.warns(csignal.BadCoefficients):
        csignal.normalize([1e-20, 1, 2], [1, 0.5])


def test_frequency_transformations(device):
    ba = scipy.signal.cheby1(3, 1, 2.0, analog=True)
    tol = dict(rtol=1e-9, atol=1e-12)
    check("lp2lp", *ba, 3.0, **tol)
    check("lp2hp", *ba, 3.0, **tol)
    check("lp2bp", *ba, 3.0, 2.0, **tol)
    check("lp2bs", *ba, 3.0, 2.0, **tol)
    check("bilinear", *ba, 10.0, **tol)
    check("bilinear", numpy.ones((2, 2)), [1, 2], message=True)
    zpk = scipy.signal.cheb2ap(3, 30)
    for name, extra in [("lp2lp_zpk", (2.0,)), ("lp2hp_zpk", (2.0,)), ("lp2bp_zpk", (2.0, 1.0)),
                        ("lp2bs_zpk", (2.0, 1.0)), ("bilinear_zpk", (2.0,))]:
        check(name, *zpk, *extra, **tol)
    check("lp2lp_zpk", numpy.array([1.0, 2.0]), numpy.array([1.0]), 1.0, message=True)


def test_fir_designs(device):
    tol = dict(rtol=1e-9, atol=1e-13)
    for args, kw in [((31, 0.3), {}), ((32, [0.2, 0.4]), dict(pass_zero=False)), ((31, [0.2, 0.4]), {}),
                     ((31, 100), dict(fs=1000, width=20)),
                     ((31, 0.3), dict(window=("kaiser", 8), pass_zero="highpass", scale=False)),
                     ((41, [0.1, 0.3, 0.6]), dict(window="blackman", pass_zero="bandstop"))]:
        check("firwin", *args, **kw, **tol)
    for args, kw in [((32, 0.3), dict(pass_zero=False)), ((31, 1.2), {}), ((31, [0.4, 0.2]), {}),
                     ((31, [0.2, 0.4]), dict(pass_zero="lowpass")), ((31, 0.3), dict(pass_zero="maybe"))]:
        check("firwin", *args, message=True, **kw)
    for args, kw in [((31, [0, 0.3, 0.6, 1], [1, 1, 0, 0]), {}), ((30, [0, 0.3, 0.3, 1], [1, 1, 0, 0]), {}),
                     ((31, [0, 0.3, 1], [0, 1, 0]), dict(antisymmetric=True)),
                     ((32, [0, 0.5, 1], [0, 1, 1]), dict(antisymmetric=True, window=None, nfreqs=129)),
                     ((31, [0, 250, 500], [1, 0.5, 0]), dict(fs=1000))]:
        check("firwin2", *args, **kw, **tol)
    check("firwin2", 30, [0, 0.5, 1], [1, 1, 1], message=True)
    check("firwin2", 31, [0, 0.5, 0.9], [1, 1, 1], message=True)
    for args, kw in [((31, [0, 0.3, 0.4, 1], [1, 1, 0, 0]), {}), ((41, [0, 100, 150, 500], [1, 1, 0, 0]),
                                                              dict(fs=1000, weight=[1, 10])),
                     ((11, [0, 0.3, 0.5, 1], [0, 1, 1, 0]), {})]:
        check("firls", *args, **kw, rtol=1e-8, atol=1e-12)
    check("firls", 10, [0, 0.3, 0.4, 1], [1, 1, 0, 0], message=True)
    check("firls", 11, [0, 0.4, 0.3, 1], [1, 1, 0, 0], message=True)
    for args, kw in [((11, [0, 0.1, 0.2, 0.5], [1, 0]), {}), ((72, [0, 0.1, 0.15, 0.5], [1, 0]), {}),
                     ((51, [0, 0.1, 0.15, 0.3, 0.35, 0.5], [0, 1, 0]), dict(weight=[1, 2, 1])),
                     ((20, [0.05, 0.45], [1]), dict(type="hilbert")), ((21, [0.05, 0.45], [1]), dict(type="hilbert")),
                     ((21, [0, 0.5], [1]), dict(type="differentiator")),
                     ((22, [0.01, 0.3, 0.4, 0.5], [1, 0]), dict(type="differentiator")),
                     ((31, [0, 100, 150, 500], [1, 0]), dict(fs=1000))]:
        check("remez", *args, **kw, rtol=1e-8, atol=1e-12)
    for args, kw in [((11, [0, 0.1, 0.2, 0.5], [1, 0]), dict(type="foo")), ((11, [0, 0.3, 0.2, 0.5], [1, 0]), {}),
                     ((11, [0, 0.1, 0.2, 0.6], [1, 0]), {}), ((11, [0, 0.1, 0.2], [1, 0]), {})]:
        check("remez", *args, message=True, **kw)
    check("kaiserord", 65, 0.1, rtol=1e-12)
    check("kaiserord", 5, 0.1, message=True)
    for a in (10, 30, 60):
        check("kaiser_beta", a, rtol=1e-12)
    check("kaiser_atten", 31, 0.1, rtol=1e-12)


def test_frequency_responses(device):
    b, a = scipy.signal.butter(4, 0.3)
    z, p, k = scipy.signal.butter(4, 0.3, output="zpk")
    sos = scipy.signal.butter(6, [0.2, 0.4], "band", output="sos")
    fir = scipy.signal.firwin(31, 0.3)
    tol = dict(rtol=1e-9, atol=1e-12)
    check("freqz", b, a, **tol)
    check("freqz", fir, **tol)
    check("freqz", fir, worN=100, whole=True, **tol)
    check("freqz", fir, worN=101, include_nyquist=True, **tol)
    check("freqz", b, a, worN=numpy.linspace(0, 1000, 33), fs=2000, **tol)
    check("freqz", fir.astype(numpy.float32), worN=64, rtol=1e-5, atol=1e-6)
    check("freqz", [1, 2j, 3], worN=16, whole=True, **tol)
    check("freqz", numpy.stack([fir, fir[::-1]], axis=1), worN=8, **tol)
    check("freqz", b, a, worN=-1, message=True)
    check("freqz_zpk", z, p, k, **tol)
    check("freqz_zpk", z, p, k, worN=[0.1, 0.2], fs=2, **tol)
    check("freqz_sos", sos, **tol)
    check("sosfreqz", sos, worN=100, whole=True, fs=100, **tol)
    check("freqz_sos", numpy.ones((2, 5)), message=True)
    check("group_delay", (b, a), **tol)
    check("group_delay", (fir, 1), w=64, whole=True, rtol=1e-8, atol=1e-9)
    with pytest.warns(UserWarning, match="singular"):
        csignal.group_delay(([1, 1], [1, -1]), w=[0.0, 1.0])
    ba = scipy.signal.cheby1(4, 1, 10.0, analog=True)
    zpk = scipy.signal.cheby1(4, 1, 10.0, analog=True, output="zpk")
    check("freqs", *ba, **tol)
    check("freqs", *ba, worN=numpy.logspace(0, 2, 10), **tol)
    check("freqs_zpk", *zpk, **tol)
    check("freqs_zpk", *zpk, worN=50, **tol)
    check("findfreqs", *ba, 5, **tol)


def test_designs_land_on_a_cunp_argument_device(device):
    b = cunp.asarray(numpy.array([1.0, 2.0, 1.0]), device=device)
    with cunp.Device("cpu"):
        w, h = csignal.freqz(b, worN=8)
        z, p, k = csignal.tf2zpk(b, [1.0, 0.5])
    assert str(h.device) == device and str(z.device) == device
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        csignal.butter(3, 0.3)

"""cunpx.scipy.signal's spectral analysis against SciPy: welch, csd, periodogram,
coherence, spectrogram (every mode), stft/istft (boundaries, padding, scalings, axes),
lombscargle, check_COLA/check_NOLA and the ShortTimeFFT class (every fft_mode, padding,
phase shift, scaling, the bookkeeping properties and istft), on multi-dimensional,
complex, float32, empty and short inputs, with SciPy's errors; on every device."""
import warnings

import numpy
import pytest
import scipy.signal

import cunp
import cunpx.scipy.signal as csignal
from scipy_oracle import assert_close, check


@pytest.fixture
def signals(rng):
    x = rng.standard_normal((3, 600))
    y = rng.standard_normal((3, 600))
    return x, y


def test_welch(device, signals):
    x, _ = signals
    check("welch", x)
    check("welch", x, nperseg=100, noverlap=30, nfft=128, fs=10.0)
    check("welch", x.T, axis=0, nperseg=64, detrend="linear")
    check("welch", x, nperseg=64, average="median", scaling="spectrum")
    check("welch", x.astype(numpy.float32), nperseg=64, rtol=2e-4)
    check("welch", x + 1j * x[::-1], nperseg=64)
    check("welch", x, window=("kaiser", 5.0), nperseg=63, return_onesided=False)
    check("welch", x, window=numpy.hanning(50), detrend=lambda d: d - d.mean(axis=-1, keepdims=True))
    check("welch", x.reshape(3, 2, 300), nperseg=32, axis=-1, detrend=False)
    check("welch", x[0, :20])  # shorter than the default nperseg: a warning, nperseg = 20
    check("welch", numpy.zeros((2, 0)))
    check("welch", x, nperseg=0, message=True)
    check("welch", x, nperseg=64, noverlap=64, message=True)
    check("welch", x, nperseg=64, nfft=32, message=True)
    check("welch", x, nperseg=64, average="mode", message=True)
    check("welch", x, nperseg=64, scaling="bad")
    got = csignal.welch(cunp.asarray(x), nperseg=64)[1]
    assert str(got.device) == device


def test_csd_coherence_periodogram(device, signals):
    x, y = signals
    check("csd", x, y, nperseg=64)
    check("csd", x, y[:, :400], nperseg=64)
    check("csd", x, y[0], nperseg=64, average="median")
    check("csd", x + 1j * y, y, nperseg=64, scaling="spectrum")
    check("csd", x, numpy.zeros((3, 0)), nperseg=64)
    check("csd", x, y[:2], nperseg=64, message=True)
    check("coherence", x, y, nperseg=64)
    check("coherence", x.T, y.T, nperseg=50, axis=0, nfft=64)
    check("periodogram", x)
    check("periodogram", x, nfft=500, window="hann")
    check("periodogram", x, nfft=800, scaling="spectrum", detrend=False)
    check("periodogram", x.T, axis=0, return_onesided=False, fs=3.0)
    check("periodogram", x + 1j * y)
    check("periodogram", numpy.zeros(0))
    check("periodogram", x, window=numpy.ones(10), message=True)


def test_spectrogram(device, signals):
    x, _ = signals
    check("spectrogram", x)
    for mode in ("psd", "complex", "magnitude", "angle", "phase"):
        check("spectrogram", x, nperseg=64, mode=mode)
    check("spectrogram", x.T, nperseg=64, noverlap=16, axis=0, scaling="spectrum", nfft=100)
    check("spectrogram", x + 1j * x, nperseg=32, mode="complex")
    check("spectrogram", x, mode="bad", message=True)
    check("spectrogram", x, window=numpy.ones((2, 2)), message=True)


def test_stft_istft(device, signals):
    x, y = signals
    for kw in [dict(), dict(boundary="even", padded=False, noverlap=40), dict(boundary="odd", scaling="psd"),
               dict(boundary="constant", detrend="constant"), dict(boundary=None, nfft=80),
               dict(window=("tukey", 0.3), return_onesided=False)]:
        check("stft", x, nperseg=64, **kw)
    check("stft", x.T, axis=0, nperseg=50, boundary=None)
    check("stft", x + 1j * y, nperseg=64)
    check("stft", x, nperseg=64, boundary="bad", message=True)
    check("stft", x, nperseg=64, scaling="bad", message=True)
    _, _, Z = scipy.signal.stft(x, nperseg=64)
    check("istft", Z)
    check("istft", Z, boundary=False)
    check("istft", numpy.swapaxes(Z, 1, 2), time_axis=1, freq_axis=2)
    check("istft", Z, scaling="psd")
    check("istft", Z[:, :, :5], nperseg=64, noverlap=48, window="hamming")
    _, _, Zc = scipy.signal.stft(x + 1j * y, nperseg=64, return_onesided=False)
    check("istft", Zc, input_onesided=False)
    check("istft", Z[0, 0], message=True)
    check("istft", Z, time_axis=1, freq_axis=1, message=True)
    check("istft", Z, nperseg=64, noverlap=64, message=True)
    # Round trip on the device.
    xd = cunp.asarray(x)
    _, _, Zd = csignal.stft(xd, nperseg=64)
    _, xr = csignal.istft(Zd)
    numpy.testing.assert_allclose(xr.get()[:, :600], x, atol=1e-12)


def test_lombscargle(device, rng):
    t = numpy.sort(rng.uniform(0, 10, 120))
    y = numpy.sin(2 * t) + rng.standard_normal(120) * 0.1
    f = numpy.linspace(0.1, 5, 40)
    check("lombscargle", t, y, f, rtol=1e-9, atol=1e-12)
    check("lombscargle", t, y, f, normalize=True, floating_mean=True, rtol=1e-9, atol=1e-12)
    check("lombscargle", t, y, f, normalize="amplitude", weights=rng.uniform(0.5, 1, 120), rtol=1e-9, atol=1e-12)
    check("lombscargle", t, y[:10], f, message=True)
    check("lombscargle", t, y, f, normalize="bad", message=True)
    check("lombscargle", t, y, f, weights=-numpy.ones(120), message=True)


def test_cola_nola(device):
    for window, nperseg, noverlap in [("hann", 64, 32), ("hann", 64, 20), ("boxcar", 16, 0), (("tukey", 0.5), 30, 15),
                                      (numpy.hamming(32), 32, 16), ("bartlett", 8, 7)]:
        check("check_COLA", window, nperseg, noverlap)
        check("check_NOLA", window, nperseg, noverlap)
    check("check_NOLA", numpy.zeros(8), 8, 4)
    check("check_COLA", "hann", 0, 0, message=True)
    check("check_COLA", "hann", 8, 8, message=True)
    check("check_NOLA", "hann", 8, -1, message=True)
    check("check_NOLA", numpy.ones(5), 8, 4, message=True)


def _stft_pair(win, hop, **kw):
    return scipy.signal.ShortTimeFFT(win, hop, 100.0, **kw), csignal.ShortTimeFFT(cunp.asarray(win), hop, 100.0, **kw)


@pytest.mark.parametrize("kw", [dict(), dict(fft_mode="twosided"), dict(fft_mode="centered", mfft=80),
                                dict(scale_to="psd", fft_mode="onesided2X"), dict(phase_shift=None),
                                dict(phase_shift=5, mfft=70, scale_to="magnitude")], ids=repr)
def test_short_time_fft(device, signals, kw):
    x, _ = signals
    for win, hop in [(scipy.signal.windows.hann(64, sym=False), 16), (scipy.signal.windows.gaussian(51, 8), 10)]:
        A, B = _stft_pair(win, hop, **kw)
        assert_close(B.stft(cunp.asarray(x)), A.stft(x))
        assert_close(B.spectrogram(cunp.asarray(x), detr="linear"), A.spectrogram(x, detr="linear"))
        assert_close(B.stft(x, padding="odd"), A.stft(x, padding="odd"))
        assert_close(B.stft(x, padding="even", p0=2, p1=20, k_offset=3), A.stft(x, padding="even", p0=2, p1=20,
                                                                                 k_offset=3))
        assert_close(B.stft(x.T, axis=0, padding="edge"), A.stft(x.T, axis=0, padding="edge"))
        S = A.stft(x)
        assert_close(B.istft(cunp.asarray(S), k1=600), A.istft(S, k1=600), rtol=1e-10, atol=1e-12)
        assert_close(B.istft(S, k0=10, k1=300), A.istft(S, k0=10, k1=300), rtol=1e-10, atol=1e-12)
        assert_close(B.t(600), A.t(600))
        assert_close(B.f, A.f)
        assert_close(B.dual_win, A.dual_win)
        assert_close(B.win, A.win)
        for attr in ("k_min", "p_min", "lower_border_end", "delta_f", "delta_t", "f_pts", "invertible", "m_num",
                     "m_num_mid", "mfft", "hop", "fs", "T", "scaling", "fft_mode", "phase_shift", "onesided_fft",
                     "fac_magnitude", "fac_psd"):
            assert_close(getattr(B, attr), getattr(A, attr), rtol=1e-12, path=attr)
        for n in (40, 600):
            assert B.p_max(n) == A.p_max(n) and B.k_max(n) == A.k_max(n) and B.p_num(n) == A.p_num(n)
            assert B.upper_border_begin(n) == A.upper_border_begin(n)
            assert B.p_range(n) == A.p_range(n) and B.nearest_k_p(n + 3) == A.nearest_k_p(n + 3)
        if A.fft_mode != "twosided":
            assert B.extent(600) == A.extent(600) and B.extent(600, "ft", True) == A.extent(600, "ft", True)


def test_short_time_fft_constructors_and_errors(device, signals):
    x, y = signals
    A = scipy.signal.ShortTimeFFT.from_window(("kaiser", 6), 100, 64, 48)
    B = csignal.ShortTimeFFT.from_window(("kaiser", 6), 100, 64, 48)
    assert_close(B.stft(x), A.stft(x))
    A = scipy.signal.ShortTimeFFT.from_win_equals_dual(scipy.signal.windows.hann(64), 16, 100, scale_to="unitary")
    B = csignal.ShortTimeFFT.from_win_equals_dual(scipy.signal.windows.hann(64), 16, 100, scale_to="unitary")
    assert_close(B.win, A.win)
    assert_close(B.dual_win, A.dual_win)
    assert B.scaling == A.scaling
    A = scipy.signal.ShortTimeFFT.from_dual(scipy.signal.windows.hann(64), 16, 100)
    B = csignal.ShortTimeFFT.from_dual(scipy.signal.windows.hann(64), 16, 100)
    assert_close(B.win, A.win)
    w, alpha = scipy.signal.closest_STFT_dual_window(scipy.signal.windows.hann(64), 16)
    wd, alpha_d = csignal.closest_STFT_dual_window(cunp.asarray(scipy.signal.windows.hann(64)), 16)
    assert_close(wd, w)
    assert_close(alpha_d, alpha)
    A, B = _stft_pair(scipy.signal.windows.hann(64), 16, fft_mode="centered")
    xc = x + 1j * y
    S = A.stft(xc)
    assert_close(B.stft(xc), S)
    assert_close(B.istft(S), A.istft(S), rtol=1e-10, atol=1e-12)
    assert_close(B.spectrogram(x, y), A.spectrogram(x, y))
    win = scipy.signal.windows.hann(16)
    for bad in [lambda m: m.ShortTimeFFT(numpy.ones((2, 2)), 4, 1.0), lambda m: m.ShortTimeFFT(win, 0, 1.0),
                lambda m: m.ShortTimeFFT(win, 4, -1.0), lambda m: m.ShortTimeFFT(win, 4, 1.0, fft_mode="bad"),
                lambda m: m.ShortTimeFFT(win, 4, 1.0, mfft=8), lambda m: m.ShortTimeFFT(win, 4, 1.0, phase_shift=99),
                lambda m: m.ShortTimeFFT(win, 4, 1.0, fft_mode="onesided2X"),
                lambda m: m.ShortTimeFFT(win, 4, 1.0).stft(x + 1j),
                lambda m: m.ShortTimeFFT(win, 4, 1.0).stft(x[:, :3]),
                lambda m: m.ShortTimeFFT(win, 4, 1.0).stft(x, padding="bad"),
                lambda m: m.ShortTimeFFT(win, 4, 1.0).stft(x, p0=5, p1=2),
                lambda m: m.ShortTimeFFT(win, 4, 1.0).istft(numpy.zeros((5, 3))),
                lambda m: m.ShortTimeFFT(win, 20, 1.0).dual_win]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(Exception) as want:
                bad(scipy.signal)
            with pytest.raises(type(want.value)) as got:
                bad(csignal)
        assert str(got.value) == str(want.value)


def test_docs_example_runs(device):
    """docs/scipy/signal-spectral.md's example runs (so it cannot rot)."""
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "scipy" / "signal-spectral.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    scope = {}
    for code in blocks:
        exec(compile(code, "signal-spectral.md", "exec"), scope)
    assert scope["pxx"].shape == (4, 513) and scope["pxx"].dtype == numpy.float32
    assert str(scope["y"].device) == device

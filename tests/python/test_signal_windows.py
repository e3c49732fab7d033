"""cunpx.scipy.signal.windows and get_window against SciPy: every window over lengths
0, 1, even and odd, symmetric and periodic, with its parameters; get_window's names,
aliases, suffixes, tuples and Kaiser betas; SciPy's errors and warnings; on every
device."""
import warnings

import numpy
import pytest
import scipy.signal

import cunp
import cunpx.scipy.signal as csignal
from scipy_oracle import check

LENGTHS = [0, 1, 2, 5, 16, 33]

WINDOWS = [
    ("boxcar", ()), ("triang", ()), ("parzen", ()), ("bohman", ()), ("blackman", ()), ("nuttall", ()),
    ("blackmanharris", ()), ("flattop", ()), ("bartlett", ()), ("hann", ()), ("barthann", ()), ("hamming", ()),
    ("cosine", ()), ("tukey", ()), ("tukey", (0.3,)), ("tukey", (0.0,)), ("tukey", (1.2,)),
    ("general_hamming", (0.6,)), ("kaiser", (8.6,)), ("kaiser", (0.0,)), ("gaussian", (2.5,)),
    ("general_gaussian", (1.5, 7.0)), ("chebwin", (60,)), ("chebwin", (100,)), ("exponential", ()),
    ("exponential", (None, 3.0)), ("taylor", ()), ("taylor", (5, 35, False)), ("general_cosine", ([0.5, 0.3, 0.2],)),
]


@pytest.mark.parametrize("name,params", WINDOWS, ids=lambda v: repr(v))
@pytest.mark.parametrize("sym", [True, False])
def test_windows(device, name, params, sym):
    for M in LENGTHS:
        got = check("windows." + name, M, *params, sym=sym, rtol=1e-12)
        assert str(got.device) == device and got.dtype == numpy.float64


def test_lanczos_kbd_exponential_center_dpss(device):
    for M in LENGTHS:
        check("windows.lanczos", M, rtol=1e-12)
        check("windows.lanczos", M, sym=False, rtol=1e-12)
        check("windows.exponential", M, 2.0, 1.5, sym=False, rtol=1e-12)
    for M in [0, 2, 8, 30]:
        check("windows.kaiser_bessel_derived", M, 4.0, rtol=1e-12)
    for M, NW, K in [(8, 1.5, None), (9, 2.0, 3), (64, 3.0, 5), (65, 2.5, None), (1, 1.0, None)]:
        for sym in (True, False):
            for norm in (None, 2, "approximate", "subsample"):
                check("windows.dpss", M, NW, K, sym=sym, norm=norm, rtol=1e-9, atol=1e-12)
                check("windows.dpss", M, NW, K, sym=sym, norm=norm, return_ratios=True, rtol=1e-9, atol=1e-12)


def test_window_errors(device):
    for args, kw in [((-1,), {}), ((2.5,), {}), ((4.0,), {}), ((numpy.int64(5),), {})]:
        check("windows.hann", *args, message=True, **kw)
    check("windows.kaiser_bessel_derived", 7, 3.0, message=True)
    check("windows.kaiser_bessel_derived", 8, 3.0, sym=False, message=True)
    check("windows.exponential", 8, 2.0, message=True)
    check("windows.dpss", 8, 4.0, message=True)
    check("windows.dpss", 8, -1.0, message=True)
    check("windows.dpss", 8, 1.0, 9, message=True)
    check("windows.dpss", 8, 1.0, norm="bad", message=True)
    with pytest.warns(UserWarning, match="not suitable for spectral analysis"):
        csignal.windows.chebwin(8, 30)


GET_WINDOW_SPECS = [
    "hann", "han", "hamming_periodic", "blackman_symmetric", "boxcar", "ones", "bartlett", "triang", "tri",
    "flattop", "nuttall", "parzen", "bohman", "cosine", "halfcosine", "barthann", "blackmanharris", "lanczos",
    "sinc", "tukey", "taylor", "exponential", ("kaiser", 4.0), ("ksr", 8), ("gaussian", 3.0), ("gss", 1),
    ("general_gaussian", 1.5, 5), ("general gauss", 2, 3.0), ("general_hamming", 0.7), ("chebwin", 70),
    ("tukey", 0.25), ("taylor", 3, 25, False), ("exponential", None, 2.0), ("dpss", 2.0), ("kbd", 3.0),
    ("general_cosine", [0.5, 0.5]), ("general_cosine", numpy.array([1.0, 0.5, 0.25])), 8.0, 0, numpy.float32(3),
]


@pytest.mark.parametrize("fftbins", [True, False])
def test_get_window(device, fftbins):
    for spec in GET_WINDOW_SPECS:
        for Nx in (1, 8, 9):
            got = check("get_window", spec, Nx, fftbins, rtol=1e-12, atol=1e-15)
            if got is not None:
                assert str(got.device) == device
    assert csignal.get_window is csignal.windows.get_window
    assert str(csignal.get_window("hann", 4, device="cpu").device) == "cpu"


def test_get_window_errors(device):
    for spec, Nx, fftbins in [("foo", 8, True), (("kaiser",), 8, True), ("kaiser", 8, True), (("hann", 1), 8, True),
                              ("hann", 0, True), ("hann", 8, 1), ([1], 8, True), ((1, 2), 8, True),
                              (("dpss", 1, 2), 8, True), ("kbd_periodic", 8, True), ("foo_periodic", 8, True)]:
        check("get_window", spec, Nx, fftbins, message=True)
    # Missing and surplus positional parameters: TypeError in both.
    check("get_window", ("general_gaussian", 1.0), 8)
    check("get_window", ("tukey", 0.5, 1, 2), 8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning):
            csignal.get_window(("chebwin", 20), 8)


def test_windows_in_spectral_use(device):
    """A periodic Hann window satisfies COLA at 50 % overlap on the device it lands on."""
    w = csignal.windows.hann(64, sym=False)
    s = (w[:32] + w[32:]).get()
    numpy.testing.assert_allclose(s, numpy.ones(32), rtol=1e-14)
    assert isinstance(w, cunp.ndarray) and scipy.signal.check_COLA(w.get(), 64, 32)

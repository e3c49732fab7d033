"""cunpx.scipy.signal's resampling against SciPy: upfirdn (every extension mode, rates,
axes, dtypes, empty signals), resample (even/odd lengths both ways, windows, complex,
t=, domain='freq'), resample_poly (pad types, windows) and decimate (FIR; IIR once the
IIR filters are present), with SciPy's errors; on every device."""
import numpy
import pytest

import cunp
import cunpx.scipy.signal as csignal
from scipy_oracle import check

MODES = ["constant", "edge", "wrap", "symmetric", "reflect", "antisymmetric", "antireflect", "smooth", "line"]


@pytest.mark.parametrize("mode", MODES)
def test_upfirdn_modes(device, rng, mode):
    for n in (2, 5, 33):
        for L in (1, 4, 21):
            for up, down in [(1, 1), (3, 1), (1, 4), (5, 3)]:
                check("upfirdn", rng.standard_normal(L), rng.standard_normal(n), up, down, mode=mode, cval=1.5)


def test_upfirdn_axes_dtypes_and_errors(device, rng):
    x = rng.standard_normal((3, 40, 5))
    for axis in (0, 1, 2, -1):
        check("upfirdn", rng.standard_normal(11), x + 1j * x, 3, 2, axis=axis)
    check("upfirdn", numpy.ones(5, numpy.float32), x.astype(numpy.float32), 2, 3, axis=1)
    check("upfirdn", numpy.ones(5, numpy.float32), numpy.arange(12, dtype=numpy.int16), 2, 1)
    check("upfirdn", numpy.array([1.0, 2j]), numpy.arange(6.0), 1, 2)
    check("upfirdn", [1, 1, 1], numpy.zeros(0), cval=5)
    check("upfirdn", [1.0], numpy.zeros(0))
    check("upfirdn", [1, 1, 1], numpy.ones((2, 0, 3)), axis=1)
    check("upfirdn", [], [1.0, 2.0], message=True)
    check("upfirdn", [[1.0]], [1.0, 2.0], message=True)
    check("upfirdn", [1.0], [1.0, 2.0], 0, message=True)
    check("upfirdn", [1.0], [1.0, 2.0], mode="foo", message=True)
    got = csignal.upfirdn(cunp.asarray([1.0, 1.0]), cunp.asarray(numpy.arange(4.0)), 2)
    assert str(got.device) == device


def test_resample(device, rng):
    x = rng.standard_normal((3, 101))
    for num in (50, 64, 101, 250):
        check("resample", x, num, axis=1)
        check("resample", x[:, :100], num, axis=1)
        check("resample", x[:, :100] + 1j * x[:, 1:], num, axis=1)
    check("resample", x.T, 40)
    check("resample", x, 60, axis=1, window="hann")
    check("resample", x, 60, axis=1, window=numpy.full(101, 0.5))
    check("resample", x, 60, axis=1, window=lambda f: 1 / (1 + (f * 10) ** 2))
    check("resample", x + 1j * x, 300, axis=1, window=("kaiser", 3))
    check("resample", x[0], 40, t=numpy.arange(101) * 0.1)
    check("resample", numpy.fft.fft(x[0]), 40, domain="freq")
    check("resample", x.astype(numpy.float32), 40, axis=1, rtol=1e-5)
    check("resample", x, 40, domain="bad", message=True)
    check("resample", x, 40, axis=1, window=numpy.ones(5), message=True)


def test_resample_poly(device, rng):
    x = rng.standard_normal((3, 101))
    check("resample_poly", x, 3, 2, axis=1)
    check("resample_poly", x.T, 2, 5)
    for padtype in ("mean", "median", "minimum", "maximum", "line", "reflect", "edge", "antireflect"):
        check("resample_poly", x, 7, 3, axis=1, padtype=padtype)
    check("resample_poly", x, 4, 2, axis=1, window=("kaiser", 8.0))
    check("resample_poly", x, 3, 4, axis=1, window=[1.0, 2, 1])
    check("resample_poly", x.astype(numpy.float32), 3, 2, axis=1, rtol=1e-5)
    check("resample_poly", x + 1j, 5, 2, axis=1, padtype="constant", cval=2.0)
    check("resample_poly", numpy.arange(20), 3, 2)
    check("resample_poly", x, 2, 2, axis=1)
    check("resample_poly", x, 1.5, 2, message=True)
    check("resample_poly", x, 0, 2, message=True)
    check("resample_poly", x, 3, 2, padtype="bad", message=True)
    check("resample_poly", x, 3, 2, padtype="edge", cval=1.0)
    check("resample_poly", x, 3, 2, window=numpy.ones((2, 2)), message=True)


def test_decimate_fir(device, rng):
    x = rng.standard_normal((3, 200))
    check("decimate", x, 4, ftype="fir")
    check("decimate", x, 3, ftype="fir", zero_phase=False)
    check("decimate", x.T, 5, n=30, ftype="fir", axis=0)
    check("decimate", x.astype(numpy.float32), 2, ftype="fir", rtol=1e-5)
    check("decimate", numpy.arange(64), 4, ftype="fir")
    check("decimate", x, 2, ftype="bad", message=True)
    check("decimate", x, 2.5, ftype="fir")


@pytest.mark.skipif(not hasattr(csignal, "sosfiltfilt"),
                    reason="decimate(ftype='iir') needs cunpx.scipy.signal.sosfiltfilt/sosfilt (the IIR filters), "
                           "which this branch does not have yet")
def test_decimate_iir(device, rng):
    x = rng.standard_normal((3, 200))
    check("decimate", x, 4, rtol=1e-8, atol=1e-12)
    check("decimate", x, 3, zero_phase=False, rtol=1e-8, atol=1e-12)
    check("decimate", x.T, 2, n=6, axis=0, rtol=1e-8, atol=1e-12)

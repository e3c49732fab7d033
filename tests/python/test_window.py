"""NumPy's window functions (bartlett, blackman, hamming, hanning, kaiser) against NumPy,
over lengths (negative, 0, 1, even, odd, float) and kaiser's beta, on every device."""
import warnings

import numpy
import pytest

import cunp

LENGTHS = [-3, 0, 1, 2, 3, 5, 6, 17, 64, 5.5, numpy.int32(9), numpy.float64(4.0)]


def _same(got, want):
    assert type(got) is cunp.ndarray
    assert got.dtype == want.dtype == numpy.float64 and got.shape == want.shape
    numpy.testing.assert_allclose(got.get(), want, rtol=4e-16, atol=1e-17, equal_nan=True)


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", LENGTHS, ids=repr)
def test_symmetric_windows(device, name, M):
    got = getattr(cunp, name)(M)
    assert str(got.device) == device
    _same(got, getattr(numpy, name)(M))


@pytest.mark.parametrize("M", LENGTHS, ids=repr)
@pytest.mark.parametrize("beta", [0.0, 0.5, 5, 8.6, 14.0, 40.0, -3.0])
def test_kaiser(device, M, beta):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's sqrt of a negative for M=5.5
        want = numpy.kaiser(M, beta)
    _same(cunp.kaiser(M, beta), want)


def test_window_device_argument(device):
    assert str(cunp.hanning(4, device="cpu").device) == "cpu"
    assert str(cunp.kaiser(4, 2.0, device=device).device) == device
    with pytest.raises(TypeError):
        cunp.hanning("four")

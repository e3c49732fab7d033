"""cunpx.scipy.fft.fht / ifht / fhtoffset against scipy.fft on every device."""
import numpy
import pytest
import scipy.fft

import cunp
from cunpx.scipy import fft as cfft

PARAMS = [(0.5, 0.0, 0.0), (1.0, 0.3, 0.0), (0.0, 0.0, 0.7), (2.0, -0.5, -0.4), (-0.5, 0.1, 0.2)]


def _signal(n):
    r = numpy.logspace(-3, 3, n)
    return r ** 1.5 * numpy.exp(-r ** 2 / 2), numpy.log(r[1] / r[0])


@pytest.mark.parametrize("n", [128, 127, 2, 1])
@pytest.mark.parametrize("mu,offset,bias", PARAMS)
def test_fht_and_ifht_match_scipy(device, n, mu, offset, bias):
    a, dln = _signal(max(n, 2))
    a = a[:n]
    for ours, theirs in ((cfft.fht, scipy.fft.fht), (cfft.ifht, scipy.fft.ifht)):
        want = theirs(a, dln, mu, offset=offset, bias=bias)
        got = ours(cunp.asarray(a), dln, mu, offset=offset, bias=bias)
        assert isinstance(got, cunp.ndarray) and got.dtype == numpy.float64 and got.shape == want.shape
        numpy.testing.assert_allclose(got.get(), want, rtol=1e-10, atol=1e-12 * numpy.abs(want).max())


def test_fht_batches_over_leading_axes_and_keeps_float32(device):
    a = numpy.random.default_rng(0).random((3, 4, 64))
    numpy.testing.assert_allclose(cfft.fht(cunp.asarray(a), 0.05, 0.5).get(), scipy.fft.fht(a, 0.05, 0.5),
                                  rtol=1e-10, atol=1e-12)
    got = cfft.fht(cunp.asarray(a.astype(numpy.float32)), 0.05, 0.5)
    assert got.dtype == numpy.float32
    numpy.testing.assert_allclose(got.get(), scipy.fft.fht(a.astype(numpy.float32), 0.05, 0.5), rtol=2e-4,
                                  atol=2e-5)


def test_ifht_inverts_fht(device):
    a, dln = _signal(96)
    offset = cfft.fhtoffset(dln, 0.5)
    back = cfft.ifht(cfft.fht(cunp.asarray(a), dln, 0.5, offset=offset), dln, 0.5, offset=offset)
    numpy.testing.assert_allclose(back.get(), a, atol=1e-10)


@pytest.mark.parametrize("mu,initial,bias", [(0.5, 0.0, 0.0), (0.5, 0.1, 0.2), (2.0, -1.0, -0.3)])
def test_fhtoffset_matches_scipy(mu, initial, bias):
    assert cfft.fhtoffset(0.1, mu, initial=initial, bias=bias) == pytest.approx(
        scipy.fft.fhtoffset(0.1, mu, initial=initial, bias=bias), rel=1e-12, abs=1e-13)


def test_fht_rejects_complex_and_scalars(device):
    with pytest.raises(TypeError):
        cfft.fht(cunp.ones(8, dtype=numpy.complex128), 0.1, 0.5)
    with pytest.raises(ValueError):
        cfft.fht(cunp.asarray(1.0), 0.1, 0.5)

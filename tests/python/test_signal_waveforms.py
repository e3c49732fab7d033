"""cunpx.scipy.signal's waveforms against SciPy: chirp (every method, vertex_zero, phi,
complex, float32 and integer times), sweep_poly, gausspulse (with quadrature and
envelope, 'cutoff'), square and sawtooth (duty/width inside and outside [0, 1]),
unit_impulse; SciPy's errors; on every device."""
import numpy
import pytest

import cunpx.scipy.signal as csignal
from scipy_oracle import check


@pytest.mark.parametrize("method", ["linear", "quadratic", "logarithmic", "hyperbolic", "lin", "q", "log", "hyp"])
def test_chirp(device, method):
    t = numpy.linspace(0, 2, 301)
    check("chirp", t, 1, 2, 10, method=method)
    check("chirp", t, 3, 1.5, 0.5, method=method, phi=30, vertex_zero=False)
    check("chirp", t, 1, 2, 10, method=method, complex=True)
    # float32 phases differ by a few ulps between formulations: compare the waves absolutely.
    check("chirp", t.astype(numpy.float32), 1, 2, 10, method=method, rtol=1e-5, atol=1e-4)
    check("chirp", numpy.arange(5), 1, 2, 10, method=method)


def test_chirp_errors(device):
    t = numpy.linspace(0, 1, 11)
    check("chirp", t, 1, 1, -2, method="log", message=True)
    check("chirp", t, 0, 1, 2, method="hyperbolic", message=True)
    check("chirp", t, 1, 1, 2, method="bad", message=True)


def test_periodic_waves(device, rng):
    t = numpy.linspace(-10, 30, 401)
    for w in (0.5, 0.0, 1.0, 0.3, numpy.linspace(-0.5, 1.5, 401)):
        check("square", t, w)
        check("sawtooth", t, w)
    check("square", t.reshape(1, -1), numpy.array([[0.2], [0.7]]))
    check("sawtooth", numpy.arange(10))


def test_gausspulse_sweep_poly_unit_impulse(device):
    t = numpy.linspace(-1, 1, 201)
    check("gausspulse", t, fc=5)
    check("gausspulse", t, fc=5, retquad=True)
    check("gausspulse", t, fc=5, retenv=True)
    check("gausspulse", t, fc=5, retquad=True, retenv=True)
    check("gausspulse", "cutoff", fc=5, tpr=-40)
    for kw in (dict(fc=-1), dict(bw=0), dict(bwr=1)):
        check("gausspulse", t, message=True, **kw)
    check("gausspulse", "cutoff", tpr=1, message=True)
    check("gausspulse", "bad", message=True)
    check("sweep_poly", t, [1, 2, 3])
    check("sweep_poly", t, numpy.poly1d([0.5, 2]), phi=45)
    for args, kw in [((8,), {}), (((3, 4), "mid"), {}), (((3, 4), (1, 2)), dict(dtype=numpy.float32)), ((7, 2), {}),
                     ((5,), dict(dtype=complex))]:
        got = check("unit_impulse", *args, **kw)
        assert str(got.device) == device
    assert csignal.unit_impulse(4).sum().item() == 1

"""The distributions composed on the device (standard_cauchy, standard_t, f,
noncentral_chisquare, noncentral_f, power, triangular, wald, negative_binomial,
logseries, dirichlet, multinomial, multivariate_normal, bytes): shapes and dtypes as
NumPy's, the moments of 200 000 draws against the distributions' (NumPy's own draws
as the check of the tolerance), and NumPy's errors, on Generator, RandomState and the
module functions, on every device."""
import numpy
import pytest

import cunp

N = 200_000
# name, args, (mean, variance) or None where a moment does not exist
MOMENTS = [
    ("standard_t", (6.0,), (0.0, 6.0 / 4.0)),
    ("f", (5.0, 10.0), (10.0 / 8.0, 2 * 100 * 13 / (5 * 64 * 6))),
    ("noncentral_chisquare", (3.0, 2.0), (5.0, 2 * (3 + 4))),
    ("noncentral_chisquare", (0.5, 1.5), (2.0, 2 * (0.5 + 3))),
    ("noncentral_f", (5.0, 12.0, 2.0), (12 * (5 + 2) / (5 * 10), None)),
    ("power", (3.0,), (3 / 4, 3 / (16 * 5))),
    ("triangular", (0.0, 1.0, 3.0), (4 / 3, (0 + 1 + 9 - 0 - 0 - 3) / 18)),
    ("wald", (1.5, 2.0), (1.5, 1.5 ** 3 / 2.0)),
    ("negative_binomial", (3, 0.4), (3 * 0.6 / 0.4, 3 * 0.6 / 0.16)),
    ("logseries", (0.6,), (-0.6 / (0.4 * numpy.log(0.4)), None)),
]


@pytest.mark.parametrize("name,args,moments", MOMENTS, ids=[m[0] + str(m[1]) for m in MOMENTS])
def test_moments(device, name, args, moments):
    g = cunp.random.default_rng(2026)
    x = getattr(g, name)(*args, size=N)
    ref = getattr(numpy.random.default_rng(7), name)(*args, size=N)
    assert type(x) is cunp.ndarray and x.shape == (N,) and x.dtype == ref.dtype
    assert str(x.device) == device
    h = x.get().astype(numpy.float64)
    mean, var = moments
    se = numpy.sqrt(ref.var() / N)
    assert abs(h.mean() - mean) < 6 * se, (h.mean(), mean, ref.mean())
    if var is not None:
        assert abs(h.var() - var) < 0.05 * var, (h.var(), var, ref.var())
    if name in ("power", "triangular"):
        lo, hi = (0.0, 1.0) if name == "power" else (args[0], args[2])
        assert h.min() >= lo and h.max() <= hi


def test_standard_cauchy(device):
    x = cunp.random.default_rng(3).standard_cauchy((400, 500)).get()
    assert x.shape == (400, 500) and x.dtype == numpy.float64
    # median 0, quartiles at -1 and 1
    q = numpy.quantile(x, [0.25, 0.5, 0.75])
    numpy.testing.assert_allclose(q, [-1, 0, 1], atol=0.02)


def test_float32_and_scalars(device):
    g = cunp.random.default_rng(5)
    assert g.standard_t(3.0, size=4, dtype=numpy.float32).dtype == numpy.float32
    assert g.power(2.0, size=(2, 2), dtype=numpy.float32).dtype == numpy.float32
    for call in (lambda: g.standard_t(3.0), lambda: g.f(2.0, 3.0), lambda: g.wald(1.0, 1.0),
                 lambda: g.triangular(0, 1, 2), lambda: g.standard_cauchy()):
        assert isinstance(call(), float)
    assert isinstance(g.negative_binomial(3, 0.5), int) and isinstance(g.logseries(0.3), int)
    # array parameters broadcast
    r = g.triangular(cunp.zeros(3, device=device), 1.0, cunp.asarray([2.0, 3.0, 4.0], device=device))
    assert r.shape == (3,) and bool((r.get() <= [2, 3, 4]).all())


def test_dirichlet_multinomial_multivariate_normal(device):
    g = cunp.random.default_rng(11)
    alpha = [1.0, 2.0, 5.0]
    d = g.dirichlet(alpha, size=50_000).get()
    assert d.shape == (50_000, 3)
    numpy.testing.assert_allclose(d.sum(axis=1), 1.0, rtol=1e-12)
    numpy.testing.assert_allclose(d.mean(axis=0), numpy.array(alpha) / 8, atol=0.005)
    assert g.dirichlet(alpha).shape == (3,)
    m = g.multinomial(20, [0.2, 0.3, 0.5], size=(40_000,)).get()
    assert m.shape == (40_000, 3) and m.dtype == numpy.int64 and (m.sum(axis=1) == 20).all()
    numpy.testing.assert_allclose(m.mean(axis=0), [4, 6, 10], atol=0.05)
    assert g.multinomial(10, [0.5, 0.5]).shape == (2,)
    cov = numpy.array([[2.0, 0.8], [0.8, 1.0]])
    for method in ("svd", "eigh", "cholesky"):
        s = g.multivariate_normal([1.0, -2.0], cov, size=100_000, method=method).get()
        assert s.shape == (100_000, 2)
        numpy.testing.assert_allclose(s.mean(axis=0), [1, -2], atol=0.02)
        numpy.testing.assert_allclose(numpy.cov(s.T), cov, atol=0.03)
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        g.multivariate_normal([0, 0], [[1, 2], [2, 1]])
    with pytest.raises(ValueError, match="positive-semidefinite"):
        g.multivariate_normal([0, 0], [[1, 2], [2, 1]], check_valid="raise")
    b = g.bytes(16)
    assert type(b) is bytes and len(b) == 16


ERRORS = [
    ("standard_t", (0,)), ("f", (0, 1)), ("f", (1, 0)), ("noncentral_chisquare", (0, 1)),
    ("noncentral_chisquare", (1, -1)), ("noncentral_f", (1, 1, -1)), ("power", (0,)),
    ("triangular", (2, 1, 3)), ("triangular", (1, 4, 3)), ("triangular", (1, 1, 1)), ("wald", (-1, 1)),
    ("wald", (1, 0)), ("negative_binomial", (0, 0.5)), ("negative_binomial", (1, 1.5)), ("logseries", (1.0,)),
    ("dirichlet", ([1, -1],)), ("multinomial", (10, [0.6, 0.6, 0.1])),
]


@pytest.mark.parametrize("name,args", ERRORS, ids=[e[0] + str(e[1]) for e in ERRORS])
def test_errors_as_numpy(device, name, args):
    with pytest.raises(ValueError) as want:
        getattr(numpy.random.default_rng(0), name)(*args)
    for owner in (cunp.random.default_rng(0), cunp.random.RandomState(0), cunp.random):
        with pytest.raises(ValueError) as got:
            getattr(owner, name)(*args)
        assert str(got.value) == str(want.value)


def test_legacy_forms(device):
    rs = cunp.random.RandomState(1)
    assert rs.standard_t(4, size=3).shape == (3,)
    assert cunp.random.standard_cauchy(size=(2, 2)).shape == (2, 2)
    assert cunp.random.multivariate_normal([0, 0], [[1, 0], [0, 1]], size=5).shape == (5, 2)
    a = cunp.random.RandomState(9).wald(1.0, 1.0, size=5).get()
    numpy.testing.assert_array_equal(cunp.random.RandomState(9).wald(1.0, 1.0, size=5).get(), a)


@pytest.mark.parametrize("kappa", [0.5, 4.0, 1e-9, 1e7])
def test_vonmises(device, kappa):
    special = pytest.importorskip("scipy.special")
    x = cunp.random.default_rng(4).vonmises(0.5, kappa, size=N)
    assert x.shape == (N,) and x.dtype == numpy.float64
    h = x.get()
    assert h.min() >= -numpy.pi and h.max() <= numpy.pi
    # E[cos(x - mu)] = I1(kappa) / I0(kappa)
    want = special.i1(kappa) / special.i0(kappa) if kappa < 700 else 1 - 1 / (2 * kappa)
    assert abs(numpy.cos(h - 0.5).mean() - want) < 0.01
    if kappa > 0.1:
        assert abs(numpy.angle(numpy.exp(1j * h).mean()) - 0.5) < 0.02
    assert isinstance(cunp.random.default_rng(1).vonmises(0.0, 1.0), float)


def test_zipf(device):
    special = pytest.importorskip("scipy.special")
    z = cunp.random.default_rng(6).zipf(2.5, size=N)
    assert z.dtype == numpy.int64 and z.shape == (N,)
    h = z.get()
    assert h.min() >= 1
    for k in (1, 2, 3):  # P(X = k) = k^-a / zeta(a)
        p = k ** -2.5 / special.zeta(2.5)
        assert abs((h == k).mean() - p) < 5 * numpy.sqrt(p * (1 - p) / N)
    assert isinstance(cunp.random.default_rng(1).zipf(3.0), int)
    r = cunp.random.default_rng(2).zipf(cunp.asarray([2.0, 3.0, 4.0], device=device))
    assert r.shape == (3,)


@pytest.mark.parametrize("name,args", [("vonmises", (0, -1)), ("zipf", (1,)), ("zipf", (float("nan"),))])
def test_rejection_sampler_errors(device, name, args):
    with pytest.raises(ValueError) as want:
        getattr(numpy.random.default_rng(0), name)(*args)
    with pytest.raises(ValueError) as got:
        getattr(cunp.random.default_rng(0), name)(*args)
    assert str(got.value) == str(want.value)

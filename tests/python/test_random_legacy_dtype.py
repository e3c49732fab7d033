"""CuPy's `dtype=` on the legacy float samplers (module functions and RandomState
methods), and the module-level get_state/set_state, on every device."""
import numpy
import pytest

import cunp

CALLS = [
    ("rand", lambda f, dt: f(3, 4, dtype=dt), (3, 4)),
    ("randn", lambda f, dt: f(5, dtype=dt), (5,)),
    ("random_sample", lambda f, dt: f((2, 3), dtype=dt), (2, 3)),
    ("random", lambda f, dt: f(size=4, dtype=dt), (4,)),
    ("uniform", lambda f, dt: f(-1.0, 2.0, size=(3,), dtype=dt), (3,)),
    ("normal", lambda f, dt: f(1.0, 2.0, size=6, dtype=dt), (6,)),
    ("standard_normal", lambda f, dt: f(size=(2, 2), dtype=dt), (2, 2)),
    ("exponential", lambda f, dt: f(2.0, size=5, dtype=dt), (5,)),
    ("standard_exponential", lambda f, dt: f(size=5, dtype=dt), (5,)),
    ("standard_gamma", lambda f, dt: f(2.0, size=5, dtype=dt), (5,)),
    ("gamma", lambda f, dt: f(2.0, 3.0, size=5, dtype=dt), (5,)),
    ("beta", lambda f, dt: f(2.0, 3.0, size=5, dtype=dt), (5,)),
    ("chisquare", lambda f, dt: f(3.0, size=5, dtype=dt), (5,)),
    ("lognormal", lambda f, dt: f(0.0, 1.0, size=5, dtype=dt), (5,)),
    ("laplace", lambda f, dt: f(0.0, 1.0, size=5, dtype=dt), (5,)),
    ("logistic", lambda f, dt: f(0.0, 1.0, size=5, dtype=dt), (5,)),
    ("gumbel", lambda f, dt: f(0.0, 1.0, size=5, dtype=dt), (5,)),
    ("weibull", lambda f, dt: f(1.5, size=5, dtype=dt), (5,)),
    ("pareto", lambda f, dt: f(3.0, size=5, dtype=dt), (5,)),
    ("rayleigh", lambda f, dt: f(1.0, size=5, dtype=dt), (5,)),
]


@pytest.mark.parametrize("name,call,shape", CALLS, ids=[c[0] for c in CALLS])
@pytest.mark.parametrize("dt", [numpy.float32, numpy.float64, float])
def test_legacy_dtype(device, name, call, shape, dt):
    for f in (getattr(cunp.random, name), getattr(cunp.random.RandomState(7), name)):
        r = call(f, dt)
        assert type(r) is cunp.ndarray and r.shape == shape and r.dtype == numpy.dtype(dt)
        assert str(r.device) == device
        assert bool(cunp.isfinite(r).all())
    # without dtype= the default stays float64
    a = getattr(cunp.random.RandomState(3), name)
    assert call(lambda *x, dtype, **kw: a(*x, **kw), None).dtype == numpy.float64


def test_uniform_ranges_in_float32(device):
    r = cunp.random.RandomState(1).uniform(-1.0, 2.0, size=10000, dtype=numpy.float32).get()
    assert r.dtype == numpy.float32 and r.min() >= -1 and r.max() < 2 and abs(r.mean() - 0.5) < 0.05


def test_legacy_dtype_rejects_integers(device):
    with pytest.raises(TypeError):
        cunp.random.rand(3, dtype=numpy.int32)


def test_module_state_round_trip(device):
    cunp.random.seed(123)
    state = cunp.random.get_state()
    a = cunp.random.rand(8).get()
    cunp.random.set_state(state)
    numpy.testing.assert_array_equal(cunp.random.rand(8).get(), a)


def test_random_integers_and_bit_generator(device):
    with pytest.warns(DeprecationWarning, match=r"randint\(1, 5 \+ 1\)"):
        r = cunp.random.random_integers(5, size=2000)
    h = r.get()
    assert h.min() >= 1 and h.max() <= 5 and set(numpy.unique(h)) == {1, 2, 3, 4, 5}
    with pytest.warns(DeprecationWarning, match=r"randint\(-2, 2 \+ 1\)"):
        h = cunp.random.random_integers(-2, 2, size=2000).get()
    assert h.min() == -2 and h.max() == 2
    bg = cunp.random.Philox(99)
    cunp.random.set_bit_generator(bg)
    assert cunp.random.get_bit_generator() is bg
    a = cunp.random.rand(4).get()
    numpy.testing.assert_array_equal(a, cunp.random.Generator(cunp.random.Philox(99)).random(4).get())
    with pytest.raises(TypeError):
        cunp.random.set_bit_generator(object())
    assert cunp.random.get_bit_generator() is bg  # a failed set leaves the generator as it was

"""broadcast, frompyfunc, poly1d, print options, bufsize, get_include; the NumPy-stream
bit generators and hypergeometric: against NumPy on every device."""
import os
import pickle

import numpy
import pytest

import cunp
from helpers import assert_array_equal


def test_printoptions_change_repr_and_str_then_restore(device):
    host = numpy.arange(7.0) / 3
    a = cunp.asarray(host)
    default_repr, default_str = repr(a), str(a)
    assert default_repr == repr(host) and default_str == str(host)
    with cunp.printoptions(precision=3, suppress=True) as opts:
        assert opts["precision"] == 3
        with numpy.printoptions(precision=3, suppress=True):
            assert repr(a) == repr(host) and str(a) == str(host)
        assert cunp.get_printoptions()["precision"] == 3
        assert numpy.get_printoptions()["precision"] == 8  # NumPy's own options untouched
    assert repr(a) == default_repr and str(a) == default_str
    cunp.set_printoptions(threshold=5, edgeitems=1)
    try:
        big = cunp.arange(100)
        with numpy.printoptions(threshold=5, edgeitems=1):
            assert repr(big) == repr(numpy.arange(100))
    finally:
        cunp.set_printoptions(threshold=1000, edgeitems=3)
    assert repr(a) == default_repr


def test_set_printoptions_rejects_what_numpy_rejects():
    with pytest.raises(TypeError):
        cunp.set_printoptions(precision="x")
    with pytest.raises(ValueError):
        cunp.set_printoptions(floatmode="nope")
    assert cunp.get_printoptions() == numpy.get_printoptions()


def test_format_float_and_bufsize():
    assert cunp.format_float_positional(0.1) == numpy.format_float_positional(0.1)
    assert cunp.format_float_scientific(12345.0, precision=2) == numpy.format_float_scientific(12345.0, precision=2)
    old = cunp.getbufsize()
    assert cunp.setbufsize(16384) == old
    assert cunp.getbufsize() == 16384
    cunp.setbufsize(old)
    with pytest.raises(ValueError):
        cunp.setbufsize(-1)
    assert cunp.long is numpy.long and cunp.ulong is numpy.ulong


def test_get_include_points_at_the_headers():
    assert os.path.isfile(os.path.join(cunp.get_include(), "cunp", "cunp.hpp"))


def test_broadcast_matches_numpy(device):
    x, y = numpy.arange(3.0).reshape(3, 1), numpy.arange(4)
    b, nb = cunp.broadcast(cunp.asarray(x), cunp.asarray(y)), numpy.broadcast(x, y)
    assert (b.shape, b.ndim, b.nd, b.size, b.numiter) == (nb.shape, nb.ndim, nb.nd, nb.size, nb.numiter)
    assert list(b) == list(nb)
    b.reset()
    assert b.index == 0 and next(b) == (0.0, 0)
    assert cunp.broadcast(1, cunp.ones((2, 5))).shape == (2, 5)
    with pytest.raises(ValueError):
        cunp.broadcast(cunp.ones(3), cunp.ones(4))


def test_frompyfunc_matches_numpy(device):
    f, nf = cunp.frompyfunc(lambda x, y: x * y + 1, 2, 1), numpy.frompyfunc(lambda x, y: x * y + 1, 2, 1)
    x = numpy.arange(6).reshape(2, 3)
    got = f(cunp.asarray(x), 2)
    assert isinstance(got, cunp.ndarray) and got.device == cunp.asarray(x).device
    assert_array_equal(got, nf(x, 2).astype(numpy.int64))
    assert (f.nin, f.nout, f.nargs, f.types) == (nf.nin, nf.nout, nf.nargs, nf.types)
    assert f.reduce(cunp.asarray([1, 2, 3])) == nf.reduce(numpy.array([1, 2, 3], dtype=object))
    assert_array_equal(f.accumulate(cunp.asarray([1, 2, 3])),
                          nf.accumulate(numpy.array([1, 2, 3], dtype=object)).astype(numpy.int64))
    two = cunp.frompyfunc(divmod, 2, 2)
    q, r = two(cunp.asarray([7, 8]), 3)
    assert_array_equal(q, numpy.array([2, 2])) and assert_array_equal(r, numpy.array([1, 2]))
    strings = cunp.frompyfunc(str, 1, 1)(cunp.asarray([1, 2]))
    assert isinstance(strings, numpy.ndarray) and list(strings) == ["1", "2"]
    with pytest.raises(TypeError):
        cunp.frompyfunc(3, 1, 1)


def test_poly1d_matches_numpy(device):
    c = [1.0, -3.0, 2.0]
    p, n = cunp.poly1d(c), numpy.poly1d(c)
    x = numpy.linspace(-2, 2, 9)
    numpy.testing.assert_allclose(p(cunp.asarray(x)).get(), n(x))
    assert p.order == n.order and len(p) == len(n) and p.variable == n.variable
    assert repr(p) == repr(n) and str(p) == str(n)
    numpy.testing.assert_allclose(numpy.sort(p.roots.get()), numpy.sort(n.roots))
    for got, want in ((p + p, n + n), (p - 1, n - 1), (p * p, n * n), (2 * p, 2 * n), (p ** 3, n ** 3),
                      (p.deriv(), n.deriv()), (p.integ(k=2), n.integ(k=2)), (-p, -n)):
        numpy.testing.assert_allclose(got.coeffs.get(), want.coeffs)
    q, r = p / cunp.poly1d([1.0, -1.0])
    nq, nr = n / numpy.poly1d([1.0, -1.0])
    numpy.testing.assert_allclose(q.coeffs.get(), nq.coeffs)
    numpy.testing.assert_allclose(r.coeffs.get(), nr.coeffs, atol=1e-12)
    assert p == cunp.poly1d(c) and p != cunp.poly1d([1.0])
    assert float(p[0]) == n[0] and float(p[5]) == 0
    numpy.testing.assert_allclose(cunp.poly1d([1, 2], r=True).coeffs.get(), numpy.poly1d([1, 2], r=True).coeffs)
    numpy.testing.assert_allclose(cunp.poly1d([0, 0, 1, 2]).coeffs.get(), [1, 2])
    with pytest.raises(ValueError):
        cunp.poly1d([[1, 2]])
    with pytest.raises(ValueError):
        p ** -1


def same_state(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_state(a[k], b[k]) for k in a)
    if isinstance(a, numpy.ndarray) or isinstance(b, numpy.ndarray):
        return numpy.array_equal(a, b)
    return a == b


@pytest.mark.parametrize("name", ["MT19937", "PCG64", "PCG64DXSM", "SFC64"])
def test_stream_bit_generators_have_numpy_streams(name, device):
    ours, theirs = getattr(cunp.random, name)(12345), getattr(numpy.random, name)(12345)
    assert ours.random_raw() == theirs.random_raw()
    numpy.testing.assert_array_equal(ours.random_raw(5), theirs.random_raw(5))
    assert same_state(ours.state, theirs.state)
    if hasattr(theirs, "jumped"):
        assert same_state(ours.jumped().state, theirs.jumped().state)
    if hasattr(theirs, "advance"):
        ours.advance(7)
        theirs.advance(7)
        assert same_state(ours.state, theirs.state)
    kids, nkids = ours.spawn(2), theirs.spawn(2)
    assert all(same_state(k.state, n.state) for k, n in zip(kids, nkids))
    # A Generator over it: reproducible from the seed, independent for other seeds.
    g1 = cunp.random.Generator(getattr(cunp.random, name)(7))
    g2 = cunp.random.Generator(getattr(cunp.random, name)(7))
    g3 = cunp.random.default_rng(getattr(cunp.random, name)(8))
    a, b, c = g1.random(1000), g2.random(1000), g3.random(1000)
    assert_array_equal(a, b.get())
    assert not numpy.array_equal(a.get(), c.get())
    assert 0 <= float(a.min()) and float(a.max()) < 1 and abs(float(a.mean()) - 0.5) < 0.05
    assert repr(g1) == "Generator(%s)" % name
    restored = pickle.loads(pickle.dumps(getattr(cunp.random, name)(3)))
    assert same_state(restored.state, getattr(numpy.random, name)(3).state)


def test_bit_generator_state_setter_rekeys_the_generator(device):
    bg = cunp.random.PCG64(1)
    g = cunp.random.Generator(bg)
    saved = bg.state
    first = g.random(4).get()
    bg.state = saved
    second = cunp.random.Generator(bg).random(4).get()
    numpy.testing.assert_array_equal(first, second)
    with pytest.raises(TypeError):
        cunp.random.Generator(numpy.random.PCG64(1))
    rs = cunp.random.RandomState(cunp.random.MT19937(5))
    assert rs.rand(3).shape == (3,)


def test_hypergeometric_distribution(device):
    g = cunp.random.default_rng(11)
    for ngood, nbad, nsample in ((30, 20, 10), (5, 400, 60), (10**6, 3 * 10**6, 10**5), (2, 2, 3)):
        x = g.hypergeometric(ngood, nbad, nsample, size=40000).get()
        n = ngood + nbad
        mean = nsample * ngood / n
        var = nsample * ngood / n * nbad / n * (n - nsample) / (n - 1)
        assert x.dtype == numpy.int64
        assert x.min() >= max(0, nsample - nbad) and x.max() <= min(nsample, ngood)
        assert abs(x.mean() - mean) < 5 * numpy.sqrt(var / x.size) + 1e-12
        assert abs(x.var() - var) < 0.05 * var + 1e-12
    small = g.hypergeometric(30, 20, 10, size=100000).get()
    pmf = numpy.bincount(small, minlength=11)[:11] / small.size
    from scipy import stats
    numpy.testing.assert_allclose(pmf, stats.hypergeom(50, 30, 10).pmf(numpy.arange(11)), atol=4e-3)
    assert g.hypergeometric(5, 0, 3) == 3 and g.hypergeometric(0, 5, 3) == 0 and g.hypergeometric(5, 5, 10) == 5
    arr = g.hypergeometric(cunp.asarray([10, 20]), 5, cunp.asarray([[3], [4]]))
    assert arr.shape == (2, 2)
    assert cunp.random.hypergeometric(3, 4, 2, size=5).shape == (5,)
    assert cunp.random.RandomState(1).hypergeometric(3, 4, 2, size=(2, 3)).shape == (2, 3)
    for bad, msg in (((-1, 2, 1), "ngood < 0"), ((1, -2, 1), "nbad < 0"), ((1, 2, -1), "nsample < 0"),
                     ((1, 2, 4), "ngood \\+ nbad < nsample")):
        with pytest.raises(ValueError, match=msg):
            g.hypergeometric(*bad)

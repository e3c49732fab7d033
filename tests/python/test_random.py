"""cunp.random: the Philox stream against a reference, determinism, statistics (moments
and a Kolmogorov-Smirnov or chi-square statistic computed here with NumPy), dtypes,
NumPy's argument errors, and bit equality between cpu and cuda."""
import math

import numpy
import pytest

import cunp
from conftest import DEVICES, needs_cuda

M32 = 0xFFFFFFFF


# ---- a reference Philox4x32-10 and cunp's counter layout, written from the paper
def philox(ctr, key):
    c = list(ctr)
    k0, k1 = key
    for r in range(10):
        if r:
            k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & M32, (p0 >> 32) ^ c[3] ^ k1, p0 & M32]
    return c


def block(key, index, call, rnd=0):
    ctr = [index & M32, index >> 32, call & M32, ((call >> 32) & 0xFFFF) | (rnd << 16)]
    return philox(ctr, (key & M32, key >> 32))


def test_philox_known_answer():
    assert philox([0, 0, 0, 0], (0, 0)) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]


def test_stream_matches_reference(device):
    key = 0x0123456789ABCDEF
    g = cunp.random.Generator(cunp.random.Philox(key=key))
    # call 0: raw 32-bit words, four elements per block (lane i % 4 of block i // 4)
    got = g.integers(0, 2**32, size=10, dtype=numpy.uint32).get()
    want = [block(key, i // 4, 0)[i % 4] for i in range(10)]
    assert got.tolist() == want
    # call 1: float64 uniforms, two elements per block, 53 bits of (hi << 32 | lo)
    got = g.random(5).get()
    want = []
    for i in range(5):
        b = block(key, i // 2, 1)
        w = (b[2 * (i % 2) + 1] << 32) | b[2 * (i % 2)]
        want.append((w >> 11) * 2.0**-53)
    assert got.tolist() == want
    # call 2: float32 uniforms from the top 24 bits
    got = g.random(6, dtype=numpy.float32).get()
    want = numpy.array([(block(key, i // 4, 2)[i % 4] >> 8) * 2.0**-24 for i in range(6)], numpy.float32)
    numpy.testing.assert_array_equal(got, want)
    assert g.bit_generator.counter == 3


def test_seeding_is_deterministic(device):
    a = cunp.random.default_rng(1234)
    b = cunp.random.default_rng(1234)
    for _ in range(2):
        numpy.testing.assert_array_equal(a.random(100).get(), b.random(100).get())
        numpy.testing.assert_array_equal(a.integers(0, 10, 100).get(), b.integers(0, 10, 100).get())
    assert not numpy.array_equal(cunp.random.default_rng(1).random(10).get(),
                                 cunp.random.default_rng(2).random(10).get())


def test_prefix_property(device):
    """Element i depends only on (key, counter, i): a shorter draw is a prefix."""
    long = cunp.random.default_rng(5).standard_normal(1001).get()
    short = cunp.random.default_rng(5).standard_normal(17).get()
    numpy.testing.assert_array_equal(long[:17], short)


def test_spawn():
    parent = cunp.random.default_rng(7)
    kids = parent.spawn(2)
    x, y = (k.random(50).get() for k in kids)
    assert not numpy.array_equal(x, y)
    again = cunp.random.default_rng(7).spawn(2)
    numpy.testing.assert_array_equal(again[0].random(50).get(), x)
    ss = cunp.random.SeedSequence(7)
    assert [c.spawn_key for c in ss.spawn(2)] == [(0,), (1,)]
    assert ss.spawn(1)[0].spawn_key == (2,)


# ---- statistics: fixed seeds, bounds of about 5 standard errors
def ks_statistic(sample, cdf):
    x = numpy.sort(numpy.asarray(sample, dtype=numpy.float64))
    n = x.size
    f = cdf(x)
    i = numpy.arange(1, n + 1)
    return max(numpy.max(i / n - f), numpy.max(f - (i - 1) / n))


def ks_ok(sample, cdf):
    # The 99.9% critical value of the one-sample KS statistic: 1.95 / sqrt(n).
    return ks_statistic(sample, cdf) < 1.95 / math.sqrt(len(sample))


_erf = numpy.vectorize(math.erf)


def normal_cdf(x):
    return 0.5 * (1 + _erf(x / math.sqrt(2)))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_random_uniform(device, dtype):
    x = cunp.random.default_rng(11).random(100000, dtype=dtype)
    assert x.dtype == dtype and x.shape == (100000,)
    h = x.get()
    assert h.min() >= 0 and h.max() < 1
    assert abs(h.mean() - 0.5) < 0.005
    assert ks_ok(h[:20000], lambda t: t)
    u = cunp.random.default_rng(11).uniform(-2, 3, size=(100, 100)).get()
    assert u.shape == (100, 100) and u.min() >= -2 and u.max() < 3
    assert abs(u.mean() - 0.5) < 0.08


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_standard_normal(device, dtype):
    z = cunp.random.default_rng(12).standard_normal(100000, dtype=dtype)
    assert z.dtype == dtype
    h = z.get().astype(numpy.float64)
    assert abs(h.mean()) < 0.02 and abs(h.var() - 1) < 0.02
    assert ks_ok(h[:20000], normal_cdf)


def test_normal_exponential_gamma(device):
    g = cunp.random.default_rng(13)
    x = g.normal(3.0, 2.0, 50000).get()
    assert abs(x.mean() - 3) < 0.05 and abs(x.std() - 2) < 0.05
    e = g.exponential(2.0, 50000).get()
    assert e.min() >= 0 and abs(e.mean() - 2) < 0.05
    assert ks_ok(e[:20000], lambda t: 1 - numpy.exp(-t / 2))
    se = g.standard_exponential(20000, dtype=numpy.float32).get()
    assert se.dtype == numpy.float32 and abs(se.mean() - 1) < 0.05
    for k in (0.5, 3.0):
        gm = g.gamma(k, 2.0, 50000).get()
        assert abs(gm.mean() - 2 * k) < 0.05 * 2 * k + 0.02
        assert abs(gm.var() - 4 * k) < 0.08 * 4 * k
    b = g.beta(2.0, 5.0, 50000).get()
    assert abs(b.mean() - 2 / 7) < 0.005
    c = g.chisquare(4.0, 50000).get()
    assert abs(c.mean() - 4) < 0.08


@pytest.mark.parametrize("lam", [3.0, 40.0])
def test_poisson_chi_square(device, lam):
    x = cunp.random.default_rng(14).poisson(lam, 40000).get()
    assert x.dtype == numpy.int64
    assert abs(x.mean() - lam) < 5 * math.sqrt(lam / 40000) and abs(x.var() / lam - 1) < 0.05
    # chi-square over bins with expected count >= 20
    ks = numpy.arange(0, int(lam * 3 + 20))
    logp = ks * math.log(lam) - lam - numpy.array([math.lgamma(k + 1) for k in ks])
    expected = numpy.exp(logp) * x.size
    keep = expected >= 20
    observed = numpy.bincount(x, minlength=ks.size)[:ks.size]
    chi2 = numpy.sum((observed[keep] - expected[keep]) ** 2 / expected[keep])
    dof = keep.sum() - 1
    assert chi2 < dof + 5 * math.sqrt(2 * dof)


def test_other_distributions(device):
    g = cunp.random.default_rng(15)
    n = 40000
    assert abs(g.lognormal(0, 0.5, n).get().mean() - math.exp(0.125)) < 0.02
    assert abs(g.laplace(1, 2, n).get().var() - 8) < 0.4
    assert abs(g.logistic(0, 1, n).get().var() - math.pi**2 / 3) < 0.15
    assert abs(g.gumbel(0, 1, n).get().mean() - 0.5772156649) < 0.03
    assert abs(g.weibull(2.0, n).get().mean() - math.gamma(1.5)) < 0.01
    assert abs(g.pareto(5.0, n).get().mean() - 0.25) < 0.01
    assert abs(g.rayleigh(2.0, n).get().mean() - 2 * math.sqrt(math.pi / 2)) < 0.03
    geo = g.geometric(0.25, n).get()
    assert geo.min() >= 1 and abs(geo.mean() - 4) < 0.1


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint8, numpy.int16, numpy.int32, numpy.uint32,
                                   numpy.int64, numpy.uint64, numpy.bool_])
def test_integers_dtypes(device, dtype):
    info = numpy.iinfo(dtype) if dtype is not numpy.bool_ else None
    lo, hi = (0, 1) if info is None else (info.min, info.max)
    x = cunp.random.default_rng(16).integers(lo, hi, size=5000, dtype=dtype, endpoint=True)
    assert x.dtype == dtype
    h = x.get()
    assert h.min() >= lo and h.max() <= hi
    if info is not None and info.bits <= 8:
        assert h.min() == lo and h.max() == hi


def test_integers_uniform_chi_square(device):
    # 6 values (rejection happens); chi-square with 5 dof
    x = cunp.random.default_rng(17).integers(10, 16, size=60000).get()
    counts = numpy.bincount(x - 10, minlength=6)
    chi2 = numpy.sum((counts - 10000) ** 2 / 10000)
    assert chi2 < 25 and x.dtype == numpy.int64
    big = cunp.random.default_rng(17).integers(0, 3 * 2**40, size=20000).get()
    assert big.min() >= 0 and big.max() < 3 * 2**40
    assert abs(big.mean() / (1.5 * 2**40) - 1) < 0.02


def test_scalars_and_shapes():
    g = cunp.random.default_rng(18)
    assert isinstance(g.random(), float)
    assert isinstance(g.standard_normal(), float)
    v = g.integers(5)
    assert isinstance(v, numpy.int64) and 0 <= v < 5
    assert g.random((2, 3)).shape == (2, 3)
    assert g.random(0).shape == (0,)
    out = cunp.empty(4)
    assert g.random(out=out) is out


def test_permutation_shuffle_choice(device):
    g = cunp.random.default_rng(19)
    p = g.permutation(100).get()
    assert sorted(p.tolist()) == list(range(100))
    a = cunp.arange(20).reshape(10, 2)
    pa = g.permutation(a).get()
    assert sorted(pa[:, 0].tolist()) == list(range(0, 20, 2)) and (pa[:, 1] == pa[:, 0] + 1).all()
    s = cunp.arange(50)
    g.shuffle(s)
    assert sorted(s.get().tolist()) == list(range(50))
    c = g.choice(10, size=5, replace=False).get()
    assert len(set(c.tolist())) == 5
    w = g.choice(3, size=30000, p=[0.2, 0.5, 0.3]).get()
    freq = numpy.bincount(w, minlength=3) / w.size
    numpy.testing.assert_allclose(freq, [0.2, 0.5, 0.3], atol=0.015)
    ch = g.choice(cunp.asarray([10, 20, 30]), size=(2, 2)).get()
    assert ch.shape == (2, 2) and set(ch.ravel().tolist()) <= {10, 20, 30}
    nr = g.choice(5, size=3, replace=False, p=[0.1, 0.1, 0.1, 0.1, 0.6]).get()
    assert len(set(nr.tolist())) == 3
    pm = g.permuted(cunp.arange(12).reshape(3, 4), axis=1).get()
    assert all(sorted(r.tolist()) == list(range(4 * i, 4 * i + 4)) for i, r in enumerate(pm))


@pytest.mark.parametrize("call, exc", [
    (lambda g: g.normal(0, -1, 3), ValueError),
    (lambda g: g.exponential(-1, 3), ValueError),
    (lambda g: g.gamma(-1, 1, 3), ValueError),
    (lambda g: g.beta(0, 1, 3), ValueError),
    (lambda g: g.poisson(-1, 3), ValueError),
    (lambda g: g.integers(5, 5, 3), ValueError),
    (lambda g: g.integers(5, 4, 3, endpoint=True), ValueError),
    (lambda g: g.integers(0, 300, 3, dtype=numpy.uint8), ValueError),
    (lambda g: g.integers(-1, 3, 3, dtype=numpy.uint8), ValueError),
    (lambda g: g.integers(0, 3, 3, dtype=numpy.float64), TypeError),
    (lambda g: g.random(3, dtype=numpy.int32), TypeError),
    (lambda g: g.standard_normal(3, dtype=numpy.float16), TypeError),
    (lambda g: g.random(-1), ValueError),
    (lambda g: g.choice(3, p=[0.5, 0.6, 0.1]), ValueError),
    (lambda g: g.choice(3, p=[0.5, 0.5]), ValueError),
    (lambda g: g.choice(3, 5, replace=False), ValueError),
    (lambda g: g.geometric(0.0, 3), ValueError),
])
def test_errors_match_numpy(call, exc):
    with pytest.raises(exc):
        call(numpy.random.default_rng(0))
    with pytest.raises(exc):
        call(cunp.random.default_rng(0))


def test_legacy_api(device):
    cunp.random.seed(42)
    a = cunp.random.rand(3, 4)
    assert a.shape == (3, 4) and a.dtype == numpy.float64
    cunp.random.seed(42)
    numpy.testing.assert_array_equal(cunp.random.rand(3, 4).get(), a.get())
    assert cunp.random.randn(5).shape == (5,)
    r = cunp.random.randint(3, 9, size=1000).get()
    assert r.min() >= 3 and r.max() <= 8
    assert isinstance(cunp.random.random_sample(), float)
    assert cunp.random.random((2,)).shape == (2,)
    assert cunp.random.uniform(1, 2, 10).get().min() >= 1
    assert cunp.random.normal(0, 1, 10).shape == (10,)
    assert cunp.random.standard_normal(4).shape == (4,)
    with pytest.raises(ValueError):
        cunp.random.randint(5, 5)
    with pytest.raises(ValueError):
        cunp.random.normal(0, -1, 3)
    rs = cunp.random.RandomState(1)
    rs2 = cunp.random.RandomState(1)
    numpy.testing.assert_array_equal(rs.randn(10).get(), rs2.randn(10).get())
    assert isinstance(cunp.random.get_random_state(), cunp.random.RandomState)
    assert sorted(cunp.random.permutation(10).get().tolist()) == list(range(10))


@needs_cuda
@pytest.mark.parametrize("method, kwargs, exact", [
    ("random", {"dtype": numpy.float32}, True),
    ("random", {"dtype": numpy.float64}, True),
    ("uniform", {"low": -3.0, "high": 5.0}, True),
    ("integers", {"low": -7, "high": 1000, "dtype": numpy.int32}, True),
    ("integers", {"low": 0, "high": 3 * 2**40}, True),
    ("integers", {"low": 0, "high": 2**64 - 1, "dtype": numpy.uint64, "endpoint": True}, True),
    ("standard_normal", {"dtype": numpy.float32}, False),
    ("standard_normal", {"dtype": numpy.float64}, False),
    ("exponential", {"scale": 2.0}, False),
    ("gamma", {"shape": 0.7}, False),
    ("poisson", {"lam": 30.0}, True),
])
def test_cuda_equals_cpu(method, kwargs, exact):
    """The same seed gives the same stream on both devices; sizes chosen to span many
    blocks and a ragged tail."""
    results = []
    for dev in ("cpu", "cuda:0"):
        with cunp.Device(dev):
            g = cunp.random.default_rng(2024)
            results.append(getattr(g, method)(size=(3, 100003), **kwargs).get())
    if exact:
        numpy.testing.assert_array_equal(results[0], results[1])
    else:
        numpy.testing.assert_allclose(results[0], results[1], rtol=1e-5 if results[0].dtype == numpy.float32
                                      else 1e-12, atol=1e-6)

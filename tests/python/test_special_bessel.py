"""cunpx.scipy.special's Bessel functions, elliptic integrals and orthogonal polynomials
against SciPy: each function over a grid of its domain (small and large arguments and
orders, the edges: 0, negative values, NaN, infinities), float64 and float32, the loops
SciPy picks, broadcasting and out=, on every device.

Tolerances: float64 within 1e-13 of SciPy relative to the value, plus, for the
oscillating functions, 1e-14 of the local amplitude (their zeros); float32 (computed in
double and rounded, as SciPy's float loops are) within 1e-6. The grids stay where SciPy
itself is accurate to that level; tests/cpp/special/test_special_bessel.cpp checks the
identities (Wronskians, closed forms) that hold beyond it, and docs/scipy/special-bessel.md
lists the worst errors measured on wider grids."""
import numpy
import pytest
import scipy.special as ss

import cunp
import cunpx.scipy.special as cs
from special_scipy118 import resolved_dtype, scipy_types

# The grids hold inf and NaN, which the oracle's arithmetic (and SciPy's truncation of
# real orders in yn's 'dd' loop) warn about; cunp's special ufuncs warn about nothing.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

INF, NAN = numpy.inf, numpy.nan
EDGES = numpy.array([0.0, -0.0, -1.5, INF, -INF, NAN])


def _run(name, args, dtype=numpy.float64):
    """(cunp's result on the host, SciPy's) for the ufunc `name` over broadcast `args`."""
    with numpy.errstate(over="ignore"):  # float32 grids round 1e300 to inf
        complex_dtype = numpy.result_type(dtype, numpy.complex64)
        host = [numpy.array(a, dtype=dtype if a.dtype.kind == "f" else complex_dtype if a.dtype.kind == "c" else a.dtype)
                for a in numpy.broadcast_arrays(*[numpy.asarray(a) for a in args])]
    with numpy.errstate(all="ignore"):
        expected = getattr(ss, name)(*host)
        actual = getattr(cs, name)(*[cunp.asarray(h) for h in host])
    assert isinstance(actual, cunp.ndarray)
    got = actual.get()
    assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
    assert got.shape == expected.shape
    return got, expected


def _check(name, *args, rtol=1e-13, amplitude=None, atol=0.0, dtype=numpy.float64):
    """Compares with SciPy: finite values within rtol |expected| + atol (+ 1e-14, or for
    float32 1e-6, of `amplitude`: the oscillation's envelope); non-finite values equal."""
    got, expected = _run(name, args, dtype)
    finite = numpy.isfinite(expected)
    bad = numpy.isfinite(got) != finite
    bad |= ~finite & ~((got == expected) | (numpy.isnan(got) & numpy.isnan(expected)))
    tol = rtol * numpy.abs(expected) + atol
    if amplitude is not None:
        tol = tol + (1e-6 if dtype == numpy.float32 else 1e-14) * numpy.broadcast_to(amplitude, tol.shape)
    with numpy.errstate(invalid="ignore"):
        bad |= finite & ~(numpy.abs(got.astype(numpy.float64) - expected) <= tol)
    if bad.any():
        i = numpy.flatnonzero(bad)[:5]
        where = [tuple(numpy.broadcast_arrays(*[numpy.asarray(a) for a in args])[k].flat[j] for k in range(len(args)))
                 for j in i]
        pytest.fail("%s: %d of %d differ, e.g. at %s: %s vs SciPy %s" % (
            name, bad.sum(), bad.size, where, got.flat[i], expected.flat[i]))


def _envelope(x):
    """The amplitude of the oscillating Bessel functions at x: ~sqrt(2 / (pi x))."""
    return numpy.minimum(1.0, numpy.sqrt(2 / (numpy.pi * numpy.maximum(numpy.abs(x), 1e-300))))


X_SMALL = numpy.concatenate([numpy.geomspace(1e-8, 1, 40), numpy.linspace(0.05, 30, 200)])
X_WIDE = numpy.concatenate([X_SMALL, numpy.linspace(30, 300, 40), [700.0, 1e3, 1e4, 1e6]])


# ---- fixed order

@pytest.mark.parametrize("name", ["j0", "j1", "y0", "y1"])
def test_fixed_order_oscillating(device, name):
    x = numpy.concatenate([X_WIDE[X_WIDE <= 1e4], -X_SMALL[::7], EDGES, [1e-300, 5e-324]])
    # Far out SciPy's phase x - pi/4 loses digits (ours reduces x exactly): 1e-13 at 1e4.
    amp = _envelope(x) * (1 + numpy.abs(x) / 20)
    _check(name, x, amplitude=amp)
    _check(name, x[numpy.abs(x) < 1e3], dtype=numpy.float32, rtol=1e-6, amplitude=_envelope(x[numpy.abs(x) < 1e3]))


@pytest.mark.parametrize("order", [0, 1])
def test_fixed_order_far_out(device, order):
    # Beyond SciPy's accurate range: J^2 + Y^2 = 2 / (pi x) (P^2 + Q^2), P^2 + Q^2 = 1 + O(1/x^2).
    x = numpy.array([1e6, 3.3e9, 1e15, 2.5e100, 1e300])
    j = getattr(cs, "j%d" % order)(cunp.asarray(x)).get()
    y = getattr(cs, "y%d" % order)(cunp.asarray(x)).get()
    numpy.testing.assert_allclose((j * j + y * y) * (numpy.pi * x / 2), 1.0, rtol=1e-12)


@pytest.mark.parametrize("name", ["i0", "i0e", "i1", "i1e", "k0", "k0e", "k1", "k1e"])
def test_fixed_order_modified(device, name):
    # (SciPy's i0 and i1 overflow from x = 709.8, where exp(x) does, to inf; I0(x) stays
    # finite up to 713.9: ours are the finite values there, and equal beyond.)
    x = numpy.concatenate([X_WIDE, [714.0, 745.0, 800.0, 1e300], -X_SMALL[::5], EDGES, [1e-300, 5e-324]])
    _check(name, x, rtol=2e-15 * 8)
    _check(name, x, rtol=1e-6, dtype=numpy.float32)


# ---- real order

ORDERS = numpy.array([0, 0.25, 0.5, 1, 1.5, 2, 2.7, 5, 10.5, 20, 33.3, -0.25, -0.5, -1, -2.7, -5, -10.5])


@pytest.mark.parametrize("name", ["jv", "jn", "jve", "yv", "yve"])
def test_real_order_oscillating(device, name):
    v = ORDERS[:, None]
    x = numpy.concatenate([X_SMALL[::2], numpy.linspace(30, 200, 18), [-1.0, -2.5]])[None, :]
    if name == "yve":
        x = x[:, x[0] > 1e-7]  # SciPy's yve overflows to +inf where Y is -inf
    # SciPy's negative orders (AMOS and the reflection) are within ~3e-14 of the envelope.
    _check(name, v, x, amplitude=_envelope(x) * numpy.maximum(1, numpy.abs(v)) * 5)
    _check(name, v, x, dtype=numpy.float32, rtol=1e-6, amplitude=_envelope(x) * numpy.maximum(1, numpy.abs(v)))


@pytest.mark.parametrize("name", ["iv", "ive", "kv", "kve"])
def test_real_order_modified(device, name):
    v = numpy.concatenate([ORDERS, [49.5, 51.3, 80.0, 120.25]])[:, None]
    x = numpy.concatenate([X_SMALL[::2], numpy.linspace(30, 600, 20), [-1.0, -2.5]])[None, :]
    got, expected = _run(name, (v, x))
    # SciPy's overflow and underflow thresholds are its own (it flags some finite values
    # near 1e308 and 1e-308 as out of range); compare inside both.
    inside = (numpy.abs(expected) < 1e300) & (numpy.abs(expected) > 1e-300)
    inside |= ~numpy.isfinite(expected) & (v.astype(bool) | True) & (numpy.abs(v) < 40)
    d = numpy.abs(got - expected)
    with numpy.errstate(invalid="ignore"):
        ok = (d <= 2e-13 * numpy.abs(expected)) | (got == expected) | (numpy.isnan(got) & numpy.isnan(expected))
    assert ok[inside].all(), list(zip(numpy.broadcast_to(v, got.shape)[inside & ~ok][:4],
                                      numpy.broadcast_to(x, got.shape)[inside & ~ok][:4],
                                      got[inside & ~ok][:4], expected[inside & ~ok][:4]))
    small = (numpy.abs(v) < 30) & (numpy.abs(x) < 80)
    _check(name, numpy.broadcast_to(v, small.shape)[small], numpy.broadcast_to(x, small.shape)[small],
           dtype=numpy.float32, rtol=1e-6)


def test_real_order_edges(device):
    v = numpy.array([0, 1, 2, 3, 0.5, 1.5, -0.5, -1.5, -1, -2, -0.3, INF, -INF, NAN])[:, None]
    x = EDGES[None, :]
    for name in ["jv", "yv", "iv", "ive", "kv", "kve"]:
        _check(name, v, x)


@pytest.mark.parametrize("name", ["yn", "kn"])
def test_integer_order(device, name):
    n = numpy.arange(-6, 40, 3)[:, None]
    x = numpy.concatenate([X_SMALL[::3], [60.0, 150.0], EDGES])[None, :]
    amp = _envelope(x) * 10 if name == "yn" else None
    _check(name, n, x, amplitude=amp, rtol=1e-13 if name == "yn" else 5e-14)
    # The float loops truncate the order, as SciPy's do.
    _check(name, n.astype(numpy.float64) + 0.25, x, amplitude=amp, rtol=1e-13)
    _check(name, n.astype(numpy.float32), x, dtype=numpy.float32, rtol=1e-6, amplitude=amp)


def test_large_orders_overflow_and_underflow(device):
    v = numpy.array([200.0, 400.0, 1000.0])[:, None]
    x = numpy.array([0.5, 1.0, 2.0])[None, :]
    for name, want in [("jv", 0.0), ("yv", -INF), ("iv", 0.0), ("kv", INF)]:
        got, expected = _run(name, (v, x))
        assert (got == want).all() and (expected == want).all(), (name, got)


# ---- complex arguments

COMPLEX_Z = (numpy.geomspace(0.01, 150, 30)[:, None] * numpy.exp(1j * numpy.linspace(-numpy.pi, numpy.pi, 17))[None, :]).ravel()
COMPLEX_NAMES = ["jv", "jn", "jve", "yv", "yve", "iv", "ive", "kv", "kve", "hankel1", "hankel1e", "hankel2", "hankel2e"]


@pytest.mark.parametrize("name", COMPLEX_NAMES)
def test_complex_argument(device, name):
    v = numpy.array([0, 0.5, 1, 2.3, 7, 20.5, -0.5, -1, -2.3, -7.5])[:, None]
    z = COMPLEX_Z[None, :]
    got, expected = _run(name, (v, z), dtype=numpy.float64)
    # The scale of the result: |value|, or where J and Y pass near a zero (and I, on the
    # imaginary axis, where it is J) the envelope given by the Hankel functions.
    with numpy.errstate(all="ignore"):
        h = numpy.abs(ss.hankel1e(v, z)) + numpy.abs(ss.hankel2e(v, z))
        grow = numpy.exp(numpy.abs(z.imag)) if name in ("jv", "jn", "yv") else numpy.exp(numpy.abs(z.real)) if name == "iv" else 1
        scale = numpy.abs(expected)
        if name in ("jv", "jn", "jve", "yv", "yve", "iv", "ive"):
            scale = numpy.maximum(scale, 0.5 * h * grow)
    finite = numpy.isfinite(expected) & (numpy.abs(expected) < 1e300)
    with numpy.errstate(invalid="ignore"):
        ok = numpy.abs(got - expected) <= 2e-12 * scale
    assert (ok | ~finite).all(), list(zip(numpy.broadcast_to(v, got.shape)[finite & ~ok][:3],
                                          numpy.broadcast_to(z, got.shape)[finite & ~ok][:3],
                                          got[finite & ~ok][:3], expected[finite & ~ok][:3]))
    assert got.dtype == numpy.complex128
    # complex64 computes in complex128 and rounds.
    got32, expected32 = _run(name, (v[:6], z), dtype=numpy.float32)
    assert got32.dtype == numpy.complex64
    with numpy.errstate(all="ignore"):
        ok = numpy.abs(got32 - expected32) <= 1e-6 * numpy.broadcast_to(scale[:6], got32.shape) + 1e-37
        ok |= ~numpy.isfinite(expected32) | (numpy.abs(expected32) > 1e37)
    assert ok.all()


def test_complex_edges(device):
    v = numpy.array([0, 1, 2.5, -1, -2.5, INF, NAN])[:, None]
    z = numpy.array([0j, complex(INF, 0), complex(-INF, 0), complex(0, INF), complex(NAN, 0), complex(1, NAN),
                     complex(-2, 0), complex(-2, -0.0), 3 + 0j])[None, :]
    for name in COMPLEX_NAMES:
        got, expected = _run(name, (v, z))
        for part in ("real", "imag"):
            a, b = getattr(got, part), getattr(expected, part)
            same = (a == b) | (numpy.isnan(a) & numpy.isnan(b)) | (numpy.abs(a - b) <= 1e-14 * numpy.abs(b) + 1e-15)
            assert same.all(), (name, part, numpy.broadcast_to(v, a.shape)[~same], numpy.broadcast_to(z, a.shape)[~same],
                                a[~same], b[~same])


# ---- spherical

@pytest.mark.parametrize("name", ["spherical_jn", "spherical_yn", "spherical_in", "spherical_kn"])
@pytest.mark.parametrize("derivative", [False, True])
def test_spherical(device, name, derivative):
    n = numpy.arange(0, 25, 2)[:, None]
    x = numpy.concatenate([X_SMALL[::4], [45.0, 100.0, 0.0, INF, NAN], -X_SMALL[::20]])[None, :]
    if name == "spherical_kn":
        x = x[(x >= 0) | numpy.isnan(x)][None, :]  # SciPy's values at x < 0 are not K's
    with numpy.errstate(all="ignore"):
        expected = getattr(ss, name)(n, x, derivative=derivative)
        got = getattr(cs, name)(cunp.asarray(n), cunp.asarray(x), derivative=derivative).get()
    assert got.dtype == expected.dtype == numpy.float64
    finite = numpy.isfinite(expected)
    amp = _envelope(x) * 1e1 if name in ("spherical_jn", "spherical_yn") else 0
    with numpy.errstate(invalid="ignore"):
        ok = numpy.abs(got - expected) <= 2e-13 * numpy.abs(expected) + 1e-14 * amp
    assert (ok | ~finite).all(), (got[~ok & finite][:4], expected[~ok & finite][:4])
    assert ((got == expected) | (numpy.isnan(got) & numpy.isnan(expected)))[~finite].all()


# ---- elliptic integrals

def test_complete_elliptic(device):
    m = numpy.concatenate([numpy.linspace(-50, 1, 300), 1 - numpy.geomspace(1e-300, 1, 50), [2.0, -1e300], EDGES])
    for name in ["ellipk", "ellipe"]:
        _check(name, m, rtol=2e-15 * 5)
        _check(name, m, dtype=numpy.float32, rtol=1e-6)
    p = numpy.concatenate([numpy.geomspace(1e-300, 1e3, 200), EDGES])
    _check("ellipkm1", p, rtol=1e-14)


@pytest.mark.parametrize("name", ["ellipkinc", "ellipeinc"])
def test_incomplete_elliptic(device, name):
    phi = numpy.concatenate([numpy.linspace(-12, 12, 49), [numpy.pi / 2, -numpy.pi / 2], EDGES])[:, None]
    m = numpy.concatenate([numpy.linspace(-20, 0.99, 30), [1.0, 1.5, -INF, INF, NAN]])[None, :]
    _check(name, phi, m, rtol=1e-13, atol=1e-15)
    _check(name, phi, m, dtype=numpy.float32, rtol=1e-6, atol=1e-6)


def test_ellipj(device):
    # Four outputs: the ufunc table's widest.
    u = numpy.concatenate([numpy.linspace(-20, 20, 81), [0.0, INF, NAN]])[:, None]
    m = numpy.concatenate([numpy.linspace(0, 1, 41), [1e-12, 1 - 1e-11, 1 - 1e-9, -0.1, 1.1, NAN]])[None, :]
    for dtype, rtol in [(numpy.float64, 1e-12), (numpy.float32, 1e-6)]:
        uu, mm = u.astype(dtype), m.astype(dtype)
        with numpy.errstate(all="ignore"):
            expected = ss.ellipj(uu, mm)
        out = tuple(cunp.empty(numpy.broadcast_shapes(u.shape, m.shape), dtype=dtype) for _ in range(4))
        got = cs.ellipj(cunp.asarray(uu), cunp.asarray(mm), out=out)
        assert isinstance(got, tuple) and len(got) == 4 and all(g is o for g, o in zip(got, out))
        for k, (g, e) in enumerate(zip(got, expected)):
            g = g.get()
            assert g.dtype == e.dtype == dtype
            scale = numpy.abs(numpy.broadcast_to(u, g.shape)) + 1 if k == 3 else 1.0  # ph grows with u
            with numpy.errstate(invalid="ignore"):
                ok = (numpy.abs(g - e) <= rtol * (numpy.abs(e) + scale)) | (g == e) | (numpy.isnan(g) & numpy.isnan(e))
            assert ok.all(), (k, g[~ok][:4], e[~ok][:4])
    # The identities: sn^2 + cn^2 = 1, dn^2 + m sn^2 = 1, and F(ph | m) = u.
    uu, mm = numpy.linspace(-3, 3, 13)[:, None], numpy.linspace(0.05, 0.95, 7)[None, :]
    sn, cn, dn, ph = (a.get() for a in cs.ellipj(cunp.asarray(uu), cunp.asarray(mm)))
    numpy.testing.assert_allclose(sn * sn + cn * cn, 1, rtol=1e-15)
    numpy.testing.assert_allclose(dn * dn + mm * sn * sn, 1, rtol=1e-15)
    numpy.testing.assert_allclose(cs.ellipkinc(cunp.asarray(ph), cunp.asarray(mm)).get(),
                                  numpy.broadcast_to(uu, ph.shape), rtol=1e-13, atol=1e-15)


# ---- orthogonal polynomials

def _poly_check(name, n, *args, rtol=1e-13, scale_fn=None):
    """Polynomials lose relative precision next to their roots: the tolerance is rtol of
    the polynomial's magnitude over the interval (scale_fn(n))."""
    got, expected = _run(name, (n,) + args)
    scale = scale_fn(numpy.broadcast_to(n, got.shape)) if scale_fn else numpy.abs(expected)
    finite = numpy.isfinite(expected)
    with numpy.errstate(invalid="ignore"):
        ok = numpy.abs(got - expected) <= rtol * (numpy.abs(expected) + scale)
    assert (ok | ~finite).all(), (name, got[~ok & finite][:4], expected[~ok & finite][:4])
    same = (got == expected) | (numpy.isnan(got) & numpy.isnan(expected))
    full = numpy.broadcast_arrays(n, *args)
    assert (same | finite).all(), (name, [(tuple(a[~same & ~finite][:3] for a in full))],
                                   got[~same & ~finite][:3], expected[~same & ~finite][:3])


X_POLY = numpy.concatenate([numpy.linspace(-1, 1, 41), [-1.3, 1.2, 2.5, 1e-7, NAN]])[None, :]


@pytest.mark.parametrize("name", ["eval_legendre", "eval_chebyt", "eval_chebyu", "eval_chebys", "eval_chebyc",
                                  "eval_sh_legendre", "eval_sh_chebyt", "eval_sh_chebyu"])
def test_polynomials_integer_degree(device, name):
    n = numpy.concatenate([numpy.arange(-4, 30), [50, 120]])[:, None]
    x = X_POLY * 2 if name in ("eval_chebys", "eval_chebyc") else X_POLY
    x = (x + 1) / 2 if name.startswith("eval_sh") else x
    bound = 3.0 ** numpy.abs(n) if name in ("eval_chebys", "eval_chebyc") else (numpy.abs(n) + 2.0) ** 2 * 2.5 ** numpy.abs(n)
    bound = numpy.minimum(bound, 1e300) * 1e-3  # the values on x in [-1.3, 2.5]
    _poly_check(name, n, x, rtol=1e-13, scale_fn=lambda nn: numpy.broadcast_to(bound, nn.shape))
    # The float64 loop with integer degrees is the same polynomial (SciPy's hypergeometric
    # form has poles of its own at some negative degrees).
    n0, bound0 = n[n[:, 0] >= 0], bound[n[:, 0] >= 0]
    _poly_check(name, n0.astype(numpy.float64), x, rtol=1e-13, scale_fn=lambda nn: numpy.broadcast_to(bound0, nn.shape))


@pytest.mark.parametrize("name", ["eval_legendre", "eval_chebyt", "eval_chebyu", "eval_sh_chebyt"])
def test_polynomials_real_degree(device, name):
    n = numpy.array([0.5, 1.5, -0.5, 2.25, -1.75])[:, None]
    x = numpy.linspace(-0.8, 1, 37)[None, :]
    x = (x + 1) / 2 if name.startswith("eval_sh") else x
    _poly_check(name, n, x, rtol=1e-12, scale_fn=lambda nn: numpy.full(nn.shape, 1.0))


@pytest.mark.parametrize("name", ["eval_hermite", "eval_hermitenorm", "eval_laguerre"])
def test_hermite_laguerre(device, name):
    n = numpy.concatenate([numpy.arange(-2, 30), [45]])[:, None]
    x = numpy.concatenate([numpy.linspace(-6, 6, 49), [10.0, NAN]])[None, :] + (6 if name == "eval_laguerre" else 0)
    _poly_check(name, n, x, rtol=1e-13,
                scale_fn=lambda nn: numpy.abs(getattr(ss, name)(nn, numpy.nanmax(numpy.abs(x)))) * 1e-3 + 1)


@pytest.mark.parametrize("name", ["eval_genlaguerre", "eval_gegenbauer"])
def test_polynomials_with_parameter(device, name):
    n = numpy.arange(-1, 25, 2)[:, None, None]
    alpha = numpy.array([-0.4, 0.0, 0.5, 1.0, 3.5])[None, :, None]
    x = (numpy.linspace(0, 12, 25) if name == "eval_genlaguerre" else numpy.linspace(-1, 1, 25))[None, None, :]
    big = getattr(ss, name)(n, alpha, 12.0 if name == "eval_genlaguerre" else 1.0)
    _poly_check(name, n, alpha, x, rtol=1e-13, scale_fn=lambda nn: numpy.abs(big) * 1e-2 + 1)
    # (The float loops from degree 0: SciPy's Gamma normalization has poles below.)
    _poly_check(name, n[1:].astype(numpy.float32), alpha.astype(numpy.float32), x.astype(numpy.float32), rtol=1e-5,
                scale_fn=lambda nn: numpy.abs(big[1:]) * 1e-2 + 1)


@pytest.mark.parametrize("name", ["eval_jacobi", "eval_sh_jacobi"])
def test_jacobi(device, name):
    # Four inputs: the ufunc table's widest loops.
    n = numpy.arange(0, 26, 3)[:, None, None, None]
    a = numpy.array([-0.5, 0.0, 0.5, 2.0])[None, :, None, None]
    b = numpy.array([-0.3, 0.5, 1.5])[None, None, :, None]
    x = numpy.linspace(-1, 1.5, 21)[None, None, None, :]
    if name == "eval_sh_jacobi":
        a, b, x = a + 2.5, b + 1, (x + 1) / 2
    big = numpy.abs(getattr(ss, name)(n, a, b, numpy.max(x)))
    _poly_check(name, n, a, b, x, rtol=1e-13, scale_fn=lambda nn: big * 1e-3)
    _poly_check(name, n.astype(numpy.float64), a, b, x, rtol=1e-13, scale_fn=lambda nn: big * 1e-3)
    # Real degrees, short of x = -1: where 2F1 diverges SciPy's sign of inf is not the
    # limit's (eval_jacobi(0.5, 0, 0.5, -1 + 1e-6) is -707, at -1 SciPy gives +inf).
    nr = numpy.array([0.5, 1.5, 2.25])[:, None, None, None]
    _poly_check(name, nr, a, b, x[..., 1:16], rtol=1e-11, scale_fn=lambda nn: numpy.full(nn.shape, 1e-3))
    assert getattr(cs, name).types == ["lddd->d", "ffff->f", "dddd->d"]


def test_lpmv(device):
    m = numpy.array([-3, -2, -1, 0, 1, 2, 3, 5, 1.5])[:, None, None]
    x = numpy.concatenate([numpy.linspace(-1, 1, 21), [1.5, -1.5, NAN]])[None, None, :]
    # Real degrees short of x = -1, where SciPy's sign of the infinity is not the limit's
    # (P_-1/2(x) -> +inf, SciPy: -inf at -1).
    for v, xs in [(numpy.array([-3, 0, 1, 2, 3, 7, 20]), x), (numpy.array([0.5, 2.5, -0.5, 4.25]), x[..., 1:])]:
        v = v[None, :, None]
        with numpy.errstate(all="ignore"):
            big = numpy.abs(ss.lpmv(m, v, 0.0)) + numpy.abs(ss.lpmv(m, v, 0.5)) + 1
        _poly_check("lpmv", m, v, xs, rtol=1e-12, scale_fn=lambda mm: numpy.broadcast_to(big * 1e-3, mm.shape))
        _poly_check("lpmv", m.astype(numpy.float32), v.astype(numpy.float32), xs.astype(numpy.float32), rtol=1e-6,
                    scale_fn=lambda mm: numpy.broadcast_to(big * 1e-3, mm.shape))
    assert cs.lpmv.types == ss.lpmv.types


# ---- the ufunc machinery

def test_loops_and_dtypes(device):
    # SciPy 1.18's loops and order (special_scipy118.py: 1.18 put the float32 loops first)
    for name in ["j0", "i1e", "ellipk", "ellipkinc", "ellipj", "kn", "yn", "eval_legendre", "_spherical_jn", "_spherical_kn_d"]:
        # all of SciPy's real loops (the complex ones of the polynomials and spherical
        # functions are not implemented)
        assert getattr(cs, name).types == [t for t in scipy_types(name) if "F" not in t and "D" not in t], name
    assert cs.jv.types == scipy_types("jv")
    assert cs.hankel1e.types == scipy_types("hankel1e")
    assert cs.kn.types == ["ld->d", "ff->f", "dd->d"]
    f = cunp.asarray(numpy.array([0.5, 2.0], dtype=numpy.float32))
    assert cs.j0(f).dtype == numpy.float32
    assert cs.jv(1, f).dtype == numpy.float32
    assert cs.yn(2, f).dtype == numpy.float64  # SciPy picks 'ld->d' for a Python int order
    assert cs.eval_legendre(2, f).dtype == numpy.float64
    assert cs.spherical_jn(2, f).dtype == resolved_dtype("_spherical_jn", [numpy.int64, numpy.float32])
    for dt in [numpy.int32, numpy.float16, numpy.int8, numpy.bool_]:
        x = cunp.asarray(numpy.array([1, 2], dtype=dt))
        assert cs.j0(x).dtype == resolved_dtype("j0", [dt]), dt  # int32: float64; float16: float32 (1.18)
        assert cs.ellipkinc(x, x).dtype == resolved_dtype("ellipkinc", [dt, dt]), dt
    with pytest.raises(TypeError):
        cs.eval_hermite(2.5, f)  # only an integer degree
    with pytest.raises(TypeError):
        cs.j0(cunp.asarray(numpy.array([1 + 1j])))


def test_broadcasting_and_out(device):
    v = numpy.arange(4.0)[:, None]
    x = numpy.linspace(0.5, 8, 6)
    out = cunp.empty((4, 6))
    r = cs.kv(cunp.asarray(v), cunp.asarray(x), out=out)
    assert r is out
    numpy.testing.assert_allclose(out.get(), ss.kv(v, x), rtol=1e-14)
    # Non-contiguous input and a scalar order.
    xs = cunp.asarray(numpy.linspace(0.1, 20, 40))[::3]
    numpy.testing.assert_allclose(cs.jv(2.5, xs).get(), ss.jv(2.5, numpy.linspace(0.1, 20, 40)[::3]),
                                  rtol=1e-13, atol=1e-15)
    # 0-d and empty.
    assert cs.ellipk(cunp.asarray(0.5)).shape == ()
    assert cs.i0(cunp.empty((0, 3))).shape == (0, 3)


def test_docs_example_runs(device):
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "scipy" / "special-bessel.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "special-bessel.md", "exec"), {})


def test_no_floating_point_warnings(device):
    # SciPy's special ufuncs report through scipy.special.errstate, never NumPy's
    # floating-point status: poles, NaN results and overflow pass silently.
    import warnings
    x = cunp.asarray(numpy.array([0.0, -1.0, INF, NAN, 1e300, 800.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for f in (cs.y0, cs.k0, cs.i0, cs.j1, cs.ellipk):
            f(x)
        cs.kv(400.0, x)
        cs.yn(50, x)

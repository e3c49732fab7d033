"""The elementwise functions built on the ufuncs, against NumPy: where, clip, real/imag
(views that write through), angle, nan_to_num, around/round, isclose, allclose and
array_equal."""
import numpy
import pytest

import cunp
from helpers import numpy_cunp_equal, random_array

from test_ufuncs import ALL_DTYPES, builtin_name, guarded, seed_of

nan, inf = numpy.nan, numpy.inf


def outcome(fn):
    try:
        return guarded(fn)
    except Exception as e:  # noqa: BLE001 - the exception type is the result compared
        return "raises " + builtin_name(e)


# ---- where --------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
def test_where_arrays(device, dt):
    rng = numpy.random.default_rng(seed_of("where", dt))
    hc = rng.integers(0, 2, size=(3, 4)).astype(bool)
    hx = random_array((3, 4), dt, rng)
    hy = random_array((3, 4), dt, rng)

    @numpy_cunp_equal()
    def body(xp):
        c, x, y = xp.asarray(hc), xp.asarray(hx), xp.asarray(hy)
        return (xp.where(c, x, y), xp.where(c.T, x.T, y.T[::-1]), xp.where(c[:, :1], x, y[0]),
                xp.where(c[0], x[:, ::-1], y), xp.where(x, x, y), xp.where(c[:0], x[:0], y[:0]))

    body()


NUMPY_25 = tuple(int(v) for v in numpy.__version__.split(".")[:2]) >= (2, 5)


@pytest.mark.parametrize("dt", ["int8", "uint8", "float32", "float16", "bool", "complex64", "int64"])
def test_where_with_scalars(device, dt):
    rng = numpy.random.default_rng(seed_of("where-scalars", dt))
    hc = rng.integers(0, 2, size=(5,)).astype(bool)
    hx = random_array((5,), dt, rng)

    @numpy_cunp_equal()
    def body(xp):
        c, x = xp.asarray(hc), xp.asarray(hx)
        # NumPy < 2.5 wrapped out-of-range Python ints in where(); 2.5 follows NEP 50
        # (OverflowError), as cunp does: compare that case only against NumPy >= 2.5.
        return [outcome(lambda: xp.where(c, x, 0)), outcome(lambda: xp.where(c, 1.5, x)),
                outcome(lambda: xp.where(c, x, 300)) if NUMPY_25 else None, outcome(lambda: xp.where(c, 1j, x)),
                outcome(lambda: xp.where(c, 1, 2.5)), outcome(lambda: xp.where(c, 1, 2)),
                outcome(lambda: xp.where(c, True, False)), outcome(lambda: xp.where(True, x, 0)),
                outcome(lambda: xp.where(c, numpy.float32(2), x)),
                outcome(lambda: xp.where(c, x, numpy.int64(-1))),
                outcome(lambda: xp.where(c, x, [1, 2, 3, 4, 5]))]

    body()
    if not NUMPY_25 and numpy.dtype(dt).kind in "iu" and numpy.iinfo(dt).max < 300:
        with pytest.raises(OverflowError):
            cunp.where(cunp.asarray(hc), cunp.asarray(hx), 300)


def test_where_broadcasting_and_errors(device):
    @numpy_cunp_equal()
    def body(xp):
        c = xp.asarray(numpy.array([[True], [False], [True]]))
        x = xp.asarray(numpy.arange(4, dtype="int16"))
        y = xp.asarray(numpy.array([[-1.0], [-2.0], [-3.0]], dtype="float32"))
        return [outcome(lambda: xp.where(c, x, y)),
                outcome(lambda: xp.where(xp.asarray(numpy.array([1, 0, 2, 0])), x, -x)),
                outcome(lambda: xp.where(xp.asarray(numpy.array([0.0, nan, -0.0, 2])), x, -x)),
                outcome(lambda: xp.where(c, x, xp.ones((2, 4)))),
                outcome(lambda: xp.where(c, x))]

    body()


# ---- clip -------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
def test_clip(device, dt):
    rng = numpy.random.default_rng(seed_of("clip", dt))
    h = random_array((10,), dt, rng, low=-9, high=9)

    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(h)
        return [outcome(lambda: xp.clip(a, 1, 5)), outcome(lambda: xp.clip(a, None, 3)),
                outcome(lambda: xp.clip(a, -2, None)), outcome(lambda: a.clip(0, 4)),
                outcome(lambda: a.clip(max=2)), outcome(lambda: a.clip(min=1)),
                outcome(lambda: xp.clip(a, 5, 1)), outcome(lambda: xp.clip(a, 1.5, 3.5)),
                outcome(lambda: xp.clip(a, a[::-1], 6)),
                outcome(lambda: xp.clip(a, 0, 300)), outcome(lambda: xp.clip(a[::-2], 0, 2))]

    body()


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
def test_clip_nan(device, dt):
    h = numpy.array([nan, -inf, -1.0, 0.0, -0.0, 2.0, inf, 7.5], dtype=dt)

    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(h)
        return (xp.clip(a, nan, 3), xp.clip(a, -1, nan), xp.clip(a, nan, None), xp.clip(a, 0, 5),
                xp.clip(a, xp.asarray(numpy.array([0, nan] * 4, dtype=dt)), 1),
                xp.clip(a, -inf, inf))

    body()


def test_clip_out_and_broadcast(device):
    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(numpy.arange(12, dtype="float64").reshape(3, 4))
        out = xp.zeros((3, 4))
        r = xp.clip(a, xp.asarray(numpy.array([[1.0], [5.0], [9.0]])), 10, out=out)
        b = xp.asarray(numpy.arange(6, dtype="int32"))
        b.clip(2, 4, out=b)
        o2 = xp.zeros(6, dtype="int8")
        e = outcome(lambda: xp.clip(b.astype("float64"), 1, 2, out=o2))
        return (r is out, out, b, e, o2)

    body()


# ---- real, imag --------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
def test_real_imag(device, dt):
    rng = numpy.random.default_rng(seed_of("realimag", dt))
    h = random_array((6,), dt, rng)

    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(h)
        return (xp.real(a), xp.imag(a), a.real, a.imag, a[::-2].real, a[::-2].imag,
                a.real.strides, a[::-2].real.strides, xp.real(a).shape)

    body()


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_real_imag_views_write_through(device, dt):
    h = numpy.array([[1 + 2j, 3 - 4j, -5j], [0, 7.5, nan + 1j]], dtype=dt)

    @numpy_cunp_equal()
    def body(xp):
        # xp.array copies: asarray(h) would alias h for NumPy and on the cpu device only.
        a = xp.array(h)
        r = a.real
        r[...] = 10
        b = xp.array(h)
        im = xp.imag(b)
        im[0] = -1
        c = xp.array(h)
        c.real = xp.asarray(numpy.array([1.0, 2.0, 3.0]))
        c.imag = 5
        d = xp.array(h)
        d.T.imag[::2] = 9
        e = xp.array(h)
        e[:, 1:].real += 100
        return (a, b, c, d, e, r.base is not None)

    body()


def test_real_setter_on_real_arrays(device):
    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(numpy.array([1.0, 2.0, 3.0], dtype="float32"))
        a.real = 7
        r = a.real
        r[1] = -1
        b = xp.asarray(numpy.array([1, 2], dtype="int8"))
        e = outcome(lambda: setattr(b, "imag", 3))
        return (a, e, b)

    body()


# ---- angle ------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
def test_angle(device, dt):
    rng = numpy.random.default_rng(seed_of("angle", dt))
    h = random_array((8,), dt, rng)

    @numpy_cunp_equal(rtol=1e-6, atol=1e-6)
    def body(xp):
        a = xp.asarray(h)
        return (xp.angle(a), xp.angle(a, deg=True), xp.angle(a[::-3], True))

    body()


def test_angle_edges(device):
    z = numpy.array([1 + 0j, -1 + 0j, -1 - 0j, 0j, -0.0 + 0j, -0.0 - 0j, 1j, -1j, complex(inf, inf),
                     complex(nan, 1), complex(-inf, 0), complex(0, -inf)])

    @numpy_cunp_equal(rtol=1e-13, atol=1e-13)
    def body(xp):
        a = xp.asarray(z)
        f = xp.asarray(numpy.array([-0.0, 0.0, -3.0, 2.0, nan, -inf], dtype="float32"))
        return (xp.angle(a), xp.angle(a, deg=True), xp.angle(a.astype("complex64")), xp.angle(f),
                xp.angle(f, deg=True), xp.angle(1j), xp.angle(-1), xp.angle([1, -1j]))

    body()


# ---- nan_to_num --------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
def test_nan_to_num(device, dt):
    if dt.kind in "fc":
        vals = [0.0, -0.0, nan, inf, -inf, 1.5, -2.0]
        if dt.kind == "c":
            vals += [complex(nan, inf), complex(-inf, nan), complex(1, -inf)]
        h = numpy.array(vals, dtype=dt)
    else:
        h = random_array((7,), dt, numpy.random.default_rng(1))

    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(h)
        return (xp.nan_to_num(a), xp.nan_to_num(a, nan=-1.0), xp.nan_to_num(a, posinf=9.0),
                xp.nan_to_num(a, neginf=-9.0), xp.nan_to_num(a, nan=5, posinf=6, neginf=7),
                xp.nan_to_num(a[::-2]), a)

    body()


def test_nan_to_num_copy_false_and_scalars(device):
    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(numpy.array([nan, inf, -inf, 1.0], dtype="float32"))
        r = xp.nan_to_num(a, copy=False, nan=3.0)
        return (r is a, a, xp.nan_to_num(nan), xp.nan_to_num(-inf), xp.nan_to_num([nan, 2]),
                xp.nan_to_num(complex(inf, nan)))

    body()


# ---- around / round -----------------------------------------------------------------

@pytest.mark.parametrize("decimals", [0, 1, 2, 3, -1, -2, -5])
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
def test_around(device, dt, decimals):
    if dt.kind in "fc":
        h = numpy.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.25, 0.125, 2.675, -1.005, 1234.5678, 15.0,
                         25.0, -35.0, 0.0, -0.0, nan, inf, -inf], dtype=dt)
        if dt.kind == "c":
            h = h + 1j * h[::-1]
    elif dt.kind == "b":
        h = numpy.array([True, False])
    else:
        info = numpy.iinfo(dt)
        vals = [0, 5, 15, 25, 35, 45, 149, 150, 250, -15, -25, -150, info.max, info.min]
        h = numpy.array([v for v in vals if info.min <= v <= info.max], dtype=dt)

    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(h)
        return [outcome(lambda: xp.around(a, decimals)), outcome(lambda: xp.round(a, decimals)),
                outcome(lambda: a.round(decimals)),
                # signs of zeros, not of NaNs (their sign is the hardware's: x86 sets it)
                outcome(lambda: xp.where(xp.isnan(xp.around(a, decimals)), False,
                                         xp.signbit(xp.around(a, decimals))))]

    body()


def test_around_out_and_default(device):
    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(numpy.array([0.5, 1.5, -2.5, 3.49], dtype="float32"))
        out = xp.zeros(4, dtype="float32")
        r = xp.around(a, 1, out=out)
        return (xp.round(a), a.round(), r is out, out, xp.round(2.5), xp.around([1.25, 3.75], 1))

    body()


# ---- isclose / allclose / array_equal -------------------------------------------------

ISCLOSE_A = [1.0, 1.0, 1e-9, nan, nan, inf, inf, -inf, 1e10, 0.0, 1.0, 100.0]
ISCLOSE_B = [1.0 + 1e-6, 1.1, 0.0, nan, 1.0, inf, -inf, -inf, 1.00001e10, -0.0, nan, 100.1]


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "complex128"])
def test_isclose(device, dt):
    ha = numpy.array(ISCLOSE_A, dtype=dt)
    hb = numpy.array(ISCLOSE_B, dtype=dt)

    @numpy_cunp_equal()
    def body(xp):
        a, b = xp.asarray(ha), xp.asarray(hb)
        return (xp.isclose(a, b), xp.isclose(a, b, equal_nan=True), xp.isclose(a, b, rtol=0.2),
                xp.isclose(a, b, atol=0.5, rtol=0.0), xp.isclose(a[:, None], b[None, :3]),
                xp.isclose(a, 1.0), xp.isclose(1.0, b), xp.allclose(a, b),
                xp.allclose(a, a), xp.allclose(a, a, equal_nan=True),
                xp.allclose(a[:3], b[:3], rtol=0.2, atol=1e-8))

    body()


def test_isclose_integers_and_mixed(device):
    @numpy_cunp_equal()
    def body(xp):
        i = xp.asarray(numpy.array([1, 2, 100, -5], dtype="int32"))
        u = xp.asarray(numpy.array([1, 3, 101, 0], dtype="uint8"))
        f = xp.asarray(numpy.array([1.0, 2.00001, 100.0001, -5.0], dtype="float32"))
        return (xp.isclose(i, u), xp.isclose(i, f), xp.isclose(i, u, rtol=0.02),
                xp.allclose(i, f), xp.allclose(i, i.astype("int64")), xp.allclose(i, u),
                xp.isclose(xp.asarray(numpy.array([True, False])), True), xp.allclose([], []),
                xp.isclose(2, 2.0000001))

    body()


def test_isclose_shape_mismatch(device):
    @numpy_cunp_equal()
    def body(xp):
        return outcome(lambda: xp.isclose(xp.ones(3), xp.ones(4)))

    body()


def test_array_equal(device):
    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(numpy.array([1.0, nan, 3.0]))
        b = xp.asarray(numpy.array([1.0, nan, 3.0]))
        c = xp.asarray(numpy.array([1 + 1j, complex(nan, 1), 3]))
        i = xp.asarray(numpy.array([1, 2, 3]))
        return (xp.array_equal(a, b), xp.array_equal(a, b, equal_nan=True),
                xp.array_equal(c, c), xp.array_equal(c, c, equal_nan=True),
                xp.array_equal(i, i.astype("float32")), xp.array_equal(i, i[:2]),
                xp.array_equal(i, i[None, :]), xp.array_equal(i, [1, 2, 3]),
                xp.array_equal(i, xp.asarray(numpy.array([1, 2, 4]))),
                xp.array_equal(xp.ones((0, 2)), xp.ones((0, 2))),
                xp.array_equal(xp.ones((0, 2)), xp.ones((2, 0))), xp.array_equal(i, i.T),
                xp.array_equal(i, xp.asarray(numpy.array([1, 2, 3]))[::-1][::-1]),
                xp.array_equal(i, 3), xp.array_equal(xp.asarray(numpy.array([-0.0])),
                                                       xp.asarray(numpy.array([0.0]))))

    body()


def test_allclose_returns_python_bool(device):
    r = cunp.allclose(cunp.ones(3), cunp.ones(3))
    assert r is True
    assert cunp.array_equal(cunp.ones(3), cunp.zeros(3)) is False

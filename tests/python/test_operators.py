"""ndarray operators against NumPy's: binary, reflected and in-place operators with
NumPy 2's result dtypes (NEP 50 for Python scalars), unary operators, comparisons, and
the errors NumPy raises."""
import operator

import numpy
import pytest

import cunp
from helpers import (COMPLEX64_POWER_RTOL, Tolerance, numpy_cunp_equal, power_determined_part,
                     random_array)

from test_ufuncs import ALL_DTYPES, builtin_name, normalize, seed_of

BINARY_OPS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "divmod": divmod,
    "&": operator.and_, "|": operator.or_, "^": operator.xor, "<<": operator.lshift,
    ">>": operator.rshift, "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}
INPLACE_OPS = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "&=": operator.iand,
    "|=": operator.ior, "^=": operator.ixor, "<<=": operator.ilshift, ">>=": operator.irshift,
}
UNARY_OPS = {"-": operator.neg, "+": operator.pos, "abs": abs, "~": operator.invert}


def outcome(fn, *args):
    try:
        with numpy.errstate(all="ignore"):
            return normalize(fn(*args))
    except Exception as e:  # noqa: BLE001 - the exception type is the result compared
        return "raises " + builtin_name(e)


def operands(dt, seed, n=8):
    """Two host arrays: small positive values (so ** and shifts stay defined) mixed with
    zeros and negatives where the dtype has them."""
    rng = numpy.random.default_rng(seed)
    x = random_array((n,), dt, rng, low=-9, high=9)
    y = random_array((n,), dt, rng, low=0, high=6)
    return x, y


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("op", list(BINARY_OPS))
def test_binary_operator(device, op, dt):
    hx, hy = operands(dt, seed_of(op, dt.name))
    rtol = 1e-6 if dt.kind == "c" or op == "**" else 0.0

    @numpy_cunp_equal(rtol=rtol, atol=rtol)
    def body(xp):
        x, y = xp.asarray(hx), xp.asarray(hy)
        f = BINARY_OPS[op]
        return [outcome(f, x, y), outcome(f, y, x), outcome(f, x[::-1], y[:, None][:3]),
                outcome(f, x[:0], y[:0])]

    body()


@pytest.mark.parametrize("pair", [
    ("int8", "float32"), ("uint64", "int64"), ("bool", "int32"), ("float16", "float32"),
    ("complex64", "float64"), ("uint8", "int8"), ("int16", "float16"), ("bool", "float64"),
    ("uint32", "complex64"), ("int64", "float32"),
], ids=lambda p: "+".join(p))
def test_mixed_dtype_operators(device, pair):
    hx, _ = operands(pair[0], 11)
    _, hy = operands(pair[1], 12)

    @numpy_cunp_equal(rtol=1e-6, atol=1e-6)
    def body(xp):
        x, y = xp.asarray(hx), xp.asarray(hy)
        return [outcome(f, x, y) for f in BINARY_OPS.values()] + \
               [outcome(f, y, x) for f in BINARY_OPS.values()]

    body()


SCALARS = [2, -1, 0, 300, 2 ** 64, 2.5, -0.0, float("inf"), 1 + 2j, True, False,
           [1, 2, 3, 4, 5, 6, 7, 8], (True,) * 8, numpy.float32(2), numpy.int16(3),
           numpy.uint64(5)]


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
def test_scalar_and_reflected_operators(device, dt):
    """a OP s and s OP a, NEP 50: Python scalars are weak, out-of-range ints overflow."""
    hx, _ = operands(dt, 21)

    @numpy_cunp_equal(rtol=1e-6, atol=1e-6)
    def body(xp):
        x = xp.asarray(hx)
        results = []
        for s in SCALARS:
            for f in BINARY_OPS.values():
                r = outcome(f, x, s)
                results.append(power_determined_part(xp, r, s) if f is operator.pow else r)
                r = outcome(f, s, x) if not isinstance(s, numpy.generic) else None
                results.append(power_determined_part(xp, r, None) if f is operator.pow else r)
        return results

    body()


def test_numpy_scalar_on_the_left(device):
    """A NumPy scalar on the left defers to the cunp array: the result is a cunp array."""
    h = numpy.array([1, 2, 3], dtype="int16")
    x = cunp.asarray(h)
    for f, s in [(operator.mul, numpy.float32(2)), (operator.sub, numpy.int64(10)),
                 (operator.lt, numpy.int8(2)), (operator.add, numpy.uint16(7))]:
        expected = f(s, h)
        r = f(s, x)
        assert isinstance(r, cunp.ndarray), type(r)
        assert r.dtype == expected.dtype
        numpy.testing.assert_array_equal(r.get(), expected)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
def test_unary_operators(device, dt):
    rng = numpy.random.default_rng(5)
    h = random_array((7,), dt, rng)

    @numpy_cunp_equal(rtol=1e-6 if dt.kind == "c" else 0.0)
    def body(xp):
        x = xp.asarray(h)
        return [outcome(f, x) for f in UNARY_OPS.values()] + \
               [outcome(f, x[::-2]) for f in UNARY_OPS.values()] + \
               [outcome(f, xp.asarray(h[0])) for f in UNARY_OPS.values()]

    body()


def test_unary_edge_values(device):
    @numpy_cunp_equal()
    def body(xp):
        f = xp.asarray(numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, -2.5]))
        i = xp.asarray(numpy.array([-128, 127, 0, -1], dtype="int8"))
        u = xp.asarray(numpy.array([0, 1, 255], dtype="uint8"))
        return (-f, xp.signbit(-f), abs(f), xp.signbit(abs(f)), -i, abs(i), ~i, -u, ~u,
                ~xp.asarray(numpy.array([True, False])), abs(xp.asarray(numpy.array([3 - 4j]))))

    body()


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("operand", ["same_dtype", "int_scalar", "float_scalar", "complex_scalar",
                                     "bool_scalar", "big_int", "float64_array", "int8_array",
                                     "broadcast_row", "too_big"])
def test_inplace_operators(device, dt, operand):
    hx, hy = operands(dt, 31)

    @numpy_cunp_equal(rtol=1e-6 if dt.kind in "fc" else 0.0)
    def body(xp):
        other = {
            "same_dtype": lambda: xp.asarray(hy),
            "int_scalar": lambda: 2,
            "float_scalar": lambda: 1.5,
            "complex_scalar": lambda: 1j,
            "bool_scalar": lambda: True,
            "big_int": lambda: 300,
            "float64_array": lambda: xp.asarray(hy.astype("float64")),
            "int8_array": lambda: xp.asarray(hy.astype("int8")),
            "broadcast_row": lambda: xp.asarray(hy[:1]),
            "too_big": lambda: xp.asarray(numpy.stack([hy, hy])),
        }[operand]
        results = []
        for f in INPLACE_OPS.values():
            a = xp.asarray(hx.copy())
            before = a
            try:
                with numpy.errstate(all="ignore"):
                    r = f(a, other())
                if f is operator.ipow and dt == numpy.complex64:
                    results.append((r is before, Tolerance(a, COMPLEX64_POWER_RTOL)))
                else:
                    results.append((r is before, a))
            except Exception as e:  # noqa: BLE001
                results.append(("raises " + builtin_name(e), a))
        return results

    body()


def test_inplace_on_views_writes_through(device):
    @numpy_cunp_equal()
    def body(xp):
        base = xp.asarray(numpy.arange(12, dtype="float32").reshape(3, 4))
        v = base[::2, 1:]
        v += 10
        t = base.T
        t *= 2
        row = base[1]
        row -= xp.asarray(numpy.array([1, 2, 3, 4], dtype="float32"))
        return base

    body()


@pytest.mark.parametrize("case", [
    "int_iadd_float", "bool_sub", "bool_neg", "float_invert", "int8_plus_300", "uint8_plus_neg",
    "int_pow_negative", "shape_mismatch", "float_and", "complex_lt", "complex_floordiv",
    "int_iadd_complex", "float_lshift", "int_itruediv", "uint64_plus_big", "int64_plus_2_63",
    "bool_isub",
])
def test_operator_errors(device, case):
    @numpy_cunp_equal()
    def body(xp):
        i = xp.asarray(numpy.array([1, 2, 3], dtype="int32"))
        i8 = xp.asarray(numpy.array([1, 2, 3], dtype="int8"))
        u8 = xp.asarray(numpy.array([1, 2, 3], dtype="uint8"))
        f = xp.asarray(numpy.array([1.0, 2.0, 3.0]))
        b = xp.asarray(numpy.array([True, False, True]))
        c = xp.asarray(numpy.array([1j, 2, 3]))

        def iadd(a, v):
            a += v
            return a

        def itruediv(a, v):
            a /= v
            return a

        def isub(a, v):
            a -= v
            return a

        fns = {
            "int_iadd_float": lambda: iadd(i, 1.5),
            "bool_sub": lambda: b - b,
            "bool_neg": lambda: -b,
            "float_invert": lambda: ~f,
            "int8_plus_300": lambda: i8 + 300,
            "uint8_plus_neg": lambda: u8 + (-1),
            "int_pow_negative": lambda: i ** -1,
            "shape_mismatch": lambda: f + xp.ones(4),
            "float_and": lambda: f & f,
            "complex_lt": lambda: c < c,
            "complex_floordiv": lambda: c // c,
            "int_iadd_complex": lambda: iadd(i, c),
            "float_lshift": lambda: f << 1,
            "int_itruediv": lambda: itruediv(i, 2),
            "uint64_plus_big": lambda: u8.astype("uint64") + 2 ** 64,
            "int64_plus_2_63": lambda: i.astype("int64") + 2 ** 63,
            "bool_isub": lambda: isub(b, True),
        }
        return outcome(fns[case])

    body()


def test_comparisons_return_bool_arrays(device):
    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(numpy.array([[1, 5, 3], [4, 2, 6]], dtype="int16"))
        b = xp.asarray(numpy.array([3, 2, 3.5], dtype="float32"))
        results = []
        for f in (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge):
            results += [f(a, b), f(a, 3), f(3, a), f(a, 2.5), f(a, [1, 5, 3])]
        return results

    body()


def test_comparison_with_none(device):
    """a == None is all-False (NumPy compares elementwise; the reflected fallback gives
    False), a != None all-True."""
    a = cunp.asarray(numpy.array([1, 2, 3]))
    eq = a == None  # noqa: E711 - the comparison under test
    ne = a != None  # noqa: E711
    for r, want in ((eq, False), (ne, True)):
        host = r.get() if isinstance(r, cunp.ndarray) else numpy.asarray(r)
        assert host.dtype == numpy.bool_
        assert host.shape in ((), (3,))
        assert bool(numpy.all(host == want))
    numpy_eq = numpy.array([1, 2, 3]) == None  # noqa: E711
    assert not numpy_eq.any()


def test_unsupported_operand_type(device):
    a = cunp.asarray(numpy.array([1, 2, 3]))
    with pytest.raises(TypeError):
        a + object()
    with pytest.raises(TypeError):
        object() - a
    with pytest.raises(TypeError):
        a < object()


def test_arrays_are_unhashable(device):
    with pytest.raises(TypeError):
        hash(cunp.zeros(3))


def test_operator_results_stay_on_device(device):
    a = cunp.arange(6).reshape(2, 3)
    for r in (a + 1, 1 - a, a == 2, -a, divmod(a, 4)[1], [1, 2, 3] * a):
        assert isinstance(r, cunp.ndarray)
        assert str(r.device) == device


def test_reflected_with_lists_and_scalars(device):
    @numpy_cunp_equal(rtol=1e-6)
    def body(xp):
        a = xp.asarray(numpy.array([1, 2, 4], dtype="int64"))
        f = xp.asarray(numpy.array([0.5, -2.0, 4.0], dtype="float32"))
        return (1 - a, [1, 2, 3] * a, 2 ** a, 1 / a, 7 // a, 7 % a, divmod(7, a), 1 << a,
                [True, False, True] & (a > 1), 1.5 - f, [1.0, 2.0, 3.0] / f, 3 ** f, (1, 2, 3) + a,
                [[1], [2]] + a, 2.5 ** a, -3 // f)

    body()

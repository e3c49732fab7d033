"""cunp's ufunc objects against NumPy's: attributes and type signatures, every ufunc on
every dtype (random data plus edge values) over a mix of layouts, every layout with a
representative set of ufuncs, NEP 50 scalars, mixed dtypes, out=, where=, dtype= and
casting=."""
import zlib

import numpy
import pytest

import cunp
from helpers import numpy_cunp_equal, power_determined_part, random_array

# ---- the ufuncs -----------------------------------------------------------------

UNARY = [
    "negative", "positive", "absolute", "fabs", "sign", "square", "reciprocal", "conjugate",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt",
    "deg2rad", "rad2deg", "degrees", "radians", "floor", "ceil", "trunc", "rint", "spacing",
    "signbit", "isnan", "isinf", "isfinite", "logical_not", "invert",
]
UNARY_TWO_OUT = ["frexp", "modf"]
BINARY = [
    "add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "fmod", "power",
    "float_power", "maximum", "minimum", "fmax", "fmin", "hypot", "arctan2", "logaddexp",
    "logaddexp2", "copysign", "nextafter", "ldexp", "heaviside", "equal", "not_equal", "less",
    "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
    "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "gcd", "lcm",
]
BINARY_TWO_OUT = ["divmod"]
CANONICAL = UNARY + UNARY_TWO_OUT + BINARY + BINARY_TWO_OUT
ALIASES = {"divide": "true_divide", "mod": "remainder", "abs": "absolute", "conj": "conjugate",
           "bitwise_not": "invert"}
ALL_NAMES = CANONICAL + sorted(ALIASES)

# Results compared exactly; everything else (transcendental functions, and complex
# products/quotients/magnitudes) within a few ulps of the result dtype.
EXACT = {
    "negative", "positive", "fabs", "floor", "ceil", "trunc", "rint", "spacing", "signbit",
    "isnan", "isinf", "isfinite", "logical_not", "invert", "frexp", "modf", "add", "subtract",
    "floor_divide", "remainder", "fmod", "divmod", "maximum", "minimum", "fmax", "fmin",
    "copysign", "nextafter", "ldexp", "heaviside", "equal", "not_equal", "less", "less_equal",
    "greater", "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and",
    "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "gcd", "lcm", "conjugate",
}
# Exact for real floats, a few ulps for complex.
EXACT_REAL = {"multiply", "true_divide", "absolute", "sign", "square", "reciprocal", "sqrt"}
# Their float zeros may come out as either sign from NumPy's own SIMD paths.
NO_SIGNBIT_CHECK = {"maximum", "minimum", "fmax", "fmin"}

ALL_DTYPES = [numpy.dtype(t) for t in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
    "float32", "float64", "complex64", "complex128")]
LAYOUTS = ["contiguous", "strided", "reversed", "transposed", "broadcast", "0d", "empty"]


def builtin_name(exc):
    """The builtin exception class an exception is (NumPy raises subclasses of TypeError)."""
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return type(exc).__name__


def outcome(fn, *args, **kwargs):
    """fn's result, with NumPy scalars as 0-d arrays, or 'raises <builtin exception>'."""
    try:
        with numpy.errstate(all="ignore"):
            return normalize(fn(*args, **kwargs))
    except Exception as e:  # noqa: BLE001 - the exception type is the result compared
        return "raises " + builtin_name(e)


def normalize(r):
    if isinstance(r, numpy.generic):
        return numpy.asarray(r)
    if isinstance(r, tuple):
        return tuple(normalize(x) for x in r)
    return r


# NumPy before 2.5 returned x instead of y from float16 nextafter(x, y) when x == y, so
# nextafter(+0.0, -0.0) was +0.0 (numpy/numpy#31472, fixed in 2.5 to follow C99 like the
# float32/float64 loops). The oracle is NumPy's fixed behaviour.
_HALF_NEXTAFTER_RETURNS_X = tuple(int(v) for v in numpy.__version__.split(".")[:2]) < (2, 5)


def _oracle_nextafter(x, y, **kwargs):
    r = numpy.nextafter(x, y, **kwargs)
    if _HALF_NEXTAFTER_RETURNS_X and numpy.result_type(x, y) == numpy.float16 and not kwargs:
        r = numpy.where(numpy.asarray(x) == numpy.asarray(y), numpy.asarray(y, dtype=r.dtype), r)[()]
    return r


def call(xp, name, *args, **kwargs):
    """xp.<name>(...) with NumPy's exception subclasses raised as the builtin ones, and
    NumPy scalars as 0-d arrays (cunp returns 0-d arrays)."""
    try:
        with numpy.errstate(all="ignore"):
            if xp is numpy and name == "nextafter":
                return normalize(_oracle_nextafter(*args, **kwargs))
            return normalize(getattr(xp, name)(*args, **kwargs))
    except Exception as e:
        raise _rebuild(e) from e


def guarded(fn):
    """fn() under call()'s conventions."""
    try:
        with numpy.errstate(all="ignore"):
            return normalize(fn())
    except Exception as e:
        raise _rebuild(e) from e


def _rebuild(e):
    """The same error as its builtin exception class (numpy.exceptions.* and
    UFuncTypeError are TypeError/ValueError subclasses)."""
    import builtins
    cls = getattr(builtins, builtin_name(e), None)
    return cls(str(e)) if cls is not None and cls is not type(e) else e


def seed_of(*parts):
    return zlib.crc32("-".join(str(p) for p in parts).encode())


def restricted_numpy_types(name):
    """numpy.<name>.types on cunp's dtypes: no object, datetime, timedelta or long double
    loops; the 'q'/'Q' spellings of int64/uint64 become 'l'/'L' (dropped where they
    duplicate an 'l'/'L' loop); NumPy's repeated registrations of a signature (its
    SIMD-specialized loops) count once."""
    types = getattr(numpy, name).types
    kept = []
    for sig in types:
        if any(c in sig for c in "OmMgG"):
            continue
        if "q" in sig or "Q" in sig:
            mapped = sig.replace("q", "l").replace("Q", "L")
            if mapped in types:
                continue
            sig = mapped
        if sig not in kept:
            kept.append(sig)
    return kept


def edge_values(dt):
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return numpy.array([False, True])
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        vals = [0, 1, 2, 3, 7, info.max, info.max - 1, info.min, info.min + 1]
        if dt.kind == "i":
            vals += [-1, -2, -3, -7]
        return numpy.array(vals, dtype=dt)
    if dt.kind == "f":
        fi = numpy.finfo(dt)
        return numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1.0, -1.0, 0.5, -0.5,
                            1.5, -2.5, 2.5, 3.0, -7.0, float(fi.max), -float(fi.max),
                            float(fi.tiny), float(fi.smallest_subnormal), 1e-3], dtype=dt)
    parts = [0.0, -0.0, 1.0, -2.5, numpy.inf, -numpy.inf, numpy.nan]
    return numpy.array([complex(r, i) for r in parts for i in parts], dtype=dt)


def random_values(dt, n, rng):
    """Half wide-range, half in [-1.5, 1.5] (the domain of arcsin & co.) for floats."""
    dt = numpy.dtype(dt)
    wide = random_array((n,), dt, rng)
    if dt.kind in "fc":
        narrow = random_array((n,), dt, rng, low=-1.5, high=1.5)
        return numpy.concatenate([wide, narrow])
    return wide


def adjust_for(name, dt, hosts):
    """Keeps integer power away from negative exponents (NumPy raises for those: tested
    separately)."""
    dt = numpy.dtype(dt)
    if name == "power" and dt.kind in "iu" and len(hosts) == 2:
        hosts = [hosts[0], (hosts[1].astype(numpy.int64) % 20).astype(dt)]
    return hosts


def host_inputs(name, nin, dt, rng, broadcast=False):
    """1-D host inputs: for two inputs, every pair of edge values (unless broadcast, where
    the outer product forms the pairs) followed by random values."""
    e = edge_values(dt)
    if nin == 1:
        return adjust_for(name, dt, [numpy.concatenate([e, random_values(dt, 24, rng)])])
    if broadcast:
        xs = [numpy.concatenate([e, random_values(dt, 8, rng)]) for _ in range(2)]
    else:
        x = numpy.concatenate([numpy.repeat(e, len(e)), random_values(dt, 24, rng)])
        y = numpy.concatenate([numpy.tile(e, len(e)), random_values(dt, 24, rng)])
        xs = [x, y]
    return adjust_for(name, dt, xs)


def operands(xp, hosts, layout):
    """Device (or NumPy) operands with the same values as `hosts`, laid out as `layout`.
    Returns a list of argument lists: the ufunc is called once per list."""
    if layout == "contiguous":
        return [[xp.asarray(h) for h in hosts]]
    if layout == "strided":
        out = []
        for h in hosts:
            base = numpy.empty(2 * len(h), dtype=h.dtype)
            base[::2] = h
            base[1::2] = h[::-1]
            out.append(xp.asarray(base)[::2])
        return [out]
    if layout == "reversed":
        return [[xp.asarray(h[::-1].copy())[::-1] for h in hosts]]
    if layout == "transposed":
        out = []
        for h in hosts:
            m = len(h) - len(h) % 4
            h2 = h[:m].reshape(4, m // 4)
            out.append(xp.asarray(numpy.ascontiguousarray(h2.T)).T)
        return [out]
    if layout == "broadcast":
        if len(hosts) == 1:
            return [[xp.broadcast_to(xp.asarray(hosts[0][:, None]), (len(hosts[0]), 3))]]
        return [[xp.asarray(hosts[0][:, None]), xp.asarray(hosts[1][None, :])]]
    if layout == "0d":
        if len(hosts) == 1:
            h = hosts[0]
            return [[xp.asarray(h[k])] for k in range(0, len(h), max(1, len(h) // 8))]
        x, y = hosts
        return [[xp.asarray(x[k]), xp.asarray(y)] for k in (0, len(x) // 3)] + \
               [[xp.asarray(x), xp.asarray(y[k])] for k in (1, len(y) - 1)]
    if layout == "empty":
        if len(hosts) == 1:
            return [[xp.asarray(hosts[0][:0])]]
        return [[xp.asarray(numpy.empty((3, 0), dtype=hosts[0].dtype)),
                 xp.asarray(hosts[1][:0])]]
    raise AssertionError(layout)


def result_dtype(name, *dts):
    """NumPy's (first) result dtype for inputs of these dtypes, or None if it raises."""
    try:
        with numpy.errstate(all="ignore"):
            r = getattr(numpy, name)(*[numpy.ones(1, dtype=d) for d in dts])
    except TypeError:
        return None
    return (r[0] if isinstance(r, tuple) else r).dtype


def tolerance(name, out_dtype):
    """(rtol, atol) for a ufunc producing out_dtype."""
    if out_dtype is None or out_dtype.kind in "biu" or name in EXACT:
        return 0.0, 0.0
    if name in EXACT_REAL and out_dtype.kind == "f":
        return 0.0, 0.0
    tol = {"e": 1e-3, "f": 1e-6, "F": 1e-6, "d": 1e-13, "D": 1e-13}[out_dtype.char]
    return tol, tol


def nin_of(name):
    return 1 if name in UNARY or name in UNARY_TWO_OUT else 2


def with_signbits(xp, name, r):
    """Adds the sign bits of real float results (NaNs excluded) to what is compared."""
    if name in NO_SIGNBIT_CHECK:
        return r
    results = r if isinstance(r, tuple) else (r,)
    extra = []
    for x in results:
        if getattr(x, "dtype", None) is not None and x.dtype.kind == "f":
            extra.append(xp.where(xp.isnan(x), False, xp.signbit(x)))
    return (r, tuple(extra)) if extra else r


def run_ufunc(name, dt, layout, device):
    """Checks xp.<name> on inputs of dtype dt laid out as `layout` against NumPy."""
    nin = nin_of(name)
    rng = numpy.random.default_rng(seed_of(name, dt, layout))
    hosts = host_inputs(name, nin, dt, rng, broadcast=(layout == "broadcast"))
    rtol, atol = tolerance(name, result_dtype(name, *([dt] * nin)))
    exact = rtol == 0.0

    @numpy_cunp_equal(rtol=rtol, atol=atol)
    def body(xp):
        results = []
        for args in operands(xp, hosts, layout):
            r = call(xp, name, *args)
            results.append(with_signbits(xp, name, r) if exact else r)
        return tuple(results)

    body()


# ---- attributes -----------------------------------------------------------------

@pytest.mark.parametrize("name", ALL_NAMES)
def test_attributes_and_types(device, name):
    @numpy_cunp_equal()
    def body(xp):
        f = getattr(xp, name)
        types = list(f.types) if xp is cunp else restricted_numpy_types(name)
        ntypes = f.ntypes if xp is cunp else len(types)
        return (types, ntypes, f.nin, f.nout, f.nargs, f.identity, f.__name__)

    body()


@pytest.mark.parametrize("alias,target", sorted(ALIASES.items()))
def test_aliases_are_the_same_object(alias, target):
    assert getattr(numpy, alias) is getattr(numpy, target)
    assert getattr(cunp, alias) is getattr(cunp, target)


def test_ufunc_objects_are_ufuncs():
    for name in ALL_NAMES:
        f = getattr(cunp, name)
        assert isinstance(f, cunp.ufunc), name
        assert callable(f)
        assert repr(f) == repr(getattr(numpy, name)), name


# ---- every ufunc on every dtype ---------------------------------------------------

@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("name", CANONICAL)
def test_ufunc_dtype(device, name, dt):
    """Every ufunc × every dtype once, on a layout picked from the mix by the pair."""
    layout = LAYOUTS[seed_of(name, dt.name) % len(LAYOUTS)]
    run_ufunc(name, dt, layout, device)


# ---- every layout, on representative ufuncs ----------------------------------------

LAYOUT_CASES = [
    ("add", "float64"), ("subtract", "int16"), ("multiply", "complex64"), ("true_divide", "int32"),
    ("floor_divide", "int8"), ("remainder", "float32"), ("divmod", "int64"), ("power", "uint8"),
    ("sin", "float32"), ("exp", "complex128"), ("sqrt", "float64"), ("absolute", "int8"),
    ("arctan2", "float16"), ("maximum", "float64"), ("equal", "complex64"), ("less", "uint64"),
    ("logical_xor", "bool"), ("left_shift", "int32"), ("right_shift", "uint16"), ("isnan", "float16"),
    ("frexp", "float32"), ("modf", "float64"), ("rint", "float16"), ("gcd", "int64"),
]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name,dt", LAYOUT_CASES)
def test_layouts(device, name, dt, layout):
    run_ufunc(name, numpy.dtype(dt), layout, device)


def test_layout_mixed_strides(device):
    """One operand transposed, one negatively strided, one broadcast row."""
    rng = numpy.random.default_rng(7)
    x = random_array((4, 6), "float64", rng)
    y = random_array((6, 4), "float64", rng)
    z = random_array((1, 6), "float32", rng)

    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(x)[::-1]
        b = xp.asarray(y).T
        c = xp.asarray(z)
        return (xp.add(a, b), xp.multiply(xp.subtract(a, c), b[:, ::-1]),
                xp.add(a[1::2, ::-3], c[:, ::3]))

    body()


def test_empty_and_zero_size_broadcast(device):
    @numpy_cunp_equal()
    def body(xp):
        a = xp.ones((0, 3), dtype="float32")
        b = xp.ones((1, 3), dtype="int64")
        c = xp.ones((2, 0, 1), dtype="int8")
        return (xp.add(a, b), xp.sin(c), xp.less(c, xp.ones((4,), dtype="int8")),
                xp.divmod(a, b))

    body()


def test_broadcast_shape_mismatch_raises(device):
    @numpy_cunp_equal()
    def body(xp):
        return call(xp, "add", xp.ones((3,)), xp.ones((4,)))

    body()


# ---- integer edge semantics ----------------------------------------------------------

INT_DTYPES = [d for d in ALL_DTYPES if d.kind in "iu"]
FLOAT_DTYPES = [d for d in ALL_DTYPES if d.kind == "f"]


@pytest.mark.parametrize("dt", INT_DTYPES, ids=lambda d: d.name)
def test_integer_division_by_zero_and_overflow(device, dt):
    info = numpy.iinfo(dt)
    xs = numpy.array([0, 1, 7, info.max, info.min, info.min, 5, info.max], dtype=dt)
    ys = numpy.array([0, 0, 0, 0, 0, -1 if dt.kind == "i" else 1, 3, 7], dtype=dt)

    @numpy_cunp_equal()
    def body(xp):
        x, y = xp.asarray(xs), xp.asarray(ys)
        return (call(xp, "floor_divide", x, y), call(xp, "remainder", x, y),
                call(xp, "fmod", x, y), call(xp, "divmod", x, y), call(xp, "true_divide", x, y))

    body()


@pytest.mark.parametrize("dt", ["int8", "int32", "int64", "uint8", "uint64"])
def test_integer_negative_divisors(device, dt):
    @numpy_cunp_equal()
    def body(xp):
        x = xp.asarray(numpy.array([7, -7, 7, -7, 0, 1, -1, 6] if dt[0] == "i" else
                                   [7, 200 % 256, 9, 0, 1, 250 % 256, 6, 3], dtype=dt))
        y = xp.asarray(numpy.array([2, 2, -2, -2, -3, -3, 3, -4] if dt[0] == "i" else
                                   [2, 3, 4, 5, 7, 9, 11, 13], dtype=dt))
        return (x // y, x % y, call(xp, "fmod", x, y), call(xp, "divmod", x, y))

    body()


@pytest.mark.parametrize("dt", INT_DTYPES, ids=lambda d: d.name)
def test_shift_counts(device, dt):
    bits = dt.itemsize * 8
    counts = [0, 1, bits - 1, bits, bits + 1, 2 * bits]
    if dt.kind == "i":
        counts += [-1, -bits, -100 if bits > 8 else -100]
    info = numpy.iinfo(dt)
    values = [1, info.max, info.min, 3] + ([-1, -5] if dt.kind == "i" else [5, 6])

    @numpy_cunp_equal()
    def body(xp):
        v = xp.asarray(numpy.array(values, dtype=dt))[:, None]
        c = xp.asarray(numpy.array(counts, dtype=dt))[None, :]
        return (call(xp, "left_shift", v, c), call(xp, "right_shift", v, c))

    body()


@pytest.mark.parametrize("dt", ["int8", "int32", "int64"])
def test_integer_power_negative_exponent_raises(device, dt):
    @numpy_cunp_equal()
    def body(xp):
        return call(xp, "power", xp.asarray(numpy.array([2, 3], dtype=dt)),
                    xp.asarray(numpy.array([1, -1], dtype=dt)))

    body()


@pytest.mark.parametrize("dt", INT_DTYPES, ids=lambda d: d.name)
def test_integer_power_values(device, dt):
    rng = numpy.random.default_rng(seed_of("power", dt))
    base = random_array((40,), dt, rng)
    exp = (random_array((40,), dt, rng).astype(numpy.int64) % 70).astype(dt)

    @numpy_cunp_equal()
    def body(xp):
        return (call(xp, "power", xp.asarray(base), xp.asarray(exp)),
                call(xp, "power", xp.asarray(base), 0), call(xp, "power", xp.asarray(base), 3))

    body()


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_float_power_of_integers_is_exact(device, dt):
    """Integer-valued bases to non-negative integer exponents whose powers are exact in
    dt come out exact, signed zeros included (a device pow is 2 ulp off: 3.0 ** 1.0 < 3,
    which logspace(dtype=int) truncates to 2); negative exponents within an ulp."""
    limit = 2 ** 24 if dt == "float32" else 2 ** 53
    pairs = [(b, e) for b in range(-12, 13) for e in range(-6, 40) if b != 0 or e >= 0]
    pairs = [(b, e) for b, e in pairs if abs(b) ** abs(e) < limit]
    base = numpy.array([b for b, _ in pairs] + [0.0, -0.0, -0.0, 3.0, 2.5], dtype=dt)
    exp = numpy.array([e for _, e in pairs] + [-1.0, -1.0, -2.0, 0.5, 2.0], dtype=dt)
    with numpy.errstate(divide="ignore"):
        want = numpy.power(base, exp)
    with cunp.errstate(divide="ignore"):
        got = cunp.asnumpy(cunp.power(cunp.asarray(base), cunp.asarray(exp)))
    # Exact where the power is an integer; a negative exponent's quotient is within an
    # ulp (NumPy's own SIMD pow is not always correctly rounded there).
    integral = numpy.isfinite(want) & (numpy.trunc(exp) == exp) & (numpy.trunc(base) == base) & (exp >= 0)
    numpy.testing.assert_array_equal(got[integral], want[integral])
    numpy.testing.assert_array_equal(numpy.signbit(got[integral]), numpy.signbit(want[integral]))
    numpy.testing.assert_array_equal(got[-5:-2], want[-5:-2])  # 1/0: inf, -inf, +inf
    numpy.testing.assert_allclose(got[~integral], want[~integral], rtol=2.4e-7 if dt == "float32" else 4.5e-16)
    numpy.testing.assert_array_equal(cunp.asnumpy(cunp.logspace(1, 4, 7, base=3.0, dtype="int32")),
                                     numpy.logspace(1, 4, 7, base=3.0, dtype="int32"))


def test_gcd_lcm(device):
    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(numpy.array([0, 0, 12, -12, 12, 7, 2 ** 40, -36, 1], dtype=numpy.int64))
        b = xp.asarray(numpy.array([0, 5, 18, 18, -18, 13, 2 ** 35 * 3, -48, 0], dtype=numpy.int64))
        return (call(xp, "gcd", a, b), call(xp, "lcm", a, b), call(xp, "gcd", a, 6),
                call(xp, "gcd", xp.asarray(numpy.array([4, 6], "uint8")), 10))

    body()


def test_gcd_lcm_reject_floats(device):
    @numpy_cunp_equal()
    def body(xp):
        return call(xp, "gcd", xp.ones(3), xp.ones(3))

    body()


# ---- floating-point semantics --------------------------------------------------------

@pytest.mark.parametrize("dt", FLOAT_DTYPES + [numpy.dtype("complex64"), numpy.dtype("complex128")],
                         ids=lambda d: d.name)
def test_nan_propagation(device, dt):
    nan = numpy.nan
    xs = numpy.array([nan, 1.0, nan, -0.0, numpy.inf, 2.0], dtype=dt)
    ys = numpy.array([1.0, nan, nan, 0.0, nan, 3.0], dtype=dt)

    @numpy_cunp_equal()
    def body(xp):
        x, y = xp.asarray(xs), xp.asarray(ys)
        return tuple(call(xp, n, x, y) for n in (
            "maximum", "minimum", "fmax", "fmin", "equal", "not_equal", "less", "less_equal",
            "greater", "greater_equal", "add", "logical_and", "logical_or"))

    body()


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=lambda d: d.name)
def test_float_floor_divide_remainder_signs(device, dt):
    vals = [7.5, -7.5, 0.0, -0.0, 1.0, -1.0, numpy.inf, -numpy.inf, numpy.nan, 5.0]

    @numpy_cunp_equal()
    def body(xp):
        x = xp.asarray(numpy.array(vals, dtype=dt))[:, None]
        y = xp.asarray(numpy.array(vals, dtype=dt))[None, :]
        q, r = call(xp, "divmod", x, y)
        # Signs of zeros are compared; signs of NaNs are not: IEEE 754 leaves the sign of
        # a NaN an invalid operation produces to the hardware (x86: set, CUDA: clear).
        def sign(v):
            return xp.where(xp.isnan(v), False, xp.signbit(v))
        return (q, r, call(xp, "floor_divide", x, y), call(xp, "remainder", x, y),
                call(xp, "fmod", x, y), sign(q), sign(r), sign(call(xp, "fmod", x, y)))

    body()


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=lambda d: d.name)
def test_rounding_halves(device, dt):
    vals = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49, -0.49, 1e10 if dt != numpy.float16 else 1000.0,
            -0.0, numpy.inf, numpy.nan]

    @numpy_cunp_equal()
    def body(xp):
        x = xp.asarray(numpy.array(vals, dtype=dt))
        return tuple((call(xp, n, x), xp.signbit(call(xp, n, x)))
                     for n in ("rint", "floor", "ceil", "trunc"))

    body()


def test_ldexp_with_integer_exponents(device):
    @numpy_cunp_equal()
    def body(xp):
        m = xp.asarray(numpy.array([1.0, -0.5, 3.0, 0.0, numpy.inf, numpy.nan, 1.5], "float32"))
        results = []
        for et in ("int8", "int16", "int32", "int64"):
            e = xp.asarray(numpy.array([1, 10, -3, 5, 2, 0, -200 if et != "int8" else -100], et))
            results.append(call(xp, "ldexp", m, e))
            results.append(call(xp, "ldexp", m.astype("float64"), e))
            results.append(call(xp, "ldexp", m.astype("float16"), e))
        results.append(call(xp, "ldexp", m, 3))
        return tuple(results)

    body()


def test_ldexp_rejects_float_exponents(device):
    @numpy_cunp_equal()
    def body(xp):
        return call(xp, "ldexp", xp.ones(3, dtype="float32"), xp.ones(3, dtype="float32"))

    body()


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=lambda d: d.name)
def test_frexp_modf_edges(device, dt):
    vals = numpy.array([0.0, -0.0, 1.0, -3.75, numpy.inf, -numpy.inf, numpy.nan, 1e-4,
                        float(numpy.finfo(dt).smallest_subnormal), float(numpy.finfo(dt).max)],
                       dtype=dt)

    @numpy_cunp_equal()
    def body(xp):
        x = xp.asarray(vals)
        m, e = call(xp, "frexp", x)
        f, i = call(xp, "modf", x)
        return (m, e, f, i, xp.signbit(m), xp.signbit(f), xp.signbit(i))

    body()


# ---- NEP 50: Python and NumPy scalars -------------------------------------------------

SCALARS = [3, -1, 300, 2 ** 63, 2 ** 70, 2.5, float("nan"), 1.5 - 2j, True,
           numpy.float32(2.5), numpy.int64(3), numpy.uint8(200), numpy.complex64(1 + 2j),
           numpy.bool_(True), numpy.float16(0.5), numpy.int8(-3)]
SCALAR_UFUNCS = ["add", "subtract", "true_divide", "floor_divide", "power", "maximum", "less",
                 "equal", "bitwise_or", "arctan2", "remainder", "left_shift", "copysign"]


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("name", SCALAR_UFUNCS)
def test_scalar_operands(device, name, dt):
    rng = numpy.random.default_rng(seed_of("scalar", name, dt))
    h = random_array((6,), dt, rng, low=0, high=5)
    rtol, atol = tolerance(name, numpy.dtype("float32")) if name == "arctan2" else (0.0, 0.0)
    if name == "power":
        rtol, atol = 1e-6, 0.0

    @numpy_cunp_equal(rtol=rtol, atol=atol)
    def body(xp):
        a = xp.asarray(h)
        f = getattr(xp, name)
        results = []
        for s in SCALARS:
            r = outcome(f, a, s)
            results.append(power_determined_part(xp, r, s) if name == "power" else r)
            r = outcome(f, s, a)
            results.append(power_determined_part(xp, r, None) if name == "power" else r)
        return results

    body()


def test_scalar_only_calls(device):
    @numpy_cunp_equal(rtol=1e-13, atol=1e-13)
    def body(xp):
        return [outcome(xp.add, 1, 2), outcome(xp.sin, 0.5), outcome(xp.multiply, 2, 2.5),
                outcome(xp.equal, 1, 1.0), outcome(xp.divmod, 7, -2), outcome(xp.add, 2 ** 70, 1),
                outcome(xp.sqrt, xp.asarray(numpy.float32(4.0)))]

    body()


def test_scalar_results_are_arrays(device):
    """Ufuncs on Python scalars give 0-d cunp arrays on the current device."""
    r = cunp.add(1, 2.5)
    assert isinstance(r, cunp.ndarray) and r.shape == () and r.dtype == numpy.float64
    assert float(r) == 3.5
    assert str(r.device) == device


@pytest.mark.parametrize("pair", [
    ("int8", "float32"), ("uint64", "int64"), ("bool", "int32"), ("float16", "float32"),
    ("complex64", "float64"), ("uint8", "int8"), ("int16", "float16"), ("uint32", "int32"),
    ("uint64", "float16"), ("int64", "complex64"), ("bool", "float16"), ("uint16", "int64"),
], ids=lambda p: "+".join(p))
def test_mixed_dtypes(device, pair):
    rng = numpy.random.default_rng(seed_of("mixed", *pair))
    hx = random_array((12,), pair[0], rng, low=1, high=20)
    hy = random_array((12,), pair[1], rng, low=1, high=20)
    names = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "maximum",
             "fmin", "equal", "less", "greater_equal", "bitwise_and", "logical_or", "power",
             "copysign", "left_shift", "gcd", "divmod", "arctan2", "hypot"]

    @numpy_cunp_equal(rtol=1e-6, atol=1e-6)
    def body(xp):
        x, y = xp.asarray(hx), xp.asarray(hy)
        return [outcome(getattr(xp, n), x, y) for n in names] + \
               [outcome(getattr(xp, n), y, x) for n in names]

    body()


# ---- out= ----------------------------------------------------------------------------

def _xy(xp, dt="float64", n=6, seed=0):
    rng = numpy.random.default_rng(seed)
    return (xp.asarray(random_array((n,), dt, rng, low=1, high=9)),
            xp.asarray(random_array((n,), dt, rng, low=1, high=9)))


@pytest.mark.parametrize("out_dtype", ["float64", "float32", "float16", "complex128", "int32"])
@pytest.mark.parametrize("in_dtype", ["int8", "float64", "float32", "complex64", "bool"])
def test_out_dtypes(device, in_dtype, out_dtype):
    """Same dtype, same_kind casts and refused casts (TypeError)."""
    @numpy_cunp_equal(rtol=1e-6)
    def body(xp):
        x, y = _xy(xp, in_dtype)
        out = xp.zeros(6, dtype=out_dtype)
        r = call(xp, "add", x, y, out=out)
        s = call(xp, "sin", x, out=xp.zeros(6, dtype=out_dtype))
        return (r is out, out, s)

    body()


@pytest.mark.parametrize("case", ["positional", "keyword", "tuple", "broadcast_to_out"])
def test_out_forms(device, case):
    @numpy_cunp_equal()
    def body(xp):
        x, y = _xy(xp, "float32")
        if case == "broadcast_to_out":
            out = xp.zeros((3, 6), dtype="float32")
            r = xp.multiply(x, y, out=out)
        else:
            out = xp.zeros(6, dtype="float32")
            r = {"positional": lambda: xp.multiply(x, y, out),
                 "keyword": lambda: xp.multiply(x, y, out=out),
                 "tuple": lambda: xp.multiply(x, y, out=(out,))}[case]()
        return (r is out, out)

    body()


def test_out_two_outputs(device):
    @numpy_cunp_equal()
    def body(xp):
        x, y = _xy(xp, "int32")
        q, r = xp.zeros(6, dtype="int32"), xp.zeros(6, dtype="int64")
        res = xp.divmod(x, y, q, r)
        q2 = xp.zeros(6, dtype="int32")
        res2 = xp.divmod(x, y, out=(q2, None))
        m, e = xp.zeros(6, dtype="float64"), xp.zeros(6, dtype="int32")
        res3 = xp.frexp(x.astype("float64"), out=(m, e))
        return (res[0] is q, res[1] is r, q, r, res2[0] is q2, q2, res2[1],
                res3[0] is m, res3[1] is e, m, e)

    body()


@pytest.mark.parametrize("case", [
    "wrong_shape", "too_small_for_broadcast", "tuple_too_long", "not_an_array", "list_out",
    "both_positional_and_keyword", "too_many_positional", "read_only", "unknown_keyword",
    "too_few_positional", "complex_to_float", "float_to_int", "divmod_one_out",
])
def test_out_errors(device, case):
    @numpy_cunp_equal()
    def body(xp):
        x, y = _xy(xp, "float64")
        out = xp.zeros(6)
        calls = {
            "wrong_shape": lambda: xp.add(x, y, out=xp.zeros(4)),
            "too_small_for_broadcast": lambda: xp.add(x, xp.ones((2, 6)), out=out),
            "tuple_too_long": lambda: xp.add(x, y, out=(out, xp.zeros(6))),
            "not_an_array": lambda: xp.add(x, y, out=3),
            "list_out": lambda: xp.add(x, y, out=[0.0] * 6),
            "both_positional_and_keyword": lambda: xp.add(x, y, out, out=out),
            "too_many_positional": lambda: xp.add(x, y, out, out),
            "read_only": lambda: xp.add(x, y, out=xp.broadcast_to(xp.zeros(1), (6,))),
            "unknown_keyword": lambda: xp.add(x, y, bogus=1),
            "too_few_positional": lambda: xp.add(x),
            "complex_to_float": lambda: xp.add(x.astype("complex128"), y, out=out),
            "float_to_int": lambda: xp.sqrt(x, out=xp.zeros(6, dtype="int64")),
            "divmod_one_out": lambda: xp.divmod(x, y, out),
        }
        return guarded(calls[case])

    body()


def test_out_in_place_on_input(device):
    @numpy_cunp_equal()
    def body(xp):
        x, y = _xy(xp, "float64", n=8)
        r1 = xp.add(x, y, out=x)
        z = xp.asarray(numpy.arange(10, dtype="int64"))
        xp.sin(z.astype("float64"), out=None)
        w = xp.asarray(numpy.arange(10, dtype="float64"))
        xp.negative(w, out=w)
        return (r1 is x, x, w)

    body()


def test_out_overlapping_inputs(device):
    """NumPy computes as if the inputs were copied first when out overlaps them."""
    @numpy_cunp_equal()
    def body(xp):
        a = xp.asarray(numpy.arange(10, dtype="int64"))
        xp.add(a[:-1], a[1:], out=a[1:])
        b = xp.asarray(numpy.arange(10, dtype="float64"))
        xp.multiply(b[::-1], 2.0, out=b)
        c = xp.asarray(numpy.arange(12, dtype="int32").reshape(3, 4))
        xp.subtract(c.T, 1, out=c.T)
        d = xp.asarray(numpy.arange(16, dtype="int64").reshape(4, 4))
        xp.add(d, d.T, out=d)
        return (a, b, c, d)

    body()


# ---- where= ----------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["float64", "int16", "complex64", "bool"])
def test_where_with_out(device, dt):
    rng = numpy.random.default_rng(seed_of("where", dt))
    hx = random_array((4, 5), dt, rng)
    hy = random_array((4, 5), dt, rng)
    mask = rng.integers(0, 2, size=(4, 5)).astype(bool)
    row = rng.integers(0, 2, size=(1, 5)).astype(bool)

    @numpy_cunp_equal()
    def body(xp):
        x, y = xp.asarray(hx), xp.asarray(hy)
        o1 = xp.asarray(hx.copy())
        r1 = call(xp, "multiply", x, y, out=o1, where=xp.asarray(mask))
        o2 = xp.asarray(hy.copy())
        call(xp, "maximum", x, y, out=o2, where=xp.asarray(row))
        o3 = xp.asarray(hy.copy())
        call(xp, "logical_not", x, out=o3, where=False)
        o4 = xp.asarray(hy.copy())
        call(xp, "positive", x, out=o4, where=True)
        o5 = xp.asarray(hx.copy())
        call(xp, "equal", x, y, out=o5, where=xp.asarray(mask))
        return (r1 is o1, o1, o2, o3, o4, o5)

    body()


def test_where_without_out(device):
    """Masked-off positions of a fresh output are unspecified: only the others compare."""
    rng = numpy.random.default_rng(3)
    hx = random_array((3, 7), "float32", rng)
    mask = rng.integers(0, 2, size=(3, 7)).astype(bool)

    @numpy_cunp_equal(rtol=1e-6, atol=1e-6)
    def body(xp):
        m = xp.asarray(mask)
        r = xp.exp(xp.asarray(hx), where=m)
        s = xp.add(xp.asarray(hx), 1, where=m[0])
        return (xp.where(m, r, 0), xp.where(m[0], s, 0), r.shape, s.dtype.name)

    body()


@pytest.mark.parametrize("case", ["int_mask", "float_mask", "bad_shape", "list_mask"])
def test_where_mask_kinds(device, case):
    @numpy_cunp_equal()
    def body(xp):
        x, y = _xy(xp, "float64")
        out = xp.zeros(6)
        masks = {"int_mask": lambda: xp.asarray(numpy.array([1, 0, 1, 0, 1, 1])),
                 "float_mask": lambda: xp.asarray(numpy.array([1.0, 0, 1, 0, 1, 1])),
                 "bad_shape": lambda: xp.asarray(numpy.ones(4, dtype=bool)),
                 "list_mask": lambda: [True, False, True, False, True, True]}
        call(xp, "add", x, y, out=out, where=masks[case]())
        return out

    body()


# ---- dtype= and casting= --------------------------------------------------------------

@pytest.mark.parametrize("name,in_dt,dt", [
    ("add", "int8", "float32"), ("add", "float32", "float64"), ("add", "int8", "int64"),
    ("sin", "int8", "float64"), ("true_divide", "int32", "float32"), ("add", "float64", "int32"),
    ("add", "int8", "bool"), ("multiply", "float32", "complex128"), ("sqrt", "complex64", "float32"),
    ("floor_divide", "int16", "float16"), ("equal", "int8", "bool"), ("add", "uint8", "int8"),
    ("negative", "float32", "int32"), ("power", "int8", "float64"), ("arctan2", "int16", "float32"),
])
@pytest.mark.parametrize("spelling", ["string", "type"])
def test_dtype_argument(device, name, in_dt, dt, spelling):
    rng = numpy.random.default_rng(seed_of("dtype", name, in_dt, dt))
    hs = [random_array((5,), in_dt, rng, low=1, high=9) for _ in range(nin_of(name))]

    @numpy_cunp_equal(rtol=1e-6, atol=1e-6)
    def body(xp):
        d = dt if spelling == "string" else getattr(xp, dt if dt != "bool" else "bool_")
        return call(xp, name, *[xp.asarray(h) for h in hs], dtype=d)

    body()


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe", "bogus"])
@pytest.mark.parametrize("case", ["same", "int8+int16", "int8+float64_out_int8", "f64_out_f32",
                                  "int8+weak_float", "f32_out_f16", "i64_out_u64"])
def test_casting_argument(device, case, casting):
    @numpy_cunp_equal()
    def body(xp):
        i8 = xp.asarray(numpy.array([1, -2, 3], dtype="int8"))
        f64 = xp.asarray(numpy.array([1.5, -2.5, 3.25]))
        cases = {
            "same": lambda: xp.add(i8, i8, casting=casting),
            "int8+int16": lambda: xp.add(i8, i8.astype("int16"), casting=casting),
            "int8+float64_out_int8": lambda: xp.add(i8, f64, out=xp.zeros(3, dtype="int8"),
                                                    casting=casting),
            "f64_out_f32": lambda: xp.add(f64, f64, out=xp.zeros(3, dtype="float32"),
                                          casting=casting),
            "int8+weak_float": lambda: xp.add(i8, 1.5, casting=casting),
            "f32_out_f16": lambda: xp.sqrt(f64.astype("float32"), out=xp.zeros(3, dtype="float16"),
                                           casting=casting),
            "i64_out_u64": lambda: xp.add(i8.astype("int64"), 1, out=xp.zeros(3, dtype="uint64"),
                                          casting=casting),
        }
        return guarded(cases[case])

    body()

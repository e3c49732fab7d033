# tests/python/test_printing.py — repr() and str() of cunp arrays are NumPy's, character
# for character, for every dtype, shape and value class.
import zlib

import numpy as np
import pytest

import cunp

# Every dtype comes from conftest's `dtype` fixture; these tests are about floats only.
INEXACT = ["float16", "float32", "float64", "complex64", "complex128"]

SHAPES = [
    (), (0,), (0, 3), (3, 0), (2, 0, 4), (1,), (7,), (30,), (5, 4), (2, 3, 4), (2, 2, 3, 3),
    (1, 1, 1), (1000,), (1001,), (2500,), (40, 30), (3, 7, 60), (2, 3, 4, 50), (7, 7, 7, 7),
]


def assert_prints_like_numpy(expected):
    actual = cunp.asarray(expected)
    assert repr(actual) == repr(expected)
    assert str(actual) == str(expected)


def random_real(rng, n, kind):
    """float64 values of one magnitude class, with nan, inf, -inf and -0.0 mixed in."""
    if kind == "normal":
        v = rng.standard_normal(n)
    elif kind == "span":  # 1e-10 .. 1e20, both signs
        v = 10.0 ** rng.uniform(-10, 20, n) * rng.choice([-1.0, 1.0], n)
    elif kind == "integral":
        v = rng.integers(-1000, 1000, n).astype(np.float64)
    elif kind == "rounded":
        v = np.round(rng.standard_normal(n) * 100, int(rng.integers(0, 5)))
    elif kind == "positional":  # inside the range NumPy prints without exponents
        v = rng.uniform(1, 900, n)
    else:  # "extreme": subnormals to near-overflow
        v = 10.0 ** rng.uniform(-320, 308, n)
    special = rng.random(n) < 0.1
    v[special] = rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0], special.sum())
    return v


def random_array(rng, dtype, shape, kind="normal"):
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if kind == "normal":
            return rng.integers(info.min, info.max, n, dtype=dt, endpoint=True).reshape(shape)
        return rng.integers(max(info.min, -100), 100, n).astype(dt).reshape(shape)
    with np.errstate(over="ignore", invalid="ignore"):
        if dt.kind == "c":
            v = random_real(rng, n, kind) + 1j * random_real(rng, n, kind)
        else:
            v = random_real(rng, n, kind)
        return v.astype(dt).reshape(shape)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_random_arrays(device, dtype, shape):
    rng = np.random.default_rng(zlib.crc32(f"{dtype}{shape}".encode()))
    for kind in ["normal", "small"]:
        assert_prints_like_numpy(random_array(rng, dtype, shape, kind))


@pytest.mark.parametrize("dtype", INEXACT)
@pytest.mark.parametrize("kind", ["normal", "span", "integral", "rounded", "positional", "extreme"])
def test_float_magnitudes(device, dtype, kind):
    rng = np.random.default_rng(zlib.crc32(f"{dtype}{kind}".encode()))
    for shape in [(), (1,), (3,), (12,), (4, 5), (2, 3, 4), (1200,)]:
        for _ in range(5):
            assert_prints_like_numpy(random_array(rng, dtype, shape, kind))


SPECIAL_VALUES = [
    [np.nan], [np.inf], [-np.inf], [np.nan, np.inf, -np.inf], [0.0], [-0.0], [0.0, -0.0],
    [1.5, np.nan], [-1.5, np.inf], [1e10, np.nan, -np.inf], [1e-4], [9.99e-5], [1e8],
    [99999999.0], [1.0, 1000.0], [1.0, 1000.5], [999.0, 1.0], [1e6, 1.0], [0.001, 1.0],
    [0.1, 0.2, 0.30000000000000004], [1e-100, 1e100], [5e-324, 1.0], [65504.0, 0.1],
    [6e-8], [1e16, 1e-16], [1 / 3, 2 / 3], [123456.789, 0.5], [np.float32(1e-4), 1.0],
]


@pytest.mark.parametrize("dtype", INEXACT)
@pytest.mark.parametrize("values", SPECIAL_VALUES, ids=str)
def test_special_values(device, dtype, values):
    with np.errstate(over="ignore", invalid="ignore"):
        a = np.array(values).astype(dtype)
        assert_prints_like_numpy(a)
        assert_prints_like_numpy(a[:1].reshape(()))
        if np.dtype(dtype).kind == "c":
            b = np.array(values)
            assert_prints_like_numpy((b * 1j).astype(dtype))
            assert_prints_like_numpy((b + 1j * b[::-1]).astype(dtype))
            assert_prints_like_numpy((b * (1 - 1j)).astype(dtype)[:1].reshape(()))


def test_every_float16_value(device):
    values = np.arange(65536, dtype=np.uint16).view(np.float16)
    for start in range(0, 65536, 512):
        chunk = values[start:start + 512]
        assert_prints_like_numpy(chunk)
        for v in chunk[::7]:
            assert_prints_like_numpy(np.array(v))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_random_bit_patterns(device, dtype):
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2**63, 3000, dtype=np.uint64)
    if dtype == "float32":
        values = bits.astype(np.uint32).view(np.float32)
    else:
        values = bits.view(np.float64)
    for i in range(0, len(values), 3):
        assert_prints_like_numpy(values[i:i + 3])
        assert_prints_like_numpy(values[i:i + 1].reshape(()))


def test_zero_dim_str_is_scalar_str(device, dtype):
    rng = np.random.default_rng(3)
    for _ in range(50):
        a = random_array(rng, dtype, ())
        assert str(cunp.asarray(a)) == str(a[()])


@pytest.mark.parametrize("digits", range(1, 20))
@pytest.mark.parametrize("n", [5, 12, 24, 25, 26, 37])
def test_line_wrapping(device, digits, n):
    assert_prints_like_numpy(np.full(n, 10 ** (digits - 1), dtype=np.int64))
    assert_prints_like_numpy(np.full((2, n), -(10 ** (digits - 1)), dtype=np.int64))
    assert_prints_like_numpy(np.full((2, n), 10 ** (digits - 1), dtype=np.uint64))


def test_summary_uses_only_shown_items(device, dtype):
    # Values hidden by '...' must not change the columns' width or notation.
    a = random_array(np.random.default_rng(5), dtype, (2000,), "small")
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        a[3:-3] = np.iinfo(dt).min
    elif dt.kind in "fc":
        a[3:-3] = -1e4 if dt == np.float16 else -1e20
    else:
        a[3:-3] = True
    assert_prints_like_numpy(a)
    assert_prints_like_numpy(a.reshape(40, 50))

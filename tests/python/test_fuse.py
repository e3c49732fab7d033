"""cunp.fuse: each fused function against the same code run op by op (cunp, on the
test's device) and against NumPy (dtypes, shapes, values), out=, reductions, the
per-signature cache, errors, and the generated CUDA source compiled by NVRTC without
a GPU."""
import numpy
import pytest

import cunp
from cases import tolerance_of
from helpers import random_array


def _dist(xp):
    return lambda x, y: xp.sqrt((x - y) ** 2 + 1)


# (id, factory of the function for a namespace xp, argument makers (host data))
def _f32(*shape):
    return lambda rng: random_array(shape, numpy.float32, rng)


def _of(dtype, *shape, low=-50, high=50):
    return lambda rng: random_array(shape, dtype, rng, low, high)


def _value(v):
    return lambda rng: v


ELEMENTWISE = [
    ("dist_broadcast", _dist, [_f32(3, 4), _f32(4)]),
    ("mixed_int32_float32", lambda xp: lambda x, y: x * y + 2, [_of(numpy.int32, 5), _f32(5)]),
    ("weak_int_keeps_int8", lambda xp: lambda x: x + 3 - (x * 2), [_of(numpy.int8, 7, low=-20, high=20)]),
    ("weak_float_int8", lambda xp: lambda x: x * 2.5, [_of(numpy.int8, 7)]),
    ("true_divide_ints", lambda xp: lambda x, y: x / (y * y + 1), [_of(numpy.int16, 6), _of(numpy.int16, 6)]),
    ("floor_mod_ints", lambda xp: lambda x, y: (x // (y + 100)) + x % 7, [_of(numpy.int32, 9), _of(numpy.int32, 9)]),
    ("bool_square", lambda xp: lambda b: b ** 2, [_of(numpy.bool_, 8)]),
    ("int_power", lambda xp: lambda x: x ** 3 + x ** 2, [_of(numpy.int64, 8, low=-9, high=9)]),
    ("where_arrays", lambda xp: lambda x: xp.where(x > 0, x, -x * 2), [_f32(4, 3)]),
    ("where_weak_branch", lambda xp: lambda x: xp.where(x > 0, 1.5, x), [_f32(10)]),
    ("where_int_condition", lambda xp: lambda c, x, y: xp.where(c, x, y),
     [_of(numpy.int8, 3, 1, low=0, high=2), _f32(3, 4), _of(numpy.float64, 4)]),
    ("clip_both", lambda xp: lambda x: xp.clip(x, -5, 5.5), [_f32(12)]),
    ("clip_one_side", lambda xp: lambda x: xp.clip(x, None, 3) + xp.clip(x, -2, None), [_of(numpy.int16, 12)]),
    ("astype_chain", lambda xp: lambda x: (x * 0.1).astype(numpy.float16) + 1, [_f32(9)]),
    ("astype_to_int", lambda xp: lambda x: (x * 3).astype(numpy.int32) % 5, [_of(numpy.float64, 9)]),
    ("comparisons_logical", lambda xp: lambda x, y: xp.logical_and(x > 1, y <= 3) | (x == y),
     [_of(numpy.int32, 10, low=0, high=5), _of(numpy.int32, 10, low=0, high=5)]),
    ("complex_arith", lambda xp: lambda x, y: x * 1j + y * y, [_f32(6), _of(numpy.complex64, 6)]),
    ("float16_steps", lambda xp: lambda h: (h * 0.5 + 1) * h - 3, [_of(numpy.float16, 16, low=-8, high=8)]),
    ("transcendental", lambda xp: lambda x: xp.exp(-x * x) + xp.sin(x) * xp.log1p(xp.abs(x)), [_f32(20)]),
    ("bit_ops", lambda xp: lambda x, y: ((x << 2) ^ y) & 0x7F, [_of(numpy.uint8, 11, low=0, high=30),
                                                                 _of(numpy.uint8, 11, low=0, high=30)]),
    ("scalar_args", lambda xp: lambda x, s, t: x * s + t, [_f32(5), _value(2), _value(0.5)]),
    ("strong_scalar_arg", lambda xp: lambda x, s: x * s, [_f32(5), _value(numpy.float64(3.0))]),
    ("maximum_nan", lambda xp: lambda x, y: xp.maximum(x, y) - xp.fmin(x, y),
     [_value(numpy.array([1.0, numpy.nan, 3.0], numpy.float32)), _value(numpy.array([numpy.nan, 2.0, 1.0], numpy.float32))]),
    ("numpy_ufunc_inside", lambda xp: lambda x: numpy.sqrt(x * x) + numpy.add(x, 1), [_f32(7)]),
    ("returns_argument", lambda xp: lambda x: x, [_f32(2, 3)]),
]

TRANSCENDENTAL = {"dist_broadcast", "transcendental", "numpy_ufunc_inside"}


def _inputs(makers, device, rng):
    host = [m(rng) for m in makers]
    dev = [cunp.asarray(h) if isinstance(h, numpy.ndarray) else h for h in host]
    return host, dev


def _compare(got, unfused, expected, device, rtol=0.0):
    """got: the fused result; unfused: the same code op by op on cunp; expected: NumPy's."""
    expected = numpy.asarray(expected)
    assert isinstance(got, cunp.ndarray)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    assert got.device == unfused.device
    if device == "cpu" and not rtol:
        numpy.testing.assert_array_equal(got.get(), unfused.get())  # the op-by-op evaluation itself
    else:
        numpy.testing.assert_allclose(got.get(), unfused.get(), rtol=rtol or 0, atol=0, equal_nan=True)
    tol = tolerance_of(expected.dtype) if expected.dtype.kind in "fc" else 0
    numpy.testing.assert_allclose(got.get(), expected, rtol=max(tol, rtol), atol=0, equal_nan=True)


@pytest.mark.parametrize("case", ELEMENTWISE, ids=[c[0] for c in ELEMENTWISE])
def test_elementwise_matches_unfused(case, device, rng):
    name, make, makers = case
    host, dev = _inputs(makers, device, rng)
    fused = cunp.fuse(make(cunp))
    got = fused(*dev)
    unfused = make(cunp)(*dev)
    if not isinstance(unfused, cunp.ndarray):
        unfused = cunp.asarray(unfused)
    with numpy.errstate(all="ignore"):
        expected = make(numpy)(*host)
    _compare(got, unfused, expected, device)
    assert fused(*dev).dtype == got.dtype  # the cached program
    assert fused._fn._cached_signature_count == 1


REDUCTIONS = [
    ("sum_all", lambda xp: lambda x, y: xp.sqrt((x - y) ** 2 + 1).sum(), [_f32(30, 40), _f32(40)]),
    ("sum_axis0", lambda xp: lambda x: (x * 2).sum(axis=0), [_f32(6, 5)]),
    ("sum_keepdims_tuple", lambda xp: lambda x: xp.sum(x + 1, axis=(0, 2), keepdims=True), [_f32(3, 4, 5)]),
    ("sum_int_widens", lambda xp: lambda x: (x * x).sum(axis=1), [_of(numpy.int16, 4, 6)]),
    ("sum_dtype", lambda xp: lambda x: (x + 1).sum(dtype=numpy.float64), [_of(numpy.int8, 50)]),
    ("prod", lambda xp: lambda x: (x * 0.5 + 1).prod(axis=-1), [_of(numpy.float64, 3, 6, low=0, high=2)]),
    ("min", lambda xp: lambda x: xp.amin(x - 3, axis=0), [_of(numpy.int32, 5, 4)]),
    ("max_nan", lambda xp: lambda x: xp.max(x * 2),
     [_value(numpy.array([1.0, numpy.nan, 3.0], numpy.float32))]),
    ("mean_float32", lambda xp: lambda x: xp.mean(x * x, axis=1), [_f32(8, 9)]),
    ("mean_int", lambda xp: lambda x: (x + 1).mean(), [_of(numpy.int32, 7, 3)]),
    ("mean_float16", lambda xp: lambda x: (x * 0.25).mean(axis=0), [_of(numpy.float16, 10, 3, low=-4, high=4)]),
    ("any", lambda xp: lambda x: (x > 40).any(axis=0), [_f32(6, 7)]),
    ("all", lambda xp: lambda x: xp.all(x < 49, axis=1, keepdims=True), [_f32(6, 7)]),
    ("complex_sum", lambda xp: lambda x: (x * x).sum(axis=0), [_of(numpy.complex64, 5, 3)]),
    ("numpy_sum_function", lambda xp: lambda x: numpy.sum(x * 2, axis=0), [_f32(4, 3)]),
]


@pytest.mark.parametrize("case", REDUCTIONS, ids=[c[0] for c in REDUCTIONS])
def test_reductions_match_unfused(case, device, rng):
    name, make, makers = case
    host, dev = _inputs(makers, device, rng)
    got = cunp.fuse(make(cunp))(*dev)
    unfused = make(cunp)(*dev)
    expected = make(numpy)(*host)
    rtol = 0.0
    if device != "cpu" or name in ("sum_all",):
        rtol = {"f": 1e-5, "c": 1e-5}.get(numpy.asarray(expected).dtype.kind, 0.0)
        if numpy.asarray(expected).dtype == numpy.float16:
            rtol = 2e-3
    _compare(got, unfused, expected, device, rtol=rtol)


def test_large_reduction_splits(device, rng):
    # Enough elements for the split (multi-block) reduction on a GPU.
    x = random_array((1 << 20,), numpy.float32, rng, 0, 1)
    f = cunp.fuse(lambda a: (a * a + 1).sum())
    g = cunp.fuse(lambda a: (a - 0.5).max())
    a = cunp.asarray(x)
    numpy.testing.assert_allclose(f(a).get(), (x.astype(numpy.float64) ** 2 + 1).sum(), rtol=1e-4)
    assert g(a).get() == (x - numpy.float32(0.5)).max()
    assert cunp.fuse(lambda a: (a > 2).any())(a).get() == False  # noqa: E712 - a 0-d array


def test_tuple_results_and_out(device, rng):
    x = cunp.asarray(random_array((3, 4), numpy.float64, rng))
    f = cunp.fuse(lambda a, b: (a + b, a * b, a > b))
    s, p, g = f(x, 2.0)
    numpy.testing.assert_array_equal(s.get(), (x + 2.0).get())
    numpy.testing.assert_array_equal(p.get(), (x * 2.0).get())
    assert g.dtype == numpy.bool_
    outs = (cunp.empty((3, 4), numpy.float64), cunp.empty((3, 4), numpy.float32), cunp.empty((3, 4), numpy.int8))
    r = f(x, 2.0, out=outs)
    assert r is outs
    numpy.testing.assert_array_equal(outs[1].get(), (x * 2.0).get().astype(numpy.float32))
    numpy.testing.assert_array_equal(outs[2].get(), (x > 2.0).get().astype(numpy.int8))

    h = cunp.fuse(lambda a: a * 2)
    out = cunp.zeros((2, 3, 4), numpy.float32)  # the inputs broadcast to out's shape
    assert h(x, out=out) is out
    numpy.testing.assert_array_equal(out.get(), numpy.broadcast_to((x * 2).get().astype(numpy.float32), (2, 3, 4)))
    with pytest.raises(TypeError, match="same_kind"):
        h(x, out=cunp.empty((3, 4), numpy.int32))
    with pytest.raises(ValueError):
        h(x, out=cunp.empty((5,), numpy.float64))
    with pytest.raises(ValueError, match="one per result"):
        f(x, 2.0, out=outs[:2])

    # A reduction's out= takes any dtype (NumPy's reductions cast unsafely).
    r = cunp.fuse(lambda a: (a * 10).sum(axis=0))
    ro = cunp.empty((4,), numpy.int16)
    assert r(x, out=ro) is ro
    numpy.testing.assert_array_equal(ro.get(), (x * 10).sum(axis=0).get().astype(numpy.int16))
    with pytest.raises(ValueError):
        r(x, out=cunp.empty((3,), numpy.float64))


def test_signature_cache_and_decorator_forms(device):
    calls = []

    @cunp.fuse
    def f(x, y):
        calls.append(1)
        return x + y

    @cunp.fuse()
    def g(x):
        return x - 1

    @cunp.fuse(kernel_name="my_kernel")
    def h(x):
        return x * 3

    a = cunp.arange(6, dtype=numpy.float32)
    b = cunp.arange(6, dtype=numpy.int64)
    f(a, a), f(a, a), f(a, 1), f(a, 2), f(a, 1.5), f(a, b), f(a.reshape(2, 3), a[:3])
    assert len(calls) == 5  # (f4,f4) (f4,weak int) (f4,weak float) (f4,i8) (2-d,1-d)
    assert f._fn._cached_signature_count == 5
    assert f(a, 1.5).dtype == numpy.float32 and f(a, numpy.float64(1.5)).dtype == numpy.float64
    assert f.__name__ == "f" and f.kernel_name == "f"
    numpy.testing.assert_array_equal(g(a).get(), numpy.arange(6, dtype=numpy.float32) - 1)
    assert h.kernel_name == "my_kernel"
    assert "my_kernel" in h._cuda_source(a)
    assert cunp.fuse(lambda x: x).kernel_name == "_lambda_"
    with pytest.raises(ValueError, match="Invalid kernel name"):
        cunp.fuse(kernel_name="not valid")(lambda x: x)
    with pytest.raises(TypeError):
        cunp.fuse(1)
    with pytest.raises(TypeError):
        cunp.fuse(lambda x: x, "name")


def test_traced_attributes(device):
    seen = {}

    @cunp.fuse
    def f(x, s):
        seen["dtype"], seen["ndim"], seen["sdtype"] = x.dtype, x.ndim, s.dtype
        return x.astype(numpy.float64) if x.dtype == numpy.float32 else x

    f(cunp.ones((2, 3), numpy.float32), 2)
    assert seen == {"dtype": numpy.float32, "ndim": 2, "sdtype": numpy.int64}


def _raises(exc, match, fn, *args):
    with pytest.raises(exc, match=match):
        cunp.fuse(fn)(*args)


def test_errors_name_the_operation(device):
    x = cunp.arange(6, dtype=numpy.float32)
    i8 = cunp.arange(6, dtype=numpy.int8)
    _raises(NotImplementedError, "indexing", lambda a: a[0], x)
    _raises(NotImplementedError, "shape", lambda a: a + a.shape[0], x)
    _raises(TypeError, "truth value", lambda a: a if a > 0 else -a, x)
    _raises(NotImplementedError, "in-place", lambda a: a.__iadd__(1), x)
    _raises(NotImplementedError, "after a reduction", lambda a: a.sum() + 1, x)
    _raises(NotImplementedError, "var", lambda a: cunp.var(a), x)
    _raises(NotImplementedError, "divmod", lambda a: divmod(a, 2), x)
    _raises(NotImplementedError, "modf", lambda a: cunp.modf(a)[0], x)
    _raises(NotImplementedError, "out=", lambda a: cunp.add(a, 1, out=a), x)
    _raises(NotImplementedError, "where=", lambda a: a.sum(where=a > 1), x)
    _raises(NotImplementedError, "'reshape'", lambda a: a.reshape(2, 3), x)
    _raises(NotImplementedError, "numpy.dot", lambda a: numpy.dot(a, a), x)
    _raises(TypeError, "cunp.around|around", lambda a: cunp.around(a), x)
    _raises(TypeError, "return traced arrays", lambda a: 1, x)
    _raises(TypeError, "not an argument", lambda a: a + x, x)
    _raises(numpy.exceptions.AxisError, None, lambda a: a.sum(axis=3), x)
    _raises(TypeError, "unexpected keyword argument 'dtype'", lambda a: a.max(dtype=numpy.float64), x)
    _raises(NotImplementedError, "tuple", lambda a: (a.sum(), a), x)
    # NumPy's dtype errors at trace time: no loop, an out-of-range Python int.
    _raises(TypeError, "bitwise_and", lambda a: a & 1, x)
    _raises(OverflowError, "out of bounds for int8", lambda a: a + 300, i8)
    _raises(OverflowError, "300", lambda a, b: a + b, i8, 300)
    # Arguments: cunp arrays and scalars only.
    _raises(TypeError, "numpy.ndarray", lambda a: a, numpy.ones(3))
    _raises(TypeError, "list", lambda a: a, [1, 2])
    if device != "cpu":
        with cunp.Device("cpu"):
            y = cunp.ones(6, numpy.float32)
        with pytest.raises(ValueError, match="different devices"):
            cunp.fuse(lambda a, b: a + b)(x, y)


def test_error_notes_point_at_the_line(device):
    def body(a):
        return cunp.around(a)  # the offending line

    with pytest.raises(TypeError) as info:
        cunp.fuse(body)(cunp.ones(3))
    notes = "".join(getattr(info.value, "__notes__", []))
    assert "the offending line" in notes and "body" in notes


# ---- generated CUDA source, compiled by NVRTC (no GPU needed) ---------------------------

def _cpu(a):
    with cunp.Device("cpu"):
        return cunp.asarray(a)


COMPILED = [
    ("dist_contiguous", _dist(cunp), [numpy.ones(64, numpy.float32), numpy.ones(64, numpy.float32)]),
    ("dist_strided", _dist(cunp), [numpy.ones((8, 8), numpy.float32).T, numpy.ones(8, numpy.float32)]),
    ("float16_where_clip", lambda x, y: cunp.where(x > y, cunp.clip(x, 0, 1), y * 2),
     [numpy.ones(8, numpy.float16), numpy.ones(8, numpy.float16)]),
    ("complex_cast", lambda x, s: (x * s).astype(numpy.complex128) + 1j, [numpy.ones(8, numpy.float32), 2]),
    ("int_bits", lambda x, y: ((x << 1) | y) // 3, [numpy.ones(8, numpy.int16), numpy.ones(8, numpy.uint8)]),
    ("sum_full", lambda x, y: cunp.sqrt((x - y) ** 2 + 1).sum(), [numpy.ones(64, numpy.float32)] * 2),
    ("mean_axis_float16", lambda x: (x * x).mean(axis=0), [numpy.ones((4, 5), numpy.float16)]),
    ("max_keepdims_int", lambda x: cunp.abs(x).max(axis=1, keepdims=True), [numpy.ones((4, 5), numpy.int64)]),
    ("any_complex", lambda x: (x != 0).any(), [numpy.ones(8, numpy.complex64)]),
    ("prod_dtype", lambda x: (x + 1).prod(dtype=numpy.float64), [numpy.ones(8, numpy.int8)]),
]


@pytest.mark.parametrize("case", COMPILED, ids=[c[0] for c in COMPILED])
def test_generated_source_compiles(case):
    name, fn, args = case
    args = [_cpu(a) if isinstance(a, numpy.ndarray) else a for a in args]
    f = cunp.fuse(kernel_name="fz_" + name)(fn)
    src = f._cuda_source(*args)
    assert "fz_" + name in src and "cunp::ops::" in src
    assert f._compile(*args) > 0


def test_out_dtype_kernel_compiles():
    x = _cpu(numpy.ones(8, numpy.float64))
    f = cunp.fuse(lambda a: a * 2)
    out = _cpu(numpy.empty(8, numpy.float16))
    assert "_bits" in f._cuda_source(x, out=out)
    assert f._compile(x, out=out) > 0


def test_docs_example_runs(device, capsys):
    # The Python example of docs/kernels.md's fuse section, on the test's device.
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "kernels.md").read_text()
    section = text[text.index("## fuse"):text.index("## JIT kernels in Python")]
    block = re.findall(r"```python\n(.*?)```", section, flags=re.S)[0]
    exec(compile(block, "docs/kernels.md", "exec"), {})
    assert "_cunp_fused" in capsys.readouterr().out

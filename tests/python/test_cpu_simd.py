"""The cpu device's SIMD loops (src/cpu/simd*.cpp) against NumPy on every dtype they
cover: every row length 0-67 (vector tails), rows starting one element past an aligned
start, reversed rows, stride-0 (scalar) operands, the special float values, and the
reductions they serve. Run in-process on the best SIMD target, and in subprocesses under
CUNP_CPU_SIMD=scalar and each lower target the CPU has."""
import os
import subprocess
import sys

import numpy
import pytest

import cunp

INTS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
FLOATS = ["float32", "float64"]
BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin", "equal", "not_equal", "less",
          "less_equal", "greater", "greater_equal"]
FLOAT_BINARY = ["true_divide"]
UNARY = ["negative", "absolute", "square"]
FLOAT_UNARY = ["fabs", "sqrt", "sin", "cos", "exp", "log", "log2", "log10", "log1p", "expm1", "tanh", "arctan"]
# Transcendental functions: the tolerance of test_ufuncs.py; everything else exact.
APPROX = {"sin", "cos", "exp", "log", "log2", "log10", "log1p", "expm1", "tanh", "arctan"}
LENGTHS = list(range(68))
pytestmark = pytest.mark.skipif("cpu" not in os.environ.get("CUNP_TEST_DEVICES", "cpu"), reason="cpu device only")


def values(dt, n, seed):
    """n values of dtype dt: random, with the special float values spread in."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dt)
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        return rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
    x = rng.uniform(-3, 3, n)
    x[::3] *= 40.0
    x = x.astype(dt)
    fi = numpy.finfo(dt)
    special = numpy.array([numpy.nan, -numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, fi.max, -fi.max, fi.tiny,
                           fi.smallest_subnormal, 1e-30, 1.0, -1.0, 100.0, -100.0, 5e4], dtype=dt)
    pos = rng.integers(0, max(n, 1), size=min(len(special), n // 5))
    x[pos] = special[: len(pos)]
    return x


def tolerance(name, dt):
    if name not in APPROX:
        return 0.0, 0.0
    t = 1e-6 if numpy.dtype(dt) == numpy.float32 else 1e-13
    return t, t


def compare(name, got, want, dt, what):
    rtol, atol = tolerance(name, dt)
    got = got.get() if hasattr(got, "get") else numpy.asarray(got)
    assert got.dtype == want.dtype, (name, dt, what, got.dtype, want.dtype)
    if rtol:
        numpy.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True, err_msg="%s %s %s" % (name, dt, what))
    else:
        numpy.testing.assert_array_equal(got, want, err_msg="%s %s %s" % (name, dt, what))
        if want.dtype.kind == "f" and name not in ("maximum", "minimum", "fmax", "fmin"):
            nan = numpy.isnan(want)
            numpy.testing.assert_array_equal(numpy.signbit(got)[~nan], numpy.signbit(want)[~nan],
                                             err_msg="sign %s %s %s" % (name, dt, what))


def layouts(host, n):
    """(description, host view, cunp view) of n elements: contiguous from offset 0 and
    from offset 1, and reversed."""
    dev = cunp.asarray(host)
    return [("n=%d" % n, host[:n], dev[:n]), ("n=%d offset 1" % n, host[1:n + 1], dev[1:n + 1]),
            ("n=%d reversed" % n, host[n - 1::-1] if n else host[:0], dev[n - 1::-1] if n else dev[:0])]


def check_unary(name, dt):
    x = values(dt, 70, 1)
    f_np, f_cu = getattr(numpy, name), getattr(cunp, name)
    with numpy.errstate(all="ignore"), cunp.errstate(all="ignore"):
        for n in LENGTHS:
            for what, h, d in layouts(x, n):
                compare(name, f_cu(d), f_np(h), dt, what)
        # Strided rows through the block buffer (Note [Strided SIMD rows]): every length
        # 0-67 at stride 2, and rows across several blocks at strides 3 and -2, in place too.
        y = values(dt, 2000, 2)
        d = cunp.asarray(y)
        for n in LENGTHS:
            compare(name, f_cu(d[: 2 * n : 2]), f_np(y[: 2 * n : 2]), dt, "n=%d stride 2" % n)
        for sl in (slice(1, 1900, 3), slice(None, None, -2), slice(1000, 10, -1)):
            compare(name, f_cu(d[sl]), f_np(y[sl]), dt, "slice %s" % (sl,))
            e = d.copy()
            f_cu(e[sl], out=e[sl])
            want = y.copy()
            want[sl] = f_np(y[sl])
            compare(name, e, want, dt, "in place slice %s" % (sl,))


def check_binary(name, dt):
    x, y = values(dt, 70, 2), values(dt, 70, 3)
    if name in ("maximum", "minimum", "fmax", "fmin", "equal", "not_equal") and numpy.dtype(dt).kind in "iu":
        y[::4] = x[::4]  # ties
    f_np, f_cu = getattr(numpy, name), getattr(cunp, name)
    dx, dy = cunp.asarray(x), cunp.asarray(y)
    with numpy.errstate(all="ignore"), cunp.errstate(all="ignore"):
        for n in LENGTHS:
            compare(name, f_cu(dx[:n], dy[:n]), f_np(x[:n], y[:n]), dt, "n=%d" % n)
            compare(name, f_cu(dx[1:n + 1], dy[:n]), f_np(x[1:n + 1], y[:n]), dt, "n=%d offset 1" % n)
            if n:
                compare(name, f_cu(dx[n - 1::-1], dy[:n]), f_np(x[n - 1::-1], y[:n]), dt, "n=%d reversed" % n)
            # stride-0 operands: a NumPy scalar of the dtype on either side, and a broadcast row
            s = x[5]
            compare(name, f_cu(dx[:n], s), f_np(x[:n], s), dt, "n=%d array op scalar" % n)
            compare(name, f_cu(s, dy[:n]), f_np(s, y[:n]), dt, "n=%d scalar op array" % n)
            compare(name, f_cu(cunp.broadcast_to(dx[3:4], (n,)), dy[:n]), f_np(numpy.broadcast_to(x[3:4], (n,)), y[:n]),
                    dt, "n=%d broadcast" % n)


def check_reductions(dt):
    with numpy.errstate(all="ignore"), cunp.errstate(all="ignore"):
        for n in list(range(1, 68)) + [1000, 40000, (1 << 22) + 37]:
            x = values(dt, n + 1, n)
            if numpy.dtype(dt).kind == "f" and n % 2:
                x = numpy.where(numpy.isnan(x), 0.5, x).astype(dt)  # half the rows without NaN
            for h in (x[:n], x[1:n + 1]):
                d = cunp.asarray(h)
                for name in ("max", "min", "nanmax", "nanmin", "argmax", "argmin"):
                    want = getattr(numpy, name)(h)
                    got = getattr(cunp, name)(d)
                    numpy.testing.assert_array_equal(got.get(), want, err_msg="%s %s n=%d" % (name, dt, n))
                if numpy.dtype(dt).kind == "f":
                    # The scalar loop's pairwise tree, bit for bit (Note [Pairwise summation]).
                    got = cunp.sum(d).get()
                    with scalar_loops():
                        want = cunp.sum(d).get()
                    numpy.testing.assert_array_equal(got, want, err_msg="sum %s n=%d" % (dt, n))
                    exact = h.astype(numpy.float64)
                    exact = exact[numpy.isfinite(exact)]
                    if len(exact) == n:
                        assert abs(float(got) - exact.sum()) <= 1e-5 * numpy.abs(exact).sum()
    for n in list(range(1, 68)) + [1000, 40000, (1 << 22) + 37]:
        b = numpy.zeros(n + 1, dtype=bool)
        for pos in sorted({0, n // 2, n - 1}):
            for fill in (False, True):
                h = numpy.full(n + 1, fill)
                h[pos] = not fill
                for v in (h[:n], h[1:n + 1]):
                    d = cunp.asarray(v)
                    assert bool(cunp.any(d)) == bool(numpy.any(v)) and bool(cunp.all(d)) == bool(numpy.all(v)), (n, pos)
        assert not bool(cunp.any(cunp.asarray(b[:n]))) and bool(cunp.all(cunp.asarray(~b[:n])))


class scalar_loops:
    """Runs the block on the scalar loops, then returns to the target in use."""
    NAMES = {"AVX3": "avx512", "AVX2": "avx2", "SSE4": "sse4", "scalar": "scalar"}

    def __enter__(self):
        self.saved = self.NAMES.get(cunp._core._cpu_simd_target(), "best")
        cunp._core._set_cpu_simd_target("scalar")

    def __exit__(self, *exc):
        cunp._core._set_cpu_simd_target(self.saved)


def run_all(dtypes=INTS + FLOATS):
    for dt in dtypes:
        floats = dt in FLOATS
        for name in BINARY + (FLOAT_BINARY if floats else []):
            check_binary(name, dt)
        for name in UNARY + (FLOAT_UNARY if floats else []):
            check_unary(name, dt)
        check_reductions(dt)
        if floats:
            check_var(dt)


@pytest.mark.parametrize("dt", INTS + FLOATS)
def test_simd_loops_best_target(dt):
    with cunp.Device("cpu"):
        run_all([dt])


def _targets():
    """CUNP_CPU_SIMD values below the best target that this CPU supports (each resolves
    to itself), plus scalar."""
    best = cunp._core._cpu_simd_target()
    saved = scalar_loops.NAMES.get(best, "best")
    names = ["scalar"]
    for name in ("sse4", "avx2"):
        got = cunp._core._set_cpu_simd_target(name)
        if got != best and got.lower().startswith(name[:3]):
            names.append(name)
    cunp._core._set_cpu_simd_target(saved)
    return names


@pytest.mark.parametrize("target", _targets())
def test_simd_loops_lower_targets(target):
    """The same checks in a fresh process started with CUNP_CPU_SIMD=target."""
    env = dict(os.environ, CUNP_CPU_SIMD=target)
    here = os.path.dirname(os.path.abspath(__file__))
    code = ("import sys; sys.path.insert(0, %r); import cunp; "
            "assert cunp._core._cpu_simd_target().lower().startswith(%r), cunp._core._cpu_simd_target(); "
            "import test_cpu_simd as t; cunp.Device('cpu').__enter__(); t.run_all()" % (here, target[:3]))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]


def test_simd_env_and_threads_env():
    """CUNP_CPU_SIMD names the target (a bad value falls back to the best one), and
    CUNP_NUM_THREADS=1 still gives the same results on a loop long enough to split."""
    code = ("import numpy as np, cunp; a = np.random.default_rng(0).random(1 << 19).astype(np.float32); "
            "d = cunp.asarray(a); print(cunp._core._cpu_simd_target(), float(d.sum()), int(d.argmax()), "
            "bool(np.array_equal((d * 2.5 + d).get(), a * np.float32(2.5) + a)))")
    outs = {}
    for env in ({"CUNP_CPU_SIMD": "scalar"}, {"CUNP_CPU_SIMD": "bogus"}, {"CUNP_NUM_THREADS": "1"}, {}):
        r = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, **env), capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stderr
        outs[tuple(env.items())] = r.stdout.split()
    assert outs[(("CUNP_CPU_SIMD", "scalar"),)][0] == "scalar"
    assert outs[(("CUNP_CPU_SIMD", "bogus"),)][0] == outs[()][0]
    assert len({tuple(v[1:]) for v in outs.values()}) == 1
    assert all(v[3] == "True" for v in outs.values())


@pytest.mark.parametrize("dt", ["float32", "float64", "int16", "uint64", "complex64", "float16"])
def test_column_reductions_match_rows(dt):
    """Reductions over a strided axis with contiguous outputs walk rows of the input
    (Note [Column reductions]) and give each output exactly what the contiguous row
    reduction gives it: the same pairwise tree for inexact sums."""
    rng = numpy.random.default_rng(5)
    with cunp.Device("cpu"):
        for rows, cols in ((1, 7), (2, 300), (7, 5), (8, 3), (9, 600), (129, 17), (1000, 257), (3001, 9)):
            h = (rng.standard_normal((rows, cols)) * 100).astype(dt)
            if numpy.dtype(dt).kind in "fc":
                h[rows // 2, cols // 3] = numpy.nan
            d = cunp.asarray(h)
            t = cunp.ascontiguousarray(d.T)
            names = ["sum", "prod", "max", "min", "nansum", "nanmax"] if numpy.dtype(dt).kind != "c" else ["sum", "nansum"]
            for name in names:
                if numpy.dtype(dt).kind in "iu" and name.startswith("nan"):
                    continue
                with cunp.errstate(all="ignore"), numpy.errstate(all="ignore"):
                    got = getattr(cunp, name)(d, axis=0).get()
                    want = getattr(cunp, name)(t, axis=1).get()
                numpy.testing.assert_array_equal(got, want, err_msg="%s %s %dx%d" % (name, dt, rows, cols))
                if name in ("max", "min", "nanmax"):
                    numpy.testing.assert_array_equal(got, getattr(numpy, name)(h, axis=0))


def test_temporary_elision():
    """Operators write into a temporary operand nothing else sees (Note [Temporary
    elision]): results as NumPy's, and no array still referenced is ever written."""
    n = 1 << 17  # 512 KiB of float32: past the elision threshold
    h = numpy.random.default_rng(3).standard_normal(n).astype(numpy.float32)
    hi = numpy.arange(n, dtype=numpy.int64)
    with cunp.Device("cpu"):
        a = cunp.asarray(h)
        ai = cunp.asarray(hi)
        f = numpy.float32(2.5)
        numpy.testing.assert_array_equal((a * 2.5 + a).get(), h * f + h)
        numpy.testing.assert_array_equal((a + a * 2.5).get(), h + h * f)
        numpy.testing.assert_array_equal((2.5 - a * 2).get(), 2.5 - h * 2)
        numpy.testing.assert_array_equal(((a * 2) * 3 - 1).get(), (h * 2) * 3 - 1)
        numpy.testing.assert_array_equal((a * 2 < a).get(), h * 2 < h)
        # A named temporary, a view, an operand of another dtype or a smaller shape keep their values.
        t = a * 2
        r = t + a
        assert r is not t
        numpy.testing.assert_array_equal(t.get(), h * 2)
        numpy.testing.assert_array_equal(r.get(), h * 2 + h)
        before = a.get()
        numpy.testing.assert_array_equal((a[:] + 1).get(), h + 1)
        numpy.testing.assert_array_equal((a.reshape(2, -1) * 3).get(), (h * 3).reshape(2, -1))
        numpy.testing.assert_array_equal(a.get(), before)
        x = ai * 2 + 0.5
        assert x.dtype == numpy.float64
        numpy.testing.assert_array_equal(x.get(), hi * 2 + 0.5)
        col = cunp.asarray(h[:512].reshape(512, 1))
        numpy.testing.assert_array_equal((col * 2 + a[: 1 << 10]).get(), h[:512].reshape(512, 1) * 2 + h[: 1 << 10])
        import operator
        numpy.testing.assert_array_equal(operator.add(a * 2, a).get(), h * 2 + h)
        # A temporary exported to NumPy (a view of its buffer) or through DLPack is seen from outside.
        kept = []

        def export(x, how):
            kept.append(how(x))
            return x

        for how in (numpy.asarray, numpy.from_dlpack):
            r = export(a * 2, how) + a
            numpy.testing.assert_array_equal(kept[-1], h * 2)
            numpy.testing.assert_array_equal(r.get(), h * 2 + h)


def test_thread_pool_and_host_cache():
    """Split loops from several Python threads at once (one runs on the pool, the others
    inline), and reused host buffers: zeros are zeros, results stay NumPy's."""
    import threading
    n = (1 << 20) + 37
    h = numpy.random.default_rng(4).random(n).astype(numpy.float32)
    with cunp.Device("cpu"):
        a = cunp.asarray(h)
        want_sum = float(a.sum())
        errors = []

        def work():
            try:
                with cunp.Device("cpu"):
                    for _ in range(20):
                        assert float(a.sum()) == want_sum
                        numpy.testing.assert_array_equal((a + a).get(), h + h)
                        assert int(a.argmax()) == int(h.argmax())
            except Exception as e:  # noqa: BLE001 (reported below)
                errors.append(e)

        threads = [threading.Thread(target=work) for _ in range(3)]
        for t in threads:
            t.start()
        work()
        for t in threads:
            t.join()
        assert not errors, errors
        for _ in range(3):
            e = cunp.empty(n, dtype=cunp.float32)
            e.fill(7)
            del e
            z = cunp.zeros(n, dtype=cunp.float32)
            assert not z.get().any()
            del z


@pytest.mark.parametrize("dt", FLOATS)
def test_var_fused_pass_matches_composed(dt):
    check_var(dt)


def check_var(dt):
    """var/std of C-contiguous float rows sum the squared deviations in one pass (Note
    [CPU variance]): bit for bit the composed sum((a - mean)**2), and NumPy's within the
    tolerance of the reductions' tests."""
    rng = numpy.random.default_rng(6)
    cases = [((n,), [None]) for n in list(range(2, 68)) + [1000, 40000]]
    cases += [((7, 33), [None, 1, 0]), ((3, 4, 130), [None, 2, (1, 2), 1]), ((2, (1 << 22) + 37), [1])]
    with cunp.Device("cpu"):
        for shape, axes in cases:
            h = (rng.standard_normal(shape) * 3 + 10).astype(dt)
            d = cunp.asarray(h)
            for ax in axes:
                m = d.mean(axis=ax, keepdims=True)
                n = h.size // m.size
                composed = (((d - m) ** 2).sum(axis=ax) / (n - 1)).get()
                numpy.testing.assert_array_equal(d.var(axis=ax, ddof=1).get(), composed, err_msg="%s %s" % (shape, ax))
                numpy.testing.assert_array_equal(d.std(axis=ax).get(), numpy.sqrt((((d - m) ** 2).sum(axis=ax) / n).get()))
                rtol = 2e-6 if dt == "float32" else 1e-13
                numpy.testing.assert_allclose(d.var(axis=ax, ddof=1).get(), h.var(axis=ax, ddof=1), rtol=rtol)

"""cunpx.jit: kernels written in Python, translated to CUDA C++ for their argument
types. Every construct is translated and compiled by NVRTC without a GPU (cpu arrays
describe the arguments); launches run on a CUDA device (skipped without one)."""
import math

import numpy
import pytest

import cunp
from conftest import needs_cuda
from cunpx import jit


def cpu(a):
    with cunp.Device("cpu"):
        return cunp.asarray(a)


F32 = numpy.float32


# ---- kernels using each construct ------------------------------------------------------

@jit.rawkernel()
def k_saxpy(a, x, y, out, n):
    """out = a * x + y, a grid-stride loop."""
    for i in range(jit.grid(1), n, jit.gridsize(1)):
        out[i] = a * x[i] + y[i]


@jit.rawkernel()
def k_indices(out):
    # Every index builtin, stored as int64.
    i, j, k = jit.grid(3)
    ni, nj, nk = jit.gridsize(3)
    if i == 0 and j == 0 and k == 0:
        out[0] = jit.threadIdx.x + jit.threadIdx.y + jit.threadIdx.z
        out[1] = jit.blockIdx.x + jit.blockIdx.y + jit.blockIdx.z
        out[2] = jit.blockDim.x * jit.blockDim.y * jit.blockDim.z
        out[3] = jit.gridDim.x * jit.gridDim.y * jit.gridDim.z
        out[4] = ni * nj * nk
        out[5] = jit.warpsize
        out[6] = jit.laneid()


@jit.rawkernel()
def k_transpose(src, dst):
    """2-d indexing honours the strides of both arrays."""
    i, j = jit.grid(2)
    if i < src.shape[0] and j < src.shape[1]:
        dst[j, i] = src[i, j]


@jit.rawkernel()
def k_control(x, out, n):
    t = jit.grid(1)
    if t >= n:
        return
    acc = 0
    k = 10
    while True:
        k -= 1
        if k < 0:
            break
        if k % 2 == 0:
            continue
        acc += k
    for m in range(5, 0, -1):
        if m == 3:
            continue
        acc = acc + m
    for m in range(2, 4):
        acc += m
    if x[t] > 0:
        out[t] = acc
    elif x[t] < 0:
        out[t] = -acc
    else:
        out[t] = 0
    out[t] = out[t] if x[t] == x[t] else 1  # a conditional expression


@jit.rawkernel()
def k_retype(out):
    v = 0          # an int: later assignments convert to int, as in C
    v = 2.75
    w = 0.0
    w = 3
    out[0] = v
    out[1] = w


@jit.rawkernel()
def k_operators(a, b, out):
    i = jit.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x // y
        out[i, 1] = x % y
        out[i, 2] = x / y
        out[i, 3] = x ** 2
        out[i, 4] = (x & 7) | (y ^ 3)
        out[i, 5] = (x << 2) >> 1
        out[i, 6] = ~x
        out[i, 7] = -x + (+y)
        out[i, 8] = (1 < x <= 5) and not (y == 0) or x != y


@jit.rawkernel()
def k_float_ops(a, out):
    i = jit.grid(1)
    if i < len(a):
        x = a[i]
        out[i, 0] = x // 1.5
        out[i, 1] = x % -2.0
        out[i, 2] = x ** 0.5 if x > 0 else 0.0
        out[i, 3] = abs(x) + min(x, 1.0) + max(x, 2.0, 3.0)
        out[i, 4] = float(int(x)) + F32(x) + numpy.float64(1)


@jit.rawkernel()
def k_math(a, out):
    i = jit.grid(1)
    if i < a.shape[0]:
        x = a[i]
        out[i] = (math.sin(x) + cunp.cos(x) + numpy.exp(x * 0.01) + math.sqrt(abs(x)) + cunp.arctan2(x, 2.0)
                  + math.floor(x) + numpy.log1p(abs(x)) + cunp.hypot(x, x) + math.pi + cunp.tanh(x))
        if math.isnan(x) or numpy.isinf(x):
            out[i] = 0


@jit.rawkernel()
def k_reduce_shared(x, out, n):
    sm = jit.shared_memory(numpy.float32, 256)
    tid = jit.threadIdx.x
    acc = F32(0)
    for i in range(jit.grid(1), n, jit.gridsize(1)):
        acc += x[i]
    sm[tid] = acc
    jit.syncthreads()
    s = jit.blockDim.x // 2
    while s > 0:
        if tid < s:
            sm[tid] += sm[tid + s]
        jit.syncthreads()
        s //= 2
    if tid == 0:
        jit.atomic_add(out, 0, sm[0])


@jit.rawkernel()
def k_dynamic_shared(x, out):
    buf = jit.shared_memory(numpy.float64, None)
    t = jit.threadIdx.x
    buf[t] = x[t]
    jit.syncthreads()
    out[t] = buf[jit.blockDim.x - 1 - t]


@jit.rawkernel()
def k_warp_sum(x, out):
    i = jit.grid(1)
    v = x[i]
    off = 16
    while off > 0:
        v += jit.shfl_down_sync(0xFFFFFFFF, v, off)
        off //= 2
    jit.syncwarp()
    if jit.laneid() == 0:
        out[i // 32] = v
    a = jit.shfl_sync(0xFFFFFFFF, v, 0)
    b = jit.shfl_up_sync(0xFFFFFFFF, v, 1, width=16)
    c = jit.shfl_xor_sync(0xFFFFFFFF, v, 1)
    jit.syncwarp(mask=0xFFFFFFFF)
    if a != a or b != b or c != c:
        out[0] = 0


@jit.rawkernel()
def k_atomics_int(counts, flags, x):
    i = jit.grid(1)
    if i < x.size:
        v = x[i]
        jit.atomic_add(counts, 0, 1)
        jit.atomic_sub(counts, 1, 1)
        jit.atomic_max(counts, 2, v)
        jit.atomic_min(counts, 3, v)
        jit.atomic_exch(counts, 4, 7)
        jit.atomic_and(flags, 0, v)
        jit.atomic_or(flags, 1, v)
        jit.atomic_xor(flags, 2, v)
        jit.atomic_cas(counts, 5, 0, v)


@jit.rawkernel()
def k_atomics_inc(c):
    jit.atomic_inc(c, 0, 1000)
    jit.atomic_dec(c, 1, 1000)
    old = jit.atomic_cas(c, 2, 0, 5)
    if old > 100:
        c[3] = old


@jit.rawkernel()
def k_atomics_float(f, d, q, n):
    i = jit.grid(1)
    if i < n:
        jit.atomic_add(f, 0, 0.5)
        jit.atomic_add(d, 0, 0.25)
        jit.atomic_exch(f, 1, 3.0)
        jit.atomic_exch(d, 1, 3.0)
        jit.atomic_cas(d, 2, 0.0, 1.0)
        jit.atomic_add(q, 0, 2)
        jit.atomic_sub(q, 1, 2)


@jit.rawkernel()
def k_types(h, z, b, s8, out):
    i = jit.grid(1)
    if i < h.shape[0]:
        hv = h[i] * 2
        h[i] = hv + 1
        z[i] = z[i] * z[i] + 1.0 + cunp.exp(z[i])
        b[i] = not b[i]
        s8[i] = s8[i] * 3
        out[i] = z[i].real + abs(z[i])


@jit.rawkernel()
def k_scalar_args(x, f, d, k, flag):
    i = jit.grid(1)
    if i < x.size and flag:
        x[i] = x[i] * f + d + k


@jit.rawkernel()
def k_zero_d(x, out):
    out[()] = x[()] + 1


KERNELS = [
    ("saxpy", k_saxpy, lambda: (F32(2), cpu(numpy.ones(8, F32)), cpu(numpy.ones(8, F32)),
                                cpu(numpy.ones(8, F32)), 8)),
    ("indices", k_indices, lambda: (cpu(numpy.zeros(8, numpy.int64)),)),
    ("transpose", k_transpose, lambda: (cpu(numpy.ones((4, 6), F32)), cpu(numpy.ones((6, 4), F32).T.T))),
    ("control", k_control, lambda: (cpu(numpy.ones(8, F32)), cpu(numpy.zeros(8, numpy.int32)), 8)),
    ("retype", k_retype, lambda: (cpu(numpy.zeros(2, numpy.float64)),)),
    ("operators_int", k_operators, lambda: (cpu(numpy.ones(8, numpy.int32)), cpu(numpy.ones(8, numpy.int32)),
                                            cpu(numpy.zeros((8, 9), numpy.float64)))),
    ("operators_uint8", k_operators, lambda: (cpu(numpy.ones(8, numpy.uint8)), cpu(numpy.ones(8, numpy.int64)),
                                              cpu(numpy.zeros((8, 9), numpy.int64)))),
    ("float_ops", k_float_ops, lambda: (cpu(numpy.ones(8, F32)), cpu(numpy.zeros((8, 5), F32)))),
    ("math_f32", k_math, lambda: (cpu(numpy.ones(8, F32)), cpu(numpy.zeros(8, F32)))),
    ("math_f64", k_math, lambda: (cpu(numpy.ones(8)), cpu(numpy.zeros(8)))),
    ("reduce_shared", k_reduce_shared, lambda: (cpu(numpy.ones(64, F32)), cpu(numpy.zeros(1, F32)), 64)),
    ("dynamic_shared", k_dynamic_shared, lambda: (cpu(numpy.ones(32)), cpu(numpy.zeros(32)))),
    ("warp_f32", k_warp_sum, lambda: (cpu(numpy.ones(64, F32)), cpu(numpy.zeros(2, F32)))),
    ("warp_i64", k_warp_sum, lambda: (cpu(numpy.ones(64, numpy.int64)), cpu(numpy.zeros(2, numpy.int64)))),
    ("atomics_i32", k_atomics_int, lambda: (cpu(numpy.zeros(6, numpy.int32)), cpu(numpy.zeros(3, numpy.int32)),
                                            cpu(numpy.ones(8, numpy.int32)))),
    ("atomics_i64", k_atomics_int, lambda: (cpu(numpy.zeros(6, numpy.int64)), cpu(numpy.zeros(3, numpy.uint64)),
                                            cpu(numpy.ones(8, numpy.int64)))),
    ("atomics_u32", k_atomics_int, lambda: (cpu(numpy.zeros(6, numpy.uint32)), cpu(numpy.zeros(3, numpy.uint32)),
                                            cpu(numpy.ones(8, numpy.uint32)))),
    ("atomics_inc", k_atomics_inc, lambda: (cpu(numpy.zeros(4, numpy.uint32)),)),
    ("atomics_float", k_atomics_float, lambda: (cpu(numpy.zeros(2, F32)), cpu(numpy.zeros(3)),
                                                cpu(numpy.zeros(2, numpy.int64)), 8)),
    ("types", k_types, lambda: (cpu(numpy.ones(8, numpy.float16)), cpu(numpy.ones(8, numpy.complex64)),
                                cpu(numpy.ones(8, numpy.bool_)), cpu(numpy.ones(8, numpy.int8)),
                                cpu(numpy.zeros(8, F32)))),
    ("scalar_args", k_scalar_args, lambda: (cpu(numpy.ones(8, F32)), 2.5, numpy.float64(1), 3, True)),
    ("zero_d", k_zero_d, lambda: (cpu(numpy.array(1.0, F32)), cpu(numpy.array(0.0, F32)))),
]


@pytest.mark.parametrize("case", KERNELS, ids=[c[0] for c in KERNELS])
def test_kernel_translates_and_compiles(case):
    name, kernel, args = case
    args = args()
    src = kernel._cuda_source(*args)
    assert 'extern "C" __global__ void %s(' % kernel.__name__ in src
    out = kernel._compile(*args)
    assert len(out["cubin"]) > 0
    assert kernel.cached_codes[tuple(kernel._types(args))] == src


def test_generated_code_reads_like_the_rules():
    x = cpu(numpy.ones(8, F32))
    src = k_saxpy._cuda_source(F32(2), x, x, x, 8)
    # Arrays: pointer, shape, byte strides; scalars by their type; a grid-stride loop.
    assert "float* x, long long _cunp_x_s0, long long _cunp_x_t0" in src
    assert "const float a" in src and "const long long n" in src
    assert "i * _cunp_x_t0" in src and "< _cunp_t1" in src
    src = k_retype._cuda_source(cpu(numpy.zeros(2)))
    assert "  int v;" in src and "v = (int)(2.75);" in src and "w = (double)(3);" in src
    src = k_operators._cuda_source(cpu(numpy.ones(8, numpy.int32)), cpu(numpy.ones(8, numpy.int32)),
                                   cpu(numpy.zeros((8, 9))))
    assert "cunp_jit::floordiv<int>" in src and "cunp_jit::mod<int>" in src and "cunp_jit::ipow<int>" in src
    assert "((double)(x) / (double)(y))" in src
    src = k_math._cuda_source(cpu(numpy.ones(8, F32)), cpu(numpy.zeros(8, F32)))
    assert "sinf(" in src and "cosf(" in src and "sqrtf(" in src and "hypotf(" in src
    assert "atan2((double)(x), 2.0)" in src  # float and double: double, as in C++
    src = k_math._cuda_source(cpu(numpy.ones(8)), cpu(numpy.zeros(8)))
    assert "(sin(x)" in src and "(sinf(x)" not in src
    src = k_types._cuda_source(cpu(numpy.ones(8, numpy.float16)), cpu(numpy.ones(8, numpy.complex64)),
                               cpu(numpy.ones(8, numpy.bool_)), cpu(numpy.ones(8, numpy.int8)),
                               cpu(numpy.zeros(8, F32)))
    assert "#include <cuda_fp16.h>" in src and "#include <cunp/complex.cuh>" in src
    assert "__half2float" in src and "__float2half" in src


def test_cache_and_cached_code():
    @jit.rawkernel()
    def add_one(x, n):
        i = jit.grid(1)
        if i < n:
            x[i] = x[i] + 1

    with pytest.raises(RuntimeError, match="0 compiled"):
        add_one.cached_code
    a32, a64 = cpu(numpy.ones(4, F32)), cpu(numpy.ones(4))
    add_one._compile(a32, 4)
    assert "float* x" in add_one.cached_code
    add_one._compile(a32, 5)  # the same types: no new entry
    assert len(add_one.cached_codes) == 1
    add_one._compile(a64, 4)
    assert len(add_one.cached_codes) == 2
    with pytest.raises(RuntimeError, match="2 compiled"):
        add_one.cached_code
    assert add_one.__name__ == "add_one" and "add_one" in repr(add_one)


# ---- errors name the line -----------------------------------------------------------------

def _bad_with(x):
    with open("f"):
        x[0] = 1


def _bad_comprehension(x):
    x[0] = [1 for _ in range(3)][0]


def _bad_slice(x):
    x[0:2] = 1


def _bad_name(x):
    x[0] = undefined_name  # noqa: F821


def _bad_call(x):
    print(x[0])


def _bad_try(x):
    try:
        x[0] = 1
    except Exception:
        pass


def _bad_nested(x):
    def helper():
        return 1
    x[0] = 1


def _bad_return(x):
    return x[0]


def _bad_dims(x):
    x[0, 1] = 1


def _bad_atomic(x):
    jit.atomic_min(x, 0, 1.0)


def _bad_lambda(x):
    f = lambda v: v  # noqa: E731
    x[0] = 1


def _bad_range(x):
    r = range(3)  # noqa: F841


@pytest.mark.parametrize("fn, exc, match", [
    (_bad_with, NotImplementedError, r"with statements.*\n    with open"),
    (_bad_comprehension, NotImplementedError, "list comprehension"),
    (_bad_slice, NotImplementedError, "slices"),
    (_bad_name, NameError, "undefined_name"),
    (_bad_call, NotImplementedError, "print"),
    (_bad_try, NotImplementedError, "try"),
    (_bad_nested, NotImplementedError, "nested function"),
    (_bad_return, TypeError, "return nothing"),
    (_bad_dims, IndexError, "1 dimensions but 2 indices"),
    (_bad_atomic, TypeError, "atomic_min does not take float32"),
    (_bad_lambda, NotImplementedError, "lambda"),
    (_bad_range, NotImplementedError, "range"),
])
def test_unsupported_syntax_names_the_line(fn, exc, match):
    k = jit.rawkernel()(fn)
    with pytest.raises(exc, match=match) as info:
        k._cuda_source(cpu(numpy.zeros(4, F32)))
    lineno = fn.__code__.co_firstlineno
    assert "test_jit.py:" in str(info.value) and "(kernel '%s')" % fn.__name__ in str(info.value)
    line = int(str(info.value).split("test_jit.py:")[1].split(" ")[0])
    assert lineno < line <= lineno + 6


def test_source_unavailable_and_bad_uses():
    ns = {}
    exec("def f(x):\n    x[0] = 1\n", ns)
    with pytest.raises(TypeError, match="source code of 'f' is not available"):
        jit.rawkernel()(ns["f"])
    with pytest.raises(TypeError, match="lambda"):
        jit.rawkernel()(lambda x: x)
    with pytest.raises(NotImplementedError, match="device=True"):
        jit.rawkernel(device=True)(_bad_name)
    with pytest.raises(TypeError, match="takes 5 arguments"):
        k_saxpy._cuda_source(1, 2)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        k_saxpy._cuda_source(F32(1), numpy.ones(3), numpy.ones(3), numpy.ones(3), 3)
    with pytest.raises(RuntimeError, match="only be used inside a kernel"):
        jit.syncthreads()
    with pytest.raises(TypeError, match="launch as"):
        k_saxpy[1]


# ---- launches (CUDA) -------------------------------------------------------------------

@needs_cuda
def test_launch_saxpy_both_forms():
    with cunp.Device("cuda:0"):
        n = 1000
        x = cunp.arange(n, dtype=F32)
        y = cunp.ones(n, dtype=F32)
        out = cunp.empty(n, dtype=F32)
        k_saxpy[4, 128](F32(2), x, y, out, n)
        numpy.testing.assert_array_equal(out.get(), 2 * numpy.arange(n, dtype=F32) + 1)
        out2 = cunp.empty(n, dtype=F32)
        k_saxpy((4,), (128,), (F32(3), x, y, out2, n))
        numpy.testing.assert_array_equal(out2.get(), 3 * numpy.arange(n, dtype=F32) + 1)


@needs_cuda
def test_launch_strided_and_operators():
    with cunp.Device("cuda:0"):
        src = cunp.asarray(numpy.arange(24, dtype=F32).reshape(4, 6))[:, ::-1]
        dst = cunp.zeros((12, 4), dtype=F32)[::2]  # a strided destination
        k_transpose[(1, 1), (8, 8)](src, dst)
        numpy.testing.assert_array_equal(dst.get(), numpy.arange(24, dtype=F32).reshape(4, 6)[:, ::-1].T)
        a = numpy.array([7, -7, 7, -7, 5, 0, 3, -1], numpy.int32)
        b = numpy.array([2, 2, -2, -2, 3, 1, 3, 5], numpy.int32)
        out = cunp.zeros((8, 9), dtype=numpy.float64)
        k_operators[1, 32](cunp.asarray(a), cunp.asarray(b), out)
        r = out.get()
        numpy.testing.assert_array_equal(r[:, 0], a // b)
        numpy.testing.assert_array_equal(r[:, 1], a % b)
        numpy.testing.assert_array_equal(r[:, 2], a / b)
        numpy.testing.assert_array_equal(r[:, 3], a ** 2)
        numpy.testing.assert_array_equal(r[:, 6], ~a)


@needs_cuda
def test_launch_shared_atomics_shuffles():
    with cunp.Device("cuda:0"):
        n = 1 << 16
        x = cunp.asarray(numpy.ones(n, F32))
        out = cunp.zeros(1, dtype=F32)
        k_reduce_shared[64, 256](x, out, n)
        assert out.get()[0] == n
        d = cunp.asarray(numpy.arange(128, dtype=numpy.float64))
        r = cunp.zeros(128)
        k_dynamic_shared((1,), (128,), (d, r), shared_mem=128 * 8)
        numpy.testing.assert_array_equal(r.get(), numpy.arange(128.0)[::-1])
        w = cunp.asarray(numpy.arange(64, dtype=F32))
        ws = cunp.zeros(2, dtype=F32)
        k_warp_sum[1, 64](w, ws)
        numpy.testing.assert_array_equal(ws.get(), [numpy.arange(32).sum(), numpy.arange(32, 64).sum()])
        counts = cunp.zeros(6, dtype=numpy.int32)
        flags = cunp.zeros(3, dtype=numpy.int32)
        vals = numpy.arange(1, 101, dtype=numpy.int32)
        k_atomics_int[1, 128](counts, flags, cunp.asarray(vals))
        c = counts.get()
        assert c[0] == 100 and c[1] == -100 and c[2] == 100 and c[3] == 0 and c[4] == 7
        f = flags.get()
        assert f[1] == numpy.bitwise_or.reduce(vals) and f[2] == numpy.bitwise_xor.reduce(vals)


@needs_cuda
def test_launch_retype_and_types():
    with cunp.Device("cuda:0"):
        out = cunp.zeros(2)
        k_retype[1, 1](out)
        numpy.testing.assert_array_equal(out.get(), [2.0, 3.0])  # v stayed an int
        h = cunp.asarray(numpy.arange(8, dtype=numpy.float16))
        z = cunp.asarray(numpy.arange(8, dtype=numpy.complex64) * (1 + 1j))
        b = cunp.asarray(numpy.arange(8) % 2 == 0)
        s8 = cunp.asarray(numpy.arange(8, dtype=numpy.int8))
        o = cunp.zeros(8, dtype=F32)
        k_types[1, 8](h, z, b, s8, o)
        numpy.testing.assert_array_equal(h.get(), numpy.arange(8, dtype=numpy.float16) * 2 + 1)
        numpy.testing.assert_array_equal(b.get(), numpy.arange(8) % 2 != 0)
        numpy.testing.assert_array_equal(s8.get(), numpy.arange(8, dtype=numpy.int8) * 3)


def _docs_blocks():
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "kernels.md").read_text()
    section = text[text.index("## JIT kernels in Python"):text.index("## JIT kernels in C++")]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def _docs_module(tmp_path):
    # The kernel definition block of docs/kernels.md, imported from a file (the
    # translator reads the source).
    import importlib.util
    path = tmp_path / "jit_docs_example.py"
    path.write_text(_docs_blocks()[0])
    spec = importlib.util.spec_from_file_location("jit_docs_example", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_docs_example_compiles(tmp_path):
    mod = _docs_module(tmp_path)
    args = (cpu(numpy.ones(16, F32)), cpu(numpy.zeros(1, F32)), 16)
    assert "atomicAdd" in mod.block_sums._cuda_source(*args)
    assert len(mod.block_sums._compile(*args)["cubin"]) > 0


@needs_cuda
def test_docs_example_runs(tmp_path, capsys):
    mod = _docs_module(tmp_path)
    with cunp.Device("cuda:0"):
        ns = dict(vars(mod))
        exec(compile(_docs_blocks()[1], "docs/kernels.md", "exec"), ns)
        assert ns["out"].get()[0] == 2 * (1 << 20)  # launched twice
    assert "block_sums" in capsys.readouterr().out

"""cunp.ElementwiseKernel against NumPy. Parsing, type resolution, shapes and the
generated source are checked with cpu arrays (no GPU needed); launches need a GPU."""
import numpy
import pytest

import cunp
from helpers import random_array

needs_gpu = pytest.mark.skipif(not cunp.cuda.is_available(), reason="needs a CUDA device")


def cpu(a):
    with cunp.Device("cpu"):
        return cunp.asarray(a)


# ---- construction ------------------------------------------------------------------------

def test_attributes():
    k = cunp.ElementwiseKernel("T x, raw T y, float32 s", "U z", "z = x + y[i] * s", "kern",
                               options=("-DFOO=1",), loop_prep="int q = 0;", after_loop="(void)q;")
    assert k.name == k.__name__ == "kern"
    assert (k.nin, k.nout, k.nargs) == (3, 1, 4)
    assert k.in_params[1].raw and k.in_params[1].name == "y" and k.in_params[1].dtype is None
    assert k.in_params[2].dtype == numpy.float32
    assert k.out_params[0].type == "U"
    assert k.options == ("-DFOO=1",)
    assert k.loop_prep == "int q = 0;" and k.after_loop == "(void)q;"
    assert k.reduce_dims and not k.no_return and not k.return_tuple
    assert "kern" in repr(k)


@pytest.mark.parametrize("in_params, out_params", [
    ("T", "T z"),            # no name
    ("T x,", "T z"),         # empty item
    ("const T x", "T z"),    # unknown keyword
    ("T i", "T z"),          # 'i' is the index
    ("T x, T x", "T z"),     # duplicate
    ("T x", "T x"),
    ("float x", "T z"),      # NumPy spellings other than the dtype's name
    ("f4 x", "T z"),
    ("T 2x", "T z"),
])
def test_bad_parameter_lists(in_params, out_params):
    with pytest.raises(ValueError):
        cunp.ElementwiseKernel(in_params, out_params, "z = x", "k")


def test_bad_name_and_keywords():
    with pytest.raises(ValueError):
        cunp.ElementwiseKernel("T x", "T z", "z = x", "bad name")
    with pytest.raises(TypeError):
        cunp.ElementwiseKernel("T x", "T z", "z = x", "k", colour="red")


# ---- calls checked without a GPU -----------------------------------------------------------

def test_cpu_arrays_raise():
    k = cunp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_k")
    a = cpu(numpy.arange(4.0))
    with pytest.raises(TypeError, match="ElementwiseKernel needs a CUDA device; this array is on cpu"):
        k(a, a)


def test_numpy_arrays_are_refused():
    k = cunp.ElementwiseKernel("T x", "T z", "z = x", "id_k")
    with pytest.raises(TypeError, match="numpy.ndarray"):
        k(numpy.arange(3))


def test_argument_count():
    k = cunp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_k")
    a = cpu(numpy.arange(4.0))
    with pytest.raises(TypeError, match="either 2 or 3"):
        k._cuda_source(a)
    with pytest.raises(TypeError):
        k(a, a, size=3, colour=1)


def test_placeholder_mismatch_names_it():
    k = cunp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_k")
    with pytest.raises(TypeError, match="'T'"):
        k._cuda_source(cpu(numpy.zeros(3, numpy.float32)), cpu(numpy.zeros(3, numpy.int32)))


def test_fixed_dtype_mismatch():
    k = cunp.ElementwiseKernel("float32 x", "float32 z", "z = x", "f_k")
    with pytest.raises(TypeError):
        k._cuda_source(cpu(numpy.zeros(3, numpy.float64)))
    with pytest.raises(TypeError):  # given output of another dtype
        k._cuda_source(cpu(numpy.zeros(3, numpy.float32)), cpu(numpy.zeros(3, numpy.float64)))


def test_undecided_output_placeholder():
    k = cunp.ElementwiseKernel("T x", "U z", "z = x", "u_k")
    with pytest.raises(TypeError, match="'U'"):
        k._cuda_source(cpu(numpy.zeros(3)))
    src = k._cuda_source(cpu(numpy.zeros(3)), cpu(numpy.zeros(3, numpy.int16)))
    assert "typedef double T;" in src and "typedef short U;" in src


@pytest.mark.parametrize("scalar, array_dtype, expected", [
    (2, numpy.float32, "float"),           # weak int takes the array's dtype
    (2.5, numpy.int16, "short"),           # weak float too (converted like CuPy)
    (numpy.float64(2), numpy.float32, "float"),
])
def test_scalars_take_the_arrays_dtype(scalar, array_dtype, expected):
    k = cunp.ElementwiseKernel("T x, T s", "T z", "z = x * s", "s_k")
    src = k._cuda_source(cpu(numpy.zeros(3, array_dtype)), scalar)
    assert "typedef %s T;" % expected in src
    assert "const T s" in src


def test_scalar_only_placeholders_use_numpy_defaults():
    k = cunp.ElementwiseKernel("raw T x, U a, U b", "T z", "z = x[i] * a", "d_k")
    src = k._cuda_source(cpu(numpy.zeros(3, numpy.float32)), 1, 2.0, size=3)
    assert "typedef double U;" in src
    src = k._cuda_source(cpu(numpy.zeros(3, numpy.float32)), 1, 2, size=3)
    assert "typedef long long U;" in src


def test_python_int_overflow():
    k = cunp.ElementwiseKernel("T x, T s", "T z", "z = x + s", "o_k")
    with pytest.raises(OverflowError):
        k._cuda_source(cpu(numpy.zeros(3, numpy.int8)), 300)


def test_shapes():
    k = cunp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_k")
    a = cpu(numpy.zeros((4, 5)))
    with pytest.raises(ValueError):
        k._cuda_source(a, cpu(numpy.zeros(4)))
    with pytest.raises(ValueError, match="Out shape"):
        k._cuda_source(a, a, cpu(numpy.zeros(5)))
    src = k._cuda_source(a, cpu(numpy.zeros(5)))
    assert "cunp_ek::strided<int, 2, 3>" in src


def test_raw_and_size():
    k = cunp.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - i - 1]", "rev_k")
    a = cpu(numpy.arange(10, dtype=numpy.int32))
    with pytest.raises(ValueError, match="undecided"):
        k._cuda_source(a)
    assert "cunp_ek::raw<T, 1, true> x" in k._cuda_source(a, size=10)
    k2 = cunp.ElementwiseKernel("raw T x, T y", "T z", "z = x[i] + y", "rp_k")
    with pytest.raises(ValueError, match="size"):
        k2._cuda_source(a, a, size=10)


def test_compiles_without_gpu(tmp_path, monkeypatch):
    k = cunp.ElementwiseKernel("T a, T b, T c", "T z", "z = a * b + c", "fma_py")
    for dt in (numpy.float32, numpy.float64, numpy.int64, numpy.float16, numpy.bool_):
        a = cpu(numpy.zeros(8, dt))
        assert k._compile(a, a, a) > 0
    a = cpu(numpy.zeros((3, 4), numpy.float32))
    assert k._compile(a.T, a.T, 1.0) > 0


def test_compile_error_carries_nvrtc_log():
    k = cunp.ElementwiseKernel("T x", "T z", "z = x + not_declared_anywhere", "broken_k")
    with pytest.raises(cunp.cuda.CompileException, match="not_declared_anywhere"):
        k._compile(cpu(numpy.zeros(3, numpy.float32)))


# ---- on a GPU ---------------------------------------------------------------------------------

@needs_gpu
@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint16, numpy.int32, numpy.int64, numpy.float32,
                                   numpy.float64])
def test_fma_matches_numpy(dtype):
    k = cunp.ElementwiseKernel("T a, T b, T c", "T z", "z = a * b + c", "fma_gpu")
    a, b, c = (random_array((37, 11), dtype, low=-5, high=5) for _ in range(3))
    z = k(cunp.asarray(a), cunp.asarray(b), cunp.asarray(c))
    assert z.dtype == dtype and z.shape == (37, 11)
    if numpy.dtype(dtype).kind == "f":
        # NVRTC fuses a * b + c into one FMA by default, like CuPy's kernels...
        numpy.testing.assert_allclose(z.get(), a * b + c, rtol=1e-6, atol=1e-6)
        # ... and rounds the product first, as NumPy does, with --fmad=false.
        sep = cunp.ElementwiseKernel("T a, T b, T c", "T z", "z = a * b + c", "fma_sep", options=("--fmad=false",))
        numpy.testing.assert_array_equal(sep(cunp.asarray(a), cunp.asarray(b), cunp.asarray(c)).get(), a * b + c)
    else:
        numpy.testing.assert_array_equal(z.get(), a * b + c)


@needs_gpu
def test_memoized_per_dtype():
    k = cunp.ElementwiseKernel("T a", "T z", "z = a + 1", "memo_gpu")
    a = cunp.arange(10, dtype=numpy.float32)
    k(a)
    k(a)
    assert k._cached_kernel_count == 1
    k(a.astype(numpy.float64))
    assert k._cached_kernel_count == 2


@needs_gpu
def test_broadcast_scalars_and_strided():
    k = cunp.ElementwiseKernel("T x, T y, T s", "T z", "z = (x - y) * s", "bc_gpu")
    x = random_array((6, 8), numpy.float64)
    y = random_array((8,), numpy.float64)
    numpy.testing.assert_array_equal(k(cunp.asarray(x), cunp.asarray(y), 2).get(), (x - y) * 2)
    # Transposed and sliced inputs; `i` is the C-order index of the result.
    idx = cunp.ElementwiseKernel("T x", "T z, int64 j", "z = x; j = i", "idx_gpu")
    z, j = idx(cunp.asarray(x).T[::2])
    numpy.testing.assert_array_equal(z.get(), x.T[::2])
    numpy.testing.assert_array_equal(j.get(), numpy.arange(z.size).reshape(z.shape))


@needs_gpu
def test_given_output_and_in_place():
    k = cunp.ElementwiseKernel("T x", "T z", "z = z + x", "acc_gpu")
    x = random_array((100,), numpy.float32)
    z = cunp.zeros(100, dtype=numpy.float32)
    out = k(cunp.asarray(x), z)
    k(cunp.asarray(x), z)
    numpy.testing.assert_allclose(z.get(), 2 * x, rtol=1e-6)


@needs_gpu
def test_raw_reverse():
    k = cunp.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - i - 1]", "rev_gpu")
    x = numpy.arange(1000, dtype=numpy.int32)
    numpy.testing.assert_array_equal(k(cunp.asarray(x), size=1000).get(), x[::-1])
    # A non-contiguous raw array is indexed in C order through its strides.
    k2 = cunp.ElementwiseKernel("raw T x, T y", "T z", "z = x[_ind.size() - i - 1] + y", "rev2_gpu")
    m = numpy.arange(1000, dtype=numpy.int32).reshape(20, 50)
    z = k2(cunp.asarray(m).T, cunp.zeros((50, 20), dtype=numpy.int32))
    numpy.testing.assert_array_equal(z.get().ravel(), m.T.ravel()[::-1])


@needs_gpu
def test_float16_and_bool_outputs():
    k = cunp.ElementwiseKernel("T x, T y", "T z, bool gt", "z = x * y; gt = x > y", "h_gpu")
    x = random_array((64,), numpy.float16, low=-8, high=8)
    y = random_array((64,), numpy.float16, low=-8, high=8)
    z, gt = k(cunp.asarray(x), cunp.asarray(y))
    assert z.dtype == numpy.float16
    numpy.testing.assert_array_equal(z.get(), x * y)
    numpy.testing.assert_array_equal(gt.get(), x > y)


@needs_gpu
def test_return_conventions_and_empty():
    k = cunp.ElementwiseKernel("T x", "T z", "z = x * 2", "rt_gpu", return_tuple=True)
    (z,) = k(cunp.arange(3, dtype=numpy.float32))
    numpy.testing.assert_array_equal(z.get(), [0, 2, 4])
    nr = cunp.ElementwiseKernel("T x", "T z", "z = x * 2", "nr_gpu", no_return=True)
    out = cunp.empty(3, dtype=numpy.float32)
    assert nr(cunp.arange(3, dtype=numpy.float32), out) is None
    numpy.testing.assert_array_equal(out.get(), [0, 2, 4])
    e = k(cunp.empty((0, 4), dtype=numpy.float32))[0]
    assert e.shape == (0, 4)
    s = cunp.ElementwiseKernel("T x", "T z", "z = x + 1", "zd_gpu")(cunp.asarray(numpy.float64(41)))
    assert s.shape == () and float(s.get()) == 42.0


@needs_gpu
def test_preamble_options_block_size_stream():
    k = cunp.ElementwiseKernel("T x", "T z", "z = sq(x) * SCALE", "pre_gpu",
                               preamble="__device__ float sq(float v) { return v * v; }",
                               options=("-DSCALE=3",))
    x = random_array((1000,), numpy.float32, low=-3, high=3)
    s = cunp.cuda.Stream(non_blocking=True)
    z = k(cunp.asarray(x), block_size=64, stream=s)
    s.synchronize()
    numpy.testing.assert_allclose(z.get(), x * x * 3, rtol=1e-6)


@needs_gpu
def test_gpu_compile_error():
    k = cunp.ElementwiseKernel("T x", "T z", "z = x +* 1", "bad_gpu")
    with pytest.raises(cunp.cuda.CompileException):
        k(cunp.arange(3, dtype=numpy.float32))

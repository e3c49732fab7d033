"""cunp.ReductionKernel against NumPy. Construction, type resolution, shapes, errors and
the generated source are checked with cpu arrays (no GPU needed, the source is compiled
with NVRTC); the reductions run on the `cuda` device."""
import numpy
import pytest

import cunp
from helpers import random_array


def cpu(a):
    with cunp.Device("cpu"):
        return cunp.asarray(a)


def l2norm():
    return cunp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")


def sum_of_squares():
    return cunp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq")


# ---- without a GPU ----------------------------------------------------------------------------

def test_attributes_and_exports():
    k = cunp.ReductionKernel("T x, float32 w", "U y", "x * w", "a + b", "y = a", "0", "wsum",
                             reduce_type="double", preamble="// p", options=("-DFOO=1",))
    assert cunp.ReductionKernel is cunp._core.ReductionKernel
    assert k.name == k.__name__ == "wsum"
    assert (k.nin, k.nout, k.nargs) == (2, 1, 3)
    assert k.in_params[1].dtype == numpy.float32 and k.out_params[0].type == "U"
    assert k.reduce_type == "double" and k.identity == "0" and k.preamble == "// p"
    assert k.options == ("-DFOO=1",)
    assert (k.map_expr, k.reduce_expr, k.post_map_expr) == ("x * w", "a + b", "y = a")
    assert l2norm().reduce_type == "T"  # the first output's type
    assert "wsum" in repr(k)


@pytest.mark.parametrize("in_params, out_params", [("T", "T y"), ("T x, T x", "T y"), ("float x", "T y"),
                                                   ("T x", "")])
def test_bad_parameter_lists(in_params, out_params):
    with pytest.raises(ValueError):
        cunp.ReductionKernel(in_params, out_params, "x", "a + b", "y = a", "0", "k")


def test_bad_name():
    with pytest.raises(ValueError):
        cunp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "bad name")


def test_cpu_arrays_raise():
    with pytest.raises(TypeError, match="ReductionKernel needs a CUDA device; this array is on cpu"):
        l2norm()(cpu(numpy.arange(4.0)))


def test_argument_errors():
    k = sum_of_squares()
    a = cpu(numpy.zeros((3, 4), numpy.float32))
    with pytest.raises(TypeError, match="either 1 or 2"):
        k._cuda_source(a, a, a)
    with pytest.raises(TypeError):
        k._cuda_source(a, colour=1)
    with pytest.raises(ValueError, match="Out shape"):
        k._cuda_source(a, cpu(numpy.zeros(5, numpy.float32)), axis=1)
    with pytest.raises(numpy.exceptions.AxisError):
        k._cuda_source(a, axis=2)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        k(numpy.zeros(3))
    with pytest.raises(ValueError, match="raw"):
        cunp.ReductionKernel("raw T x", "T y", "x[0]", "a + b", "y = a", "0", "r")._cuda_source(a)


def test_empty_without_identity():
    k = cunp.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None, "kmax")
    assert k.identity == ""
    with pytest.raises(ValueError, match="no identity"):
        k._cuda_source(cpu(numpy.zeros((0, 3), numpy.float32)), axis=0)
    # Reducing along the non-empty axis is fine.
    assert "kmax" in k._cuda_source(cpu(numpy.zeros((0, 3), numpy.float32)), axis=1)


def test_types_in_source():
    k = cunp.ReductionKernel("T x, T y", "U z", "x * y", "a + b", "z = a", "0", "dotk", reduce_type="double")
    src = k._cuda_source(cpu(numpy.zeros(3, numpy.float32)), cpu(numpy.zeros(3, numpy.float32)),
                         cpu(numpy.zeros((), numpy.float64)))
    assert "typedef float T;" in src and "typedef double U;" in src and "typedef double _type_reduce;" in src
    with pytest.raises(TypeError, match="'T'"):
        k._cuda_source(cpu(numpy.zeros(3, numpy.float32)), cpu(numpy.zeros(3, numpy.int32)))


def test_compiles_without_gpu():
    k = l2norm()
    for dt in (numpy.float32, numpy.float64, numpy.float16, numpy.complex64):
        assert k._compile(cpu(numpy.zeros((4, 5), dt)), axis=1) > 0
    k2 = cunp.ReductionKernel("T x, T s", "float64 y", "x * s", "a + b", "y = a", "0", "scaled",
                              reduce_type="double")
    assert k2._compile(cpu(numpy.zeros((2, 3, 4), numpy.int16)), 3, axis=(0, 2), keepdims=True) > 0


def test_compile_error_carries_nvrtc_log():
    k = cunp.ReductionKernel("T x", "T y", "x + not_declared_anywhere", "a + b", "y = a", "0", "broken_r")
    with pytest.raises(cunp.cuda.CompileException, match="not_declared_anywhere"):
        k._compile(cpu(numpy.zeros(3, numpy.float32)))


# ---- on a GPU -----------------------------------------------------------------------------------

needs_gpu = pytest.mark.skipif(not cunp.cuda.is_available(), reason="needs a CUDA device")


@needs_gpu
@pytest.mark.parametrize("dt", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_l2_norm_and_sum_of_squares(dt, axis, keepdims):
    host = random_array((7, 33, 5), dt)
    x = cunp.asarray(host)
    got = l2norm()(x, axis=axis, keepdims=keepdims)
    want = numpy.sqrt(numpy.sum(host.astype(numpy.float64) ** 2, axis=axis, keepdims=keepdims))
    assert got.dtype == dt and got.shape == want.shape
    rtol = 1e-5 if dt == numpy.float32 else 1e-12
    numpy.testing.assert_allclose(got.get(), want, rtol=rtol)
    ss = sum_of_squares()(x, axis=axis, keepdims=keepdims)
    numpy.testing.assert_allclose(ss.get(), want**2, rtol=rtol * 4)


@needs_gpu
def test_broadcast_scalar_out_and_types():
    dot = cunp.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "rowdot")
    a = random_array((50, 300), numpy.float64)
    b = random_array((300,), numpy.float64)
    out = cunp.zeros(50, dtype=numpy.float64)
    r = dot(cunp.asarray(a), cunp.asarray(b), out, axis=1)
    assert r is out
    numpy.testing.assert_allclose(out.get(), a @ b, rtol=1e-12)
    numpy.testing.assert_allclose(dot(cunp.asarray(a), cunp.asarray(b), axis=1).get(), a @ b, rtol=1e-12)
    # A weak scalar takes the arrays' dtype; int inputs with a double reduce type.
    scaled = cunp.ReductionKernel("T x, T s", "float64 y", "x * s", "a + b", "y = a / 2", "0", "halfsum",
                                  reduce_type="double")
    ints = random_array((6, 40), numpy.int32)
    got = scaled(cunp.asarray(ints), 3, axis=0)
    assert got.dtype == numpy.float64
    numpy.testing.assert_allclose(got.get(), (ints.astype(numpy.float64) * 3).sum(axis=0) / 2)


@needs_gpu
def test_max_without_identity_and_empty_with_identity():
    kmax = cunp.ReductionKernel("T x", "T y", "x", "(a > b ? a : b)", "y = a", None, "kmax_gpu")
    host = random_array((9, 1000), numpy.int64)
    numpy.testing.assert_array_equal(kmax(cunp.asarray(host), axis=1).get(), host.max(axis=1))
    assert int(kmax(cunp.asarray(host)).get()) == host.max()
    ksum = sum_of_squares()
    e = ksum(cunp.zeros((0, 4), dtype=numpy.float32), axis=0)
    numpy.testing.assert_array_equal(e.get(), numpy.zeros(4, numpy.float32))

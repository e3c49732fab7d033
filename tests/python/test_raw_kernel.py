"""cunp.RawKernel and cunp.RawModule. Declarations, argument conversion, NVRTC compiles,
name expressions and the disk cache are checked without a GPU; launches need one."""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

import numpy
import pytest

import cunp
from conftest import DEVICES, needs_cuda

SAXPY = r'''
extern "C" __global__ void saxpy(float a, const float* __restrict__ x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
'''


def declared(decl):
    return cunp.RawKernel('extern "C" __global__ void k(%s) {}' % decl, "k").params


@pytest.fixture
def gpu():
    """cuda:0 current for the test; the device synchronized after it."""
    with cunp.Device("cuda:0"):
        yield cunp.cuda.Device()
        cunp.cuda.Device().synchronize()


def device_arch():
    return int(cunp.cuda.Device().compute_capability)


# ---- declarations (no GPU) -------------------------------------------------------------------

@pytest.mark.parametrize("decl, ctype, kind, dtype, size", [
    ("const float* __restrict__ x", "const float* __restrict__", "pointer", None, 8),
    ("float *x", "float*", "pointer", None, 8),
    ("float x[]", "float*", "pointer", None, 8),
    ("const complex<double>* z", "const complex<double>*", "pointer", None, 8),
    ("int n", "int", "scalar", numpy.int32, 4),
    ("const int n", "const int", "scalar", numpy.int32, 4),
    ("unsigned n", "unsigned", "scalar", numpy.uint32, 4),
    ("unsigned int n", "unsigned int", "scalar", numpy.uint32, 4),
    ("long n", "long", "scalar", numpy.int64, 8),
    ("long long n", "long long", "scalar", numpy.int64, 8),
    ("unsigned long long n", "unsigned long long", "scalar", numpy.uint64, 8),
    ("short s", "short", "scalar", numpy.int16, 2),
    ("unsigned short s", "unsigned short", "scalar", numpy.uint16, 2),
    ("char c", "char", "scalar", numpy.int8, 1),
    ("signed char c", "signed char", "scalar", numpy.int8, 1),
    ("unsigned char c", "unsigned char", "scalar", numpy.uint8, 1),
    ("size_t n", "size_t", "scalar", numpy.uint64, 8),
    ("ptrdiff_t n", "ptrdiff_t", "scalar", numpy.int64, 8),
    ("int8_t a", "int8_t", "scalar", numpy.int8, 1),
    ("uint16_t a", "uint16_t", "scalar", numpy.uint16, 2),
    ("std::int32_t a", "std::int32_t", "scalar", numpy.int32, 4),
    ("cuda::std::uint64_t a", "cuda::std::uint64_t", "scalar", numpy.uint64, 8),
    ("float a", "float", "scalar", numpy.float32, 4),
    ("double a", "double", "scalar", numpy.float64, 8),
    ("half h", "half", "scalar", numpy.float16, 2),
    ("const __half h", "const __half", "scalar", numpy.float16, 2),
    ("bool b", "bool", "scalar", numpy.bool_, 1),
    ("complex<float> z", "complex<float>", "scalar", numpy.complex64, 8),
    ("complex<double> z", "complex<double>", "scalar", numpy.complex128, 16),
    ("thrust::complex<float> z", "thrust::complex<float>", "scalar", numpy.complex64, 8),
    ("cuda::std::complex<double> z", "cuda::std::complex<double>", "scalar", numpy.complex128, 16),
    ("cuFloatComplex z", "cuFloatComplex", "scalar", numpy.complex64, 8),
    ("cuDoubleComplex z", "cuDoubleComplex", "scalar", numpy.complex128, 16),
    ("float4 v", "float4", "other", None, 16),
    ("int2 v", "int2", "other", None, 8),
    ("double3 v", "double3", "other", None, 24),
    ("__nv_bfloat16 b", "__nv_bfloat16", "other", None, 2),
    ("MyParams p", "MyParams", "other", None, 0),
    ("const __grid_constant__ MyParams p", "const __grid_constant__ MyParams", "other", None, 0),
])
def test_declared_parameter_types(decl, ctype, kind, dtype, size):
    (p,) = declared(decl)
    assert (p.type, p.kind, p.size) == (ctype, kind, size)
    assert p.dtype == (None if dtype is None else numpy.dtype(dtype))
    assert p.name == decl.split()[-1].strip("*").replace("[]", "")


def test_declarations_read_like_cuda():
    assert declared("void") == ()
    assert declared("") == ()
    unnamed = declared("int, float*")
    assert [(p.name, p.type, p.kind) for p in unnamed] == [("", "int", "scalar"), ("", "float*", "pointer")]
    code = r'''
    #define REAL double
    typedef float real_t;
    using index_t = long long;
    /* a comment with saxpy( in it */
    // __global__ void k(int wrong);
    extern "C" __global__ void __launch_bounds__(256, 2)
    k(REAL a, real_t b, index_t n, SCALE_T s, const char* msg = "x, y") {}
    '''
    k = cunp.RawKernel(code, "k", options=("-DSCALE_T=unsigned short",))
    assert [(p.name, p.type, p.dtype) for p in k.params] == [
        ("a", "double", numpy.float64), ("b", "real_t", numpy.float32), ("n", "index_t", numpy.int64),
        ("s", "unsigned short", numpy.uint16), ("msg", "const char*", None)]
    assert cunp.RawKernel(code, "not_there").params is None


def test_template_parameters_take_the_name_expressions_arguments():
    code = r'''
    template <typename T, int N = 4, typename U = T>
    __global__ void scale(T* x, T a, U b, int n) {}
    __global__ void scale(float* x) {}
    '''
    k = cunp.RawKernel(code, "scale<double>")
    assert [(p.type, p.dtype) for p in k.params] == [
        ("double*", None), ("double", numpy.float64), ("double", numpy.float64), ("int", numpy.int32)]
    m = cunp.RawModule(code=code, name_expressions=["scale<int, 2, unsigned char>"])
    k = m.get_function("scale<int, 2, unsigned char>")
    assert [p.dtype for p in k.params[1:]] == [numpy.int32, numpy.uint8, numpy.int32]
    assert isinstance(k, cunp.RawKernel)


# ---- compiling (NVRTC, no GPU) -----------------------------------------------------------------

def test_compile_without_gpu():
    k = cunp.RawKernel(SAXPY, "saxpy")
    assert (k.name, k.__name__, k.code, k.options, k.backend) == ("saxpy", "saxpy", SAXPY, (), "nvrtc")
    assert not k.enable_cooperative_groups and not k.translate_cucomplex and not k.jitify
    b = k._compile(arch=90)
    assert b["cubin"][:4] == b"\x7fELF" and b["lowered_names"] == {}
    assert "saxpy" in repr(k)


def test_name_expressions_lower():
    code = r'''
    namespace ops { template <typename T> __global__ void fill(T* x, T v, int n) {} }
    template <int N> __device__ int table[N];
    '''
    m = cunp.RawModule(code=code, name_expressions=("ops::fill<float>", "ops::fill<double>", "&table<8>"))
    lowered = m._compile(arch=90)["lowered_names"]
    assert lowered == {"ops::fill<float>": "_ZN3ops4fillIfEEvPT_S1_i",
                       "ops::fill<double>": "_ZN3ops4fillIdEEvPT_S1_i",
                       "&table<8>": "_Z5tableILi8EE"}
    assert m.name_expressions == ("ops::fill<float>", "ops::fill<double>", "&table<8>")
    k = cunp.RawKernel(code, "ops::fill<float>")
    assert k._compile(arch=90)["lowered_names"] == {"ops::fill<float>": "_ZN3ops4fillIfEEvPT_S1_i"}


def test_compile_error_carries_the_log(monkeypatch, tmp_path):
    bad = 'extern "C" __global__ void broken(int n) { not_declared_anywhere(n); }'
    with pytest.raises(cunp.cuda.CompileException, match=r"(?s)broken.*not_declared_anywhere.*undefined"):
        cunp.RawKernel(bad, "broken")._compile(arch=90)
    monkeypatch.setenv("CUNP_CACHE_SAVE_CUDA_SOURCE", "1")
    with pytest.raises(cunp.cuda.CompileException, match=r"source saved to (\S+\.cu)") as info:
        cunp.RawModule(code=bad + "\n// saved")._compile(arch=90)
    saved = info.value.args[0].split("source saved to ")[1].split(")")[0]
    assert open(saved).read() == bad + "\n// saved"


TWO_PHASE = r'''
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void two_phase(float* x, float* out, int n) {
  cg::grid_group g = cg::this_grid();
  int i = (int)g.thread_rank();
  if (i < n) x[i] = (float)i;
  g.sync();
  if (i < n) out[i] = x[n - 1 - i];
}
'''


def test_grid_sync_compiles_without_relocatable_code():
    k = cunp.RawKernel(TWO_PHASE, "two_phase", enable_cooperative_groups=True)
    assert k._compile(arch=90)["cubin"][:4] == b"\x7fELF"


@pytest.mark.parametrize("header, use", [
    ("cuda_fp16.h", "__half h = __float2half(1.0f); (void)__half2float(h);"),
    ("cuda_bf16.h", "__nv_bfloat16 h = __float2bfloat16(1.0f); (void)h;"),
    ("cuda/std/cstdint", "cuda::std::int64_t v = 1; (void)v;"),
    ("cuda/std/complex", "cuda::std::complex<float> z(1, 2); z = z * z; (void)z;"),
    ("cooperative_groups.h", "cooperative_groups::this_thread_block().sync();"),
    ("cuComplex.h", "cuFloatComplex z = cuCmulf(make_cuFloatComplex(1, 2), make_cuFloatComplex(3, 4)); (void)z;"),
])
def test_toolkit_headers_are_on_the_include_path(header, use):
    code = '#include <%s>\nextern "C" __global__ void k() { %s }\n' % (header, use)
    assert cunp.RawKernel(code, "k")._compile(arch=90)["cubin"]


def test_cunp_complex_header():
    code = r'''
    #include <cunp/complex.cuh>
    extern "C" __global__ void k(complex<float>* z, const complex<double>* w, float s, int n) {
      int i = threadIdx.x;
      if (i >= n) return;
      complex<float> a = z[i];
      a += complex<float>{1.f, 2.f};
      a *= s;
      a = s * a + s;
      a = a / s - s;
      a = exp(a) * conj(a) / a;
      z[i] = make_complex(real(a) + abs(a), imag(a));
      complex<double> b = w[i];
      b /= 2.0;
      b = sqrt(b) + log(b);
      z[i] += complex<float>{(float)b.re, (float)b.im};
    }
    '''
    assert cunp.RawKernel(code, "k")._compile(arch=90)["cubin"]


def test_options_reach_nvrtc():
    code = r'''
    #include <cunp/complex.cuh>
    extern "C" __global__ void k(complex<float>* z) {
    #if N != 4
    #error N must be 4
    #endif
      z[0] = complex<float>(1.f, 2.f);  // parenthesized aggregate init: C++20
    }
    '''
    k = cunp.RawKernel(code, "k", options=("-DN=4", "--std=c++20"))
    assert k.options == ("-DN=4", "--std=c++20")
    assert k._compile(arch=90)["cubin"]
    with pytest.raises(cunp.cuda.CompileException, match="N must be 4"):
        cunp.RawKernel(code, "k", options=("-DN=3", "--std=c++20"))._compile(arch=90)
    with pytest.raises(cunp.cuda.CompileException):
        cunp.RawKernel(code, "k", options="-DN=4")._compile(arch=90)  # C++17 by default


@pytest.mark.parametrize("kwargs, error, match", [
    ({"options": ("-arch=sm_80",)}, ValueError, "-arch=sm_80"),
    ({"options": ("--gpu-architecture=compute_90",)}, ValueError, "gpu-architecture"),
    ({"backend": "nvcc"}, NotImplementedError, "nvcc"),
    ({"backend": "clang"}, ValueError, "clang"),
    ({"jitify": True}, NotImplementedError, "jitify"),
    ({"options": (4,)}, TypeError, "options"),
])
def test_bad_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        cunp.RawKernel(SAXPY, "saxpy", **kwargs)
    with pytest.raises(error, match=match):
        cunp.RawModule(code=SAXPY, **kwargs)


def test_translate_cucomplex_and_cooperative_flags_are_kept():
    k = cunp.RawKernel(SAXPY, "saxpy", translate_cucomplex=True, enable_cooperative_groups=True)
    assert k.translate_cucomplex and k.enable_cooperative_groups


def test_module_code_or_path(tmp_path):
    with pytest.raises(TypeError, match="one of code or path"):
        cunp.RawModule()
    with pytest.raises(TypeError, match="mutually exclusive"):
        cunp.RawModule(code=SAXPY, path=str(tmp_path / "x.cubin"))
    with pytest.raises(FileNotFoundError, match="missing.cubin"):
        cunp.RawModule(path=tmp_path / "missing.cubin")
    (tmp_path / "empty.cubin").write_bytes(b"")
    with pytest.raises(ValueError, match="empty"):
        cunp.RawModule(path=tmp_path / "empty.cubin")


def test_cu_file_is_compiled_with_its_directory_included(tmp_path):
    (tmp_path / "helpers.cuh").write_text("__device__ inline float twice(float v) { return 2 * v; }\n")
    (tmp_path / "kern.cu").write_text('#include "helpers.cuh"\n'
                                      'extern "C" __global__ void dbl(float* x) { x[0] = twice(x[0]); }\n')
    m = cunp.RawModule(path=str(tmp_path / "kern.cu"))
    assert m.file_path == str(tmp_path / "kern.cu") and m.code is None
    assert m._compile(arch=90)["cubin"]
    assert [p.type for p in m.get_function("dbl").params] == ["float*"]


def test_binary_module_has_no_declarations(tmp_path):
    cubin = cunp.RawModule(code=SAXPY)._compile(arch=90)["cubin"]
    (tmp_path / "saxpy.cubin").write_bytes(cubin)
    m = cunp.RawModule(path=tmp_path / "saxpy.cubin")
    with pytest.raises(ValueError, match="no source"):
        m._compile(arch=90)
    if "cuda" not in DEVICES:
        assert m.get_function("saxpy").params is None


# ---- argument conversion (no GPU) -------------------------------------------------------------

SCALARS = r'''
extern "C" __global__ void k(float f, double d, half h, bool b, signed char c, unsigned short us,
                             long long ll, unsigned long long ull, size_t sz, complex<float> cf,
                             complex<double> cd, int n, const float* p) {}
'''


def pack(kernel, *args, device=None):
    return kernel._pack_args(args, device)


def test_python_scalars_take_the_declared_types():
    k = cunp.RawKernel(SCALARS, "k")
    x = cunp.asarray(numpy.arange(3, dtype=numpy.float32), device="cpu")
    got = pack(k, 1.5, 2.25, 0.5, True, -3, 65535, -2**40, 2**63 + 2048, 12345, 1 + 2j, 3 - 4j, 7, x)
    want = [numpy.float32(1.5), numpy.float64(2.25), numpy.float16(0.5), numpy.bool_(True), numpy.int8(-3),
            numpy.uint16(65535), numpy.int64(-2**40), numpy.uint64(2**63 + 2048), numpy.uint64(12345),
            numpy.complex64(1 + 2j), numpy.complex128(3 - 4j), numpy.int32(7)]
    assert got[:-1] == [w.tobytes() for w in want]
    assert got[-1] == numpy.uint64(x.data.ptr).tobytes()
    # The same-kind rule: ints to floats and complex, floats to complex, bools to numbers.
    got = pack(k, 3, 4, 1, True, True, 2, 3, 4, 5, 6, 7.5, True, 2**20)
    assert got[0] == numpy.float32(3).tobytes() and got[4] == numpy.int8(1).tobytes()
    assert got[9] == numpy.complex64(6).tobytes() and got[10] == numpy.complex128(7.5).tobytes()
    assert got[11] == numpy.int32(1).tobytes()
    assert got[12] == numpy.uint64(2**20).tobytes()  # an int for a pointer is the address


def test_numpy_scalars_pass_their_exact_bytes():
    k = cunp.RawKernel(SCALARS, "k")
    args = (numpy.float32(1.5), numpy.float64(2.25), numpy.float16(0.5), numpy.bool_(True), numpy.int8(-3),
            numpy.uint16(7), numpy.int64(-5), numpy.uint64(9), numpy.uint64(10), numpy.complex64(1j),
            numpy.complex128(2j), numpy.int32(11), numpy.uint64(0))
    assert pack(k, *args) == [a.tobytes() for a in args]
    bad = list(args)
    bad[11] = numpy.int64(11)  # `int n` takes 4 bytes
    with pytest.raises(TypeError, match=r"args\[11\] \(int n\): a numpy.int64 is 8 bytes, but the parameter takes 4"):
        pack(k, *bad)
    bad = list(args)
    bad[12] = numpy.float64(0)
    with pytest.raises(TypeError, match="pointer"):
        pack(k, *bad)


@pytest.mark.parametrize("index, value, error, match", [
    (11, 2**31, OverflowError, r"2147483648 out of bounds for int32"),
    (4, 200, OverflowError, "int8"),
    (5, -1, OverflowError, "uint16"),
    (11, 2.5, TypeError, r"args\[11\] \(int n\): cannot convert a Python float to the parameter's type int"),
    (3, 1, TypeError, "bool"),
    (0, 1j, TypeError, "complex"),
    (12, 1.0, TypeError, "pointer"),
    (12, -1, OverflowError, "address"),
    (11, "7", TypeError, r"args\[11\] of type str"),
    (12, numpy.arange(3), TypeError, "numpy.ndarray"),
])
def test_conversion_errors_name_the_argument(index, value, error, match):
    k = cunp.RawKernel(SCALARS, "k")
    args = [1.0, 1.0, 1.0, True, 1, 1, 1, 1, 1, 1j, 1j, 1, 0]
    args[index] = value
    with pytest.raises(error, match=match):
        pack(k, *args)


def test_arrays_structs_and_memory_pointers():
    code = r'''
    struct Params { float scale; int count; };
    extern "C" __global__ void k(float* x, Params p, float4 v, int n) {}
    '''
    k = cunp.RawKernel(code, "k")
    x = cunp.asarray(numpy.arange(4, dtype=numpy.float32), device="cpu")
    params = numpy.array((2.5, 3), dtype=[("scale", "f4"), ("count", "i4")])[()]
    v = numpy.array((1, 2, 3, 4), dtype="f4,f4,f4,f4")[()]
    got = pack(k, x, params, v, 4)
    assert got == [numpy.uint64(x.data.ptr).tobytes(), params.tobytes(), v.tobytes(), numpy.int32(4).tobytes()]
    assert pack(k, x.data + 4, params, v, 4)[0] == numpy.uint64(x.data.ptr + 4).tobytes()
    with pytest.raises(TypeError, match=r"args\[2\] \(float4 v\): a structured scalar of 8 bytes, but the "
                                        r"parameter takes 16"):
        pack(k, x, params, params, 4)
    with pytest.raises(TypeError, match=r"args\[3\] \(int n\): an array cannot be passed to a scalar"):
        pack(k, x, params, v, x)
    with pytest.raises(TypeError, match=r"args\[2\] \(float4 v\): cannot convert a Python float to the "
                                        r"parameter's type float4 of 16 bytes"):
        pack(k, x, params, 1.0, 4)
    # A struct whose size only the driver knows: a Python int takes the int of that size
    # at launch; here (no driver) CuPy's int64.
    assert pack(k, x, 1, v, 4)[1] == numpy.int64(1).tobytes()


def test_argument_count_and_device():
    k = cunp.RawKernel(SAXPY, "saxpy")
    x = cunp.asarray(numpy.zeros(4, dtype=numpy.float32), device="cpu")
    with pytest.raises(TypeError, match=r"RawKernel 'saxpy' takes 4 arguments \(float a, const float\* "
                                        r"__restrict__ x, float\* y, int n\) but 3 were given"):
        pack(k, 1.0, x, x)
    with pytest.raises(ValueError, match=r"args\[1\] .*: the array is on cpu, but the kernel runs on cuda:0"):
        pack(k, 1.0, x, x, 4, device="cuda:0")
    # Unknown declarations: every argument passes its natural bytes (CuPy's defaults).
    m = cunp.RawKernel('extern "C" __global__ void other(int n) {}', "missing")
    assert m.params is None
    assert pack(m, 1, 2.0, True) == [numpy.int64(1).tobytes(), numpy.float64(2).tobytes(), b"\x01"]


def test_launch_arguments_are_checked_first():
    k = cunp.RawKernel(SAXPY, "saxpy")
    for grid, block, match in [(0, 32, "grid"), ((1, 2, 3, 4), 32, "1 to 3"), (1, (32, 0), "block"),
                               (1, -1, "block")]:
        with pytest.raises(ValueError, match=match):
            k(grid, block, (1.0, 0, 0, 0))
    with pytest.raises(TypeError, match="grid"):
        k(1.5, 32, (1.0, 0, 0, 0))
    with pytest.raises(TypeError, match="args must be a tuple"):
        k(1, 32, 1.0)


@pytest.mark.skipif("cuda" in DEVICES, reason="checks the behaviour without a GPU")
def test_launch_without_gpu_raises():
    k = cunp.RawKernel(SAXPY, "saxpy")
    with pytest.raises(cunp.cuda.CUDARuntimeError):
        k(1, 32, (1.0, 0, 0, 4))


# ---- caching -------------------------------------------------------------------------------------

def run_traced(script, cache_dir):
    env = dict(os.environ, CUNP_KERNEL_TRACE="1", CUNP_CACHE_DIR=str(cache_dir))
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return [line for line in out.stderr.splitlines() if line.startswith("cunp kernel:")]


def test_second_construction_hits_the_disk_cache(tmp_path):
    script = '''
    import cunp
    code = %r
    cunp.RawKernel(code, "saxpy")._compile(arch=90)
    cunp.RawKernel(code, "saxpy")._compile(arch=90)
    ''' % SAXPY
    lines = run_traced(script, tmp_path)
    assert sum("compiled" in line for line in lines) == 1
    assert sum("disk hit" in line for line in lines) == 1
    assert len(list(tmp_path.glob("*.cubin"))) == 1
    lines = run_traced(script, tmp_path)  # a new process: no compile
    assert sum("compiled" in line for line in lines) == 0


# ---- launches (GPU) ----------------------------------------------------------------------------

@needs_cuda
def test_saxpy_matches_numpy(gpu):
    n = 1000
    rng = numpy.random.default_rng(0)
    x, y = rng.standard_normal(n, dtype=numpy.float32), rng.standard_normal(n, dtype=numpy.float32)
    dx, dy = cunp.asarray(x), cunp.asarray(y)
    k = cunp.RawKernel(SAXPY, "saxpy")
    k(((n + 127) // 128,), (128,), (2.0, dx, dy, n))  # 2.0 -> float, n -> int
    # (the device may fuse a*x + y into one FMA: an absolute tolerance covers the
    # elements where y nearly cancels a*x)
    first = numpy.float32(2) * x + y
    numpy.testing.assert_allclose(dy.get(), first, rtol=1e-6, atol=1e-6)
    k((n + 127) // 128, 128, [numpy.float32(1), dx, dy, numpy.int32(n)])
    numpy.testing.assert_allclose(dy.get(), x + first, rtol=1e-6, atol=2e-6)
    k(1, 32, (0.0, dx.data.ptr, dy.data.ptr, 0))  # ints for pointers are addresses


STORE = r'''
#include <cuda_fp16.h>
#include <cunp/complex.cuh>
extern "C" __global__ void store(double* out, float f, double d, __half h, bool b, signed char c,
                                 unsigned short us, long long ll, unsigned long long ull, size_t sz,
                                 complex<float> cf, complex<double> cd, int n) {
  out[0] = f; out[1] = d; out[2] = __half2float(h); out[3] = b; out[4] = c; out[5] = us;
  out[6] = (double)ll; out[7] = (double)ull; out[8] = (double)sz;
  out[9] = cf.re; out[10] = cf.im; out[11] = cd.re; out[12] = cd.im; out[13] = n;
}
'''
STORE_ARGS = (1.5, 2.25, 0.5, True, -3, 65535, -2**40, 2**63 + 2048, 12345, 1 + 2j, 3 - 4j, 77)
STORE_WANT = [1.5, 2.25, 0.5, 1, -3, 65535, -2**40, 2.0**63 + 2048, 12345, 1, 2, 3, -4, 77]


@needs_cuda
def test_scalar_parameters_from_python_scalars(gpu):
    out = cunp.zeros(14)
    cunp.RawKernel(STORE, "store")(1, 1, (out,) + STORE_ARGS)
    assert out.get().tolist() == STORE_WANT


@needs_cuda
def test_scalar_parameters_from_numpy_scalars(gpu):
    types = (numpy.float32, numpy.float64, numpy.float16, numpy.bool_, numpy.int8, numpy.uint16, numpy.int64,
             numpy.uint64, numpy.uint64, numpy.complex64, numpy.complex128, numpy.int32)
    out = cunp.zeros(14)
    cunp.RawKernel(STORE, "store")(1, 1, (out,) + tuple(t(v) for t, v in zip(types, STORE_ARGS)))
    assert out.get().tolist() == STORE_WANT


@needs_cuda
def test_complex_arithmetic_matches_numpy(gpu):
    code = r'''
    #include <cunp/complex.cuh>
    extern "C" __global__ void cfma(const complex<double>* a, const complex<double>* b, complex<double> c,
                                    complex<double>* out, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) { complex<double> t = a[i] * b[i]; t += c; out[i] = t; }
    }
    '''
    rng = numpy.random.default_rng(1)
    a = rng.standard_normal(64) + 1j * rng.standard_normal(64)
    b = rng.standard_normal(64) + 1j * rng.standard_normal(64)
    out = cunp.empty(64, dtype=numpy.complex128)
    cunp.RawKernel(code, "cfma", options=("--fmad=false",))(1, 64, (cunp.asarray(a), cunp.asarray(b), 0.5 - 2j, out, 64))
    numpy.testing.assert_allclose(out.get(), a * b + (0.5 - 2j), rtol=1e-15)


@needs_cuda
def test_2d_and_3d_grids(gpu):
    code = r'''
    extern "C" __global__ void coords(int* out) {
      int gx = blockIdx.x * blockDim.x + threadIdx.x, gy = blockIdx.y * blockDim.y + threadIdx.y;
      int gz = blockIdx.z * blockDim.z + threadIdx.z;
      int w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;
      out[(gz * h + gy) * w + gx] = gx + 100 * gy + 10000 * gz;
    }
    '''
    k = cunp.RawKernel(code, "coords")
    out = cunp.zeros((4, 6, 8), dtype=numpy.int32)
    k((2, 3, 2), (4, 2, 2), (out,))
    z, y, x = numpy.indices((4, 6, 8))
    numpy.testing.assert_array_equal(out.get(), x + 100 * y + 10000 * z)
    out2 = cunp.zeros((6, 8), dtype=numpy.int32)
    k((2, 3), (4, 2), (out2,))
    numpy.testing.assert_array_equal(out2.get(), (x + 100 * y)[0])


@needs_cuda
def test_dynamic_shared_memory(gpu):
    code = r'''
    extern "C" __global__ void block_reverse(const float* x, float* y) {
      extern __shared__ float buf[];
      int t = threadIdx.x, base = blockIdx.x * blockDim.x;
      buf[t] = x[base + t];
      __syncthreads();
      y[base + t] = buf[blockDim.x - 1 - t];
    }
    '''
    x = numpy.arange(512, dtype=numpy.float32)
    y = cunp.empty(512, dtype=numpy.float32)
    cunp.RawKernel(code, "block_reverse")(4, 128, (cunp.asarray(x), y), shared_mem=128 * 4)
    numpy.testing.assert_array_equal(y.get(), x.reshape(4, 128)[:, ::-1].ravel())


@needs_cuda
def test_stream_argument(gpu):
    k = cunp.RawKernel(SAXPY, "saxpy")
    s = cunp.cuda.Stream(non_blocking=True)
    with s:
        x = cunp.ones(256, dtype=numpy.float32)
        y = cunp.zeros(256, dtype=numpy.float32)
    s.synchronize()
    k(2, 128, (3.0, x, y, 256), stream=s)
    s.synchronize()
    assert (y.get() == 3).all()
    k(2, 128, (1.0, x, y, 256), stream=cunp.cuda.Stream.null)
    cunp.cuda.Stream.null.synchronize()
    assert (y.get() == 4).all()
    with s:
        k(2, 128, (1.0, x, y, 256))  # the current stream
    s.synchronize()
    assert (y.get() == 5).all()


@needs_cuda
def test_attributes(gpu):
    k = cunp.RawKernel(SAXPY, "saxpy")
    a = k.attributes
    assert set(a) == {"max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes",
                      "num_regs", "ptx_version", "binary_version", "cache_mode_ca",
                      "max_dynamic_shared_size_bytes", "preferred_shared_memory_carveout"}
    assert 0 < a["max_threads_per_block"] <= 1024 and a["num_regs"] > 0
    assert a["shared_size_bytes"] == 0 and a["local_size_bytes"] == 0
    assert a["binary_version"] // 10 == device_arch() // 10
    assert k.num_regs == a["num_regs"] and k.max_threads_per_block == a["max_threads_per_block"]
    k.preferred_shared_memory_carveout = 50
    assert k.preferred_shared_memory_carveout == 50
    with pytest.raises(ValueError, match="carveout"):
        k.preferred_shared_memory_carveout = 101


@needs_cuda
def test_max_dynamic_shared_size_bytes(gpu):
    code = r'''
    extern "C" __global__ void big_shared(unsigned* out, int n) {
      extern __shared__ unsigned buf[];
      for (int i = threadIdx.x; i < n; i += blockDim.x) buf[i] = i;
      __syncthreads();
      if (threadIdx.x == 0) { unsigned s = 0; for (int i = 0; i < n; ++i) s += buf[i]; out[0] = s; }
    }
    '''
    k = cunp.RawKernel(code, "big_shared")
    nbytes = 96 * 1024
    n = nbytes // 4
    out = cunp.zeros(1, dtype=numpy.uint32)
    with pytest.raises(cunp.cuda.CUDARuntimeError):
        k(1, 256, (out, n), shared_mem=nbytes)  # above the 48 KiB default
    k.max_dynamic_shared_size_bytes = nbytes
    assert k.max_dynamic_shared_size_bytes == nbytes
    assert k.attributes["max_dynamic_shared_size_bytes"] == nbytes
    k(1, 256, (out, n), shared_mem=nbytes)
    assert int(out.get()[0]) == n * (n - 1) // 2


@needs_cuda
def test_cooperative_launch_with_grid_sync(gpu):
    k = cunp.RawKernel(TWO_PHASE, "two_phase", enable_cooperative_groups=True)
    n = 8 * 128
    x, out = cunp.zeros(n, dtype=numpy.float32), cunp.zeros(n, dtype=numpy.float32)
    k(8, 128, (x, out, n))
    numpy.testing.assert_array_equal(out.get(), numpy.arange(n, dtype=numpy.float32)[::-1])


MODULE = r'''
__device__ float table[4];
__device__ int factor;
__constant__ float coeffs[2] = {1.5f, 2.5f};
extern "C" __global__ void add_one(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] += 1; }
extern "C" __global__ void times_two(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }
extern "C" __global__ void use_table(float* out) {
  int i = threadIdx.x; out[i] = table[i] * factor; table[i] += 1;
}
template <typename T> __global__ void fill(T* x, T v, int n) { int i = threadIdx.x; if (i < n) x[i] = v; }
'''


@needs_cuda
def test_module_with_several_kernels(gpu):
    m = cunp.RawModule(code=MODULE)
    add_one, times_two = m.get_function("add_one"), m.get_function("times_two")
    x = cunp.asarray(numpy.arange(8, dtype=numpy.float32))
    add_one(1, 8, (x, 8))
    times_two(1, 8, (x, 8))
    numpy.testing.assert_array_equal(x.get(), (numpy.arange(8) + 1) * 2)
    with pytest.raises(cunp.cuda.CUDARuntimeError, match=r"no kernel 'nope'.*add_one"):
        m.get_function("nope")


@needs_cuda
def test_templates_through_name_expressions(gpu):
    m = cunp.RawModule(code=MODULE, name_expressions=("fill<float>", "fill<double>", "fill<int>"))
    for name, dtype, value in [("fill<float>", numpy.float32, 0.1), ("fill<double>", numpy.float64, 0.1),
                               ("fill<int>", numpy.int32, -7)]:
        x = cunp.zeros(5, dtype=dtype)
        m.get_function(name)(1, 32, (x, value, 5))  # the value converted to T
        numpy.testing.assert_array_equal(x.get(), numpy.full(5, value, dtype=dtype))


@needs_cuda
def test_get_global_reads_and_writes(gpu):
    m = cunp.RawModule(code=MODULE)
    ptr = m.get_global("table")
    assert isinstance(ptr, cunp.cuda.MemoryPointer) and ptr.size == 16 and ptr.device_id == 0
    table = cunp.ndarray((4,), numpy.float32, memptr=ptr)
    table[:] = cunp.asarray(numpy.array([1, 2, 3, 4], dtype=numpy.float32))
    factor = cunp.ndarray((1,), numpy.int32, memptr=m.get_global("factor"))
    factor[:] = 3
    out = cunp.zeros(4, dtype=numpy.float32)
    m.get_function("use_table")(1, 4, (out,))
    numpy.testing.assert_array_equal(out.get(), [3, 6, 9, 12])
    numpy.testing.assert_array_equal(table.get(), [2, 3, 4, 5])
    coeffs = cunp.ndarray((2,), numpy.float32, memptr=m.get_global("coeffs"))  # __constant__ too
    numpy.testing.assert_array_equal(coeffs.get(), [1.5, 2.5])
    with pytest.raises(cunp.cuda.CUDARuntimeError, match="no __device__ variable 'nope'"):
        m.get_global("nope")


@needs_cuda
def test_loading_an_nvrtc_cubin(gpu, tmp_path):
    path = tmp_path / "saxpy.cubin"
    path.write_bytes(cunp.RawModule(code=SAXPY)._compile(arch=device_arch())["cubin"])
    k = cunp.RawModule(path=str(path)).get_function("saxpy")
    assert k.params is None  # no source: the driver's layout decides (float a: 4 bytes, int n: 4 bytes)
    x, y = cunp.ones(100, dtype=numpy.float32), cunp.ones(100, dtype=numpy.float32)
    k(1, 128, (2.0, x, y, 100))
    assert (y.get() == 3).all()
    with pytest.raises(TypeError, match="8 bytes, but the parameter takes 4"):
        k(1, 128, (numpy.float64(2.0), x, y, 100))


NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)


@needs_cuda
@pytest.mark.skipif(NVCC is None, reason="needs nvcc")
@pytest.mark.parametrize("flag, suffix", [("-cubin", ".cubin"), ("-ptx", ".ptx"), ("-fatbin", ".fatbin")])
def test_loading_nvcc_output(gpu, tmp_path, flag, suffix):
    src = tmp_path / "saxpy.cu"
    src.write_text(SAXPY)
    out = tmp_path / ("saxpy" + suffix)
    arch = device_arch()
    target = "compute_%d" % arch if flag == "-ptx" else "sm_%d" % arch
    subprocess.run([NVCC, flag, "-arch=" + target, "-o", str(out), str(src)], check=True, timeout=300)
    k = cunp.RawModule(path=out).get_function("saxpy")
    x, y = cunp.ones(64, dtype=numpy.float32), cunp.zeros(64, dtype=numpy.float32)
    k(1, 64, (5.0, x, y, 64))
    assert (y.get() == 5).all()


@needs_cuda
def test_cu_file_launch(gpu, tmp_path):
    (tmp_path / "k.cu").write_text(SAXPY)
    k = cunp.RawModule(path=tmp_path / "k.cu").get_function("saxpy")
    x, y = cunp.ones(64, dtype=numpy.float32), cunp.zeros(64, dtype=numpy.float32)
    k(1, 64, (4.0, x, y, 64))
    assert (y.get() == 4).all()


@needs_cuda
def test_errors_on_the_gpu(gpu):
    k = cunp.RawKernel(SAXPY, "saxpy")
    y = cunp.zeros(4, dtype=numpy.float32)
    with cunp.Device("cpu"):
        x_cpu = cunp.zeros(4, dtype=numpy.float32)
    with pytest.raises(ValueError, match=r"args\[1\].*on cpu, but the kernel runs on cuda:0"):
        k(1, 4, (1.0, x_cpu, y, 4))
    with pytest.raises(TypeError, match="takes 4 arguments"):
        k(1, 4, (1.0, y, 4))
    with pytest.raises(cunp.cuda.CUDARuntimeError, match="no kernel 'saxpy2'"):
        cunp.RawKernel(SAXPY, "saxpy2").compile()


@needs_cuda
def test_second_construction_does_not_recompile(tmp_path):
    script = '''
    import cunp
    code = %r
    for _ in range(2):
        y = cunp.zeros(32, dtype="float32")
        cunp.RawKernel(code, "saxpy")(1, 32, (1.0, y, y, 32))
    cunp.cuda.Device().synchronize()
    ''' % SAXPY
    lines = run_traced(script, tmp_path)
    assert sum("compiled" in line and "saxpy" in line for line in lines) == 1
    assert sum("memory hit saxpy" in line for line in lines) == 1
    lines = run_traced(script, tmp_path)
    assert not any("compiled" in line and "saxpy" in line for line in lines)
    assert any("disk hit" in line and "saxpy" in line for line in lines)


# ---- the examples of docs/kernels.md ---------------------------------------------------------

def doc_examples():
    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "kernels.md").read_text()
    section = text[text.index("## RawKernel"):text.index("## Not supported yet")]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_doc_examples_are_found():
    assert len(doc_examples()) == 4


@needs_cuda
def test_doc_examples_run(gpu):
    namespace = {}
    for code in doc_examples():
        exec(compile(code, "docs/kernels.md", "exec"), namespace)

// ElementwiseKernel: parsing, type resolution, source generation and NVRTC compiles
// run without a GPU (cpu arrays describe the arguments); launches need one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "kernel/user_elementwise.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/kernel.hpp"
#include "cunp/stream.hpp"

namespace cunp {
namespace {

using cuda::user::ArgKind;
using cuda::user::ArgType;
using cuda::user::parse_signature;
using cuda::user::resolve_types;

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

ArgType array_of(DType dt) { return {ArgType::Kind::Array, dt, false}; }
ArgType weak_scalar(DType dt) { return {ArgType::Kind::Scalar, dt, true}; }
ArgType strong_scalar(DType dt) { return {ArgType::Kind::Scalar, dt, false}; }
ArgType absent() { return {}; }

ndarray cpu_array(const Shape& shape, DType dt) {
  return empty(shape, {.dtype = dt, .device = Device::cpu()});
}

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// Compiles a source for sm_90 (no GPU involved); returns milliseconds.
double compile_ms(const cuda::KernelSource& src) {
  cuda::CompileOptions options = src.options;
  options.arch = 90;
  const auto t0 = std::chrono::steady_clock::now();
  const cuda::CompiledProgram prog = cuda::compile_to_cubin(src.source, src.kernel_name, options);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GT(prog.cubin.size(), 4u);
  return ms;
}

cuda::KernelSource source_of(const ElementwiseKernel& k, const std::vector<KernelArg>& args,
                             const KernelCallOptions& call = {}) {
  cuda::KernelSource s;
  s.kernel_name = k.name();
  s.source = k.cuda_source(args, call);
  s.options.extra_options = k.options().options;
  return s;
}

// ---- parsing ---------------------------------------------------------------------------

TEST(ElementwiseKernelParse, PlaceholdersFixedAndRaw) {
  const auto sig = parse_signature(" T x, raw T y ,float32 z, Ta w", "U out,  bool flag");
  ASSERT_EQ(sig.nin, 4);
  ASSERT_EQ(sig.nout, 2);
  EXPECT_EQ(sig.params[0].name, "x");
  EXPECT_EQ(sig.params[0].type, "T");
  EXPECT_FALSE(sig.params[0].dtype);
  EXPECT_TRUE(sig.params[1].raw);
  EXPECT_EQ(sig.placeholder[0], sig.placeholder[1]);
  EXPECT_EQ(sig.params[2].dtype, DType::Float32);
  EXPECT_EQ(sig.placeholder[2], -1);
  EXPECT_EQ(sig.placeholders, (std::vector<std::string>{"T", "Ta", "U"}));
  EXPECT_EQ(sig.params[5].dtype, DType::Bool);
  EXPECT_TRUE(parse_signature("", "").params.empty());
  EXPECT_EQ(parse_signature("complex128 a, float16 b, uint64 c", "").params[1].dtype, DType::Float16);
}

TEST(ElementwiseKernelParse, SingleLettersArePlaceholdersEvenIfNumPyKnowsThem) {
  // 'f' and 'd' are NumPy type codes, but single letters are always placeholders.
  const auto sig = parse_signature("f x, d y", "f z");
  EXPECT_FALSE(sig.params[0].dtype);
  EXPECT_EQ(sig.placeholders, (std::vector<std::string>{"f", "d"}));
}

TEST(ElementwiseKernelParse, Errors) {
  EXPECT_THROW(parse_signature("T", ""), ValueError);
  EXPECT_THROW(parse_signature("T x,", ""), ValueError);
  EXPECT_THROW(parse_signature("const T x", ""), ValueError);
  EXPECT_THROW(parse_signature("T i", ""), ValueError);
  EXPECT_THROW(parse_signature("T _ind", ""), ValueError);
  EXPECT_THROW(parse_signature("T x, T x", ""), ValueError);
  EXPECT_THROW(parse_signature("T x", "T x"), ValueError);
  EXPECT_THROW(parse_signature("T 1x", ""), ValueError);
  EXPECT_THROW(parse_signature("T* x", ""), ValueError);
  // NumPy would accept these spellings, CuPy (and cunp) want the dtype's name.
  EXPECT_NE(error_of([] { parse_signature("float x", ""); }).find("float64"), std::string::npos);
  EXPECT_THROW(parse_signature("f4 x", ""), ValueError);
  EXPECT_THROW(parse_signature("double x", ""), ValueError);
  EXPECT_THROW(ElementwiseKernel("T x", "T y", "y = x", "not a name"), ValueError);
  EXPECT_THROW(ElementwiseKernel("T x", "T y", "y = x", "1abc"), ValueError);
}

// ---- type resolution -------------------------------------------------------------------

TEST(ElementwiseKernelTypes, SamePlaceholderSameType) {
  const auto sig = parse_signature("T x, T y", "T z");
  const std::vector<ArgType> ok = {array_of(DType::Float32), array_of(DType::Float32), absent()};
  EXPECT_EQ(resolve_types(sig, ok, "k"),
            (std::vector<DType>{DType::Float32, DType::Float32, DType::Float32}));
  const std::vector<ArgType> bad = {array_of(DType::Float32), array_of(DType::Int32), absent()};
  EXPECT_THROW(resolve_types(sig, bad, "k"), TypeError);
  const std::string msg = error_of([&] { resolve_types(sig, bad, "k"); });
  EXPECT_NE(msg.find("'T'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'y'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("int32"), std::string::npos) << msg;
}

TEST(ElementwiseKernelTypes, FixedDtypesMustMatchExactly) {
  const auto sig = parse_signature("float32 x, T y", "float64 z");
  EXPECT_EQ(resolve_types(sig, std::vector<ArgType>{array_of(DType::Float32), array_of(DType::Int8), absent()}, "k"),
            (std::vector<DType>{DType::Float32, DType::Int8, DType::Float64}));
  EXPECT_THROW(resolve_types(sig, std::vector<ArgType>{array_of(DType::Float64), array_of(DType::Int8), absent()}, "k"),
               TypeError);
  // A given output of another dtype than its fixed one.
  EXPECT_THROW(resolve_types(sig, std::vector<ArgType>{array_of(DType::Float32), array_of(DType::Int8),
                                                       array_of(DType::Float32)},
                             "k"),
               TypeError);
}

TEST(ElementwiseKernelTypes, OutputsBindFirst) {
  const auto sig = parse_signature("T x", "T z");
  EXPECT_THROW(resolve_types(sig, std::vector<ArgType>{array_of(DType::Float32), array_of(DType::Float64)}, "k"),
               TypeError);
  const auto sig2 = parse_signature("T x", "U z");
  EXPECT_EQ(resolve_types(sig2, std::vector<ArgType>{array_of(DType::Float32), array_of(DType::Int16)}, "k"),
            (std::vector<DType>{DType::Float32, DType::Int16}));
  // An output placeholder the inputs do not decide needs the output array.
  const std::string msg =
      error_of([&] { resolve_types(sig2, std::vector<ArgType>{array_of(DType::Float32), absent()}, "k"); });
  EXPECT_NE(msg.find("'U'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("output"), std::string::npos) << msg;
}

TEST(ElementwiseKernelTypes, ScalarsAreWeak) {
  const auto sig = parse_signature("T x, T y", "T z");
  // A Python float next to a float32 array stays float32; an int next to int8 stays int8.
  EXPECT_EQ(resolve_types(sig, std::vector<ArgType>{array_of(DType::Float32), weak_scalar(DType::Float64), absent()}, "k")[1],
            DType::Float32);
  EXPECT_EQ(resolve_types(sig, std::vector<ArgType>{weak_scalar(DType::Int64), array_of(DType::Int8), absent()}, "k")[0],
            DType::Int8);
  // Only scalars: NumPy's defaults / result_type.
  EXPECT_EQ(resolve_types(sig, std::vector<ArgType>{weak_scalar(DType::Int64), weak_scalar(DType::Int64), absent()}, "k")[2],
            DType::Int64);
  EXPECT_EQ(resolve_types(sig, std::vector<ArgType>{weak_scalar(DType::Int64), weak_scalar(DType::Float64), absent()}, "k")[2],
            DType::Float64);
  EXPECT_EQ(resolve_types(sig, std::vector<ArgType>{strong_scalar(DType::Float32), weak_scalar(DType::Int64), absent()}, "k")[2],
            DType::Float32);
  // A fixed parameter converts its scalar.
  const auto fixed = parse_signature("int16 n, T x", "T z");
  EXPECT_EQ(resolve_types(fixed, std::vector<ArgType>{weak_scalar(DType::Float64), array_of(DType::UInt8), absent()}, "k")[0],
            DType::Int16);
  // A scalar may not be an output.
  EXPECT_THROW(resolve_types(sig, std::vector<ArgType>{array_of(DType::Float32), array_of(DType::Float32),
                                                       weak_scalar(DType::Float64)},
                             "k"),
               TypeError);
}

// ---- calls without a GPU: shapes, outputs, sources -------------------------------------

TEST(ElementwiseKernelCall, ArgumentCounts) {
  ElementwiseKernel k("T x, T y", "T z", "z = x + y", "add2");
  const ndarray a = cpu_array({3}, DType::Float32);
  EXPECT_THROW(k.cuda_source({a}), TypeError);
  EXPECT_THROW(k.cuda_source({a, a, a, a}), TypeError);
  EXPECT_NE(error_of([&] { k.cuda_source({a}); }).find("either 2 or 3"), std::string::npos);
  EXPECT_EQ(k.nin(), 2);
  EXPECT_EQ(k.nout(), 1);
  EXPECT_EQ(k.nargs(), 3);
  EXPECT_EQ(k.in_params()[1].name, "y");
  EXPECT_EQ(k.out_params()[0].type, "T");
}

TEST(ElementwiseKernelCall, CpuArraysRaiseAClearError) {
  ElementwiseKernel k("T x, T y", "T z", "z = x + y", "add2");
  const ndarray a = cpu_array({3}, DType::Float32);
  const std::string msg = error_of([&] { k({a, a}); });
  EXPECT_NE(msg.find("ElementwiseKernel needs a CUDA device; this array is on cpu"), std::string::npos) << msg;
  EXPECT_THROW(k({a, a}), TypeError);
}

TEST(ElementwiseKernelCall, ContiguousSource) {
  ElementwiseKernel k("T x, T y, T c", "T z", "z = x * y + c", "fma_k");
  const ndarray a = cpu_array({4, 5}, DType::Float32);
  const std::string src = k.cuda_source({a, a, 2.5});
  EXPECT_NE(src.find("typedef float T;"), std::string::npos) << src;
  EXPECT_NE(src.find("extern \"C\" __global__ void fma_k("), std::string::npos) << src;
  EXPECT_NE(src.find("const T c"), std::string::npos) << src;  // the scalar, by value
  EXPECT_NE(src.find("const T& x = _cunp_p_x[_cunp_i];"), std::string::npos) << src;
  EXPECT_NE(src.find("T& z = _cunp_p_z[_cunp_i];"), std::string::npos) << src;
  EXPECT_NE(src.find("z = x * y + c;"), std::string::npos) << src;
  EXPECT_EQ(src.find("__grid_constant__ cunp_ek::strided"), std::string::npos) << src;
  EXPECT_EQ(src.find("half.h"), std::string::npos);  // no float16 support code unless needed
  compile_ms(source_of(k, {a, a, 2.5}));
}

TEST(ElementwiseKernelCall, BroadcastAndStridedSource) {
  ElementwiseKernel k("T x, T y", "T z", "z = x - y", "sub_k");
  const ndarray a = cpu_array({4, 5}, DType::Float64);
  const ndarray row = cpu_array({5}, DType::Float64);
  const std::string src = k.cuda_source({a, row});
  EXPECT_NE(src.find("__grid_constant__ cunp_ek::strided<int, 2, 3>"), std::string::npos) << src;
  compile_ms(source_of(k, {a, row}));
  // A transposed input: strided as well, and `i` stays the C-order index.
  const std::string t = k.cuda_source({a.T(), cpu_array({5, 4}, DType::Float64)});
  EXPECT_NE(t.find("cunp_ek::strided<int, 2, 3>"), std::string::npos) << t;
  // Shapes that do not broadcast.
  EXPECT_THROW(k.cuda_source({a, cpu_array({4}, DType::Float64)}), ValueError);
  // Given outputs take part in broadcasting and must have the loop's shape.
  EXPECT_NO_THROW(k.cuda_source({row, row, cpu_array({4, 5}, DType::Float64)}));
  EXPECT_THROW(k.cuda_source({a, row, cpu_array({5}, DType::Float64)}), ValueError);
  EXPECT_THROW(k.cuda_source({a, row, cpu_array({1, 5}, DType::Float64)}), ValueError);
}

TEST(ElementwiseKernelCall, RawParamsAndSize) {
  ElementwiseKernel rev("raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse_k");
  const ndarray a = cpu_array({10}, DType::Int32);
  // Every array is raw: the loop size must be given...
  EXPECT_THROW(rev.cuda_source({a}), ValueError);
  const std::string src = rev.cuda_source({a}, {.size = 10});
  EXPECT_NE(src.find("cunp_ek::raw<T, 1, true> x"), std::string::npos) << src;
  compile_ms(source_of(rev, {a}, {.size = 10}));
  // ... and is refused when a non-raw array decides it.
  ElementwiseKernel k("raw T x, T y", "T z", "z = x[i] + y", "raw_plus");
  EXPECT_THROW(k.cuda_source({a, a}, {.size = 10}), ValueError);
  // A strided raw array indexes through its strides.
  const ndarray m = cpu_array({4, 6}, DType::Float32);
  const std::string s2 = k.cuda_source({m.T(), cpu_array({6, 4}, DType::Float32)});
  EXPECT_NE(s2.find("cunp_ek::raw<T, 2, false> x"), std::string::npos) << s2;
  compile_ms(source_of(k, {m.T(), cpu_array({6, 4}, DType::Float32)}));
  // Raw outputs need the size when allocated.
  ElementwiseKernel fill("T v", "raw T out", "out[i] = v", "fill_k");
  EXPECT_THROW(fill.cuda_source({1.0}), ValueError);
  EXPECT_NO_THROW(fill.cuda_source({1.0}, {.size = 5}));
}

TEST(ElementwiseKernelCall, ScalarOverflow) {
  ElementwiseKernel k("T x, T y", "T z", "z = x + y", "add_k");
  const ndarray a = cpu_array({3}, DType::Int8);
  EXPECT_THROW(k.cuda_source({a, 300}), OverflowError);
  EXPECT_NO_THROW(k.cuda_source({a, 100}));
}

TEST(ElementwiseKernelCall, EveryDtypeCompiles) {
  // One program per dtype through NVRTC: typedefs, float16 and complex support code,
  // bool, by-value scalars of each dtype.
  ElementwiseKernel k("T x, T s", "T z", "z = x; z = s", "copy_k");
  for (int d = 0; d < kNumDTypes; ++d) {
    const DType dt = static_cast<DType>(d);
    const ndarray a = cpu_array({8}, dt);
    SCOPED_TRACE(std::string(name(dt)));
    compile_ms(source_of(k, {a, Scalar::of(dt, 1)}));
  }
  ElementwiseKernel arith("T x, T y", "T z", "z = x * y + (T)1; z += x; z = -z / (x + y)", "arith_k");
  for (DType dt : {DType::Int8, DType::UInt16, DType::Int64, DType::Float16, DType::Float32, DType::Float64}) {
    SCOPED_TRACE(std::string(name(dt)));
    const ndarray a = cpu_array({8}, dt);
    compile_ms(source_of(arith, {a, a}));
  }
  ElementwiseKernel cx("T x, T y", "T z, R r", "z = x * y + x / y - conj(x); z = exp(z) + sqrt(x); r = abs(z) + real(x) + imag(y)",
                       "complex_k");
  for (DType dt : {DType::Complex64, DType::Complex128}) {
    SCOPED_TRACE(std::string(name(dt)));
    const ndarray a = cpu_array({8}, dt);
    const std::string src = cx.cuda_source({a, a, a, cpu_array({8}, real_dtype(dt))});
    EXPECT_NE(src.find(dt == DType::Complex64 ? "typedef complex<float> T;" : "typedef complex<double> T;"),
              std::string::npos);
    compile_ms(source_of(cx, {a, a, a, cpu_array({8}, real_dtype(dt))}));
  }
}

TEST(ElementwiseKernelCall, PreambleLoopPrepOptions) {
  ElementwiseKernel k("T x", "T z", "z = square(x) * SCALE + acc", "pre_k",
                      {.options = {"-DSCALE=3"},
                       .preamble = "template <typename U> __device__ U square(U v) { return v * v; }",
                       .loop_prep = "T acc = 0;",
                       .after_loop = "(void)acc;"});
  const ndarray a = cpu_array({8}, DType::Float32);
  const std::string src = k.cuda_source({a});
  EXPECT_LT(src.find("typedef float T;"), src.find("__device__ U square"));
  EXPECT_LT(src.find("T acc = 0;"), src.find("for (unsigned int _cunp_i"));
  compile_ms(source_of(k, {a}));
}

TEST(ElementwiseKernelCall, CompileErrorCarriesTheLog) {
  ElementwiseKernel k("T x", "T z", "z = x + undefined_thing", "bad_k");
  const ndarray a = cpu_array({8}, DType::Float32);
  try {
    compile_ms(source_of(k, {a}));
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(e.log().find("undefined_thing"), std::string::npos) << e.log();
    EXPECT_NE(std::string(e.what()).find("bad_k"), std::string::npos);
  }
}

// Not a check: prints NVRTC's time for a typical kernel (a*b+c, float32, contiguous)
// and a strided one, on this machine, for sm_90.
TEST(ElementwiseKernelCall, MeasureCompileTime) {
  ElementwiseKernel k("T a, T b, T c", "T z", "z = a * b + c", "fma_measure");
  const ndarray a = cpu_array({1000}, DType::Float32);
  const ndarray m = cpu_array({100, 100}, DType::Float32);
  compile_ms(source_of(k, {a, a, a}));  // NVRTC's start-up, paid once per process
  double best = 1e9, best_strided = 1e9;
  for (int r = 0; r < 3; ++r) {
    best = std::min(best, compile_ms(source_of(k, {a, a, a})));
    best_strided = std::min(best_strided, compile_ms(source_of(k, {m.T(), m, m})));
  }
  const std::size_t bytes = k.cuda_source({a, a, a}).size();
  std::printf("[ measure  ] ElementwiseKernel a*b+c: NVRTC %.1f ms contiguous, %.1f ms 2-d strided; source %zu bytes\n",
              best, best_strided, bytes);
}

// ---- on a GPU ---------------------------------------------------------------------------

template <typename T>
std::vector<T> random_values(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-10, 10);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(dist(rng));
  return v;
}

TEST(ElementwiseKernelGpu, FmaContiguousAndMemo) {
  SKIP_WITHOUT_GPU();
  const Device dev = Device::cuda(0);
  ElementwiseKernel k("T a, T b, T c", "T z", "z = a * b + c", "fma_gpu");
  const std::size_t n = 100003;
  const auto va = random_values<float>(n, 1), vb = random_values<float>(n, 2), vc = random_values<float>(n, 3);
  const ndarray a = asarray(va, dev), b = asarray(vb, dev), c = asarray(vc, dev);
  const ndarray z = k({a, b, c})[0];
  EXPECT_EQ(z.dtype(), DType::Float32);
  EXPECT_EQ(z.shape(), Shape{static_cast<std::int64_t>(n)});
  // NVRTC contracts a * b + c into one fused multiply-add (as CuPy's kernels do).
  const auto vz = z.to_vector<float>();
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(vz[i], std::fma(va[i], vb[i], vc[i])) << i;
  EXPECT_EQ(k.cached_kernel_count(), 1u);
  k({a, b, c});
  EXPECT_EQ(k.cached_kernel_count(), 1u);
  // Another dtype is another kernel.
  k({a.astype(DType::Float64), b.astype(DType::Float64), c.astype(DType::Float64)});
  EXPECT_EQ(k.cached_kernel_count(), 2u);
  // With --fmad=false the product is rounded first, as NumPy computes it.
  ElementwiseKernel sep("T a, T b, T c", "T z", "z = a * b + c", "fma_gpu_sep", {.options = {"--fmad=false"}});
  const auto vs = sep({a, b, c})[0].to_vector<float>();
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(vs[i], va[i] * vb[i] + vc[i]) << i;
}

TEST(ElementwiseKernelGpu, BroadcastScalarAndGivenOutput) {
  SKIP_WITHOUT_GPU();
  const Device dev = Device::cuda(0);
  ElementwiseKernel k("T x, T y, T s", "T z", "z = (x - y) * s", "bcast_gpu");
  const auto vx = random_values<double>(12, 4), vy = random_values<double>(4, 5);
  const ndarray x = asarray(vx, dev).reshape({3, 4});
  const ndarray y = asarray(vy, dev);
  ndarray out = empty({3, 4}, {.dtype = DType::Float64, .device = dev});
  const auto res = k({x, y, 2, out});
  EXPECT_TRUE(res[0].data() == out.data());
  const auto vz = out.to_vector<double>();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) EXPECT_DOUBLE_EQ(vz[r * 4 + c], (vx[r * 4 + c] - vy[c]) * 2);
}

TEST(ElementwiseKernelGpu, TransposedInputUsesCOrderIndex) {
  SKIP_WITHOUT_GPU();
  const Device dev = Device::cuda(0);
  ElementwiseKernel k("T x", "T z, int64 idx", "z = x; idx = i", "tr_gpu");
  const auto vx = random_values<float>(6 * 7, 6);
  const ndarray x = asarray(vx, dev).reshape({6, 7});
  const auto res = k({x.T()});
  const auto vz = res[0].to_vector<float>();
  const auto vi = res[1].to_vector<std::int64_t>();
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 6; ++c) {
      EXPECT_EQ(vz[r * 6 + c], vx[c * 7 + r]);
      EXPECT_EQ(vi[r * 6 + c], r * 6 + c);
    }
}

TEST(ElementwiseKernelGpu, RawReverse) {
  SKIP_WITHOUT_GPU();
  const Device dev = Device::cuda(0);
  ElementwiseKernel k("raw T x", "T y", "y = x[_ind.size() - i - 1]", "rev_gpu");
  std::vector<std::int32_t> v(1000);
  for (int i = 0; i < 1000; ++i) v[i] = i * 3;
  const ndarray x = asarray(v, dev);
  const auto y = k({x}, {.size = 1000})[0].to_vector<std::int32_t>();
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(y[i], v[999 - i]);
  // Strided raw arrays index in C order through their strides.
  ElementwiseKernel k2("raw T x, T y", "T z", "z = x[_ind.size() - i - 1] + y", "rev2_gpu");
  const ndarray m = x.reshape({20, 50}).T();  // (50, 20), not contiguous
  const ndarray zero = zeros({50, 20}, {.dtype = DType::Int32, .device = dev});
  const auto z = k2({m, zero})[0].to_vector<std::int32_t>();
  const auto mv = m.copy().to_vector<std::int32_t>();
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(z[i], mv[999 - i]);
}

TEST(ElementwiseKernelGpu, Float16AndBool) {
  SKIP_WITHOUT_GPU();
  const Device dev = Device::cuda(0);
  ElementwiseKernel k("T x, T y", "T z, bool gt", "z = x * y; gt = x > y", "h_gpu");
  const auto vx = random_values<float>(64, 7), vy = random_values<float>(64, 8);
  const ndarray x = asarray(vx, dev).astype(DType::Float16), y = asarray(vy, dev).astype(DType::Float16);
  const auto res = k({x, y});
  EXPECT_EQ(res[0].dtype(), DType::Float16);
  const auto z = res[0].astype(DType::Float32).to_vector<float>();
  const auto xs = x.astype(DType::Float32).to_vector<float>(), ys = y.astype(DType::Float32).to_vector<float>();
  const auto gt = res[1].to_vector<bool>();
  for (int i = 0; i < 64; ++i) {
    const float expect = float16_to_float(float_to_float16(xs[i] * ys[i]));
    EXPECT_EQ(z[i], expect) << i;
    EXPECT_EQ(gt[i], xs[i] > ys[i]) << i;
  }
}

TEST(ElementwiseKernelGpu, EmptyAndZeroDim) {
  SKIP_WITHOUT_GPU();
  const Device dev = Device::cuda(0);
  ElementwiseKernel k("T x", "T z", "z = x + 1", "inc_gpu");
  const auto res = k({empty({0, 3}, {.dtype = DType::Float32, .device = dev})});
  EXPECT_EQ(res[0].shape(), (Shape{0, 3}));
  EXPECT_EQ(k.cached_kernel_count(), 0u);
  const ndarray s = full({}, 41.0, {.dtype = DType::Float64, .device = dev});
  EXPECT_EQ(k({s})[0].item().to_double(), 42.0);
}

TEST(ElementwiseKernelGpu, NoReturnAndStream) {
  SKIP_WITHOUT_GPU();
  const Device dev = Device::cuda(0);
  ElementwiseKernel k("T x", "T z", "z = x * 2", "nr_gpu", {.no_return = true});
  const ndarray x = asarray(std::vector<float>{1, 2, 3}, dev);
  ndarray z = empty({3}, {.dtype = DType::Float32, .device = dev});
  const Stream s = Stream::create(0, true);
  EXPECT_TRUE(k({x, z}, {.stream = s}).empty());
  s.synchronize();
  EXPECT_EQ(z.to_vector<float>(), (std::vector<float>{2, 4, 6}));
}

}  // namespace
}  // namespace cunp

// cunp::fuse (cunp/fuse.hpp): traced dtypes and errors, results on the cpu device
// against the same lambda run op by op on ndarrays, the generated CUDA source compiled
// with NVRTC (no GPU needed), and runs on a CUDA device (skipped without one).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/fuse.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

ndarray host(const Shape& shape, DType dt, double start = 1) {
  return arange(Scalar(start), Scalar(start + static_cast<double>(shape_size(shape))), Scalar(1.0),
                {.dtype = dt, .device = Device::cpu()})
      .reshape(shape);
}

void expect_same(const ndarray& got, const ndarray& want) {
  ASSERT_EQ(got.dtype(), want.dtype());
  ASSERT_EQ(got.shape(), want.shape());
  EXPECT_TRUE(array_equal(got.to(Device::cpu()), want.to(Device::cpu()), true)) << got << "\n vs \n"
                                                                                << want;
}

// Compiles a fused call's source for sm_90 through the disk cache (no GPU); its size.
template <typename F, typename... A>
std::size_t compile(const F& f, const A&... args) {
  cuda::KernelSource source;
  source.kernel_name = f.function().kernel_name();
  source.source = f.cuda_source(args...);
  source.options.extra_options = {"--fmad=false"};
  return cuda::compile_cached(source, 90, cuda::DiskCache::global()).cubin.size();
}

auto dist = [](auto x, auto y) { return sqrt((x - y) * (x - y) + 1); };

TEST(Fuse, ElementwiseMatchesUnfusedOnCpu) {
  const ndarray x = host({3, 4}, DType::Float32), y = host({4}, DType::Float32, 0.5);
  const auto f = fuse(dist);
  expect_same(f(x, y), dist(x, y));  // broadcasting, weak int 1 keeps float32
  EXPECT_EQ(f(x, y).dtype(), DType::Float32);
  EXPECT_EQ(f.function().cached_signature_count(), 1u);
  // A float64 scalar argument is weak; a strong one promotes.
  const auto scaled = fuse([](auto a, auto s) { return a * s + 2.5; });
  expect_same(scaled(x, 3.0), x * 3.0 + 2.5);
  EXPECT_EQ(scaled(x, 3.0).dtype(), DType::Float32);
  EXPECT_EQ(scaled(x, Scalar::of(DType::Float64, Scalar(3.0))).dtype(), DType::Float64);
  // Integer division and comparisons resolve as the ufuncs do.
  const ndarray i = host({5}, DType::Int32);
  const auto ratio = fuse([](auto a, auto b) { return where(a > 2, a / b, -a); });
  expect_same(ratio(i, i), where(greater(i, 2), true_divide(i, i), negative(i)));
  EXPECT_EQ(ratio(i, i).dtype(), DType::Float64);
  EXPECT_EQ(fuse([](auto a) { return clip(a, 2, 4) + (a % 2); })(i).dtype(), DType::Int32);
  expect_same(fuse([](auto a) { return clip(a, 2, 4) + (a % 2); })(i),
              add(clip(i, 2, 4), remainder(i, 2)));
  // astype, float16 rounding at every step.
  const ndarray h = host({6}, DType::Float16);
  const auto cast = fuse([](auto a) { return (a * 0.1).astype(DType::Float64) + a; });
  expect_same(cast(h), add(multiply(h, 0.1).astype(DType::Float64), h));
}

TEST(Fuse, TupleResultsAndOut) {
  const ndarray x = host({2, 3}, DType::Float64);
  const auto two = fuse([](auto a, auto b) { return std::make_tuple(a + b, a * b); });
  const std::vector<ndarray> r = two(x, 2.0);
  ASSERT_EQ(r.size(), 2u);
  expect_same(r[0], x + 2.0);
  expect_same(r[1], x * 2.0);
  // out= receives the result (same_kind casting), and is returned.
  ndarray out = zeros({2, 3}, {.dtype = DType::Float32, .device = Device::cpu()});
  const auto f = fuse([](auto a) { return a * 2; });
  const KernelArg args[] = {x};
  const std::vector<ndarray> got = f.call(args, {.out = {out}, .stream = std::nullopt});
  EXPECT_EQ(got[0].data(), out.data());
  expect_same(out, multiply(x, 2).astype(DType::Float32));
  ndarray bad = zeros({2, 3}, {.dtype = DType::Int32, .device = Device::cpu()});
  EXPECT_THROW(f.call(args, {.out = {bad}, .stream = std::nullopt}), TypeError);
  EXPECT_THROW(f.call(args, {.out = {out, out}, .stream = std::nullopt}), ValueError);
}

TEST(Fuse, ReductionsMatchUnfusedOnCpu) {
  const ndarray x = host({3, 4}, DType::Float32), y = host({4}, DType::Float32, 0.5);
  const auto total = fuse([](auto a, auto b) { return sum(dist(a, b)); });
  expect_same(total(x, y), sum(dist(x, y)));
  EXPECT_EQ(total(x, y).ndim(), 0);
  const auto rows = fuse([](auto a) { return mean(a * 2, {.axis = 1, .keepdims = true}); });
  expect_same(rows(x), mean(x * 2, {.axis = 1, .keepdims = true}));
  const ndarray i = host({3, 4}, DType::Int16);
  EXPECT_EQ(fuse([](auto a) { return sum(a + 1); })(i).dtype(), DType::Int64);
  EXPECT_EQ(fuse([](auto a) { return mean(a); })(i).dtype(), DType::Float64);
  EXPECT_EQ(fuse([](auto a) { return prod(a, {.axis = 0, .dtype = DType::Float32}); })(i).dtype(),
            DType::Float32);
  expect_same(fuse([](auto a) { return amax(a - 3, {.axis = 0}); })(i),
              amax(subtract(i, 3), {.axis = 0}));
  expect_same(fuse([](auto a) { return any(a > 11); })(i), any(greater(i, 11)));
  expect_same(fuse([](auto a) { return all(a > 0, {.axis = -1}); })(i),
              all(greater(i, 0), {.axis = -1}));
  // Reductions into out=, cast unsafely as NumPy's reductions do.
  ndarray out = zeros({4}, {.dtype = DType::Int8, .device = Device::cpu()});
  const auto s0 = fuse([](auto a) { return sum(a, {.axis = 0}); });
  const KernelArg args[] = {i};
  s0.call(args, {.out = {out}, .stream = std::nullopt});
  expect_same(out, sum(i, {.axis = 0}).astype(DType::Int8));
  const ndarray empty0 = zeros({0, 3}, {.dtype = DType::Float32, .device = Device::cpu()});
  EXPECT_THROW(fuse([](auto a) { return max(a, {.axis = 0}); })(empty0), ValueError);
}

TEST(Fuse, TraceErrors) {
  const ndarray x = host({4}, DType::Float32);
  const ndarray i = host({4}, DType::Int8);
  // Nothing may follow a reduction.
  EXPECT_THROW(fuse([](auto a) { return sum(a) + 1; })(x), NotImplementedError);
  EXPECT_THROW(fuse([](auto a) {
                 return fusion::apply("divmod", {a, 2});
               })(x),
               NotImplementedError);
  EXPECT_THROW(fuse([](auto a) { return sum(a, {.axis = 1}); })(x), AxisError);
  EXPECT_THROW(fuse([](auto a) { return std::make_tuple(sum(a), a); })(x), NotImplementedError);
  EXPECT_THROW(fuse([](auto a) { return max(a, {.dtype = DType::Float64}); })(x), TypeError);
  EXPECT_THROW(fuse([](auto a) { return sum(a, {.initial = Scalar(1)}); })(x), NotImplementedError);
  // NumPy's dtype errors: no loop, an unsafe input cast, an out-of-range Python int.
  EXPECT_THROW(fuse([](auto a) { return a & 1; })(x), TypeError);
  EXPECT_THROW(fuse([](auto a) { return a + 300; })(i), OverflowError);
  EXPECT_THROW(fuse([](auto a, auto b) { return a + b; })(i, 300), OverflowError);
  EXPECT_THROW(fuse(dist, {.kernel_name = "not a name"}), ValueError);
  // Each signature is traced once; a new one retraces.
  int traces = 0;
  const auto counted = fuse([&traces](auto a) {
    ++traces;
    return a + 1;
  });
  counted(x);
  counted(x);
  counted(i);
  counted(host({2, 2}, DType::Float32));
  EXPECT_EQ(traces, 3);
}

TEST(Fuse, GeneratedSourceCompiles) {
  const ndarray x = host({3, 4}, DType::Float32), y = host({4}, DType::Float32);
  const auto f = fuse(dist, {.kernel_name = "fused_dist"});
  const std::string src = f.cuda_source(x, y);
  EXPECT_NE(src.find("fused_dist"), std::string::npos);
  EXPECT_NE(src.find("cunp::ops::sqrt{}"), std::string::npos);
  EXPECT_GT(compile(f, x, y), 0u);
  EXPECT_GT(compile(f, x.T(), y.reshape({4, 1})), 0u);  // strided
  // float16, complex, where, clip, casts, scalar arguments.
  const auto mixed = fuse([](auto a, auto b, auto s) {
    return where(a > s, clip(a, 0, b), (a * s).astype(DType::Complex64) + b);
  });
  EXPECT_GT(compile(mixed, host({8}, DType::Float16), host({8}, DType::Float16), 2.0), 0u);
  EXPECT_GT(compile(mixed, host({8}, DType::Float64), host({2, 8}, DType::Float64),
                    Scalar::of(DType::Int8, Scalar(3))),
            0u);
  const auto bits = fuse([](auto a, auto b) { return floor_divide(a << 2, b) ^ 7; });
  EXPECT_GT(compile(bits, host({8}, DType::Int8), host({8}, DType::UInt8)), 0u);
  // Reductions: full, per axis, mean's count, float16 and complex accumulators.
  const auto total = fuse([](auto a, auto b) { return sum(dist(a, b)); });
  EXPECT_GT(compile(total, x, y), 0u);
  const auto m = fuse([](auto a) { return mean(a * a, {.axis = 0}); });
  EXPECT_GT(compile(m, host({4, 5}, DType::Float16)), 0u);
  EXPECT_GT(compile(m, host({4, 5}, DType::Complex64)), 0u);
  EXPECT_GT(compile(m, host({4, 5}, DType::Int32)), 0u);
  const auto mx = fuse([](auto a) { return max(abs(a), {.axis = 1, .keepdims = true}); });
  EXPECT_GT(compile(mx, host({4, 5}, DType::Float16)), 0u);
  const auto anyp = fuse([](auto a) { return any(isnan(a)); });
  EXPECT_GT(compile(anyp, host({4, 5}, DType::Float64)), 0u);
}

TEST(FuseGpu, MatchesUnfused) {
  SKIP_WITHOUT_GPU();
  DeviceGuard g(Device::cuda(0));
  const ndarray x = host({300, 257}, DType::Float32).to(Device::cuda(0));
  const ndarray y = host({257}, DType::Float32, 0.25).to(Device::cuda(0));
  const auto f = fuse(dist);
  const ndarray r = f(x, y);
  EXPECT_EQ(r.device(), Device::cuda(0));
  EXPECT_TRUE(allclose(r, dist(x, y), 1e-6, 0));
  EXPECT_TRUE(allclose(f(x.T(), y.reshape({257, 1})), dist(x.T(), y.reshape({257, 1})), 1e-6, 0));
  const auto total = fuse([](auto a, auto b) { return sum(dist(a, b)); });
  EXPECT_TRUE(allclose(total(x, y), sum(dist(x, y)), 1e-5, 0));
  const auto cols = fuse([](auto a) { return mean(a * 2, {.axis = 0}); });
  EXPECT_TRUE(allclose(cols(x), mean(x * 2, {.axis = 0}), 1e-5, 0));
  const ndarray h = host({1000}, DType::Float16).to(Device::cuda(0));
  const auto hf = fuse([](auto a) { return (a * 0.5 + 1) * a; });
  expect_same(hf(h), multiply(add(multiply(h, 0.5), 1), h));
  const auto mx = fuse([](auto a) { return max(a - 3.0); });
  expect_same(mx(x), max(subtract(x, 3.0)));
  ndarray out = empty({300, 257}, {.dtype = DType::Float64, .device = Device::cuda(0)});
  const KernelArg args[] = {x, y};
  f.call(args, {.out = {out}, .stream = std::nullopt});
  EXPECT_TRUE(allclose(out, dist(x, y).astype(DType::Float64), 1e-6, 0));
  EXPECT_THROW(fuse([](auto a) { return a + 300; })(host({4}, DType::Int8).to(Device::cuda(0))),
               OverflowError);
}

}  // namespace
}  // namespace cunp

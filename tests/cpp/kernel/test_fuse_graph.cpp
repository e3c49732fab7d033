// The fusion hook (Note [Fused functions]): a three-node graph (subtract, multiply,
// sqrt, with a broadcast scalar) becomes ONE generated kernel, and so does a graph
// ending in a sum over one axis. On the cpu device the graph runs op by op; its
// results, and those of the one CUDA kernel, equal the unfused op-by-op results bit
// for bit. On a CUDA device (skipped without one) exactly one kernel is compiled for
// the fused call and none for a repeated call.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/kernel_cache.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/fuse.hpp"
#include "cunp/kernel_stats.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

// sqrt((x - s) * y): x is (rows, cols), y (cols,) broadcast along rows, s a scalar.
auto graph = [](auto x, auto y, auto s) { return sqrt((x - s) * y); };
auto unfused = [](const ndarray& x, const ndarray& y, double s) {
  return sqrt(multiply(subtract(x, s), y));
};
// The same graph ending in a sum over axis 1.
auto graph_sum = [](auto x, auto y, auto s) { return sum(sqrt((x - s) * y), {.axis = 1}); };

ndarray values(const Shape& shape, DType dt, double start, double step, const Device& device) {
  const double stop = start + step * static_cast<double>(shape_size(shape));
  return arange(Scalar(start), Scalar(stop), Scalar(step), {.dtype = dt, .device = Device::cpu()})
      .reshape(shape)
      .to(device);
}

void expect_bitwise(const ndarray& got, const ndarray& want) {
  ASSERT_EQ(got.dtype(), want.dtype());
  ASSERT_EQ(got.shape(), want.shape());
  const ndarray g = ascontiguousarray(got.to(Device::cpu()));
  const ndarray w = ascontiguousarray(want.to(Device::cpu()));
  const auto* gb = static_cast<const unsigned char*>(g.data());
  const auto* wb = static_cast<const unsigned char*>(w.data());
  const std::size_t bytes = static_cast<std::size_t>(g.size()) * itemsize(g.dtype());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < bytes; ++i) differ += gb[i] != wb[i];
  EXPECT_EQ(differ, 0u) << got << "\n vs \n" << want;
}

std::size_t count(std::string_view text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string_view::npos;
       at = text.find(what, at + what.size()))
    ++n;
  return n;
}

// Kernels this process obtained from outside its memory cache: compiled, read from the
// disk cache, or loaded from the kernel archive.
std::int64_t kernels_obtained() {
  const KernelCacheStats s = kernel_cache_stats();
  return s.nvrtc_compiles + s.disk_hits + s.archive_hits;
}

// The generated source holds one kernel, and it compiles for sm_90 (no GPU needed).
template <typename F, typename... A>
void expect_one_kernel_source(const F& f, const A&... args) {
  const std::string src = f.cuda_source(args...);
  EXPECT_EQ(count(src, "__global__"), 1u) << src;
  EXPECT_NE(src.find(f.function().kernel_name()), std::string::npos);
  cuda::KernelSource source;
  source.kernel_name = f.function().kernel_name();
  source.source = src;
  source.options.extra_options = {"--fmad=false"};
  EXPECT_GT(cuda::compile_cached(source, 90, cuda::DiskCache::global()).cubin.size(), 0u);
}

TEST(FuseGraph, ThreeNodesOneKernelCpu) {
  const Device cpu = Device::cpu();
  for (DType dt : {DType::Float32, DType::Float64}) {
    const ndarray x = values({37, 53}, dt, 1.0, 0.37, cpu);
    const ndarray y = values({53}, dt, 0.5, 0.11, cpu);
    const auto f = fuse(graph, {.kernel_name = "graph_sub_mul_sqrt"});
    const ndarray r = f(x, y, 0.75);
    EXPECT_EQ(r.dtype(), dt);  // the weak scalar keeps the arrays' dtype
    expect_bitwise(r, unfused(x, y, 0.75));
    expect_one_kernel_source(f, x, y, 0.75);
    EXPECT_EQ(f.function().cached_signature_count(), 1u);
  }
}

TEST(FuseGraph, AxisSumOneKernelCpu) {
  const Device cpu = Device::cpu();
  for (DType dt : {DType::Float32, DType::Float64}) {
    const ndarray x = values({37, 53}, dt, 1.0, 0.37, cpu);
    const ndarray y = values({53}, dt, 0.5, 0.11, cpu);
    const auto f = fuse(graph_sum, {.kernel_name = "graph_sub_mul_sqrt_sum"});
    const ndarray r = f(x, y, 0.75);
    ASSERT_EQ(r.shape(), Shape({37}));
    expect_bitwise(r, sum(unfused(x, y, 0.75), {.axis = 1}));
    expect_one_kernel_source(f, x, y, 0.75);
  }
}

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

TEST(FuseGraphGpu, ThreeNodesOneKernel) {
  SKIP_WITHOUT_GPU();
  const Device gpu = Device::cuda(0);
  DeviceGuard guard(gpu);
  for (DType dt : {DType::Float32, DType::Float64}) {
    const ndarray x = values({300, 257}, dt, 1.0, 0.37, gpu);
    const ndarray y = values({257}, dt, 0.5, 0.11, gpu);
    // A kernel name of its own per dtype: nothing of it is in the memory cache yet.
    const auto f = fuse(graph, {.kernel_name = dt == DType::Float32 ? "graph_sub_mul_sqrt_f4"
                                                                    : "graph_sub_mul_sqrt_f8"});
    const std::int64_t before = kernels_obtained();
    const ndarray r = f(x, y, 0.75);
    EXPECT_EQ(kernels_obtained() - before, 1);  // one kernel for the three nodes
    EXPECT_EQ(r.device(), gpu);
    const std::int64_t again = kernels_obtained();
    const ndarray r2 = f(x, y, 1.25);  // the scalar is a parameter: same kernel
    EXPECT_EQ(kernels_obtained(), again);
    expect_bitwise(r, unfused(x, y, 0.75));
    expect_bitwise(r2, unfused(x, y, 1.25));
    // Strided operands (a transposed x, y as a column) run through the strided kernel.
    const ndarray xt = x.T(), yc = values({257, 1}, dt, 0.5, 0.11, gpu);
    expect_bitwise(f(xt, yc, 0.75), unfused(xt, yc, 0.75));
  }
}

TEST(FuseGraphGpu, AxisSumOneKernel) {
  SKIP_WITHOUT_GPU();
  const Device gpu = Device::cuda(0);
  DeviceGuard guard(gpu);
  const ndarray x = values({300, 257}, DType::Float64, 1.0, 0.37, gpu);
  const ndarray y = values({257}, DType::Float64, 0.5, 0.11, gpu);
  const auto f = fuse(graph_sum, {.kernel_name = "graph_sub_mul_sqrt_sum_f8"});
  const std::int64_t before = kernels_obtained();
  const ndarray r = f(x, y, 0.75);
  EXPECT_EQ(kernels_obtained() - before, 1);  // map and sum in one kernel
  ASSERT_EQ(r.shape(), Shape({300}));
  const ndarray want = sum(unfused(x, y, 0.75), {.axis = 1});
  // The fused sum adds in its own order: equal to rounding of the sum.
  EXPECT_TRUE(allclose(r, want, 1e-13, 0)) << r << "\n vs \n" << want;
  // Integer data sums exactly: bit for bit against the op-by-op sum.
  const ndarray i = values({300, 257}, DType::Int64, -50, 1, gpu);
  const ndarray j = values({257}, DType::Int64, 3, 1, gpu);
  const auto g = fuse([](auto a, auto b, auto s) { return sum((a - s) * b, {.axis = 1}); },
                      {.kernel_name = "graph_sub_mul_sum_i8"});
  const std::int64_t before_int = kernels_obtained();
  const ndarray ri = g(i, j, 7);
  EXPECT_EQ(kernels_obtained() - before_int, 1);
  expect_bitwise(ri, sum(multiply(subtract(i, 7), j), {.axis = 1}));
}

}  // namespace
}  // namespace cunp

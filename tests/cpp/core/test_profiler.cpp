// tests/cpp/core/test_profiler.cpp — NVTX ranges (cunp/profiler.hpp): nested scopes open
// and close without a profiler attached; CuPy's palette wraps around.
#include <gtest/gtest.h>

#include <thread>

#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/profiler.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

TEST(Profiler, RangesNestWithoutAProfiler) {
  profiler::range_push("outer", profiler::palette_color(0));
  {
    profiler::TimeRange inner("inner");
    profiler::TimeRange coloured("coloured", 0xff336699u);
  }
  profiler::range_pop();
  SUCCEED();
}

TEST(Profiler, PaletteWraps) {
  EXPECT_EQ(profiler::palette_color(0), 0xff00ff00u);
  EXPECT_EQ(profiler::palette_color(1), 0xff0000ffu);
  EXPECT_EQ(profiler::palette_color(7), profiler::palette_color(0));
  EXPECT_EQ(profiler::palette_color(-1), profiler::palette_color(6));
}

TEST(Profiler, BenchmarkTimesEveryRepeat) {
  int calls = 0;
  profiler::BenchmarkOptions o;
  o.n_repeat = 7;
  o.n_warmup = 3;
  o.devices = std::vector<int>{};
  o.name = "sleep";
  const profiler::BenchmarkResult r = profiler::benchmark([&] {
    ++calls;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }, o);
  EXPECT_EQ(calls, 10);
  ASSERT_EQ(r.cpu_times.size(), 7u);
  for (double t : r.cpu_times) EXPECT_GE(t, 150e-6);
  EXPECT_TRUE(r.gpu_times.empty());
  EXPECT_EQ(r.str().rfind("sleep:    CPU: ", 0), 0u) << r.str();
  EXPECT_NE(r.str().find("+/-"), std::string::npos);
}

TEST(Profiler, BenchmarkStopsAtMaxDuration) {
  profiler::BenchmarkOptions o;
  o.n_repeat = 1000000;
  o.n_warmup = 0;
  o.max_duration = 0.01;
  o.devices = std::vector<int>{};
  const profiler::BenchmarkResult r =
      profiler::benchmark([] { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }, o);
  EXPECT_GE(r.cpu_times.size(), 1u);
  EXPECT_LT(r.cpu_times.size(), 100u);
}

TEST(Profiler, BenchmarkOnTheCurrentCudaDevice) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  DeviceGuard guard(Device::cuda(0));
  const ndarray a = ones({1 << 20}, {.dtype = DType::Float32});
  profiler::BenchmarkOptions o;
  o.n_repeat = 20;
  const profiler::BenchmarkResult r = profiler::benchmark([&] { (void)add(a, a); }, o);
  ASSERT_EQ(r.devices, std::vector<int>{0});
  ASSERT_EQ(r.gpu_times.size(), 1u);
  ASSERT_EQ(r.gpu_times[0].size(), 20u);
  for (double t : r.gpu_times[0]) EXPECT_GT(t, 0);
}

TEST(Profiler, BenchmarkRejectsBadArguments) {
  profiler::BenchmarkOptions o;
  o.n_repeat = 0;
  EXPECT_THROW(profiler::benchmark([] {}, o), ValueError);
  EXPECT_THROW(profiler::benchmark(std::function<void()>{}, {}), TypeError);
}

}  // namespace
}  // namespace cunp

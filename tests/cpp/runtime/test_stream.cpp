// Streams, events and host callbacks (src/runtime/stream.cpp). Without a CUDA device only
// the argument checks and the no-device errors run; the rest is skipped.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/stream.hpp"

namespace cunp {
namespace {

using namespace std::chrono_literals;

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

TEST(CudaEvent, InterprocessNeedsDisableTimingBeforeAnyCudaCall) {
  // Checked first, so the message is the same with or without a GPU.
  try {
    Event e(false, false, true);
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Timing must be disabled for interprocess events"),
              std::string::npos)
        << e.what();
  }
  try {
    Event e(true, false, true);
    FAIL() << "expected ValueError";
  } catch (const ValueError&) {
  }
}

TEST(CudaStream, NoDeviceErrorsAreCudaErrors) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_THROW(Stream::create(), CudaError);
  EXPECT_THROW(Stream::legacy(), CudaError);
  EXPECT_THROW(Stream::per_thread(), CudaError);
  EXPECT_THROW(Stream::external(nullptr), CudaError);
  EXPECT_THROW(Stream::legacy(0), CudaError);
  EXPECT_THROW(Event(), CudaError);
  EXPECT_THROW(current_stream(), CudaError);
  try {
    Stream::create(0);
  } catch (const CudaError& e) {
    EXPECT_NE(std::string(e.what()).find("CUDA is unavailable"), std::string::npos) << e.what();
  }
}

TEST(CudaStream, DefaultStreamsAreTheRuntimeHandles) {
  SKIP_WITHOUT_GPU();
  const Stream legacy = Stream::legacy(0);
  const Stream ptds = Stream::per_thread(0);
  EXPECT_EQ(legacy.handle(), static_cast<void*>(cudaStreamLegacy));
  EXPECT_EQ(ptds.handle(), static_cast<void*>(cudaStreamPerThread));
  EXPECT_TRUE(legacy.is_null());
  EXPECT_TRUE(ptds.is_null());
  EXPECT_EQ(legacy.device(), 0);
  EXPECT_TRUE(legacy == Stream::legacy());
  EXPECT_FALSE(legacy == ptds);
  EXPECT_THROW(Stream::legacy(cuda_device_count()), ValueError);
  EXPECT_THROW(Stream::external(nullptr, cuda_device_count()), ValueError);
  legacy.synchronize();
  ptds.synchronize();
  EXPECT_TRUE(legacy.query());
}

TEST(CudaStream, ExternalWrapsAForeignStreamWithoutOwningIt) {
  SKIP_WITHOUT_GPU();
  cudaStream_t raw = nullptr;
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  ASSERT_EQ(cudaStreamCreate(&raw), cudaSuccess);
  {
    const Stream s = Stream::external(raw, 0);
    EXPECT_EQ(s.handle(), static_cast<void*>(raw));
    EXPECT_EQ(s.device(), 0);
    EXPECT_FALSE(s.is_null());
    const StreamGuard guard(s);
    EXPECT_EQ(current_stream(0).handle(), static_cast<void*>(raw));
    // cunp work lands on the foreign stream: it is busy until that work is done.
    const ndarray a = arange(1 << 20, {.dtype = DType::Float32, .device = Device::cuda(0)});
    std::atomic<bool> ran{false};
    s.launch_host_func([&] { ran = true; });
    ASSERT_EQ(cudaStreamSynchronize(raw), cudaSuccess);
    EXPECT_TRUE(ran.load());
    EXPECT_EQ(a.size(), 1 << 20);
  }
  EXPECT_NE(current_stream(0).handle(), static_cast<void*>(raw));
  // The wrapper is gone; the stream is still alive and ours to destroy.
  EXPECT_EQ(cudaStreamQuery(raw), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(raw), cudaSuccess);
}

TEST(CudaStream, HostFuncsRunInOrderOnAnotherThread) {
  SKIP_WITHOUT_GPU();
  const Stream s = Stream::create(0, true);
  std::mutex m;
  std::vector<int> order;
  std::vector<std::thread::id> threads;
  for (int i = 0; i < 4; ++i) {
    s.launch_host_func([&, i] {
      const std::lock_guard<std::mutex> lock(m);
      order.push_back(i);
      threads.push_back(std::this_thread::get_id());
    });
  }
  s.synchronize();
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
  ASSERT_EQ(threads.size(), 4u);
  EXPECT_NE(threads[0], std::this_thread::get_id());
  EXPECT_THROW(s.launch_host_func({}), ValueError);
  EXPECT_THROW(s.add_callback({}), ValueError);
}

TEST(CudaStream, AddCallbackReceivesTheStatus) {
  SKIP_WITHOUT_GPU();
  const Stream s = Stream::create(0);
  std::atomic<int> status{-1};
  std::atomic<int> calls{0};
  s.add_callback([&](int st) {
    status = st;
    ++calls;
  });
  s.synchronize();
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(status.load(), static_cast<int>(cudaSuccess));
}

TEST(CudaStream, HostFuncExceptionIsReportedAndLaterWorkRuns) {
  SKIP_WITHOUT_GPU();
  const Stream s = Stream::create(0);
  std::atomic<bool> ran{false};
  testing::internal::CaptureStderr();
  s.launch_host_func([] { throw std::runtime_error("boom in a host func"); });
  s.add_callback([](int) { throw std::runtime_error("boom in a callback"); });
  s.launch_host_func([&] { ran = true; });
  s.synchronize();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(ran.load());
  EXPECT_NE(err.find("boom in a host func"), std::string::npos) << err;
  EXPECT_NE(err.find("boom in a callback"), std::string::npos) << err;
}

TEST(CudaStream, WaitEventHoldsBackLaterWork) {
  SKIP_WITHOUT_GPU();
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  const Stream s1 = Stream::create(0, true);
  const Stream s2 = Stream::create(0, true);
  const Stream control = Stream::create(0, true);
  std::promise<void> gate;
  std::shared_future<void> opened = gate.get_future().share();
  s1.launch_host_func(
      [opened] { (void)opened.wait_for(10s); });  // s1 is stuck until the gate opens
  const Event e;
  e.record(s1);
  s2.wait_event(e);
  {
    // Device work, not a host func: CUDA may run the host funcs of all streams on one
    // thread, where this one would queue behind the gate.
    const StreamGuard guard(control);
    (void)arange(1024, {.dtype = DType::Float32, .device = Device::cuda(0)});
  }
  std::this_thread::sleep_for(200ms);
  control.synchronize();
  EXPECT_TRUE(control.query());  // a stream that waits for nothing is done
  EXPECT_FALSE(e.query());
  EXPECT_FALSE(s2.query());  // s2 waits for the event behind the gate
  gate.set_value();
  s2.synchronize();
  EXPECT_TRUE(e.query());
  EXPECT_TRUE(s1.query());
  EXPECT_TRUE(s2.query());
}

TEST(CudaEvent, ElapsedTimeOfAKernelIsPositive) {
  SKIP_WITHOUT_GPU();
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  const Stream s = Stream::create(0);
  const StreamGuard guard(s);
  const ArrayOptions opts{.dtype = DType::Float64, .device = Device::cuda(0)};
  (void)arange(16, opts);  // compiles the kernel outside the timed region
  s.synchronize();
  const Event start, end;
  start.record();  // the current stream: s
  const ndarray a = arange(1 << 24, opts);
  end.record(s);
  end.synchronize();
  EXPECT_TRUE(end.query());
  const float ms = get_elapsed_time(start, end);
  EXPECT_GT(ms, 0.0f);
  EXPECT_LT(ms, 10000.0f);
  // Events without timing data cannot be timed; interprocess ones need disable_timing.
  const Event untimed(false, true);
  untimed.record(s);
  untimed.synchronize();
  EXPECT_THROW(get_elapsed_time(start, untimed), CudaError);
  const Event ipc(true, true, true);
  ipc.record(s);
  ipc.synchronize();
  EXPECT_TRUE(ipc.query());
}

}  // namespace
}  // namespace cunp

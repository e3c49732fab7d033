// tests/cpp/interop/test_external_memory.cpp — src/interop/external_memory.cpp:
// from_pointer's views and the one release when the last goes (never on a refusal),
// pointer_device, order_streams. The CUDA cases skip without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "cunp/cunp.hpp"

namespace cunp {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

TEST(InteropFromPointer, ViewsTheMemoryAndReleasesOnceWithTheLastView) {
  std::vector<std::int32_t> data{0, 1, 2, 3, 4, 5};
  int released = 0;
  {
    ndarray a = from_pointer(data.data(), DType::Int32, {2, 3}, std::nullopt, Device::cpu(),
                             [&] { ++released; });
    EXPECT_EQ(a.data(), data.data());
    EXPECT_EQ(a.strides(), (Strides{12, 4}));
    EXPECT_TRUE(a.writeable());
    const ndarray row = a[1];
    a = ndarray();  // the first handle goes; the row still views the memory
    EXPECT_EQ(released, 0);
    EXPECT_EQ(row.to_vector<std::int32_t>(), (std::vector<std::int32_t>{3, 4, 5}));
  }
  EXPECT_EQ(released, 1);
}

TEST(InteropFromPointer, ByteStridesIncludingNegativeOnes) {
  std::vector<double> data{0, 1, 2, 3, 4, 5, 6, 7};
  // Every other element, backwards from the last: 7, 5, 3, 1.
  const ndarray a = from_pointer(&data[7], DType::Float64, {4}, Strides{-16}, Device::cpu());
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{7, 5, 3, 1}));
  EXPECT_EQ(a.data(), &data[7]);
  // The storage is exactly the reached range, so views stay checked against it.
  EXPECT_EQ(a.storage()->data(), &data[1]);
  EXPECT_EQ(a.storage()->nbytes(), 7 * sizeof(double));
  EXPECT_THROW(a.as_strided({5}, {-16}, a.offset()), ValueError);
}

TEST(InteropFromPointer, WritesGoToTheForeignMemory) {
  std::vector<float> data(4, 0.0f);
  ndarray a = from_pointer(data.data(), DType::Float32, {4}, std::nullopt, Device::cpu());
  a.fill(Scalar(2.0f));
  EXPECT_EQ(data, std::vector<float>(4, 2.0f));
}

TEST(InteropFromPointer, EmptyShapesMayHaveANullPointer) {
  int released = 0;
  {
    const ndarray a = from_pointer(nullptr, DType::Float32, {0, 4}, std::nullopt, Device::cpu(),
                                   [&] { ++released; });
    EXPECT_EQ(a.size(), 0);
    EXPECT_EQ(a.shape(), (Shape{0, 4}));
  }
  EXPECT_EQ(released, 1);
}

TEST(InteropFromPointer, RefusalsNeverRelease) {
  int released = 0;
  auto count = [&] { ++released; };
  std::vector<double> data(4);
  EXPECT_THROW(from_pointer(nullptr, DType::Float64, {2}, std::nullopt, Device::cpu(), count),
               ValueError);
  EXPECT_THROW(from_pointer(data.data(), DType::Float64, {2, 2}, Strides{8}, Device::cpu(), count),
               ValueError);
  EXPECT_THROW(from_pointer(data.data(), DType::Float64, {-1}, std::nullopt, Device::cpu(), count),
               ValueError);
  // A device that does not exist: ValueError, or CudaError when there is no GPU at all.
  EXPECT_THROW(from_pointer(data.data(), DType::Float64, {2}, std::nullopt,
                            Device::cuda(cuda_device_count()), count),
               Error);
  EXPECT_EQ(released, 0);
}

TEST(InteropFromPointer, WrapHostKeepsItsOwner) {
  auto owner = std::make_shared<std::vector<std::int64_t>>(std::vector<std::int64_t>{9, 8, 7});
  std::weak_ptr<std::vector<std::int64_t>> watch = owner;
  ndarray a = wrap_host(owner->data(), DType::Int64, {3}, {8}, owner);
  owner.reset();
  EXPECT_FALSE(watch.expired());
  EXPECT_EQ(a.to_vector<std::int64_t>(), (std::vector<std::int64_t>{9, 8, 7}));
  a = ndarray();
  EXPECT_TRUE(watch.expired());
}

TEST(InteropPointerDevice, HostMemoryIsTheCpu) {
  std::vector<int> host(4);
  EXPECT_EQ(pointer_device(host.data()), Device::cpu());
  EXPECT_EQ(pointer_device(nullptr), Device::cpu());
}

TEST(InteropPointerDevice, DeviceAndManagedMemory) {
  SKIP_WITHOUT_GPU();
  void* dev = nullptr;
  void* managed = nullptr;
  ASSERT_EQ(cudaMalloc(&dev, 256), cudaSuccess);
  ASSERT_EQ(cudaMallocManaged(&managed, 256), cudaSuccess);
  EXPECT_EQ(pointer_device(dev), Device::cuda(0));
  EXPECT_EQ(pointer_device(static_cast<char*>(dev) + 100),
            Device::cuda(0));  // inside the allocation
  EXPECT_EQ(pointer_device(managed), Device::cuda(0));
  cudaFree(dev);
  cudaFree(managed);
}

TEST(InteropFromPointer, CudaMemoryIsReleasedAfterItsStreamFinished) {
  SKIP_WITHOUT_GPU();
  DeviceGuard guard(Device::cuda(0));
  constexpr std::int64_t n = 1 << 22;
  void* dev = nullptr;
  ASSERT_EQ(cudaMalloc(&dev, n * sizeof(float)), cudaSuccess);
  const Stream stream = Stream::create(0, /*non_blocking=*/true);
  bool stream_idle_at_release = false;
  {
    StreamGuard g(stream);
    ndarray a = from_pointer(dev, DType::Float32, {n}, std::nullopt, Device::cuda(0),
                             [&] { stream_idle_at_release = stream.query(); });
    EXPECT_EQ(a.device(), Device::cuda(0));
    a.fill(Scalar(1.5f));
    EXPECT_EQ(a.view({slice(0, 2)}).to_vector<float>(), (std::vector<float>{1.5f, 1.5f}));
    a.fill(Scalar(2.5f));
    // Work still pending on the stream when the last view goes: the release must wait.
    stream.launch_host_func([] { std::this_thread::sleep_for(std::chrono::milliseconds(300)); });
  }
  EXPECT_TRUE(stream_idle_at_release);
  std::vector<float> back(2);
  ASSERT_EQ(cudaMemcpy(back.data(), dev, sizeof(float) * 2, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back, (std::vector<float>{2.5f, 2.5f}));
  cudaFree(dev);
}

TEST(InteropOrderStreams, TheConsumerWaitsForTheProducer) {
  SKIP_WITHOUT_GPU();
  DeviceGuard guard(Device::cuda(0));
  const Stream producer = Stream::create(0, true);
  const Stream consumer = Stream::create(0, true);
  {
    StreamGuard g(producer);
    ndarray a = full({1 << 22}, Scalar(1.0), {.device = Device::cuda(0)});
    producer.launch_host_func([] { std::this_thread::sleep_for(std::chrono::milliseconds(300)); });
    order_streams(producer, consumer);
    EXPECT_FALSE(consumer.query());
    consumer.synchronize();
    EXPECT_TRUE(producer.query());
  }
  if (cuda_device_count() > 1) {
    EXPECT_THROW(order_streams(producer, Stream::legacy(1)), ValueError);  // streams of two devices
  }
  order_streams(producer, producer);  // one stream: nothing to do, no error
}

}  // namespace
}  // namespace cunp

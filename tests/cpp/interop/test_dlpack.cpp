// tests/cpp/interop/test_dlpack.cpp — src/interop/dlpack.cpp: the fields of exported
// tensors, round trips sharing memory, deleters run exactly once, and what is refused
// (and left untouched) on import. The CUDA cases skip without a GPU.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "cunp/cunp.hpp"

namespace cunp {
namespace {

using namespace dlpack;

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

class InteropDLPack : public ::testing::Test {
 protected:
  DeviceGuard guard_{Device::cpu()};
};

ndarray iota(std::int64_t n, DType dt = DType::Int64, Device device = Device::cpu()) {
  return arange(Scalar(0), Scalar(n), Scalar(1), {.dtype = dt, .device = device});
}

// A producer-side tensor over host memory the test owns, counting its deleter calls.
struct ForeignTensor {
  std::vector<double> values;
  std::vector<std::int64_t> shape, strides;
  int deleted = 0;
  DLManagedTensorVersioned managed{};
  DLManagedTensor legacy{};

  explicit ForeignTensor(std::vector<double> v, std::vector<std::int64_t> sh,
                         std::vector<std::int64_t> st = {})
      : values(std::move(v)), shape(std::move(sh)), strides(std::move(st)) {
    DLTensor t{};
    t.data = values.data();
    t.device = {kDLCPU, 0};
    t.ndim = static_cast<std::int32_t>(shape.size());
    t.dtype = {kDLFloat, 64, 1};
    t.shape = shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    managed.version = {1, 0};
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensorVersioned* self) {
      ++static_cast<ForeignTensor*>(self->manager_ctx)->deleted;
    };
    managed.dl_tensor = t;
    legacy.dl_tensor = t;
    legacy.manager_ctx = this;
    legacy.deleter = [](DLManagedTensor* self) {
      ++static_cast<ForeignTensor*>(self->manager_ctx)->deleted;
    };
  }
};

TEST_F(InteropDLPack, ExportDescribesTheArrayAndSharesItsMemory) {
  const ndarray a = iota(6, DType::Float32).reshape({2, 3});
  DLManagedTensorVersioned* t = to_dlpack(a);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->version.major, 1u);
  EXPECT_EQ(t->version.minor, 0u);
  EXPECT_EQ(t->flags, 0u);
  EXPECT_EQ(t->dl_tensor.data, a.data());
  EXPECT_EQ(t->dl_tensor.byte_offset, 0u);
  EXPECT_EQ(t->dl_tensor.device.device_type, kDLCPU);
  EXPECT_EQ(t->dl_tensor.device.device_id, 0);
  EXPECT_EQ(t->dl_tensor.ndim, 2);
  EXPECT_EQ(t->dl_tensor.dtype.code, kDLFloat);
  EXPECT_EQ(t->dl_tensor.dtype.bits, 32);
  EXPECT_EQ(t->dl_tensor.dtype.lanes, 1);
  EXPECT_EQ(t->dl_tensor.shape[0], 2);
  EXPECT_EQ(t->dl_tensor.shape[1], 3);
  EXPECT_EQ(t->dl_tensor.strides[0], 3);  // elements, not bytes
  EXPECT_EQ(t->dl_tensor.strides[1], 1);
  t->deleter(t);
}

TEST_F(InteropDLPack, DtypeCodesAndBits) {
  struct Case {
    DType dt;
    std::uint8_t code, bits;
  };
  for (const Case& c :
       {Case{DType::Bool, kDLBool, 8}, Case{DType::Int8, kDLInt, 8}, Case{DType::Int64, kDLInt, 64},
        Case{DType::UInt16, kDLUInt, 16}, Case{DType::UInt64, kDLUInt, 64},
        Case{DType::Float16, kDLFloat, 16}, Case{DType::Float64, kDLFloat, 64},
        Case{DType::Complex64, kDLComplex, 64}, Case{DType::Complex128, kDLComplex, 128}}) {
    const ndarray a = zeros({3}, {.dtype = c.dt});
    DLManagedTensorVersioned* t = to_dlpack(a);
    EXPECT_EQ(t->dl_tensor.dtype.code, c.code) << name(c.dt);
    EXPECT_EQ(t->dl_tensor.dtype.bits, c.bits) << name(c.dt);
    const ndarray b = from_dlpack(t);  // b owns t now
    EXPECT_EQ(b.dtype(), c.dt);
    EXPECT_EQ(b.data(), a.data());
  }
}

TEST_F(InteropDLPack, RoundTripWritesAreVisibleBothWays) {
  ndarray a = iota(5, DType::Int32);
  ndarray b = from_dlpack(to_dlpack(a));
  EXPECT_EQ(b.data(), a.data());
  EXPECT_TRUE(b.writeable());
  b[1].fill(Scalar(40));
  EXPECT_EQ(a.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 40, 2, 3, 4}));
  a[4].fill(Scalar(-7));
  EXPECT_EQ(b.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 40, 2, 3, -7}));
}

TEST_F(InteropDLPack, ExportKeepsTheMemoryAliveUntilTheDeleter) {
  DLManagedTensorVersioned* t = nullptr;
  {
    const ndarray a = iota(4, DType::Float64);
    t = to_dlpack(a);
  }  // the array is gone; the tensor still holds its storage
  const auto* p = static_cast<const double*>(t->dl_tensor.data);
  EXPECT_EQ(p[3], 3.0);
  t->deleter(t);
}

TEST_F(InteropDLPack, NegativeAndZeroStridesSurviveTheRoundTrip) {
  const ndarray a = iota(6, DType::Int64);
  const ndarray rev = a.view({slice(std::nullopt, std::nullopt, -2)});  // 5, 3, 1
  DLManagedTensorVersioned* t = to_dlpack(rev);
  EXPECT_EQ(t->dl_tensor.strides[0], -2);
  EXPECT_EQ(t->dl_tensor.data, rev.data());
  const ndarray b = from_dlpack(t);
  EXPECT_EQ(b.strides(), (Strides{-16}));
  EXPECT_EQ(b.to_vector<std::int64_t>(), (std::vector<std::int64_t>{5, 3, 1}));

  const ndarray bc = a.view({slice(0, 1)}).broadcast_to({3, 1});  // strides (0, 8)
  DLManagedTensorVersioned* tb = to_dlpack(bc);
  EXPECT_EQ(tb->dl_tensor.strides[0], 0);
  EXPECT_EQ(tb->flags, kFlagReadOnly);  // broadcast views are read-only
  const ndarray c = from_dlpack(tb);
  EXPECT_FALSE(c.writeable());
  EXPECT_EQ(c.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 0, 0}));
}

TEST_F(InteropDLPack, ZeroDimAndEmptyArrays) {
  const ndarray s = full({}, Scalar(2.5));
  DLManagedTensorVersioned* t = to_dlpack(s);
  EXPECT_EQ(t->dl_tensor.ndim, 0);
  const ndarray b = from_dlpack(t);
  EXPECT_EQ(b.ndim(), 0);
  EXPECT_EQ(b.item().to_double(), 2.5);

  const ndarray e = zeros({0, 3}, {.dtype = DType::Float32});
  const ndarray eb = from_dlpack(to_dlpack(e));
  EXPECT_EQ(eb.shape(), (Shape{0, 3}));
  EXPECT_EQ(eb.size(), 0);
}

TEST_F(InteropDLPack, ReadOnlyFlagBothWaysAndTheLegacyRefusal) {
  ndarray a = iota(3, DType::Float64);
  a.set_writeable(false);
  DLManagedTensorVersioned* t = to_dlpack(a);
  EXPECT_EQ(t->flags & kFlagReadOnly, kFlagReadOnly);
  EXPECT_FALSE(from_dlpack(t).writeable());
  EXPECT_THROW(to_dlpack_legacy(a), BufferError);
  // A copy is writeable, so the legacy layout can carry it.
  DLManagedTensor* lt = to_dlpack_legacy(a, {.copy = true});
  EXPECT_NE(lt->dl_tensor.data, a.data());
  const ndarray c = from_dlpack(lt);
  EXPECT_TRUE(c.writeable());
  EXPECT_EQ(c.to_vector<double>(), (std::vector<double>{0, 1, 2}));
}

TEST_F(InteropDLPack, CopyOptions) {
  const ndarray a = iota(4, DType::Int16);
  DLManagedTensorVersioned* copied = to_dlpack(a, {.copy = true});
  EXPECT_EQ(copied->flags, kFlagIsCopied);
  EXPECT_NE(copied->dl_tensor.data, a.data());
  const ndarray c = from_dlpack(copied);
  EXPECT_EQ(c.to_vector<std::int16_t>(), (std::vector<std::int16_t>{0, 1, 2, 3}));
  DLManagedTensorVersioned* shared = to_dlpack(a, {.copy = false});
  EXPECT_EQ(shared->flags, 0u);
  EXPECT_EQ(shared->dl_tensor.data, a.data());
  shared->deleter(shared);
}

TEST_F(InteropDLPack, StridesThatAreNotWholeItemsAreRefused) {
  const ndarray bytes = zeros({10}, {.dtype = DType::UInt8});
  const ndarray odd =
      make_view_as(bytes, DType::Int16, {3}, {3}, 1);  // 3-byte steps over 2-byte items
  EXPECT_THROW(to_dlpack(odd), BufferError);
  // A length-1 axis never uses its stride: it is exported as the C-contiguous one.
  const ndarray one = make_view_as(bytes, DType::Int16, {1, 2}, {3, 2}, 0);
  DLManagedTensorVersioned* t = to_dlpack(one);
  EXPECT_EQ(t->dl_tensor.strides[0], 2);
  EXPECT_EQ(t->dl_tensor.strides[1], 1);
  t->deleter(t);
}

TEST_F(InteropDLPack, DeviceRequestsACpuArrayCannotMeet) {
  const ndarray a = iota(3);
  EXPECT_THROW(to_dlpack(a, {.device = Device::cuda(0)}), BufferError);
  DLManagedTensorVersioned* t = to_dlpack(a, {.device = Device::cpu(), .copy = false});
  EXPECT_EQ(t->dl_tensor.data, a.data());
  t->deleter(t);
}

TEST_F(InteropDLPack, ImportedDeleterRunsOnceWhenTheLastViewGoes) {
  ForeignTensor f({1, 2, 3, 4, 5, 6}, {2, 3});
  {
    const ndarray a = from_dlpack(&f.managed);
    EXPECT_EQ(a.data(), f.values.data());
    EXPECT_EQ(a.strides(), (Strides{24, 8}));  // null strides: C-contiguous
    const ndarray col = a.view({slice(), Index{std::int64_t{1}}});
    { const ndarray keep = a; }
    EXPECT_EQ(f.deleted, 0);
    const ndarray col_only = col;
    (void)col_only;
  }
  EXPECT_EQ(f.deleted, 1);
}

TEST_F(InteropDLPack, LegacyImportAndElementStridesAndByteOffset) {
  ForeignTensor f({0, 1, 2, 3, 4, 5, 6, 7}, {3}, {2});
  f.legacy.dl_tensor.byte_offset = sizeof(double);  // starts at values[1]
  {
    const ndarray a = from_dlpack(&f.legacy);
    EXPECT_EQ(a.strides(), (Strides{16}));
    EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{1, 3, 5}));
    EXPECT_TRUE(a.writeable());
  }
  EXPECT_EQ(f.deleted, 1);
}

TEST_F(InteropDLPack, RefusedImportsLeaveTheTensorUntouched) {
  ForeignTensor bf({0, 0}, {2});
  bf.managed.dl_tensor.dtype = {kDLBfloat, 16, 1};
  try {
    from_dlpack(&bf.managed);
    FAIL() << "expected BufferError";
  } catch (const BufferError& e) {
    EXPECT_NE(std::string(e.what()).find("kDLBfloat"), std::string::npos) << e.what();
  }
  ForeignTensor lanes({0, 0}, {2});
  lanes.managed.dl_tensor.dtype = {kDLFloat, 32, 4};
  EXPECT_THROW(from_dlpack(&lanes.managed), BufferError);
  ForeignTensor v2({0, 0}, {2});
  v2.managed.version = {2, 0};
  EXPECT_THROW(from_dlpack(&v2.managed), BufferError);
  ForeignTensor opencl({0, 0}, {2});
  opencl.managed.dl_tensor.device = {kDLOpenCL, 0};
  EXPECT_THROW(from_dlpack(&opencl.managed), BufferError);
  ForeignTensor negative({0, 0}, {2});
  negative.shape[0] = -2;
  EXPECT_THROW(from_dlpack(&negative.managed), BufferError);
  EXPECT_THROW(from_dlpack(static_cast<DLManagedTensorVersioned*>(nullptr)), ValueError);
  for (const ForeignTensor* f : {&bf, &lanes, &v2, &opencl, &negative}) EXPECT_EQ(f->deleted, 0);
}

TEST_F(InteropDLPack, ReadOnlyFlagOnImport) {
  ForeignTensor f({1, 2}, {2});
  f.managed.flags = kFlagReadOnly;
  ndarray a = from_dlpack(&f.managed);
  EXPECT_FALSE(a.writeable());
  EXPECT_THROW(a.fill(Scalar(0.0)), ValueError);
  EXPECT_EQ(f.values, (std::vector<double>{1, 2}));
}

TEST_F(InteropDLPack, CudaTensorWithoutAGpuIsABufferError) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  ForeignTensor f({1}, {1});
  f.managed.dl_tensor.device = {kDLCUDA, 0};
  EXPECT_THROW(from_dlpack(&f.managed), BufferError);
  EXPECT_EQ(f.deleted, 0);
}

// ---- CUDA

TEST_F(InteropDLPack, CudaExportAndRoundTrip) {
  SKIP_WITHOUT_GPU();
  const ndarray a = iota(8, DType::Float32, Device::cuda(0)).reshape({2, 4});
  DLManagedTensorVersioned* t = to_dlpack(a);
  EXPECT_EQ(t->dl_tensor.device.device_type, kDLCUDA);
  EXPECT_EQ(t->dl_tensor.device.device_id, 0);
  EXPECT_EQ(t->dl_tensor.data, a.data());
  ndarray b = from_dlpack(t);
  EXPECT_EQ(b.device(), Device::cuda(0));
  EXPECT_EQ(b.data(), a.data());
  b.fill(Scalar(3.0));
  EXPECT_EQ(a.to_vector<float>(), std::vector<float>(8, 3.0f));
}

TEST_F(InteropDLPack, CudaExportToTheHostIsACopy) {
  SKIP_WITHOUT_GPU();
  const ndarray a = iota(5, DType::Int32, Device::cuda(0));
  EXPECT_THROW(to_dlpack(a, {.device = Device::cpu(), .copy = false}), BufferError);
  DLManagedTensorVersioned* t = to_dlpack(a, {.device = Device::cpu()});
  EXPECT_EQ(t->dl_tensor.device.device_type, kDLCPU);
  EXPECT_EQ(t->flags, kFlagIsCopied);
  const auto* p = static_cast<const std::int32_t*>(t->dl_tensor.data);
  EXPECT_EQ(std::vector<std::int32_t>(p, p + 5), (std::vector<std::int32_t>{0, 1, 2, 3, 4}));
  t->deleter(t);
}

TEST_F(InteropDLPack, CudaExportOrdersTheConsumerStream) {
  SKIP_WITHOUT_GPU();
  const Stream producer = Stream::create(0, /*non_blocking=*/true);
  const Stream consumer = Stream::create(0, /*non_blocking=*/true);
  ndarray a;
  {
    StreamGuard g(producer);
    a = full({1 << 20}, Scalar(1.0f), {.dtype = DType::Float32, .device = Device::cuda(0)});
    // The producer's work stays pending for a while, so an unordered consumer would be idle.
    producer.launch_host_func([] { std::this_thread::sleep_for(std::chrono::milliseconds(300)); });
    DLManagedTensorVersioned* t = to_dlpack(a, {.stream = consumer});
    t->deleter(t);
  }
  EXPECT_FALSE(consumer.query());  // it waits for the producer
  consumer.synchronize();
  EXPECT_TRUE(producer.query());
  // synchronize = false (Python's stream=-1): nothing is ordered.
  producer.launch_host_func([] { std::this_thread::sleep_for(std::chrono::milliseconds(300)); });
  {
    StreamGuard g(producer);
    DLManagedTensorVersioned* t = to_dlpack(a, {.stream = consumer, .synchronize = false});
    t->deleter(t);
  }
  EXPECT_TRUE(consumer.query());
  producer.synchronize();
}

}  // namespace
}  // namespace cunp

// The CUB sorts on a CUDA device against the cpu device: every dtype through each
// path (one device-wide radix sort, a few long rows, many segmented rows), argsort's
// stability, complex orders, searchsorted and unique. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/sort.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

// Deterministic values with many repeats, NaN and ±0.0 for the float dtypes.
ndarray data(const Shape& shape, DType dt) {
  const ndarray i = arange(Scalar(shape_size(shape)), {.dtype = DType::Int64, .device = Device::cpu()});
  ndarray v = subtract(remainder(multiply(i, Scalar(std::int64_t{7919})), Scalar(std::int64_t{23})),
                       Scalar(std::int64_t{11}));
  ndarray f = v.astype(DType::Float64);
  if (is_inexact(dt)) {
    f = where(equal(v, Scalar(std::int64_t{5})), Operand(Scalar(std::nan(""))), Operand(f));
    f = where(equal(v, Scalar(std::int64_t{-3})), Operand(Scalar(-0.0)), Operand(f));
  }
  if (is_complex(dt)) {
    f = add(f, multiply(remainder(v, Scalar(std::int64_t{3})).astype(DType::Complex128),
                        Scalar(std::complex<double>(0, 1))));
  }
  return f.astype(dt).reshape(shape);
}

// Same shape, dtype and values (NaN where the other has NaN: the GPU sorts may change a
// NaN's sign and payload).
void expect_same(const ndarray& gpu_result, const ndarray& cpu_result) {
  ASSERT_EQ(gpu_result.shape(), cpu_result.shape());
  ASSERT_EQ(gpu_result.dtype(), cpu_result.dtype());
  const ndarray g = gpu_result.to(Device::cpu());
  const ndarray same = logical_or(equal(g, cpu_result), logical_and(isnan(g), isnan(cpu_result)));
  for (bool b : same.to_vector<bool>()) ASSERT_TRUE(b);
}

const DType kAll[] = {DType::Bool,    DType::Int8,    DType::UInt8,   DType::Int16,     DType::UInt16,
                      DType::Int32,   DType::UInt32,  DType::Int64,   DType::UInt64,    DType::Float16,
                      DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};

TEST(SortGpu, EveryDtypeEveryPath) {
  SKIP_WITHOUT_GPU();
  const Shape shapes[] = {{1000}, {70000}, {2, (1 << 20) + 7}, {300, 129}, {5, 3, 2}};
  for (DType dt : kAll) {
    for (const Shape& shape : shapes) {
      SCOPED_TRACE(std::string(name(dt)) + " " + shape_str(shape));
      const ndarray host = data(shape, dt);
      const ndarray dev = host.to(Device::cuda(0));
      expect_same(sort(dev), sort(host));
      expect_same(argsort(dev), argsort(host));  // both stable: identical indices
      expect_same(sort(dev, 0), sort(host, 0));
      expect_same(argsort(dev, std::nullopt), argsort(host, std::nullopt));
    }
  }
}

TEST(SortGpu, SearchsortedAndUnique) {
  SKIP_WITHOUT_GPU();
  for (DType dt : kAll) {
    SCOPED_TRACE(std::string(name(dt)));
    const ndarray hay = sort(data({4000}, dt));
    const ndarray q = data({17, 9}, dt);
    for (Side side : {Side::Left, Side::Right}) {
      expect_same(searchsorted(hay.to(Device::cuda(0)), q.to(Device::cuda(0)), side), searchsorted(hay, q, side));
    }
    const ndarray a = data({50, 40}, dt);
    const UniqueResult g = unique(a.to(Device::cuda(0)), {.return_index = true, .return_inverse = true,
                                                         .return_counts = true});
    const UniqueResult c = unique(a, {.return_index = true, .return_inverse = true, .return_counts = true});
    expect_same(g.values, c.values);
    expect_same(g.indices, c.indices);
    expect_same(g.inverse, c.inverse);
    expect_same(g.counts, c.counts);
  }
}

TEST(SortGpu, EmptyAndPartition) {
  SKIP_WITHOUT_GPU();
  const ndarray e = zeros({0, 4}, {.dtype = DType::Float32, .device = Device::cuda(0)});
  EXPECT_EQ(sort(e).shape(), (Shape{0, 4}));
  EXPECT_EQ(argsort(e, 0).dtype(), DType::Int64);
  const ndarray a = data({8, 33}, DType::Float32);
  expect_same(partition(a.to(Device::cuda(0)), {5}), sort(a));
}

}  // namespace
}  // namespace cunp

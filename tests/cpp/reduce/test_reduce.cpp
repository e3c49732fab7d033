// The C++ surface of the reductions (cunp/reduce.hpp) on the cpu device; the Python
// tests compare every case against NumPy.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <span>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/reduce.hpp"

namespace cunp {
namespace {

ndarray iota(const Shape& shape, DType dt = DType::Float64) {
  return arange(Scalar(shape_size(shape)), {.dtype = dt, .device = Device{}}).reshape(shape);
}

TEST(Reduce, SumAxesAndDtypes) {
  const ndarray a = iota({2, 3, 4}, DType::Int8);
  const ndarray all = sum(a);
  EXPECT_EQ(all.ndim(), 0);
  EXPECT_EQ(all.dtype(), DType::Int64);
  EXPECT_EQ(all.item().to_int64(), 276);
  const ndarray r = sum(a, {.axis = {0, -1}, .keepdims = true});
  EXPECT_EQ(r.shape(), (Shape{1, 3, 1}));
  EXPECT_EQ(r.to_vector<std::int64_t>(), (std::vector<std::int64_t>{60, 92, 124}));
  EXPECT_EQ(sum(iota({3}, DType::UInt8)).dtype(), DType::UInt64);
  EXPECT_EQ(sum(a, {.dtype = DType::Float32}).dtype(), DType::Float32);
}

TEST(Reduce, MeanVarStd) {
  const ndarray a = iota({2, 3}, DType::Int32);
  EXPECT_EQ(mean(a).dtype(), DType::Float64);
  EXPECT_DOUBLE_EQ(mean(a).item().to_double(), 2.5);
  EXPECT_DOUBLE_EQ(var(a).item().to_double(), 35.0 / 12.0);
  EXPECT_DOUBLE_EQ(std(a, {.ddof = 1}).item().to_double(), std::sqrt(3.5));
  EXPECT_EQ(mean(iota({4}, DType::Float16)).dtype(), DType::Float16);
}

TEST(Reduce, MinMaxArgNaN) {
  ndarray a = iota({5});
  const Index at[] = {std::int64_t{3}};
  a.set_item(std::span<const Index>(at), Scalar(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_TRUE(std::isnan(max(a).item().to_double()));
  EXPECT_EQ(argmax(a).item().to_int64(), 3);
  EXPECT_EQ(argmin(a).item().to_int64(), 3);
  EXPECT_DOUBLE_EQ(nanmax(a).item().to_double(), 4.0);
  EXPECT_DOUBLE_EQ(nansum(a).item().to_double(), 7.0);
  EXPECT_DOUBLE_EQ(nanmean(a).item().to_double(), 7.0 / 4.0);
  EXPECT_EQ(argmax(iota({2, 3}), {.axis = 1}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 2}));
}

TEST(Reduce, EmptyReductions) {
  const ndarray e = zeros({0, 3});
  EXPECT_EQ(sum(e, {.axis = 0}).to_vector<double>(), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(prod(e).item().to_double(), 1.0);
  EXPECT_EQ(max(e, {.axis = 1}).size(), 0);
  EXPECT_THROW(max(e, {.axis = 0}), ValueError);
  EXPECT_THROW(argmin(e), ValueError);
  try {
    min(e);
    FAIL();
  } catch (const ValueError& err) {
    EXPECT_STREQ(err.what(), "zero-size array to reduction operation minimum which has no identity");
  }
  EXPECT_TRUE(all(e).item().to_bool());
  EXPECT_FALSE(any(e).item().to_bool());
}

TEST(Reduce, AxisErrorsAndOut) {
  const ndarray a = iota({2, 3});
  EXPECT_THROW(sum(a, {.axis = 2}), AxisError);
  EXPECT_THROW(sum(a, {.axis = {0, -2}}), ValueError);
  // Both on the cpu explicitly: the default device is cuda:0 where a GPU is present.
  ndarray out = zeros({3}, {.dtype = DType::Int32, .device = Device::cpu()});
  const ndarray r = sum(a, {.axis = 0, .out = out});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(out.to_vector<std::int32_t>(), (std::vector<std::int32_t>{3, 5, 7}));
  EXPECT_THROW(sum(a, {.axis = 1, .out = out}), ValueError);
  EXPECT_EQ(count_nonzero(a).item().to_int64(), 5);
  EXPECT_DOUBLE_EQ(ptp(a).item().to_double(), 5.0);
}

}  // namespace
}  // namespace cunp

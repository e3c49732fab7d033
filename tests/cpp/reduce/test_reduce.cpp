// The C++ surface of the reductions (cunp/reduce.hpp) on the cpu device; the Python
// tests compare every case against NumPy.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <span>
#include <string>

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

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no exception";
}

TEST(Reduce, EmptyExtremaMessagesAndInitial) {
  const ndarray e = zeros({0, 3}, {.dtype = DType::Int8, .device = Device::cpu()});
  // nanmin/nanmax are fmin/fmax reductions for every dtype, integers included.
  EXPECT_EQ(error_of([&] { nanmin(e); }), "zero-size array to reduction operation fmin which has no identity");
  EXPECT_EQ(error_of([&] { nanmax(e, {.axis = 0}); }), "zero-size array to reduction operation fmax which has no identity");
  EXPECT_EQ(nanmax(e, {.axis = 1}).shape(), (Shape{0}));
  EXPECT_EQ(nanmax(e, {.axis = 0, .initial = Scalar(7)}).to_vector<std::int8_t>(), (std::vector<std::int8_t>{7, 7, 7}));
  EXPECT_EQ(error_of([&] { ptp(e, {.axis = 0}); }), "zero-size array to reduction operation maximum which has no identity");
  EXPECT_EQ(error_of([&] { argmax(e, {.axis = 0}); }), "attempt to get argmax of an empty sequence");
  EXPECT_EQ(argmin(e, {.axis = 1}).shape(), (Shape{0}));
  const ndarray w = zeros({0}, {.dtype = DType::Bool, .device = Device::cpu()});
  EXPECT_EQ(error_of([&] { nanmin(zeros({0}, {.dtype = DType::Int32, .device = Device::cpu()}), {.where = w}); }),
            "reduction operation 'fmin' does not have an identity, so to use a where mask one has to specify 'initial'");
}

TEST(Reduce, ArgReduceOutAndDtype) {
  const ndarray a = iota({2, 3});
  // out= of any dtype that casts safely to int64.
  ndarray o8 = zeros({2}, {.dtype = DType::Int8, .device = Device::cpu()});
  EXPECT_EQ(argmax(a, {.axis = 1, .out = o8}).data(), o8.data());
  EXPECT_EQ(o8.to_vector<std::int8_t>(), (std::vector<std::int8_t>{2, 2}));
  const ndarray ou64 = zeros({2}, {.dtype = DType::UInt64, .device = Device::cpu()});
  EXPECT_EQ(error_of([&] { argmax(a, {.axis = 1, .out = ou64}); }),
            "Cannot cast array data from dtype('uint64') to dtype('int64') according to the rule 'safe'");
  EXPECT_EQ(error_of([&] { argmin(a, {.axis = 0, .out = o8}); }), "output array does not match result of np.argmin.");
  // CuPy's dtype=: the dtype of the indices.
  const ndarray r = argmin(a, {.axis = 0, .dtype = DType::Int16});
  EXPECT_EQ(r.dtype(), DType::Int16);
  EXPECT_EQ(r.to_vector<std::int16_t>(), (std::vector<std::int16_t>{0, 0, 0}));
  EXPECT_THROW(argmax(a, {.dtype = DType::UInt32}), TypeError);
  EXPECT_THROW(argmax(a, {.dtype = DType::Float64}), TypeError);
  // A 0-d input counts as 1-d for the axis.
  const ndarray s = iota({});
  EXPECT_EQ(argmax(s, {.axis = -1}).item().to_int64(), 0);
  EXPECT_EQ(error_of([&] { argmax(s, {.axis = 1}); }), "axis 1 is out of bounds for array of dimension 1");
}

}  // namespace
}  // namespace cunp

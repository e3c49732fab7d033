// The C++ surface of the creation functions (src/creation/creation.cpp, copyto.cpp);
// values and dtypes were checked against NumPy 2.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cunp/copyto.hpp"
#include "cunp/cunp.hpp"

namespace {

using cunp::DType;
using cunp::ndarray;
using cunp::Scalar;

const cunp::Device cpu = cunp::Device::cpu();

TEST(CoreCreation, FortranOrderStrides) {
  EXPECT_EQ(cunp::zeros({2, 3}, {.order = cunp::Order::F, .device = cpu}).strides(), (cunp::Strides{8, 16}));
  EXPECT_EQ(cunp::eye(3, 4, 1, {.dtype = DType::Int32, .order = cunp::Order::F, .device = cpu}).strides(),
            (cunp::Strides{4, 12}));
  EXPECT_THROW(cunp::zeros({2}, {.order = cunp::Order::K, .device = cpu}), cunp::ValueError);
  EXPECT_THROW(cunp::zeros({2, -1}, {.device = cpu}), cunp::ValueError);
  EXPECT_THROW(cunp::eye(-1, std::nullopt, 0, {.device = cpu}), cunp::ValueError);
}

TEST(CoreCreation, ArangeDtypeRule) {
  // intp promoted with each argument's dtype: uint64 arguments give float64.
  EXPECT_EQ(cunp::arange(Scalar(5), {.device = cpu}).dtype(), DType::Int64);
  EXPECT_EQ(cunp::arange(Scalar::of(DType::Int8, Scalar(5)), {.device = cpu}).dtype(), DType::Int64);
  EXPECT_EQ(cunp::arange(Scalar::of(DType::UInt64, Scalar(5)), {.device = cpu}).dtype(), DType::Float64);
  EXPECT_EQ(cunp::arange(Scalar(std::uint64_t{1} << 63), Scalar((std::uint64_t{1} << 63) + 3), Scalar(1),
                         {.device = cpu}).dtype(),
            DType::Float64);
}

TEST(CoreCreation, ArangeLengthAndValues) {
  // Values are start + i*(next - start) as stored: np.arange(0.5, 5, 1.5, dtype=int) == [0, 2, 4].
  EXPECT_EQ(cunp::arange(Scalar(0.5), Scalar(5), Scalar(1.5), {.dtype = DType::Int64, .device = cpu})
                .to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 2, 4}));
  // Exact integer lengths near 2**63.
  const ndarray big = cunp::arange(Scalar(1), Scalar(INT64_MAX), Scalar(std::int64_t{1} << 62), {.device = cpu});
  EXPECT_EQ(big.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, (std::int64_t{1} << 62) + 1}));
  // Wrapping in the result dtype.
  EXPECT_EQ(cunp::arange(Scalar(250), Scalar(258), Scalar(3), {.dtype = DType::UInt8, .device = cpu})
                .to_vector<std::uint8_t>(),
            (std::vector<std::uint8_t>{250, 253, 0}));
  // Complex arguments: the smaller of the real and imaginary lengths.
  EXPECT_EQ(cunp::arange(Scalar(0), Scalar(std::complex<double>(3, 3)), Scalar(1), {.device = cpu}).size(), 3);
  EXPECT_EQ(cunp::arange(Scalar(0), Scalar(std::complex<double>(5, 0)), Scalar(1), {.device = cpu}).size(), 0);
  EXPECT_THROW(cunp::arange(Scalar(0), Scalar(5), Scalar(0), {.device = cpu}), cunp::ZeroDivisionError);
  EXPECT_THROW(cunp::arange(Scalar(3), {.dtype = DType::Bool, .device = cpu}), cunp::TypeError);
  EXPECT_THROW(cunp::arange(Scalar(-3), Scalar(3), Scalar(1), {.dtype = DType::UInt8, .device = cpu}),
               cunp::OverflowError);
}

TEST(CoreCreation, CopytoCastingScalarsAndMasks) {
  const ndarray dst = cunp::zeros({3}, {.dtype = DType::Int8, .device = cpu});
  // Array data under same_kind: float64 into int8 is refused, with NumPy's message.
  try {
    cunp::copyto(dst, cunp::ones({3}, {.device = cpu}));
    FAIL() << "no casting error";
  } catch (const cunp::TypeError& e) {
    EXPECT_STREQ(e.what(),
                 "Cannot cast array data from dtype('float64') to dtype('int8') according to the rule 'same_kind'");
  }
  // NEP 50 scalars: a Python int that fits is fine, one that does not is an OverflowError.
  cunp::copyto(dst, Scalar(100));
  EXPECT_EQ(dst.to_vector<std::int8_t>(), (std::vector<std::int8_t>{100, 100, 100}));
  EXPECT_THROW(cunp::copyto(dst, Scalar(300)), cunp::OverflowError);
  EXPECT_THROW(cunp::copyto(dst, Scalar(1.5)), cunp::TypeError);
  // A mask broadcast over dst.
  const ndarray mask = cunp::greater(cunp::asarray(std::vector<std::int64_t>{1, 0, 1}, cpu), Scalar(0));
  cunp::copyto(dst, Scalar(7), {.where = mask});
  EXPECT_EQ(dst.to_vector<std::int8_t>(), (std::vector<std::int8_t>{7, 100, 7}));
  EXPECT_THROW(cunp::copyto(dst, Scalar(1), {.where = cunp::zeros({2}, {.dtype = DType::Bool, .device = cpu})}),
               cunp::ValueError);
  ndarray ro = cunp::zeros({3}, {.device = cpu});
  ro.set_writeable(false);
  EXPECT_THROW(cunp::copyto(ro, Scalar(1)), cunp::ValueError);
}

}  // namespace

// src/sort/sort_keys.h, the keys shared by the cpu sorts and the CUDA kernels: their
// integer order is NumPy's order, value keys invert exactly, NaN keys are the maximum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "cunp/dtype.hpp"
#include "sort/sort_keys.h"

namespace cunp::sorting {
namespace {

const float kF[] = {-std::numeric_limits<float>::infinity(), -3.5f, -1e-40f, -0.0f, 0.0f, 1e-40f, 2.0f,
                    std::numeric_limits<float>::max(), std::numeric_limits<float>::infinity()};

std::uint32_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

TEST(SortKeys, FloatOrderAndNaN) {
  for (std::size_t i = 0; i + 1 < std::size(kF); ++i) {
    const auto a = SortKey<ops::f32>::to_key(kF[i]), b = SortKey<ops::f32>::to_key(kF[i + 1]);
    if (kF[i] == kF[i + 1]) {
      EXPECT_EQ(a, b) << kF[i];  // -0.0 == 0.0
    } else {
      EXPECT_LT(a, b) << kF[i];
    }
    EXPECT_LT(F32Bits::to_value_key(bits(kF[i])), F32Bits::to_value_key(bits(kF[i + 1])));  // -0.0 below 0.0
  }
  const float nans[] = {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN()};
  for (float nan : nans) {
    EXPECT_EQ(SortKey<ops::f32>::to_key(nan), ~0u);
    EXPECT_EQ(F32Bits::to_value_key(bits(nan)), ~0u);
    EXPECT_TRUE(std::isnan(SortKey<ops::f32>::from_key(~0u)));
    EXPECT_TRUE(sort_less(std::numeric_limits<float>::infinity(), nan));
    EXPECT_FALSE(sort_less(nan, nan));
  }
  for (float x : kF) EXPECT_EQ(F32Bits::from_key(F32Bits::to_value_key(bits(x))), bits(x)) << x;
}

TEST(SortKeys, DoubleAndHalf) {
  EXPECT_LT(SortKey<ops::f64>::to_key(-1.0), SortKey<ops::f64>::to_key(0.5));
  EXPECT_EQ(SortKey<ops::f64>::to_key(-0.0), SortKey<ops::f64>::to_key(0.0));
  EXPECT_EQ(SortKey<ops::f64>::to_key(std::nan("")), ~0ull);
  const float hv[] = {-65504.0f, -1.0f, -0.0f, 0.0f, 6e-8f, 1.0f, 65504.0f};
  for (std::size_t i = 0; i + 1 < std::size(hv); ++i) {
    const ops::half a{float_to_float16(hv[i])}, b{float_to_float16(hv[i + 1])};
    EXPECT_LT(F16Bits::to_value_key(a.bits), F16Bits::to_value_key(b.bits)) << hv[i];
    EXPECT_EQ(F16Bits::from_key(F16Bits::to_value_key(a.bits)), a.bits);
    if (hv[i] != hv[i + 1]) {
      EXPECT_TRUE(sort_less(a, b)) << hv[i];
    }
  }
  const ops::half nan{0x7e01}, neg_nan{0xfe00}, inf{0x7c00};
  EXPECT_TRUE(sort_less(inf, nan));
  EXPECT_TRUE(sort_less(inf, neg_nan));
  EXPECT_EQ(SortKey<ops::half>::to_key(neg_nan), 0xffff);
}

TEST(SortKeys, IntegersAndBool) {
  EXPECT_LT(SortKey<ops::i8>::to_key(-128), SortKey<ops::i8>::to_key(-1));
  EXPECT_LT(SortKey<ops::i8>::to_key(-1), SortKey<ops::i8>::to_key(0));
  EXPECT_EQ(SortKey<ops::i32>::from_key(SortKey<ops::i32>::to_key(-123456)), -123456);
  EXPECT_LT(SortKey<ops::i64>::to_key(std::numeric_limits<ops::i64>::min()), SortKey<ops::i64>::to_key(0));
  EXPECT_LT(SortKey<bool>::to_key(false), SortKey<bool>::to_key(true));
}

TEST(SortKeys, ComplexCategories) {
  const double nan = std::nan("");
  const ops::c128 order[] = {{1, 0}, {2, -5}, {1, nan}, {3, nan}, {nan, -1}, {nan, 4}, {nan, nan}};
  for (std::size_t i = 0; i + 1 < std::size(order); ++i) {
    EXPECT_TRUE(sort_less(order[i], order[i + 1])) << i;
    EXPECT_FALSE(sort_less(order[i + 1], order[i])) << i;
  }
  EXPECT_EQ(complex_category(ops::c64{1, 2}), 0);
  EXPECT_EQ(complex_category(ops::c64{1, std::nanf("")}), 1);
  EXPECT_EQ(complex_category(ops::c64{std::nanf(""), 1}), 2);
}

}  // namespace
}  // namespace cunp::sorting

// tests/cpp/core/test_printing.cpp — repr/str of arrays and scalars against strings
// NumPy 2.4 printed for the same values (default print options).
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/printing.hpp"
#include "cunp/dtype.hpp"

namespace cunp::detail {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();
constexpr float kInff = std::numeric_limits<float>::infinity();

template <typename T>
std::string format_repr(const std::vector<T>& data, std::vector<std::int64_t> shape, DType dt) {
  return format_array(data.data(), shape, dt, true);
}
template <typename T>
std::string format_str(const std::vector<T>& data, std::vector<std::int64_t> shape, DType dt) {
  return format_array(data.data(), shape, dt, false);
}

// float16 elements as raw bits.
std::vector<std::uint16_t> halves(std::initializer_list<float> values) {
  std::vector<std::uint16_t> out;
  for (float v : values) out.push_back(float_to_float16(v));
  return out;
}

// 0, 1, 2, ... n-1 (wrapping in narrow types), times `step`.
template <typename T>
std::vector<T> scaled_iota(std::int64_t n, std::int64_t step) {
  std::vector<T> out;
  for (std::int64_t i = 0; i < n; ++i) out.push_back(static_cast<T>(i * step));
  return out;
}
template <typename T>
std::vector<T> iota(std::int64_t n) {
  return scaled_iota<T>(n, 1);
}

// Exactly representable values with varied digit counts: (i * 7919 % 1000) / 8 - 60.
std::vector<double> fractions(std::int64_t n) {
  std::vector<double> out;
  for (std::int64_t i = 0; i < n; ++i)
    out.push_back(static_cast<double>(i * 7919 % 1000) / 8.0 - 60.0);
  return out;
}
std::vector<float> fractions_f(std::int64_t n) {
  std::vector<float> out;
  for (double v : fractions(n)) out.push_back(static_cast<float>(v));
  return out;
}

// Every third element true.
std::vector<std::uint8_t> alternating(std::int64_t n) {
  std::vector<std::uint8_t> out;
  for (std::int64_t i = 0; i < n; ++i) out.push_back(i % 3 == 0 ? 1 : 0);
  return out;
}

// 0..n-1 with every element the summary hides set to 10^15.
std::vector<std::int64_t> wide_middle(std::int64_t n) {
  std::vector<std::int64_t> out = iota<std::int64_t>(n);
  for (std::int64_t i = 3; i < n - 3; ++i) out[static_cast<std::size_t>(i)] = 1000000000000000;
  return out;
}

TEST(FormatArray, ZeroDimInt64) {
  const auto data = std::vector<std::int64_t>{5};
  EXPECT_EQ(format_repr(data, {}, DType::Int64), R"(array(5))");
  EXPECT_EQ(format_str(data, {}, DType::Int64), R"(5)");
}

TEST(FormatArray, ZeroDimFloat32) {
  const auto data = std::vector<float>{1.5f};
  EXPECT_EQ(format_repr(data, {}, DType::Float32), R"(array(1.5, dtype=float32))");
  EXPECT_EQ(format_str(data, {}, DType::Float32), R"(1.5)");
}

TEST(FormatArray, ZeroDimFloat64Large) {
  const auto data = std::vector<double>{1e+20};
  EXPECT_EQ(format_repr(data, {}, DType::Float64), R"(array(1.e+20))");
  EXPECT_EQ(format_str(data, {}, DType::Float64), R"(1e+20)");
}

TEST(FormatArray, ZeroDimFloat64Integral) {
  const auto data = std::vector<double>{3.0};
  EXPECT_EQ(format_repr(data, {}, DType::Float64), R"(array(3.))");
  EXPECT_EQ(format_str(data, {}, DType::Float64), R"(3.0)");
}

TEST(FormatArray, ZeroDimBool) {
  const auto data = std::vector<std::uint8_t>{1};
  EXPECT_EQ(format_repr(data, {}, DType::Bool), R"(array(True))");
  EXPECT_EQ(format_str(data, {}, DType::Bool), R"(True)");
}

TEST(FormatArray, ZeroDimComplex128) {
  const auto data = std::vector<std::complex<double>>{{1.0, 2.0}};
  EXPECT_EQ(format_repr(data, {}, DType::Complex128), R"(array(1.+2.j))");
  EXPECT_EQ(format_str(data, {}, DType::Complex128), R"((1+2j))");
}

TEST(FormatArray, ZeroDimNaN) {
  const auto data = std::vector<double>{kNaN};
  EXPECT_EQ(format_repr(data, {}, DType::Float64), R"(array(nan))");
  EXPECT_EQ(format_str(data, {}, DType::Float64), R"(nan)");
}

TEST(FormatArray, ZeroDimNegInf) {
  const auto data = std::vector<float>{-kInff};
  EXPECT_EQ(format_repr(data, {}, DType::Float32), R"(array(-inf, dtype=float32))");
  EXPECT_EQ(format_str(data, {}, DType::Float32), R"(-inf)");
}

TEST(FormatArray, ZeroDimInt8) {
  const auto data = std::vector<std::int8_t>{-7};
  EXPECT_EQ(format_repr(data, {}, DType::Int8), R"(array(-7, dtype=int8))");
  EXPECT_EQ(format_str(data, {}, DType::Int8), R"(-7)");
}

TEST(FormatArray, ZeroDimFloat16) {
  const auto data = halves({1000.0f});
  EXPECT_EQ(format_repr(data, {}, DType::Float16), R"(array(1.e+03, dtype=float16))");
  EXPECT_EQ(format_str(data, {}, DType::Float16), R"(1e+03)");
}

TEST(FormatArray, EmptyFloat64) {
  const auto data = std::vector<double>{};
  EXPECT_EQ(format_repr(data, {0}, DType::Float64), R"(array([], dtype=float64))");
  EXPECT_EQ(format_str(data, {0}, DType::Float64), R"([])");
}

TEST(FormatArray, EmptyInt64) {
  const auto data = std::vector<std::int64_t>{};
  EXPECT_EQ(format_repr(data, {0}, DType::Int64), R"(array([], dtype=int64))");
  EXPECT_EQ(format_str(data, {0}, DType::Int64), R"([])");
}

TEST(FormatArray, EmptyTwoDim) {
  const auto data = std::vector<double>{};
  EXPECT_EQ(format_repr(data, {0, 3}, DType::Float64), R"(array([], shape=(0, 3), dtype=float64))");
  EXPECT_EQ(format_str(data, {0, 3}, DType::Float64), R"([])");
}

TEST(FormatArray, EmptyBoolTrailingZero) {
  const auto data = std::vector<std::uint8_t>{};
  EXPECT_EQ(format_repr(data, {3, 0}, DType::Bool), R"(array([], shape=(3, 0), dtype=bool))");
  EXPECT_EQ(format_str(data, {3, 0}, DType::Bool), R"([])");
}

TEST(FormatArray, EmptyThreeDimComplex64) {
  const auto data = std::vector<std::complex<float>>{};
  EXPECT_EQ(format_repr(data, {2, 0, 4}, DType::Complex64),
            R"(array([], shape=(2, 0, 4), dtype=complex64))");
  EXPECT_EQ(format_str(data, {2, 0, 4}, DType::Complex64), R"([])");
}

TEST(FormatArray, Int64Vector) {
  const auto data = std::vector<std::int64_t>{1, 2, 3};
  EXPECT_EQ(format_repr(data, {3}, DType::Int64), R"(array([1, 2, 3]))");
  EXPECT_EQ(format_str(data, {3}, DType::Int64), R"([1 2 3])");
}

TEST(FormatArray, Int64RightAligned) {
  const auto data = std::vector<std::int64_t>{1, -20, 300, 4};
  EXPECT_EQ(format_repr(data, {2, 2}, DType::Int64), R"(array([[  1, -20],
       [300,   4]]))");
  EXPECT_EQ(format_str(data, {2, 2}, DType::Int64), R"([[  1 -20]
 [300   4]])");
}

TEST(FormatArray, Int8Suffix) {
  const auto data = std::vector<std::int8_t>{1, -2, 100};
  EXPECT_EQ(format_repr(data, {3}, DType::Int8), R"(array([  1,  -2, 100], dtype=int8))");
  EXPECT_EQ(format_str(data, {3}, DType::Int8), R"([  1  -2 100])");
}

TEST(FormatArray, UInt8Suffix) {
  const auto data = std::vector<std::uint8_t>{0, 255};
  EXPECT_EQ(format_repr(data, {2}, DType::UInt8), R"(array([  0, 255], dtype=uint8))");
  EXPECT_EQ(format_str(data, {2}, DType::UInt8), R"([  0 255])");
}

TEST(FormatArray, Int16Suffix) {
  const auto data = std::vector<std::int16_t>{-32768, 32767};
  EXPECT_EQ(format_repr(data, {2}, DType::Int16), R"(array([-32768,  32767], dtype=int16))");
  EXPECT_EQ(format_str(data, {2}, DType::Int16), R"([-32768  32767])");
}

TEST(FormatArray, UInt16Suffix) {
  const auto data = std::vector<std::uint16_t>{7, 65535};
  EXPECT_EQ(format_repr(data, {2}, DType::UInt16), R"(array([    7, 65535], dtype=uint16))");
  EXPECT_EQ(format_str(data, {2}, DType::UInt16), R"([    7 65535])");
}

TEST(FormatArray, Int32Suffix) {
  const auto data = std::vector<std::int32_t>{-2147483647 - 1, 5};
  EXPECT_EQ(format_repr(data, {2}, DType::Int32),
            R"(array([-2147483648,           5], dtype=int32))");
  EXPECT_EQ(format_str(data, {2}, DType::Int32), R"([-2147483648           5])");
}

TEST(FormatArray, UInt32Suffix) {
  const auto data = std::vector<std::uint32_t>{4294967295u, 0};
  EXPECT_EQ(format_repr(data, {2}, DType::UInt32),
            R"(array([4294967295,          0], dtype=uint32))");
  EXPECT_EQ(format_str(data, {2}, DType::UInt32), R"([4294967295          0])");
}

TEST(FormatArray, Int64Extremes) {
  const auto data = std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), 0,
                                              std::numeric_limits<std::int64_t>::max()};
  EXPECT_EQ(format_repr(data, {3}, DType::Int64),
            R"(array([-9223372036854775808,                    0,  9223372036854775807]))");
  EXPECT_EQ(format_str(data, {3}, DType::Int64),
            R"([-9223372036854775808                    0  9223372036854775807])");
}

TEST(FormatArray, UInt64Max) {
  const auto data = std::vector<std::uint64_t>{18446744073709551615ull, 1};
  EXPECT_EQ(format_repr(data, {2}, DType::UInt64),
            R"(array([18446744073709551615,                    1], dtype=uint64))");
  EXPECT_EQ(format_str(data, {2}, DType::UInt64), R"([18446744073709551615                    1])");
}

TEST(FormatArray, Float64Integral) {
  const auto data = std::vector<double>{1.0, 2.0};
  EXPECT_EQ(format_repr(data, {2}, DType::Float64), R"(array([1., 2.]))");
  EXPECT_EQ(format_str(data, {2}, DType::Float64), R"([1. 2.])");
}

TEST(FormatArray, Float32Integral) {
  const auto data = std::vector<float>{1.0f, 2.0f};
  EXPECT_EQ(format_repr(data, {2}, DType::Float32), R"(array([1., 2.], dtype=float32))");
  EXPECT_EQ(format_str(data, {2}, DType::Float32), R"([1. 2.])");
}

TEST(FormatArray, Float64RightPadded) {
  const auto data = std::vector<double>{1.5, 2.25, -3.0};
  EXPECT_EQ(format_repr(data, {3}, DType::Float64), R"(array([ 1.5 ,  2.25, -3.  ]))");
  EXPECT_EQ(format_str(data, {3}, DType::Float64), R"([ 1.5   2.25 -3.  ])");
}

TEST(FormatArray, NegativeZero) {
  const auto data = std::vector<double>{-0.0, 0.0, 1.0};
  EXPECT_EQ(format_repr(data, {3}, DType::Float64), R"(array([-0.,  0.,  1.]))");
  EXPECT_EQ(format_str(data, {3}, DType::Float64), R"([-0.  0.  1.])");
}

TEST(FormatArray, NonFiniteMixed) {
  const auto data = std::vector<double>{1.5, kNaN, kInf, -kInf};
  EXPECT_EQ(format_repr(data, {4}, DType::Float64), R"(array([ 1.5,  nan,  inf, -inf]))");
  EXPECT_EQ(format_str(data, {4}, DType::Float64), R"([ 1.5  nan  inf -inf])");
}

TEST(FormatArray, AllNaN) {
  const auto data = std::vector<double>{kNaN, kNaN};
  EXPECT_EQ(format_repr(data, {2}, DType::Float64), R"(array([nan, nan]))");
  EXPECT_EQ(format_str(data, {2}, DType::Float64), R"([nan nan])");
}

TEST(FormatArray, InfAndNegInfOnly) {
  const auto data = std::vector<float>{kInff, -kInff};
  EXPECT_EQ(format_repr(data, {2}, DType::Float32), R"(array([ inf, -inf], dtype=float32))");
  EXPECT_EQ(format_str(data, {2}, DType::Float32), R"([ inf -inf])");
}

TEST(FormatArray, ScientificMixedMagnitudes) {
  const auto data = std::vector<double>{10000000000.0, 1.5e-05, -2.0};
  EXPECT_EQ(format_repr(data, {3}, DType::Float64), R"(array([ 1.0e+10,  1.5e-05, -2.0e+00]))");
  EXPECT_EQ(format_str(data, {3}, DType::Float64), R"([ 1.0e+10  1.5e-05 -2.0e+00])");
}

TEST(FormatArray, ScientificThreeDigitExponents) {
  const auto data = std::vector<double>{1e-100, 1e+100, 5.0};
  EXPECT_EQ(format_repr(data, {3}, DType::Float64), R"(array([1.e-100, 1.e+100, 5.e+000]))");
  EXPECT_EQ(format_str(data, {3}, DType::Float64), R"([1.e-100 1.e+100 5.e+000])");
}

TEST(FormatArray, ScientificWithNaN) {
  const auto data = std::vector<double>{10000000000.0, kNaN, -kInf};
  EXPECT_EQ(format_repr(data, {3}, DType::Float64), R"(array([1.e+10,    nan,   -inf]))");
  EXPECT_EQ(format_str(data, {3}, DType::Float64), R"([1.e+10    nan   -inf])");
}

TEST(FormatArray, ScientificZeros) {
  const auto data = std::vector<double>{0.0, 1e-09, -0.0};
  EXPECT_EQ(format_repr(data, {3}, DType::Float64), R"(array([ 0.e+00,  1.e-09, -0.e+00]))");
  EXPECT_EQ(format_str(data, {3}, DType::Float64), R"([ 0.e+00  1.e-09 -0.e+00])");
}

TEST(FormatArray, RatioExactly1000StaysPositional) {
  const auto data = std::vector<double>{1.0, 1000.0};
  EXPECT_EQ(format_repr(data, {2}, DType::Float64), R"(array([   1., 1000.]))");
  EXPECT_EQ(format_str(data, {2}, DType::Float64), R"([   1. 1000.])");
}

TEST(FormatArray, RatioAbove1000GoesScientific) {
  const auto data = std::vector<double>{1.0, 1000.5};
  EXPECT_EQ(format_repr(data, {2}, DType::Float64), R"(array([1.0000e+00, 1.0005e+03]))");
  EXPECT_EQ(format_str(data, {2}, DType::Float64), R"([1.0000e+00 1.0005e+03])");
}

TEST(FormatArray, Float64MaxCutoff) {
  const auto data = std::vector<double>{99999999.0, 100000000.0};
  EXPECT_EQ(format_repr(data, {2}, DType::Float64), R"(array([9.9999999e+07, 1.0000000e+08]))");
  EXPECT_EQ(format_str(data, {2}, DType::Float64), R"([9.9999999e+07 1.0000000e+08])");
}

TEST(FormatArray, Float32MaxCutoff) {
  const auto data = std::vector<float>{999999.0f, 1.0f};
  EXPECT_EQ(format_repr(data, {2}, DType::Float32),
            R"(array([9.99999e+05, 1.00000e+00], dtype=float32))");
  EXPECT_EQ(format_str(data, {2}, DType::Float32), R"([9.99999e+05 1.00000e+00])");
}

TEST(FormatArray, Float32MillionIsScientific) {
  const auto data = std::vector<float>{1000000.0f};
  EXPECT_EQ(format_repr(data, {1}, DType::Float32), R"(array([1.e+06], dtype=float32))");
  EXPECT_EQ(format_str(data, {1}, DType::Float32), R"([1.e+06])");
}

TEST(FormatArray, Float32TenThousandthComparesInFloat32) {
  const auto data = std::vector<float>{0.0001f};
  EXPECT_EQ(format_repr(data, {1}, DType::Float32), R"(array([0.0001], dtype=float32))");
  EXPECT_EQ(format_str(data, {1}, DType::Float32), R"([0.0001])");
}

TEST(FormatArray, Float16ThousandIsScientific) {
  const auto data = halves({1000.0f, 1.0f});
  EXPECT_EQ(format_repr(data, {2}, DType::Float16), R"(array([1.e+03, 1.e+00], dtype=float16))");
  EXPECT_EQ(format_str(data, {2}, DType::Float16), R"([1.e+03 1.e+00])");
}

TEST(FormatArray, Float16ShortestDigits) {
  const auto data = halves({0.1f, 0.2f, 0.3f});
  EXPECT_EQ(format_repr(data, {3}, DType::Float16), R"(array([0.1, 0.2, 0.3], dtype=float16))");
  EXPECT_EQ(format_str(data, {3}, DType::Float16), R"([0.1 0.2 0.3])");
}

TEST(FormatArray, Float16EvenBoundaryDigits) {
  const auto data = halves({6032.0f});
  EXPECT_EQ(format_repr(data, {1}, DType::Float16), R"(array([6.03e+03], dtype=float16))");
  EXPECT_EQ(format_str(data, {1}, DType::Float16), R"([6.03e+03])");
}

TEST(FormatArray, Float16Extremes) {
  const auto data = halves({65504.0f, 6e-08f, -0.0f});
  EXPECT_EQ(format_repr(data, {3}, DType::Float16),
            R"(array([ 6.55e+04,  5.96e-08, -0.00e+00], dtype=float16))");
  EXPECT_EQ(format_str(data, {3}, DType::Float16), R"([ 6.55e+04  5.96e-08 -0.00e+00])");
}

TEST(FormatArray, Float32ShortestDigits) {
  const auto data = std::vector<float>{0.1f, 0.3333333333333333f};
  EXPECT_EQ(format_repr(data, {2}, DType::Float32),
            R"(array([0.1       , 0.33333334], dtype=float32))");
  EXPECT_EQ(format_str(data, {2}, DType::Float32), R"([0.1        0.33333334])");
}

TEST(FormatArray, Float32MinDigitsPastShortest) {
  const auto data = std::vector<float>{85263.28125f, 2.0f, 1e-05f};
  EXPECT_EQ(format_repr(data, {3}, DType::Float32),
            R"(array([8.526328e+04, 2.000000e+00, 1.000000e-05], dtype=float32))");
  EXPECT_EQ(format_str(data, {3}, DType::Float32), R"([8.526328e+04 2.000000e+00 1.000000e-05])");
}

TEST(FormatArray, Float64PrecisionCutoff) {
  const auto data =
      std::vector<double>{0.30000000000000004, 0.3333333333333333, 0.6666666666666666};
  EXPECT_EQ(format_repr(data, {3}, DType::Float64),
            R"(array([0.3       , 0.33333333, 0.66666667]))");
  EXPECT_EQ(format_str(data, {3}, DType::Float64), R"([0.3        0.33333333 0.66666667])");
}

TEST(FormatArray, Float64Subnormal) {
  const auto data = std::vector<double>{5e-324, 1.0};
  EXPECT_EQ(format_repr(data, {2}, DType::Float64), R"(array([5.e-324, 1.e+000]))");
  EXPECT_EQ(format_str(data, {2}, DType::Float64), R"([5.e-324 1.e+000])");
}

TEST(FormatArray, Float64Max) {
  const auto data = std::vector<double>{1.7976931348623157e+308, -2.2250738585072014e-308};
  EXPECT_EQ(format_repr(data, {2}, DType::Float64),
            R"(array([ 1.79769313e+308, -2.22507386e-308]))");
  EXPECT_EQ(format_str(data, {2}, DType::Float64), R"([ 1.79769313e+308 -2.22507386e-308])");
}

TEST(FormatArray, TwoDimInt) {
  const auto data = std::vector<std::int64_t>{0, 1, 2, 3, 4, 5};
  EXPECT_EQ(format_repr(data, {2, 3}, DType::Int64), R"(array([[0, 1, 2],
       [3, 4, 5]]))");
  EXPECT_EQ(format_str(data, {2, 3}, DType::Int64), R"([[0 1 2]
 [3 4 5]])");
}

TEST(FormatArray, ThreeDimFloatBlankLines) {
  const auto data = std::vector<double>{0.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0};
  EXPECT_EQ(format_repr(data, {2, 2, 2}, DType::Float64), R"(array([[[0. , 1.5],
        [2. , 3. ]],

       [[4. , 5. ],
        [6. , 7. ]]]))");
  EXPECT_EQ(format_str(data, {2, 2, 2}, DType::Float64), R"([[[0.  1.5]
  [2.  3. ]]

 [[4.  5. ]
  [6.  7. ]]])");
}

TEST(FormatArray, FourDimInt16) {
  const auto data = iota<std::int16_t>(24);
  EXPECT_EQ(format_repr(data, {2, 3, 2, 2}, DType::Int16), R"(array([[[[ 0,  1],
         [ 2,  3]],

        [[ 4,  5],
         [ 6,  7]],

        [[ 8,  9],
         [10, 11]]],


       [[[12, 13],
         [14, 15]],

        [[16, 17],
         [18, 19]],

        [[20, 21],
         [22, 23]]]], dtype=int16))");
  EXPECT_EQ(format_str(data, {2, 3, 2, 2}, DType::Int16), R"([[[[ 0  1]
   [ 2  3]]

  [[ 4  5]
   [ 6  7]]

  [[ 8  9]
   [10 11]]]


 [[[12 13]
   [14 15]]

  [[16 17]
   [18 19]]

  [[20 21]
   [22 23]]]])");
}

TEST(FormatArray, SingletonDims) {
  const auto data = std::vector<std::int64_t>{42};
  EXPECT_EQ(format_repr(data, {1, 1, 1}, DType::Int64), R"(array([[[42]]]))");
  EXPECT_EQ(format_str(data, {1, 1, 1}, DType::Int64), R"([[[42]]])");
}

TEST(FormatArray, WrapInt64) {
  const auto data = scaled_iota<std::int64_t>(30, 1000);
  EXPECT_EQ(format_repr(data, {30}, DType::Int64),
            R"(array([    0,  1000,  2000,  3000,  4000,  5000,  6000,  7000,  8000,
        9000, 10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000,
       18000, 19000, 20000, 21000, 22000, 23000, 24000, 25000, 26000,
       27000, 28000, 29000]))");
  EXPECT_EQ(format_str(data, {30}, DType::Int64),
            R"([    0  1000  2000  3000  4000  5000  6000  7000  8000  9000 10000 11000
 12000 13000 14000 15000 16000 17000 18000 19000 20000 21000 22000 23000
 24000 25000 26000 27000 28000 29000])");
}

TEST(FormatArray, WrapFloat64) {
  const auto data = fractions(25);
  EXPECT_EQ(format_repr(data, {25}, DType::Float64),
            R"(array([-60.   ,  54.875,  44.75 ,  34.625,  24.5  ,  14.375,   4.25 ,
        -5.875, -16.   , -26.125, -36.25 , -46.375, -56.5  ,  58.375,
        48.25 ,  38.125,  28.   ,  17.875,   7.75 ,  -2.375, -12.5  ,
       -22.625, -32.75 , -42.875, -53.   ]))");
  EXPECT_EQ(format_str(data, {25}, DType::Float64),
            R"([-60.     54.875  44.75   34.625  24.5    14.375   4.25   -5.875 -16.
 -26.125 -36.25  -46.375 -56.5    58.375  48.25   38.125  28.     17.875
   7.75   -2.375 -12.5   -22.625 -32.75  -42.875 -53.   ])");
}

TEST(FormatArray, WrapTwoDim) {
  const auto data = fractions(40);
  EXPECT_EQ(format_repr(data, {2, 20}, DType::Float64),
            R"(array([[-60.   ,  54.875,  44.75 ,  34.625,  24.5  ,  14.375,   4.25 ,
         -5.875, -16.   , -26.125, -36.25 , -46.375, -56.5  ,  58.375,
         48.25 ,  38.125,  28.   ,  17.875,   7.75 ,  -2.375],
       [-12.5  , -22.625, -32.75 , -42.875, -53.   ,  61.875,  51.75 ,
         41.625,  31.5  ,  21.375,  11.25 ,   1.125,  -9.   , -19.125,
        -29.25 , -39.375, -49.5  , -59.625,  55.25 ,  45.125]]))");
  EXPECT_EQ(format_str(data, {2, 20}, DType::Float64),
            R"([[-60.     54.875  44.75   34.625  24.5    14.375   4.25   -5.875 -16.
  -26.125 -36.25  -46.375 -56.5    58.375  48.25   38.125  28.     17.875
    7.75   -2.375]
 [-12.5   -22.625 -32.75  -42.875 -53.     61.875  51.75   41.625  31.5
   21.375  11.25    1.125  -9.    -19.125 -29.25  -39.375 -49.5   -59.625
   55.25   45.125]])");
}

TEST(FormatArray, ExtrasOnNewLine) {
  const auto data = fractions_f(14);
  EXPECT_EQ(format_repr(data, {14}, DType::Float32),
            R"(array([-60.   ,  54.875,  44.75 ,  34.625,  24.5  ,  14.375,   4.25 ,
        -5.875, -16.   , -26.125, -36.25 , -46.375, -56.5  ,  58.375],
      dtype=float32))");
  EXPECT_EQ(format_str(data, {14}, DType::Float32),
            R"([-60.     54.875  44.75   34.625  24.5    14.375   4.25   -5.875 -16.
 -26.125 -36.25  -46.375 -56.5    58.375])");
}

TEST(FormatArray, SummarizedVector) {
  const auto data = iota<std::int64_t>(2000);
  EXPECT_EQ(format_repr(data, {2000}, DType::Int64),
            R"(array([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,)))");
  EXPECT_EQ(format_str(data, {2000}, DType::Int64), R"([   0    1    2 ... 1997 1998 1999])");
}

TEST(FormatArray, SummarizedJustOverThreshold) {
  const auto data = iota<std::int64_t>(1001);
  EXPECT_EQ(format_repr(data, {1001}, DType::Int64),
            R"(array([   0,    1,    2, ...,  998,  999, 1000], shape=(1001,)))");
  EXPECT_EQ(format_str(data, {1001}, DType::Int64), R"([   0    1    2 ...  998  999 1000])");
}

TEST(FormatArray, NotSummarizedAtThreshold) {
  const auto data = iota<std::int32_t>(1000);
  EXPECT_EQ(format_repr(data, {1000}, DType::Int32),
            R"(array([  0,   1,   2,   3,   4,   5,   6,   7,   8,   9,  10,  11,  12,
        13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,
        26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,
        39,  40,  41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51,
        52,  53,  54,  55,  56,  57,  58,  59,  60,  61,  62,  63,  64,
        65,  66,  67,  68,  69,  70,  71,  72,  73,  74,  75,  76,  77,
        78,  79,  80,  81,  82,  83,  84,  85,  86,  87,  88,  89,  90,
        91,  92,  93,  94,  95,  96,  97,  98,  99, 100, 101, 102, 103,
       104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116,
       117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129,
       130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142,
       143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155,
       156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168,
       169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181,
       182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194,
       195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207,
       208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220,
       221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233,
       234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246,
       247, 248, 249, 250, 251, 252, 253, 254, 255, 256, 257, 258, 259,
       260, 261, 262, 263, 264, 265, 266, 267, 268, 269, 270, 271, 272,
       273, 274, 275, 276, 277, 278, 279, 280, 281, 282, 283, 284, 285,
       286, 287, 288, 289, 290, 291, 292, 293, 294, 295, 296, 297, 298,
       299, 300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 311,
       312, 313, 314, 315, 316, 317, 318, 319, 320, 321, 322, 323, 324,
       325, 326, 327, 328, 329, 330, 331, 332, 333, 334, 335, 336, 337,
       338, 339, 340, 341, 342, 343, 344, 345, 346, 347, 348, 349, 350,
       351, 352, 353, 354, 355, 356, 357, 358, 359, 360, 361, 362, 363,
       364, 365, 366, 367, 368, 369, 370, 371, 372, 373, 374, 375, 376,
       377, 378, 379, 380, 381, 382, 383, 384, 385, 386, 387, 388, 389,
       390, 391, 392, 393, 394, 395, 396, 397, 398, 399, 400, 401, 402,
       403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415,
       416, 417, 418, 419, 420, 421, 422, 423, 424, 425, 426, 427, 428,
       429, 430, 431, 432, 433, 434, 435, 436, 437, 438, 439, 440, 441,
       442, 443, 444, 445, 446, 447, 448, 449, 450, 451, 452, 453, 454,
       455, 456, 457, 458, 459, 460, 461, 462, 463, 464, 465, 466, 467,
       468, 469, 470, 471, 472, 473, 474, 475, 476, 477, 478, 479, 480,
       481, 482, 483, 484, 485, 486, 487, 488, 489, 490, 491, 492, 493,
       494, 495, 496, 497, 498, 499, 500, 501, 502, 503, 504, 505, 506,
       507, 508, 509, 510, 511, 512, 513, 514, 515, 516, 517, 518, 519,
       520, 521, 522, 523, 524, 525, 526, 527, 528, 529, 530, 531, 532,
       533, 534, 535, 536, 537, 538, 539, 540, 541, 542, 543, 544, 545,
       546, 547, 548, 549, 550, 551, 552, 553, 554, 555, 556, 557, 558,
       559, 560, 561, 562, 563, 564, 565, 566, 567, 568, 569, 570, 571,
       572, 573, 574, 575, 576, 577, 578, 579, 580, 581, 582, 583, 584,
       585, 586, 587, 588, 589, 590, 591, 592, 593, 594, 595, 596, 597,
       598, 599, 600, 601, 602, 603, 604, 605, 606, 607, 608, 609, 610,
       611, 612, 613, 614, 615, 616, 617, 618, 619, 620, 621, 622, 623,
       624, 625, 626, 627, 628, 629, 630, 631, 632, 633, 634, 635, 636,
       637, 638, 639, 640, 641, 642, 643, 644, 645, 646, 647, 648, 649,
       650, 651, 652, 653, 654, 655, 656, 657, 658, 659, 660, 661, 662,
       663, 664, 665, 666, 667, 668, 669, 670, 671, 672, 673, 674, 675,
       676, 677, 678, 679, 680, 681, 682, 683, 684, 685, 686, 687, 688,
       689, 690, 691, 692, 693, 694, 695, 696, 697, 698, 699, 700, 701,
       702, 703, 704, 705, 706, 707, 708, 709, 710, 711, 712, 713, 714,
       715, 716, 717, 718, 719, 720, 721, 722, 723, 724, 725, 726, 727,
       728, 729, 730, 731, 732, 733, 734, 735, 736, 737, 738, 739, 740,
       741, 742, 743, 744, 745, 746, 747, 748, 749, 750, 751, 752, 753,
       754, 755, 756, 757, 758, 759, 760, 761, 762, 763, 764, 765, 766,
       767, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777, 778, 779,
       780, 781, 782, 783, 784, 785, 786, 787, 788, 789, 790, 791, 792,
       793, 794, 795, 796, 797, 798, 799, 800, 801, 802, 803, 804, 805,
       806, 807, 808, 809, 810, 811, 812, 813, 814, 815, 816, 817, 818,
       819, 820, 821, 822, 823, 824, 825, 826, 827, 828, 829, 830, 831,
       832, 833, 834, 835, 836, 837, 838, 839, 840, 841, 842, 843, 844,
       845, 846, 847, 848, 849, 850, 851, 852, 853, 854, 855, 856, 857,
       858, 859, 860, 861, 862, 863, 864, 865, 866, 867, 868, 869, 870,
       871, 872, 873, 874, 875, 876, 877, 878, 879, 880, 881, 882, 883,
       884, 885, 886, 887, 888, 889, 890, 891, 892, 893, 894, 895, 896,
       897, 898, 899, 900, 901, 902, 903, 904, 905, 906, 907, 908, 909,
       910, 911, 912, 913, 914, 915, 916, 917, 918, 919, 920, 921, 922,
       923, 924, 925, 926, 927, 928, 929, 930, 931, 932, 933, 934, 935,
       936, 937, 938, 939, 940, 941, 942, 943, 944, 945, 946, 947, 948,
       949, 950, 951, 952, 953, 954, 955, 956, 957, 958, 959, 960, 961,
       962, 963, 964, 965, 966, 967, 968, 969, 970, 971, 972, 973, 974,
       975, 976, 977, 978, 979, 980, 981, 982, 983, 984, 985, 986, 987,
       988, 989, 990, 991, 992, 993, 994, 995, 996, 997, 998, 999],
      dtype=int32))");
  EXPECT_EQ(format_str(data, {1000}, DType::Int32).size(), 4056u);
}

TEST(FormatArray, SummarizedTwoDim) {
  const auto data = fractions(2000);
  EXPECT_EQ(format_repr(data, {100, 20}, DType::Float64),
            R"(array([[-60.   ,  54.875,  44.75 , ...,  17.875,   7.75 ,  -2.375],
       [-12.5  , -22.625, -32.75 , ..., -59.625,  55.25 ,  45.125],
       [ 35.   ,  24.875,  14.75 , ..., -12.125, -22.25 , -32.375],
       ...,
       [ 47.5  ,  37.375,  27.25 , ...,   0.375,  -9.75 , -19.875],
       [-30.   , -40.125, -50.25 , ...,  47.875,  37.75 ,  27.625],
       [ 17.5  ,   7.375,  -2.75 , ..., -29.625, -39.75 , -49.875]],
      shape=(100, 20)))");
  EXPECT_EQ(format_str(data, {100, 20}, DType::Float64),
            R"([[-60.     54.875  44.75  ...  17.875   7.75   -2.375]
 [-12.5   -22.625 -32.75  ... -59.625  55.25   45.125]
 [ 35.     24.875  14.75  ... -12.125 -22.25  -32.375]
 ...
 [ 47.5    37.375  27.25  ...   0.375  -9.75  -19.875]
 [-30.    -40.125 -50.25  ...  47.875  37.75   27.625]
 [ 17.5     7.375  -2.75  ... -29.625 -39.75  -49.875]])");
}

TEST(FormatArray, SummarizedThreeDimBool) {
  const auto data = alternating(1200);
  EXPECT_EQ(format_repr(data, {10, 12, 10}, DType::Bool),
            R"(array([[[ True, False, False, ..., False, False,  True],
        [False, False,  True, ..., False,  True, False],
        [False,  True, False, ...,  True, False, False],
        ...,
        [ True, False, False, ..., False, False,  True],
        [False, False,  True, ..., False,  True, False],
        [False,  True, False, ...,  True, False, False]],

       [[ True, False, False, ..., False, False,  True],
        [False, False,  True, ..., False,  True, False],
        [False,  True, False, ...,  True, False, False],
        ...,
        [ True, False, False, ..., False, False,  True],
        [False, False,  True, ..., False,  True, False],
        [False,  True, False, ...,  True, False, False]],

       [[ True, False, False, ..., False, False,  True],
        [False, False,  True, ..., False,  True, False],
        [False,  True, False, ...,  True, False, False],
        ...,
        [ True, False, False, ..., False, False,  True],
        [False, False,  True, ..., False,  True, False],
        [False,  True, False, ...,  True, False, False]],

       ...,

       [[ True, False, False, ..., False, False,  True],
        [False, False,  True, ..., False,  True, False],
        [False,  True, False, ...,  True, False, False],
        ...,
        [ True, False, False, ..., False, False,  True],
        [False, False,  True, ..., False,  True, False],
        [False,  True, False, ...,  True, False, False]],

       [[ True, False, False, ..., False, False,  True],
        [False, False,  True, ..., False,  True, False],
        [False,  True, False, ...,  True, False, False],
        ...,
        [ True, False, False, ..., False, False,  True],
        [False, False,  True, ..., False,  True, False],
        [False,  True, False, ...,  True, False, False]],

       [[ True, False, False, ..., False, False,  True],
        [False, False,  True, ..., False,  True, False],
        [False,  True, False, ...,  True, False, False],
        ...,
        [ True, False, False, ..., False, False,  True],
        [False, False,  True, ..., False,  True, False],
        [False,  True, False, ...,  True, False, False]]],
      shape=(10, 12, 10)))");
  EXPECT_EQ(format_str(data, {10, 12, 10}, DType::Bool),
            R"([[[ True False False ... False False  True]
  [False False  True ... False  True False]
  [False  True False ...  True False False]
  ...
  [ True False False ... False False  True]
  [False False  True ... False  True False]
  [False  True False ...  True False False]]

 [[ True False False ... False False  True]
  [False False  True ... False  True False]
  [False  True False ...  True False False]
  ...
  [ True False False ... False False  True]
  [False False  True ... False  True False]
  [False  True False ...  True False False]]

 [[ True False False ... False False  True]
  [False False  True ... False  True False]
  [False  True False ...  True False False]
  ...
  [ True False False ... False False  True]
  [False False  True ... False  True False]
  [False  True False ...  True False False]]

 ...

 [[ True False False ... False False  True]
  [False False  True ... False  True False]
  [False  True False ...  True False False]
  ...
  [ True False False ... False False  True]
  [False False  True ... False  True False]
  [False  True False ...  True False False]]

 [[ True False False ... False False  True]
  [False False  True ... False  True False]
  [False  True False ...  True False False]
  ...
  [ True False False ... False False  True]
  [False False  True ... False  True False]
  [False  True False ...  True False False]]

 [[ True False False ... False False  True]
  [False False  True ... False  True False]
  [False  True False ...  True False False]
  ...
  [ True False False ... False False  True]
  [False False  True ... False  True False]
  [False  True False ...  True False False]]])");
}

TEST(FormatArray, SummarizedShortAxisShownWhole) {
  const auto data = iota<std::uint8_t>(1010);
  EXPECT_EQ(format_repr(data, {2, 505}, DType::UInt8),
            R"(array([[  0,   1,   2, ..., 246, 247, 248],
       [249, 250, 251, ..., 239, 240, 241]], shape=(2, 505), dtype=uint8))");
  EXPECT_EQ(format_str(data, {2, 505}, DType::UInt8), R"([[  0   1   2 ... 246 247 248]
 [249 250 251 ... 239 240 241]])");
}

TEST(FormatArray, SummaryFormatUsesShownItemsOnly) {
  const auto data = wide_middle(2000);
  EXPECT_EQ(format_repr(data, {2000}, DType::Int64),
            R"(array([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,)))");
  EXPECT_EQ(format_str(data, {2000}, DType::Int64), R"([   0    1    2 ... 1997 1998 1999])");
}

TEST(FormatArray, Complex64) {
  const auto data = std::vector<std::complex<float>>{{1.0, 2.0}, {-0.0, -1.0}};
  EXPECT_EQ(format_repr(data, {2}, DType::Complex64),
            R"(array([ 1.+2.j, -0.-1.j], dtype=complex64))");
  EXPECT_EQ(format_str(data, {2}, DType::Complex64), R"([ 1.+2.j -0.-1.j])");
}

TEST(FormatArray, Complex128NonFinite) {
  const auto data = std::vector<std::complex<double>>{{kNaN, kInf}, {1.5, -kInf}, {-0.0, 1.0}};
  EXPECT_EQ(format_repr(data, {3}, DType::Complex128),
            R"(array([ nan+infj,  1.5-infj, -0.  +1.j]))");
  EXPECT_EQ(format_str(data, {3}, DType::Complex128), R"([ nan+infj  1.5-infj -0.  +1.j])");
}

TEST(FormatArray, Complex128Scientific) {
  const auto data = std::vector<std::complex<double>>{{1e+20, 1e-05}, {1.0, 1.0}};
  EXPECT_EQ(format_repr(data, {2}, DType::Complex128),
            R"(array([1.e+20+1.e-05j, 1.e+00+1.e+00j]))");
  EXPECT_EQ(format_str(data, {2}, DType::Complex128), R"([1.e+20+1.e-05j 1.e+00+1.e+00j])");
}

TEST(FormatArray, Complex128TwoDim) {
  const auto data =
      std::vector<std::complex<double>>{{1.0, 1.0}, {2.5, -3.0}, {-0.0, -4.0}, {5.125, 0.0}};
  EXPECT_EQ(format_repr(data, {2, 2}, DType::Complex128), R"(array([[ 1.   +1.j,  2.5  -3.j],
       [-0.   -4.j,  5.125+0.j]]))");
  EXPECT_EQ(format_str(data, {2, 2}, DType::Complex128), R"([[ 1.   +1.j  2.5  -3.j]
 [-0.   -4.j  5.125+0.j]])");
}

TEST(FormatArray, BoolVector) {
  const auto data = std::vector<std::uint8_t>{1, 0, 1};
  EXPECT_EQ(format_repr(data, {3}, DType::Bool), R"(array([ True, False,  True]))");
  EXPECT_EQ(format_str(data, {3}, DType::Bool), R"([ True False  True])");
}

TEST(FormatArray, BoolTwoDim) {
  const auto data = std::vector<std::uint8_t>{1, 0, 0, 1};
  EXPECT_EQ(format_repr(data, {2, 2}, DType::Bool), R"(array([[ True, False],
       [False,  True]]))");
  EXPECT_EQ(format_str(data, {2, 2}, DType::Bool), R"([[ True False]
 [False  True]])");
}

TEST(FormatScalar, Float64Half) {
  const double v = 1.5;
  EXPECT_EQ(format_scalar(&v, DType::Float64), "1.5");
}

TEST(FormatScalar, Float64One) {
  const double v = 1.0;
  EXPECT_EQ(format_scalar(&v, DType::Float64), "1.0");
}

TEST(FormatScalar, Float64NegZero) {
  const double v = -0.0;
  EXPECT_EQ(format_scalar(&v, DType::Float64), "-0.0");
}

TEST(FormatScalar, Float64Huge) {
  const double v = 1e16;
  EXPECT_EQ(format_scalar(&v, DType::Float64), "1e+16");
}

TEST(FormatScalar, Float64BelowHuge) {
  const double v = 9999999999999998.0;
  EXPECT_EQ(format_scalar(&v, DType::Float64), "9999999999999998.0");
}

TEST(FormatScalar, Float64Tiny) {
  const double v = 1.5e-05;
  EXPECT_EQ(format_scalar(&v, DType::Float64), "1.5e-05");
}

TEST(FormatScalar, Float64NaN) {
  const double v = kNaN;
  EXPECT_EQ(format_scalar(&v, DType::Float64), "nan");
}

TEST(FormatScalar, Float64NegInf) {
  const double v = -kInf;
  EXPECT_EQ(format_scalar(&v, DType::Float64), "-inf");
}

TEST(FormatScalar, Float32TenThousandth) {
  const float v = 1e-4f;
  EXPECT_EQ(format_scalar(&v, DType::Float32), "1e-04");
}

TEST(FormatScalar, Float32Million) {
  const float v = 1e6f;
  EXPECT_EQ(format_scalar(&v, DType::Float32), "1e+06");
}

TEST(FormatScalar, Float32Tenth) {
  const float v = 0.1f;
  EXPECT_EQ(format_scalar(&v, DType::Float32), "0.1");
}

TEST(FormatScalar, Float16UsesItsOwnBounds) {
  const auto v = halves({1000.0f, 999.5f, 0.0001f, 9.996e-05f, 65504.0f, -0.0f});
  EXPECT_EQ(format_scalar(&v[0], DType::Float16), "1e+03");
  EXPECT_EQ(format_scalar(&v[1], DType::Float16), "999.5");
  EXPECT_EQ(format_scalar(&v[2], DType::Float16), "0.0001");
  EXPECT_EQ(format_scalar(&v[3], DType::Float16), "9.996e-05");
  EXPECT_EQ(format_scalar(&v[4], DType::Float16), "6.55e+04");
  EXPECT_EQ(format_scalar(&v[5], DType::Float16), "-0.0");
}

TEST(FormatScalar, Complex) {
  const std::vector<std::complex<double>> v = {{0, 2},       {0, -0.0}, {1, 2},      {-0.0, 1},
                                               {kNaN, kInf}, {0, kNaN}, {1e20, 1e-5}};
  EXPECT_EQ(format_scalar(&v[0], DType::Complex128), "2j");
  EXPECT_EQ(format_scalar(&v[1], DType::Complex128), "-0j");
  EXPECT_EQ(format_scalar(&v[2], DType::Complex128), "(1+2j)");
  EXPECT_EQ(format_scalar(&v[3], DType::Complex128), "(-0+1j)");
  EXPECT_EQ(format_scalar(&v[4], DType::Complex128), "(nan+infj)");
  EXPECT_EQ(format_scalar(&v[5], DType::Complex128), "nanj");
  EXPECT_EQ(format_scalar(&v[6], DType::Complex128), "(1e+20+1e-05j)");
  const std::complex<float> f{1e6f, 1.0f};
  EXPECT_EQ(format_scalar(&f, DType::Complex64), "(1e+06+1j)");
}

TEST(FormatScalar, IntegersAndBool) {
  const std::int8_t i8 = -128;
  const std::uint64_t u64 = std::numeric_limits<std::uint64_t>::max();
  const std::int64_t i64 = std::numeric_limits<std::int64_t>::min();
  const std::uint8_t t = 1, f = 0;
  EXPECT_EQ(format_scalar(&i8, DType::Int8), "-128");
  EXPECT_EQ(format_scalar(&u64, DType::UInt64), "18446744073709551615");
  EXPECT_EQ(format_scalar(&i64, DType::Int64), "-9223372036854775808");
  EXPECT_EQ(format_scalar(&t, DType::Bool), "True");
  EXPECT_EQ(format_scalar(&f, DType::Bool), "False");
}

TEST(FormatArray, ZeroDimStrIsScalarStr) {
  const std::vector<double> v = {1e16};
  EXPECT_EQ(format_str(v, {}, DType::Float64), format_scalar(v.data(), DType::Float64));
  EXPECT_EQ(format_str(v, {}, DType::Float64), "1e+16");
  EXPECT_EQ(format_repr(v, {}, DType::Float64), "array(1.e+16)");
}

}  // namespace
}  // namespace cunp::detail

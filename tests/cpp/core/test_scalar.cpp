// tests/cpp/core/test_scalar.cpp — host scalars: weak/strong, conversions through the
// single cast definition, NumPy's x86 float-to-int values, fits().
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>

#include "cunp/scalar.hpp"

namespace cunp {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename T>
T as(const Scalar& s, DType dt) {
  T out{};
  static_assert(sizeof(T) <= 16);
  alignas(16) unsigned char buf[16] = {};
  s.write_as(dt, buf);
  std::memcpy(&out, buf, sizeof(T));
  return out;
}

TEST(CoreScalar, PythonLikeScalarsAreWeak) {
  EXPECT_TRUE(Scalar(1).weak());
  EXPECT_EQ(Scalar(1).dtype(), DType::Int64);
  EXPECT_EQ(Scalar(1.5f).dtype(), DType::Float64);
  EXPECT_EQ(Scalar(true).dtype(), DType::Bool);
  EXPECT_EQ(Scalar(std::complex<float>(1, 2)).dtype(), DType::Complex128);
  EXPECT_EQ(Scalar(std::numeric_limits<std::uint64_t>::max()).dtype(), DType::UInt64);
  EXPECT_EQ(Scalar(std::uint64_t{5}).dtype(), DType::Int64);
  EXPECT_EQ(Scalar(1).weak_kind(), WeakKind::Int);
  EXPECT_EQ(Scalar(1.0).weak_kind(), WeakKind::Float);
  EXPECT_EQ(Scalar(true).weak_kind(), WeakKind::Bool);
  EXPECT_EQ(Scalar(std::complex<double>(0, 1)).weak_kind(), WeakKind::Complex);
  EXPECT_EQ(Scalar().dtype(), DType::Bool);
  EXPECT_FALSE(Scalar().to_bool());
}

TEST(CoreScalar, StrongScalars) {
  const Scalar s = Scalar::of(DType::Int8, Scalar(300));
  EXPECT_FALSE(s.weak());
  EXPECT_EQ(s.dtype(), DType::Int8);
  EXPECT_EQ(s.to_int64(), 44);  // numpy.int64(300).astype(numpy.int8)
  EXPECT_FALSE(Scalar(2.5).strong().weak());
  EXPECT_EQ(Scalar(2.5).strong().dtype(), DType::Float64);
  EXPECT_EQ(Scalar::of(DType::UInt8, Scalar(-1)).to_int64(), 255);
  EXPECT_EQ(Scalar::of(DType::Float32, Scalar(0.1)).to_double(), static_cast<double>(0.1f));
  EXPECT_EQ(Scalar::of(DType::Bool, Scalar(-0.0)).to_bool(), false);
  EXPECT_EQ(Scalar::of(DType::Bool, Scalar(std::complex<double>(0, 1))).to_bool(), true);
}

TEST(CoreScalar, WriteReadRoundTrips) {
  alignas(16) unsigned char buf[16];
  const struct {
    DType dt;
    Scalar value;
  } cases[] = {
      {DType::Bool, Scalar(true)},          {DType::Int8, Scalar(-3)},
      {DType::UInt8, Scalar(200)},          {DType::Int16, Scalar(-30000)},
      {DType::UInt16, Scalar(60000)},       {DType::Int32, Scalar(-2000000000)},
      {DType::UInt32, Scalar(4000000000LL)}, {DType::Int64, Scalar(std::numeric_limits<std::int64_t>::min())},
      {DType::UInt64, Scalar(std::numeric_limits<std::uint64_t>::max())},
      {DType::Float16, Scalar(-2.5)},       {DType::Float32, Scalar(0.375)},
      {DType::Float64, Scalar(1e300)},      {DType::Complex64, Scalar(std::complex<double>(1.5, -2))},
      {DType::Complex128, Scalar(std::complex<double>(-1e-300, 7))},
  };
  for (const auto& c : cases) {
    c.value.write_as(c.dt, buf);
    const Scalar back = Scalar::read(c.dt, buf);
    EXPECT_EQ(back.dtype(), c.dt);
    EXPECT_FALSE(back.weak());
    EXPECT_EQ(back.to_complex(), c.value.to_complex()) << name(c.dt);
    EXPECT_EQ(back.to_uint64(), c.value.to_uint64()) << name(c.dt);
  }
  // Element bytes as NumPy stores them.
  EXPECT_EQ(as<std::int8_t>(Scalar(-3), DType::Int8), -3);
  EXPECT_EQ(as<std::uint16_t>(Scalar(-2.5), DType::Float16), 0xc100);
  EXPECT_EQ(as<float>(Scalar(0.1), DType::Float32), 0.1f);
  const auto c = as<std::complex<float>>(Scalar(std::complex<double>(1.5, -2)), DType::Complex64);
  EXPECT_EQ(c, std::complex<float>(1.5f, -2.0f));
}

TEST(CoreScalar, DoubleToFloat16RoundsOnce) {
  // numpy.float16(1 + 2**-11 + 2**-40) is 0x3c01: rounding through float32 first would
  // land on the tie and give 0x3c00.
  EXPECT_EQ(as<std::uint16_t>(Scalar(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), DType::Float16), 0x3c01);
  EXPECT_EQ(as<std::uint16_t>(Scalar(std::ldexp(1.0, -25) + std::ldexp(1.0, -40)), DType::Float16), 0x0001);
  EXPECT_EQ(as<std::uint16_t>(Scalar(65520.0), DType::Float16), 0x7c00);
  EXPECT_EQ(as<std::uint16_t>(Scalar(0.1), DType::Float16), 0x2e66);
}

TEST(CoreScalar, FloatToIntegerCastsMatchNumPyOnX86) {
  // Values from numpy.array([...]).astype(t) on x86-64 (see src/ops/cast.h's Note).
  EXPECT_EQ(as<std::int8_t>(Scalar(300.0), DType::Int8), 44);
  EXPECT_EQ(as<std::uint8_t>(Scalar(300.0), DType::UInt8), 44);
  EXPECT_EQ(as<std::uint8_t>(Scalar(-1.0), DType::UInt8), 255);
  EXPECT_EQ(as<std::int32_t>(Scalar(kNaN), DType::Int32), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(as<std::int8_t>(Scalar(kNaN), DType::Int8), 0);
  EXPECT_EQ(as<std::int8_t>(Scalar(-129.5), DType::Int8), 127);
  EXPECT_EQ(as<std::int16_t>(Scalar(-129.5), DType::Int16), -129);
  EXPECT_EQ(as<std::int16_t>(Scalar(65536.0), DType::Int16), 0);
  EXPECT_EQ(as<std::uint16_t>(Scalar(-1.0), DType::UInt16), 65535);
  EXPECT_EQ(as<std::uint16_t>(Scalar(-129.5), DType::UInt16), 65407);
  EXPECT_EQ(as<std::int32_t>(Scalar(kInf), DType::Int32), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(as<std::int32_t>(Scalar(3e9), DType::Int32), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(as<std::int32_t>(Scalar(-2.9), DType::Int32), -2);
  EXPECT_EQ(as<std::uint32_t>(Scalar(-1.0), DType::UInt32), 4294967295u);
  EXPECT_EQ(as<std::uint32_t>(Scalar(3e9), DType::UInt32), 3000000000u);
  EXPECT_EQ(as<std::int64_t>(Scalar(kNaN), DType::Int64), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(as<std::int64_t>(Scalar(1e20), DType::Int64), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(as<std::int64_t>(Scalar(-kInf), DType::Int64), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(as<std::int64_t>(Scalar(-3e9), DType::Int64), -3000000000LL);
  EXPECT_EQ(as<std::uint64_t>(Scalar(-1.0), DType::UInt64), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(as<std::uint64_t>(Scalar(-3e9), DType::UInt64), 18446744070709551616ull);
  EXPECT_EQ(as<std::uint64_t>(Scalar(1e19), DType::UInt64), 10000000000000000000ull);
  EXPECT_EQ(as<std::uint64_t>(Scalar(std::ldexp(1.0, 63)), DType::UInt64), 9223372036854775808ull);
  EXPECT_EQ(as<std::uint64_t>(Scalar(kInf), DType::UInt64), 0u);
  EXPECT_EQ(as<std::uint64_t>(Scalar(1e20), DType::UInt64), 0u);
  EXPECT_EQ(as<std::uint64_t>(Scalar(-kInf), DType::UInt64), 9223372036854775808ull);
  EXPECT_EQ(as<std::uint64_t>(Scalar(kNaN), DType::UInt64), 9223372036854775808ull);
  // From float32 and float16 elements too.
  EXPECT_EQ(as<std::int8_t>(Scalar::of(DType::Float32, Scalar(300.0)), DType::Int8), 44);
  EXPECT_EQ(as<std::uint8_t>(Scalar::of(DType::Float16, Scalar(-1.0)), DType::UInt8), 255);
  EXPECT_EQ(Scalar(kNaN).to_bool(), true);
  EXPECT_EQ(Scalar(-0.0).to_bool(), false);
}

TEST(CoreScalar, IntegerWrapAndComplexToReal) {
  EXPECT_EQ(as<std::int8_t>(Scalar(300), DType::Int8), 44);
  EXPECT_EQ(as<std::uint32_t>(Scalar(-1), DType::UInt32), 4294967295u);
  EXPECT_EQ(as<std::int64_t>(Scalar(std::numeric_limits<std::uint64_t>::max()), DType::Int64), -1);
  EXPECT_EQ(as<double>(Scalar(std::complex<double>(1, 2)), DType::Float64), 1.0);
  EXPECT_EQ(as<std::int16_t>(Scalar(std::complex<double>(-7.9, 2)), DType::Int16), -7);
  EXPECT_EQ(as<bool>(Scalar(std::complex<double>(0, -0.0)), DType::Bool), false);
  EXPECT_EQ(as<double>(Scalar(std::numeric_limits<std::uint64_t>::max()), DType::Float64), 18446744073709551616.0);
  EXPECT_EQ(Scalar(true).to_double(), 1.0);
  EXPECT_EQ(Scalar(2.75).to_int64(), 2);
}

TEST(CoreScalar, Fits) {
  EXPECT_FALSE(Scalar(300).fits(DType::Int8));
  EXPECT_TRUE(Scalar(127).fits(DType::Int8));
  EXPECT_TRUE(Scalar(-128).fits(DType::Int8));
  EXPECT_FALSE(Scalar(-129).fits(DType::Int8));
  EXPECT_FALSE(Scalar(128).fits(DType::Int8));
  EXPECT_FALSE(Scalar(-1).fits(DType::UInt8));
  EXPECT_TRUE(Scalar(255).fits(DType::UInt8));
  EXPECT_FALSE(Scalar(256).fits(DType::UInt8));
  EXPECT_FALSE(Scalar(-1).fits(DType::UInt64));
  EXPECT_FALSE(Scalar(std::numeric_limits<std::uint64_t>::max()).fits(DType::Int64));
  EXPECT_TRUE(Scalar(std::numeric_limits<std::uint64_t>::max()).fits(DType::UInt64));
  EXPECT_TRUE(Scalar(std::numeric_limits<std::int64_t>::min()).fits(DType::Int64));
  EXPECT_FALSE(Scalar(std::int64_t{1} << 31).fits(DType::Int32));
  EXPECT_TRUE(Scalar(std::int64_t{1} << 31).fits(DType::UInt32));
  EXPECT_TRUE(Scalar(300).fits(DType::Float16));
  EXPECT_TRUE(Scalar(1e300).fits(DType::Float32));
  EXPECT_TRUE(Scalar(true).fits(DType::Int8));
}

TEST(CoreScalar, Str) {
  EXPECT_EQ(Scalar(1.5).str(), "1.5");
  EXPECT_EQ(Scalar(kNaN).str(), "nan");
  EXPECT_EQ(Scalar(-kInf).str(), "-inf");
  EXPECT_EQ(Scalar(std::complex<double>(1, 2)).str(), "(1+2j)");
  EXPECT_EQ(Scalar(-3).str(), "-3");
  EXPECT_EQ(Scalar(true).str(), "True");
  EXPECT_EQ(Scalar::of(DType::Float32, Scalar(0.1)).str(), "0.1");
}

}  // namespace
}  // namespace cunp

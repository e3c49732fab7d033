// tests/cpp/core/test_dtype.cpp — dtype table, promotion, casting rules, result_type,
// finfo/iinfo and float16 conversion, against values NumPy 2.4 gives.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "cunp/dtype.hpp"
#include "cunp/error.hpp"

namespace cunp {
namespace {

std::vector<DType> all_dtypes() {
  std::vector<DType> out;
  for (int i = 0; i < kNumDTypes; ++i) out.push_back(static_cast<DType>(i));
  return out;
}

TEST(CoreDType, TableMatchesNumPy) {
  EXPECT_EQ(itemsize(DType::Bool), 1u);
  EXPECT_EQ(itemsize(DType::Float16), 2u);
  EXPECT_EQ(itemsize(DType::Complex64), 8u);
  EXPECT_EQ(itemsize(DType::Complex128), 16u);
  EXPECT_EQ(name(DType::UInt16), "uint16");
  EXPECT_EQ(name(DType::Bool), "bool");
  EXPECT_EQ(kind_char(DType::UInt8), 'u');
  EXPECT_EQ(kind_char(DType::Complex64), 'c');
  EXPECT_EQ(type_char(DType::Int64), 'l');
  EXPECT_EQ(type_char(DType::Float16), 'e');
  EXPECT_EQ(type_char(DType::Complex128), 'D');
  EXPECT_EQ(numpy_type_num(DType::Float16), 23);
  EXPECT_EQ(numpy_type_num(DType::Complex128), 15);
  for (DType dt : all_dtypes()) EXPECT_EQ(dtype_from_numpy_type_num(numpy_type_num(dt)), dt) << name(dt);
  EXPECT_EQ(dtype_from_numpy_type_num(9), DType::Int64);    // NPY_LONGLONG
  EXPECT_EQ(dtype_from_numpy_type_num(10), DType::UInt64);  // NPY_ULONGLONG
  EXPECT_THROW(dtype_from_numpy_type_num(17), TypeError);   // object
  EXPECT_THROW(dtype_from_numpy_type_num(13), TypeError);   // longdouble
  EXPECT_EQ(real_dtype(DType::Complex64), DType::Float32);
  EXPECT_EQ(real_dtype(DType::Int8), DType::Int8);
  EXPECT_EQ(complex_dtype(DType::Float16), DType::Complex64);
  EXPECT_EQ(complex_dtype(DType::Float64), DType::Complex128);
  EXPECT_TRUE(is_integer(DType::UInt64));
  EXPECT_FALSE(is_integer(DType::Bool));
  EXPECT_TRUE(is_inexact(DType::Complex64));
  EXPECT_FALSE(is_floating(DType::Complex64));
}

TEST(CoreDType, PromoteTypesSpotChecks) {
  EXPECT_EQ(promote_types(DType::Int64, DType::UInt64), DType::Float64);
  EXPECT_EQ(promote_types(DType::Int8, DType::UInt8), DType::Int16);
  EXPECT_EQ(promote_types(DType::Float16, DType::Int16), DType::Float32);
  EXPECT_EQ(promote_types(DType::Complex64, DType::Float64), DType::Complex128);
  EXPECT_EQ(promote_types(DType::UInt32, DType::Int32), DType::Int64);
  EXPECT_EQ(promote_types(DType::UInt16, DType::Float16), DType::Float32);
  EXPECT_EQ(promote_types(DType::Int64, DType::Float16), DType::Float64);
  EXPECT_EQ(promote_types(DType::Complex64, DType::Int64), DType::Complex128);
  EXPECT_EQ(promote_types(DType::Float16, DType::Complex64), DType::Complex64);
  EXPECT_EQ(promote_types(DType::UInt8, DType::Int16), DType::Int16);
  EXPECT_EQ(promote_types(DType::Bool, DType::Int8), DType::Int8);
}

TEST(CoreDType, PromoteTypesIsSymmetricAndIdempotent) {
  for (DType a : all_dtypes()) {
    EXPECT_EQ(promote_types(a, a), a);
    EXPECT_EQ(promote_types(DType::Bool, a), a);
    for (DType b : all_dtypes()) {
      const DType r = promote_types(a, b);
      EXPECT_EQ(r, promote_types(b, a)) << name(a) << " " << name(b);
      // The result holds both operands safely.
      EXPECT_TRUE(can_cast(a, r, Casting::Safe)) << name(a) << " -> " << name(r);
      EXPECT_TRUE(can_cast(b, r, Casting::Safe)) << name(b) << " -> " << name(r);
    }
  }
}

TEST(CoreDType, CanCast) {
  EXPECT_TRUE(can_cast(DType::Int64, DType::Float64, Casting::Safe));
  EXPECT_TRUE(can_cast(DType::UInt64, DType::Float64, Casting::Safe));
  EXPECT_FALSE(can_cast(DType::Int64, DType::Float32, Casting::Safe));
  EXPECT_FALSE(can_cast(DType::Int16, DType::Float16, Casting::Safe));
  EXPECT_FALSE(can_cast(DType::Float64, DType::Int64, Casting::SameKind));
  EXPECT_FALSE(can_cast(DType::Complex64, DType::Float64, Casting::SameKind));
  EXPECT_FALSE(can_cast(DType::Float64, DType::Float32, Casting::Equiv));
  EXPECT_TRUE(can_cast(DType::Float64, DType::Float32, Casting::SameKind));
  EXPECT_FALSE(can_cast(DType::Int8, DType::UInt64, Casting::SameKind));
  EXPECT_TRUE(can_cast(DType::UInt64, DType::Int8, Casting::SameKind));
  for (DType a : all_dtypes()) {
    EXPECT_TRUE(can_cast(DType::Bool, a, Casting::Safe));
    for (DType b : all_dtypes()) {
      EXPECT_TRUE(can_cast(a, b, Casting::Unsafe));
      EXPECT_EQ(can_cast(a, b, Casting::No), a == b);
      EXPECT_EQ(can_cast(a, b, Casting::Equiv), a == b);
    }
  }
  EXPECT_EQ(parse_casting("same_kind"), Casting::SameKind);
  EXPECT_EQ(parse_casting("no"), Casting::No);
  EXPECT_EQ(name(Casting::Unsafe), "unsafe");
  EXPECT_THROW(parse_casting("Safe"), ValueError);
  EXPECT_THROW(parse_casting(""), ValueError);
}

TEST(CoreDType, ResultTypeWithWeakScalars) {
  const DType i8[] = {DType::Int8};
  const DType u8[] = {DType::UInt8};
  const DType f16[] = {DType::Float16};
  const DType f32[] = {DType::Float32};
  const DType b[] = {DType::Bool};
  const DType i64[] = {DType::Int64};
  const WeakKind wi[] = {WeakKind::Int};
  const WeakKind wf[] = {WeakKind::Float};
  const WeakKind wc[] = {WeakKind::Complex};
  const WeakKind wb[] = {WeakKind::Bool};
  EXPECT_EQ(result_type(i8, wi), DType::Int8);
  EXPECT_EQ(result_type(u8, wf), DType::Float64);
  EXPECT_EQ(result_type(f16, wc), DType::Complex64);
  EXPECT_EQ(result_type(f32, wi), DType::Float32);
  EXPECT_EQ(result_type(f32, wc), DType::Complex64);
  EXPECT_EQ(result_type(b, wi), DType::Int64);
  EXPECT_EQ(result_type(b, wb), DType::Bool);
  EXPECT_EQ(result_type(i64, wc), DType::Complex128);
  const WeakKind int_float[] = {WeakKind::Int, WeakKind::Float};
  EXPECT_EQ(result_type({}, int_float), DType::Float64);
  EXPECT_EQ(result_type({}, wb), DType::Bool);
  EXPECT_EQ(result_type({}, wc), DType::Complex128);
  const DType mixed[] = {DType::Int8, DType::UInt8};
  EXPECT_EQ(result_type(mixed, wi), DType::Int16);
  EXPECT_EQ(result_type(mixed), DType::Int16);
  EXPECT_THROW(result_type({}, {}), Error);
}

TEST(CoreDType, DTypeFromNameAliases) {
  struct Case {
    const char* text;
    DType dtype;
  };
  // Each pair checked with numpy.dtype(text).name.
  const Case cases[] = {
      {"f4", DType::Float32},     {"float", DType::Float64},    {"int", DType::Int64},
      {"complex", DType::Complex128}, {"?", DType::Bool},       {"B", DType::UInt8},
      {"<f8", DType::Float64},    {"=i2", DType::Int16},        {"|b1", DType::Bool},
      {"uint", DType::UInt64},    {"e", DType::Float16},        {"D", DType::Complex128},
      {"l", DType::Int64},        {"intp", DType::Int64},       {"b", DType::Int8},
      {"h", DType::Int16},        {"H", DType::UInt16},         {"I", DType::UInt32},
      {"L", DType::UInt64},       {"q", DType::Int64},          {"Q", DType::UInt64},
      {"F", DType::Complex64},    {"f2", DType::Float16},       {"c8", DType::Complex64},
      {"c16", DType::Complex128}, {"single", DType::Float32},   {"half", DType::Float16},
      {"csingle", DType::Complex64}, {"intc", DType::Int32},    {"uintc", DType::UInt32},
      {"ubyte", DType::UInt8},    {"short", DType::Int16},      {"bool", DType::Bool},
      {"bool_", DType::Bool},     {"float16", DType::Float16},  {"complex64", DType::Complex64},
  };
  for (const Case& c : cases) EXPECT_EQ(dtype_from_name(c.text), c.dtype) << c.text;
  for (DType dt : all_dtypes()) EXPECT_EQ(dtype_from_name(name(dt)), dt);
  for (const char* bad : {"object", "O", "U3", "S", "str", "datetime64", "M8", "m8", "float128", "f16", "",
                          "V4", "int128", "floatx"}) {
    EXPECT_THROW(dtype_from_name(bad), TypeError) << bad;
  }
}

TEST(CoreDType, DTypeFromNameErrorMessageNamesTheText) {
  try {
    dtype_from_name("object");
    FAIL() << "no exception";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("'object'"), std::string::npos) << e.what();
  }
}

TEST(CoreDType, FInfo) {
  const FInfo h = finfo(DType::Float16);
  EXPECT_EQ(h.dtype, DType::Float16);
  EXPECT_EQ(h.bits, 16);
  EXPECT_EQ(h.eps, std::ldexp(1.0, -10));
  EXPECT_EQ(h.epsneg, std::ldexp(1.0, -11));
  EXPECT_EQ(h.max, 65504.0);
  EXPECT_EQ(h.min, -65504.0);
  EXPECT_EQ(h.tiny, std::ldexp(1.0, -14));
  EXPECT_EQ(h.smallest_normal, std::ldexp(1.0, -14));
  EXPECT_EQ(h.smallest_subnormal, std::ldexp(1.0, -24));
  EXPECT_EQ(h.precision, 3);
  EXPECT_EQ(h.nmant, 10);
  EXPECT_EQ(h.nexp, 5);
  EXPECT_EQ(h.minexp, -14);
  EXPECT_EQ(h.maxexp, 16);
  EXPECT_EQ(h.machep, -10);
  EXPECT_EQ(h.negep, -11);
  EXPECT_EQ(h.iexp, 5);

  const FInfo f = finfo(DType::Complex64);
  EXPECT_EQ(f.dtype, DType::Float32);
  EXPECT_EQ(f.bits, 32);
  EXPECT_EQ(f.eps, std::ldexp(1.0, -23));
  EXPECT_EQ(f.max, static_cast<double>(std::numeric_limits<float>::max()));
  EXPECT_EQ(f.smallest_subnormal, std::ldexp(1.0, -149));
  EXPECT_EQ(f.precision, 6);
  EXPECT_EQ(f.minexp, -126);
  EXPECT_EQ(f.maxexp, 128);

  const FInfo d = finfo(DType::Float64);
  EXPECT_EQ(d.eps, std::ldexp(1.0, -52));
  EXPECT_EQ(d.epsneg, std::ldexp(1.0, -53));
  EXPECT_EQ(d.tiny, std::ldexp(1.0, -1022));
  EXPECT_EQ(d.smallest_subnormal, std::ldexp(1.0, -1074));
  EXPECT_EQ(d.precision, 15);
  EXPECT_EQ(d.resolution, 1e-15);
  EXPECT_EQ(d.nexp, 11);
  EXPECT_EQ(d.nmant, 52);
  EXPECT_EQ(finfo(DType::Complex128).dtype, DType::Float64);
  // numpy.finfo(int) raises ValueError ("data type <class 'numpy.int32'> not inexact").
  EXPECT_THROW(finfo(DType::Int32), ValueError);
  EXPECT_THROW(finfo(DType::Bool), ValueError);
}

TEST(CoreDType, IInfo) {
  const IInfo i8 = iinfo(DType::Int8);
  EXPECT_EQ(i8.bits, 8);
  EXPECT_EQ(i8.min, -128);
  EXPECT_EQ(i8.max, 127u);
  const IInfo u64 = iinfo(DType::UInt64);
  EXPECT_EQ(u64.min, 0);
  EXPECT_EQ(u64.max, std::numeric_limits<std::uint64_t>::max());
  const IInfo i64 = iinfo(DType::Int64);
  EXPECT_EQ(i64.min, std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(i64.max, static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
  EXPECT_EQ(iinfo(DType::UInt16).max, 65535u);
  EXPECT_EQ(iinfo(DType::Int32).min, -2147483648LL);
  EXPECT_EQ(iinfo(DType::UInt32).dtype, DType::UInt32);
  // numpy.iinfo(float) raises ValueError ("Invalid integer data type 'f'.").
  EXPECT_THROW(iinfo(DType::Float32), ValueError);
  EXPECT_THROW(iinfo(DType::Bool), ValueError);
  EXPECT_THROW(iinfo(DType::Complex64), ValueError);
}

float from_bits(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

TEST(CoreDType, Float16RoundTripsEveryBitPattern) {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const auto bits = static_cast<std::uint16_t>(b);
    const float f = float16_to_float(bits);
    const bool nan = (bits & 0x7c00u) == 0x7c00u && (bits & 0x03ffu) != 0;
    if (nan) {
      EXPECT_TRUE(std::isnan(f)) << std::hex << b;
      EXPECT_EQ(float_to_float16(f) & 0x7c00u, 0x7c00u);
      EXPECT_NE(float_to_float16(f) & 0x03ffu, 0u);
    } else {
      EXPECT_EQ(float_to_float16(f), bits) << std::hex << b;
    }
  }
}

TEST(CoreDType, Float16Values) {
  // Bits checked against numpy.float16(x).view(numpy.uint16).
  EXPECT_EQ(float_to_float16(1.0f), 0x3c00);
  EXPECT_EQ(float_to_float16(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_float16(65519.0f), 0x7bff);
  EXPECT_EQ(float_to_float16(65520.0f), 0x7c00);  // the tie rounds up to inf
  EXPECT_EQ(float_to_float16(-0.0f), 0x8000);
  EXPECT_EQ(float_to_float16(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(float_to_float16(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_EQ(float_to_float16(0.1f), 0x2e66);
  // Subnormals and rounding to nearest even.
  EXPECT_EQ(float_to_float16(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(float_to_float16(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(float_to_float16(3 * std::ldexp(1.0f, -26)), 0x0001);
  EXPECT_EQ(float_to_float16(1.5f * std::ldexp(1.0f, -24)), 0x0002);
  EXPECT_EQ(float_to_float16(2.5f * std::ldexp(1.0f, -24)), 0x0002);
  EXPECT_EQ(float_to_float16(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(float_to_float16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(float_to_float16(from_bits(0x7fc00000u)) & 0x7e00u, 0x7e00u);  // quiet NaN stays NaN
  EXPECT_EQ(float16_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(float16_to_float(0x03ff), 1023 * std::ldexp(1.0f, -24));
  EXPECT_EQ(float16_to_float(0x0400), std::ldexp(1.0f, -14));
  EXPECT_EQ(float16_to_float(0xc000), -2.0f);
  EXPECT_TRUE(std::isinf(float16_to_float(0xfc00)) && float16_to_float(0xfc00) < 0);
  EXPECT_TRUE(std::signbit(float16_to_float(0x8000)));
}

}  // namespace
}  // namespace cunp

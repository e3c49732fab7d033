// Scalar semantics of the ufunc functors in src/ops, on the host. Every expected value
// below is what NumPy 2.4 returns for the same inputs and loop.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "ops/ufunc_arith.h"
#include "ops/ufunc_bits.h"
#include "ops/ufunc_compare.h"
#include "ops/ufunc_math.h"

namespace cunp::ops {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Same value and the same sign of zero; any NaN equals any NaN.
template <typename T> bool same(T a, T b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return a == b && std::signbit(a) == std::signbit(b);
}
#define EXPECT_SAME(a, b) EXPECT_TRUE(same((a), (b))) << (a) << " vs " << (b)
#define EXPECT_CSAME(z, r, i)   \
  do {                          \
    const auto z_ = (z);        \
    EXPECT_SAME(z_.re, (r));    \
    EXPECT_SAME(z_.im, (i));    \
  } while (0)

// float16 loops: the functor sees float32 and the loop rounds its result to half.
f32 via_half(f32 x) { return half_to_f32(f32_to_half(x)); }

TEST(UfuncOpsArith, IntegerDivisionFollowsPython) {
  EXPECT_EQ(floor_divide{}(i32{-7}, i32{2}), -4);
  EXPECT_EQ(floor_divide{}(i32{7}, i32{-2}), -4);
  EXPECT_EQ(remainder{}(i32{-7}, i32{2}), 1);
  EXPECT_EQ(remainder{}(i32{7}, i32{-2}), -1);
  EXPECT_EQ(fmod{}(i32{-7}, i32{2}), -1);
  // Division by zero gives 0 (NumPy warns); MIN // -1 wraps; MIN % -1 is 0.
  EXPECT_EQ(floor_divide{}(i64{5}, i64{0}), 0);
  EXPECT_EQ(remainder{}(u8{5}, u8{0}), 0);
  EXPECT_EQ(fmod{}(i16{5}, i16{0}), 0);
  EXPECT_EQ(floor_divide{}(i8{-128}, i8{-1}), -128);
  EXPECT_EQ(remainder{}(i32{std::numeric_limits<i32>::min()}, i32{-1}), 0);
  i8 q, r;
  divmod{}(i8{-128}, i8{3}, q, r);
  EXPECT_EQ(q, -43);
  EXPECT_EQ(r, 1);
}

TEST(UfuncOpsArith, FloatDivmodEdgeCases) {
  EXPECT_SAME(floor_divide{}(-1.0, kInf), -1.0);
  EXPECT_SAME(floor_divide{}(1.0, kInf), 0.0);
  EXPECT_SAME(floor_divide{}(-0.0, 1.0), -0.0);
  EXPECT_SAME(floor_divide{}(1.0, 0.0), kInf);
  EXPECT_SAME(floor_divide{}(0.0, 0.0), kNan);
  EXPECT_SAME(floor_divide{}(kInf, 2.0), kNan);
  EXPECT_SAME(remainder{}(-1.0, kInf), kInf);
  EXPECT_SAME(remainder{}(1.0, -kInf), -kInf);
  EXPECT_SAME(remainder{}(-0.0, 3.0), 0.0);
  EXPECT_SAME(remainder{}(3.0, -3.0), -0.0);
  EXPECT_SAME(remainder{}(1.0, 0.0), kNan);
  EXPECT_SAME(remainder{}(-2.5f, 1.0f), 0.5f);
  // 1 // 0.1 is 9 in Python and NumPy, not 10.
  EXPECT_SAME(floor_divide{}(1.0, 0.1), 9.0);
  double q, m;
  divmod{}(-7.5, 2.0, q, m);
  EXPECT_SAME(q, -4.0);
  EXPECT_SAME(m, 0.5);
}

TEST(UfuncOpsArith, IntegersWrap) {
  EXPECT_EQ(add{}(i8{127}, i8{1}), -128);
  EXPECT_EQ(multiply{}(u16{65535}, u16{65535}), 1);
  EXPECT_EQ(multiply{}(i64{std::numeric_limits<i64>::max()}, i64{2}), -2);
  EXPECT_EQ(negative{}(i32{std::numeric_limits<i32>::min()}), std::numeric_limits<i32>::min());
  EXPECT_EQ(negative{}(u8{1}), 255);
  EXPECT_EQ(absolute{}(i8{-128}), -128);
  EXPECT_EQ(square{}(i8{16}), 0);
}

TEST(UfuncOpsArith, BooleanArithmetic) {
  EXPECT_TRUE(add{}(true, true));
  EXPECT_FALSE(multiply{}(true, false));
  EXPECT_TRUE(maximum{}(false, true));
  EXPECT_FALSE(minimum{}(false, true));
}

TEST(UfuncOpsArith, IntegerPowerAndReciprocal) {
  EXPECT_EQ(power{}(i32{3}, i32{4}), 81);
  EXPECT_EQ(power{}(i8{2}, i8{7}), -128);
  EXPECT_EQ(power{}(u64{3}, u64{41}), 18026252303461234787ull);
  EXPECT_EQ(power{}(i16{0}, i16{0}), 1);
  EXPECT_EQ(power{}(i32{2}, i32{-1}), 0);  // NumPy raises ValueError (Note [Integer power])
  EXPECT_EQ(reciprocal{}(i32{2}), 0);
  EXPECT_EQ(reciprocal{}(i32{-1}), -1);
  EXPECT_EQ(reciprocal{}(i32{0}), std::numeric_limits<i32>::min());
  EXPECT_EQ(reciprocal{}(i8{0}), 0);
}

TEST(UfuncOpsArith, MaximumMinimumNaNAndZeros) {
  EXPECT_SAME(maximum{}(1.0, kNan), kNan);
  EXPECT_SAME(maximum{}(kNan, 1.0), kNan);
  EXPECT_SAME(fmax{}(1.0, kNan), 1.0);
  EXPECT_SAME(fmin{}(kNan, 1.0), 1.0);
  // float32/float64 return the second argument on ties, float16 the first.
  EXPECT_SAME(maximum{}(-0.0, 0.0), 0.0);
  EXPECT_SAME(maximum{}(0.0f, -0.0f), -0.0f);
  EXPECT_SAME(minimum{}(-0.0, 0.0), 0.0);
  EXPECT_SAME(maximum_f16{}(-0.0f, 0.0f), -0.0f);
  EXPECT_SAME(minimum_f16{}(0.0f, -0.0f), 0.0f);
}

TEST(UfuncOpsArith, ComplexMaximumIsLexicographic) {
  const c128 a{1.0, 5.0}, b{1.0, 6.0}, c{2.0, kNan}, d{kNan, 0.0};
  EXPECT_CSAME(maximum{}(a, b), 1.0, 6.0);
  EXPECT_CSAME(minimum{}(a, b), 1.0, 5.0);
  EXPECT_CSAME(maximum{}(a, c), 2.0, kNan);  // NaN propagates
  EXPECT_CSAME(fmax{}(a, c), 1.0, 5.0);      // ... or is ignored
  EXPECT_CSAME(fmax{}(d, a), 1.0, 5.0);
}

TEST(UfuncOpsArith, ComplexArithmetic) {
  // NumPy's complex multiply rounds each part once after the second product (FMA).
  const c128 z = multiply{}(c128{0.001, 0.001}, c128{0.001, 0.001});
  EXPECT_SAME(z.re, 8.688525159755711e-23);
  EXPECT_SAME(z.im, 2e-06);
  EXPECT_CSAME(true_divide{}(c128{1.0, 1.0}, c128{0.0, 0.0}), kInf, kInf);
  EXPECT_CSAME(true_divide{}(c128{0.0, 1.0}, c128{-0.0, -0.0}), kNan, kInf);
  EXPECT_CSAME(true_divide{}(c128{1.0, 2.0}, c128{3.0, 4.0}), 0.44, 0.08);
  EXPECT_CSAME(reciprocal{}(c128{0.0, 2.0}), 0.0, -0.5);
  EXPECT_SAME(absolute{}(c64{0.5f, 3.0f}), 3.0413811f);
  EXPECT_SAME(absolute{}(c128{kInf, kNan}), kInf);
  EXPECT_SAME(absolute{}(c128{kNan, 1.0}), kNan);
}

TEST(UfuncOpsArith, Sign) {
  EXPECT_SAME(sign{}(-0.0), 0.0);
  EXPECT_SAME(sign{}(kNan), kNan);
  EXPECT_EQ(sign{}(u8{7}), 1);
  EXPECT_EQ(sign{}(i16{-7}), -1);
  EXPECT_CSAME(sign{}(c128{3.0, 4.0}), 0.6, 0.8);
  EXPECT_CSAME(sign{}(c128{0.0, 0.0}), 0.0, 0.0);
  EXPECT_CSAME(sign{}(c128{-kInf, 1.0}), -1.0, 0.0);
  EXPECT_CSAME(sign{}(c128{kInf, kInf}), kNan, kNan);
}

TEST(UfuncOpsArith, ComplexPower) {
  EXPECT_CSAME(power{}(c128{0.0, 0.0}, c128{1.0, 1.0}), 0.0, 0.0);
  EXPECT_CSAME(power{}(c128{0.0, 0.0}, c128{0.0, 1.0}), kNan, kNan);
  EXPECT_CSAME(power{}(c128{5.0, 3.0}, c128{0.0, 0.0}), 1.0, 0.0);
  EXPECT_CSAME(power{}(c128{1.0, 2.0}, c128{2.0, 0.0}), -3.0, 4.0);
  EXPECT_CSAME(power{}(c128{kInf, kNan}, c128{1.0, 1.0}), kInf, kNan);
}

TEST(UfuncOpsMath, FloatingPointHelpers) {
  EXPECT_SAME(rint{}(2.5), 2.0);
  EXPECT_SAME(rint{}(-3.5f), -4.0f);
  EXPECT_SAME(rint{}(-0.4), -0.0);
  EXPECT_SAME(spacing{}(1.0), std::ldexp(1.0, -52));
  EXPECT_SAME(spacing{}(-1.0f), -std::ldexp(1.0f, -23));
  EXPECT_SAME(spacing{}(-0.0), 5e-324);
  EXPECT_SAME(spacing{}(kInf), kNan);
  EXPECT_SAME(nextafter{}(0.0, -0.0), -0.0);
  EXPECT_SAME(heaviside{}(0.0, 0.5), 0.5);
  EXPECT_SAME(heaviside{}(-0.0, 0.5), 0.5);
  EXPECT_SAME(heaviside{}(kNan, 0.5), kNan);
  EXPECT_SAME(ldexp{}(1.0f, i64{1} << 40), std::numeric_limits<f32>::infinity());
  EXPECT_SAME(ldexp{}(1.0, i64{-(i64{1} << 40)}), 0.0);
  f64 m;
  i32 e;
  frexp{}(kInf, m, e);
  EXPECT_SAME(m, kInf);
  EXPECT_EQ(e, 0);
  frexp{}(-12.0, m, e);
  EXPECT_SAME(m, -0.75);
  EXPECT_EQ(e, 4);
  f64 frac, integral;
  modf{}(-kInf, frac, integral);
  EXPECT_SAME(frac, -0.0);
  EXPECT_SAME(integral, -kInf);
  modf{}(-2.0, frac, integral);
  EXPECT_SAME(frac, -0.0);
  EXPECT_SAME(logaddexp{}(-kInf, -kInf), -kInf);
  EXPECT_SAME(logaddexp2{}(1.0, 1.0), 2.0);
  EXPECT_SAME(rad2deg{}(1.0f), 57.295776f);
}

TEST(UfuncOpsMath, HalfPrecisionNextafterAndSpacing) {
  // float16 nextafter/spacing step on the float16 grid.
  EXPECT_SAME(via_half(nextafter_f16{}(1.0f, 2.0f)), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_SAME(via_half(nextafter_f16{}(1.0f, 0.0f)), 1.0f - std::ldexp(1.0f, -11));
  EXPECT_SAME(via_half(nextafter_f16{}(0.0f, -1.0f)), -std::ldexp(1.0f, -24));
  EXPECT_SAME(via_half(nextafter_f16{}(0.0f, -0.0f)), -0.0f);  // equal: the second (C99, NumPy 2.5)
  EXPECT_SAME(via_half(nextafter_f16{}(-0.0f, 0.0f)), 0.0f);
  EXPECT_SAME(via_half(nextafter_f16{}(65504.0f, kInf)), std::numeric_limits<f32>::infinity());
  EXPECT_SAME(via_half(spacing_f16{}(1.0f)), std::ldexp(1.0f, -10));
  // NumPy's float16 spacing steps toward +inf, so negative arguments give positive
  // values: spacing(float16(-1)) == 2**-11.
  EXPECT_SAME(via_half(spacing_f16{}(-1.0f)), std::ldexp(1.0f, -11));
  EXPECT_SAME(via_half(spacing_f16{}(-0.0f)), std::ldexp(1.0f, -24));
}

TEST(UfuncOpsMath, ComplexSpecialValues) {
  EXPECT_CSAME(sqrt{}(c128{-4.0, 0.0}), 0.0, 2.0);
  EXPECT_CSAME(sqrt{}(c128{-4.0, -0.0}), 0.0, -2.0);
  EXPECT_CSAME(sqrt{}(c128{0.0, 1.0}), 0.7071067811865476, 0.7071067811865476);
  EXPECT_CSAME(sqrt{}(c128{-kInf, kNan}), kNan, kInf);
  EXPECT_CSAME(sqrt{}(c128{kNan, kInf}), kInf, kInf);
  EXPECT_CSAME(log{}(c128{-0.0, 0.0}), -kInf, 3.141592653589793);
  EXPECT_CSAME(log{}(c128{-1.0, -0.0}), 0.0, -3.141592653589793);
  EXPECT_CSAME(exp{}(c128{-kInf, kInf}), 0.0, 0.0);
  EXPECT_CSAME(exp{}(c128{kInf, kNan}), kInf, kNan);
  EXPECT_CSAME(exp{}(c128{kNan, 0.0}), kNan, 0.0);
  EXPECT_CSAME(arcsin{}(c128{2.0, 0.0}), 1.5707963267948966, 1.3169578969248166);
  EXPECT_CSAME(arcsin{}(c128{2.0, -0.0}), 1.5707963267948966, -1.3169578969248166);
  EXPECT_CSAME(arccos{}(c128{kInf, kNan}), kNan, -kInf);
  EXPECT_CSAME(arccosh{}(c128{0.0, kNan}), kNan, 1.5707963267948966);
  EXPECT_CSAME(arctanh{}(c128{1.0, 0.0}), kInf, 0.0);
  EXPECT_CSAME(arctanh{}(c128{2.0, 0.0}), 0.5493061443340549, 1.5707963267948966);
  EXPECT_CSAME(sinh{}(c128{-kInf, kInf}), kInf, kNan);
  EXPECT_CSAME(sin{}(c128{kInf, -kInf}), kNan, kInf);
  EXPECT_CSAME(cos{}(c128{-0.0, kNan}), kNan, -0.0);
  EXPECT_CSAME(tanh{}(c128{kInf, 1.0}), 1.0, 0.0);
  EXPECT_CSAME(tanh{}(c128{-kInf, 2.0}), -1.0, -0.0);
}

TEST(UfuncOpsCompare, NaNAndComplexOrder) {
  EXPECT_FALSE(less{}(kNan, 1.0));
  EXPECT_TRUE(not_equal{}(kNan, kNan));
  EXPECT_TRUE(equal{}(-0.0, 0.0));
  EXPECT_TRUE(less{}(c128{1.0, 5.0}, c128{2.0, 0.0}));
  EXPECT_TRUE(less{}(c128{1.0, 5.0}, c128{1.0, 6.0}));
  EXPECT_FALSE(less{}(c128{1.0, kNan}, c128{2.0, 0.0}));
  EXPECT_TRUE(greater_equal{}(c128{2.0, 0.0}, c128{1.0, 9.0}));
  EXPECT_TRUE(logical_and{}(kNan, 1.0));
  EXPECT_TRUE(logical_or{}(c64{0.0f, 1.0f}, c64{0.0f, 0.0f}));
  EXPECT_TRUE(logical_not{}(c128{0.0, -0.0}));
  EXPECT_TRUE(logical_xor{}(i8{0}, i8{-3}));
}

TEST(UfuncOpsCompare, Classification) {
  EXPECT_TRUE(signbit{}(-0.0));
  EXPECT_TRUE(signbit{}(-std::numeric_limits<f32>::quiet_NaN()));
  EXPECT_FALSE(signbit{}(kNan));
  EXPECT_TRUE(isnan{}(c128{1.0, kNan}));
  EXPECT_TRUE(isinf{}(c64{static_cast<f32>(kNan), -static_cast<f32>(kInf)}));
  EXPECT_FALSE(isfinite{}(c128{1.0, kInf}));
  EXPECT_TRUE(isfinite{}(i64{5}));
  EXPECT_FALSE(isnan{}(true));
}

TEST(UfuncOpsBits, ShiftsOutOfRange) {
  EXPECT_EQ(left_shift{}(i8{1}, i8{7}), -128);
  EXPECT_EQ(left_shift{}(i8{1}, i8{8}), 0);
  EXPECT_EQ(left_shift{}(i32{1}, i32{-1}), 0);
  EXPECT_EQ(left_shift{}(u64{1}, u64{64}), 0u);
  EXPECT_EQ(right_shift{}(i16{-5}, i16{16}), -1);
  EXPECT_EQ(right_shift{}(i16{-5}, i16{-1}), -1);
  EXPECT_EQ(right_shift{}(i64{5}, i64{100}), 0);
  EXPECT_EQ(right_shift{}(i32{-8}, i32{1}), -4);
  EXPECT_EQ(right_shift{}(u8{200}, u8{9}), 0);
  EXPECT_EQ(invert{}(u8{0}), 255);
  EXPECT_FALSE(invert{}(true));
}

TEST(UfuncOpsBits, GcdLcm) {
  EXPECT_EQ(gcd{}(i32{-12}, i32{18}), 6);
  EXPECT_EQ(gcd{}(i32{0}, i32{-5}), 5);
  EXPECT_EQ(gcd{}(i8{-128}, i8{0}), -128);
  EXPECT_EQ(lcm{}(i32{-4}, i32{6}), 12);
  EXPECT_EQ(lcm{}(i32{0}, i32{6}), 0);
  EXPECT_EQ(lcm{}(u8{16}, u8{48}), 48);
}

}  // namespace
}  // namespace cunp::ops

// tests/cpp/ufunc/test_ufunc_api.cpp — the C++ ufunc surface on the cpu device: the
// per-ufunc functions, operators with NEP 50 weak C++ scalars, UfuncOptions (out, where,
// dtype, casting), in-place operators, the elementwise helpers and the errors. Expected
// values come from NumPy 2.4.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cunp/cunp.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

class UfuncApi : public ::testing::Test {
 protected:
  DeviceGuard guard_{Device::cpu()};
};

using UfuncApiOperators = UfuncApi;
using UfuncApiOptions = UfuncApi;
using UfuncApiInPlace = UfuncApi;
using UfuncApiFunctions = UfuncApi;
using UfuncApiErrors = UfuncApi;

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename T>
ndarray arr(std::initializer_list<T> v) {
  if constexpr (std::is_same_v<T, bool>) {
    return from_host(v.begin(), DType::Bool, {static_cast<std::int64_t>(v.size())});
  } else {
    return asarray(std::vector<T>(v));
  }
}

// ---- types and the generic entry point

TEST_F(UfuncApi, TypesFollowNumPy) {
  const std::vector<std::string> add = ufunc_types("add");
  const std::vector<std::string> expected = {"?\?->?", "bb->b", "BB->B", "hh->h", "HH->H",
                                             "ii->i", "II->I", "ll->l", "LL->L", "ee->e",
                                             "ff->f", "dd->d", "FF->F", "DD->D"};
  EXPECT_EQ(add, expected);
  const std::vector<std::string> sin = ufunc_types("sin");
  ASSERT_FALSE(sin.empty());
  EXPECT_EQ(sin.front(), "e->e");
  EXPECT_EQ(sin.back(), "D->D");
  EXPECT_EQ(ufunc_types("divide"), ufunc_types("true_divide"));
  EXPECT_EQ(ufunc_types("frexp"), (std::vector<std::string>{"e->ei", "f->fi", "d->di"}));
  EXPECT_EQ(ufunc_types("ldexp"),
            (std::vector<std::string>{"ei->e", "fi->f", "el->e", "fl->f", "di->d", "dl->d"}));
}

TEST_F(UfuncApi, CallUfuncByNameAndAlias) {
  const ndarray a = arr<std::int32_t>({1, 2, 3});
  const ndarray b = arr<std::int32_t>({10, 20, 30});
  const Operand in[2] = {a, b};
  std::vector<ndarray> r = call_ufunc("add", in);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].dtype(), DType::Int32);
  EXPECT_EQ(r[0].to_vector<std::int32_t>(), (std::vector<std::int32_t>{11, 22, 33}));
  r = call_ufunc("mod", in);
  EXPECT_EQ(r[0].to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 2, 3}));
  r = call_ufunc("divmod", in);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 0, 0}));
}

TEST_F(UfuncApi, ArithmeticFunctions) {
  const ndarray a = arr<double>({1.5, -2.0, 0.0, kNan});
  const ndarray b = arr<double>({0.5, 4.0, -0.0, 1.0});
  EXPECT_EQ(add(a, b).to_vector<double>()[0], 2.0);
  const std::vector<double> q = true_divide(a, b).to_vector<double>();
  EXPECT_EQ(q[0], 3.0);
  EXPECT_EQ(q[1], -0.5);
  EXPECT_TRUE(std::isnan(q[2]));  // 0 / -0
  EXPECT_TRUE(std::isnan(q[3]));
  const std::vector<double> mx = maximum(a, b).to_vector<double>();
  EXPECT_TRUE(std::isnan(mx[3]));  // NaN propagates
  EXPECT_EQ(fmax(a, b).to_vector<double>()[3], 1.0);
  const std::vector<double> s = sqrt(arr<double>({4.0, -1.0})).to_vector<double>();
  EXPECT_EQ(s[0], 2.0);
  EXPECT_TRUE(std::isnan(s[1]));
  EXPECT_EQ(sin(arr<std::int8_t>({0, 1})).dtype(), DType::Float16);
  EXPECT_EQ(sin(arr<std::int16_t>({0, 1})).dtype(), DType::Float32);
  EXPECT_EQ(sin(arr<std::int32_t>({0, 1})).dtype(), DType::Float64);
  EXPECT_NEAR(exp(arr<double>({1.0})).to_vector<double>()[0], 2.718281828459045, 1e-15);
  EXPECT_EQ(absolute(arr<std::complex<double>>({{3.0, 4.0}})).dtype(), DType::Float64);
  EXPECT_EQ(absolute(arr<std::complex<double>>({{3.0, 4.0}})).to_vector<double>()[0], 5.0);
  EXPECT_EQ(abs(arr<std::int8_t>({-128, -3})).to_vector<std::int8_t>(),
            (std::vector<std::int8_t>{-128, 3}));
  EXPECT_EQ(conj(arr<std::complex<float>>({{1.0F, 2.0F}})).to_vector<std::complex<float>>()[0],
            std::complex<float>(1.0F, -2.0F));
  EXPECT_EQ(true_divide(arr<std::int64_t>({1, 3}), arr<std::int64_t>({2, 2})).dtype(), DType::Float64);
  EXPECT_EQ(divide(arr<std::int64_t>({3}), arr<std::int64_t>({2})).to_vector<double>()[0], 1.5);
}

TEST_F(UfuncApi, IntegerDivisionByZeroIsZero) {
  const ndarray a = arr<std::int32_t>({7, -7, 0, std::numeric_limits<std::int32_t>::min(), 5});
  const ndarray b = arr<std::int32_t>({0, 0, 0, -1, -3});
  EXPECT_EQ(floor_divide(a, b).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{0, 0, 0, std::numeric_limits<std::int32_t>::min(), -2}));
  EXPECT_EQ(remainder(a, b).to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 0, 0, 0, -1}));
  EXPECT_EQ(mod(a, b).to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 0, 0, 0, -1}));
  EXPECT_EQ(fmod(a, b).to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 0, 0, 0, 2}));
  const std::vector<ndarray> qr = divmod(a, b);
  ASSERT_EQ(qr.size(), 2u);
  EXPECT_EQ(qr[0].to_vector<std::int32_t>()[4], -2);
  EXPECT_EQ(qr[1].to_vector<std::int32_t>()[4], -1);
}

TEST_F(UfuncApi, FloatFloorDivideAndRemainderSigns) {
  const ndarray a = arr<double>({7.5, -7.5, 7.5, 1.0, -0.0});
  const ndarray b = arr<double>({2.0, 2.0, -2.0, 0.0, 3.0});
  const std::vector<double> q = floor_divide(a, b).to_vector<double>();
  EXPECT_EQ(q[0], 3.0);
  EXPECT_EQ(q[1], -4.0);
  EXPECT_EQ(q[2], -4.0);
  EXPECT_EQ(q[3], kInf);
  EXPECT_TRUE(std::signbit(q[4]));
  const std::vector<double> r = remainder(a, b).to_vector<double>();
  EXPECT_EQ(r[0], 1.5);
  EXPECT_EQ(r[1], 0.5);
  EXPECT_EQ(r[2], -0.5);
  EXPECT_TRUE(std::isnan(r[3]));
  EXPECT_EQ(r[4], 0.0);
  EXPECT_FALSE(std::signbit(r[4]));
}

TEST_F(UfuncApi, ShiftsBeyondBitWidth) {
  const ndarray v = arr<std::int8_t>({1, -8, 1, -8, 3});
  const ndarray c = arr<std::int8_t>({8, 8, -1, -1, 1});
  EXPECT_EQ(left_shift(v, c).to_vector<std::int8_t>(), (std::vector<std::int8_t>{0, 0, 0, 0, 6}));
  EXPECT_EQ(right_shift(v, c).to_vector<std::int8_t>(), (std::vector<std::int8_t>{0, -1, 0, -1, 1}));
}

TEST_F(UfuncApi, TwoOutputUfuncs) {
  const std::vector<ndarray> fe = frexp(arr<double>({8.0, 0.0, -3.0}));
  ASSERT_EQ(fe.size(), 2u);
  EXPECT_EQ(fe[0].to_vector<double>(), (std::vector<double>{0.5, 0.0, -0.75}));
  EXPECT_EQ(fe[1].dtype(), DType::Int32);
  EXPECT_EQ(fe[1].to_vector<std::int32_t>(), (std::vector<std::int32_t>{4, 0, 2}));
  const std::vector<ndarray> fi = modf(arr<float>({2.5F, -1.25F}));
  EXPECT_EQ(fi[0].to_vector<float>(), (std::vector<float>{0.5F, -0.25F}));
  EXPECT_EQ(fi[1].to_vector<float>(), (std::vector<float>{2.0F, -1.0F}));
}

TEST_F(UfuncApi, BroadcastingAndStrides) {
  const ndarray col = arange(Scalar(0), Scalar(3), Scalar(1), {.dtype = DType::Int64}).reshape({3, 1});
  const ndarray row = arange(Scalar(0), Scalar(4), Scalar(1), {.dtype = DType::Int64}).reshape({1, 4});
  const ndarray r = multiply(col, row);
  EXPECT_EQ(r.shape(), (Shape{3, 4}));
  EXPECT_EQ(r.to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 0, 0, 0, 0, 1, 2, 3, 0, 2, 4, 6}));
  const ndarray t = add(r.T(), Operand(100));
  EXPECT_EQ(t.shape(), (Shape{4, 3}));
  EXPECT_EQ(t.to_vector<std::int64_t>()[0 * 3 + 2], 100);
  EXPECT_EQ(t.to_vector<std::int64_t>()[3 * 3 + 2], 106);
  const ndarray rev = arange(Scalar(0), Scalar(6), Scalar(1), {.dtype = DType::Int64}).view({Slice{{}, {}, -2}});
  EXPECT_EQ(negative(rev).to_vector<std::int64_t>(), (std::vector<std::int64_t>{-5, -3, -1}));
  const ndarray e = add(zeros({0, 3}), zeros({1, 3}));
  EXPECT_EQ(e.shape(), (Shape{0, 3}));
  const ndarray s = add(asarray(zeros({}, {.dtype = DType::Int16})), Operand(2));
  EXPECT_EQ(s.shape(), Shape{});
  EXPECT_EQ(s.dtype(), DType::Int16);
}

// ---- operators and NEP 50

TEST_F(UfuncApiOperators, WeakScalarsKeepTheArrayDtype) {
  const ndarray i8 = arr<std::int8_t>({1, 2, 3});
  EXPECT_EQ((i8 + 1).dtype(), DType::Int8);
  EXPECT_EQ((1 + i8).dtype(), DType::Int8);
  EXPECT_EQ((i8 * 2).to_vector<std::int8_t>(), (std::vector<std::int8_t>{2, 4, 6}));
  EXPECT_EQ((i8 + 1.5).dtype(), DType::Float64);
  EXPECT_EQ((i8 / 2).dtype(), DType::Float64);
  const ndarray f32 = arr<float>({1.0F, 2.0F});
  EXPECT_EQ((f32 + 2.0).dtype(), DType::Float32);
  EXPECT_EQ((f32 * std::int64_t{3}).dtype(), DType::Float32);
  EXPECT_EQ((f32 + std::complex<double>(0, 1)).dtype(), DType::Complex64);
  const ndarray u8 = arr<std::uint8_t>({250, 1});
  EXPECT_EQ((u8 + 10).to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{4, 11}));
  EXPECT_EQ((u8 + true).dtype(), DType::UInt8);
  const ndarray b = arr<bool>({true, false});
  EXPECT_EQ((b + 1).dtype(), DType::Int64);
  EXPECT_EQ((b + true).dtype(), DType::Bool);
  EXPECT_EQ((b * 2.5).dtype(), DType::Float64);
}

TEST_F(UfuncApiOperators, StrongScalarsPromote) {
  const ndarray i8 = arr<std::int8_t>({1, 2});
  EXPECT_EQ((i8 + Scalar::of(DType::Int32, Scalar(1))).dtype(), DType::Int32);
  EXPECT_EQ((i8 + Scalar::of(DType::Float32, Scalar(1.5))).dtype(), DType::Float32);
  EXPECT_EQ((Scalar::of(DType::UInt64, Scalar(1)) + arr<std::int64_t>({1})).dtype(), DType::Float64);
}

TEST_F(UfuncApiOperators, OutOfRangePythonIntRaisesOverflow) {
  const ndarray i8 = arr<std::int8_t>({1, 2});
  EXPECT_THROW(i8 + 300, OverflowError);
  EXPECT_THROW(300 + i8, OverflowError);
  EXPECT_THROW(arr<std::uint8_t>({1}) + (-1), OverflowError);
  EXPECT_NO_THROW(i8 + 127);
  EXPECT_NO_THROW(i8 + (-128));
}

TEST_F(UfuncApiOperators, MixedArrays) {
  EXPECT_EQ((arr<std::uint64_t>({1}) + arr<std::int64_t>({1})).dtype(), DType::Float64);
  EXPECT_EQ((arr<std::uint8_t>({1}) - arr<std::int8_t>({2})).dtype(), DType::Int16);
  EXPECT_EQ((arr<std::uint8_t>({1}) - arr<std::int8_t>({2})).to_vector<std::int16_t>()[0], -1);
  EXPECT_EQ((arr<std::complex<float>>({{1, 1}}) * arr<double>({2.0})).dtype(), DType::Complex128);
  EXPECT_EQ((arr<std::int8_t>({1}) + arr<float>({1.0F})).dtype(), DType::Float32);
  EXPECT_EQ((arr<std::int32_t>({1}) + arr<float>({1.0F})).dtype(), DType::Float64);
}

TEST_F(UfuncApiOperators, ComparisonsAndBitwise) {
  const ndarray a = arr<std::int32_t>({1, 5, 3});
  const ndarray eq = a == 3;
  EXPECT_EQ(eq.dtype(), DType::Bool);
  EXPECT_EQ(eq.to_vector<bool>(), (std::vector<bool>{false, false, true}));
  EXPECT_EQ((a < 3.5).to_vector<bool>(), (std::vector<bool>{true, false, true}));
  EXPECT_EQ((a >= a).to_vector<bool>(), (std::vector<bool>{true, true, true}));
  EXPECT_EQ((a != 5).to_vector<bool>(), (std::vector<bool>{true, false, true}));
  EXPECT_EQ((a <= 1).to_vector<bool>(), (std::vector<bool>{true, false, false}));
  EXPECT_EQ((a > 1).to_vector<bool>(), (std::vector<bool>{false, true, true}));
  const ndarray nan = arr<double>({kNan});
  EXPECT_EQ((nan == nan).to_vector<bool>(), (std::vector<bool>{false}));
  EXPECT_EQ((nan != nan).to_vector<bool>(), (std::vector<bool>{true}));
  EXPECT_EQ((a & 6).to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 4, 2}));
  EXPECT_EQ((a | 8).to_vector<std::int32_t>(), (std::vector<std::int32_t>{9, 13, 11}));
  EXPECT_EQ((a ^ 1).to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 4, 2}));
  EXPECT_EQ((a << 2).to_vector<std::int32_t>(), (std::vector<std::int32_t>{4, 20, 12}));
  EXPECT_EQ((a >> 1).to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 2, 1}));
  EXPECT_EQ((a % 2).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 1, 1}));
  EXPECT_EQ((-a).to_vector<std::int32_t>(), (std::vector<std::int32_t>{-1, -5, -3}));
  EXPECT_EQ((~a).to_vector<std::int32_t>(), (std::vector<std::int32_t>{-2, -6, -4}));
  EXPECT_EQ((~arr<bool>({true, false})).to_vector<bool>(), (std::vector<bool>{false, true}));
}

// ---- options

TEST_F(UfuncApiOptions, OutIsWrittenAndReturned) {
  const ndarray a = arr<double>({1.0, 2.0, 3.0});
  const ndarray c = zeros({3});
  const ndarray r = add(a, a, {.out = {c}});
  EXPECT_EQ(r.data(), c.data());
  EXPECT_EQ(c.to_vector<double>(), (std::vector<double>{2.0, 4.0, 6.0}));
  const ndarray f = zeros({3}, {.dtype = DType::Float32});
  add(arr<std::int8_t>({1, 2, 3}), 1, {.out = {f}});  // int8 -> float32: safe
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{2.0F, 3.0F, 4.0F}));
  const ndarray wide = zeros({2, 3});
  add(a, 1.0, {.out = {wide}});  // inputs broadcast to the output's shape
  EXPECT_EQ(wide.to_vector<double>(), (std::vector<double>{2, 3, 4, 2, 3, 4}));
  const ndarray q = zeros({3}, {.dtype = DType::Float64});
  const ndarray m = zeros({3}, {.dtype = DType::Float64});
  const std::vector<ndarray> qm = divmod(arr<double>({7.0, -7.0, 1.0}), 2.0, {.out = {q, m}});
  EXPECT_EQ(qm[0].data(), q.data());
  EXPECT_EQ(q.to_vector<double>(), (std::vector<double>{3.0, -4.0, 0.0}));
  EXPECT_EQ(m.to_vector<double>(), (std::vector<double>{1.0, 1.0, 1.0}));
}

TEST_F(UfuncApiOptions, OutInPlaceOnAnInputAndOverlap) {
  ndarray a = arange(Scalar(0), Scalar(6), Scalar(1), {.dtype = DType::Int64});
  add(a, a, {.out = {a}});
  EXPECT_EQ(a.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 2, 4, 6, 8, 10}));
  ndarray b = arange(Scalar(0), Scalar(6), Scalar(1), {.dtype = DType::Int64});
  add(b.view({Slice{{}, -1}}), b.view({Slice{1, {}}}), {.out = {b.view({Slice{1, {}}})}});
  // NumPy reads the inputs as they were before the call.
  EXPECT_EQ(b.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 3, 5, 7, 9}));
}

TEST_F(UfuncApiOptions, OutErrors) {
  const ndarray a = arr<double>({1.0, 2.0, 3.0});
  EXPECT_THROW(add(a, a, {.out = {zeros({4})}}), ValueError);
  EXPECT_THROW(add(a, zeros({2, 3}), {.out = {zeros({3})}}), ValueError);
  EXPECT_THROW(add(a, a, {.out = {zeros({3}, {.dtype = DType::Int32})}}), TypeError);
  EXPECT_THROW(sqrt(arr<std::complex<double>>({{1, 1}}), {.out = {zeros({1})}}), TypeError);
  EXPECT_THROW(add(a, a, {.out = {zeros({3}), zeros({3})}}), ValueError);
  EXPECT_THROW(add(a, a, {.out = {zeros({1}).broadcast_to({3})}}), ValueError);  // read-only
  const ndarray i = zeros({3}, {.dtype = DType::Int32});
  EXPECT_NO_THROW(add(a, a, {.out = {i}, .casting = Casting::Unsafe}));
  EXPECT_EQ(i.to_vector<std::int32_t>(), (std::vector<std::int32_t>{2, 4, 6}));
}

TEST_F(UfuncApiOptions, WhereMask) {
  const ndarray a = arr<double>({1.0, 2.0, 3.0, 4.0});
  const ndarray out = full({4}, Scalar(-1.0));
  multiply(a, 10.0, {.out = {out}, .where = arr<bool>({true, false, true, false})});
  EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{10.0, -1.0, 30.0, -1.0}));
  const ndarray out2 = full({2, 2}, Scalar(7.0));
  add(a.reshape({2, 2}), 1.0, {.out = {out2}, .where = arr<bool>({false, true})});
  EXPECT_EQ(out2.to_vector<double>(), (std::vector<double>{7.0, 3.0, 7.0, 5.0}));
  EXPECT_THROW(add(a, a, {.out = {zeros({4})}, .where = arr<bool>({true, false, true})}), ValueError);
}

TEST_F(UfuncApiOptions, DtypeAndCasting) {
  const ndarray i8 = arr<std::int8_t>({100, 100});
  const ndarray r = add(i8, i8, {.dtype = DType::Float32});
  EXPECT_EQ(r.dtype(), DType::Float32);
  EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{200.0F, 200.0F}));
  EXPECT_EQ(sin(i8, {.dtype = DType::Float64}).dtype(), DType::Float64);
  EXPECT_THROW(add(arr<double>({1.0}), arr<double>({1.0}), {.dtype = DType::Int32}), TypeError);
  EXPECT_THROW(add(i8, arr<std::int16_t>({1, 1}), {.casting = Casting::No}), TypeError);
  EXPECT_THROW(add(i8, arr<std::int16_t>({1, 1}), {.casting = Casting::Equiv}), TypeError);
  EXPECT_NO_THROW(add(i8, arr<std::int16_t>({1, 1}), {.casting = Casting::Safe}));
  EXPECT_NO_THROW(add(i8, i8, {.casting = Casting::No}));
  EXPECT_THROW(add(i8, arr<double>({1.5, 1.5}), {.out = {zeros({2}, {.dtype = DType::Int8})}}), TypeError);
}

// ---- in-place operators

TEST_F(UfuncApiInPlace, WritesIntoTheArray) {
  ndarray a = arr<std::int32_t>({1, 2, 3});
  const void* data = a.data();
  ndarray& r = (a += 1);
  EXPECT_EQ(&r, &a);
  EXPECT_EQ(a.data(), data);
  EXPECT_EQ(a.to_vector<std::int32_t>(), (std::vector<std::int32_t>{2, 3, 4}));
  a -= arr<std::int8_t>({1, 1, 1});
  a *= 3;
  EXPECT_EQ(a.to_vector<std::int32_t>(), (std::vector<std::int32_t>{3, 6, 9}));
  ndarray f = arr<float>({1.0F, 2.0F});
  f /= 4;
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{0.25F, 0.5F}));
  f += arr<double>({1.0, 1.0});  // float64 -> float32 is same_kind
  EXPECT_EQ(f.dtype(), DType::Float32);
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{1.25F, 1.5F}));
  ndarray base = zeros({2, 3});
  ndarray col = base.view({Slice{}, Index(1)});
  col += 5.0;
  EXPECT_EQ(base.to_vector<double>(), (std::vector<double>{0, 5, 0, 0, 5, 0}));
}

TEST_F(UfuncApiInPlace, CastingErrors) {
  ndarray i = arr<std::int32_t>({1, 2});
  EXPECT_THROW(i += 1.5, TypeError);
  EXPECT_THROW(i /= 2, TypeError);
  EXPECT_THROW(i += arr<double>({1.0, 1.0}), TypeError);
  ndarray f = arr<float>({1.0F});
  EXPECT_THROW(f *= std::complex<double>(0, 1), TypeError);
  ndarray i8 = arr<std::int8_t>({1});
  EXPECT_THROW(i8 += 300, OverflowError);
  ndarray small = zeros({3});
  EXPECT_THROW(small += zeros({2, 3}), ValueError);
  EXPECT_EQ(i.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 2}));
}

// ---- elementwise helpers

TEST_F(UfuncApiFunctions, Where) {
  const ndarray c = arr<bool>({true, false, true});
  const ndarray r = where(c, arr<std::int8_t>({1, 2, 3}), -1);
  EXPECT_EQ(r.dtype(), DType::Int8);
  EXPECT_EQ(r.to_vector<std::int8_t>(), (std::vector<std::int8_t>{1, -1, 3}));
  const ndarray m = where(c, arr<std::int8_t>({1, 2, 3}), arr<float>({0.5F, 0.5F, 0.5F}));
  EXPECT_EQ(m.dtype(), DType::Float32);
  EXPECT_EQ(where(c, 1, 2.5).dtype(), DType::Float64);
  const ndarray b = where(c.reshape({3, 1}), arr<std::int64_t>({1, 2}), 0);
  EXPECT_EQ(b.shape(), (Shape{3, 2}));
  EXPECT_EQ(b.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 0, 0, 1, 2}));
  EXPECT_THROW(where(c, arr<double>({1.0, 2.0}), 0.0), ValueError);
}

TEST_F(UfuncApiFunctions, Clip) {
  const ndarray a = arr<double>({-5.0, 0.5, 3.0, kNan, 9.0});
  std::vector<double> r = clip(a, Operand(0.0), Operand(4.0)).to_vector<double>();
  EXPECT_EQ(r[0], 0.0);
  EXPECT_EQ(r[1], 0.5);
  EXPECT_EQ(r[4], 4.0);
  EXPECT_TRUE(std::isnan(r[3]));
  r = clip(a, std::nullopt, Operand(1.0)).to_vector<double>();
  EXPECT_EQ(r[0], -5.0);
  EXPECT_EQ(r[4], 1.0);
  r = clip(a, Operand(1.0), std::nullopt).to_vector<double>();
  EXPECT_EQ(r[0], 1.0);
  EXPECT_EQ(r[4], 9.0);
  r = clip(a, Operand(kNan), Operand(4.0)).to_vector<double>();
  for (double v : r) EXPECT_TRUE(std::isnan(v));
  const ndarray i = arr<std::int16_t>({-3, 7});
  EXPECT_EQ(clip(i, Operand(0), Operand(5)).dtype(), DType::Int16);
  EXPECT_EQ(clip(i, Operand(0), Operand(5)).to_vector<std::int16_t>(), (std::vector<std::int16_t>{0, 5}));
  const ndarray o = zeros({2}, {.dtype = DType::Int16});
  clip(i, Operand(5), Operand(1), {.out = {o}});  // min > max gives max
  EXPECT_EQ(o.to_vector<std::int16_t>(), (std::vector<std::int16_t>{1, 1}));
}

TEST_F(UfuncApiFunctions, RealImagViews) {
  ndarray z = arr<std::complex<double>>({{1.0, 2.0}, {3.0, -4.0}});
  ndarray re = real(z);
  ndarray im = imag(z);
  EXPECT_EQ(re.dtype(), DType::Float64);
  EXPECT_EQ(re.strides(), (Strides{16}));
  EXPECT_EQ(im.to_vector<double>(), (std::vector<double>{2.0, -4.0}));
  re.fill(Scalar(9.0));
  im.assign(arr<double>({0.5, 0.25}));
  EXPECT_EQ(z.to_vector<std::complex<double>>(),
            (std::vector<std::complex<double>>{{9.0, 0.5}, {9.0, 0.25}}));
  const ndarray f = arr<float>({1.0F, 2.0F});
  EXPECT_EQ(real(f).to_vector<float>(), (std::vector<float>{1.0F, 2.0F}));
  EXPECT_EQ(imag(f).to_vector<float>(), (std::vector<float>{0.0F, 0.0F}));
  EXPECT_EQ(imag(arr<std::complex<float>>({{1, 2}})).dtype(), DType::Float32);
}

TEST_F(UfuncApiFunctions, AngleNanToNumAround) {
  const ndarray z = arr<std::complex<double>>({{0.0, 1.0}, {-1.0, 0.0}, {1.0, 1.0}});
  const std::vector<double> rad = angle(z).to_vector<double>();
  EXPECT_DOUBLE_EQ(rad[0], M_PI / 2);
  EXPECT_DOUBLE_EQ(rad[1], M_PI);
  const std::vector<double> deg = angle(z, true).to_vector<double>();
  EXPECT_DOUBLE_EQ(deg[2], 45.0);
  EXPECT_EQ(angle(arr<std::int32_t>({-1, 1})).dtype(), DType::Float64);

  const ndarray x = arr<float>({static_cast<float>(kNan), static_cast<float>(kInf),
                                -static_cast<float>(kInf), 1.0F});
  std::vector<float> n = nan_to_num(x).to_vector<float>();
  EXPECT_EQ(n[0], 0.0F);
  EXPECT_EQ(n[1], std::numeric_limits<float>::max());
  EXPECT_EQ(n[2], std::numeric_limits<float>::lowest());
  n = nan_to_num(x, -1.0, 5.0, -5.0).to_vector<float>();
  EXPECT_EQ(n, (std::vector<float>{-1.0F, 5.0F, -5.0F, 1.0F}));
  EXPECT_EQ(nan_to_num(arr<std::int8_t>({1})).dtype(), DType::Int8);

  EXPECT_EQ(around(arr<double>({0.5, 1.5, 2.5, -0.5, -2.5})).to_vector<double>(),
            (std::vector<double>{0.0, 2.0, 2.0, -0.0, -2.0}));
  EXPECT_EQ(around(arr<double>({1.25, 1.35}), 1).to_vector<double>(), (std::vector<double>{1.2, 1.4}));
  EXPECT_EQ(around(arr<std::int64_t>({15, 25, 35, -15}), -1).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{20, 20, 40, -20}));
  EXPECT_EQ(around(arr<double>({1234.5}), -2).to_vector<double>(), (std::vector<double>{1200.0}));
}

TEST_F(UfuncApiFunctions, IsCloseAllCloseArrayEqual) {
  const ndarray a = arr<double>({1.0, kNan, kInf, 1.0});
  const ndarray b = arr<double>({1.0 + 1e-9, kNan, kInf, 1.1});
  EXPECT_EQ(isclose(a, b).to_vector<bool>(), (std::vector<bool>{true, false, true, false}));
  EXPECT_EQ(isclose(a, b, 1e-5, 1e-8, true).to_vector<bool>(), (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(isclose(a, b, 0.2).to_vector<bool>(), (std::vector<bool>{true, false, true, true}));
  EXPECT_FALSE(allclose(a, b));
  EXPECT_FALSE(allclose(a, a));
  EXPECT_TRUE(allclose(a, a, 1e-5, 1e-8, true));
  EXPECT_TRUE(allclose(arr<std::int32_t>({1, 2}), 1.5, 0.0, 0.5));
  EXPECT_FALSE(array_equal(a, a));
  EXPECT_TRUE(array_equal(a, a, true));
  EXPECT_TRUE(array_equal(arr<std::int32_t>({1, 2}), arr<double>({1.0, 2.0})));
  EXPECT_FALSE(array_equal(arr<std::int32_t>({1, 2}), arr<std::int32_t>({1, 2, 3})));
  EXPECT_FALSE(array_equal(arr<std::int32_t>({1, 2}), arr<std::int32_t>({1, 3})));
}

// ---- errors

TEST_F(UfuncApiErrors, NoMatchingLoop) {
  EXPECT_THROW(subtract(arr<bool>({true}), arr<bool>({false})), TypeError);
  EXPECT_THROW(negative(arr<bool>({true})), TypeError);
  EXPECT_THROW(invert(arr<double>({1.0})), TypeError);
  EXPECT_THROW(bitwise_and(arr<float>({1.0F}), 1), TypeError);
  EXPECT_THROW(left_shift(arr<double>({1.0}), 1), TypeError);
  EXPECT_THROW(floor_divide(arr<std::complex<double>>({{1, 1}}), 1), TypeError);
  EXPECT_NO_THROW(less(arr<std::complex<double>>({{1, 1}}), 1));  // complex orders lexicographically
  EXPECT_THROW(gcd(arr<double>({1.0}), arr<double>({1.0})), TypeError);
  EXPECT_THROW(ldexp(arr<double>({1.0}), arr<double>({1.0})), TypeError);
  EXPECT_THROW(arr<bool>({true}) - arr<bool>({true}), TypeError);
  EXPECT_THROW(~arr<float>({1.0F}), TypeError);
}

TEST_F(UfuncApiErrors, ShapesAndNames) {
  EXPECT_THROW(add(zeros({3}), zeros({4})), ValueError);
  EXPECT_THROW(zeros({2, 3}) * zeros({3, 2}), ValueError);
  const Operand one[1] = {zeros({1})};
  EXPECT_THROW(call_ufunc("no_such_ufunc", one), Error);
  EXPECT_THROW(call_ufunc("add", one), TypeError);  // add takes two inputs
  EXPECT_THROW(ufunc_types("no_such_ufunc"), Error);
  EXPECT_THROW(power(arr<std::int32_t>({2}), arr<std::int32_t>({-1})), ValueError);
}

}  // namespace
}  // namespace cunp

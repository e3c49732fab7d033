// tests/cpp/ufunc/test_resolution.cpp — loop selection (src/ufunc/execute.cpp's
// resolve_loop) through the C++ API: weak C++ scalars against each other and against
// arrays, bool arithmetic, integer inputs to float functions, Python-int-like values
// outside a dtype's range, dtype= and signature=. Expected dtypes are NumPy 2.4's.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "cunp/cunp.hpp"

namespace cunp {
namespace {

class UfuncResolution : public ::testing::Test {
 protected:
  DeviceGuard guard_{Device::cpu()};
};

ndarray one(DType dt) { return ones({1}, {.dtype = dt}); }

TEST_F(UfuncResolution, WeakScalarsAlone) {
  // np.true_divide(True, True) is float64; np.add(1, 2) int64; np.add(1.0, 2) float64.
  EXPECT_EQ(true_divide(true, true).dtype(), DType::Float64);
  EXPECT_EQ(add(1, 2).dtype(), DType::Int64);
  EXPECT_EQ(add(1, 2).ndim(), 0);
  EXPECT_EQ(add(1.0, 2).dtype(), DType::Float64);
  EXPECT_EQ(add(true, 2).dtype(), DType::Int64);
  EXPECT_EQ(multiply(std::complex<double>(1, 1), 2).dtype(), DType::Complex128);
  EXPECT_EQ(sqrt(1).dtype(), DType::Float64);
  EXPECT_EQ(sqrt(true).dtype(), DType::Float16);  // Python bool is NumPy's bool
  EXPECT_EQ(ldexp(1, 2).dtype(), DType::Float64);
  EXPECT_THROW(subtract(true, true), TypeError);
}

TEST_F(UfuncResolution, IntegersToFloatFunctions) {
  EXPECT_EQ(sqrt(one(DType::Int8)).dtype(), DType::Float16);
  EXPECT_EQ(sqrt(one(DType::UInt8)).dtype(), DType::Float16);
  EXPECT_EQ(sqrt(one(DType::Int16)).dtype(), DType::Float32);
  EXPECT_EQ(sqrt(one(DType::Int32)).dtype(), DType::Float64);
  EXPECT_EQ(sqrt(one(DType::Bool)).dtype(), DType::Float16);
  EXPECT_EQ(true_divide(one(DType::Int8), one(DType::Int8)).dtype(), DType::Float64);
  EXPECT_EQ(true_divide(one(DType::Bool), 1).dtype(), DType::Float64);
  EXPECT_EQ(power(one(DType::Bool), one(DType::Bool)).dtype(), DType::Int8);
  EXPECT_EQ(float_power(one(DType::Float32), 2).dtype(), DType::Float64);
}

TEST_F(UfuncResolution, WeakScalarsBesideArrays) {
  EXPECT_EQ(add(one(DType::Float32), std::complex<double>(0, 1)).dtype(), DType::Complex64);
  EXPECT_EQ(add(one(DType::Int8), 1.5).dtype(), DType::Float64);
  EXPECT_EQ(add(ones({}, {.dtype = DType::UInt8}), 3).dtype(), DType::UInt8);  // 0-d arrays are strong
  EXPECT_EQ(add(ones({}, {.dtype = DType::Int16}), one(DType::Int8)).dtype(), DType::Int16);
  // np.ldexp(1, int16_array) is float16 (a Python int may take any numeric loop type).
  EXPECT_EQ(ldexp(1, one(DType::Int16)).dtype(), DType::Float16);
  EXPECT_EQ(ldexp(1.0, one(DType::Int16)).dtype(), DType::Float64);
  EXPECT_EQ(ldexp(one(DType::Float32), 2).dtype(), DType::Float32);
}

TEST_F(UfuncResolution, OutOfRangeIntegers) {
  // Arithmetic: NEP 50's OverflowError; comparisons: the value, without error.
  EXPECT_THROW(add(one(DType::UInt8), 300), OverflowError);
  EXPECT_THROW(add(one(DType::UInt8), -1), OverflowError);
  const ndarray lt = less(arange(Scalar(0), Scalar(3), Scalar(1), {.dtype = DType::UInt8}), 300);
  EXPECT_EQ(lt.dtype(), DType::Bool);
  EXPECT_EQ(lt.to_vector<bool>(), (std::vector<bool>{true, true, true}));
  const ndarray eq = equal(one(DType::Int8), -1000);
  EXPECT_EQ(eq.to_vector<bool>(), (std::vector<bool>{false}));
  EXPECT_EQ(greater(one(DType::UInt8), -1).to_vector<bool>(), (std::vector<bool>{true}));
  EXPECT_EQ(not_equal(-1, one(DType::UInt16)).to_vector<bool>(), (std::vector<bool>{true}));
}

TEST_F(UfuncResolution, DtypeFixesEveryOutput) {
  EXPECT_EQ(add(one(DType::Int32), one(DType::Int32), {.dtype = DType::Float16}).dtype(), DType::Float16);
  const std::vector<ndarray> dm = divmod(one(DType::Float32), one(DType::Float32), {.dtype = DType::Float64});
  EXPECT_EQ(dm[0].dtype(), DType::Float64);
  EXPECT_EQ(dm[1].dtype(), DType::Float64);
  // frexp's exponent is int32: no loop has both outputs float64.
  EXPECT_THROW(frexp(one(DType::Float64), {.dtype = DType::Float64}), TypeError);
  // ldexp is resolved per operand: float32 does not cast safely to float16.
  EXPECT_THROW(ldexp(one(DType::Float32), 2, {.dtype = DType::Float16}), TypeError);
}

TEST_F(UfuncResolution, Signature) {
  const ndarray i8 = one(DType::Int8), f32 = one(DType::Float32);
  using S = std::vector<std::optional<DType>>;
  EXPECT_EQ(add(i8, i8, {.signature = S{DType::Float32, DType::Float32, DType::Float32}}).dtype(), DType::Float32);
  EXPECT_EQ(add(i8, i8, {.signature = S{std::nullopt, std::nullopt, DType::Float64}}).dtype(), DType::Float64);
  EXPECT_EQ(add(f32, f32, {.signature = S{std::nullopt, std::nullopt, DType::Float16}}).dtype(), DType::Float16);
  EXPECT_EQ(less(f32, f32, {.signature = S{DType::Float64, std::nullopt, std::nullopt}}).dtype(), DType::Bool);
  // "ll->l" on float32 inputs: the input cast fails under same_kind, passes unsafe.
  const S l3{DType::Int64, DType::Int64, DType::Int64};
  EXPECT_THROW(add(f32, f32, {.signature = l3}), TypeError);
  EXPECT_EQ(add(f32, f32, {.signature = l3, .casting = Casting::Unsafe}).dtype(), DType::Int64);
  EXPECT_THROW(add(i8, i8, {.signature = S{DType::Float32, DType::Float64, DType::Float64}}), TypeError);
  EXPECT_THROW(add(i8, 300, {.signature = S{DType::Int8, DType::Int8, DType::Int8}}), OverflowError);
  EXPECT_THROW(add(i8, i8, {.signature = S{DType::Float32, DType::Float32}}), ValueError);
  EXPECT_THROW(add(i8, i8, {.dtype = DType::Float32, .signature = S{DType::Float32, std::nullopt, std::nullopt}}),
               TypeError);
}

TEST_F(UfuncResolution, ClipAndNanToNum) {
  // No bound: a copy (NumPy 2). Python-int bounds beyond the dtype clamp to its range.
  const ndarray a = arange(Scalar(0), Scalar(5), Scalar(1), {.dtype = DType::Int8});
  const ndarray c = clip(a, std::nullopt, std::nullopt);
  EXPECT_EQ(c.dtype(), DType::Int8);
  EXPECT_NE(c.data(), a.data());
  EXPECT_EQ(clip(a, Operand(-300), Operand(300)).to_vector<std::int8_t>(), (std::vector<std::int8_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(clip(a, Operand(1.5), Operand(3)).dtype(), DType::Float64);
  EXPECT_EQ(clip(a, std::nullopt, Operand(2)).to_vector<std::int8_t>(), (std::vector<std::int8_t>{0, 1, 2, 2, 2}));
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  ndarray x = empty({3}, {.dtype = DType::Float32});
  x.copy_from_host(std::vector<float>{static_cast<float>(nan), static_cast<float>(inf), 1.0F}.data());
  ndarray vals = empty({3}, {.dtype = DType::Float64});
  vals.copy_from_host(std::vector<double>{7.0, 8.0, 9.0}.data());
  const ndarray r = nan_to_num(x, true, Operand(vals), Operand(vals), std::nullopt);
  EXPECT_EQ(r.dtype(), DType::Float32);
  EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{7.0F, 8.0F, 1.0F}));
  const ndarray same = nan_to_num(x, false, Operand(0.0), std::nullopt, std::nullopt);
  EXPECT_EQ(same.data(), x.data());
  EXPECT_EQ(x.to_vector<float>()[0], 0.0F);
}

}  // namespace
}  // namespace cunp

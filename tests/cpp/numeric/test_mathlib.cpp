// The small functions of cunp/mathlib.hpp on every device; the expected values are
// NumPy 2's for the same calls (or the functions' definitions, where noted).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <vector>

#include "cunp/error.hpp"
#include "cunp/mathlib.hpp"
#include "devices.hpp"

namespace cunp {
namespace {

using test::chost;
using test::host;
using test::ivec;
using test::test_devices;
using test::vec;
using C = std::complex<double>;
constexpr double inf = std::numeric_limits<double>::infinity();

std::vector<std::uint8_t> bytes(const ndarray& a) { return a.to_vector<std::uint8_t>(); }

TEST(NumericMathlib, SincAndI0) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const std::vector<double> x{-1.5, 0, 0.5, 2};
    const std::vector<double> s = host(sinc(vec(x, dev)));
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double px = std::numbers::pi * x[i];
      EXPECT_NEAR(s[i], x[i] == 0 ? 1.0 : std::sin(px) / px, 1e-15);
    }
    EXPECT_EQ(sinc(vec(x, dev).astype(DType::Float32)).dtype(), DType::Float32);
    EXPECT_EQ(sinc(ivec({0, 1}, dev)).dtype(), DType::Float64);
    // np.i0 (even: i0(-x) == i0(x))
    EXPECT_VEC_NEAR(host(i0(vec({0, 1, -2.5}, dev))),
                    (std::vector<double>{1.0, 1.2660658777520082, 3.289839144050123}), 1e-14);
    const std::vector<double> big = host(i0(vec({10, 30}, dev)));
    EXPECT_NEAR(big[0] / 2815.716628466254, 1, 1e-14);
    EXPECT_NEAR(big[1] / 781672297823.9775, 1, 1e-14);
    EXPECT_EQ(i0(ivec({1}, dev)).dtype(), DType::Float64);
    EXPECT_THROW(i0(vec({1}, dev).astype(DType::Complex128)), TypeError);
  }
}

TEST(NumericMathlib, RoundingAndTypeQueries) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    EXPECT_EQ(host(fix(vec({-2.5, -0.5, 0.5, 2.7}, dev))), (std::vector<double>{-2, -0.0, 0, 2}));
    EXPECT_EQ(fix(ivec({-3, 4}, dev)).dtype(), DType::Int64);
    const ndarray nearly = asarray(std::vector<C>{C(2.1, 1e-15), C(5.2, 3e-15)}, dev);
    const ndarray r = real_if_close(nearly);
    EXPECT_EQ(r.dtype(), DType::Float64);
    EXPECT_EQ(host(r), (std::vector<double>{2.1, 5.2}));
    EXPECT_EQ(real_if_close(nearly, 1e-16).dtype(), DType::Complex128);
    const ndarray v = vec({-inf, -1, inf, std::nan("")}, dev);
    EXPECT_EQ(isposinf(v).to_vector<bool>(), (std::vector<bool>{false, false, true, false}));
    EXPECT_EQ(isneginf(v).to_vector<bool>(), (std::vector<bool>{true, false, false, false}));
    EXPECT_THROW(isposinf(nearly), TypeError);
    const ndarray c = asarray(std::vector<C>{C(1, 0), C(1, 2)}, dev);
    EXPECT_EQ(iscomplex(c).to_vector<bool>(), (std::vector<bool>{false, true}));
    EXPECT_EQ(isreal(c).to_vector<bool>(), (std::vector<bool>{true, false}));
    EXPECT_EQ(iscomplex(v).to_vector<bool>(), (std::vector<bool>(4, false)));
    EXPECT_EQ(isreal(v).to_vector<bool>(), (std::vector<bool>(4, true)));
    EXPECT_TRUE(iscomplexobj(c));
    EXPECT_TRUE(isrealobj(v));
    EXPECT_TRUE(array_equiv(ivec({1, 2}, dev), ivec({1, 2, 1, 2}, dev).reshape({2, 2})));
    EXPECT_FALSE(array_equiv(ivec({1, 2}, dev), ivec({1, 2, 3, 4}, dev).reshape({2, 2})));
    EXPECT_FALSE(array_equiv(ivec({1, 2}, dev), ivec({1, 2, 3}, dev)));
  }
}

TEST(NumericMathlib, NanArgMinMax) {
  const double nan = std::nan("");
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray a = vec({nan, 2, 1, 4, nan, 0}, dev).reshape({2, 3});
    EXPECT_EQ(nanargmin(a, {.axis = 1}).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{2, 2}));
    EXPECT_EQ(nanargmax(vec({nan, 3, inf, nan}, dev)).item().to_int64(), 2);
    EXPECT_EQ(nanargmin(ivec({3, 1, 2}, dev)).item().to_int64(), 1);
    EXPECT_THROW(nanargmin(vec({nan, 1, nan, nan}, dev).reshape({2, 2}), {.axis = 1}), ValueError);
    EXPECT_EQ(nanargmax(vec({nan, 1, 2, nan}, dev).reshape({2, 2}), {.axis = 0})
                  .to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{1, 0}));
  }
}

TEST(NumericMathlib, BitwiseCountAndPacking) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray i8 = ivec({0, 1, -1, 7, -128, 127}, dev).astype(DType::Int8);
    const ndarray counted = bitwise_count(i8);
    EXPECT_EQ(counted.dtype(), DType::UInt8);
    EXPECT_EQ(bytes(counted), (std::vector<std::uint8_t>{0, 1, 1, 3, 1, 7}));
    // The definition: popcount of every uint64.
    const std::vector<std::uint64_t> u{0, 1, 0xFFFFFFFFFFFFFFFFULL, 0x8000000000000001ULL,
                                       0x0123456789ABCDEFULL};
    const std::vector<std::uint8_t> pc = bytes(bitwise_count(asarray(u, dev)));
    for (std::size_t i = 0; i < u.size(); ++i)
      EXPECT_EQ(pc[i], static_cast<std::uint8_t>(std::popcount(u[i])));
    EXPECT_THROW(bitwise_count(vec({1}, dev)), TypeError);

    const ndarray m = ivec({1, 0, 1, 0, 1, 1}, dev).reshape({2, 3});
    EXPECT_EQ(bytes(packbits(m, -1)), (std::vector<std::uint8_t>{160, 96}));
    EXPECT_EQ(packbits(m, -1).shape(), (Shape{2, 1}));
    const ndarray bits = ivec({1, 0, 1, 1, 0, 0, 0, 0, 1}, dev);
    EXPECT_EQ(bytes(packbits(bits.astype(DType::Bool))), (std::vector<std::uint8_t>{176, 128}));
    EXPECT_EQ(bytes(packbits(bits, std::nullopt, BitOrder::Little)),
              (std::vector<std::uint8_t>{13, 1}));
    EXPECT_EQ(bytes(packbits(ivec({1, 0, 0, 1, 1, 1}, dev).reshape({3, 2}), 0)),
              (std::vector<std::uint8_t>{160, 96}));
    EXPECT_THROW(packbits(vec({1}, dev)), TypeError);

    const ndarray packed = ivec({2, 7, 23}, dev).astype(DType::UInt8).reshape({3, 1});
    const ndarray un = unpackbits(packed, 1);
    EXPECT_EQ(un.shape(), (Shape{3, 8}));
    EXPECT_EQ(bytes(un), (std::vector<std::uint8_t>{0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0,
                                                    0, 1, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1}));
    const ndarray two = ivec({2, 7}, dev).astype(DType::UInt8);
    EXPECT_EQ(bytes(unpackbits(two, std::nullopt, -3)),
              (std::vector<std::uint8_t>{0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(
        bytes(unpackbits(ivec({5}, dev).astype(DType::UInt8), std::nullopt, 10, BitOrder::Little)),
        (std::vector<std::uint8_t>{1, 0, 1, 0, 0, 0, 0, 0, 0, 0}));
    EXPECT_THROW(unpackbits(two, std::nullopt, -17), ValueError);
    EXPECT_THROW(unpackbits(ivec({1}, dev)), TypeError);
    // Round trip of random-looking bits.
    EXPECT_EQ(bytes(packbits(unpackbits(packed, 1), 1)), bytes(packed));
    EXPECT_EQ(parse_bit_order("little"), BitOrder::Little);
    EXPECT_THROW(parse_bit_order("middle"), ValueError);
  }
}

}  // namespace
}  // namespace cunp

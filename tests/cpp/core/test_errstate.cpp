// tests/cpp/core/test_errstate.cpp — floating-point error modes (cunp/errstate.hpp) on
// the cpu device: ignore, raise (FloatingPointError with NumPy's message) and the
// warning handler for warn/call, for float and integer division by zero, invalid
// values and overflow; ComplexWarning on complex-to-real casts.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cunp/cunp.hpp"

namespace cunp {
namespace {

struct Seen {
  std::vector<std::string> messages;
  std::vector<WarningKind> kinds;
  std::vector<int> flags;
};
Seen* g_seen = nullptr;

void record(WarningKind kind, ErrorMode, int flags, const std::string& message) {
  g_seen->kinds.push_back(kind);
  g_seen->flags.push_back(flags);
  g_seen->messages.push_back(message);
}

class ErrState : public ::testing::Test {
 protected:
  void SetUp() override {
    g_seen = &seen_;
    old_ = set_warning_handler(&record);
  }
  void TearDown() override {
    set_warning_handler(old_);
    g_seen = nullptr;
  }
  DeviceGuard guard_{Device::cpu()};
  Seen seen_;
  WarningHandler old_ = nullptr;
};

ndarray floats(std::vector<double> v) {
  ndarray a = empty({static_cast<std::int64_t>(v.size())});
  a.copy_from_host(v.data());
  return a;
}

TEST_F(ErrState, DefaultsAreNumpys) {
  const ErrorState s = geterr();
  EXPECT_EQ(s.divide, ErrorMode::Warn);
  EXPECT_EQ(s.over, ErrorMode::Warn);
  EXPECT_EQ(s.under, ErrorMode::Ignore);
  EXPECT_EQ(s.invalid, ErrorMode::Warn);
  EXPECT_EQ(parse_error_mode("raise"), ErrorMode::Raise);
  EXPECT_THROW(parse_error_mode("loud"), ValueError);
}

TEST_F(ErrState, WarnReportsEachKindOnce) {
  true_divide(floats({1.0, 2.0, 0.0}), 0.0);
  ASSERT_EQ(seen_.messages.size(), 2U);
  EXPECT_EQ(seen_.messages[0], "divide by zero encountered in divide");
  EXPECT_EQ(seen_.messages[1], "invalid value encountered in divide");
  EXPECT_EQ(seen_.kinds[0], WarningKind::Runtime);
  EXPECT_EQ(seen_.flags[0], FpDivide);
  EXPECT_EQ(seen_.flags[1], FpInvalid);
  seen_.messages.clear();
  sqrt(floats({-1.0}));
  log(floats({-1.0}));
  subtract(floats({INFINITY}), floats({INFINITY}));
  multiply(floats({1e308}), 10.0);
  EXPECT_EQ(seen_.messages, (std::vector<std::string>{"invalid value encountered in sqrt",
                                                      "invalid value encountered in log",
                                                      "invalid value encountered in subtract",
                                                      "overflow encountered in multiply"}));
  seen_.messages.clear();
  // Comparisons and NaN-aware selections raise no error on NaN.
  less(floats({NAN}), 1.0);
  maximum(floats({NAN}), 1.0);
  isnan(floats({NAN}));
  add(floats({1.0}), 2.0);
  EXPECT_TRUE(seen_.messages.empty());
}

TEST_F(ErrState, IntegerDivisionByZero) {
  const ndarray i = arange(Scalar(1), Scalar(4), Scalar(1), {.dtype = DType::Int32});
  floor_divide(i, 0);
  remainder(i, 0);
  EXPECT_EQ(seen_.messages, (std::vector<std::string>{"divide by zero encountered in floor_divide",
                                                      "divide by zero encountered in remainder"}));
}

TEST_F(ErrState, IgnoreAndRaise) {
  {
    ErrStateGuard g({.divide = ErrorMode::Ignore, .over = ErrorMode::Ignore, .under = ErrorMode::Ignore,
                     .invalid = ErrorMode::Ignore});
    true_divide(floats({1.0, 0.0}), 0.0);
    EXPECT_TRUE(seen_.messages.empty());
  }
  EXPECT_EQ(geterr(), ErrorState{});
  ErrStateGuard g({.divide = ErrorMode::Raise});
  try {
    true_divide(floats({1.0}), 0.0);
    FAIL() << "no FloatingPointError";
  } catch (const FloatingPointError& e) {
    EXPECT_STREQ(e.what(), "divide by zero encountered in divide");
  }
  EXPECT_THROW(floor_divide(arange(Scalar(1), Scalar(3), Scalar(1)), 0), FloatingPointError);
}

TEST_F(ErrState, ComplexToRealCasts) {
  const ndarray c = ones({2}, {.dtype = DType::Complex128});
  c.astype(DType::Float32);
  c.astype(DType::Bool);       // no warning: a truth test
  c.astype(DType::Complex64);  // no warning
  ndarray f = zeros({2});
  f.assign(c);
  EXPECT_EQ(seen_.messages.size(), 2U);
  EXPECT_EQ(seen_.kinds[0], WarningKind::Complex);
  EXPECT_EQ(seen_.messages[0], "Casting complex values to real discards the imaginary part");
  add(c, c, {.out = {f}, .casting = Casting::Unsafe});
  EXPECT_EQ(seen_.messages.size(), 3U);
}

}  // namespace
}  // namespace cunp

// tests/cpp/creation/test_window.cpp — the window functions of cunp/window.hpp: lengths
// below 1 and 1, symmetry, NumPy's values at a few points, kaiser's beta = 0 (ones).
#include <gtest/gtest.h>

#include <cmath>

#include "cunp/cunp.hpp"

namespace cunp {
namespace {

double at(const ndarray& a, std::int64_t i) { return a.item(i).to_double(); }

TEST(Window, EdgeLengths) {
  for (auto f : {&bartlett, &blackman, &hamming, &hanning}) {
    EXPECT_EQ(f(0, {.device = Device::cpu()}).size(), 0);
    EXPECT_EQ(f(-4, {.device = Device::cpu()}).size(), 0);
    const ndarray one = f(1, {.device = Device::cpu()});
    ASSERT_EQ(one.size(), 1);
    EXPECT_EQ(one.dtype(), DType::Float64);
    EXPECT_EQ(at(one, 0), 1.0);
  }
  EXPECT_EQ(kaiser(0, 3.0, {.device = Device::cpu()}).size(), 0);
  EXPECT_EQ(at(kaiser(1, 3.0, {.device = Device::cpu()}), 0), 1.0);
}

TEST(Window, ValuesAndSymmetry) {
  const WindowOptions cpu{.device = Device::cpu()};
  const ndarray h = hanning(5, cpu), m = hamming(5, cpu), b = bartlett(5, cpu), k = blackman(5, cpu);
  // np.hanning(5) = [0, .5, 1, .5, 0]; np.hamming(5) = [.08, .54, 1, .54, .08]
  EXPECT_NEAR(at(h, 0), 0.0, 1e-16);
  EXPECT_NEAR(at(h, 1), 0.5, 1e-16);
  EXPECT_DOUBLE_EQ(at(h, 2), 1.0);
  EXPECT_NEAR(at(m, 0), 0.08, 1e-16);
  EXPECT_NEAR(at(m, 1), 0.54, 1e-16);
  EXPECT_DOUBLE_EQ(at(b, 1), 0.5);
  EXPECT_NEAR(at(k, 0), 0.0, 1e-16);
  for (const ndarray* w : {&h, &m, &b, &k})
    for (std::int64_t i = 0; i < 5; ++i) EXPECT_NEAR(at(*w, i), at(*w, 4 - i), 1e-15);
  const ndarray kz = kaiser(6, 0.0, cpu);
  for (std::int64_t i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(at(kz, i), 1.0);
  // np.kaiser(5, 14)[0] = I0(0) / I0(14) = 7.726866835270368e-06
  EXPECT_NEAR(at(kaiser(5, 14.0, cpu), 0), 7.726866835270368e-06, 1e-20);
}

}  // namespace
}  // namespace cunp

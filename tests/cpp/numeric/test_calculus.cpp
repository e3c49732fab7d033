// gradient, trapezoid, interp, unwrap and ediff1d of cunp/calculus.hpp on every
// device; the expected values are NumPy 2's for the same calls.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "cunp/calculus.hpp"
#include "cunp/error.hpp"
#include "devices.hpp"

namespace cunp {
namespace {

using test::chost;
using test::host;
using test::ivec;
using test::test_devices;
using test::vec;

TEST(NumericCalculus, GradientUniformAndEdgeOrders) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray f = vec({1, 2, 4, 7, 11, 16}, dev);
    const std::vector<ndarray> g = gradient(f);
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].device(), dev);
    EXPECT_EQ(host(g[0]), (std::vector<double>{1, 1.5, 2.5, 3.5, 4.5, 5}));
    EXPECT_EQ(host(gradient(f, {.spacing = {2.0}})[0]),
              (std::vector<double>{0.5, 0.75, 1.25, 1.75, 2.25, 2.5}));
    EXPECT_EQ(host(gradient(f, {.edge_order = 2})[0]),
              (std::vector<double>{0.5, 1.5, 2.5, 3.5, 4.5, 5.5}));
    // Integers give float64; float32 stays float32.
    EXPECT_EQ(gradient(ivec({1, 3, 6}, dev))[0].dtype(), DType::Float64);
    EXPECT_EQ(gradient(f.astype(DType::Float32))[0].dtype(), DType::Float32);
    EXPECT_THROW(gradient(f, {.edge_order = 3}), ValueError);
    EXPECT_THROW(gradient(vec({1, 2}, dev), {.edge_order = 2}), ValueError);
    EXPECT_THROW(gradient(f, {.spacing = {1.0, 2.0}}), TypeError);
  }
}

TEST(NumericCalculus, GradientCoordinatesAndAxes) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray f = vec({1, 2, 4, 7, 11, 16}, dev);
    const ndarray x = vec({0, 1, 1.5, 3.5, 4, 6}, dev);
    // np.gradient(f, x) and edge_order=2
    EXPECT_VEC_NEAR(host(gradient(f, {.spacing = {x}})[0]),
                    (std::vector<double>{1, 3, 3.5, 6.7, 6.9, 2.5}), 1e-12);
    EXPECT_VEC_NEAR(host(gradient(f, {.spacing = {x}, .edge_order = 2})[0]),
                    (std::vector<double>{-1, 3, 3.5, 6.7, 6.9, -1.9}), 1e-12);
    // Evenly spaced coordinates use the uniform formula.
    EXPECT_EQ(host(gradient(f, {.spacing = {vec({0, 2, 4, 6, 8, 10}, dev)}})[0]),
              host(gradient(f, {.spacing = {2.0}})[0]));
    EXPECT_THROW(gradient(f, {.spacing = {vec({0, 1}, dev)}}), ValueError);
    // A 3x4 array of squares: one result per axis, or the axes asked for.
    std::vector<double> sq;
    for (int i = 0; i < 12; ++i) sq.push_back(i * i);
    const ndarray g = vec(sq, dev).reshape({3, 4});
    const std::vector<ndarray> both = gradient(g);
    ASSERT_EQ(both.size(), 2u);
    EXPECT_EQ(host(both[0]), (std::vector<double>{16, 24, 32, 40, 32, 40, 48, 56, 48, 56, 64, 72}));
    EXPECT_EQ(host(both[1]), (std::vector<double>{1, 2, 4, 5, 9, 10, 12, 13, 17, 18, 20, 21}));
    EXPECT_EQ(host(gradient(g, {.axis = -1})[0]), host(both[1]));
    EXPECT_THROW(gradient(g, {.axis = 2}), AxisError);
  }
}

TEST(NumericCalculus, Trapezoid) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray y = vec({1, 2, 3}, dev);
    EXPECT_DOUBLE_EQ(trapezoid(y).item().to_double(), 4.0);
    EXPECT_DOUBLE_EQ(trapezoid(y, {.x = vec({4, 6, 8}, dev)}).item().to_double(), 8.0);
    EXPECT_DOUBLE_EQ(trapezoid(y, {.dx = 0.5}).item().to_double(), 2.0);
    std::vector<double> sq;
    for (int i = 0; i < 12; ++i) sq.push_back(i * i);
    EXPECT_EQ(host(trapezoid(vec(sq, dev).reshape({3, 4}), {.axis = 0})),
              (std::vector<double>{48, 66, 88, 114}));
    // x of y's shape: differences along the axis.
    const ndarray x2 = vec({0, 1, 3, 0, 2, 4}, dev).reshape({2, 3});
    const ndarray y2 = vec({1, 2, 3, 4, 5, 6}, dev).reshape({2, 3});
    EXPECT_EQ(host(trapezoid(y2, {.x = x2})), (std::vector<double>{6.5, 20}));
    EXPECT_EQ(trapezoid(y.astype(DType::Float32)).dtype(), DType::Float32);
  }
}

TEST(NumericCalculus, Interp) {
  const double nan = std::nan("");
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray xp = vec({0, 1, 2}, dev), fp = vec({10, 20, 40}, dev);
    const std::vector<double> r = host(interp(vec({-1, 0, 0.5, 1.5, 2, 3, nan}, dev), xp, fp));
    EXPECT_EQ(std::vector<double>(r.begin(), r.end() - 1),
              (std::vector<double>{10, 10, 15, 30, 40, 40}));
    EXPECT_TRUE(std::isnan(r.back()));
    EXPECT_EQ(
        host(interp(vec({-1, 3}, dev), xp, vec({1, 2, 3}, dev), {.left = -5.0, .right = 7.0})),
        (std::vector<double>{-5, 7}));
    using C = std::complex<double>;
    const std::vector<C> cfp{C(1, 1), C(2, 4), C(3, 0)};
    const ndarray c = interp(vec({0.5, 2.5}, dev), xp, asarray(cfp, dev));
    EXPECT_EQ(c.dtype(), DType::Complex128);
    EXPECT_EQ(chost(c), (std::vector<C>{C(1.5, 2.5), C(3, 0)}));
    // np.interp(x, [190, -190, 350, -350], [5, 10, 3, 4], period=360)
    EXPECT_VEC_NEAR(
        host(interp(vec({-180, -170, -185, 185, -10, -5, 0, 365}, dev),
                    vec({190, -190, 350, -350}, dev), vec({5, 10, 3, 4}, dev), {.period = 360})),
        (std::vector<double>{7.5, 5, 8.75, 6.25, 3, 3.25, 3.5, 3.75}), 1e-12);
    EXPECT_EQ(host(interp(vec({5}, dev), vec({1}, dev), vec({3}, dev))), (std::vector<double>{3}));
    EXPECT_THROW(interp(vec({1}, dev), vec({}, dev), vec({}, dev)), ValueError);
    EXPECT_THROW(interp(vec({1}, dev), xp, vec({1, 2}, dev)), ValueError);
    EXPECT_THROW(interp(vec({1}, dev), xp, fp, {.period = 0}), ValueError);
  }
}

TEST(NumericCalculus, Unwrap) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray p = vec({0, 1, 2, 5.5, 6, 0.5}, dev);
    const double tau = 2 * std::numbers::pi;
    EXPECT_VEC_NEAR(host(unwrap(p)), (std::vector<double>{0, 1, 2, 5.5 - tau, 6 - tau, 0.5}),
                    1e-12);
    EXPECT_VEC_NEAR(host(unwrap(p, {.discont = 4.0})),
                    (std::vector<double>{0, 1, 2, 5.5, 6, 0.5 + tau}), 1e-12);
    // An integer period keeps integer input integer (np.unwrap(..., period=10)).
    const ndarray q = ivec({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2}, dev);
    const ndarray u = unwrap(q, {.period = Scalar(10)});
    EXPECT_EQ(u.dtype(), DType::Int64);
    EXPECT_EQ(u.to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  }
}

TEST(NumericCalculus, Ediff1d) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray a = ivec({1, 2, 4, 7}, dev);
    EXPECT_EQ(ediff1d(a).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 3}));
    const ndarray r = ediff1d(a, ivec({88, 99}, dev), ivec({-99}, dev));
    EXPECT_EQ(r.to_vector<std::int64_t>(), (std::vector<std::int64_t>{-99, 1, 2, 3, 88, 99}));
    EXPECT_THROW(ediff1d(a, vec({1.5}, dev)), TypeError);
    EXPECT_EQ(ediff1d(ivec({5}, dev), std::nullopt, ivec({1}, dev)).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{1}));
  }
}

}  // namespace
}  // namespace cunp

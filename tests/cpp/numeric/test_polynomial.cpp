// convolve/correlate, vander and the poly* functions of cunp/polynomial.hpp on every
// device; the expected values are NumPy 2's for the same calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "cunp/error.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/polynomial.hpp"
#include "devices.hpp"

namespace cunp {
namespace {

using test::chost;
using test::host;
using test::ivec;
using test::test_devices;
using test::vec;
using C = std::complex<double>;

TEST(NumericPolynomial, ConvolveAndCorrelate) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray a = vec({1, 2, 3}, dev), v = vec({0, 1, 0.5}, dev);
    EXPECT_EQ(host(convolve(a, v)), (std::vector<double>{0, 1, 2.5, 4, 1.5}));
    EXPECT_EQ(host(convolve(a, v, ConvolveMode::Same)), (std::vector<double>{1, 2.5, 4}));
    EXPECT_EQ(host(convolve(a, v, ConvolveMode::Valid)), (std::vector<double>{2.5}));
    EXPECT_EQ(host(correlate(a, v)), (std::vector<double>{3.5}));
    EXPECT_EQ(host(correlate(a, v, ConvolveMode::Full)), (std::vector<double>{0.5, 2, 3.5, 3, 0}));
    // The shorter first argument: NumPy's reversed correlation.
    EXPECT_EQ(correlate(ivec({1, 2}, dev), ivec({1, 2, 3}, dev), ConvolveMode::Full)
                  .to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{3, 8, 5, 2}));
    const ndarray ca = asarray(std::vector<C>{C(1, 1), C(2, 0), C(0, 3)}, dev);
    const ndarray cv = asarray(std::vector<C>{C(0, 0), C(0, 1), C(0.5, 0)}, dev);
    EXPECT_EQ(chost(correlate(ca, cv, ConvolveMode::Full)),
              (std::vector<C>{C(0.5, 0.5), C(2, -1), C(0, -0.5), C(3, 0), C(0, 0)}));
    // Integer inputs stay in their dtype; bool is a logical convolution.
    const ndarray i =
        convolve(ivec({1, 2, 3}, dev).astype(DType::Int32), ivec({4, 5}, dev).astype(DType::Int32));
    EXPECT_EQ(i.dtype(), DType::Int32);
    EXPECT_EQ(i.to_vector<std::int32_t>(), (std::vector<std::int32_t>{4, 13, 22, 15}));
    const ndarray b =
        convolve(ivec({1, 0}, dev).astype(DType::Bool), ivec({1, 1}, dev).astype(DType::Bool));
    EXPECT_EQ(b.dtype(), DType::Bool);
    EXPECT_EQ(b.to_vector<bool>(), (std::vector<bool>{true, true, false}));
    EXPECT_THROW(convolve(vec({}, dev), v), ValueError);
    EXPECT_THROW(correlate(a, vec({}, dev)), ValueError);
    EXPECT_THROW(convolve(a.reshape({1, 3}), v), ValueError);
    EXPECT_EQ(parse_convolve_mode("same"), ConvolveMode::Same);
    EXPECT_THROW(parse_convolve_mode("middle"), ValueError);
  }
}

TEST(NumericPolynomial, Vander) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray v = vander(ivec({1, 2, 3}, dev));
    EXPECT_EQ(v.shape(), (Shape{3, 3}));
    EXPECT_EQ(v.dtype(), DType::Int64);
    EXPECT_EQ(v.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 1, 1, 4, 2, 1, 9, 3, 1}));
    EXPECT_EQ(host(vander(vec({1.5, 2}, dev), 3, true)),
              (std::vector<double>{1, 1.5, 2.25, 1, 2, 4}));
    EXPECT_EQ(vander(ivec({1, 2}, dev).astype(DType::Int8)).dtype(), DType::Int64);
    EXPECT_EQ(vander(vec({1, 2}, dev), 0).shape(), (Shape{2, 0}));
    EXPECT_THROW(vander(vec({1, 2}, dev).reshape({1, 2})), ValueError);
  }
}

TEST(NumericPolynomial, EvaluateAddMultiplyDivide) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    EXPECT_EQ(polyval(ivec({3, 0, 1}, dev), ivec({1, 2, 3}, dev)).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{4, 13, 28}));
    // Horner's scheme against the power sum, on a 2-d x.
    const ndarray x = vec({-1.5, 0, 0.25, 2, 3, 7}, dev).reshape({2, 3});
    const std::vector<double> p{0.5, -2, 0, 3, 1.25};
    const std::vector<double> y = host(polyval(vec(p, dev), x));
    const std::vector<double> xs = host(x);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      double expect = 0;
      for (std::size_t k = 0; k < p.size(); ++k)
        expect += p[k] * std::pow(xs[i], static_cast<double>(p.size() - 1 - k));
      EXPECT_NEAR(y[i], expect, 1e-12 * std::max(1.0, std::abs(expect)));
    }
    EXPECT_EQ(polyval(vec(p, dev), x).shape(), (Shape{2, 3}));
    EXPECT_EQ(polyadd(ivec({1, 2}, dev), ivec({9, 5, 4}, dev)).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{9, 6, 6}));
    EXPECT_EQ(polysub(ivec({1, 2}, dev), ivec({9, 5, 4}, dev)).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{-9, -4, -2}));
    EXPECT_EQ(polymul(ivec({0, 1, 2}, dev), ivec({3, 4}, dev)).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{3, 10, 8}));
    auto [q, r] = polydiv(vec({3, 5, 2}, dev), vec({2, 1}, dev));
    EXPECT_EQ(host(q), (std::vector<double>{1.5, 1.75}));
    EXPECT_EQ(host(r), (std::vector<double>{0.25}));
    auto [q2, r2] = polydiv(ivec({1, 0, -1}, dev), ivec({1, 1}, dev));
    EXPECT_EQ(host(q2), (std::vector<double>{1, -1}));
    EXPECT_EQ(host(r2), (std::vector<double>{0}));
    EXPECT_THROW(polyval(full({}, Scalar(1.0), {.device = dev}), x), TypeError);
  }
}

TEST(NumericPolynomial, DerivativesAndIntegrals) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray p = ivec({1, 1, 1, 1}, dev);
    EXPECT_EQ(polyder(p).to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 2, 1}));
    EXPECT_EQ(polyder(p, 2).to_vector<std::int64_t>(), (std::vector<std::int64_t>{6, 2}));
    EXPECT_EQ(polyder(ivec({1, 2}, dev), 0).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{1, 2}));
    const ndarray q = ivec({1, 1, 1}, dev);
    EXPECT_VEC_NEAR(host(polyint(q)), (std::vector<double>{1.0 / 3, 0.5, 1, 0}), 1e-15);
    EXPECT_VEC_NEAR(host(polyint(q, 2)), (std::vector<double>{1.0 / 12, 1.0 / 6, 0.5, 0, 0}),
                    1e-15);
    EXPECT_VEC_NEAR(host(polyint(q, 2, vec({3, 5}, dev))),
                    (std::vector<double>{1.0 / 12, 1.0 / 6, 0.5, 3, 5}), 1e-15);
    EXPECT_EQ(host(polyint(ivec({6}, dev), 1, vec({2}, dev))), (std::vector<double>{6, 2}));
    EXPECT_THROW(polyder(p, -1), ValueError);
    EXPECT_THROW(polyint(q, -1), ValueError);
    EXPECT_THROW(polyint(q, 3, vec({1, 2}, dev)), ValueError);
  }
}

TEST(NumericPolynomial, PolyAndRoots) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    EXPECT_VEC_NEAR(host(poly(ivec({1, 2, 3}, dev))), (std::vector<double>{1, -6, 11, -6}), 1e-12);
    // Conjugate roots give real coefficients.
    const ndarray c = poly(asarray(std::vector<C>{C(0, 1), C(0, -1)}, dev));
    EXPECT_EQ(c.dtype(), DType::Float64);
    EXPECT_EQ(host(c), (std::vector<double>{1, 0, 1}));
    // The characteristic polynomial of [[1, 2], [3, 4]].
    EXPECT_VEC_NEAR(host(poly(ivec({1, 2, 3, 4}, dev).reshape({2, 2}))),
                    (std::vector<double>{1, -5, -2}), 1e-12);
    EXPECT_DOUBLE_EQ(poly(vec({}, dev)).item().to_double(), 1.0);
    std::vector<C> r = chost(roots(ivec({1, -6, 11, -6}, dev)));
    std::sort(r.begin(), r.end(), [](C a, C b) { return a.real() < b.real(); });
    ASSERT_EQ(r.size(), 3u);
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(std::abs(r[static_cast<std::size_t>(i)] - C(i + 1, 0)), 0, 1e-12);
    // Leading zeros are dropped, trailing ones are roots at 0.
    std::vector<C> r2 = chost(roots(ivec({0, 1, -3, 2, 0, 0}, dev)));
    ASSERT_EQ(r2.size(), 4u);
    EXPECT_EQ(r2[2], C(0, 0));
    EXPECT_EQ(r2[3], C(0, 0));
    EXPECT_EQ(roots(ivec({0, 0}, dev)).size(), 0);
    EXPECT_EQ(roots(ivec({1, -2}, dev), true).dtype(), DType::Float64);
    EXPECT_THROW(roots(full({}, Scalar(1.0), {.device = dev})), TypeError);
    EXPECT_THROW(roots(vec({1, 2, 3, 4}, dev).reshape({2, 2})), ValueError);
  }
}

TEST(NumericPolynomial, Polyfit) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray x = vec({0, 1, 2, 3, 4, 5}, dev);
    const ndarray y = vec({1, 3.2, 4.9, 7.1, 9.0, 11.2}, dev);
    const PolyfitResult line = polyfit(x, y, 1);
    EXPECT_VEC_NEAR(host(line.coefficients),
                    (std::vector<double>{2.0171428571428565, 1.0238095238095233}), 1e-12);
    EXPECT_VEC_NEAR(host(line.residuals), (std::vector<double>{0.06819047619047594}), 1e-12);
    EXPECT_EQ(line.rank.item().to_int64(), 2);
    EXPECT_DOUBLE_EQ(line.rcond, 6 * 2.220446049250313e-16);
    EXPECT_VEC_NEAR(
        host(polyfit(x, y, 2).coefficients),
        (std::vector<double>{0.01428571428571425, 1.9457142857142864, 1.0714285714285705}), 1e-12);
    EXPECT_VEC_NEAR(host(*polyfit(x, y, 1, {.cov = PolyfitCov::Scaled}).cov),
                    (std::vector<double>{0.0009741496598639421, -0.0024353741496598554,
                                         -0.0024353741496598554, 0.008929705215419468}),
                    1e-12);
    EXPECT_VEC_NEAR(host(*polyfit(x, y, 1, {.cov = PolyfitCov::Unscaled}).cov),
                    (std::vector<double>{0.05714285714285715, -0.14285714285714288,
                                         -0.14285714285714288, 0.5238095238095238}),
                    1e-12);
    EXPECT_VEC_NEAR(host(polyfit(x, y, 1, {.w = vec({1, 2, 1, 2, 1, 2}, dev)}).coefficients),
                    (std::vector<double>{2.0113207547169805, 1.0949685534591187}), 1e-12);
    const ndarray ys[] = {y, 2.0 * y};
    const ndarray two = polyfit(x, stack(ys, 1), 1).coefficients;
    EXPECT_EQ(two.shape(), (Shape{2, 2}));
    EXPECT_VEC_NEAR(host(two),
                    (std::vector<double>{2.0171428571428565, 4.034285714285713, 1.0238095238095233,
                                         2.0476190476190466}),
                    1e-12);
    EXPECT_THROW(polyfit(x, y, -1), ValueError);
    EXPECT_THROW(polyfit(x.reshape({2, 3}), y, 1), TypeError);
    EXPECT_THROW(polyfit(x, vec({1, 2}, dev), 1), TypeError);
    EXPECT_THROW(polyfit(x, y, 5, {.cov = PolyfitCov::Scaled}), ValueError);
  }
}

}  // namespace
}  // namespace cunp

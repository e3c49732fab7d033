// tests/cpp/linalg/test_linalg.cpp — the C++ API of matrix products and cunp::linalg on
// the cpu device (the Python tests compare against NumPy in depth).
#include <gtest/gtest.h>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/linalg.hpp"

namespace {

using cunp::ndarray;

ndarray mat(std::vector<double> v, cunp::Shape s) {
  return cunp::from_host(v.data(), cunp::DType::Float64, s, cunp::Device::cpu());
}

TEST(LinalgProducts, MatmulBroadcastsBatchAndPromotes1D) {
  const ndarray a = mat({1, 2, 3, 4, 5, 6}, {2, 1, 3});
  const ndarray b = mat({1, 0, 0, 1, 1, 1}, {3, 2});
  const ndarray c = cunp::matmul(a, b);
  EXPECT_EQ(c.shape(), (cunp::Shape{2, 1, 2}));
  EXPECT_EQ(c.to_vector<double>(), (std::vector<double>{4, 5, 10, 11}));
  const ndarray v = cunp::matmul(mat({1, 1, 1}, {3}), b);
  EXPECT_EQ(v.shape(), (cunp::Shape{2}));
  EXPECT_EQ(v.to_vector<double>(), (std::vector<double>{2, 2}));
  EXPECT_THROW(cunp::matmul(b, b), cunp::ValueError);
}

TEST(LinalgProducts, IntegerMatmulWraps) {
  const std::vector<std::int8_t> v = {100, 100};
  const ndarray a = cunp::from_host(v.data(), cunp::DType::Int8, {1, 2}, cunp::Device::cpu());
  const ndarray b = cunp::from_host(v.data(), cunp::DType::Int8, {2, 1}, cunp::Device::cpu());
  const ndarray c = cunp::matmul(a, b);
  EXPECT_EQ(c.dtype(), cunp::DType::Int8);
  EXPECT_EQ(c.to_vector<std::int8_t>()[0], static_cast<std::int8_t>(32));  // 20000 mod 256
}

TEST(LinalgSolvers, SolveInvDetAndSingular) {
  const ndarray a = mat({4, 1, 2, 3}, {2, 2});
  EXPECT_NEAR(cunp::linalg::det(a).item().to_double(), 10.0, 1e-12);
  const ndarray x = cunp::linalg::solve(a, mat({1, 2}, {2}));
  const auto xv = x.to_vector<double>();
  EXPECT_NEAR(xv[0], 0.1, 1e-12);
  EXPECT_NEAR(xv[1], 0.6, 1e-12);
  const auto iv = cunp::matmul(a, cunp::linalg::inv(a)).to_vector<double>();
  EXPECT_NEAR(iv[0], 1.0, 1e-12);
  EXPECT_NEAR(iv[1], 0.0, 1e-12);
  EXPECT_THROW(cunp::linalg::inv(mat({1, 2, 2, 4}, {2, 2})), cunp::LinAlgError);
  EXPECT_THROW(cunp::linalg::cholesky(mat({1, 2, 2, 1}, {2, 2})), cunp::LinAlgError);
}

TEST(LinalgDecompositions, EighAndSvd) {
  const ndarray a = mat({2, 1, 1, 2}, {2, 2});
  const auto [w, v] = cunp::linalg::eigh(a);
  const auto wv = w.to_vector<double>();
  EXPECT_NEAR(wv[0], 1.0, 1e-12);
  EXPECT_NEAR(wv[1], 3.0, 1e-12);
  const auto usv = cunp::linalg::svd(a, true, false);
  const auto s = usv[0].to_vector<double>();
  EXPECT_NEAR(s[0], 3.0, 1e-12);
  EXPECT_NEAR(s[1], 1.0, 1e-12);
}

}  // namespace

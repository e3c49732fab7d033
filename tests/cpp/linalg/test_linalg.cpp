// tests/cpp/linalg/test_linalg.cpp — the C++ API of matrix products and cunp::linalg on
// the cpu device (the Python tests compare against NumPy in depth).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdlib>

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

// Note [Real eig]: a real input runs the real ?geev: real eigenvalues have exact zero
// imaginary parts (real results on request), a conjugate pair makes the call complex with the
// vectors unpacked (A v = w v for each column); empty matrices call no routine.
TEST(LinalgDecompositions, EigOfRealInput) {
  const ndarray sym = mat({2, 1, 1, 3, 0, 1, 0, 1, 4}, {3, 3});
  const auto [w, v] = cunp::linalg::eig(sym, /*real_if_all_real=*/true);  // NumPy 2.0-2.4
  EXPECT_EQ(w.dtype(), cunp::DType::Float64);
  EXPECT_EQ(v.dtype(), cunp::DType::Float64);
  const ndarray w25 = cunp::linalg::eigvals(sym);  // NumPy 2.5: always complex, imaginary parts exactly 0
  EXPECT_EQ(w25.dtype(), cunp::DType::Complex128);
  for (const auto& x : w25.to_vector<std::complex<double>>()) EXPECT_EQ(x.imag(), 0.0);
  const ndarray rot = mat({0, -1, 1, 0, 1, 2, 0, 3}, {2, 2, 2});
  const auto [wc, vc] = cunp::linalg::eig(rot);
  EXPECT_EQ(wc.dtype(), cunp::DType::Complex128);
  EXPECT_EQ(vc.shape(), (cunp::Shape{2, 2, 2}));
  const auto wv = wc.to_vector<std::complex<double>>();
  EXPECT_NEAR(wv[0].real(), 0.0, 1e-12);
  EXPECT_NEAR(std::abs(wv[0].imag()), 1.0, 1e-12);
  EXPECT_NEAR(wv[1].imag(), -wv[0].imag(), 1e-12);
  EXPECT_EQ(wv[2].imag(), 0.0);  // the second matrix's eigenvalues are real
  const auto av = cunp::matmul(rot.astype(cunp::DType::Complex128), vc).to_vector<std::complex<double>>();
  const auto vv = vc.to_vector<std::complex<double>>();
  for (int q = 0; q < 2; ++q)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        EXPECT_NEAR(std::abs(av[q * 4 + i * 2 + j] - vv[q * 4 + i * 2 + j] * wv[q * 2 + j]), 0.0, 1e-12);
  EXPECT_EQ(cunp::linalg::eigvals(mat({}, {2, 0, 0})).shape(), (cunp::Shape{2, 0}));
  EXPECT_EQ(cunp::linalg::eigvals(mat({}, {0, 3, 3})).shape(), (cunp::Shape{0, 3}));
}

TEST(LinalgDecompositions, SvdDriverSelection) {
  using cunp::linalg::SvdDriver;
  EXPECT_EQ(cunp::linalg::parse_svd_driver("gesvdp"), SvdDriver::Gesvdp);
  EXPECT_EQ(cunp::linalg::parse_svd_driver("auto"), SvdDriver::Auto);
  EXPECT_EQ(cunp::linalg::parse_svd_driver("gesvdp64"), SvdDriver::Gesvdp64);
  EXPECT_STREQ(cunp::linalg::svd_driver_name(SvdDriver::Gesvdp64), "gesvdp64");
  EXPECT_THROW(cunp::linalg::parse_svd_driver("jacobi"), cunp::ValueError);
  EXPECT_STREQ(cunp::linalg::svd_driver_name(SvdDriver::Gesvdj), "gesvdj");
  if (std::getenv("CUNP_SVD_DRIVER") == nullptr) {
    // 'auto': gesvdj up to max(m, n) = 32, gesvdp in float64 checked by its error
    // estimate above (Note [SVD drivers]).
    EXPECT_EQ(cunp::linalg::svd_driver_for(2048, 2048), SvdDriver::Gesvdp64);
    EXPECT_EQ(cunp::linalg::svd_driver_for(16, 32), SvdDriver::Gesvdj);
    EXPECT_EQ(cunp::linalg::svd_driver_for(16, 40), SvdDriver::Gesvdp64);
    EXPECT_EQ(cunp::linalg::svd_driver_for(4097, 4097), SvdDriver::Gesvdp64);
  }
  cunp::linalg::set_svd_driver(SvdDriver::Gesvdj);
  EXPECT_EQ(cunp::linalg::svd_driver(), SvdDriver::Gesvdj);
  EXPECT_EQ(cunp::linalg::svd_driver_for(2048, 2048), SvdDriver::Gesvdj);
  // The cpu device runs LAPACK's gesvd whatever is forced: same results.
  const auto usv = cunp::linalg::svd(mat({3, 0, 0, -2}, {2, 2}));
  cunp::linalg::set_svd_driver(SvdDriver::Auto);
  EXPECT_EQ(cunp::linalg::svd_driver(), SvdDriver::Auto);
  const auto s = usv[1].to_vector<double>();
  EXPECT_NEAR(s[0], 3.0, 1e-12);
  EXPECT_NEAR(s[1], 2.0, 1e-12);
  EXPECT_EQ(cunp::linalg::svd_error_estimate(), 0.0);
}

TEST(LinalgProducts, MatmulWritesIntoOut) {
  const ndarray a = mat({1, 2, 3, 4}, {2, 2});
  const ndarray out = cunp::zeros({2, 2}, {.dtype = cunp::DType::Float64});
  const ndarray r = cunp::matmul(a, a, out);
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{7, 10, 15, 22}));
  const ndarray b = a.copy();
  (void)cunp::matmul(b, b, b);  // out is both operands
  EXPECT_EQ(b.to_vector<double>(), (std::vector<double>{7, 10, 15, 22}));
  EXPECT_THROW(cunp::matmul(a, a, cunp::zeros({2, 3})), cunp::ValueError);
}

}  // namespace

namespace {

TEST(LinalgProducts, IntegerMatmulStridedAndBool) {
  const std::vector<std::int32_t> v = {1, 2, 3, 4, 5, 6};
  const ndarray a = cunp::from_host(v.data(), cunp::DType::Int32, {2, 3}, cunp::Device::cpu());
  const ndarray c = cunp::matmul(a, a.T());  // a transposed view, no copy
  EXPECT_EQ(c.dtype(), cunp::DType::Int32);
  EXPECT_EQ(c.to_vector<std::int32_t>(), (std::vector<std::int32_t>{14, 32, 32, 77}));
  const bool bv[4] = {true, false, false, false};
  const ndarray b = cunp::from_host(bv, cunp::DType::Bool, {2, 2}, cunp::Device::cpu());
  const ndarray bb = cunp::matmul(b, b);
  EXPECT_EQ(bb.dtype(), cunp::DType::Bool);
  EXPECT_EQ(bb.to_vector<bool>(), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(cunp::trace(a.reshape({3, 2})).item().to_double(), 1.0 + 4.0);
  EXPECT_EQ(cunp::trace(b).dtype(), cunp::DType::Int64);
}

TEST(LinalgProducts, EinsumContractsTracesAndChecks) {
  const ndarray a = mat({1, 2, 3, 4, 5, 6}, {2, 3});
  const ndarray b = mat({1, 0, 0, 1, 1, 1}, {3, 2});
  const ndarray ab[2] = {a, b};
  EXPECT_EQ(cunp::einsum("ij,jk->ik", ab).to_vector<double>(), cunp::matmul(a, b).to_vector<double>());
  EXPECT_EQ(cunp::einsum("ij,jk", ab).shape(), (cunp::Shape{2, 2}));
  const ndarray sq = mat({1, 2, 3, 4}, {2, 2});
  const ndarray one[1] = {sq};
  EXPECT_EQ(cunp::einsum("ii", one).item().to_double(), 5.0);
  EXPECT_EQ(cunp::einsum("ii->i", one).to_vector<double>(), (std::vector<double>{1, 4}));
  EXPECT_EQ(cunp::einsum("ij->ji", one).to_vector<double>(), (std::vector<double>{1, 3, 2, 4}));
  EXPECT_EQ(cunp::einsum("...j->...", one).to_vector<double>(), (std::vector<double>{3, 7}));
  const ndarray out = cunp::zeros({2}, {.dtype = cunp::DType::Float64});
  cunp::einsum("ij->i", one, {.out = out});
  EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{3, 7}));
  EXPECT_THROW(cunp::einsum("ij,jk->ik", one), cunp::ValueError);
  EXPECT_THROW(cunp::einsum("i1", one), cunp::ValueError);
  EXPECT_THROW(cunp::einsum("ij->ii", one), cunp::ValueError);
  EXPECT_THROW(cunp::einsum("ij->i", one, {.dtype = cunp::DType::Float32}), cunp::TypeError);  // 'safe'
  EXPECT_THROW(cunp::einsum("ij,jk", ab, {.dtype = cunp::DType::Float32}), cunp::TypeError);
  // Note [einsum views]: one operand, nothing summed, no out: NumPy's view, dtype= unused.
  const ndarray view = cunp::einsum("ij->ji", one, {.dtype = cunp::DType::Float32});
  EXPECT_EQ(view.dtype(), cunp::DType::Float64);
  EXPECT_TRUE(view.may_share_memory(sq));
  EXPECT_EQ(cunp::einsum("ii->i", one, {.dtype = cunp::DType::Int8}).dtype(), cunp::DType::Float64);
  EXPECT_EQ(cunp::einsum("ij->i", one, {.dtype = cunp::DType::Float32, .casting = cunp::Casting::SameKind}).dtype(),
            cunp::DType::Float32);
}

TEST(LinalgProducts, KronAndCross) {
  const ndarray a = mat({1, 2}, {2});
  const ndarray b = mat({1, 10, 100}, {3});
  EXPECT_EQ(cunp::kron(a, b).to_vector<double>(), (std::vector<double>{1, 10, 100, 2, 20, 200}));
  EXPECT_EQ(cunp::kron(mat({1, 2, 3, 4}, {2, 2}), mat({1, 1}, {1, 2})).shape(), (cunp::Shape{2, 4}));
  const ndarray x = mat({1, 0, 0}, {3}), y = mat({0, 1, 0}, {3});
  EXPECT_EQ(cunp::cross(x, y).to_vector<double>(), (std::vector<double>{0, 0, 1}));
  EXPECT_THROW(cunp::cross(mat({1, 0}, {2}), mat({0, 1}, {2})), cunp::ValueError);  // NumPy 2.5
  const ndarray cols = mat({1, 0, 0, 1, 0, 0}, {3, 2});  // vectors along axis 0
  EXPECT_EQ(cunp::cross(cols, cols, {.axis = 0}).shape(), (cunp::Shape{3, 2}));
  EXPECT_THROW(cunp::cross(mat({1, 2, 3, 4}, {4}), x), cunp::ValueError);
}

TEST(LinalgSolvers, MultiDotTensorsolveTensorinv) {
  const ndarray a = mat({1, 2, 3, 4}, {2, 2});
  const ndarray v = mat({1, 1}, {2});
  const ndarray chain[3] = {v, a, v};
  EXPECT_EQ(cunp::linalg::multi_dot(chain).item().to_double(), 10.0);
  const ndarray four[4] = {a, a, a, a};
  EXPECT_EQ(cunp::linalg::multi_dot(four).to_vector<double>(),
            cunp::matmul(cunp::matmul(a, a), cunp::matmul(a, a)).to_vector<double>());
  const ndarray t = mat({2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2}, {2, 2, 2, 2});
  const ndarray ti = cunp::linalg::tensorinv(t, 2);
  EXPECT_EQ(ti.shape(), (cunp::Shape{2, 2, 2, 2}));
  EXPECT_NEAR(ti.to_vector<double>()[0], 0.5, 1e-12);
  const ndarray x = cunp::linalg::tensorsolve(t, mat({2, 4, 6, 8}, {2, 2}));
  EXPECT_EQ(x.shape(), (cunp::Shape{2, 2}));
  EXPECT_NEAR(x.to_vector<double>()[3], 4.0, 1e-12);
  EXPECT_THROW(cunp::linalg::tensorinv(mat({1, 2, 3, 4, 5, 6}, {2, 3}), 1), cunp::LinAlgError);
  const auto raw = cunp::linalg::qr(mat({1, 2, 3, 4, 5, 6}, {3, 2}), "raw");
  EXPECT_EQ(raw[0].shape(), (cunp::Shape{2, 3}));
  EXPECT_EQ(raw[1].shape(), (cunp::Shape{2}));
  const auto hs = cunp::linalg::svd(mat({2, 1, 1, -3}, {2, 2}), true, false, true);
  const auto s = hs[0].to_vector<double>();
  EXPECT_GE(s[0], s[1]);
}

}  // namespace

namespace {

TEST(LinalgNorms, NormCondRank) {
  const ndarray a = mat({3, 0, 0, -4}, {2, 2});
  EXPECT_NEAR(cunp::linalg::norm(a).item().to_double(), 5.0, 1e-12);
  EXPECT_NEAR(cunp::linalg::norm(a, {.ord = 1}).item().to_double(), 4.0, 1e-12);
  EXPECT_NEAR(cunp::linalg::norm(a, {.ord = "nuc"}).item().to_double(), 7.0, 1e-12);
  EXPECT_NEAR(cunp::linalg::norm(a, {.ord = INFINITY, .axis = std::vector<int>{1}}).to_vector<double>()[1], 4.0,
              1e-12);
  EXPECT_EQ(cunp::linalg::norm(a, {.axis = std::vector<int>{0, 1}, .keepdims = true}).shape(), (cunp::Shape{1, 1}));
  EXPECT_THROW(cunp::linalg::norm(a, {.ord = "fro", .axis = std::vector<int>{0}}), cunp::ValueError);
  EXPECT_THROW(cunp::linalg::NormOrder("bad"), cunp::ValueError);
  EXPECT_NEAR(cunp::linalg::cond(a).item().to_double(), 4.0 / 3.0, 1e-12);
  EXPECT_TRUE(std::isinf(cunp::linalg::cond(mat({1, 2, 2, 4}, {2, 2}), 1).item().to_double()));
  EXPECT_EQ(cunp::linalg::matrix_rank(mat({1, 2, 2, 4}, {2, 2})).item().to_double(), 1.0);
  EXPECT_EQ(cunp::linalg::matrix_rank(a).item().to_double(), 2.0);
}

TEST(LinalgNorms, PinvLstsq) {
  const ndarray a = mat({1, 0, 0, 2, 0, 0}, {3, 2});
  const auto p = cunp::linalg::pinv(a).to_vector<double>();
  const std::vector<double> expected = {1, 0, 0, 0, 0.5, 0};
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(p[i], expected[i], 1e-12);
  const cunp::linalg::LstsqResult r = cunp::linalg::lstsq(a, mat({1, 4, 3}, {3}));
  EXPECT_EQ(r.rank.ndim(), 0);
  EXPECT_EQ(r.rank.dtype(), cunp::DType::Int32);  // NumPy's int32 scalar
  EXPECT_EQ(r.rank.item().to_double(), 2);
  const auto x = r.x.to_vector<double>();
  EXPECT_NEAR(x[0], 1.0, 1e-12);
  EXPECT_NEAR(x[1], 2.0, 1e-12);
  EXPECT_EQ(r.residuals.shape(), (cunp::Shape{1}));
  EXPECT_NEAR(r.residuals.to_vector<double>()[0], 9.0, 1e-12);
  EXPECT_THROW(cunp::linalg::lstsq(a, mat({1, 2}, {2})), cunp::LinAlgError);
}

}  // namespace

TEST(LinalgProducts, MatmulOptionsAndDotOut) {
  using cunp::DType;
  const cunp::DeviceGuard on_cpu(cunp::Device::cpu());  // mat() is on cpu; so must every zeros/ones below be
  const ndarray a = mat({1, 2, 3, 4, 5, 6}, {2, 3});
  const ndarray b = mat({1, 0, 0, 1, 1, 1}, {3, 2});
  // dtype=: the product computes in that dtype; inputs cast under `casting`.
  const ndarray bools = cunp::ones({2, 2}, {.dtype = DType::Bool});
  EXPECT_EQ(cunp::matmul(bools, bools).dtype(), DType::Bool);
  const ndarray counted = cunp::matmul(bools, bools, cunp::MatmulOptions{.dtype = DType::Int8});
  EXPECT_EQ(counted.dtype(), DType::Int8);
  EXPECT_EQ(counted.to_vector<std::int8_t>(), (std::vector<std::int8_t>{2, 2, 2, 2}));  // sums, not ors
  EXPECT_THROW(cunp::matmul(a, b, cunp::MatmulOptions{.dtype = DType::Int64}), cunp::TypeError);  // same_kind
  EXPECT_EQ(cunp::matmul(a, b, cunp::MatmulOptions{.dtype = DType::Int64, .casting = cunp::Casting::Unsafe}).dtype(),
            DType::Int64);
  EXPECT_THROW(cunp::matmul(a, b.astype(DType::Float32), cunp::MatmulOptions{.casting = cunp::Casting::No}),
               cunp::TypeError);
  // out=: core axes must match, leading axes may broadcast, any strides.
  const ndarray big = cunp::zeros({3, 2, 4});
  const ndarray strided = big.view({cunp::Index(cunp::slice()), cunp::Index(cunp::slice()),
                                    cunp::Index(cunp::slice(0, 4, 2))});
  EXPECT_EQ(cunp::matmul(a, b, cunp::MatmulOptions{.out = strided}).data(), strided.data());
  EXPECT_EQ(big.to_vector<double>()[0], 4.0);
  EXPECT_EQ(big.to_vector<double>()[1], 0.0);
  EXPECT_THROW(cunp::matmul(a, b, cunp::MatmulOptions{.out = cunp::zeros({2, 3})}), cunp::ValueError);
  EXPECT_THROW(cunp::matmul(a, b, cunp::MatmulOptions{.out = cunp::zeros({2, 2}, {.dtype = DType::Int64})}),
               cunp::TypeError);
  // axes=: the matrices in axes (1, 0) of each: (b^T a^T)^T = a b.
  const std::vector<std::vector<int>> axes = {{1, 0}, {1, 0}, {1, 0}};
  const ndarray t = cunp::matmul(b, a, cunp::MatmulOptions{.axes = axes});  // b^T (2x3) @ a^T (3x2), transposed
  EXPECT_EQ(t.to_vector<double>(), cunp::matmul(a, b).to_vector<double>());
  // dot: out of exactly the result's dtype, ndim and C order.
  const ndarray o = cunp::zeros({2, 2});
  EXPECT_EQ(cunp::dot(a, b, o).data(), o.data());
  EXPECT_THROW(cunp::dot(a, b, cunp::zeros({2, 2}, {.dtype = DType::Float32})), cunp::ValueError);
  EXPECT_THROW(cunp::dot(a, b, cunp::zeros({2, 3})), cunp::ValueError);
  EXPECT_THROW(cunp::dot(a, b, cunp::zeros({2, 2}).T()), cunp::ValueError);  // not C order
  // a 0-d integer operand: a multiply, with the ufunc's out rules (cast, broadcast)
  const ndarray i = cunp::ones({2}, {.dtype = DType::Int64});
  const ndarray into = cunp::zeros({3, 2}, {.dtype = DType::Float64});
  EXPECT_EQ(cunp::dot(cunp::full({}, cunp::Scalar(2), {.dtype = DType::Int64}), i, into).data(), into.data());
  EXPECT_EQ(into.to_vector<double>(), (std::vector<double>{2, 2, 2, 2, 2, 2}));
  // outer(out=)
  const ndarray oo = cunp::zeros({2, 2}, {.dtype = DType::Float32});
  cunp::outer(mat({1, 2}, {2}), mat({3, 4}, {2}), oo);
  EXPECT_EQ(oo.to_vector<float>(), (std::vector<float>{3, 4, 6, 8}));
}

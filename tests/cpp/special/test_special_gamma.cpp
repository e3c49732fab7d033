// cunp::special's gamma family (include/cunp/special/gamma.hpp): values against
// identities of the functions (tests/python/test_special_gamma.py compares with SciPy
// itself), SciPy's dtype resolution, out=, broadcasting, and the array functions.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/special.hpp"

namespace cunp {
namespace {

std::vector<double> values(const ndarray& a) { return ascontiguousarray(a.astype(DType::Float64)).to_vector<double>(); }

void expect_near_rel(const std::vector<double>& got, const std::vector<double>& want, double rtol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << i;
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << i;
    } else {
      EXPECT_NEAR(got[i], want[i], rtol * std::abs(want[i])) << i;
    }
  }
}

TEST(SpecialGamma, ValuesAgreeWithIdentities) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const double pi = 3.14159265358979323846, euler = 0.57721566490153286061;
  const std::vector<double> xs = {0.5, 1.0, 2.5, -1.5};
  const ndarray x = asarray(xs);
  std::vector<double> erf_want, gamma_want, p2_want;
  for (double v : xs) {
    erf_want.push_back(std::erf(v));
    gamma_want.push_back(std::tgamma(v));
    p2_want.push_back(v < 0 ? nan : 1 - std::exp(-v) * (1 + v));  // P(2, x)
  }
  expect_near_rel(values(special::erf(x)), erf_want, 1e-15);
  expect_near_rel(values(special::gamma(x)), gamma_want, 1e-14);
  expect_near_rel(values(special::gammainc(2.0, x)), p2_want, 1e-14);
  // psi(1) = -gamma, psi(1/2) = -gamma - 2 log 2, psi(1 - x) - psi(x) = pi cot(pi x)
  const double psi_half = -euler - 2 * std::log(2.0);
  expect_near_rel(values(special::psi(x)), {psi_half, -euler, psi_half + 2 + 1 / 1.5, psi_half + 2 + 1 / 1.5}, 1e-14);
  expect_near_rel(values(special::digamma(x)), values(special::psi(x)), 0.0);
  // I_x(2, 3) = sum_{j=2}^{4} C(4, j) x^j (1-x)^(4-j)
  std::vector<double> ib;
  for (double v : {0.25, 0.5}) ib.push_back(6 * v * v * (1 - v) * (1 - v) + 4 * v * v * v * (1 - v) + v * v * v * v);
  expect_near_rel(values(special::betainc(2.0, 3.0, asarray(std::vector<double>{0.25, 0.5}))), ib, 1e-15);
  // ndtr(ndtri(p)) = p (to ndtr's conditioning, x^2 ulps)
  const ndarray p = asarray(std::vector<double>{1e-30, 0.025, 0.5, 0.975});
  expect_near_rel(values(special::ndtr(special::ndtri(p))), values(p), 5e-14);
  expect_near_rel(values(special::zeta(2.0)), {pi * pi / 6}, 1e-15);
  expect_near_rel(values(special::zeta(2.0, 2.0)), {pi * pi / 6 - 1}, 1e-14);
  // E_2(x) = e^-x - x E_1(x)
  expect_near_rel(values(special::expn(2, 1.0)), {std::exp(-1.0) - values(special::exp1(1.0))[0]}, 1e-14);
  // binomial cdf: sum_{j<=2} C(5, j) 0.3^j 0.7^(5-j)
  expect_near_rel(values(special::bdtr(2.0, 5, 0.3)),
                  {std::pow(0.7, 5) + 5 * 0.3 * std::pow(0.7, 4) + 10 * 0.09 * std::pow(0.7, 3)}, 1e-14);
  // SciPy's special values: gamma's poles, erfcinv's ends, gammaln at 0
  expect_near_rel(values(special::gamma(asarray(std::vector<double>{0.0, -1.0}))), {inf, nan}, 0.0);
  expect_near_rel(values(special::erfcinv(asarray(std::vector<double>{0.0, 2.0, 3.0}))), {inf, -inf, nan}, 0.0);
  expect_near_rel(values(special::gammaln(0.0)), {inf}, 0.0);
}

TEST(SpecialGamma, DistributionParameterInverses) {
  EXPECT_NEAR(values(special::gdtrix(2.0, 3.0, 0.3))[0], values(special::gammaincinv(3.0, 0.3))[0] / 2, 1e-15);
  EXPECT_NEAR(values(special::gdtria(0.3, 3.0, 2.0))[0], values(special::gammaincinv(3.0, 0.3))[0] / 2, 1e-15);
  // each root solves its forward function
  EXPECT_NEAR(values(special::chdtr(special::chdtriv(0.3, 5.0), 5.0))[0], 0.3, 1e-14);
  EXPECT_NEAR(values(special::gdtr(1.5, special::gdtrib(1.5, 1e-10, 4.0), 4.0))[0], 1e-10, 1e-22);
  EXPECT_NEAR(values(special::gammaincc(add(special::pdtrik(0.3, 2.0), 1.0), 2.0))[0], 0.3, 1e-14);
  expect_near_rel(values(special::pdtrik(0.1, 1.0)), {0.0}, 0.0);  // e^-1 >= 0.1: k = 0, as SciPy
}

TEST(SpecialGamma, BetaFamilyParameterInverses) {
  const double inf = std::numeric_limits<double>::infinity(),
               nan = std::numeric_limits<double>::quiet_NaN();
  const auto one = [](const ndarray& a) { return values(a)[0]; };
  // each root solves its cdf's equation (the cdfs continuous in the counts)
  const double k = one(special::bdtrik(0.3, 10.0, 0.4));  // I_{1-pr}(n - k, k + 1) = p
  EXPECT_NEAR(one(special::betainc(10.0 - k, k + 1, 0.6)), 0.3, 1e-14);
  const double n = one(special::bdtrin(3.0, 0.3, 0.4));
  EXPECT_NEAR(one(special::betainc(n - 3.0, 4.0, 0.6)), 0.3, 1e-14);
  const double kn = one(special::nbdtrik(0.3, 4.0, 0.4));  // I_pr(n, k + 1) = p
  EXPECT_NEAR(one(special::betainc(4.0, kn + 1, 0.4)), 0.3, 1e-14);
  const double nn = one(special::nbdtrin(3.0, 0.3, 0.4));
  EXPECT_NEAR(one(special::betainc(nn, 4.0, 0.4)), 0.3, 1e-14);
  EXPECT_NEAR(one(special::fdtr(3.0, special::fdtridfd(3.0, 0.7, 2.0), 2.0)), 0.7, 1e-14);
  EXPECT_NEAR(one(special::stdtr(special::stdtridf(0.8, 1.0), 1.0)), 0.8, 1e-14);
  EXPECT_NEAR(one(special::betainc(special::btdtria(0.3, 2.0, 0.4), 2.0, 0.4)), 0.3, 1e-14);
  EXPECT_NEAR(one(special::betainc(2.0, special::btdtrib(2.0, 0.3, 0.4), 0.4)), 0.3, 1e-14);
  // a tail keeps its relative accuracy
  const double kt = one(special::bdtrik(1e-12, 50.0, 0.6));
  EXPECT_GT(kt, 0.0);
  EXPECT_NEAR(one(special::betainc(50.0 - kt, kt + 1, 0.4)), 1e-12, 1e-25);
  // SciPy 1.18's values at the ends and outside the search ranges
  expect_near_rel(values(special::bdtrik(asarray(std::vector<double>{0.0, 1.0, 1.1}), 10.0, 0.4)),
                  {0.0, 10.0, nan}, 0.0);
  expect_near_rel(values(special::bdtrin(3.0, asarray(std::vector<double>{0.0, 1.0}), 0.4)),
                  {inf, 3.0}, 0.0);
  expect_near_rel(values(special::nbdtrik(asarray(std::vector<double>{0.0, 1.0}), 4.0, 0.4)),
                  {0.0, inf}, 0.0);
  expect_near_rel(values(special::nbdtrin(3.0, asarray(std::vector<double>{0.0, 1.0}), 0.4)),
                  {nan, nan}, 0.0);
  expect_near_rel(values(special::fdtridfd(3.0, asarray(std::vector<double>{0.0, 0.99, 1.0}), 2.0)),
                  {1e-100, 1e100, nan}, 0.0);
  expect_near_rel(values(special::stdtridf(asarray(std::vector<double>{0.3, 0.9, 0.5}), 1.0)),
                  {-1e100, 1e10, 5e-51}, 0.0);
  expect_near_rel(values(special::btdtria(asarray(std::vector<double>{0.0, 1.0}), 2.0, 0.4)),
                  {inf, std::numeric_limits<double>::min()}, 0.0);
  expect_near_rel(values(special::btdtrib(2.0, asarray(std::vector<double>{0.0, 1.0}), 0.4)),
                  {std::numeric_limits<double>::min(), inf}, 0.0);
  // float32 loops
  EXPECT_EQ(special::btdtrib(asarray(std::vector<float>{2.0f}), 0.3f, 0.4f).dtype(),
            DType::Float32);
}

TEST(SpecialGamma, ComplexNormalCdf) {
  using C = std::complex<double>;
  const auto one = [](const ndarray& a) { return ascontiguousarray(a).to_vector<C>()[0]; };
  const C z{-1.0, 2.0};
  const C nd = one(special::ndtr(asarray(std::vector<C>{z})));
  const C e = one(special::erfc(asarray(std::vector<C>{-z / std::sqrt(2.0)})));
  EXPECT_NEAR(std::abs(nd - 0.5 * e), 0.0, 4e-15 * std::abs(nd));
  const C lg = one(special::log_ndtr(asarray(std::vector<C>{z})));
  EXPECT_NEAR(std::abs(lg - std::log(nd)), 0.0, 1e-14 * std::abs(lg));
  // on the real axis, the real functions; far left, no underflow (log ndtr(-40) = -804.6)
  EXPECT_NEAR(one(special::log_ndtr(asarray(std::vector<C>{{3.0, 0.0}}))).real(),
              values(special::log_ndtr(3.0))[0],
              1e-15 * std::abs(values(special::log_ndtr(3.0))[0]));
  EXPECT_NEAR(one(special::log_ndtr(asarray(std::vector<C>{{-40.0, 0.0}}))).real(),
              values(special::log_ndtr(-40.0))[0], 1e-13);
  EXPECT_EQ(special::ndtr(asarray(std::vector<std::complex<float>>{{1.0f, 1.0f}})).dtype(),
            DType::Complex64);
}

TEST(SpecialGamma, ComplexErrorFunctions) {
  // w(1 + i) and erf(1 + i) (mpmath, 30 digits), w(iy) = erfcx(y), erfi(z) = -i erf(iz)
  const std::complex<double> z{1.0, 1.0};
  const auto one = [](const ndarray& a) { return ascontiguousarray(a).to_vector<std::complex<double>>()[0]; };
  const auto w = one(special::wofz(asarray(std::vector<std::complex<double>>{z})));
  EXPECT_NEAR(std::abs(w - std::complex<double>{0.30474420525691259245, 0.20821893820283162728}), 0.0, 1e-15);
  const auto e = one(special::erf(asarray(std::vector<std::complex<double>>{z})));
  EXPECT_NEAR(std::abs(e - std::complex<double>{1.3161512816979476448, 0.19045346923783468628}), 0.0, 2e-15);
  const auto wy = one(special::wofz(asarray(std::vector<std::complex<double>>{{0.0, 2.0}})));
  EXPECT_NEAR(wy.real(), values(special::erfcx(2.0))[0], 1e-16);
  const auto ei = one(special::erfi(asarray(std::vector<std::complex<double>>{z})));
  const auto e2 = one(special::erf(asarray(std::vector<std::complex<double>>{{-1.0, 1.0}})));
  EXPECT_NEAR(std::abs(ei - std::complex<double>{e2.imag(), -e2.real()}), 0.0, 1e-15);
  // E1 on its cut: exp1(-1 + 0i) = -Ei(1) - i pi
  const auto e1 = one(special::exp1(asarray(std::vector<std::complex<double>>{{-1.0, 0.0}})));
  EXPECT_NEAR(e1.real(), -values(special::expi(1.0))[0], 1e-15);
  EXPECT_EQ(e1.imag(), -3.14159265358979323846);
}

TEST(SpecialGamma, DtypesAreScipys) {
  EXPECT_EQ(special::erf(asarray(std::vector<float>{1.0f})).dtype(), DType::Float32);
  EXPECT_EQ(special::erf(asarray(std::vector<std::int16_t>{1})).dtype(), DType::Float32);   // "f->f" first (SciPy 1.18)
  EXPECT_EQ(special::erf(asarray(std::vector<std::int32_t>{1})).dtype(), DType::Float64);
  EXPECT_EQ(special::erfinv(asarray(std::vector<std::int16_t>{0})).dtype(), DType::Float32);  // "f->f" first
  EXPECT_EQ(special::expn(2, asarray(std::vector<float>{1.0f})).dtype(), DType::Float64);     // "ld->d"
  EXPECT_EQ(special::expn(2.0, asarray(std::vector<float>{1.0f})).dtype(), DType::Float32);   // "ff->f"
  EXPECT_EQ(special::lambertw(1.0).dtype(), DType::Complex128);
  EXPECT_EQ(ufunc_types("psi"), (std::vector<std::string>{"f->f", "d->d", "F->F", "D->D"}));
  EXPECT_EQ(ufunc_types("wofz"), (std::vector<std::string>{"F->F", "D->D"}));
  EXPECT_EQ(special::wofz(asarray(std::vector<std::complex<float>>{{1.0f, 1.0f}})).dtype(), DType::Complex64);
  EXPECT_EQ(ufunc_types("expn"), (std::vector<std::string>{"ld->d", "ff->f", "dd->d"}));
}

TEST(SpecialGamma, OutAndBroadcasting) {
  const ndarray a = asarray(std::vector<double>{1.0, 2.0, 3.0}).reshape({1, 3});
  const ndarray x = asarray(std::vector<double>{0.5, 1.5}).reshape({2, 1});
  ndarray out = empty({2, 3});
  const ndarray r = special::gammaincc(a, x, {.out = {out}});
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  const std::vector<double> v = values(out);
  EXPECT_NEAR(v[0], std::exp(-0.5), 1e-15);                  // Q(1, x) = e^-x
  EXPECT_NEAR(v[4], std::exp(-1.5) * (1 + 1.5), 1e-15);      // Q(2, x) = e^-x (1 + x)
  EXPECT_THROW(special::erf(asarray(std::vector<double>{1.0, 2.0}), {.out = {empty({3})}}), ValueError);
}

TEST(SpecialGamma, LambertW) {
  const std::vector<double> z = {1.0, -0.2, 10.0};
  const ndarray w = special::lambertw(asarray(z), asarray(std::vector<std::int64_t>{0, -1, 1}));
  const std::vector<std::complex<double>> v = ascontiguousarray(w).to_vector<std::complex<double>>();
  for (std::size_t i = 0; i < z.size(); ++i) {
    const std::complex<double> back = v[i] * std::exp(v[i]);  // w e^w = z
    EXPECT_NEAR(back.real(), z[i], 1e-12 * std::abs(z[i])) << i;
    EXPECT_NEAR(back.imag(), 0.0, 1e-12 * std::abs(z[i])) << i;
  }
  EXPECT_EQ(v[1].imag(), 0.0);  // W_-1 is real on (-1/e, 0)
  EXPECT_LT(v[1].real(), -1.0);
  EXPECT_GT(v[2].imag(), 0.0);  // branch 1
}

TEST(SpecialGamma, PolygammaIsDigammaAtZero) {
  const double pi = 3.14159265358979323846, euler = 0.57721566490153286061;
  const ndarray n = asarray(std::vector<double>{0.0, 1.0, 2.0});
  const std::vector<double> v = values(special::polygamma(n, 2.0));
  EXPECT_NEAR(v[0], 1 - euler, 1e-15);                                      // psi(2)
  EXPECT_NEAR(v[1], pi * pi / 6 - 1, 1e-14);                                // psi'(2)
  EXPECT_NEAR(v[2], -2 * (values(special::zeta(3.0))[0] - 1), 1e-14);       // psi''(2)
}

TEST(SpecialGamma, LogsumexpSoftmax) {
  const ndarray a = asarray(std::vector<double>{1.0, 2.0, 3.0, 1000.0, 1000.0, -1000.0}).reshape({2, 3});
  const std::vector<double> l = values(special::logsumexp(a, {.axis = 1}));
  EXPECT_NEAR(l[0], std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0)), 1e-14);
  EXPECT_NEAR(l[1], 1000 + std::log(2.0), 1e-13);  // no overflow
  EXPECT_EQ(special::logsumexp(a, {.axis = 1, .keepdims = true}).shape(), (Shape{2, 1}));
  EXPECT_NEAR(values(special::logsumexp(a))[0], 1000 + std::log(2.0), 1e-13);
  // a zero weight removes an element, even the largest
  const std::vector<double> lb =
      values(special::logsumexp(asarray(std::vector<double>{1.0, 1000.0}), {.b = asarray(std::vector<double>{1.0, 0.0})}));
  EXPECT_NEAR(lb[0], 1.0, 1e-15);
  const std::vector<double> s = values(special::softmax(a, 1));
  EXPECT_NEAR(s[0] + s[1] + s[2], 1.0, 1e-15);
  EXPECT_NEAR(s[3], 0.5, 1e-15);
  EXPECT_EQ(s[5], 0.0);
  const std::vector<double> ls = values(special::log_softmax(a, 1));
  EXPECT_NEAR(ls[3], -std::log(2.0), 1e-15);
  EXPECT_NEAR(ls[5], -2000 - std::log(2.0), 1e-12);
}

}  // namespace
}  // namespace cunp

// tests/cpp/special/test_special_bessel.cpp — cunp::special's Bessel, elliptic and
// orthogonal-polynomial functions (cunp/special/bessel.hpp) on the cpu device, checked
// against identities that tie independent code paths together (Wronskians, the
// fixed-order functions against the real-order ones, closed forms of half-integer
// orders, Legendre's relation), SciPy's loop types and edge values; and the NVRTC
// compile of their kernels (no GPU needed). tests/python/test_special_bessel.py
// compares every function with SciPy over its domain.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "builtin/builtin_kernels.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "cunp/cunp.hpp"
#include "cunp/error.hpp"
#include "cunp/special.hpp"
#include "ufunc/ufunc.hpp"

namespace cunp {
namespace {

namespace sp = cunp::special;
constexpr double kPi = std::numbers::pi;
constexpr double kInf = std::numeric_limits<double>::infinity();

class SpecialBessel : public ::testing::Test {
 protected:
  DeviceGuard guard_{Device::cpu()};
};

std::vector<double> values(const ndarray& a) { return a.to_vector<double>(); }

std::vector<double> grid() {
  std::vector<double> x;
  for (double v = 0.05; v < 60; v *= 1.17) x.push_back(v);
  return x;
}

TEST_F(SpecialBessel, WronskiansTieJYAndIK) {
  const std::vector<double> x = grid();
  const ndarray xs = asarray(x);
  for (double v : {0.0, 0.3, 1.0, 2.5, 7.25, 20.0}) {
    const std::vector<double> j = values(sp::jv(v, xs)), j1 = values(sp::jv(v + 1, xs));
    const std::vector<double> y = values(sp::yv(v, xs)), y1 = values(sp::yv(v + 1, xs));
    const std::vector<double> i = values(sp::ive(v, xs)), i1 = values(sp::ive(v + 1, xs));
    const std::vector<double> k = values(sp::kve(v, xs)), k1 = values(sp::kve(v + 1, xs));
    for (std::size_t n = 0; n < x.size(); ++n) {
      // J_v+1 Y_v - J_v Y_v+1 = 2 / (pi x); I_v K_v+1 + I_v+1 K_v = 1 / x (scaled alike).
      const double w = j1[n] * y[n] - j[n] * y1[n];
      if (std::isfinite(w)) {
        const double scale = std::fabs(j1[n] * y[n]) + std::fabs(j[n] * y1[n]);
        EXPECT_NEAR(w, 2 / (kPi * x[n]), 1e-14 * scale) << "v=" << v << " x=" << x[n];
      }
      EXPECT_NEAR((i[n] * k1[n] + i1[n] * k[n]) * x[n], 1.0, 1e-13) << "v=" << v << " x=" << x[n];
    }
  }
}

TEST_F(SpecialBessel, ComplexWronskiansAndHankel) {
  std::vector<std::complex<double>> z;
  for (double r = 0.1; r < 80; r *= 1.6)
    for (double t = -3.0; t <= 3.0; t += 0.5) z.push_back(std::polar(r, t));
  const ndarray zs = asarray(z);
  for (double v : {0.0, 0.7, 3.0, -2.5, 12.25}) {
    const auto j = sp::jv(v, zs).to_vector<std::complex<double>>(), j1 = sp::jv(v + 1, zs).to_vector<std::complex<double>>();
    const auto y = sp::yv(v, zs).to_vector<std::complex<double>>(), y1 = sp::yv(v + 1, zs).to_vector<std::complex<double>>();
    const auto i = sp::iv(v, zs).to_vector<std::complex<double>>(), i1 = sp::iv(v + 1, zs).to_vector<std::complex<double>>();
    const auto k = sp::kv(v, zs).to_vector<std::complex<double>>(), k1 = sp::kv(v + 1, zs).to_vector<std::complex<double>>();
    const auto h1 = sp::hankel1(v, zs).to_vector<std::complex<double>>();
    for (std::size_t n = 0; n < z.size(); ++n) {
      // J_v+1 Y_v - J_v Y_v+1 = 2/(pi z), I_v K_v+1 + I_v+1 K_v = 1/z (DLMF 10.5.2, 10.28.2).
      const std::complex<double> wj = j1[n] * y[n] - j[n] * y1[n], wi = i[n] * k1[n] + i1[n] * k[n];
      const double sj = std::abs(j1[n] * y[n]) + std::abs(j[n] * y1[n]), si = std::abs(i[n] * k1[n]) + std::abs(i1[n] * k[n]);
      const std::complex<double> one(1.0, 0.0), two_pi(2 / kPi, 0.0), unit(0.0, 1.0);
      if (std::isfinite(sj)) {
        EXPECT_LE(std::abs(wj - two_pi / z[n]), 1e-13 * sj) << v << " " << z[n];
      }
      if (std::isfinite(si)) {
        EXPECT_LE(std::abs(wi - one / z[n]), 1e-13 * si) << v << " " << z[n];
      }
      if (std::isfinite(std::abs(h1[n]))) {
        EXPECT_LE(std::abs(h1[n] - (j[n] + unit * y[n])), 1e-13 * (std::abs(j[n]) + std::abs(y[n])));
      }
    }
  }
}

TEST_F(SpecialBessel, FixedOrdersAgreeWithRealOrders) {
  const ndarray xs = asarray(grid());
  const struct {
    ndarray fixed, real;
    double rtol, atol;
  } pairs[] = {
      {sp::j0(xs), sp::jv(0, xs), 1e-14, 1e-15},  {sp::j1(xs), sp::jv(1, xs), 1e-14, 1e-15},
      {sp::y0(xs), sp::yv(0, xs), 1e-14, 1e-15},  {sp::y1(xs), sp::yv(1, xs), 1e-14, 1e-15},
      {sp::i0e(xs), sp::ive(0, xs), 1e-14, 0},    {sp::i1(xs), sp::iv(1, xs), 1e-14, 0},
      {sp::k0(xs), sp::kv(0, xs), 1e-14, 0},      {sp::k1e(xs), sp::kve(1, xs), 1e-14, 0},
      {sp::yn(3, xs), sp::yv(3, xs), 1e-13, 1e-15}, {sp::kn(4, xs), sp::kv(4, xs), 1e-13, 0},
  };
  for (const auto& p : pairs) {
    const std::vector<double> a = values(p.fixed), b = values(p.real);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t n = 0; n < a.size(); ++n) EXPECT_NEAR(a[n], b[n], p.rtol * std::fabs(b[n]) + p.atol) << n;
  }
}

TEST_F(SpecialBessel, HalfIntegerOrdersHaveClosedForms) {
  const std::vector<double> x = grid();
  const ndarray xs = asarray(x);
  const std::vector<double> j = values(sp::jv(0.5, xs)), y = values(sp::yv(-0.5, xs));
  const std::vector<double> k = values(sp::kv(1.5, xs)), sj = values(sp::spherical_jn(0, xs));
  const std::vector<double> si = values(sp::spherical_in(1, xs));
  for (std::size_t n = 0; n < x.size(); ++n) {
    const double s = std::sqrt(2 / (kPi * x[n]));
    EXPECT_NEAR(j[n], s * std::sin(x[n]), 1e-14 * s);
    EXPECT_NEAR(y[n], s * std::sin(x[n]), 1e-14 * s);  // Y_-1/2 = J_1/2
    const double k15 = std::sqrt(kPi / (2 * x[n])) * std::exp(-x[n]) * (1 + 1 / x[n]);
    EXPECT_NEAR(k[n], k15, 1e-14 * k15);
    EXPECT_NEAR(sj[n], std::sin(x[n]) / x[n], 1e-15);
    const double i1 = (std::cosh(x[n]) - std::sinh(x[n]) / x[n]) / x[n];
    EXPECT_NEAR(si[n], i1, 1e-13 * i1 + 1e-16);
  }
}

TEST_F(SpecialBessel, EdgesFollowSciPy) {
  const ndarray zero = asarray(std::vector<double>{0.0});
  EXPECT_EQ(values(sp::j0(zero))[0], 1.0);
  EXPECT_EQ(values(sp::y0(zero))[0], -kInf);
  EXPECT_EQ(values(sp::k1(zero))[0], kInf);
  EXPECT_EQ(values(sp::yv(-1, zero))[0], kInf);  // Y_-1 = -Y_1
  EXPECT_EQ(values(sp::jv(-0.5, zero))[0], kInf);
  EXPECT_EQ(values(sp::jv(-1.5, zero))[0], -kInf);  // 1 / Gamma(-1/2) < 0
  const ndarray neg = asarray(std::vector<double>{-2.0});
  EXPECT_TRUE(std::isnan(values(sp::jv(0.5, neg))[0]));
  EXPECT_NEAR(values(sp::jv(3, neg))[0], -values(sp::jv(3, 2.0))[0], 1e-16);
  EXPECT_TRUE(std::isnan(values(sp::k0(neg))[0]));
  // Overflow and underflow of large orders.
  EXPECT_EQ(values(sp::jv(400, 1.0))[0], 0.0);
  EXPECT_EQ(values(sp::yv(400, 1.0))[0], -kInf);
  EXPECT_EQ(values(sp::kv(400, 1.0))[0], kInf);
}

TEST_F(SpecialBessel, EllipticIntegralsSatisfyLegendresRelation) {
  // E K' + E' K - K K' = pi / 2, with K' = K(1 - m).
  for (double m = 0.01; m < 1; m += 0.07) {
    const double k = values(sp::ellipk(m))[0], e = values(sp::ellipe(m))[0];
    const double kp = values(sp::ellipkm1(m))[0], ep = values(sp::ellipe(1 - m))[0];
    EXPECT_NEAR(e * kp + ep * k - k * kp, kPi / 2, 1e-14) << m;
    // ellipj's amplitude inverts F: F(ph(u) | m) = u; sn^2 + cn^2 = 1.
    const std::vector<ndarray> j = sp::ellipj(0.75, m);
    ASSERT_EQ(j.size(), 4u);
    EXPECT_NEAR(values(sp::ellipkinc(j[3], m))[0], 0.75, 1e-15);
    const double sn = values(j[0])[0], cn = values(j[1])[0], dn = values(j[2])[0];
    EXPECT_NEAR(sn * sn + cn * cn, 1, 1e-15);
    EXPECT_NEAR(dn * dn + m * sn * sn, 1, 1e-15);
    // The incomplete integrals reach the complete ones at pi/2 and grow by 2K per pi.
    EXPECT_NEAR(values(sp::ellipkinc(kPi / 2, m))[0], k, 1e-14 * k);
    EXPECT_NEAR(values(sp::ellipeinc(kPi / 2 + 2 * kPi, m))[0], 5 * e, 1e-13 * e);
  }
}

TEST_F(SpecialBessel, PolynomialsMatchTheirExplicitForms) {
  for (double x = -1.5; x <= 1.5; x += 0.125) {
    EXPECT_NEAR(values(sp::eval_legendre(3, x))[0], (5 * x * x * x - 3 * x) / 2, 1e-15);
    EXPECT_NEAR(values(sp::eval_chebyt(4, x))[0], 8 * x * x * x * x - 8 * x * x + 1, 1e-14);
    EXPECT_NEAR(values(sp::eval_chebyu(3, x))[0], 8 * x * x * x - 4 * x, 1e-14);
    EXPECT_NEAR(values(sp::eval_hermite(3, x))[0], 8 * x * x * x - 12 * x, 1e-14);
    EXPECT_NEAR(values(sp::eval_hermitenorm(3, x))[0], x * x * x - 3 * x, 1e-15);
    EXPECT_NEAR(values(sp::eval_laguerre(2, x))[0], (x * x - 4 * x + 2) / 2, 1e-15);
    EXPECT_NEAR(values(sp::eval_genlaguerre(1, 0.5, x))[0], 1.5 - x, 1e-15);
    EXPECT_NEAR(values(sp::eval_gegenbauer(2, 1.5, x))[0], 15 * x * x / 2 - 1.5, 1e-14);
    EXPECT_NEAR(values(sp::eval_jacobi(1, 0.5, 1.5, x))[0], 1.5 + 2 * (x - 1), 1e-15);
    EXPECT_NEAR(values(sp::eval_jacobi(5, 0.0, 0.0, x))[0], values(sp::eval_legendre(5, x))[0], 1e-14);
    if (std::fabs(x) <= 1) {
      // P_2^1 = -3x sqrt(1 - x^2) (Condon-Shortley phase); the real-degree path agrees at 2.0.
      EXPECT_NEAR(values(sp::lpmv(1, 2, x))[0], -3 * x * std::sqrt(1 - x * x), 1e-15);
      EXPECT_NEAR(values(sp::lpmv(2.0, 3.0, x))[0], 15 * x * (1 - x * x), 1e-14);
    }
    // Real degrees: integer values recur like the 'l' loop; T_1/2 is cos(acos(x) / 2).
    EXPECT_NEAR(values(sp::eval_legendre(3.0, x))[0], values(sp::eval_legendre(3, x))[0], 1e-15);
    if (std::fabs(x) <= 1) {
      EXPECT_NEAR(values(sp::eval_chebyt(0.5, x))[0], std::cos(std::acos(x) / 2), 1e-15);
    }
  }
}

TEST_F(SpecialBessel, LoopsAreSciPys) {
  EXPECT_EQ(ufunc_types("j0"), (std::vector<std::string>{"f->f", "d->d"}));  // SciPy 1.18: float32 first
  EXPECT_EQ(ufunc_types("jv"), (std::vector<std::string>{"ff->f", "dd->d", "fF->F", "dD->D"}));
  EXPECT_EQ(ufunc_types("hankel2e"), (std::vector<std::string>{"fF->F", "dD->D"}));
  EXPECT_EQ(ufunc_types("kn"), (std::vector<std::string>{"ld->d", "ff->f", "dd->d"}));
  EXPECT_EQ(ufunc_types("eval_gegenbauer"), (std::vector<std::string>{"ldd->d", "fff->f", "ddd->d"}));
  EXPECT_EQ(ufunc_types("eval_hermite"), (std::vector<std::string>{"ld->d"}));
  const ndarray f = asarray(std::vector<float>{0.5f, 2.0f});
  EXPECT_EQ(sp::j0(f).dtype(), DType::Float32);
  EXPECT_EQ(sp::jv(1, f).dtype(), DType::Float32);
  EXPECT_EQ(sp::yn(2, f).dtype(), DType::Float64);  // the 'ld->d' loop, as SciPy picks it
  EXPECT_EQ(sp::ellipk(f).dtype(), DType::Float32);
  EXPECT_NEAR(values(sp::yn(2, f).astype(DType::Float64))[1], values(sp::yv(2, 2.0))[0], 1e-15);
  EXPECT_EQ(sp::eval_legendre(asarray(std::vector<std::int64_t>{2}), f).dtype(), DType::Float64);
  // The 'l' loops take no complex order; the real ones take no complex argument.
  const ndarray c = asarray(std::vector<std::complex<double>>{{1, 1}});
  EXPECT_THROW(sp::j0(c), TypeError);
  EXPECT_THROW(sp::eval_hermite(2.5, f), TypeError);
}

TEST_F(SpecialBessel, OutAndBroadcasting) {
  const ndarray v = asarray(std::vector<double>{0, 1, 2}).reshape({3, 1});
  const ndarray x = asarray(std::vector<double>{0.5, 1.5});
  ndarray out = empty({3, 2});
  const ndarray r = sp::iv(v, x, {.out = {out}});
  EXPECT_EQ(r.shape(), (Shape{3, 2}));
  const std::vector<double> got = values(out);
  EXPECT_NEAR(got[5], values(sp::iv(2, 1.5))[0], 0);
  EXPECT_NEAR(got[0], values(sp::i0(0.5))[0], 1e-15);
}

// A few of this family's ufunc programs compiled with NVRTC for sm_90, the cheaper ones
// of each real header (about 15 s of NVRTC): a quick check while working on src/ops.
// Every loop of every ufunc, the complex ones of special_bessel_complex.h included, is
// compiled by NvrtcBuiltin.EveryBuiltinKernelCompilesForSm90 (about 230 s for this family).
TEST(SpecialBesselNvrtc, KernelsCompileForSm90) {
  const std::vector<std::string> names = {"ufunc_j0", "ufunc_kn", "ufunc_ellipkinc", "ufunc_eval_chebyt"};
  std::size_t compiled = 0;
  for (const cuda::BuiltinProgram& p : cuda::builtin_kernel_programs()) {
    bool wanted = false;
    for (const std::string& n : names) wanted = wanted || p.name == n;
    if (!wanted) continue;
    cuda::CompileOptions options = p.options;
    options.arch = 90;
    const auto start = std::chrono::steady_clock::now();
    try {
      const cuda::CompiledProgram out = cuda::compile_to_cubin(p.source, p.name, options);
      for (const std::string& k : p.kernel_names) EXPECT_NE(out.cubin.find(k), std::string::npos) << k;
    } catch (const CompileError& e) {
      ADD_FAILURE() << p.name << ":\n" << e.log();
    }
    std::printf("  %s: %zu kernels, %.1f s\n", p.name.c_str(), p.kernel_names.size(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    ++compiled;
  }
  EXPECT_EQ(compiled, names.size());
}

}  // namespace
}  // namespace cunp

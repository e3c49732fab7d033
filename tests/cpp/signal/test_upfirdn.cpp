// tests/cpp/signal/test_upfirdn.cpp — cunp::signal::upfirdn against the textbook
// definition (extend, zero-insert, convolve, keep every down-th sample) computed here
// without the polyphase shortcut, every extension mode, the result dtypes and shapes,
// the argument errors, and the NVRTC compile of the CUDA kernels.
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include "builtin/builtin_kernels.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "cunp/cunp.hpp"

namespace cunp::signal {
namespace {

// The extension of x to index i by numpy.pad's definitions (and SciPy's for the
// others), written directly from them: reflections one at a time.
double extended(const std::vector<double>& x, std::int64_t i, ExtensionMode mode, double cval) {
  const auto n = static_cast<std::int64_t>(x.size());
  if (i >= 0 && i < n) return x[static_cast<std::size_t>(i)];
  const double first = x.front(), last = x.back();
  switch (mode) {
    case ExtensionMode::Constant:
      return cval;
    case ExtensionMode::Edge:
      return i < 0 ? first : last;
    case ExtensionMode::Wrap:
      return x[static_cast<std::size_t>(((i % n) + n) % n)];
    case ExtensionMode::Symmetric:
      return i < 0 ? extended(x, -i - 1, mode, cval) : extended(x, 2 * n - 1 - i, mode, cval);
    case ExtensionMode::Antisymmetric:
      return i < 0 ? -extended(x, -i - 1, mode, cval) : -extended(x, 2 * n - 1 - i, mode, cval);
    case ExtensionMode::Reflect:
      return i < 0 ? extended(x, -i, mode, cval) : extended(x, 2 * (n - 1) - i, mode, cval);
    case ExtensionMode::Antireflect:
      return i < 0 ? 2 * first - extended(x, -i, mode, cval)
                   : 2 * last - extended(x, 2 * (n - 1) - i, mode, cval);
    case ExtensionMode::Smooth:
      return i < 0 ? first + static_cast<double>(i) * (x[1] - first)
                   : last + static_cast<double>(i - n + 1) * (last - x[x.size() - 2]);
    case ExtensionMode::Line: {
      const double slope = (last - first) / static_cast<double>(n - 1);
      return i < 0 ? first + static_cast<double>(i) * slope
                   : last + static_cast<double>(i - n + 1) * slope;
    }
  }
  return 0;
}

std::vector<double> reference(const std::vector<double>& h, const std::vector<double>& x,
                              std::int64_t up, std::int64_t down, ExtensionMode mode, double cval) {
  const auto L = static_cast<std::int64_t>(h.size()), n = static_cast<std::int64_t>(x.size());
  const std::int64_t n_out = ((n - 1) * up + L - 1) / down + 1;
  std::vector<double> y;
  for (std::int64_t k = 0; k < n_out; ++k) {
    double s = 0;
    for (std::int64_t i = 0; i < L; ++i) {
      const std::int64_t m = k * down - i;  // index into the zero-stuffed signal
      if (((m % up) + up) % up != 0) continue;
      const std::int64_t q = m >= 0 ? m / up : -((-m + up - 1) / up);
      s += h[static_cast<std::size_t>(i)] * extended(x, q, mode, cval);
    }
    y.push_back(s);
  }
  return y;
}

std::vector<double> host(const ndarray& a) { return a.to(Device::cpu()).to_vector<double>(); }

TEST(SignalUpfirdn, MatchesTheDefinitionInEveryMode) {
  std::mt19937 gen(7);
  std::normal_distribution<double> g;
  for (int m = 0; m < 9; ++m) {
    const auto mode = static_cast<ExtensionMode>(m);
    for (std::int64_t n : {2, 3, 8, 31}) {
      for (std::int64_t L : {1, 4, 9, 40}) {
        for (auto [up, down] :
             {std::pair<std::int64_t, std::int64_t>{1, 1}, {3, 1}, {1, 4}, {5, 3}}) {
          std::vector<double> x(static_cast<std::size_t>(n)), h(static_cast<std::size_t>(L));
          for (double& v : x) v = g(gen);
          for (double& v : h) v = g(gen);
          const ndarray y = upfirdn(asarray(h, Device::cpu()), asarray(x, Device::cpu()),
                                    {.up = up, .down = down, .mode = mode, .cval = 1.5});
          const std::vector<double> want = reference(h, x, up, down, mode, 1.5);
          const std::vector<double> got = host(y);
          ASSERT_EQ(got.size(), want.size()) << m << " " << n << " " << L;
          for (std::size_t i = 0; i < got.size(); ++i)
            EXPECT_NEAR(got[i], want[i], 1e-12 * (1 + std::abs(want[i])))
                << "mode " << m << " n " << n << " L " << L << " up " << up << " down " << down;
        }
      }
    }
  }
}

TEST(SignalUpfirdn, AxesDtypesAndLayout) {
  // x[i, j] = i + 10 j along axis 0 of a (5, 3) array; h = [1, 1]: a running pair sum.
  ndarray x = arange(15, {.dtype = DType::Float32, .device = Device::cpu()}).reshape({3, 5}).T();
  const double taps[] = {1.0, 1.0};
  const ndarray h = from_host(taps, DType::Float64, {2}, Device::cpu());
  const ndarray y = upfirdn(h, x, {.up = 2, .axis = 0});
  EXPECT_EQ(y.dtype(), DType::Float64);  // result_type(float64 h, float32 x, float32)
  EXPECT_EQ(y.shape(), (Shape{10, 3}));
  EXPECT_TRUE(y.flags().c_contiguous);
  // Upsampling by 2 with [1, 1] holds each sample twice.
  for (std::int64_t i = 0; i < 10; ++i)
    for (std::int64_t j = 0; j < 3; ++j) {
      const std::int64_t idx[] = {i, j};
      EXPECT_EQ(y.item(idx).to_double(), static_cast<double>(i / 2 + 5 * j));
    }
  const ndarray h32 = h.astype(DType::Float32);
  EXPECT_EQ(upfirdn(h32, x.astype(DType::Int16), {}).dtype(), DType::Float32);
  EXPECT_EQ(upfirdn(h32, x.astype(DType::Complex64), {}).dtype(), DType::Complex64);
  EXPECT_EQ(upfirdn(h, x.astype(DType::Complex64), {}).dtype(), DType::Complex128);
  const std::complex<double> cx[] = {{1, 2}, {3, -1}};
  const ndarray yc = upfirdn(h, from_host(cx, DType::Complex128, {2}, Device::cpu()), {});
  EXPECT_EQ(yc.item(1).to_complex(), std::complex<double>(4, 1));
  // An empty signal: constant mode gives cval times the taps' sums.
  const ndarray empty_x = zeros({0}, {.device = Device::cpu()});
  const std::vector<double> e = host(upfirdn(h, empty_x, {.cval = 2.0}));
  EXPECT_EQ(e, (std::vector<double>{4.0}));
  EXPECT_EQ(upfirdn_output_length(1, 0, 1, 1), 0);
}

TEST(SignalUpfirdn, ArgumentErrors) {
  const ndarray x = ones({4}, {.device = Device::cpu()});
  EXPECT_THROW(upfirdn(zeros({0}, {.device = Device::cpu()}), x), ValueError);
  EXPECT_THROW(upfirdn(ones({2, 2}, {.device = Device::cpu()}), x), ValueError);
  EXPECT_THROW(upfirdn(x, x, {.up = 0}), ValueError);
  EXPECT_THROW(upfirdn(x, x, {.down = -1}), ValueError);
  EXPECT_THROW(upfirdn(x, x, {.axis = 1}), AxisError);
  EXPECT_THROW(parse_extension_mode("mirror"), ValueError);
  EXPECT_EQ(parse_extension_mode("Edge"), ExtensionMode::Edge);
}

// Every upfirdn kernel of the built-in list compiles with NVRTC (no GPU needed); the
// full NvrtcBuiltin test covers them too.
TEST(SignalNvrtc, UpfirdnKernelsCompileForSm90) {
  int found = 0;
  for (const cuda::BuiltinProgram& p : cuda::builtin_kernel_programs()) {
    if (!p.name.starts_with("signal_cunp_upfirdn_")) continue;
    ++found;
    cuda::CompileOptions options = p.options;
    options.arch = 90;
    try {
      const cuda::CompiledProgram out = cuda::compile_to_cubin(p.source, p.name, options);
      for (const std::string& k : p.kernel_names)
        EXPECT_NE(out.cubin.find(k), std::string::npos) << k;
    } catch (const CompileError& e) {
      FAIL() << e.log();
    }
  }
  EXPECT_EQ(found, 4);
}

}  // namespace
}  // namespace cunp::signal

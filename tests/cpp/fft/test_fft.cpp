// tests/cpp/fft/test_fft.cpp — the FFT layer: layouts, the plan cache, and transforms
// on the cpu device against a direct DFT.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "cunp/cunp.hpp"
#include "cunp/fft.hpp"
#include "fft/layout.hpp"
#include "fft/plan_cache.hpp"

using namespace cunp;
using cd = std::complex<double>;

namespace {

std::vector<cd> direct_dft(const std::vector<cd>& x, int sign) {
  const std::size_t n = x.size();
  std::vector<cd> y(n);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t j = 0; j < n; ++j)
      y[k] += x[j] * std::polar(1.0, sign * 2 * std::numbers::pi * static_cast<double>(j * k % n) / static_cast<double>(n));
  return y;
}

std::vector<cd> sample(std::size_t n) {
  std::vector<cd> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = cd(std::sin(0.7 * static_cast<double>(i)) + 0.1 * static_cast<double>(i), std::cos(1.3 * static_cast<double>(i)));
  return v;
}

class FakePlan final : public fft::detail::Plan {
 public:
  explicit FakePlan(std::size_t bytes) : bytes_(bytes) {}
  std::size_t work_size() const noexcept override { return bytes_; }

 private:
  std::size_t bytes_;
};

fft::detail::PlanKey key_of(std::int64_t n) {
  fft::detail::PlanKey k;
  k.n = {n};
  k.in.embed = k.out.embed = {n};
  return k;
}

}  // namespace

TEST(FftLayout, ContiguousTrailingAxes) {
  ndarray a = zeros({3, 4, 5}, {.dtype = DType::Complex64, .device = Device::cpu()});
  auto l = fft::detail::describe_layout(a, 1);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->stride, 1);
  EXPECT_EQ(l->dist, 20);
  EXPECT_EQ(l->embed, (std::vector<std::int64_t>{4, 5}));
}

TEST(FftLayout, StridedBatchAndTransposes) {
  ndarray a = zeros({6, 8}, {.dtype = DType::Complex128, .device = Device::cpu()});
  // Transform axis 0: batch over columns (dist 1), stride 8.
  auto t = fft::detail::describe_layout(a.T(), 1);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->stride, 8);
  EXPECT_EQ(t->dist, 1);
  // Every other row: the batch stride doubles.
  auto s = fft::detail::describe_layout(a[{slice(std::nullopt, std::nullopt, 2)}], 1);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->dist, 16);
  // Reversed rows: negative strides need a copy.
  EXPECT_FALSE(fft::detail::describe_layout(a[{slice(std::nullopt, std::nullopt, -1)}], 1));
  // Broadcast batch: stride 0 needs a copy.
  EXPECT_FALSE(fft::detail::describe_layout(a[0].broadcast_to({3, 8}), 1));
}

TEST(FftLayout, EmptyAxesLastIsContiguousInPermutedOrder) {
  const int axes[] = {0};
  ndarray w = fft::detail::empty_axes_last({4, 6}, DType::Float32, Device::cpu(), axes);
  EXPECT_EQ(w.shape(), (Shape{4, 6}));
  EXPECT_EQ(w.strides(), (Strides{4, 16}));
}

TEST(FftPlanCache, LruEvictionBySizeAndMemsize) {
  fft::detail::LruPlanCache cache("test", 2, -1);
  int made = 0;
  auto make = [&](std::size_t bytes) {
    return [&made, bytes] {
      ++made;
      return std::unique_ptr<fft::detail::Plan>(new FakePlan(bytes));
    };
  };
  cache.get(key_of(1), make(10));
  cache.get(key_of(2), make(20));
  cache.get(key_of(1), make(10));  // hit: 1 is now the most recent
  EXPECT_EQ(made, 2);
  EXPECT_EQ(cache.hits(), 1);
  cache.get(key_of(3), make(30));  // evicts 2
  EXPECT_EQ(cache.get_curr_size(), 2);
  EXPECT_EQ(cache.get_curr_memsize(), 40);
  cache.get(key_of(1), make(10));
  EXPECT_EQ(made, 3);
  cache.set_memsize(35);  // keeps only the most recent (1: 10 bytes... then 3: 30 is over)
  EXPECT_LE(cache.get_curr_memsize(), 35);
  auto big = cache.get(key_of(4), make(100));  // larger than memsize: used, not cached
  EXPECT_EQ(big->work_size(), 100u);
  EXPECT_LE(cache.get_curr_memsize(), 35);
  cache.clear();
  EXPECT_EQ(cache.get_curr_size(), 0);
  EXPECT_THROW(cache.set_size(-2), ValueError);
}

// A plan that counts its destructions, to see when the cache lets go of it.
class CountedPlan final : public fft::detail::Plan {
 public:
  CountedPlan(std::size_t bytes, int* destroyed) : bytes_(bytes), destroyed_(destroyed) {}
  ~CountedPlan() override { ++*destroyed_; }
  std::size_t work_size() const noexcept override { return bytes_; }

 private:
  std::size_t bytes_;
  int* destroyed_;
};

TEST(FftPlanCache, PlanHeldByCallerOutlivesEvictionAndClear) {
  fft::detail::LruPlanCache cache("test", 1, -1);
  int destroyed = 0;
  auto make = [&](std::size_t bytes) {
    return [&destroyed, bytes] { return std::unique_ptr<fft::detail::Plan>(new CountedPlan(bytes, &destroyed)); };
  };
  auto held = cache.get(key_of(1), make(8));
  cache.get(key_of(2), make(8));  // evicts 1, which the caller still holds
  EXPECT_EQ(destroyed, 0);
  EXPECT_EQ(held->work_size(), 8u);
  held.reset();
  EXPECT_EQ(destroyed, 1);
  auto held2 = cache.get(key_of(2), make(8));  // a hit
  EXPECT_EQ(cache.hits(), 1);
  cache.clear();
  EXPECT_EQ(destroyed, 1);  // still held
  EXPECT_EQ(held2->work_size(), 8u);
  held2.reset();
  EXPECT_EQ(destroyed, 2);
  // Disabled cache: the plan lives exactly as long as the caller's reference.
  cache.set_size(0);
  auto once = cache.get(key_of(3), make(8));
  EXPECT_EQ(cache.get_curr_size(), 0);
  EXPECT_EQ(destroyed, 2);
  once.reset();
  EXPECT_EQ(destroyed, 3);
  // Shrinking destroys what no caller holds.
  cache.set_size(-1);
  cache.get(key_of(4), make(8));
  cache.get(key_of(5), make(8));
  EXPECT_EQ(cache.get_curr_size(), 2);
  cache.set_memsize(8);
  EXPECT_EQ(cache.get_curr_size(), 1);
  EXPECT_EQ(destroyed, 4);
  cache.set_size(0);
  EXPECT_EQ(cache.get_curr_size(), 0);
  EXPECT_EQ(destroyed, 5);
}

TEST(FftPlanCache, ShowInfoListsPlansMostRecentFirst) {
  fft::detail::LruPlanCache cache("test device", 4, 1000);
  auto make = [](std::size_t bytes) { return [bytes] { return std::unique_ptr<fft::detail::Plan>(new FakePlan(bytes)); }; };
  cache.get(key_of(16), make(100));
  cache.get(key_of(7), make(20));
  const std::string info = cache.show_info();
  EXPECT_NE(info.find("FFT plan cache (test device)"), std::string::npos) << info;
  EXPECT_NE(info.find("current / max size   : 2 / 4 (counts)"), std::string::npos) << info;
  EXPECT_NE(info.find("current / max memsize: 120 / 1000 (bytes)"), std::string::npos) << info;
  EXPECT_NE(info.find("hits / misses: 0 / 2"), std::string::npos) << info;
  const auto p7 = info.find("C2C f32 fwd n=(7) batch=1 in=(stride=1, dist=1) out=(stride=1, dist=1), work area 20 bytes");
  const auto p16 = info.find("n=(16)");
  ASSERT_NE(p7, std::string::npos) << info;
  ASSERT_NE(p16, std::string::npos) << info;
  EXPECT_LT(p7, p16);
  cache.set_size(-1);
  cache.set_memsize(-1);
  EXPECT_NE(cache.show_info().find("2 / unlimited (counts)"), std::string::npos);
  fft::detail::PlanKey k = key_of(6);
  k.n = {4, 6};
  k.in.embed = {4, 6};
  k.in.stride = 2;
  k.in_place = true;
  k.double_precision = true;
  k.kind = fft::detail::Kind::R2C;
  EXPECT_EQ(k.str(), "R2C f64 fwd n=(4, 6) batch=1 in=(stride=2, dist=1, embed=6) out=(stride=1, dist=1) in-place");
}

class FftCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fft::cpu_backend_available()) GTEST_SKIP() << "no cpu FFT backend";
  }
};

TEST_F(FftCpu, MatchesDirectDft) {
  for (std::size_t n : {1u, 2u, 5u, 8u, 13u, 64u}) {
    const std::vector<cd> x = sample(n);
    ndarray a = from_host(x.data(), DType::Complex128, {static_cast<std::int64_t>(n)}, Device::cpu());
    const std::vector<cd> y = fft::fft(a).to_vector<cd>();
    const std::vector<cd> z = fft::ifft(a, {.norm = fft::Norm::Forward}).to_vector<cd>();
    const std::vector<cd> ey = direct_dft(x, -1), ez = direct_dft(x, +1);
    for (std::size_t k = 0; k < n; ++k) {
      EXPECT_NEAR(std::abs(y[k] - ey[k]), 0.0, 1e-10) << "n=" << n << " k=" << k;
      EXPECT_NEAR(std::abs(z[k] - ez[k]), 0.0, 1e-10) << "n=" << n << " k=" << k;
    }
  }
}

TEST_F(FftCpu, DtypesPaddingAndRoundTrip) {
  ndarray a = arange(Scalar(10), {.dtype = DType::Float32, .device = Device::cpu()});
  ndarray r = fft::rfft(a, {.n = 16});
  EXPECT_EQ(r.dtype(), DType::Complex64);
  EXPECT_EQ(r.shape(), (Shape{9}));
  ndarray back = fft::irfft(r, {.n = 16});
  EXPECT_EQ(back.dtype(), DType::Float32);
  const std::vector<float> v = back.to_vector<float>();
  for (int i = 0; i < 16; ++i) EXPECT_NEAR(v[static_cast<std::size_t>(i)], i < 10 ? i : 0.0f, 1e-4);
  ndarray ints = arange(Scalar(6), {.dtype = DType::Int32, .device = Device::cpu()});
  EXPECT_EQ(fft::fft(ints).dtype(), DType::Complex128);
}

TEST_F(FftCpu, NdMatchesRepeated1d) {
  ndarray a = arange(Scalar(2 * 3 * 4 * 5), {.dtype = DType::Complex128, .device = Device::cpu()}).reshape({2, 3, 4, 5});
  ndarray all = fft::fftn(a);
  ndarray step = a;
  for (int ax = 3; ax >= 0; --ax) step = fft::fft(step, {.axis = ax});
  EXPECT_TRUE(allclose(all, step, 1e-12, 1e-9));
  ndarray two = fft::fft2(a, {.s = std::vector<std::int64_t>{6, 2}, .norm = fft::Norm::Ortho});
  EXPECT_EQ(two.shape(), (Shape{2, 3, 6, 2}));
}

TEST_F(FftCpu, OutArgument) {
  ndarray a = arange(Scalar(8), {.dtype = DType::Complex64, .device = Device::cpu()});
  ndarray out = empty({8}, {.dtype = DType::Complex64, .device = Device::cpu()});
  ndarray r = fft::fft(a, {.out = out});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_THROW(fft::fft(a, {.out = empty({7}, {.dtype = DType::Complex64, .device = Device::cpu()})}), ValueError);
  EXPECT_THROW(fft::fft(a, {.out = empty({8}, {.dtype = DType::Float32, .device = Device::cpu()})}), TypeError);
}

TEST(FftArgs, Errors) {
  EXPECT_THROW(fft::parse_norm("bogus"), ValueError);
  EXPECT_THROW(fft::parse_norm(""), ValueError);  // NumPy's None is the options' default, not a string
  try {
    fft::parse_norm("bad");
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "Invalid norm value bad; should be \"backward\",\"ortho\" or \"forward\".");
  }
  try {
    fft::parse_norm("bad", true);
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "Invalid norm value bad; should be \"backward\", \"ortho\" or \"forward\".");
  }
  EXPECT_EQ(fft::parse_norm("ortho"), fft::Norm::Ortho);
  ndarray a = zeros({4}, {.dtype = DType::Complex64, .device = Device::cpu()});
  EXPECT_THROW(fft::fft(a, {.n = 0}), ValueError);
  EXPECT_THROW(fft::fft(a, {.axis = 1}), AxisError);
  EXPECT_THROW(fft::rfft(a), TypeError);
  EXPECT_THROW(fft::fftn(a, {.s = std::vector<std::int64_t>{2, 2}, .axes = std::vector<int>{0}}), ValueError);
}

TEST(FftFreq, ValuesAndShift) {
  const std::vector<double> f = fft::fftfreq(5, 0.5, {.device = Device::cpu()}).to_vector<double>();
  const std::vector<double> expect{0.0, 0.4, 0.8, -0.8, -0.4};
  for (std::size_t i = 0; i < 5; ++i) EXPECT_DOUBLE_EQ(f[i], expect[i]);
  EXPECT_EQ(fft::rfftfreq(8, 1.0, {.device = Device::cpu()}).shape(), (Shape{5}));
  ndarray x = arange(Scalar(5), {.dtype = DType::Float64, .device = Device::cpu()});
  const std::vector<double> s = fft::fftshift(x).to_vector<double>();
  EXPECT_EQ(s, (std::vector<double>{3, 4, 0, 1, 2}));
  EXPECT_EQ(fft::ifftshift(fft::fftshift(x)).to_vector<double>(), x.to_vector<double>());
}

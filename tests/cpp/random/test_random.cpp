// tests/cpp/random/test_random.cpp — Philox4x32-10 known answers, the counter layout's
// independence from how elements are grouped, seeding, and the Generator on the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "builtin/builtin_kernels.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "cunp/cunp.hpp"
#include "cunp/random.hpp"
#include "ops/philox.h"
#include "ops/random_dists.h"

namespace cunp {
namespace {

using ops::philox_u32x4;
using ops::u32;

// Random123's Philox4x32-10 known-answer vectors (counter, key -> output).
struct Kat {
  philox_u32x4 ctr;
  u32 k0, k1;
  philox_u32x4 expected;
};

TEST(RandomPhilox, KnownAnswers) {
  const Kat kats[] = {
      {{{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}}},
      {{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
       0xffffffffu,
       0xffffffffu,
       {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}}},
      {{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
       0xa4093822u,
       0x299f31d0u,
       {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}}},
  };
  for (const Kat& k : kats) {
    const philox_u32x4 out = ops::philox4x32_10(k.ctr, k.k0, k.k1);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out.v[i], k.expected.v[i]) << "word " << i;
  }
}

TEST(RandomPhilox, CounterLayout) {
  const ops::philox_u32x4 c = ops::philox_counter(0x0123456789abcdefull, 0xfedcba987654ull, 3);
  EXPECT_EQ(c.v[0], 0x89abcdefu);
  EXPECT_EQ(c.v[1], 0x01234567u);
  EXPECT_EQ(c.v[2], 0xba987654u);
  EXPECT_EQ(c.v[3], 0xfedcu | (3u << 16));
}

// Element i's value must not depend on n or on which groups are computed.
TEST(RandomPhilox, ElementDependsOnlyOnIndex) {
  ops::random_params p{};
  p.key = {0x12345678u, 0x9abcdef0u, 7};
  p.range = 999;
  std::vector<ops::i32> all(37), part(37, -1);
  for (ops::i64 g = 0; g < 37; ++g) ops::random_group<ops::i32, ops::rd_integers, 1>(all.data(), 37, p, g);
  // Groups in reverse order, and a shorter draw.
  for (ops::i64 g = 9; g >= 0; --g) ops::random_group<ops::i32, ops::rd_integers, 1>(part.data(), 37, p, g);
  EXPECT_EQ(all, part);
  std::vector<ops::i32> shorter(5);
  for (ops::i64 g = 0; g < 2; ++g) ops::random_group<ops::i32, ops::rd_integers, 1>(shorter.data(), 5, p, g);
  EXPECT_TRUE(std::equal(shorter.begin(), shorter.end(), all.begin()));
}

// The same for rejected integers (resampled from the element's own counters) and for
// normals (Box-Muller pairs within a group), in every group order and draw length.
template <typename T, int D, int W>
void expect_order_free(const ops::random_params& p, ops::i64 n) {
  const ops::i64 per = 4 / W, groups = (n + per - 1) / per;
  std::vector<T> fwd(static_cast<std::size_t>(n)), rev(fwd.size());
  for (ops::i64 g = 0; g < groups; ++g) ops::random_group<T, D, W>(fwd.data(), n, p, g);
  for (ops::i64 g = groups - 1; g >= 0; --g) ops::random_group<T, D, W>(rev.data(), n, p, g);
  EXPECT_EQ(fwd, rev);
  for (ops::i64 m : {ops::i64{1}, ops::i64{3}, n - 1}) {
    std::vector<T> part(static_cast<std::size_t>(m));
    for (ops::i64 g = 0; g < (m + per - 1) / per; ++g) ops::random_group<T, D, W>(part.data(), m, p, g);
    EXPECT_TRUE(std::equal(part.begin(), part.end(), fwd.begin())) << m;
  }
}

TEST(RandomPhilox, RejectionAndPairsDependOnlyOnIndex) {
  ops::random_params p{};
  p.key = {0xdeadbeefu, 0x01234567u, 11};
  p.a = 0;
  p.b = 1;
  p.range = 0x80000000ull;  // n = 2^31 + 1: about half the first candidates are rejected
  expect_order_free<ops::u32, ops::rd_integers, 1>(p, 1003);
  expect_order_free<ops::i64, ops::rd_integers, 2>(p, 1001);
  p.range = 0x8000000000000000ull;  // the same for 64-bit candidates
  expect_order_free<ops::u64, ops::rd_integers, 2>(p, 1001);
  expect_order_free<ops::f32, ops::rd_normal, 1>(p, 1003);
  expect_order_free<ops::f64, ops::rd_normal, 2>(p, 1001);
  expect_order_free<ops::f32, ops::rd_lognormal, 1>(p, 1002);
}

// A power-of-two range takes the top bits of the word (no rejection), and the
// resampled values of a rejection-heavy range stay in range.
TEST(RandomPhilox, BoundedPowerOfTwoAndResample) {
  const ops::philox_key key{3, 4, 5};
  for (ops::u64 g = 0; g < 64; ++g) {
    const ops::philox_u32x4 b = ops::philox_group_block(key, g);
    for (int l = 0; l < 4; ++l) {
      EXPECT_EQ(ops::random_bounded<1>(key, b, l, g * 4 + static_cast<ops::u64>(l), (1u << 20) - 1), b.v[l] >> 12);
      EXPECT_LE(ops::random_bounded<1>(key, b, l, g * 4 + static_cast<ops::u64>(l), 0x80000000ull), 0x80000000ull);
      EXPECT_EQ(ops::random_bounded<1>(key, b, l, g * 4 + static_cast<ops::u64>(l), 0), 0u);
    }
  }
}

TEST(RandomPhilox, BoundedIsInRangeAndRejects) {
  ops::random_params p{};
  p.key = {1, 2, 0};
  // A range just above 2^31: about half the raw words are rejected.
  p.range = 0x80000000ull;
  std::vector<ops::u32> out(4000);
  for (ops::i64 g = 0; g < 1000; ++g) ops::random_group<ops::u32, ops::rd_integers, 1>(out.data(), 4000, p, g);
  EXPECT_LE(*std::max_element(out.begin(), out.end()), 0x80000000u);
  // 64-bit ranges
  p.range = 0x123456789abcull;
  std::vector<ops::u64> out64(1000);
  for (ops::i64 g = 0; g < 500; ++g) ops::random_group<ops::u64, ops::rd_integers, 2>(out64.data(), 1000, p, g);
  EXPECT_LE(*std::max_element(out64.begin(), out64.end()), 0x123456789abcull);
}

TEST(RandomSeed, KeysDifferAndSpawnIsStable) {
  random::SeedSequence a(42), b(43);
  EXPECT_NE(a.generate_key(), b.generate_key());
  EXPECT_EQ(a.generate_key(), random::SeedSequence(42).generate_key());
  EXPECT_EQ(random::SeedSequence(42).generate_key(), random::SeedSequence(std::vector<std::uint32_t>{42u}).generate_key());
  std::vector<random::SeedSequence> kids = a.spawn(2);
  std::vector<random::SeedSequence> more = a.spawn(1);
  EXPECT_EQ(kids[1].spawn_key(), std::vector<std::uint32_t>{1});
  EXPECT_EQ(more[0].spawn_key(), std::vector<std::uint32_t>{2});
  EXPECT_NE(kids[0].generate_key(), kids[1].generate_key());
  EXPECT_NE(kids[0].generate_key(), a.generate_key());
}

TEST(RandomGenerator, Deterministic) {
  random::Generator g1(123), g2(123);
  const Device cpu = Device::cpu();
  const auto a = g1.random({1000}, {.device = cpu}).to_vector<double>();
  const auto b = g2.random({1000}, {.device = cpu}).to_vector<double>();
  EXPECT_EQ(a, b);
  // The next draw differs from the first.
  const auto c = g1.random({1000}, {.device = cpu}).to_vector<double>();
  EXPECT_NE(a, c);
  for (double x : a) {
    EXPECT_GE(x, 0.0);
    EXPECT_LT(x, 1.0);
  }
}

TEST(RandomGenerator, NormalMoments) {
  random::Generator g(7);
  const auto v = g.normal(2.0, 3.0, {200000}, {.device = Device::cpu()}).to_vector<double>();
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  double var = 0;
  for (double x : v) var += (x - mean) * (x - mean);
  var /= static_cast<double>(v.size());
  EXPECT_NEAR(mean, 2.0, 0.03);
  EXPECT_NEAR(var, 9.0, 0.15);
}

TEST(RandomGenerator, IntegersBoundsAndErrors) {
  random::Generator g(5);
  const auto v = g.integers(-3, 4, {10000}, {.dtype = DType::Int8, .device = Device::cpu()}).to_vector<std::int8_t>();
  EXPECT_EQ(*std::min_element(v.begin(), v.end()), -3);
  EXPECT_EQ(*std::max_element(v.begin(), v.end()), 3);
  EXPECT_THROW(g.integers(5, 5, {3}), ValueError);
  EXPECT_THROW(g.integers(0, 300, {3}, {.dtype = DType::UInt8}), ValueError);
  EXPECT_THROW(g.integers(0, 3, {3}, {.dtype = DType::Float32}), TypeError);
  EXPECT_THROW(g.normal(0, -1, {3}), ValueError);
  EXPECT_THROW(g.random({3}, {.dtype = DType::Int32}), TypeError);
}

TEST(RandomGenerator, PermutationIsAPermutation) {
  random::Generator g(9);
  auto v = g.permutation(1000, Device::cpu()).to_vector<std::int64_t>();
  std::sort(v.begin(), v.end());
  for (std::int64_t i = 0; i < 1000; ++i) EXPECT_EQ(v[static_cast<std::size_t>(i)], i);
}

TEST(RandomGenerator, BinomialMomentsAndErrors) {
  const Device cpu = Device::cpu();
  for (const auto& [n, p] : {std::pair{20.0, 0.3}, std::pair{400.0, 0.6}, std::pair{7.0, 0.9}}) {
    random::Generator g(11);
    const ndarray x = g.binomial(n, p, {100000}, cpu);
    EXPECT_EQ(x.dtype(), DType::Int64);
    const auto v = x.to_vector<std::int64_t>();
    double mean = 0, var = 0;
    for (std::int64_t k : v) {
      EXPECT_GE(k, 0);
      EXPECT_LE(k, static_cast<std::int64_t>(n));
      mean += static_cast<double>(k);
    }
    mean /= static_cast<double>(v.size());
    for (std::int64_t k : v) var += (static_cast<double>(k) - mean) * (static_cast<double>(k) - mean);
    var /= static_cast<double>(v.size());
    EXPECT_NEAR(mean, n * p, 6 * std::sqrt(n * p * (1 - p) / 1e5)) << n << " " << p;
    EXPECT_NEAR(var / (n * p * (1 - p)), 1.0, 0.03) << n << " " << p;
  }
  random::Generator g(1);
  EXPECT_THROW(g.binomial(-1, 0.5, {3}), ValueError);
  EXPECT_THROW(g.binomial(3, 1.5, {3}), ValueError);
  EXPECT_THROW(g.binomial(3, std::nan(""), {3}), ValueError);
  EXPECT_THROW(g.binomial(asarray<std::int64_t>({2, -1}, Device::cpu()), 0.5, {}), ValueError);
}

// Element i draws from stream i: array parameters holding the scalar give the scalar
// result, and broadcasting follows NumPy.
TEST(RandomGenerator, ArrayParameters) {
  const Device cpu = Device::cpu();
  random::Generator a(21), b(21);
  const auto want = a.normal(1.5, 2.0, {4, 5}, {.device = cpu}).to_vector<double>();
  const ndarray loc = full({5}, 1.5, {.device = cpu});
  const ndarray scale = full({4, 1}, 2.0, {.device = cpu});
  const ndarray got = b.normal(loc, scale, {});
  EXPECT_EQ(got.shape(), (Shape{4, 5}));
  EXPECT_EQ(got.to_vector<double>(), want);
  EXPECT_THROW(b.normal(loc, scale, {5, 4}), ValueError);
  EXPECT_THROW(b.normal(0.0, asarray<double>({1.0, -1.0}, cpu), {}), ValueError);
  // Per-element integer ranges
  const ndarray lo = asarray<std::int64_t>({0, 100, -7}, cpu);
  const ndarray hi = asarray<std::int64_t>({2, 101, -3}, cpu);
  const auto v = b.integers(lo, hi, {1000, 3}).to_vector<std::int64_t>();
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::int64_t l[] = {0, 100, -7}, h[] = {2, 101, -3};
    EXPECT_GE(v[i], l[i % 3]);
    EXPECT_LT(v[i], h[i % 3]);
  }
  EXPECT_THROW(b.integers(lo, asarray<std::int64_t>({2, 100, 0}, cpu), {}), ValueError);
  EXPECT_THROW(b.integers(lo, 300, {}, {.dtype = DType::UInt8}), ValueError);
}

TEST(RandomGenerator, ShufflePermutedChoice) {
  const Device cpu = Device::cpu();
  random::Generator g(31);
  ndarray x = arange(12, {.device = cpu}).reshape({3, 4});
  g.shuffle(x, 1);
  const auto s = x.to_vector<std::int64_t>();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(s[static_cast<std::size_t>(r * 4 + c)], s[static_cast<std::size_t>(c)] + 4 * r);
  const auto pm = g.permuted(arange(12, {.device = cpu}).reshape({3, 4}), 1).to_vector<std::int64_t>();
  for (int r = 0; r < 3; ++r) {
    std::vector<std::int64_t> row(pm.begin() + r * 4, pm.begin() + r * 4 + 4);
    std::sort(row.begin(), row.end());
    for (int c = 0; c < 4; ++c) EXPECT_EQ(row[static_cast<std::size_t>(c)], 4 * r + c);
  }
  const ndarray c = g.choice(10, {6}, {.replace = false, .device = cpu});
  auto cv = c.to_vector<std::int64_t>();
  std::sort(cv.begin(), cv.end());
  EXPECT_EQ(std::unique(cv.begin(), cv.end()), cv.end());
  const ndarray w = g.choice(3, {30000}, {.p = asarray<double>({0.2, 0.5, 0.3}, cpu), .device = cpu});
  std::vector<double> freq(3);
  for (std::int64_t k : w.to_vector<std::int64_t>()) freq[static_cast<std::size_t>(k)] += 1.0 / 30000;
  EXPECT_NEAR(freq[0], 0.2, 0.015);
  EXPECT_NEAR(freq[1], 0.5, 0.015);
  const ndarray cols = g.choice(arange(12, {.device = cpu}).reshape({3, 4}), {5}, {.axis = 1});
  EXPECT_EQ(cols.shape(), (Shape{3, 5}));
  EXPECT_THROW(g.choice(3, {}, {.p = asarray<double>({0.5, 0.6, 0.1}, cpu)}), ValueError);
  EXPECT_THROW(g.choice(3, {5}, {.replace = false}), ValueError);
}

// float32 normals (Note [Single-precision normals]): the host's value of every third
// of the 2^24 inputs, and the float evaluation the device runs, against the normal
// quantile in double (Newton's method on erfc from the value under test).
double normal_quantile(ops::i32 odd) {  // Phi^-1((1 + x) / 2), x = odd * 2^-24, odd odd
  const double lower = std::ldexp(static_cast<double>((1 << 24) - std::abs(odd)), -25);  // min(u, 1 - u), exact
  double z = -std::sqrt(-2.0 * std::log(lower));
  for (int i = 0; i < 40; ++i) {
    const double step = (0.5 * std::erfc(-z / std::sqrt(2.0)) - lower) / (std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI));
    z -= step;
    if (std::fabs(step) <= 1e-15 * std::fabs(z)) break;
  }
  return odd < 0 ? z : -z;
}

double ulps_off(float got, double want) {
  const double ulp = std::ldexp(1.0, std::ilogb(static_cast<float>(want)) - 23);
  return std::fabs(static_cast<double>(got) - want) / ulp;
}

TEST(RandomNormalMath, QuantileOfEveryThirdInput) {
  double host = 0, single = 0;
  auto check = [&](ops::i32 s) {  // s: the signed top 24 bits of the word
    const ops::u32 w = (static_cast<ops::u32>(s) << 8) | 0x5au;
    const ops::i32 odd = 2 * s + 1;
    const double want = normal_quantile(odd);
    host = std::max(host, ulps_off(ops::random_normal_f32(w), want));
    // the device's arithmetic: float throughout, from 1 - x^2 rounded once and its exact log2
    const float x = static_cast<float>(odd) * 5.9604644775390625e-8f;
    const float y = static_cast<float>(1.0 - static_cast<double>(x) * x);
    const float v = static_cast<float>(-std::log2(static_cast<double>(y)));
    single = std::max(single, ulps_off(ops::random_normal_quantile<float>(x, v), want));
    EXPECT_EQ(ops::random_normal_f32(static_cast<ops::u32>(-s - 1) << 8), -ops::random_normal_f32(w)) << s;
  };
  for (ops::i32 s = -(1 << 23); s < (1 << 23); s += 3) check(s);
  for (ops::i32 d = 0; d < 4096; ++d) {  // both tails and the centre
    check(-(1 << 23) + d);
    check((1 << 23) - 1 - d);
    check(d - 2048);
  }
  EXPECT_LE(host, 1.5);     // measured 1.25
  EXPECT_LE(single, 3.0);   // measured 2.64
}

// The random program of the built-in list (every distribution x dtype x words
// variant) compiles with NVRTC; the full NvrtcBuiltin test covers it too.
TEST(RandomNvrtc, KernelsCompileForSm90) {
  for (const cuda::BuiltinProgram& p : cuda::builtin_kernel_programs()) {
    if (p.name != "random") continue;
    cuda::CompileOptions options = p.options;
    options.arch = 90;
    try {
      const cuda::CompiledProgram out = cuda::compile_to_cubin(p.source, p.name, options);
      for (const std::string& k : p.kernel_names) EXPECT_NE(out.cubin.find(k), std::string::npos) << k;
    } catch (const CompileError& e) {
      FAIL() << e.log();
    }
    return;
  }
  FAIL() << "no random program in builtin_kernel_programs()";
}

}  // namespace
}  // namespace cunp

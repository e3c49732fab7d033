// The cpu device's SIMD kernel table (src/cpu/simd.hpp) against the scalar functors of
// src/ops, under every target the CPU has: every length 0-67 and pointers misaligned by
// 0-3 bytes (which arrays from raw buffers can be), special values included.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/parallel.hpp"
#include "cpu/simd.hpp"
#include "cunp/error.hpp"
#include "ops/ufunc_arith.h"
#include "ops/ufunc_compare.h"
#include "ops/ufunc_math.h"

namespace cunp::cpu::simd {
namespace {

// Restores the target of the environment (or the best one) when the test ends.
struct RestoreTarget {
  ~RestoreTarget() {
    const char* env = std::getenv("CUNP_CPU_SIMD");
    set_target(env ? env : "best");
  }
};

std::vector<float> inputs(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-50.0f, 50.0f);
  std::vector<float> x(n);
  for (float& v : x) v = u(gen);
  const float special[] = {std::numeric_limits<float>::quiet_NaN(), -0.0f, 0.0f, std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(), 1e-40f, 3e38f};
  for (std::size_t k = 0; k < 7 && 5 * k < n; ++k) x[5 * k + seed % 5 < n ? 5 * k + seed % 5 : 5 * k] = special[k];
  return x;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); }

// The targets to check: the distinct ones set_target resolves these names to.
std::vector<std::string> targets() {
  std::vector<std::string> names;
  std::vector<std::string> seen;
  for (const char* n : {"sse4", "avx2", "avx512"}) {
    const std::string got = set_target(n);
    bool dup = got == "scalar";
    for (const std::string& s : seen) dup = dup || s == got;
    if (!dup) {
      names.push_back(n);
      seen.push_back(got);
    }
  }
  return names;
}

TEST(CpuSimd, TargetNames) {
  RestoreTarget restore;
  EXPECT_EQ(set_target("scalar"), "scalar");
  EXPECT_EQ(table(), nullptr);
  EXPECT_EQ(target_name(), "scalar");
  EXPECT_THROW(set_target("mmx"), ValueError);
  const std::string best = set_target("BEST");
  EXPECT_EQ(best, target_name());
  if (best != "scalar") {
    ASSERT_NE(table(), nullptr);
    EXPECT_NE(table()->binary[static_cast<int>(Bin::Add)][elem_index<ops::f32>()], nullptr);
    EXPECT_EQ(table()->binary[static_cast<int>(Bin::Mul)][elem_index<ops::i64>()], nullptr);  // no 64-bit product
  }
}

TEST(CpuSimd, KernelsMatchFunctorsOnTailsAndMisalignment) {
  RestoreTarget restore;
  const std::vector<std::string> names = targets();
  if (names.empty()) GTEST_SKIP() << "no SIMD target on this CPU (or built without Highway)";
  const int f = elem_index<ops::f32>();
  for (const std::string& name : names) {
    set_target(name);
    const Table* t = table();
    ASSERT_NE(t, nullptr);
    for (std::size_t n = 0; n < 68; ++n) {
      const std::vector<float> a = inputs(n, 1), b = inputs(n, 2);
      for (std::size_t off = 0; off < 4; ++off) {
        std::vector<char> ba(n * 4 + 8), bb(n * 4 + 8), bo(n * 4 + 8);
        std::memcpy(ba.data() + off, a.data(), n * 4);
        std::memcpy(bb.data() + off, b.data(), n * 4);
        auto out = [&](std::size_t i) {
          float r;
          std::memcpy(&r, bo.data() + off + 4 * i, 4);
          return r;
        };
        const auto sn = static_cast<std::int64_t>(n);
        t->binary[static_cast<int>(Bin::Add)][f](ba.data() + off, bb.data() + off, bo.data() + off, sn, 0);
        for (std::size_t i = 0; i < n; ++i) EXPECT_TRUE(same_bits(out(i), a[i] + b[i])) << name << " add n=" << n;
        t->binary[static_cast<int>(Bin::Max)][f](ba.data() + off, bb.data() + off, bo.data() + off, sn, 2);
        for (std::size_t i = 0; i < n && n; ++i) {
          const float want = ops::maximum{}(a[i], b[0]);
          EXPECT_TRUE(same_bits(out(i), want) || (out(i) == 0 && want == 0)) << name << " maximum n=" << n;
        }
        t->binary[static_cast<int>(Bin::Lt)][f](ba.data() + off, bb.data() + off, bo.data() + off, sn, 1);
        for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(bo[off + i] != 0, a[0] < b[i]) << name << " less n=" << n;
        t->unary[static_cast<int>(Un::Sqrt)][f](ba.data() + off, bo.data() + off, sn);
        for (std::size_t i = 0; i < n; ++i) EXPECT_TRUE(same_bits(out(i), std::sqrt(a[i]))) << name << " sqrt n=" << n;
        t->unary[static_cast<int>(Un::Sin)][f](ba.data() + off, bo.data() + off, sn);
        for (std::size_t i = 0; i < n; ++i) {
          const float want = std::sin(a[i]);
          if (std::isnan(want)) EXPECT_TRUE(std::isnan(out(i)));
          else EXPECT_NEAR(out(i), want, 1e-6f * (1 + std::fabs(want))) << name << " sin n=" << n;
        }
      }
    }
  }
}

TEST(CpuSimd, PairwiseSumIsTheScalarTree) {
  RestoreTarget restore;
  const std::vector<std::string> names = targets();
  if (names.empty()) GTEST_SKIP() << "no SIMD target on this CPU (or built without Highway)";
  std::vector<float> x(5000);
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (float& v : x) v = u(gen);
  // The scalar pairwise sum of Note [Pairwise summation] (cpu_reduce.cpp).
  auto pairwise = [&](auto&& self, const float* p, std::int64_t n) -> float {
    if (n < 8) {
      float r = 0.0f;
      for (std::int64_t i = 0; i < n; ++i) r += p[i];
      return r;
    }
    if (n <= 128) {
      float r[8];
      for (int j = 0; j < 8; ++j) r[j] = p[j];
      std::int64_t i = 8;
      for (; i < n - n % 8; i += 8)
        for (int j = 0; j < 8; ++j) r[j] += p[i + j];
      float res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
      for (; i < n; ++i) res += p[i];
      return res;
    }
    std::int64_t n2 = n / 2;
    n2 -= n2 % 8;
    return self(self, p, n2) + self(self, p + n2, n - n2);
  };
  for (const std::string& name : names) {
    set_target(name);
    const SumFn fn = table()->pairwise_sum[elem_index<ops::f32>()];
    ASSERT_NE(fn, nullptr);
    for (std::int64_t n : {8, 9, 15, 16, 17, 127, 128, 129, 1000, 4999}) {
      EXPECT_EQ(static_cast<float>(fn(reinterpret_cast<const char*>(x.data() + 1), n)), pairwise(pairwise, x.data() + 1, n))
          << name << " n=" << n;
    }
  }
}

// The squared-deviation sum of var/std (Note [CPU variance]) is the pairwise sum of the
// separately rounded squares, on every target and both float types.
template <typename T> void check_sqdev(const std::vector<std::string>& names) {
  std::vector<T> x(3000), sq(3000);
  std::mt19937 gen(4);
  std::uniform_real_distribution<T> u(T(5), T(15));
  for (T& v : x) v = u(gen);
  const T c = T(10.125);
  for (std::size_t i = 0; i < x.size(); ++i) {
    volatile T d = x[i] - c;  // (rounded before the product)
    volatile T d2 = d * d;
    sq[i] = d2;
  }
  for (const std::string& name : names) {
    set_target(name);
    const SumFn sum = table()->pairwise_sum[elem_index<T>()];
    const SqDevFn fn = table()->pairwise_sqdev[elem_index<T>()];
    ASSERT_NE(fn, nullptr);
    for (std::int64_t n : {8, 9, 15, 16, 17, 127, 128, 129, 1000, 2999}) {
      EXPECT_EQ(static_cast<T>(fn(reinterpret_cast<const char*>(x.data() + 1), n, static_cast<double>(c))),
                static_cast<T>(sum(reinterpret_cast<const char*>(sq.data() + 1), n)))
          << name << " n=" << n;
    }
  }
}

TEST(CpuSimd, SquaredDeviationSumIsTheSumOfSquares) {
  RestoreTarget restore;
  const std::vector<std::string> names = targets();
  if (names.empty()) GTEST_SKIP() << "no SIMD target on this CPU (or built without Highway)";
  check_sqdev<float>(names);
  check_sqdev<double>(names);
}

// The thread pool (Note [CPU thread pool]) runs every piece once, back to back jobs
// included; a loop inside a piece runs inline; a piece's exception reaches the caller.
TEST(CpuThreadPool, EveryPieceOnceNestedAndExceptions) {
  for (std::int64_t pieces : {1, 2, 3, 7, 64}) {
    for (int rep = 0; rep < 200; ++rep) {
      std::vector<std::atomic<int>> hits(static_cast<std::size_t>(pieces));
      std::atomic<int> nested{0};
      cpu::for_pieces(pieces, [&](std::int64_t k) {
        hits[static_cast<std::size_t>(k)].fetch_add(1);
        EXPECT_TRUE(cpu::t_in_split);
        cpu::for_pieces(3, [&](std::int64_t) { nested.fetch_add(1); });
      });
      for (const auto& h : hits) ASSERT_EQ(h.load(), 1);
      ASSERT_EQ(nested.load(), 3 * pieces);
    }
  }
  EXPECT_FALSE(cpu::t_in_split);
  EXPECT_THROW(cpu::for_pieces(4, [](std::int64_t k) {
                 if (k == 2) throw std::runtime_error("piece 2");
               }),
               std::runtime_error);
  std::atomic<int> after{0};
  cpu::for_pieces(4, [&](std::int64_t) { after.fetch_add(1); });
  EXPECT_EQ(after.load(), 4);
}

}  // namespace
}  // namespace cunp::cpu::simd

// cunp/random.hpp — random numbers: a counter-based Philox4x32-10 bit generator, NumPy's
// SeedSequence-style seeding, and a Generator whose streams are the same on every device.
//
// Differences from NumPy (docs/random.md): the streams are cunp's own (NumPy's Philox
// and MT19937 streams are not reproduced); the same seed gives bit-identical integers
// and uniforms on `cpu` and `cuda`, and other distributions equal within rounding.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp::random {

// Entropy (32-bit words, least significant first) plus a spawn key, hashed into a
// Philox key (docs/random.md, "Seeding"). spawn(n) gives children whose spawn keys
// extend this one's with 0, 1, ... (continuing across calls), as NumPy's does.
class SeedSequence {
 public:
  explicit SeedSequence(std::uint64_t seed);
  explicit SeedSequence(std::vector<std::uint32_t> entropy, std::vector<std::uint32_t> spawn_key = {});

  const std::vector<std::uint32_t>& entropy() const noexcept { return entropy_; }
  const std::vector<std::uint32_t>& spawn_key() const noexcept { return spawn_key_; }
  std::uint32_t n_children_spawned() const noexcept { return n_children_spawned_; }
  std::uint64_t generate_key() const noexcept;
  std::vector<SeedSequence> spawn(std::uint32_t n);

 private:
  std::vector<std::uint32_t> entropy_, spawn_key_;
  std::uint32_t n_children_spawned_ = 0;
};

// Note [Philox counter layout] (src/ops/philox.h): the state is a 64-bit key and a
// 48-bit counter of draws; each array drawn takes one counter value, and element i of
// it depends only on (key, counter, i).
class Philox {
 public:
  explicit Philox(SeedSequence seed_seq);
  explicit Philox(std::uint64_t seed) : Philox(SeedSequence(seed)) {}
  // NumPy's Philox(key=...): no seed sequence (spawn is unavailable).
  static Philox from_key(std::uint64_t key, std::uint64_t counter = 0);

  std::uint64_t key() const noexcept { return key_; }
  std::uint64_t counter() const noexcept { return counter_; }
  void set_counter(std::uint64_t counter) noexcept { counter_ = counter & kCounterMask; }
  // The counter value for the next draw, then advances it.
  std::uint64_t next_draw() noexcept;
  const std::optional<SeedSequence>& seed_seq() const noexcept { return seed_seq_; }
  std::optional<SeedSequence>& seed_seq() noexcept { return seed_seq_; }

  static constexpr std::uint64_t kCounterMask = (std::uint64_t{1} << 48) - 1;

 private:
  Philox() = default;
  std::uint64_t key_ = 0, counter_ = 0;
  std::optional<SeedSequence> seed_seq_;
};

struct RandomOptions {
  std::optional<DType> dtype;  // float32 or float64 (the default)
  std::optional<Device> device;
};
struct IntegersOptions {
  DType dtype = DType::Int64;
  bool endpoint = false;
  std::optional<Device> device;
};

// np.random.Generator. Every method draws a new C-contiguous array of `shape` on the
// device (the current one by default) and advances the bit generator by one draw.
// Distribution parameters are scalars; errors are NumPy's (ValueError for a negative
// scale, low >= high, ...; TypeError for an unsupported dtype).
class Generator {
 public:
  explicit Generator(std::uint64_t seed);
  explicit Generator(std::shared_ptr<Philox> bit_generator);

  const std::shared_ptr<Philox>& bit_generator() const noexcept { return bg_; }
  // Independent generators from the bit generator's seed sequence (ValueError without one).
  std::vector<Generator> spawn(std::uint32_t n);

  ndarray random(const Shape& shape, RandomOptions o = {});
  ndarray uniform(double low, double high, const Shape& shape, RandomOptions o = {});
  ndarray standard_normal(const Shape& shape, RandomOptions o = {});
  ndarray normal(double loc, double scale, const Shape& shape, RandomOptions o = {});
  ndarray standard_exponential(const Shape& shape, RandomOptions o = {});
  ndarray exponential(double scale, const Shape& shape, RandomOptions o = {});
  ndarray lognormal(double mean, double sigma, const Shape& shape, RandomOptions o = {});
  ndarray standard_gamma(double shape_k, const Shape& shape, RandomOptions o = {});
  ndarray gamma(double shape_k, double scale, const Shape& shape, RandomOptions o = {});
  ndarray beta(double a, double b, const Shape& shape, RandomOptions o = {});
  ndarray chisquare(double df, const Shape& shape, RandomOptions o = {});
  ndarray laplace(double loc, double scale, const Shape& shape, RandomOptions o = {});
  ndarray logistic(double loc, double scale, const Shape& shape, RandomOptions o = {});
  ndarray gumbel(double loc, double scale, const Shape& shape, RandomOptions o = {});
  ndarray weibull(double a, const Shape& shape, RandomOptions o = {});
  ndarray pareto(double a, const Shape& shape, RandomOptions o = {});
  ndarray rayleigh(double scale, const Shape& shape, RandomOptions o = {});
  // int64 results, as NumPy's.
  ndarray poisson(double lam, const Shape& shape, std::optional<Device> device = std::nullopt);
  ndarray geometric(double p, const Shape& shape, std::optional<Device> device = std::nullopt);
  // Integers in [low, high) ([low, high] with endpoint) of any integer dtype or bool.
  ndarray integers(const Scalar& low, const Scalar& high, const Shape& shape, IntegersOptions o = {});
  // A random permutation of 0..n-1 (int64), computed by a Fisher-Yates pass on the host
  // whose swaps draw from per-position Philox streams.
  ndarray permutation(std::int64_t n, std::optional<Device> device = std::nullopt);

 private:
  std::shared_ptr<Philox> bg_;
};

// np.random.default_rng(seed)
inline Generator default_rng(std::uint64_t seed) { return Generator(seed); }

}  // namespace cunp::random

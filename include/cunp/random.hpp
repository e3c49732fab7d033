// cunp/random.hpp — random numbers: a counter-based Philox4x32-10 bit generator, NumPy's
// SeedSequence-style seeding, and a Generator whose streams are the same on every device.
//
// Differences from NumPy (docs/random.md): the streams are cunp's own (NumPy's Philox
// and MT19937 streams are not reproduced); the same seed gives bit-identical integers
// and uniforms on `cpu` and `cuda`, and other distributions equal within rounding.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <initializer_list>
#include <optional>
#include <vector>

#include "cunp/ndarray.hpp"
#include "cunp/ufunc.hpp"

namespace cunp::random {

// Entropy (32-bit words, least significant first) plus a spawn key, hashed into a
// Philox key (docs/random.md, "Seeding"). spawn(n) gives children whose spawn keys
// extend this one's with 0, 1, ... (continuing across calls, and after the
// `n_children_spawned` a sequence was made with), as NumPy's does.
class SeedSequence {
 public:
  explicit SeedSequence(std::uint64_t seed);
  explicit SeedSequence(std::vector<std::uint32_t> entropy, std::vector<std::uint32_t> spawn_key = {},
                        std::uint32_t n_children_spawned = 0);

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
struct ChoiceOptions {
  bool replace = true;
  std::optional<ndarray> p;  // probabilities (1-d, the population's length)
  int axis = 0;
  bool shuffle = true;  // accepted for NumPy; samples without replacement are always in random order
  std::optional<Device> device;  // for choice(n): the current device by default
};

// Size of a draw: a shape ({1000}, {2, 3}, a Shape), or absent ({} or std::nullopt:
// NumPy's size=None, the broadcast shape of the parameters, () for scalars).
class Size {
 public:
  Size() = default;
  Size(std::nullopt_t) {}                                                          // NOLINT(google-explicit-constructor)
  Size(Shape shape) : shape_(std::move(shape)) {}                                  // NOLINT(google-explicit-constructor)
  Size(std::initializer_list<std::int64_t> dims) : shape_(Shape(dims)) {}         // NOLINT(google-explicit-constructor)
  Size(std::optional<Shape> shape) : shape_(std::move(shape)) {}                   // NOLINT(google-explicit-constructor)

  bool has_value() const noexcept { return shape_.has_value(); }
  explicit operator bool() const noexcept { return shape_.has_value(); }
  const Shape& operator*() const { return *shape_; }
  Shape value_or(Shape dflt) const { return shape_.value_or(std::move(dflt)); }

 private:
  std::optional<Shape> shape_;
};

// np.random.Generator. Every method draws a new C-contiguous array on the device and
// advances the bit generator by one draw. Distribution parameters are scalars or arrays
// (Operand, cunp/ufunc.hpp), broadcast against each other and against `size` as NumPy
// does; array parameters are read in place by the kernel (Note [Array parameters],
// src/ops/random_dists.h). The device is options.device, else that of the first array
// parameter, else the current one. Errors are NumPy's (ValueError for a negative scale,
// p outside [0, 1], low >= high, ...; TypeError for an unsupported dtype). A check on an
// array parameter reduces it on its device and reads back one flag.
class Generator {
 public:
  explicit Generator(std::uint64_t seed);
  explicit Generator(std::shared_ptr<Philox> bit_generator);

  const std::shared_ptr<Philox>& bit_generator() const noexcept { return bg_; }
  // Independent generators from the bit generator's seed sequence (ValueError without one).
  std::vector<Generator> spawn(std::uint32_t n);

  ndarray random(const Size& size, RandomOptions o = {});
  ndarray uniform(const Operand& low, const Operand& high, const Size& size, RandomOptions o = {});
  ndarray standard_normal(const Size& size, RandomOptions o = {});
  ndarray normal(const Operand& loc, const Operand& scale, const Size& size, RandomOptions o = {});
  ndarray standard_exponential(const Size& size, RandomOptions o = {});
  ndarray exponential(const Operand& scale, const Size& size, RandomOptions o = {});
  ndarray lognormal(const Operand& mean, const Operand& sigma, const Size& size, RandomOptions o = {});
  ndarray standard_gamma(const Operand& shape_k, const Size& size, RandomOptions o = {});
  ndarray gamma(const Operand& shape_k, const Operand& scale, const Size& size, RandomOptions o = {});
  ndarray beta(const Operand& a, const Operand& b, const Size& size, RandomOptions o = {});
  ndarray chisquare(const Operand& df, const Size& size, RandomOptions o = {});
  ndarray laplace(const Operand& loc, const Operand& scale, const Size& size, RandomOptions o = {});
  ndarray logistic(const Operand& loc, const Operand& scale, const Size& size, RandomOptions o = {});
  ndarray gumbel(const Operand& loc, const Operand& scale, const Size& size, RandomOptions o = {});
  ndarray weibull(const Operand& a, const Size& size, RandomOptions o = {});
  ndarray pareto(const Operand& a, const Size& size, RandomOptions o = {});
  ndarray rayleigh(const Operand& scale, const Size& size, RandomOptions o = {});
  // int64 results, as NumPy's. binomial's n is truncated to an integer, as NumPy's.
  ndarray poisson(const Operand& lam, const Size& size, std::optional<Device> device = std::nullopt);
  ndarray geometric(const Operand& p, const Size& size, std::optional<Device> device = std::nullopt);
  ndarray binomial(const Operand& n, const Operand& p, const Size& size, std::optional<Device> device = std::nullopt);
  // Integers in [low, high) ([low, high] with endpoint) of any integer dtype or bool;
  // low and high may be integer arrays (then each element has its own range).
  ndarray integers(const Operand& low, const Operand& high, const Size& size, IntegersOptions o = {});

  // A random permutation of 0..n-1 (int64), computed by a Fisher-Yates pass on the host
  // whose swaps draw from per-position Philox streams.
  ndarray permutation(std::int64_t n, std::optional<Device> device = std::nullopt);
  // A copy of x with its slices along `axis` permuted (the gather runs on x's device).
  ndarray permutation(const ndarray& x, int axis = 0);
  // Permutes x's slices along `axis` in place.
  void shuffle(ndarray x, int axis = 0);
  // np.random.Generator.permuted: each 1-d slice along `axis` (every element when axis
  // is absent) permuted independently; into `out` when given (may be x itself).
  ndarray permuted(const ndarray& x, std::optional<int> axis = std::nullopt,
                   std::optional<ndarray> out = std::nullopt);
  // np.random.Generator.choice from range(n) (int64) or along `axis` of `a`. Without
  // size the result has the axis removed (a 0-d array for n or a 1-d a).
  ndarray choice(std::int64_t n, const Size& size, ChoiceOptions o = {});
  ndarray choice(const ndarray& a, const Size& size, ChoiceOptions o = {});

 private:
  ndarray choice_indices(std::int64_t n, const Size& size, const ChoiceOptions& o, Device device);
  std::shared_ptr<Philox> bg_;
};

// np.random.default_rng(seed)
inline Generator default_rng(std::uint64_t seed) { return Generator(seed); }

}  // namespace cunp::random

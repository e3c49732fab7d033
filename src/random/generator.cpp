// src/random/generator.cpp — SeedSequence, Philox and Generator (include/cunp/random.hpp):
// argument checks, the CPU loop over ops::random_group and the hand-off to the kernels.
#include "cunp/random.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>

#include "core/dispatch.hpp"
#include "cuda/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "ops/random_dists.h"
#include "random/random_cuda.hpp"

namespace cunp::random {
namespace {

std::uint64_t splitmix64(std::uint64_t z) noexcept {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::string dtype_repr(DType dt) { return "dtype('" + std::string(name(dt)) + "')"; }

// Runs f.template operator()<D>() for the runtime distribution `dist`.
template <typename F, int... D>
void dispatch_dist(int dist, F&& f, std::integer_sequence<int, D...>) {
  ((dist == D ? (f.template operator()<D>(), 0) : 0), ...);
}

template <typename T, int D, int W>
void cpu_fill(void* out, std::int64_t n, const ops::random_params& p) {
  T* o = static_cast<T*>(out);
  const std::int64_t groups = (n + 4 / W - 1) / (4 / W);
  for (std::int64_t g = 0; g < groups; ++g) ops::random_group<T, D, W>(o, n, p, g);
}

template <int D>
void cpu_fill_dist(void* out, std::int64_t n, DType dt, int words, const ops::random_params& p) {
  if constexpr (D == ops::rd_integers) {
    dispatch_dtype(dt, [&]<typename T>() {
      if constexpr (std::is_integral_v<T>) {
        if (words == 1) cpu_fill<T, D, 1>(out, n, p);
        else cpu_fill<T, D, 2>(out, n, p);
      }
    });
  } else if constexpr (D == ops::rd_poisson || D == ops::rd_geometric) {
    cpu_fill<ops::i64, D, ops::random_words(D, false, 0)>(out, n, p);
  } else {
    if (dt == DType::Float32) cpu_fill<ops::f32, D, ops::random_words(D, true, 0)>(out, n, p);
    else cpu_fill<ops::f64, D, ops::random_words(D, false, 0)>(out, n, p);
  }
}

// One draw of `dist` into a new array: the bit generator advances by one.
ndarray sample(Philox& bg, int dist, const Shape& shape, DType dt, std::optional<Device> device, double a,
               double b, std::int64_t low = 0, std::uint64_t range = 0) {
  ndarray out = empty(shape, {.dtype = dt, .device = device});
  const std::uint64_t key = bg.key();
  ops::random_params p{};
  p.key = {static_cast<ops::u32>(key), static_cast<ops::u32>(key >> 32), bg.next_draw()};
  p.a = a;
  p.b = b;
  p.low = low;
  p.range = range;
  const std::int64_t n = out.size();
  const int words = ops::random_words(dist, dt == DType::Float32, range);
  const Device dev = out.device();
  if (dev.is_cuda()) {
    cuda::DeviceScope scope(dev.index);
    random_fill_cuda(out.data(), n, {dist, dt, words}, p);
    return out;
  }
  dispatch_dist(dist, [&]<int D>() { cpu_fill_dist<D>(out.data(), n, dt, words, p); },
                std::make_integer_sequence<int, ops::rd_count>());
  return out;
}

DType float_dtype(const RandomOptions& o, const char* what) {
  const DType dt = o.dtype.value_or(DType::Float64);
  if (dt != DType::Float32 && dt != DType::Float64)
    throw TypeError("Unsupported dtype " + dtype_repr(dt) + " for " + what);
  return dt;
}

void check(bool ok, const char* message) {
  if (!ok) throw ValueError(message);
}

// NaN fails every check, as in NumPy.
bool nonneg(double x) { return x >= 0; }
bool positive(double x) { return x > 0; }

}  // namespace

// ---- SeedSequence ----------------------------------------------------------------

SeedSequence::SeedSequence(std::uint64_t seed) {
  entropy_.push_back(static_cast<std::uint32_t>(seed));
  if (seed >> 32) entropy_.push_back(static_cast<std::uint32_t>(seed >> 32));
}

SeedSequence::SeedSequence(std::vector<std::uint32_t> entropy, std::vector<std::uint32_t> spawn_key)
    : entropy_(std::move(entropy)), spawn_key_(std::move(spawn_key)) {
  if (entropy_.empty()) entropy_.push_back(0);
}

// Note [Seed to key]: h starts at a fixed constant; each word w of the entropy, then of
// the spawn key, sets h = splitmix64(h ^ w); finally h = splitmix64(h ^ (len(entropy)
// << 32 | len(spawn_key))), so [1] + spawn [] and [1, 0] differ. The key is h.
// docs/random.md states the same mapping for reimplementations.
std::uint64_t SeedSequence::generate_key() const noexcept {
  std::uint64_t h = 0x6A09E667F3BCC909ull;
  for (std::uint32_t w : entropy_) h = splitmix64(h ^ w);
  for (std::uint32_t w : spawn_key_) h = splitmix64(h ^ w);
  return splitmix64(h ^ ((static_cast<std::uint64_t>(entropy_.size()) << 32) | spawn_key_.size()));
}

std::vector<SeedSequence> SeedSequence::spawn(std::uint32_t n) {
  std::vector<SeedSequence> children;
  for (std::uint32_t j = 0; j < n; ++j) {
    std::vector<std::uint32_t> key = spawn_key_;
    key.push_back(n_children_spawned_ + j);
    children.emplace_back(entropy_, std::move(key));
  }
  n_children_spawned_ += n;
  return children;
}

// ---- Philox ------------------------------------------------------------------------

Philox::Philox(SeedSequence seed_seq) : key_(seed_seq.generate_key()), seed_seq_(std::move(seed_seq)) {}

Philox Philox::from_key(std::uint64_t key, std::uint64_t counter) {
  Philox p;
  p.key_ = key;
  p.counter_ = counter & kCounterMask;
  return p;
}

std::uint64_t Philox::next_draw() noexcept {
  const std::uint64_t c = counter_;
  counter_ = (counter_ + 1) & kCounterMask;
  return c;
}

// ---- Generator ---------------------------------------------------------------------

Generator::Generator(std::uint64_t seed) : bg_(std::make_shared<Philox>(seed)) {}
Generator::Generator(std::shared_ptr<Philox> bit_generator) : bg_(std::move(bit_generator)) {
  if (!bg_) throw ValueError("Generator: the bit generator is null");
}

std::vector<Generator> Generator::spawn(std::uint32_t n) {
  if (!bg_->seed_seq()) throw ValueError("The underlying SeedSequence does not implement spawning.");
  std::vector<Generator> out;
  for (SeedSequence& s : bg_->seed_seq()->spawn(n)) out.emplace_back(std::make_shared<Philox>(std::move(s)));
  return out;
}

ndarray Generator::random(const Shape& shape, RandomOptions o) {
  return sample(*bg_, ops::rd_uniform, shape, float_dtype(o, "random"), o.device, 0.0, 1.0);
}

ndarray Generator::uniform(double low, double high, const Shape& shape, RandomOptions o) {
  const double range = high - low;
  if (!std::isfinite(range)) throw OverflowError("high - low range exceeds valid bounds");
  return sample(*bg_, ops::rd_uniform, shape, float_dtype(o, "uniform"), o.device, low, range);
}

ndarray Generator::standard_normal(const Shape& shape, RandomOptions o) {
  return sample(*bg_, ops::rd_normal, shape, float_dtype(o, "standard_normal"), o.device, 0.0, 1.0);
}

ndarray Generator::normal(double loc, double scale, const Shape& shape, RandomOptions o) {
  check(nonneg(scale), "scale < 0");
  return sample(*bg_, ops::rd_normal, shape, float_dtype(o, "normal"), o.device, loc, scale);
}

ndarray Generator::standard_exponential(const Shape& shape, RandomOptions o) {
  return sample(*bg_, ops::rd_exponential, shape, float_dtype(o, "standard_exponential"), o.device, 0.0, 1.0);
}

ndarray Generator::exponential(double scale, const Shape& shape, RandomOptions o) {
  check(nonneg(scale), "scale < 0");
  return sample(*bg_, ops::rd_exponential, shape, float_dtype(o, "exponential"), o.device, 0.0, scale);
}

ndarray Generator::lognormal(double mean, double sigma, const Shape& shape, RandomOptions o) {
  check(nonneg(sigma), "sigma < 0");
  return sample(*bg_, ops::rd_lognormal, shape, float_dtype(o, "lognormal"), o.device, mean, sigma);
}

ndarray Generator::standard_gamma(double shape_k, const Shape& shape, RandomOptions o) {
  check(nonneg(shape_k), "shape < 0");
  return sample(*bg_, ops::rd_gamma, shape, float_dtype(o, "standard_gamma"), o.device, shape_k, 1.0);
}

ndarray Generator::gamma(double shape_k, double scale, const Shape& shape, RandomOptions o) {
  check(nonneg(shape_k), "shape < 0");
  check(nonneg(scale), "scale < 0");
  return sample(*bg_, ops::rd_gamma, shape, float_dtype(o, "gamma"), o.device, shape_k, scale);
}

ndarray Generator::beta(double a, double b, const Shape& shape, RandomOptions o) {
  check(positive(a), "a <= 0");
  check(positive(b), "b <= 0");
  return sample(*bg_, ops::rd_beta, shape, float_dtype(o, "beta"), o.device, a, b);
}

ndarray Generator::chisquare(double df, const Shape& shape, RandomOptions o) {
  check(positive(df), "df <= 0");
  return sample(*bg_, ops::rd_gamma, shape, float_dtype(o, "chisquare"), o.device, df / 2, 2.0);
}

ndarray Generator::laplace(double loc, double scale, const Shape& shape, RandomOptions o) {
  check(nonneg(scale), "scale < 0");
  return sample(*bg_, ops::rd_laplace, shape, float_dtype(o, "laplace"), o.device, loc, scale);
}

ndarray Generator::logistic(double loc, double scale, const Shape& shape, RandomOptions o) {
  check(nonneg(scale), "scale < 0");
  return sample(*bg_, ops::rd_logistic, shape, float_dtype(o, "logistic"), o.device, loc, scale);
}

ndarray Generator::gumbel(double loc, double scale, const Shape& shape, RandomOptions o) {
  check(nonneg(scale), "scale < 0");
  return sample(*bg_, ops::rd_gumbel, shape, float_dtype(o, "gumbel"), o.device, loc, scale);
}

ndarray Generator::weibull(double a, const Shape& shape, RandomOptions o) {
  check(nonneg(a), "a < 0");
  return sample(*bg_, ops::rd_weibull, shape, float_dtype(o, "weibull"), o.device, a, 1.0);
}

ndarray Generator::pareto(double a, const Shape& shape, RandomOptions o) {
  check(positive(a), "a <= 0");
  return sample(*bg_, ops::rd_pareto, shape, float_dtype(o, "pareto"), o.device, a, 1.0);
}

ndarray Generator::rayleigh(double scale, const Shape& shape, RandomOptions o) {
  check(nonneg(scale), "scale < 0");
  return sample(*bg_, ops::rd_rayleigh, shape, float_dtype(o, "rayleigh"), o.device, 0.0, scale);
}

ndarray Generator::poisson(double lam, const Shape& shape, std::optional<Device> device) {
  check(nonneg(lam), "lam < 0");
  // NumPy's bound: beyond it the int64 result could overflow.
  check(lam <= 9.223372006484771e18, "lam value too large");
  return sample(*bg_, ops::rd_poisson, shape, DType::Int64, device, lam, 0.0);
}

ndarray Generator::geometric(double p, const Shape& shape, std::optional<Device> device) {
  check(p > 0 && p <= 1, "p <= 0, p > 1 or p contains NaNs");
  return sample(*bg_, ops::rd_geometric, shape, DType::Int64, device, p, 0.0);
}

ndarray Generator::integers(const Scalar& low, const Scalar& high, const Shape& shape, IntegersOptions o) {
  const DType dt = o.dtype;
  if (!is_integer(dt) && dt != DType::Bool) throw TypeError("Unsupported dtype " + dtype_repr(dt) + " for integers");
  if (!is_integer(low.dtype()) && low.dtype() != DType::Bool)
    throw TypeError("integers: low must be an integer, got " + std::string(name(low.dtype())));
  if (!is_integer(high.dtype()) && high.dtype() != DType::Bool)
    throw TypeError("integers: high must be an integer, got " + std::string(name(high.dtype())));
  using wide = __int128;
  auto value = [](const Scalar& s) {
    return s.dtype() == DType::UInt64 ? static_cast<wide>(s.to_uint64()) : static_cast<wide>(s.to_int64());
  };
  const wide lo = value(low);
  const wide hi = value(high) - (o.endpoint ? 0 : 1);
  const auto [dmin, dmax] = dispatch_dtype(dt, []<typename T>() -> std::pair<wide, wide> {
    if constexpr (std::is_integral_v<T>) return {std::numeric_limits<T>::min(), std::numeric_limits<T>::max()};
    else return {0, 0};
  });
  const std::string dname(name(dt));
  if (lo < dmin) throw ValueError("low is out of bounds for " + dname);
  if (hi > dmax) throw ValueError("high is out of bounds for " + dname);
  if (lo > hi) throw ValueError(o.endpoint ? "low > high" : "low >= high");
  return sample(*bg_, ops::rd_integers, shape, dt, o.device, 0.0, 0.0, static_cast<std::int64_t>(lo),
                static_cast<std::uint64_t>(hi - lo));
}

ndarray Generator::permutation(std::int64_t n, std::optional<Device> device) {
  if (n < 0) throw ValueError("negative dimensions are not allowed");
  const std::uint64_t key = bg_->key();
  const ops::philox_key k{static_cast<ops::u32>(key), static_cast<ops::u32>(key >> 32), bg_->next_draw()};
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  std::iota(idx.begin(), idx.end(), std::int64_t{0});
  // Position j swaps with a uniform index in [0, j], drawn from element j's stream.
  for (std::int64_t j = n - 1; j > 0; --j) {
    const ops::philox_u32x4 block = ops::philox_group_block(k, static_cast<std::uint64_t>(j / 2));
    ops::philox_stream s = ops::philox_element_stream(k, block, static_cast<std::uint64_t>(j), static_cast<int>(j & 1), 2);
    const auto r = static_cast<std::size_t>(ops::random_bounded(s, static_cast<std::uint64_t>(j)));
    std::swap(idx[static_cast<std::size_t>(j)], idx[r]);
  }
  return asarray(idx, device);
}

}  // namespace cunp::random

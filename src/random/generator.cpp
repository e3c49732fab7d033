// src/random/generator.cpp — SeedSequence, Philox and Generator's distributions
// (include/cunp/random.hpp): argument checks, parameter broadcasting, the CPU loop over
// ops::random_group and the hand-off to the kernels. Permutations and choice are in
// sampling.cpp.
#include "cunp/random.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "core/dispatch.hpp"
#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"
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
  } else if constexpr (ops::random_int64_result(D)) {
    cpu_fill<ops::i64, D, ops::random_words(D, false, 0)>(out, n, p);
  } else {
    if (dt == DType::Float32) cpu_fill<ops::f32, D, ops::random_words(D, true, 0)>(out, n, p);
    else cpu_fill<ops::f64, D, ops::random_words(D, false, 0)>(out, n, p);
  }
}

// Fills `out` (contiguous) with one draw of `dist`: the bit generator advances by one.
// p's scalars and array pointers are set by the caller; `words` is the stream width.
ndarray fill(Philox& bg, int dist, ndarray out, int words, ops::random_params p) {
  const std::uint64_t key = bg.key();
  p.key = {static_cast<ops::u32>(key), static_cast<ops::u32>(key >> 32), bg.next_draw()};
  const std::int64_t n = out.size();
  const DType dt = out.dtype();
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

// The constraints NumPy puts on distribution parameters. As in NumPy, NaN passes
// NonNeg and Positive (the draw is NaN) and fails the others.
enum class Bound { NonNeg, Positive, NonNegNumber, Unit, UnitOpenLow, AtMostPoissonMax };

// NumPy's bound on lam: beyond it the int64 result could overflow.
constexpr double kPoissonLamMax = 9.223372006484771e18;

bool holds(Bound b, double x) {
  switch (b) {
    case Bound::NonNeg: return !(x < 0);
    case Bound::Positive: return !(x <= 0);
    case Bound::NonNegNumber: return x >= 0;
    case Bound::Unit: return x >= 0 && x <= 1;
    case Bound::UnitOpenLow: return x > 0 && x <= 1;
    case Bound::AtMostPoissonMax: return x <= kPoissonLamMax;
  }
  return false;
}

// True where an element of `a` breaks the bound, computed on a's device.
ndarray breaks(Bound b, const ndarray& a) {
  switch (b) {
    case Bound::NonNeg: return less(a, 0.0);
    case Bound::Positive: return less_equal(a, 0.0);
    case Bound::NonNegNumber: return logical_not(greater_equal(a, 0.0));
    case Bound::Unit: return logical_not(logical_and(greater_equal(a, 0.0), less_equal(a, 1.0)));
    case Bound::UnitOpenLow: return logical_not(logical_and(greater(a, 0.0), less_equal(a, 1.0)));
    case Bound::AtMostPoissonMax: return greater(a, kPoissonLamMax);
  }
  return a;
}

bool any_true(const ndarray& mask) { return mask.size() > 0 && any(mask).item().to_bool(); }

// One distribution parameter: a scalar, or an array on the draw's device.
struct Param {
  std::optional<ndarray> array;
  Scalar scalar;
  double value = 0;
  Operand operand() const { return array ? Operand(*array) : Operand(scalar); }
};

// Note [Broadcast parameters]: a draw's shape is `size` when given (the parameters
// must broadcast to it, NumPy's "Output size ... is not compatible" otherwise), else
// the parameters' broadcast shape. Array parameters are broadcast and made contiguous
// on the output device just before the launch, so a kernel reads entry i for element i
// (Note [Array parameters]); no parameter leaves its device.
class Draw {
 public:
  Draw(std::initializer_list<const Operand*> params, const Size& size, std::optional<Device> device) {
    for (const Operand* op : params) {
      if (op->is_array() && !device) device = op->array().device();
    }
    device_ = device ? *device : current_device();
    std::vector<Shape> shapes;
    for (const Operand* op : params) {
      Param p;
      if (op->is_array()) {
        if (is_complex(op->array().dtype()))
          throw TypeError("cunp.random: complex parameters are not supported");
        p.array = asarray(op->array(), std::nullopt, device_);
        shapes.push_back(p.array->shape());
      } else {
        if (is_complex(op->scalar().dtype()))
          throw TypeError("cunp.random: complex parameters are not supported");
        p.scalar = op->scalar();
        p.value = p.scalar.to_double();
      }
      params_.push_back(std::move(p));
    }
    const Shape broadcast = shapes.empty() ? Shape{} : broadcast_shapes(shapes);
    if (size) {
      const Shape both[] = {*size, broadcast};
      bool ok = true;
      try {
        ok = broadcast_shapes(both) == *size;
      } catch (const ValueError&) {
        ok = false;
      }
      if (!ok)
        throw ValueError("Output size " + shape_str(*size) + " is not compatible with broadcast dimensions of inputs " +
                         shape_str(broadcast) + ".");
      shape_ = *size;
    } else {
      shape_ = broadcast;
    }
  }

  const Param& operator[](std::size_t i) const { return params_[i]; }
  const Shape& shape() const noexcept { return shape_; }
  Device device() const noexcept { return device_; }

  // ValueError(message) unless every value of parameter i satisfies `b`.
  void require(std::size_t i, Bound b, const char* message) const {
    const Param& p = params_[i];
    const bool bad = p.array ? any_true(breaks(b, *p.array)) : !holds(b, p.value);
    if (bad) throw ValueError(message);
  }

  // Draws `dist` with parameters a and b (float64, broadcast to the draw's shape).
  ndarray run(Philox& bg, int dist, DType dt, const Param& a, const Param& b) const {
    ndarray out = empty(shape_, {.dtype = dt, .device = device_});
    ops::random_params p{};
    p.a = a.value;
    p.b = b.value;
    ndarray abuf, bbuf;
    if (a.array) {
      abuf = expand(*a.array, DType::Float64);
      p.pa = static_cast<const ops::f64*>(abuf.data());
    }
    if (b.array) {
      bbuf = expand(*b.array, DType::Float64);
      p.pb = static_cast<const ops::f64*>(bbuf.data());
    }
    return fill(bg, dist, std::move(out), ops::random_words(dist, dt == DType::Float32, 0), p);
  }

  // `a` as a contiguous array of the draw's shape and dtype `dt`.
  ndarray expand(const ndarray& a, DType dt) const {
    return ascontiguousarray(asarray(a, dt, device_).broadcast_to(shape_));
  }

 private:
  std::vector<Param> params_;
  Shape shape_;
  Device device_;
};

Param scalar_param(double v) {
  Param p;
  p.scalar = Scalar(v);
  p.value = v;
  return p;
}

// f(a, b) for parameters: on the doubles when both are scalars, else a ufunc on the device.
template <typename Scalars, typename Arrays>
Param combine(const Param& a, const Param& b, Scalars on_scalars, Arrays on_arrays) {
  if (!a.array && !b.array) return scalar_param(on_scalars(a.value, b.value));
  Param p;
  p.array = on_arrays(a.operand(), b.operand());
  return p;
}

}  // namespace

// ---- SeedSequence ----------------------------------------------------------------

SeedSequence::SeedSequence(std::uint64_t seed) {
  entropy_.push_back(static_cast<std::uint32_t>(seed));
  if (seed >> 32) entropy_.push_back(static_cast<std::uint32_t>(seed >> 32));
}

SeedSequence::SeedSequence(std::vector<std::uint32_t> entropy, std::vector<std::uint32_t> spawn_key,
                           std::uint32_t n_children_spawned)
    : entropy_(std::move(entropy)), spawn_key_(std::move(spawn_key)), n_children_spawned_(n_children_spawned) {
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

ndarray Generator::random(const Size& size, RandomOptions o) {
  const Draw d({}, size, o.device);
  return d.run(*bg_, ops::rd_uniform, float_dtype(o, "random"), scalar_param(0.0), scalar_param(1.0));
}

ndarray Generator::uniform(const Operand& low, const Operand& high, const Size& size, RandomOptions o) {
  const Draw d({&low, &high}, size, o.device);
  const DType dt = float_dtype(o, "uniform");
  const Param range = combine(
      d[0], d[1], [](double lo, double hi) { return hi - lo; },
      [&](const Operand& lo, const Operand& hi) { return subtract(hi, lo, {.dtype = DType::Float64}); });
  const bool finite = range.array ? !any_true(logical_not(isfinite(*range.array))) : std::isfinite(range.value);
  if (!finite) throw OverflowError("high - low range exceeds valid bounds");
  return d.run(*bg_, ops::rd_uniform, dt, d[0], range);
}

ndarray Generator::standard_normal(const Size& size, RandomOptions o) {
  const Draw d({}, size, o.device);
  return d.run(*bg_, ops::rd_normal, float_dtype(o, "standard_normal"), scalar_param(0.0), scalar_param(1.0));
}

ndarray Generator::normal(const Operand& loc, const Operand& scale, const Size& size, RandomOptions o) {
  const Draw d({&loc, &scale}, size, o.device);
  const DType dt = float_dtype(o, "normal");
  d.require(1, Bound::NonNeg, "scale < 0");
  return d.run(*bg_, ops::rd_normal, dt, d[0], d[1]);
}

ndarray Generator::standard_exponential(const Size& size, RandomOptions o) {
  const Draw d({}, size, o.device);
  return d.run(*bg_, ops::rd_exponential, float_dtype(o, "standard_exponential"), scalar_param(0.0),
               scalar_param(1.0));
}

ndarray Generator::exponential(const Operand& scale, const Size& size, RandomOptions o) {
  const Draw d({&scale}, size, o.device);
  const DType dt = float_dtype(o, "exponential");
  d.require(0, Bound::NonNeg, "scale < 0");
  return d.run(*bg_, ops::rd_exponential, dt, scalar_param(0.0), d[0]);
}

ndarray Generator::lognormal(const Operand& mean, const Operand& sigma, const Size& size, RandomOptions o) {
  const Draw d({&mean, &sigma}, size, o.device);
  const DType dt = float_dtype(o, "lognormal");
  d.require(1, Bound::NonNeg, "sigma < 0");
  return d.run(*bg_, ops::rd_lognormal, dt, d[0], d[1]);
}

ndarray Generator::standard_gamma(const Operand& shape_k, const Size& size, RandomOptions o) {
  const Draw d({&shape_k}, size, o.device);
  const DType dt = float_dtype(o, "standard_gamma");
  d.require(0, Bound::NonNeg, "shape < 0");
  return d.run(*bg_, ops::rd_gamma, dt, d[0], scalar_param(1.0));
}

ndarray Generator::gamma(const Operand& shape_k, const Operand& scale, const Size& size, RandomOptions o) {
  const Draw d({&shape_k, &scale}, size, o.device);
  const DType dt = float_dtype(o, "gamma");
  d.require(0, Bound::NonNeg, "shape < 0");
  d.require(1, Bound::NonNeg, "scale < 0");
  return d.run(*bg_, ops::rd_gamma, dt, d[0], d[1]);
}

ndarray Generator::beta(const Operand& a, const Operand& b, const Size& size, RandomOptions o) {
  const Draw d({&a, &b}, size, o.device);
  const DType dt = float_dtype(o, "beta");
  d.require(0, Bound::Positive, "a <= 0");
  d.require(1, Bound::Positive, "b <= 0");
  return d.run(*bg_, ops::rd_beta, dt, d[0], d[1]);
}

ndarray Generator::chisquare(const Operand& df, const Size& size, RandomOptions o) {
  const Draw d({&df}, size, o.device);
  const DType dt = float_dtype(o, "chisquare");
  d.require(0, Bound::Positive, "df <= 0");
  const Param half = combine(
      d[0], scalar_param(0.5), [](double x, double h) { return x * h; },
      [](const Operand& x, const Operand& h) { return multiply(x, h, {.dtype = DType::Float64}); });
  return d.run(*bg_, ops::rd_gamma, dt, half, scalar_param(2.0));
}

ndarray Generator::laplace(const Operand& loc, const Operand& scale, const Size& size, RandomOptions o) {
  const Draw d({&loc, &scale}, size, o.device);
  const DType dt = float_dtype(o, "laplace");
  d.require(1, Bound::NonNeg, "scale < 0");
  return d.run(*bg_, ops::rd_laplace, dt, d[0], d[1]);
}

ndarray Generator::logistic(const Operand& loc, const Operand& scale, const Size& size, RandomOptions o) {
  const Draw d({&loc, &scale}, size, o.device);
  const DType dt = float_dtype(o, "logistic");
  d.require(1, Bound::NonNeg, "scale < 0");
  return d.run(*bg_, ops::rd_logistic, dt, d[0], d[1]);
}

ndarray Generator::gumbel(const Operand& loc, const Operand& scale, const Size& size, RandomOptions o) {
  const Draw d({&loc, &scale}, size, o.device);
  const DType dt = float_dtype(o, "gumbel");
  d.require(1, Bound::NonNeg, "scale < 0");
  return d.run(*bg_, ops::rd_gumbel, dt, d[0], d[1]);
}

ndarray Generator::weibull(const Operand& a, const Size& size, RandomOptions o) {
  const Draw d({&a}, size, o.device);
  const DType dt = float_dtype(o, "weibull");
  d.require(0, Bound::NonNeg, "a < 0");
  return d.run(*bg_, ops::rd_weibull, dt, d[0], scalar_param(1.0));
}

ndarray Generator::pareto(const Operand& a, const Size& size, RandomOptions o) {
  const Draw d({&a}, size, o.device);
  const DType dt = float_dtype(o, "pareto");
  d.require(0, Bound::Positive, "a <= 0");
  return d.run(*bg_, ops::rd_pareto, dt, d[0], scalar_param(1.0));
}

ndarray Generator::rayleigh(const Operand& scale, const Size& size, RandomOptions o) {
  const Draw d({&scale}, size, o.device);
  const DType dt = float_dtype(o, "rayleigh");
  d.require(0, Bound::NonNeg, "scale < 0");
  return d.run(*bg_, ops::rd_rayleigh, dt, scalar_param(0.0), d[0]);
}

ndarray Generator::poisson(const Operand& lam, const Size& size, std::optional<Device> device) {
  const Draw d({&lam}, size, device);
  d.require(0, Bound::NonNegNumber, "lam < 0 or lam is NaN");
  d.require(0, Bound::AtMostPoissonMax, "lam value too large");
  return d.run(*bg_, ops::rd_poisson, DType::Int64, d[0], scalar_param(0.0));
}

ndarray Generator::geometric(const Operand& p, const Size& size, std::optional<Device> device) {
  const Draw d({&p}, size, device);
  d.require(0, Bound::UnitOpenLow, "p <= 0, p > 1 or p contains NaNs");
  return d.run(*bg_, ops::rd_geometric, DType::Int64, d[0], scalar_param(0.0));
}

ndarray Generator::binomial(const Operand& n, const Operand& p, const Size& size, std::optional<Device> device) {
  const Draw d({&n, &p}, size, device);
  // NumPy converts n to int64 (truncating a float) before checking it.
  Param whole;
  if (d[0].array) {
    whole.array = d[0].array->astype(DType::Int64);
  } else {
    if (std::isnan(d[0].value)) throw ValueError("cannot convert float NaN to integer");
    whole = scalar_param(static_cast<double>(d[0].scalar.to_int64()));
  }
  const bool negative = whole.array ? any_true(less(*whole.array, 0)) : whole.value < 0;
  if (negative) throw ValueError("n < 0");
  d.require(1, Bound::Unit, "p < 0, p > 1 or p is NaN");
  return d.run(*bg_, ops::rd_binomial, DType::Int64, whole, d[1]);
}

ndarray Generator::integers(const Operand& low, const Operand& high, const Size& size, IntegersOptions o) {
  const DType dt = o.dtype;
  if (!is_integer(dt) && dt != DType::Bool) throw TypeError("Unsupported dtype " + dtype_repr(dt) + " for integers");
  auto integral = [](DType t) { return is_integer(t) || t == DType::Bool; };
  const DType low_dt = low.is_array() ? low.array().dtype() : low.scalar().dtype();
  const DType high_dt = high.is_array() ? high.array().dtype() : high.scalar().dtype();
  if (!integral(low_dt)) throw TypeError("integers: low must be an integer, got " + std::string(name(low_dt)));
  if (!integral(high_dt)) throw TypeError("integers: high must be an integer, got " + std::string(name(high_dt)));
  const Draw d({&low, &high}, size, o.device);
  using wide = __int128;
  auto value = [](const Scalar& s) {
    return s.dtype() == DType::UInt64 ? static_cast<wide>(s.to_uint64()) : static_cast<wide>(s.to_int64());
  };
  const auto [dmin, dmax] = dispatch_dtype(dt, []<typename T>() -> std::pair<wide, wide> {
    if constexpr (std::is_integral_v<T>) return {std::numeric_limits<T>::min(), std::numeric_limits<T>::max()};
    else return {0, 0};
  });
  const std::string dname(name(dt));
  const char* order_message = o.endpoint ? "low > high" : "low >= high";
  const wide shift = o.endpoint ? 0 : 1;
  if (!d[0].array && !d[1].array) {
    const wide lo = value(d[0].scalar);
    const wide hi = value(d[1].scalar) - shift;
    if (lo < dmin) throw ValueError("low is out of bounds for " + dname);
    if (hi > dmax) throw ValueError("high is out of bounds for " + dname);
    if (lo > hi) throw ValueError(order_message);
    ops::random_params p{};
    p.low = static_cast<std::int64_t>(lo);
    p.range = static_cast<std::uint64_t>(hi - lo);
    ndarray out = empty(d.shape(), {.dtype = dt, .device = d.device()});
    return fill(*bg_, ops::rd_integers, std::move(out), ops::random_words(ops::rd_integers, false, p.range), p);
  }
  // Array bounds: checked by reductions on the device, then each element's low and
  // (inclusive) range are passed as int64 / uint64 arrays; the stream is 2 words wide
  // whatever the ranges, so values never depend on the other elements' ranges.
  auto extreme = [&](const Param& p, bool lowest) -> std::optional<wide> {
    if (!p.array) return value(p.scalar);
    if (p.array->size() == 0) return std::nullopt;
    return value((lowest ? min(*p.array) : max(*p.array)).item());
  };
  if (const auto lo = extreme(d[0], true); lo && *lo < dmin) throw ValueError("low is out of bounds for " + dname);
  if (const auto hi = extreme(d[1], false); hi && *hi - shift > dmax)
    throw ValueError("high is out of bounds for " + dname);
  const ndarray bad = o.endpoint ? greater(d[0].operand(), d[1].operand()) : greater_equal(d[0].operand(), d[1].operand());
  if (any_true(bad)) throw ValueError(order_message);
  auto as_array = [&](const Param& p) { return p.array ? *p.array : full({}, p.scalar, {.device = d.device()}); };
  const ndarray lo_u = d.expand(as_array(d[0]), DType::UInt64);
  const ndarray hi_u = d.expand(as_array(d[1]), DType::UInt64);
  // Unsigned arithmetic wraps, so hi - lo is the distance even across the sign.
  ndarray range = subtract(hi_u, lo_u);
  if (!o.endpoint) range = subtract(range, 1);
  const ndarray low64 = d.expand(as_array(d[0]), DType::Int64);
  ops::random_params p{};
  p.plow = static_cast<const ops::i64*>(low64.data());
  p.prange = static_cast<const ops::u64*>(range.data());
  ndarray out = empty(d.shape(), {.dtype = dt, .device = d.device()});
  return fill(*bg_, ops::rd_integers, std::move(out), 2, p);
}

}  // namespace cunp::random

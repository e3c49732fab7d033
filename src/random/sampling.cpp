// src/random/sampling.cpp — Generator's permutations and choice (include/cunp/random.hpp).
// Note [Host index streams]: the index arrays (a Fisher-Yates permutation, a weighted
// choice) are computed on the host from Philox streams, so they are the same for every
// device; the gather of the data then runs on the array's own device (take,
// take_along_axis). A permutation of n costs O(n) host work and one upload of n indices.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/random.hpp"
#include "ops/random_dists.h"

namespace cunp::random {
namespace {

ops::philox_key draw_key(Philox& bg) {
  const std::uint64_t key = bg.key();
  return {static_cast<ops::u32>(key), static_cast<ops::u32>(key >> 32), bg.next_draw()};
}

// Fisher-Yates over idx[0..n): position j swaps with a uniform index in [0, j], element
// base + j of a two-words-per-element integer draw (Note [Bounded integers]).
void fisher_yates(const ops::philox_key& k, std::int64_t* idx, std::int64_t n, std::int64_t base) {
  for (std::int64_t j = n - 1; j > 0; --j) {
    const auto e = static_cast<std::uint64_t>(base + j);
    const ops::philox_u32x4 block = ops::philox_group_block(k, e / 2);
    const auto r = static_cast<std::int64_t>(
        ops::random_bounded<2>(k, block, static_cast<int>(e & 1) * 2, e, static_cast<std::uint64_t>(j)));
    std::swap(idx[j], idx[r]);
  }
}

std::vector<std::int64_t> host_permutation(Philox& bg, std::int64_t n) {
  const ops::philox_key k = draw_key(bg);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  std::iota(idx.begin(), idx.end(), std::int64_t{0});
  fisher_yates(k, idx.data(), n, 0);
  return idx;
}

}  // namespace

ndarray Generator::permutation(std::int64_t n, std::optional<Device> device) {
  if (n < 0) throw ValueError("negative dimensions are not allowed");
  return asarray(host_permutation(*bg_, n), device);
}

ndarray Generator::permutation(const ndarray& x, int axis) {
  if (x.ndim() == 0) throw AxisError("x must be an integer or at least 1-dimensional");
  const int ax = normalize_axis(axis, x.ndim());
  const ndarray idx = asarray(host_permutation(*bg_, x.shape()[static_cast<std::size_t>(ax)]), x.device());
  return take(x, idx, ax);
}

void Generator::shuffle(ndarray x, int axis) {
  if (x.ndim() == 0) throw TypeError("shuffle only supports 1-d or higher arrays");
  if (!x.writeable()) throw ValueError("assignment destination is read-only");
  const int ax = normalize_axis(axis, x.ndim());
  const ndarray idx = asarray(host_permutation(*bg_, x.shape()[static_cast<std::size_t>(ax)]), x.device());
  x.assign(take(x, idx, ax));
}

ndarray Generator::permuted(const ndarray& x, std::optional<int> axis, std::optional<ndarray> out) {
  if (out && out->shape() != x.shape()) throw ValueError("out must have the same shape as x");
  const ops::philox_key k = draw_key(*bg_);
  ndarray result;
  if (!axis) {
    std::vector<std::int64_t> idx(static_cast<std::size_t>(x.size()));
    std::iota(idx.begin(), idx.end(), std::int64_t{0});
    fisher_yates(k, idx.data(), x.size(), 0);
    result = take(x, asarray(idx, x.device())).reshape(x.shape());
  } else {
    if (x.ndim() == 0) throw AxisError(*axis, 0);
    const int ax = normalize_axis(*axis, x.ndim());
    // Slice s (in C order of the other axes) is permuted by the streams of elements
    // s*len .. s*len + len - 1, as if the axis were last.
    const std::int64_t len = x.shape()[static_cast<std::size_t>(ax)];
    Shape moved = x.shape();
    moved.erase(moved.begin() + ax);
    moved.push_back(len);
    std::vector<std::int64_t> idx(static_cast<std::size_t>(x.size()));
    const std::int64_t slices = len == 0 ? 0 : x.size() / len;
    for (std::int64_t s = 0; s < slices; ++s) {
      std::int64_t* row = idx.data() + s * len;
      std::iota(row, row + len, std::int64_t{0});
      fisher_yates(k, row, len, s * len);
    }
    const int src[] = {x.ndim() - 1};
    const int dst[] = {ax};
    const ndarray order = moveaxis(asarray(idx, x.device()).reshape(moved), src, dst);
    result = take_along_axis(x, order, ax);
  }
  if (!out) return result;
  out->assign(result);
  return *out;
}

ndarray Generator::choice_indices(std::int64_t n, const Size& size, const ChoiceOptions& o, Device device) {
  const Shape shape = size.value_or(Shape{});
  const std::int64_t k = shape_size(shape);
  if (n == 0 && k > 0) throw ValueError("a cannot be empty unless no samples are taken");
  std::vector<double> p;
  if (o.p) {
    if (o.p->ndim() != 1) throw ValueError("p must be 1-dimensional");
    if (o.p->size() != n) throw ValueError("a and p must have same size");
    p = asarray(*o.p, DType::Float64, Device::cpu()).to_vector<double>();
    double total = 0;
    for (double w : p) {
      if (std::isnan(w)) throw ValueError("Probabilities contain NaN");
      if (w < 0) throw ValueError("probabilities are not non-negative");
      total += w;
    }
    if (std::fabs(total - 1.0) > std::sqrt(std::numeric_limits<double>::epsilon()))
      throw ValueError("probabilities do not sum to 1");
  }
  if (!o.replace && k > n) throw ValueError("Cannot take a larger sample than population when replace is False");
  if (k == 0) return empty(shape, {.dtype = DType::Int64, .device = device});
  if (!o.p) {
    if (o.replace) return integers(0, n, shape, {.dtype = DType::Int64, .device = device});
    std::vector<std::int64_t> perm = host_permutation(*bg_, n);
    perm.resize(static_cast<std::size_t>(k));
    return asarray(perm, device).reshape(shape);
  }
  std::vector<std::int64_t> idx(static_cast<std::size_t>(k));
  if (o.replace) {
    // Inversion of the normalized CDF with one uniform per sample.
    std::vector<double> cdf(p.size());
    std::partial_sum(p.begin(), p.end(), cdf.begin());
    for (double& c : cdf) c /= cdf.back();
    const std::vector<double> u = random(Shape{k}, {.device = Device::cpu()}).to_vector<double>();
    for (std::size_t i = 0; i < idx.size(); ++i) {
      const auto it = std::upper_bound(cdf.begin(), cdf.end(), u[i]);
      idx[i] = std::min<std::int64_t>(it - cdf.begin(), n - 1);
    }
  } else {
    // Without replacement by weight: the k largest log(p) + Gumbel keys (one uniform
    // per population entry), equivalent to successive weighted draws.
    if (std::count_if(p.begin(), p.end(), [](double w) { return w > 0; }) < k)
      throw ValueError("Fewer non-zero entries in p than size");
    const std::vector<double> u = random(Shape{n}, {.device = Device::cpu()}).to_vector<double>();
    std::vector<double> key(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < key.size(); ++i)
      key[i] = p[i] > 0 ? std::log(p[i]) - std::log(-std::log1p(-u[i])) : -std::numeric_limits<double>::infinity();
    std::vector<std::int64_t> order(key.size());
    std::iota(order.begin(), order.end(), std::int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
      return key[static_cast<std::size_t>(a)] > key[static_cast<std::size_t>(b)];
    });
    std::copy_n(order.begin(), k, idx.begin());
  }
  return asarray(idx, device).reshape(shape);
}

ndarray Generator::choice(std::int64_t n, const Size& size, ChoiceOptions o) {
  if (n < 0) throw ValueError("a must be a positive integer unless no samples are taken");
  return choice_indices(n, size, o, o.device ? *o.device : current_device());
}

ndarray Generator::choice(const ndarray& a, const Size& size, ChoiceOptions o) {
  if (a.ndim() == 0) throw ValueError("a must be a sequence or an integer, not 0-dimensional");
  const int ax = normalize_axis(o.axis, a.ndim());
  const ndarray idx = choice_indices(a.shape()[static_cast<std::size_t>(ax)], size, o, a.device());
  return take(a, idx, ax);
}

}  // namespace cunp::random

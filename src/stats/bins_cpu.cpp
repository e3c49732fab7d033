// src/stats/bins_cpu.cpp — the cpu engines of bins.hpp: loops over the bin arithmetic
// of bin_ops.hpp. Large inputs split into one range per hardware thread, each with its
// own histogram, added together at the end (counts are exact; float sums agree with a
// serial loop to rounding).
#include <algorithm>
#include <cstdint>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/dispatch.hpp"
#include "cpu/parallel.hpp"
#include "cunp/error.hpp"
#include "stats/bin_ops_host.hpp"
#include "stats/bins.hpp"

namespace cunp::stats {
namespace {

template <typename T>
constexpr bool is_float_v =
    std::is_same_v<T, ops::half> || std::is_same_v<T, ops::f32> || std::is_same_v<T, ops::f64>;

// One piece per hardware thread for large inputs (Note [CPU threads]), else one.
std::int64_t pieces_for(std::int64_t n) {
  if (n < cpu::kParallelMin) return 1;
  return std::min<std::int64_t>(cpu::hardware_threads(),
                                std::max<std::int64_t>(1, n / (cpu::kParallelMin / 4)));
}

// Calls fn(begin, end, piece) for the pieces_for(n) pieces covering [0, n).
template <typename Fn>
void for_ranges(std::int64_t n, Fn&& fn) {
  const std::int64_t pieces = pieces_for(n);
  if (pieces <= 1) {
    fn(std::int64_t{0}, n, std::int64_t{0});
    return;
  }
  auto range = [&](std::int64_t p) {
    const std::int64_t b = n / pieces * p + std::min(p, n % pieces);
    fn(b, b + n / pieces + (p < n % pieces ? 1 : 0), p);
  };
  std::vector<std::thread> threads;
  for (std::int64_t p = 1; p < pieces; ++p) threads.emplace_back(range, p);
  range(0);
  for (std::thread& t : threads) t.join();
}

// Counts (or sums the weights of) bin(x[i]) into out, one local histogram per piece.
template <typename S, typename Bin>
void count_bins(const ndarray& x, const ndarray* w, const ndarray& out, Bin&& bin) {
  const auto* xs = static_cast<const S*>(x.data());
  const double* ws = w ? static_cast<const double*>(w->data()) : nullptr;
  const std::int64_t n = x.size();
  const std::int64_t nb = out.size();
  const std::int64_t pieces = pieces_for(n);
  if (ws) {
    std::vector<std::vector<double>> local(static_cast<std::size_t>(pieces),
                                           std::vector<double>(static_cast<std::size_t>(nb)));
    for_ranges(n, [&](std::int64_t b, std::int64_t e, std::int64_t p) {
      double* h = local[static_cast<std::size_t>(p)].data();
      for (std::int64_t i = b; i < e; ++i) {
        const long long k = bin(xs[i]);
        if (k >= 0) h[k] += ws[i];
      }
    });
    auto* o = static_cast<double*>(out.data());
    for (const auto& h : local)
      for (std::int64_t k = 0; k < nb; ++k) o[k] += h[static_cast<std::size_t>(k)];
    return;
  }
  std::vector<std::vector<std::int64_t>> local(
      static_cast<std::size_t>(pieces), std::vector<std::int64_t>(static_cast<std::size_t>(nb)));
  for_ranges(n, [&](std::int64_t b, std::int64_t e, std::int64_t p) {
    std::int64_t* h = local[static_cast<std::size_t>(p)].data();
    for (std::int64_t i = b; i < e; ++i) {
      const long long k = bin(xs[i]);
      if (k >= 0) ++h[k];
    }
  });
  auto* o = static_cast<std::int64_t*>(out.data());
  for (const auto& h : local)
    for (std::int64_t k = 0; k < nb; ++k) o[k] += h[static_cast<std::size_t>(k)];
}

template <typename F>
void dispatch_compare(DType c, F&& f) {
  switch (c) {
    case DType::Int64:
      f.template operator()<ops::i64>();
      return;
    case DType::UInt64:
      f.template operator()<ops::u64>();
      return;
    case DType::Float32:
      f.template operator()<ops::f32>();
      return;
    case DType::Float64:
      f.template operator()<ops::f64>();
      return;
    default:
      throw TypeError("bins: unexpected comparison dtype " + std::string(name(c)));
  }
}

}  // namespace

void cpu_histogram_uniform(const ndarray& x, const ndarray* w, const UniformBins& u,
                           const ndarray& edges, const ndarray& out) {
  dispatch_dtype(x.dtype(), [&]<typename S>() {
    if constexpr (std::is_same_v<S, bool> || std::is_same_v<S, ops::c64> ||
                  std::is_same_v<S, ops::c128>) {
      throw TypeError("histogram: unexpected data dtype " + std::string(name(x.dtype())));
    } else {
      using K = std::conditional_t<is_float_v<S>, S, ops::f64>;
      using T = K;
      const K lo = ops::cast<K>(u.lo), hi = ops::cast<K>(u.hi);
      const T first = ops::cast<T>(u.first);
      const auto* e = static_cast<const T*>(edges.data());
      const long long n = u.n;
      auto run = [&]<typename D>() {
        const D denom = ops::cast<D>(u.denom);
        const D scale = ops::cast<D>(static_cast<double>(u.n));
        count_bins<S>(x, w, out, [&](S v) {
          return stats_ops::uniform_bin<S, K, T, D>(v, lo, hi, first, denom, scale, n, e);
        });
      };
      if (u.wide || std::is_same_v<T, ops::f64>)
        run.template operator()<ops::f64>();
      else
        run.template operator()<T>();
    }
  });
}

void cpu_histogram_edges(const ndarray& x, const ndarray* w, const ndarray& edges,
                         const ndarray& out) {
  dispatch_dtype(x.dtype(), [&]<typename S>() {
    if constexpr (std::is_same_v<S, ops::c64> || std::is_same_v<S, ops::c128>) {
      throw TypeError("histogram: unexpected data dtype " + std::string(name(x.dtype())));
    } else {
      dispatch_compare(edges.dtype(), [&]<typename C>() {
        const auto* e = static_cast<const C*>(edges.data());
        const long long m = edges.size();
        count_bins<S>(x, w, out, [&](S v) { return stats_ops::edge_bin<S, C>(v, e, m); });
      });
    }
  });
}

void cpu_bincount(const ndarray& x, const ndarray* w, const ndarray& out) {
  count_bins<std::int64_t>(x, w, out, [](std::int64_t v) { return static_cast<long long>(v); });
}

void cpu_digitize(const ndarray& x, const ndarray& bins, bool right, bool decreasing,
                  const ndarray& out) {
  dispatch_dtype(x.dtype(), [&]<typename S>() {
    if constexpr (std::is_same_v<S, ops::c64> || std::is_same_v<S, ops::c128>) {
      throw TypeError("x may not be complex");
    } else {
      dispatch_compare(bins.dtype(), [&]<typename C>() {
        const auto* xs = static_cast<const S*>(x.data());
        const auto* e = static_cast<const C*>(bins.data());
        const long long m = bins.size();
        auto* o = static_cast<std::int64_t*>(out.data());
        for_ranges(x.size(), [&](std::int64_t b, std::int64_t end, std::int64_t) {
          for (std::int64_t i = b; i < end; ++i)
            o[i] = stats_ops::digitize_one<S, C>(xs[i], e, m, right, decreasing);
        });
      });
    }
  });
}

}  // namespace cunp::stats

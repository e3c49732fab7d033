// src/sort/cpu_sort.cpp — std::stable_sort / std::sort / std::nth_element over the rows
// of a contiguous array, in NumPy's order (Note [Sort keys]); rows are spread over
// threads, and a single long row is sorted in chunks merged pairwise.
#include "sort/cpu_sort.hpp"

#include <algorithm>
#include <numeric>
#include <thread>
#include <tuple>
#include <utility>

#include "core/dispatch.hpp"
#include "cpu/parallel.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "sort/sort_keys.h"

namespace cunp::sorting {
namespace {

// Calls fn(first_row, last_row) over pieces of [0, nrows), on several threads when the
// work is large (Note [CPU threads] in cpu/parallel.hpp).
template <typename Fn>
void for_rows(std::int64_t nrows, std::int64_t row_len, Fn&& fn) {
  const std::int64_t hw = cpu::hardware_threads();
  if (nrows < 2 || hw == 1 || nrows * row_len < cpu::kParallelMin) {
    fn(std::int64_t{0}, nrows);
    return;
  }
  const std::int64_t pieces = std::min(hw, nrows);
  std::vector<std::thread> threads;
  std::int64_t start = 0;
  std::pair<std::int64_t, std::int64_t> first{};
  for (std::int64_t p = 0; p < pieces; ++p) {
    const std::int64_t len = nrows / pieces + (p < nrows % pieces ? 1 : 0);
    if (p == 0) {
      first = {start, start + len};
    } else {
      threads.emplace_back([&fn, start, len] { fn(start, start + len); });
    }
    start += len;
  }
  fn(first.first, first.second);
  for (std::thread& t : threads) t.join();
}

// A stable sort of [data, data + n): chunks sorted on separate threads, then merged
// pairwise (std::inplace_merge keeps the order of equal elements).
template <typename T, typename Less>
void parallel_stable_sort(T* data, std::int64_t n, Less less) {
  const std::int64_t hw = cpu::hardware_threads();
  if (hw == 1 || n < cpu::kParallelMin) {
    std::stable_sort(data, data + n, less);
    return;
  }
  std::int64_t pieces = 1;
  while (pieces * 2 <= hw && pieces < 64) pieces *= 2;
  std::vector<std::int64_t> bounds(static_cast<std::size_t>(pieces) + 1);
  for (std::int64_t p = 0; p <= pieces; ++p) bounds[static_cast<std::size_t>(p)] = n * p / pieces;
  {
    std::vector<std::thread> threads;
    for (std::int64_t p = 0; p < pieces; ++p) {
      threads.emplace_back([&, p] {
        std::stable_sort(data + bounds[static_cast<std::size_t>(p)], data + bounds[static_cast<std::size_t>(p) + 1], less);
      });
    }
    for (std::thread& t : threads) t.join();
  }
  // Merge neighbouring runs of `width` chunks into runs of 2 * width chunks.
  for (std::int64_t width = 1; width < pieces; width *= 2) {
    std::vector<std::thread> merges;
    for (std::int64_t p = 0; p + width < pieces; p += 2 * width) {
      merges.emplace_back([&, p, width] {
        T* lo = data + bounds[static_cast<std::size_t>(p)];
        T* mid = data + bounds[static_cast<std::size_t>(p + width)];
        T* hi = data + bounds[static_cast<std::size_t>(std::min(p + 2 * width, pieces))];
        std::inplace_merge(lo, mid, hi, less);
      });
    }
    for (std::thread& t : merges) t.join();
  }
}

// The key argsort/argpartition sort by: the dtype's unsigned key (a tuple for complex).
template <typename T>
auto row_key(T x) {
  if constexpr (std::is_same_v<T, ops::c64>) {
    return std::tuple{complex_category(x), SortKey<ops::f32>::to_key(x.re), SortKey<ops::f32>::to_key(x.im)};
  } else if constexpr (std::is_same_v<T, ops::c128>) {
    return std::tuple{complex_category(x), SortKey<ops::f64>::to_key(x.re), SortKey<ops::f64>::to_key(x.im)};
  } else {
    return SortKey<T>::to_key(x);
  }
}
template <typename T>
using RowKey = decltype(row_key(T{}));

// (key, index) pairs of one row: ordering them by the pair is a stable order.
template <typename T>
void make_pairs(const T* row, std::int64_t n, std::vector<std::pair<RowKey<T>, std::int64_t>>& pairs) {
  pairs.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) pairs[static_cast<std::size_t>(i)] = {row_key(row[i]), i};
}

std::int64_t row_length(const ndarray& rows) { return rows.ndim() == 0 ? 1 : rows.shape().back(); }

}  // namespace

void cpu_sort_rows(const ndarray& rows) {
  const std::int64_t n = row_length(rows);
  if (rows.size() == 0 || n < 2) return;
  const std::int64_t nrows = rows.size() / n;
  dispatch_dtype(rows.dtype(), [&]<typename T>() {
    T* base = static_cast<T*>(rows.data());
    const auto less = [](const T& a, const T& b) { return sort_less(a, b); };
    if (nrows == 1) {
      parallel_stable_sort(base, n, less);
      return;
    }
    for_rows(nrows, n, [&](std::int64_t r0, std::int64_t r1) {
      for (std::int64_t r = r0; r < r1; ++r) std::stable_sort(base + r * n, base + (r + 1) * n, less);
    });
  });
}

ndarray cpu_argsort_rows(const ndarray& rows) {
  ndarray out = empty(rows.shape(), {.dtype = DType::Int64, .device = rows.device()});
  const std::int64_t n = row_length(rows);
  if (rows.size() == 0) return out;
  const std::int64_t nrows = rows.size() / n;
  auto* idx = static_cast<std::int64_t*>(out.data());
  dispatch_dtype(rows.dtype(), [&]<typename T>() {
    const T* base = static_cast<const T*>(rows.data());
    using Pair = std::pair<RowKey<T>, std::int64_t>;
    const auto sort_row = [&](std::int64_t r, std::vector<Pair>& pairs, bool parallel) {
      make_pairs(base + r * n, n, pairs);
      if (parallel) {
        parallel_stable_sort(pairs.data(), n, std::less<Pair>{});
      } else {
        std::sort(pairs.begin(), pairs.end());
      }
      for (std::int64_t i = 0; i < n; ++i) idx[r * n + i] = pairs[static_cast<std::size_t>(i)].second;
    };
    if (nrows == 1) {
      std::vector<Pair> pairs;
      sort_row(0, pairs, true);
      return;
    }
    for_rows(nrows, n, [&](std::int64_t r0, std::int64_t r1) {
      std::vector<Pair> pairs;
      for (std::int64_t r = r0; r < r1; ++r) sort_row(r, pairs, false);
    });
  });
  return out;
}

void cpu_partition_rows(const ndarray& rows, const std::vector<std::int64_t>& kth) {
  const std::int64_t n = row_length(rows);
  if (rows.size() == 0 || n < 2) return;
  const std::int64_t nrows = rows.size() / n;
  dispatch_dtype(rows.dtype(), [&]<typename T>() {
    T* base = static_cast<T*>(rows.data());
    const auto less = [](const T& a, const T& b) { return sort_less(a, b); };
    for_rows(nrows, n, [&](std::int64_t r0, std::int64_t r1) {
      for (std::int64_t r = r0; r < r1; ++r) {
        T* row = base + r * n;
        std::int64_t lo = 0;
        for (std::int64_t k : kth) {
          if (k >= lo) std::nth_element(row + lo, row + k, row + n, less);
          lo = k + 1;
        }
      }
    });
  });
}

ndarray cpu_argpartition_rows(const ndarray& rows, const std::vector<std::int64_t>& kth) {
  ndarray out = empty(rows.shape(), {.dtype = DType::Int64, .device = rows.device()});
  const std::int64_t n = row_length(rows);
  if (rows.size() == 0) return out;
  const std::int64_t nrows = rows.size() / n;
  auto* idx = static_cast<std::int64_t*>(out.data());
  dispatch_dtype(rows.dtype(), [&]<typename T>() {
    const T* base = static_cast<const T*>(rows.data());
    using Pair = std::pair<RowKey<T>, std::int64_t>;
    for_rows(nrows, n, [&](std::int64_t r0, std::int64_t r1) {
      std::vector<Pair> pairs;
      for (std::int64_t r = r0; r < r1; ++r) {
        make_pairs(base + r * n, n, pairs);
        std::int64_t lo = 0;
        for (std::int64_t k : kth) {
          if (k >= lo) std::nth_element(pairs.begin() + lo, pairs.begin() + k, pairs.end());
          lo = k + 1;
        }
        for (std::int64_t i = 0; i < n; ++i) idx[r * n + i] = pairs[static_cast<std::size_t>(i)].second;
      }
    });
  });
  return out;
}

void cpu_searchsorted(const ndarray& a, const ndarray& v, Side side, const std::optional<ndarray>& sorter,
                      const ndarray& out) {
  const std::int64_t n = a.size();
  const std::int64_t m = v.size();
  const std::int64_t* perm = sorter ? static_cast<const std::int64_t*>(sorter->data()) : nullptr;
  if (perm != nullptr) {
    for (std::int64_t i = 0; i < n; ++i) {
      if (perm[i] < 0 || perm[i] >= n) throw ValueError("Sorter index out of range.");
    }
  }
  auto* result = static_cast<std::int64_t*>(out.data());
  dispatch_dtype(a.dtype(), [&]<typename T>() {
    const T* av = static_cast<const T*>(a.data());
    const T* vv = static_cast<const T*>(v.data());
    const auto at = [&](std::int64_t i) { return perm != nullptr ? av[perm[i]] : av[i]; };
    for_rows(m, 32, [&](std::int64_t q0, std::int64_t q1) {
      for (std::int64_t q = q0; q < q1; ++q) {
        const T x = vv[q];
        std::int64_t lo = 0, hi = n;
        while (lo < hi) {
          const std::int64_t mid = lo + (hi - lo) / 2;
          const bool go_right = side == Side::Left ? sort_less(at(mid), x) : !sort_less(x, at(mid));
          if (go_right) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        result[q] = lo;
      }
    });
  });
}

}  // namespace cunp::sorting

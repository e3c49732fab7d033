// src/reduce/cpu_reduce.cpp — CPU reduction loops over a ReduceLayout, combining with
// the ufunc functors of src/ops (the same ones the generated GPU kernels call).
//
// Note [Pairwise summation]: sums of inexact types follow NumPy's pairwise_sum: the
// first element seeds the accumulator and the rest of each innermost row is summed
// with 8 accumulators in blocks of up to 128 elements, splitting longer rows in
// halves (multiples of 8), so the error grows with log(n) rather than n. Rows of a
// multi-axis reduction are then combined in order, like NumPy's iterator does.
// Contiguous float32/float64 rows run the SIMD version of the same additions
// (cpu/simd_reduce.cpp), the halves of a long row on the thread pool: the same tree,
// so the same result.
//
// Note [SIMD reduction rows]: contiguous rows of max/min/fmax/fmin, argmax/argmin and
// any/all run the SIMD kernels of cpu/simd.hpp, long ones split across threads (pieces
// combined in order, so the first NaN and the first extreme still win). Outputs are
// split across threads when there are many (parallel_split weighted by the reduced
// extent).
#include "reduce/cpu_reduce.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/dispatch.hpp"
#include "cpu/parallel.hpp"
#include "cpu/simd.hpp"
#include "cpu/strided_loop.hpp"
#include "cunp/error.hpp"
#include "ops/ufunc_arith.h"
#include "ops/ufunc_compare.h"
#include "ufunc/registry.hpp"

namespace cunp::reduce {
namespace {

using ufunc::compute_t;
using ufunc::load_compute;
using ufunc::store_cast;

// What a loaded value turns into before combining: itself, or NaN → 0 / NaN → 1.
enum class Map { None, NanZero, NanOne };

template <typename C> bool is_nan(C x) {
  if constexpr (ops::kind_of<C>::value == 3) return ops::any_nan(x);
  else return ops::detail::isnan_any(x);
}

template <typename T, Map M> compute_t<T> load(const char* p) {
  compute_t<T> x = load_compute<T>(p);
  if constexpr (M != Map::None) {
    if (is_nan(x)) x = ops::cast<compute_t<T>>(M == Map::NanZero ? 0 : 1);
  }
  return x;
}

template <typename T> constexpr bool is_inexact_v = ops::kind_of<T>::value >= 2;

template <typename T, Map M> compute_t<T> pairwise_sum(const char* p, std::int64_t n, std::int64_t s) {
  using C = compute_t<T>;
  const ops::add add{};
  if (n < 8) {
    C r = ops::cast<C>(0);
    for (std::int64_t i = 0; i < n; ++i) r = add(r, load<T, M>(p + i * s));
    return r;
  }
  if (n <= 128) {
    C r[8];
    for (int j = 0; j < 8; ++j) r[j] = load<T, M>(p + j * s);
    std::int64_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] = add(r[j], load<T, M>(p + (i + j) * s));
    C res = add(add(add(r[0], r[1]), add(r[2], r[3])), add(add(r[4], r[5]), add(r[6], r[7])));
    for (; i < n; ++i) res = add(res, load<T, M>(p + i * s));
    return res;
  }
  std::int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return add(pairwise_sum<T, M>(p, n2, s), pairwise_sum<T, M>(p + n2 * s, n - n2, s));
}

// Rows of a reduction shorter than this stay on one thread: a pass over them costs less
// than starting threads (the SIMD kernels read about 10 elements per nanosecond).
constexpr std::int64_t kRowParallelMin = std::int64_t{1} << 22;

// The pairwise sum of a contiguous row through the SIMD kernel `fn`: the top `depth`
// levels of the recursion (rows past 128 elements split in halves, multiples of 8) cut
// the row into up to 2^depth leaves, summed on the thread pool, then added up the same
// tree.
struct Leaf {
  const char* p;
  std::int64_t n;
};

template <typename C> void pairwise_leaves(const char* p, std::int64_t n, int depth, std::vector<Leaf>& leaves) {
  if (depth == 0 || n < kRowParallelMin) {
    leaves.push_back({p, n});
    return;
  }
  std::int64_t n2 = n / 2;
  n2 -= n2 % 8;
  pairwise_leaves<C>(p, n2, depth - 1, leaves);
  pairwise_leaves<C>(p + n2 * static_cast<std::int64_t>(sizeof(C)), n - n2, depth - 1, leaves);
}

template <typename C> C pairwise_combine(std::int64_t n, int depth, const std::vector<C>& sums, std::size_t& next) {
  if (depth == 0 || n < kRowParallelMin) return sums[next++];
  std::int64_t n2 = n / 2;
  n2 -= n2 % 8;
  const C left = pairwise_combine<C>(n2, depth - 1, sums, next);
  const C right = pairwise_combine<C>(n - n2, depth - 1, sums, next);
  return left + right;
}

// leaf(p, n) -> C sums one leaf.
template <typename C, typename LeafFn> C simd_pairwise(const LeafFn& leaf, const char* p, std::int64_t n, int depth) {
  if (depth == 0 || n < kRowParallelMin) return leaf(p, n);
  std::vector<Leaf> leaves;
  pairwise_leaves<C>(p, n, depth, leaves);
  std::vector<C> sums(leaves.size());
  cpu::for_pieces(static_cast<std::int64_t>(leaves.size()), [&](std::int64_t k) {
    sums[static_cast<std::size_t>(k)] = leaf(leaves[static_cast<std::size_t>(k)].p, leaves[static_cast<std::size_t>(k)].n);
  });
  std::size_t next = 0;
  return pairwise_combine<C>(n, depth, sums, next);
}

int thread_depth() {
  if (cpu::t_in_split) return 0;
  int d = 0;
  while ((1u << d) < cpu::hardware_threads()) ++d;
  return d;
}

// Folds pieces of a long contiguous row on separate threads: piece(begin, end) -> R for
// each of up to hardware_threads() pieces, then combine(acc, r) in order.
template <typename R, typename Piece, typename Combine>
R split_row(std::int64_t n, Piece&& piece, Combine&& combine) {
  const std::int64_t pieces = n < kRowParallelMin ? 1 : std::min<std::int64_t>(cpu::hardware_threads(), n / (kRowParallelMin / 2));
  if (pieces <= 1 || cpu::t_in_split) return piece(std::int64_t{0}, n);
  std::vector<R> rs(static_cast<std::size_t>(pieces));
  cpu::parallel_ranges(pieces, cpu::kParallelMin, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t k = b; k < e; ++k) rs[static_cast<std::size_t>(k)] = piece(n / pieces * k, k + 1 == pieces ? n : n / pieces * (k + 1));
  });
  R acc = rs[0];
  for (std::size_t k = 1; k < rs.size(); ++k) acc = combine(acc, rs[k]);
  return acc;
}

template <typename Op> constexpr int fold_index() {
  namespace simd = cpu::simd;
  if constexpr (std::is_same_v<Op, ops::maximum>) return static_cast<int>(simd::Fold::Max);
  else if constexpr (std::is_same_v<Op, ops::minimum>) return static_cast<int>(simd::Fold::Min);
  else if constexpr (std::is_same_v<Op, ops::fmax>) return static_cast<int>(simd::Fold::FMax);
  else if constexpr (std::is_same_v<Op, ops::fmin>) return static_cast<int>(simd::Fold::FMin);
  else return -1;
}

// One innermost row of n >= 1 elements.
template <typename T, typename Op, Map M> compute_t<T> reduce_row(const char* p, std::int64_t n, std::int64_t s) {
  constexpr int e = cpu::simd::elem_index<T>();
  constexpr auto sz = static_cast<std::int64_t>(sizeof(T));
  if constexpr (e >= 0 && M == Map::None) {
    if (s == sz && n >= cpu::simd::kMinRow) {
      if (const cpu::simd::Table* t = cpu::simd::table()) {
        if constexpr (is_inexact_v<T> && std::is_same_v<Op, ops::add>) {
          if (const cpu::simd::SumFn fn = t->pairwise_sum[e]) {
            auto leaf = [fn](const char* q, std::int64_t m) { return static_cast<T>(fn(q, m)); };
            return Op{}(load<T, M>(p), simd_pairwise<T>(leaf, p + s, n - 1, thread_depth()));
          }
        } else if constexpr (fold_index<Op>() >= 0) {
          if (const cpu::simd::FoldFn fn = t->fold[fold_index<Op>()][e]) {
            return split_row<T>(
                n,
                [&](std::int64_t b, std::int64_t end) {
                  T r;
                  fn(p + b * sz, end - b, reinterpret_cast<char*>(&r));
                  return r;
                },
                [](T a, T b) { return Op{}(a, b); });
          }
        }
      }
    }
  }
  if constexpr (std::is_same_v<T, bool> && M == Map::None &&
                (std::is_same_v<Op, ops::logical_or> || std::is_same_v<Op, ops::logical_and>)) {
    if (s == 1 && n >= cpu::simd::kMinRow) {
      const cpu::simd::Table* t = cpu::simd::table();
      if (const cpu::simd::BoolFn fn = t ? (std::is_same_v<Op, ops::logical_or> ? t->any : t->all) : nullptr) {
        return split_row<bool>(n, [&](std::int64_t b, std::int64_t end) { return fn(p + b, end - b); },
                               [](bool a, bool b) { return Op{}(a, b); });
      }
    }
  }
  compute_t<T> acc = load<T, M>(p);
  if constexpr (is_inexact_v<T> && std::is_same_v<Op, ops::add>) {
    if (n > 1) acc = Op{}(acc, pairwise_sum<T, M>(p + s, n - 1, s));
  } else {
    const Op op{};
    for (std::int64_t i = 1; i < n; ++i) acc = op(acc, load<T, M>(p + i * s));
  }
  return acc;
}

template <typename T, typename Op, Map M>
compute_t<T> reduce_inner(const char* base, const iter::LoopLayout& inner) {
  if (inner.ndim() == 0) return load<T, M>(base);
  const std::int64_t n = inner.shape.back();
  const std::int64_t s = inner.strides[0].back();
  if (inner.ndim() == 1) return reduce_row<T, Op, M>(base, n, s);
  compute_t<T> acc{};
  bool first = true;
  char* const b[1] = {const_cast<char*>(base)};
  cpu::for_each_row<1>(inner, b, [&](char* const* q, std::int64_t m, const std::int64_t* t) {
    const compute_t<T> r = reduce_row<T, Op, M>(q[0], m, t[0]);
    acc = first ? r : Op{}(acc, r);
    first = false;
  });
  return acc;
}

// Note [Column reductions]: when the reduced axis is strided and the outputs walk the
// input contiguously (a.sum(axis=0) of a C-ordered matrix), tiles of kTile outputs are
// reduced together, a row of the tile at a time, so memory is read in order. Each output
// sees the same operations in the same order as reduce_row gives it (the pairwise tree
// for inexact sums), so the results do not change.
constexpr std::int64_t kTile = 256;

// dst[j] = Op(dst[j], row[j]) for j < m: the SIMD binary kernel of Op where there is one
// (bit-identical to the functor), else the functor.
template <typename T, typename Op, Map M>
void combine_row(compute_t<T>* dst, const char* row, std::int64_t m) {
  constexpr int e = cpu::simd::elem_index<T>();
  if constexpr (e >= 0 && M == Map::None && cpu::simd::kernel_of<Op>::bin != cpu::simd::Bin::None) {
    const cpu::simd::Table* t = cpu::simd::table();
    if (const cpu::simd::BinaryFn fn = t ? t->binary[static_cast<int>(cpu::simd::kernel_of<Op>::bin)][e] : nullptr) {
      fn(reinterpret_cast<const char*>(dst), row, reinterpret_cast<char*>(dst), m, 0);
      return;
    }
  }
  const Op op{};
  for (std::int64_t j = 0; j < m; ++j) dst[j] = op(dst[j], load<T, M>(row + j * static_cast<std::int64_t>(sizeof(T))));
}

template <typename T, Map M>
void pairwise_cols(compute_t<T>* dst, const char* p, std::int64_t n, std::int64_t rs, std::int64_t m) {
  using C = compute_t<T>;
  constexpr auto sz = static_cast<std::int64_t>(sizeof(T));
  const ops::add add{};
  auto ld = [&](std::int64_t i, std::int64_t j) { return load<T, M>(p + i * rs + j * sz); };
  if (n < 8) {
    for (std::int64_t j = 0; j < m; ++j) dst[j] = ops::cast<C>(0);
    for (std::int64_t i = 0; i < n; ++i) combine_row<T, ops::add, M>(dst, p + i * rs, m);
    return;
  }
  if (n <= 128) {
    C r[8][kTile];
    for (int k = 0; k < 8; ++k)
      for (std::int64_t j = 0; j < m; ++j) r[k][j] = ld(k, j);
    std::int64_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int k = 0; k < 8; ++k) combine_row<T, ops::add, M>(r[k], p + (i + k) * rs, m);
    for (std::int64_t j = 0; j < m; ++j)
      dst[j] = add(add(add(r[0][j], r[1][j]), add(r[2][j], r[3][j])), add(add(r[4][j], r[5][j]), add(r[6][j], r[7][j])));
    for (; i < n; ++i) combine_row<T, ops::add, M>(dst, p + i * rs, m);
    return;
  }
  std::int64_t n2 = n / 2;
  n2 -= n2 % 8;
  C right[kTile];
  pairwise_cols<T, M>(dst, p, n2, rs, m);
  pairwise_cols<T, M>(right, p + n2 * rs, n - n2, rs, m);
  for (std::int64_t j = 0; j < m; ++j) dst[j] = add(dst[j], right[j]);
}

// m <= kTile contiguous outputs' columns of n rows `rs` bytes apart, into out (stride os).
template <typename T, typename Op, Map M>
void reduce_columns(char* out, std::int64_t os, const char* p, std::int64_t m, std::int64_t n, std::int64_t rs) {
  using C = compute_t<T>;
  constexpr auto sz = static_cast<std::int64_t>(sizeof(T));
  C acc[kTile];
  for (std::int64_t j = 0; j < m; ++j) acc[j] = load<T, M>(p + j * sz);
  if constexpr (is_inexact_v<T> && std::is_same_v<Op, ops::add>) {
    if (n > 1) {
      C rest[kTile];
      pairwise_cols<T, M>(rest, p + rs, n - 1, rs, m);
      for (std::int64_t j = 0; j < m; ++j) acc[j] = Op{}(acc[j], rest[j]);
    }
  } else {
    for (std::int64_t i = 1; i < n; ++i) combine_row<T, Op, M>(acc, p + i * rs, m);
  }
  for (std::int64_t j = 0; j < m; ++j) store_cast<T>(out + j * os, acc[j]);
}

template <typename T, typename Op, Map M>
void run(const ReduceLayout& l, const ndarray& in, const ndarray& out) {
  char* const base[2] = {static_cast<char*>(out.data()), static_cast<char*>(in.data())};
  auto rows = [&](const iter::LoopLayout& outer, char* const* b) {
    char* const sub[2] = {b[0], b[1]};
    constexpr auto sz = static_cast<std::int64_t>(sizeof(T));
    const bool columns = l.inner.ndim() == 1 && l.inner.strides[0][0] != sz;
    cpu::for_each_row<2>(outer, sub, [&](char* const* p, std::int64_t n, const std::int64_t* s) {
      if (columns && s[1] == sz && n >= 2) {
        for (std::int64_t j = 0; j < n; j += kTile) {
          reduce_columns<T, Op, M>(p[0] + j * s[0], s[0], p[1] + j * sz, std::min(kTile, n - j), l.inner.shape[0],
                                   l.inner.strides[0][0]);
        }
        return;
      }
      for (std::int64_t i = 0; i < n; ++i)
        store_cast<T>(p[0] + i * s[0], reduce_inner<T, Op, M>(p[1] + i * s[1], l.inner));
    });
  };
  if (l.outer.size > 1) cpu::parallel_split(l.outer, base, rows, l.inner.size);
  else rows(l.outer, base);
}

// argmax/argmin: `better(best, x)` says x replaces best; a NaN best is never replaced.
template <bool IsMax, typename C> bool better(C best, C x) {
  if (is_nan(best)) return false;
  if (is_nan(x)) return true;
  if constexpr (ops::kind_of<C>::value == 3) {
    return IsMax ? !ops::detail::complex_ge(best, x) : !ops::detail::complex_le(best, x);
  } else {
    return IsMax ? !(best >= x) : !(best <= x);
  }
}

// The argmax/argmin of one contiguous row through the SIMD kernel, long rows in pieces.
template <typename T, bool IsMax> std::int64_t simd_arg(cpu::simd::ArgFn fn, const char* p, std::int64_t n) {
  struct Best {
    std::int64_t i;
    T v;
  };
  constexpr auto sz = static_cast<std::int64_t>(sizeof(T));
  const Best r = split_row<Best>(
      n, [&](std::int64_t b, std::int64_t e) {
        const std::int64_t k = b + fn(p + b * sz, e - b);
        return Best{k, load_compute<T>(p + k * sz)};
      },
      [](Best a, Best b) { return better<IsMax>(a.v, b.v) ? b : a; });
  return r.i;
}

template <typename T, bool IsMax>
void run_arg(const ReduceLayout& l, const ndarray& in, const ndarray& out) {
  using C = compute_t<T>;
  char* const base[2] = {static_cast<char*>(out.data()), static_cast<char*>(in.data())};
  constexpr int e = cpu::simd::elem_index<T>();
  cpu::simd::ArgFn simd_fn = nullptr;
  if constexpr (e >= 0) {
    const cpu::simd::Table* t = cpu::simd::table();
    if (t && l.inner.ndim() == 1 && l.inner.strides[0][0] == static_cast<std::int64_t>(sizeof(T)) &&
        l.inner.size >= cpu::simd::kMinRow) {
      simd_fn = IsMax ? t->argmax[e] : t->argmin[e];
    }
  }
  cpu::for_each_row<2>(l.outer, base, [&](char* const* p, std::int64_t n, const std::int64_t* s) {
    for (std::int64_t i = 0; i < n; ++i) {
      if constexpr (e >= 0) {
        if (simd_fn) {
          const std::int64_t best_i = simd_arg<T, IsMax>(simd_fn, p[1] + i * s[1], l.inner.size);
          std::memcpy(p[0] + i * s[0], &best_i, sizeof best_i);
          continue;
        }
      }
      C best = load_compute<T>(p[1] + i * s[1]);
      std::int64_t best_i = 0, k = 0;
      char* const b[1] = {p[1] + i * s[1]};
      cpu::for_each_row<1>(l.inner, b, [&](char* const* q, std::int64_t m, const std::int64_t* t) {
        for (std::int64_t j = 0; j < m; ++j, ++k) {
          const C x = load_compute<T>(q[0] + j * t[0]);
          if (better<IsMax>(best, x)) {
            best = x;
            best_i = k;
          }
        }
      });
      std::memcpy(p[0] + i * s[0], &best_i, sizeof best_i);
    }
  });
}

// ---- the sum of squared deviations of var/std (Note [CPU variance]).
template <typename T> T sq_dev(const char* p, T c) {
  const T d = load_compute<T>(p) - c;
  return d * d;
}

// pairwise_sum over sq_dev of the n elements at p (stride s): the same tree.
template <typename T> T pairwise_sq(const char* p, std::int64_t n, std::int64_t s, T c) {
  if (n < 8) {
    T r = T(0);
    for (std::int64_t i = 0; i < n; ++i) r = r + sq_dev<T>(p + i * s, c);
    return r;
  }
  if (n <= 128) {
    T r[8];
    for (int j = 0; j < 8; ++j) r[j] = sq_dev<T>(p + j * s, c);
    std::int64_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] = r[j] + sq_dev<T>(p + (i + j) * s, c);
    T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res = res + sq_dev<T>(p + i * s, c);
    return res;
  }
  std::int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sq<T>(p, n2, s, c) + pairwise_sq<T>(p + n2 * s, n - n2, s, c);
}

// reduce_row<T, add> of the squared deviations of one row.
template <typename T> T sqdev_row(const char* p, std::int64_t n, std::int64_t s, T c) {
  constexpr int e = cpu::simd::elem_index<T>();
  const T first = sq_dev<T>(p, c);
  if (n == 1) return first;
  if (s == static_cast<std::int64_t>(sizeof(T)) && n >= cpu::simd::kMinRow) {
    const cpu::simd::Table* t = cpu::simd::table();
    if (const cpu::simd::SqDevFn fn = t ? t->pairwise_sqdev[e] : nullptr) {
      auto leaf = [fn, c](const char* q, std::int64_t m) { return static_cast<T>(fn(q, m, static_cast<double>(c))); };
      return first + simd_pairwise<T>(leaf, p + s, n - 1, thread_depth());
    }
  }
  return first + pairwise_sq<T>(p + s, n - 1, s, c);
}

template <typename T> void run_sqdev(const ReduceLayout& l, const ndarray& in, const ndarray& out, const ndarray& center) {
  char* const base[2] = {static_cast<char*>(out.data()), static_cast<char*>(in.data())};
  const char* const out0 = static_cast<const char*>(out.data());
  const char* const c0 = static_cast<const char*>(center.data());
  auto rows = [&](const iter::LoopLayout& outer, char* const* b) {
    char* const sub[2] = {b[0], b[1]};
    cpu::for_each_row<2>(outer, sub, [&](char* const* p, std::int64_t n, const std::int64_t* s) {
      for (std::int64_t i = 0; i < n; ++i) {
        char* const o = p[0] + i * s[0];
        const T c = load_compute<T>(c0 + (o - out0));  // (center and out: one shape, C order)
        const char* const q = p[1] + i * s[1];
        T acc{};
        if (l.inner.ndim() == 0) {
          acc = sq_dev<T>(q, c);
        } else if (l.inner.ndim() == 1) {
          acc = sqdev_row<T>(q, l.inner.shape[0], l.inner.strides[0][0], c);
        } else {
          bool first = true;
          char* const qb[1] = {const_cast<char*>(q)};
          cpu::for_each_row<1>(l.inner, qb, [&](char* const* r, std::int64_t m, const std::int64_t* t) {
            const T v = sqdev_row<T>(r[0], m, t[0], c);
            acc = first ? v : acc + v;
            first = false;
          });
        }
        store_cast<T>(o, acc);
      }
    });
  };
  if (l.outer.size > 1) cpu::parallel_split(l.outer, base, rows, l.inner.size);
  else rows(l.outer, base);
}

}  // namespace

void cpu_sum_sqdev(const ReduceLayout& layout, const ndarray& in, const ndarray& out, const ndarray& center) {
  if (layout.outer.size == 0) return;
  if (layout.inner.size == 0) throw ValueError("cpu_sum_sqdev: empty reduction");
  switch (in.dtype()) {
    case DType::Float32: return run_sqdev<float>(layout, in, out, center);
    case DType::Float64: return run_sqdev<double>(layout, in, out, center);
    default: throw TypeError("cpu_sum_sqdev: float32 or float64 input");
  }
}

void cpu_reduce(ReduceOp op, const ReduceLayout& layout, const ndarray& in, const ndarray& out) {
  if (layout.outer.size == 0) return;
  if (layout.inner.size == 0) throw ValueError("cpu_reduce: empty reduction");
  const DType dt = in.dtype();
  dispatch_dtype(dt, [&]<typename T>() {
    const bool f16 = dt == DType::Float16;
    switch (op) {
      case ReduceOp::Sum: return run<T, ops::add, Map::None>(layout, in, out);
      case ReduceOp::Prod: return run<T, ops::multiply, Map::None>(layout, in, out);
      case ReduceOp::NanSum: return run<T, ops::add, Map::NanZero>(layout, in, out);
      case ReduceOp::NanProd: return run<T, ops::multiply, Map::NanOne>(layout, in, out);
      case ReduceOp::Max:
        return f16 ? run<T, ops::maximum_f16, Map::None>(layout, in, out) : run<T, ops::maximum, Map::None>(layout, in, out);
      case ReduceOp::Min:
        return f16 ? run<T, ops::minimum_f16, Map::None>(layout, in, out) : run<T, ops::minimum, Map::None>(layout, in, out);
      case ReduceOp::NanMax:
        return f16 ? run<T, ops::fmax_f16, Map::None>(layout, in, out) : run<T, ops::fmax, Map::None>(layout, in, out);
      case ReduceOp::NanMin:
        return f16 ? run<T, ops::fmin_f16, Map::None>(layout, in, out) : run<T, ops::fmin, Map::None>(layout, in, out);
      case ReduceOp::Any:
        if constexpr (std::is_same_v<T, bool>) return run<T, ops::logical_or, Map::None>(layout, in, out);
        break;
      case ReduceOp::All:
        if constexpr (std::is_same_v<T, bool>) return run<T, ops::logical_and, Map::None>(layout, in, out);
        break;
      case ReduceOp::ArgMax: return run_arg<T, true>(layout, in, out);
      case ReduceOp::ArgMin: return run_arg<T, false>(layout, in, out);
    }
    throw TypeError("cpu_reduce: any/all need bool input");
  });
}

}  // namespace cunp::reduce

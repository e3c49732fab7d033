// src/cpu/parallel.hpp — splitting a strided loop across CPU threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <type_traits>
#include <vector>

#include "iter/layout.hpp"

namespace cunp::cpu {

// Note [CPU threads]: loops over at least kParallelMin elements split the outermost
// axis of their layout into one slab per hardware thread (each slab runs the same
// loop on a smaller layout with its base pointers advanced). Smaller loops stay on the
// calling thread: starting threads costs tens of microseconds.
inline constexpr std::int64_t kParallelMin = std::int64_t{1} << 18;

// The number of threads a loop may use, read once: the hardware threads
// (std::thread::hardware_concurrency() reads /sys on every call, about a microsecond, too
// slow for a small op's path), at most CUNP_NUM_THREADS when that is a positive integer.
inline unsigned hardware_threads() {
  static const unsigned n = [] {
    unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    if (const char* env = std::getenv("CUNP_NUM_THREADS")) {
      char* end = nullptr;
      const long cap = std::strtol(env, &end, 10);
      if (end != env && *end == '\0' && cap > 0) hw = std::min(hw, static_cast<unsigned>(cap));
    }
    return hw;
  }();
  return n;
}

// Whether the calling thread runs a piece of a split loop: a loop inside it (a long row of
// a reduction whose outputs were split) stays on that thread.
inline thread_local bool t_in_split = false;
struct SplitScope {
  bool saved = t_in_split;
  SplitScope() { t_in_split = true; }
  ~SplitScope() { t_in_split = saved; }
  SplitScope(const SplitScope&) = delete;
  SplitScope& operator=(const SplitScope&) = delete;
};

// Runs fn(ctx, k) for every k in [0, pieces) on the thread pool's workers and the
// calling thread (Note [CPU thread pool], parallel.cpp), returning when all have run;
// inline on the calling thread inside a split piece or with one hardware thread. An
// exception of a piece is rethrown here.
using PieceFn = void (*)(void* ctx, std::int64_t k);
void run_pieces(std::int64_t pieces, PieceFn fn, void* ctx);

// run_pieces with a callable: fn(k).
template <typename Fn> void for_pieces(std::int64_t pieces, Fn&& fn) {
  using F = std::remove_reference_t<Fn>;
  run_pieces(pieces, [](void* ctx, std::int64_t k) { (*static_cast<F*>(ctx))(k); }, const_cast<void*>(static_cast<const void*>(&fn)));
}

// Calls fn(sub_layout, sub_ptrs) over pieces covering `layout`; ptrs has one entry per
// operand. Runs inline when the loop is small or the machine has one core. `weight` is
// the elements each point of the layout stands for (a reduction's reduced extent).
template <typename Fn>
void parallel_split(const iter::LoopLayout& layout, char* const* ptrs, Fn&& fn, std::int64_t weight = 1) {
  const int nop = layout.noperands();
  const std::int64_t work = layout.size * weight;
  if (work < kParallelMin || layout.ndim() == 0 || layout.shape[0] < 2 || hardware_threads() == 1 || t_in_split) {
    fn(layout, ptrs);
    return;
  }
  const unsigned hw = hardware_threads();
  const std::int64_t outer = layout.shape[0];
  const std::int64_t pieces = std::min<std::int64_t>({static_cast<std::int64_t>(hw), outer, work / (kParallelMin / 4)});
  if (pieces < 2) {
    fn(layout, ptrs);
    return;
  }
  std::vector<iter::LoopLayout> subs(static_cast<std::size_t>(pieces), layout);
  std::vector<std::vector<char*>> bases(static_cast<std::size_t>(pieces), std::vector<char*>(static_cast<std::size_t>(nop)));
  std::int64_t start = 0;
  for (std::int64_t p = 0; p < pieces; ++p) {
    const std::int64_t len = outer / pieces + (p < outer % pieces ? 1 : 0);
    auto& sub = subs[static_cast<std::size_t>(p)];
    sub.shape[0] = len;
    sub.size = layout.size / outer * len;
    for (int k = 0; k < nop; ++k) {
      bases[static_cast<std::size_t>(p)][static_cast<std::size_t>(k)] = ptrs[k] + start * layout.strides[static_cast<std::size_t>(k)][0];
    }
    start += len;
  }
  for_pieces(pieces, [&](std::int64_t p) { fn(subs[static_cast<std::size_t>(p)], bases[static_cast<std::size_t>(p)].data()); });
}

// Calls fn(begin, end) over pieces covering [0, n): one piece per hardware thread (at most
// n) when `work`, the elements the whole loop touches, reaches kParallelMin, else one
// piece on the calling thread. For loops over rows of uneven length (the sparse
// routines), where the layout split above does not apply.
template <typename Fn>
void parallel_ranges(std::int64_t n, std::int64_t work, Fn&& fn) {
  const std::int64_t hw = hardware_threads();
  const std::int64_t pieces = work < kParallelMin || t_in_split ? 1 : std::min<std::int64_t>(hw, n);
  if (pieces <= 1) {
    if (n > 0) fn(std::int64_t{0}, n);
    return;
  }
  for_pieces(pieces, [&](std::int64_t p) {
    const std::int64_t b = n / pieces * p + std::min(p, n % pieces);
    fn(b, b + n / pieces + (p < n % pieces ? 1 : 0));
  });
}

}  // namespace cunp::cpu

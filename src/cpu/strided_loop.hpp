// src/cpu/strided_loop.hpp — the one n-d walk every CPU loop uses: an odometer over
// the outer axes of a LoopLayout and a tight loop over the innermost one.
#pragma once

#include <cstdint>
#include <vector>

#include "iter/layout.hpp"

namespace cunp::cpu {

// Calls inner(ptrs, n, inner_strides) for each innermost row, where ptrs[k] points to
// operand k's first element of the row. NOP is the operand count.
template <int NOP, typename Inner>
void for_each_row(const iter::LoopLayout& layout, char* const (&base)[NOP], Inner&& inner) {
  if (layout.size == 0) return;
  const int nd = layout.ndim();
  if (nd == 0) {
    const std::int64_t zero[NOP] = {};
    inner(base, std::int64_t{1}, zero);
    return;
  }
  std::int64_t inner_strides[NOP];
  for (int k = 0; k < NOP; ++k) inner_strides[k] = layout.strides[k][nd - 1];
  const std::int64_t n = layout.shape[nd - 1];
  std::vector<std::int64_t> idx(static_cast<std::size_t>(nd), 0);
  char* ptrs[NOP];
  for (int k = 0; k < NOP; ++k) ptrs[k] = base[k];
  while (true) {
    inner(ptrs, n, inner_strides);
    int ax = nd - 2;
    for (; ax >= 0; --ax) {
      const auto a = static_cast<std::size_t>(ax);
      if (++idx[a] < layout.shape[a]) {
        for (int k = 0; k < NOP; ++k) ptrs[k] += layout.strides[k][a];
        break;
      }
      for (int k = 0; k < NOP; ++k) ptrs[k] -= layout.strides[k][a] * (layout.shape[a] - 1);
      idx[a] = 0;
    }
    if (ax < 0) return;
  }
}

}  // namespace cunp::cpu

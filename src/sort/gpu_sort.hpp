// src/sort/gpu_sort.hpp — the CUDA backend of the sorts: CUB radix sorts (device-wide
// and segmented) and a binary-search kernel, compiled by nvcc in src/sort/*.cu. Without
// the CUDA compiler at build time every entry throws NotImplementedError.
#pragma once

#include <optional>

#include "cunp/ndarray.hpp"
#include "cunp/sort.hpp"

namespace cunp::sorting {

// The sorted rows (last axis) of the C-contiguous CUDA array `rows`, as a new array.
ndarray gpu_sort_rows(const ndarray& rows);
// int64 indices (within each row) that sort the rows of `rows` (stable).
ndarray gpu_argsort_rows(const ndarray& rows);
// Insertion points of the C-contiguous `v` into the contiguous 1-d `a` (same dtype),
// read through the contiguous int64 `sorter` when given; `out` is C-contiguous int64.
void gpu_searchsorted(const ndarray& a, const ndarray& v, Side side, const std::optional<ndarray>& sorter,
                      const ndarray& out);

}  // namespace cunp::sorting

// src/sort/cpu_sort.hpp — the cpu backend of the sorts: rows of a C-contiguous array
// (the sorted axis last), sorted with std algorithms in NumPy's order (sort_keys.h).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cunp/ndarray.hpp"
#include "cunp/sort.hpp"

namespace cunp::sorting {

// Sorts every row of the C-contiguous array `rows` in place (stable).
void cpu_sort_rows(const ndarray& rows);
// int64 indices (within each row) that sort the rows of C-contiguous `rows` (stable).
ndarray cpu_argsort_rows(const ndarray& rows);
// Partitions every row in place around the sorted, non-negative `kth` positions.
void cpu_partition_rows(const ndarray& rows, const std::vector<std::int64_t>& kth);
// int64 indices that partition the rows around `kth`.
ndarray cpu_argpartition_rows(const ndarray& rows, const std::vector<std::int64_t>& kth);
// Insertion points of the C-contiguous `v` into the contiguous 1-d `a` (same dtype),
// read through the contiguous int64 `sorter` when given; `out` is C-contiguous int64.
void cpu_searchsorted(const ndarray& a, const ndarray& v, Side side, const std::optional<ndarray>& sorter,
                      const ndarray& out);

}  // namespace cunp::sorting

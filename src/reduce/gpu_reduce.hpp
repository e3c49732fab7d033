// src/reduce/gpu_reduce.hpp — the CUDA engine of the reductions: picks and launches a
// generated kernel (reduce_source.hpp) for a ReduceLayout.
#pragma once

#include "cunp/ndarray.hpp"
#include "reduce/plan.hpp"

namespace cunp::reduce {

// As cpu_reduce, except that `in` may have any dtype: it is read in its storage dtype
// and converted to the accumulator (out_keep's dtype; bool for Any/All) in the kernel.
// Enqueued on the current stream of `in`'s device. With `center` (op Sum, out_keep and
// *center C-ordered of one shape, center of dtype out_keep's, or its complex twin for
// complex input) it sums |x - center|^2 instead: the second pass of var/std.
void gpu_reduce(ReduceOp op, const ReduceLayout& layout, const ndarray& in, const ndarray& out_keep,
                const ndarray* center = nullptr);

}  // namespace cunp::reduce

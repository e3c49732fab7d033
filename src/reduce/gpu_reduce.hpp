// src/reduce/gpu_reduce.hpp — the CUDA engine of the reductions: picks and launches a
// generated kernel (reduce_source.hpp) for a ReduceLayout.
#pragma once

#include "cunp/ndarray.hpp"
#include "reduce/plan.hpp"

namespace cunp::reduce {

// As cpu_reduce, except that `in` may have any dtype: it is read in its storage dtype
// and converted to the accumulator (out_keep's dtype; bool for Any/All) in the kernel.
// Enqueued on the current stream of `in`'s device.
void gpu_reduce(ReduceOp op, const ReduceLayout& layout, const ndarray& in, const ndarray& out_keep);

}  // namespace cunp::reduce

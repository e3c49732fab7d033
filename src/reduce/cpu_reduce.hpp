// src/reduce/cpu_reduce.hpp — the CPU engine of the reductions of plan.hpp.
#pragma once

#include "cunp/ndarray.hpp"
#include "reduce/plan.hpp"

namespace cunp::reduce {

// Reduces `in` into `out_keep` (a keep_shape array) over `layout` (built from them).
// Both have the accumulator dtype (bool for Any/All); for ArgMax/ArgMin `out_keep` is
// int64 and `in` any dtype. Every reduced extent must be non-empty.
void cpu_reduce(ReduceOp op, const ReduceLayout& layout, const ndarray& in, const ndarray& out_keep);

}  // namespace cunp::reduce

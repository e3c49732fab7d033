// src/reduce/cpu_reduce.hpp — the CPU engine of the reductions of plan.hpp.
#pragma once

#include "cunp/ndarray.hpp"
#include "reduce/plan.hpp"

namespace cunp::reduce {

// Reduces `in` into `out_keep` (a keep_shape array) over `layout` (built from them).
// Both have the accumulator dtype (bool for Any/All); for ArgMax/ArgMin `out_keep` is
// int64 and `in` any dtype. Every reduced extent must be non-empty.
void cpu_reduce(ReduceOp op, const ReduceLayout& layout, const ndarray& in, const ndarray& out_keep);

// Note [CPU variance]: the second pass of var/std on the cpu device, sum((a - mean)^2),
// for a C-contiguous float32/float64 `a` whose mean and sum have its dtype: one pass
// over `in` with no temporaries, each element's deviation and square rounded to the
// dtype and summed along the tree sum() would use on the array of squares (the same
// layout, as `a` is C-contiguous), so the result is the composed one's bit for bit.
// `center` is C-ordered of out_keep's shape and dtype (the mean of each output).
void cpu_sum_sqdev(const ReduceLayout& layout, const ndarray& in, const ndarray& out_keep, const ndarray& center);

}  // namespace cunp::reduce

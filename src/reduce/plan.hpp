// src/reduce/plan.hpp — the iterator step of every reduction: axis normalization, the
// result shape, and the two coalesced layouts a reduction walks (the kept axes, over
// which outputs vary, and the reduced axes, over which one output accumulates).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cunp/reduce.hpp"
#include "iter/layout.hpp"

namespace cunp::reduce {

// The reductions the engines implement; everything else (mean, var, ptp, ...) is
// composed from these and ufuncs, as NumPy composes them.
enum class ReduceOp : std::uint8_t {
  Sum,      // ops::add (pairwise for inexact types)
  Prod,     // ops::multiply
  Max,      // ops::maximum: NaN propagates
  Min,      // ops::minimum
  NanSum,   // ops::add, NaN read as 0
  NanProd,  // ops::multiply, NaN read as 1
  NanMax,   // ops::fmax: NaN ignored unless all are NaN
  NanMin,   // ops::fmin
  Any,      // ops::logical_or on bool
  All,      // ops::logical_and on bool
  ArgMax,   // (value, index) pairs, first NaN / first maximum wins
  ArgMin,
};
inline constexpr int kNumReduceOps = 12;

// NumPy's ufunc name of the operation ("add", "maximum"), as error messages spell it.
std::string_view reduce_op_ufunc_name(ReduceOp op) noexcept;
// The src/ops functor the operation combines with ("cunp::ops::add").
std::string_view reduce_op_functor(ReduceOp op, DType dt) noexcept;
bool reduce_op_is_arg(ReduceOp op) noexcept;
bool reduce_op_has_identity(ReduceOp op) noexcept;

// The accumulator and result dtypes of np.sum/prod/min/max/any/all (op) or np.mean
// (op Sum, mean true) of an `in` array, with dtype= when given: NumPy's rules, as
// reduce.cpp applies them (fused reductions use them too).
struct ReductionDTypes {
  DType acc;
  DType result;
};
ReductionDTypes reduction_dtypes(ReduceOp op, bool mean, DType in, std::optional<DType> dtype);

struct ReducePlan {
  std::vector<bool> reduced;  // per input axis
  Shape keep_shape;           // the input's rank, reduced axes of size 1
  Shape out_shape;            // keep_shape, or without the reduced axes
  std::int64_t nred = 1;      // elements reduced into each output
  std::int64_t nout = 1;      // outputs
};

// Normalizes `axes` against a.ndim() (AxisError when out of range, ValueError
// "duplicate value in 'axis'") and computes the shapes.
ReducePlan make_plan(const ndarray& a, const Axes& axes, bool keepdims);

// Note [Reduce layout]: a reduction is two nested walks. `outer` runs over the kept
// axes with operand 0 the output (a keep_shape array) and operand 1 the input, sorted
// and coalesced like any loop; `inner` runs over the reduced axes of the input alone,
// coalesced and (unless keep_order, which argmin/argmax need for C-order indices)
// sorted so its last axis has the smallest stride. CPU loops and GPU kernels both
// consume these; the GPU launcher picks its kernel from the strides they expose.
struct ReduceLayout {
  iter::LoopLayout outer;
  iter::LoopLayout inner;
};
ReduceLayout make_reduce_layout(const ReducePlan& plan, const ndarray& in, const ndarray& out_keep,
                                bool keep_order);

}  // namespace cunp::reduce

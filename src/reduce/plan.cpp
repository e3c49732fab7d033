// src/reduce/plan.cpp — axis normalization and reduction layouts (plan.hpp).
#include "reduce/plan.hpp"

#include <string>

#include "cunp/error.hpp"

namespace cunp::reduce {

std::string_view reduce_op_ufunc_name(ReduceOp op) noexcept {
  switch (op) {
    case ReduceOp::Sum: case ReduceOp::NanSum: return "add";
    case ReduceOp::Prod: case ReduceOp::NanProd: return "multiply";
    case ReduceOp::Max: case ReduceOp::ArgMax: return "maximum";
    case ReduceOp::Min: case ReduceOp::ArgMin: return "minimum";
    case ReduceOp::NanMax: return "fmax";
    case ReduceOp::NanMin: return "fmin";
    case ReduceOp::Any: return "logical_or";
    case ReduceOp::All: return "logical_and";
  }
  return "add";
}

std::string_view reduce_op_functor(ReduceOp op, DType dt) noexcept {
  const bool f16 = dt == DType::Float16;
  switch (op) {
    case ReduceOp::Sum: case ReduceOp::NanSum: return "cunp::ops::add";
    case ReduceOp::Prod: case ReduceOp::NanProd: return "cunp::ops::multiply";
    case ReduceOp::Max: case ReduceOp::ArgMax: return f16 ? "cunp::ops::maximum_f16" : "cunp::ops::maximum";
    case ReduceOp::Min: case ReduceOp::ArgMin: return f16 ? "cunp::ops::minimum_f16" : "cunp::ops::minimum";
    case ReduceOp::NanMax: return f16 ? "cunp::ops::fmax_f16" : "cunp::ops::fmax";
    case ReduceOp::NanMin: return f16 ? "cunp::ops::fmin_f16" : "cunp::ops::fmin";
    case ReduceOp::Any: return "cunp::ops::logical_or";
    case ReduceOp::All: return "cunp::ops::logical_and";
  }
  return "cunp::ops::add";
}

bool reduce_op_is_arg(ReduceOp op) noexcept { return op == ReduceOp::ArgMax || op == ReduceOp::ArgMin; }

bool reduce_op_has_identity(ReduceOp op) noexcept {
  switch (op) {
    case ReduceOp::Sum: case ReduceOp::Prod: case ReduceOp::NanSum: case ReduceOp::NanProd:
    case ReduceOp::Any: case ReduceOp::All:
      return true;
    default:
      return false;
  }
}

ReducePlan make_plan(const ndarray& a, const Axes& axes, bool keepdims) {
  const int nd = a.ndim();
  ReducePlan p;
  p.reduced.assign(static_cast<std::size_t>(nd), axes.is_none());
  if (!axes.is_none()) {
    for (int ax : axes.values()) {
      // NumPy accepts axis 0 / -1 of a 0-d array (the reduction is then over nothing).
      if (nd == 0 && (ax == 0 || ax == -1)) continue;
      if (ax < -nd || ax >= nd) throw AxisError(ax, nd);
      const auto k = static_cast<std::size_t>(ax < 0 ? ax + nd : ax);
      if (p.reduced[k]) throw ValueError("duplicate value in 'axis'");
      p.reduced[k] = true;
    }
  }
  for (int d = 0; d < nd; ++d) {
    const auto k = static_cast<std::size_t>(d);
    const std::int64_t n = a.shape()[k];
    if (p.reduced[k]) {
      p.nred *= n;
      p.keep_shape.push_back(1);
      if (keepdims) p.out_shape.push_back(1);
    } else {
      p.nout *= n;
      p.keep_shape.push_back(n);
      p.out_shape.push_back(n);
    }
  }
  return p;
}

ReduceLayout make_reduce_layout(const ReducePlan& plan, const ndarray& in, const ndarray& out_keep,
                                bool keep_order) {
  Shape kept, red;
  Strides kept_out, kept_in, red_in;
  for (int d = 0; d < in.ndim(); ++d) {
    const auto k = static_cast<std::size_t>(d);
    if (plan.reduced[k]) {
      red.push_back(in.shape()[k]);
      red_in.push_back(in.strides()[k]);
    } else {
      kept.push_back(in.shape()[k]);
      kept_out.push_back(out_keep.strides()[k]);
      kept_in.push_back(in.strides()[k]);
    }
  }
  ReduceLayout l;
  l.outer = iter::make_layout(kept, {kept_out, kept_in});
  l.inner = iter::make_layout(red, {red_in}, keep_order);
  return l;
}

}  // namespace cunp::reduce

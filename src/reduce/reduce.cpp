// src/reduce/reduce.cpp — the public reductions (cunp/reduce.hpp): NumPy's dtype rules,
// empty-reduction rules and out=, over the engines of cpu_reduce / gpu_reduce. mean,
// var, std, ptp, count_nonzero and the nan* statistics are composed from reductions
// and ufuncs exactly as NumPy's _methods.py / nanfunctions.py compose them, so that
// their dtypes and rounding follow NumPy's.
#include "cunp/reduce.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/ufunc.hpp"
#include "reduce/cpu_reduce.hpp"
#include "reduce/gpu_reduce.hpp"
#include "reduce/plan.hpp"

namespace cunp {
namespace {

using reduce::ReduceOp;

// The accumulator of sum/prod without dtype=: small integers and bool widen to the
// default integer (unsigned to uint64), as NumPy's add.reduce does.
DType sum_dtype(DType dt) {
  switch (kind(dt)) {
    case DTypeKind::Bool: case DTypeKind::SignedInt: return DType::Int64;
    case DTypeKind::UnsignedInt: return DType::UInt64;
    default: return dt;
  }
}

Scalar identity_of(ReduceOp op) {
  switch (op) {
    case ReduceOp::Prod: case ReduceOp::NanProd: case ReduceOp::All: return Scalar(true);
    default: return Scalar(false);
  }
}

ndarray finish(ndarray result, const ReduceOptions& o) {
  if (!o.out) return result;
  const ndarray& out = *o.out;
  if (out.shape() != result.shape())
    throw ValueError("output parameter for reduction operation has the wrong shape: expected " +
                     shape_str(result.shape()) + ", got " + shape_str(out.shape()));
  if (out.device() != result.device())
    throw ValueError("out is on " + out.device().str() + " but the input is on " + result.device().str());
  ndarray dst = out;
  dst.assign(result, Casting::Unsafe);
  return out;
}

// Runs one engine operation; `acc` is the accumulator and result dtype.
ndarray run(ReduceOp op, const ndarray& a, const Axes& axis, bool keepdims, DType acc) {
  const reduce::ReducePlan plan = reduce::make_plan(a, axis, keepdims);
  const bool arg = reduce::reduce_op_is_arg(op);
  ndarray out = empty(plan.keep_shape, {.dtype = acc, .order = Order::C, .device = a.device()});
  if (plan.nout > 0 && plan.nred == 0) {
    if (arg)
      throw ValueError(std::string("attempt to get ") + (op == ReduceOp::ArgMax ? "argmax" : "argmin") +
                       " of an empty sequence");
    if (!reduce::reduce_op_has_identity(op))
      throw ValueError("zero-size array to reduction operation " +
                       std::string(reduce::reduce_op_ufunc_name(op)) + " which has no identity");
    out.fill(identity_of(op));
  } else if (plan.nout > 0) {
    if (a.device().is_cuda()) {
      reduce::gpu_reduce(op, reduce::make_reduce_layout(plan, a, out, arg), a, out);
    } else {
      const ndarray in = arg || a.dtype() == acc ? a : a.astype(acc);
      reduce::cpu_reduce(op, reduce::make_reduce_layout(plan, in, out, arg), in, out);
    }
  }
  return out.reshape(plan.out_shape);
}

// where= takes bool arrays only (NumPy's 'safe' cast to bool).
void check_where_dtype(const ReduceOptions& o) {
  if (o.where->dtype() != DType::Bool)
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(o.where->dtype())) +
                    "') to dtype('bool') according to the rule 'safe'");
}

// Note [Reduction where=]: the elements `where` leaves out are replaced by the
// operation's identity (or by `initial` for max/min, which have none, as NumPy
// requires), then the reduction runs as usual.
ndarray masked(ReduceOp op, const ndarray& a, const ReduceOptions& o) {
  if (!o.where) return a;
  check_where_dtype(o);
  if (!reduce::reduce_op_has_identity(op) && !o.initial)
    throw ValueError("reduction operation '" + std::string(reduce::reduce_op_ufunc_name(op)) +
                     "' does not have an identity, so to use a where mask one has to specify 'initial'");
  const Scalar fill = reduce::reduce_op_has_identity(op) ? identity_of(op) : *o.initial;
  ndarray r = where(*o.where, a, Scalar::of(a.dtype(), fill));
  if (r.shape() != a.shape())
    throw ValueError("operands could not be broadcast together: where= of shape " + shape_str(o.where->shape()) +
                     " with an input of shape " + shape_str(a.shape()));
  return r.dtype() == a.dtype() ? r : r.astype(a.dtype());
}

ndarray run_checked(ReduceOp op, const ndarray& a, const ReduceOptions& o, DType acc) {
  const ndarray x = masked(op, a, o);
  if (!o.initial) return finish(run(op, x, o.axis, o.keepdims, acc), o);
  const Scalar init = Scalar::of(acc, *o.initial);
  const reduce::ReducePlan plan = reduce::make_plan(x, o.axis, o.keepdims);
  if (plan.nred == 0) return finish(full(plan.out_shape, init, {.dtype = acc, .device = a.device()}), o);
  const ndarray r = run(op, x, o.axis, o.keepdims, acc);
  const Operand in[2] = {Operand(r), Operand(init)};
  ndarray c = call_ufunc(reduce::reduce_op_ufunc_name(op), in)[0];  // combines `initial`
  return finish(c.dtype() == acc ? c : c.astype(acc), o);
}

ReduceOptions with(const ReduceOptions& o, bool keepdims, std::optional<DType> dtype) {
  ReduceOptions r;
  r.axis = o.axis;
  r.keepdims = keepdims;
  r.dtype = dtype;
  return r;
}

// initial= of the reductions that NumPy gives none (mean, var, std, ...).
void refuse_initial(const ReduceOptions& o, const char* fn) {
  if (o.initial) throw TypeError(std::string(fn) + "() got an unexpected keyword argument 'initial'");
}

// where= and initial= of the reductions that do not take them yet.
void refuse_where_initial(const ReduceOptions& o, const char* fn) {
  if (o.where) throw NotImplementedError(std::string("where= is not supported by cunp's ") + fn + " yet");
  refuse_initial(o, fn);
}

// The number of elements each output reduces.
std::int64_t reduced_count(const ndarray& a, const Axes& axis) {
  return reduce::make_plan(a, axis, false).nred;
}

// |x|^2 as NumPy's _var computes it: x*x for reals, re^2 + im^2 for complex.
ndarray abs_squared(const ndarray& x) {
  if (!is_complex(x.dtype())) return multiply(x, x);
  const ndarray re = real(x), im = imag(x);
  return add(multiply(re, re), multiply(im, im));
}

bool is_int_or_bool(DType dt) { return kind(dt) == DTypeKind::Bool || is_integer(dt); }

// How many elements `where` selects in each output (int64).
ndarray where_count(const ndarray& a, const ReduceOptions& o, bool keepdims) {
  return sum(o.where->broadcast_to(a.shape()), with(o, keepdims, DType::Int64));
}

// Note [GPU variance]: on a GPU the second pass of var/std, sum(|a - mean|^2), is one
// reduction that reads `a` once (the sqdev kernels of gpu_reduce_source.cpp, the
// center read per output from mean_k), with no temporaries of a's size. It applies
// when the difference a - mean_k has a float32/float64/complex dtype T and the sum's
// dtype is T's real dtype (NumPy's: dtype= or that of |a - mean|^2); otherwise, and
// on the CPU, an undefined array is returned and the composed path runs.
ndarray gpu_sum_sqdev(const ndarray& a, const ndarray& mean_k, const ReduceOptions& o, std::optional<DType> dt) {
  if (!a.device().is_cuda()) return {};
  const DType t = promote_types(a.dtype(), mean_k.dtype());
  const bool cx = is_complex(a.dtype());
  DType real_t;
  switch (t) {
    case DType::Float32: case DType::Complex64: real_t = DType::Float32; break;
    case DType::Float64: case DType::Complex128: real_t = DType::Float64; break;
    default: return {};
  }
  if (is_complex(t) != cx || mean_k.dtype() != t || dt.value_or(real_t) != real_t) return {};
  const reduce::ReducePlan plan = reduce::make_plan(a, o.axis, o.keepdims);
  if (plan.nout == 0 || plan.nred == 0) return {};
  const ndarray center = mean_k.is_c_contiguous() ? mean_k : mean_k.copy();
  ndarray out = empty(plan.keep_shape, {.dtype = real_t, .order = Order::C, .device = a.device()});
  reduce::gpu_reduce(ReduceOp::Sum, reduce::make_reduce_layout(plan, a, out, false), a, out, &center);
  return out.reshape(plan.out_shape);
}

// The cpu device's fused second pass (Note [CPU variance], cpu_reduce.hpp), or an
// undefined array where it does not apply.
ndarray cpu_sum_sqdev(const ndarray& a, const ndarray& mean_k, const ReduceOptions& o, std::optional<DType> dt) {
  if (!a.device().is_cpu() || !a.is_c_contiguous()) return {};
  const DType t = a.dtype();
  if ((t != DType::Float32 && t != DType::Float64) || mean_k.dtype() != t || dt.value_or(t) != t) return {};
  const reduce::ReducePlan plan = reduce::make_plan(a, o.axis, o.keepdims);
  if (plan.nout == 0 || plan.nred == 0) return {};
  // The composed path's sum over a temporary of a's layout; a column reduction there
  // (Note [Column reductions]) orders its additions differently: left to it.
  ndarray out = empty(plan.keep_shape, {.dtype = t, .order = Order::C, .device = a.device()});
  const reduce::ReduceLayout layout = reduce::make_reduce_layout(plan, a, out, false);
  if (layout.inner.ndim() > 0 && layout.inner.strides[0].back() != static_cast<std::int64_t>(itemsize(t))) return {};
  const ndarray center = mean_k.is_c_contiguous() ? mean_k : mean_k.copy();
  reduce::cpu_sum_sqdev(layout, a, out, center);
  return out.reshape(plan.out_shape);
}

ndarray var_impl(const ndarray& a, const ReduceOptions& o) {
  std::optional<DType> dt = o.dtype;
  if (!dt && is_int_or_bool(a.dtype())) dt = DType::Float64;
  if (o.where) {
    // NumPy's _var with where=: the selected elements' mean, then the mean of their
    // squared deviations, each divided by the count of selected elements.
    ReduceOptions wk = with(o, true, dt);
    wk.where = o.where;
    ndarray mean_k = sum(a, wk);
    true_divide(mean_k, where_count(a, o, true),
                {.out = {mean_k}, .where = std::nullopt, .dtype = std::nullopt, .casting = Casting::Unsafe});
    ReduceOptions wr = with(o, o.keepdims, dt);
    wr.where = o.where;
    ndarray ret = sum(abs_squared(subtract(a, mean_k)), wr);
    const ndarray dof = maximum(subtract(where_count(a, o, o.keepdims), Scalar(o.ddof)), Scalar(0.0));
    return true_divide(ret, dof, {.out = {ret}, .where = std::nullopt, .dtype = std::nullopt, .casting = Casting::Unsafe});
  }
  const std::int64_t n = reduced_count(a, o.axis);
  ndarray mean_k = sum(a, with(o, true, dt));
  true_divide(mean_k, Scalar(static_cast<double>(n)),
              {.out = {mean_k}, .where = std::nullopt, .dtype = std::nullopt, .casting = Casting::Unsafe});
  ndarray ret = gpu_sum_sqdev(a, mean_k, o, dt);
  if (!ret.defined()) ret = cpu_sum_sqdev(a, mean_k, o, dt);
  if (!ret.defined()) ret = sum(abs_squared(subtract(a, mean_k)), with(o, o.keepdims, dt));
  const double div = std::max(static_cast<double>(n) - o.ddof, 0.0);
  return true_divide(ret, Scalar(div), {.out = {ret}, .where = std::nullopt, .dtype = std::nullopt, .casting = Casting::Unsafe});
}

ndarray nan_count(const ndarray& a, const ReduceOptions& o, bool keepdims) {
  return sum(logical_not(isnan(a)), with(o, keepdims, DType::Int64));
}

ndarray divide_by_count(const ndarray& a, const ndarray& count) {
  ndarray r = a;
  return true_divide(a, count, {.out = {r}, .where = std::nullopt, .dtype = std::nullopt, .casting = Casting::Unsafe});
}

}  // namespace

namespace reduce {

ReductionDTypes reduction_dtypes(ReduceOp op, bool mean, DType in, std::optional<DType> dtype) {
  if (mean) {
    if (dtype) return {*dtype, *dtype};
    if (is_int_or_bool(in)) return {DType::Float64, DType::Float64};
    return {in == DType::Float16 ? DType::Float32 : in, in};
  }
  switch (op) {
    case ReduceOp::Sum: case ReduceOp::Prod: {
      const DType acc = dtype.value_or(sum_dtype(in));
      return {acc, acc};
    }
    case ReduceOp::Any: case ReduceOp::All: return {DType::Bool, DType::Bool};
    default: return {in, in};
  }
}

}  // namespace reduce

ndarray sum(const ndarray& a, const ReduceOptions& o) {
  return run_checked(ReduceOp::Sum, a, o, reduce::reduction_dtypes(ReduceOp::Sum, false, a.dtype(), o.dtype).acc);
}

ndarray prod(const ndarray& a, const ReduceOptions& o) {
  return run_checked(ReduceOp::Prod, a, o, reduce::reduction_dtypes(ReduceOp::Prod, false, a.dtype(), o.dtype).acc);
}

ndarray mean(const ndarray& a, const ReduceOptions& o) {
  refuse_initial(o, "mean");
  const auto [acc, result] = reduce::reduction_dtypes(ReduceOp::Sum, true, a.dtype(), o.dtype);
  ndarray m;
  if (o.where) {
    // NumPy's _mean: the sum of the selected elements over their count.
    ndarray s = run(ReduceOp::Sum, masked(ReduceOp::Sum, a, o), o.axis, o.keepdims, acc);
    const ndarray cnt = where_count(a, o, o.keepdims);
    m = true_divide(s, cnt, {.out = {s}, .where = std::nullopt, .dtype = std::nullopt, .casting = Casting::Unsafe});
  } else {
    const ndarray s = run(ReduceOp::Sum, a, o.axis, o.keepdims, acc);
    const double n = static_cast<double>(reduced_count(a, o.axis));
    m = true_divide(s, Scalar(n));
  }
  if (m.dtype() != result) m = m.astype(result);
  return finish(m, o);
}

ndarray var(const ndarray& a, const ReduceOptions& o) {
  refuse_initial(o, "var");
  return finish(var_impl(a, o), o);
}

ndarray std(const ndarray& a, const ReduceOptions& o) {
  refuse_initial(o, "std");
  ndarray v = var_impl(a, o);
  return finish(sqrt(v, {.out = {v}, .where = std::nullopt, .dtype = std::nullopt, .casting = Casting::Unsafe}), o);
}

ndarray max(const ndarray& a, const ReduceOptions& o) { return run_checked(ReduceOp::Max, a, o, a.dtype()); }
ndarray min(const ndarray& a, const ReduceOptions& o) { return run_checked(ReduceOp::Min, a, o, a.dtype()); }

ndarray ptp(const ndarray& a, const ReduceOptions& o) {
  refuse_where_initial(o, "ptp");
  const ndarray hi = run(ReduceOp::Max, a, o.axis, o.keepdims, a.dtype());
  const ndarray lo = run(ReduceOp::Min, a, o.axis, o.keepdims, a.dtype());
  return finish(subtract(hi, lo), o);
}

namespace {
ndarray arg_reduce(ReduceOp op, const ndarray& a, const ArgReduceOptions& o) {
  const char* fn = op == ReduceOp::ArgMax ? "argmax" : "argmin";
  if (o.dtype && kind(*o.dtype) != DTypeKind::SignedInt)
    throw TypeError("Wrong type (" + std::string(name(*o.dtype)) + ") of arguments for cunp_" + fn +
                    ": dtype= must be a signed integer dtype");
  // NumPy's argmax treats a 0-d array as 1-d: axis 0 and -1 are valid, others name
  // dimension 1.
  if (a.ndim() == 0 && o.axis) normalize_axis(*o.axis, 1);
  const Axes axes = o.axis && a.ndim() > 0 ? Axes(*o.axis) : Axes();
  ndarray r = run(op, a, axes, o.keepdims, DType::Int64);
  if (o.keepdims && !o.axis) r = r.reshape(Shape(static_cast<std::size_t>(a.ndim()), 1));
  if (!o.out) return o.dtype && *o.dtype != DType::Int64 ? r.astype(*o.dtype) : r;
  const ndarray& out = *o.out;
  if (!can_cast(out.dtype(), DType::Int64, Casting::Safe))
    throw TypeError("Cannot cast " + std::string(out.ndim() == 0 ? "scalar" : "array data") + " from dtype('" +
                    std::string(name(out.dtype())) + "') to dtype('int64') according to the rule 'safe'");
  if (out.shape() != r.shape()) throw ValueError(std::string("output array does not match result of np.") + fn + ".");
  if (out.device() != r.device())
    throw ValueError("out is on " + out.device().str() + " but the input is on " + r.device().str());
  ndarray dst = out;
  dst.assign(r, Casting::Unsafe);
  return out;
}

// nanmin/nanmax of integer and bool arrays: NumPy's fmin/fmax reductions, whose errors
// name fmin/fmax; the values are min's and max's.
ndarray exact_nan_extremum(ReduceOp op, const ndarray& a, const ReduceOptions& o) {
  const std::string ufunc(reduce::reduce_op_ufunc_name(op));
  if (!o.initial) {
    if (o.where) {
      check_where_dtype(o);
      throw ValueError("reduction operation '" + ufunc +
                       "' does not have an identity, so to use a where mask one has to specify 'initial'");
    }
    const reduce::ReducePlan plan = reduce::make_plan(a, o.axis, o.keepdims);
    if (plan.nout > 0 && plan.nred == 0)
      throw ValueError("zero-size array to reduction operation " + ufunc + " which has no identity");
  }
  return op == ReduceOp::NanMax ? max(a, o) : min(a, o);
}
}  // namespace

ndarray argmax(const ndarray& a, const ArgReduceOptions& o) { return arg_reduce(ReduceOp::ArgMax, a, o); }
ndarray argmin(const ndarray& a, const ArgReduceOptions& o) { return arg_reduce(ReduceOp::ArgMin, a, o); }

ndarray any(const ndarray& a, const ReduceOptions& o) { return run_checked(ReduceOp::Any, a, o, DType::Bool); }
ndarray all(const ndarray& a, const ReduceOptions& o) { return run_checked(ReduceOp::All, a, o, DType::Bool); }

ndarray count_nonzero(const ndarray& a, const ReduceOptions& o) {
  refuse_where_initial(o, "count_nonzero");
  const ndarray nz = a.dtype() == DType::Bool ? a : a.astype(DType::Bool);
  return finish(run(ReduceOp::Sum, nz, o.axis, o.keepdims, DType::Int64), o);
}

ndarray nansum(const ndarray& a, const ReduceOptions& o) {
  if (!is_inexact(a.dtype())) return sum(a, o);
  return run_checked(ReduceOp::NanSum, a, o, o.dtype.value_or(a.dtype()));
}

ndarray nanprod(const ndarray& a, const ReduceOptions& o) {
  if (!is_inexact(a.dtype())) return prod(a, o);
  return run_checked(ReduceOp::NanProd, a, o, o.dtype.value_or(a.dtype()));
}

ndarray nanmax(const ndarray& a, const ReduceOptions& o) {
  if (!is_inexact(a.dtype())) return exact_nan_extremum(ReduceOp::NanMax, a, o);
  return run_checked(ReduceOp::NanMax, a, o, a.dtype());
}

ndarray nanmin(const ndarray& a, const ReduceOptions& o) {
  if (!is_inexact(a.dtype())) return exact_nan_extremum(ReduceOp::NanMin, a, o);
  return run_checked(ReduceOp::NanMin, a, o, a.dtype());
}

ndarray nanmean(const ndarray& a, const ReduceOptions& o) {
  refuse_initial(o, "nanmean");
  if (!is_inexact(a.dtype())) return mean(a, o);
  if (o.where) {
    // NumPy's nanmean with where=: the non-NaN selected elements over their count.
    const ndarray sel = logical_and(logical_not(isnan(a)), o.where->broadcast_to(a.shape()));
    const ndarray cnt = sum(sel, with(o, o.keepdims, DType::Int64));
    ReduceOptions so = with(o, o.keepdims, o.dtype);
    so.where = o.where;
    return finish(divide_by_count(nansum(a, so), cnt), o);
  }
  const ndarray cnt = nan_count(a, o, o.keepdims);
  const ndarray tot = run(ReduceOp::NanSum, a, o.axis, o.keepdims, o.dtype.value_or(a.dtype()));
  return finish(divide_by_count(tot, cnt), o);
}

namespace {
ndarray nanvar_impl(const ndarray& a, const ReduceOptions& o) {
  const ndarray mask = isnan(a);
  const ndarray arr = where(mask, Scalar(0.0), a);
  const ndarray cnt_k = nan_count(a, o, true);
  const ndarray avg = divide_by_count(sum(arr, with(o, true, o.dtype)), cnt_k);
  ndarray dev = subtract(arr, avg, {.out = {}, .where = std::nullopt, .dtype = std::nullopt, .casting = Casting::Unsafe});
  if (dev.dtype() != a.dtype()) dev = dev.astype(a.dtype());
  dev = where(mask, Scalar(0.0), dev);
  ndarray v = sum(abs_squared(dev), with(o, o.keepdims, o.dtype));
  const ndarray dof = subtract(nan_count(a, o, o.keepdims), Scalar(o.ddof));
  v = divide_by_count(v, dof);
  return where(less_equal(dof, Scalar(std::int64_t{0})), Scalar(std::numeric_limits<double>::quiet_NaN()), v);
}
}  // namespace

namespace {
// nanvar/nanstd with where=: an element left out counts exactly like a NaN, so the
// left-out elements become NaN and the reduction runs without the mask.
ndarray nanvar_masked(const ndarray& a, const ReduceOptions& o) {
  if (!o.where) return nanvar_impl(a, o);
  check_where_dtype(o);
  ReduceOptions r = o;
  r.where.reset();
  return nanvar_impl(where(o.where->broadcast_to(a.shape()), a, Scalar(std::numeric_limits<double>::quiet_NaN())), r);
}
}  // namespace

ndarray nanvar(const ndarray& a, const ReduceOptions& o) {
  refuse_initial(o, "nanvar");
  if (!is_inexact(a.dtype())) return var(a, o);
  return finish(nanvar_masked(a, o), o);
}

ndarray nanstd(const ndarray& a, const ReduceOptions& o) {
  refuse_initial(o, "nanstd");
  if (!is_inexact(a.dtype())) return std(a, o);
  return finish(sqrt(nanvar_masked(a, o)), o);
}

}  // namespace cunp

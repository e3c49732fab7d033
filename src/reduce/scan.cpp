// src/reduce/scan.cpp — the public scans (cumsum, cumprod, nancumsum, nancumprod),
// diff, and ufunc.reduce / ufunc.accumulate (cunp/reduce.hpp): NumPy's axis, dtype
// and out= rules over the engines of scan.hpp.
#include "reduce/scan.hpp"

#include <algorithm>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"
#include "reduce/gpu_scan_source.hpp"
#include "reduce/plan.hpp"
#include "ufunc/ufunc.hpp"

namespace cunp {
namespace {

using reduce::ScanMap;
using reduce::ScanOp;

ndarray finish_scan(ndarray result, const std::optional<ndarray>& out) {
  if (!out) return result;
  if (out->shape() != result.shape())
    throw ValueError("provided out is the wrong size for the accumulation.");
  if (out->device() != result.device())
    throw ValueError("out is on " + out->device().str() + " but the input is on " +
                     result.device().str());
  ndarray dst = *out;
  dst.assign(result, Casting::Unsafe);
  return *out;
}

// Scans `a` along `axis` (empty: the flattened array) into a new array of dtype acc.
ndarray scan(ScanOp op, ScanMap map, const ndarray& a, std::optional<int> axis, DType acc) {
  ndarray x = a;
  int ax = 0;
  if (!axis || a.ndim() == 0) {
    // NumPy treats a 0-d array as 1-d here (axis 0 / -1 accepted).
    if (axis && *axis != 0 && *axis != -1) throw AxisError(*axis, 1);
    x = a.ndim() == 1 ? a : a.reshape(Shape{a.size()});
  } else {
    ax = normalize_axis(*axis, a.ndim());
  }
  ndarray r = empty(x.shape(), {.dtype = acc, .order = Order::C, .device = x.device()});
  if (r.size() == 0) return r;
  if (x.device().is_cuda()) {
    reduce::gpu_scan(op, map, reduce::make_scan_layout(x, r, ax), x, r);
  } else {
    const ndarray in = x.dtype() == acc ? x : x.astype(acc);
    reduce::cpu_scan(op, map, reduce::make_scan_layout(in, r, ax), in, r);
  }
  return r;
}

ndarray scan_checked(ScanOp op, ScanMap map, const ndarray& a, const ScanOptions& o,
                     DType default_acc) {
  return finish_scan(scan(op, map, a, o.axis, o.dtype.value_or(default_acc)), o.out);
}

// The scan operation of a ufunc name; nullopt when it has none.
std::optional<ScanOp> scan_op_of(std::string_view name) {
  for (int k = 0; k < reduce::kNumScanOps; ++k) {
    const auto op = static_cast<ScanOp>(k);
    if (reduce::scan_op_ufunc_name(op) == name) return op;
  }
  return std::nullopt;
}

ScanOp checked_scan_op(std::string_view name, const char* method) {
  if (std::optional<ScanOp> op = scan_op_of(name)) return *op;
  const ufunc::Ufunc* uf = ufunc::find(name);
  if (!uf) throw ValueError("unknown ufunc '" + std::string(name) + "'");
  if (uf->nin != 2 || uf->nout != 1)
    throw ValueError(std::string(method) + " only supported for binary functions");
  throw NotImplementedError("cunp does not implement " + std::string(name) + "." + method);
}

// The accumulator ufunc.accumulate / ufunc.reduce use without dtype=.
DType ufunc_accumulator(ScanOp op, DType in) {
  switch (op) {
    case ScanOp::Add:
    case ScanOp::Multiply:
      return reduce::scan_default_accumulator(in);
    case ScanOp::LogicalAnd:
    case ScanOp::LogicalOr:
    case ScanOp::LogicalXor:
      return DType::Bool;
    case ScanOp::BitwiseAnd:
    case ScanOp::BitwiseOr:
    case ScanOp::BitwiseXor:
      if (kind(in) != DTypeKind::Bool && !is_integer(in))
        throw TypeError("ufunc '" + std::string(reduce::scan_op_ufunc_name(op)) +
                        "' not supported for the input types, and the inputs could not be safely "
                        "coerced to any "
                        "supported types according to the casting rule ''safe''");
      return in;
    default:
      return in;
  }
}

// The identity of the ops reduced through scans (ufunc.reduce of an empty slice).
Scalar scan_identity(ScanOp op) {
  switch (op) {
    case ScanOp::BitwiseAnd:
      return Scalar(std::int64_t{-1});
    case ScanOp::LogicalAnd:
      return Scalar(true);
    case ScanOp::Multiply:
      return Scalar(std::int64_t{1});
    default:
      return Scalar(std::int64_t{0});
  }
}

// ufunc.reduce through scans (logical_xor, bitwise_*): each reduced axis is scanned
// and its last element kept.
ndarray reduce_by_scans(ScanOp op, const ndarray& a, const ReduceOptions& o) {
  const std::string_view uname = reduce::scan_op_ufunc_name(op);
  const DType acc = o.dtype.value_or(ufunc_accumulator(op, a.dtype()));
  const reduce::ReducePlan plan = reduce::make_plan(a, o.axis, o.keepdims);
  ndarray x = a;
  if (o.where) {
    const Scalar fill = Scalar::of(acc, scan_identity(op));
    x = where(*o.where, x.dtype() == acc ? x : x.astype(acc), fill);
    if (x.shape() != a.shape()) throw ValueError("where= does not broadcast to the input's shape");
  }
  for (int d = a.ndim() - 1; d >= 0; --d) {
    if (!plan.reduced[static_cast<std::size_t>(d)]) continue;
    const std::int64_t n = x.shape()[static_cast<std::size_t>(d)];
    if (n == 0) {
      x = full(plan.keep_shape, Scalar::of(acc, scan_identity(op)),
               {.dtype = acc, .device = a.device()});
      break;
    }
    const ndarray s = scan(op, ScanMap::None, x, d, acc);
    std::vector<Index> idx(static_cast<std::size_t>(d), Index(slice()));
    idx.push_back(slice(n - 1, n));
    x = s.view(std::span<const Index>(idx));
  }
  if (x.dtype() != acc) x = x.astype(acc);
  ndarray r = x.reshape(plan.out_shape);
  if (o.initial) {
    const Operand in[2] = {Operand(r), Operand(Scalar::of(acc, *o.initial))};
    r = call_ufunc(uname, in)[0];
  }
  if (!o.out) return r;
  const ndarray& out = *o.out;
  if (out.shape() != r.shape())
    throw ValueError("output parameter for reduction operation " + std::string(uname) +
                     " has the wrong shape: expected " + shape_str(r.shape()) + ", got " +
                     shape_str(out.shape()));
  ndarray dst = out;
  dst.assign(r, Casting::Unsafe);
  return out;
}

}  // namespace

ndarray cumsum(const ndarray& a, const ScanOptions& o) {
  return scan_checked(ScanOp::Add, ScanMap::None, a, o,
                      reduce::scan_default_accumulator(a.dtype()));
}

ndarray cumprod(const ndarray& a, const ScanOptions& o) {
  return scan_checked(ScanOp::Multiply, ScanMap::None, a, o,
                      reduce::scan_default_accumulator(a.dtype()));
}

ndarray nancumsum(const ndarray& a, const ScanOptions& o) {
  const ScanMap map = is_inexact(a.dtype()) ? ScanMap::NanZero : ScanMap::None;
  return scan_checked(ScanOp::Add, map, a, o, reduce::scan_default_accumulator(a.dtype()));
}

ndarray nancumprod(const ndarray& a, const ScanOptions& o) {
  const ScanMap map = is_inexact(a.dtype()) ? ScanMap::NanOne : ScanMap::None;
  return scan_checked(ScanOp::Multiply, map, a, o, reduce::scan_default_accumulator(a.dtype()));
}

ndarray diff(const ndarray& a, const DiffOptions& o) {
  if (o.n == 0) return a;
  if (o.n < 0) throw ValueError("order must be non-negative but got " + std::to_string(o.n));
  if (a.ndim() == 0) throw ValueError("diff requires input that is at least one dimensional");
  const int axis = normalize_axis(o.axis, a.ndim());
  ndarray x = a;
  if (o.prepend || o.append) {
    auto along = [&](const ndarray& v) {
      if (v.ndim() != 0) return v;
      Shape s = a.shape();
      s[static_cast<std::size_t>(axis)] = 1;
      return v.broadcast_to(s);
    };
    std::vector<ndarray> parts;
    if (o.prepend) parts.push_back(along(*o.prepend));
    parts.push_back(a);
    if (o.append) parts.push_back(along(*o.append));
    x = concatenate(parts, axis);
  }
  const bool is_bool = x.dtype() == DType::Bool;
  for (int k = 0; k < o.n; ++k) {
    std::vector<Index> hi(static_cast<std::size_t>(axis), Index(slice()));
    std::vector<Index> lo = hi;
    hi.push_back(slice(1, std::nullopt));
    lo.push_back(slice(std::nullopt, -1));
    const ndarray h = x.view(std::span<const Index>(hi));
    const ndarray l = x.view(std::span<const Index>(lo));
    x = is_bool ? not_equal(h, l) : subtract(h, l);
  }
  return x;
}

ndarray ufunc_accumulate(std::string_view name, const ndarray& a, const ScanOptions& o) {
  const ScanOp op = checked_scan_op(name, "accumulate");
  if (a.ndim() == 0) throw TypeError("cannot accumulate on a scalar");
  const int axis = normalize_axis(o.axis.value_or(0), a.ndim());
  const DType acc = o.dtype.value_or(ufunc_accumulator(op, a.dtype()));
  return finish_scan(scan(op, ScanMap::None, a, axis, acc), o.out);
}

ndarray ufunc_reduce(std::string_view name, const ndarray& a, const ReduceOptions& o) {
  const ScanOp op = checked_scan_op(name, "reduce");
  // Operations with a reduction engine go through the named reductions; the others
  // through scans.
  auto converted = [&]() {
    ReduceOptions r = o;
    if (!o.dtype) return std::pair{a, r};
    r.dtype.reset();
    return std::pair{a.dtype() == *o.dtype ? a : a.astype(*o.dtype), r};
  };
  switch (op) {
    case ScanOp::Add:
      return sum(a, o);
    case ScanOp::Multiply:
      return prod(a, o);
    case ScanOp::Maximum: {
      auto [x, r] = converted();
      return max(x, r);
    }
    case ScanOp::Minimum: {
      auto [x, r] = converted();
      return min(x, r);
    }
    case ScanOp::FMax: {
      auto [x, r] = converted();
      return nanmax(x, r);
    }
    case ScanOp::FMin: {
      auto [x, r] = converted();
      return nanmin(x, r);
    }
    case ScanOp::LogicalAnd:
    case ScanOp::LogicalOr: {
      if (o.initial) return reduce_by_scans(op, a, o);
      auto [x, r] = converted();
      return op == ScanOp::LogicalAnd ? all(x, r) : any(x, r);
    }
    default:
      return reduce_by_scans(op, a, o);
  }
}

}  // namespace cunp

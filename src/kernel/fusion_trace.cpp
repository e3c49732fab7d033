// src/kernel/fusion_trace.cpp — recording a fused function (fusion.hpp's Trace) and the
// traced values of cunp/fuse.hpp. Every node's dtype is resolved here, once per
// signature, by the ufunc registry's own loop resolution (ufunc::resolve_loop) and the
// reductions' dtype rules (reduce::reduction_dtypes), so that a fused function gives
// the dtypes of the same code run op by op.
#include <algorithm>
#include <array>
#include <mutex>
#include <string>

#include "copy/copy.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "kernel/fusion.hpp"
#include "ufunc/execute.hpp"

namespace cunp::fusion {
namespace {

constexpr const char* kPrefix = "cunp.fuse: ";

// An empty cpu array of each dtype: what loop resolution reads of an array operand.
const ndarray& dtype_stand_in(DType dt) {
  static const std::array<ndarray, kNumDTypes> arrays = [] {
    std::array<ndarray, kNumDTypes> a;
    for (int d = 0; d < kNumDTypes; ++d)
      a[static_cast<std::size_t>(d)] =
          empty({0}, {.dtype = static_cast<DType>(d), .device = Device::cpu()});
    return a;
  }();
  return arrays[static_cast<std::size_t>(dt)];
}

// A scalar of an argument's kind: weak scalars resolve by kind only, strong ones by dtype.
Scalar scalar_stand_in(const Node& n) {
  if (!n.weak) return Scalar::of(n.dtype, Scalar(0));
  switch (kind(n.dtype)) {
    case DTypeKind::Bool:
      return Scalar(false);
    case DTypeKind::SignedInt:
      return Scalar(0);
    case DTypeKind::UnsignedInt:
      return Scalar(static_cast<std::uint64_t>(INT64_MAX) + 1);
    case DTypeKind::Float:
      return Scalar(0.0);
    case DTypeKind::Complex:
      return Scalar(std::complex<double>(0, 0));
  }
  return Scalar(0);
}

std::string dtype_str(DType dt) { return "dtype('" + std::string(name(dt)) + "')"; }

}  // namespace

ArgInfo arg_info(const KernelArg& a) {
  if (a.is_array()) {
    if (!a.array().defined())
      throw ValueError(std::string(kPrefix) + "an argument is an undefined array");
    return {true, a.array().dtype(), false, a.array().ndim()};
  }
  return {false, a.scalar().dtype(), a.scalar().weak(), 0};
}

std::string signature_key(std::span<const KernelArg> args) {
  std::string key;
  key.reserve(args.size() * 3);
  for (const KernelArg& a : args) {
    if (a.is_array()) {
      key.push_back('A');
      key.push_back(static_cast<char>(a.array().dtype()));
      key.push_back(static_cast<char>(a.array().ndim()));
    } else {
      key.push_back(a.scalar().weak() ? 'w' : 's');
      key.push_back(static_cast<char>(a.scalar().dtype()));
      key.push_back(0);
    }
  }
  return key;
}

std::optional<ReductionName> reduction_by_name(std::string_view name) noexcept {
  using reduce::ReduceOp;
  if (name == "sum") return ReductionName{ReduceOp::Sum, false};
  if (name == "prod") return ReductionName{ReduceOp::Prod, false};
  if (name == "min" || name == "amin") return ReductionName{ReduceOp::Min, false};
  if (name == "max" || name == "amax") return ReductionName{ReduceOp::Max, false};
  if (name == "mean") return ReductionName{ReduceOp::Sum, true};
  if (name == "any") return ReductionName{ReduceOp::Any, false};
  if (name == "all") return ReductionName{ReduceOp::All, false};
  return std::nullopt;
}

Trace::Trace(std::vector<ArgInfo> args) : args_(std::move(args)) {
  for (std::size_t k = 0; k < args_.size(); ++k) {
    Node n;
    n.kind = NodeKind::Arg;
    n.arg = static_cast<int>(k);
    n.dtype = args_[k].dtype;
    n.array = args_[k].array;
    n.weak = args_[k].weak;
    n.ndim = args_[k].ndim;
    nodes_.push_back(n);
  }
}

int Trace::push(Node n) {
  nodes_.push_back(std::move(n));
  return static_cast<int>(nodes_.size()) - 1;
}

void Trace::check_owner(const Trace* other) const {
  if (other != this)
    throw ValueError(
        std::string(kPrefix) +
        "a traced value of another fused function (or of another call's trace) was used");
}

void Trace::check_operand(int node, std::string_view what) const {
  if (node < 0 || node >= static_cast<int>(nodes_.size()))
    throw ValueError(std::string(kPrefix) + "no traced value " + std::to_string(node));
  if (nodes_[static_cast<std::size_t>(node)].reduced)
    throw NotImplementedError(
        std::string(kPrefix) + "'" + std::string(what) +
        "' after a reduction cannot be fused: a fused function may end in one reduction, "
        "with nothing after it");
}

int Trace::constant(const Scalar& value) {
  Node n;
  n.kind = NodeKind::Constant;
  n.dtype = value.dtype();
  n.array = false;
  n.weak = value.weak();
  n.value = value;
  return push(std::move(n));
}

int Trace::apply(const ufunc::Ufunc& uf, std::span<const int> operands,
                 std::optional<DType> loop_dtype) {
  const std::string uname = uf.display_name();
  if (uf.nout != 1)
    throw NotImplementedError(std::string(kPrefix) + "ufunc '" + uname + "' has " +
                              std::to_string(uf.nout) +
                              " outputs; only ufuncs with one output can be fused");
  if (static_cast<int>(operands.size()) != uf.nin)
    throw TypeError(std::string(kPrefix) + "ufunc '" + uname + "' takes " + std::to_string(uf.nin) +
                    " operands, got " + std::to_string(operands.size()));
  Operand ops[ufunc::kMaxIn] = {Scalar(false), Scalar(false), Scalar(false), Scalar(false)};
  Node n;
  n.kind = NodeKind::Ufunc;
  n.uf = &uf;
  n.nin = uf.nin;
  for (int k = 0; k < uf.nin; ++k) {
    const int in = operands[static_cast<std::size_t>(k)];
    check_operand(in, uname);
    const Node& o = nodes_[static_cast<std::size_t>(in)];
    ops[k] = o.array ? Operand(dtype_stand_in(o.dtype))
                     : Operand(o.kind == NodeKind::Constant ? o.value : scalar_stand_in(o));
    n.in[static_cast<std::size_t>(k)] = in;
    n.ndim = std::max(n.ndim, o.ndim);
  }
  const std::span<const Operand> inputs(ops, static_cast<std::size_t>(uf.nin));
  n.loop = &ufunc::resolve_loop(uf, inputs, loop_dtype, Casting::SameKind);
  n.loop_dtype = loop_dtype;
  // The checks a ufunc call makes of its inputs against the loop (ufunc/execute.cpp).
  for (int k = 0; k < uf.nin; ++k) {
    const Node& o = nodes_[static_cast<std::size_t>(n.in[static_cast<std::size_t>(k)])];
    const DType want = n.loop->in[static_cast<std::size_t>(k)];
    if (o.array || !o.weak) {
      const bool as_truth = uf.role == ufunc::Role::Logical && want == DType::Bool;
      if (!as_truth && !can_cast(o.dtype, want, Casting::SameKind))
        throw TypeError("Cannot cast ufunc '" + uf.name + "' input " + std::to_string(k) +
                        " from " + dtype_str(o.dtype) + " to " + dtype_str(want) +
                        " with casting rule 'same_kind'");
    } else if (o.kind == NodeKind::Constant) {
      detail::check_weak_scalar_fits(o.value, want);
    }
  }
  n.dtype = n.loop->out[0];
  return push(std::move(n));
}

int Trace::cast(int node, DType dtype) {
  check_operand(node, "astype");
  Node n;
  n.kind = NodeKind::Cast;
  n.dtype = dtype;
  n.in[0] = node;
  n.nin = 1;
  n.ndim = nodes_[static_cast<std::size_t>(node)].ndim;
  return push(std::move(n));
}

int Trace::where(int condition, int x, int y) {
  for (int k : {condition, x, y}) check_operand(k, "where");
  int c = condition;
  if (nodes_[static_cast<std::size_t>(condition)].dtype != DType::Bool)
    c = cast(condition, DType::Bool);
  // x and y promote together (NEP 50), as cunp::where does.
  std::vector<DType> strong;
  std::vector<WeakKind> weak;
  for (int k : {x, y}) {
    const Node& o = nodes_[static_cast<std::size_t>(k)];
    if (!o.array && o.weak)
      weak.push_back(o.kind == NodeKind::Constant ? o.value.weak_kind()
                                                  : scalar_stand_in(o).weak_kind());
    else
      strong.push_back(o.dtype);
  }
  const int ops[3] = {c, x, y};
  return apply(ufunc::get("_where"), ops, result_type(strong, weak));
}

int Trace::clip(int a, int a_min, int a_max) {
  check_operand(a, "clip");
  if (a_min < 0 && a_max < 0)
    return cast(a, nodes_[static_cast<std::size_t>(a)].dtype);  // NumPy 2: a copy
  if (a_min < 0) {
    const int ops[2] = {a, a_max};
    return apply(ufunc::get("minimum"), ops);
  }
  if (a_max < 0) {
    const int ops[2] = {a, a_min};
    return apply(ufunc::get("maximum"), ops);
  }
  const int ops[3] = {a, a_min, a_max};
  return apply(ufunc::get("clip"), ops);
}

int Trace::reduce(ReductionName r, int node, const Axes& axis, bool keepdims,
                  std::optional<DType> dtype) {
  const char* what = r.mean ? "mean" : reduce::reduce_op_ufunc_name(r.op).data();
  check_operand(node, what);
  int in = node;
  if (!nodes_[static_cast<std::size_t>(in)].array)
    in = cast(in, nodes_[static_cast<std::size_t>(in)].dtype);
  const Node& src = nodes_[static_cast<std::size_t>(in)];
  Node n;
  n.kind = NodeKind::Reduce;
  n.op = r.op;
  n.mean = r.mean;
  n.in[0] = in;
  n.nin = 1;
  n.axis = axis;
  n.keepdims = keepdims;
  n.reduce_dtype = dtype;
  n.reduced = true;
  // Axes as reduce::make_plan checks them (AxisError, duplicates).
  int nreduced = src.ndim;
  if (!axis.is_none()) {
    std::vector<bool> seen(static_cast<std::size_t>(src.ndim), false);
    for (int a : axis.values()) {
      const int k = normalize_axis(a, src.ndim);
      if (seen[static_cast<std::size_t>(k)]) throw ValueError("duplicate value in 'axis'");
      seen[static_cast<std::size_t>(k)] = true;
    }
    nreduced = static_cast<int>(axis.values().size());
  }
  n.ndim = keepdims ? src.ndim : src.ndim - nreduced;
  const reduce::ReductionDTypes dts = reduce::reduction_dtypes(r.op, r.mean, src.dtype, dtype);
  n.acc = dts.acc;
  n.dtype = dts.result;
  if (r.mean) {
    // mean = sum / count, the division resolved as cunp::mean's true_divide(sum, n).
    const Operand ops[2] = {Operand(dtype_stand_in(dts.acc)), Operand(Scalar(1.0))};
    n.uf = &ufunc::get("true_divide");
    n.loop = &ufunc::resolve_loop(*n.uf, ops, std::nullopt, Casting::SameKind);
  }
  return push(std::move(n));
}

}  // namespace cunp::fusion

// ---- the traced values of cunp/fuse.hpp ------------------------------------------------

namespace cunp::fusion {
namespace {

// The trace of the first Expr among the operands, every Expr checked to share it.
Trace& trace_of(std::initializer_list<const ExprArg*> operands, std::string_view what) {
  Trace* t = nullptr;
  for (const ExprArg* a : operands) {
    if (!a->expr()) continue;
    if (!t)
      t = &a->expr()->trace();
    else
      t->check_owner(&a->expr()->trace());
  }
  if (!t)
    throw TypeError(std::string(kPrefix) + std::string(what) + " needs at least one traced value");
  return *t;
}

std::shared_ptr<Trace> trace_ptr_of(std::initializer_list<const ExprArg*> operands) {
  for (const ExprArg* a : operands)
    if (a->expr()) return a->expr()->trace_ptr();
  return nullptr;
}

int node_of(Trace& t, const ExprArg& a) {
  return a.expr() ? a.expr()->node() : t.constant(a.scalar());
}

Expr reduction(const Expr& e, std::string_view fn, const ReduceOptions& o) {
  const std::string f(fn);
  if (o.out)
    throw NotImplementedError(std::string(kPrefix) + f +
                              "(out=) inside a fused function is not supported");
  if (o.where)
    throw NotImplementedError(std::string(kPrefix) + f +
                              "(where=) inside a fused function is not supported");
  if (o.initial)
    throw NotImplementedError(std::string(kPrefix) + f +
                              "(initial=) inside a fused function is not supported");
  if (o.dtype && f != "sum" && f != "prod" && f != "mean")
    throw TypeError(f + "() got an unexpected keyword argument 'dtype'");
  const std::optional<ReductionName> r = reduction_by_name(fn);
  return Expr(e.trace_ptr(), e.trace().reduce(*r, e.node(), o.axis, o.keepdims, o.dtype));
}

}  // namespace

DType Expr::dtype() const { return trace_->node(node_).dtype; }
int Expr::ndim() const { return trace_->node(node_).ndim; }
Expr Expr::astype(DType dtype) const { return Expr(trace_, trace_->cast(node_, dtype)); }
Expr Expr::sum(const ReduceOptions& o) const { return reduction(*this, "sum", o); }
Expr Expr::prod(const ReduceOptions& o) const { return reduction(*this, "prod", o); }
Expr Expr::min(const ReduceOptions& o) const { return reduction(*this, "min", o); }
Expr Expr::max(const ReduceOptions& o) const { return reduction(*this, "max", o); }
Expr Expr::mean(const ReduceOptions& o) const { return reduction(*this, "mean", o); }
Expr Expr::any(const ReduceOptions& o) const { return reduction(*this, "any", o); }
Expr Expr::all(const ReduceOptions& o) const { return reduction(*this, "all", o); }

Expr apply(std::string_view name, std::initializer_list<ExprArg> operands) {
  std::vector<const ExprArg*> ptrs;
  for (const ExprArg& a : operands) ptrs.push_back(&a);
  Trace* t = nullptr;
  std::shared_ptr<Trace> owner;
  for (const ExprArg* a : ptrs) {
    if (!a->expr()) continue;
    if (!t) {
      t = &a->expr()->trace();
      owner = a->expr()->trace_ptr();
    } else {
      t->check_owner(&a->expr()->trace());
    }
  }
  if (!t)
    throw TypeError(std::string(kPrefix) + std::string(name) + " needs at least one traced value");
  const ufunc::Ufunc& uf = ufunc::get(name);
  std::vector<int> nodes;
  for (const ExprArg* a : ptrs) nodes.push_back(node_of(*t, *a));
  return Expr(owner, t->apply(uf, nodes));
}

Expr where(const ExprArg& condition, const ExprArg& x, const ExprArg& y) {
  Trace& t = trace_of({&condition, &x, &y}, "where");
  const int c = node_of(t, condition), a = node_of(t, x), b = node_of(t, y);
  return Expr(trace_ptr_of({&condition, &x, &y}), t.where(c, a, b));
}

Expr clip(const ExprArg& a, const ExprArg& a_min, const ExprArg& a_max) {
  Trace& t = trace_of({&a, &a_min, &a_max}, "clip");
  const int x = node_of(t, a), lo = node_of(t, a_min), hi = node_of(t, a_max);
  return Expr(trace_ptr_of({&a, &a_min, &a_max}), t.clip(x, lo, hi));
}

// ---- ProgramCache --------------------------------------------------------------------

std::shared_ptr<const Program> ProgramCache::find(const std::string& key) const {
  std::shared_lock lock(mutex_);
  const auto it = programs_.find(key);
  return it == programs_.end() ? nullptr : it->second;
}

std::shared_ptr<const Program> ProgramCache::insert(std::string key,
                                                    std::shared_ptr<const Program> program) {
  std::unique_lock lock(mutex_);
  return programs_.try_emplace(std::move(key), std::move(program)).first->second;
}

std::size_t ProgramCache::size() const {
  std::shared_lock lock(mutex_);
  return programs_.size();
}

}  // namespace cunp::fusion

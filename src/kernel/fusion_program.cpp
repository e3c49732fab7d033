// src/kernel/fusion_program.cpp — running a traced fused function (fusion.hpp's
// Program) and cunp::FusedFunction (cunp/fuse.hpp).
//
// Note [Fused function execution]: on a CUDA device a Program is one ElementwiseKernel
// or ReductionKernel (fusion_source.cpp's text), so broadcasting, out= checks, output
// allocation, axis merging, the layout class, 32/64-bit indexing, the per-object
// kernel memo and the kernel caches are the user kernels'. Kernel objects are kept
// per dtype of the given outputs. The arguments of a call pass straight through
// (arrays and scalars; weak ints once per integer loop dtype that reads them). On the
// cpu device, and for the few shapes one kernel cannot express (no array argument;
// results of different shapes), the same graph runs op by op through the ufuncs and
// reductions, which is exactly the unfused function's evaluation.
#include <algorithm>
#include <mutex>

#include "kernel/user_elementwise.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/reduction_kernel.hpp"
#include "kernel/fusion.hpp"
#include "kernel/fusion_source.hpp"
#include "ufunc/execute.hpp"

namespace cunp::fusion {
namespace {

constexpr const char* kPrefix = "cunp.fuse: ";

std::string dtype_str(DType dt) { return "dtype('" + std::string(name(dt)) + "')"; }

ReduceOptions reduce_options(const Node& n) {
  ReduceOptions o;
  o.axis = n.axis;
  o.keepdims = n.keepdims;
  o.dtype = n.reduce_dtype;
  return o;
}

ndarray run_reduction(const Node& n, const ndarray& a, std::optional<ndarray> out) {
  ReduceOptions o = reduce_options(n);
  o.out = std::move(out);
  if (n.mean) return mean(a, o);
  switch (n.op) {
    case reduce::ReduceOp::Sum:
      return sum(a, o);
    case reduce::ReduceOp::Prod:
      return prod(a, o);
    case reduce::ReduceOp::Min:
      return min(a, o);
    case reduce::ReduceOp::Max:
      return max(a, o);
    case reduce::ReduceOp::Any:
      return any(a, o);
    case reduce::ReduceOp::All:
      return all(a, o);
    default:
      break;
  }
  throw NotImplementedError(std::string(kPrefix) + "unsupported reduction");
}

}  // namespace

struct Program::Kernels {
  FusedKernelText text;
  std::optional<ElementwiseKernel> elementwise;
  std::optional<ReductionKernel> reduction;
};

Program::Program(std::shared_ptr<const Trace> trace, std::vector<int> results, std::string name)
    : trace_(std::move(trace)), results_(std::move(results)), name_(std::move(name)) {
  if (results_.empty())
    throw TypeError(std::string(kPrefix) + "the fused function returned no traced value");
  for (int r : results_) {
    if (r < 0 || r >= static_cast<int>(trace_->nodes().size()))
      throw ValueError(std::string(kPrefix) + "a result is not a value of this trace");
    if (trace_->node(r).kind == NodeKind::Reduce) reduction_ = true;
  }
  if (reduction_ && results_.size() > 1)
    throw NotImplementedError(
        std::string(kPrefix) +
        "a fused function that ends in a reduction returns that one result, not a tuple");
}

std::vector<DType> Program::output_dtypes(const FuseCallOptions& call) const {
  std::vector<DType> dts;
  for (std::size_t o = 0; o < results_.size(); ++o) {
    const DType result = trace_->node(results_[o]).dtype;
    if (call.out.empty()) {
      dts.push_back(result);
      continue;
    }
    const ndarray& out = call.out[o];
    if (!out.defined())
      throw ValueError(std::string(kPrefix) + "out[" + std::to_string(o) + "] is undefined");
    if (!reduction_ && !can_cast(result, out.dtype(), Casting::SameKind))
      throw TypeError("Cannot cast ufunc '" + name_ + "' output from " + dtype_str(result) +
                      " to " + dtype_str(out.dtype()) + " with casting rule 'same_kind'");
    dts.push_back(out.dtype());
  }
  return dts;
}

const Program::Kernels& Program::kernels_for(const std::vector<DType>& out_dtypes) const {
  std::string key;
  for (DType dt : out_dtypes) key.push_back(static_cast<char>(dt));
  {
    std::shared_lock lock(mutex_);
    if (const auto it = kernels_.find(key); it != kernels_.end()) return *it->second;
  }
  auto k = std::make_shared<Kernels>();
  k->text = fused_kernel_text(*trace_, results_, out_dtypes);
  const FusedKernelText& t = k->text;
  if (reduction_) {
    k->reduction.emplace(t.in_params, t.out_params, t.operation, t.reduce_expr, t.post_map_expr,
                         t.identity, name_,
                         ReductionKernelOptions{.reduce_type = t.reduce_type,
                                                .reduce_dims = true,
                                                .preamble = t.preamble,
                                                .options = {"--fmad=false"}});
  } else {
    k->elementwise.emplace(
        t.in_params, t.out_params, t.operation, name_,
        ElementwiseKernelOptions{.options = {"--fmad=false"}, .preamble = t.preamble});
  }
  std::unique_lock lock(mutex_);
  return *kernels_.try_emplace(key, std::move(k)).first->second;
}

std::vector<KernelArg> Program::kernel_args(const Kernels& k, std::span<const KernelArg> args,
                                            const FuseCallOptions& call) const {
  std::vector<KernelArg> kargs;
  kargs.reserve(k.text.params.size() + 1 + call.out.size());
  for (const FusedParam& p : k.text.params) {
    const Node& n = trace_->node(p.node);
    if (n.kind == NodeKind::Constant)
      kargs.emplace_back(n.value);
    else
      kargs.push_back(args[static_cast<std::size_t>(n.arg)]);
  }
  if (k.text.count_param) {
    // mean's divisor: the elements reduced into each output.
    Shape shape;
    std::vector<Shape> shapes;
    const ndarray* first = nullptr;
    for (const FusedParam& p : k.text.params)
      if (p.array) {
        const ndarray& a = args[static_cast<std::size_t>(trace_->node(p.node).arg)].array();
        shapes.push_back(a.shape());
        if (!first) first = &a;
      }
    shape = broadcast_shapes(shapes);
    const Node& r = trace_->node(results_[0]);
    const reduce::ReducePlan plan =
        reduce::make_plan(first->broadcast_to(shape), r.axis, r.keepdims);
    kargs.emplace_back(static_cast<double>(plan.nred));
  }
  for (const ndarray& o : call.out) kargs.emplace_back(o);
  return kargs;
}

std::vector<ndarray> Program::run_unfused(std::span<const KernelArg> args,
                                          const FuseCallOptions& call) const {
  const std::vector<Node>& nodes = trace_->nodes();
  std::vector<bool> live(nodes.size(), false);
  for (int r : results_) live[static_cast<std::size_t>(r)] = true;
  for (std::size_t i = nodes.size(); i-- > 0;)
    if (live[i])
      for (int k = 0; k < nodes[i].nin; ++k)
        live[static_cast<std::size_t>(nodes[i].in[static_cast<std::size_t>(k)])] = true;

  Device device = current_device();
  for (const KernelArg& a : args)
    if (a.is_array()) {
      device = a.array().device();
      break;
    }
  std::vector<std::optional<Operand>> v(nodes.size());
  std::optional<ndarray> reduced;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!live[i]) continue;
    const Node& n = nodes[i];
    auto in = [&](int k) -> const Operand& {
      return *v[static_cast<std::size_t>(n.in[static_cast<std::size_t>(k)])];
    };
    switch (n.kind) {
      case NodeKind::Arg: {
        const KernelArg& a = args[static_cast<std::size_t>(n.arg)];
        v[i] = a.is_array() ? Operand(a.array()) : Operand(a.scalar());
        break;
      }
      case NodeKind::Constant:
        v[i] = Operand(n.value);
        break;
      case NodeKind::Ufunc: {
        Operand ops[ufunc::kMaxIn] = {Scalar(false), Scalar(false), Scalar(false), Scalar(false)};
        for (int k = 0; k < n.nin; ++k) ops[k] = in(k);
        UfuncOptions o;
        o.dtype = n.loop_dtype;
        v[i] = Operand(ufunc::execute(
            *n.uf, std::span<const Operand>(ops, static_cast<std::size_t>(n.nin)), o)[0]);
        break;
      }
      case NodeKind::Cast: {
        const Operand& x = in(0);
        v[i] = Operand(x.is_array() ? x.array().astype(n.dtype)
                                    : full({}, x.scalar(), {.dtype = n.dtype, .device = device}));
        break;
      }
      case NodeKind::Reduce: {
        std::optional<ndarray> out;
        if (!call.out.empty()) out = call.out[0];
        reduced = run_reduction(n, in(0).array(), out);
        v[i] = Operand(*reduced);
        break;
      }
    }
  }
  std::vector<ndarray> results;
  for (std::size_t o = 0; o < results_.size(); ++o) {
    const Node& n = nodes[static_cast<std::size_t>(results_[o])];
    const Operand& r = *v[static_cast<std::size_t>(results_[o])];
    ndarray value;
    if (n.kind == NodeKind::Arg)  // the function returned its argument: a new array, as any result
      value = r.is_array() ? r.array().copy(Order::K)
                           : full({}, r.scalar(), {.dtype = n.dtype, .device = device});
    else
      value = r.array();
    if (call.out.empty() || n.kind == NodeKind::Reduce) {
      results.push_back(n.kind == NodeKind::Reduce && !call.out.empty() ? call.out[0] : value);
      continue;
    }
    ndarray dst = call.out[o];
    if (!can_cast(value.dtype(), dst.dtype(), Casting::SameKind))
      throw TypeError("Cannot cast ufunc '" + name_ + "' output from " + dtype_str(value.dtype()) +
                      " to " + dtype_str(dst.dtype()) + " with casting rule 'same_kind'");
    if (!dst.writeable()) throw ValueError("output array is read-only");
    dst.assign(value, Casting::SameKind);
    results.push_back(dst);
  }
  return results;
}

std::vector<ndarray> Program::run(std::span<const KernelArg> args,
                                  const FuseCallOptions& call) const {
  if (static_cast<int>(args.size()) != trace_->nargs())
    throw TypeError(std::string(kPrefix) + "the traced signature takes " +
                    std::to_string(trace_->nargs()) + " arguments, got " +
                    std::to_string(args.size()));
  if (!call.out.empty() && call.out.size() != results_.size())
    throw ValueError(std::string(kPrefix) + "out= takes " + std::to_string(results_.size()) +
                     " array(s), one per result, got " + std::to_string(call.out.size()));
  std::optional<Device> device;
  bool any_array = false;
  auto add_device = [&](const ndarray& a, const std::string& what) {
    if (!device)
      device = a.device();
    else if (!(*device == a.device()))
      throw ValueError(std::string(kPrefix) + "arguments are on different devices (" +
                       device->str() + " and " + a.device().str() + ", " + what + ")");
  };
  for (std::size_t k = 0; k < args.size(); ++k)
    if (args[k].is_array()) {
      add_device(args[k].array(), "argument " + std::to_string(k));
      any_array = true;
    }
  for (std::size_t o = 0; o < call.out.size(); ++o)
    add_device(call.out[o], "out[" + std::to_string(o) + "]");
  if (!device || !device->is_cuda()) return run_unfused(args, call);

  const std::vector<DType> dts = output_dtypes(call);
  const Kernels& k = kernels_for(dts);
  bool has_array_param = false;
  for (const FusedParam& p : k.text.params) has_array_param |= p.array;
  if (!any_array || !has_array_param) return run_unfused(args, call);
  if (results_.size() > 1) {
    // One loop gives every result the broadcast shape of all arrays; results that
    // depend on fewer arrays may be smaller in the op-by-op code.
    std::vector<Shape> all;
    for (const FusedParam& p : k.text.params)
      if (p.array)
        all.push_back(args[static_cast<std::size_t>(trace_->node(p.node).arg)].array().shape());
    const Shape full_shape = broadcast_shapes(all);
    for (int r : results_) {
      std::vector<Shape> mine;
      std::vector<int> stack{r};
      std::vector<bool> seen(trace_->nodes().size(), false);
      while (!stack.empty()) {
        const int i = stack.back();
        stack.pop_back();
        if (seen[static_cast<std::size_t>(i)]) continue;
        seen[static_cast<std::size_t>(i)] = true;
        const Node& n = trace_->node(i);
        if (n.kind == NodeKind::Arg && n.array)
          mine.push_back(args[static_cast<std::size_t>(n.arg)].array().shape());
        for (int q = 0; q < n.nin; ++q) stack.push_back(n.in[static_cast<std::size_t>(q)]);
      }
      if (broadcast_shapes(mine) != full_shape) return run_unfused(args, call);
    }
  }
  if (reduction_) {
    const Node& r = trace_->node(results_[0]);
    if (!reduce::reduce_op_has_identity(r.op) && !r.mean) {
      // NumPy's error for min/max of an empty slice (the kernel's would name the kernel).
      std::vector<Shape> shapes;
      const ndarray* first = nullptr;
      for (const FusedParam& p : k.text.params)
        if (p.array) {
          const ndarray& a = args[static_cast<std::size_t>(trace_->node(p.node).arg)].array();
          shapes.push_back(a.shape());
          if (!first) first = &a;
        }
      const reduce::ReducePlan plan =
          reduce::make_plan(first->broadcast_to(broadcast_shapes(shapes)), r.axis, r.keepdims);
      if (plan.nout > 0 && plan.nred == 0)
        throw ValueError("zero-size array to reduction operation " +
                         std::string(reduce::reduce_op_ufunc_name(r.op)) +
                         " which has no identity");
    }
    const std::vector<KernelArg> kargs = kernel_args(k, args, call);
    ReductionCallOptions rc;
    rc.axis = r.axis;
    rc.keepdims = r.keepdims;
    rc.stream = call.stream;
    return (*k.reduction)(kargs, rc);
  }
  const std::vector<KernelArg> kargs = kernel_args(k, args, call);
  KernelCallOptions ec;
  ec.stream = call.stream;
  return (*k.elementwise)(kargs, ec);
}

std::string Program::cuda_source(std::span<const KernelArg> args,
                                 const FuseCallOptions& call) const {
  const Kernels& k = kernels_for(output_dtypes(call));
  const std::vector<KernelArg> kargs = kernel_args(k, args, call);
  if (reduction_) {
    const Node& r = trace_->node(results_[0]);
    return k.reduction->cuda_source(
        kargs, {.axis = r.axis, .keepdims = r.keepdims, .stream = std::nullopt});
  }
  return k.elementwise->cuda_source(kargs);
}

}  // namespace cunp::fusion

// ---- cunp::FusedFunction ------------------------------------------------------------

namespace cunp {

struct FusedFunction::Impl {
  FuseOptions options;
  mutable fusion::ProgramCache programs;

  std::shared_ptr<const fusion::Program> program(const Tracer& tracer,
                                                 std::span<const KernelArg> args) const {
    std::string key = fusion::signature_key(args);
    if (std::shared_ptr<const fusion::Program> p = programs.find(key)) return p;
    if (!tracer)
      throw TypeError("cunp.fuse: the fused function cannot be called with " +
                      std::to_string(args.size()) + " arguments");
    std::vector<fusion::ArgInfo> infos;
    for (const KernelArg& a : args) infos.push_back(fusion::arg_info(a));
    auto trace = std::make_shared<fusion::Trace>(std::move(infos));
    std::vector<fusion::Expr> in;
    for (int k = 0; k < trace->nargs(); ++k) in.emplace_back(trace, trace->arg(k));
    const std::vector<fusion::Expr> out = tracer(in);
    std::vector<int> nodes;
    for (const fusion::Expr& e : out) {
      trace->check_owner(&e.trace());
      nodes.push_back(e.node());
    }
    return programs.insert(std::move(key), std::make_shared<fusion::Program>(
                                               trace, std::move(nodes), options.kernel_name));
  }
};

FusedFunction::FusedFunction(FuseOptions options) : impl_(std::make_shared<Impl>()) {
  if (!cuda::user::is_identifier(options.kernel_name))
    throw ValueError("Invalid kernel name: \"" + options.kernel_name + "\"");
  impl_->options = std::move(options);
}

std::vector<ndarray> FusedFunction::call(const Tracer& tracer, std::span<const KernelArg> args,
                                         const FuseCallOptions& call) const {
  return impl_->program(tracer, args)->run(args, call);
}

std::string FusedFunction::cuda_source(const Tracer& tracer, std::span<const KernelArg> args,
                                       const FuseCallOptions& call) const {
  return impl_->program(tracer, args)->cuda_source(args, call);
}

const std::string& FusedFunction::kernel_name() const noexcept {
  return impl_->options.kernel_name;
}
std::size_t FusedFunction::cached_signature_count() const { return impl_->programs.size(); }

}  // namespace cunp

// src/kernel/fusion_source.cpp — see fusion_source.hpp.
//
// Note [Fused kernel source]: the graph becomes one __device__ function in the kernel's
// preamble, called once per element by an ElementwiseKernel (its outputs as
// references) or as the map expression of a ReductionKernel (returning the value to
// reduce). Each node is one line that does what the ufunc loop kernel of that node
// does to one element (elementwise_source.cpp): operands converted to the loop's
// dtypes (float16 computing as float32), the src/ops functor of the loop, the result
// cast to the loop's output dtype, so every intermediate is rounded to its dtype as
// the op-by-op code rounds it. Casts are ops::cast (astype's), outputs are cast to
// the output array's dtype. A reduction folds in the accumulator's compute type with
// the reduction's own functor (reduce_op_functor) and rounds to the accumulator dtype
// at the end; mean divides by the element count with the loop cunp::mean's
// true_divide resolves. Kernels are compiled with --fmad=false, as the ufunc loops.
#include "kernel/fusion_source.hpp"

#include <map>
#include <set>
#include <utility>

#include "cuda/ops_types.hpp"
#include "kernel/user_elementwise.hpp"
#include "cunp/error.hpp"
#include "reduce/plan.hpp"

namespace cunp::fusion {
namespace {

std::string ops_t(DType dt) { return std::string(cuda::ops_type_name(dt)); }
std::string kernel_t(DType dt) { return std::string(cuda::user::kernel_type_name(dt)); }

// A kernel parameter of dtype `dt` as its src/ops value (ElementwiseKernel's float16 is
// a struct of the same bits).
std::string from_param(const std::string& name, DType dt) {
  return dt == DType::Float16 ? "cunp::ops::half{" + name + "._bits}" : name;
}

// A value as the functor of a loop of dtype `loop` receives it (cunp_k::load_as).
std::string load_as(const std::string& v, DType loop) {
  if (loop == DType::Float16)
    return "cunp::ops::half_to_f32(cunp::ops::cast<cunp::ops::half>(" + v + "))";
  return "cunp::ops::cast<" + ops_t(loop) + ">(" + v + ")";
}

// The dtype a scalar is passed in when nothing asks for another: its own.
DType natural_dtype(const Node& n) { return n.dtype; }

class Generator {
 public:
  Generator(const Trace& t, std::span<const int> results) : t_(t), live_(t.nodes().size(), false) {
    for (int r : results) mark(r);
    // Array arguments first (in argument order), then scalars as they are met.
    for (int k = 0; k < t_.nargs(); ++k) {
      const Node& n = t_.node(k);
      if (live_[static_cast<std::size_t>(k)] && n.array)
        params_.push_back({true, k, n.dtype, "x" + std::to_string(k)});
    }
  }

  // The statements computing every live non-scalar node below `stop` (exclusive).
  std::string body(int stop) {
    std::string s;
    for (int i = 0; i < stop; ++i) {
      if (!live_[static_cast<std::size_t>(i)]) continue;
      const Node& n = t_.node(i);
      const std::string v = "  const " + ops_t(n.dtype) + " v" + std::to_string(i) + " = ";
      switch (n.kind) {
        case NodeKind::Arg:
          if (n.array) s += v + from_param("x" + std::to_string(n.arg), n.dtype) + ";\n";
          break;
        case NodeKind::Constant:
          break;
        case NodeKind::Ufunc: {
          header(n.uf->header);
          std::string args;
          for (int k = 0; k < n.nin; ++k)
            args += (k ? ", " : "") + operand(n.in[static_cast<std::size_t>(k)],
                                              n.loop->in[static_cast<std::size_t>(k)]);
          s += v + "cunp::ops::cast<" + ops_t(n.dtype) + ">(" + n.uf->functor_for(*n.loop) + "{}(" +
               args + "));\n";
          break;
        }
        case NodeKind::Cast:
          s += v + "cunp::ops::cast<" + ops_t(n.dtype) + ">(" + value(n.in[0]) + ");\n";
          break;
        case NodeKind::Reduce:
          break;  // the caller folds it
      }
    }
    return s;
  }

  // Node i's value in its own dtype's src/ops type.
  std::string value(int i) {
    const Node& n = t_.node(i);
    if (n.array) return "v" + std::to_string(i);
    const DType dt = natural_dtype(n);
    return from_param(scalar_param(i, dt), dt);
  }

  // Node i as a loop of dtype `loop` reads it.
  std::string operand(int i, DType loop) {
    const Node& n = t_.node(i);
    if (n.array) return load_as("v" + std::to_string(i), loop);
    // A weak int is passed in the integer dtype that reads it (OverflowError on the host
    // when it does not fit, as NumPy raises); other scalars in their own dtype.
    const bool weak_int = n.weak && kind(n.dtype) != DTypeKind::Bool && is_integer(n.dtype);
    const DType dt = weak_int && is_integer(loop) ? loop : natural_dtype(n);
    return load_as(from_param(scalar_param(i, dt), dt), loop);
  }

  void header(const std::string& h) {
    if (h.find('\n') != std::string::npos)
      texts_.insert(h);
    else if (!h.empty())
      headers_.insert(h);
  }

  std::string includes() const {
    std::string s = "#include \"cast.h\"\n#include \"half.h\"\n";
    for (const std::string& h : headers_) s += "#include \"" + h + "\"\n";
    for (const std::string& t : texts_) s += t + "\n";
    return s;
  }

  // "const float& x0, const long long& c1" (the kernel's parameter names).
  std::string signature() const {
    std::string s;
    for (const FusedParam& p : params_)
      s += (s.empty() ? "" : ", ") + std::string("const ") + kernel_t(p.dtype) + "& " + p.name;
    return s;
  }
  std::string call_args() const {
    std::string s;
    for (const FusedParam& p : params_) s += (s.empty() ? "" : ", ") + p.name;
    return s;
  }
  std::string in_params() const {
    std::string s;
    for (const FusedParam& p : params_)
      s += (s.empty() ? "" : ", ") + std::string(name(p.dtype)) + " " + p.name;
    return s;
  }
  std::vector<FusedParam>& params() { return params_; }

 private:
  void mark(int i) {
    if (live_[static_cast<std::size_t>(i)]) return;
    live_[static_cast<std::size_t>(i)] = true;
    const Node& n = t_.node(i);
    for (int k = 0; k < n.nin; ++k) mark(n.in[static_cast<std::size_t>(k)]);
  }

  std::string scalar_param(int node, DType dt) {
    const auto key = std::make_pair(node, dt);
    if (const auto it = scalar_params_.find(key); it != scalar_params_.end())
      return params_[it->second].name;
    params_.push_back({false, node, dt, "c" + std::to_string(scalar_params_.size())});
    scalar_params_.emplace(key, params_.size() - 1);
    return params_.back().name;
  }

  const Trace& t_;
  std::vector<bool> live_;
  std::vector<FusedParam> params_;
  std::map<std::pair<int, DType>, std::size_t> scalar_params_;
  std::set<std::string> headers_;
  std::set<std::string> texts_;
};

// `dst = value` for an output parameter of dtype `dt`.
std::string store(const std::string& dst, DType dt, const std::string& value) {
  if (dt == DType::Float16)
    return "  " + dst + "._bits = cunp::ops::cast<cunp::ops::half>(" + value + ").bits;\n";
  return "  " + dst + " = cunp::ops::cast<" + ops_t(dt) + ">(" + value + ");\n";
}

}  // namespace

FusedKernelText fused_kernel_text(const Trace& trace, std::span<const int> results,
                                  std::span<const DType> out_dtypes) {
  FusedKernelText k;
  const Node& last = trace.node(results[0]);
  if (last.kind != NodeKind::Reduce) {
    Generator g(trace, results);
    const std::string body = g.body(static_cast<int>(trace.nodes().size()));
    std::string stores, outs, out_params, out_args;
    for (std::size_t o = 0; o < results.size(); ++o) {
      const std::string y = "y" + std::to_string(o);
      stores += store(y, out_dtypes[o], g.value(results[o]));
      outs += ", " + kernel_t(out_dtypes[o]) + "& " + y;
      out_params += (o ? ", " : "") + std::string(name(out_dtypes[o])) + " " + y;
      out_args += ", " + y;
    }
    std::string sig = g.signature();
    std::string args = g.call_args();
    if (sig.empty()) {  // no inputs: the outputs alone
      outs.erase(0, 2);
      out_args.erase(0, 2);
    }
    k.preamble = g.includes() + "__device__ __forceinline__ void _cunp_fused(" + sig + outs +
                 ") {\n" + body + stores + "}\n";
    k.operation = "_cunp_fused(" + args + out_args + ")";
    k.in_params = g.in_params();
    k.out_params = out_params;
    k.params = std::move(g.params());
    return k;
  }

  // A reduction: the graph below it is the map.
  const int in = last.in[0];
  const std::vector<int> below{in};
  Generator g(trace, below);
  const std::string body = g.body(in + 1);
  const DType acc = last.acc;
  const DType compute = ufunc::compute_dtype(acc);
  const std::string value = g.value(in);
  const std::string ret = load_as(value, acc);
  k.reduce_type = kernel_t(compute);
  k.preamble = g.includes();
  const ufunc::Ufunc& combine = ufunc::get(reduce::reduce_op_ufunc_name(last.op));
  k.preamble += "#include \"" + combine.header + "\"\n";
  if (last.mean) k.preamble += "#include \"" + last.uf->header + "\"\n";
  k.preamble += "__device__ __forceinline__ " + k.reduce_type + " _cunp_fused_map(" +
                g.signature() + ") {\n" + body + "  return " + ret + ";\n}\n";
  k.operation = "_cunp_fused_map(" + g.call_args() + ")";
  k.reduce_expr = std::string(reduce::reduce_op_functor(last.op, compute)) + "{}(a, b)";
  switch (last.op) {
    case reduce::ReduceOp::Sum:
      k.identity = "0";
      break;
    case reduce::ReduceOp::Prod:
      k.identity = "1";
      break;
    case reduce::ReduceOp::Any:
      k.identity = "false";
      break;
    case reduce::ReduceOp::All:
      k.identity = "true";
      break;
    default:
      k.identity = "";
      break;  // min, max: none (an empty reduction is an error)
  }
  std::string post = "const " + ops_t(acc) + " fz_s = cunp::ops::cast<" + ops_t(acc) + ">(a);\n";
  std::string result = "fz_s";
  if (last.mean) {
    const ufunc::Loop& l = *last.loop;
    post += "      const " + ops_t(l.out[0]) + " fz_m = cunp::ops::cast<" + ops_t(l.out[0]) + ">(" +
            last.uf->functor_for(l) + "{}(" + load_as("fz_s", l.in[0]) + ", " +
            load_as("red_count", l.in[1]) + "));\n";
    result = "fz_m";
    k.count_param = true;
  }
  post += "    " + store("y0", out_dtypes[0], result);
  k.post_map_expr = post;
  k.in_params = g.in_params();
  if (k.count_param)
    k.in_params += (k.in_params.empty() ? "" : ", ") + std::string("float64 red_count");
  k.out_params = std::string(name(out_dtypes[0])) + " y0";
  k.params = std::move(g.params());
  return k;
}

}  // namespace cunp::fusion

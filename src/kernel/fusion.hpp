// src/kernel/fusion.hpp — the graph behind cunp::fuse and cunp.fuse: a Trace records
// what a fused function does with its arguments (ufuncs, casts, one trailing
// reduction) with every dtype resolved as the op-by-op calls would resolve it; a
// Program runs one trace, as one generated kernel on CUDA devices (fusion_source.cpp)
// or op by op on the cpu device.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cunp/fuse.hpp"
#include "cunp/kernel.hpp"
#include "cunp/reduction_kernel.hpp"
#include "reduce/plan.hpp"
#include "ufunc/ufunc.hpp"

namespace cunp::fusion {

// What a trace knows of one argument: array or scalar, dtype, rank; scalars from
// Python or C++ numbers are weak (NEP 50).
struct ArgInfo {
  bool array = true;
  DType dtype = DType::Float64;
  bool weak = false;
  int ndim = 0;
};
ArgInfo arg_info(const KernelArg& a);
// The bytes a signature is cached under: 3 per argument.
std::string signature_key(std::span<const KernelArg> args);

enum class NodeKind : std::uint8_t {
  Arg,       // argument `arg` of the function
  Constant,  // a scalar met while tracing (`x + 1`)
  Ufunc,     // `uf` with loop `loop` on `in`
  Cast,      // in[0].astype(dtype)
  Reduce,    // a reduction of in[0] (the trace's last operation)
};

struct Node {
  NodeKind kind = NodeKind::Arg;
  DType dtype = DType::Float64;  // the value's dtype (a scalar's own dtype)
  bool array = true;             // false: a scalar argument or constant
  bool weak = false;             // a weak scalar
  int ndim = 0;
  int arg = -1;  // Arg
  Scalar value;  // Constant
  const ufunc::Ufunc* uf = nullptr;
  const ufunc::Loop* loop = nullptr;
  std::optional<DType> loop_dtype;  // Ufunc: the dtype= its call passes (where)
  std::array<int, ufunc::kMaxIn> in{-1, -1, -1};
  int nin = 0;
  // Reduce
  reduce::ReduceOp op = reduce::ReduceOp::Sum;
  bool mean = false;
  Axes axis;
  bool keepdims = false;
  std::optional<DType> reduce_dtype;  // dtype= of the call
  DType acc = DType::Float64;
  // A reduction is below this node (nothing may consume it).
  bool reduced = false;
};

// The reductions a trace can end in, by NumPy name ("sum", "amax", ...).
struct ReductionName {
  reduce::ReduceOp op;
  bool mean;
};
std::optional<ReductionName> reduction_by_name(std::string_view name) noexcept;

class Trace {
 public:
  explicit Trace(std::vector<ArgInfo> args);

  int arg(int k) const noexcept { return k; }  // argument k is node k
  int nargs() const noexcept { return static_cast<int>(args_.size()); }
  int constant(const Scalar& value);
  // The ufunc on operand nodes; `loop_dtype` as a ufunc call's dtype=.
  int apply(const ufunc::Ufunc& uf, std::span<const int> operands,
            std::optional<DType> loop_dtype = {});
  int cast(int node, DType dtype);
  int where(int condition, int x, int y);
  int clip(int a, int a_min, int a_max);  // a bound may be -1 (None)
  int reduce(ReductionName r, int node, const Axes& axis, bool keepdims,
             std::optional<DType> dtype);

  const Node& node(int i) const { return nodes_.at(static_cast<std::size_t>(i)); }
  const std::vector<Node>& nodes() const noexcept { return nodes_; }
  const std::vector<ArgInfo>& args() const noexcept { return args_; }
  // The node a traced value of another trace refers to is an error (values of two
  // fused functions, or of two signatures, mixed).
  void check_owner(const Trace* other) const;

 private:
  int push(Node n);
  void check_operand(int node, std::string_view what) const;
  std::vector<ArgInfo> args_;
  std::vector<Node> nodes_;
};

// One traced signature, ready to run: the trace, its result nodes, and the generated
// kernels per dtype of the given outputs.
class Program {
 public:
  Program(std::shared_ptr<const Trace> trace, std::vector<int> results, std::string name);

  std::vector<ndarray> run(std::span<const KernelArg> args, const FuseCallOptions& call) const;
  std::string cuda_source(std::span<const KernelArg> args, const FuseCallOptions& call) const;
  const Trace& trace() const noexcept { return *trace_; }
  const std::vector<int>& results() const noexcept { return results_; }
  bool ends_in_reduction() const noexcept { return reduction_; }

 private:
  struct Kernels;  // the ElementwiseKernel or ReductionKernel of one set of output dtypes
  std::vector<ndarray> run_unfused(std::span<const KernelArg> args,
                                   const FuseCallOptions& call) const;
  std::vector<DType> output_dtypes(const FuseCallOptions& call) const;
  const Kernels& kernels_for(const std::vector<DType>& out_dtypes) const;
  std::vector<KernelArg> kernel_args(const Kernels& k, std::span<const KernelArg> args,
                                     const FuseCallOptions& call) const;

  std::shared_ptr<const Trace> trace_;
  std::vector<int> results_;
  std::string name_;
  bool reduction_ = false;
  mutable std::shared_mutex mutex_;
  mutable std::unordered_map<std::string, std::shared_ptr<const Kernels>> kernels_;
};

// The programs of one fused function, by argument signature.
class ProgramCache {
 public:
  std::shared_ptr<const Program> find(const std::string& key) const;
  std::shared_ptr<const Program> insert(std::string key, std::shared_ptr<const Program> program);
  std::size_t size() const;

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const Program>> programs_;
};

}  // namespace cunp::fusion

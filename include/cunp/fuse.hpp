// cunp/fuse.hpp — kernel fusion (CuPy's cupy.fuse) for C++ callables: a function of
// ufuncs, scalars, where, clip, astype and at most one trailing reduction runs as ONE
// generated kernel, with the dtypes, broadcasting and results of the same code run
// op by op.
//
//   auto dist = cunp::fuse([](auto x, auto y) { return cunp::sqrt((x - y) * (x - y) + 1); });
//   cunp::ndarray d = dist(x, y);                        // one kernel, no temporaries
//   auto total = cunp::fuse([](auto x) { return cunp::sum(x * x, {.axis = 1}); });
#pragma once

#include <complex>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "cunp/kernel.hpp"
#include "cunp/reduce.hpp"
#include "cunp/scalar.hpp"
#include "cunp/stream.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace fusion {

class Trace;  // the graph one trace records (src/kernel/fusion.hpp)

// A value inside a traced function: an argument of the fused function, or the result
// of an operation on traced values and scalars. It knows its dtype and rank, never
// its shape or values.
class Expr {
 public:
  Expr(std::shared_ptr<Trace> trace, int node) : trace_(std::move(trace)), node_(node) {}

  DType dtype() const;
  int ndim() const;
  // a.astype(dtype): ops::cast, as ndarray::astype.
  Expr astype(DType dtype) const;
  // The reductions (NumPy's names): axis, keepdims and (sum, prod, mean) dtype of
  // `options`; out, where, initial and ddof are refused (NotImplementedError). Nothing
  // may follow a reduction.
  Expr sum(const ReduceOptions& options = {}) const;
  Expr prod(const ReduceOptions& options = {}) const;
  Expr min(const ReduceOptions& options = {}) const;
  Expr max(const ReduceOptions& options = {}) const;
  Expr mean(const ReduceOptions& options = {}) const;
  Expr any(const ReduceOptions& options = {}) const;
  Expr all(const ReduceOptions& options = {}) const;

  Trace& trace() const noexcept { return *trace_; }
  const std::shared_ptr<Trace>& trace_ptr() const noexcept { return trace_; }
  int node() const noexcept { return node_; }

 private:
  std::shared_ptr<Trace> trace_;
  int node_ = -1;
};

// An operand of a traced operation: a traced value, or a scalar (C++ numbers are weak,
// like Python scalars: `x + 1` keeps x's dtype).
class ExprArg {
 public:
  ExprArg(const Expr& e) : expr_(e) {}      // NOLINT(google-explicit-constructor)
  ExprArg(const Scalar& s) : scalar_(s) {}  // NOLINT(google-explicit-constructor)
  template <typename T>
  requires std::is_arithmetic_v<T> ExprArg(T v)
      : scalar_(Scalar(v)) {}  // NOLINT(google-explicit-constructor)
  template <typename T>
  ExprArg(std::complex<T> v) : scalar_(Scalar(v)) {}  // NOLINT(google-explicit-constructor)

  const std::optional<Expr>& expr() const noexcept { return expr_; }
  const Scalar& scalar() const noexcept { return scalar_; }

 private:
  std::optional<Expr> expr_;
  Scalar scalar_;
};

// The ufunc `name` (NumPy's name) on traced operands, at least one of them an Expr.
// NotImplementedError for ufuncs with two outputs and after a reduction; TypeError when
// no loop fits the operands' dtypes (as the ufunc call would raise).
Expr apply(std::string_view ufunc, std::initializer_list<ExprArg> operands);
// np.where(condition, x, y) and np.clip(a, a_min, a_max) on traced operands.
Expr where(const ExprArg& condition, const ExprArg& x, const ExprArg& y);
Expr clip(const ExprArg& a, const ExprArg& a_min, const ExprArg& a_max);

template <typename T>
inline constexpr bool is_expr_v = std::is_same_v<std::remove_cvref_t<T>, Expr>;
template <typename T>
concept ExprOperand = is_expr_v<T> || std::is_arithmetic_v<std::remove_cvref_t<T>> ||
    std::is_same_v<std::remove_cvref_t<T>, Scalar> ||
    std::is_same_v<std::remove_cvref_t<T>, std::complex<float>> ||
    std::is_same_v<std::remove_cvref_t<T>, std::complex<double>>;
template <typename... T>
concept AnyExpr = (is_expr_v<T> || ...);

// Operators on traced values (NumPy's: `/` is true_divide, comparisons give bool).
#define CUNP_FUSE_OPERATOR(op, name)                                \
  template <ExprOperand A, ExprOperand B>                           \
  requires AnyExpr<A, B> Expr operator op(const A& a, const B& b) { \
    return apply(name, {ExprArg(a), ExprArg(b)});                   \
  }
CUNP_FUSE_OPERATOR(+, "add")
CUNP_FUSE_OPERATOR(-, "subtract")
CUNP_FUSE_OPERATOR(*, "multiply")
CUNP_FUSE_OPERATOR(/, "true_divide")
CUNP_FUSE_OPERATOR(%, "remainder")
CUNP_FUSE_OPERATOR(&, "bitwise_and")
CUNP_FUSE_OPERATOR(|, "bitwise_or")
CUNP_FUSE_OPERATOR(^, "bitwise_xor")
CUNP_FUSE_OPERATOR(<<, "left_shift")
CUNP_FUSE_OPERATOR(>>, "right_shift")
CUNP_FUSE_OPERATOR(==, "equal")
CUNP_FUSE_OPERATOR(!=, "not_equal")
CUNP_FUSE_OPERATOR(<, "less")
CUNP_FUSE_OPERATOR(<=, "less_equal")
CUNP_FUSE_OPERATOR(>, "greater")
CUNP_FUSE_OPERATOR(>=, "greater_equal")
#undef CUNP_FUSE_OPERATOR
inline Expr operator-(const Expr& x) { return apply("negative", {x}); }
inline Expr operator+(const Expr& x) { return apply("positive", {x}); }
inline Expr operator~(const Expr& x) { return apply("invert", {x}); }

}  // namespace fusion

// Every ufunc of cunp/ufunc.hpp on traced values, under its name (cunp::sqrt(x)).
#define CUNP_FUSE_UNARY(name) \
  inline fusion::Expr name(const fusion::Expr& x) { return fusion::apply(#name, {x}); }
#define CUNP_FUSE_BINARY(name)                                               \
  template <fusion::ExprOperand A, fusion::ExprOperand B>                    \
  requires fusion::AnyExpr<A, B> fusion::Expr name(const A& a, const B& b) { \
    return fusion::apply(#name, {fusion::ExprArg(a), fusion::ExprArg(b)});   \
  }
CUNP_UNARY_UFUNCS(CUNP_FUSE_UNARY)
CUNP_BINARY_UFUNCS(CUNP_FUSE_BINARY)
CUNP_FUSE_BINARY(divide)
CUNP_FUSE_BINARY(mod)
#undef CUNP_FUSE_UNARY
#undef CUNP_FUSE_BINARY
inline fusion::Expr abs(const fusion::Expr& x) { return fusion::apply("absolute", {x}); }
inline fusion::Expr conj(const fusion::Expr& x) { return fusion::apply("conjugate", {x}); }
inline fusion::Expr bitwise_not(const fusion::Expr& x) { return fusion::apply("invert", {x}); }
template <fusion::ExprOperand C, fusion::ExprOperand X, fusion::ExprOperand Y>
requires fusion::AnyExpr<C, X, Y> fusion::Expr where(const C& condition, const X& x, const Y& y) {
  return fusion::where(condition, x, y);
}
template <fusion::ExprOperand A, fusion::ExprOperand L, fusion::ExprOperand H>
requires fusion::AnyExpr<A, L, H> fusion::Expr clip(const A& a, const L& a_min, const H& a_max) {
  return fusion::clip(a, a_min, a_max);
}
inline fusion::Expr sum(const fusion::Expr& a, const ReduceOptions& o = {}) { return a.sum(o); }
inline fusion::Expr prod(const fusion::Expr& a, const ReduceOptions& o = {}) { return a.prod(o); }
inline fusion::Expr min(const fusion::Expr& a, const ReduceOptions& o = {}) { return a.min(o); }
inline fusion::Expr max(const fusion::Expr& a, const ReduceOptions& o = {}) { return a.max(o); }
inline fusion::Expr amin(const fusion::Expr& a, const ReduceOptions& o = {}) { return a.min(o); }
inline fusion::Expr amax(const fusion::Expr& a, const ReduceOptions& o = {}) { return a.max(o); }
inline fusion::Expr mean(const fusion::Expr& a, const ReduceOptions& o = {}) { return a.mean(o); }
inline fusion::Expr any(const fusion::Expr& a, const ReduceOptions& o = {}) { return a.any(o); }
inline fusion::Expr all(const fusion::Expr& a, const ReduceOptions& o = {}) { return a.all(o); }

struct FuseOptions {
  std::string kernel_name = "fused_kernel";  // the generated kernel's name (a C identifier)
};

// Options of one call.
struct FuseCallOptions {
  // Arrays receiving the results (one per result, or none): cast from the result's
  // dtype with 'same_kind' (unsafe for a reduction, as NumPy's reductions cast out=).
  std::vector<ndarray> out;
  std::optional<Stream> stream;  // default: the current stream of the arrays' device
};

// Note [Fused functions]: the non-template core of cunp::fuse, shared with cunp.fuse
// in Python. A call looks up its argument signature (per argument: array or scalar,
// dtype, rank, weak); a new signature is traced once (`tracer` runs the function on
// Exprs) into a graph whose dtypes are resolved as the ufunc calls would resolve them,
// and kept. On a CUDA device the graph becomes one ElementwiseKernel (or, ending in a
// reduction, one ReductionKernel) calling the src/ops functors of the ufuncs, compiled
// once per (graph, dtypes, layout class) and cached; on the cpu device the graph runs
// op by op through the ufuncs, which is the unfused function's own evaluation.
class FusedFunction {
 public:
  using Tracer = std::function<std::vector<fusion::Expr>(std::span<const fusion::Expr>)>;

  explicit FusedFunction(FuseOptions options = {});

  // Runs the fused function on `args` (arrays and scalars); `tracer` is used when the
  // argument signature is new. Returns the results.
  std::vector<ndarray> call(const Tracer& tracer, std::span<const KernelArg> args,
                            const FuseCallOptions& call = {}) const;
  // The CUDA source a call with these arguments compiles (no GPU needed; the arrays may
  // be on any device).
  std::string cuda_source(const Tracer& tracer, std::span<const KernelArg> args,
                          const FuseCallOptions& call = {}) const;

  const std::string& kernel_name() const noexcept;
  std::size_t cached_signature_count() const;

  struct Impl;  // opaque; copies share it

 private:
  std::shared_ptr<Impl> impl_;
};

namespace fusion {
template <typename R>
std::vector<Expr> results_of(R&& r) {
  if constexpr (std::is_same_v<std::remove_cvref_t<R>, Expr>) {
    return {std::forward<R>(r)};
  } else {
    return std::apply([](auto&&... e) { return std::vector<Expr>{Expr(e)...}; },
                      std::forward<R>(r));
  }
}
}  // namespace fusion

// The callable cunp::fuse returns: f(args...) runs the fused function (one result: an
// ndarray; a std::tuple of Exprs: a vector of ndarrays); f.call(args, options) takes
// out= and a stream.
template <typename F>
class Fused {
 public:
  Fused(F f, FuseOptions options) : f_(std::move(f)), fn_(std::move(options)) {}

  template <typename... A>
  auto operator()(const A&... a) const {
    const KernelArg args[] = {KernelArg(a)...};
    std::vector<ndarray> r = fn_.call(tracer<sizeof...(A)>(), args);
    if constexpr (returns_one<sizeof...(A)>())
      return std::move(r[0]);
    else
      return r;
  }
  template <std::size_t N>
  std::vector<ndarray> call(const KernelArg (&args)[N], const FuseCallOptions& options) const {
    return fn_.call(tracer<N>(), args, options);
  }
  std::vector<ndarray> call(std::span<const KernelArg> args,
                            const FuseCallOptions& options = {}) const {
    return fn_.call(tracer_for(args.size()), args, options);
  }
  template <typename... A>
  std::string cuda_source(const A&... a) const {
    const KernelArg args[] = {KernelArg(a)...};
    return fn_.cuda_source(tracer<sizeof...(A)>(), args);
  }
  const FusedFunction& function() const noexcept { return fn_; }

 private:
  template <std::size_t N>
  static constexpr bool returns_one() {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return fusion::is_expr_v<
          std::invoke_result_t<const F&, decltype((void)I, std::declval<fusion::Expr>())...>>;
    }
    (std::make_index_sequence<N>{});
  }
  template <std::size_t N>
  FusedFunction::Tracer tracer() const {
    return [this](std::span<const fusion::Expr> in) {
      return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return fusion::results_of(f_(in[I]...));
      }
      (std::make_index_sequence<N>{});
    };
  }
  // Runtime arities up to 8 for the vector form.
  FusedFunction::Tracer tracer_for(std::size_t n) const {
    switch (n) {
      case 1:
        return tracer_if<1>();
      case 2:
        return tracer_if<2>();
      case 3:
        return tracer_if<3>();
      case 4:
        return tracer_if<4>();
      case 5:
        return tracer_if<5>();
      case 6:
        return tracer_if<6>();
      case 7:
        return tracer_if<7>();
      case 8:
        return tracer_if<8>();
      default:
        return nullptr;
    }
  }
  template <std::size_t N>
  FusedFunction::Tracer tracer_if() const {
    if constexpr ([]<std::size_t... I>(std::index_sequence<I...>) {
                    return std::is_invocable_v<const F&,
                                               decltype((void)I, std::declval<fusion::Expr>())...>;
                  }(std::make_index_sequence<N>{}))
      return tracer<N>();
    else
      return nullptr;
  }

  F f_;
  FusedFunction fn_;
};

// cupy.fuse for C++: `f` is a callable of traced values (a generic lambda), called once
// per new argument signature. The result runs it as one kernel (see FusedFunction).
template <typename F>
Fused<std::decay_t<F>> fuse(F&& f, FuseOptions options = {}) {
  return Fused<std::decay_t<F>>(std::forward<F>(f), std::move(options));
}

}  // namespace cunp

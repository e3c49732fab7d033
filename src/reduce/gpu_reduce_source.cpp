// src/reduce/gpu_reduce_source.cpp — see gpu_reduce_source.hpp.
#include "reduce/gpu_reduce_source.hpp"

#include <iterator>

#include "cuda/kernel_common.hpp"
#include "cuda/ops_types.hpp"
#include "ufunc/ufunc.hpp"
#include "reduce/gpu_reduce_templates.hpp"

namespace cunp::reduce {
namespace {

// Note [Reduce kernels] is in gpu_reduce_templates.hpp.
constexpr std::string_view kTemplates = templates::kReduce;

std::string str(std::string_view s) { return std::string(s); }

std::string_view op_code(ReduceOp op) noexcept {
  switch (op) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Prod: return "prod";
    case ReduceOp::Max: return "max";
    case ReduceOp::Min: return "min";
    case ReduceOp::NanSum: return "nansum";
    case ReduceOp::NanProd: return "nanprod";
    case ReduceOp::NanMax: return "nanmax";
    case ReduceOp::NanMin: return "nanmin";
    case ReduceOp::Any: return "any";
    case ReduceOp::All: return "all";
    case ReduceOp::ArgMax: return "argmax";
    case ReduceOp::ArgMin: return "argmin";
  }
  return "sum";
}

std::string_view kind_code(ReduceKernelKind k) noexcept {
  switch (k) {
    case ReduceKernelKind::Row: return "row";
    case ReduceKernelKind::RowVector: return "rowv";
    case ReduceKernelKind::Col: return "col";
    case ReduceKernelKind::ColVector: return "colv";
    case ReduceKernelKind::ColFinish: return "colfin";
    case ReduceKernelKind::FullVector: return "fullv";
    case ReduceKernelKind::FullStrided: return "fulls";
    case ReduceKernelKind::FullFinish: return "fullfin";
    case ReduceKernelKind::FullSmall: return "small";
  }
  return "row";
}

// The reducer type of the preamble for a spec.
std::string reducer_type(const ReduceKernelSpec& spec) {
  const std::string s = str(cuda::ops_type_name(spec.in));
  if (spec.center) return "cunp_r::sqdev<" + str(cuda::ops_type_name(spec.acc)) + ", " + s + ">";
  if (reduce_op_is_arg(spec.op))
    return "cunp_r::argfold<" + std::string(spec.op == ReduceOp::ArgMax ? "true" : "false") + ", " + s + ">";
  const int map = spec.op == ReduceOp::NanSum ? 1 : spec.op == ReduceOp::NanProd ? 2 : 0;
  return "cunp_r::fold<" + str(reduce_op_functor(spec.op, spec.acc)) + ", " +
         str(cuda::ops_type_name(spec.acc)) + ", " + s + ", " + std::to_string(map) + ">";
}

constexpr DType kAllDTypes[] = {DType::Bool,    DType::Int8,      DType::UInt8,     DType::Int16,
                                DType::UInt16,  DType::Int32,     DType::UInt32,    DType::Int64,
                                DType::UInt64,  DType::Float16,   DType::Float32,   DType::Float64,
                                DType::Complex64, DType::Complex128};
static_assert(std::size(kAllDTypes) == kNumDTypes);

}  // namespace

std::string reduce_kernel_name(const ReduceKernelSpec& spec) {
  const std::string_view op = spec.center ? std::string_view("sqdev") : op_code(spec.op);
  return "cunp_red_" + str(op) + "_" + str(cuda::ops_type_code(spec.in)) + "_" +
         str(cuda::ops_type_code(spec.acc)) + "_" + str(kind_code(spec.kind));
}

std::string reduce_preamble() {
  std::string s = "#include \"cast.h\"\n#include \"ufunc_arith.h\"\n#include \"ufunc_compare.h\"\n";
  s += cuda::kernel_helpers_source();
  s += kTemplates;
  return s;
}

std::string reduce_kernel_entry(const ReduceKernelSpec& spec) {
  const std::string name = reduce_kernel_name(spec);
  const std::string r = reducer_type(spec);
  const std::string s = str(cuda::ops_type_name(spec.in));
  std::string e = "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kReduceBlockSize) +
                  ") " + name + "(";
  constexpr std::string_view po = "const __grid_constant__ cunp_r::P2 po";
  constexpr std::string_view pi = "const __grid_constant__ cunp_r::P1 pi";
  constexpr std::string_view ctr = "const char* ctr, ";
  switch (spec.kind) {
    case ReduceKernelKind::Row:
      e += "char* out, const char* in, " + str(ctr) + str(po) + ", " + str(pi) +
           ", long long nout, long long nred, int g) {\n  cunp_r::row<" + r +
           ">(out, in, ctr, po, pi, nout, nred, g);\n}\n";
      break;
    case ReduceKernelKind::RowVector:
      e += "char* out, const char* in, " + str(ctr) + str(po) +
           ", long long nout, long long nred, int g) {\n  cunp_r::row_vector<" + r + ", " + s +
           ">(out, in, ctr, po, nout, nred, g);\n}\n";
      break;
    case ReduceKernelKind::Col:
      e += "char* out, char* ws, const char* in, " + str(ctr) + str(po) + ", " + str(pi) +
           ", long long nout, long long nred, long long chunk) {\n  cunp_r::col<" + r +
           ">(out, ws, in, ctr, po, pi, nout, nred, chunk);\n}\n";
      break;
    case ReduceKernelKind::ColVector:
      e += "char* out, char* ws, const char* in, " + str(ctr) + str(po) + ", " + str(pi) +
           ", long long nout, long long nred, long long chunk, long long ostride) {\n"
           "  cunp_r::col_vector<" +
           r + ", " + s + ">(out, ws, in, ctr, po, pi, nout, nred, chunk, ostride);\n}\n";
      break;
    case ReduceKernelKind::ColFinish:
      e += "char* out, const char* ws, " + str(po) + ", long long nout, int splits) {\n  cunp_r::col_finish<" +
           r + ">(out, ws, po, nout, splits);\n}\n";
      break;
    case ReduceKernelKind::FullVector:
      e += "char* ws, const char* in, " + str(ctr) + "long long n, long long head) {\n  cunp_r::full_vector<" +
           r + ", " + s + ">(ws, in, ctr, n, head);\n}\n";
      break;
    case ReduceKernelKind::FullStrided:
      e += "char* ws, const char* in, " + str(ctr) + str(pi) + ", long long n) {\n  cunp_r::full_strided<" + r +
           ">(ws, in, ctr, pi, n);\n}\n";
      break;
    case ReduceKernelKind::FullFinish:
      e += "char* out, const char* ws, int nparts) {\n  cunp_r::full_finish<" + r + ">(out, ws, nparts);\n}\n";
      break;
    case ReduceKernelKind::FullSmall:
      e += "char* out, const char* in, " + str(ctr) + str(pi) + ", long long n) {\n  cunp_r::full_small<" + r +
           ">(out, in, ctr, pi, n);\n}\n";
      break;
  }
  return e;
}

cuda::CompileOptions reduce_compile_options() {
  cuda::CompileOptions o;
  o.extra_options.push_back("--fmad=false");
  return o;
}

cuda::KernelSource reduce_kernel_source(const ReduceKernelSpec& spec) {
  cuda::KernelSource k;
  k.kernel_name = reduce_kernel_name(spec);
  k.source = reduce_preamble() + reduce_kernel_entry(spec);
  k.options = reduce_compile_options();
  return k;
}

cuda::KernelKey reduce_kernel_key(const ReduceKernelSpec& spec, int arch) noexcept {
  cuda::KernelKey key;
  key.op = cuda::op_id("cunp.reduce");
  key.variant = static_cast<std::uint64_t>(spec.op) | static_cast<std::uint64_t>(spec.kind) << 8 |
                static_cast<std::uint64_t>(spec.center) << 16;
  key.dtypes[0] = static_cast<std::uint8_t>(spec.in);
  key.dtypes[1] = static_cast<std::uint8_t>(spec.acc);
  key.ndim = kReduceMaxDims;
  key.layout = spec.kind == ReduceKernelKind::FullVector || spec.kind == ReduceKernelKind::RowVector ||
                       spec.kind == ReduceKernelKind::ColVector
                   ? cuda::LayoutClass::Contiguous
                                                         : cuda::LayoutClass::Strided;
  key.index_bits = 64;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

std::vector<DType> reduce_default_accumulators(ReduceOp op, DType in) {
  const DTypeKind k = kind(in);
  const bool inexact = k == DTypeKind::Float || k == DTypeKind::Complex;
  switch (op) {
    case ReduceOp::Sum: case ReduceOp::Prod: {
      DType acc = in;
      if (k == DTypeKind::Bool || k == DTypeKind::SignedInt) acc = DType::Int64;
      if (k == DTypeKind::UnsignedInt) acc = DType::UInt64;
      std::vector<DType> r{acc};
      // mean: float64 for bool and integers, float32 for float16.
      if (op == ReduceOp::Sum) {
        if (k == DTypeKind::Bool || is_integer(in)) r.push_back(DType::Float64);
        if (in == DType::Float16) r.push_back(DType::Float32);
      }
      return r;
    }
    case ReduceOp::Max: case ReduceOp::Min: return {in};
    case ReduceOp::NanSum: case ReduceOp::NanProd: case ReduceOp::NanMax: case ReduceOp::NanMin:
      if (inexact) return {in};
      return {};
    case ReduceOp::Any: case ReduceOp::All: return {DType::Bool};
    case ReduceOp::ArgMax: case ReduceOp::ArgMin: return {DType::Int64};
  }
  return {};
}

std::vector<DType> reduce_sqdev_accumulators(DType in) {
  switch (in) {
    case DType::Float16: return {};
    case DType::Float32: case DType::Complex64: return {DType::Float32};
    default: return {DType::Float64};
  }
}

std::vector<ReduceKernelSpec> builtin_reduce_specs() {
  std::vector<ReduceKernelSpec> specs;
  for (int o = 0; o < kNumReduceOps; ++o) {
    const auto op = static_cast<ReduceOp>(o);
    for (DType in : kAllDTypes)
      for (DType acc : reduce_default_accumulators(op, in))
        for (int k = 0; k < kNumReduceKernelKinds; ++k)
          specs.push_back({.op = op, .in = in, .acc = acc, .kind = static_cast<ReduceKernelKind>(k)});
  }
  for (DType in : kAllDTypes)
    for (DType acc : reduce_sqdev_accumulators(in))
      for (int k = 0; k < kNumReduceKernelKinds; ++k)
        specs.push_back({.op = ReduceOp::Sum,
                         .in = in,
                         .acc = acc,
                         .kind = static_cast<ReduceKernelKind>(k),
                         .center = true});
  return specs;
}

}  // namespace cunp::reduce

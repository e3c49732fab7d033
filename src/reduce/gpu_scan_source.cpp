// src/reduce/gpu_scan_source.cpp — see gpu_scan_source.hpp.
#include "reduce/gpu_scan_source.hpp"

#include <iterator>

#include "cuda/ops_types.hpp"
#include "reduce/gpu_reduce_source.hpp"
#include "ufunc/ufunc.hpp"
#include "reduce/gpu_scan_templates.hpp"

namespace cunp::reduce {
namespace {

// Note [Scan kernels] is in gpu_scan_templates.hpp.
constexpr std::string_view kTemplates = templates::kScan;

std::string str(std::string_view s) { return std::string(s); }

std::string_view kind_code(ScanKernelKind k) noexcept {
  switch (k) {
    case ScanKernelKind::LineScan:
      return "linescan";
    case ScanKernelKind::LineReduce:
      return "linered";
    case ScanKernelKind::BlockScan:
      return "blockscan";
    case ScanKernelKind::BlockReduce:
      return "blockred";
    case ScanKernelKind::Spine:
      return "spine";
    case ScanKernelKind::Chained:
      return "chained";
  }
  return "linescan";
}

std::string scanner_type(const ScanKernelSpec& spec) {
  const int map = spec.map == ScanMap::NanZero ? 1 : spec.map == ScanMap::NanOne ? 2 : 0;
  return "cunp_s::scanner<" + str(scan_op_functor(spec.op, spec.acc)) + ", " +
         str(cuda::ops_type_name(spec.acc)) + ", " + str(cuda::ops_type_name(spec.in)) + ", " +
         std::to_string(map) + ">";
}

constexpr DType kAllDTypes[] = {DType::Bool,      DType::Int8,      DType::UInt8,   DType::Int16,
                                DType::UInt16,    DType::Int32,     DType::UInt32,  DType::Int64,
                                DType::UInt64,    DType::Float16,   DType::Float32, DType::Float64,
                                DType::Complex64, DType::Complex128};
static_assert(std::size(kAllDTypes) == kNumDTypes);

}  // namespace

std::string scan_kernel_name(const ScanKernelSpec& spec) {
  std::string op = str(scan_op_ufunc_name(spec.op));
  if (spec.map != ScanMap::None) op = "nan" + op;
  return "cunp_scan_" + op + "_" + str(cuda::ops_type_code(spec.in)) + "_" +
         str(cuda::ops_type_code(spec.acc)) + "_" + str(kind_code(spec.kind));
}

std::string scan_preamble() {
  // The reductions' preamble brings the ops headers, the strided helpers and the
  // conversion helpers (cunp_r::to_acc, cunp_r::is_nan) the scans share.
  std::string s = "#include \"ufunc_bits.h\"\n";
  s += reduce_preamble();
  s += kTemplates;
  return s;
}

std::string scan_kernel_entry(const ScanKernelSpec& spec) {
  const std::string name = scan_kernel_name(spec);
  const std::string r = scanner_type(spec);
  std::string e = "extern \"C\" __global__ void __launch_bounds__(" +
                  std::to_string(kScanBlockSize) + ") " + name + "(";
  constexpr std::string_view po = "const __grid_constant__ cunp_s::P2 po";
  switch (spec.kind) {
    case ScanKernelKind::LineScan:
      e += "char* out, const char* ws, const char* in, " + str(po) +
           ", long long nlines, long long n, long long si, long long so, long long chunk) {\n  "
           "cunp_s::line_scan<" +
           r + ">(out, ws, in, po, nlines, n, si, so, chunk);\n}\n";
      break;
    case ScanKernelKind::LineReduce:
      e += "char* ws, const char* in, " + str(po) +
           ", long long nlines, long long n, long long si, long long chunk) {\n  "
           "cunp_s::line_reduce<" +
           r + ">(ws, in, po, nlines, n, si, chunk);\n}\n";
      break;
    case ScanKernelKind::BlockScan:
      e += "char* out, const char* ws, const char* in, " + str(po) +
           ", long long nlines, long long n, long long si, long long so, long long chunk) {\n  "
           "cunp_s::block_scan<" +
           r + ">(out, ws, in, po, nlines, n, si, so, chunk);\n}\n";
      break;
    case ScanKernelKind::BlockReduce:
      e += "char* ws, const char* in, " + str(po) +
           ", long long nlines, long long n, long long si, long long chunk) {\n  "
           "cunp_s::block_reduce<" +
           r + ">(ws, in, po, nlines, n, si, chunk);\n}\n";
      break;
    case ScanKernelKind::Spine:
      e += "char* ws, long long nlines, int nchunks) {\n  cunp_s::spine<" + r +
           ">(ws, nlines, nchunks);\n}\n";
      break;
    case ScanKernelKind::Chained:
      e += "char* out, char* ws, const char* in, long long n, long long si, long long so, long long ntiles) "
           "{\n  cunp_s::chained_scan<" +
           r + ">(out, ws, in, n, si, so, ntiles);\n}\n";
      break;
  }
  return e;
}

cuda::CompileOptions scan_compile_options() { return reduce_compile_options(); }

cuda::KernelSource scan_kernel_source(const ScanKernelSpec& spec) {
  cuda::KernelSource k;
  k.kernel_name = scan_kernel_name(spec);
  k.source = scan_preamble() + scan_kernel_entry(spec);
  k.options = scan_compile_options();
  return k;
}

cuda::KernelKey scan_kernel_key(const ScanKernelSpec& spec, int arch) noexcept {
  cuda::KernelKey key;
  key.op = cuda::op_id("cunp.scan");
  key.variant = static_cast<std::uint64_t>(spec.op) | static_cast<std::uint64_t>(spec.kind) << 8 |
                static_cast<std::uint64_t>(spec.map) << 16;
  key.dtypes[0] = static_cast<std::uint8_t>(spec.in);
  key.dtypes[1] = static_cast<std::uint8_t>(spec.acc);
  key.ndim = 64;
  key.layout = cuda::LayoutClass::Strided;
  key.index_bits = 64;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

std::size_t scan_state_bytes(DType acc) noexcept { return itemsize(ufunc::compute_dtype(acc)); }

DType scan_default_accumulator(DType in) noexcept {
  switch (kind(in)) {
    case DTypeKind::Bool:
    case DTypeKind::SignedInt:
      return DType::Int64;
    case DTypeKind::UnsignedInt:
      return DType::UInt64;
    default:
      return in;
  }
}

std::vector<ScanKernelSpec> builtin_scan_specs() {
  std::vector<ScanKernelSpec> specs;
  auto add_all_kinds = [&](ScanOp op, ScanMap map, DType in, DType acc) {
    for (int k = 0; k < kNumScanKernelKinds; ++k)
      specs.push_back(
          {.op = op, .map = map, .in = in, .acc = acc, .kind = static_cast<ScanKernelKind>(k)});
  };
  for (DType in : kAllDTypes) {
    const DType acc = scan_default_accumulator(in);
    const bool inexact = is_inexact(in);
    add_all_kinds(ScanOp::Add, ScanMap::None, in, acc);
    add_all_kinds(ScanOp::Multiply, ScanMap::None, in, acc);
    if (inexact) {
      add_all_kinds(ScanOp::Add, ScanMap::NanZero, in, acc);
      add_all_kinds(ScanOp::Multiply, ScanMap::NanOne, in, acc);
    }
    add_all_kinds(ScanOp::Maximum, ScanMap::None, in, in);
    add_all_kinds(ScanOp::Minimum, ScanMap::None, in, in);
  }
  return specs;
}

}  // namespace cunp::reduce

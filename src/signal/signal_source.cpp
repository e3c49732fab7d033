// src/signal/signal_source.cpp — see signal_source.hpp. The kernels themselves are the
// templates of signal_kernels.cuh; each entry here is one line instantiating one.
#include "signal/signal_source.hpp"

#include <string>

#include "cuda/ops_types.hpp"
#include "ops/complex.h"
#include "signal/iir_ops.h"

namespace cunp::signal {
namespace {

std::string str(std::string_view s) { return std::string(s); }

constexpr DType kFilterDTypes[] = {DType::Float32, DType::Float64, DType::Complex64,
                                   DType::Complex128};

const char* kind_name(SignalKernelKind kind) {
  switch (kind) {
    case SignalKernelKind::Chunks:
      return "chunks";
    case SignalKernelKind::Scan:
      return "scan";
    case SignalKernelKind::Fix:
      return "fix";
    case SignalKernelKind::Final:
      return "final";
    case SignalKernelKind::Lanes:
      return "lanes";
    case SignalKernelKind::LanesGlobal:
      return "lanes_global";
    case SignalKernelKind::Fir:
      return "fir";
    case SignalKernelKind::FirState:
      return "fir_state";
    case SignalKernelKind::Correlate:
      return "correlate";
    case SignalKernelKind::Correlate2d:
      return "correlate2d";
  }
  return "?";
}

bool has_dmax(SignalKernelKind k) {
  return k == SignalKernelKind::Chunks || k == SignalKernelKind::Scan ||
         k == SignalKernelKind::Fix || k == SignalKernelKind::Final || k == SignalKernelKind::Lanes;
}
bool has_filter(SignalKernelKind k) {
  return k == SignalKernelKind::Chunks || k == SignalKernelKind::Final ||
         k == SignalKernelKind::Lanes || k == SignalKernelKind::LanesGlobal;
}

}  // namespace

int signal_block_threads(const SignalKernelSpec& spec) noexcept {
  switch (spec.kind) {
    case SignalKernelKind::Chunks:
    case SignalKernelKind::Scan:
    case SignalKernelKind::Fix:
    case SignalKernelKind::Final:
      return spec.dmax <= kSmallStates ? 256 : 64;
    case SignalKernelKind::Lanes:
      return spec.dmax <= kSmallStates ? 128 : 64;
    case SignalKernelKind::Correlate2d:
      return signal_ops::kCorrTileX * signal_ops::kCorrTileY;
    default:
      return 256;
  }
}

std::string signal_kernel_name(const SignalKernelSpec& spec) {
  std::string n = "cunp_sig_" + str(kind_name(spec.kind));
  if (has_filter(spec.kind)) n += spec.sos ? "_sos" : "_df2t";
  if (has_dmax(spec.kind)) n += "_d" + std::to_string(spec.dmax);
  return n + "_" + str(cuda::ops_type_code(spec.dtype));
}

std::string_view signal_kernels_preamble() {
  return "#include \"complex.h\"\n#include \"iir_ops.h\"\n#include \"signal_kernels.cuh\"\n";
}

std::string signal_kernel_entry(const SignalKernelSpec& spec) {
  const std::string t = str(cuda::ops_type_name(spec.dtype));
  const std::string threads = std::to_string(signal_block_threads(spec));
  const std::string sos = spec.sos ? "true" : "false";
  const std::string dmax = std::to_string(spec.dmax);
  std::string call;
  std::string params = "cunp::signal_ops::IirParams";
  switch (spec.kind) {
    case SignalKernelKind::Chunks:
      call = "iir_chunks<" + dmax + ", " + sos + ", " + t + ", " + threads + ">";
      break;
    case SignalKernelKind::Scan:
      call = "scan_states<" + dmax + ", " + t + ", " + threads + ">";
      params = "cunp::signal_ops::ScanParams";
      break;
    case SignalKernelKind::Fix:
      call = "fix_states<" + dmax + ", " + t + ", " + threads + ">";
      params = "cunp::signal_ops::ScanParams";
      break;
    case SignalKernelKind::Final:
      call = "iir_final<" + dmax + ", " + sos + ", " + t + ", " + threads + ">";
      break;
    case SignalKernelKind::Lanes:
      call = "iir_lanes<" + dmax + ", " + sos + ", " + t + ">";
      break;
    case SignalKernelKind::LanesGlobal:
      call = "iir_lanes_global<" + sos + ", " + t + ">";
      break;
    case SignalKernelKind::Fir:
      call = "fir<" + t + ">";
      params = "cunp::signal_ops::FirParams";
      break;
    case SignalKernelKind::FirState:
      call = "fir_state<" + t + ">";
      params = "cunp::signal_ops::FirParams";
      break;
    case SignalKernelKind::Correlate:
      call = "correlate<" + t + ">";
      params = "cunp::signal_ops::CorrParams";
      break;
    case SignalKernelKind::Correlate2d:
      call = "correlate2d<" + t + ">";
      params = "cunp::signal_ops::Corr2dParams";
      break;
  }
  return "extern \"C\" __global__ void __launch_bounds__(" + threads + ") " +
         signal_kernel_name(spec) + "(const " + params + " p) { cunp::signal_dev::" + call +
         "(p); }\n";
}

cuda::CompileOptions signal_compile_options() { return {}; }

// Note [Sequential IIR rounding]: the one-thread-per-lane recurrences and the FIR loops
// run the same arithmetic as the cpu device (signal/iir_ops.h), so they are compiled
// without fused multiply-add: each product and sum is rounded as the host rounds it and
// the results are the cpu device's bit for bit. An ill-conditioned filter (a Chebyshev
// filter of order 18, say) would otherwise amplify the contraction's different rounding
// far beyond a few ulp. The blocked scan keeps FMA: it reassociates anyway.
cuda::CompileOptions signal_compile_options(const SignalKernelSpec& spec) {
  cuda::CompileOptions options = signal_compile_options();
  switch (spec.kind) {
    case SignalKernelKind::Lanes:
    case SignalKernelKind::LanesGlobal:
    case SignalKernelKind::Fir:
    case SignalKernelKind::FirState:
      options.extra_options = {"--fmad=false"};
      break;
    default:
      break;
  }
  return options;
}

cuda::KernelSource signal_kernel_source(const SignalKernelSpec& spec) {
  cuda::KernelSource k;
  k.kernel_name = signal_kernel_name(spec);
  k.source = str(signal_kernels_preamble()) + signal_kernel_entry(spec);
  k.options = signal_compile_options(spec);
  return k;
}

cuda::KernelKey signal_kernel_key(const SignalKernelSpec& spec, int arch) noexcept {
  cuda::KernelKey key;
  key.op = cuda::op_id("cunp.signal");
  key.variant = static_cast<std::uint64_t>(spec.kind) |
                (static_cast<std::uint64_t>(spec.dmax) << 8) | (spec.sos ? 0x10000u : 0u);
  key.dtypes[0] = static_cast<std::uint8_t>(spec.dtype);
  key.ndim = 1;
  key.index_bits = 64;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

std::vector<SignalKernelSpec> signal_kernel_specs() {
  std::vector<SignalKernelSpec> specs;
  for (DType dt : kFilterDTypes) {
    // lfilter: states up to 8 and 32 in registers, larger in global memory; sosfilt runs
    // groups of up to 4 sections (8 states, engines.hpp kSosGroupSections).
    for (int dmax : {kSmallStates, kLargeStates})
      for (SignalKernelKind k :
           {SignalKernelKind::Chunks, SignalKernelKind::Final, SignalKernelKind::Lanes})
        specs.push_back({.kind = k, .dtype = dt, .dmax = dmax});
    specs.push_back({.kind = SignalKernelKind::LanesGlobal, .dtype = dt});
    for (SignalKernelKind k :
         {SignalKernelKind::Chunks, SignalKernelKind::Final, SignalKernelKind::Lanes})
      specs.push_back({.kind = k, .dtype = dt, .dmax = kSmallStates, .sos = true});
    for (int dmax : {kSmallStates, kLargeStates})
      for (SignalKernelKind k : {SignalKernelKind::Scan, SignalKernelKind::Fix})
        specs.push_back({.kind = k, .dtype = dt, .dmax = dmax});
    for (SignalKernelKind k : {SignalKernelKind::Fir, SignalKernelKind::FirState,
                               SignalKernelKind::Correlate, SignalKernelKind::Correlate2d})
      specs.push_back({.kind = k, .dtype = dt});
  }
  specs.push_back({.kind = SignalKernelKind::Correlate, .dtype = DType::UInt64});
  specs.push_back({.kind = SignalKernelKind::Correlate2d, .dtype = DType::UInt64});
  return specs;
}

}  // namespace cunp::signal

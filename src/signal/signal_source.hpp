// src/signal/signal_source.hpp — the CUDA source and cache keys of the signal kernels
// (src/signal/signal_kernels.cuh instantiated per dtype). filter_cuda.cpp launches them;
// tests/cpp/signal/test_signal_nvrtc.cpp compiles every one of them without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cunp/dtype.hpp"

namespace cunp::signal {

enum class SignalKernelKind : std::uint8_t {
  Chunks,       // blocked scan, pass 1 (Note [Blocked IIR scan])
  Scan,         // pass 2: one level of the carries' scan
  Fix,          // pass 2, back down: the true carries of a level
  Final,        // pass 3: the output and zf
  Lanes,        // one thread per lane, the state in registers
  LanesGlobal,  // one thread per lane, the state in global memory (any order)
  Fir,          // lfilter with a == [1]
  FirState,     // its final state
  Correlate,    // direct 'valid' N-d correlation
  Correlate2d,  // the same in 2-d, by shared-memory tiles with a virtual constant padding
};

// Chunks/Final/Lanes are built for state dimensions up to 8 or up to 32.
inline constexpr int kSmallStates = 8;
inline constexpr int kLargeStates = 32;

struct SignalKernelSpec {
  SignalKernelKind kind = SignalKernelKind::Lanes;
  // float32/64, complex64/128; Correlate and Correlate2d also uint64 (every integer dtype).
  DType dtype = DType::Float64;
  int dmax = 0;      // Chunks/Scan/Fix/Final/Lanes: kSmallStates or kLargeStates
  bool sos = false;  // Chunks/Final/Lanes/LanesGlobal: sosfilt's cascade, else lfilter
};

// Threads per block of a kernel; for Chunks/Scan/Fix/Final the states of one scan block
// (BLOCK): 256 for up to kSmallStates states, 64 above (BLOCK x DMAX states of shared
// memory, 32 KiB for complex128).
int signal_block_threads(const SignalKernelSpec& spec) noexcept;

std::string signal_kernel_name(const SignalKernelSpec& spec);
std::string_view signal_kernels_preamble();
std::string signal_kernel_entry(const SignalKernelSpec& spec);
cuda::CompileOptions signal_compile_options();
// The options of one kernel: no FMA for the sequential ones (Note [Sequential IIR rounding]).
cuda::CompileOptions signal_compile_options(const SignalKernelSpec& spec);
cuda::KernelSource signal_kernel_source(const SignalKernelSpec& spec);
cuda::KernelKey signal_kernel_key(const SignalKernelSpec& spec, int arch) noexcept;
// Every kernel the launchers can ask for, grouped by dtype.
std::vector<SignalKernelSpec> signal_kernel_specs();

}  // namespace cunp::signal

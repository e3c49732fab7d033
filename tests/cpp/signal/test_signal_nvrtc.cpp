// Compiles every signal kernel (src/signal/signal_source.cpp) to sm_90 cubin with NVRTC,
// as the engine would: no GPU needed, so CI proves the CUDA path of lfilter, sosfilt and
// the direct correlation compiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "runtime/nvrtc_compiler.hpp"
#include "cunp/error.hpp"
#include "signal/signal_source.hpp"

namespace cunp::signal {
namespace {

bool is_elf(const std::string& image) {
  return image.size() > 4 && image.compare(0, 4,
                                           "\x7f"
                                           "ELF") == 0;
}

TEST(NvrtcBuiltin, SignalKernelNamesAndKeysAreUnique) {
  const std::vector<SignalKernelSpec> specs = signal_kernel_specs();
  std::set<std::string> names;
  for (const SignalKernelSpec& s : specs)
    EXPECT_TRUE(names.insert(signal_kernel_name(s)).second) << signal_kernel_name(s);
  for (std::size_t i = 0; i < specs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      EXPECT_FALSE(signal_kernel_key(specs[i], 90) == signal_kernel_key(specs[j], 90))
          << signal_kernel_name(specs[i]) << " / " << signal_kernel_name(specs[j]);
  // 4 dtypes x (lfilter: 2 state bounds x 3 kinds + 1; sosfilt: 3; the scan: 2 state
  // bounds x 2 kinds; 4 FIR and correlation kernels), plus the two integer correlations.
  EXPECT_EQ(specs.size(), 4u * (2u * 3u + 1u + 3u + 2u * 2u + 4u) + 2u);
}

// One program per dtype, as a batch of the engine's single-kernel programs (one preamble,
// every entry), then one single-kernel program exactly as the engine builds it.
TEST(NvrtcBuiltin, SignalKernelsCompileForSm90) {
  std::vector<std::pair<DType, std::vector<SignalKernelSpec>>> groups;
  for (const SignalKernelSpec& s : signal_kernel_specs()) {
    if (groups.empty() || groups.back().first != s.dtype) groups.push_back({s.dtype, {}});
    groups.back().second.push_back(s);
  }
  // The programs compile on CUNP_TEST_JOBS (else all hardware) threads, as the built-in
  // kernels' test does; gtest assertions are made on this thread afterwards.
  struct Outcome {
    cuda::CompiledProgram program;
    std::string error;
    double seconds = 0;
  };
  std::vector<Outcome> outcomes(groups.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < groups.size(); i = next++) {
      const auto& [dtype, specs] = groups[i];
      std::string source(signal_kernels_preamble());
      for (const SignalKernelSpec& s : specs) source += signal_kernel_entry(s);
      cuda::CompileOptions options = signal_compile_options();
      options.arch = 90;
      const auto start = std::chrono::steady_clock::now();
      try {
        outcomes[i].program =
            cuda::compile_to_cubin(source, "signal_" + std::string(name(dtype)), options);
      } catch (const CompileError& e) {
        outcomes[i].error = e.log();
      } catch (const std::exception& e) {
        outcomes[i].error = e.what();
      }
      outcomes[i].seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  };
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (const char* env = std::getenv("CUNP_TEST_JOBS"); env != nullptr && std::atoi(env) > 0)
    jobs = std::atoi(env);
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const auto& [dtype, specs] = groups[i];
    const Outcome& o = outcomes[i];
    if (!o.error.empty()) {
      ADD_FAILURE() << name(dtype) << ":\n" << o.error;
      continue;
    }
    EXPECT_TRUE(is_elf(o.program.cubin));
    for (const SignalKernelSpec& k : specs)
      EXPECT_NE(o.program.cubin.find(signal_kernel_name(k)), std::string::npos)
          << signal_kernel_name(k);
    std::printf("  signal %s: %zu kernels in %.1f s, %zu bytes of cubin\n",
                std::string(name(dtype)).c_str(), specs.size(), o.seconds, o.program.cubin.size());
  }
  const cuda::KernelSource single = signal_kernel_source(
      {.kind = SignalKernelKind::Chunks, .dtype = DType::Float32, .dmax = kSmallStates});
  cuda::CompileOptions options = single.options;
  options.arch = 90;
  const cuda::CompiledProgram program =
      cuda::compile_to_cubin(single.source, single.kernel_name, options);
  EXPECT_TRUE(is_elf(program.cubin));
  EXPECT_NE(program.cubin.find(single.kernel_name), std::string::npos);
}

// Note [Sequential IIR rounding]: the sequential kernels round as the cpu device does.
TEST(SignalKernelOptions, SequentialKernelsAreCompiledWithoutFma) {
  const auto fmad_off = [](SignalKernelKind kind) {
    const cuda::KernelSource k =
        signal_kernel_source({.kind = kind, .dtype = DType::Float64, .dmax = kSmallStates});
    return std::count(k.options.extra_options.begin(), k.options.extra_options.end(), "--fmad=false") == 1;
  };
  for (SignalKernelKind kind : {SignalKernelKind::Lanes, SignalKernelKind::LanesGlobal, SignalKernelKind::Fir,
                                SignalKernelKind::FirState})
    EXPECT_TRUE(fmad_off(kind)) << static_cast<int>(kind);
  for (SignalKernelKind kind : {SignalKernelKind::Chunks, SignalKernelKind::Scan, SignalKernelKind::Final})
    EXPECT_FALSE(fmad_off(kind)) << static_cast<int>(kind);
}

}  // namespace
}  // namespace cunp::signal

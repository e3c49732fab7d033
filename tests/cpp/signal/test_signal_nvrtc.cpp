// Compiles every signal kernel (src/signal/signal_source.cpp) to sm_90 cubin with NVRTC,
// as the engine would: no GPU needed, so CI proves the CUDA path of lfilter, sosfilt and
// the direct correlation compiles.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "cuda/nvrtc_compiler.hpp"
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
  // 4 dtypes x (2 filters x (2 state bounds x 3 kinds + 1) + 2 state bounds x 2 scan kinds
  // + 4), plus the two integer correlations.
  EXPECT_EQ(specs.size(), 4u * (2u * (2u * 3u + 1u) + 2u * 2u + 4u) + 2u);
}

// One program per dtype, as a batch of the engine's single-kernel programs (one preamble,
// every entry), then one single-kernel program exactly as the engine builds it.
TEST(NvrtcBuiltin, SignalKernelsCompileForSm90) {
  std::vector<std::pair<DType, std::vector<SignalKernelSpec>>> groups;
  for (const SignalKernelSpec& s : signal_kernel_specs()) {
    if (groups.empty() || groups.back().first != s.dtype) groups.push_back({s.dtype, {}});
    groups.back().second.push_back(s);
  }
  for (const auto& [dtype, specs] : groups) {
    std::string source(signal_kernels_preamble());
    for (const SignalKernelSpec& s : specs) source += signal_kernel_entry(s);
    cuda::CompileOptions options = signal_compile_options();
    options.arch = 90;
    const auto start = std::chrono::steady_clock::now();
    cuda::CompiledProgram program;
    try {
      program = cuda::compile_to_cubin(source, "signal_" + std::string(name(dtype)), options);
    } catch (const CompileError& e) {
      ADD_FAILURE() << name(dtype) << ":\n" << e.log();
      continue;
    }
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(is_elf(program.cubin));
    for (const SignalKernelSpec& k : specs)
      EXPECT_NE(program.cubin.find(signal_kernel_name(k)), std::string::npos)
          << signal_kernel_name(k);
    std::printf("  signal %s: %zu kernels in %.1f s, %zu bytes of cubin\n",
                std::string(name(dtype)).c_str(), specs.size(), s, program.cubin.size());
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

}  // namespace
}  // namespace cunp::signal

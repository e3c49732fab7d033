// Compiles one contiguous kernel of every special-gamma ufunc loop (src/ops/special_gamma.h)
// to sm_90 cubin with NVRTC, all in one program: the special functions' scalar code
// shares its call tree there, so this takes a fraction of the per-ufunc programs of
// NvrtcBuiltin.EveryBuiltinKernelCompilesForSm90 (which compiles every variant) and is
// the quick check while working on that code.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "ufunc/elementwise_source.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "cunp/error.hpp"
#include "ufunc/ufunc.hpp"

namespace cunp::cuda {
namespace {

TEST(NvrtcBuiltin, SpecialGammaLoopsCompileInOneProgram) {
  std::string source = elementwise_preamble("special_gamma.h");
  std::vector<std::string> names;
  for (const ufunc::Ufunc* uf : ufunc::all()) {
    if (uf->header != "special_gamma.h") continue;
    EXPECT_EQ(uf->space, ufunc::Space::Special) << uf->name;
    for (const ufunc::Loop& loop : uf->loops) {
      const ElementwiseSpec spec = elementwise_spec(*uf, loop);
      source += elementwise_kernel_entry(spec);
      names.push_back(elementwise_kernel_name(spec));
    }
  }
  ASSERT_GE(names.size(), 150u);  // every loop of defs_special_gamma.cpp
  CompileOptions options = elementwise_compile_options();
  options.arch = 90;
  const auto start = std::chrono::steady_clock::now();
  CompiledProgram out;
  try {
    out = compile_to_cubin(source, "special_gamma_loops", options);
  } catch (const CompileError& e) {
    FAIL() << e.log();
  }
  for (const std::string& k : names) EXPECT_NE(out.cubin.find(k), std::string::npos) << k;
  std::printf("  %zu special-gamma loop kernels: %.1f s, %zu bytes of cubin\n", names.size(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), out.cubin.size());
}

}  // namespace
}  // namespace cunp::cuda

// The functors that no ufunc names as its own functor (the float16-specific loops'
// nextafter_f16, spacing_f16, maximum_f16...) compiled with NVRTC for sm_90, so the
// GPU path can call them; needs no GPU. Every registered functor is compiled through
// the generated ufunc kernels in tests/cpp/cuda/test_nvrtc_builtin.cpp.
#include <gtest/gtest.h>

#include <string>

#include "runtime/nvrtc_compiler.hpp"
#include "cunp/error.hpp"

namespace cunp::cuda {
namespace {

TEST(UfuncOps, HalfLoopFunctorsCompileWithNvrtc) {
  std::string src = "#include \"ufunc_arith.h\"\n#include \"ufunc_math.h\"\n";
  const char* binary[] = {"nextafter_f16", "maximum_f16", "minimum_f16", "fmax_f16", "fmin_f16"};
  int k = 0;
  for (const char* f : binary)
    src += "extern \"C\" __global__ void k" + std::to_string(k++) + "(float* o, float a, float b) { *o = cunp::ops::" +
           f + "{}(a, b); }\n";
  src += "extern \"C\" __global__ void k" + std::to_string(k++) +
         "(float* o, float a) { *o = cunp::ops::spacing_f16{}(a); }\n";
  CompileOptions options;
  options.arch = 90;
  try {
    const CompiledProgram p = compile_to_cubin(src, "ufunc_ops_half", options);
    EXPECT_GT(p.cubin.size(), 4u);
  } catch (const CompileError& e) {
    FAIL() << e.what();
  }
}

}  // namespace
}  // namespace cunp::cuda

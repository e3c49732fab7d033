// tests/cpp/linalg/test_int_gemm_source.cpp — the generated integer/bool GEMM kernels
// compile with NVRTC for sm_90 as the engine builds them (no GPU needed); their keys
// are distinct per dtype.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cuda/nvrtc_compiler.hpp"
#include "cunp/error.hpp"
#include "linalg/int_gemm_source.hpp"

namespace cunp::linalg::detail {
namespace {

TEST(LinalgIntGemmSource, EveryDTypeCompilesForSm90) {
  std::set<std::string> names;
  for (DType dt : int_gemm_dtypes()) {
    const cuda::KernelSource source = int_gemm_kernel_source(dt);
    EXPECT_TRUE(names.insert(source.kernel_name).second);
    cuda::CompileOptions options = source.options;
    options.arch = 90;
    try {
      const cuda::CompiledProgram program =
          cuda::compile_to_cubin(source.source, source.kernel_name, options);
      EXPECT_NE(program.cubin.find(source.kernel_name), std::string::npos) << source.kernel_name;
    } catch (const CompileError& e) {
      ADD_FAILURE() << source.kernel_name << ":\n" << e.log() << "\n" << source.source;
    }
    for (DType other : int_gemm_dtypes()) {
      if (other != dt) {
        EXPECT_FALSE(int_gemm_kernel_key(dt, 90) == int_gemm_kernel_key(other, 90));
      }
    }
  }
  EXPECT_EQ(names.size(), 11u);  // bool, 8 integer types, float32, float64
}

TEST(LinalgIntGemmSource, OneProgramHoldsEveryEntry) {
  // The batched form builtin_kernels.cpp lists for the CI test: one preamble, eleven entries.
  std::string source = int_gemm_preamble();
  for (DType dt : int_gemm_dtypes()) source += int_gemm_kernel_entry(dt);
  cuda::CompileOptions options;
  options.arch = 90;
  const cuda::CompiledProgram program = cuda::compile_to_cubin(source, "int_gemm", options);
  for (DType dt : int_gemm_dtypes())
    EXPECT_NE(program.cubin.find(int_gemm_kernel_name(dt)), std::string::npos) << int_gemm_kernel_name(dt);
}

}  // namespace
}  // namespace cunp::linalg::detail

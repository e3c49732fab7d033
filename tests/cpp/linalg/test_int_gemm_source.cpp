// tests/cpp/linalg/test_int_gemm_source.cpp — the generated integer/bool GEMM kernels
// compile with NVRTC for sm_90 as the engine builds them (no GPU needed); their keys
// are distinct per dtype and tiling.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "runtime/nvrtc_compiler.hpp"
#include "cunp/error.hpp"
#include "linalg/int_gemm_source.hpp"

namespace cunp::linalg::detail {
namespace {

constexpr IntGemmTile kTiles[] = {IntGemmTile::Large, IntGemmTile::Small};

TEST(LinalgIntGemmSource, EveryDTypeAndTilingCompilesForSm90) {
  std::set<std::string> names;
  for (IntGemmTile tile : kTiles) {
    for (DType dt : int_gemm_dtypes()) {
      const cuda::KernelSource source = int_gemm_kernel_source(dt, tile);
      EXPECT_TRUE(names.insert(source.kernel_name).second);
      cuda::CompileOptions options = source.options;
      options.arch = 90;
      try {
        const cuda::CompiledProgram program = cuda::compile_to_cubin(source.source, source.kernel_name, options);
        EXPECT_NE(program.cubin.find(source.kernel_name), std::string::npos) << source.kernel_name;
      } catch (const CompileError& e) {
        ADD_FAILURE() << source.kernel_name << ":\n" << e.log() << "\n" << source.source;
      }
      for (IntGemmTile other_tile : kTiles) {
        for (DType other : int_gemm_dtypes()) {
          if (other != dt || other_tile != tile) {
            EXPECT_FALSE(int_gemm_kernel_key(dt, 90, tile) == int_gemm_kernel_key(other, 90, other_tile));
          }
        }
      }
    }
  }
  EXPECT_EQ(names.size(), 22u);  // bool, 8 integer types, float32, float64; two tilings each
}

TEST(LinalgIntGemmSource, TilingsCoverTheirBlocks) {
  for (IntGemmTile tile : kTiles) {
    const IntGemmShape s = int_gemm_shape(tile);
    EXPECT_EQ((s.tile_m / s.thread_m) * (s.tile_n / s.thread_n), s.threads);
  }
  EXPECT_LT(int_gemm_shape(IntGemmTile::Small).tile_m, int_gemm_shape(IntGemmTile::Large).tile_m);
}

TEST(LinalgIntGemmSource, OneProgramHoldsEveryEntry) {
  // The batched form builtin_kernels.cpp lists for the CI test: one preamble, 22 entries.
  std::string source = int_gemm_preamble();
  for (IntGemmTile tile : kTiles)
    for (DType dt : int_gemm_dtypes()) source += int_gemm_kernel_entry(dt, tile);
  cuda::CompileOptions options;
  options.arch = 90;
  const cuda::CompiledProgram program = cuda::compile_to_cubin(source, "int_gemm", options);
  for (IntGemmTile tile : kTiles)
    for (DType dt : int_gemm_dtypes())
      EXPECT_NE(program.cubin.find(int_gemm_kernel_name(dt, tile)), std::string::npos)
          << int_gemm_kernel_name(dt, tile);
}

}  // namespace
}  // namespace cunp::linalg::detail

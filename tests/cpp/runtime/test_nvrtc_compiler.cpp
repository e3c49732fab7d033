// NVRTC options: the language standard a caller gives replaces cunp's default, and the
// toolkit's include directories for hand-written kernels. No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/nvrtc_compiler.hpp"

namespace cunp::cuda {
namespace {

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(NvrtcCompiler, OptionListStartsWithTheTargetAndTheStandard) {
  CompileOptions o;
  o.arch = 80;
  o.extra_options = {"-DN=4"};
  EXPECT_EQ(nvrtc_option_list(o), (std::vector<std::string>{"-arch=sm_80", "-std=c++17", "-DN=4"}));
  o.cxx_standard = 20;
  EXPECT_EQ(nvrtc_option_list(o)[1], "-std=c++20");
}

TEST(NvrtcCompiler, CallersStandardReplacesTheDefault) {
  EXPECT_TRUE(is_std_option("-std=c++20"));
  EXPECT_TRUE(is_std_option("--std=c++14"));
  EXPECT_TRUE(is_std_option("--std"));
  EXPECT_FALSE(is_std_option("-DSTD=1"));
  CompileOptions o;
  o.extra_options = {"--std=c++20"};
  const std::vector<std::string> list = nvrtc_option_list(o);
  EXPECT_FALSE(has(list, "-std=c++17"));
  EXPECT_EQ(std::count_if(list.begin(), list.end(),
                          [](const std::string& s) { return is_std_option(s); }),
            1);
}

TEST(NvrtcCompiler, ToolkitIncludeDirectoriesHoldCudaHeaders) {
  const std::vector<std::string>& inc = toolkit_include_options();
  ASSERT_FALSE(inc.empty()) << "no CUDA toolkit include directory found";
  ASSERT_TRUE(inc[0].starts_with("-I"));
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(inc[0].substr(2)) / "cuda_fp16.h"));
  CompileOptions o;
  o.extra_options = inc;
  const CompiledProgram p = compile_to_cubin(
      "#include <cuda_fp16.h>\n#include <cuda/std/cstdint>\n"
      "extern \"C\" __global__ void k(__half* x, cuda::std::int32_t n) { if (n) x[0] = "
      "__float2half(1.f); }\n",
      "toolkit_headers", o);
  EXPECT_FALSE(p.cubin.empty());
}

TEST(NvrtcCompiler, CunpComplexHeaderIsEmbedded) {
  const CompiledProgram p = compile_to_cubin(
      "#include <cunp/complex.cuh>\n"
      "extern \"C\" __global__ void k(complex<float>* z, float s) {\n"
      "  complex<float> a = z[0]; a += s; a *= complex<float>{0.f, 1.f}; z[0] = exp(a) / s + s * "
      "a;\n}\n",
      "complex_header", CompileOptions{});
  EXPECT_FALSE(p.cubin.empty());
}

}  // namespace
}  // namespace cunp::cuda

// Compiles the generated sparse row kernels (src/sparse/row_kernels_source.cpp) to
// sm_90 cubin with NVRTC, no GPU needed: the index-only program and those of three data
// dtypes (bool, float64, complex128: the three kinds of arithmetic), batched as the
// builtin-kernel test batches them, plus single-kernel programs as the engine compiles
// them at run time. NvrtcBuiltin.EveryBuiltinKernelCompilesForSm90 compiles all 14
// sparse programs; this is the quick check while working on the sparse family.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "builtin/builtin_kernels.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "cunp/error.hpp"
#include "sparse/row_kernels_source.hpp"

namespace cunp::sparse::detail {
namespace {

TEST(SparseKernels, NamesAndKeysAreDistinct) {
  std::set<std::string> names;
  const std::vector<RowKernelSpec> specs = row_kernel_specs();
  for (const RowKernelSpec& s : specs)
    EXPECT_TRUE(names.insert(row_kernel_name(s)).second) << row_kernel_name(s);
  for (std::size_t i = 0; i < specs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      EXPECT_FALSE(row_kernel_key(specs[i], 90) == row_kernel_key(specs[j], 90))
          << row_kernel_name(specs[i]) << " / " << row_kernel_name(specs[j]);
  EXPECT_EQ(row_kernel_data_dtypes().size(), 13u);  // every dtype but float16
}

TEST(SparseKernels, ProgramsCompileForSm90) {
  const std::set<std::string> chosen = {"sparse_index", "sparse_b1", "sparse_f8", "sparse_c16"};
  std::vector<cuda::BuiltinProgram> programs;
  std::size_t sparse_programs = 0;
  for (cuda::BuiltinProgram& p : cuda::builtin_kernel_programs()) {
    if (p.name.rfind("sparse_", 0) != 0) continue;
    ++sparse_programs;
    if (chosen.count(p.name)) programs.push_back(std::move(p));
  }
  EXPECT_EQ(sparse_programs, 14u);  // the index-only kernels + one program per data dtype
  ASSERT_EQ(programs.size(), chosen.size());
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::vector<std::string> failures;
  std::size_t kernels = 0;
  auto worker = [&] {
    for (std::size_t i = next++; i < programs.size(); i = next++) {
      const cuda::BuiltinProgram& p = programs[i];
      std::string failure;
      try {
        cuda::CompileOptions options = p.options;
        options.arch = 90;
        const cuda::CompiledProgram out = cuda::compile_to_cubin(p.source, p.name, options);
        for (const std::string& k : p.kernel_names)
          if (out.cubin.find(k) == std::string::npos) failure += p.name + ": no symbol " + k + "\n";
      } catch (const CompileError& e) {
        failure = p.name + ":\n" + e.log();
      }
      std::lock_guard lock(mutex);
      kernels += p.kernel_names.size();
      if (!failure.empty()) failures.push_back(failure);
    }
  };
  std::vector<std::thread> threads;
  const unsigned jobs = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
  for (unsigned j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(kernels, 2u * (3u + 3u * 6u));
  EXPECT_TRUE(failures.empty()) << failures.size() << " programs failed; first:\n"
                                << failures.front();
}

TEST(SparseKernels, SingleKernelProgramsCompile) {
  const RowKernelSpec specs[] = {
      {.kernel = RowKernel::ExpandRows, .data = DType::Bool, .index = DType::Int64},
      {.kernel = RowKernel::BinopFill, .data = DType::Complex64, .index = DType::Int32},
      {.kernel = RowKernel::RowReduce, .data = DType::Bool, .index = DType::Int64},
  };
  for (const RowKernelSpec& s : specs) {
    const cuda::KernelSource src = row_kernel_source(s);
    cuda::CompileOptions options = src.options;
    options.arch = 90;
    try {
      const cuda::CompiledProgram program =
          cuda::compile_to_cubin(src.source, src.kernel_name, options);
      EXPECT_NE(program.cubin.find(src.kernel_name), std::string::npos) << src.kernel_name;
    } catch (const CompileError& e) {
      ADD_FAILURE() << src.kernel_name << ":\n" << e.log();
    }
  }
}

}  // namespace
}  // namespace cunp::sparse::detail

// Compiles every built-in kernel the engine can generate to sm_90 cubin with NVRTC.
// No GPU needed: this is the CI's first line of defence for the GPU path.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "builtin/builtin_kernels.hpp"
#include "ufunc/elementwise_source.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "cunp/error.hpp"
#include "elementwise_test_functors.hpp"
#include "index/at_source.hpp"
#include "index/index_source.hpp"
#include "linalg/int_gemm_source.hpp"
#include "random/random_cuda.hpp"
#include "reduce/gpu_reduce_source.hpp"
#include "stats/bins_source.hpp"
#include "reduce/gpu_scan_source.hpp"
#include "signal/upfirdn_source.hpp"
#include "sparse/row_kernels_source.hpp"
#include "ufunc/ufunc.hpp"

namespace cunp::cuda {
namespace {

bool is_elf(const std::string& image) {
  return image.size() > 4 && image.compare(0, 4,
                                           "\x7f"
                                           "ELF") == 0;
}

int test_jobs() {
  if (const char* env = std::getenv("CUNP_TEST_JOBS"); env != nullptr && std::atoi(env) > 0)
    return std::atoi(env);
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

TEST(NvrtcBuiltin, KernelNamesAreUnique) {
  const std::vector<KernelSource> sources = builtin_kernel_sources();
  std::set<std::string> names;
  for (const KernelSource& s : sources) {
    EXPECT_TRUE(names.insert(s.kernel_name).second) << s.kernel_name;
    EXPECT_NE(s.source.find(s.kernel_name), std::string::npos);
  }
  std::size_t batched = 0;
  for (const BuiltinProgram& p : builtin_kernel_programs()) batched += p.kernel_names.size();
  EXPECT_EQ(batched, sources.size());
  // 196 cast pairs and 5 fills, each in 18 variants, plus one arange kernel per dtype,
  // plus per ufunc loop: contiguous, strided and (binary ufuncs) scalar-second.
  // Ufuncs sharing a functor (radians, deg2rad) share their kernels.
  std::set<std::string> loops;
  std::size_t ufunc_kernels = 0;
  for (const ufunc::Ufunc* uf : ufunc::all())
    for (const ufunc::Loop& l : uf->loops)
      if (loops.insert(std::string(uf->functor_for(l)) + "|" + uf->header + "|" + l.signature(uf->nin, uf->nout)).second)
        ufunc_kernels += uf->nin == 2 ? 3u : 2u;
  // plus the random-distribution kernels (src/random/random_cuda.cpp), plus the
  // reduction kernels: every kind for each (op, input dtype, default accumulator).
  std::size_t reduce_pairs = 0;
  for (int o = 0; o < reduce::kNumReduceOps; ++o)
    for (int d = 0; d < kNumDTypes; ++d)
      reduce_pairs += reduce::reduce_default_accumulators(static_cast<reduce::ReduceOp>(o), static_cast<DType>(d)).size();
  // plus the var/std squared-deviation kernels.
  for (int d = 0; d < kNumDTypes; ++d) reduce_pairs += reduce::reduce_sqdev_accumulators(static_cast<DType>(d)).size();
  const std::size_t reduce_kernels = reduce_pairs * static_cast<std::size_t>(reduce::kNumReduceKernelKinds);
  EXPECT_EQ(reduce::builtin_reduce_specs().size(), reduce_kernels);
  EXPECT_EQ(sources.size(), (196u + 5u) * 18u + 14u + ufunc_kernels + random::random_kernel_specs().size() +
                                reduce_kernels + reduce::builtin_scan_specs().size() + index::index_kernel_specs().size() +
                                2u * linalg::detail::int_gemm_dtypes().size() + stats::bin_kernel_specs().size() +
                                index::builtin_at_specs().size() + transpose_kernel_specs().size() +
                                concat_unit_sizes().size() + signal::upfirdn_kernel_dtypes().size() +
                                sparse::detail::row_kernel_specs().size());
  // The sparse row kernels: 3 index-only kernels and 6 data kernels for each of the 13
  // sparse data dtypes, each for int32 and int64 indices.
  EXPECT_EQ(sparse::detail::row_kernel_specs().size(), 2u * (3u + 6u * 13u));
  std::printf("  %zu kernels, %zu of them ufunc loops\n", sources.size(), ufunc_kernels);
}

TEST(NvrtcBuiltin, SingleKernelProgramsCompile) {
  // The programs the engine compiles at run time are one preamble plus one entry; a
  // few of them compiled on their own, to cover that exact text.
  const CopyKernelSpec specs[] = {
      {.kind = CopyKind::Cast, .dst = DType::Float64, .src = DType::Float32},
      {.kind = CopyKind::Cast, .dst = DType::Float16, .src = DType::Complex128, .ndim = 3},
      {.kind = CopyKind::Cast,
       .dst = DType::Bool,
       .src = DType::Float16,
       .ndim = 64,
       .index64 = true},
      {.kind = CopyKind::Fill, .dst = DType::Complex128, .src = DType::Complex128, .ndim = 8},
  };
  for (const CopyKernelSpec& spec : specs) {
    const KernelSource source = copy_kernel_source(spec);
    const auto start = std::chrono::steady_clock::now();
    CompileOptions options = source.options;
    options.arch = 90;
    const CompiledProgram program = compile_to_cubin(source.source, source.kernel_name, options);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(is_elf(program.cubin)) << source.kernel_name;
    EXPECT_NE(program.cubin.find(source.kernel_name), std::string::npos);
    std::printf("  %s: %.1f ms, %zu bytes of cubin\n", source.kernel_name.c_str(), ms,
                program.cubin.size());
  }
}

// Ufunc loop kernels of every shape the launcher can ask for (mixed storage dtypes,
// scalar parameters, two outputs, float16, every ndim bucket, 64-bit index), with the
// test functors of elementwise_test_functors.hpp, each compiled as the engine does.
TEST(NvrtcBuiltin, ElementwiseVariantsCompile) {
  auto spec = [](const char* functor, int nin, int nout, std::initializer_list<DType> loop,
                 std::initializer_list<DType> storage, unsigned scalars, int ndim, bool index64) {
    ElementwiseSpec s;
    s.functor = functor;
    s.header = kEwTestFunctorSource;
    s.nin = nin;
    s.nout = nout;
    std::copy(loop.begin(), loop.end(), s.loop.begin());
    std::copy(storage.begin(), storage.end(), s.storage.begin());
    s.scalar_mask = static_cast<std::uint8_t>(scalars);
    s.ndim = ndim;
    s.index64 = index64;
    return s;
  };
  using D = DType;
  const ElementwiseSpec specs[] = {
      spec("cunp_ew_test::add", 2, 1, {D::Float32, D::Float32, D::Float32},
           {D::Float64, D::Int8, D::Float16}, 0, 0, false),
      spec("cunp_ew_test::add", 2, 1, {D::Float16, D::Float16, D::Float16},
           {D::Float16, D::Float16, D::Float16}, 0b100, 0, true),
      spec("cunp_ew_test::fma3", 3, 1, {D::Float64, D::Float64, D::Float64, D::Float64},
           {D::Float64, D::Complex64, D::Float64, D::Bool}, 0b0100, 3, false),
      spec("cunp_ew_test::sumdiff", 2, 2, {D::Int32, D::Int32, D::Int32, D::Int32},
           {D::Int64, D::Int8, D::UInt8, D::Int32}, 0b1000, 0, false),
      spec("cunp_ew_test::sumdiff", 2, 2, {D::Float16, D::Float16, D::Float16, D::Float16},
           {D::Float16, D::Float32, D::Float16, D::Float16}, 0, 64, true),
      spec("cunp_ew_test::less", 2, 1, {D::Bool, D::Float32, D::Float32},
           {D::Bool, D::Float32, D::Float32}, 0b010, 8, false),
      spec("cunp_ew_test::scale_exp", 2, 1, {D::Float16, D::Float16, D::Int32},
           {D::Float16, D::Float16, D::Int32}, 0b100, 1, false),
  };
  for (const ElementwiseSpec& s : specs) {
    const KernelSource source = elementwise_kernel_source(s);
    const auto start = std::chrono::steady_clock::now();
    CompileOptions options = source.options;
    options.arch = 90;
    CompiledProgram program;
    try {
      program = compile_to_cubin(source.source, source.kernel_name, options);
    } catch (const CompileError& e) {
      ADD_FAILURE() << source.kernel_name << ":\n" << e.log() << "\n" << source.source;
      continue;
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(is_elf(program.cubin)) << source.kernel_name;
    EXPECT_NE(program.cubin.find(source.kernel_name), std::string::npos);
    std::printf("  %s: %.1f ms, %zu bytes of cubin\n", source.kernel_name.c_str(), ms,
                program.cubin.size());
  }
  // Keys differ whenever the kernels do.
  std::set<std::string> names;
  for (const ElementwiseSpec& s : specs) names.insert(elementwise_kernel_name(s));
  EXPECT_EQ(names.size(), std::size(specs));
  for (std::size_t i = 0; i < std::size(specs); ++i)
    for (std::size_t j = 0; j < i; ++j)
      EXPECT_FALSE(elementwise_kernel_key(specs[i], 90) == elementwise_kernel_key(specs[j], 90));
}

TEST(NvrtcBuiltin, EveryBuiltinKernelCompilesForSm90) {
  const std::vector<BuiltinProgram> programs = builtin_kernel_programs();
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::vector<std::string> failures;
  std::size_t kernels = 0;
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&] {
    for (std::size_t i = next++; i < programs.size(); i = next++) {
      const BuiltinProgram& p = programs[i];
      std::string failure;
      try {
        CompileOptions options = p.options;
        options.arch = 90;
        const CompiledProgram out = compile_to_cubin(p.source, p.name, options);
        if (!is_elf(out.cubin)) failure = p.name + ": not an ELF image";
        for (const std::string& k : p.kernel_names)
          if (out.cubin.find(k) == std::string::npos) failure += p.name + ": no symbol " + k + "\n";
      } catch (const CompileError& e) {
        failure = p.name + ":\n" + e.log();
      } catch (const std::exception& e) {
        failure = p.name + ": " + e.what();
      }
      std::lock_guard lock(mutex);
      kernels += p.kernel_names.size();
      if (!failure.empty()) failures.push_back(failure);
    }
  };
  const int jobs = test_jobs();
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("  %zu kernels in %zu programs: %.1f s on %d threads\n", kernels, programs.size(), s,
              jobs);
  EXPECT_TRUE(failures.empty()) << failures.size() << " programs failed; first:\n"
                                << failures.front();
}

}  // namespace
}  // namespace cunp::cuda

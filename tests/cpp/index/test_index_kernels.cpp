// The GPU programs of indexing, ufunc.at and the layout copies (transpose, concatenate)
// compiled to sm_90 cubin with NVRTC (no GPU needed), including ufunc.at variants the
// built-in list leaves to run time: 1-, 2- and 16-byte compare-and-swap, unary
// ufuncs, loops whose dtypes differ from the array's, every ndim bucket.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "builtin/builtin_kernels.hpp"
#include "cuda/copy_source.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "cunp/error.hpp"
#include "index/at_source.hpp"
#include "ufunc/ufunc.hpp"

namespace cunp {
namespace {

bool is_elf(const std::string& image) { return image.size() > 4 && image.compare(0, 4, "\x7f" "ELF") == 0; }

void expect_compiles(const std::string& source, const std::string& name, const std::vector<std::string>& kernels,
                     cuda::CompileOptions options) {
  options.arch = 90;
  try {
    const cuda::CompiledProgram out = cuda::compile_to_cubin(source, name, options);
    EXPECT_TRUE(is_elf(out.cubin)) << name;
    for (const std::string& k : kernels) EXPECT_NE(out.cubin.find(k), std::string::npos) << name << ": " << k;
  } catch (const CompileError& e) {
    ADD_FAILURE() << name << ":\n" << e.log();
  }
}

TEST(IndexKernels, BuiltinProgramsCompile) {
  int seen = 0;
  for (const cuda::BuiltinProgram& p : cuda::builtin_kernel_programs()) {
    if (p.name != "index" && p.name != "copy_layout" && p.name.rfind("at_", 0) != 0) continue;
    ++seen;
    expect_compiles(p.source, p.name, p.kernel_names, p.options);
  }
  EXPECT_GE(seen, 3);
}

TEST(IndexKernels, AtVariantsCompile) {
  auto spec = [](const char* ufunc, DType in0, DType in1, DType out, DType storage, int ndim, bool index64) {
    const ufunc::Ufunc& uf = ufunc::get(ufunc);
    index::AtKernelSpec s{.functor = uf.functor,
                          .header = uf.header,
                          .nin = uf.nin,
                          .in0 = in0,
                          .in1 = in1,
                          .out = out,
                          .storage = storage,
                          .ndim = ndim,
                          .index64 = index64};
    s.atomic = index::at_atomic_kind(s.functor, s.nin, in0, in1, out, storage);
    return s;
  };
  using D = DType;
  const index::AtKernelSpec specs[] = {
      spec("multiply", D::Float16, D::Float16, D::Float16, D::Float16, 1, false),    // 2-byte CAS
      spec("add", D::Int8, D::Int8, D::Int8, D::Int8, 3, false),                   // 1-byte CAS
      spec("maximum", D::Complex128, D::Complex128, D::Complex128, D::Complex128, 2, true),  // 16-byte CAS
      spec("true_divide", D::Float64, D::Float64, D::Float64, D::Int64, 64, true),  // loop dtype != storage
      spec("negative", D::Int16, D::Int16, D::Int16, D::Int16, 8, false),           // unary
      spec("subtract", D::UInt64, D::UInt64, D::UInt64, D::UInt64, 4, false),       // native, negated
      spec("less", D::Float32, D::Float32, D::Bool, D::Float32, 1, false),          // bool result
  };
  EXPECT_EQ(specs[0].atomic, index::AtomicKind::Cas);
  EXPECT_EQ(specs[5].atomic, index::AtomicKind::Subtract);
  for (const index::AtKernelSpec& s : specs) {
    const cuda::KernelSource src = index::at_kernel_source(s);
    expect_compiles(src.source, src.kernel_name, {src.kernel_name}, src.options);
  }
}

TEST(IndexKernels, AtomicKinds) {
  using D = DType;
  EXPECT_EQ(index::at_atomic_kind("cunp::ops::add", 2, D::Float32, D::Float32, D::Float32, D::Float32),
            index::AtomicKind::Add);
  EXPECT_EQ(index::at_atomic_kind("cunp::ops::maximum", 2, D::Float32, D::Float32, D::Float32, D::Float32),
            index::AtomicKind::Cas);  // NaN propagation needs the functor
  EXPECT_EQ(index::at_atomic_kind("cunp::ops::minimum", 2, D::Int64, D::Int64, D::Int64, D::Int64),
            index::AtomicKind::Min);
  EXPECT_EQ(index::at_atomic_kind("cunp::ops::add", 2, D::Float64, D::Float64, D::Float64, D::Int64),
            index::AtomicKind::Cas);
  EXPECT_EQ(index::at_atomic_kind("cunp::ops::add", 2, D::Int8, D::Int8, D::Int8, D::Int8), index::AtomicKind::Cas);
}

}  // namespace
}  // namespace cunp

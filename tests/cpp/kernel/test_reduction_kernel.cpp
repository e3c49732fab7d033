// cunp::ReductionKernel (cunp/reduction_kernel.hpp): construction, checks and the
// generated source with cpu arrays (compiled with NVRTC, no GPU needed), and runs
// against the built-in reductions on a CUDA device (skipped without one).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "runtime/kernel_cache.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/reduction_kernel.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

ndarray host(const Shape& shape, DType dt) {
  return arange(Scalar(shape_size(shape)), {.dtype = dt, .device = Device::cpu()}).reshape(shape);
}

std::size_t compile(const ReductionKernel& k, const std::vector<KernelArg>& args,
                    const ReductionCallOptions& call) {
  cuda::KernelSource source;
  source.kernel_name = k.name();
  source.source = k.cuda_source(args, call);
  source.options.extra_options = k.options().options;
  return cuda::compile_cached(source, 90, cuda::DiskCache::global()).cubin.size();
}

TEST(ReductionKernel, ConstructionAndDefaults) {
  const ReductionKernel k("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  EXPECT_EQ(k.name(), "l2norm");
  EXPECT_EQ(k.reduce_type(), "T");
  EXPECT_EQ(k.nin(), 1);
  EXPECT_EQ(k.nout(), 1);
  const ReductionKernel f("float32 x", "float64 y", "x", "a + b", "y = a", "0");
  EXPECT_EQ(f.reduce_type(), "double");
  EXPECT_EQ(f.name(), "reduce_kernel");
  EXPECT_THROW(ReductionKernel("T x", "", "x", "a + b", "", "0"), ValueError);
  EXPECT_THROW(ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "bad name"), ValueError);
}

TEST(ReductionKernel, ChecksAndSource) {
  const ReductionKernel k("T x, T s", "T y", "x * s", "a + b", "y = a", "0", "scaled_sum");
  const ndarray a = host({3, 4}, DType::Float32);
  EXPECT_THROW(k({a, 2.0}), TypeError);  // cpu arrays: CUDA only
  EXPECT_THROW(k.cuda_source({a}), TypeError);
  EXPECT_THROW(k.cuda_source({a, 2.0}, {.axis = 2}), AxisError);
  const std::string src = k.cuda_source({a, 2.0}, {.axis = 1, .keepdims = true});
  EXPECT_NE(src.find("typedef float T;"), std::string::npos);
  EXPECT_NE(src.find("typedef T _type_reduce;"), std::string::npos);
  EXPECT_GT(compile(k, {a, 2.0}, {.axis = 1, .keepdims = true}), 0u);
  EXPECT_GT(compile(k, {host({2, 3, 4}, DType::Complex128), 1.0}, {.axis = {0, 2}}), 0u);
  const ReductionKernel nomax("T x", "T y", "x", "(a > b ? a : b)", "y = a", "", "kmax");
  EXPECT_THROW(nomax.cuda_source({zeros({0, 3}, {.device = Device::cpu()})}, {.axis = 0}),
               ValueError);
  const ReductionKernel broken("T x", "T y", "x + undeclared_name", "a + b", "y = a", "0",
                               "broken");
  EXPECT_THROW(compile(broken, {a}, {}), CompileError);
}

TEST(ReductionKernelGpu, MatchesBuiltinReductions) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const ReductionKernel sumsq("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq_cpp");
  const ndarray a = host({37, 300}, DType::Float64);
  const ndarray g = a.to(Device::cuda(0));
  for (const Axes& axis : {Axes(), Axes(0), Axes(1)}) {
    const ndarray got = sumsq({g}, {.axis = axis})[0].to(Device::cpu());
    const ndarray want = sum(multiply(a, a), {.axis = axis});
    EXPECT_TRUE(allclose(got, want, 1e-12, 0.0)) << "axis";
  }
}

TEST(ReductionKernelGpu, SplitReductions) {
  // Few outputs, long reductions: the split path (Note [Split reductions]), with and
  // without identity, a complex reduce type, and a reduce type named by its C++ type.
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const ndarray a = host({4, 1 << 18}, DType::Float32);
  const ndarray g = a.to(Device::cuda(0));
  const ReductionKernel s("T x", "T y", "x", "a + b", "y = a", "0", "split_sum");
  const ReductionKernel m("T x", "T y", "x", "(a > b ? a : b)", "y = a", "", "split_max");
  EXPECT_TRUE(allclose(s({g})[0].to(Device::cpu()), sum(a.astype(DType::Float64)).astype(DType::Float32), 1e-5, 0));
  EXPECT_TRUE(allclose(s({g}, {.axis = 1})[0].to(Device::cpu()), sum(a, {.axis = 1}), 1e-5, 0));
  EXPECT_TRUE(array_equal(m({g})[0].to(Device::cpu()), max(a)));
  EXPECT_TRUE(array_equal(m({g}, {.axis = 1, .keepdims = true})[0].to(Device::cpu()),
                          max(a, {.axis = 1, .keepdims = true})));
  const ndarray c = a.astype(DType::Complex128);
  const ReductionKernel cs("T x", "T y", "x * x", "a + b", "y = a", "0", "split_csum");
  EXPECT_TRUE(allclose(cs({c.to(Device::cuda(0))})[0].to(Device::cpu()), sum(multiply(c, c)), 1e-12, 0));
  const ReductionKernel user("T x", "T y", "x", "a + b", "y = a", "0", "split_dsum",
                             {.reduce_type = "double", .preamble = "", .options = {}});
  EXPECT_TRUE(allclose(user({g})[0].to(Device::cpu()), sum(a.astype(DType::Float64)).astype(DType::Float32), 1e-6, 0));
}

}  // namespace
}  // namespace cunp

// The reductions on a CUDA device against the CPU engine: every kernel kind (Row, Col
// with and without splits, Full vector / strided) over dtypes, layouts, NaN, empty and
// 0-d inputs. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "reduce/gpu_reduce_source.hpp"

namespace cunp {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

// Deterministic values in [-50, 50] (a permutation-like pattern with repeats), as `dt`.
ndarray data(const Shape& shape, DType dt, int modulus = 101) {
  const ndarray i = arange(Scalar(shape_size(shape)), {.dtype = DType::Int64, .device = Device::cpu()});
  ndarray v = subtract(remainder(multiply(i, Scalar(std::int64_t{7919})), Scalar(std::int64_t{modulus})),
                       Scalar(std::int64_t{modulus / 2}));
  return v.astype(dt).reshape(shape);
}

ndarray gpu(const ndarray& a) { return a.to(Device::cuda(0)); }
ndarray cpu(const ndarray& a) { return a.to(Device::cpu()); }

double rtol_of(DType dt) {
  switch (dt) {
    case DType::Float16: return 1e-2;
    case DType::Float32: case DType::Complex64: return 1e-5;
    case DType::Float64: case DType::Complex128: return 1e-12;
    default: return 0.0;
  }
}

using Reduction = std::function<ndarray(const ndarray&)>;

void expect_same(const ndarray& a, const Reduction& f, const std::string& what) {
  const ndarray want = f(a);
  const ndarray got = cpu(f(gpu(a)));
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape(), want.shape()) << what;
  const double rtol = rtol_of(want.dtype());
  EXPECT_TRUE(allclose(got, want, rtol, 0.0, true)) << what;
}

const DType kDTypes[] = {DType::Bool,    DType::Int8,    DType::UInt8,   DType::Int32,    DType::Int64,
                         DType::UInt64,  DType::Float16, DType::Float32, DType::Float64, DType::Complex64};

struct Named {
  const char* name;
  Reduction f;
};

std::vector<Named> reductions(const Axes& axis) {
  return {
      {"sum", [axis](const ndarray& a) { return sum(a, {.axis = axis}); }},
      {"prod", [axis](const ndarray& a) { return prod(a, {.axis = axis}); }},
      {"max", [axis](const ndarray& a) { return max(a, {.axis = axis}); }},
      {"min", [axis](const ndarray& a) { return min(a, {.axis = axis}); }},
      {"any", [axis](const ndarray& a) { return any(a, {.axis = axis}); }},
      {"all", [axis](const ndarray& a) { return all(a, {.axis = axis}); }},
      {"mean", [axis](const ndarray& a) { return mean(a, {.axis = axis}); }},
  };
}

// The layouts of Note [Reduce launch]: full (vector), inner axis (Row), outer axis
// (Col, split and not), multi-axis, strided full.
struct Case {
  Shape shape;
  Axes axis;
  const char* what;
};
const Case kCases[] = {
    {{1000}, Axes(), "full contiguous"},
    {{3, 70, 5}, Axes(), "full 3-d"},
    {{64, 300}, Axes(1), "inner axis"},
    {{300, 10}, Axes(1), "short rows"},
    {{3000, 40}, Axes(0), "outer axis, split"},
    {{7, 33}, Axes(0), "outer axis"},
    {{6, 20, 9}, Axes({0, 2}), "multi-axis"},
    {{6, 20, 9}, Axes({0, 1}), "leading axes"},
};

// Note [Few kernels per test]: every (op, dtype, accumulator, kind) kernel is its own
// NVRTC compile on first use (hundreds of milliseconds each), and the NVRTC CI test
// already compiles all of them. So every layout runs with float32 (sum, max: all
// kinds of those two ops), and each dtype runs one reduction on one layout, rotating
// through both lists: a few dozen kernels in all.
TEST(ReduceGpu, MatchesCpuOverDtypesAndLayouts) {
  SKIP_WITHOUT_GPU();
  for (const Case& c : kCases) {
    const ndarray a = data(c.shape, DType::Float32);
    for (const Named& r : reductions(c.axis)) {
      const std::string rn = r.name;
      if (rn != "sum" && rn != "max") continue;
      expect_same(a, r.f, std::string(c.what) + " " + r.name + " float32");
    }
  }
  constexpr std::size_t kNumCases = std::size(kCases);
  std::size_t k = 0;
  for (DType dt : kDTypes) {
    // Over the 10 dtypes: every layout and every one of the 7 reductions at least once.
    const Case& c = kCases[k % kNumCases];
    const std::vector<Named> rs = reductions(c.axis);
    const Named& r = rs[(k * 3) % rs.size()];
    ++k;
    // prod of many values overflows alike on both engines for integers; floats
    // use a smaller range so products stay finite often enough to be meaningful.
    const ndarray in = std::string(r.name) == "prod" ? data(c.shape, dt, 3) : data(c.shape, dt);
    expect_same(in, r.f, std::string(c.what) + " " + r.name + " " + std::string(name(dt)));
  }
}

TEST(ReduceGpu, ArgMaxArgMin) {
  SKIP_WITHOUT_GPU();
  for (DType dt : kDTypes) {
    const ndarray a = data({40, 300}, dt);  // many ties: first occurrence must win
    for (std::optional<int> axis : {std::optional<int>{}, std::optional<int>{0}, std::optional<int>{1}}) {
      const std::string what = std::string(name(dt)) + " axis " + (axis ? std::to_string(*axis) : "None");
      expect_same(a, [axis](const ndarray& x) { return argmax(x, {.axis = axis}); }, "argmax " + what);
      expect_same(a, [axis](const ndarray& x) { return argmin(x, {.axis = axis}); }, "argmin " + what);
    }
  }
  // A long contiguous input takes the vector path with many partial blocks.
  const ndarray big = data({1 << 20}, DType::Float32);
  expect_same(big, [](const ndarray& x) { return argmax(x); }, "argmax big");
  expect_same(big, [](const ndarray& x) { return argmin(x); }, "argmin big");
}

TEST(ReduceGpu, NaN) {
  SKIP_WITHOUT_GPU();
  for (DType dt : {DType::Float16, DType::Float32, DType::Float64}) {
    ndarray a = data({50, 200}, dt);
    const ndarray nan = full({1}, Scalar(std::numeric_limits<double>::quiet_NaN()), {.dtype = dt});
    // NaNs at a few places, two of them in one row and one column.
    for (auto [i, j] : {std::pair{3, 7}, std::pair{3, 150}, std::pair{40, 7}}) a[{i, j}].assign(nan[0]);
    for (const Axes& axis : {Axes(), Axes(0), Axes(1)}) {
      const std::string what = std::string(name(dt));
      expect_same(a, [axis](const ndarray& x) { return max(x, {.axis = axis}); }, "max " + what);
      expect_same(a, [axis](const ndarray& x) { return min(x, {.axis = axis}); }, "min " + what);
      expect_same(a, [axis](const ndarray& x) { return nanmax(x, {.axis = axis}); }, "nanmax " + what);
      expect_same(a, [axis](const ndarray& x) { return nanmin(x, {.axis = axis}); }, "nanmin " + what);
      expect_same(a, [axis](const ndarray& x) { return nansum(x, {.axis = axis}); }, "nansum " + what);
      expect_same(a, [axis](const ndarray& x) { return sum(x, {.axis = axis}); }, "sum " + what);
    }
    for (std::optional<int> axis : {std::optional<int>{}, std::optional<int>{0}, std::optional<int>{1}}) {
      expect_same(a, [axis](const ndarray& x) { return argmax(x, {.axis = axis}); }, "argmax nan");
      expect_same(a, [axis](const ndarray& x) { return argmin(x, {.axis = axis}); }, "argmin nan");
    }
  }
}

TEST(ReduceGpu, EmptyAndZeroD) {
  SKIP_WITHOUT_GPU();
  const ndarray e = data({0, 5}, DType::Float32);
  expect_same(e, [](const ndarray& x) { return sum(x, {.axis = Axes(0)}); }, "sum empty axis 0");
  expect_same(e, [](const ndarray& x) { return sum(x, {.axis = Axes(1)}); }, "sum empty axis 1");
  expect_same(e, [](const ndarray& x) { return prod(x); }, "prod empty");
  expect_same(e, [](const ndarray& x) { return any(x); }, "any empty");
  expect_same(e, [](const ndarray& x) { return all(x); }, "all empty");
  EXPECT_THROW(max(gpu(e)), ValueError);
  EXPECT_THROW(argmax(gpu(e)), ValueError);
  const ndarray z = data({}, DType::Int32);
  for (const Named& r : reductions(Axes())) expect_same(z, r.f, std::string("0-d ") + r.name);
  expect_same(z, [](const ndarray& x) { return argmax(x); }, "0-d argmax");
}

TEST(ReduceGpu, StridedAndMisalignedInputs) {
  SKIP_WITHOUT_GPU();
  // prod of 8320 values in [-50, 50] overflows to inf before meeting a zero, and
  // inf * 0 is NaN or not by the order of the products: prod gets +-1 values
  // instead (2 d^2 - 1 for d in {-1, 0, 1}), whose product is exact in any order.
  const ndarray a = data({64, 130}, DType::Float32);
  const ndarray d = data({64, 130}, DType::Float32, 3);
  const ndarray signs = subtract(multiply(multiply(d, d), Scalar(2.0)), Scalar(1.0));
  for (const Named& r : reductions(Axes())) {
    const ndarray& in = std::string(r.name) == "prod" ? signs : a;
    expect_same(in.T(), r.f, std::string("transposed ") + r.name);
    expect_same(in.reshape({64 * 130})[{slice(1, std::nullopt)}], r.f,  // not 16-byte aligned
                std::string("offset ") + r.name);
  }
  const ndarray t = a.T();
  for (const Named& r : reductions(Axes(1))) expect_same(t, r.f, std::string("transposed axis 1 ") + r.name);
}

// No GPU needed: one program holding every kernel kind for a few (reducer, dtype)
// pairs, including the vector kinds of 1-, 2-, 4-, 8- and 16-byte inputs and the var/std
// squared-deviation reducers of real, integer and complex inputs.
TEST(ReduceNvrtc, EveryKindCompiles) {
  using reduce::ReduceKernelKind;
  using reduce::ReduceKernelSpec;
  using reduce::ReduceOp;
  const ReduceKernelSpec bases[] = {
      {.op = ReduceOp::Sum, .in = DType::Float32, .acc = DType::Float32},
      {.op = ReduceOp::Sum, .in = DType::Int8, .acc = DType::Int64},
      {.op = ReduceOp::ArgMax, .in = DType::Float64, .acc = DType::Int64},
      {.op = ReduceOp::ArgMin, .in = DType::Bool, .acc = DType::Int64},
      {.op = ReduceOp::ArgMax, .in = DType::Complex64, .acc = DType::Int64},
      {.op = ReduceOp::NanMin, .in = DType::Float16, .acc = DType::Float16},
      {.op = ReduceOp::Sum, .in = DType::Complex128, .acc = DType::Complex128},
      {.op = ReduceOp::Sum, .in = DType::Float32, .acc = DType::Float32, .center = true},
      {.op = ReduceOp::Sum, .in = DType::Complex64, .acc = DType::Float32, .center = true},
      {.op = ReduceOp::Sum, .in = DType::Int16, .acc = DType::Float64, .center = true},
      {.op = ReduceOp::Sum, .in = DType::Float16, .acc = DType::Float32, .center = true},  // var(dtype=f4)
      {.op = ReduceOp::Sum, .in = DType::Bool, .acc = DType::Float64, .center = true},
      {.op = ReduceOp::Sum, .in = DType::UInt64, .acc = DType::Float64, .center = true},
      {.op = ReduceOp::Sum, .in = DType::Complex128, .acc = DType::Float64, .center = true},
  };
  for (const ReduceKernelSpec& b : bases) {
    std::string source = reduce::reduce_preamble();
    std::vector<std::string> names;
    for (int k = 0; k < reduce::kNumReduceKernelKinds; ++k) {
      ReduceKernelSpec s = b;
      s.kind = static_cast<ReduceKernelKind>(k);
      source += reduce::reduce_kernel_entry(s);
      names.push_back(reduce::reduce_kernel_name(s));
    }
    cuda::CompileOptions options = reduce::reduce_compile_options();
    options.arch = 90;
    const cuda::CompiledProgram program = cuda::compile_to_cubin(source, names.front(), options);
    for (const std::string& n : names) EXPECT_NE(program.cubin.find(n), std::string::npos) << n;
  }
  EXPECT_EQ(reduce::reduce_kernel_name({.op = ReduceOp::Sum,
                                        .in = DType::Float32,
                                        .acc = DType::Float32,
                                        .kind = ReduceKernelKind::RowVector,
                                        .center = true}),
            "cunp_red_sqdev_f4_f4_rowv");
}

}  // namespace
}  // namespace cunp

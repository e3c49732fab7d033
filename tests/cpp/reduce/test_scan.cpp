// The scans (cunp/reduce.hpp: cumsum, cumprod, nancumsum, nancumprod, diff,
// ufunc_accumulate, ufunc_reduce): the C++ surface on the cpu, the CUDA engine against
// the CPU one over every kernel kind (skipped without a GPU), and NVRTC compiles of
// representative scan programs (no GPU needed). The Python tests compare with NumPy.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "runtime/nvrtc_compiler.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"
#include "reduce/gpu_scan_source.hpp"

namespace cunp {
namespace {

ndarray iota(const Shape& shape, DType dt = DType::Float64) {
  return arange(Scalar(shape_size(shape)), {.dtype = dt, .device = Device::cpu()}).reshape(shape);
}

TEST(Scan, CumsumAxesAndDtypes) {
  const ndarray a = iota({2, 3}, DType::Int8);
  const ndarray flat = cumsum(a);
  EXPECT_EQ(flat.dtype(), DType::Int64);
  EXPECT_EQ(flat.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 3, 6, 10, 15}));
  EXPECT_EQ(cumsum(a, {.axis = 0}).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 1, 2, 3, 5, 7}));
  EXPECT_EQ(cumsum(a, {.axis = -1}).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 1, 3, 3, 7, 12}));
  EXPECT_EQ(cumsum(iota({3}, DType::UInt16)).dtype(), DType::UInt64);
  EXPECT_EQ(cumsum(iota({3}, DType::Float16)).dtype(), DType::Float16);
  EXPECT_EQ(cumprod(iota({4}, DType::Float32), {.dtype = DType::Float64}).dtype(), DType::Float64);
  EXPECT_EQ(cumprod(add(iota({4}, DType::Int32), Scalar(1))).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{1, 2, 6, 24}));
  EXPECT_THROW(cumsum(a, {.axis = 2}), AxisError);
  // A 0-d array scans as 1-d.
  EXPECT_EQ(cumsum(full({}, Scalar(3.0), {.device = Device::cpu()})).shape(), (Shape{1}));
}

TEST(Scan, OutAndNaN) {
  const ndarray a = iota({4});
  ndarray out = zeros({4}, {.dtype = DType::Int32, .device = Device::cpu()});
  const ndarray r = cumsum(a, {.out = out});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(out.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 3, 6}));
  EXPECT_THROW(cumsum(a, {.out = zeros({3}, {.device = Device::cpu()})}), ValueError);
  ndarray b = iota({4});
  const Index at[] = {std::int64_t{1}};
  b.set_item(std::span<const Index>(at), Scalar(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_EQ(nancumsum(b).to_vector<double>(), (std::vector<double>{0, 0, 2, 5}));
  EXPECT_TRUE(std::isnan(cumsum(b).to_vector<double>()[3]));
  EXPECT_EQ(nancumprod(add(b, Scalar(1.0))).to_vector<double>(),
            (std::vector<double>{1, 1, 3, 12}));
}

TEST(Scan, Diff) {
  const ndarray a = multiply(iota({5}, DType::Int64), iota({5}, DType::Int64));
  EXPECT_EQ(diff(a).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 3, 5, 7}));
  EXPECT_EQ(diff(a, {.n = 2}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 2, 2}));
  const ndarray z = zeros({}, {.dtype = DType::Int64, .device = Device::cpu()});
  EXPECT_EQ(diff(a, {.n = 1, .axis = -1, .prepend = z}).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 1, 3, 5, 7}));
  EXPECT_EQ(diff(iota({2, 3}), {.axis = 0}).shape(), (Shape{1, 3}));
  EXPECT_THROW(diff(z), ValueError);
  EXPECT_THROW(diff(a, {.n = -1}), ValueError);
  EXPECT_EQ(diff(iota({3}).astype(DType::Bool)).to_vector<bool>(),
            (std::vector<bool>{true, false}));
}

TEST(Scan, UfuncReduceAndAccumulate) {
  const ndarray a = iota({2, 3}, DType::UInt8);
  EXPECT_EQ(ufunc_accumulate("maximum", a, {.axis = 1}).dtype(), DType::UInt8);
  EXPECT_EQ(ufunc_accumulate("add", a).to_vector<std::uint64_t>(),
            (std::vector<std::uint64_t>{0, 1, 2, 3, 5, 7}));
  EXPECT_EQ(ufunc_accumulate("bitwise_or", a, {.axis = 1}).to_vector<std::uint8_t>(),
            (std::vector<std::uint8_t>{0, 1, 3, 3, 7, 7}));
  EXPECT_EQ(ufunc_reduce("bitwise_xor", a, {.axis = 1}).to_vector<std::uint8_t>(),
            (std::vector<std::uint8_t>{3, 2}));
  EXPECT_EQ(
      ufunc_reduce("bitwise_and", zeros({0}, {.dtype = DType::UInt8, .device = Device::cpu()}))
          .item()
          .to_int64(),
      255);
  EXPECT_EQ(ufunc_reduce("logical_xor", a, {.axis = 0}).to_vector<bool>(),
            (std::vector<bool>{true, false, false}));
  EXPECT_EQ(ufunc_reduce("maximum", a, {.axis = {}, .initial = Scalar(9)}).item().to_int64(), 9);
  EXPECT_THROW(ufunc_reduce("bitwise_and", iota({3})), TypeError);
  EXPECT_THROW(ufunc_reduce("sin", iota({3})), ValueError);
  EXPECT_THROW(ufunc_accumulate("add", full({}, Scalar(1.0), {.device = Device::cpu()})),
               TypeError);
}

TEST(Scan, ReduceWhereAndInitial) {
  const ndarray a = iota({2, 3}, DType::Int32);
  const ndarray w = greater(iota({3}, DType::Int32), Scalar(0));  // [F, T, T]
  EXPECT_EQ(sum(a, {.axis = 1, .where = w}).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{3, 9}));
  EXPECT_EQ(sum(a, {.initial = Scalar(10)}).item().to_int64(), 25);
  EXPECT_THROW(max(a, {.where = w}), ValueError);
  EXPECT_EQ(
      max(a, {.axis = 1, .initial = Scalar(-1), .where = logical_not(w)}).to_vector<std::int32_t>(),
      (std::vector<std::int32_t>{0, 3}));
  EXPECT_EQ(min(zeros({0}, {.device = Device::cpu()}), {.initial = Scalar(2.0)}).item().to_double(),
            2.0);
  EXPECT_DOUBLE_EQ(mean(a, {.where = w}).item().to_double(), (1 + 2 + 4 + 5) / 4.0);
}

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

// Values in [-3, 3] with repeats, so float sums stay exact enough to compare closely.
ndarray small_values(const Shape& shape, DType dt) {
  const ndarray i =
      arange(Scalar(shape_size(shape)), {.dtype = DType::Int64, .device = Device::cpu()});
  return subtract(remainder(multiply(i, Scalar(std::int64_t{7919})), Scalar(std::int64_t{7})),
                  Scalar(std::int64_t{3}))
      .astype(dt)
      .reshape(shape);
}

// The launch choices of Note [Scan launch]: line kinds (slow axis, short lines, with
// and without chunks), block kinds (one long line, a few long rows, many rows).
TEST(ScanGpu, MatchesCpuOverLayouts) {
  SKIP_WITHOUT_GPU();
  struct Case {
    Shape shape;
    int axis;
    const char* what;
  };
  const Case cases[] = {
      {{1 << 20}, 0, "one long line (block with chunks; chained with CUNP_SCAN_CHAINED=1)"},
      {{(1 << 16) + 4097}, 0, "one line past the chained size, partial last tile"},
      {{2, 3, 40000}, -1, "six rows of 40000 (block, chunks)"},
      {{60000}, 0, "one line below the chained size (block, chunks)"},
      {{5000}, 0, "one line, 3 tiles"},
      {{3, 70000}, 1, "few long rows (block, chunks)"},
      {{3000, 300}, 1, "many rows (block, no chunks)"},
      {{2000, 20}, 1, "short rows (line)"},
      {{4000, 64}, 0, "slow axis (line, chunks)"},
      {{6, 7, 5}, 1, "middle axis"},
  };
  for (const Case& c : cases) {
    for (DType dt : {DType::Float32, DType::Int32}) {
      const ndarray a = small_values(c.shape, dt);
      const ndarray want = cumsum(a, {.axis = c.axis});
      const ndarray got = cumsum(a.to(Device::cuda(0)), {.axis = c.axis}).to(Device::cpu());
      ASSERT_EQ(got.dtype(), want.dtype()) << c.what;
      ASSERT_EQ(got.shape(), want.shape()) << c.what;
      EXPECT_TRUE(allclose(got, want, 1e-5, 1e-2, true)) << c.what << " " << name(dt);
    }
  }
  const ndarray m = small_values({300, 500}, DType::Float64);
  EXPECT_TRUE(
      allclose(ufunc_accumulate("maximum", m.to(Device::cuda(0)), {.axis = 1}).to(Device::cpu()),
               ufunc_accumulate("maximum", m, {.axis = 1}), 0.0, 0.0, true));
}

TEST(ScanSource, RepresentativeProgramsCompileForSm90) {
  // Every kind of a few (op, dtype) combinations, as one program each (the CI test
  // compiles all of builtin_scan_specs).
  using reduce::ScanKernelSpec;
  const ScanKernelSpec heads[] = {
      {.op = reduce::ScanOp::Add,
       .map = reduce::ScanMap::None,
       .in = DType::Float32,
       .acc = DType::Float32},
      {.op = reduce::ScanOp::Add,
       .map = reduce::ScanMap::NanZero,
       .in = DType::Float16,
       .acc = DType::Float16},
      {.op = reduce::ScanOp::Multiply,
       .map = reduce::ScanMap::None,
       .in = DType::Complex128,
       .acc = DType::Complex128},
      {.op = reduce::ScanOp::Add,
       .map = reduce::ScanMap::None,
       .in = DType::Bool,
       .acc = DType::Int64},
      {.op = reduce::ScanOp::BitwiseXor,
       .map = reduce::ScanMap::None,
       .in = DType::UInt8,
       .acc = DType::UInt8},
      {.op = reduce::ScanOp::LogicalAnd,
       .map = reduce::ScanMap::None,
       .in = DType::Float64,
       .acc = DType::Bool},
  };
  for (ScanKernelSpec spec : heads) {
    std::string source = reduce::scan_preamble();
    std::vector<std::string> names;
    for (int k = 0; k < reduce::kNumScanKernelKinds; ++k) {
      spec.kind = static_cast<reduce::ScanKernelKind>(k);
      source += reduce::scan_kernel_entry(spec);
      names.push_back(reduce::scan_kernel_name(spec));
    }
    cuda::CompileOptions options = reduce::scan_compile_options();
    options.arch = 90;
    const cuda::CompiledProgram program = cuda::compile_to_cubin(source, names[0], options);
    for (const std::string& n : names) EXPECT_NE(program.cubin.find(n), std::string::npos) << n;
  }
}

}  // namespace
}  // namespace cunp

// The reductions on a CUDA device against the CPU engine: every kernel kind (Row, Col
// with and without splits, Full vector / strided) over dtypes, layouts, NaN, empty and
// 0-d inputs. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"

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

TEST(ReduceGpu, MatchesCpuOverDtypesAndLayouts) {
  SKIP_WITHOUT_GPU();
  for (const Case& c : kCases)
    for (DType dt : kDTypes) {
      // prod of many values overflows alike on both engines for integers; floats
      // use a smaller range so products stay finite often enough to be meaningful.
      const ndarray a = data(c.shape, dt);
      for (const Named& r : reductions(c.axis)) {
        const ndarray in = std::string(r.name) == "prod" ? data(c.shape, dt, 3) : a;
        expect_same(in, r.f, std::string(c.what) + " " + r.name + " " + std::string(name(dt)));
      }
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
  const ndarray a = data({64, 130}, DType::Float32);
  const ndarray t = a.T();
  const ndarray off = a.reshape({64 * 130})[{slice(1, std::nullopt)}];  // not 16-byte aligned
  for (const Named& r : reductions(Axes())) {
    expect_same(t, r.f, std::string("transposed ") + r.name);
    expect_same(off, r.f, std::string("offset ") + r.name);
  }
  for (const Named& r : reductions(Axes(1))) expect_same(t, r.f, std::string("transposed axis 1 ") + r.name);
}

}  // namespace
}  // namespace cunp

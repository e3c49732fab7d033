// The C++ surface of cunp/statistics.hpp on the cpu device (the Python tests compare
// every case against NumPy on every device), and the NVRTC compile of the histogram,
// bincount and digitize kernels (no GPU needed).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "runtime/nvrtc_compiler.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/statistics.hpp"
#include "stats/bins_source.hpp"

namespace cunp {
namespace {

ndarray cpu(std::initializer_list<double> v) { return asarray<double>(v, Device::cpu()); }
ndarray cpu_i(std::initializer_list<std::int64_t> v) {
  return asarray<std::int64_t>(v, Device::cpu());
}

TEST(Statistics, MedianAndQuantile) {
  const ndarray a = cpu({3, 1, 4, 1, 5, 9}).reshape({2, 3});
  EXPECT_DOUBLE_EQ(median(a).item().to_double(), 3.5);
  EXPECT_EQ(median(a, {.axis = 1}).to_vector<double>(), (std::vector<double>{3, 5}));
  EXPECT_EQ(median(a, {.axis = 0, .keepdims = true}).shape(), (Shape{1, 3}));
  EXPECT_EQ(median(cpu_i({1, 2})).dtype(), DType::Float64);
  // linear: (n - 1) q = 1.25 -> 1 + 0.25 * (3 - 1)
  EXPECT_DOUBLE_EQ(quantile(cpu({1, 4, 3, 9, 1, 5}), 0.25).item().to_double(), 1.5);
  EXPECT_DOUBLE_EQ(
      percentile(cpu({1, 2, 3, 4}), 50.0, {.method = QuantileMethod::Lower}).item().to_double(), 2);
  EXPECT_DOUBLE_EQ(
      quantile(cpu({1, 2, 3, 4}), 0.5, {.method = QuantileMethod::Higher}).item().to_double(), 3);
  EXPECT_DOUBLE_EQ(
      quantile(cpu({1, 2, 3, 4}), 0.5, {.method = QuantileMethod::Midpoint}).item().to_double(),
      2.5);
  EXPECT_EQ(quantile(cpu_i({1, 2, 3, 4}), 0.5, {.method = QuantileMethod::Nearest}).dtype(),
            DType::Int64);
  const ndarray q = quantile(a, cpu({0.0, 1.0}), {.axis = 1});
  EXPECT_EQ(q.shape(), (Shape{2, 2}));
  EXPECT_EQ(q.to_vector<double>(), (std::vector<double>{1, 1, 4, 9}));
  EXPECT_EQ(parse_quantile_method("median_unbiased"), QuantileMethod::MedianUnbiased);
  EXPECT_THROW(parse_quantile_method("cubic"), ValueError);
  EXPECT_THROW(quantile(a, 1.5), ValueError);
  EXPECT_THROW(percentile(a, -1.0), ValueError);
  EXPECT_THROW(quantile(cpu({}), 0.5), IndexError);
}

TEST(Statistics, NanVariants) {
  const double nan = std::nan("");
  const ndarray a = cpu({1, nan, 3, 2});
  EXPECT_TRUE(std::isnan(median(a).item().to_double()));
  EXPECT_DOUBLE_EQ(nanmedian(a).item().to_double(), 2);
  EXPECT_TRUE(std::isnan(quantile(a, 0.5).item().to_double()));
  EXPECT_DOUBLE_EQ(nanquantile(a, 0.5).item().to_double(), 2);
  EXPECT_DOUBLE_EQ(nanpercentile(a, 100.0).item().to_double(), 3);
  EXPECT_TRUE(std::isnan(nanmedian(cpu({nan, nan})).item().to_double()));
}

TEST(Statistics, AverageCovCorrcoef) {
  const ndarray a = cpu({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(average(a, {.weights = cpu({1, 1, 1, 5})}).item().to_double(), 26.0 / 8.0);
  const auto [avg, scl] = average_returned(a.reshape({2, 2}), {.axis = 1, .weights = cpu({1, 3})});
  EXPECT_EQ(avg.to_vector<double>(), (std::vector<double>{1.75, 3.75}));
  EXPECT_EQ(scl.to_vector<double>(), (std::vector<double>{4, 4}));
  EXPECT_THROW(average(a, {.weights = cpu({0, 0, 0, 0})}), ZeroDivisionError);
  EXPECT_THROW(average(a.reshape({2, 2}), {.weights = cpu({1, 2})}), TypeError);
  const ndarray m = cpu({0, 1, 2, 2, 1, 0}).reshape({2, 3});
  EXPECT_EQ(cov(m).to_vector<double>(), (std::vector<double>{1, -1, -1, 1}));
  EXPECT_DOUBLE_EQ(cov(cpu({1, 2, 3}), {.bias = true}).item().to_double(), 2.0 / 3.0);
  EXPECT_EQ(corrcoef(m).to_vector<double>(), (std::vector<double>{1, -1, -1, 1}));
  EXPECT_THROW(cov(cpu({1}).reshape({1, 1, 1})), ValueError);
}

TEST(Statistics, Histogram) {
  const ndarray a = cpu({0, 0.5, 1, 1.5, 2, 2, 7});
  const auto [n, e] = histogram(a, 4, {.range = std::pair{0.0, 2.0}});
  EXPECT_EQ(n.dtype(), DType::Int64);
  EXPECT_EQ(n.to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{1, 1, 1, 3}));  // the last bin is closed
  EXPECT_EQ(e.to_vector<double>(), (std::vector<double>{0, 0.5, 1, 1.5, 2}));
  const auto [n2, e2] = histogram(a, cpu({0, 1, 2, 8}),
                                  {.weights = full({7}, Scalar(0.5), {.device = Device::cpu()})});
  EXPECT_EQ(n2.to_vector<double>(), (std::vector<double>{1, 1, 1.5}));
  const auto [d, e3] = histogram(cpu({1, 2, 2, 3}), 2, {.density = true});
  EXPECT_EQ(d.to_vector<double>(), (std::vector<double>{0.25, 0.75}));  // [1, 2) and [2, 3]
  EXPECT_EQ(histogram_bin_edges(cpu({1, 2, 3}), 2).to_vector<double>(),
            (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(histogram_bin_edges(cpu({1, 2, 3, 4}), "sqrt").size(), 3);
  EXPECT_THROW(histogram(a, 0), ValueError);
  EXPECT_THROW(histogram(a, cpu({2, 1})), ValueError);
  EXPECT_THROW(histogram(cpu({1, std::nan("")})), ValueError);
  EXPECT_THROW(histogram(a, 3, {.range = std::pair{1.0, 0.0}}), ValueError);
}

TEST(Statistics, BincountDigitize) {
  EXPECT_EQ(bincount(cpu_i({0, 3, 3, 1})).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{1, 1, 0, 2}));
  EXPECT_EQ(bincount(cpu_i({1}), std::nullopt, 3).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 1, 0}));
  EXPECT_EQ(bincount(cpu_i({0, 0}), cpu({0.5, 2})).to_vector<double>(), (std::vector<double>{2.5}));
  EXPECT_THROW(bincount(cpu_i({-1})), ValueError);
  EXPECT_THROW(bincount(cpu({1})), TypeError);
  EXPECT_THROW(bincount(cpu_i({1}), std::nullopt, -1), ValueError);
  const ndarray x = cpu({-1, 0, 0.5, 1, 2, std::nan("")});
  EXPECT_EQ(digitize(x, cpu({0, 1})).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 1, 1, 2, 2, 2}));
  EXPECT_EQ(digitize(x, cpu({0, 1}), true).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(digitize(x, cpu({1, 0})).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{2, 1, 1, 0, 0, 0}));
  EXPECT_THROW(digitize(x, cpu({0, 2, 1})), ValueError);
}

TEST(Statistics, BinKernelsCompileForSm90) {
  // Every kernel is compiled by NvrtcBuiltin.EveryBuiltinKernelCompilesForSm90; here
  // one of each kind, as the engine compiles it (one preamble, one entry).
  std::set<std::string> names;
  for (const stats::BinKernelSpec& s : stats::bin_kernel_specs())
    EXPECT_TRUE(names.insert(stats::bin_kernel_name(s)).second) << stats::bin_kernel_name(s);
  using K = stats::BinKernelKind;
  const stats::BinKernelSpec specs[] = {
      {.kind = K::Uniform,
       .data = DType::Float32,
       .wide = false,
       .weighted = false,
       .shared = true},
      {.kind = K::Uniform, .data = DType::Float16, .wide = true, .weighted = true, .shared = false},
      {.kind = K::Edges,
       .data = DType::Int8,
       .compare = DType::Float32,
       .weighted = false,
       .shared = true},
      {.kind = K::Bincount, .data = DType::Int64, .weighted = true, .shared = true},
      {.kind = K::Digitize, .data = DType::Bool, .compare = DType::Int64},
      {.kind = K::Range, .data = DType::Float16},
      {.kind = K::RangeFinish, .data = DType::Float64},
  };
  for (const stats::BinKernelSpec& s : specs) {
    EXPECT_TRUE(names.count(stats::bin_kernel_name(s))) << stats::bin_kernel_name(s);
    const cuda::KernelSource src = stats::bin_kernel_source(s);
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
}  // namespace cunp

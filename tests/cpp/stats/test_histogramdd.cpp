// np.histogramdd / np.histogram2d of cunp/statistics.hpp on every device; the
// expected values are NumPy 2's for the same calls.
#include <gtest/gtest.h>

#include <vector>

#include "../numeric/devices.hpp"
#include "cunp/error.hpp"
#include "cunp/statistics.hpp"

namespace cunp {
namespace {

using test::host;
using test::test_devices;
using test::vec;

TEST(StatisticsHistogramdd, Histogram2d) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray x = vec({0, 0.5, 1, 1, 2, 3.5, 4}, dev);
    const ndarray y = vec({1, 1, 2, 3, 3, 0, 4}, dev);
    auto [h, xe, ye] = histogram2d(x, y, 2);
    EXPECT_EQ(h.dtype(), DType::Float64);
    EXPECT_EQ(h.shape(), (Shape{2, 2}));
    EXPECT_EQ(host(h), (std::vector<double>{2, 2, 1, 2}));
    EXPECT_EQ(host(xe), (std::vector<double>{0, 2, 4}));
    EXPECT_EQ(host(ye), (std::vector<double>{0, 2, 4}));
    const HistogramBins counts[] = {std::int64_t{2}, std::int64_t{3}};
    auto [h2, xe2, ye2] =
        histogram2d(x, y, counts, {.range = {std::pair{0.0, 4.0}, std::pair{0.0, 6.0}}});
    EXPECT_EQ(host(h2), (std::vector<double>{2, 2, 0, 1, 1, 1}));
    EXPECT_EQ(host(ye2), (std::vector<double>{0, 2, 4, 6}));
    const HistogramBins edges[] = {vec({0, 1, 5}, dev), vec({0, 2, 4}, dev)};
    auto [hd, xd, yd] = histogram2d(x, y, edges, {.density = true});
    EXPECT_VEC_NEAR(
        host(hd),
        (std::vector<double>{0.14285714285714285, 0, 0.017857142857142856, 0.07142857142857142}),
        1e-15);
    auto [hw, xw, yw] = histogram2d(x, y, 2, {.weights = vec({0, 1, 2, 3, 4, 5, 6}, dev)});
    EXPECT_EQ(host(hw), (std::vector<double>{1, 5, 5, 10}));
  }
}

TEST(StatisticsHistogramdd, HistogramddShapesAndErrors) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    // Equal data in every dimension: the range widens by 0.5 each way.
    const HistogramddResult r = histogramdd(vec({1, 2, 3, 1, 2, 3}, dev).reshape({2, 3}), 2);
    EXPECT_EQ(r.hist.shape(), (Shape{2, 2, 2}));
    EXPECT_DOUBLE_EQ(sum(r.hist).item().to_double(), 2);
    ASSERT_EQ(r.edges.size(), 3u);
    EXPECT_EQ(host(r.edges[2]), (std::vector<double>{2.5, 3, 3.5}));
    const HistogramddResult one = histogramdd(vec({1, 2, 2, 5}, dev), 2);
    EXPECT_EQ(host(one.hist), (std::vector<double>{3, 1}));
    EXPECT_EQ(host(one.edges[0]), (std::vector<double>{1, 3, 5}));
    // float32 data: float32 edges.
    EXPECT_EQ(histogramdd(vec({1, 2, 3, 4}, dev).astype(DType::Float32).reshape({2, 2}), 2)
                  .edges[0]
                  .dtype(),
              DType::Float32);
    const ndarray s = vec({1, 2, 3, 4}, dev).reshape({2, 2});
    EXPECT_THROW(histogramdd(s, 0), ValueError);
    const HistogramBins three[] = {std::int64_t{1}, std::int64_t{2}, std::int64_t{3}};
    EXPECT_THROW(histogramdd(s, three), ValueError);
    const HistogramBins decreasing[] = {vec({3, 1}, dev)};
    EXPECT_THROW(histogramdd(s, decreasing), ValueError);
    EXPECT_THROW(histogramdd(s, 2, {.range = {std::pair{1.0, 0.0}, std::nullopt}}), ValueError);
    EXPECT_THROW(histogramdd(s, 2, {.range = {std::nullopt}}), ValueError);
    EXPECT_THROW(histogramdd(vec({1, std::nan("")}, dev), 2), ValueError);
  }
}

}  // namespace
}  // namespace cunp

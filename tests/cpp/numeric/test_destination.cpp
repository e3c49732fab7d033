// Results written into a given array by the routines themselves: trace's out
// (returned; a strided view receives the values and the rest of its base is
// untouched), partition_inplace; and linalg::vector_norm and the n_children_spawned
// of random::SeedSequence, on every device (values from NumPy).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/linalg.hpp"
#include "cunp/random.hpp"
#include "cunp/sort.hpp"
#include "devices.hpp"

namespace cunp {
namespace {

using test::host;
using test::test_devices;
using test::vec;

TEST(Destination, TraceOut) {
  for (const Device& dev : test_devices()) {
    const ndarray a = arange(Scalar(0), Scalar(24), Scalar(1), {.dtype = DType::Float64, .device = dev})
                          .reshape({2, 3, 4});
    ndarray base = full({8}, Scalar(-7.0), {.device = dev});
    const ndarray view = base.view({slice(std::nullopt, std::nullopt, 2)});
    // np.trace(np.arange(24.).reshape(2, 3, 4)): a[0, 0] + a[1, 1] == [16, 18, 20, 22].
    const ndarray r = trace(a, 0, 0, 1, std::nullopt, view);
    EXPECT_EQ(r.data(), view.data());
    EXPECT_VEC_NEAR(host(base), std::vector<double>({16, -7, 18, -7, 20, -7, 22, -7}), 0);
    EXPECT_THROW(trace(a, 0, 0, 1, std::nullopt, empty({3}, {.device = dev})), ValueError);
  }
}

TEST(Destination, PartitionInplace) {
  for (const Device& dev : test_devices()) {
    ndarray base = vec({9, 100, 3, 101, 7, 102, 1, 103, 5, 104}, dev);
    const ndarray view = base.view({slice(std::nullopt, std::nullopt, 2)});
    partition_inplace(view, {2});
    const std::vector<double> b = host(base);
    EXPECT_EQ(b[4], 5);  // the third smallest of 9, 3, 7, 1, 5
    EXPECT_LE(std::max(b[0], b[2]), 5);
    EXPECT_GE(std::min(b[6], b[8]), 5);
    EXPECT_VEC_NEAR(std::vector<double>({b[1], b[3], b[5], b[7], b[9]}),
                    std::vector<double>({100, 101, 102, 103, 104}), 0);
  }
}

TEST(Destination, VectorNorm) {
  for (const Device& dev : test_devices()) {
    const ndarray x = vec({3, -4, 0, 12, 1, -2}, dev).reshape({2, 3});
    EXPECT_NEAR(linalg::vector_norm(x).item().to_double(), std::sqrt(174.0), 1e-12);
    EXPECT_VEC_NEAR(host(linalg::vector_norm(x, {.axis = std::vector<int>{0}})),
                    std::vector<double>({std::sqrt(153.0), std::sqrt(17.0), 2}), 1e-12);
    EXPECT_VEC_NEAR(host(linalg::vector_norm(x, {.ord = 1, .axis = std::vector<int>{1}, .keepdims = true})),
                    std::vector<double>({7, 15}), 0);
    EXPECT_EQ(linalg::vector_norm(x, {.axis = std::vector<int>{1}, .keepdims = true}).shape(), Shape({2, 1}));
    EXPECT_EQ(linalg::vector_norm(x, {.ord = INFINITY, .axis = std::vector<int>{0, 1}}).item().to_double(), 12);
    EXPECT_EQ(linalg::vector_norm(x, {.ord = 0}).item().to_double(), 5);
    EXPECT_EQ(linalg::vector_norm(x.astype(DType::Int16)).dtype(), DType::Float64);
    EXPECT_EQ(linalg::vector_norm(x.astype(DType::Float32)).dtype(), DType::Float32);
    EXPECT_THROW(linalg::vector_norm(x, {.ord = "fro"}), ValueError);
    EXPECT_THROW(linalg::vector_norm(x, {.axis = std::vector<int>{2}}), AxisError);
  }
}

TEST(Destination, SeedSequenceSpawnContinues) {
  random::SeedSequence s(std::vector<std::uint32_t>{7}, {4}, 5);
  EXPECT_EQ(s.n_children_spawned(), 5u);
  const std::vector<random::SeedSequence> kids = s.spawn(2);
  EXPECT_EQ(kids[1].spawn_key(), std::vector<std::uint32_t>({4, 6}));
  EXPECT_EQ(s.n_children_spawned(), 7u);
  EXPECT_EQ(kids[0].generate_key(),
            random::SeedSequence(std::vector<std::uint32_t>{7}, {4, 5}).generate_key());
}

}  // namespace
}  // namespace cunp

// block, meshgrid, diagflat and fill_diagonal of cunp/assembly.hpp on every device;
// the expected values and messages are NumPy 2's for the same calls.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cunp/assembly.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "devices.hpp"

namespace cunp {
namespace {

using test::host;
using test::ivec;
using test::test_devices;
using test::vec;

std::string value_error(const BlockList& arrays) {
  try {
    block(arrays);
  } catch (const ValueError& e) {
    return e.what();
  }
  return "no error";
}

TEST(NumericAssembly, Block) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray eye2 = eye(2, std::nullopt, 0, {.device = dev});
    const ndarray r =
        block({{eye2, zeros({2, 1}, {.device = dev})},
               {ones({1, 2}, {.device = dev}), full({1, 1}, Scalar(5.0), {.device = dev})}});
    EXPECT_EQ(r.shape(), (Shape{3, 3}));
    EXPECT_EQ(host(r), (std::vector<double>{1, 0, 0, 0, 1, 0, 1, 1, 5}));
    // Scalars and 1-d arrays in one list: a 1-d result.
    const ndarray one = full({}, Scalar(std::int64_t{1}), {.device = dev});
    const ndarray two = full({}, Scalar(std::int64_t{2}), {.device = dev});
    EXPECT_EQ(block({one, two, ivec({3, 4}, dev)}).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{1, 2, 3, 4}));
    // A bare array is copied.
    const ndarray a = ivec({1, 2}, dev);
    const ndarray c = block(a);
    EXPECT_NE(c.data(), a.data());
    EXPECT_EQ(value_error(BlockList{{one, two}, one}),
              "List depths are mismatched. First element was at depth 2, but there is an element "
              "at depth 1 "
              "(arrays[1])");
    EXPECT_EQ(value_error(BlockList{{one}, BlockList(std::vector<BlockList>{})}),
              "List at arrays[1] cannot be empty");
  }
}

TEST(NumericAssembly, Meshgrid) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray xi[] = {ivec({1, 2, 3}, dev), ivec({4, 5}, dev)};
    const std::vector<ndarray> xy = meshgrid(xi);
    ASSERT_EQ(xy.size(), 2u);
    EXPECT_EQ(xy[0].shape(), (Shape{2, 3}));
    EXPECT_EQ(xy[0].to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 3, 1, 2, 3}));
    EXPECT_EQ(xy[1].to_vector<std::int64_t>(), (std::vector<std::int64_t>{4, 4, 4, 5, 5, 5}));
    EXPECT_TRUE(xy[0].writeable());
    const std::vector<ndarray> ij = meshgrid(xi, {.sparse = true, .indexing = MeshIndexing::IJ});
    EXPECT_EQ(ij[0].shape(), (Shape{3, 1}));
    EXPECT_EQ(ij[1].shape(), (Shape{1, 2}));
    const std::vector<ndarray> views = meshgrid(xi, {.copy = false, .indexing = MeshIndexing::IJ});
    EXPECT_EQ(views[0].shape(), (Shape{3, 2}));
    EXPECT_FALSE(views[0].writeable());
  }
}

TEST(NumericAssembly, DiagflatAndFillDiagonal) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray d = diagflat(ivec({1, 2, 3, 4}, dev).reshape({2, 2}), 1);
    EXPECT_EQ(d.shape(), (Shape{5, 5}));
    EXPECT_EQ(d.to_vector<std::int64_t>()[1], 1);
    EXPECT_EQ(d.to_vector<std::int64_t>()[19], 4);
    ndarray tall = zeros({5, 3}, {.dtype = DType::Int64, .device = dev});
    fill_diagonal(tall, ivec({7, 8}, dev), true);
    EXPECT_EQ(tall.to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{7, 0, 0, 0, 8, 0, 0, 0, 7, 0, 0, 0, 8, 0, 0}));
    ndarray plain = zeros({5, 3}, {.dtype = DType::Int64, .device = dev});
    fill_diagonal(plain, Scalar(4));
    EXPECT_EQ(plain.to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0}));
    ndarray cube = zeros({3, 3, 3}, {.device = dev});
    fill_diagonal(cube, Scalar(2.0));
    EXPECT_EQ(flatnonzero(cube).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 13, 26}));
    // A strided view is written through.
    ndarray big = zeros({4, 6}, {.device = dev});
    fill_diagonal(big.view({slice(), slice(std::nullopt, std::nullopt, 2)}), Scalar(1.0));
    EXPECT_EQ(flatnonzero(big).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 8, 16}));
    EXPECT_THROW(fill_diagonal(ivec({1, 2}, dev), Scalar(1)), ValueError);
    EXPECT_THROW(fill_diagonal(zeros({2, 3, 3}, {.device = dev}), Scalar(1.0)), ValueError);
    EXPECT_THROW(fill_diagonal(plain, Scalar(std::complex<double>(1, 1))), TypeError);
  }
}

}  // namespace
}  // namespace cunp

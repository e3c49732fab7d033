// tests/cpp/iter/test_layout.cpp — loop layouts: size-1 removal, axis ordering by the
// output's strides, coalescing, empty and 0-d loops, broadcast strides.
#include <gtest/gtest.h>

#include <vector>

#include "cunp/cunp.hpp"
#include "iter/layout.hpp"

namespace cunp::iter {
namespace {

std::string error_of_broadcast(const ndarray& a, const Shape& shape) {
  try {
    broadcast_strides(a, shape);
  } catch (const ValueError& e) {
    return e.what();
  }
  return "<no exception>";
}

TEST(IterLayout, ContiguousOperandsCoalesceToOneAxis) {
  const LoopLayout l = make_layout({2, 3, 4}, {{96, 32, 8}, {48, 16, 4}});
  EXPECT_EQ(l.shape, (Shape{24}));
  EXPECT_EQ(l.strides, (std::vector<Strides>{{8}, {4}}));
  EXPECT_EQ(l.size, 24);
  EXPECT_EQ(l.ndim(), 1);
  EXPECT_EQ(l.noperands(), 2);
  EXPECT_TRUE(l.contiguous(0, 8));
  EXPECT_TRUE(l.contiguous(1, 4));
  EXPECT_FALSE(l.contiguous(1, 8));
  EXPECT_EQ(l.max_offset(0), 23 * 8);
}

TEST(IterLayout, TransposedInputDoesNotMerge) {
  // out: C-ordered (2, 3) float64; in: the transpose of a C-ordered (3, 2).
  const LoopLayout l = make_layout({2, 3}, {{24, 8}, {8, 16}});
  EXPECT_EQ(l.shape, (Shape{2, 3}));
  EXPECT_EQ(l.strides, (std::vector<Strides>{{24, 8}, {8, 16}}));
  EXPECT_FALSE(l.contiguous(1, 8));
  EXPECT_EQ(l.max_offset(1), 8 + 2 * 16);
}

TEST(IterLayout, FortranOperandsAreReorderedThenMerged) {
  const LoopLayout l = make_layout({2, 3}, {{8, 16}, {4, 8}});
  EXPECT_EQ(l.shape, (Shape{6}));
  EXPECT_EQ(l.strides, (std::vector<Strides>{{8}, {4}}));
  const LoopLayout kept = make_layout({2, 3}, {{8, 16}, {4, 8}}, /*keep_order=*/true);
  EXPECT_EQ(kept.shape, (Shape{2, 3}));
  EXPECT_EQ(kept.strides, (std::vector<Strides>{{8, 16}, {4, 8}}));
  // A 3-d transposed output is walked in memory order.
  const LoopLayout t = make_layout({4, 3, 2}, {{8, 32, 96}});
  EXPECT_EQ(t.shape, (Shape{24}));
  EXPECT_EQ(t.strides, (std::vector<Strides>{{8}}));
}

TEST(IterLayout, BroadcastOperands) {
  // A row broadcast down the rows: stride 0 on axis 0 prevents merging.
  const LoopLayout row = make_layout({2, 3}, {{24, 8}, {0, 8}});
  EXPECT_EQ(row.shape, (Shape{2, 3}));
  EXPECT_EQ(row.strides, (std::vector<Strides>{{24, 8}, {0, 8}}));
  // A scalar broadcast everywhere merges with a contiguous output.
  const LoopLayout scalar = make_layout({2, 3, 4}, {{96, 32, 8}, {0, 0, 0}});
  EXPECT_EQ(scalar.shape, (Shape{24}));
  EXPECT_EQ(scalar.strides, (std::vector<Strides>{{8}, {0}}));
  EXPECT_EQ(scalar.max_offset(1), 0);
  // A column broadcast along the columns.
  const LoopLayout col = make_layout({3, 4}, {{32, 8}, {8, 0}});
  EXPECT_EQ(col.shape, (Shape{3, 4}));
  EXPECT_EQ(col.strides, (std::vector<Strides>{{32, 8}, {8, 0}}));
}

TEST(IterLayout, SizeOneAxesAreDropped) {
  const LoopLayout l = make_layout({1, 5, 1}, {{40, 8, 8}, {999, 4, -7}});
  EXPECT_EQ(l.shape, (Shape{5}));
  EXPECT_EQ(l.strides, (std::vector<Strides>{{8}, {4}}));
  const LoopLayout ones = make_layout({1, 1}, {{8, 8}});
  EXPECT_TRUE(ones.shape.empty());
  EXPECT_EQ(ones.size, 1);
  EXPECT_EQ(ones.strides, std::vector<Strides>(1));
  EXPECT_TRUE(ones.contiguous(0, 8));
  EXPECT_EQ(ones.max_offset(0), 0);
}

TEST(IterLayout, ZeroDimensionalAndEmpty) {
  const LoopLayout s = make_layout({}, {{}, {}});
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(s.size, 1);
  EXPECT_EQ(s.noperands(), 2);
  const LoopLayout e = make_layout({3, 0, 2}, {{0, 16, 8}, {0, 16, 8}});
  EXPECT_EQ(e.size, 0);
  EXPECT_EQ(e.shape, (Shape{0}));
  EXPECT_EQ(e.noperands(), 2);
}

TEST(IterLayout, NegativeStrides) {
  // out[i] = in[n-1-i]
  const LoopLayout l = make_layout({5}, {{8}, {-8}});
  EXPECT_EQ(l.shape, (Shape{5}));
  EXPECT_EQ(l.strides, (std::vector<Strides>{{8}, {-8}}));
  EXPECT_EQ(l.max_offset(1), 32);
  // Rows reversed, columns contiguous: no merge across the reversed axis.
  const LoopLayout r = make_layout({2, 3}, {{24, 8}, {-24, 8}});
  EXPECT_EQ(r.shape, (Shape{2, 3}));
  EXPECT_EQ(r.strides, (std::vector<Strides>{{24, 8}, {-24, 8}}));
}

class IterBroadcastStrides : public ::testing::Test {
 protected:
  DeviceGuard guard_{Device::cpu()};
};

TEST_F(IterBroadcastStrides, Strides) {
  const ndarray col = zeros({3, 1});
  EXPECT_EQ(broadcast_strides(col, {2, 3, 4}), (Strides{0, 8, 0}));
  const ndarray v = zeros({3}, {.dtype = DType::Int32});
  EXPECT_EQ(broadcast_strides(v, {2, 3}), (Strides{0, 4}));
  EXPECT_EQ(broadcast_strides(v, {3}), (Strides{4}));
  const ndarray one = zeros({1});
  EXPECT_EQ(broadcast_strides(one, {5}), (Strides{0}));
  EXPECT_EQ(broadcast_strides(one, {1}), (Strides{0}));
  const ndarray s = zeros({});
  EXPECT_EQ(broadcast_strides(s, {2, 2}), (Strides{0, 0}));
  const ndarray t = zeros({2, 3}).T();
  EXPECT_EQ(broadcast_strides(t, {4, 3, 2}), (Strides{0, 8, 24}));
  const ndarray e = zeros({0, 1});
  EXPECT_EQ(broadcast_strides(e, {0, 5}).back(), 0);
}

TEST_F(IterBroadcastStrides, Errors) {
  EXPECT_THROW(broadcast_strides(zeros({3}), {4}), ValueError);
  EXPECT_EQ(error_of_broadcast(zeros({3}), {4}), "could not broadcast input array from shape (3,) into shape (4,)");
  EXPECT_EQ(error_of_broadcast(zeros({2, 3}), {3}), "could not broadcast input array from shape (2,3) into shape (3,)");
  EXPECT_THROW(broadcast_strides(zeros({2, 1}), {3, 4}), ValueError);
  EXPECT_THROW(broadcast_strides(zeros({3}), {3, 0}), ValueError);
}

}  // namespace
}  // namespace cunp::iter

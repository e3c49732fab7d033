// The C++ surface of the manipulation routines (values were checked against NumPy).
#include <gtest/gtest.h>

#include <vector>

#include "cunp/cunp.hpp"

namespace {

using cunp::DType;
using cunp::ndarray;

ndarray iota(const cunp::Shape& shape) {
  return cunp::arange(cunp::shape_size(shape), {.dtype = DType::Int64, .device = cunp::Device::cpu()}).reshape(shape);
}

TEST(CoreManipulation, MoveaxisAndSwapaxesAreViews) {
  const ndarray a = iota({2, 3, 4});
  const int src[] = {0}, dst[] = {-1};
  const ndarray m = cunp::moveaxis(a, src, dst);
  EXPECT_EQ(m.shape(), (cunp::Shape{3, 4, 2}));
  EXPECT_EQ(m.storage(), a.storage());
  EXPECT_EQ(cunp::swapaxes(a, 0, 2).shape(), (cunp::Shape{4, 3, 2}));
  const int bad[] = {0, 0}, two[] = {1, 2};
  EXPECT_THROW(cunp::moveaxis(a, bad, two), cunp::ValueError);
  EXPECT_THROW(cunp::swapaxes(a, 0, 3), cunp::AxisError);
}

TEST(CoreManipulation, ConcatenateStackSplit) {
  const ndarray a = iota({2, 3});
  const ndarray parts[] = {a, a};
  const ndarray c = cunp::concatenate(parts, 1);
  EXPECT_EQ(c.shape(), (cunp::Shape{2, 6}));
  EXPECT_EQ(c.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  EXPECT_EQ(cunp::stack(parts, 1).shape(), (cunp::Shape{2, 2, 3}));
  const std::vector<ndarray> s = cunp::array_split(iota({7}), 3);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].shape(), (cunp::Shape{3}));
  EXPECT_EQ(s[2].to_vector<std::int64_t>(), (std::vector<std::int64_t>{5, 6}));
  EXPECT_THROW(cunp::split(iota({7}), 3), cunp::ValueError);
  const ndarray mismatch[] = {a, iota({3, 2})};
  EXPECT_THROW(cunp::concatenate(mismatch, 0), cunp::ValueError);
}

TEST(CoreManipulation, JoinOptions) {
  const ndarray a = iota({2, 2});
  const ndarray f = cunp::full({2, 1}, cunp::Scalar(1.5), {.dtype = DType::Float64, .device = cunp::Device::cpu()});
  const ndarray parts[] = {a, f};
  // dtype= with NumPy's casting rules: float64 -> int32 is not same_kind, is unsafe.
  EXPECT_THROW(cunp::concatenate(parts, 1, {.dtype = DType::Int32}), cunp::TypeError);
  const ndarray i = cunp::concatenate(parts, 1, {.dtype = DType::Int32, .casting = cunp::Casting::Unsafe});
  EXPECT_EQ(i.dtype(), DType::Int32);
  EXPECT_EQ(i.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 1, 2, 3, 1}));
  // casting='no' refuses any dtype change, even the result type's own promotion.
  EXPECT_THROW(cunp::concatenate(parts, 1, {.casting = cunp::Casting::No}), cunp::TypeError);
  // out= receives the result (a strided view here) and gives the dtype; never with dtype=.
  ndarray big = cunp::zeros({2, 6}, {.dtype = DType::Float32, .device = cunp::Device::cpu()});
  const ndarray view = big.view({cunp::slice(), cunp::slice(0, 6, 2)});
  const ndarray r = cunp::concatenate(parts, 1, {.out = view});
  EXPECT_EQ(r.data(), view.data());
  EXPECT_EQ(big.to_vector<float>(), (std::vector<float>{0, 0, 1, 0, 1.5f, 0, 2, 0, 3, 0, 1.5f, 0}));
  EXPECT_THROW(cunp::concatenate(parts, 1, {.dtype = DType::Float32, .out = view}), cunp::TypeError);
  EXPECT_THROW(cunp::concatenate(parts, 1, {.out = big}), cunp::ValueError);                  // wrong shape
  EXPECT_THROW(cunp::concatenate(parts, 1, {.out = big.reshape({12})}), cunp::ValueError);  // wrong ndim
  const ndarray ints = cunp::zeros({2, 3}, {.dtype = DType::Int64, .device = cunp::Device::cpu()});
  EXPECT_THROW(cunp::concatenate(parts, 1, {.out = ints}), cunp::TypeError);  // float64 -> int64, same_kind
  // axis nullopt flattens; out must then be 1-d of the total size.
  const ndarray flat = cunp::concatenate(parts, std::nullopt);
  EXPECT_EQ(flat.shape(), (cunp::Shape{6}));
  EXPECT_EQ(flat.dtype(), DType::Float64);
  EXPECT_THROW(cunp::concatenate(parts, std::nullopt, {.out = big}), cunp::ValueError);
  // stack / vstack / hstack pass the options on.
  const ndarray same[] = {a, a};
  EXPECT_EQ(cunp::stack(same, 0, {.dtype = DType::Float16}).dtype(), DType::Float16);
  EXPECT_EQ(cunp::vstack(same, {.dtype = DType::Int8}).shape(), (cunp::Shape{4, 2}));
  EXPECT_THROW(cunp::hstack(same, {.dtype = DType::Bool}), cunp::TypeError);
  EXPECT_THROW(cunp::concatenate(std::span<const ndarray>{}, 0), cunp::ValueError);
}

TEST(CoreManipulation, TileRepeatRollFlip) {
  const ndarray v = iota({3});
  const std::int64_t reps[] = {2, 2};
  EXPECT_EQ(cunp::tile(v, reps).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(cunp::repeat(v, 2).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 0, 1, 1, 2, 2}));
  const std::int64_t counts[] = {0, 1, 3};
  EXPECT_EQ(cunp::repeat(v, counts).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 2, 2}));
  const std::int64_t shift[] = {1};
  EXPECT_EQ(cunp::roll(v, shift).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 0, 1}));
  const ndarray f = cunp::flip(v);
  EXPECT_EQ(f.strides()[0], -8);
  EXPECT_EQ(f.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 1, 0}));
}

TEST(CoreManipulation, PadModes) {
  const ndarray v = iota({3});
  const std::pair<std::int64_t, std::int64_t> w[] = {{2, 3}};
  EXPECT_EQ(cunp::pad(v, w, "reflect").to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 1, 0, 1, 2, 1, 0, 1}));
  EXPECT_EQ(cunp::pad(v, w, "symmetric").to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 0, 0, 1, 2, 2, 1, 0}));
  EXPECT_EQ(cunp::pad(v, w, "wrap").to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(cunp::pad(v, w, "edge").to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 0, 0, 1, 2, 2, 2, 2}));
  EXPECT_EQ(cunp::pad(v, w, "constant", 9).to_vector<std::int64_t>(), (std::vector<std::int64_t>{9, 9, 0, 1, 2, 9, 9, 9}));
  EXPECT_EQ(cunp::pad(v, w, "median").to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 1, 0, 1, 2, 1, 1, 1}));
  EXPECT_EQ(cunp::pad(v, w, "maximum").to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 2, 0, 1, 2, 2, 2, 2}));
  EXPECT_THROW(cunp::pad(v, w, "bogus"), cunp::ValueError);
}

}  // namespace

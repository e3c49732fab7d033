// The index routines and ufunc.at through the C++ API on the cpu device (the Python
// tests compare them with NumPy on every device).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

ndarray ints(std::vector<std::int64_t> v) { return asarray<std::int64_t>(v, Device::cpu()); }
std::vector<std::int64_t> vec(const ndarray& a) { return a.astype(DType::Int64).to_vector<std::int64_t>(); }

TEST(IndexRoutines, ChooseModes) {
  const ndarray choices[] = {ints({0, 1, 2, 3}), ints({10, 11, 12, 13})};
  EXPECT_EQ(vec(choose(ints({0, 1, 1, 0}), choices)), (std::vector<std::int64_t>{0, 11, 12, 3}));
  EXPECT_EQ(vec(choose(ints({2, -1, 3, 0}), choices, ClipMode::Wrap)), (std::vector<std::int64_t>{0, 11, 12, 3}));
  EXPECT_EQ(vec(choose(ints({2, -1, 3, 0}), choices, ClipMode::Clip)), (std::vector<std::int64_t>{10, 1, 12, 3}));
  EXPECT_THROW(choose(ints({0, 2}), std::span<const ndarray>(choices, 2)), ValueError);
}

TEST(IndexRoutines, SelectPlacePutmask) {
  const ndarray x = ints({0, 1, 2, 3, 4});
  const ndarray conds[] = {less(x, 2), greater(x, 3)};
  const ndarray picks[] = {x, multiply(x, 10)};
  EXPECT_EQ(vec(select(conds, picks, Scalar(-1))), (std::vector<std::int64_t>{0, 1, -1, -1, 40}));
  ndarray a = ints({0, 1, 2, 3, 4});
  place(a, greater(a, 1), ints({7, 8}));
  EXPECT_EQ(vec(a), (std::vector<std::int64_t>{0, 1, 7, 8, 7}));
  ndarray b = ints({0, 1, 2, 3, 4});
  putmask(b, greater(b, 1), ints({7, 8}));
  EXPECT_EQ(vec(b), (std::vector<std::int64_t>{0, 1, 7, 8, 7}));
  EXPECT_THROW(place(a, ones({2}, {.dtype = DType::Bool, .device = Device::cpu()}), ints({1})), ValueError);
}

TEST(IndexRoutines, MultiIndex) {
  const ndarray coords[] = {ints({0, 1, 2}), ints({1, 0, 3})};
  EXPECT_EQ(vec(ravel_multi_index(coords, {3, 4})), (std::vector<std::int64_t>{1, 4, 11}));
  EXPECT_EQ(vec(ravel_multi_index(coords, {3, 4}, {}, Order::F)), (std::vector<std::int64_t>{3, 1, 11}));
  const ndarray bad[] = {ints({0, 3}), ints({0, 0})};
  EXPECT_THROW(ravel_multi_index(bad, {3, 4}), ValueError);
  const ClipMode wrap[] = {ClipMode::Wrap};
  EXPECT_EQ(vec(ravel_multi_index(bad, {3, 4}, wrap)), (std::vector<std::int64_t>{0, 0}));
  const std::vector<ndarray> u = unravel_index(ints({5, 11}), {3, 4});
  EXPECT_EQ(vec(u[0]), (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(vec(u[1]), (std::vector<std::int64_t>{1, 3}));
  try {
    unravel_index(ints({12}), {3, 4});
    FAIL() << "no ValueError";
  } catch (const ValueError& e) {
    EXPECT_EQ(std::string(e.what()), "index 12 is out of bounds for array with size 12");
  }
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no exception";
}

TEST(IndexRoutines, MultiIndexErrorsAndForms) {
  // bool coordinates count as 0/1; a zero extent fails only a non-empty call.
  const ndarray flags[] = {ones({2}, {.dtype = DType::Bool, .device = Device::cpu()}), ints({0, 3})};
  EXPECT_EQ(vec(ravel_multi_index(flags, {3, 4})), (std::vector<std::int64_t>{4, 7}));
  EXPECT_EQ(message_of([&] { ravel_multi_index(flags, {3, 0}); }),
            "cannot unravel if shape has zero entries (is empty).");
  const ndarray empties[] = {ints({}), ints({})};
  EXPECT_EQ(ravel_multi_index(empties, {3, 0}).shape(), (Shape{0}));
  const ClipMode three[] = {ClipMode::Clip, ClipMode::Wrap, ClipMode::Raise};
  EXPECT_EQ(message_of([&] { ravel_multi_index(flags, {3, 4}, three); }),
            "list of clipmodes has wrong length (3 instead of 2)");
  const ndarray floats[] = {ones({1}, {.dtype = DType::Float64, .device = Device::cpu()}), ints({0})};
  EXPECT_THROW(ravel_multi_index(floats, {3, 4}), TypeError);
  EXPECT_EQ(message_of([&] { ravel_multi_index(flags, {3, -4}); }), "invalid entry in coordinates array");
  EXPECT_THROW(ravel_multi_index(flags, {std::int64_t{1} << 40, std::int64_t{1} << 40}), ValueError);
  const ClipMode clip_wrap[] = {ClipMode::Clip, ClipMode::Wrap};
  const ndarray outside[] = {ints({-7, 30}), ints({9, -9})};
  EXPECT_EQ(vec(ravel_multi_index(outside, {3, 4}, clip_wrap)), (std::vector<std::int64_t>{1, 11}));
  // unravel_index names the first offending index in C order.
  EXPECT_EQ(message_of([&] { unravel_index(ints({1, 20, -1}), {3, 4}); }),
            "index 20 is out of bounds for array with size 12");
  EXPECT_EQ(message_of([&] { unravel_index(ints({0}), {3, -4}); }), "index 0 is out of bounds for array with size -12");
  EXPECT_EQ(message_of([&] { unravel_index(ints({0}), {std::int64_t{1} << 40, std::int64_t{1} << 40}); }),
            "dimensions are too large; arrays and shapes with a total size greater than 'intp' are not supported.");
  EXPECT_THROW(unravel_index(ints({0}), {3, 4}, Order::A), ValueError);
  // Negative extents: NumPy's truncating C arithmetic, 5 in (-3, -4) is (-1, 1).
  const std::vector<ndarray> neg = unravel_index(ints({5}), {-3, -4});
  EXPECT_EQ(vec(neg[0]), (std::vector<std::int64_t>{-1}));
  EXPECT_EQ(vec(neg[1]), (std::vector<std::int64_t>{1}));
  EXPECT_TRUE(unravel_index(ints({0}), {}).empty());
}

TEST(IndexRoutines, TriAndDiagIndices) {
  const std::vector<ndarray> t = tril_indices(3, 0, std::nullopt, Device::cpu());
  EXPECT_EQ(vec(t[0]), (std::vector<std::int64_t>{0, 1, 1, 2, 2, 2}));
  EXPECT_EQ(vec(t[1]), (std::vector<std::int64_t>{0, 0, 1, 0, 1, 2}));
  const std::vector<ndarray> u = triu_indices(2, 1, 3, Device::cpu());
  EXPECT_EQ(vec(u[0]), (std::vector<std::int64_t>{0, 0, 1}));
  EXPECT_EQ(vec(u[1]), (std::vector<std::int64_t>{1, 2, 2}));
  EXPECT_EQ(diag_indices(4, 3, Device::cpu()).size(), 3u);
  const ndarray ix = indices({2, 3}, DType::Int64, Device::cpu());
  EXPECT_EQ(ix.shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(vec(ix[1].reshape({-1})), (std::vector<std::int64_t>{0, 1, 2, 0, 1, 2}));
}

TEST(IndexRoutines, UfuncAtAccumulatesDuplicates) {
  ndarray a = zeros({4}, {.dtype = DType::Int64, .device = Device::cpu()});
  const FancyIndex ix[] = {ints({0, 0, 3, 0})};
  ufunc_at("add", a, ix, ints({1, 2, 3, 4}));
  EXPECT_EQ(vec(a), (std::vector<std::int64_t>{7, 0, 0, 3}));
  ufunc_at("maximum", a, ix, Scalar(5));
  EXPECT_EQ(vec(a), (std::vector<std::int64_t>{7, 0, 0, 5}));
  ufunc_at("negative", a, ix);
  EXPECT_EQ(vec(a), (std::vector<std::int64_t>{-7, 0, 0, -5}));  // three times at 0
  ufunc_at("add", a, ix, Scalar(1.7));  // float loop, cast back unsafely each time
  EXPECT_EQ(vec(a), (std::vector<std::int64_t>{-1, 0, 0, -3}));  // -7 -> -5.3 -> -5 -> -3.3 -> ...
  const FancyIndex bad[] = {ints({4})};
  EXPECT_THROW(ufunc_at("add", a, bad, Scalar(1)), IndexError);
  EXPECT_THROW(ufunc_at("add", a, ix), ValueError);
  EXPECT_THROW(ufunc_at("divmod", a, ix, Scalar(1)), ValueError);
}

TEST(IndexRoutines, InsertDeleteTrim) {
  const ndarray a = ints({1, 2, 3});
  EXPECT_EQ(vec(insert(a, 1, ints({8, 9}))), (std::vector<std::int64_t>{1, 8, 9, 2, 3}));
  const std::int64_t at[] = {0, 3, 0};
  EXPECT_EQ(vec(insert(a, at, ints({7, 8, 9}))), (std::vector<std::int64_t>{7, 9, 1, 2, 3, 8}));
  const std::int64_t gone[] = {0, -1};
  EXPECT_EQ(vec(delete_(a, gone)), (std::vector<std::int64_t>{2}));
  const std::int64_t out[] = {3};
  EXPECT_THROW(delete_(a, out), IndexError);
  EXPECT_EQ(vec(trim_zeros(ints({0, 0, 4, 0, 5, 0}))), (std::vector<std::int64_t>{4, 0, 5}));
  EXPECT_EQ(vec(trim_zeros(ints({0, 4, 0}), "f")), (std::vector<std::int64_t>{4, 0}));
}

}  // namespace
}  // namespace cunp

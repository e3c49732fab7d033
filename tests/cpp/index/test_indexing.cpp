// take/put/getitem/setitem/nonzero on the cpu device; the index kernel sources.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/ufunc.hpp"
#include "index/index_source.hpp"

namespace cunp {
namespace {

ndarray iota(std::int64_t n) {
  return arange(Scalar(n), {.dtype = DType::Int64, .device = Device::cpu()});
}

TEST(Indexing, TakeAndBounds) {
  const ndarray a = iota(12).reshape({3, 4});
  const ndarray idx = asarray<std::int64_t>({2, -1, 0}, Device::cpu());
  EXPECT_EQ(take(a, idx, 1).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{2, 3, 0, 6, 7, 4, 10, 11, 8}));
  EXPECT_EQ(take(a, idx).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 11, 0}));
  try {
    take(a, asarray<std::int64_t>({0, 10}, Device::cpu()), 0);
    FAIL() << "no IndexError";
  } catch (const IndexError& e) {
    EXPECT_EQ(std::string(e.what()), "index 10 is out of bounds for axis 0 with size 3");
  }
}

TEST(Indexing, PutLastWins) {
  ndarray a = zeros({5}, {.dtype = DType::Int64, .device = Device::cpu()});
  put(a, asarray<std::int64_t>({1, 1, 3, 1}, Device::cpu()), asarray<std::int64_t>({5, 6, 7, 8}, Device::cpu()));
  EXPECT_EQ(a.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 8, 0, 7, 0}));
}

TEST(Indexing, SeparatedAdvancedIndicesGoFirst) {
  const ndarray a = iota(24).reshape({2, 3, 4});
  const FancyIndex ix[] = {asarray<std::int64_t>({0, 1}, Device::cpu()), slice(),
                           asarray<std::int64_t>({3, 0}, Device::cpu())};
  const ndarray r = getitem(a, ix);
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_EQ(r.to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 7, 11, 12, 16, 20}));
}

TEST(Indexing, MaskAndNonzero) {
  const ndarray a = iota(6).reshape({2, 3});
  const ndarray mask = asarray<bool>({true, false, true, false, true, false}, Device::cpu()).reshape({2, 3});
  const FancyIndex ix[] = {mask};
  EXPECT_EQ(getitem(a, ix).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 2, 4}));
  const std::vector<ndarray> nz = nonzero(mask);
  ASSERT_EQ(nz.size(), 2u);
  EXPECT_EQ(nz[0].to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 0, 1}));
  EXPECT_EQ(nz[1].to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 2, 1}));
  const FancyIndex bad[] = {asarray<bool>({true, false}, Device::cpu())};
  EXPECT_THROW(getitem(iota(3), bad), IndexError);
}

ndarray bools(const Shape& shape, bool value) {
  return full(shape, Scalar(value), {.dtype = DType::Bool, .device = Device::cpu()});
}

std::string index_error(const ndarray& a, std::vector<FancyIndex> ix) {
  try {
    getitem(a, ix);
  } catch (const IndexError& e) {
    return e.what();
  }
  return "no IndexError";
}

TEST(Indexing, EmptyMasksAndBoundsOfEmptySelections) {
  const ndarray a = iota(6).reshape({2, 3});
  // Extents of length 0 of a mask are not checked against the array (NumPy's rule).
  EXPECT_EQ(getitem(a, std::vector<FancyIndex>{bools({0}, false)}).shape(), (Shape{0, 3}));
  EXPECT_EQ(getitem(a, std::vector<FancyIndex>{slice(), bools({0}, false)}).shape(), (Shape{2, 0}));
  EXPECT_EQ(getitem(a, std::vector<FancyIndex>{newaxis, bools({0}, false)}).shape(), (Shape{1, 0, 3}));
  EXPECT_EQ(getitem(a, std::vector<FancyIndex>{bools({2, 0}, true)}).shape(), (Shape{0}));
  EXPECT_EQ(index_error(a, {bools({0, 2}, false)}),
            "boolean index did not match indexed array along axis 1; size of axis is 3 but size of corresponding "
            "boolean axis is 2");
  // Integers beside an empty selection are still bounds-checked.
  EXPECT_EQ(index_error(a, {std::int64_t{5}, bools({3}, false)}), "index 5 is out of bounds for axis 0 with size 2");
  EXPECT_EQ(index_error(a, {bools({2}, false), std::int64_t{-4}}), "index -4 is out of bounds for axis 1 with size 3");
  EXPECT_EQ(index_error(a, {bools({0}, false), std::int64_t{9}}), "index 9 is out of bounds for axis 1 with size 3");
  // Index arrays are checked when their broadcast is non-empty (even if the result is).
  const ndarray five = asarray<std::int64_t>({5}, Device::cpu());
  EXPECT_EQ(index_error(a, {five, slice(0, 0)}), "index 5 is out of bounds for axis 0 with size 2");
  EXPECT_EQ(getitem(a, std::vector<FancyIndex>{five, zeros({0}, {.dtype = DType::Int64, .device = Device::cpu()})})
                .shape(),
            (Shape{0}));
  EXPECT_EQ(index_error(a, {bools({0}, false), asarray<std::int64_t>({0, 1}, Device::cpu())}),
            "shape mismatch: indexing arrays could not be broadcast together with shapes (0,) (2,) ");
}

TEST(Indexing, AssignmentValueChecks) {
  ndarray a = iota(6).reshape({2, 3});
  const ndarray two = asarray<std::int64_t>({1, 2}, Device::cpu());
  // An empty result still checks the value's shape.
  try {
    setitem(a, std::vector<FancyIndex>{bools({0}, false)}, two);
    FAIL() << "no ValueError";
  } catch (const ValueError& e) {
    EXPECT_EQ(std::string(e.what()),
              "shape mismatch: value array of shape (2,) could not be broadcast to indexing result of shape (0,3)");
  }
  // A mask of a's shape: 1 or count values, at most one dimension.
  const ndarray mask = greater(a, Scalar(std::int64_t{2}));
  try {
    setitem(a, std::vector<FancyIndex>{mask}, two);
    FAIL() << "no ValueError";
  } catch (const ValueError& e) {
    EXPECT_EQ(std::string(e.what()), "NumPy boolean array indexing assignment cannot assign 2 input values to the 3 "
                                     "output values where the mask is true");
  }
  EXPECT_THROW(setitem(a, std::vector<FancyIndex>{mask}, two.reshape({1, 2})), TypeError);
  setitem(a, std::vector<FancyIndex>{mask}, asarray<std::int64_t>({7, 8, 9}, Device::cpu()));
  EXPECT_EQ(a.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 7, 8, 9}));
  // Extra leading dimensions of extent 1 are dropped.
  setitem(a, std::vector<FancyIndex>{asarray<std::int64_t>({0}, Device::cpu())},
          full({1, 1, 3}, Scalar(std::int64_t{4}), {.dtype = DType::Int64, .device = Device::cpu()}));
  EXPECT_EQ(a.to_vector<std::int64_t>(), (std::vector<std::int64_t>{4, 4, 4, 7, 8, 9}));
}

TEST(Indexing, KernelSpecsHaveUniqueNames) {
  std::vector<std::string> names;
  for (const index::IndexKernelSpec& s : index::index_kernel_specs()) {
    const std::string n = index::index_kernel_name(s);
    EXPECT_NE(index::index_kernel_entry(s).find(n), std::string::npos) << n;
    names.push_back(n);
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
  // fixed kinds, mask gathers / scatters, gathers / direct gathers / scatters
  EXPECT_EQ(names.size(), 5u + 2u * 5u + 3u * 5u * 8u * 2u);
}

}  // namespace
}  // namespace cunp

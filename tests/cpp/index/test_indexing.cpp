// take/put/getitem/setitem/nonzero on the cpu device; the index kernel sources.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
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

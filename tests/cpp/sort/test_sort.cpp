// cunp/sort.hpp on the cpu device: NumPy's orders (NaN last, -0.0 == 0.0, complex by
// NaN kind then real then imaginary), stability, axes, partition, searchsorted,
// unique and the set routines, and their errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/sort.hpp"

namespace cunp {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

ndarray cpu_array(const std::vector<double>& v) { return asarray(v, Device::cpu()); }

TEST(Sort, NaNLastAndSignedZerosEqual) {
  const ndarray a = cpu_array({kNaN, 1.0, -0.0, -kInf, 0.0, -kNaN, -1.0});
  const std::vector<double> s = sort(a).to_vector<double>();
  EXPECT_EQ(s[0], -kInf);
  EXPECT_EQ(s[1], -1.0);
  EXPECT_TRUE(std::signbit(s[2]));  // stable: -0.0 came first
  EXPECT_FALSE(std::signbit(s[3]));
  EXPECT_EQ(s[4], 1.0);
  EXPECT_TRUE(std::isnan(s[5]) && std::isnan(s[6]));
  EXPECT_EQ(argsort(a).to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 6, 2, 4, 1, 0, 5}));
}

TEST(Sort, EveryIntegerWidthAndSign) {
  const ndarray a = asarray(std::vector<std::int8_t>{5, -128, 127, 0, -1}, Device::cpu());
  EXPECT_EQ(sort(a).to_vector<std::int8_t>(), (std::vector<std::int8_t>{-128, -1, 0, 5, 127}));
  const ndarray u = asarray(std::vector<std::uint64_t>{~0ull, 0, 1ull << 63, 7}, Device::cpu());
  EXPECT_EQ(sort(u).to_vector<std::uint64_t>(), (std::vector<std::uint64_t>{0, 7, 1ull << 63, ~0ull}));
  const ndarray b = asarray(std::vector<std::uint8_t>{1, 0, 1, 0}, Device::cpu()).astype(DType::Bool);
  EXPECT_EQ(argsort(b).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 3, 0, 2}));
}

TEST(Sort, ComplexOrderOfNumPy) {
  using C = std::complex<double>;
  const ndarray a = asarray(std::vector<C>{C(kNaN, 1), C(2, 0), C(1, kNaN), C(1, 0), C(kNaN, kNaN), C(kNaN, 0)},
                            Device::cpu());
  // R + Rj < R + nanj < nan + Rj < nan + nanj
  EXPECT_EQ(argsort(a).to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 1, 2, 5, 0, 4}));
}

TEST(Sort, AxesAndFlattened) {
  const ndarray a = asarray(std::vector<std::int32_t>{3, 1, 2, 0, 5, 4}, Device::cpu()).reshape({2, 3});
  EXPECT_EQ(sort(a, 0).to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 2, 3, 5, 4}));
  EXPECT_EQ(sort(a, -1).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 2, 3, 0, 4, 5}));
  const ndarray f = sort(a, std::nullopt);
  EXPECT_EQ(f.shape(), (Shape{6}));
  EXPECT_EQ(argsort(a, 0).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 0, 0, 0, 1, 1}));
  EXPECT_THROW(sort(a, 2), AxisError);
  EXPECT_THROW(sort(zeros({}, {.device = Device::cpu()})), AxisError);
  EXPECT_EQ(argsort(zeros({}, {.device = Device::cpu()})).shape(), (Shape{1}));
}

TEST(Sort, InPlaceAndReadOnly) {
  ndarray a = asarray(std::vector<double>{2, 1, 3}, Device::cpu());
  sort_inplace(a);
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{1, 2, 3}));
  a.set_writeable(false);
  EXPECT_THROW(sort_inplace(a), ValueError);
}

TEST(Sort, LongRowIsStableAcrossThreads) {
  // Past the threaded threshold: equal keys must keep their input order.
  const std::int64_t n = (std::int64_t{1} << 19) + 17;
  std::vector<std::int32_t> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<std::int32_t>((i * 7919) % 13);
  const std::vector<std::int64_t> idx = argsort(asarray(v, Device::cpu())).to_vector<std::int64_t>();
  for (std::int64_t i = 1; i < n; ++i) {
    const auto a = idx[static_cast<std::size_t>(i - 1)], b = idx[static_cast<std::size_t>(i)];
    const auto va = v[static_cast<std::size_t>(a)], vb = v[static_cast<std::size_t>(b)];
    ASSERT_TRUE(va < vb || (va == vb && a < b)) << "at " << i;
  }
}

TEST(Sort, ParseKindAndSide) {
  EXPECT_EQ(parse_sort_kind("stable"), SortKind::Stable);
  EXPECT_EQ(parse_sort_kind("mergesort"), SortKind::MergeSort);
  EXPECT_THROW(parse_sort_kind("bogus"), ValueError);
  EXPECT_EQ(parse_side("right"), Side::Right);
  EXPECT_THROW(parse_side("middle"), ValueError);
}

TEST(Partition, KthInPlaceAndParts) {
  const ndarray a = cpu_array({9, 1, 8, 2, kNaN, 7, 3, 6, 4, 5});
  const std::vector<double> p = partition(a, {3, -2}).to_vector<double>();
  EXPECT_EQ(p[3], 4.0);
  EXPECT_EQ(p[8], 9.0);
  for (int i = 0; i < 3; ++i) EXPECT_LT(p[static_cast<std::size_t>(i)], 4.0);
  for (int i = 4; i < 8; ++i) EXPECT_TRUE(p[static_cast<std::size_t>(i)] > 4.0 && p[static_cast<std::size_t>(i)] < 9.0);
  EXPECT_TRUE(std::isnan(p[9]));
  const std::vector<std::int64_t> ip = argpartition(a, {0}).to_vector<std::int64_t>();
  EXPECT_EQ(ip[0], 1);
  EXPECT_THROW(partition(a, {10}), ValueError);
  EXPECT_THROW(argpartition(a, {-11}), ValueError);
}

TEST(Lexsort, LastKeyIsPrimary) {
  const ndarray first = asarray(std::vector<std::int64_t>{1, 0, 1, 0}, Device::cpu());
  const ndarray second = asarray(std::vector<std::int64_t>{2, 2, 1, 1}, Device::cpu());
  const ndarray keys[] = {first, second};
  EXPECT_EQ(lexsort(keys).to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 2, 1, 0}));
  EXPECT_THROW(lexsort(std::span<const ndarray>{}), TypeError);
  const ndarray bad[] = {first, cpu_array({1.0})};
  EXPECT_THROW(lexsort(bad), ValueError);
}

TEST(SortComplex, Dtypes) {
  EXPECT_EQ(sort_complex(asarray(std::vector<std::int16_t>{3, 1}, Device::cpu())).dtype(), DType::Complex64);
  EXPECT_EQ(sort_complex(asarray(std::vector<float>{3, 1}, Device::cpu())).dtype(), DType::Complex128);
}

TEST(Searchsorted, SidesSorterNaN) {
  const ndarray a = cpu_array({1, 2, 2, 3, kNaN});
  const ndarray v = cpu_array({2, kNaN, 0, 5});
  EXPECT_EQ(searchsorted(a, v).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 4, 0, 4}));
  EXPECT_EQ(searchsorted(a, v, Side::Right).to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 5, 0, 4}));
  const ndarray unsorted = cpu_array({3, 1, 2});
  const ndarray sorter = asarray(std::vector<std::int64_t>{1, 2, 0}, Device::cpu());
  EXPECT_EQ(searchsorted(unsorted, cpu_array({2.5}), Side::Left, sorter).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{2}));
  EXPECT_THROW(searchsorted(unsorted, v, Side::Left, asarray(std::vector<std::int64_t>{0, 1, 5}, Device::cpu())),
               ValueError);
  EXPECT_THROW(searchsorted(a.reshape({5, 1}), v), ValueError);
}

TEST(Searchsorted, SorterChecksInNumPysOrder) {
  const ndarray a = cpu_array({3, 1, 2});
  const ndarray v = cpu_array({2.5});
  const auto i64 = [](std::vector<std::int64_t> x) { return asarray(x, Device::cpu()); };
  EXPECT_THROW(searchsorted(a, v, Side::Left, i64({1, 2, 0}).reshape({1, 3})), TypeError);  // not 1-d
  EXPECT_THROW(searchsorted(a, v, Side::Left, asarray<bool>({true, false, true}, Device::cpu())),
               TypeError);  // bool is not an integer here
  EXPECT_THROW(searchsorted(a, v, Side::Left, cpu_array({1, 2, 0})), TypeError);
  EXPECT_THROW(searchsorted(a, v, Side::Left, i64({1, 2})), ValueError);  // length
  EXPECT_THROW(searchsorted(a, v, Side::Left, i64({1, 2, -1})), ValueError);  // out of range
  const ndarray i32 = asarray(std::vector<std::int32_t>{1, 2, 0}, Device::cpu());
  const ndarray strided = i64({1, 9, 2, 9, 0}).view({slice(0, 5, 2)});
  EXPECT_EQ(searchsorted(a, v, Side::Right, i32).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(searchsorted(a, v, Side::Left, strided).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2}));
}

TEST(Unique, AllOutputs) {
  const ndarray a = cpu_array({3, 1, kNaN, 1, kNaN, 2}).reshape({2, 3});
  const UniqueResult r = unique(a, {.return_index = true, .return_inverse = true, .return_counts = true});
  const std::vector<double> values = r.values.to_vector<double>();
  ASSERT_EQ(values.size(), 4u);
  EXPECT_EQ(values[0], 1.0);
  EXPECT_TRUE(std::isnan(values[3]));
  EXPECT_EQ(r.indices.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 5, 0, 2}));
  EXPECT_EQ(r.inverse.shape(), (Shape{2, 3}));
  EXPECT_EQ(r.inverse.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 0, 3, 0, 3, 1}));
  EXPECT_EQ(r.counts.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 1, 1, 2}));
  EXPECT_EQ(unique(a, {.equal_nan = false}).values.size(), 5);
  EXPECT_EQ(unique_all(a).counts.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 1, 1, 1, 1}));
  EXPECT_FALSE(unique(a).indices.defined());
}

TEST(Unique, Axis) {
  const ndarray a = asarray(std::vector<std::int32_t>{1, 2, 0, 5, 1, 2}, Device::cpu()).reshape({3, 2});
  const UniqueResult r = unique(a, {.return_inverse = true, .axis = 0});
  EXPECT_EQ(r.values.shape(), (Shape{2, 2}));
  EXPECT_EQ(r.values.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 5, 1, 2}));
  EXPECT_EQ(r.inverse.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 0, 1}));
  EXPECT_THROW(unique(a, {.axis = 2}), AxisError);
}

TEST(SetOps, Basics) {
  const ndarray a = asarray(std::vector<std::int64_t>{5, 1, 3, 3, 9}, Device::cpu());
  const ndarray b = asarray(std::vector<std::int64_t>{3, 2, 9, 0}, Device::cpu());
  EXPECT_EQ(isin(a, b).to_vector<bool>(), (std::vector<bool>{false, false, true, true, true}));
  EXPECT_EQ(isin(a, b, false, true).to_vector<bool>(), (std::vector<bool>{true, true, false, false, false}));
  EXPECT_EQ(intersect1d(a, b).to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 9}));
  const IntersectResult r = intersect1d_indices(a, b);
  EXPECT_EQ(r.indices1.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(r.indices2.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 2}));
  EXPECT_EQ(union1d(a, b).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3, 5, 9}));
  EXPECT_EQ(setdiff1d(a, b).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 5}));
  EXPECT_EQ(setxor1d(a, b).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 5}));
  EXPECT_EQ(isin(cpu_array({kNaN}), cpu_array({kNaN})).to_vector<bool>(), (std::vector<bool>{false}));
}

}  // namespace
}  // namespace cunp

// The C++ surface of cunp/signal.hpp on the cpu device: lfilter and sosfilt against
// recurrences written out here, the chaining of zi/zf, the dtypes and SciPy's errors, and
// correlate_valid with its virtual padding. (The Python tests compare every function of
// cunpx.scipy.signal against SciPy on every device.)
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/signal.hpp"

namespace cunp::signal {
namespace {

ndarray cpu(std::vector<double> v) { return asarray<double>(v, Device::cpu()); }

void expect_near(const ndarray& got, const std::vector<double>& want, double tol = 1e-12) {
  const std::vector<double> g = got.astype(DType::Float64).to_vector<double>();
  ASSERT_EQ(g.size(), want.size());
  for (std::size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], tol) << "at " << i;
}

TEST(Signal, LfilterRecurrence) {
  // y[n] = (x[n] + 2 x[n-1] - 0.25 y[n-1]) / 2 with a = [2, 0.5]: normalized by a[0].
  const std::vector<double> x = {1, 0, 3, -1, 2, 0.5};
  std::vector<double> want;
  double y1 = 0, x1 = 0;
  for (double v : x) {
    const double y = (v + 2 * x1) / 2 - 0.25 * y1;
    want.push_back(y);
    y1 = y;
    x1 = v;
  }
  const FilterResult r = lfilter(cpu({1, 2}), cpu({2, 0.5}), cpu(x));
  EXPECT_EQ(r.y.dtype(), DType::Float64);
  EXPECT_FALSE(r.zf);
  expect_near(r.y, want);
}

TEST(Signal, LfilterStateChains) {
  // Filtering in two pieces, the second from the first's final state, is one filtering.
  std::vector<double> x;
  for (int i = 0; i < 40; ++i) x.push_back(std::sin(0.3 * i) + 0.1 * i);
  const ndarray b = cpu({0.2, 0.3, 0.1}), a = cpu({1.0, -0.9, 0.2, 0.05});
  const ndarray xs = cpu(x);
  const FilterResult whole = lfilter(b, a, xs, {.zi = cpu({0.5, -0.25, 0.125})});
  const FilterResult first = lfilter(b, a, xs[{slice(0, 17)}], {.zi = cpu({0.5, -0.25, 0.125})});
  const FilterResult second = lfilter(b, a, xs[{slice(17, std::nullopt)}], {.zi = *first.zf});
  const std::vector<double> w = whole.y.to_vector<double>(), f = first.y.to_vector<double>(),
                            s = second.y.to_vector<double>();
  std::vector<double> joined = f;
  joined.insert(joined.end(), s.begin(), s.end());
  expect_near(whole.y, joined);
  expect_near(*second.zf, whole.zf->to_vector<double>());
  EXPECT_EQ(whole.zf->shape(), (Shape{3}));
}

TEST(Signal, LfilterAxisAndFir) {
  // Two lanes along axis 0 of a (4, 2) array; a == [4]: the FIR path, y = conv(b, x) / 4.
  const ndarray x = cpu({1, 10, 2, 20, 3, 30, 4, 40}).reshape({4, 2});
  const FilterResult r =
      lfilter(cpu({1, 1}), cpu({4}), x, {.axis = 0, .zi = cpu({1, 2}).reshape({1, 2})});
  EXPECT_EQ(r.y.shape(), (Shape{4, 2}));
  expect_near(r.y, {0.25 + 1, 2.5 + 2, 0.75, 7.5, 1.25, 12.5, 1.75, 17.5});
  expect_near(*r.zf, {1.0, 10.0});  // b[1] / a[0] * x[-1]
}

TEST(Signal, SosfiltIsTheCascade) {
  // Two sections against lfilter of their product.
  const std::vector<double> s0 = {0.2, 0.3, 0.1, 1.0, -0.5, 0.2},
                            s1 = {1.0, -1.0, 0.5, 1.0, 0.3, 0.1};
  std::vector<double> rows = s0;
  rows.insert(rows.end(), s1.begin(), s1.end());
  const ndarray sos = cpu(rows).reshape({2, 6});
  std::vector<double> bv(5, 0.0), av(5, 0.0);  // the product of the sections' polynomials
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      bv[static_cast<std::size_t>(i + j)] +=
          s0[static_cast<std::size_t>(i)] * s1[static_cast<std::size_t>(j)];
      av[static_cast<std::size_t>(i + j)] +=
          s0[static_cast<std::size_t>(3 + i)] * s1[static_cast<std::size_t>(3 + j)];
    }
  const ndarray b = cpu(bv), a = cpu(av);
  std::vector<double> x;
  for (int i = 0; i < 30; ++i) x.push_back(std::cos(0.7 * i));
  expect_near(sosfilt(sos, cpu(x)).y, lfilter(b, a, cpu(x)).y.to_vector<double>(), 1e-12);
  const FilterResult r =
      sosfilt(sos, cpu(x).reshape({1, 30}), {.zi = zeros({2, 1, 2}, {.device = Device::cpu()})});
  EXPECT_EQ(r.zf->shape(), (Shape{2, 1, 2}));
}

TEST(Signal, FilterDtypes) {
  const ndarray xf = asarray<float>({1, 2, 3}, Device::cpu());
  const ndarray bf = asarray<float>({1, 0.5}, Device::cpu());
  EXPECT_EQ(lfilter(bf, bf, xf).y.dtype(), DType::Float32);
  EXPECT_EQ(lfilter(bf, cpu({1, 0.5}), xf).y.dtype(), DType::Float64);
  const ndarray xc = asarray<std::complex<float>>({{1, 1}, {0, 2}}, Device::cpu());
  EXPECT_EQ(lfilter(bf, bf, xc).y.dtype(), DType::Complex64);
  const ndarray xi = asarray<std::int64_t>({1, 2, 3}, Device::cpu());
  EXPECT_EQ(lfilter(cpu({1, 2}), cpu({1, 0.5}), xi).y.dtype(), DType::Float64);
  EXPECT_THROW(lfilter(xi, xi, xi), NotImplementedError);
  EXPECT_THROW(lfilter(xi, asarray<std::int64_t>({1}, Device::cpu()), xi), NotImplementedError);
  EXPECT_THROW(
      sosfilt(asarray<std::int64_t>({1, 2, 0, 1, 0, 0}, Device::cpu()).reshape({1, 6}), xi),
      NotImplementedError);
}

TEST(Signal, FilterErrors) {
  const ndarray x = cpu({1, 2, 3, 4, 5, 6}).reshape({2, 3});
  EXPECT_THROW(lfilter(cpu({}), cpu({1, 0.5}), x), ValueError);
  EXPECT_THROW(lfilter(cpu({1, 2}), cpu({0, 0.5}), x), ValueError);
  EXPECT_THROW(lfilter(cpu({1, 2}), cpu({1, 0.5}), x, {.axis = 2}), ValueError);
  EXPECT_THROW(lfilter(cpu({1, 2}), cpu({1.0}), x, {.axis = 2}), AxisError);
  EXPECT_THROW(lfilter(cpu({1, 2}), cpu({1, 0.5}), x, {.zi = cpu({1, 2}).reshape({1, 2})}),
               ValueError);
  EXPECT_THROW(lfilter(cpu({1, 2}), cpu({1.0}), cpu({}), {}), ValueError);  // np.convolve's empty v
  EXPECT_THROW(sosfilt(cpu({1, 2, 3, 4, 5}).reshape({1, 5}), x), ValueError);
  EXPECT_THROW(sosfilt(cpu({1, 2, 0, 2, 0, 0}).reshape({1, 6}), x), ValueError);  // sos[:, 3] != 1
  EXPECT_THROW(sosfilt(cpu({1, 2, 0, 1, 0, 0}).reshape({1, 6}), x,
                       {.zi = zeros({1, 2, 3}, {.device = Device::cpu()})}),
               ValueError);
  try {
    lfilter(cpu({1, 2}), cpu({1, 0.5}), x, {.zi = cpu({1, 2, 3, 4}).reshape({2, 2})});
    ADD_FAILURE() << "no error";
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "Unexpected shape for zi:  expected (2,1), found (2,2).");
  }
}

TEST(Signal, CorrelateValid) {
  // out[i] = sum_j in[i + j] k[j] in 2-d, then with padding: fill outside the input.
  const ndarray in = cpu({1, 2, 3, 4, 5, 6, 7, 8, 9}).reshape({3, 3});
  const ndarray k = cpu({1, 0, 0, -1}).reshape({2, 2});
  const ndarray out = correlate_valid(in, k);
  EXPECT_EQ(out.shape(), (Shape{2, 2}));
  expect_near(out, {1 - 5, 2 - 6, 4 - 8, 5 - 9});
  const ndarray padded =
      correlate_valid(in, k, {.pad_before = {1, 1}, .pad_after = {0, 0}, .fill = 10.0});
  EXPECT_EQ(padded.shape(), (Shape{3, 3}));
  expect_near(padded, {10 - 1, 10 - 2, 10 - 3, 10 - 4, 1 - 5, 2 - 6, 10 - 7, 4 - 8, 5 - 9});
  const ndarray ints = correlate_valid(asarray<std::int64_t>({1, 2, 3}, Device::cpu()),
                                       asarray<std::int64_t>({2, -1}, Device::cpu()));
  EXPECT_EQ(ints.dtype(), DType::Int64);
  EXPECT_EQ(ints.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1}));
  EXPECT_THROW(correlate_valid(in, k.astype(DType::Float32)), TypeError);
  EXPECT_THROW(correlate_valid(in, cpu({1, 2})), ValueError);
  EXPECT_THROW(correlate_valid(cpu({1, 2}), cpu({1, 2, 3})), ValueError);
  EXPECT_THROW(correlate_valid(in, k, {.pad_before = {1}}), ValueError);
}

}  // namespace
}  // namespace cunp::signal

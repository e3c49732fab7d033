// cumulative_sum/prod, vecdot, matvec, vecmat and unstack of cunp/array_api.hpp on
// every device, against the definitions (loops on the host).
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "cunp/array_api.hpp"
#include "cunp/error.hpp"
#include "devices.hpp"

namespace cunp {
namespace {

using test::chost;
using test::host;
using test::ivec;
using test::test_devices;
using test::vec;
using C = std::complex<double>;

TEST(NumericArrayApi, CumulativeSumAndProd) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray x = ivec({1, 2, 3, 4, 5, 6}, dev);
    EXPECT_EQ(cumulative_sum(x).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{1, 3, 6, 10, 15, 21}));
    EXPECT_EQ(cumulative_sum(x, {.include_initial = true}).to_vector<std::int64_t>(),
              (std::vector<std::int64_t>{0, 1, 3, 6, 10, 15, 21}));
    const ndarray m = x.reshape({2, 3});
    const ndarray p = cumulative_prod(m, {.axis = 1, .include_initial = true});
    EXPECT_EQ(p.shape(), (Shape{2, 4}));
    EXPECT_EQ(p.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 1, 2, 6, 1, 4, 20, 120}));
    EXPECT_EQ(cumulative_sum(m, {.axis = 0, .dtype = DType::Float32}).dtype(), DType::Float32);
    EXPECT_THROW(cumulative_sum(m), ValueError);
  }
}

TEST(NumericArrayApi, VecdotMatvecVecmat) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    std::vector<double> av, bv;
    for (int i = 0; i < 12; ++i) av.push_back(0.5 * i - 2);
    for (int i = 0; i < 3; ++i) bv.push_back(1.5 - i);
    const ndarray a = vec(av, dev).reshape({4, 3}), b = vec(bv, dev);
    std::vector<double> expect(4, 0.0);
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 3; ++c)
        expect[static_cast<std::size_t>(r)] +=
            av[static_cast<std::size_t>(3 * r + c)] * bv[static_cast<std::size_t>(c)];
    }
    EXPECT_EQ(host(vecdot(a, b)), expect);
    EXPECT_EQ(host(matvec(a, b)), expect);
    std::vector<double> vm(3, 0.0);
    const std::vector<double> w{1, -1, 2, 0.5};
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 3; ++c)
        vm[static_cast<std::size_t>(c)] +=
            w[static_cast<std::size_t>(r)] * av[static_cast<std::size_t>(3 * r + c)];
    }
    EXPECT_EQ(host(vecmat(vec(w, dev), a)), vm);
    // vecdot and vecmat conjugate the first operand.
    const ndarray z = asarray(std::vector<C>{C(1, 2), C(0, -1)}, dev);
    EXPECT_EQ(chost(vecdot(z, z)), (std::vector<C>{C(6, 0)}));
    EXPECT_EQ(chost(vecmat(z, z.reshape({2, 1}))), (std::vector<C>{C(6, 0)}));
    EXPECT_EQ(vecdot(a, a, 0).shape(), (Shape{3}));
    EXPECT_THROW(matvec(b, b), ValueError);
    EXPECT_THROW(matvec(a, vec({1, 2}, dev)), ValueError);
    EXPECT_THROW(vecmat(vec({1, 2}, dev), a), ValueError);
  }
}

TEST(NumericArrayApi, Unstack) {
  for (Device dev : test_devices()) {
    SCOPED_TRACE(dev.str());
    const ndarray m = ivec({1, 2, 3, 4, 5, 6}, dev).reshape({2, 3});
    const std::vector<ndarray> cols = unstack(m, 1);
    ASSERT_EQ(cols.size(), 3u);
    EXPECT_EQ(cols[2].to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 6}));
    EXPECT_EQ(cols[0].data(), m.data());  // views
    EXPECT_THROW(unstack(full({}, Scalar(1.0), {.device = dev})), ValueError);
  }
}

}  // namespace
}  // namespace cunp

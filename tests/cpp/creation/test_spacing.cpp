// The C++ surface of linspace/logspace/geomspace (src/creation/spacing.cpp); values were
// checked against NumPy 2.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "cunp/cunp.hpp"
#include "cunp/spacing.hpp"

namespace {

using cunp::DType;
using cunp::ndarray;
using cunp::Scalar;

const cunp::Device cpu = cunp::Device::cpu();

ndarray host(std::vector<double> v) { return cunp::asarray(v, cpu); }

TEST(CoreSpacing, LinspaceArrayEndpointsAlongAxis) {
  // np.linspace([0, 1], [2, 3], 3, axis=1) == [[0, 1, 2], [1, 2, 3]]
  ndarray step;
  const ndarray r = cunp::linspace(host({0, 1}), host({2, 3}), 3, {.device = cpu, .axis = 1}, &step);
  EXPECT_EQ(r.shape(), (cunp::Shape{2, 3}));
  EXPECT_EQ(r.dtype(), DType::Float64);
  EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{0, 1, 2, 1, 2, 3}));
  EXPECT_EQ(step.to_vector<double>(), (std::vector<double>{1, 1}));
  EXPECT_THROW(cunp::linspace(host({0, 1}), host({2, 3}), 3, {.device = cpu, .axis = 2}), cunp::AxisError);
  EXPECT_THROW(cunp::linspace(Scalar(0), Scalar(1), -1, {.device = cpu}), cunp::ValueError);
}

TEST(CoreSpacing, LinspaceDtypes) {
  // A weak (Python) endpoint keeps a float32 endpoint's dtype; integer dtypes floor.
  const ndarray f = cunp::linspace(Scalar::of(DType::Float32, Scalar(0.0)), Scalar(1), 5, {.device = cpu});
  EXPECT_EQ(f.dtype(), DType::Float32);
  const ndarray i = cunp::linspace(Scalar(-3), Scalar(7), 6, {.dtype = DType::Int8, .device = cpu});
  EXPECT_EQ(i.to_vector<std::int8_t>(), (std::vector<std::int8_t>{-3, -1, 1, 3, 5, 7}));
  const ndarray c = cunp::linspace(Scalar(std::complex<double>(0, 1)), Scalar(std::complex<double>(2, 3)), 3,
                                   {.device = cpu});
  EXPECT_EQ(c.dtype(), DType::Complex128);
  EXPECT_EQ(c.to_vector<std::complex<double>>()[1], std::complex<double>(1, 2));
  ndarray step;
  cunp::linspace(Scalar(0), Scalar(1), 1, {.device = cpu}, &step);
  EXPECT_TRUE(std::isnan(step.item().to_double()));
}

TEST(CoreSpacing, LogspaceArrayBaseGainsTheSamplesAxis) {
  // np.logspace(0, 2, 3, base=[2, 10], axis=1) == [[1, 2, 4], [1, 10, 100]]
  const ndarray r = cunp::logspace(Scalar(0), Scalar(2), 3, host({2, 10}), {.device = cpu, .axis = 1});
  EXPECT_EQ(r.shape(), (cunp::Shape{2, 3}));
  EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{1, 2, 4, 1, 10, 100}));
}

TEST(CoreSpacing, GeomspaceSignsComplexAndZero) {
  const ndarray p = cunp::geomspace(Scalar(1), Scalar(1000), 4, {.device = cpu});
  EXPECT_EQ(p.to_vector<double>(), (std::vector<double>{1, 10, 100, 1000}));
  const ndarray n = cunp::geomspace(Scalar(-1), Scalar(-1000), 4, {.device = cpu});
  EXPECT_EQ(n.to_vector<double>(), (std::vector<double>{-1, -10, -100, -1000}));
  const ndarray c = cunp::geomspace(Scalar(std::complex<double>(0, 1)), Scalar(std::complex<double>(0, 1000)), 4,
                                    {.device = cpu});
  EXPECT_EQ(c.dtype(), DType::Complex128);
  EXPECT_EQ(c.to_vector<std::complex<double>>()[3], std::complex<double>(0, 1000));
  // float32 endpoints still give float64 (NumPy promotes with a float64 zero).
  EXPECT_EQ(cunp::geomspace(Scalar::of(DType::Float32, Scalar(1.0)), Scalar(10), 3, {.device = cpu}).dtype(),
            DType::Float64);
  EXPECT_EQ(cunp::geomspace(Scalar(1), Scalar(10), 3, {.dtype = DType::Float32, .device = cpu}).dtype(),
            DType::Float32);
  try {
    cunp::geomspace(Scalar(0), Scalar(10), 3, {.device = cpu});
    FAIL() << "no error for a zero endpoint";
  } catch (const cunp::ValueError& e) {
    EXPECT_STREQ(e.what(), "Geometric sequence cannot include zero");
  }
}

}  // namespace

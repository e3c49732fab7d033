// tests/cpp/numeric/devices.hpp — the devices the composed functions are checked on:
// cpu, and cuda:0 when a GPU is present.
#pragma once

#include <complex>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/device.hpp"

namespace cunp::test {

inline std::vector<Device> test_devices() {
  std::vector<Device> d{Device::cpu()};
  if (cuda_device_count() > 0) d.push_back(Device::cuda(0));
  return d;
}

inline ndarray vec(std::vector<double> v, Device dev) { return asarray(v, dev); }
inline ndarray ivec(std::vector<std::int64_t> v, Device dev) { return asarray(v, dev); }

inline std::vector<double> host(const ndarray& a) {
  return a.astype(DType::Float64).to_vector<double>();
}
inline std::vector<std::complex<double>> chost(const ndarray& a) {
  return a.astype(DType::Complex128).to_vector<std::complex<double>>();
}

}  // namespace cunp::test

#define EXPECT_VEC_NEAR(actual, expected, tol)         \
  do {                                                 \
    const std::vector<double> a_ = (actual);           \
    const std::vector<double> e_ = (expected);         \
    ASSERT_EQ(a_.size(), e_.size());                   \
    for (std::size_t i_ = 0; i_ < a_.size(); ++i_)     \
      EXPECT_NEAR(a_[i_], e_[i_], tol) << "at " << i_; \
  } while (0)

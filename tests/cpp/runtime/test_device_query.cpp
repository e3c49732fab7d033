// CUDA device queries (src/runtime/device_query.cpp) against the runtime's own answers.
// Without a CUDA device only the errors are checked.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "cunp/device.hpp"
#include "cunp/error.hpp"

namespace cunp {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

int runtime_attribute(cudaDeviceAttr attr, int device) {
  int v = -1;
  EXPECT_EQ(cudaDeviceGetAttribute(&v, attr, device), cudaSuccess);
  return v;
}

TEST(CudaDeviceQuery, UnknownAttributeNameIsValueError) {
  // The name is checked first, so this holds with or without a GPU.
  try {
    (void)cuda_device_attribute(0, "cudaDevAttrMultiProcessorCount");
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("MultiProcessorCount"), std::string::npos) << e.what();
  }
}

TEST(CudaDeviceQuery, NoDeviceErrorsAreCudaErrors) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_THROW(cuda_device_attributes(0), CudaError);
  EXPECT_THROW(cuda_device_attribute(0, "WarpSize"), CudaError);
  EXPECT_THROW(cuda_compute_capability(0), CudaError);
  EXPECT_THROW(cuda_pci_bus_id(0), CudaError);
  EXPECT_THROW(cuda_device_from_pci_bus_id("0000:00:00.0"), CudaError);
  EXPECT_THROW(cuda_mem_info(0), CudaError);
  EXPECT_THROW(cuda_device_synchronize(0), CudaError);
}

TEST(CudaDeviceQuery, AttributesMatchTheRuntime) {
  SKIP_WITHOUT_GPU();
  const auto attrs = cuda_device_attributes(0);
  ASSERT_GT(attrs.size(), 80u);
  std::set<std::string_view> names;
  int sm_count = -1, max_threads = -1;
  for (const CudaDeviceAttribute& a : attrs) {
    EXPECT_TRUE(names.insert(a.name).second) << "duplicate " << a.name;
    EXPECT_EQ(a.name.find("cudaDevAttr"), std::string_view::npos) << a.name;
    if (a.name == "MultiProcessorCount") sm_count = a.value;
    if (a.name == "MaxThreadsPerBlock") max_threads = a.value;
  }
  EXPECT_EQ(sm_count, runtime_attribute(cudaDevAttrMultiProcessorCount, 0));
  EXPECT_EQ(max_threads, runtime_attribute(cudaDevAttrMaxThreadsPerBlock, 0));
  EXPECT_EQ(cuda_device_attribute(0, "WarpSize"), 32);
  EXPECT_EQ(cuda_device_attribute(0, "ComputeCapabilityMajor"),
            runtime_attribute(cudaDevAttrComputeCapabilityMajor, 0));
  cudaDeviceProp p{};
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  EXPECT_EQ(sm_count, p.multiProcessorCount);
  EXPECT_THROW(cuda_device_attributes(cuda_device_count()), ValueError);
  EXPECT_THROW(cuda_device_attributes(-1), ValueError);
}

TEST(CudaDeviceQuery, ComputeCapability) {
  SKIP_WITHOUT_GPU();
  cudaDeviceProp p{};
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  EXPECT_EQ(cuda_compute_capability(0), std::to_string(p.major) + std::to_string(p.minor));
  if (std::string(p.name).find("H200") != std::string::npos ||
      std::string(p.name).find("H100") != std::string::npos) {
    EXPECT_EQ(cuda_compute_capability(0), "90");
  }
}

TEST(CudaDeviceQuery, PciBusIdRoundTrips) {
  SKIP_WITHOUT_GPU();
  for (int d = 0; d < cuda_device_count(); ++d) {
    const std::string id = cuda_pci_bus_id(d);
    // [domain]:[bus]:[device].[function]
    EXPECT_EQ(std::count(id.begin(), id.end(), ':'), 2) << id;
    EXPECT_NE(id.find('.'), std::string::npos) << id;
    EXPECT_EQ(cuda_device_from_pci_bus_id(id), d);
    cudaDeviceProp p{};
    ASSERT_EQ(cudaGetDeviceProperties(&p, d), cudaSuccess);
    EXPECT_EQ(std::stoi(id.substr(id.find(':') + 1, 2), nullptr, 16), p.pciBusID) << id;
  }
  EXPECT_THROW(cuda_device_from_pci_bus_id("not a bus id"), CudaError);
}

TEST(CudaDeviceQuery, MemInfoAndSynchronize) {
  SKIP_WITHOUT_GPU();
  const CudaMemInfo m = cuda_mem_info(0);
  cudaDeviceProp p{};
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  EXPECT_GT(m.free, 0u);
  EXPECT_LE(m.free, m.total);
  EXPECT_EQ(m.total, p.totalGlobalMem);
  cuda_device_synchronize(0);
  EXPECT_THROW(cuda_device_synchronize(cuda_device_count()), ValueError);
}

}  // namespace
}  // namespace cunp

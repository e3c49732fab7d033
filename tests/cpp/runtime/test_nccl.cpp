// NCCL (src/runtime/nccl.cpp) and peer access (src/runtime/device_query.cpp). Without a GPU
// every call must throw CudaError saying so; with one, one rank on one device.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/vendor_lib.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/nccl.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/peer_access.hpp"

namespace cunp {
namespace {

namespace nccl = cuda::nccl;

bool nccl_installed() {
  try {
    cuda::vendor_library(cuda::VendorLib::nccl);
    return true;
  } catch (const CudaError&) {
    return false;
  }
}

template <typename F>
void expect_no_gpu_error(const char* what, F&& f) {
  try {
    f();
    ADD_FAILURE() << what << ": no error without a GPU";
  } catch (const CudaError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("CUDA is unavailable"), std::string::npos) << what << ": " << msg;
  }
}

TEST(Nccl, VersionMatchesTheHeaderMajor) {
  if (!nccl_installed()) GTEST_SKIP() << "no libnccl on this machine";
  const int v = nccl::get_version();
  EXPECT_GE(v, 20000);
  if (nccl::get_build_version() != 0) {
    EXPECT_EQ(v / 10000, nccl::get_build_version() / 10000);
  }
}

TEST(Nccl, EveryCallWithoutAGpuIsACudaError) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  expect_no_gpu_error("get_unique_id", [] { nccl::get_unique_id(); });
  expect_no_gpu_error("group_start", [] { nccl::group_start(); });
  expect_no_gpu_error("group_end", [] { nccl::group_end(); });
  expect_no_gpu_error("Communicator", [] { nccl::Communicator(1, nccl::UniqueId{}, 0); });
  expect_no_gpu_error("init_all", [] { nccl::Communicator::init_all({0}); });
  expect_no_gpu_error("can_access_peer", [] { cuda_device_can_access_peer(0, 1); });
  expect_no_gpu_error("enable_peer_access", [] { cuda_device_enable_peer_access(1); });
  expect_no_gpu_error("disable_peer_access", [] { cuda_device_disable_peer_access(1); });
}

TEST(Nccl, BadRanksAreValueErrorsBeforeAnyCall) {
  EXPECT_THROW(nccl::Communicator(0, nccl::UniqueId{}, 0), ValueError);
  EXPECT_THROW(nccl::Communicator(2, nccl::UniqueId{}, 2), ValueError);
  EXPECT_THROW(nccl::Communicator(2, nccl::UniqueId{}, -1), ValueError);
  EXPECT_THROW(nccl::Communicator::init_all({}), ValueError);
}

TEST(Nccl, NcclErrorIsACudaError) {
  const nccl::NcclError e("ncclAllReduce", 4, "NCCL error: invalid argument");
  const CudaError& base = e;
  EXPECT_EQ(base.code(), 4);
  EXPECT_NE(std::string(base.what()).find("invalid argument"), std::string::npos);
}

// One rank on device 0: an all-reduce is the identity, a broadcast from rank 0 a copy.
TEST(NcclGpu, OneRankAllReduceAndBroadcast) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  if (!nccl_installed()) GTEST_SKIP() << "no libnccl on this machine";
  DeviceGuard guard(Device::cuda(0));
  nccl::Communicator comm(1, nccl::get_unique_id(), 0);
  EXPECT_EQ(comm.size(), 1);
  EXPECT_EQ(comm.rank(), 0);
  EXPECT_EQ(comm.device(), 0);
  const ndarray x = arange(0.0, 1000.0, 1.0, {.dtype = DType::Float32, .device = Device::cuda(0)});
  const ndarray y = zeros({1000}, {.dtype = DType::Float32, .device = Device::cuda(0)});
  comm.all_reduce(x, y, nccl::RedOp::sum);
  const ndarray z = zeros({1000}, {.dtype = DType::Float32, .device = Device::cuda(0)});
  comm.broadcast(x, z, 0);
  std::vector<float> hy(1000), hz(1000);
  y.copy_to_host(hy.data());
  z.copy_to_host(hz.data());
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(hy[static_cast<std::size_t>(i)], static_cast<float>(i));
    ASSERT_EQ(hz[static_cast<std::size_t>(i)], static_cast<float>(i));
  }
  // Arguments are checked before NCCL sees them.
  const ndarray bad = zeros({10}, {.dtype = DType::Float32, .device = Device::cuda(0)});
  EXPECT_THROW(comm.all_reduce(x, bad, nccl::RedOp::sum), ValueError);
  const ndarray b = zeros({1000}, {.dtype = DType::Bool, .device = Device::cuda(0)});
  EXPECT_THROW(comm.all_reduce(b, b, nccl::RedOp::sum), TypeError);
  comm.destroy();
  EXPECT_THROW(comm.size(), ValueError);
}


// Two GPUs: a copy enqueued while the source's stream still has work pending sees that
// work's result (Note [Copies between GPUs]), with and without peer access.
TEST(PeerCopy, WaitsForTheSourceStream) {
  if (cuda_device_count() < 2) GTEST_SKIP() << "needs 2 CUDA devices";
  const std::int64_t n = 1 << 22;
  ndarray a;
  {
    DeviceGuard guard(Device::cuda(0));
    a = arange(0.0, static_cast<double>(n), 1.0, {.dtype = DType::Float32, .device = Device::cuda(0)});
    a = a.copy(Order::C);  // more work on device 0's stream just before the copy
  }
  const ndarray b = a.to(Device::cuda(1));
  EXPECT_EQ(b.device(), Device::cuda(1));
  std::vector<float> host(static_cast<std::size_t>(n));
  b.copy_to_host(host.data());
  for (std::int64_t i = 0; i < n; i += 4099) ASSERT_EQ(host[static_cast<std::size_t>(i)], static_cast<float>(i));
  ASSERT_EQ(host.back(), static_cast<float>(n - 1));
  EXPECT_EQ(cuda_device_can_access_peer(0, 1), cuda_device_can_access_peer(1, 0));
}

}  // namespace
}  // namespace cunp

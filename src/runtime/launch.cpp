// src/runtime/launch.cpp — launch(), resident_blocks() and device_props() of kernel_cache.hpp.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "runtime/check.hpp"
#include "runtime/driver_launch.hpp"
#include "runtime/kernel_cache.hpp"
#include "cunp/error.hpp"

namespace cunp::cuda {
namespace detail {

// Note [Driver launch]: cudaLaunchKernel on a library kernel (cudaKernel_t) finds the
// kernel's function in the current context on every call before it launches.
// launch() instead keeps that function (cuKernelGetFunction) in a small per-thread
// table keyed by (kernel, device) and calls the driver directly. All driver entry
// points come from cudaGetDriverEntryPointByVersion, so libcunp still links only the
// runtime.
namespace {

// The driver's entry point `name` as of CUDA 12.0's ABI, or null.
template <typename Fn>
Fn driver_entry(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
  if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return reinterpret_cast<Fn>(fn);
}

struct FunctionSlot {
  cudaKernel_t kernel = nullptr;
  int device = -1;
  CUfunction function = nullptr;
};
constexpr std::size_t kFunctionSlots = 256;
thread_local FunctionSlot t_functions[kFunctionSlots];

}  // namespace

const DriverLaunch& driver_launch() {
  static const DriverLaunch entry = [] {
    DriverLaunch d;
    const char* mode = std::getenv("CUNP_LAUNCH");
    if (mode != nullptr && std::strcmp(mode, "runtime") == 0) return d;
    d.launch = driver_entry<LaunchKernelFn>("cuLaunchKernel");
    d.get_function = driver_entry<KernelGetFunctionFn>("cuKernelGetFunction");
    if (d.launch == nullptr || d.get_function == nullptr) return DriverLaunch{};  // an older driver
    if (mode != nullptr && std::strcmp(mode, "driver") == 0) return d;
    d.graph_create = driver_entry<GraphCreateFn>("cuGraphCreate");
    d.graph_add_kernel_node = driver_entry<GraphAddKernelNodeFn>("cuGraphAddKernelNode");
    d.graph_instantiate = driver_entry<GraphInstantiateFn>("cuGraphInstantiateWithFlags");
    d.graph_set_params = driver_entry<GraphExecKernelNodeSetParamsFn>("cuGraphExecKernelNodeSetParams");
    d.graph_launch = driver_entry<GraphLaunchFn>("cuGraphLaunch");
    d.graph_exec_destroy = driver_entry<GraphExecDestroyFn>("cuGraphExecDestroy");
    d.graph_destroy = driver_entry<GraphDestroyFn>("cuGraphDestroy");
    d.stream_is_capturing = driver_entry<StreamIsCapturingFn>("cuStreamIsCapturing");
    d.graphs = d.graph_create && d.graph_add_kernel_node && d.graph_instantiate && d.graph_set_params &&
               d.graph_launch && d.graph_exec_destroy && d.graph_destroy && d.stream_is_capturing;
    return d;
  }();
  return entry;
}

[[noreturn]] void throw_driver_error(const char* call, CUresult code) {
  // The runtime's error codes equal the driver's for every error a launch returns.
  throw_cuda_error(call, static_cast<cudaError_t>(code));
}

}  // namespace detail

using detail::driver_launch;
using detail::kFunctionSlots;
using detail::t_functions;
using detail::table_slot;
using detail::throw_driver_error;
using detail::launch_as_graph;
using detail::FunctionSlot;
using detail::DriverLaunch;

void launch(Kernel kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes,
            cudaStream_t stream) {
  const DriverLaunch& driver = driver_launch();
  if (driver.launch == nullptr) {
    CUNP_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel.handle), grid, block, args,
                                     shared_bytes, stream));
    return;
  }
  int device = 0;
  CUNP_CUDA_CHECK(cudaGetDevice(&device));
  const auto key = reinterpret_cast<std::uintptr_t>(kernel.handle);
  FunctionSlot& slot = t_functions[table_slot(key, static_cast<std::uintptr_t>(device), kFunctionSlots)];
  if (slot.kernel != kernel.handle || slot.device != device) [[unlikely]] {
    CUfunction function = nullptr;
    if (const CUresult r = driver.get_function(&function, reinterpret_cast<CUkernel>(kernel.handle)); r != CUDA_SUCCESS)
      throw_driver_error("cuKernelGetFunction", r);
    slot = {kernel.handle, device, function};
  }
  if (driver.graphs) {
    CUDA_KERNEL_NODE_PARAMS params{};
    params.func = slot.function;
    params.gridDimX = grid.x;
    params.gridDimY = grid.y;
    params.gridDimZ = grid.z;
    params.blockDimX = block.x;
    params.blockDimY = block.y;
    params.blockDimZ = block.z;
    params.sharedMemBytes = static_cast<unsigned>(shared_bytes);
    params.kernelParams = args;
    if (launch_as_graph(driver, kernel.handle, device, stream, params)) return;
  }
  const CUresult r = driver.launch(slot.function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                   static_cast<unsigned>(shared_bytes), stream, args, nullptr);
  if (r != CUDA_SUCCESS) [[unlikely]]
    throw_driver_error("cuLaunchKernel", r);
}

std::int64_t resident_blocks(Kernel kernel, int device, int block_threads) {
  // A direct-mapped per-thread table, like launch()'s: no lock, no allocation; a miss
  // asks the occupancy calculator again and takes the slot.
  struct Slot {
    cudaKernel_t kernel = nullptr;
    int device = -1;
    int block = 0;
    std::int64_t resident = 0;
  };
  constexpr std::size_t kSlots = 64;
  thread_local Slot slots[kSlots];
  const auto key = reinterpret_cast<std::uintptr_t>(kernel.handle);
  Slot& slot = slots[table_slot(key, static_cast<std::uintptr_t>(device) ^ static_cast<std::uintptr_t>(block_threads),
                                kSlots)];
  if (slot.kernel == kernel.handle && slot.device == device && slot.block == block_threads) [[likely]]
    return slot.resident;
  const DeviceProps& props = device_props(device);
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reinterpret_cast<const void*>(kernel.handle),
                                                    block_threads, 0) != cudaSuccess ||
      per_sm < 1) {
    (void)cudaGetLastError();
    per_sm = std::max(1, props.max_threads_per_sm / std::max(block_threads, 1));  // the thread bound
  }
  slot = {kernel.handle, device, block_threads, static_cast<std::int64_t>(per_sm) * props.sm_count};
  return slot.resident;
}

const DeviceProps& device_props(int device) {
  constexpr int kMaxDevices = 64;
  static std::once_flag once[kMaxDevices];
  static DeviceProps props[kMaxDevices];
  if (device < 0 || device >= kMaxDevices)
    throw CudaError("device_props", static_cast<int>(cudaErrorInvalidDevice),
                    "device " + std::to_string(device));
  std::call_once(once[device], [device] {
    DeviceProps p;
    int major = 0, minor = 0;
    CUNP_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CUNP_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    CUNP_CUDA_CHECK(cudaDeviceGetAttribute(&p.sm_count, cudaDevAttrMultiProcessorCount, device));
    CUNP_CUDA_CHECK(cudaDeviceGetAttribute(&p.max_threads_per_sm,
                                           cudaDevAttrMaxThreadsPerMultiProcessor, device));
    p.arch = major * 10 + minor;
    p.target = nvrtc_target_arch(p.arch);
    props[device] = p;
  });
  return props[device];
}

}  // namespace cunp::cuda

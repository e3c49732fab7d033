// src/runtime/graph_launch.cpp — launch() through a per-thread single-node CUDA graph per
// (kernel, device, stream) (Note [Graph launch]).
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "runtime/driver_launch.hpp"

namespace cunp::cuda::detail {

// Note [Graph launch]: on the H200 machines (a Firecracker VM, driver 580) every kernel
// launch costs the host 3.2-3.8 us (cuLaunchKernel, cudaLaunchKernel and <<<>>> alike,
// on any kind of stream, even an empty <<<1,1>>> kernel), while a one-node CUDA graph
// whose node gets new parameters before each launch (cuGraphExecKernelNodeSetParams +
// cuGraphLaunch) costs 1.8 us, and cudaMemsetAsync 1.5 us (diagnostic program, 5000
// calls, device synchronized at the end). So launch() keeps, per thread, one
// instantiated single-node graph per (kernel, device, stream) in a direct-mapped table
// and launches each call as that graph with the call's grid, block, shared memory and
// arguments. The node's function never changes (switching it made the launch cost
// 4.2 us); a graph per stream keeps launches on different streams independent (a
// graph's launches are ordered after its earlier launches). A stream being captured
// into a graph, or any failure to update or build the node, takes the plain launch,
// which also reports launch errors. An evicted slot's graph is destroyed (in-flight
// launches finish first); a thread's graphs are not freed when it exits.
// CUNP_LAUNCH=driver launches with cuLaunchKernel, CUNP_LAUNCH=runtime with
// cudaLaunchKernel (both for comparison).
namespace {

// One kernel's single-node graph for one stream (Note [Graph launch]).
struct GraphSlot {
  cudaKernel_t kernel = nullptr;
  int device = -1;
  cudaStream_t stream = nullptr;
  CUgraph graph = nullptr;
  CUgraphNode node = nullptr;
  CUgraphExec exec = nullptr;
};
constexpr std::size_t kGraphSlots = 256;
thread_local GraphSlot t_graphs[kGraphSlots];

void destroy_graph(const DriverLaunch& driver, GraphSlot& slot) {
  if (slot.exec != nullptr) (void)driver.graph_exec_destroy(slot.exec);
  if (slot.graph != nullptr) (void)driver.graph_destroy(slot.graph);
  slot = GraphSlot{};
}

}  // namespace

bool launch_as_graph(const DriverLaunch& driver, cudaKernel_t kernel, int device, cudaStream_t stream,
                     const CUDA_KERNEL_NODE_PARAMS& params) {
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (driver.stream_is_capturing(reinterpret_cast<CUstream>(stream), &capture) != CUDA_SUCCESS ||
      capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return false;
  const auto key = reinterpret_cast<std::uintptr_t>(kernel) ^ (reinterpret_cast<std::uintptr_t>(stream) << 7);
  GraphSlot& slot = t_graphs[table_slot(key, static_cast<std::uintptr_t>(device), kGraphSlots)];
  if (slot.kernel == kernel && slot.device == device && slot.stream == stream) [[likely]] {
    if (driver.graph_set_params(slot.exec, slot.node, &params) != CUDA_SUCCESS) return false;
  } else {
    destroy_graph(driver, slot);
    GraphSlot fresh{kernel, device, stream, nullptr, nullptr, nullptr};
    if (driver.graph_create(&fresh.graph, 0) != CUDA_SUCCESS) return false;
    if (driver.graph_add_kernel_node(&fresh.node, fresh.graph, nullptr, 0, &params) != CUDA_SUCCESS ||
        driver.graph_instantiate(&fresh.exec, fresh.graph, 0) != CUDA_SUCCESS) {
      destroy_graph(driver, fresh);
      return false;
    }
    slot = fresh;
  }
  if (const CUresult r = driver.graph_launch(slot.exec, reinterpret_cast<CUstream>(stream)); r != CUDA_SUCCESS)
    throw_driver_error("cuGraphLaunch", r);
  return true;
}

}  // namespace cunp::cuda::detail

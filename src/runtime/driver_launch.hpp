// src/runtime/driver_launch.hpp — the CUDA driver entry points that launch() (launch.cpp,
// Note [Driver launch]) and the single-node graph launch (graph_launch.cpp, Note [Graph
// launch]) call. Internal to src/runtime.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cunp::cuda::detail {

using LaunchKernelFn = CUresult(CUDAAPI*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                          unsigned, unsigned, CUstream, void**, void**);
using KernelGetFunctionFn = CUresult(CUDAAPI*)(CUfunction*, CUkernel);
using GraphCreateFn = CUresult(CUDAAPI*)(CUgraph*, unsigned);
using GraphAddKernelNodeFn = CUresult(CUDAAPI*)(CUgraphNode*, CUgraph, const CUgraphNode*, std::size_t,
                                                const CUDA_KERNEL_NODE_PARAMS*);
using GraphInstantiateFn = CUresult(CUDAAPI*)(CUgraphExec*, CUgraph, unsigned long long);
using GraphExecKernelNodeSetParamsFn = CUresult(CUDAAPI*)(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS*);
using GraphLaunchFn = CUresult(CUDAAPI*)(CUgraphExec, CUstream);
using GraphExecDestroyFn = CUresult(CUDAAPI*)(CUgraphExec);
using GraphDestroyFn = CUresult(CUDAAPI*)(CUgraph);
using StreamIsCapturingFn = CUresult(CUDAAPI*)(CUstream, CUstreamCaptureStatus*);

struct DriverLaunch {
  LaunchKernelFn launch = nullptr;  // null: cudaLaunchKernel
  KernelGetFunctionFn get_function = nullptr;
  bool graphs = false;  // the entries below are all set
  GraphCreateFn graph_create = nullptr;
  GraphAddKernelNodeFn graph_add_kernel_node = nullptr;
  GraphInstantiateFn graph_instantiate = nullptr;
  GraphExecKernelNodeSetParamsFn graph_set_params = nullptr;
  GraphLaunchFn graph_launch = nullptr;
  GraphExecDestroyFn graph_exec_destroy = nullptr;
  GraphDestroyFn graph_destroy = nullptr;
  StreamIsCapturingFn stream_is_capturing = nullptr;
};

// The driver entry points, read once (CUNP_LAUNCH chooses among them).
const DriverLaunch& driver_launch();

// The slot of a direct-mapped per-thread table of `slots` entries for a kernel handle
// (or another pointer-sized key) and the values `salt` that complete the key.
inline std::size_t table_slot(std::uintptr_t key, std::uintptr_t salt, std::size_t slots) noexcept {
  return static_cast<std::size_t>(((key >> 4) ^ (key >> 12) ^ salt) % slots);
}

[[noreturn]] void throw_driver_error(const char* call, CUresult code);

// Launches `params` as the slot's graph, building the slot first when it holds another
// kernel or stream; false when the graph cannot be used (the caller launches plainly).
bool launch_as_graph(const DriverLaunch& driver, cudaKernel_t kernel, int device, cudaStream_t stream,
                     const CUDA_KERNEL_NODE_PARAMS& params);

}  // namespace cunp::cuda::detail

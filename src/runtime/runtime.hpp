// src/runtime/runtime.hpp — small internal helpers over the CUDA runtime.
#pragma once

#include <cuda_runtime_api.h>

#include "runtime/check.hpp"

namespace cunp::cuda {

// Makes CUDA device `index` current for a scope (no-op when it already is).
class DeviceScope {
 public:
  explicit DeviceScope(int index);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_;
};

// cudaGetDeviceProperties, checked (CudaError on failure).
cudaDeviceProp device_properties(int device);

// The current stream of the current CUDA device, as a cudaStream_t.
cudaStream_t current_stream_handle();

}  // namespace cunp::cuda

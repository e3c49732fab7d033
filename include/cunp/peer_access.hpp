// cunp/peer_access.hpp — peer access between CUDA devices (docs/multi-gpu.md).
// Each throws CudaError without a GPU and ValueError for an index that names no device.
#pragma once

namespace cunp {

// Whether `device` can address memory of `peer` directly (cudaDeviceCanAccessPeer).
// Python: cunp.cuda.runtime.deviceCanAccessPeer(device, peer).
bool cuda_device_can_access_peer(int device, int peer);
// Lets the current CUDA device address memory of `peer` (cudaDeviceEnablePeerAccess);
// CudaError when it is already enabled or not supported, as CuPy. Copies between
// devices never need it (they go through cudaMemcpyPeerAsync, Note [Copies between
// GPUs]); kernels reading another device's memory do. Python:
// cunp.cuda.runtime.deviceEnablePeerAccess(peer).
void cuda_device_enable_peer_access(int peer);
// The reverse (cudaDeviceDisablePeerAccess). Python: runtime.deviceDisablePeerAccess(peer).
void cuda_device_disable_peer_access(int peer);

}  // namespace cunp

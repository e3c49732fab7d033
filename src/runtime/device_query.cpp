// src/runtime/device_query.cpp — what cupy.cuda.Device reports about a CUDA device:
// attributes, compute capability, PCI bus id, memory, synchronization.
#include <cuda_runtime_api.h>

#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/runtime.hpp"
#include "cunp/device.hpp"
#include "cunp/peer_access.hpp"
#include "cunp/error.hpp"

namespace cunp {
namespace {

// Note [Device attribute names]: CuPy's Device.attributes names each value by its
// cudaDevAttr enumerator without the prefix, so one list of enumerator suffixes gives
// both the key and the enum value. The first list was complete in CUDA 12.0; the second
// came with CUDA 12.2-13.0 and is compiled only with a CUDA 13 toolkit.
// cudaDevAttrReservedNN placeholders are no attributes and stay out.
// clang-format off
#define CUNP_DEVICE_ATTRIBUTES(X) \
  X(MaxThreadsPerBlock) X(MaxBlockDimX) X(MaxBlockDimY) X(MaxBlockDimZ) X(MaxGridDimX) \
  X(MaxGridDimY) X(MaxGridDimZ) X(MaxSharedMemoryPerBlock) X(TotalConstantMemory) X(WarpSize) \
  X(MaxPitch) X(MaxRegistersPerBlock) X(ClockRate) X(TextureAlignment) X(GpuOverlap) \
  X(MultiProcessorCount) X(KernelExecTimeout) X(Integrated) X(CanMapHostMemory) X(ComputeMode) \
  X(MaxTexture1DWidth) X(MaxTexture2DWidth) X(MaxTexture2DHeight) X(MaxTexture3DWidth) \
  X(MaxTexture3DHeight) X(MaxTexture3DDepth) X(MaxTexture2DLayeredWidth) \
  X(MaxTexture2DLayeredHeight) X(MaxTexture2DLayeredLayers) X(SurfaceAlignment) \
  X(ConcurrentKernels) X(EccEnabled) X(PciBusId) X(PciDeviceId) X(TccDriver) X(MemoryClockRate) \
  X(GlobalMemoryBusWidth) X(L2CacheSize) X(MaxThreadsPerMultiProcessor) X(AsyncEngineCount) \
  X(UnifiedAddressing) X(MaxTexture1DLayeredWidth) X(MaxTexture1DLayeredLayers) \
  X(MaxTexture2DGatherWidth) X(MaxTexture2DGatherHeight) X(MaxTexture3DWidthAlt) \
  X(MaxTexture3DHeightAlt) X(MaxTexture3DDepthAlt) X(PciDomainId) X(TexturePitchAlignment) \
  X(MaxTextureCubemapWidth) X(MaxTextureCubemapLayeredWidth) X(MaxTextureCubemapLayeredLayers) \
  X(MaxSurface1DWidth) X(MaxSurface2DWidth) X(MaxSurface2DHeight) X(MaxSurface3DWidth) \
  X(MaxSurface3DHeight) X(MaxSurface3DDepth) X(MaxSurface1DLayeredWidth) \
  X(MaxSurface1DLayeredLayers) X(MaxSurface2DLayeredWidth) X(MaxSurface2DLayeredHeight) \
  X(MaxSurface2DLayeredLayers) X(MaxSurfaceCubemapWidth) X(MaxSurfaceCubemapLayeredWidth) \
  X(MaxSurfaceCubemapLayeredLayers) X(MaxTexture1DLinearWidth) X(MaxTexture2DLinearWidth) \
  X(MaxTexture2DLinearHeight) X(MaxTexture2DLinearPitch) X(MaxTexture2DMipmappedWidth) \
  X(MaxTexture2DMipmappedHeight) X(ComputeCapabilityMajor) X(ComputeCapabilityMinor) \
  X(MaxTexture1DMipmappedWidth) X(StreamPrioritiesSupported) X(GlobalL1CacheSupported) \
  X(LocalL1CacheSupported) X(MaxSharedMemoryPerMultiprocessor) X(MaxRegistersPerMultiprocessor) \
  X(ManagedMemory) X(IsMultiGpuBoard) X(MultiGpuBoardGroupID) X(HostNativeAtomicSupported) \
  X(SingleToDoublePrecisionPerfRatio) X(PageableMemoryAccess) X(ConcurrentManagedAccess) \
  X(ComputePreemptionSupported) X(CanUseHostPointerForRegisteredMem) X(CooperativeLaunch) \
  X(MaxSharedMemoryPerBlockOptin) X(CanFlushRemoteWrites) X(HostRegisterSupported) \
  X(PageableMemoryAccessUsesHostPageTables) X(DirectManagedMemAccessFromHost) \
  X(MaxBlocksPerMultiprocessor) X(MaxPersistingL2CacheSize) X(MaxAccessPolicyWindowSize) \
  X(ReservedSharedMemoryPerBlock) X(SparseCudaArraySupported) X(HostRegisterReadOnlySupported) \
  X(TimelineSemaphoreInteropSupported) X(MemoryPoolsSupported) X(GPUDirectRDMASupported) \
  X(GPUDirectRDMAFlushWritesOptions) X(GPUDirectRDMAWritesOrdering) \
  X(MemoryPoolSupportedHandleTypes) X(ClusterLaunch) X(DeferredMappingCudaArraySupported) \
  X(IpcEventSupport) X(MemSyncDomainCount)
#define CUNP_DEVICE_ATTRIBUTES_CUDA13(X) \
  X(NumaConfig) X(NumaId) X(MpsEnabled) X(HostNumaId) X(D3D12CigSupported) X(VulkanCigSupported) \
  X(GpuPciDeviceId) X(GpuPciSubsystemId) X(HostNumaMemoryPoolsSupported) \
  X(HostNumaMultinodeIpcSupported) X(HostMemoryPoolsSupported) \
  X(OnlyPartialHostNativeAtomicSupported)

// clang-format on

struct AttributeEntry {
  std::string_view name;
  cudaDeviceAttr attr;
};

#define CUNP_ATTRIBUTE_ENTRY(name) {#name, cudaDevAttr##name},
constexpr AttributeEntry kAttributes[] = {CUNP_DEVICE_ATTRIBUTES(CUNP_ATTRIBUTE_ENTRY)
#if CUDART_VERSION >= 13000
                                              CUNP_DEVICE_ATTRIBUTES_CUDA13(CUNP_ATTRIBUTE_ENTRY)
#endif
};
#undef CUNP_ATTRIBUTE_ENTRY

void require_cuda(const char* call) {
  if (cuda_device_count() == 0) {
    throw CudaError(call, cudaErrorNoDevice,
                    "CUDA is unavailable (" + cuda_unavailable_reason() + ")");
  }
}

int attribute_value(int device, cudaDeviceAttr attr) {
  int value = 0;
  cuda::check_cuda(cudaDeviceGetAttribute(&value, attr, device), "cudaDeviceGetAttribute");
  return value;
}

}  // namespace

std::vector<CudaDeviceAttribute> cuda_device_attributes(int device) {
  check_device(Device::cuda(device));
  std::vector<CudaDeviceAttribute> out;
  out.reserve(std::size(kAttributes));
  for (const AttributeEntry& e : kAttributes) {
    int value = 0;
    const cudaError_t err = cudaDeviceGetAttribute(&value, e.attr, device);
    if (err == cudaErrorInvalidValue) {  // not an attribute of this device or driver
      (void)cudaGetLastError();
      continue;
    }
    cuda::check_cuda(err, "cudaDeviceGetAttribute");
    out.push_back({e.name, value});
  }
  return out;
}

int cuda_device_attribute(int device, std::string_view name) {
  for (const AttributeEntry& e : kAttributes) {
    if (e.name == name) {
      check_device(Device::cuda(device));
      return attribute_value(device, e.attr);
    }
  }
  throw ValueError(
      "unknown CUDA device attribute '" + std::string(name) +
      "' (expected a cudaDevAttr name without the prefix, such as 'MultiProcessorCount')");
}

std::string cuda_compute_capability(int device) {
  check_device(Device::cuda(device));
  return std::to_string(attribute_value(device, cudaDevAttrComputeCapabilityMajor)) +
         std::to_string(attribute_value(device, cudaDevAttrComputeCapabilityMinor));
}

std::string cuda_pci_bus_id(int device) {
  check_device(Device::cuda(device));
  char id[64] = {};  // "dddddddd:bb:dd.f" needs 17 bytes with the terminator
  cuda::check_cuda(cudaDeviceGetPCIBusId(id, static_cast<int>(sizeof id), device),
                   "cudaDeviceGetPCIBusId");
  return id;
}

int cuda_device_from_pci_bus_id(const std::string& pci_bus_id) {
  require_cuda("cudaDeviceGetByPCIBusId");
  int device = -1;
  cuda::check_cuda(cudaDeviceGetByPCIBusId(&device, pci_bus_id.c_str()), "cudaDeviceGetByPCIBusId");
  return device;
}

CudaMemInfo cuda_mem_info(int device) {
  check_device(Device::cuda(device));
  const cuda::DeviceScope scope(device);
  CudaMemInfo info;
  cuda::check_cuda(cudaMemGetInfo(&info.free, &info.total), "cudaMemGetInfo");
  return info;
}

void cuda_device_synchronize(int device) {
  check_device(Device::cuda(device));
  const cuda::DeviceScope scope(device);
  cuda::check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

bool cuda_device_can_access_peer(int device, int peer) {
  check_device(Device::cuda(device));
  check_device(Device::cuda(peer));
  int can = 0;
  cuda::check_cuda(cudaDeviceCanAccessPeer(&can, device, peer), "cudaDeviceCanAccessPeer");
  return can != 0;
}

void cuda_device_enable_peer_access(int peer) {
  check_device(Device::cuda(peer));
  cuda::check_cuda(cudaDeviceEnablePeerAccess(peer, 0), "cudaDeviceEnablePeerAccess");
}

void cuda_device_disable_peer_access(int peer) {
  check_device(Device::cuda(peer));
  cuda::check_cuda(cudaDeviceDisablePeerAccess(peer), "cudaDeviceDisablePeerAccess");
}

}  // namespace cunp

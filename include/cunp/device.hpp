// cunp/device.hpp — devices: `cpu` and `cuda:N`, the thread's current device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cunp {

// A device an array lives on. The CPU has index 0.
struct Device {
  enum class Kind : std::uint8_t { CPU, CUDA };
  Kind kind = Kind::CPU;
  int index = 0;

  static constexpr Device cpu() noexcept { return {Kind::CPU, 0}; }
  static constexpr Device cuda(int index = 0) noexcept { return {Kind::CUDA, index}; }
  // Parses "cpu", "cuda" (the current CUDA device), "cuda:N" or "gpu:N"; ValueError otherwise.
  static Device parse(std::string_view text);

  constexpr bool is_cpu() const noexcept { return kind == Kind::CPU; }
  constexpr bool is_cuda() const noexcept { return kind == Kind::CUDA; }
  std::string str() const;  // "cpu", "cuda:0"
  // Makes this device the calling thread's current device (and, for CUDA, the current
  // CUDA device). Python: cunp.cuda.Device(i).use().
  void use() const;
  friend constexpr bool operator==(Device a, Device b) noexcept {
    return a.kind == b.kind && a.index == b.index;
  }
};

// Number of usable CUDA devices; 0 when there is no GPU or no driver (never throws).
int cuda_device_count() noexcept;
inline bool cuda_available() noexcept { return cuda_device_count() > 0; }
// Why CUDA is unusable ("no CUDA driver found", ...); empty when it is usable.
std::string cuda_unavailable_reason();

// The process-wide default: CUNP_DEVICE if set, else cuda:0 when a GPU is usable,
// else cpu. Computed once.
Device process_default_device();
// The calling thread's current device (set by Device::use or DeviceGuard), else the
// process default. Every creation function without an explicit device uses it.
Device current_device();
// The calling thread's device override (what Device::use or a DeviceGuard set), if
// any; setting nullopt returns the thread to the process default.
std::optional<Device> thread_device();
void set_thread_device(std::optional<Device> device);
// The thread's current CUDA device index (cudaGetDevice); CudaError without a GPU.
int current_cuda_device();

// Makes `device` current for the guard's lifetime, then restores the previous one.
class DeviceGuard {
 public:
  explicit DeviceGuard(Device device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  Device previous_;
  bool had_override_;
  int previous_cuda_;
};

// Checks that `device` exists: ValueError naming the device count otherwise.
void check_device(Device device);

// ---- CUDA device queries (cupy.cuda.Device's). Each throws CudaError without a GPU and
// ValueError for an index that names no device.

// One cudaDeviceGetAttribute value under CuPy's name for it: the cudaDevAttr enumerator
// without its prefix ("MaxThreadsPerBlock", "MultiProcessorCount").
struct CudaDeviceAttribute {
  std::string_view name;
  int value;
};
// Every attribute the device reports, in enumerator order; those the driver rejects as
// invalid for this device are left out, as CuPy does. Python: Device(i).attributes.
std::vector<CudaDeviceAttribute> cuda_device_attributes(int device);
// One attribute by CuPy's name; ValueError for a name that is not an attribute.
int cuda_device_attribute(int device, std::string_view name);
// "90" for compute capability 9.0. Python: Device(i).compute_capability.
std::string cuda_compute_capability(int device);
// "[domain]:[bus]:[device].[function]" in hexadecimal ("0000:19:00.0"), from
// cudaDeviceGetPCIBusId. Python: Device(i).pci_bus_id.
std::string cuda_pci_bus_id(int device);
// The index of the device at that PCI bus id (cudaDeviceGetByPCIBusId).
// Python: Device.from_pci_bus_id.
int cuda_device_from_pci_bus_id(const std::string& pci_bus_id);
// Free and total bytes of device memory (cudaMemGetInfo). Python: Device(i).mem_info.
struct CudaMemInfo {
  std::size_t free = 0;
  std::size_t total = 0;
};
CudaMemInfo cuda_mem_info(int device);
// Waits for all work on CUDA device `device`. Python: Device(i).synchronize().
void cuda_device_synchronize(int device);

}  // namespace cunp

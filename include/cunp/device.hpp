// cunp/device.hpp — devices: `cpu` and `cuda:N`, the thread's current device.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

}  // namespace cunp

// src/core/device.cpp — device enumeration, the process default and the thread's
// current device.
#include "cunp/device.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>

#include "cunp/error.hpp"

namespace cunp {
namespace {

struct CudaProbe {
  int count = 0;
  std::string reason;
};

// Note [Lazy CUDA probe]: nothing touches CUDA at load or import time. The first
// question about devices asks the runtime once; without a driver or GPU the answer is
// simply zero devices and the reason is kept for error messages.
const CudaProbe& probe() {
  static const CudaProbe p = [] {
    CudaProbe r;
    int n = 0;
    const cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess) {
      r.reason = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
      cudaGetLastError();  // clear the sticky-free error state
      n = 0;
    } else if (n == 0) {
      r.reason = "no CUDA device found";
    }
    r.count = n;
    return r;
  }();
  return p;
}

thread_local std::optional<Device> tl_current;

}  // namespace

Device Device::parse(std::string_view text) {
  if (text == "cpu") return Device::cpu();
  auto parse_index = [&](std::string_view rest) -> Device {
    if (rest.empty()) {
      return Device::cuda(cuda_device_count() > 0 ? current_cuda_device() : 0);
    }
    if (rest[0] != ':' || rest.size() < 2) {
      throw ValueError("invalid device '" + std::string(text) + "' (expected 'cpu', 'cuda' or 'cuda:N')");
    }
    int index = 0;
    for (char c : rest.substr(1)) {
      if (c < '0' || c > '9') {
        throw ValueError("invalid device '" + std::string(text) + "' (expected 'cpu', 'cuda' or 'cuda:N')");
      }
      index = index * 10 + (c - '0');
    }
    return Device::cuda(index);
  };
  if (text.substr(0, 4) == "cuda") return parse_index(text.substr(4));
  if (text.substr(0, 3) == "gpu") return parse_index(text.substr(3));
  throw ValueError("invalid device '" + std::string(text) + "' (expected 'cpu', 'cuda' or 'cuda:N')");
}

std::string Device::str() const {
  return is_cpu() ? std::string("cpu") : "cuda:" + std::to_string(index);
}

void check_device(Device device) {
  if (device.is_cpu()) return;
  const int n = cuda_device_count();
  if (n == 0) {
    throw CudaError("cudaGetDeviceCount", 100,
                    "device " + device.str() + " requested but CUDA is unavailable (" +
                        cuda_unavailable_reason() + ")");
  }
  if (device.index < 0 || device.index >= n) {
    throw ValueError("device " + device.str() + " does not exist (there are " + std::to_string(n) +
                     " CUDA devices)");
  }
}

void Device::use() const {
  check_device(*this);
  if (is_cuda()) {
    const cudaError_t err = cudaSetDevice(index);
    if (err != cudaSuccess) throw CudaError("cudaSetDevice", err, cudaGetErrorString(err));
  }
  tl_current = *this;
}

int cuda_device_count() noexcept { return probe().count; }
std::string cuda_unavailable_reason() { return probe().reason; }

Device process_default_device() {
  static const Device d = [] {
    if (const char* env = std::getenv("CUNP_DEVICE"); env && *env) {
      const Device parsed = Device::parse(env);
      check_device(parsed);
      return parsed;
    }
    return cuda_device_count() > 0 ? Device::cuda(0) : Device::cpu();
  }();
  return d;
}

Device current_device() {
  if (tl_current) return *tl_current;
  return process_default_device();
}

std::optional<Device> thread_device() { return tl_current; }

void set_thread_device(std::optional<Device> device) {
  if (device) {
    device->use();
  } else {
    tl_current.reset();
  }
}

int current_cuda_device() {
  if (cuda_device_count() == 0) {
    throw CudaError("cudaGetDevice", 100, "CUDA is unavailable (" + cuda_unavailable_reason() + ")");
  }
  int d = 0;
  const cudaError_t err = cudaGetDevice(&d);
  if (err != cudaSuccess) throw CudaError("cudaGetDevice", err, cudaGetErrorString(err));
  return d;
}

DeviceGuard::DeviceGuard(Device device)
    : previous_(tl_current.value_or(Device::cpu())), had_override_(tl_current.has_value()),
      previous_cuda_(-1) {
  if (device.is_cuda()) previous_cuda_ = current_cuda_device();
  device.use();
}

DeviceGuard::~DeviceGuard() {
  if (previous_cuda_ >= 0) cudaSetDevice(previous_cuda_);
  if (had_override_) {
    tl_current = previous_;
  } else {
    tl_current.reset();
  }
}

}  // namespace cunp

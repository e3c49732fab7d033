// src/core/config.cpp — version reporting (cunp.show_config()).
#include "cunp/config.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nvrtc.h>

#include <sstream>

#include "cunp/device.hpp"

namespace cunp {
namespace {

// Note [Library versions by dlopen]: show_config reports the versions of CUDA
// libraries that later features link (cuBLAS, cuFFT, ...). Asking them through
// dlopen keeps the report from adding link-time dependencies or load-time cost.
std::string library_version(const char* const* sonames, const char* symbol, bool get_property) {
  for (const char* const* so = sonames; *so; ++so) {
    void* h = dlopen(*so, RTLD_LAZY | RTLD_LOCAL);
    if (!h) continue;
    std::string out;
    if (get_property) {
      // xxxGetProperty(libraryPropertyType type, int* value): MAJOR=0, MINOR=1, PATCH=2.
      using Fn = int (*)(int, int*);
      if (auto fn = reinterpret_cast<Fn>(dlsym(h, symbol))) {
        int v[3] = {0, 0, 0};
        bool ok = true;
        for (int i = 0; i < 3; ++i) ok = ok && fn(i, &v[i]) == 0;
        if (ok) out = std::to_string(v[0]) + "." + std::to_string(v[1]) + "." + std::to_string(v[2]);
      }
    } else {
      using Fn = int (*)(int*);  // cufftGetVersion / curandGetVersion(int*)
      if (auto fn = reinterpret_cast<Fn>(dlsym(h, symbol))) {
        int v = 0;
        if (fn(&v) == 0) out = std::to_string(v);
      }
    }
    dlclose(h);
    if (!out.empty()) return out + " (" + *so + ")";
  }
  return "not found";
}

std::string cuda_version_str(int v) {
  if (v <= 0) return "unavailable";
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

std::string version() { return CUNP_VERSION; }

int cuda_runtime_version() {
  int v = 0;
  if (cudaRuntimeGetVersion(&v) != cudaSuccess) return 0;
  return v;
}

int cuda_driver_version() {
  int v = 0;
  if (cudaDriverGetVersion(&v) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return v;
}

int nvrtc_version() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return 0;
  return major * 1000 + minor * 10;
}

std::string show_config() {
  std::ostringstream os;
  os << "cunp                 : " << version() << "\n";
  os << "CUDA Root            : " << CUNP_CUDA_INCLUDE_DIR << "/..\n";
  os << "CUDA Runtime Version : " << cuda_version_str(cuda_runtime_version()) << "\n";
  os << "CUDA Driver Version  : " << cuda_version_str(cuda_driver_version()) << "\n";
  os << "NVRTC Version        : " << cuda_version_str(nvrtc_version()) << "\n";
  static const char* cublas[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so", nullptr};
  static const char* cufft[] = {"libcufft.so.12", "libcufft.so.11", "libcufft.so", nullptr};
  static const char* cusolver[] = {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so", nullptr};
  static const char* cusparse[] = {"libcusparse.so.12", "libcusparse.so", nullptr};
  static const char* curand[] = {"libcurand.so.10", "libcurand.so", nullptr};
  os << "cuBLAS Version       : " << library_version(cublas, "cublasGetProperty", true) << "\n";
  os << "cuFFT Version        : " << library_version(cufft, "cufftGetVersion", false) << "\n";
  os << "cuSOLVER Version     : " << library_version(cusolver, "cusolverGetProperty", true) << "\n";
  os << "cuSPARSE Version     : " << library_version(cusparse, "cusparseGetProperty", true) << "\n";
  os << "cuRAND Version       : " << library_version(curand, "curandGetVersion", false) << "\n";
  const int n = cuda_device_count();
  os << "Device Count         : " << n << "\n";
  if (n == 0) os << "CUDA unavailable     : " << cuda_unavailable_reason() << "\n";
  os << "Default Device       : " << process_default_device().str() << "\n";
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
    os << "Device " << i << " Name        : " << prop.name << "\n";
    os << "Device " << i << " Compute Cap : " << prop.major << prop.minor << "\n";
    os << "Device " << i << " Memory      : " << prop.totalGlobalMem << " bytes\n";
    os << "Device " << i << " SMs         : " << prop.multiProcessorCount << "\n";
  }
  return os.str();
}

}  // namespace cunp

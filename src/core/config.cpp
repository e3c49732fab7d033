// src/core/config.cpp — version reporting (cunp.show_config()).
#include "cunp/config.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <nvrtc.h>

#include <sstream>

#include "cuda/runtime.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"

namespace cunp {
namespace {

// Note [Library versions by file name]: show_config reports the versions of CUDA
// libraries that later features link (cuBLAS, cuFFT, ...). It finds the library the
// dynamic loader would load and reads the version from its real file name
// (libcublas.so.13.1.0.3), calling nothing inside it: no link-time dependency, no
// initialization side effects, and the library stays loaded (never dlclose'd).
std::string library_version(const char* const* sonames) {
  for (const char* const* so = sonames; *so; ++so) {
    void* h = dlopen(*so, RTLD_LAZY | RTLD_LOCAL);
    if (!h) continue;
    link_map* map = nullptr;
    if (dlinfo(h, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name) continue;
    char resolved[PATH_MAX];
    const std::string path = realpath(map->l_name, resolved) ? resolved : map->l_name;
    const std::string file = path.substr(path.find_last_of('/') + 1);
    const std::size_t at = file.find(".so.");
    const std::string ver = at == std::string::npos ? std::string("unknown") : file.substr(at + 4);
    return ver + " (" + path + ")";
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
  os << "CUDA Root            : " << CUNP_CUDA_ROOT << "\n";
  os << "CUDA Runtime Version : " << cuda_version_str(cuda_runtime_version()) << "\n";
  os << "CUDA Driver Version  : " << cuda_version_str(cuda_driver_version()) << "\n";
  os << "NVRTC Version        : " << cuda_version_str(nvrtc_version()) << "\n";
  static const char* cublas[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so", nullptr};
  static const char* cufft[] = {"libcufft.so.12", "libcufft.so.11", "libcufft.so", nullptr};
  static const char* cusolver[] = {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so", nullptr};
  static const char* cusparse[] = {"libcusparse.so.12", "libcusparse.so", nullptr};
  static const char* curand[] = {"libcurand.so.10", "libcurand.so", nullptr};
  os << "cuBLAS Version       : " << library_version(cublas) << "\n";
  os << "cuFFT Version        : " << library_version(cufft) << "\n";
  os << "cuSOLVER Version     : " << library_version(cusolver) << "\n";
  os << "cuSPARSE Version     : " << library_version(cusparse) << "\n";
  os << "cuRAND Version       : " << library_version(curand) << "\n";
  const int n = cuda_device_count();
  os << "Device Count         : " << n << "\n";
  if (n == 0) os << "CUDA unavailable     : " << cuda_unavailable_reason() << "\n";
  os << "Default Device       : " << process_default_device().str() << "\n";
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp prop;
    try {
      prop = cuda::device_properties(i);
    } catch (const CudaError&) {
      continue;
    }
    os << "Device " << i << " Name        : " << prop.name << "\n";
    os << "Device " << i << " Compute Cap : " << prop.major << prop.minor << "\n";
    os << "Device " << i << " Memory      : " << prop.totalGlobalMem << " bytes\n";
    os << "Device " << i << " SMs         : " << prop.multiProcessorCount << "\n";
  }
  return os.str();
}

}  // namespace cunp

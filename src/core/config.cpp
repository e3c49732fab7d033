// src/core/config.cpp — version reporting (cunp.show_config()).
#include "cunp/config.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>


#include "cuda/runtime.hpp"
#include "cuda/nvrtc_compiler.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/nccl.hpp"

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

// NCCL's code is major * 10000 + minor * 100 + patch (since 2.9); "not found" without
// libnccl. Loading it maps the library, as library_version's dlopen does for the others.
std::string nccl_version_str() {
  try {
    const int v = cuda::nccl::get_version();
    return std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) + "." + std::to_string(v % 100);
  } catch (const CudaError&) {
    return "not found";
  }
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
  try {  // NVRTC is loaded on first use (Note [Lazy vendor libraries]); "unavailable" without it
    return cuda::nvrtc_version();
  } catch (const CudaError&) {
    return 0;
  }
}

// Note [show_config without iostreams]: in the Python process on the H200 machine,
// formatting numbers through std::ostringstream inside show_config crashed (SIGSEGV in
// the stream's numeric insertion), while the same code ran fine on a machine without
// a GPU. The report is plain string concatenation with std::to_string instead.
std::string show_config() {
  std::string s;
  auto line = [&s](const char* key, const std::string& value) {
    s += key;
    s += " : ";
    s += value;
    s += '\n';
  };
  line("cunp                ", version());
  line("CUDA Root           ", CUNP_CUDA_ROOT);
  line("CUDA Runtime Version", cuda_version_str(cuda_runtime_version()));
  line("CUDA Driver Version ", cuda_version_str(cuda_driver_version()));
  line("NVRTC Version       ", cuda_version_str(nvrtc_version()));
  static const char* cublas[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so", nullptr};
  static const char* cufft[] = {"libcufft.so.12", "libcufft.so.11", "libcufft.so", nullptr};
  static const char* cusolver[] = {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so", nullptr};
  static const char* cusparse[] = {"libcusparse.so.12", "libcusparse.so", nullptr};
  static const char* curand[] = {"libcurand.so.10", "libcurand.so", nullptr};
  line("cuBLAS Version      ", library_version(cublas));
  line("cuFFT Version       ", library_version(cufft));
  line("cuSOLVER Version    ", library_version(cusolver));
  line("cuSPARSE Version    ", library_version(cusparse));
  line("cuRAND Version      ", library_version(curand));
  line("NCCL Version        ", nccl_version_str());
  const int n = cuda_device_count();
  line("Device Count        ", std::to_string(n));
  if (n == 0) line("CUDA unavailable    ", cuda_unavailable_reason());
  line("Default Device      ", process_default_device().str());
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp prop;
    try {
      prop = cuda::device_properties(i);
    } catch (const CudaError&) {
      continue;
    }
    const std::string d = "Device " + std::to_string(i);
    s += d + " Name        : " + prop.name + "\n";
    s += d + " Compute Cap : " + std::to_string(prop.major) + std::to_string(prop.minor) + "\n";
    s += d + " Memory      : " + std::to_string(prop.totalGlobalMem) + " bytes\n";
    s += d + " SMs         : " + std::to_string(prop.multiProcessorCount) + "\n";
  }
  return s;
}

}  // namespace cunp

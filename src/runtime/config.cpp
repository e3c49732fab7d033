// src/runtime/config.cpp — version reporting (cunp.show_config()).
#include "cunp/config.hpp"
#include "cunp/kernel_stats.hpp"

#include <cuda_runtime_api.h>


#include "runtime/runtime.hpp"
#include "runtime/kernel_archive.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "runtime/vendor_lib.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/nccl.hpp"

namespace cunp {
namespace {

// Note [Library versions by file name]: show_config reports the CUDA libraries as the
// vendor loader finds them (vendor_lib.hpp, Note [CUDA library search order]): their
// version from the real file name (libcublas.so.13.1.0.3), the file and the search step,
// calling nothing inside them.
std::string library_version(cuda::VendorLib lib) {
  std::string why;
  const std::optional<cuda::VendorLibOrigin> origin = cuda::vendor_library_origin(lib, &why);
  if (!origin) return "not found (" + why + ")";
  const std::string file = origin->path.substr(origin->path.find_last_of('/') + 1);
  const std::size_t at = file.find(".so.");
  const std::string ver = at == std::string::npos ? std::string("unknown") : file.substr(at + 4);
  return ver + " (" + origin->path + ", " + origin->via + ")";
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

KernelCacheStats kernel_cache_stats() {
  const cuda::KernelCacheCounters& c = cuda::kernel_cache_counters();
  KernelCacheStats s;
  s.nvrtc_compiles = static_cast<std::int64_t>(c.nvrtc_compiles.load());
  s.archive_hits = static_cast<std::int64_t>(c.archive_hits.load());
  s.disk_hits = static_cast<std::int64_t>(c.disk_hits.load());
  s.archive = cuda::KernelArchive::global_status();
  return s;
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
  using cuda::VendorLib;
  line("NVRTC Library       ", library_version(VendorLib::nvrtc));
  line("cuBLAS Version      ", library_version(VendorLib::cublas));
  line("cuBLASLt Version    ", library_version(VendorLib::cublaslt));
  line("cuFFT Version       ", library_version(VendorLib::cufft));
  line("cuSOLVER Version    ", library_version(VendorLib::cusolver));
  line("cuSPARSE Version    ", library_version(VendorLib::cusparse));
  line("cuRAND Version      ", library_version(VendorLib::curand));
  line("nvJitLink Version   ", library_version(VendorLib::nvjitlink));
  line("NCCL Version        ", nccl_version_str());
  const KernelCacheStats stats = kernel_cache_stats();
  line("Kernel Archive      ", stats.archive);
  line("Kernel Cache        ", std::to_string(stats.nvrtc_compiles) + " NVRTC compiles, " +
                                  std::to_string(stats.archive_hits) + " archive hits, " +
                                  std::to_string(stats.disk_hits) + " disk hits (this process)");
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

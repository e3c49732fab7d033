// src/cuda/vendor_lib.cpp — see vendor_lib.hpp, Note [Lazy vendor libraries].
#include "cuda/vendor_lib.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <mutex>
#include <string>

#include "cunp/error.hpp"

// CMakeLists.txt defines CUNP_<LIB>_SONAME and CUNP_<LIB>_PATH from the toolkit it found.
#if !defined(CUNP_CUBLAS_SONAME) || !defined(CUNP_CUSOLVER_SONAME) || \
    !defined(CUNP_CUFFT_SONAME) || !defined(CUNP_CUSPARSE_SONAME) || !defined(CUNP_NVRTC_SONAME) || \
    !defined(CUNP_NCCL_SONAME)
#error "the vendor libraries' SONAMEs come from CMakeLists.txt"
#endif

namespace cunp::cuda {
namespace {

constexpr VendorLibInfo kLibs[] = {
    {"cuBLAS", CUNP_CUBLAS_SONAME, CUNP_CUBLAS_PATH},
    {"cuSOLVER", CUNP_CUSOLVER_SONAME, CUNP_CUSOLVER_PATH},
    {"cuFFT", CUNP_CUFFT_SONAME, CUNP_CUFFT_PATH},
    {"cuSPARSE", CUNP_CUSPARSE_SONAME, CUNP_CUSPARSE_PATH},
    {"NVRTC", CUNP_NVRTC_SONAME, CUNP_NVRTC_PATH},
    {"NCCL", CUNP_NCCL_SONAME, CUNP_NCCL_PATH},
};
constexpr int kLibCount = static_cast<int>(sizeof(kLibs) / sizeof(kLibs[0]));
static_assert(kLibCount == static_cast<int>(VendorLib::nccl) + 1,
              "one entry per VendorLib, in order");

std::string last_dl_error() {
  const char* e = dlerror();
  return e ? e : "unknown error";
}

}  // namespace

const VendorLibInfo& vendor_lib_info(VendorLib lib) { return kLibs[static_cast<int>(lib)]; }

void* vendor_library(VendorLib lib) {
  static std::mutex mutex;
  static void* handles[kLibCount] = {};
  const VendorLibInfo& info = vendor_lib_info(lib);
  // One lock for all: taken once per CUNP_VENDOR symbol, then never again.
  std::lock_guard lock(mutex);
  void*& handle = handles[static_cast<int>(lib)];
  if (handle) return handle;
  // RTLD_LOCAL: reached through dlsym only, so its symbols do not join the global scope
  // that libraries loaded later resolve against.
  handle = dlopen(info.soname, RTLD_NOW | RTLD_LOCAL);
  if (handle) return handle;
  std::string why = last_dl_error();
  if (std::string(info.path) != info.soname) {
    handle = dlopen(info.path, RTLD_NOW | RTLD_LOCAL);
    if (handle) return handle;
    why += "; " + last_dl_error();
  }
  throw CudaError("dlopen", cudaErrorSharedObjectInitFailed,
                  std::string(info.name) + " is not available: " + why);
}

void* vendor_symbol(VendorLib lib, const char* name) {
  void* handle = vendor_library(lib);
  dlerror();  // clear: a null symbol value is reported through dlerror()
  void* symbol = dlsym(handle, name);
  if (!symbol)
    throw CudaError("dlsym", cudaErrorSharedObjectSymbolNotFound,
                    std::string(vendor_lib_info(lib).name) + " has no function " + name + ": " +
                        last_dl_error());
  return symbol;
}

}  // namespace cunp::cuda

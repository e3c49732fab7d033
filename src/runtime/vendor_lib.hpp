// src/runtime/vendor_lib.hpp — the CUDA vendor libraries (cuBLAS, cuSOLVER, cuFFT, cuSPARSE, NVRTC,
// NCCL),
// loaded on first use instead of when libcunp is loaded.
//
// Note [Lazy vendor libraries]: libcunp links only the CUDA runtime. Mapping cuBLAS
// (with cuBLASLt), cuSOLVER, cuFFT, cuSPARSE and NVRTC at load time cost ~0.2 s of every
// `import cunp`, also on machines that never call them. Each one is dlopen()ed by its
// SONAME (taken from the toolkit at configure time, so the version cunp was compiled
// against) the first time one of its functions is needed, then by the toolkit's full
// path when the loader's search path does not have it. Call sites keep the vendor
// headers for the types and name the function through CUNP_VENDOR, which looks each
// symbol up once:
//
//   CUNP_VENDOR(cublas, cublasCreate)(&handle);  // cublasCreate_v2 from libcublas.so.13
//
// A library that cannot be loaded, or lacks the symbol, raises CudaError
// (Python: cunp.cuda.runtime.CUDARuntimeError, a RuntimeError) naming the library.
//
// Note [CUDA library search order]: the first of these that has the file wins, each
// library found on its own:
//   0. already loaded in the process under its SONAME (by another package, or as a
//      dependency), so that it is never loaded twice;
//   1. $CUNP_CUDA_PATH, then $CUDA_PATH: <root>/lib64, <root>/lib, <root>;
//   2. the full path in the toolkit cunp was built with, when that file exists (skipped
//      with CUNP_IGNORE_BUILD_TOOLKIT=1): a source build keeps the libraries it was
//      built and tested against even where another package brought NVIDIA's wheels;
//   3. NVIDIA's PyPI wheels: <nvidia>/*/lib for each `nvidia` package directory the
//      Python package registers at import (set_wheel_library_dirs: sys.path entries,
//      so site-packages and user site), and <libcunp's directory>/../nvidia (libcunp in
//      site-packages/cunp of a wheel), subdirectories in name order;
//   4. the system loader by SONAME (LD_LIBRARY_PATH, libcunp's RUNPATH, ldconfig).
// A wheel built elsewhere has no build toolkit on the user's machine, so step 3 serves it.
// Before a library its dependencies are loaded the same way (cuBLASLt before cuBLAS,
// nvJitLink before cuSPARSE and cuFFT, all of those before cuSOLVER), so a library taken
// from one place does not pick its dependencies from another. vendor_library_origin
// says which step found each (cunp.show_config()).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cunp::cuda {

// The first five are those cunp calls; the others are loaded as dependencies and for
// show_config (cuRAND); NCCL is loaded by cunp::cuda::nccl.
enum class VendorLib { cublas, cusolver, cufft, cusparse, nvrtc, cublaslt, nvjitlink, curand, nccl };
inline constexpr VendorLib kAllVendorLibs[] = {VendorLib::cublas,   VendorLib::cublaslt, VendorLib::cusolver,
                                               VendorLib::cufft,    VendorLib::cusparse, VendorLib::curand,
                                               VendorLib::nvrtc,    VendorLib::nvjitlink};

struct VendorLibInfo {
  const char* name;    // "cuBLAS"
  const char* soname;  // "libcublas.so.13"; empty when the build toolkit has no such library
  const char* path;    // the toolkit's file: "/usr/local/cuda/lib/libcublas.so.13"
};
const VendorLibInfo& vendor_lib_info(VendorLib lib);

// Where a loaded library came from: its file (symbolic links resolved) and the search
// step that found it ("CUNP_CUDA_PATH", "CUDA_PATH", "NVIDIA wheel", "system loader",
// "build toolkit", "already loaded").
struct VendorLibOrigin {
  std::string path;
  std::string via;
};
// Loads `lib` if it is not yet loaded; nullopt when it cannot be (`why`, if given, says
// what was tried).
std::optional<VendorLibOrigin> vendor_library_origin(VendorLib lib, std::string* why = nullptr);

// The files steps 1, 2 and 4 would try for `lib`, in order, without loading anything
// (the system loader's step 3 appears as {soname, "system loader"}).
std::vector<VendorLibOrigin> vendor_library_candidates(VendorLib lib);

// The `nvidia` package directories (site-packages/nvidia) step 2 searches, set by the
// Python package at import; replaces the previous list.
void set_wheel_library_dirs(std::vector<std::string> dirs);

// The library's handle, loading it on the first call (thread-safe; never unloaded).
void* vendor_library(VendorLib lib);

// The address of `name` in the library (dlsym), never null.
void* vendor_symbol(VendorLib lib, const char* name);

}  // namespace cunp::cuda

// The vendor function `fn` of library `lib` (a VendorLib enumerator) as a pointer of the
// header's type, looked up on first use. Two levels, so that a header's alias
// (#define cublasCreate cublasCreate_v2) is expanded before it is stringized.
#define CUNP_VENDOR(lib, fn) CUNP_VENDOR_AS(lib, fn, decltype(&::fn))
// The same with the pointer type given, for the few names a header also overloads in C++
// (cublasGemmEx): `type` is the exported function's.
#define CUNP_VENDOR_AS(lib, fn, type) CUNP_VENDOR_SYMBOL_(lib, fn, type)
#define CUNP_VENDOR_SYMBOL_(lib, fn, type)                                                      \
  ([]() -> type {                                                                               \
    static const auto f =                                                                       \
        reinterpret_cast<type>(::cunp::cuda::vendor_symbol(::cunp::cuda::VendorLib::lib, #fn)); \
    return f;                                                                                   \
  }())

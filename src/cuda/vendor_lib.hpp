// src/cuda/vendor_lib.hpp — the CUDA vendor libraries (cuBLAS, cuSOLVER, cuFFT, cuSPARSE, NVRTC,
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
#pragma once

namespace cunp::cuda {

enum class VendorLib { cublas, cusolver, cufft, cusparse, nvrtc, nccl };

struct VendorLibInfo {
  const char* name;    // "cuBLAS"
  const char* soname;  // "libcublas.so.13"
  const char* path;    // the toolkit's file: "/usr/local/cuda/lib/libcublas.so.13"
};
const VendorLibInfo& vendor_lib_info(VendorLib lib);

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

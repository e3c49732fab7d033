// src/runtime/vendor_handles.cpp — see vendor_handles.hpp.
//
// Note [Linear algebra handles]: a cuBLAS and a cuSOLVER handle per (device, thread),
// created on first use (so loading the library never needs a GPU); the device's
// current stream is set on a handle only when it differs from the one set last (the
// handle remembers it), so a steady stream costs no cublasSetStream per call. A thread's handles are destroyed when
// the thread exits; errors from a driver already shut down at process exit are ignored.
//
// Note [cuSPARSE handles]: one cusparseHandle_t per (device, thread), created on first
// use and bound to the device's current stream whenever that changes, as the linear
// algebra handles are (Note [Linear algebra handles]); destroyed when the thread exits.
#define DISABLE_CUSOLVER_DEPRECATED
#define DISABLE_CUSPARSE_DEPRECATED
#include "runtime/vendor_handles.hpp"

#include <cusolverSp.h>

#include <string>
#include <unordered_map>

#include "runtime/runtime.hpp"
#include "runtime/vendor_lib.hpp"
#include "cunp/error.hpp"
#include "cunp/stream.hpp"

namespace cunp::cuda {

void check_cublas(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw CudaError(call, static_cast<int>(s),
                    std::string(CUNP_VENDOR(cublas, cublasGetStatusName)(s)) + ": " +
                        CUNP_VENDOR(cublas, cublasGetStatusString)(s));
}
void check_cusolver(cusolverStatus_t s, const char* call) {
  if (s != CUSOLVER_STATUS_SUCCESS)
    throw CudaError(call, static_cast<int>(s), "cusolverStatus_t " + std::to_string(static_cast<int>(s)));
}
void check_cusparse(cusparseStatus_t s, const char* call) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw CudaError(call, static_cast<int>(s),
                    std::string(CUNP_VENDOR(cusparse, cusparseGetErrorName)(s)) + ": " +
                        CUNP_VENDOR(cusparse, cusparseGetErrorString)(s));
}
// fn(args...) through the lazily loaded library (Note [Lazy vendor libraries]), checked.
#define CUNP_CUBLAS_CALL(fn, ...) check_cublas(CUNP_VENDOR(cublas, fn)(__VA_ARGS__), #fn)
#define CUNP_CUSOLVER_CALL(fn, ...) check_cusolver(CUNP_VENDOR(cusolver, fn)(__VA_ARGS__), #fn)
#define CUNP_CUSPARSE_CALL(fn, ...) check_cusparse(CUNP_VENDOR(cusparse, fn)(__VA_ARGS__), #fn)

namespace {

struct DeviceHandles {
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
  cusolverDnParams_t params = nullptr;
  // The streams last set on the handles: cublasSetStream also resets cuBLAS's
  // workspace, so it runs only when the current stream changed.
  cudaStream_t blas_stream = nullptr, solver_stream = nullptr;
};

struct ThreadHandles {
  std::unordered_map<int, DeviceHandles> by_device;
  ~ThreadHandles() {
    for (auto& [device, h] : by_device) {
      if (cudaSetDevice(device) != cudaSuccess) continue;
      if (h.params) (void)CUNP_VENDOR(cusolver, cusolverDnDestroyParams)(h.params);
      if (h.solver) (void)CUNP_VENDOR(cusolver, cusolverDnDestroy)(h.solver);
      if (h.blas) (void)CUNP_VENDOR(cublas, cublasDestroy)(h.blas);
    }
  }
};

DeviceHandles& handles(int device) {
  thread_local ThreadHandles t;
  return t.by_device[device];
}

}  // namespace

// The calling thread's cuBLAS handle for the current device, bound to its current stream.
cublasHandle_t cublas_handle(int device) {
  DeviceHandles& h = handles(device);
  if (!h.blas) {
    CUNP_CUBLAS_CALL(cublasCreate, &h.blas);
    // Note [TF32]: float32 GEMMs are exact-float32 unless CUNP_ALLOW_TF32=1 (CuPy: CUPY_TF32).
    CUNP_CUBLAS_CALL(cublasSetMathMode, h.blas, CUBLAS_DEFAULT_MATH);
    h.blas_stream = nullptr;  // a new handle runs on the legacy default stream
  }
  const auto stream = static_cast<cudaStream_t>(current_stream(device).handle());
  if (stream != h.blas_stream) {
    CUNP_CUBLAS_CALL(cublasSetStream, h.blas, stream);
    h.blas_stream = stream;
  }
  return h.blas;
}

cusolverDnHandle_t cusolver_dn_handle(int device, cusolverDnParams_t* params) {
  DeviceHandles& h = handles(device);
  if (!h.solver) {
    CUNP_CUSOLVER_CALL(cusolverDnCreate, &h.solver);
    CUNP_CUSOLVER_CALL(cusolverDnCreateParams, &h.params);
    h.solver_stream = nullptr;
  }
  const auto stream = static_cast<cudaStream_t>(current_stream(device).handle());
  if (stream != h.solver_stream) {
    CUNP_CUSOLVER_CALL(cusolverDnSetStream, h.solver, stream);
    h.solver_stream = stream;
  }
  if (params) *params = h.params;
  return h.solver;
}

namespace {

struct SparseHandle {
  cusparseHandle_t handle = nullptr;
  cudaStream_t stream = nullptr;  // the stream last set on the handle
};

struct ThreadSparseHandles {
  std::unordered_map<int, SparseHandle> by_device;
  ~ThreadSparseHandles() {
    for (auto& [device, h] : by_device) {
      if (cudaSetDevice(device) != cudaSuccess) continue;
      if (h.handle) (void)CUNP_VENDOR(cusparse, cusparseDestroy)(h.handle);
    }
  }
};

}  // namespace

// Note [cuSPARSE handles].
cusparseHandle_t cusparse_handle(int device) {
  thread_local ThreadSparseHandles t;
  SparseHandle& h = t.by_device[device];
  if (!h.handle) {
    CUNP_CUSPARSE_CALL(cusparseCreate, &h.handle);
    h.stream = nullptr;  // a new handle runs on the legacy default stream
  }
  const auto stream = static_cast<cudaStream_t>(current_stream(device).handle());
  if (stream != h.stream) {
    CUNP_CUSPARSE_CALL(cusparseSetStream, h.handle, stream);
    h.stream = stream;
  }
  return h.handle;
}

namespace {

struct SpHandle {
  cusolverSpHandle_t handle = nullptr;
  cudaStream_t stream = nullptr;
};

struct ThreadSpHandles {
  std::unordered_map<int, SpHandle> by_device;
  ~ThreadSpHandles() {
    for (auto& [device, h] : by_device) {
      if (cudaSetDevice(device) != cudaSuccess) continue;
      if (h.handle) (void)CUNP_VENDOR(cusolver, cusolverSpDestroy)(h.handle);
    }
  }
};

}  // namespace

cusolverSpHandle_t cusolver_sp_handle(int device) {
  thread_local ThreadSpHandles t;
  SpHandle& h = t.by_device[device];
  if (!h.handle) {
    CUNP_CUSOLVER_CALL(cusolverSpCreate, &h.handle);
    h.stream = nullptr;
  }
  const auto stream = static_cast<cudaStream_t>(current_stream(device).handle());
  if (stream != h.stream) {
    CUNP_CUSOLVER_CALL(cusolverSpSetStream, h.handle, stream);
    h.stream = stream;
  }
  return h.handle;
}

}  // namespace cunp::cuda

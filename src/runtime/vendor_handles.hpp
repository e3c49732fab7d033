// src/runtime/vendor_handles.hpp — the CUDA vendor libraries' handles, one per (device,
// thread), bound to the device's current stream (Note [Linear algebra handles], Note
// [cuSPARSE handles] in vendor_handles.cpp), and the status checks of those libraries.
// The routine families (src/linalg, src/sparse) call them; src/fft keeps its cuFFT plans
// in its own plan cache (a plan is a handle).
#pragma once

#include <cublas_v2.h>
#include <cusolverDn.h>
#include <cusparse.h>

// cusolverSp.h itself is included only where its deprecation marks are turned off.
typedef struct cusolverSpContext* cusolverSpHandle_t;

namespace cunp::cuda {

// A failed status as a CudaError naming `call` (and the library's name of the status).
void check_cublas(cublasStatus_t s, const char* call);
void check_cusolver(cusolverStatus_t s, const char* call);
void check_cusparse(cusparseStatus_t s, const char* call);

// The calling thread's cuBLAS handle for CUDA device `device` (the current device),
// bound to its current stream.
cublasHandle_t cublas_handle(int device);
// The same for cuSOLVER dense; `params` (optional) receives the handle's
// cusolverDnParams_t.
cusolverDnHandle_t cusolver_dn_handle(int device, cusolverDnParams_t* params = nullptr);
cusparseHandle_t cusparse_handle(int device);
cusolverSpHandle_t cusolver_sp_handle(int device);

}  // namespace cunp::cuda

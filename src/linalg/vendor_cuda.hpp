// src/linalg/vendor_cuda.hpp — the CUDA half of vendor.hpp (cuBLAS / cuSOLVER), called
// by the dispatching functions of vendor_cpu.cpp for CUDA devices. Same conventions.
#pragma once

#include "linalg/vendor.hpp"

namespace cunp::linalg::detail {

// Note [Batched LU]: stacks of small matrices factor in one cublas?getrfBatched call
// (int32 pivots) and solve in one cublas?getrsBatched; larger ones, one Xgetrf each.
bool lu_batched_cuda(std::int64_t n, std::int64_t batch);
void gemm_cuda(int device, const GemmArgs& args);
void int_gemm_cuda(int device, const IntGemmArgs& args);  // int_gemm_cuda.cpp
std::vector<int> getrf_cuda(int device, DType dt, std::int64_t n, std::int64_t batch, void* a, void* ipiv);
void getrs_cuda(int device, DType dt, std::int64_t n, std::int64_t nrhs, std::int64_t batch, const void* lu,
                const void* ipiv, void* b);
std::vector<int> potrf_cuda(int device, DType dt, std::int64_t n, std::int64_t batch, void* a, bool lower);
void geqrf_cuda(int device, DType dt, std::int64_t m, std::int64_t n, std::int64_t batch, void* a, void* tau);
void orgqr_cuda(int device, DType dt, std::int64_t m, std::int64_t ncols, std::int64_t k, std::int64_t batch,
                void* a, const void* tau);
std::vector<int> gesvd_cuda(int device, DType dt, std::int64_t m, std::int64_t n, std::int64_t batch, void* a,
                            void* s, void* u, void* vt, char job, SvdDriver driver);
// The error estimate of the last gesvdp of this thread (svd_error_estimate).
double& gesvdp_error_estimate();
std::vector<int> syevd_cuda(int device, DType dt, std::int64_t n, std::int64_t batch, void* a, void* w,
                            bool vectors, bool lower);
std::vector<int> geev_cuda(int device, DType dt, std::int64_t n, std::int64_t batch, void* a, void* w, void* vr,
                           bool vectors);

}  // namespace cunp::linalg::detail

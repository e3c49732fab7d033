// src/linalg/cpu_lapack.hpp — the cpu device's CBLAS and LAPACKE, or stand-ins.
//
// Note [Builds without a CPU LAPACK]: a build that finds no OpenBLAS/LAPACKE (or is
// configured with -DCUNP_WITH_CPU_LAPACK=OFF) still builds and runs: every CBLAS and
// LAPACKE routine cunp calls is replaced by a template of the same name that raises
// RuntimeError (no_cpu_lapack), so the factorizations on the cpu device fail with a
// message saying what to install; matrix products run as plain loops (vendor_cpu.cpp),
// and nothing else changes (CUDA devices use cuBLAS and cuSOLVER). The stand-ins have C++ linkage and template names, so a translation unit
// that uses them links beside the real libraries too (tests/cpp/linalg checks them).
#pragma once

#ifndef CUNP_HAVE_CPU_LAPACK
#define CUNP_HAVE_CPU_LAPACK 0
#endif

#include <complex>

namespace cunp::linalg::detail {
// Raises RuntimeError: this build has no CPU BLAS/LAPACK.
[[noreturn]] void no_cpu_lapack(const char* routine);
}  // namespace cunp::linalg::detail

#if CUNP_HAVE_CPU_LAPACK
// LAPACKE's complex types are std::complex (layout-compatible with C's _Complex).
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>
#include <cblas.h>
#else
using lapack_int = int;
inline constexpr int LAPACK_COL_MAJOR = 102;
enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };
#define CUNP_NO_CPU_LAPACK(name)                                        \
  template <typename... A> lapack_int name(A...) {                       \
    cunp::linalg::detail::no_cpu_lapack(#name);                          \
  }
CUNP_NO_CPU_LAPACK(cblas_sgemm)
CUNP_NO_CPU_LAPACK(cblas_dgemm)
CUNP_NO_CPU_LAPACK(cblas_cgemm)
CUNP_NO_CPU_LAPACK(cblas_zgemm)
#define CUNP_NO_CPU_LAPACK4(s, d, c, z) \
  CUNP_NO_CPU_LAPACK(LAPACKE_##s) CUNP_NO_CPU_LAPACK(LAPACKE_##d) CUNP_NO_CPU_LAPACK(LAPACKE_##c) CUNP_NO_CPU_LAPACK(LAPACKE_##z)
CUNP_NO_CPU_LAPACK4(sgetrf, dgetrf, cgetrf, zgetrf)
CUNP_NO_CPU_LAPACK4(sgetrs, dgetrs, cgetrs, zgetrs)
CUNP_NO_CPU_LAPACK4(spotrf, dpotrf, cpotrf, zpotrf)
CUNP_NO_CPU_LAPACK4(sgeqrf, dgeqrf, cgeqrf, zgeqrf)
CUNP_NO_CPU_LAPACK4(sorgqr, dorgqr, cungqr, zungqr)
CUNP_NO_CPU_LAPACK4(sgesvd, dgesvd, cgesvd, zgesvd)
CUNP_NO_CPU_LAPACK4(ssyevd, dsyevd, cheevd, zheevd)
CUNP_NO_CPU_LAPACK4(sgeev, dgeev, cgeev, zgeev)
CUNP_NO_CPU_LAPACK(LAPACKE_dstevr)
#undef CUNP_NO_CPU_LAPACK4
#undef CUNP_NO_CPU_LAPACK
#endif

// The stand-ins of a build without a CPU BLAS/LAPACK (Note [Builds without a CPU LAPACK]):
// this file sees them whatever the library was built with, since the library's
// CUNP_HAVE_CPU_LAPACK is private to it.
#include <gtest/gtest.h>

#include <string>

#include "cunp/error.hpp"
#include "linalg/cpu_lapack.hpp"

#if !CUNP_HAVE_CPU_LAPACK
namespace {

template <typename F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const cunp::Error& e) {
    return e.what();
  }
  return "";
}

TEST(NoCpuLapack, EveryRoutineRaisesWithWhatToInstall) {
  double a = 1, b = 2, c = 0;
  const std::string gemm = message_of([&] {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, 1, 1, 1, 1.0, &a, 1, &b, 1, 0.0, &c, 1);
  });
  EXPECT_NE(gemm.find("cblas_dgemm"), std::string::npos) << gemm;
  EXPECT_NE(gemm.find("libopenblas-dev liblapacke-dev"), std::string::npos) << gemm;
  EXPECT_EQ(c, 0.0);  // nothing written
  int ipiv = 0;
  const std::string getrf = message_of([&] { (void)LAPACKE_zgetrf(LAPACK_COL_MAJOR, 1, 1, &a, 1, &ipiv); });
  EXPECT_NE(getrf.find("LAPACKE_zgetrf"), std::string::npos) << getrf;
  EXPECT_NE(message_of([&] { (void)LAPACKE_dstevr(LAPACK_COL_MAJOR, 'V'); }).find("LAPACKE_dstevr"),
            std::string::npos);
}

}  // namespace
#endif

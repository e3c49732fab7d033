// src/linalg/no_cpu_lapack.cpp — the error of a build without a CPU BLAS/LAPACK (Note
// [Builds without a CPU LAPACK]).
#include <string>

#include "cunp/error.hpp"
#include "linalg/cpu_lapack.hpp"

namespace cunp::linalg::detail {

void no_cpu_lapack(const char* routine) {
  throw Error(std::string("linear algebra on the cpu device needs a CPU BLAS/LAPACK (") + routine +
                     "), and this cunp was built without one: install OpenBLAS and LAPACKE (Debian: "
                     "libopenblas-dev liblapacke-dev) and rebuild; CUDA devices are not affected");
}

}  // namespace cunp::linalg::detail

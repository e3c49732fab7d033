// src/sort/gpu_sort_missing.cpp — the CUDA sort entries of a build without nvcc (see
// the CUB block of CMakeLists.txt): each says why it cannot run.
#ifndef CUNP_HAVE_CUB

#include "cunp/error.hpp"
#include "sort/gpu_sort.hpp"

namespace cunp::sorting {
namespace {

[[noreturn]] void missing(const char* what) {
  throw NotImplementedError(std::string(what) +
                            " on a CUDA device needs the CUB kernels, and this build of cunp was made "
                            "without the CUDA compiler (nvcc); rebuild with the CUDA toolkit's nvcc on PATH");
}

}  // namespace

ndarray gpu_sort_rows(const ndarray&) { missing("sort"); }
ndarray gpu_argsort_rows(const ndarray&) { missing("argsort"); }
void gpu_searchsorted(const ndarray&, const ndarray&, Side, const std::optional<ndarray>&, const ndarray&) {
  missing("searchsorted");
}

}  // namespace cunp::sorting

#endif  // CUNP_HAVE_CUB

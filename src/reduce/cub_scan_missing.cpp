// src/reduce/cub_scan_missing.cpp — the CUB scan entry of a build without nvcc (see the
// CUB block of CMakeLists.txt): it does nothing, so cumsum keeps its NVRTC kernels.
#ifndef CUNP_HAVE_CUB

#include "reduce/cub_scan.hpp"

namespace cunp::reduce {

bool cub_inclusive_sum(DType, const void*, void*, std::int64_t, cudaStream_t) { return false; }

}  // namespace cunp::reduce

#endif  // CUNP_HAVE_CUB

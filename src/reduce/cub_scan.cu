// src/reduce/cub_scan.cu — cub::DeviceScan::InclusiveSum for the four dtypes of
// Note [CUB cumsum] (gpu_scan.cpp).
#include <cub/device/device_scan.cuh>

#include "runtime/check.hpp"
#include "reduce/cub_scan.hpp"
#include "sort/cub_sort.hpp"

namespace cunp::reduce {
namespace {

template <typename T>
void inclusive_sum(const void* in, void* out, std::int64_t n, cudaStream_t stream) {
  const T* src = static_cast<const T*>(in);
  T* dst = static_cast<T*>(out);
  std::size_t bytes = 0;
  CUNP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, src, dst, n, stream));
  sorting::CubScratch scratch(bytes);
  CUNP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scratch.data(), bytes, src, dst, n, stream));
}

}  // namespace

bool cub_inclusive_sum(DType dt, const void* in, void* out, std::int64_t n, cudaStream_t stream) {
  switch (dt) {
    case DType::Float32: inclusive_sum<float>(in, out, n, stream); return true;
    case DType::Float64: inclusive_sum<double>(in, out, n, stream); return true;
    case DType::Int64: inclusive_sum<long long>(in, out, n, stream); return true;
    case DType::UInt64: inclusive_sum<unsigned long long>(in, out, n, stream); return true;
    default: return false;
  }
}

}  // namespace cunp::reduce

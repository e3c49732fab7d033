// src/sparse/sort_keys.cpp — see sort_keys.hpp.
//
// Note [Bounded radix sort]: the keys of the sparse conversions (a column index, or
// row * cols + col) are bounded by the matrix's shape, so on CUDA devices they are sorted
// by cub::DeviceRadixSort on their low bits only, with int32 positions as values: a CSR
// -> CSC of a 2^24-column matrix is three 8-bit passes over 4-byte keys and values where
// cunp::argsort (every key bit, int64 positions, a key transform) needs four plus two
// conversion passes, and COO -> CSR of a 2^24 x 2^24 matrix six passes over 48-bit keys
// instead of eight over 64. The sort also returns the sorted keys, which a separate gather
// would otherwise recompute. Without nvcc (no CUB), on the cpu device, and past 2^31
// entries, cunp::argsort (stable) does the same.
#include "sparse/sort_keys.hpp"

#include <bit>
#include <cstdint>
#include <limits>

#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/sort.hpp"
#include "sparse/common.hpp"
#ifdef CUNP_HAVE_CUB
#include "sort/cub_sort.hpp"
#endif

namespace cunp::sparse::detail {

DType key_dtype(std::uint64_t bound) {
  return bound < (std::uint64_t{1} << 32) ? DType::UInt32 : DType::UInt64;
}

int key_bits(std::uint64_t bound) {
  return std::max(1, static_cast<int>(std::bit_width(bound > 0 ? bound - 1 : 0)));
}

SortedKeys sort_keys(const ndarray& scratch, int bits) {
  const std::int64_t n = scratch.size();
#ifdef CUNP_HAVE_CUB
  const DType dt = scratch.dtype();
  if (scratch.device().is_cuda() && n > 0 && n <= std::numeric_limits<std::int32_t>::max() &&
      (dt == DType::UInt32 || dt == DType::UInt64) && scratch.is_c_contiguous()) {
    const Device device = scratch.device();
    cuda::DeviceScope scope(device.index);
    ndarray k1 = empty_on(n, dt, device);
    ndarray v0 = arange_on(n, DType::Int32, device);
    ndarray v1 = empty_on(n, DType::Int32, device);
    const cudaStream_t stream = cuda::current_stream_handle();
    auto* p0 = static_cast<std::int32_t*>(v0.data());
    auto* p1 = static_cast<std::int32_t*>(v1.data());
    int sel;
    if (dt == DType::UInt32)
      sel = sorting::cub_radix_sort<std::uint32_t, std::int32_t>(
          static_cast<std::uint32_t*>(scratch.data()), static_cast<std::uint32_t*>(k1.data()), p0,
          p1, n, stream, bits);
    else
      sel = sorting::cub_radix_sort<std::uint64_t, std::int32_t>(
          static_cast<std::uint64_t*>(scratch.data()), static_cast<std::uint64_t*>(k1.data()), p0,
          p1, n, stream, bits);
    return sel ? SortedKeys{k1, v1} : SortedKeys{scratch, v0};
  }
#endif
  (void)bits;
  const ndarray perm = argsort(scratch, 0, {.kind = SortKind::Stable});
  return {gather(scratch, perm), perm};
}

}  // namespace cunp::sparse::detail

// src/sort/cub_radix.cu — cub::DeviceRadixSort (onesweep) for the six key types of
// Note [CUB key types], keys only, with int64 values, and with int32 values for the
// 4- and 8-byte keys (Note [32-bit argsort indices] in gpu_sort.cu).
#include <cub/device/device_radix_sort.cuh>

#include <memory>

#include "cunp/device.hpp"
#include "cunp/memory.hpp"
#include "runtime/check.hpp"
#include "sort/cub_sort.hpp"

namespace cunp::sorting {

CubScratch::CubScratch(std::size_t bytes) {
  auto storage = allocate(Device::cuda(current_cuda_device()), bytes == 0 ? 1 : bytes);
  data_ = storage->data();
  holder_ = new std::shared_ptr<Storage>(std::move(storage));
}

CubScratch::~CubScratch() { delete static_cast<std::shared_ptr<Storage>*>(holder_); }

template <typename K, typename V>
int cub_radix_sort(K* keys0, K* keys1, V* vals0, V* vals1, std::int64_t n, cudaStream_t stream, int end_bit) {
  cub::DoubleBuffer<K> keys(keys0, keys1);
  std::size_t bytes = 0;
  const int bits = end_bit < 0 ? int(sizeof(K) * 8) : end_bit;
  if (vals0 == nullptr) {
    CUNP_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys, n, 0, bits, stream));
    CubScratch scratch(bytes);
    CUNP_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(scratch.data(), bytes, keys, n, 0, bits, stream));
    return keys.selector;
  }
  cub::DoubleBuffer<V> vals(vals0, vals1);
  CUNP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, vals, n, 0, bits, stream));
  CubScratch scratch(bytes);
  CUNP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch.data(), bytes, keys, vals, n, 0, bits, stream));
  return vals.selector;  // what argsort reads: the values (the keys share the selector)
}

#define CUNP_INSTANTIATE_RADIX(K) \
  template int cub_radix_sort<K, std::int64_t>(K*, K*, std::int64_t*, std::int64_t*, std::int64_t, cudaStream_t, int);
CUNP_SORT_KEY_TYPES(CUNP_INSTANTIATE_RADIX)
#define CUNP_INSTANTIATE_RADIX32(K) \
  template int cub_radix_sort<K, std::int32_t>(K*, K*, std::int32_t*, std::int32_t*, std::int64_t, cudaStream_t, int);
CUNP_BLOCK_SORT_KEY_TYPES(CUNP_INSTANTIATE_RADIX32)

}  // namespace cunp::sorting

// src/sort/cub_segmented.cu — cub::DeviceSegmentedSort for the four unsigned key types
// of Note [CUB key types], keys only and with int64 values: the batched sorts of an axis
// whose rows are too short or too long for the block sort.
#include <cub/device/device_segmented_sort.cuh>

#include "runtime/check.hpp"
#include "sort/cub_sort.hpp"

namespace cunp::sorting {

template <typename K>
int cub_segmented_sort(K* keys0, K* keys1, std::int64_t* vals0, std::int64_t* vals1, std::int64_t n,
                       std::int64_t nseg, const std::int64_t* offsets, cudaStream_t stream) {
  cub::DoubleBuffer<K> keys(keys0, keys1);
  std::size_t bytes = 0;
  int selector = 0;
  if (vals0 == nullptr) {
    CUNP_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortKeys(nullptr, bytes, keys, n, nseg, offsets, offsets + 1,
                                                             stream));
    CubScratch scratch(bytes);
    CUNP_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortKeys(scratch.data(), bytes, keys, n, nseg, offsets,
                                                             offsets + 1, stream));
  } else {
    cub::DoubleBuffer<std::int64_t> vals(vals0, vals1);
    CUNP_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(nullptr, bytes, keys, vals, n, nseg, offsets,
                                                              offsets + 1, stream));
    CubScratch scratch(bytes);
    CUNP_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(scratch.data(), bytes, keys, vals, n, nseg, offsets,
                                                              offsets + 1, stream));
    selector = vals.selector;  // what argsort reads: the values
  }
  return vals0 == nullptr ? keys.selector : selector;
}

#define CUNP_INSTANTIATE_SEGMENTED(K)                                                                        \
  template int cub_segmented_sort<K>(K*, K*, std::int64_t*, std::int64_t*, std::int64_t, std::int64_t, \
                                     const std::int64_t*, cudaStream_t);
CUNP_SEGMENTED_SORT_KEY_TYPES(CUNP_INSTANTIATE_SEGMENTED)

}  // namespace cunp::sorting

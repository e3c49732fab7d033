// src/sort/cub_block.cu — rows of up to kBlockSortMaxRow elements sorted one per thread
// block with cub::BlockRadixSort: one read and one write of global memory per row,
// where a segmented sort makes several passes. Instantiated for the 4- and 8-byte keys
// only (Note [Block row sort]).
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>

#include <type_traits>

#include "runtime/check.hpp"
#include "ops/common.h"
#include "sort/cub_sort.hpp"

namespace cunp::sorting {
namespace {

// A key that sorts after every real key, for the tail of a tile: the all-ones pattern
// for unsigned keys (the block sort is stable and the padding comes last, so real
// all-ones keys stay first) and a positive NaN with every payload bit set for floats
// (above the canonical NaN that the sorted data holds).
template <typename K> __device__ K pad_key() { return static_cast<K>(~K(0)); }
template <> __device__ float pad_key<float>() { return ops::f32_from_bits(0x7fffffffu); }
template <> __device__ double pad_key<double>() { return ops::f64_from_bits(0x7fffffffffffffffull); }

template <typename K, int kThreads, int kItems, bool kPairs>
__global__ void __launch_bounds__(kThreads) block_sort_rows_kernel(const K* keys_in, K* keys_out,
                                                                  const std::int64_t* vals_in,
                                                                  std::int64_t* vals_out, std::int64_t n) {
  using ValueT = std::conditional_t<kPairs, std::int64_t, cub::NullType>;
  using LoadKeys = cub::BlockLoad<K, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using LoadVals = cub::BlockLoad<std::int64_t, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Sort = cub::BlockRadixSort<K, kThreads, kItems, ValueT>;
  __shared__ union {
    typename LoadKeys::TempStorage load_keys;
    typename LoadVals::TempStorage load_vals;
    typename Sort::TempStorage sort;
  } temp;
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * n;
  const int valid = static_cast<int>(n);
  K keys[kItems];
  LoadKeys(temp.load_keys).Load(keys_in + base, keys, valid, pad_key<K>());
  if constexpr (kPairs) {
    std::int64_t vals[kItems];
    if (vals_in != nullptr) {
      __syncthreads();
      LoadVals(temp.load_vals).Load(vals_in + base, vals, valid, std::int64_t{0});
    } else {
      for (int i = 0; i < kItems; ++i) vals[i] = static_cast<std::int64_t>(threadIdx.x) * kItems + i;
    }
    __syncthreads();
    Sort(temp.sort).SortBlockedToStriped(keys, vals);
    for (int i = 0; i < kItems; ++i) {
      const int j = i * kThreads + static_cast<int>(threadIdx.x);
      if (j < valid) {
        keys_out[base + j] = keys[i];
        vals_out[base + j] = vals[i];
      }
    }
  } else {
    __syncthreads();
    Sort(temp.sort).SortBlockedToStriped(keys);
    for (int i = 0; i < kItems; ++i) {
      const int j = i * kThreads + static_cast<int>(threadIdx.x);
      if (j < valid) keys_out[base + j] = keys[i];
    }
  }
}

template <typename K, int kThreads, int kItems>
void launch(const K* keys_in, K* keys_out, const std::int64_t* vals_in, std::int64_t* vals_out, std::int64_t n,
            std::int64_t nseg, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(nseg));
  if (vals_out != nullptr) {
    block_sort_rows_kernel<K, kThreads, kItems, true><<<grid, kThreads, 0, stream>>>(keys_in, keys_out, vals_in,
                                                                                     vals_out, n);
  } else {
    block_sort_rows_kernel<K, kThreads, kItems, false><<<grid, kThreads, 0, stream>>>(keys_in, keys_out, nullptr,
                                                                                      nullptr, n);
  }
  CUNP_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <typename K>
void cub_block_sort_rows(const K* keys_in, K* keys_out, const std::int64_t* vals_in, std::int64_t* vals_out,
                         std::int64_t n, std::int64_t nseg, cudaStream_t stream) {
  if (n <= 1024) {
    launch<K, 256, 4>(keys_in, keys_out, vals_in, vals_out, n, nseg, stream);
  } else {
    launch<K, 512, 8>(keys_in, keys_out, vals_in, vals_out, n, nseg, stream);
  }
}

#define CUNP_INSTANTIATE_BLOCK(K)                                                                     \
  template void cub_block_sort_rows<K>(const K*, K*, const std::int64_t*, std::int64_t*, std::int64_t, \
                                       std::int64_t, cudaStream_t);
CUNP_BLOCK_SORT_KEY_TYPES(CUNP_INSTANTIATE_BLOCK)

}  // namespace cunp::sorting

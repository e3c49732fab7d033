// src/sort/cub_sort.hpp — the CUB sorts cunp instantiates, behind a header free of CUB
// (each is compiled once, in cub_radix.cu, cub_segmented.cu or cub_block.cu).
//
// Note [CUB key types]: CUB is instantiated for six key types only: u8, u16, u32,
// u64 and the native float and double (CUB orders -0.0 and +0.0 as equal and keeps
// the bits, so float sorts need no key transform; NaNs are made positive first so
// that they land after +inf). The segmented sort takes the four unsigned ones. Every
// other dtype becomes one of these keys (Note [Sort keys]). Each sort is a
// double-buffer sort: buffer 0 holds the input, buffer 1 is scratch, and the return
// value says which one holds the result (for pairs, the values; argsort reads nothing
// else).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace cunp::sorting {

// Device-wide stable radix sort of n keys (with values when vals0 != nullptr). V is
// int64 for every key type, and int32 for the 4- and 8-byte keys (n < 2^31): argsort of
// one row then moves 4 bytes less per element and pass (Note [32-bit argsort indices]).
// Keys below 2^end_bit sort on their low end_bit bits only (fewer passes: the sparse
// conversions' row/column keys); -1 means every bit.
template <typename K, typename V>
int cub_radix_sort(K* keys0, K* keys1, V* vals0, V* vals1, std::int64_t n, cudaStream_t stream, int end_bit = -1);

// Stable sort of `nseg` segments, segment s being [offsets[s], offsets[s + 1]).
template <typename K>
int cub_segmented_sort(K* keys0, K* keys1, std::int64_t* vals0, std::int64_t* vals1, std::int64_t n,
                       std::int64_t nseg, const std::int64_t* offsets, cudaStream_t stream);

// Note [Block row sort]: rows of kBlockSortMinRow..kBlockSortMaxRow elements (the
// batched sorts of a last axis, e.g. (65536, 1024)) are sorted one row per thread
// block with cub::BlockRadixSort, in shared memory: one read and one write per
// element, against several passes of a segmented sort. Shorter rows go to the
// segmented sort's warp-level path, which wastes no padding. Keys move from keys_in
// to keys_out, int64 values from vals_in (the index within the row when vals_in is
// null) to vals_out (keys only when vals_out is null). Instantiated for the 4- and
// 8-byte keys; CUNP_SORT_BLOCK_ROWS=0 turns the path off (for comparisons).
inline constexpr std::int64_t kBlockSortMinRow = 257;
inline constexpr std::int64_t kBlockSortMaxRow = 4096;
template <typename K>
void cub_block_sort_rows(const K* keys_in, K* keys_out, const std::int64_t* vals_in, std::int64_t* vals_out,
                         std::int64_t n, std::int64_t nseg, cudaStream_t stream);

// Temporary device memory for CUB, from the current device's pool; freed (in stream
// order) when the guard goes.
class CubScratch {
 public:
  explicit CubScratch(std::size_t bytes);
  ~CubScratch();
  CubScratch(const CubScratch&) = delete;
  CubScratch& operator=(const CubScratch&) = delete;
  void* data() const noexcept { return data_; }

 private:
  void* data_ = nullptr;
  void* holder_ = nullptr;  // the shared_ptr<Storage> keeping the memory
};

#define CUNP_SORT_KEY_TYPES(X) \
  X(std::uint8_t) X(std::uint16_t) X(std::uint32_t) X(std::uint64_t) X(float) X(double)

// The 4- and 8-byte keys: the block sort's, and the radix sort's with int32 values.
#define CUNP_BLOCK_SORT_KEY_TYPES(X) X(std::uint32_t) X(std::uint64_t) X(float) X(double)

#define CUNP_DECLARE_RADIX32_SORT(K)                                                                    \
  extern template int cub_radix_sort<K, std::int32_t>(K*, K*, std::int32_t*, std::int32_t*, std::int64_t, \
                                                      cudaStream_t, int);
CUNP_BLOCK_SORT_KEY_TYPES(CUNP_DECLARE_RADIX32_SORT)
#undef CUNP_DECLARE_RADIX32_SORT

#define CUNP_DECLARE_BLOCK_SORT(K)                                                                           \
  extern template void cub_block_sort_rows<K>(const K*, K*, const std::int64_t*, std::int64_t*, std::int64_t, \
                                              std::int64_t, cudaStream_t);
CUNP_BLOCK_SORT_KEY_TYPES(CUNP_DECLARE_BLOCK_SORT)
#undef CUNP_DECLARE_BLOCK_SORT

// Segmented sorts take unsigned keys only (Note [Segmented float keys] in gpu_sort.cu).
#define CUNP_SEGMENTED_SORT_KEY_TYPES(X) X(std::uint8_t) X(std::uint16_t) X(std::uint32_t) X(std::uint64_t)

#define CUNP_DECLARE_RADIX_SORT(K)                                                                      \
  extern template int cub_radix_sort<K, std::int64_t>(K*, K*, std::int64_t*, std::int64_t*, std::int64_t, \
                                                      cudaStream_t, int);
CUNP_SORT_KEY_TYPES(CUNP_DECLARE_RADIX_SORT)
#undef CUNP_DECLARE_RADIX_SORT

#define CUNP_DECLARE_SEGMENTED_SORT(K)                                                                       \
  extern template int cub_segmented_sort<K>(K*, K*, std::int64_t*, std::int64_t*, std::int64_t, std::int64_t, \
                                            const std::int64_t*, cudaStream_t);
CUNP_SEGMENTED_SORT_KEY_TYPES(CUNP_DECLARE_SEGMENTED_SORT)
#undef CUNP_DECLARE_SEGMENTED_SORT

}  // namespace cunp::sorting

// src/sparse/sort_keys.hpp — the stable sort of non-negative integer keys that the
// sparse conversions are built on (Note [Sparse conversions by sorting]).
#pragma once

#include "cunp/ndarray.hpp"

namespace cunp::sparse::detail {

struct SortedKeys {
  ndarray keys;  // ascending, the dtype of the input keys
  ndarray perm;  // positions of the input (int32 or int64): keys[i] = input[perm[i]]
};

// The stable order of `scratch` (1-d, an unsigned or signed integer dtype, every key in
// [0, 2^bits)). `scratch` must be a temporary of the caller's: on CUDA devices it is
// sorted in place. Note [Bounded radix sort].
SortedKeys sort_keys(const ndarray& scratch, int bits);

// The unsigned key dtype (uint32 or uint64) for keys below `bound`, and their bit count.
DType key_dtype(std::uint64_t bound);
int key_bits(std::uint64_t bound);

}  // namespace cunp::sparse::detail

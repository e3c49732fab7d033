// src/cuda/copy.hpp — element copies, casts and fills on a CUDA device, on the
// current stream of that device. All pointers are device pointers of one device
// (the current CUDA device when called).
#pragma once

#include <cstdint>
#include <span>

#include "cunp/dtype.hpp"
#include "iter/layout.hpp"

namespace cunp::cuda {

// dst[i] = cast<dst_dtype>(src[i]) over `layout` (operand 0: dst, operand 1: src).
void copy_cast(const iter::LoopLayout& layout, void* dst, DType dst_dtype, const void* src,
               DType src_dtype);

// dst[i] = value over `layout` (operand 0: dst); `value` points to one host element
// of dst_dtype.
void fill(const iter::LoopLayout& layout, void* dst, DType dst_dtype, const void* value);

// One input of concat_rows: a C-contiguous buffer of `rows` rows of row_bytes bytes,
// copied to byte offset_bytes of each output row.
struct ConcatInput {
  const void* data;
  std::int64_t row_bytes;
  std::int64_t offset_bytes;
};
// The single-kernel concatenate (Note [Single-kernel concatenate]): dst is `rows` rows
// of out_row_bytes bytes, C-contiguous; one launch per 32 inputs.
void concat_rows(void* dst, std::int64_t rows, std::int64_t out_row_bytes, std::span<const ConcatInput> inputs);

}  // namespace cunp::cuda

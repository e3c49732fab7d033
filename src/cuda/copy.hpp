// src/cuda/copy.hpp — element copies, casts and fills on a CUDA device, on the
// current stream of that device. All pointers are device pointers of one device
// (the current CUDA device when called).
#pragma once

#include "cunp/dtype.hpp"
#include "iter/layout.hpp"

namespace cunp::cuda {

// dst[i] = cast<dst_dtype>(src[i]) over `layout` (operand 0: dst, operand 1: src).
void copy_cast(const iter::LoopLayout& layout, void* dst, DType dst_dtype, const void* src,
               DType src_dtype);

// dst[i] = value over `layout` (operand 0: dst); `value` points to one host element
// of dst_dtype.
void fill(const iter::LoopLayout& layout, void* dst, DType dst_dtype, const void* value);

}  // namespace cunp::cuda

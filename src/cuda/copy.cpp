// src/cuda/copy.cpp — launchers of the copy/cast and fill kernels (copy_source.cpp).
#include "cuda/copy.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "cuda/check.hpp"
#include "cuda/copy_source.hpp"
#include "cuda/kernel_cache.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/stream.hpp"

namespace cunp::cuda {
namespace {

struct LaunchContext {
  cudaStream_t stream;
  const DeviceProps* props;
};

LaunchContext launch_context() {
  const int device = current_cuda_device();
  return {static_cast<cudaStream_t>(current_stream(device).handle()), &device_props(device)};
}

// Casts whose bits never change (same dtype, or signed/unsigned integers of one width)
// are plain copies; those run as the unsigned integer of the width, so one kernel
// serves every dtype of that size. complex128 has no 16-byte integer and stays itself.
bool is_bit_copy(DType dst, DType src) {
  if (dst == src) return true;
  return is_integer(dst) && is_integer(src) && itemsize(dst) == itemsize(src);
}
DType bit_copy_dtype(DType dt) {
  switch (itemsize(dt)) {
    case 1:
      return DType::UInt8;
    case 2:
      return DType::UInt16;
    case 4:
      return DType::UInt32;
    case 8:
      return DType::UInt64;
    default:
      return dt;
  }
}

Kernel kernel_for(const CopyKernelSpec& spec, const DeviceProps& props) {
  return get_kernel(copy_kernel_key(spec, props.target),
                    [&spec] { return copy_kernel_source(spec); });
}

// The head a contiguous kernel gets: the scalar elements before the vector body, or
// n (all scalar) when the operands cannot both be aligned at the same element.
std::int64_t contiguous_head(const CopyKernelSpec& spec, std::int64_t n, void* dst,
                             const void* src) {
  const int p = copy_pack_elements(spec);
  const std::size_t dsz = itemsize(spec.dst);
  std::int64_t head = elements_to_alignment(dst, dsz, p);
  if (head < 0 || head >= n) return n;
  if (spec.kind == CopyKind::Cast) {
    const std::size_t ssz = itemsize(spec.src);
    const void* src_at_head = static_cast<const char*>(src) + head * static_cast<std::int64_t>(ssz);
    if (elements_to_alignment(src_at_head, ssz, p) != 0) return n;
  }
  return head;
}

// The second kernel argument: a cast's source pointer, or a fill's value, whose host
// bytes the launch copies.
void* second_arg_slot(const CopyKernelSpec& spec, const void* second, void** pointer_slot) {
  return spec.kind == CopyKind::Fill ? const_cast<void*>(second) : static_cast<void*>(pointer_slot);
}

template <typename U>
void launch_contiguous(const CopyKernelSpec& spec, const LaunchContext& ctx, void* dst,
                       const void* second, std::int64_t n, std::int64_t head) {
  const Kernel kernel = kernel_for(spec, *ctx.props);
  U n_arg = static_cast<U>(n);
  U head_arg = static_cast<U>(head);
  void* second_arg = const_cast<void*>(second);
  void* args[] = {&dst, second_arg_slot(spec, second, &second_arg), &n_arg, &head_arg};
  const int p = copy_pack_elements(spec);
  const std::int64_t packs = (n - head) / p;
  const std::int64_t work =
      std::max<std::int64_t>({(packs + kCopyUnroll - 1) / kCopyUnroll, head, p});
  launch(kernel, dim3(grid_blocks(*ctx.props, work)), dim3(kCopyBlockSize), args, 0, ctx.stream);
}

// A fill's value as the by-value kernel argument (copied so it is suitably aligned).
struct ValueArg {
  alignas(16) unsigned char bytes[16] = {};
};

void run_contiguous(const CopyKernelSpec& base, const LaunchContext& ctx, void* dst,
                    const void* second, std::int64_t n) {
  CopyKernelSpec spec = base;
  spec.ndim = 0;
  spec.index64 = n > kInt32Max;
  const std::int64_t head = contiguous_head(spec, n, dst, second);
  if (spec.index64)
    launch_contiguous<unsigned long long>(spec, ctx, dst, second, n, head);
  else
    launch_contiguous<unsigned int>(spec, ctx, dst, second, n, head);
}

template <typename I>
void launch_strided(const CopyKernelSpec& spec, const LaunchContext& ctx,
                    const iter::LoopLayout& layout, void* dst, const void* second, int noperands) {
  // The parameter block: size, ndim, shape[N], strides[noperands][N] (kernel_common).
  I params[2 + kMaxStridedDims * 3];
  static constexpr int kOps[] = {0, 1};
  fill_strided_params(params, layout, spec.ndim, kOps, noperands);
  const Kernel kernel = kernel_for(spec, *ctx.props);
  void* second_arg = const_cast<void*>(second);
  void* args[] = {&dst, second_arg_slot(spec, second, &second_arg), params};
  launch(kernel, dim3(grid_blocks(*ctx.props, layout.size)), dim3(kCopyBlockSize), args, 0,
         ctx.stream);
}

void run_strided(const CopyKernelSpec& base, const LaunchContext& ctx,
                 const iter::LoopLayout& layout, void* dst, const void* second, int noperands) {
  if (layout.ndim() > kMaxStridedDims)
    throw ValueError("cunp supports at most " + std::to_string(kMaxStridedDims) +
                     " dimensions after coalescing, got " + std::to_string(layout.ndim()));
  CopyKernelSpec spec = base;
  spec.ndim = strided_ndim_bucket(layout.ndim());
  spec.index64 = !layout_fits_int32(layout, noperands);
  if (spec.index64)
    launch_strided<long long>(spec, ctx, layout, dst, second, noperands);
  else
    launch_strided<int>(spec, ctx, layout, dst, second, noperands);
}

void check_operands(const iter::LoopLayout& layout, int needed, const char* what) {
  if (layout.noperands() < needed)
    throw ValueError(std::string(what) + ": the loop layout has " +
                     std::to_string(layout.noperands()) + " operands, expected " +
                     std::to_string(needed));
  for (int op = 0; op < needed; ++op)
    if (static_cast<int>(layout.strides[op].size()) != layout.ndim())
      throw ValueError(std::string(what) + ": operand " + std::to_string(op) + " has " +
                       std::to_string(layout.strides[op].size()) + " strides for " +
                       std::to_string(layout.ndim()) + " dimensions");
}

}  // namespace

void copy_cast(const iter::LoopLayout& layout, void* dst, DType dst_dtype, const void* src,
               DType src_dtype) {
  check_operands(layout, 2, "copy_cast");
  if (layout.size == 0) return;
  const LaunchContext ctx = launch_context();
  CopyKernelSpec spec{.kind = CopyKind::Cast, .dst = dst_dtype, .src = src_dtype};
  if (is_bit_copy(dst_dtype, src_dtype)) spec.dst = spec.src = bit_copy_dtype(dst_dtype);
  const bool contiguous = layout.contiguous(0, static_cast<std::int64_t>(itemsize(dst_dtype))) &&
                          layout.contiguous(1, static_cast<std::int64_t>(itemsize(src_dtype)));
  if (contiguous) {
    if (is_bit_copy(dst_dtype, src_dtype)) {
      // The copy engine path is the bandwidth ceiling for plain copies.
      if (dst != src)
        CUNP_CUDA_CHECK(cudaMemcpyAsync(dst, src,
                                        static_cast<std::size_t>(layout.size) * itemsize(dst_dtype),
                                        cudaMemcpyDeviceToDevice, ctx.stream));
      return;
    }
    run_contiguous(spec, ctx, dst, src, layout.size);
    return;
  }
  run_strided(spec, ctx, layout, dst, src, 2);
}

void fill(const iter::LoopLayout& layout, void* dst, DType dst_dtype, const void* value) {
  check_operands(layout, 1, "fill");
  if (layout.size == 0) return;
  const LaunchContext ctx = launch_context();
  const std::size_t item = itemsize(dst_dtype);
  ValueArg arg;
  std::memcpy(arg.bytes, value, item);
  const bool contiguous = layout.contiguous(0, static_cast<std::int64_t>(item));
  if (contiguous && std::all_of(arg.bytes, arg.bytes + item,
                                [&](unsigned char b) { return b == arg.bytes[0]; })) {
    // Zero (and any value whose bytes are all equal) is a memset.
    CUNP_CUDA_CHECK(cudaMemsetAsync(dst, arg.bytes[0], static_cast<std::size_t>(layout.size) * item,
                                    ctx.stream));
    return;
  }
  // A fill is a bit pattern: run it as the unsigned integer of the width.
  const CopyKernelSpec spec{
      .kind = CopyKind::Fill, .dst = bit_copy_dtype(dst_dtype), .src = bit_copy_dtype(dst_dtype)};
  if (contiguous)
    run_contiguous(spec, ctx, dst, arg.bytes, layout.size);
  else
    run_strided(spec, ctx, layout, dst, arg.bytes, 1);
}

}  // namespace cunp::cuda

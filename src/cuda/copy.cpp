// src/cuda/copy.cpp — launchers of the copy/cast and fill kernels (copy_source.cpp).
#include "cuda/copy.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "runtime/check.hpp"
#include "cuda/copy_source.hpp"
#include "runtime/kernel_cache.hpp"
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

// Host mirror of cunp_copy::transpose_params.
struct TransposeParams {
  long long ni, nj, nb;
  long long ss_j, ds_i;
  long long ss_b, ds_b;
  long long tiles_i, tiles_j;
};

// Host mirror of cunp_copy::concat_params.
struct ConcatParams {
  long long rows;
  long long out_row;
  const void* src[kConcatInputs];
  long long len[kConcatInputs];
  long long off[kConcatInputs];
};

bool multiple_of(std::int64_t v, std::int64_t m) { return v % m == 0; }

// Routes a bit copy to the tiled transpose kernel when, after coalescing, it is a 2-d
// transpose (or a batch of them along one more axis): the destination is contiguous
// on its last axis and the source on another one. Returns false when not.
bool try_transpose(const iter::LoopLayout& layout, void* dst, const void* src, std::int64_t item,
                   const LaunchContext& ctx) {
  const int nd = layout.ndim();
  if (nd != 2 && nd != 3) return false;
  const Strides& ds = layout.strides[0];
  const Strides& ss = layout.strides[1];
  if (ds[static_cast<std::size_t>(nd - 1)] != item) return false;
  int k = -1;
  for (int d = 0; d < nd - 1; ++d)
    if (ss[static_cast<std::size_t>(d)] == item) k = d;
  if (k < 0) return false;
  const auto uk = static_cast<std::size_t>(k), uj = static_cast<std::size_t>(nd - 1);
  const std::size_t ub = nd == 3 ? 1 - uk : 0;  // the batch axis (the remaining one)
  TransposeParams p{};
  p.ni = layout.shape[uk];
  p.nj = layout.shape[uj];
  // Thin transposes are cheap elementwise and would leave most of each tile empty.
  if (p.ni < 16 || p.nj < 16) return false;
  p.nb = nd == 3 ? layout.shape[ub] : 1;
  p.ss_j = ss[uj];
  p.ds_i = ds[uk];
  p.ss_b = nd == 3 ? ss[ub] : 0;
  p.ds_b = nd == 3 ? ds[ub] : 0;
  const int e = static_cast<int>(item);
  const int v = transpose_vector_elements(e);
  const std::int64_t tile = 16LL * v;
  p.tiles_i = (p.ni + tile - 1) / tile;
  p.tiles_j = (p.nj + tile - 1) / tile;
  const std::int64_t w = item * v;
  const bool vec = multiple_of(static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(dst)), w) &&
                   multiple_of(static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(src)), w) &&
                   multiple_of(p.ss_j, w) && multiple_of(p.ds_i, w) && multiple_of(p.ss_b, w) &&
                   multiple_of(p.ds_b, w);
  const TransposeKernelSpec spec{.elem_bytes = e, .vector = vec};
  const Kernel kernel =
      get_kernel(transpose_kernel_key(spec, ctx.props->target), [&spec] { return transpose_kernel_source(spec); });
  const std::int64_t tiles = p.tiles_i * p.tiles_j * p.nb;
  const void* src_arg = src;
  void* args[] = {&dst, &src_arg, &p};
  launch(kernel, dim3(grid_blocks(*ctx.props, tiles * kTransposeThreads)), dim3(kTransposeThreads), args, 0,
         ctx.stream);
  return true;
}

}  // namespace

void concat_rows(void* dst, std::int64_t rows, std::int64_t out_row_bytes, std::span<const ConcatInput> inputs) {
  if (rows == 0 || inputs.empty()) return;
  const LaunchContext ctx = launch_context();
  // The widest unit dividing every length, offset and address.
  std::int64_t unit = 16;
  auto fit = [&unit](std::int64_t v) {
    while (unit > 1 && v % unit != 0) unit /= 2;
  };
  fit(out_row_bytes);
  fit(static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(dst)));
  for (const ConcatInput& in : inputs) {
    fit(in.row_bytes);
    fit(in.offset_bytes);
    fit(static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(in.data)));
  }
  const int u = static_cast<int>(unit);
  const Kernel kernel = get_kernel(concat_kernel_key(u, ctx.props->target), [u] { return concat_kernel_source(u); });
  for (std::size_t first = 0; first < inputs.size(); first += kConcatInputs) {
    const std::size_t count = std::min<std::size_t>(kConcatInputs, inputs.size() - first);
    ConcatParams p{};
    p.rows = rows;
    p.out_row = out_row_bytes / unit;
    std::int64_t largest = 0;
    for (std::size_t k = 0; k < count; ++k) {
      const ConcatInput& in = inputs[first + k];
      p.src[k] = in.data;
      p.len[k] = in.row_bytes / unit;
      p.off[k] = in.offset_bytes / unit;
      largest = std::max<std::int64_t>(largest, rows * p.len[k]);
    }
    if (largest == 0) continue;
    void* args[] = {&dst, &p};
    const dim3 grid(grid_blocks(*ctx.props, largest), static_cast<unsigned>(count));
    launch(kernel, grid, dim3(kCopyBlockSize), args, 0, ctx.stream);
  }
}

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
  if (is_bit_copy(dst_dtype, src_dtype) &&
      try_transpose(layout, dst, src, static_cast<std::int64_t>(itemsize(dst_dtype)), ctx))
    return;
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

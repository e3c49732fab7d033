// src/ufunc/elementwise.cpp — the launcher of the ufunc loop kernels
// (elementwise_source.cpp). Note [Elementwise launch]: the hot path (a cached kernel)
// builds a KernelKey, finds the kernel in a small per-thread table (no lock, no
// allocation, no string), fills the argument block on the stack and calls
// launch() (Note [Driver launch]). Only a miss of the per-thread table goes to the shared cache, and
// only a miss there generates source.
#include "ufunc/elementwise.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "ufunc/elementwise_source.hpp"
#include "runtime/kernel_cache.hpp"
#include "cuda/kernel_common.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/stream.hpp"

namespace cunp::cuda {
namespace {

// A direct-mapped per-thread front of the kernel cache. Kernels live for the whole
// process, so entries never go stale.
struct FrontEntry {
  KernelKey key;
  Kernel kernel;
};
constexpr std::size_t kFrontSize = 64;
thread_local FrontEntry t_front[kFrontSize];

Kernel kernel_for(const ElementwiseSpec& spec, int arch) {
  const KernelKey key = elementwise_kernel_key(spec, arch);
  FrontEntry& slot = t_front[KernelKeyHash{}(key) % kFrontSize];
  if (slot.kernel && slot.key == key) [[likely]]
    return slot.kernel;
  const Kernel kernel = get_kernel(key, [&spec] { return elementwise_kernel_source(spec); });
  slot.key = key;
  slot.kernel = kernel;
  return kernel;
}

[[noreturn]] void bad_operands(const std::string& what) {
  throw ValueError("launch_ufunc: " + what);
}

// Kernel arguments: one slot per operand (a pointer value, or the scalar's bytes in the
// Operand itself), then the size/head pair or the strided parameter block.
struct Args {
  void* slots[kMaxUfuncOperands + 2] = {};
  void* pointers[kMaxUfuncOperands] = {};
};

template <typename U>
void launch_contiguous(const ElementwiseSpec& spec, const DeviceProps& props, cudaStream_t stream,
                       Args& args, std::span<const Operand> operands, std::int64_t n) {
  const int nop = spec.noperands();
  const int p = elementwise_pack_elements(spec);
  // The vector body starts where operand 0 is pack-aligned; every other array operand
  // must be aligned at that element too, else everything runs scalar (head = n).
  std::int64_t head = elements_to_alignment(operands[0].data, itemsize(spec.storage[0]), p);
  if (head < 0 || head >= n) head = n;
  for (int k = 1; k < nop && head < n; ++k) {
    if (spec.is_scalar(k)) continue;
    const std::size_t item = itemsize(spec.storage[k]);
    const char* at = static_cast<const char*>(operands[static_cast<std::size_t>(k)].data) +
                     head * static_cast<std::int64_t>(item);
    if (elements_to_alignment(at, item, p) != 0) head = n;
  }
  const Kernel kernel = kernel_for(spec, props.target);
  U n_arg = static_cast<U>(n);
  U head_arg = static_cast<U>(head);
  args.slots[nop] = &n_arg;
  args.slots[nop + 1] = &head_arg;
  const std::int64_t packs = (n - head) / p;
  const int unroll = elementwise_unroll(spec);
  const std::int64_t work =
      std::max<std::int64_t>({(packs + unroll - 1) / unroll, head + (n - head - packs * p)});
  launch(kernel, dim3(grid_blocks(props, work)), dim3(kKernelBlockSize), args.slots, 0, stream);
}

template <typename I>
void launch_strided(const ElementwiseSpec& spec, const DeviceProps& props, cudaStream_t stream,
                    Args& args, const iter::LoopLayout& layout, const int* arrays, int narrays) {
  const int nop = spec.noperands();
  I params[2 + kMaxStridedDims * (1 + kMaxUfuncOperands)];
  fill_strided_params(params, layout, spec.ndim, arrays, narrays);
  const Kernel kernel = kernel_for(spec, props.target);
  args.slots[nop] = params;
  launch(kernel, dim3(grid_blocks(props, layout.size)), dim3(kKernelBlockSize), args.slots, 0,
         stream);
}

}  // namespace

void launch_ufunc(const ufunc::Ufunc& uf, const ufunc::Loop& loop, const iter::LoopLayout& layout,
                  std::span<const Operand> operands) {
  const int nop = uf.nin + uf.nout;
  if (uf.nin < 1 || uf.nin > ufunc::kMaxIn || uf.nout < 1 || uf.nout > ufunc::kMaxOut)
    bad_operands(uf.name + " has an unsupported number of operands");
  if (static_cast<int>(operands.size()) != nop || layout.noperands() != nop)
    bad_operands(uf.name + " takes " + std::to_string(nop) + " operands, got " +
                 std::to_string(operands.size()) + " (layout: " +
                 std::to_string(layout.noperands()) + ")");
  if (layout.size == 0) return;

  ElementwiseSpec spec = elementwise_spec(uf, loop);
  bool contiguous = true;
  for (int k = 0; k < nop; ++k) {
    const Operand& op = operands[static_cast<std::size_t>(k)];
    if (op.is_scalar) {
      if (k < uf.nout) bad_operands("output " + std::to_string(k) + " of " + uf.name + " is a scalar");
      spec.scalar_mask = static_cast<std::uint8_t>(spec.scalar_mask | (1u << k));
      continue;
    }
    spec.storage[static_cast<std::size_t>(k)] = op.dtype;
    if (layout.strides[static_cast<std::size_t>(k)].size() != layout.shape.size())
      bad_operands("operand " + std::to_string(k) + " has the wrong number of strides");
    if (!layout.contiguous(k, static_cast<std::int64_t>(itemsize(op.dtype)))) contiguous = false;
  }

  const int device = current_cuda_device();
  const DeviceProps& props = device_props(device);
  const auto stream = static_cast<cudaStream_t>(current_stream(device).handle());

  Args args;
  for (int k = 0; k < nop; ++k) {
    const Operand& op = operands[static_cast<std::size_t>(k)];
    if (op.is_scalar) {
      args.slots[k] = const_cast<unsigned char*>(op.value);
    } else {
      args.pointers[k] = op.data;
      args.slots[k] = &args.pointers[k];
    }
  }

  if (contiguous) {
    spec.ndim = 0;
    spec.index64 = layout.size > kInt32Max || elementwise_force_index64();
    spec.unroll = elementwise_unroll_override();
    if (spec.index64)
      launch_contiguous<unsigned long long>(spec, props, stream, args, operands, layout.size);
    else
      launch_contiguous<unsigned int>(spec, props, stream, args, operands, layout.size);
    return;
  }
  if (layout.ndim() > kMaxStridedDims)
    throw ValueError("cunp supports at most " + std::to_string(kMaxStridedDims) +
                     " dimensions after coalescing, got " + std::to_string(layout.ndim()));
  int arrays[kMaxUfuncOperands];
  int narrays = 0;
  for (int k = 0; k < nop; ++k)
    if (!spec.is_scalar(k)) arrays[narrays++] = k;
  spec.ndim = strided_ndim_bucket(layout.ndim());
  spec.index64 = !layout_fits_int32(layout, arrays, narrays) || elementwise_force_index64();
  if (spec.index64)
    launch_strided<long long>(spec, props, stream, args, layout, arrays, narrays);
  else
    launch_strided<int>(spec, props, stream, args, layout, arrays, narrays);
}

}  // namespace cunp::cuda

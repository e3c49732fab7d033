// src/sparse/row_kernels_cuda.cpp — launches the generated sparse row kernels
// (row_kernels_source.cpp) on the current stream: 256 threads a block, at most one
// wave of resident blocks (Note [Resident blocks]), each thread striding over the items.
#include <algorithm>
#include <cstring>

#include "runtime/kernel_cache.hpp"
#include "runtime/runtime.hpp"
#include "sparse/row_kernels.hpp"
#include "sparse/row_kernels_source.hpp"

namespace cunp::sparse::detail {

void run_row_kernel_cuda(int device, const RowKernelSpec& spec, std::int64_t n, const void* params,
                         std::size_t params_size) {
  cuda::DeviceScope scope(device);
  const cuda::DeviceProps& props = cuda::device_props(device);
  const cuda::Kernel kernel =
      cuda::get_kernel(row_kernel_key(spec, props.target), [&] { return row_kernel_source(spec); });
  const std::int64_t wave =
      std::max<std::int64_t>(1, cuda::resident_blocks(kernel, device, kRowKernelBlock));
  const std::int64_t blocks =
      std::clamp<std::int64_t>((n + kRowKernelBlock - 1) / kRowKernelBlock, 1, wave);
  // The parameter struct travels by value (__grid_constant__): its bytes, suitably aligned.
  alignas(16) unsigned char bytes[256];
  std::memcpy(bytes, params, std::min(params_size, sizeof bytes));
  long long count = n;
  void* args[] = {bytes, &count};
  cuda::launch(kernel, dim3(static_cast<unsigned>(blocks)), dim3(kRowKernelBlock), args, 0,
               cuda::current_stream_handle());
}

}  // namespace cunp::sparse::detail

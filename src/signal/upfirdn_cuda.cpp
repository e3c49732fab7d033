// src/signal/upfirdn_cuda.cpp — launches the upfirdn kernel of upfirdn_source.cpp on the
// current stream: one thread per output sample, the grid capped at one resident wave.
#include <algorithm>

#include "runtime/kernel_cache.hpp"
#include "cunp/device.hpp"
#include "cunp/stream.hpp"
#include "signal/upfirdn.hpp"
#include "signal/upfirdn_source.hpp"

namespace cunp::signal::detail {

void upfirdn_cuda(const ndarray& x, const ndarray& phases, ndarray& y, const UpfirdnShape& s,
                  const Scalar& cval) {
  constexpr int kBlock = 256;
  const int device = current_cuda_device();
  const cuda::DeviceProps& props = cuda::device_props(device);
  const DType dt = y.dtype();
  const cuda::Kernel kernel = cuda::get_kernel(upfirdn_kernel_key(dt, props.target),
                                               [dt] { return upfirdn_kernel_source(dt); });
  const std::int64_t total = s.rows * s.n_out;
  const std::int64_t resident = cuda::resident_blocks(kernel, device, kBlock);
  const auto blocks =
      static_cast<unsigned>(std::clamp<std::int64_t>((total + kBlock - 1) / kBlock, 1, resident));
  alignas(16) unsigned char cval_bytes[16] = {};
  cval.write_as(dt, cval_bytes);
  const void* xp = x.data();
  void* yp = y.data();
  const void* hp = phases.data();
  long long rows = s.rows, n = s.n, n_out = s.n_out, taps = s.taps, up = s.up, down = s.down;
  int mode = s.mode;
  int zero_outside = s.zero_outside ? 1 : 0;
  void* args[] = {&xp,   &yp, &hp,   &rows, &n,         &n_out,
                  &taps, &up, &down, &mode, cval_bytes, &zero_outside};
  cuda::launch(kernel, dim3(blocks), dim3(kBlock), args, 0,
               static_cast<cudaStream_t>(current_stream(device).handle()));
}

}  // namespace cunp::signal::detail

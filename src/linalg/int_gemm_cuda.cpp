// src/linalg/int_gemm_cuda.cpp — launches the generated integer/bool GEMM
// (int_gemm_source.cpp, Note [Integer GEMM]) on the current stream.
#include <algorithm>

#include "runtime/kernel_cache.hpp"
#include "runtime/runtime.hpp"
#include "linalg/int_gemm_source.hpp"
#include "linalg/vendor_cuda.hpp"

namespace cunp::linalg::detail {
namespace {

// Host mirror of cunp_igemm::gemm_params (same field order and types).
struct IntGemmParams {
  long long m, n, k, batch;
  long long a_batch, a_row, a_col;
  long long b_batch, b_row, b_col;
};

}  // namespace

void int_gemm_cuda(int device, const IntGemmArgs& g) {
  if (g.m == 0 || g.n == 0 || g.batch == 0) return;
  cuda::DeviceScope scope(device);
  const cuda::DeviceProps& props = cuda::device_props(device);
  // Note [GEMM tiles]: large tiles once they fill a wave of the device, else small ones.
  const IntGemmShape large = int_gemm_shape(IntGemmTile::Large);
  const double large_tiles = static_cast<double>(g.batch) *
                             static_cast<double>((g.m + large.tile_m - 1) / large.tile_m) *
                             static_cast<double>((g.n + large.tile_n - 1) / large.tile_n);
  const IntGemmTile tile = large_tiles >= props.sm_count ? IntGemmTile::Large : IntGemmTile::Small;
  const IntGemmShape shape = int_gemm_shape(tile);
  const cuda::Kernel kernel = cuda::get_kernel(int_gemm_kernel_key(g.dtype, props.target, tile),
                                               [&] { return int_gemm_kernel_source(g.dtype, tile); });
  const std::int64_t mtiles = (g.m + shape.tile_m - 1) / shape.tile_m;
  const std::int64_t ntiles = (g.n + shape.tile_n - 1) / shape.tile_n;
  const dim3 grid(static_cast<unsigned>(std::min<std::int64_t>(ntiles, 0x7fffffff)),
                  static_cast<unsigned>(std::min<std::int64_t>(mtiles, 65535)),
                  static_cast<unsigned>(std::min<std::int64_t>(g.batch, 65535)));
  IntGemmParams p{g.m, g.n, g.k, g.batch, g.a_batch, g.a_row, g.a_col, g.b_batch, g.b_row, g.b_col};
  const void* a = g.a;
  const void* b = g.b;
  void* c = g.c;
  void* args[] = {&a, &b, &c, &p};
  cuda::launch(kernel, grid, dim3(static_cast<unsigned>(shape.threads)), args, 0, cuda::current_stream_handle());
}

}  // namespace cunp::linalg::detail

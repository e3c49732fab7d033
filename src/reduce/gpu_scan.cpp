// src/reduce/gpu_scan.cpp — the CUDA engine of the scans: picks the kernels of
// gpu_scan_source.cpp (Note [Scan kernels] in gpu_scan_templates.hpp) from the ScanLayout and launches them.
//
// Note [Scan launch]:
//  - Line kinds when neighbouring lines are closer in memory than neighbouring
//    elements of a line, or lines are short (at most 32 elements, or at most 256 with
//    at least 1024 lines); Block kinds otherwise.
//  - Chunks: lines are cut into K chunks until there are about as many threads (Line)
//    or blocks (Block) as the device holds resident; Line chunks have at least 32
//    elements, Block chunks are whole multiples of a 2048-element tile. K = 1 is one
//    launch; K > 1 is Reduce, Spine, Scan with a workspace of lines x K carried values,
//    released (stream ordered) when this function returns.
//  - With CUNP_SCAN_CHAINED=1, one line of at least kChainedMin elements (cumsum of a
//    whole array, or of a long 1-d line): the Chained kernel, one launch after a
//    memset of its tile counter and status words; one block per tile (4096 elements
//    for carried values of up to 4 bytes, else 2048). Off by default: measured on the
//    H200 (cumsum of 2^27 float32) it took 0.96 ms against 0.65 ms for the Block
//    kinds with chunks, and its GPU correctness is not yet established.
//
// Note [CUB cumsum]: cumsum of one contiguous line (a whole array, or a long 1-d line)
// of at least kChainedMin elements whose input already has the result's dtype
// (float32, float64, int64, uint64) runs cub::DeviceScan::InclusiveSum (a single pass
// with decoupled look-back; src/reduce/cub_scan.cu) in builds with nvcc; every other
// scan takes the NVRTC kernels below. CUNP_SCAN_CUB=0 turns it off (for comparisons).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "runtime/check.hpp"
#include "runtime/kernel_cache.hpp"
#include "cuda/kernel_common.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/stream.hpp"
#include "reduce/cub_scan.hpp"
#include "reduce/gpu_scan_source.hpp"
#include "reduce/scan.hpp"

namespace cunp::reduce {
namespace {

using I = long long;
constexpr int kDims = 64;
constexpr std::int64_t kMaxGridY = 65535;
// A single line of at least this many elements is scanned by the Chained kernel when
// it is enabled (Note [Scan launch]).
constexpr std::int64_t kChainedMin = std::int64_t{1} << 16;

bool chained_enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("CUNP_SCAN_CHAINED");
    return v != nullptr && v[0] == '1';
  }();
  return enabled;
}

bool cub_scan_enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("CUNP_SCAN_CUB");
    return v == nullptr || v[0] != '0';
  }();
  return enabled;
}

// Note [CUB cumsum]: true when the line was scanned by CUB.
bool try_cub_sum(ScanOp op, ScanMap map, const ScanLayout& layout, const ndarray& in, const ndarray& out,
                 cudaStream_t stream) {
  const auto isz = static_cast<std::int64_t>(itemsize(out.dtype()));
  if (op != ScanOp::Add || map != ScanMap::None || in.dtype() != out.dtype() || layout.lines.size != 1 ||
      layout.lines.ndim() != 0 || layout.n < kChainedMin || layout.in_stride != isz || layout.out_stride != isz ||
      !cub_scan_enabled())
    return false;
  const auto* s = static_cast<const char*>(in.data());
  auto* d = static_cast<char*>(out.data());
  const std::int64_t bytes = layout.n * isz;
  if (s != d && s < d + bytes && d < s + bytes) return false;  // partial overlap: the kernels below
  return cub_inclusive_sum(out.dtype(), s, d, layout.n, stream);  // false without nvcc
}

struct Params2 {
  I v[2 + kDims * 3];
};

cuda::Kernel kernel_for(const ScanKernelSpec& spec, int arch) {
  return cuda::get_kernel(scan_kernel_key(spec, arch),
                          [&spec] { return scan_kernel_source(spec); });
}

std::int64_t abs64(std::int64_t x) { return x < 0 ? -x : x; }
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace

void gpu_scan(ScanOp op, ScanMap map, const ScanLayout& layout, const ndarray& in,
              const ndarray& out) {
  const iter::LoopLayout& lines = layout.lines;
  const I nlines = lines.size;
  const I n = layout.n;
  if (nlines == 0 || n == 0) return;
  if (lines.ndim() > kDims)
    throw ValueError("cunp supports at most " + std::to_string(kDims) +
                     " dimensions after coalescing");

  const int device = current_cuda_device();
  const cuda::DeviceProps& props = cuda::device_props(device);
  const auto stream = static_cast<cudaStream_t>(current_stream(device).handle());
  const int arch = props.target;
  const std::int64_t resident_threads = static_cast<std::int64_t>(props.sm_count) *
                                        std::max(props.max_threads_per_sm, kScanBlockSize);
  const std::int64_t resident_blocks = std::max<std::int64_t>(resident_threads / kScanBlockSize, 1);

  ScanKernelSpec spec{
      .op = op, .map = map, .in = in.dtype(), .acc = out.dtype(), .kind = ScanKernelKind::LineScan};
  Params2 po{};
  const int ops[2] = {0, 1};
  cuda::fill_strided_params(po.v, lines, kDims, ops, 2);
  char* dst = static_cast<char*>(out.data());
  const char* src = static_cast<const char*>(in.data());
  I si = layout.in_stride, so = layout.out_stride;
  const std::size_t state = scan_state_bytes(out.dtype());

  const std::int64_t across = lines.ndim() == 0 ? 0 : abs64(lines.strides[1].back());
  const bool interleaved = nlines > 1 && across < abs64(si);
  const bool short_lines = n <= 32 || (n <= 256 && nlines >= 1024);
  ndarray ws;
  char* w = nullptr;
  auto workspace = [&](std::int64_t values) {
    ws = empty(Shape{static_cast<std::int64_t>(values * static_cast<std::int64_t>(state))},
               {.dtype = DType::UInt8, .order = Order::C, .device = in.device()});
    w = static_cast<char*>(ws.data());
  };
  auto spine = [&](I nchunks) {
    spec.kind = ScanKernelKind::Spine;
    I nl = nlines;
    int k = static_cast<int>(nchunks);
    void* args[] = {&w, &nl, &k};
    cuda::launch(kernel_for(spec, arch),
                 dim3(static_cast<unsigned>(ceil_div(nlines, kScanBlockSize))),
                 dim3(kScanBlockSize), args, 0, stream);
  };

  // The chunked kinds: with k > 1 chunks per line, `reduce_kind` writes each chunk's
  // total, the spine turns them into exclusive prefixes, and `scan_kind` scans every
  // chunk from its prefix; with one chunk, `scan_kind` alone.
  auto chunked = [&](ScanKernelKind reduce_kind, ScanKernelKind scan_kind, dim3 grid, I k, I chunk) {
    I nl = nlines, nn = n;
    if (k > 1) {
      workspace(nlines * k);
      spec.kind = reduce_kind;
      void* args[] = {&w, &src, po.v, &nl, &nn, &si, &chunk};
      cuda::launch(kernel_for(spec, arch), grid, dim3(kScanBlockSize), args, 0, stream);
      spine(k);
    }
    spec.kind = scan_kind;
    const char* wc = w;
    void* args[] = {&dst, &wc, &src, po.v, &nl, &nn, &si, &so, &chunk};
    cuda::launch(kernel_for(spec, arch), grid, dim3(kScanBlockSize), args, 0, stream);
  };

  if (interleaved || short_lines) {
    std::int64_t k = 1;
    if (n > 64 && nlines < resident_threads)
      k = std::clamp<std::int64_t>(ceil_div(resident_threads, nlines), 1,
                                   std::min<std::int64_t>(n / 32, kMaxGridY));
    I chunk = ceil_div(n, k);
    k = ceil_div(n, chunk);
    const dim3 grid(static_cast<unsigned>(ceil_div(nlines, kScanBlockSize)),
                    static_cast<unsigned>(k));
    chunked(ScanKernelKind::LineReduce, ScanKernelKind::LineScan, grid, k, chunk);
    return;
  }

  if (try_cub_sum(op, map, layout, in, out, stream)) return;
  if (nlines == 1 && n >= kChainedMin && chained_enabled()) {
    // One long line: a single pass (Chained), reading and writing every element once.
    const std::int64_t tile = scan_chained_tile(state);
    I ntiles = ceil_div(n, tile);
    const std::int64_t status_bytes = 16 + ceil_div(ntiles * 4, 16) * 16;
    const auto sb = static_cast<std::int64_t>(state);
    workspace(ceil_div(status_bytes + 2 * ntiles * sb, sb));
    CUNP_CUDA_CHECK(cudaMemsetAsync(w, 0, static_cast<std::size_t>(status_bytes), stream));
    spec.kind = ScanKernelKind::Chained;
    I nn = n;
    void* args[] = {&dst, &w, &src, &nn, &si, &so, &ntiles};
    cuda::launch(kernel_for(spec, arch), dim3(static_cast<unsigned>(ntiles)), dim3(kScanBlockSize), args, 0,
                 stream);
    return;
  }

  const std::int64_t tiles = ceil_div(n, kScanTile);
  std::int64_t k = 1;
  if (nlines < resident_blocks)
    k = std::clamp<std::int64_t>(ceil_div(resident_blocks, nlines), 1, std::min(tiles, kMaxGridY));
  I chunk = ceil_div(tiles, k) * kScanTile;
  k = ceil_div(n, chunk);
  const dim3 grid(static_cast<unsigned>(k),
                  static_cast<unsigned>(std::min<std::int64_t>(nlines, kMaxGridY)));
  chunked(ScanKernelKind::BlockReduce, ScanKernelKind::BlockScan, grid, k, chunk);
}

}  // namespace cunp::reduce

// src/index/index_cuda.cpp — see index_cuda.hpp and Note [Indexing kernels].
#include "index/index_cuda.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "runtime/check.hpp"
#include "runtime/kernel_cache.hpp"
#include "cuda/kernel_common.hpp"
#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "index/index_source.hpp"
#include "index/prepared.hpp"

namespace cunp::index::gpu {
namespace {

// Host mirror of cunp_ix::offsets_params (same field order and types).
struct OffsetsParams {
  unsigned long long n;
  int k;
  int want_lin;
  void* off;
  void* lin;
  void* flag;
  const void* idx[kMaxIndexArrays];
  long long size[kMaxIndexArrays];
  long long stride[kMaxIndexArrays];
};

// Host mirror of cunp_ix::nz_params.
struct NonzeroParams {
  unsigned long long n;
  unsigned long long total;
  int ndim;
  int pad;
  long long shape[kMaxNonzeroDims];
};

struct Ctx {
  int device;
  cudaStream_t stream;
  const cuda::DeviceProps* props;
};

Ctx context() {
  const int device = current_cuda_device();
  return {device, cuda::current_stream_handle(), &cuda::device_props(device)};
}

cuda::Kernel kernel(const IndexKernelSpec& spec, const Ctx& ctx) {
  return cuda::get_kernel(index_kernel_key(spec, ctx.props->target),
                          [&spec] { return index_kernel_source(spec); });
}

DType element_dtype(DType dt) {
  switch (itemsize(dt)) {
    case 1: return DType::UInt8;
    case 2: return DType::UInt16;
    case 4: return DType::UInt32;
    case 8: return DType::UInt64;
    default: return DType::Complex128;
  }
}

unsigned long long read_u64(const void* device_ptr, cudaStream_t stream) {
  unsigned long long v = 0;
  CUNP_CUDA_CHECK(cudaMemcpyAsync(&v, device_ptr, sizeof v, cudaMemcpyDeviceToHost, stream));
  CUNP_CUDA_CHECK(cudaStreamSynchronize(stream));
  return v;
}

// The strided parameter block over (pre..., |B|, post...): operand 0 the view's byte
// strides, operand 1 selects the B coordinate.
template <typename I>
std::size_t geometry_params(I* out, const Geometry& g, int bucket) {
  const int nd = static_cast<int>(g.dims.size());
  std::int64_t size = 1;
  for (std::int64_t d : g.dims) size *= d;
  out[0] = static_cast<I>(size);
  out[1] = static_cast<I>(nd);
  for (int d = 0; d < bucket; ++d) {
    const bool in = d < nd;
    out[2 + d] = in ? static_cast<I>(g.dims[static_cast<std::size_t>(d)]) : I{0};
    out[2 + bucket + d] = in ? static_cast<I>(g.strides[static_cast<std::size_t>(d)]) : I{0};
    out[2 + 2 * bucket + d] = in && d == g.baxis ? I{1} : I{0};
  }
  return static_cast<std::size_t>(2 + 3 * bucket);
}

bool fits_int32(const Geometry& g) {
  std::int64_t size = 1, extent = 0;
  for (std::size_t d = 0; d < g.dims.size(); ++d) {
    size *= g.dims[d];
    if (g.dims[d] > 0) extent += (g.dims[d] - 1) * std::abs(g.strides[d]);
  }
  return size <= cuda::kInt32Max && extent <= cuda::kInt32Max;
}

void check_rank(const Geometry& g) {
  if (static_cast<int>(g.dims.size()) > cuda::kMaxStridedDims)
    throw ValueError("advanced indexing supports at most " + std::to_string(cuda::kMaxStridedDims) +
                     " result dimensions on a CUDA device");
}

template <typename I>
void launch_gather(const Ctx& ctx, IndexKernelSpec spec, const ndarray& out, const void* src, const Geometry& g,
                   const ndarray& off) {
  I params[2 + 3 * cuda::kMaxStridedDims];
  geometry_params(params, g, spec.ndim);
  void* out_p = out.data();
  const void* src_p = src;
  const void* off_p = off.data();
  void* args[] = {&out_p, &src_p, &off_p, params};
  cuda::launch(kernel(spec, ctx), dim3(cuda::grid_blocks(*ctx.props, out.size())), dim3(cuda::kKernelBlockSize),
               args, 0, ctx.stream);
}

template <typename I>
void launch_scatter(const Ctx& ctx, IndexKernelSpec spec, void* dst, const ndarray& values, const Geometry& g,
                    const ndarray& off, const void* lin, const void* winner) {
  I params[2 + 3 * cuda::kMaxStridedDims];
  geometry_params(params, g, spec.ndim);
  const void* values_p = values.data();
  const void* off_p = off.data();
  void* args[] = {&dst, &values_p, &off_p, &lin, &winner, params};
  cuda::launch(kernel(spec, ctx), dim3(cuda::grid_blocks(*ctx.props, values.size())),
               dim3(cuda::kKernelBlockSize), args, 0, ctx.stream);
}

}  // namespace

void offsets(const IndexedAxes& ax, const ndarray& off, const ndarray* lin) {
  if (ax.n == 0) return;
  const int k = static_cast<int>(ax.idx.size());
  if (k > kMaxIndexArrays) throw IndexError("too many index arrays");
  const Ctx ctx = context();
  const ndarray flag = empty({1}, {.dtype = DType::UInt64, .device = Device::cuda(ctx.device)});
  CUNP_CUDA_CHECK(cudaMemsetAsync(flag.data(), 0xff, 8, ctx.stream));
  OffsetsParams p{};
  p.n = static_cast<unsigned long long>(ax.n);
  p.k = k;
  p.want_lin = lin != nullptr ? 1 : 0;
  p.off = off.data();
  p.lin = lin != nullptr ? lin->data() : nullptr;
  p.flag = flag.data();
  for (int j = 0; j < k; ++j) {
    const auto u = static_cast<std::size_t>(j);
    p.idx[j] = ax.idx[u].data();
    p.size[j] = ax.sizes[u];
    p.stride[j] = ax.strides[u];
  }
  void* args[] = {&p};
  cuda::launch(kernel({.kind = IndexKernelKind::Offsets}, ctx), dim3(cuda::grid_blocks(*ctx.props, ax.n)),
               dim3(cuda::kKernelBlockSize), args, 0, ctx.stream);
  // The bounds check: one 8-byte read (a synchronization) per call.
  const unsigned long long bad = read_u64(flag.data(), ctx.stream);
  if (bad == ~0ull) return;
  const auto j = static_cast<std::size_t>(bad / p.n);
  const auto b = static_cast<std::int64_t>(bad % p.n);
  const std::int64_t value = ax.idx[j].item(b).to_int64();
  throw IndexError("index " + std::to_string(value) + " is out of bounds for axis " +
                   std::to_string(ax.axes[j]) + " with size " + std::to_string(ax.sizes[j]));
}

void gather(const ndarray& out, const void* src, const Geometry& g, const ndarray& off) {
  if (out.size() == 0) return;
  check_rank(g);
  const Ctx ctx = context();
  IndexKernelSpec spec{.kind = IndexKernelKind::Gather,
                       .dtype = element_dtype(out.dtype()),
                       .ndim = cuda::strided_ndim_bucket(static_cast<int>(g.dims.size())),
                       .index64 = !fits_int32(g)};
  if (spec.index64)
    launch_gather<long long>(ctx, spec, out, src, g, off);
  else
    launch_gather<int>(ctx, spec, out, src, g, off);
}

void gather_direct(const ndarray& out, const void* src, const Geometry& g, const IndexedAxes& ax) {
  if (out.size() == 0) return;
  check_rank(g);
  const Ctx ctx = context();
  const ndarray flag = empty({1}, {.dtype = DType::UInt64, .device = Device::cuda(ctx.device)});
  CUNP_CUDA_CHECK(cudaMemsetAsync(flag.data(), 0xff, 8, ctx.stream));
  IndexKernelSpec spec{.kind = IndexKernelKind::GatherDirect,
                       .dtype = element_dtype(out.dtype()),
                       .ndim = cuda::strided_ndim_bucket(static_cast<int>(g.dims.size())),
                       .index64 = !fits_int32(g)};
  void* out_p = out.data();
  const void* src_p = src;
  const void* idx_p = ax.idx[0].data();
  long long size = ax.sizes[0], stride = ax.strides[0];
  void* flag_p = flag.data();
  auto run = [&]<typename I>(I) {
    I params[2 + 3 * cuda::kMaxStridedDims];
    geometry_params(params, g, spec.ndim);
    void* args[] = {&out_p, &src_p, &idx_p, &size, &stride, &flag_p, params};
    cuda::launch(kernel(spec, ctx), dim3(cuda::grid_blocks(*ctx.props, out.size())), dim3(cuda::kKernelBlockSize),
                 args, 0, ctx.stream);
  };
  if (spec.index64)
    run(static_cast<long long>(0));
  else
    run(0);
  const unsigned long long bad = read_u64(flag.data(), ctx.stream);
  if (bad == ~0ull) return;
  const std::int64_t value = ax.idx[0].item(static_cast<std::int64_t>(bad)).to_int64();
  throw IndexError("index " + std::to_string(value) + " is out of bounds for axis " + std::to_string(ax.axes[0]) +
                   " with size " + std::to_string(ax.sizes[0]));
}

void scatter(void* dst, DType dtype, const ndarray& values, const Geometry& g, const ndarray& off,
             const ndarray* lin, std::int64_t subspace) {
  if (values.size() == 0) return;
  check_rank(g);
  const Ctx ctx = context();
  ndarray winner;
  if (lin != nullptr) {
    winner = empty({subspace}, {.dtype = DType::UInt64, .device = Device::cuda(ctx.device)});
    CUNP_CUDA_CHECK(cudaMemsetAsync(winner.data(), 0, static_cast<std::size_t>(subspace) * 8, ctx.stream));
    const void* lin_p = lin->data();
    void* winner_p = winner.data();
    auto n = static_cast<unsigned long long>(lin->size());
    void* args[] = {&lin_p, &winner_p, &n};
    cuda::launch(kernel({.kind = IndexKernelKind::Mark}, ctx), dim3(cuda::grid_blocks(*ctx.props, lin->size())),
                 dim3(cuda::kKernelBlockSize), args, 0, ctx.stream);
  }
  IndexKernelSpec spec{.kind = IndexKernelKind::Scatter,
                       .dtype = element_dtype(dtype),
                       .ndim = cuda::strided_ndim_bucket(static_cast<int>(g.dims.size())),
                       .index64 = !fits_int32(g)};
  const void* lin_p = lin != nullptr ? lin->data() : nullptr;
  const void* winner_p = lin != nullptr ? winner.data() : nullptr;
  if (spec.index64)
    launch_scatter<long long>(ctx, spec, dst, values, g, off, lin_p, winner_p);
  else
    launch_scatter<int>(ctx, spec, dst, values, g, off, lin_p, winner_p);
}

void scatter_apply(AtKernelSpec spec, void* dst, const ndarray* values, const Geometry& g, const ndarray& off) {
  const std::int64_t n = shape_size(g.dims);
  if (n == 0) return;
  check_rank(g);
  const Ctx ctx = context();
  spec.ndim = cuda::strided_ndim_bucket(static_cast<int>(g.dims.size()));
  spec.index64 = !fits_int32(g);
  const cuda::Kernel k =
      cuda::get_kernel(at_kernel_key(spec, ctx.props->target), [&spec] { return at_kernel_source(spec); });
  auto run = [&]<typename I>(I) {
    I params[2 + 3 * cuda::kMaxStridedDims];
    geometry_params(params, g, spec.ndim);
    const void* values_p = values != nullptr ? values->data() : nullptr;
    const void* off_p = off.data();
    void* with_values[] = {&dst, &values_p, &off_p, params};
    void* without_values[] = {&dst, &off_p, params};
    cuda::launch(k, dim3(cuda::grid_blocks(*ctx.props, n)), dim3(cuda::kKernelBlockSize),
                 values != nullptr ? with_values : without_values, 0, ctx.stream);
  };
  if (spec.index64)
    run(static_cast<long long>(0));
  else
    run(0);
}

bool scatter_apply_supported(const AtKernelSpec& spec, const void* dst, std::span<const std::int64_t> strides) {
  if (itemsize(spec.storage) != 16 || spec.atomic == AtomicKind::Add || spec.atomic == AtomicKind::Subtract)
    return true;
  if (context().props->target < 90) return false;
  if (reinterpret_cast<std::uintptr_t>(dst) % 16 != 0) return false;
  return std::all_of(strides.begin(), strides.end(), [](std::int64_t s) { return s % 16 == 0; });
}

namespace {

// The per-tile exclusive starts of the true bytes of a C-contiguous bool array (tiles
// + 1 entries, the total last) and the total, read back (one 8-byte read).
struct TileCounts {
  ndarray starts;
  std::int64_t tiles = 0;
  std::int64_t total = 0;
};

TileCounts count_tiles(const Ctx& ctx, const ndarray& mask) {
  const Device dev = Device::cuda(ctx.device);
  const std::int64_t n = mask.size();
  TileCounts tc;
  tc.tiles = std::max<std::int64_t>(1, (n + kNonzeroTile - 1) / kNonzeroTile);
  tc.starts = empty({tc.tiles + 1}, {.dtype = DType::UInt64, .device = dev});
  const void* m = mask.data();
  void* counts_p = tc.starts.data();
  auto n_arg = static_cast<unsigned long long>(n);
  {
    void* args[] = {&m, &n_arg, &counts_p};
    cuda::launch(kernel({.kind = IndexKernelKind::NonzeroCount}, ctx), dim3(static_cast<unsigned>(tc.tiles)),
                 dim3(kNonzeroThreads), args, 0, ctx.stream);
  }
  auto nb = static_cast<unsigned long long>(tc.tiles);
  {
    void* args[] = {&counts_p, &nb};
    cuda::launch(kernel({.kind = IndexKernelKind::NonzeroScan}, ctx), dim3(1), dim3(kNonzeroScanThreads), args, 0,
                 ctx.stream);
  }
  // The one read NumPy's semantics need: the number of true values.
  tc.total = static_cast<std::int64_t>(
      read_u64(static_cast<const char*>(tc.starts.data()) + tc.tiles * 8, ctx.stream));
  return tc;
}

}  // namespace

ndarray nonzero_coords(const ndarray& mask, const Shape& shape) {
  const int nd = static_cast<int>(shape.size());
  if (nd > kMaxNonzeroDims) throw ValueError("nonzero supports at most 64 dimensions");
  const Ctx ctx = context();
  const Device dev = Device::cuda(ctx.device);
  const TileCounts tc = count_tiles(ctx, mask);
  ndarray out = empty({nd, tc.total}, {.dtype = DType::Int64, .device = dev});
  if (tc.total == 0) return out;
  NonzeroParams p{};
  p.n = static_cast<unsigned long long>(mask.size());
  p.total = static_cast<unsigned long long>(tc.total);
  p.ndim = nd;
  for (int d = 0; d < nd; ++d) p.shape[d] = shape[static_cast<std::size_t>(d)];
  const void* m = mask.data();
  const void* counts_p = tc.starts.data();
  void* out_p = out.data();
  void* args[] = {&m, &counts_p, &out_p, &p};
  cuda::launch(kernel({.kind = IndexKernelKind::NonzeroWrite}, ctx), dim3(static_cast<unsigned>(tc.tiles)),
               dim3(kNonzeroThreads), args, 0, ctx.stream);
  return out;
}

namespace {

// One walk of the mask's tiles moving every selected element (Note [Indexing kernels]):
// MaskGather from the array `src` to the values `dst`, MaskScatter the other way.
void launch_mask_kernel(const Ctx& ctx, IndexKernelKind kind, DType dtype, const void* src, const ndarray& mask,
                        const TileCounts& tc, void* dst) {
  const void* m = mask.data();
  const void* starts = tc.starts.data();
  auto n = static_cast<unsigned long long>(mask.size());
  void* args[] = {&src, &m, &starts, &dst, &n};
  cuda::launch(kernel({.kind = kind, .dtype = element_dtype(dtype)}, ctx), dim3(static_cast<unsigned>(tc.tiles)),
               dim3(kNonzeroThreads), args, 0, ctx.stream);
}

}  // namespace

ndarray mask_select(const ndarray& a, const ndarray& mask) {
  const Ctx ctx = context();
  const TileCounts tc = count_tiles(ctx, mask);
  ndarray out = empty({tc.total}, {.dtype = a.dtype(), .device = Device::cuda(ctx.device)});
  if (tc.total > 0) launch_mask_kernel(ctx, IndexKernelKind::MaskGather, a.dtype(), a.data(), mask, tc, out.data());
  return out;
}

void mask_assign(const ndarray& a, const ndarray& mask, const ndarray& value) {
  const Ctx ctx = context();
  const TileCounts tc = count_tiles(ctx, mask);
  check_mask_values(value, tc.total);
  ndarray vals = empty({tc.total}, {.dtype = a.dtype(), .device = Device::cuda(ctx.device)});
  vals.assign(value);
  if (tc.total > 0) launch_mask_kernel(ctx, IndexKernelKind::MaskScatter, a.dtype(), vals.data(), mask, tc, a.data());
}

}  // namespace cunp::index::gpu

// src/index/index_cuda.cpp — see index_cuda.hpp and Note [Indexing kernels].
#include "index/index_cuda.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "cuda/check.hpp"
#include "cuda/kernel_cache.hpp"
#include "cuda/kernel_common.hpp"
#include "cuda/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "index/index_source.hpp"

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

ndarray nonzero_coords(const ndarray& mask, const Shape& shape) {
  const int nd = static_cast<int>(shape.size());
  if (nd > kMaxNonzeroDims) throw ValueError("nonzero supports at most 64 dimensions");
  const Ctx ctx = context();
  const Device dev = Device::cuda(ctx.device);
  const std::int64_t n = mask.size();
  const std::int64_t tiles = std::max<std::int64_t>(1, (n + kNonzeroTile - 1) / kNonzeroTile);
  const ndarray counts = empty({tiles + 1}, {.dtype = DType::UInt64, .device = dev});
  const void* m = mask.data();
  void* counts_p = counts.data();
  auto n_arg = static_cast<unsigned long long>(n);
  {
    void* args[] = {&m, &n_arg, &counts_p};
    cuda::launch(kernel({.kind = IndexKernelKind::NonzeroCount}, ctx), dim3(static_cast<unsigned>(tiles)),
                 dim3(kNonzeroThreads), args, 0, ctx.stream);
  }
  auto nb = static_cast<unsigned long long>(tiles);
  {
    void* args[] = {&counts_p, &nb};
    cuda::launch(kernel({.kind = IndexKernelKind::NonzeroScan}, ctx), dim3(1), dim3(kNonzeroScanThreads), args, 0,
                 ctx.stream);
  }
  // The one read NumPy's semantics need: the number of true values.
  const auto total = static_cast<std::int64_t>(
      read_u64(static_cast<const char*>(counts.data()) + tiles * 8, ctx.stream));
  ndarray out = empty({nd, total}, {.dtype = DType::Int64, .device = dev});
  if (total == 0) return out;
  NonzeroParams p{};
  p.n = n_arg;
  p.total = static_cast<unsigned long long>(total);
  p.ndim = nd;
  for (int d = 0; d < nd; ++d) p.shape[d] = shape[static_cast<std::size_t>(d)];
  void* out_p = out.data();
  void* args[] = {&m, &counts_p, &out_p, &p};
  cuda::launch(kernel({.kind = IndexKernelKind::NonzeroWrite}, ctx), dim3(static_cast<unsigned>(tiles)),
               dim3(kNonzeroThreads), args, 0, ctx.stream);
  return out;
}

}  // namespace cunp::index::gpu

// src/stats/gpu_bins.cpp — the CUDA engines of bins.hpp: picks a kernel of
// bins_source.cpp (Note [Histogram kernels]) and launches it on the current stream.
//
// Note [Histogram launch]: grids are sized to the work (one 16-byte pack per thread
// and round, 4 rounds per thread) and capped at the blocks the device holds resident,
// so each block's sub-histogram is zeroed and merged once however large the input.
// Sub-histograms use at most kSharedBudget bytes of shared memory: `copies` (1..8) =
// what fits; when one copy does not fit, the kernels add into global memory directly.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cuda/kernel_common.hpp"
#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/scalar.hpp"
#include "cunp/stream.hpp"
#include "stats/bins.hpp"
#include "stats/bins_source.hpp"

namespace cunp::stats {
namespace {

constexpr std::int64_t kSharedBudget = 32 * 1024;
constexpr int kMaxCopies = 8;
constexpr std::int64_t kSharedMax = 48 * 1024;

// A kernel argument of a runtime dtype: the value's bytes, converted as NumPy would.
struct ScalarArg {
  alignas(16) unsigned char bytes[16] = {};
  ScalarArg(DType dt, double v) { Scalar(v).write_as(dt, bytes); }
  void* ptr() { return bytes; }
};

struct Launch {
  cudaStream_t stream;
  int arch;
  const cuda::DeviceProps* props;
};

Launch launch_context() {
  const int device = current_cuda_device();
  return {static_cast<cudaStream_t>(current_stream(device).handle()),
          cuda::device_props(device).target, &cuda::device_props(device)};
}

cuda::Kernel kernel_for(const BinKernelSpec& spec, int arch) {
  return cuda::get_kernel(bin_kernel_key(spec, arch), [&spec] { return bin_kernel_source(spec); });
}

// Blocks for n elements of `item` bytes read in 16-byte packs, 4 packs per thread.
unsigned blocks_for(const cuda::DeviceProps& props, std::int64_t n, std::size_t item) {
  const std::int64_t per_pack = std::max<std::int64_t>(1, 16 / static_cast<std::int64_t>(item));
  const std::int64_t threads = std::max<std::int64_t>(1, (n / per_pack + 3) / 4);
  const std::int64_t resident = static_cast<std::int64_t>(props.sm_count) *
                                std::max(1, props.max_threads_per_sm / kBinBlockSize);
  return static_cast<unsigned>(std::clamp<std::int64_t>(
      (threads + kBinBlockSize - 1) / kBinBlockSize, 1, std::max<std::int64_t>(resident, 1)));
}

// Shared copies for `nbins` counters beside `staged` bytes of edges (0: global
// atomics only). Both fit in the default 48 KiB of dynamic shared memory.
int copies_for(std::int64_t nbins, bool weighted, std::int64_t staged) {
  const std::int64_t bytes = nbins * (weighted ? 8 : 4);
  const std::int64_t budget = std::min<std::int64_t>(kSharedBudget, kSharedMax - staged - 16);
  if (bytes > budget) return 0;
  return static_cast<int>(
      std::clamp<std::int64_t>(budget / std::max<std::int64_t>(bytes, 1), 1, kMaxCopies));
}

// Launches a histogram-family kernel: args after (x, n, head, w, out, nbins, copies).
// `staged`: bytes of edges a uniform kernel copies to shared memory.
void launch_histogram(BinKernelSpec spec, const ndarray& x, const ndarray* w, const ndarray& out,
                      void** extra, int nextra, std::int64_t staged = 0) {
  const std::int64_t count = x.size();
  if (count == 0 || out.size() == 0) return;
  const Launch ctx = launch_context();
  spec.weighted = w != nullptr;
  const int copies = copies_for(out.size(), spec.weighted, staged);
  spec.shared = copies > 0;
  const void* xp = x.data();
  const std::size_t item = static_cast<std::size_t>(x.itemsize());
  long long head =
      cuda::elements_to_alignment(xp, item, static_cast<int>(std::max<std::size_t>(1, 16 / item)));
  long long n = count;
  if (head < 0 || head > n) head = n;
  const double* wp = w ? static_cast<const double*>(w->data()) : nullptr;
  void* op = out.data();
  long long nbins = out.size();
  int ncopies = std::max(copies, 1);
  void* args[16] = {&xp, &n, &head, &wp, &op, &nbins, &ncopies};
  for (int i = 0; i < nextra; ++i) args[7 + i] = extra[i];
  const std::int64_t counters = std::int64_t{copies} * nbins * (spec.weighted ? 8 : 4);
  const std::size_t shared_bytes =
      spec.shared ? static_cast<std::size_t>(((counters + 15) & ~std::int64_t{15}) + staged) : 0u;
  cuda::launch(kernel_for(spec, ctx.arch), dim3(blocks_for(*ctx.props, count, item)),
               dim3(kBinBlockSize), args, shared_bytes, ctx.stream);
}

}  // namespace

void gpu_histogram_uniform(const ndarray& x, const ndarray* w, const UniformBins& u,
                           const ndarray& edges, const ndarray& out) {
  const DType s = x.dtype();
  const DType t = uniform_edges_dtype(s);
  const DType k = is_floating(s) ? s : DType::Float64;
  const bool wide = u.wide || t == DType::Float64;
  const DType d = wide ? DType::Float64 : t;
  BinKernelSpec spec{.kind = BinKernelKind::Uniform, .data = s, .wide = wide};
  ScalarArg lo(k, u.lo), hi(k, u.hi), first(t, u.first), denom(d, u.denom),
      scale(d, static_cast<double>(u.n));
  const void* ep = edges.data();
  void* extra[] = {lo.ptr(), hi.ptr(), first.ptr(), denom.ptr(), scale.ptr(), &ep};
  launch_histogram(spec, x, w, out, extra, 6, edges.nbytes());
}

void gpu_histogram_edges(const ndarray& x, const ndarray* w, const ndarray& edges,
                         const ndarray& out) {
  BinKernelSpec spec{.kind = BinKernelKind::Edges, .data = x.dtype(), .compare = edges.dtype()};
  const void* ep = edges.data();
  void* extra[] = {&ep};
  launch_histogram(spec, x, w, out, extra, 1);
}

void gpu_bincount(const ndarray& x, const ndarray* w, const ndarray& out) {
  BinKernelSpec spec{.kind = BinKernelKind::Bincount, .data = DType::Int64};
  launch_histogram(spec, x, w, out, nullptr, 0);
}

bool gpu_float_range(const ndarray& x, double* lo, double* hi) {
  long long n = x.size();
  const Launch ctx = launch_context();
  const std::size_t item = static_cast<std::size_t>(x.itemsize());
  const void* xp = x.data();
  long long head = cuda::elements_to_alignment(xp, item, static_cast<int>(16 / item));
  if (head < 0 || head > n) head = n;
  const unsigned blocks = std::min<unsigned>(blocks_for(*ctx.props, n, item), kRangeMaxBlocks);
  const ndarray partial = empty({3 * static_cast<std::int64_t>(blocks)},
                                {.dtype = DType::Float64, .device = x.device()});
  const ndarray result = empty({3}, {.dtype = DType::Float64, .device = x.device()});
  void* pp = partial.data();
  void* args[] = {&xp, &n, &head, &pp};
  cuda::launch(kernel_for({.kind = BinKernelKind::Range, .data = x.dtype()}, ctx.arch),
               dim3(blocks), dim3(kBinBlockSize), args, 0, ctx.stream);
  const void* pc = pp;
  int nparts = static_cast<int>(blocks);
  void* rp = result.data();
  void* fargs[] = {&pc, &nparts, &rp};
  cuda::launch(kernel_for({.kind = BinKernelKind::RangeFinish, .data = DType::Float64}, ctx.arch),
               dim3(1), dim3(kBinBlockSize), fargs, 0, ctx.stream);
  const std::vector<double> r = result.to_vector<double>();
  if (r[2] != 0.0) return true;
  *lo = r[0];
  *hi = r[1];
  return false;
}

void gpu_digitize(const ndarray& x, const ndarray& bins, bool right, bool decreasing,
                  const ndarray& out) {
  long long n = x.size();
  if (n == 0) return;
  const Launch ctx = launch_context();
  const BinKernelSpec spec{
      .kind = BinKernelKind::Digitize, .data = x.dtype(), .compare = bins.dtype()};
  const void* xp = x.data();
  void* op = out.data();
  const void* ep = bins.data();
  long long m = bins.size();
  int r = right ? 1 : 0;
  int dec = decreasing ? 1 : 0;
  void* args[] = {&xp, &n, &op, &ep, &m, &r, &dec};
  cuda::launch(kernel_for(spec, ctx.arch), dim3(cuda::grid_blocks(*ctx.props, n)),
               dim3(kBinBlockSize), args, 0, ctx.stream);
}

}  // namespace cunp::stats

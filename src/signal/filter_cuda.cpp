// src/signal/filter_cuda.cpp — the CUDA engines of engines.hpp: picks a kernel of
// signal_source.cpp, builds the blocked scan's matrix tables on the host (cached per
// filter), and launches on the current stream.
//
// Note [IIR launch]: a lane runs one thread when there are many lanes (>= kManyLanes:
// they fill the device by themselves), when it is short (a few chunks), or when the
// state is larger than kLargeStates (no register variant); then the input is lane-major
// so that a warp's loads are coalesced. Otherwise lanes run the blocked scan (Note
// [Blocked IIR scan]) with chunks long enough to give about kTargetThreads threads in
// all, at least min_chunk() samples (32 for states up to 8, 128 above: the scan's
// D^2 log2(BLOCK) per chunk then stays below the chunk's own filtering). The tables (A^k for k <=
// BLOCK at every level of the scan) cost BLOCK D^3 multiply-adds per level on the host; they are
// cached by coefficients, chunk and device, so filtering many signals with one filter pays once.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/stream.hpp"
#include "ops/complex.h"
#include "signal/engines.hpp"
#include "signal/iir_ops.h"
#include "signal/signal_source.hpp"

namespace cunp::signal::detail {
namespace {

using signal_ops::i64;
using W = std::complex<double>;
using Matrix = detail::Matrix;

constexpr i64 kManyLanes = 16384;
constexpr i64 kTargetThreads = i64{1} << 20;
constexpr int kTableCacheEntries = 8;

int dmax_for(int dim) {
  return dim <= kSmallStates ? kSmallStates : dim <= kLargeStates ? kLargeStates : 0;
}
i64 min_chunk(int dmax) { return dmax <= kSmallStates ? 32 : 128; }

struct Ctx {
  int device;
  cudaStream_t stream;
  const cuda::DeviceProps* props;
};

Ctx context() {
  const int device = current_cuda_device();
  return {device, cuda::current_stream_handle(), &cuda::device_props(device)};
}

cuda::Kernel kernel_for(const SignalKernelSpec& spec, const Ctx& ctx) {
  return cuda::get_kernel(signal_kernel_key(spec, ctx.props->target),
                          [&spec] { return signal_kernel_source(spec); });
}

// Dynamic shared memory a kernel may ask for without opting in.
constexpr std::size_t kSharedBytes = 48 * 1024;

template <typename P>
void launch(const SignalKernelSpec& spec, const Ctx& ctx, i64 blocks, P params,
            std::size_t shared = 0) {
  if (blocks <= 0) return;
  void* args[] = {&params};
  cuda::launch(kernel_for(spec, ctx), dim3(static_cast<unsigned>(blocks)),
               dim3(static_cast<unsigned>(signal_block_threads(spec))), args, shared, ctx.stream);
}

i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }

// Grid of a grid-striding kernel over `work` items: at most 32 blocks per SM.
i64 stride_blocks(const Ctx& ctx, const SignalKernelSpec& spec, i64 work) {
  return std::clamp<i64>(ceil_div(work, signal_block_threads(spec)), 1,
                         i64{32} * ctx.props->sm_count);
}

i64 elems(const ndarray& a, int axis) {
  return a.strides()[static_cast<std::size_t>(axis)] / a.itemsize();
}

// ---- the scan's tables, on the device ----------------------------------------------

// One level's powers (block + 1, d, d) rounded to `dt`, on `device`.
ndarray upload_level(const std::vector<Matrix>& pw, int d, DType dt, Device device) {
  const std::size_t per = static_cast<std::size_t>(d) * d;
  const bool cplx = is_complex(dt);
  const bool single = dt == DType::Float32 || dt == DType::Complex64;
  std::vector<unsigned char> bytes(pw.size() * per * itemsize(dt));
  for (std::size_t k = 0; k < pw.size(); ++k)
    for (std::size_t i = 0; i < per; ++i) {
      const W v = pw[k][i];
      const std::size_t at = k * per + i;
      if (cplx && single)
        reinterpret_cast<ops::c64*>(bytes.data())[at] = {static_cast<float>(v.real()),
                                                         static_cast<float>(v.imag())};
      else if (cplx)
        reinterpret_cast<ops::c128*>(bytes.data())[at] = {v.real(), v.imag()};
      else if (single)
        reinterpret_cast<float*>(bytes.data())[at] = static_cast<float>(v.real());
      else
        reinterpret_cast<double*>(bytes.data())[at] = v.real();
    }
  return from_host(bytes.data(), dt, {static_cast<std::int64_t>(pw.size()), d, d}, device);
}

struct Tables {
  // the key
  bool sos;
  int order, dim, block, device;
  i64 chunk;
  DType dtype;
  std::vector<W> coef;
  std::vector<ndarray> levels;  // upload_level of scan_power_tables
};

std::mutex& tables_mutex() {
  static std::mutex m;
  return m;
}
// Never destroyed: it holds device arrays (Note [Leaked pools] in memory/cuda_memory.cpp).
std::list<std::shared_ptr<const Tables>>& tables_cache() {
  static auto* c = new std::list<std::shared_ptr<const Tables>>;
  return *c;
}

// The tables of `f` with at least `levels` levels, from the cache or built.
std::shared_ptr<const Tables> tables_for(const IirFilter& f, i64 chunk, int block, int levels,
                                         Device device) {
  auto matches = [&](const Tables& e) {
    return e.sos == f.sos && e.order == f.order && e.dim == f.dim && e.block == block &&
           e.device == device.index && e.chunk == chunk && e.dtype == f.dtype && e.coef == f.host &&
           static_cast<int>(e.levels.size()) >= levels;
  };
  {
    std::lock_guard lock(tables_mutex());
    auto& cache = tables_cache();
    for (auto it = cache.begin(); it != cache.end(); ++it)
      if (matches(**it)) {
        cache.splice(cache.begin(), cache, it);
        return cache.front();
      }
  }
  auto t = std::make_shared<Tables>(Tables{.sos = f.sos,
                                           .order = f.order,
                                           .dim = f.dim,
                                           .block = block,
                                           .device = device.index,
                                           .chunk = chunk,
                                           .dtype = f.dtype,
                                           .coef = f.host,
                                           .levels = {}});
  for (const std::vector<Matrix>& pw : scan_power_tables(f, chunk, block, levels))
    t->levels.push_back(upload_level(pw, f.dim, f.dtype, device));
  std::lock_guard lock(tables_mutex());
  auto& cache = tables_cache();
  cache.push_front(t);
  if (static_cast<int>(cache.size()) > kTableCacheEntries) cache.pop_back();
  return t;
}

// ---- the launches -------------------------------------------------------------------

struct Operands {
  const void* zi;
  void* zf;
};

signal_ops::IirParams base_params(const IirFilter& f, const ndarray& x, const ndarray& y,
                                  Operands z) {
  signal_ops::IirParams p{};
  p.x = x.data();
  p.y = y.data();
  p.coef = f.coef.data();
  p.zi = z.zi;
  p.zf = z.zf;
  p.n = x.shape()[1];
  p.lanes = x.shape()[0];
  p.x_lane = elems(x, 0);
  p.x_time = elems(x, 1);
  p.y_lane = elems(y, 0);
  p.y_time = elems(y, 1);
  p.order = f.order;
  p.dim = f.dim;
  return p;
}

void run_lanes(const IirFilter& f, const ndarray& x, const ndarray& y, Operands z, const Ctx& ctx) {
  signal_ops::IirParams p = base_params(f, x, y, z);
  const int dmax = dmax_for(f.dim);
  ndarray scratch;
  SignalKernelSpec spec{
      .kind = SignalKernelKind::Lanes, .dtype = f.dtype, .dmax = dmax, .sos = f.sos};
  if (dmax == 0) {
    spec = {.kind = SignalKernelKind::LanesGlobal, .dtype = f.dtype, .sos = f.sos};
    scratch = empty({p.lanes, f.dim + 1}, {.dtype = f.dtype, .device = x.device()});
    p.states = scratch.data();
  }
  launch(spec, ctx, stride_blocks(ctx, spec, p.lanes), p);
}

void run_scan(const IirFilter& f, const ndarray& x, const ndarray& y, Operands z, const Ctx& ctx) {
  const int dmax = dmax_for(f.dim);
  const SignalKernelSpec chunks{
      .kind = SignalKernelKind::Chunks, .dtype = f.dtype, .dmax = dmax, .sos = f.sos};
  const int block = signal_block_threads(chunks);
  signal_ops::IirParams p = base_params(f, x, y, z);
  const i64 lanes = p.lanes;
  i64 chunk = min_chunk(dmax);
  while (chunk * kTargetThreads < p.n * lanes) chunk *= 2;
  const ScanPlan plan = make_scan_plan(p.n, chunk, block);
  p.chunk = chunk;
  p.nblocks = plan.nblocks;
  const std::vector<std::int64_t>& m = plan.m;
  const std::shared_ptr<const Tables> tables =
      tables_for(f, chunk, block, plan.levels(), x.device());
  const Device dev = x.device();
  const ndarray states =
      empty({lanes * p.nblocks * block * f.dim}, {.dtype = f.dtype, .device = dev});
  std::vector<ndarray> carries;  // carries[l]: lanes x m[l] x dim
  for (std::int64_t ml : m)
    carries.push_back(empty({lanes * ml * f.dim}, {.dtype = f.dtype, .device = dev}));
  p.states = states.data();
  p.carries = carries[0].data();
  p.pow = tables->levels[0].data();
  launch(chunks, ctx, lanes * p.nblocks, p);
  const SignalKernelSpec scan{.kind = SignalKernelKind::Scan, .dtype = f.dtype, .dmax = dmax};
  const SignalKernelSpec fix{.kind = SignalKernelKind::Fix, .dtype = f.dtype, .dmax = dmax};
  auto level = [&](std::size_t l) {
    signal_ops::ScanParams s{};
    s.states = carries[l].data();
    s.carries = carries[l + 1].data();
    s.pow = tables->levels[l + 1].data();
    s.m = m[l];
    s.lanes = lanes;
    s.nblocks = m[l + 1];
    s.dim = f.dim;
    return s;
  };
  for (std::size_t l = 0; l + 1 < m.size(); ++l) launch(scan, ctx, lanes * m[l + 1], level(l));
  for (std::size_t l = m.size() - 1; l-- > 0;)
    if (m[l + 1] > 1) launch(fix, ctx, lanes * m[l + 1], level(l));
  const SignalKernelSpec final_spec{
      .kind = SignalKernelKind::Final, .dtype = f.dtype, .dmax = dmax, .sos = f.sos};
  launch(final_spec, ctx, lanes * p.nblocks, p);
}

}  // namespace

bool gpu_prefers_lane_major(std::int64_t lanes, std::int64_t n, int dim) {
  const int dmax = dmax_for(dim);
  return dmax == 0 || lanes >= kManyLanes || n <= 4 * min_chunk(dmax);
}

void gpu_iir(const IirFilter& f, const ndarray& x, const ndarray& y, const ndarray* zi,
             const ndarray* zf) {
  if (x.size() == 0) {
    if (zf && zi) ndarray(*zf).assign(*zi);
    return;
  }
  const Ctx ctx = context();
  if (f.sos && f.order > kSosGroupSections) {
    // Note [Section groups]: the kernels hold kSosGroupSections sections; a longer
    // cascade runs group by group, each pass filtering y in place (every kernel reads a
    // sample before its own thread writes it), each group's state a slice of zi/zf.
    for (int s0 = 0; s0 < f.order; s0 += kSosGroupSections) {
      const int s1 = std::min(f.order, s0 + kSosGroupSections);
      IirFilter g{.sos = true, .order = s1 - s0, .dim = 2 * (s1 - s0), .dtype = f.dtype};
      g.coef = f.coef[{slice(6 * s0, 6 * s1)}];
      g.host.assign(f.host.begin() + 6 * s0, f.host.begin() + 6 * s1);
      std::optional<ndarray> gzi, gzf;
      if (zi) gzi = ascontiguousarray((*zi)[{slice(), slice(2 * s0, 2 * s1)}]);
      if (zf) gzf = empty({zf->shape()[0], g.dim}, {.dtype = f.dtype, .device = x.device()});
      gpu_iir(g, s0 == 0 ? x : y, y, gzi ? &*gzi : nullptr, gzf ? &*gzf : nullptr);
      if (zf) (*zf)[{slice(), slice(2 * s0, 2 * s1)}].assign(*gzf);
    }
    return;
  }
  const Operands z{zi ? zi->data() : nullptr, zf ? zf->data() : nullptr};
  if (gpu_prefers_lane_major(x.shape()[0], x.shape()[1], f.sos ? 2 * kSosGroupSections : f.dim))
    run_lanes(f, x, y, z, ctx);
  else
    run_scan(f, x, y, z, ctx);
}

void gpu_fir(const ndarray& b, int p, const ndarray& x, const ndarray& y, const ndarray* zi,
             const ndarray* zf) {
  if (x.size() == 0) return;
  const Ctx ctx = context();
  signal_ops::FirParams fp{};
  fp.x = x.data();
  fp.y = y.data();
  fp.b = b.data();
  fp.zi = zi ? zi->data() : nullptr;
  fp.zf = zf ? zf->data() : nullptr;
  fp.lanes = x.shape()[0];
  fp.n = x.shape()[1];
  fp.x_lane = elems(x, 0);
  fp.x_time = elems(x, 1);
  fp.y_lane = elems(y, 0);
  fp.y_time = elems(y, 1);
  fp.nb = static_cast<int>(b.size());
  fp.p = p;
  const SignalKernelSpec fir{.kind = SignalKernelKind::Fir, .dtype = x.dtype()};
  launch(fir, ctx, stride_blocks(ctx, fir, fp.n * fp.lanes), fp);
  if (zf) {
    const SignalKernelSpec state{.kind = SignalKernelKind::FirState, .dtype = x.dtype()};
    launch(state, ctx, stride_blocks(ctx, state, fp.lanes * p), fp);
  }
}

void gpu_correlate(const ndarray& in, const ndarray& taps, const std::vector<std::int64_t>& offsets,
                   const ndarray& out) {
  if (out.size() == 0) return;
  const Ctx ctx = context();
  const ndarray off = from_host(offsets.data(), DType::Int64,
                                {static_cast<std::int64_t>(offsets.size())}, in.device());
  const auto staged = static_cast<std::size_t>(
      signal_ops::correlate_staged_bytes(static_cast<i64>(offsets.size()), in.itemsize()));
  signal_ops::CorrParams p{};
  p.staged = staged <= kSharedBytes ? 1 : 0;
  p.in = in.data();
  p.w = taps.data();
  p.off = static_cast<const i64*>(off.data());  // int64_t and long long: both 64-bit
  p.out = out.data();
  p.nout = out.size();
  p.taps = static_cast<i64>(offsets.size());
  p.ndim = out.ndim();
  for (int k = 0; k < out.ndim(); ++k) {
    p.shape[k] = out.shape()[static_cast<std::size_t>(k)];
    p.stride[k] = elems(in, k);
  }
  const SignalKernelSpec spec{.kind = SignalKernelKind::Correlate, .dtype = in.dtype()};
  launch(spec, ctx, stride_blocks(ctx, spec, p.nout), p, p.staged ? staged : 0);
}

bool gpu_correlate2d(const ndarray& in, const ndarray& kernel, std::int64_t ph, std::int64_t pw,
                     const Scalar& fill, const ndarray& out) {
  using signal_ops::kCorrRows;
  using signal_ops::kCorrTileX;
  using signal_ops::kCorrTileY;
  const i64 kh = kernel.shape()[0], kw = kernel.shape()[1];
  const std::size_t shared = static_cast<std::size_t>(kh * kw + (kCorrTileY * kCorrRows + kh - 1) *
                                                                    (kCorrTileX + kw - 1)) *
                             static_cast<std::size_t>(in.itemsize());
  if (shared > kSharedBytes) return false;
  if (out.size() == 0) return true;
  const Ctx ctx = context();
  signal_ops::Corr2dParams p{};
  p.in = in.data();
  p.w = kernel.data();
  p.out = out.data();
  p.ih = in.shape()[0];
  p.iw = in.shape()[1];
  p.is0 = elems(in, 0);
  p.is1 = elems(in, 1);
  p.oh = out.shape()[0];
  p.ow = out.shape()[1];
  p.ph = ph;
  p.pw = pw;
  p.kh = static_cast<int>(kh);
  p.kw = static_cast<int>(kw);
  fill.write_as(in.dtype(), p.fill);
  const SignalKernelSpec spec{.kind = SignalKernelKind::Correlate2d, .dtype = in.dtype()};
  const i64 gy = ceil_div(p.oh, kCorrTileY * kCorrRows);
  if (gy > 65535) return false;
  void* args[] = {&p};
  cuda::launch(kernel_for(spec, ctx),
               dim3(static_cast<unsigned>(ceil_div(p.ow, kCorrTileX)), static_cast<unsigned>(gy)),
               dim3(kCorrTileX, kCorrTileY), args, shared, ctx.stream);
  return true;
}

}  // namespace cunp::signal::detail

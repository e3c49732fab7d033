// src/reduce/gpu_reduce.cpp — the CUDA engine of the reductions: picks one of the
// kernels of gpu_reduce_source.cpp (Note [Reduce kernels]) from the strides of the
// ReduceLayout and launches it on the current stream.
//
// Note [Reduce launch]:
//  - One output (nout == 1): FullSmall (one block, writes the output, no workspace)
//    for at most kSmallFull elements; else FullVector when the input is walked
//    contiguously (one axis of stride itemsize), else FullStrided; at most one block
//    per resident block slot of the device (Note [Resident blocks] in
//    kernel_cache.hpp: the occupancy calculator's count for the kernel), capped at
//    1024 partials; then FullFinish.
//  - Several outputs, row-like (the innermost reduced stride is no larger than the
//    innermost kept input stride, at least 16 reduced elements per output): RowVector
//    when the reduced walk is one axis of stride itemsize, every row start is
//    itemsize-aligned and itemsize <= 8, with G = 8..256 threads per row (about 16
//    packs of 16 bytes each; CUNP_REDUCE_ROW_PACKS changes the 16 for tuning
//    measurements) and at most one wave of resident blocks (Note [Resident blocks];
//    CUNP_REDUCE_ROW_WAVES), rows taken grid-stride; else Row with G = the power of
//    two >= nred clamped to [32, 256].
//  - Column-like otherwise: ColVector when the innermost kept axis has input stride
//    itemsize and an extent that is a multiple of V = min(4, 16 / itemsize) and every
//    other stride and the base are V * itemsize aligned (each thread owns V adjacent
//    outputs); else Col. The reduced extent is split into chunks (at least 64 elements
//    each) until there are about as many blocks as the device holds resident of the
//    kernel (Note [Resident blocks]: one full wave), and ColFinish combines the
//    chunks in order when there is more than one.
//  - `center` (var/std) selects the sqdev variant of the same kind.
//  - Partial states go to a workspace array on the input's device, released (stream
//    ordered) when this function returns. The choice depends only on the layout, the
//    base alignment and the device, so results are the same run to run.
#include "reduce/gpu_reduce.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "runtime/kernel_cache.hpp"
#include "cuda/kernel_common.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/stream.hpp"
#include "reduce/gpu_reduce_source.hpp"

namespace cunp::reduce {
namespace {

using I = long long;
constexpr int kDims = kReduceMaxDims;
constexpr std::int64_t kMaxPartials = 1024;
constexpr std::int64_t kMinChunk = 64;
// Single-output reductions of at most this many elements run as one FullSmall block.
constexpr std::int64_t kSmallFull = 4096;

struct Params1 {
  I v[2 + kDims * 2];
};
struct Params2 {
  I v[2 + kDims * 3];
};

cuda::Kernel kernel_for(const ReduceKernelSpec& spec, int arch) {
  return cuda::get_kernel(reduce_kernel_key(spec, arch), [&spec] { return reduce_kernel_source(spec); });
}

Params2 outer_params(const iter::LoopLayout& outer) {
  Params2 p{};
  const int ops[2] = {0, 1};
  cuda::fill_strided_params(p.v, outer, kDims, ops, 2);
  return p;
}
Params1 inner_params(const iter::LoopLayout& inner) {
  Params1 p{};
  const int ops[1] = {0};
  cuda::fill_strided_params(p.v, inner, kDims, ops, 1);
  return p;
}

std::int64_t abs64(std::int64_t x) { return x < 0 ? -x : x; }

// An integer tuning variable `name` in [lo, hi] (a power of two when `pow2`), else
// `fallback`.
std::int64_t tuning_env(const char* name, std::int64_t fallback, std::int64_t lo, std::int64_t hi, bool pow2) {
  const char* v = std::getenv(name);
  const long x = v ? std::strtol(v, nullptr, 10) : 0;
  const bool ok = x >= lo && x <= hi && (!pow2 || (x & (x - 1)) == 0);
  return ok ? static_cast<std::int64_t>(x) : fallback;
}

// RowVector's grid cap in waves of resident blocks (Note [Resident blocks]): 1, each
// block walking its rows grid-stride, or CUNP_REDUCE_ROW_WAVES (1 .. 64) for tuning
// measurements. On the H200, sum(axis=1) of 16384 x 8192 float32 took 0.141 ms with 1
// wave, 0.147 ms with 4, and 0.150-0.152 ms with the former cap of 8 blocks per thread
// slot (8192 blocks of 2 rows, one round each).
std::int64_t row_waves() {
  static const std::int64_t waves = tuning_env("CUNP_REDUCE_ROW_WAVES", 1, 1, 64, false);
  return waves;
}

// RowVector's target of 16-byte packs per thread (Note [Reduce launch]): 16, or
// CUNP_REDUCE_ROW_PACKS (a power of two, 1 .. 256) for tuning measurements.
std::int64_t row_packs() {
  static const std::int64_t packs = tuning_env("CUNP_REDUCE_ROW_PACKS", 16, 1, 256, true);
  return packs;
}

}  // namespace

void gpu_reduce(ReduceOp op, const ReduceLayout& layout, const ndarray& in, const ndarray& out_keep,
                const ndarray* center) {
  const iter::LoopLayout& outer = layout.outer;
  const iter::LoopLayout& inner = layout.inner;
  const I nout = outer.size;
  const I nred = inner.size;
  if (nout == 0) return;
  if (nred == 0) throw ValueError("gpu_reduce: empty reduction");
  if (outer.ndim() > kDims || inner.ndim() > kDims)
    throw ValueError("cunp supports at most " + std::to_string(kDims) + " dimensions after coalescing");
  const bool arg = reduce_op_is_arg(op);
  if ((op == ReduceOp::Any || op == ReduceOp::All) && out_keep.dtype() != DType::Bool)
    throw TypeError("gpu_reduce: any/all need a bool output");
  if (arg && out_keep.dtype() != DType::Int64) throw TypeError("gpu_reduce: argmin/argmax need an int64 output");
  if (center && (op != ReduceOp::Sum || !out_keep.is_c_contiguous() || !center->is_c_contiguous() ||
                 center->shape() != out_keep.shape()))
    throw ValueError("gpu_reduce: a center needs a sum into a C-ordered output of the center's shape");

  const int device = current_cuda_device();
  const cuda::DeviceProps& props = cuda::device_props(device);
  const auto stream = static_cast<cudaStream_t>(current_stream(device).handle());
  const int arch = props.target;
  const std::int64_t resident =
      static_cast<std::int64_t>(props.sm_count) * std::max(1, props.max_threads_per_sm / kReduceBlockSize);

  ReduceKernelSpec spec{.op = op,
                        .in = in.dtype(),
                        .acc = out_keep.dtype(),
                        .kind = ReduceKernelKind::Row,
                        .center = center != nullptr};
  char* out = static_cast<char*>(out_keep.data());
  const char* src = static_cast<const char*>(in.data());
  const char* ctr = center ? static_cast<const char*>(center->data()) : nullptr;
  // The input's base as the outer layout sees it: offsets are relative to in.data().
  Params2 po = outer_params(outer);
  Params1 pi = inner_params(inner);
  const std::size_t isz = itemsize(in.dtype());
  const auto base = reinterpret_cast<std::uintptr_t>(src);

  auto workspace = [&](std::int64_t states) {
    return empty(Shape{static_cast<std::int64_t>(states * static_cast<std::int64_t>(kReduceStateBytesMax))},
                 {.dtype = DType::UInt8, .order = Order::C, .device = in.device()});
  };

  if (nout == 1) {
    // The single output's input offset is 0 (the outer layout is empty).
    I n = nred;
    if (n <= kSmallFull) {
      spec.kind = ReduceKernelKind::FullSmall;
      void* args[] = {&out, &src, &ctr, pi.v, &n};
      cuda::launch(kernel_for(spec, arch), dim3(1), dim3(kReduceBlockSize), args, 0, stream);
      return;
    }
    const bool contiguous = inner.ndim() <= 1 &&
                            (inner.ndim() == 0 || inner.strides[0][0] == static_cast<std::int64_t>(isz));
    I head = 0;
    std::int64_t work = nred;
    if (contiguous) {
      const int p = static_cast<int>(std::max<std::size_t>(1, 16 / isz));
      head = cuda::elements_to_alignment(src, isz, p);
      if (head < 0 || head > n) head = n;
      work = std::max<std::int64_t>((n - head) / p / 4, 1);
    }
    spec.kind = contiguous ? ReduceKernelKind::FullVector : ReduceKernelKind::FullStrided;
    const cuda::Kernel full = kernel_for(spec, arch);
    const std::int64_t slots = cuda::resident_blocks(full, device, kReduceBlockSize);
    const auto parts = static_cast<int>(std::clamp<std::int64_t>(
        (work + kReduceBlockSize - 1) / kReduceBlockSize, 1, std::min(slots, kMaxPartials)));
    ndarray ws = workspace(parts);
    char* w = static_cast<char*>(ws.data());
    if (contiguous) {
      void* args[] = {&w, &src, &ctr, &n, &head};
      cuda::launch(full, dim3(static_cast<unsigned>(parts)), dim3(kReduceBlockSize), args, 0, stream);
    } else {
      void* args[] = {&w, &src, &ctr, pi.v, &n};
      cuda::launch(full, dim3(static_cast<unsigned>(parts)), dim3(kReduceBlockSize), args, 0, stream);
    }
    spec.kind = ReduceKernelKind::FullFinish;
    int nparts = parts;
    const char* wc = w;
    void* args[] = {&out, &wc, &nparts};
    cuda::launch(kernel_for(spec, arch), dim3(1), dim3(kReduceBlockSize), args, 0, stream);
    return;
  }

  const std::int64_t inner_stride = inner.ndim() == 0 ? 0 : abs64(inner.strides[0].back());
  const std::int64_t outer_stride = outer.ndim() == 0 ? 0 : abs64(outer.strides[1].back());
  const bool row = nred >= 16 && inner_stride <= outer_stride;
  if (row) {
    I no = nout, nr = nred;
    // RowVector: one contiguous reduced axis, every row start aligned to the itemsize,
    // at least 16 bytes per thread pack (complex128 keeps the scalar kernel).
    bool vec = inner.ndim() == 1 && inner.strides[0][0] == static_cast<std::int64_t>(isz) && isz <= 8 &&
               base % isz == 0;
    for (int d = 0; vec && d < outer.ndim(); ++d)
      vec = outer.strides[1][static_cast<std::size_t>(d)] % static_cast<std::int64_t>(isz) == 0;
    if (vec) {
      // G threads per row: about row_packs() packs per thread, 8 .. 256.
      const std::int64_t packs = nred / static_cast<std::int64_t>(16 / isz);
      const std::int64_t per_thread = row_packs();
      int g = 8;
      while (g < kReduceBlockSize && static_cast<std::int64_t>(g) * per_thread < packs) g *= 2;
      const std::int64_t per = kReduceBlockSize / g;
      spec.kind = ReduceKernelKind::RowVector;
      const cuda::Kernel rowv = kernel_for(spec, arch);
      const std::int64_t cap = cuda::resident_blocks(rowv, device, kReduceBlockSize) * row_waves();
      const auto blocks =
          static_cast<unsigned>(std::clamp<std::int64_t>((nout + per - 1) / per, 1, std::max<std::int64_t>(cap, 1)));
      void* args[] = {&out, &src, &ctr, po.v, &no, &nr, &g};
      cuda::launch(rowv, dim3(blocks), dim3(kReduceBlockSize), args, 0, stream);
      return;
    }
    int g = 32;
    while (g < kReduceBlockSize && g < nred) g *= 2;
    const std::int64_t per = kReduceBlockSize / g;
    const auto blocks = static_cast<unsigned>(
        std::clamp<std::int64_t>((nout + per - 1) / per, 1, std::max<std::int64_t>(resident * 4, 1)));
    spec.kind = ReduceKernelKind::Row;
    void* args[] = {&out, &src, &ctr, po.v, pi.v, &no, &nr, &g};
    cuda::launch(kernel_for(spec, arch), dim3(blocks), dim3(kReduceBlockSize), args, 0, stream);
    return;
  }

  // ColVector: the innermost kept axis is contiguous in the input with an extent that
  // is a multiple of V, and every other stride and the base are V * itemsize aligned,
  // so each thread's V outputs are one aligned V-element load per reduced element.
  const std::int64_t v = std::min<std::int64_t>(4, static_cast<std::int64_t>(16 / std::max<std::size_t>(isz, 1)));
  const std::int64_t align = v * static_cast<std::int64_t>(isz);
  bool colv = v >= 2 && outer.ndim() >= 1 && outer.strides[1].back() == static_cast<std::int64_t>(isz) &&
              outer.shape.back() % v == 0 && base % static_cast<std::uintptr_t>(align) == 0;
  for (int d = 0; colv && d + 1 < outer.ndim(); ++d)
    colv = outer.strides[1][static_cast<std::size_t>(d)] % align == 0;
  for (int d = 0; colv && d < inner.ndim(); ++d) colv = inner.strides[0][static_cast<std::size_t>(d)] % align == 0;
  const std::int64_t threads = colv ? nout / v : nout;
  const std::int64_t bx = (threads + kReduceBlockSize - 1) / kReduceBlockSize;
  spec.kind = colv ? ReduceKernelKind::ColVector : ReduceKernelKind::Col;
  const cuda::Kernel column = kernel_for(spec, arch);
  // One wave of blocks (Note [Resident blocks]): a second, partial wave would take
  // as long as the first.
  std::int64_t splits = std::max<std::int64_t>(1, cuda::resident_blocks(column, device, kReduceBlockSize) / bx);
  splits = std::min({splits, std::max<std::int64_t>(1, nred / kMinChunk), kMaxPartials});
  I chunk = (nred + splits - 1) / splits;
  splits = (nred + chunk - 1) / chunk;
  ndarray ws = splits > 1 ? workspace(splits * nout) : ndarray();
  char* w = splits > 1 ? static_cast<char*>(ws.data()) : nullptr;
  I no = nout, nr = nred;
  const dim3 grid(static_cast<unsigned>(bx), static_cast<unsigned>(splits));
  if (colv) {
    I ostride = outer.strides[0].back();
    void* args[] = {&out, &w, &src, &ctr, po.v, pi.v, &no, &nr, &chunk, &ostride};
    cuda::launch(column, grid, dim3(kReduceBlockSize), args, 0, stream);
  } else {
    void* args[] = {&out, &w, &src, &ctr, po.v, pi.v, &no, &nr, &chunk};
    cuda::launch(column, grid, dim3(kReduceBlockSize), args, 0, stream);
  }
  if (splits > 1) {
    spec.kind = ReduceKernelKind::ColFinish;
    int ns = static_cast<int>(splits);
    const char* wc = w;
    const auto fbx = static_cast<unsigned>((nout + kReduceBlockSize - 1) / kReduceBlockSize);
    void* fargs[] = {&out, &wc, po.v, &no, &ns};
    cuda::launch(kernel_for(spec, arch), dim3(fbx), dim3(kReduceBlockSize), fargs, 0, stream);
  }
}

}  // namespace cunp::reduce

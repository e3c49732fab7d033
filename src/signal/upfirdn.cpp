// src/signal/upfirdn.cpp — scipy.signal.upfirdn (cunp/signal_windows.hpp): the argument
// checks, the polyphase reordering of h, the signal moved to a contiguous (rows, n)
// layout of the computation dtype, then one pass of ops::upfirdn_sample per output,
// on the cpu (threads over the outputs) or by the generated CUDA kernel.
#include "ops/upfirdn.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <thread>
#include <vector>

#include "cpu/parallel.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/signal_windows.hpp"
#include "signal/upfirdn.hpp"

namespace cunp::signal {
namespace {

constexpr std::array<std::string_view, 9> kModeNames = {"constant",      "symmetric",   "reflect",
                                                        "edge",          "wrap",        "smooth",
                                                        "antisymmetric", "antireflect", "line"};

template <typename T>
void upfirdn_cpu(const ndarray& x, const ndarray& phases, ndarray& y, const detail::UpfirdnShape& s,
                 T cval) {
  const T* xp = static_cast<const T*>(x.data());
  const T* hp = static_cast<const T*>(phases.data());
  T* yp = static_cast<T*>(y.data());
  const std::int64_t total = s.rows * s.n_out;
  auto run = [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      const std::int64_t r = i / s.n_out;
      yp[i] = ops::upfirdn_sample<T>(xp + r * s.n, 1, s.n, hp, s.taps, s.up, s.down,
                                     i - r * s.n_out, s.mode, cval, s.zero_outside);
    }
  };
  // Threads when the work (outputs x taps) is worth their start-up (Note [CPU threads]).
  const unsigned hw = cpu::hardware_threads();
  const std::int64_t work = total * s.taps;
  const std::int64_t pieces = std::min<std::int64_t>(hw, work / cpu::kParallelMin);
  if (pieces < 2) {
    run(0, total);
    return;
  }
  std::vector<std::thread> threads;
  for (std::int64_t p = 1; p < pieces; ++p)
    threads.emplace_back(run, total * p / pieces, total * (p + 1) / pieces);
  run(0, total / pieces);
  for (std::thread& t : threads) t.join();
}

template <typename T>
T scalar_as(const Scalar& v, DType dt) {
  T out{};
  v.write_as(dt, &out);
  return out;
}

}  // namespace

ExtensionMode parse_extension_mode(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::size_t i = 0; i < kModeNames.size(); ++i)
    if (lower == kModeNames[i]) return static_cast<ExtensionMode>(i);
  throw ValueError("Unknown mode: " + std::string(name));
}

std::int64_t upfirdn_output_length(std::int64_t h_length, std::int64_t n, std::int64_t up,
                                   std::int64_t down) {
  const std::int64_t span = (n - 1) * up + h_length - 1;
  // Python's floor division: an empty signal with a one-tap filter has length 0.
  return (span >= 0 ? span / down : -((-span + down - 1) / down)) + 1;
}

ndarray upfirdn(const ndarray& h, const ndarray& x, UpfirdnOptions o) {
  if (h.ndim() != 1 || h.size() == 0) throw ValueError("h must be 1-D with non-zero length");
  if (o.up < 1 || o.down < 1) throw ValueError("Both up and down must be >= 1");
  if (x.ndim() == 0) throw ValueError("x must be at least 1-D (got a 0-d array)");
  const int axis = normalize_axis(o.axis, x.ndim());
  const DType dt = promote_types(promote_types(h.dtype(), x.dtype()), DType::Float32);
  if (dt != DType::Float32 && dt != DType::Float64 && dt != DType::Complex64 &&
      dt != DType::Complex128)
    throw TypeError("upfirdn: unsupported dtype " + std::string(name(dt)));
  const Device device = x.device();
  DeviceGuard guard(device);
  const std::int64_t n = x.shape()[static_cast<std::size_t>(axis)];
  const std::int64_t L = h.size();
  const std::int64_t n_out = std::max<std::int64_t>(0, upfirdn_output_length(L, n, o.up, o.down));

  // The signal as rows along the last axis.
  const int src[] = {axis};
  const int dst[] = {-1};
  ndarray moved = moveaxis(x, src, dst);
  Shape out_shape = moved.shape();
  out_shape.back() = n_out;
  std::int64_t row_count = 1;
  for (std::size_t i = 0; i + 1 < out_shape.size(); ++i) row_count *= out_shape[i];
  ndarray y = empty({row_count, n_out}, {.dtype = dt, .device = device});
  if (row_count > 0 && n_out > 0) {
    ndarray xs = ascontiguousarray(moved, dt).reshape({row_count, n});
    // Phases: h zero-padded to up * taps, read as (taps, up), transposed to (up, taps).
    const std::int64_t taps = (L + o.up - 1) / o.up;
    ndarray padded = zeros({taps * o.up}, {.dtype = dt, .device = device});
    padded.view({slice(0, L)}).assign(h.to(device));
    ndarray phases = ascontiguousarray(padded.reshape({taps, o.up}).T());
    const detail::UpfirdnShape s{.rows = row_count,
                                 .n = n,
                                 .n_out = n_out,
                                 .taps = taps,
                                 .up = o.up,
                                 .down = o.down,
                                 .mode = static_cast<int>(o.mode),
                                 .zero_outside = o.mode == ExtensionMode::Constant && o.cval == 0};
    const Scalar cval(o.cval);
    if (device.is_cuda()) {
      detail::upfirdn_cuda(xs, phases, y, s, cval);
    } else {
      switch (dt) {
        case DType::Float32:
          upfirdn_cpu<ops::f32>(xs, phases, y, s, scalar_as<ops::f32>(cval, dt));
          break;
        case DType::Float64:
          upfirdn_cpu<ops::f64>(xs, phases, y, s, scalar_as<ops::f64>(cval, dt));
          break;
        case DType::Complex64:
          upfirdn_cpu<ops::c64>(xs, phases, y, s, scalar_as<ops::c64>(cval, dt));
          break;
        default:
          upfirdn_cpu<ops::c128>(xs, phases, y, s, scalar_as<ops::c128>(cval, dt));
          break;
      }
    }
  }
  ndarray result = y.reshape(out_shape);
  if (axis == x.ndim() - 1) return result;
  return ascontiguousarray(moveaxis(result, dst, src));
}

}  // namespace cunp::signal

// src/signal/filter_cpu.cpp — the cpu engines of engines.hpp: each lane of lfilter and
// sosfilt runs scipy's sequential recurrence (iir_ops.h), lanes split across threads;
// the direct correlation accumulates tap by tap into output rows (the inner loop runs
// along the last axis, so it vectorizes for contiguous data).
#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "core/dispatch.hpp"
#include "cpu/parallel.hpp"
#include "cunp/error.hpp"
#include "ops/complex.h"
#include "signal/engines.hpp"
#include "signal/iir_ops.h"

namespace cunp::signal::detail {
namespace {

using signal_ops::i64;

// Calls fn(first, last) over pieces of [0, rows), on several threads when the work
// (rows x row_work elements) is large enough (Note [CPU threads] in cpu/parallel.hpp).
template <typename Fn>
void for_rows(i64 rows, i64 row_work, Fn&& fn) {
  const i64 hw = cpu::hardware_threads();
  if (rows < 2 || hw == 1 || rows * std::max<i64>(row_work, 1) < cpu::kParallelMin) {
    fn(i64{0}, rows);
    return;
  }
  const i64 pieces = std::min(hw, rows);
  std::vector<std::thread> threads;
  i64 start = 0, first_len = 0;
  for (i64 p = 0; p < pieces; ++p) {
    const i64 len = rows / pieces + (p < rows % pieces ? 1 : 0);
    if (p == 0)
      first_len = len;
    else
      threads.emplace_back([&fn, start, len] { fn(start, start + len); });
    start += len;
  }
  fn(i64{0}, first_len);
  for (std::thread& t : threads) t.join();
}

template <typename T>
i64 elements(i64 byte_stride) {
  return byte_stride / static_cast<i64>(sizeof(T));
}

template <bool SOS, typename T>
void run_iir(const IirFilter& f, const ndarray& x, const ndarray& y, const ndarray* zi,
             const ndarray* zf) {
  const i64 lanes = x.shape()[0], n = x.shape()[1];
  const T* xp = static_cast<const T*>(x.data());
  T* yp = static_cast<T*>(y.data());
  const i64 xl = elements<T>(x.strides()[0]), xt = elements<T>(x.strides()[1]);
  const i64 yl = elements<T>(y.strides()[0]), yt = elements<T>(y.strides()[1]);
  const T* coef = static_cast<const T*>(f.coef.data());
  const T* zip = zi ? static_cast<const T*>(zi->data()) : nullptr;
  T* zfp = zf ? static_cast<T*>(zf->data()) : nullptr;
  const int d = f.dim;
  for_rows(lanes, n * d, [&](i64 first, i64 last) {
    std::vector<T> z(static_cast<std::size_t>(d) + 1);
    for (i64 l = first; l < last; ++l) {
      std::fill(z.begin(), z.end(), T{});
      if (zip) std::copy(zip + l * d, zip + (l + 1) * d, z.begin());
      signal_ops::iir_run<signal_ops::kDynamic, SOS, T>(coef, f.order, z.data(), xp + l * xl, xt,
                                                        yp + l * yl, yt, n);
      if (zfp) std::copy(z.begin(), z.begin() + d, zfp + l * d);
    }
  });
}

template <typename T>
void run_correlate(const ndarray& in, const ndarray& taps, const std::vector<std::int64_t>& offsets,
                   const ndarray& out) {
  const int nd = out.ndim();
  const Shape& oshape = out.shape();
  const i64 m = nd ? oshape[static_cast<std::size_t>(nd - 1)] : 1;
  const i64 rows = m ? out.size() / m : 0;
  std::vector<i64> istride(static_cast<std::size_t>(nd));
  for (int k = 0; k < nd; ++k)
    istride[static_cast<std::size_t>(k)] = elements<T>(in.strides()[static_cast<std::size_t>(k)]);
  const i64 inner = nd ? istride[static_cast<std::size_t>(nd - 1)] : 0;
  const T* ip = static_cast<const T*>(in.data());
  const T* w = static_cast<const T*>(taps.data());
  T* op = static_cast<T*>(out.data());
  const auto ntaps = static_cast<i64>(offsets.size());
  for_rows(rows, m * ntaps, [&](i64 first, i64 last) {
    for (i64 r = first; r < last; ++r) {
      i64 rem = r, base = 0;
      for (int k = nd - 2; k >= 0; --k) {
        const i64 len = oshape[static_cast<std::size_t>(k)];
        base += (rem % len) * istride[static_cast<std::size_t>(k)];
        rem /= len;
      }
      T* o = op + r * m;
      std::fill(o, o + m, T{});
      for (i64 j = 0; j < ntaps; ++j) {
        const T* src = ip + base + offsets[static_cast<std::size_t>(j)];
        const T wj = w[j];
        if (inner == 1) {
          for (i64 i = 0; i < m; ++i) o[i] = o[i] + src[i] * wj;
        } else {
          for (i64 i = 0; i < m; ++i) o[i] = o[i] + src[i * inner] * wj;
        }
      }
    }
  });
}

template <typename F>
void dispatch_filter_dtype(DType dt, F&& f) {
  switch (dt) {
    case DType::Float32:
      return f.template operator()<ops::f32>();
    case DType::Float64:
      return f.template operator()<ops::f64>();
    case DType::Complex64:
      return f.template operator()<ops::c64>();
    case DType::Complex128:
      return f.template operator()<ops::c128>();
    default:
      throw TypeError("signal: unsupported dtype " + std::string(name(dt)));
  }
}

}  // namespace

void cpu_iir(const IirFilter& f, const ndarray& x, const ndarray& y, const ndarray* zi,
             const ndarray* zf) {
  if (x.size() == 0) {
    if (zf && zi) ndarray(*zf).assign(*zi);
    return;
  }
  dispatch_filter_dtype(f.dtype, [&]<typename T>() {
    if (f.sos)
      run_iir<true, T>(f, x, y, zi, zf);
    else
      run_iir<false, T>(f, x, y, zi, zf);
  });
}

void cpu_correlate(const ndarray& in, const ndarray& taps, const std::vector<std::int64_t>& offsets,
                   const ndarray& out) {
  if (out.size() == 0) return;
  if (in.dtype() == DType::UInt64) return run_correlate<ops::u64>(in, taps, offsets, out);
  dispatch_filter_dtype(in.dtype(),
                        [&]<typename T>() { run_correlate<T>(in, taps, offsets, out); });
}

}  // namespace cunp::signal::detail

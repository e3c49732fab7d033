// src/ops/upfirdn.h — one output sample of scipy.signal.upfirdn, shared by the CPU loop
// (src/signal/upfirdn.cpp) and the generated CUDA kernel (src/signal/upfirdn_cuda.cpp).
//
// Note [Polyphase upfirdn]: y[k] = sum_i h[i] * xup[k*down - i], where xup is x with
// up - 1 zeros after each sample. Only the taps i = t % up + j*up (t = k*down) meet a
// nonzero sample, x[t / up - j]; so the host reorders h into `up` phases of
// `taps` = ceil(len(h) / up) coefficients, phases[p * taps + j] = h[p + j*up] (zero past
// the end), and each output is a dot product of `taps` terms. Samples outside x come
// from the extension mode (scipy's _extend_left/_extend_right, checked against SciPy
// for every mode); the terms inside x run without a branch.
#pragma once

#include "complex.h"

namespace cunp {
namespace ops {

// The modes in cunp::signal::ExtensionMode's order.
enum upfirdn_mode {
  upfirdn_constant = 0,
  upfirdn_symmetric,
  upfirdn_reflect,
  upfirdn_edge,
  upfirdn_wrap,
  upfirdn_smooth,
  upfirdn_antisymmetric,
  upfirdn_antireflect,
  upfirdn_line
};

template <typename T>
struct upfirdn_real {
  using type = T;
};
template <typename R>
struct upfirdn_real<complex<R>> {
  using type = R;
};

template <typename T>
CUNP_HD T upfirdn_scale(T v, typename upfirdn_real<T>::type r) {
  return v * r;
}
template <typename T>
CUNP_HD T upfirdn_div(T v, T r) {
  return v / r;
}
template <typename R>
CUNP_HD complex<R> upfirdn_div(complex<R> v, R r) {
  return {v.re / r, v.im / r};
}
template <typename T>
CUNP_HD T upfirdn_mac(T acc, T h, T x) {
  return acc + h * x;
}

CUNP_HD i64 upfirdn_floor_mod(i64 a, i64 m) {
  const i64 r = a % m;
  return r < 0 ? r + m : r;
}
CUNP_HD i64 upfirdn_floor_div(i64 a, i64 m) { return (a - upfirdn_floor_mod(a, m)) / m; }

// x extended to index i (any integer) by `mode`; x has n samples with `stride` elements
// between them. Modes that need two samples repeat x[0] when n == 1 (where SciPy reads
// out of bounds or divides by zero); an empty x is cval everywhere.
template <typename T>
CUNP_HD T upfirdn_extend(const T* x, i64 stride, i64 n, i64 i, int mode, T cval) {
  if (i >= 0 && i < n) return x[i * stride];
  if (mode == upfirdn_constant || n == 0) return cval;  // an empty signal extends as the constant
  const T first = x[0];
  const T last = x[(n - 1) * stride];
  using R = typename upfirdn_real<T>::type;
  switch (mode) {
    case upfirdn_edge:
      return i < 0 ? first : last;
    case upfirdn_wrap:
      return x[upfirdn_floor_mod(i, n) * stride];
    case upfirdn_symmetric:
    case upfirdn_antisymmetric: {
      // Period 2n: x[0..n-1] then x reversed; each reflection flips the sign of the odd mode.
      const i64 m = upfirdn_floor_mod(i, 2 * n);
      const T v = m < n ? x[m * stride] : x[(2 * n - 1 - m) * stride];
      if (mode == upfirdn_antisymmetric && (upfirdn_floor_div(i, n) & 1) != 0) return -v;
      return v;
    }
    default:
      break;
  }
  if (n == 1) return first;
  switch (mode) {
    case upfirdn_reflect: {
      const i64 p = 2 * (n - 1);
      const i64 m = upfirdn_floor_mod(i, p);
      return m < n ? x[m * stride] : x[(p - m) * stride];
    }
    case upfirdn_antireflect: {
      // Point reflection about the end samples, x(-k) = 2 x0 - x(k), applied until the
      // index falls inside: each full period 2(n-1) adds 2 (last - first).
      const i64 p = 2 * (n - 1);
      const i64 m = upfirdn_floor_mod(i, p);
      const i64 periods = upfirdn_floor_div(i, p);
      const T base = upfirdn_scale(last - first, static_cast<R>(2 * periods));
      const T v = m < n ? x[m * stride] : upfirdn_scale(last, R(2)) - x[(p - m) * stride];
      return v + base;
    }
    case upfirdn_smooth:
      if (i < 0) return first + upfirdn_scale(x[stride] - first, static_cast<R>(i));
      return last + upfirdn_scale(last - x[(n - 2) * stride], static_cast<R>(i - n + 1));
    case upfirdn_line: {
      const T slope = upfirdn_div(last - first, static_cast<R>(n - 1));
      if (i < 0) return first + upfirdn_scale(slope, static_cast<R>(i));
      return last + upfirdn_scale(slope, static_cast<R>(i - n + 1));
    }
    default:
      return cval;
  }
}

// Output sample k of one signal: x (n samples, `stride` apart) through the polyphase
// filter `phases` (up phases of `taps` coefficients, Note [Polyphase upfirdn]).
template <typename T>
CUNP_HD T upfirdn_sample(const T* x, i64 stride, i64 n, const T* phases, i64 taps, i64 up, i64 down,
                         i64 k, int mode, T cval, bool zero_outside) {
  const i64 t = k * down;
  const i64 q = t / up;  // t >= 0: the newest input sample the output reaches
  const T* hp = phases + (t % up) * taps;
  T acc = T();
  // Inside x: j in [max(0, q - n + 1), min(taps - 1, q)].
  const i64 j_lo = q - n + 1 > 0 ? q - n + 1 : 0;
  const i64 j_hi = q < taps - 1 ? q : taps - 1;
  for (i64 j = j_lo; j <= j_hi; ++j) acc = upfirdn_mac(acc, hp[j], x[(q - j) * stride]);
  if (zero_outside) return acc;
  // Outside: j < j_lo reads past the end, j > j_hi before the start.
  const i64 past = j_lo < taps ? j_lo : taps;
  for (i64 j = 0; j < past; ++j)
    acc = upfirdn_mac(acc, hp[j], upfirdn_extend(x, stride, n, q - j, mode, cval));
  for (i64 j = (j_hi + 1 > past ? j_hi + 1 : past); j < taps; ++j)
    acc = upfirdn_mac(acc, hp[j], upfirdn_extend(x, stride, n, q - j, mode, cval));
  return acc;
}

}  // namespace ops
}  // namespace cunp

// src/ops/ufunc_select.h — three-operand elementwise selections: where(c, x, y) and
// clip(x, lo, hi), for every compute type.
#pragma once

#include "complex.h"

namespace cunp {
namespace ops {

// where(cond, x, y): x where cond is true, else y.
struct select {
  template <typename T>
  CUNP_HD T operator()(bool c, T x, T y) const {
    return c ? x : y;
  }
};

// NaN test of any compute type (false for integers and bool).
template <typename T>
CUNP_HD bool isnan_any(T x) {
  return x != x;
}
template <typename T>
CUNP_HD bool isnan_any(complex<T> x) {
  return x.re != x.re || x.im != x.im;
}

// Lexicographic "less than" of any compute type (complex: real part, then imaginary).
template <typename T>
CUNP_HD bool less_any(T a, T b) {
  return a < b;
}
template <typename T>
CUNP_HD bool less_any(complex<T> a, complex<T> b) {
  return a.re < b.re || (a.re == b.re && a.im < b.im);
}

// clip(x, lo, hi) = minimum(maximum(x, lo), hi) with NumPy's NaN propagation: a NaN in
// x, lo or hi gives NaN.
struct clip {
  template <typename T>
  CUNP_HD T operator()(T x, T lo, T hi) const {
    if (isnan_any(x)) return x;
    if (isnan_any(lo)) return lo;
    if (isnan_any(hi)) return hi;
    T r = less_any(x, lo) ? lo : x;
    return less_any(hi, r) ? hi : r;
  }
};

}  // namespace ops
}  // namespace cunp

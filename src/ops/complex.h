// src/ops/complex.h — the complex storage types (layout-compatible with
// std::complex and cuComplex: real part first) and their arithmetic, written as
// NumPy's loops compute it (see Note [Contracted multiply-add] in real_math.h).
#pragma once

#include "common.h"
#include "real_math.h"

namespace cunp {
namespace ops {

template <typename T>
struct alignas(2 * sizeof(T)) complex {
  T re;
  T im;
};
using c64 = complex<f32>;
using c128 = complex<f64>;

template <typename T> CUNP_HD complex<T> operator+(complex<T> a, complex<T> b) {
  return {a.re + b.re, a.im + b.im};
}
template <typename T> CUNP_HD complex<T> operator-(complex<T> a, complex<T> b) {
  return {a.re - b.re, a.im - b.im};
}
template <typename T> CUNP_HD complex<T> operator-(complex<T> a) { return {-a.re, -a.im}; }
// Note [Complex multiply]: NumPy's vectorized loop (x86-64 with FMA, as every machine
// that hosts a recent NVIDIA GPU has) rounds each part once after the second product:
// re = fma(ar, br, -(ai*bi)), im = fma(ar, bi, ai*br). The same on every device.
template <typename T> CUNP_HD complex<T> operator*(complex<T> a, complex<T> b) {
  return {fm::fma(a.re, b.re, -fm::mul(a.im, b.im)), fm::fma(a.re, b.im, fm::mul(a.im, b.re))};
}
template <typename T> CUNP_HD complex<T> operator*(complex<T> a, T s) { return {fm::mul(a.re, s), fm::mul(a.im, s)}; }
template <typename T> CUNP_HD bool operator==(complex<T> a, complex<T> b) { return a.re == b.re && a.im == b.im; }
template <typename T> CUNP_HD bool operator!=(complex<T> a, complex<T> b) { return a.re != b.re || a.im != b.im; }

// Division by Smith's method, scaled by the larger component of the divisor; a zero
// divisor divides each part by zero (inf or nan), as NumPy does.
template <typename T> CUNP_HD complex<T> operator/(complex<T> a, complex<T> b) {
  const T abs_re = fm::fabs(b.re);
  const T abs_im = fm::fabs(b.im);
  if (abs_re >= abs_im) {
    if (abs_re == 0 && abs_im == 0) return {a.re / abs_re, a.im / abs_im};
    const T rat = b.im / b.re;
    const T scl = T(1) / fm::add(b.re, fm::mul(b.im, rat));
    return {fm::mul(fm::add(a.re, fm::mul(a.im, rat)), scl), fm::mul(fm::sub(a.im, fm::mul(a.re, rat)), scl)};
  }
  const T rat = b.re / b.im;
  const T scl = T(1) / fm::add(b.im, fm::mul(b.re, rat));
  return {fm::mul(fm::add(fm::mul(a.re, rat), a.im), scl), fm::mul(fm::sub(fm::mul(a.im, rat), a.re), scl)};
}

template <typename T> CUNP_HD complex<T> conj(complex<T> a) { return {a.re, -a.im}; }
template <typename T> CUNP_HD bool any_nan(complex<T> a) { return fm::isnan(a.re) || fm::isnan(a.im); }

}  // namespace ops
}  // namespace cunp

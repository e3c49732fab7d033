// cunp/complex.cuh — complex<float> and complex<double> for CUDA C++ that cunp compiles
// with NVRTC (RawKernel, RawModule, ElementwiseKernel, ReductionKernel). Include it as
// `#include <cunp/complex.cuh>`; it is embedded in libcunp, so no file is needed.
//
// complex<T> is cunp::ops::complex<T> from src/ops (real part `re` first, then `im`,
// aligned to its size): laid out as complex64/complex128 array elements, std::complex
// and cuComplex. Its arithmetic (complex.h) and elementary functions (complex_math.h:
// abs, exp, log, sqrt, pow, sin, ... with NumPy's special values and branch cuts) are
// the ones cunp's own ufuncs use. It is an aggregate: write complex<float>{re, im} or
// make_complex(re, im) (C++20 also takes complex<float>(re, im)).
#pragma once

#include "complex.h"
#include "complex_math.h"

template <typename T>
using complex = cunp::ops::complex<T>;
using cunp::ops::conj;
using cunp::ops::cm::abs;
using cunp::ops::cm::acos;
using cunp::ops::cm::acosh;
using cunp::ops::cm::asin;
using cunp::ops::cm::asinh;
using cunp::ops::cm::atan;
using cunp::ops::cm::atanh;
using cunp::ops::cm::cos;
using cunp::ops::cm::cosh;
using cunp::ops::cm::exp;
using cunp::ops::cm::log;
using cunp::ops::cm::pow;
using cunp::ops::cm::sin;
using cunp::ops::cm::sinh;
using cunp::ops::cm::sqrt;
using cunp::ops::cm::tan;
using cunp::ops::cm::tanh;
template <typename T>
__device__ __forceinline__ T real(complex<T> z) { return z.re; }
template <typename T>
__device__ __forceinline__ T imag(complex<T> z) { return z.im; }
template <typename T>
__device__ __forceinline__ complex<T> make_complex(T re, T im) { return {re, im}; }

// Conveniences for hand-written kernels that src/ops does not need (its loops promote
// both operands first): a real operand on either side, and compound assignment. They
// live in cunp::ops so that argument-dependent lookup finds them from any namespace.
namespace cunp {
namespace ops {
template <typename T> __device__ __forceinline__ complex<T> operator+(complex<T> a, T s) { return {a.re + s, a.im}; }
template <typename T> __device__ __forceinline__ complex<T> operator+(T s, complex<T> a) { return {s + a.re, a.im}; }
template <typename T> __device__ __forceinline__ complex<T> operator-(complex<T> a, T s) { return {a.re - s, a.im}; }
template <typename T> __device__ __forceinline__ complex<T> operator-(T s, complex<T> a) { return {s - a.re, -a.im}; }
template <typename T> __device__ __forceinline__ complex<T> operator*(T s, complex<T> a) { return a * s; }
template <typename T> __device__ __forceinline__ complex<T> operator/(complex<T> a, T s) { return {a.re / s, a.im / s}; }
template <typename T> __device__ __forceinline__ complex<T> operator/(T s, complex<T> a) { return complex<T>{s, T(0)} / a; }
template <typename T> __device__ __forceinline__ complex<T>& operator+=(complex<T>& a, complex<T> b) { return a = a + b; }
template <typename T> __device__ __forceinline__ complex<T>& operator-=(complex<T>& a, complex<T> b) { return a = a - b; }
template <typename T> __device__ __forceinline__ complex<T>& operator*=(complex<T>& a, complex<T> b) { return a = a * b; }
template <typename T> __device__ __forceinline__ complex<T>& operator/=(complex<T>& a, complex<T> b) { return a = a / b; }
template <typename T> __device__ __forceinline__ complex<T>& operator+=(complex<T>& a, T s) { return a = a + s; }
template <typename T> __device__ __forceinline__ complex<T>& operator-=(complex<T>& a, T s) { return a = a - s; }
template <typename T> __device__ __forceinline__ complex<T>& operator*=(complex<T>& a, T s) { return a = a * s; }
template <typename T> __device__ __forceinline__ complex<T>& operator/=(complex<T>& a, T s) { return a = a / s; }
}  // namespace ops
}  // namespace cunp

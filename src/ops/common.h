// src/ops/common.h — the base of the scalar-operation layer. Every header in src/ops
// compiles twice: with g++ into the CPU loops and, embedded as text, with NVRTC into
// generated kernels. So: no standard headers, no exceptions, no host-only calls.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define CUNP_HD __host__ __device__ __forceinline__
#define CUNP_DEVICE_COMPILE 1
#else
#define CUNP_HD inline
#endif

namespace cunp {
namespace ops {

// Fixed-width names that mean the same under g++ and NVRTC (which has no <cstdint>).
using i8 = signed char;
using u8 = unsigned char;
using i16 = short;
using u16 = unsigned short;
using i32 = int;
using u32 = unsigned int;
using i64 = long long;
using u64 = unsigned long long;
using f32 = float;
using f64 = double;

// Bit reinterpretation, spelled with intrinsics on the device and the builtin on the host.
CUNP_HD u32 f32_bits(f32 x) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(x);
#else
  return __builtin_bit_cast(u32, x);
#endif
}
CUNP_HD f32 f32_from_bits(u32 b) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(b);
#else
  return __builtin_bit_cast(f32, b);
#endif
}
CUNP_HD u64 f64_bits(f64 x) {
#ifdef __CUDA_ARCH__
  return static_cast<u64>(__double_as_longlong(x));
#else
  return __builtin_bit_cast(u64, x);
#endif
}
CUNP_HD f64 f64_from_bits(u64 b) {
#ifdef __CUDA_ARCH__
  return __longlong_as_double(static_cast<i64>(b));
#else
  return __builtin_bit_cast(f64, b);
#endif
}

// Note [Integer floating-point status]: NumPy's integer loops report division by zero
// and MIN // -1 through the floating-point status flags, which become RuntimeWarnings
// under np.errstate (include/cunp/errstate.hpp). On the host these raise the same flags
// with a volatile float operation; on the device they do nothing (no status is read).
CUNP_HD void raise_fp_divide_by_zero() {
#ifndef __CUDA_ARCH__
  volatile float zero = 0.0f;
  volatile float r = 1.0f / zero;
  (void)r;
#endif
}
CUNP_HD void raise_fp_overflow() {
#ifndef __CUDA_ARCH__
  volatile float big = 1e38f;
  volatile float r = big * big;
  (void)r;
#endif
}

template <typename T, typename U>
struct is_same {
  static constexpr bool value = false;
};
template <typename T>
struct is_same<T, T> {
  static constexpr bool value = true;
};

}  // namespace ops
}  // namespace cunp

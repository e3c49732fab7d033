// src/ops/half.h — float16 storage type. Arithmetic on float16 happens in float32,
// as NumPy does; only the conversions live here.
#pragma once

#include "common.h"

namespace cunp {
namespace ops {

struct alignas(2) half {
  u16 bits;
};

CUNP_HD f32 half_to_f32(half h) {
#ifdef __CUDA_ARCH__
  f32 f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.bits));
  return f;
#else
  const u32 sign = static_cast<u32>(h.bits & 0x8000u) << 16;
  const u32 exp = (h.bits >> 10) & 0x1fu;
  u32 mant = h.bits & 0x3ffu;
  if (exp == 0x1f) return f32_from_bits(sign | 0x7f800000u | (mant << 13));  // inf / nan
  if (exp != 0) return f32_from_bits(sign | ((exp + 112u) << 23) | (mant << 13));
  if (mant == 0) return f32_from_bits(sign);
  // Subnormal half: normalize.
  u32 e = 113;
  while ((mant & 0x400u) == 0) {
    mant <<= 1;
    --e;
  }
  return f32_from_bits(sign | (e << 23) | ((mant & 0x3ffu) << 13));
#endif
}

// Rounds a wider float's bits to half, to nearest even. `mant_bits` is the width of
// the source's mantissa, `bias` its exponent bias; works for float32 and float64.
CUNP_HD u16 round_to_half_bits(u64 sign, i64 exp_unbiased, u64 mant_with_hidden, int mant_bits,
                               bool is_nan, bool is_inf) {
  const u16 s = static_cast<u16>(sign << 15);
  if (is_nan) return static_cast<u16>(s | 0x7e00u);
  if (is_inf || exp_unbiased > 15) {
    // Overflow unless rounding lands below 65520; exponents above 15 always overflow.
    return static_cast<u16>(s | 0x7c00u);
  }
  // Target: value = mant_with_hidden * 2^(exp_unbiased - mant_bits).
  // Half keeps 10 mantissa bits for normals (exp >= -14), fewer for subnormals.
  int shift;  // how many low bits of mant_with_hidden to drop
  u16 exp_field;
  if (exp_unbiased >= -14) {
    shift = mant_bits - 10;
    exp_field = static_cast<u16>(exp_unbiased + 15);
  } else {
    shift = mant_bits - 10 + static_cast<int>(-14 - exp_unbiased);
    exp_field = 0;
  }
  if (shift > 63) return s;  // underflows to zero
  u64 kept = mant_with_hidden >> shift;
  const u64 rem = mant_with_hidden & ((u64{1} << shift) - 1);
  const u64 halfway = u64{1} << (shift - 1);
  if (rem > halfway || (rem == halfway && (kept & 1))) ++kept;
  if (exp_field == 0) {
    // Subnormal (or rounded up into the smallest normal: kept == 0x400 gives exp 1).
    return static_cast<u16>(s | kept);
  }
  // kept includes the hidden bit (0x400..0x800).
  if (kept == 0x800) {
    kept = 0x400;
    ++exp_field;
    if (exp_field >= 31) return static_cast<u16>(s | 0x7c00u);
  }
  return static_cast<u16>(s | (exp_field << 10) | (kept & 0x3ffu));
}

CUNP_HD half f32_to_half(f32 f) {
#ifdef __CUDA_ARCH__
  half h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.bits) : "f"(f));
  return h;
#else
  const u32 b = f32_bits(f);
  const u32 exp = (b >> 23) & 0xffu;
  const u32 mant = b & 0x7fffffu;
  if (exp == 0 && mant == 0) return half{static_cast<u16>((b >> 16) & 0x8000u)};
  const bool is_special = exp == 0xff;
  const u64 full = exp == 0 ? mant : (mant | 0x800000u);
  const i64 e = exp == 0 ? -126 : static_cast<i64>(exp) - 127;
  return half{round_to_half_bits(b >> 31, e, full, 23, is_special && mant != 0, is_special && mant == 0)};
#endif
}

CUNP_HD half f64_to_half(f64 d) {
#ifdef __CUDA_ARCH__
  half h;
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h.bits) : "d"(d));
  return h;
#else
  const u64 b = f64_bits(d);
  const u64 exp = (b >> 52) & 0x7ffu;
  const u64 mant = b & 0xfffffffffffffull;
  if (exp == 0 && mant == 0) return half{static_cast<u16>((b >> 48) & 0x8000u)};
  const bool is_special = exp == 0x7ff;
  const u64 full = exp == 0 ? mant : (mant | 0x10000000000000ull);
  const i64 e = exp == 0 ? -1022 : static_cast<i64>(exp) - 1023;
  return half{round_to_half_bits(b >> 63, e, full, 52, is_special && mant != 0, is_special && mant == 0)};
#endif
}

}  // namespace ops
}  // namespace cunp

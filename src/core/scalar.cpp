// src/core/scalar.cpp — host scalars, converted with the same scalar cast as arrays.
#include "cunp/scalar.hpp"

#include <cmath>
#include <cstring>

#include "core/dispatch.hpp"
#include "core/printing.hpp"
#include "ops/cast.h"

namespace cunp {

Scalar Scalar::big_int(double value) {
  Scalar s(value);
  s.big_int_ = true;
  return s;
}

WeakKind Scalar::weak_kind() const noexcept {
  if (big_int_) return WeakKind::Int;
  switch (kind(dtype_)) {
    case DTypeKind::Bool: return WeakKind::Bool;
    case DTypeKind::SignedInt:
    case DTypeKind::UnsignedInt: return WeakKind::Int;
    case DTypeKind::Float: return WeakKind::Float;
    case DTypeKind::Complex: return WeakKind::Complex;
  }
  return WeakKind::Float;
}

void Scalar::write_as(DType dtype, void* dst) const noexcept {
  // Convert from the held value through the one cast definition of src/ops.
  dispatch_dtype(dtype, [&]<typename To>() {
    To out{};
    switch (kind(dtype_)) {
      case DTypeKind::Bool: out = ops::cast<To>(v_.b); break;
      case DTypeKind::SignedInt: out = ops::cast<To>(static_cast<ops::i64>(v_.i)); break;
      case DTypeKind::UnsignedInt: out = ops::cast<To>(static_cast<ops::u64>(v_.u)); break;
      case DTypeKind::Float:
        // float16/float32 values are held exactly as doubles; cast from the true dtype
        // so that rounding matches an array cast of the same element.
        if (dtype_ == DType::Float32) out = ops::cast<To>(static_cast<float>(v_.d));
        else if (dtype_ == DType::Float16) out = ops::cast<To>(ops::f64_to_half(v_.d));
        else out = ops::cast<To>(v_.d);
        break;
      case DTypeKind::Complex:
        if (dtype_ == DType::Complex64) {
          out = ops::cast<To>(ops::c64{static_cast<float>(v_.c.re), static_cast<float>(v_.c.im)});
        } else {
          out = ops::cast<To>(ops::c128{v_.c.re, v_.c.im});
        }
        break;
    }
    std::memcpy(dst, &out, sizeof(To));
  });
}

Scalar Scalar::read(DType dtype, const void* src) noexcept {
  Scalar s;
  s.dtype_ = dtype;
  s.weak_ = false;
  dispatch_dtype(dtype, [&]<typename T>() {
    T x;
    std::memcpy(&x, src, sizeof(T));
    switch (kind(dtype)) {
      case DTypeKind::Bool: s.v_.b = ops::cast<bool>(x); break;
      case DTypeKind::SignedInt: s.v_.i = ops::cast<ops::i64>(x); break;
      case DTypeKind::UnsignedInt: s.v_.u = ops::cast<ops::u64>(x); break;
      case DTypeKind::Float: s.v_.d = ops::cast<double>(x); break;
      case DTypeKind::Complex: {
        const ops::c128 c = ops::cast<ops::c128>(x);
        s.v_.c.re = c.re;
        s.v_.c.im = c.im;
        break;
      }
    }
  });
  return s;
}

Scalar Scalar::of(DType dtype, const Scalar& value) {
  alignas(16) unsigned char buf[16];
  value.write_as(dtype, buf);
  return read(dtype, buf);
}

bool Scalar::to_bool() const noexcept {
  bool b;
  write_as(DType::Bool, &b);
  return b;
}
std::int64_t Scalar::to_int64() const noexcept {
  std::int64_t i;
  write_as(DType::Int64, &i);
  return i;
}
std::uint64_t Scalar::to_uint64() const noexcept {
  std::uint64_t u;
  write_as(DType::UInt64, &u);
  return u;
}
double Scalar::to_double() const noexcept {
  double d;
  write_as(DType::Float64, &d);
  return d;
}
std::complex<double> Scalar::to_complex() const noexcept {
  std::complex<double> c;
  write_as(DType::Complex128, &c);
  return c;
}

bool Scalar::fits(DType dtype) const noexcept {
  if (big_int_) return !is_integer(dtype);
  const DTypeKind k = kind(dtype_);
  if (k == DTypeKind::Bool) return true;
  if (k == DTypeKind::SignedInt || k == DTypeKind::UnsignedInt) {
    if (!is_integer(dtype)) return true;  // ints always convert to float/complex (maybe inexactly)
    const IInfo ii = iinfo(dtype);
    if (k == DTypeKind::SignedInt) {
      return v_.i >= ii.min && (v_.i < 0 || static_cast<std::uint64_t>(v_.i) <= ii.max);
    }
    return v_.u <= ii.max;
  }
  return true;
}

std::string Scalar::str() const {
  alignas(16) unsigned char buf[16];
  write_as(dtype_, buf);
  return detail::format_scalar(buf, dtype_);
}

}  // namespace cunp

// cunp/scalar.hpp — a host scalar with a runtime dtype: fill values, item() results,
// and (weak) Python-scalar operands.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

#include "cunp/dtype.hpp"

namespace cunp {

class Scalar {
 public:
  // C++ arithmetic values behave like Python scalars (NEP 50 "weak"): `a + 1` keeps
  // a's dtype. Their own dtype is the kind's default (bool, int64, float64, complex128).
  Scalar() : Scalar(false) {}
  Scalar(bool v) : dtype_(DType::Bool), weak_(true) { v_.b = v; }
  template <typename T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  Scalar(T v) : dtype_(DType::Int64), weak_(true) {
    if constexpr (std::is_unsigned_v<T>) {
      if (static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(INT64_MAX)) {
        dtype_ = DType::UInt64;
        v_.u = static_cast<std::uint64_t>(v);
        return;
      }
    }
    v_.i = static_cast<std::int64_t>(v);
  }
  Scalar(float v) : dtype_(DType::Float64), weak_(true) { v_.d = v; }
  Scalar(double v) : dtype_(DType::Float64), weak_(true) { v_.d = v; }
  Scalar(std::complex<float> v) : dtype_(DType::Complex128), weak_(true) { v_.c = {v.real(), v.imag()}; }
  Scalar(std::complex<double> v) : dtype_(DType::Complex128), weak_(true) { v_.c = {v.real(), v.imag()}; }

  // A strong scalar of `dtype` holding `value` converted (unsafe-cast semantics).
  static Scalar of(DType dtype, const Scalar& value);
  // A Python int beyond the 64-bit range: a weak int whose value is held as a double
  // (it converts to floating dtypes; fits() no integer dtype).
  static Scalar big_int(double value);
  bool is_big_int() const noexcept { return big_int_; }
  // This value as a strong scalar of its own dtype.
  Scalar strong() const noexcept { Scalar s = *this; s.weak_ = false; return s; }

  DType dtype() const noexcept { return dtype_; }
  bool weak() const noexcept { return weak_; }
  WeakKind weak_kind() const noexcept;  // from the dtype's kind

  bool to_bool() const noexcept;
  std::int64_t to_int64() const noexcept;    // C-cast semantics (truncation, wrap)
  std::uint64_t to_uint64() const noexcept;
  double to_double() const noexcept;         // real part for complex
  std::complex<double> to_complex() const noexcept;
  // Converts to `dtype` with NumPy's unsafe-cast semantics (the same scalar rules as
  // array casts) and writes its bytes (itemsize(dtype)) to `dst`.
  void write_as(DType dtype, void* dst) const noexcept;
  // Reads an element of `dtype` from host memory.
  static Scalar read(DType dtype, const void* src) noexcept;
  // Whether the value is representable in `dtype` (for Python ints: NEP 50's
  // OverflowError check), e.g. 300 does not fit int8.
  bool fits(DType dtype) const noexcept;

  // NumPy's repr of the scalar as an element of its dtype, e.g. "1.5", "nan", "(1+2j)".
  std::string str() const;

 private:
  union Value {
    bool b;
    std::int64_t i;
    std::uint64_t u;
    double d;
    struct {
      double re, im;
    } c;
  } v_{};
  DType dtype_;
  bool weak_;
  bool big_int_ = false;
};

}  // namespace cunp

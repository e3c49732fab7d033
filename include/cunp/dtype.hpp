// cunp/dtype.hpp — the runtime dtype, NumPy 2 (NEP 50) promotion and casting rules.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace cunp {

// The 14 numeric dtypes, in NumPy's type-number order (np.dtype(x).num is
// 0..8 for bool..uint64 with the platform's int/long names, then 23, 11, 12, 14, 15).
enum class DType : std::uint8_t {
  Bool,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Float16,
  Float32,
  Float64,
  Complex64,
  Complex128,
};
inline constexpr int kNumDTypes = 14;

enum class DTypeKind : std::uint8_t { Bool, SignedInt, UnsignedInt, Float, Complex };

// Properties of a dtype.
std::size_t itemsize(DType dt) noexcept;
DTypeKind kind(DType dt) noexcept;
std::string_view name(DType dt) noexcept;      // "float32"
char kind_char(DType dt) noexcept;             // NumPy's dtype.kind: 'b', 'i', 'u', 'f', 'c'
char type_char(DType dt) noexcept;             // NumPy's dtype.char: '?', 'b', 'B', 'h', ... 'D'
int numpy_type_num(DType dt) noexcept;         // NumPy's dtype.num on LP64 platforms
bool is_integer(DType dt) noexcept;            // signed or unsigned integer (not bool)
bool is_floating(DType dt) noexcept;           // float16/32/64
bool is_complex(DType dt) noexcept;
bool is_inexact(DType dt) noexcept;            // floating or complex

// Parses a dtype name as NumPy spells it: "float32", "f4", "f", "d", "int", "float",
// "complex", "bool", "?", "uint8", "B", ... Throws TypeError for anything else
// (strings, objects, datetimes and unknown names).
DType dtype_from_name(std::string_view text);
// Maps NumPy's dtype.num (LP64) back to a DType; throws TypeError for unsupported numbers.
DType dtype_from_numpy_type_num(int num);

// The real dtype of a complex one (complex64 -> float32); identity otherwise.
DType real_dtype(DType dt) noexcept;
// The complex dtype holding a real one (float32 -> complex64, float16 -> complex64).
DType complex_dtype(DType dt) noexcept;

// NumPy's default integer, float and complex dtypes (int64, float64, complex128).
inline constexpr DType kDefaultInt = DType::Int64;
inline constexpr DType kDefaultFloat = DType::Float64;
inline constexpr DType kDefaultComplex = DType::Complex128;

// np.promote_types.
DType promote_types(DType a, DType b) noexcept;

// The casting rules of np.can_cast.
enum class Casting : std::uint8_t { No, Equiv, Safe, SameKind, Unsafe };
Casting parse_casting(std::string_view text);  // ValueError on an unknown name
std::string_view name(Casting c) noexcept;
bool can_cast(DType from, DType to, Casting casting) noexcept;

// NEP 50: a Python bool/int/float/complex scalar is "weak"; it takes the kind it
// needs but never widens an array's dtype of the same or a higher kind.
enum class WeakKind : std::uint8_t { Bool, Int, Float, Complex };
// np.result_type over arrays/dtypes (strong) and Python scalars (weak).
// Throws ValueError when both lists are empty.
DType result_type(std::span<const DType> strong, std::span<const WeakKind> weak = {});

// np.finfo / np.iinfo.
struct FInfo {
  DType dtype;  // the real float dtype (finfo(complex64).dtype is float32)
  int bits;
  double eps;
  double epsneg;
  double max;
  double min;
  double tiny;  // == smallest_normal
  double smallest_normal;
  double smallest_subnormal;
  double resolution;
  int precision;
  int iexp;
  int machep;
  int negep;
  int minexp;
  int maxexp;
  int nexp;
  int nmant;
};
FInfo finfo(DType dt);  // ValueError for integer or bool dtypes (as NumPy)

struct IInfo {
  DType dtype;
  int bits;
  std::int64_t min;
  std::uint64_t max;
};
IInfo iinfo(DType dt);  // ValueError for non-integer dtypes (as NumPy)

// A 16-bit IEEE float stored as its bits; arithmetic happens in float32.
struct float16_bits {
  std::uint16_t bits;
};
float float16_to_float(std::uint16_t bits) noexcept;
std::uint16_t float_to_float16(float value) noexcept;  // round to nearest even

// The DType of a C++ element type.
template <typename T>
struct dtype_of;
template <> struct dtype_of<bool> { static constexpr DType value = DType::Bool; };
template <> struct dtype_of<std::int8_t> { static constexpr DType value = DType::Int8; };
template <> struct dtype_of<std::uint8_t> { static constexpr DType value = DType::UInt8; };
template <> struct dtype_of<std::int16_t> { static constexpr DType value = DType::Int16; };
template <> struct dtype_of<std::uint16_t> { static constexpr DType value = DType::UInt16; };
template <> struct dtype_of<std::int32_t> { static constexpr DType value = DType::Int32; };
template <> struct dtype_of<std::uint32_t> { static constexpr DType value = DType::UInt32; };
template <> struct dtype_of<std::int64_t> { static constexpr DType value = DType::Int64; };
template <> struct dtype_of<std::uint64_t> { static constexpr DType value = DType::UInt64; };
template <> struct dtype_of<long long> { static constexpr DType value = DType::Int64; };
template <> struct dtype_of<unsigned long long> { static constexpr DType value = DType::UInt64; };
template <> struct dtype_of<float16_bits> { static constexpr DType value = DType::Float16; };
template <> struct dtype_of<float> { static constexpr DType value = DType::Float32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::Float64; };
template <> struct dtype_of<std::complex<float>> { static constexpr DType value = DType::Complex64; };
template <> struct dtype_of<std::complex<double>> { static constexpr DType value = DType::Complex128; };
template <typename T>
inline constexpr DType dtype_of_v = dtype_of<T>::value;

}  // namespace cunp

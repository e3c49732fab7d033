// src/core/dtype.cpp — the dtype table and NumPy 2's promotion and casting rules.
#include "cunp/dtype.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "cunp/error.hpp"
#include "ops/half.h"

namespace cunp {
namespace {

struct DTypeInfo {
  std::string_view name;
  std::size_t itemsize;
  DTypeKind kind;
  char kind_char;
  char type_char;
  int numpy_num;
};

// One row per DType, in enum order: the single table every property comes from.
constexpr std::array<DTypeInfo, kNumDTypes> kTable = {{
    {"bool", 1, DTypeKind::Bool, 'b', '?', 0},
    {"int8", 1, DTypeKind::SignedInt, 'i', 'b', 1},
    {"uint8", 1, DTypeKind::UnsignedInt, 'u', 'B', 2},
    {"int16", 2, DTypeKind::SignedInt, 'i', 'h', 3},
    {"uint16", 2, DTypeKind::UnsignedInt, 'u', 'H', 4},
    {"int32", 4, DTypeKind::SignedInt, 'i', 'i', 5},
    {"uint32", 4, DTypeKind::UnsignedInt, 'u', 'I', 6},
    {"int64", 8, DTypeKind::SignedInt, 'i', 'l', 7},
    {"uint64", 8, DTypeKind::UnsignedInt, 'u', 'L', 8},
    {"float16", 2, DTypeKind::Float, 'f', 'e', 23},
    {"float32", 4, DTypeKind::Float, 'f', 'f', 11},
    {"float64", 8, DTypeKind::Float, 'f', 'd', 12},
    {"complex64", 8, DTypeKind::Complex, 'c', 'F', 14},
    {"complex128", 16, DTypeKind::Complex, 'c', 'D', 15},
}};

const DTypeInfo& info(DType dt) noexcept { return kTable[static_cast<int>(dt)]; }

DType sized(DTypeKind k, std::size_t size) noexcept {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (kTable[i].kind == k && kTable[i].itemsize == size) return static_cast<DType>(i);
  }
  return DType::Float64;
}

// Smallest float able to hold every value of an integer of `size` bytes exactly as
// NumPy decides it: int8/uint8 -> float16, 16-bit -> float32, wider -> float64.
DType float_for_int(std::size_t size) noexcept {
  return size == 1 ? DType::Float16 : size == 2 ? DType::Float32 : DType::Float64;
}

}  // namespace

std::size_t itemsize(DType dt) noexcept { return info(dt).itemsize; }
DTypeKind kind(DType dt) noexcept { return info(dt).kind; }
std::string_view name(DType dt) noexcept { return info(dt).name; }
char kind_char(DType dt) noexcept { return info(dt).kind_char; }
char type_char(DType dt) noexcept { return info(dt).type_char; }
int numpy_type_num(DType dt) noexcept { return info(dt).numpy_num; }
bool is_integer(DType dt) noexcept {
  return kind(dt) == DTypeKind::SignedInt || kind(dt) == DTypeKind::UnsignedInt;
}
bool is_floating(DType dt) noexcept { return kind(dt) == DTypeKind::Float; }
bool is_complex(DType dt) noexcept { return kind(dt) == DTypeKind::Complex; }
bool is_inexact(DType dt) noexcept { return is_floating(dt) || is_complex(dt); }

DType real_dtype(DType dt) noexcept {
  if (dt == DType::Complex64) return DType::Float32;
  if (dt == DType::Complex128) return DType::Float64;
  return dt;
}

DType complex_dtype(DType dt) noexcept {
  if (is_complex(dt)) return dt;
  if (dt == DType::Float64 || (is_integer(dt) && itemsize(dt) >= 4)) return DType::Complex128;
  if (dt == DType::Float16 || dt == DType::Float32) return DType::Complex64;
  return promote_types(dt, DType::Complex64);
}

DType dtype_from_numpy_type_num(int num) {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (kTable[i].numpy_num == num) return static_cast<DType>(i);
  }
  // LP64 aliases: NPY_LONGLONG (9) and NPY_ULONGLONG (10).
  if (num == 9) return DType::Int64;
  if (num == 10) return DType::UInt64;
  throw TypeError("cunp does not support NumPy dtype number " + std::to_string(num) +
                  " (only bool, integer, floating and complex dtypes)");
}

DType dtype_from_name(std::string_view text) {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (kTable[i].name == text) return static_cast<DType>(i);
  }
  struct Alias {
    std::string_view name;
    DType dtype;
  };
  static constexpr Alias kAliases[] = {
      {"?", DType::Bool},        {"b1", DType::Bool},        {"bool_", DType::Bool},
      {"b", DType::Int8},        {"i1", DType::Int8},        {"byte", DType::Int8},
      {"B", DType::UInt8},       {"u1", DType::UInt8},       {"ubyte", DType::UInt8},
      {"h", DType::Int16},       {"i2", DType::Int16},       {"short", DType::Int16},
      {"H", DType::UInt16},      {"u2", DType::UInt16},      {"ushort", DType::UInt16},
      {"i", DType::Int32},       {"i4", DType::Int32},       {"intc", DType::Int32},
      {"I", DType::UInt32},      {"u4", DType::UInt32},      {"uintc", DType::UInt32},
      {"l", DType::Int64},       {"q", DType::Int64},        {"i8", DType::Int64},
      {"int", DType::Int64},     {"int_", DType::Int64},     {"intp", DType::Int64},
      {"long", DType::Int64},    {"longlong", DType::Int64}, {"L", DType::UInt64},
      {"Q", DType::UInt64},      {"u8", DType::UInt64},      {"uint", DType::UInt64},
      {"uintp", DType::UInt64},  {"ulong", DType::UInt64},   {"ulonglong", DType::UInt64},
      {"e", DType::Float16},     {"f2", DType::Float16},     {"half", DType::Float16},
      {"f", DType::Float32},     {"f4", DType::Float32},     {"single", DType::Float32},
      {"d", DType::Float64},     {"f8", DType::Float64},     {"float", DType::Float64},
      {"double", DType::Float64}, {"F", DType::Complex64},   {"c8", DType::Complex64},
      {"csingle", DType::Complex64}, {"D", DType::Complex128}, {"c16", DType::Complex128},
      {"complex", DType::Complex128}, {"cdouble", DType::Complex128},
  };
  std::string_view stripped = text;
  if (!stripped.empty() && (stripped[0] == '<' || stripped[0] == '=' || stripped[0] == '|')) {
    stripped.remove_prefix(1);
  }
  for (const Alias& a : kAliases) {
    if (a.name == stripped) return a.dtype;
  }
  for (int i = 0; i < kNumDTypes; ++i) {
    if (kTable[i].name == stripped) return static_cast<DType>(i);
  }
  throw TypeError("data type '" + std::string(text) +
                  "' not understood (cunp supports bool, int8-64, uint8-64, float16/32/64, "
                  "complex64/128)");
}

DType promote_types(DType a, DType b) noexcept {
  if (a == b) return a;
  const DTypeKind ka = kind(a), kb = kind(b);
  if (ka == DTypeKind::Bool) return b;
  if (kb == DTypeKind::Bool) return a;
  const std::size_t sa = itemsize(a), sb = itemsize(b);
  if (ka == kb) return sa >= sb ? a : b;
  // Put the "lower" kind first: signed < unsigned for the mixed-int rule.
  if (is_integer(a) && is_integer(b)) {
    const DType s = ka == DTypeKind::SignedInt ? a : b;  // signed
    const DType u = ka == DTypeKind::SignedInt ? b : a;  // unsigned
    if (itemsize(s) > itemsize(u)) return s;
    if (itemsize(u) == 8) return DType::Float64;  // int64 + uint64 -> float64
    return sized(DTypeKind::SignedInt, itemsize(u) * 2);
  }
  // One side is inexact. Promote the integer (if any) to its float first.
  auto as_inexact = [](DType t) { return is_integer(t) ? float_for_int(itemsize(t)) : t; };
  const DType fa = as_inexact(a), fb = as_inexact(b);
  if (is_complex(fa) || is_complex(fb)) {
    // Complex wins; its precision must hold the other side's float precision.
    const std::size_t ra = is_complex(fa) ? itemsize(fa) / 2 : itemsize(fa);
    const std::size_t rb = is_complex(fb) ? itemsize(fb) / 2 : itemsize(fb);
    return std::max(ra, rb) >= 8 ? DType::Complex128 : DType::Complex64;
  }
  return itemsize(fa) >= itemsize(fb) ? fa : fb;
}

Casting parse_casting(std::string_view text) {
  if (text == "no") return Casting::No;
  if (text == "equiv") return Casting::Equiv;
  if (text == "safe") return Casting::Safe;
  if (text == "same_kind") return Casting::SameKind;
  if (text == "unsafe") return Casting::Unsafe;
  throw ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got '" +
                   std::string(text) + "')");
}

std::string_view name(Casting c) noexcept {
  switch (c) {
    case Casting::No: return "no";
    case Casting::Equiv: return "equiv";
    case Casting::Safe: return "safe";
    case Casting::SameKind: return "same_kind";
    case Casting::Unsafe: return "unsafe";
  }
  return "unsafe";
}

bool can_cast(DType from, DType to, Casting casting) noexcept {
  if (from == to) return true;
  switch (casting) {
    case Casting::No:
    case Casting::Equiv:
      return false;
    case Casting::Safe:
      return promote_types(from, to) == to;
    case Casting::SameKind: {
      if (promote_types(from, to) == to) return true;
      // Within a kind, or down the order bool < int < float < complex. Signed to
      // unsigned is not same-kind; unsigned to signed is.
      auto rank = [](DType t) {
        switch (kind(t)) {
          case DTypeKind::Bool: return 0;
          case DTypeKind::UnsignedInt: return 1;
          case DTypeKind::SignedInt: return 2;
          case DTypeKind::Float: return 3;
          case DTypeKind::Complex: return 4;
        }
        return 0;
      };
      return rank(from) <= rank(to);
    }
    case Casting::Unsafe:
      return true;
  }
  return false;
}

DType result_type(std::span<const DType> strong, std::span<const WeakKind> weak) {
  if (strong.empty() && weak.empty()) throw ValueError("at least one array or dtype is required");
  auto default_of = [](WeakKind k) {
    switch (k) {
      case WeakKind::Bool: return DType::Bool;
      case WeakKind::Int: return kDefaultInt;
      case WeakKind::Float: return kDefaultFloat;
      case WeakKind::Complex: return kDefaultComplex;
    }
    return kDefaultFloat;
  };
  if (strong.empty()) {
    DType r = default_of(weak[0]);
    for (WeakKind k : weak.subspan(1)) r = promote_types(r, default_of(k));
    return r;
  }
  DType r = strong[0];
  for (DType t : strong.subspan(1)) r = promote_types(r, t);
  auto weak_rank = [](WeakKind k) { return static_cast<int>(k); };
  auto strong_rank = [](DType t) {
    switch (kind(t)) {
      case DTypeKind::Bool: return 0;
      case DTypeKind::SignedInt:
      case DTypeKind::UnsignedInt: return 1;
      case DTypeKind::Float: return 2;
      case DTypeKind::Complex: return 3;
    }
    return 0;
  };
  for (WeakKind k : weak) {
    if (weak_rank(k) <= strong_rank(r)) continue;  // a weak scalar never widens its kind
    if (k == WeakKind::Complex && is_floating(r)) {
      r = complex_dtype(r);  // float32 + 1j -> complex64
    } else {
      r = promote_types(r, default_of(k));
    }
  }
  return r;
}

FInfo finfo(DType dt) {
  const DType r = real_dtype(dt);
  if (!is_floating(r)) {
    throw ValueError("data type <class 'numpy." + std::string(name(dt)) + "'> not inexact");
  }
  FInfo f{};
  f.dtype = r;
  auto fill = [&f](int bits, int nmant, int nexp, int minexp, int maxexp, int precision, double eps,
                   double epsneg, double max, double tiny, double sub) {
    f.bits = bits;
    f.nmant = nmant;
    f.nexp = nexp;
    f.minexp = minexp;
    f.maxexp = maxexp;
    f.precision = precision;
    f.eps = eps;
    f.epsneg = epsneg;
    f.max = max;
    f.min = -max;
    f.tiny = tiny;
    f.smallest_normal = tiny;
    f.smallest_subnormal = sub;
    f.resolution = std::pow(10.0, -precision);
    f.machep = -nmant;
    f.negep = -nmant - 1;
    f.iexp = nexp;
  };
  if (r == DType::Float16) {
    fill(16, 10, 5, -14, 16, 3, std::ldexp(1.0, -10), std::ldexp(1.0, -11), 65504.0,
         std::ldexp(1.0, -14), std::ldexp(1.0, -24));
  } else if (r == DType::Float32) {
    fill(32, 23, 8, -126, 128, 6, std::numeric_limits<float>::epsilon(), std::ldexp(1.0, -24),
         std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
         std::numeric_limits<float>::denorm_min());
  } else {
    fill(64, 52, 11, -1022, 1024, 15, std::numeric_limits<double>::epsilon(), std::ldexp(1.0, -53),
         std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
         std::numeric_limits<double>::denorm_min());
  }
  return f;
}

IInfo iinfo(DType dt) {
  if (!is_integer(dt)) {
    throw ValueError("Invalid integer data type '" + std::string(1, kind_char(dt)) + "'.");
  }
  IInfo i{};
  i.dtype = dt;
  i.bits = static_cast<int>(itemsize(dt) * 8);
  if (kind(dt) == DTypeKind::SignedInt) {
    i.min = i.bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (i.bits - 1));
    i.max = (std::uint64_t{1} << (i.bits - 1)) - 1;
  } else {
    i.min = 0;
    i.max = i.bits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << i.bits) - 1;
  }
  return i;
}

float float16_to_float(std::uint16_t bits) noexcept { return ops::half_to_f32(ops::half{bits}); }
std::uint16_t float_to_float16(float value) noexcept { return ops::f32_to_half(value).bits; }

}  // namespace cunp

// src/core/float_digits.hpp — exact decimal digits of binary floats, in NumPy's positional
// and scientific formats (float_digits.cpp, Note [Shortest digits per format]), for
// printing.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "cunp/dtype.hpp"

namespace cunp::detail::print {

// A finite value as mantissa * 2^exponent in the precision of its own format.
struct FloatParts {
  std::uint64_t mantissa = 0;
  int exponent = 0;
  bool unequal_margins = false;  // the gap below is half the gap above (a power of two)
  bool negative = false;
};

// `dt` is Float16, Float32 or Float64: the format `v` (exactly representable) came from.
FloatParts decompose(double v, DType dt);

// How trailing zeros and the decimal point are kept (NumPy's trim 'k', '.', '0', '-').
enum class Trim { Keep, Zeros, LeaveOneZero, DropPoint };

struct FloatStyle {
  int precision = -1;  // -1: as many digits as needed to be unique
  int min_digits = 0;  // digits printed even where fewer would be unique
  Trim trim = Trim::Keep;
  bool sign_plus = false;  // '+' on non-negative values
  int pad_left = -1;       // width of sign and integer part, padded with spaces
  int pad_right = -1;      // width of the fraction (positional only), padded with spaces
  int exp_digits = -1;     // at least this many exponent digits (default 2)
};

// numpy.format_float_positional(x, unique=True, fractional=True, ...).
std::string format_positional(const FloatParts& p, const FloatStyle& st);
// numpy.format_float_scientific(x, unique=True, ...).
std::string format_scientific(const FloatParts& p, const FloatStyle& st);

}  // namespace cunp::detail::print

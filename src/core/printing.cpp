// src/core/printing.cpp — NumPy 2's array printing: exact shortest float digits, the
// per-array element formats, and the nested-bracket layout with wrapping and summaries.
#include "core/printing.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <utility>

namespace cunp::detail {
namespace {

// NumPy's default print options.
constexpr int kPrecision = 8;
constexpr std::int64_t kThreshold = 1000;
constexpr std::int64_t kEdgeItems = 3;
constexpr int kLineWidth = 75;

// ---------------------------------------------------------------------------------
// Exact decimal digits of a binary float.
//
// Note [Shortest digits per format]: NumPy prints the fewest digits that read back
// as the same value *in the array's own format* (float16, float32 or float64) under
// round-to-nearest-even, and rounds to nearest (ties to an even digit) where a
// precision cuts the digits short, or keeps going with exact digits where a minimum
// digit count asks for more. std::to_chars has no float16 and no precision/minimum
// controls on shortest output, so the digits come from an exact big-integer digit
// generator (Steele & White's / Dragon4's scheme).

class BigUInt {
 public:
  explicit BigUInt(std::uint64_t v = 0) {
    while (v != 0) {
      limbs_.push_back(static_cast<std::uint32_t>(v));
      v >>= 32;
    }
  }
  static BigUInt pow2(int n) {
    BigUInt r(1);
    r.shift_left(n);
    return r;
  }
  void shift_left(int bits) {
    if (limbs_.empty() || bits == 0) return;
    const int words = bits / 32, rest = bits % 32;
    if (rest != 0) {
      std::uint32_t carry = 0;
      for (auto& limb : limbs_) {
        const std::uint32_t next = limb >> (32 - rest);
        limb = (limb << rest) | carry;
        carry = next;
      }
      if (carry != 0) limbs_.push_back(carry);
    }
    limbs_.insert(limbs_.begin(), static_cast<std::size_t>(words), 0u);
  }
  void mul_small(std::uint32_t m) {
    std::uint64_t carry = 0;
    for (auto& limb : limbs_) {
      const std::uint64_t t = static_cast<std::uint64_t>(limb) * m + carry;
      limb = static_cast<std::uint32_t>(t);
      carry = t >> 32;
    }
    if (carry != 0) limbs_.push_back(static_cast<std::uint32_t>(carry));
  }
  void mul_pow10(int n) {
    for (; n >= 9; n -= 9) mul_small(1000000000u);
    static constexpr std::uint32_t kSmall[] = {1,      10,      100,      1000,     10000,
                                               100000, 1000000, 10000000, 100000000};
    if (n > 0) mul_small(kSmall[n]);
  }
  void add(const BigUInt& b) {
    if (limbs_.size() < b.limbs_.size()) limbs_.resize(b.limbs_.size(), 0u);
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < limbs_.size(); ++i) {
      const std::uint64_t t = limbs_[i] + carry + (i < b.limbs_.size() ? b.limbs_[i] : 0u);
      limbs_[i] = static_cast<std::uint32_t>(t);
      carry = t >> 32;
    }
    if (carry != 0) limbs_.push_back(static_cast<std::uint32_t>(carry));
  }
  // *this -= b; requires *this >= b.
  void sub(const BigUInt& b) {
    std::int64_t borrow = 0;
    for (std::size_t i = 0; i < limbs_.size(); ++i) {
      std::int64_t t = static_cast<std::int64_t>(limbs_[i]) - borrow -
                       (i < b.limbs_.size() ? static_cast<std::int64_t>(b.limbs_[i]) : 0);
      borrow = t < 0 ? 1 : 0;
      if (t < 0) t += std::int64_t{1} << 32;
      limbs_[i] = static_cast<std::uint32_t>(t);
    }
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
  }
  friend int compare(const BigUInt& a, const BigUInt& b) {
    if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() < b.limbs_.size() ? -1 : 1;
    for (std::size_t i = a.limbs_.size(); i-- > 0;) {
      if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] < b.limbs_[i] ? -1 : 1;
    }
    return 0;
  }

 private:
  std::vector<std::uint32_t> limbs_;  // little-endian 32-bit words, no leading zero words
};

// A finite value as mantissa * 2^exponent in the precision of its own format.
struct FloatParts {
  std::uint64_t mantissa = 0;
  int exponent = 0;
  bool unequal_margins = false;  // the gap below is half the gap above (a power of two)
  bool negative = false;
};

// `dt` is Float16, Float32 or Float64: the format `v` (exactly representable) came from.
FloatParts decompose(double v, DType dt) {
  const int bits = dt == DType::Float16 ? 11 : dt == DType::Float32 ? 24 : 53;
  const int min_exp = dt == DType::Float16 ? -14 : dt == DType::Float32 ? -126 : -1022;
  FloatParts p;
  p.negative = std::signbit(v);
  v = std::fabs(v);
  if (v == 0) return p;
  int e = 0;
  const double frac = std::frexp(v, &e);  // v = frac * 2^e, frac in [0.5, 1)
  if (e - 1 >= min_exp) {
    p.mantissa = static_cast<std::uint64_t>(std::ldexp(frac, bits));
    p.exponent = e - bits;
    p.unequal_margins = p.mantissa == (std::uint64_t{1} << (bits - 1)) && e - 1 > min_exp;
  } else {
    p.exponent = min_exp - bits + 1;
    p.mantissa = static_cast<std::uint64_t>(std::ldexp(v, -p.exponent));
  }
  return p;
}

enum class Cutoff { None, FractionLength, TotalLength };

struct Digits {
  std::string digits;  // no leading zero unless the value rounds to zero
  int exponent = 0;    // the power of ten of the first digit
};

// The shortest digits that identify `p` within its format, cut to `cutoff_number`
// fraction digits (FractionLength) or significant digits (TotalLength) when shorter,
// but never fewer than `min_number` (exact digits continue past the shortest).
Digits dragon4(const FloatParts& p, Cutoff mode, int cutoff_number, int min_number) {
  if (p.mantissa == 0) return {"0", 0};
  BigUInt value(p.mantissa), scale, margin_low, margin_high;
  const int extra = p.unequal_margins ? 2 : 1;  // value and margins share a 2^extra factor
  if (p.exponent > 0) {
    value.shift_left(p.exponent + extra);
    scale = BigUInt(std::uint64_t{1} << extra);
    margin_low = BigUInt::pow2(p.exponent);
  } else {
    value.shift_left(extra);
    scale = BigUInt::pow2(-p.exponent + extra);
    margin_low = BigUInt(1);
  }
  margin_high = margin_low;
  if (p.unequal_margins) margin_high.shift_left(1);

  // A lower bound for the first digit's position, at most one too low.
  const int high_bit = static_cast<int>(std::bit_width(p.mantissa)) - 1;
  int digit_exponent =
      static_cast<int>(std::ceil((high_bit + p.exponent) * 0.30102999566398119521 - 0.69));
  if (mode == Cutoff::FractionLength && digit_exponent <= -cutoff_number) {
    digit_exponent = -cutoff_number + 1;
  }
  if (digit_exponent > 0) {
    scale.mul_pow10(digit_exponent);
  } else if (digit_exponent < 0) {
    value.mul_pow10(-digit_exponent);
    margin_low.mul_pow10(-digit_exponent);
    margin_high.mul_pow10(-digit_exponent);
  }
  if (compare(value, scale) >= 0) {
    ++digit_exponent;
  } else {
    value.mul_small(10);
    margin_low.mul_small(10);
    margin_high.mul_small(10);
  }
  int cutoff_exponent = std::numeric_limits<int>::min();
  int min_exponent = std::numeric_limits<int>::max();
  if (mode == Cutoff::TotalLength) {
    cutoff_exponent = digit_exponent - cutoff_number;
    if (min_number > 0) min_exponent = digit_exponent - min_number;
  } else if (mode == Cutoff::FractionLength) {
    cutoff_exponent = -cutoff_number;
    if (min_number > 0) min_exponent = -min_number;
  }

  // Round-to-nearest-even reads an interval end back as `p` when its mantissa is even.
  const bool even = p.mantissa % 2 == 0;
  Digits out;
  out.exponent = digit_exponent - 1;
  bool low = false, high = false;
  int digit = 0;
  for (;;) {
    --digit_exponent;
    digit = 0;
    while (compare(value, scale) >= 0) {
      value.sub(scale);
      ++digit;
    }
    BigUInt value_high = value;
    value_high.add(margin_high);
    const int vs_low = compare(value, margin_low), vs_high = compare(value_high, scale);
    low = vs_low < 0 || (even && vs_low == 0);
    high = vs_high > 0 || (even && vs_high == 0);
    if (((low || high) && digit_exponent <= min_exponent) || digit_exponent == cutoff_exponent) {
      break;
    }
    out.digits.push_back(static_cast<char>('0' + digit));
    value.mul_small(10);
    margin_low.mul_small(10);
    margin_high.mul_small(10);
  }
  bool round_down = low;
  if (low == high) {  // both neighbours are candidates (or neither): take the nearer
    value.shift_left(1);
    const int c = compare(value, scale);
    round_down = c < 0 || (c == 0 && digit % 2 == 0);
  }
  if (round_down) {
    out.digits.push_back(static_cast<char>('0' + digit));
  } else if (digit < 9) {
    out.digits.push_back(static_cast<char>('0' + digit + 1));
  } else {
    while (!out.digits.empty() && out.digits.back() == '9') out.digits.pop_back();
    if (out.digits.empty()) {
      out.digits = "1";
      ++out.exponent;
    } else {
      ++out.digits.back();
    }
  }
  return out;
}

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

// Finishes the fraction digits of a positional or scientific number per `trim`;
// returns the number of fraction digits left.
int apply_trim(std::string& s, std::string frac, const FloatStyle& st) {
  const int had = static_cast<int>(frac.size());
  if (had > 0) {
    s += '.';
    s += frac;
  } else if (st.trim != Trim::DropPoint) {
    s += '.';
  }
  int n = had;
  if (st.trim == Trim::LeaveOneZero && n == 0) {
    s += '0';
    n = 1;
  } else if (st.trim == Trim::Keep && st.precision > n) {
    s.append(static_cast<std::size_t>(st.precision - n), '0');
    n = st.precision;
  }
  if (st.precision >= 0 && st.trim != Trim::Keep && n > 0) {
    while (s.back() == '0') {
      s.pop_back();
      --n;
    }
    if (s.back() == '.') {
      if (st.trim == Trim::LeaveOneZero) {
        s += '0';
        ++n;
      } else if (st.trim == Trim::DropPoint) {
        s.pop_back();
      }
    }
  }
  return n;
}

// numpy.format_float_positional(x, unique=True, fractional=True, ...).
std::string format_positional(const FloatParts& p, const FloatStyle& st) {
  const Digits d = dragon4(p, st.precision >= 0 ? Cutoff::FractionLength : Cutoff::None,
                           st.precision, st.min_digits);
  std::string whole, frac;
  if (d.exponent >= 0) {
    const auto n_whole = static_cast<std::size_t>(d.exponent) + 1;
    whole = d.digits.substr(0, n_whole);
    if (whole.size() < n_whole) whole.append(n_whole - whole.size(), '0');
    if (d.digits.size() > n_whole) frac = d.digits.substr(n_whole);
  } else {
    whole = "0";
    frac = std::string(static_cast<std::size_t>(-d.exponent - 1), '0') + d.digits;
  }
  std::string s = p.negative ? "-" : st.sign_plus ? "+" : "";
  s += whole;
  const auto head = static_cast<int>(s.size());
  const int n_frac = apply_trim(s, std::move(frac), st);
  if (st.pad_right >= n_frac) {
    if (st.trim == Trim::DropPoint && n_frac == 0) s += ' ';
    s.append(static_cast<std::size_t>(st.pad_right - n_frac), ' ');
  }
  if (st.pad_left > head) s.insert(0, static_cast<std::size_t>(st.pad_left - head), ' ');
  return s;
}

// numpy.format_float_scientific(x, unique=True, ...).
std::string format_scientific(const FloatParts& p, const FloatStyle& st) {
  const Digits d = dragon4(p, st.precision >= 0 ? Cutoff::TotalLength : Cutoff::None,
                           st.precision + 1, st.min_digits + 1);
  std::string s = p.negative ? "-" : st.sign_plus ? "+" : "";
  const std::size_t sign_len = s.size();
  s += d.digits[0];
  apply_trim(s, d.digits.substr(1), st);
  std::string exp = std::to_string(std::abs(d.exponent));
  const int min_exp_digits = st.exp_digits >= 0 ? st.exp_digits : 2;
  if (static_cast<int>(exp.size()) < min_exp_digits)
    exp.insert(0, min_exp_digits - exp.size(), '0');
  s += d.exponent < 0 ? "e-" : "e+";
  s += exp;
  if (st.pad_left > static_cast<int>(1 + sign_len)) {
    s.insert(0, static_cast<std::size_t>(st.pad_left) - 1 - sign_len, ' ');
  }
  return s;
}

// ---------------------------------------------------------------------------------
// Scalars.

// A real element, widened exactly to double; `real_dt` is Float16, Float32 or Float64.
double load_real(const unsigned char* p, DType real_dt) {
  if (real_dt == DType::Float16) {
    std::uint16_t bits;
    std::memcpy(&bits, p, sizeof bits);
    return float16_to_float(bits);
  }
  if (real_dt == DType::Float32) {
    float f;
    std::memcpy(&f, p, sizeof f);
    return f;
  }
  double d;
  std::memcpy(&d, p, sizeof d);
  return d;
}

std::string non_finite_str(double x, bool sign_plus) {
  if (std::isnan(x)) return sign_plus ? "+nan" : "nan";
  return x < 0 ? "-inf" : sign_plus ? "+inf" : "inf";
}

// str() of a finite NumPy float scalar: positional between 1e-4 and a bound that
// depends on the format (about where it stops holding every integer exactly),
// scientific outside.
std::string float_scalar_str(double x, DType real_dt, Trim positional_trim, bool sign_plus) {
  const double upper = real_dt == DType::Float16 ? 1e3 : real_dt == DType::Float32 ? 1e6 : 1e16;
  const double a = std::fabs(x);
  FloatStyle st;
  st.sign_plus = sign_plus;
  const FloatParts parts = decompose(x, real_dt);
  if (a == 0 || (a >= 1e-4 && a < upper)) {
    st.trim = positional_trim;
    return format_positional(parts, st);
  }
  st.trim = Trim::DropPoint;
  return format_scientific(parts, st);
}

std::string complex_scalar_str(double re, double im, DType real_dt) {
  auto part = [&](double x, bool sign_plus) {
    return std::isfinite(x) ? float_scalar_str(x, real_dt, Trim::DropPoint, sign_plus)
                            : non_finite_str(x, sign_plus);
  };
  if (re == 0 && !std::signbit(re)) return part(im, false) + "j";
  return "(" + part(re, false) + part(im, true) + "j)";
}

template <typename T>
T load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Integers widened to the 64-bit type of their signedness.
std::string integer_str(const unsigned char* p, DType dt) {
  switch (dt) {
    case DType::Int8:
      return std::to_string(load<std::int8_t>(p));
    case DType::UInt8:
      return std::to_string(load<std::uint8_t>(p));
    case DType::Int16:
      return std::to_string(load<std::int16_t>(p));
    case DType::UInt16:
      return std::to_string(load<std::uint16_t>(p));
    case DType::Int32:
      return std::to_string(load<std::int32_t>(p));
    case DType::UInt32:
      return std::to_string(load<std::uint32_t>(p));
    case DType::Int64:
      return std::to_string(load<std::int64_t>(p));
    default:
      return std::to_string(load<std::uint64_t>(p));
  }
}

// ---------------------------------------------------------------------------------
// Per-array element formats: one width and one style for all the elements shown.

// NumPy's FloatingFormat for floatmode 'maxprec': scientific notation when the
// magnitudes shown span too much (or get too large or small for the format), else
// positional with at most 8 fraction digits; every element padded to a common width.
class FloatFormat {
 public:
  FloatFormat(const std::vector<double>& data, DType real_dt, bool sign_plus)
      : dt_(real_dt), sign_plus_(sign_plus) {
    std::vector<double> finite;
    bool has_non_finite = false, has_neg_inf = false;
    double max_abs = 0, min_abs = std::numeric_limits<double>::infinity();
    for (double x : data) {
      if (!std::isfinite(x)) {
        has_non_finite = true;
        has_neg_inf = has_neg_inf || (std::isinf(x) && x < 0);
        continue;
      }
      finite.push_back(x);
      if (x != 0) {
        max_abs = std::max(max_abs, std::fabs(x));
        min_abs = std::min(min_abs, std::fabs(x));
      }
    }
    if (max_abs != 0) exp_format_ = needs_exp_format(max_abs, min_abs);

    style_.sign_plus = sign_plus;
    style_.trim = Trim::Zeros;
    style_.precision = kPrecision;
    int max_int = 0, max_frac = 0, max_exp = 0;
    if (finite.empty()) {
      style_.pad_left = style_.pad_right = 0;
    } else if (exp_format_) {
      FloatStyle first{.precision = kPrecision, .trim = Trim::Zeros, .sign_plus = sign_plus};
      for (double x : finite) {
        const std::string s = format_scientific(decompose(x, dt_), first);
        const auto e = static_cast<int>(s.find('e')), dot = static_cast<int>(s.find('.'));
        max_int = std::max(max_int, dot);
        max_frac = std::max(max_frac, e - dot - 1);
        max_exp = std::max(max_exp, static_cast<int>(s.size()) - e - 1);
      }
      style_.exp_digits = max_exp - 1;
      style_.precision = style_.min_digits = max_frac;
      style_.trim = Trim::Keep;
      style_.pad_left = max_int;
      style_.pad_right = style_.exp_digits + 2 + style_.precision;
    } else {
      FloatStyle first{.precision = kPrecision, .trim = Trim::Zeros, .sign_plus = sign_plus};
      for (double x : finite) {
        const std::string s = format_positional(decompose(x, dt_), first);
        const auto dot = static_cast<int>(s.find('.'));
        max_int = std::max(max_int, dot);
        max_frac = std::max(max_frac, static_cast<int>(s.size()) - dot - 1);
      }
      style_.pad_left = max_int;
      style_.pad_right = max_frac;
    }
    if (has_non_finite) {
      // "nan" / "inf" / "-inf" must fit in the width of the numbers.
      const int offset = style_.pad_right + 1;
      const int neg_inf = (sign_plus || has_neg_inf) ? 1 : 0;
      style_.pad_left = std::max({style_.pad_left, 3 - offset, 3 + neg_inf - offset});
    }
  }

  std::string operator()(double x) const {
    if (!std::isfinite(x)) {
      std::string s = non_finite_str(x, sign_plus_);
      const int width = style_.pad_left + style_.pad_right + 1;
      if (static_cast<int>(s.size()) < width) s.insert(0, width - s.size(), ' ');
      return s;
    }
    const FloatParts parts = decompose(x, dt_);
    return exp_format_ ? format_scientific(parts, style_) : format_positional(parts, style_);
  }

 private:
  // The thresholds compare in the array's own format, as NumPy's scalar arithmetic
  // with a weak Python float does (NEP 50): float32(1e-4) is not below float32(1e-4).
  bool needs_exp_format(double max_abs, double min_abs) const {
    switch (dt_) {
      case DType::Float16: {
        const float small = float16_to_float(float_to_float16(1e-4f));
        const float ratio = float16_to_float(
            float_to_float16(static_cast<float>(max_abs) / static_cast<float>(min_abs)));
        return max_abs >= 1e3 || min_abs < small || ratio > 1000.0f;
      }
      case DType::Float32: {
        const auto mx = static_cast<float>(max_abs), mn = static_cast<float>(min_abs);
        return mx >= 1e6f || mn < 1e-4f || mx / mn > 1000.0f;
      }
      default:
        return max_abs >= 1e8 || min_abs < 1e-4 || max_abs / min_abs > 1000.0;
    }
  }

  DType dt_;
  bool sign_plus_;
  bool exp_format_ = false;
  FloatStyle style_;
};

using ElementFormat = std::function<std::string(const unsigned char*)>;

// Builds the format shared by all elements from the elements that will be shown.
ElementFormat make_element_format(const std::vector<const unsigned char*>& shown, DType dt,
                                  bool zero_dim) {
  if (dt == DType::Bool) {
    // " True" lines up with "False", except in a 0-d array.
    std::string true_str = zero_dim ? "True" : " True";
    return [true_str](const unsigned char* p) { return *p != 0 ? true_str : std::string("False"); };
  }
  if (is_integer(dt)) {
    std::size_t width = 0;
    for (const unsigned char* p : shown) width = std::max(width, integer_str(p, dt).size());
    return [dt, width](const unsigned char* p) {
      std::string s = integer_str(p, dt);
      if (s.size() < width) s.insert(0, width - s.size(), ' ');
      return s;
    };
  }
  const DType real_dt = real_dtype(dt);
  const std::size_t part_size = itemsize(real_dt);
  std::vector<double> re, im;
  re.reserve(shown.size());
  for (const unsigned char* p : shown) {
    re.push_back(load_real(p, real_dt));
    if (is_complex(dt)) im.push_back(load_real(p + part_size, real_dt));
  }
  if (!is_complex(dt)) {
    return [fmt = FloatFormat(re, real_dt, false), real_dt](const unsigned char* p) {
      return fmt(load_real(p, real_dt));
    };
  }
  return [re_fmt = FloatFormat(re, real_dt, false), im_fmt = FloatFormat(im, real_dt, true),
          real_dt, part_size](const unsigned char* p) {
    std::string i = im_fmt(load_real(p + part_size, real_dt));
    // The 'j' goes before the padding of the imaginary part.
    const std::size_t end = i.find_last_not_of(' ') + 1;
    i.insert(end, 1, 'j');
    return re_fmt(load_real(p, real_dt)) + i;
  };
}

// ---------------------------------------------------------------------------------
// Layout: nested brackets, line wrapping and summaries.

std::string rstrip(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

class ArrayPrinter {
 public:
  ArrayPrinter(const unsigned char* data, const std::vector<std::int64_t>& shape, DType dt,
               std::string separator)
      : data_(data), shape_(shape), separator_(std::move(separator)) {
    strides_.assign(shape.size(), static_cast<std::int64_t>(itemsize(dt)));
    for (std::size_t i = shape.size(); i-- > 1;) strides_[i - 1] = strides_[i] * shape[i];
    std::int64_t size = 1;
    for (std::int64_t n : shape) size *= n;
    summarize_ = size > kThreshold;
    std::vector<const unsigned char*> shown;
    collect_shown(data_, 0, shown);
    format_ = make_element_format(shown, dt, shape.empty());
  }

  // `prefix_len` columns precede the opening bracket on the first line.
  std::string print(int line_width, std::size_t prefix_len) const {
    return recurse(data_, 0, std::string(prefix_len + 1, ' '), line_width);
  }

 private:
  bool summarized(std::size_t axis) const { return summarize_ && shape_[axis] > 2 * kEdgeItems; }

  void collect_shown(const unsigned char* p, std::size_t axis,
                     std::vector<const unsigned char*>& out) const {
    if (axis == shape_.size()) {
      out.push_back(p);
      return;
    }
    const std::int64_t n = shape_[axis];
    for (std::int64_t i = 0; i < n; ++i) {
      if (summarized(axis) && i == kEdgeItems) i = n - kEdgeItems;
      collect_shown(p + i * strides_[axis], axis + 1, out);
    }
  }

  // Appends `word` to `line`, first moving `line` into `s` when the word would pass
  // `width` and a new line would help.
  static void extend_line(std::string& s, std::string& line, const std::string& word, int width,
                          const std::string& next_prefix) {
    if (static_cast<int>(line.size() + word.size()) > width && line.size() > next_prefix.size()) {
      s += rstrip(line) + "\n";
      line = next_prefix;
    }
    line += word;
  }

  std::string recurse(const unsigned char* p, std::size_t axis, const std::string& indent,
                      int width) const {
    if (axis == shape_.size()) return format_(p);
    const std::string next_indent = indent + " ";
    const int next_width = width - 1;  // room for the closing ']'
    const std::int64_t n = shape_[axis];
    const bool summary = summarized(axis);
    const std::int64_t leading = summary ? kEdgeItems : 0;
    const std::int64_t trailing = summary ? kEdgeItems : n;
    auto item = [&](std::int64_t i) {
      return recurse(p + i * strides_[axis], axis + 1, next_indent, next_width);
    };

    std::string s;
    if (axis + 1 == shape_.size()) {
      const int elem_width = width - std::max<int>(static_cast<int>(rstrip(separator_).size()), 1);
      std::string line = indent;
      for (std::int64_t i = 0; i < leading; ++i) {
        extend_line(s, line, item(i), elem_width, indent);
        line += separator_;
      }
      if (summary) {
        extend_line(s, line, "...", elem_width, indent);
        line += separator_;
      }
      for (std::int64_t i = trailing; i > 1; --i) {
        extend_line(s, line, item(n - i), elem_width, indent);
        line += separator_;
      }
      extend_line(s, line, item(n - 1), elem_width, indent);
      s += line;
    } else {
      const std::string line_sep = rstrip(separator_) + std::string(shape_.size() - axis - 1, '\n');
      for (std::int64_t i = 0; i < leading; ++i) s += indent + item(i) + line_sep;
      if (summary) s += indent + "..." + line_sep;
      for (std::int64_t i = trailing; i > 1; --i) s += indent + item(n - i) + line_sep;
      s += indent + item(n - 1);
    }
    return "[" + s.substr(indent.size()) + "]";
  }

  const unsigned char* data_;
  std::vector<std::int64_t> shape_;
  std::vector<std::int64_t> strides_;  // bytes, C order
  std::string separator_;
  bool summarize_ = false;
  ElementFormat format_;
};

std::string shape_str(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + (shape.size() == 1 ? ",)" : ")");
}

// The dtypes a repr leaves implicit because Python values of that kind produce them.
bool dtype_is_implied(DType dt) {
  return dt == DType::Bool || dt == DType::Int64 || dt == DType::Float64 || dt == DType::Complex128;
}

}  // namespace

std::string format_scalar(const void* data, DType dtype) {
  const auto* p = static_cast<const unsigned char*>(data);
  if (dtype == DType::Bool) return *p != 0 ? "True" : "False";
  if (is_integer(dtype)) return integer_str(p, dtype);
  const DType real_dt = real_dtype(dtype);
  if (is_complex(dtype)) {
    return complex_scalar_str(load_real(p, real_dt), load_real(p + itemsize(real_dt), real_dt),
                              real_dt);
  }
  const double x = load_real(p, real_dt);
  return std::isfinite(x) ? float_scalar_str(x, real_dt, Trim::LeaveOneZero, false)
                          : non_finite_str(x, false);
}

std::string format_array(const void* data, const std::vector<std::int64_t>& shape, DType dtype,
                         bool repr) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::int64_t size = 1;
  for (std::int64_t n : shape) size *= n;
  if (!repr) {
    if (shape.empty()) return format_scalar(data, dtype);
    if (size == 0) return "[]";
    return ArrayPrinter(p, shape, dtype, " ").print(kLineWidth, 0);
  }

  const std::string prefix = "array(";
  // The closing ")" is kept inside the line width.
  const std::string body =
      size == 0 ? "[]" : ArrayPrinter(p, shape, dtype, ", ").print(kLineWidth - 1, prefix.size());
  std::vector<std::string> extras;
  if ((size == 0 && shape.size() != 1) || size > kThreshold)
    extras.push_back("shape=" + shape_str(shape));
  if (!dtype_is_implied(dtype) || size == 0) extras.push_back("dtype=" + std::string(name(dtype)));
  if (extras.empty()) return prefix + body + ")";

  const std::string head = prefix + body + ",";
  std::string tail;
  for (const std::string& e : extras) tail += (tail.empty() ? "" : ", ") + e;
  tail += ")";
  const std::size_t line_start = head.rfind('\n') == std::string::npos ? 0 : head.rfind('\n') + 1;
  const std::size_t last_line = head.size() - line_start;
  const bool wrap = last_line + tail.size() + 1 > static_cast<std::size_t>(kLineWidth);
  return head + (wrap ? "\n" + std::string(prefix.size(), ' ') : " ") + tail;
}

}  // namespace cunp::detail

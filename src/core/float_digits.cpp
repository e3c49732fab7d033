// src/core/float_digits.cpp — see float_digits.hpp.
#include "core/float_digits.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <utility>

namespace cunp::detail::print {
namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

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

}  // namespace cunp::detail::print

// src/core/printing.cpp — NumPy 2's array printing: the per-array element formats, and the
// nested-bracket layout with wrapping and summaries (float digits: float_digits.cpp).
#include "core/printing.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <utility>

#include "core/float_digits.hpp"

namespace cunp::detail {
namespace {

// NumPy's default print options.
constexpr int kPrecision = 8;
constexpr std::int64_t kThreshold = 1000;
constexpr std::int64_t kEdgeItems = 3;
constexpr int kLineWidth = 75;

using print::decompose;
using print::FloatParts;
using print::FloatStyle;
using print::format_positional;
using print::format_scientific;
using print::Trim;

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

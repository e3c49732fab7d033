// src/ops/ufunc_compare.h — comparisons, logical operations and floating-point
// classification. Complex values compare lexicographically as NumPy does (a NaN in
// either imaginary part makes the real-part comparison false).
#pragma once

#include "cast.h"
#include "real_math.h"

namespace cunp {
namespace ops {

namespace detail {
template <typename T> CUNP_HD bool complex_lt(complex<T> a, complex<T> b) {
  return (a.re < b.re && !fm::isnan(a.im) && !fm::isnan(b.im)) || (a.re == b.re && a.im < b.im);
}
template <typename T> CUNP_HD bool complex_lte(complex<T> a, complex<T> b) {
  return (a.re < b.re && !fm::isnan(a.im) && !fm::isnan(b.im)) || (a.re == b.re && a.im <= b.im);
}
// Truth value of an element (complex: either part non-zero; NaN is true).
template <typename T> CUNP_HD bool truth(T a) { return a != 0; }
CUNP_HD bool truth(bool a) { return a; }
template <typename T> CUNP_HD bool truth(complex<T> a) { return a.re != 0 || a.im != 0; }
}  // namespace detail

// Exact three-way comparison of an int64 and a uint64 (-1, 0, 1): the loops
// "lL->?" and "Ll->?" compare mixed 64-bit integers without going through float64.
CUNP_HD int compare_i64_u64(i64 a, u64 b) {
  if (a < 0) return -1;
  const u64 ua = static_cast<u64>(a);
  return ua < b ? -1 : (ua == b ? 0 : 1);
}
#define CUNP_MIXED_COMPARE(EXPR)                                                               \
  CUNP_HD bool operator()(i64 a, u64 b) const { const int c = compare_i64_u64(a, b); return EXPR; } \
  CUNP_HD bool operator()(u64 a, i64 b) const { const int c = -compare_i64_u64(b, a); return EXPR; }

struct equal {
  CUNP_MIXED_COMPARE(c == 0)
  template <typename T> CUNP_HD bool operator()(T a, T b) const { return a == b; }
};
struct not_equal {
  CUNP_MIXED_COMPARE(c != 0)
  template <typename T> CUNP_HD bool operator()(T a, T b) const { return a != b; }
};
struct less {
  CUNP_MIXED_COMPARE(c < 0)
  template <typename T> CUNP_HD bool operator()(T a, T b) const { return a < b; }
  template <typename T> CUNP_HD bool operator()(complex<T> a, complex<T> b) const { return detail::complex_lt(a, b); }
};
struct less_equal {
  CUNP_MIXED_COMPARE(c <= 0)
  template <typename T> CUNP_HD bool operator()(T a, T b) const { return a <= b; }
  template <typename T> CUNP_HD bool operator()(complex<T> a, complex<T> b) const { return detail::complex_lte(a, b); }
};
struct greater {
  CUNP_MIXED_COMPARE(c > 0)
  template <typename T> CUNP_HD bool operator()(T a, T b) const { return b < a; }
  template <typename T> CUNP_HD bool operator()(complex<T> a, complex<T> b) const { return detail::complex_lt(b, a); }
};
struct greater_equal {
  CUNP_MIXED_COMPARE(c >= 0)
  template <typename T> CUNP_HD bool operator()(T a, T b) const { return b <= a; }
  template <typename T> CUNP_HD bool operator()(complex<T> a, complex<T> b) const { return detail::complex_lte(b, a); }
};

struct logical_and {
  template <typename T> CUNP_HD bool operator()(T a, T b) const { return detail::truth(a) && detail::truth(b); }
};
struct logical_or {
  template <typename T> CUNP_HD bool operator()(T a, T b) const { return detail::truth(a) || detail::truth(b); }
};
struct logical_xor {
  template <typename T> CUNP_HD bool operator()(T a, T b) const { return detail::truth(a) != detail::truth(b); }
};
struct logical_not {
  template <typename T> CUNP_HD bool operator()(T a) const { return !detail::truth(a); }
};

// isnan/isinf/isfinite: integers and booleans are never NaN or infinite; a complex
// value is NaN (infinite) when either part is, finite when both are.
struct isnan {
  template <typename T> CUNP_HD bool operator()(T a) const {
    if constexpr (is_float<T>::value) return fm::isnan(a);
    else return false;
  }
  template <typename T> CUNP_HD bool operator()(complex<T> a) const { return fm::isnan(a.re) || fm::isnan(a.im); }
};
struct isinf {
  template <typename T> CUNP_HD bool operator()(T a) const {
    if constexpr (is_float<T>::value) return fm::isinf(a);
    else return false;
  }
  template <typename T> CUNP_HD bool operator()(complex<T> a) const { return fm::isinf(a.re) || fm::isinf(a.im); }
};
struct isfinite {
  template <typename T> CUNP_HD bool operator()(T a) const {
    if constexpr (is_float<T>::value) return fm::isfinite(a);
    else return true;
  }
  template <typename T> CUNP_HD bool operator()(complex<T> a) const { return fm::isfinite(a.re) && fm::isfinite(a.im); }
};

// signbit: the sign bit itself, so -0.0 and -nan are negative.
struct signbit {
  template <typename T> CUNP_HD bool operator()(T a) const { return fm::signbit(a); }
};

}  // namespace ops
}  // namespace cunp

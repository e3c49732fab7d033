// src/ops/ufunc_bits.h — bitwise ufuncs, shifts, gcd and lcm on booleans and integers.
// Shifts follow NumPy: a count outside [0, bit width) shifts everything out (0, or -1
// for a right shift of a negative value).
#pragma once

#include "cast.h"
#include "real_math.h"

namespace cunp {
namespace ops {

struct bitwise_and {
  CUNP_HD bool operator()(bool a, bool b) const { return a && b; }
  template <typename T> CUNP_HD T operator()(T a, T b) const { return static_cast<T>(a & b); }
};
struct bitwise_or {
  CUNP_HD bool operator()(bool a, bool b) const { return a || b; }
  template <typename T> CUNP_HD T operator()(T a, T b) const { return static_cast<T>(a | b); }
};
struct bitwise_xor {
  CUNP_HD bool operator()(bool a, bool b) const { return a != b; }
  template <typename T> CUNP_HD T operator()(T a, T b) const { return static_cast<T>(a ^ b); }
};
struct invert {
  CUNP_HD bool operator()(bool a) const { return !a; }
  template <typename T> CUNP_HD T operator()(T a) const { return static_cast<T>(~a); }
};

namespace detail {
// True when a shift count leaves no bit of a T: negative or at least the bit width.
template <typename T> CUNP_HD bool shift_out_of_range(T b) {
  using U = typename int_traits<T>::unsigned_type;
  if constexpr (int_traits<T>::is_signed) {
    if (b < T(0)) return true;
  }
  return static_cast<U>(b) >= static_cast<U>(int_traits<T>::bits);
}
}  // namespace detail

struct left_shift {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    using W = typename int_traits<T>::wide_unsigned;
    if (detail::shift_out_of_range(b)) return T(0);
    return static_cast<T>(static_cast<W>(a) << static_cast<int>(b));
  }
};

struct right_shift {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    if (detail::shift_out_of_range(b)) {
      if constexpr (int_traits<T>::is_signed) return a < 0 ? T(-1) : T(0);
      else return T(0);
    }
    return static_cast<T>(a >> static_cast<int>(b));  // arithmetic for signed values
  }
};

namespace detail {
template <typename T> CUNP_HD T gcd_abs(T a, T b) {
  // gcd of |a| and |b| in the unsigned type, so |MIN| is representable.
  using U = typename int_traits<T>::unsigned_type;
  U x, y;
  if constexpr (int_traits<T>::is_signed) {
    x = a < 0 ? static_cast<U>(U(0) - static_cast<U>(a)) : static_cast<U>(a);
    y = b < 0 ? static_cast<U>(U(0) - static_cast<U>(b)) : static_cast<U>(b);
  } else {
    x = a;
    y = b;
  }
  while (y != 0) {
    const U r = static_cast<U>(x % y);
    x = y;
    y = r;
  }
  return static_cast<T>(x);
}
}  // namespace detail

// gcd is non-negative (except gcd(MIN, 0) = MIN, which wraps); lcm(a, 0) = 0.
struct gcd {
  template <typename T> CUNP_HD T operator()(T a, T b) const { return detail::gcd_abs(a, b); }
};
struct lcm {
  template <typename T> CUNP_HD T operator()(T a, T b) const {
    const T g = detail::gcd_abs(a, b);
    if (g == 0) return T(0);
    using U = typename int_traits<T>::unsigned_type;
    U x, y;
    if constexpr (int_traits<T>::is_signed) {
      x = a < 0 ? static_cast<U>(U(0) - static_cast<U>(a)) : static_cast<U>(a);
      y = b < 0 ? static_cast<U>(U(0) - static_cast<U>(b)) : static_cast<U>(b);
    } else {
      x = a;
      y = b;
    }
    return static_cast<T>(static_cast<U>(static_cast<U>(x / static_cast<U>(g)) * y));
  }
};

}  // namespace ops
}  // namespace cunp

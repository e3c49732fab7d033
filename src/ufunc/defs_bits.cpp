// src/ufunc/defs_bits.cpp — bitwise ufuncs, shifts, gcd and lcm (src/ops/ufunc_bits.h),
// with NumPy 2's loops restricted to cunp's dtypes.
#include "ops/ufunc_bits.h"
#include "ufunc/defs_util.hpp"

namespace cunp::ufunc {

using namespace defs;

void register_bits() {
  {
    Builder b = define("bitwise_and", 2, 1, "cunp::ops::bitwise_and", kBits, Identity::MinusOne);
    binary<ops::bitwise_and>(b, bools{});
    binary<ops::bitwise_and>(b, ints{});
  }
  {
    Builder b = define("bitwise_or", 2, 1, "cunp::ops::bitwise_or", kBits, Identity::Zero);
    binary<ops::bitwise_or>(b, bools{});
    binary<ops::bitwise_or>(b, ints{});
  }
  {
    Builder b = define("bitwise_xor", 2, 1, "cunp::ops::bitwise_xor", kBits, Identity::Zero);
    binary<ops::bitwise_xor>(b, bools{});
    binary<ops::bitwise_xor>(b, ints{});
  }
  {
    Builder b = define("invert", 1, 1, "cunp::ops::invert", kBits);
    unary<ops::invert>(b, bools{});
    unary<ops::invert>(b, ints{});
    alias("bitwise_not", "invert");
    alias("bitwise_invert", "invert");
  }
  {
    Builder b = define("left_shift", 2, 1, "cunp::ops::left_shift", kBits);
    binary<ops::left_shift>(b, ints{});
    alias("bitwise_left_shift", "left_shift");
  }
  {
    Builder b = define("right_shift", 2, 1, "cunp::ops::right_shift", kBits);
    binary<ops::right_shift>(b, ints{});
    alias("bitwise_right_shift", "right_shift");
  }
  {
    Builder b = define("gcd", 2, 1, "cunp::ops::gcd", kBits, Identity::Zero, Resolution::Uniform);
    binary<ops::gcd>(b, ints{});
  }
  {
    Builder b = define("lcm", 2, 1, "cunp::ops::lcm", kBits, Identity::None, Resolution::Uniform);
    binary<ops::lcm>(b, ints{});
  }
}

}  // namespace cunp::ufunc

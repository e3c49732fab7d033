// src/ufunc/defs_arith.cpp — arithmetic ufuncs (src/ops/ufunc_arith.h), with NumPy 2's
// loops restricted to cunp's dtypes. Signatures NumPy lists twice (its 'q'/'Q' loops
// equal 'l'/'L' on LP64 Linux, and a few float loops appear again with another
// implementation) are listed once: the first always wins.
#include "ops/ufunc_arith.h"
#include "ufunc/defs_util.hpp"

namespace cunp::ufunc {

using namespace defs;

void register_arith() {
  using ops::c128;
  using ops::c64;
  using ops::f32;
  using ops::f64;
  {
    Builder b = define("add", 2, 1, "cunp::ops::add", kArith, Identity::Zero);
    binary<ops::add>(b, bools{});
    binary<ops::add>(b, ints{});
    binary<ops::add>(b, floats{});
    binary<ops::add>(b, complexes{});
  }
  {
    Builder b = define("subtract", 2, 1, "cunp::ops::subtract", kArith, Identity::None, Resolution::Uniform);
    binary<ops::subtract>(b, ints{});
    binary<ops::subtract>(b, floats{});
    binary<ops::subtract>(b, complexes{});
  }
  {
    Builder b = define("multiply", 2, 1, "cunp::ops::multiply", kArith, Identity::One);
    binary<ops::multiply>(b, bools{});
    binary<ops::multiply>(b, ints{});
    binary<ops::multiply>(b, floats{});
    binary<ops::multiply>(b, complexes{});
  }
  {
    // Note: NumPy resolves integer and boolean inputs of true_divide to "dd->d"
    // (its true-division type resolver), not to the first safe float loop.
    Builder b = define("true_divide", 2, 1, "cunp::ops::true_divide", kArith, Identity::None, Resolution::TrueDivide);
    binary<ops::true_divide>(b, floats{});
    binary<ops::true_divide>(b, complexes{});
    alias("divide", "true_divide");
  }
  {
    Builder b = define("floor_divide", 2, 1, "cunp::ops::floor_divide", kArith);
    binary<ops::floor_divide>(b, ints{});
    binary<ops::floor_divide>(b, floats{});
  }
  {
    Builder b = define("remainder", 2, 1, "cunp::ops::remainder", kArith);
    binary<ops::remainder>(b, ints{});
    binary<ops::remainder>(b, floats{});
    alias("mod", "remainder");
  }
  {
    Builder b = define("fmod", 2, 1, "cunp::ops::fmod", kArith);
    binary<ops::fmod>(b, ints{});
    binary<ops::fmod>(b, floats{});
  }
  {
    Builder b = define("divmod", 2, 2, "cunp::ops::divmod", kArith);
    binary_2out<ops::divmod>(b, ints{});
    binary_2out<ops::divmod>(b, floats{});
  }
  {
    Builder b = define("power", 2, 1, "cunp::ops::power", kArith);
    binary<ops::power>(b, ints{});
    binary<ops::power>(b, floats{});
    binary<ops::power>(b, complexes{});
    alias("pow", "power");
  }
  {
    Builder b = define("float_power", 2, 1, "cunp::ops::power", kArith);
    binary<ops::power>(b, types<f64, c128>{});
  }
  {
    Builder b = define("negative", 1, 1, "cunp::ops::negative", kArith, Identity::None, Resolution::Uniform);
    unary<ops::negative>(b, ints{});
    unary<ops::negative>(b, floats{});
    unary<ops::negative>(b, complexes{});
  }
  {
    Builder b = define("positive", 1, 1, "cunp::ops::positive", kArith, Identity::None, Resolution::Uniform);
    unary<ops::positive>(b, ints{});
    unary<ops::positive>(b, floats{});
    unary<ops::positive>(b, complexes{});
  }
  {
    Builder b = define("absolute", 1, 1, "cunp::ops::absolute", kArith);
    unary<ops::absolute>(b, bools{});
    unary<ops::absolute>(b, ints{});
    unary<ops::absolute>(b, floats{});
    b.loop<ops::absolute, f32, c64>();
    b.loop<ops::absolute, f64, c128>();
    alias("abs", "absolute");
  }
  {
    Builder b = define("fabs", 1, 1, "cunp::ops::fabs", kArith);
    unary<ops::fabs>(b, floats{});
  }
  {
    Builder b = define("sign", 1, 1, "cunp::ops::sign", kArith, Identity::None, Resolution::Uniform);
    unary<ops::sign>(b, ints{});
    unary<ops::sign>(b, floats{});
    unary<ops::sign>(b, complexes{});
  }
  {
    Builder b = define("square", 1, 1, "cunp::ops::square", kArith);
    unary<ops::square>(b, ints{});
    unary<ops::square>(b, floats{});
    unary<ops::square>(b, complexes{});
  }
  {
    Builder b = define("reciprocal", 1, 1, "cunp::ops::reciprocal", kArith);
    unary<ops::reciprocal>(b, ints{});
    unary<ops::reciprocal>(b, floats{});
    unary<ops::reciprocal>(b, complexes{});
  }
  {
    Builder b = define("conjugate", 1, 1, "cunp::ops::conjugate", kArith);
    unary<ops::conjugate>(b, ints{});
    unary<ops::conjugate>(b, floats{});
    unary<ops::conjugate>(b, complexes{});
    alias("conj", "conjugate");
  }
  // maximum/minimum/fmax/fmin: "??->?", integers, floats, complex.
  {
    Builder b = define("maximum", 2, 1, "cunp::ops::maximum", kArith);
    binary<ops::maximum>(b, bools{});
    binary<ops::maximum>(b, ints{});
    b.loop<ops::maximum_f16, ops::half, ops::half, ops::half>();  // ties: see ufunc_arith.h
    binary<ops::maximum>(b, types<f32, f64>{});
    binary<ops::maximum>(b, complexes{});
  }
  {
    Builder b = define("minimum", 2, 1, "cunp::ops::minimum", kArith);
    binary<ops::minimum>(b, bools{});
    binary<ops::minimum>(b, ints{});
    b.loop<ops::minimum_f16, ops::half, ops::half, ops::half>();  // ties: see ufunc_arith.h
    binary<ops::minimum>(b, types<f32, f64>{});
    binary<ops::minimum>(b, complexes{});
  }
  {
    Builder b = define("fmax", 2, 1, "cunp::ops::fmax", kArith);
    binary<ops::fmax>(b, bools{});
    binary<ops::fmax>(b, ints{});
    b.loop<ops::fmax_f16, ops::half, ops::half, ops::half>();  // ties: see ufunc_arith.h
    binary<ops::fmax>(b, types<f32, f64>{});
    binary<ops::fmax>(b, complexes{});
  }
  {
    Builder b = define("fmin", 2, 1, "cunp::ops::fmin", kArith);
    binary<ops::fmin>(b, bools{});
    binary<ops::fmin>(b, ints{});
    b.loop<ops::fmin_f16, ops::half, ops::half, ops::half>();  // ties: see ufunc_arith.h
    binary<ops::fmin>(b, types<f32, f64>{});
    binary<ops::fmin>(b, complexes{});
  }
}

}  // namespace cunp::ufunc

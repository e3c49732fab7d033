// src/ufunc/defs_math.cpp — transcendental and floating-point ufuncs
// (src/ops/ufunc_math.h), with NumPy 2's loops restricted to cunp's dtypes; signatures
// NumPy lists twice are listed once (the first always wins).
#include "ops/ufunc_math.h"
#include "ufunc/defs_util.hpp"

namespace cunp::ufunc {

using namespace defs;

namespace {

// "e->e f->f d->d F->F D->D": the functions with real and complex loops.
template <typename Op>
void real_and_complex(const char* name, const char* functor) {
  Builder b = define(name, 1, 1, functor, kMath);
  unary<Op>(b, floats{});
  unary<Op>(b, complexes{});
}

// "e->e f->f d->d".
template <typename Op>
void real_unary(const char* name, const char* functor) {
  Builder b = define(name, 1, 1, functor, kMath);
  unary<Op>(b, floats{});
}

// "ee->e ff->f dd->d".
template <typename Op>
void real_binary(const char* name, const char* functor, Identity identity = Identity::None) {
  Builder b = define(name, 2, 1, functor, kMath, identity);
  binary<Op>(b, floats{});
}

// "? b B h H i I l L e f d": rounding, which leaves booleans and integers unchanged.
template <typename Op>
void rounding(const char* name, const char* functor) {
  Builder b = define(name, 1, 1, functor, kMath);
  unary<Op>(b, bools{});
  unary<Op>(b, ints{});
  unary<Op>(b, floats{});
}

}  // namespace

void register_math() {
  using ops::f32;
  using ops::f64;
  using ops::half;
  using ops::i32;
  using ops::i64;

  real_and_complex<ops::sin>("sin", "cunp::ops::sin");
  real_and_complex<ops::cos>("cos", "cunp::ops::cos");
  real_and_complex<ops::tan>("tan", "cunp::ops::tan");
  real_and_complex<ops::arcsin>("arcsin", "cunp::ops::arcsin");
  real_and_complex<ops::arccos>("arccos", "cunp::ops::arccos");
  real_and_complex<ops::arctan>("arctan", "cunp::ops::arctan");
  real_and_complex<ops::sinh>("sinh", "cunp::ops::sinh");
  real_and_complex<ops::cosh>("cosh", "cunp::ops::cosh");
  real_and_complex<ops::tanh>("tanh", "cunp::ops::tanh");
  real_and_complex<ops::arcsinh>("arcsinh", "cunp::ops::arcsinh");
  real_and_complex<ops::arccosh>("arccosh", "cunp::ops::arccosh");
  real_and_complex<ops::arctanh>("arctanh", "cunp::ops::arctanh");
  alias("asin", "arcsin");
  alias("acos", "arccos");
  alias("atan", "arctan");
  alias("asinh", "arcsinh");
  alias("acosh", "arccosh");
  alias("atanh", "arctanh");

  real_and_complex<ops::exp>("exp", "cunp::ops::exp");
  real_and_complex<ops::exp2>("exp2", "cunp::ops::exp2");
  real_and_complex<ops::expm1>("expm1", "cunp::ops::expm1");
  real_and_complex<ops::log>("log", "cunp::ops::log");
  real_and_complex<ops::log2>("log2", "cunp::ops::log2");
  real_and_complex<ops::log10>("log10", "cunp::ops::log10");
  real_and_complex<ops::log1p>("log1p", "cunp::ops::log1p");
  real_and_complex<ops::sqrt>("sqrt", "cunp::ops::sqrt");
  real_unary<ops::cbrt>("cbrt", "cunp::ops::cbrt");

  real_binary<ops::hypot>("hypot", "cunp::ops::hypot", Identity::Zero);
  real_binary<ops::arctan2>("arctan2", "cunp::ops::arctan2");
  alias("atan2", "arctan2");
  real_binary<ops::logaddexp>("logaddexp", "cunp::ops::logaddexp", Identity::MinusInf);
  real_binary<ops::logaddexp2>("logaddexp2", "cunp::ops::logaddexp2", Identity::MinusInf);

  real_unary<ops::deg2rad>("deg2rad", "cunp::ops::deg2rad");
  real_unary<ops::rad2deg>("rad2deg", "cunp::ops::rad2deg");
  real_unary<ops::rad2deg>("degrees", "cunp::ops::rad2deg");
  real_unary<ops::deg2rad>("radians", "cunp::ops::deg2rad");

  rounding<ops::floor>("floor", "cunp::ops::floor");
  rounding<ops::ceil>("ceil", "cunp::ops::ceil");
  rounding<ops::trunc>("trunc", "cunp::ops::trunc");
  real_and_complex<ops::rint>("rint", "cunp::ops::rint");

  real_binary<ops::copysign>("copysign", "cunp::ops::copysign");
  real_binary<ops::heaviside>("heaviside", "cunp::ops::heaviside");
  {
    // Note [float16 loops that need half precision] (src/ops/ufunc_math.h): the 'e'
    // loop runs nextafter_f16, not the ufunc's functor.
    Builder b = define("nextafter", 2, 1, "cunp::ops::nextafter", kMath);
    b.loop<ops::nextafter_f16, half, half, half>();
    b.loop<ops::nextafter, f32, f32, f32>();
    b.loop<ops::nextafter, f64, f64, f64>();
  }
  {
    Builder b = define("spacing", 1, 1, "cunp::ops::spacing", kMath);
    b.loop<ops::spacing_f16, half, half>();
    b.loop<ops::spacing, f32, f32>();
    b.loop<ops::spacing, f64, f64>();
  }
  {
    // The exponent's dtype differs in kind from the mantissa's: each operand is
    // matched on its own.
    Builder b = define("ldexp", 2, 1, "cunp::ops::ldexp", kMath, Identity::None, Resolution::PerOperand);
    b.loop<ops::ldexp, half, half, i32>();
    b.loop<ops::ldexp, f32, f32, i32>();
    b.loop<ops::ldexp, half, half, i64>();
    b.loop<ops::ldexp, f32, f32, i64>();
    b.loop<ops::ldexp, f64, f64, i32>();
    b.loop<ops::ldexp, f64, f64, i64>();
  }
  {
    Builder b = define("frexp", 1, 2, "cunp::ops::frexp", kMath);
    b.loop2<ops::frexp, half, i32, half>();
    b.loop2<ops::frexp, f32, i32, f32>();
    b.loop2<ops::frexp, f64, i32, f64>();
  }
  {
    Builder b = define("modf", 1, 2, "cunp::ops::modf", kMath);
    unary_2out<ops::modf>(b, floats{});
  }
}

}  // namespace cunp::ufunc

// src/ufunc/defs_compare.cpp — comparisons, logical ufuncs and floating-point
// classification (src/ops/ufunc_compare.h), with NumPy 2's loops restricted to
// cunp's dtypes.
#include "ops/ufunc_compare.h"
#include "ufunc/defs_util.hpp"

namespace cunp::ufunc {

using namespace defs;

namespace {

// "??->? bb->? ... DD->?": every dtype, boolean result.
template <typename Op, bool Mixed64 = false>
void all_binary_bool(const char* name, const char* functor, Identity identity = Identity::None) {
  Builder b = define(name, 2, 1, functor, kCompare, identity);
  binary_to<Op, bool>(b, bools{});
  binary_to<Op, bool>(b, ints{});
  if constexpr (Mixed64) {  // NumPy's "qQ->?" and "Qq->?"
    b.loop<Op, bool, ops::i64, ops::u64>();
    b.loop<Op, bool, ops::u64, ops::i64>();
  }
  binary_to<Op, bool>(b, floats{});
  binary_to<Op, bool>(b, complexes{});
}

// "?->? b->? ... D->?".
template <typename Op>
void all_unary_bool(const char* name, const char* functor) {
  Builder b = define(name, 1, 1, functor, kCompare);
  unary_to<Op, bool>(b, bools{});
  unary_to<Op, bool>(b, ints{});
  unary_to<Op, bool>(b, floats{});
  unary_to<Op, bool>(b, complexes{});
}

}  // namespace

void register_compare() {
  all_binary_bool<ops::equal, true>("equal", "cunp::ops::equal");
  all_binary_bool<ops::not_equal, true>("not_equal", "cunp::ops::not_equal");
  all_binary_bool<ops::less, true>("less", "cunp::ops::less");
  all_binary_bool<ops::less_equal, true>("less_equal", "cunp::ops::less_equal");
  all_binary_bool<ops::greater, true>("greater", "cunp::ops::greater");
  all_binary_bool<ops::greater_equal, true>("greater_equal", "cunp::ops::greater_equal");

  all_binary_bool<ops::logical_and>("logical_and", "cunp::ops::logical_and", Identity::True);
  all_binary_bool<ops::logical_or>("logical_or", "cunp::ops::logical_or", Identity::False);
  all_binary_bool<ops::logical_xor>("logical_xor", "cunp::ops::logical_xor", Identity::False);
  all_unary_bool<ops::logical_not>("logical_not", "cunp::ops::logical_not");

  all_unary_bool<ops::isnan>("isnan", "cunp::ops::isnan");
  all_unary_bool<ops::isinf>("isinf", "cunp::ops::isinf");
  all_unary_bool<ops::isfinite>("isfinite", "cunp::ops::isfinite");
  {
    Builder b = define("signbit", 1, 1, "cunp::ops::signbit", kCompare);
    unary_to<ops::signbit, bool>(b, floats{});
  }
}

}  // namespace cunp::ufunc

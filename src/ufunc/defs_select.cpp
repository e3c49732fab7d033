// src/ufunc/defs_select.cpp — where (the 3-operand selection behind np.where and the
// where= argument) and clip, one loop per dtype in NumPy's order.
#include "ops/ufunc_select.h"
#include "ufunc/registry.hpp"

namespace cunp::ufunc {
namespace {

template <typename T>
void add_select(Builder& b) {
  b.loop<ops::select, T, bool, T, T>();
}

template <typename T>
void add_clip(Builder& b) {
  b.loop<ops::clip, T, T, T, T>();
}

}  // namespace

void register_select() {
  Builder w = define("_where", 3, 1, "cunp::ops::select", "ufunc_select.h", Identity::None,
                     Resolution::PerOperand);
  Builder c = define("clip", 3, 1, "cunp::ops::clip", "ufunc_select.h");
  // NumPy's dtype order: ? b B h H i I l L e f d F D
  auto both = [&]<typename T>() {
    add_select<T>(w);
    add_clip<T>(c);
  };
  both.template operator()<bool>();
  both.template operator()<ops::i8>();
  both.template operator()<ops::u8>();
  both.template operator()<ops::i16>();
  both.template operator()<ops::u16>();
  both.template operator()<ops::i32>();
  both.template operator()<ops::u32>();
  both.template operator()<ops::i64>();
  both.template operator()<ops::u64>();
  both.template operator()<ops::half>();
  both.template operator()<ops::f32>();
  both.template operator()<ops::f64>();
  both.template operator()<ops::c64>();
  both.template operator()<ops::c128>();
}

}  // namespace cunp::ufunc

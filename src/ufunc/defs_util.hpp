// src/ufunc/defs_util.hpp — shorthands for the defs_*.cpp tables: a list of loop
// types expands to one loop per type, in the list's order (NumPy's order:
// ? b B h H i I l L e f d F D).
#pragma once

#include "ufunc/registry.hpp"

namespace cunp::ufunc::defs {

template <typename... T> struct types {};
using bools = types<bool>;
using ints = types<ops::i8, ops::u8, ops::i16, ops::u16, ops::i32, ops::u32, ops::i64, ops::u64>;
using floats = types<ops::half, ops::f32, ops::f64>;
using complexes = types<ops::c64, ops::c128>;

// "TT->T" for each T.
template <typename Op, typename... T> void binary(Builder& b, types<T...>) { (b.loop<Op, T, T, T>(), ...); }
// "TT->Out" for each T.
template <typename Op, typename Out, typename... T> void binary_to(Builder& b, types<T...>) {
  (b.loop<Op, Out, T, T>(), ...);
}
// "T->T" for each T.
template <typename Op, typename... T> void unary(Builder& b, types<T...>) { (b.loop<Op, T, T>(), ...); }
// "T->Out" for each T.
template <typename Op, typename Out, typename... T> void unary_to(Builder& b, types<T...>) {
  (b.loop<Op, Out, T>(), ...);
}
// "TT->TT" and "T->TT" for each T (two outputs: divmod, modf).
template <typename Op, typename... T> void binary_2out(Builder& b, types<T...>) {
  (b.loop2<Op, T, T, T, T>(), ...);
}
template <typename Op, typename... T> void unary_2out(Builder& b, types<T...>) { (b.loop2<Op, T, T, T>(), ...); }

inline constexpr const char* kArith = "ufunc_arith.h";
inline constexpr const char* kMath = "ufunc_math.h";
inline constexpr const char* kCompare = "ufunc_compare.h";
inline constexpr const char* kBits = "ufunc_bits.h";

}  // namespace cunp::ufunc::defs

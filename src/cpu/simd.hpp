// src/cpu/simd.hpp — the SIMD kernels of the cpu device: one table of row kernels
// (ufunc inner loops, reductions) for the instruction set chosen at run time.
//
// Note [CPU SIMD dispatch]: src/cpu/simd_ufunc.cpp and simd_reduce.cpp are compiled once
// per Highway target (SSE4, AVX2, AVX-512 on x86-64; NEON/SVE on ARM64) through
// hwy/foreach_target.h; each target fills a Table with its kernels. The first call of
// table() picks the best target the CPU supports, or the one CUNP_CPU_SIMD names
// (scalar, sse4, avx2, avx512: never above what the CPU has), and that table serves
// every later call. A null entry (or a null table: scalar, or cunp built without
// Highway) means the caller's plain scalar loop runs. The row kernels compute exactly
// what the scalar functors of src/ops compute (bit for bit), except the transcendental
// functions, which are Highway's vectorized versions within a few ulps (docs/cpu.md);
// inputs outside each function's accurate domain (and NaN, infinities, subnormals)
// take the scalar functor, one vector at a time, so special values and floating-point
// status flags come out as the scalar loop's.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "ops/cast.h"

namespace cunp::ops {
struct add;
struct subtract;
struct multiply;
struct true_divide;
struct maximum;
struct minimum;
struct fmax;
struct fmin;
struct equal;
struct not_equal;
struct less;
struct less_equal;
struct greater;
struct greater_equal;
struct negative;
struct absolute;
struct fabs;
struct sqrt;
struct square;
struct sin;
struct cos;
struct exp;
struct log;
struct log2;
struct log10;
struct log1p;
struct expm1;
struct tanh;
struct arctan;
}  // namespace cunp::ops

namespace cunp::cpu::simd {

// Binary kernels: "TT->T" (arithmetic, min/max) or "TT->?" (comparisons).
enum class Bin : std::uint8_t { Add, Sub, Mul, Div, Max, Min, FMax, FMin, Eq, Ne, Lt, Le, Gt, Ge, Count, None };
// Unary kernels "T->T".
enum class Un : std::uint8_t {
  Neg, Abs, Sqrt, Square, Sin, Cos, Exp, Log, Log2, Log10, Log1p, Expm1, Tanh, Atan, Count, None
};
inline constexpr int kNumBin = static_cast<int>(Bin::Count);
inline constexpr int kNumUn = static_cast<int>(Un::Count);

// The element types with kernels, in this order: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64
// (-1 for the others: bool, float16, complex).
inline constexpr int kNumElem = 10;
template <typename T> constexpr int elem_index() {
  if constexpr (std::is_same_v<T, ops::i8>) return 0;
  else if constexpr (std::is_same_v<T, ops::u8>) return 1;
  else if constexpr (std::is_same_v<T, ops::i16>) return 2;
  else if constexpr (std::is_same_v<T, ops::u16>) return 3;
  else if constexpr (std::is_same_v<T, ops::i32>) return 4;
  else if constexpr (std::is_same_v<T, ops::u32>) return 5;
  else if constexpr (std::is_same_v<T, ops::i64>) return 6;
  else if constexpr (std::is_same_v<T, ops::u64>) return 7;
  else if constexpr (std::is_same_v<T, ops::f32>) return 8;
  else if constexpr (std::is_same_v<T, ops::f64>) return 9;
  else return -1;
}

// Which kernel a src/ops functor has (None: no kernel).
template <typename Op> struct kernel_of {
  static constexpr Bin bin = Bin::None;
  static constexpr Un un = Un::None;
};
#define CUNP_SIMD_BIN(op, k) \
  template <> struct kernel_of<ops::op> { static constexpr Bin bin = Bin::k; static constexpr Un un = Un::None; };
#define CUNP_SIMD_UN(op, k) \
  template <> struct kernel_of<ops::op> { static constexpr Bin bin = Bin::None; static constexpr Un un = Un::k; };
CUNP_SIMD_BIN(add, Add)
CUNP_SIMD_BIN(subtract, Sub)
CUNP_SIMD_BIN(multiply, Mul)
CUNP_SIMD_BIN(true_divide, Div)
CUNP_SIMD_BIN(maximum, Max)
CUNP_SIMD_BIN(minimum, Min)
CUNP_SIMD_BIN(fmax, FMax)
CUNP_SIMD_BIN(fmin, FMin)
CUNP_SIMD_BIN(equal, Eq)
CUNP_SIMD_BIN(not_equal, Ne)
CUNP_SIMD_BIN(less, Lt)
CUNP_SIMD_BIN(less_equal, Le)
CUNP_SIMD_BIN(greater, Gt)
CUNP_SIMD_BIN(greater_equal, Ge)
CUNP_SIMD_UN(negative, Neg)
CUNP_SIMD_UN(absolute, Abs)
CUNP_SIMD_UN(fabs, Abs)
CUNP_SIMD_UN(sqrt, Sqrt)
CUNP_SIMD_UN(square, Square)
CUNP_SIMD_UN(sin, Sin)
CUNP_SIMD_UN(cos, Cos)
CUNP_SIMD_UN(exp, Exp)
CUNP_SIMD_UN(log, Log)
CUNP_SIMD_UN(log2, Log2)
CUNP_SIMD_UN(log10, Log10)
CUNP_SIMD_UN(log1p, Log1p)
CUNP_SIMD_UN(expm1, Expm1)
CUNP_SIMD_UN(tanh, Tanh)
CUNP_SIMD_UN(arctan, Atan)
#undef CUNP_SIMD_BIN
#undef CUNP_SIMD_UN

// out[i] = op(a[i], b[i]) for i < n; `scalar` 1 reads a[0] for every i, 2 reads b[0]
// (a stride-0 operand), 0 neither. Rows are contiguous; pointers need no alignment.
using BinaryFn = void (*)(const char* a, const char* b, char* out, std::int64_t n, int scalar);
using UnaryFn = void (*)(const char* a, char* out, std::int64_t n);

// Reductions over n >= 1 contiguous elements.
// NumPy's pairwise_sum of n elements (Note [Pairwise summation], cpu_reduce.cpp), n >= 8.
using SumFn = double (*)(const char* p, std::int64_t n);
// The same tree over (x - c)^2 for each element x, every operation rounded to the row's
// type (c converted to it): the sum of squared deviations of var/std, n >= 8.
using SqDevFn = double (*)(const char* p, std::int64_t n, double c);
// maximum/minimum (NaN propagating) or fmax/fmin folded over the row, written to *out.
using FoldFn = void (*)(const char* p, std::int64_t n, char* out);
// The index of the first maximum (IsMax) or minimum, a NaN winning (first one).
using ArgFn = std::int64_t (*)(const char* p, std::int64_t n);
// Whether any byte is nonzero (Any) / every byte is nonzero (All).
using BoolFn = bool (*)(const char* p, std::int64_t n);

enum class Fold : std::uint8_t { Max, Min, FMax, FMin, Count };
inline constexpr int kNumFold = static_cast<int>(Fold::Count);

struct Table {
  const char* target = "scalar";
  BinaryFn binary[kNumBin][kNumElem] = {};
  UnaryFn unary[kNumUn][kNumElem] = {};
  SumFn pairwise_sum[kNumElem] = {};      // f32, f64 only
  SqDevFn pairwise_sqdev[kNumElem] = {};  // f32, f64 only
  FoldFn fold[kNumFold][kNumElem] = {};
  ArgFn argmax[kNumElem] = {};
  ArgFn argmin[kNumElem] = {};
  BoolFn any = nullptr;
  BoolFn all = nullptr;
};

// The table in use, or null when the scalar loops run (CUNP_CPU_SIMD=scalar, no SIMD
// target on this CPU, or cunp built without Highway).
const Table* table() noexcept;
// The name of the target in use ("AVX3", "AVX2", "SSE4", ... or "scalar").
std::string target_name();
// Switches the target: "best", "scalar", "sse4", "avx2", "avx512" (as CUNP_CPU_SIMD);
// a target above the CPU's falls back to the best one below it. Returns the name now in
// use. Not for use while other threads run cunp loops (tests and benchmarks).
std::string set_target(const std::string& name);

// Rows shorter than this take the scalar loop (the call costs more than it saves).
inline constexpr std::int64_t kMinRow = 8;

}  // namespace cunp::cpu::simd

// src/ufunc/registry.hpp — how ufuncs are defined: one `define(...)` per ufunc with
// its loops in NumPy's order, each loop instantiating the CPU loop from the same
// src/ops functor the GPU kernels call. Definitions live in src/ufunc/defs_*.cpp.
//
//   define("add", 2, 1, "cunp::ops::add", "ufunc_arith.h", Identity::Zero)
//       .loop<ops::add, bool, bool, bool>()            // "??->?"
//       .loop<ops::add, ops::i8, ops::i8, ops::i8>()   // "bb->b"  ...
#pragma once

#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cpu/simd.hpp"
#include "cpu/strided_loop.hpp"
#include "ops/cast.h"
#include "ufunc/ufunc.hpp"

namespace cunp::ufunc {

// The DType of a src/ops storage type.
template <typename T> struct dtype_of_op;
template <> struct dtype_of_op<bool> { static constexpr DType value = DType::Bool; };
template <> struct dtype_of_op<ops::i8> { static constexpr DType value = DType::Int8; };
template <> struct dtype_of_op<ops::u8> { static constexpr DType value = DType::UInt8; };
template <> struct dtype_of_op<ops::i16> { static constexpr DType value = DType::Int16; };
template <> struct dtype_of_op<ops::u16> { static constexpr DType value = DType::UInt16; };
template <> struct dtype_of_op<ops::i32> { static constexpr DType value = DType::Int32; };
template <> struct dtype_of_op<ops::u32> { static constexpr DType value = DType::UInt32; };
template <> struct dtype_of_op<ops::i64> { static constexpr DType value = DType::Int64; };
template <> struct dtype_of_op<ops::u64> { static constexpr DType value = DType::UInt64; };
template <> struct dtype_of_op<ops::half> { static constexpr DType value = DType::Float16; };
template <> struct dtype_of_op<ops::f32> { static constexpr DType value = DType::Float32; };
template <> struct dtype_of_op<ops::f64> { static constexpr DType value = DType::Float64; };
template <> struct dtype_of_op<ops::c64> { static constexpr DType value = DType::Complex64; };
template <> struct dtype_of_op<ops::c128> { static constexpr DType value = DType::Complex128; };

// What a functor receives for a loop type: float16 computes in float32.
template <typename T> struct compute_of { using type = T; };
template <> struct compute_of<ops::half> { using type = ops::f32; };
template <typename T> using compute_t = typename compute_of<T>::type;

template <typename T>
inline compute_t<T> load_compute(const char* p) {
  T x;
  std::memcpy(&x, p, sizeof(T));
  if constexpr (ops::is_same<T, ops::half>::value) return ops::half_to_f32(x);
  else return x;
}

template <typename T, typename R>
inline void store_cast(char* p, R r) {
  const T y = ops::cast<T>(r);
  std::memcpy(p, &y, sizeof(T));
}

// Note [SIMD rows]: a row whose functor has a SIMD kernel (cpu/simd.hpp), of one of the
// kernels' element types, with the output and every input contiguous or (for binary
// kernels) one input of stride 0, runs that kernel (strided unary rows of sqrt and the
// transcendental functions too, Note [Strided SIMD rows] below); the caller's scalar
// loop runs otherwise. This is the one place the loop tables meet the SIMD kernels.
template <typename Op, typename Out, typename... In>
inline bool simd_row(char* const* p, std::int64_t n, const std::int64_t* s) {
  namespace simd = cpu::simd;
  using K = simd::kernel_of<Op>;
  using A = std::tuple_element_t<0, std::tuple<In..., char>>;  // (char: no input)
  constexpr int e = simd::elem_index<A>();
  constexpr auto sz = static_cast<std::int64_t>(sizeof(A));
  if constexpr (sizeof...(In) == 2 && K::bin != simd::Bin::None && e >= 0) {
    using B = std::tuple_element_t<1, std::tuple<In..., char>>;
    constexpr bool compare = K::bin >= simd::Bin::Eq;
    if constexpr (std::is_same_v<A, B> && (compare ? std::is_same_v<Out, bool> : std::is_same_v<Out, A>)) {
      if (n < simd::kMinRow || s[0] != static_cast<std::int64_t>(sizeof(Out))) return false;
      int scalar = 0;
      if (s[1] == 0 && s[2] == sz) scalar = 1;
      else if (s[1] == sz && s[2] == 0) scalar = 2;
      else if (s[1] != sz || s[2] != sz) return false;
      const simd::Table* t = simd::table();
      const simd::BinaryFn fn = t ? t->binary[static_cast<int>(K::bin)][e] : nullptr;
      if (!fn) return false;
      fn(p[1], p[2], p[0], n, scalar);
      return true;
    }
  } else if constexpr (sizeof...(In) == 1 && K::un != simd::Un::None && e >= 0 && std::is_same_v<Out, A>) {
    // Note [Strided SIMD rows]: the functions whose arithmetic outweighs moving the
    // elements (sqrt and the transcendental ones) run strided and reversed rows too,
    // through a stack buffer of kBlock elements: copied in, the kernel, copied out, one
    // block at a time (an output that is the input's own view reads each block before
    // it writes it; other overlaps were copied apart by the caller).
    constexpr bool buffered = K::un == simd::Un::Sqrt || K::un >= simd::Un::Sin;
    if (n < simd::kMinRow) return false;
    const bool contiguous = s[0] == sz && s[1] == sz;
    if (!contiguous && !buffered) return false;
    const simd::Table* t = simd::table();
    const simd::UnaryFn fn = t ? t->unary[static_cast<int>(K::un)][e] : nullptr;
    if (!fn) return false;
    if (contiguous) {
      fn(p[1], p[0], n);
      return true;
    }
    constexpr std::int64_t kBlock = 256;
    alignas(64) A in[kBlock];
    alignas(64) A out[kBlock];
    for (std::int64_t i = 0; i < n; i += kBlock) {
      const std::int64_t m = n - i < kBlock ? n - i : kBlock;
      for (std::int64_t j = 0; j < m; ++j) std::memcpy(&in[j], p[1] + (i + j) * s[1], sizeof(A));
      fn(reinterpret_cast<const char*>(in), reinterpret_cast<char*>(out), m);
      for (std::int64_t j = 0; j < m; ++j) std::memcpy(p[0] + (i + j) * s[0], &out[j], sizeof(A));
    }
    return true;
  }
  (void)p, (void)n, (void)s;
  return false;
}

template <typename Op, typename Out, typename... In, std::size_t... I>
inline void cpu_row_1(char* const* p, std::int64_t n, const std::int64_t* s, std::index_sequence<I...>) {
  if (simd_row<Op, Out, In...>(p, n, s)) return;
  const Op op{};
  // Note [Contiguous rows]: with every stride equal to its element size the strides are
  // compile-time constants, so the compiler can vectorize the row.
  const bool contiguous = s[0] == static_cast<std::int64_t>(sizeof(Out)) &&
                          ((s[1 + I] == static_cast<std::int64_t>(sizeof(In))) && ...);
  if (contiguous) {
    char* out = p[0];
    for (std::int64_t i = 0; i < n; ++i) {
      store_cast<Out>(out + i * static_cast<std::int64_t>(sizeof(Out)),
                      op(load_compute<In>(p[1 + I] + i * static_cast<std::int64_t>(sizeof(In)))...));
    }
    return;
  }
  for (std::int64_t i = 0; i < n; ++i) {
    store_cast<Out>(p[0] + i * s[0], op(load_compute<In>(p[1 + I] + i * s[1 + I])...));
  }
}

template <typename Op, typename Out0, typename Out1, typename... In, std::size_t... I>
inline void cpu_row_2(char* const* p, std::int64_t n, const std::int64_t* s, std::index_sequence<I...>) {
  const Op op{};
  for (std::int64_t i = 0; i < n; ++i) {
    compute_t<Out0> o0{};
    compute_t<Out1> o1{};
    op(load_compute<In>(p[2 + I] + i * s[2 + I])..., o0, o1);
    store_cast<Out0>(p[0] + i * s[0], o0);
    store_cast<Out1>(p[1] + i * s[1], o1);
  }
}

// Four outputs (ellipj): Op{}(in..., o0&, o1&, o2&, o3&), all of one dtype.
template <typename Op, typename Out, typename... In, std::size_t... I>
inline void cpu_row_4(char* const* p, std::int64_t n, const std::int64_t* s, std::index_sequence<I...>) {
  const Op op{};
  for (std::int64_t i = 0; i < n; ++i) {
    compute_t<Out> o[4]{};
    op(load_compute<In>(p[4 + I] + i * s[4 + I])..., o[0], o[1], o[2], o[3]);
    for (int k = 0; k < 4; ++k) store_cast<Out>(p[k] + i * s[k], o[k]);
  }
}

// The CPU loop of one signature with one output: out = Op{}(in...).
template <typename Op, typename Out, typename... In>
void cpu_loop_1(const iter::LoopLayout& layout, char* const* ptrs) {
  constexpr int N = 1 + static_cast<int>(sizeof...(In));
  char* base[N];
  for (int k = 0; k < N; ++k) base[k] = ptrs[k];
  cpu::for_each_row<N>(layout, base, [](char* const* p, std::int64_t n, const std::int64_t* s) {
    cpu_row_1<Op, Out, In...>(p, n, s, std::index_sequence_for<In...>{});
  });
}

// The CPU loop of one signature with two outputs: Op{}(in..., out0&, out1&) sets both
// (divmod, modf, frexp).
template <typename Op, typename Out0, typename Out1, typename... In>
void cpu_loop_2(const iter::LoopLayout& layout, char* const* ptrs) {
  constexpr int N = 2 + static_cast<int>(sizeof...(In));
  char* base[N];
  for (int k = 0; k < N; ++k) base[k] = ptrs[k];
  cpu::for_each_row<N>(layout, base, [](char* const* p, std::int64_t n, const std::int64_t* s) {
    cpu_row_2<Op, Out0, Out1, In...>(p, n, s, std::index_sequence_for<In...>{});
  });
}

// The CPU loop of one signature with four outputs of one dtype.
template <typename Op, typename Out, typename... In>
void cpu_loop_4(const iter::LoopLayout& layout, char* const* ptrs) {
  constexpr int N = 4 + static_cast<int>(sizeof...(In));
  char* base[N];
  for (int k = 0; k < N; ++k) base[k] = ptrs[k];
  cpu::for_each_row<N>(layout, base, [](char* const* p, std::int64_t n, const std::int64_t* s) {
    cpu_row_4<Op, Out, In...>(p, n, s, std::index_sequence_for<In...>{});
  });
}

class Builder {
 public:
  explicit Builder(Ufunc* u) : u_(u) {}
  template <typename Op, typename Out, typename... In>
  Builder& loop() {
    Loop l;
    int k = 0;
    ((l.in[static_cast<std::size_t>(k++)] = dtype_of_op<In>::value), ...);
    l.out[0] = dtype_of_op<Out>::value;
    l.cpu = &cpu_loop_1<Op, Out, In...>;
    if constexpr (requires { Op::kName; }) l.functor = Op::kName;
    u_->loops.push_back(l);
    return *this;
  }
  template <typename Op, typename Out0, typename Out1, typename... In>
  Builder& loop2() {
    Loop l;
    int k = 0;
    ((l.in[static_cast<std::size_t>(k++)] = dtype_of_op<In>::value), ...);
    l.out[0] = dtype_of_op<Out0>::value;
    l.out[1] = dtype_of_op<Out1>::value;
    l.cpu = &cpu_loop_2<Op, Out0, Out1, In...>;
    if constexpr (requires { Op::kName; }) l.functor = Op::kName;
    u_->loops.push_back(l);
    return *this;
  }
  // Four outputs of one dtype (ellipj's "dd->dddd").
  template <typename Op, typename Out, typename... In>
  Builder& loop4() {
    Loop l;
    int k = 0;
    ((l.in[static_cast<std::size_t>(k++)] = dtype_of_op<In>::value), ...);
    for (int o = 0; o < 4; ++o) l.out[static_cast<std::size_t>(o)] = dtype_of_op<Out>::value;
    l.cpu = &cpu_loop_4<Op, Out, In...>;
    u_->loops.push_back(l);
    return *this;
  }
  // Puts the ufunc in scipy.special's namespace instead of NumPy's. Its loops report no
  // floating-point status: SciPy's special ufuncs route their errors through sf_error
  // (ignored by default) and clear the status, so erfcinv(0) or gamma(0) warns nowhere,
  // while the series and iterations inside raise inexact, underflow and overflow flags.
  Builder& special() {
    u_->space = Space::Special;
    u_->reports_fp_errors = false;
    return *this;
  }

 private:
  Ufunc* u_;
};

// Registers a ufunc (called only from the register_* functions below, once).
Builder define(std::string name, int nin, int nout, std::string functor, std::string header,
               Identity identity = Identity::None, Resolution resolution = Resolution::CommonDType);
// Another NumPy name for a registered ufunc ("divide" for "true_divide").
void alias(const std::string& alias_name, const std::string& name);

// The definition files; the registry calls each once, in this order.
void register_arith();    // defs_arith.cpp
void register_math();     // defs_math.cpp
void register_compare();  // defs_compare.cpp
void register_bits();     // defs_bits.cpp
void register_select();   // defs_select.cpp: _where, clip
// scipy.special's ufuncs (Space::Special), their scalar code in src/ops/special_*.h.
void register_special_gamma();   // defs_special_gamma.cpp: error functions, gamma, beta, zeta, cdfs
void register_special_bessel();  // defs_special_bessel.cpp: Bessel, elliptic, orthogonal polynomials

}  // namespace cunp::ufunc

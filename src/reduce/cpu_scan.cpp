// src/reduce/cpu_scan.cpp — the CPU engine of the scans (scan.hpp) and their shared
// pieces: operation names and the line layout.
//
// Note [Sequential scans]: each line is scanned in order with one running value of the
// compute type (float for float16), as NumPy's accumulate loop does, so float32 and
// float64 results are bit-identical to NumPy's. Lines are independent: when there are
// many elements in all, the lines are split across hardware threads (cpu/parallel.hpp).
#include <type_traits>

#include "core/dispatch.hpp"
#include "cpu/parallel.hpp"
#include "cpu/strided_loop.hpp"
#include "cunp/error.hpp"
#include "ops/ufunc_arith.h"
#include "ops/ufunc_bits.h"
#include "ops/ufunc_compare.h"
#include "reduce/scan.hpp"
#include "ufunc/registry.hpp"

namespace cunp::reduce {

std::string_view scan_op_ufunc_name(ScanOp op) noexcept {
  switch (op) {
    case ScanOp::Add:
      return "add";
    case ScanOp::Multiply:
      return "multiply";
    case ScanOp::Maximum:
      return "maximum";
    case ScanOp::Minimum:
      return "minimum";
    case ScanOp::FMax:
      return "fmax";
    case ScanOp::FMin:
      return "fmin";
    case ScanOp::LogicalAnd:
      return "logical_and";
    case ScanOp::LogicalOr:
      return "logical_or";
    case ScanOp::LogicalXor:
      return "logical_xor";
    case ScanOp::BitwiseAnd:
      return "bitwise_and";
    case ScanOp::BitwiseOr:
      return "bitwise_or";
    case ScanOp::BitwiseXor:
      return "bitwise_xor";
  }
  return "add";
}

std::string_view scan_op_functor(ScanOp op, DType acc) noexcept {
  const bool f16 = acc == DType::Float16;
  switch (op) {
    case ScanOp::Add:
      return "cunp::ops::add";
    case ScanOp::Multiply:
      return "cunp::ops::multiply";
    case ScanOp::Maximum:
      return f16 ? "cunp::ops::maximum_f16" : "cunp::ops::maximum";
    case ScanOp::Minimum:
      return f16 ? "cunp::ops::minimum_f16" : "cunp::ops::minimum";
    case ScanOp::FMax:
      return f16 ? "cunp::ops::fmax_f16" : "cunp::ops::fmax";
    case ScanOp::FMin:
      return f16 ? "cunp::ops::fmin_f16" : "cunp::ops::fmin";
    case ScanOp::LogicalAnd:
      return "cunp::ops::logical_and";
    case ScanOp::LogicalOr:
      return "cunp::ops::logical_or";
    case ScanOp::LogicalXor:
      return "cunp::ops::logical_xor";
    case ScanOp::BitwiseAnd:
      return "cunp::ops::bitwise_and";
    case ScanOp::BitwiseOr:
      return "cunp::ops::bitwise_or";
    case ScanOp::BitwiseXor:
      return "cunp::ops::bitwise_xor";
  }
  return "cunp::ops::add";
}

ScanLayout make_scan_layout(const ndarray& in, const ndarray& out, int axis) {
  Shape kept;
  Strides kept_out, kept_in;
  ScanLayout l;
  for (int d = 0; d < in.ndim(); ++d) {
    const auto k = static_cast<std::size_t>(d);
    if (d == axis) {
      l.n = in.shape()[k];
      l.out_stride = out.strides()[k];
      l.in_stride = in.strides()[k];
    } else {
      kept.push_back(in.shape()[k]);
      kept_out.push_back(out.strides()[k]);
      kept_in.push_back(in.strides()[k]);
    }
  }
  if (in.ndim() == 0) l.n = 1;
  l.lines = iter::make_layout(kept, {kept_out, kept_in});
  return l;
}

namespace {

using ufunc::compute_t;
using ufunc::load_compute;
using ufunc::store_cast;

template <typename C>
bool is_nan(C x) {
  if constexpr (ops::kind_of<C>::value == 3)
    return ops::any_nan(x);
  else
    return ops::detail::isnan_any(x);
}

template <typename T, ScanMap M>
compute_t<T> load(const char* p) {
  compute_t<T> x = load_compute<T>(p);
  if constexpr (M != ScanMap::None) {
    if (is_nan(x)) x = ops::cast<compute_t<T>>(M == ScanMap::NanZero ? 0 : 1);
  }
  return x;
}

template <typename T, typename Op, ScanMap M>
void scan_line(char* out, const char* in, std::int64_t n, std::int64_t so, std::int64_t si) {
  using C = compute_t<T>;
  const Op op{};
  C acc = load<T, M>(in);
  store_cast<T>(out, acc);
  for (std::int64_t k = 1; k < n; ++k) {
    acc = static_cast<C>(op(acc, load<T, M>(in + k * si)));
    store_cast<T>(out + k * so, acc);
  }
}

template <typename T, typename Op, ScanMap M>
void run(const ScanLayout& l, const ndarray& in, const ndarray& out) {
  // parallel_split sizes its pieces by layout.size: count elements, not lines.
  iter::LoopLayout lines = l.lines;
  lines.size = l.lines.size * l.n;
  char* const base[2] = {static_cast<char*>(out.data()), static_cast<char*>(in.data())};
  const std::int64_t n = l.n, so = l.out_stride, si = l.in_stride;
  cpu::parallel_split(lines, base, [&](const iter::LoopLayout& sub, char* const* p) {
    char* const b[2] = {p[0], p[1]};
    cpu::for_each_row<2>(sub, b, [&](char* const* q, std::int64_t m, const std::int64_t* s) {
      for (std::int64_t i = 0; i < m; ++i)
        scan_line<T, Op, M>(q[0] + i * s[0], q[1] + i * s[1], n, so, si);
    });
  });
}

template <typename T>
constexpr bool is_bool_v = std::is_same_v<T, bool>;
template <typename T>
constexpr bool is_bits_v = is_bool_v<T> || ops::kind_of<T>::value == 1;

}  // namespace

void cpu_scan(ScanOp op, ScanMap map, const ScanLayout& layout, const ndarray& in,
              const ndarray& out) {
  if (layout.n == 0 || layout.lines.size == 0) return;
  if (in.dtype() != out.dtype())
    throw TypeError("cpu_scan: the input must have the accumulator dtype");
  const DType dt = out.dtype();
  dispatch_dtype(dt, [&]<typename T>() {
    const bool f16 = dt == DType::Float16;
    switch (op) {
      case ScanOp::Add:
        if (map == ScanMap::NanZero) return run<T, ops::add, ScanMap::NanZero>(layout, in, out);
        return run<T, ops::add, ScanMap::None>(layout, in, out);
      case ScanOp::Multiply:
        if (map == ScanMap::NanOne) return run<T, ops::multiply, ScanMap::NanOne>(layout, in, out);
        return run<T, ops::multiply, ScanMap::None>(layout, in, out);
      case ScanOp::Maximum:
        return f16 ? run<T, ops::maximum_f16, ScanMap::None>(layout, in, out)
                   : run<T, ops::maximum, ScanMap::None>(layout, in, out);
      case ScanOp::Minimum:
        return f16 ? run<T, ops::minimum_f16, ScanMap::None>(layout, in, out)
                   : run<T, ops::minimum, ScanMap::None>(layout, in, out);
      case ScanOp::FMax:
        return f16 ? run<T, ops::fmax_f16, ScanMap::None>(layout, in, out)
                   : run<T, ops::fmax, ScanMap::None>(layout, in, out);
      case ScanOp::FMin:
        return f16 ? run<T, ops::fmin_f16, ScanMap::None>(layout, in, out)
                   : run<T, ops::fmin, ScanMap::None>(layout, in, out);
      case ScanOp::LogicalAnd:
        if constexpr (is_bool_v<T>) return run<T, ops::logical_and, ScanMap::None>(layout, in, out);
        break;
      case ScanOp::LogicalOr:
        if constexpr (is_bool_v<T>) return run<T, ops::logical_or, ScanMap::None>(layout, in, out);
        break;
      case ScanOp::LogicalXor:
        if constexpr (is_bool_v<T>) return run<T, ops::logical_xor, ScanMap::None>(layout, in, out);
        break;
      case ScanOp::BitwiseAnd:
        if constexpr (is_bits_v<T>) return run<T, ops::bitwise_and, ScanMap::None>(layout, in, out);
        break;
      case ScanOp::BitwiseOr:
        if constexpr (is_bits_v<T>) return run<T, ops::bitwise_or, ScanMap::None>(layout, in, out);
        break;
      case ScanOp::BitwiseXor:
        if constexpr (is_bits_v<T>) return run<T, ops::bitwise_xor, ScanMap::None>(layout, in, out);
        break;
    }
    throw TypeError("cpu_scan: " + std::string(scan_op_ufunc_name(op)) + " has no loop for " +
                    std::string(name(dt)));
  });
}

}  // namespace cunp::reduce

// src/numeric/mathlib.cpp — the functions of cunp/mathlib.hpp in NumPy's formulas
// (numpy/lib/_function_base_impl.py, _type_check_impl.py, _ufunclike_impl.py,
// _nanfunctions_impl.py), composed from ufuncs and reductions.
#include "cunp/mathlib.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/special/bessel.hpp"
#include "numeric/common.hpp"

namespace cunp {
namespace {

using numeric::truth;

ndarray signed_inf(const ndarray& x, bool negative, const UfuncOptions& o) {
  if (is_complex(x.dtype())) {
    throw TypeError("This operation is not supported for " + std::string(name(x.dtype())) +
                    " values because it would be ambiguous.");
  }
  const ndarray inf = isinf(x);
  const ndarray sign = signbit(x);
  return logical_and(inf, negative ? sign : logical_not(sign), o);
}

bool broadcastable(const Shape& s1, const Shape& s2) {
  auto a = s1.rbegin(), b = s2.rbegin();
  for (; a != s1.rend() && b != s2.rend(); ++a, ++b) {
    if (*a != *b && *a != 1 && *b != 1) return false;
  }
  return true;
}

// NumPy's _replace_nan then arg-reduction: NaN read as +inf (argmin) or -inf (argmax).
ndarray nan_arg(const ndarray& a, const ArgReduceOptions& o, bool is_min) {
  if (!is_inexact(a.dtype())) return is_min ? argmin(a, o) : argmax(a, o);
  const ndarray mask = isnan(a);
  if (mask.size()) {
    ReduceOptions all_options;
    if (o.axis) all_options.axis = *o.axis;
    if (truth(any(all(mask, all_options)))) throw ValueError("All-NaN slice encountered");
  }
  const double fill =
      is_min ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  const ndarray filled = where(mask, fill, a);
  return is_min ? argmin(filled, o) : argmax(filled, o);
}

DType unsigned_of(std::size_t bytes) {
  switch (bytes) {
    case 1:
      return DType::UInt8;
    case 2:
      return DType::UInt16;
    case 4:
      return DType::UInt32;
    default:
      return DType::UInt64;
  }
}

// The bits set in each element of an unsigned array: a SWAR count in uint64.
ndarray popcount(const ndarray& x) {
  ndarray v = x.astype(DType::UInt64);
  const auto u = [](std::uint64_t c) { return Scalar(c); };
  v = v - (right_shift(v, 1) & u(0x5555555555555555ULL));
  v = (v & u(0x3333333333333333ULL)) + (right_shift(v, 2) & u(0x3333333333333333ULL));
  v = (v + right_shift(v, 4)) & u(0x0F0F0F0F0F0F0F0FULL);
  return right_shift(v * u(0x0101010101010101ULL), 56).astype(DType::UInt8);
}

ndarray bit_shifts(BitOrder order, Device dev) {
  return order == BitOrder::Big
             ? arange(Scalar(7), Scalar(-1), Scalar(-1), {.dtype = DType::UInt8, .device = dev})
             : arange(Scalar(8), {.dtype = DType::UInt8, .device = dev});
}

}  // namespace

ndarray sinc(const ndarray& x_in) {
  const ndarray x = std::numbers::pi * x_in;
  const double eps = is_inexact(x.dtype()) ? finfo(x.dtype()).eps : 1e-20;
  const ndarray y = where(not_equal(x, 0), x, eps);
  return sin(y) / y;
}

ndarray i0(const ndarray& x_in) {
  if (is_complex(x_in.dtype())) throw TypeError("i0 not supported for complex values");
  ndarray x = is_floating(x_in.dtype()) ? x_in : x_in.astype(DType::Float64);
  if (x.dtype() == DType::Float16)
    return special::i0(absolute(x).astype(DType::Float32)).astype(DType::Float16);
  return special::i0(absolute(x));
}

ndarray fix(const ndarray& x, const UfuncOptions& options) { return trunc(x, options); }

ndarray real_if_close(const ndarray& a, double tol) {
  if (!is_complex(a.dtype())) return a;
  if (tol > 1) tol = finfo(a.dtype()).eps * tol;
  if (truth(all(less(absolute(imag(a)), tol)))) return real(a);
  return a;
}

ndarray isposinf(const ndarray& x, const UfuncOptions& options) {
  return signed_inf(x, false, options);
}
ndarray isneginf(const ndarray& x, const UfuncOptions& options) {
  return signed_inf(x, true, options);
}

ndarray iscomplex(const ndarray& x) {
  if (is_complex(x.dtype())) return not_equal(imag(x), 0);
  return zeros(x.shape(), {.dtype = DType::Bool, .device = x.device()});
}

ndarray isreal(const ndarray& x) { return equal(imag(x), 0); }
bool iscomplexobj(const ndarray& x) noexcept { return is_complex(x.dtype()); }
bool isrealobj(const ndarray& x) noexcept { return !is_complex(x.dtype()); }

bool array_equiv(const ndarray& a1, const ndarray& a2_in) {
  const ndarray a2 = a2_in.to(a1.device());
  if (!broadcastable(a1.shape(), a2.shape())) return false;
  return truth(all(equal(a1, a2)));
}

ndarray nanargmin(const ndarray& a, const ArgReduceOptions& options) {
  return nan_arg(a, options, true);
}
ndarray nanargmax(const ndarray& a, const ArgReduceOptions& options) {
  return nan_arg(a, options, false);
}

ndarray bitwise_count(const ndarray& x) {
  switch (kind(x.dtype())) {
    case DTypeKind::Bool:
      return popcount(x.astype(DType::UInt8));
    case DTypeKind::SignedInt:
      return popcount(
          absolute(x).view(unsigned_of(itemsize(x.dtype()))));  // abs(min) wraps, as NumPy
    case DTypeKind::UnsignedInt:
      return popcount(x);
    default:
      throw TypeError(
          "ufunc 'bitwise_count' not supported for the input types, and the inputs could not be "
          "safely coerced to "
          "any supported types according to the casting rule ''safe''");
  }
}

BitOrder parse_bit_order(std::string_view text) {
  if (text == "big") return BitOrder::Big;
  if (text == "little") return BitOrder::Little;
  throw ValueError("'order' must be either 'little' or 'big'");
}

ndarray packbits(const ndarray& a, std::optional<int> axis_in, BitOrder bitorder) {
  const DTypeKind k = kind(a.dtype());
  if (k != DTypeKind::Bool && k != DTypeKind::SignedInt && k != DTypeKind::UnsignedInt) {
    throw TypeError("Expected an input array of integer or boolean data type");
  }
  ndarray bits = k == DTypeKind::Bool ? a : not_equal(a, 0);
  int axis = 0;
  if (!axis_in || bits.ndim() == 0)
    bits = bits.reshape({-1});
  else
    axis = normalize_axis(*axis_in, bits.ndim());
  const int src[] = {axis}, last[] = {-1};
  bits = moveaxis(bits, src, last);
  Shape shape = bits.shape();
  const std::int64_t n = shape.back();
  const std::int64_t nbytes = (n + 7) / 8;
  shape.pop_back();
  const Device dev = a.device();
  if (nbytes * 8 != n) {
    Shape pad = shape;
    pad.push_back(nbytes * 8 - n);
    const ndarray parts[] = {bits, zeros(pad, {.dtype = DType::Bool, .device = dev})};
    bits = concatenate(parts, -1);
  }
  Shape grouped = shape;
  grouped.push_back(nbytes);
  grouped.push_back(8);
  const ndarray bytes = bits.reshape(grouped).astype(DType::UInt8);
  const ndarray packed =
      sum(left_shift(bytes, bit_shifts(bitorder, dev)), {.axis = -1, .dtype = DType::UInt8});
  return moveaxis(packed, last, src).copy();
}

ndarray unpackbits(const ndarray& a_in, std::optional<int> axis_in,
                   std::optional<std::int64_t> count, BitOrder bitorder) {
  if (a_in.dtype() != DType::UInt8)
    throw TypeError("Expected an input array of unsigned byte data type");
  ndarray a = a_in;
  int axis = 0;
  if (!axis_in || a.ndim() == 0)
    a = a.reshape({-1});
  else
    axis = normalize_axis(*axis_in, a.ndim());
  const int src[] = {axis}, last[] = {-1};
  a = moveaxis(a, src, last);
  Shape lead = a.shape();
  const std::int64_t n = lead.back();
  lead.pop_back();
  const Device dev = a.device();
  Shape flat = lead;
  flat.push_back(n * 8);
  ndarray bits = bitwise_and(right_shift(a.view({ellipsis, newaxis}), bit_shifts(bitorder, dev)), 1)
                     .reshape(flat);
  if (count) {
    const std::int64_t keep = *count >= 0 ? *count : n * 8 + *count;
    if (keep < 0) throw ValueError("-count larger than number of elements");
    if (keep <= n * 8) {
      bits = bits.view({ellipsis, slice(0, keep)});
    } else {
      Shape pad = lead;
      pad.push_back(keep - n * 8);
      const ndarray parts[] = {bits, zeros(pad, {.dtype = DType::UInt8, .device = dev})};
      bits = concatenate(parts, -1);
    }
  }
  return moveaxis(bits, last, src).copy();
}

}  // namespace cunp

// src/ufunc/api.cpp — the public ufunc functions, operators and the elementwise
// helpers built from ufuncs (where, clip, real/imag/angle, nan_to_num, around,
// isclose/allclose/array_equal).
#include <cmath>
#include <limits>
#include <numbers>

#include "copy/copy.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/errstate.hpp"
#include "cunp/ufunc.hpp"
#include "ufunc/execute.hpp"

namespace cunp {
namespace {

// The registry entry of a ufunc, looked up once per call site.
#define CUNP_UFUNC(name_literal)                                         \
  ([]() -> const ufunc::Ufunc& {                                          \
    static const ufunc::Ufunc& u = ufunc::get(name_literal);              \
    return u;                                                             \
  }())

ndarray call1(const ufunc::Ufunc& uf, std::initializer_list<Operand> in, const UfuncOptions& o = {}) {
  return ufunc::execute(uf, std::span<const Operand>(in.begin(), in.size()), o)[0];
}

DType operand_dtype(const Operand& o) { return o.is_array() ? o.array().dtype() : o.scalar().dtype(); }

// The elementwise "all true" of a boolean array, read on the host.
// Note [Host all()]: until device reductions exist this copies the mask to the host;
// allclose and array_equal are correct, not yet fast.
bool all_true(const ndarray& mask) {
  const ndarray b = mask.dtype() == DType::Bool ? mask : mask.astype(DType::Bool);
  const std::vector<bool> v = ascontiguousarray(b).to_vector<bool>();
  for (bool x : v) {
    if (!x) return false;
  }
  return true;
}

}  // namespace

std::vector<ndarray> call_ufunc(std::string_view name, std::span<const Operand> inputs, const UfuncOptions& options) {
  return ufunc::execute(ufunc::get(name), inputs, options);
}

std::vector<std::string> ufunc_types(std::string_view name) {
  const ufunc::Ufunc& uf = ufunc::get(name);
  std::vector<std::string> out;
  for (const ufunc::Loop& l : uf.loops) out.push_back(l.signature(uf.nin, uf.nout));
  return out;
}

#define CUNP_DEFINE_UNARY(fn) \
  ndarray fn(const Operand& x, const UfuncOptions& o) { return call1(CUNP_UFUNC(#fn), {x}, o); }
#define CUNP_DEFINE_BINARY(fn)                                                 \
  ndarray fn(const Operand& x1, const Operand& x2, const UfuncOptions& o) { \
    return call1(CUNP_UFUNC(#fn), {x1, x2}, o);                                \
  }
CUNP_UNARY_UFUNCS(CUNP_DEFINE_UNARY)
CUNP_BINARY_UFUNCS(CUNP_DEFINE_BINARY)
#undef CUNP_DEFINE_UNARY
#undef CUNP_DEFINE_BINARY

std::vector<ndarray> divmod(const Operand& x1, const Operand& x2, const UfuncOptions& o) {
  const Operand in[2] = {x1, x2};
  return ufunc::execute(CUNP_UFUNC("divmod"), in, o);
}
std::vector<ndarray> modf(const Operand& x, const UfuncOptions& o) {
  const Operand in[1] = {x};
  return ufunc::execute(CUNP_UFUNC("modf"), in, o);
}
std::vector<ndarray> frexp(const Operand& x, const UfuncOptions& o) {
  const Operand in[1] = {x};
  return ufunc::execute(CUNP_UFUNC("frexp"), in, o);
}

ndarray where(const Operand& condition, const Operand& x, const Operand& y) {
  // The condition is read as bool; x and y promote together (NEP 50).
  Operand cond = condition;
  if (condition.is_array() && condition.array().dtype() != DType::Bool) {
    cond = Operand(condition.array().astype(DType::Bool));
  } else if (!condition.is_array()) {
    cond = Operand(Scalar(condition.scalar().to_bool()));
  }
  std::vector<DType> strong;
  std::vector<WeakKind> weak;
  for (const Operand* o : {&x, &y}) {
    if (!o->is_array() && o->scalar().weak()) weak.push_back(o->scalar().weak_kind());
    else strong.push_back(operand_dtype(*o));
  }
  UfuncOptions opts;
  opts.dtype = result_type(strong, weak);
  // Python scalars follow NEP 50 strictly, as NumPy 2.5 does: np.where(c, int8_array,
  // 300) is an OverflowError (NumPy 2.4 and older wrapped the value).
  return call1(CUNP_UFUNC("_where"), {cond, x, y}, opts);
}

ndarray clip(const Operand& a, std::optional<Operand> a_min, std::optional<Operand> a_max, const UfuncOptions& o) {
  if (!a_min && !a_max) {
    // NumPy 2: nothing to clip, a copy (into out= when given).
    ndarray r = a.is_array() ? a.array().copy(Order::K) : full({}, a.scalar(), {.dtype = operand_dtype(a)});
    if (o.dtype) r = r.astype(*o.dtype);
    if (o.out.empty()) return r;
    ndarray dst = o.out[0];
    dst.assign(r, o.casting);
    return dst;
  }
  // NumPy 2 clips integer arrays by Python-int bounds outside the dtype's range as if
  // the bound were the range's end (np.clip(int8_array, 0, 300) keeps the values).
  if (a.is_array() && is_integer(a.array().dtype())) {
    const IInfo info = iinfo(a.array().dtype());
    auto limit = [&](std::optional<Operand>& bound) {
      if (!bound || bound->is_array() || !bound->scalar().weak() || bound->scalar().weak_kind() != WeakKind::Int ||
          bound->scalar().fits(a.array().dtype())) {
        return;
      }
      const bool above = bound->scalar().dtype() == DType::UInt64 || bound->scalar().to_double() > 0;
      bound = above ? Operand(Scalar::of(a.array().dtype(), Scalar(info.max)))
                    : Operand(Scalar::of(a.array().dtype(), Scalar(info.min)));
    };
    limit(a_min);
    limit(a_max);
  }
  if (!a_min) return minimum(a, *a_max, o);
  if (!a_max) return maximum(a, *a_min, o);
  return call1(CUNP_UFUNC("clip"), {a, *a_min, *a_max}, o);
}

ndarray real(const ndarray& a) {
  if (!is_complex(a.dtype())) return a;
  return make_view_as(a, real_dtype(a.dtype()), a.shape(), a.strides(), a.offset());
}

ndarray imag(const ndarray& a) {
  if (!is_complex(a.dtype())) {
    ndarray z = zeros_like(a);
    z.set_writeable(false);
    return z;
  }
  const DType r = real_dtype(a.dtype());
  return make_view_as(a, r, a.shape(), a.strides(), a.offset() + static_cast<std::int64_t>(itemsize(r)));
}

ndarray angle(const Operand& z, bool deg) {
  ndarray a;
  if (z.is_array() && is_complex(z.array().dtype())) {
    a = arctan2(imag(z.array()), real(z.array()));
  } else {
    a = arctan2(Scalar(0), z);
  }
  if (deg) a = multiply(a, Scalar(180.0 / std::numbers::pi));
  return a;
}

ndarray nan_to_num(const ndarray& x, double nan, std::optional<double> posinf, std::optional<double> neginf) {
  std::optional<Operand> pos, neg;
  if (posinf) pos = Operand(*posinf);
  if (neginf) neg = Operand(*neginf);
  return nan_to_num(x, true, Operand(nan), pos, neg);
}

ndarray nan_to_num(const ndarray& x, bool copy, const Operand& nan, std::optional<Operand> posinf,
                   std::optional<Operand> neginf) {
  ndarray out = copy ? x.copy(Order::K) : x;
  if (!is_inexact(x.dtype())) return out;
  const FInfo fi = finfo(real_dtype(x.dtype()));
  const Operand pos = posinf ? *posinf : Operand(fi.max);
  const Operand neg = neginf ? *neginf : Operand(-fi.max);
  const double inf = std::numeric_limits<double>::infinity();
  // Each part is replaced in place where it is nan / +inf / -inf; the values are cast
  // to its dtype as NumPy's copyto(..., casting='unsafe') does.
  auto fix = [&](ndarray part) {
    auto replace = [&](const ndarray& mask, const Operand& value) {
      part.assign(where(mask, value, part).astype(part.dtype(), {.copy = false}), Casting::Unsafe);
    };
    const ndarray is_nan = isnan(part), is_pos = equal(part, Scalar(inf)), is_neg = equal(part, Scalar(-inf));
    replace(is_nan, nan);
    replace(is_pos, pos);
    replace(is_neg, neg);
  };
  if (is_complex(x.dtype())) {
    fix(real(out));
    fix(imag(out));
  } else {
    fix(out);
  }
  return out;
}

ndarray around(const ndarray& a, int decimals) {
  if (a.dtype() == DType::Bool) {
    // NumPy: rint(bool) is float16; with decimals it multiplies into the bool array.
    if (decimals != 0) {
      throw TypeError("Cannot cast ufunc 'multiply' output from dtype('float64') to dtype('bool') with casting rule "
                      "'same_kind'");
    }
    return rint(a);
  }
  if (is_complex(a.dtype())) {
    ndarray out = a.copy(Order::K);
    real(out).assign(around(real(a), decimals));
    imag(out).assign(around(imag(a), decimals));
    return out;
  }
  if (!is_inexact(a.dtype())) {
    if (decimals >= 0) return a.copy(Order::K);
    // Integers to a negative number of decimals: round half to even in float64, as
    // NumPy's integer path gives for representable values.
    const double f = std::pow(10.0, -decimals);
    return multiply(rint(true_divide(a.astype(DType::Float64), Scalar(f))), Scalar(f)).astype(a.dtype());
  }
  if (decimals == 0) return rint(a);
  const double f = std::pow(10.0, decimals > 0 ? decimals : -decimals);
  if (decimals > 0) return true_divide(rint(multiply(a, Scalar(f))), Scalar(f));
  return multiply(rint(true_divide(a, Scalar(f))), Scalar(f));
}

ndarray isclose(const Operand& a, const Operand& b, double rtol, double atol, bool equal_nan) {
  // NumPy: |a - b| <= atol + rtol * |b| where b is finite, or a == b; computed in the
  // inexact result type of a, b (integers go to float64), with errors ignored (inf - inf).
  const ErrStateGuard quiet({.divide = ErrorMode::Ignore, .over = ErrorMode::Ignore, .under = ErrorMode::Ignore,
                             .invalid = ErrorMode::Ignore});
  std::vector<DType> strong;
  std::vector<WeakKind> weak{WeakKind::Float};
  for (const Operand* o : {&a, &b}) {
    if (!o->is_array() && o->scalar().weak()) weak.push_back(o->scalar().weak_kind());
    else strong.push_back(operand_dtype(*o));
  }
  const DType dt = result_type(strong, weak);
  auto as_dt = [dt](const Operand& o) -> Operand {
    if (o.is_array()) return o.array().dtype() == dt ? o : Operand(o.array().astype(dt));
    return o;
  };
  const Operand x = as_dt(a), y = as_dt(b);
  ndarray close = less_equal(absolute(subtract(x, y)), add(Scalar(atol), multiply(Scalar(rtol), absolute(y))));
  ndarray result = logical_or(logical_and(close, isfinite(y)), equal(x, y));
  if (equal_nan) result = logical_or(result, logical_and(isnan(x), isnan(y)));
  return result;
}

bool allclose(const Operand& a, const Operand& b, double rtol, double atol, bool equal_nan) {
  return all_true(isclose(a, b, rtol, atol, equal_nan));
}

bool array_equal(const ndarray& a1, const ndarray& a2, bool equal_nan) {
  if (a1.shape() != a2.shape()) return false;
  if (a1.size() == 0) return true;
  ndarray eq = equal(a1, a2);
  if (equal_nan && is_inexact(promote_types(a1.dtype(), a2.dtype()))) {
    eq = logical_or(eq, logical_and(isnan(a1), isnan(a2)));
  }
  return all_true(eq);
}

ndarray operator+(const Operand& a, const Operand& b) { return add(a, b); }
ndarray operator-(const Operand& a, const Operand& b) { return subtract(a, b); }
ndarray operator*(const Operand& a, const Operand& b) { return multiply(a, b); }
ndarray operator/(const Operand& a, const Operand& b) { return true_divide(a, b); }
ndarray operator%(const Operand& a, const Operand& b) { return remainder(a, b); }
ndarray operator&(const Operand& a, const Operand& b) { return bitwise_and(a, b); }
ndarray operator|(const Operand& a, const Operand& b) { return bitwise_or(a, b); }
ndarray operator^(const Operand& a, const Operand& b) { return bitwise_xor(a, b); }
ndarray operator<<(const Operand& a, const Operand& b) { return left_shift(a, b); }
ndarray operator>>(const Operand& a, const Operand& b) { return right_shift(a, b); }
ndarray operator==(const Operand& a, const Operand& b) { return equal(a, b); }
ndarray operator!=(const Operand& a, const Operand& b) { return not_equal(a, b); }
ndarray operator<(const Operand& a, const Operand& b) { return less(a, b); }
ndarray operator<=(const Operand& a, const Operand& b) { return less_equal(a, b); }
ndarray operator>(const Operand& a, const Operand& b) { return greater(a, b); }
ndarray operator>=(const Operand& a, const Operand& b) { return greater_equal(a, b); }
ndarray operator-(const ndarray& a) { return negative(a); }
ndarray operator~(const ndarray& a) { return invert(a); }

namespace {
ndarray& in_place(const ufunc::Ufunc& uf, ndarray& a, const Operand& b) {
  UfuncOptions o;
  o.out = {a};
  const Operand in[2] = {a, b};
  ufunc::execute(uf, in, o);
  return a;
}
}  // namespace

ndarray& operator+=(ndarray& a, const Operand& b) { return in_place(CUNP_UFUNC("add"), a, b); }
ndarray& operator-=(ndarray& a, const Operand& b) { return in_place(CUNP_UFUNC("subtract"), a, b); }
ndarray& operator*=(ndarray& a, const Operand& b) { return in_place(CUNP_UFUNC("multiply"), a, b); }
ndarray& operator/=(ndarray& a, const Operand& b) { return in_place(CUNP_UFUNC("true_divide"), a, b); }

}  // namespace cunp

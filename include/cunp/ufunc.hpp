// cunp/ufunc.hpp — universal functions: every elementwise operation of NumPy, with
// broadcasting, NEP 50 type resolution, out=, where=, dtype= and casting=, on every
// device; plus the C++ operators of ndarray.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "cunp/ndarray.hpp"
#include "cunp/scalar.hpp"

namespace cunp {

// An operand: an array or a scalar. C++ arithmetic values are weak (NEP 50), like
// Python scalars: `a + 1` keeps a's dtype.
class Operand {
 public:
  Operand(const ndarray& a) : array_(a), is_array_(true) {}  // NOLINT(google-explicit-constructor)
  Operand(const Scalar& s) : scalar_(s) {}                   // NOLINT(google-explicit-constructor)
  template <typename T>
    requires std::is_arithmetic_v<T>
  Operand(T v) : scalar_(v) {}  // NOLINT(google-explicit-constructor)
  Operand(std::complex<double> v) : scalar_(v) {}  // NOLINT(google-explicit-constructor)

  bool is_array() const noexcept { return is_array_; }
  const ndarray& array() const noexcept { return array_; }
  const Scalar& scalar() const noexcept { return scalar_; }

 private:
  ndarray array_;
  Scalar scalar_;
  bool is_array_ = false;
};

struct UfuncOptions {
  // Output arrays (one per ufunc output, or none to allocate them).
  std::vector<ndarray> out;
  // Positions to compute; elsewhere the output keeps its values (uninitialized when
  // the output is allocated here, as in NumPy).
  std::optional<ndarray> where;
  // Overrides the loop: the first loop producing this dtype that the inputs cast to.
  std::optional<DType> dtype;
  // NumPy's signature=: the loop's types, inputs then outputs (nin + nout entries;
  // nullopt leaves a position free). Empty: not given. Not together with dtype.
  std::vector<std::optional<DType>> signature;
  Casting casting = Casting::SameKind;
};

// Calls the ufunc named `name` (NumPy's name or alias). Returns its outputs.
std::vector<ndarray> call_ufunc(std::string_view name, std::span<const Operand> inputs,
                                const UfuncOptions& options = {});

// The ufunc's type signatures in NumPy's spelling ("ff->f"), in resolution order.
std::vector<std::string> ufunc_types(std::string_view name);

// One function per ufunc, with NumPy's names.
#define CUNP_UNARY_UFUNCS(X)                                                                      \
  X(negative) X(positive) X(absolute) X(fabs) X(sign) X(square) X(reciprocal) X(conjugate) X(sin) \
  X(cos) X(tan) X(arcsin) X(arccos) X(arctan) X(sinh) X(cosh) X(tanh) X(arcsinh) X(arccosh)       \
  X(arctanh) X(exp) X(exp2) X(expm1) X(log) X(log2) X(log10) X(log1p) X(sqrt) X(cbrt) X(deg2rad) \
  X(rad2deg) X(degrees) X(radians) X(floor) X(ceil) X(trunc) X(rint) X(spacing) X(signbit)        \
  X(isnan) X(isinf) X(isfinite) X(logical_not) X(invert)
#define CUNP_BINARY_UFUNCS(X)                                                                     \
  X(add) X(subtract) X(multiply) X(true_divide) X(floor_divide) X(remainder) X(fmod) X(power)     \
  X(float_power) X(maximum) X(minimum) X(fmax) X(fmin) X(hypot) X(arctan2) X(logaddexp)           \
  X(logaddexp2) X(copysign) X(nextafter) X(ldexp) X(heaviside) X(equal) X(not_equal) X(less)      \
  X(less_equal) X(greater) X(greater_equal) X(logical_and) X(logical_or) X(logical_xor)           \
  X(bitwise_and) X(bitwise_or) X(bitwise_xor) X(left_shift) X(right_shift) X(gcd) X(lcm)

#define CUNP_DECLARE_UNARY(name) ndarray name(const Operand& x, const UfuncOptions& options = {});
#define CUNP_DECLARE_BINARY(name) \
  ndarray name(const Operand& x1, const Operand& x2, const UfuncOptions& options = {});
CUNP_UNARY_UFUNCS(CUNP_DECLARE_UNARY)
CUNP_BINARY_UFUNCS(CUNP_DECLARE_BINARY)
#undef CUNP_DECLARE_UNARY
#undef CUNP_DECLARE_BINARY

inline ndarray divide(const Operand& a, const Operand& b, const UfuncOptions& o = {}) { return true_divide(a, b, o); }
inline ndarray mod(const Operand& a, const Operand& b, const UfuncOptions& o = {}) { return remainder(a, b, o); }
inline ndarray abs(const Operand& a, const UfuncOptions& o = {}) { return absolute(a, o); }
inline ndarray conj(const Operand& a, const UfuncOptions& o = {}) { return conjugate(a, o); }
inline ndarray bitwise_not(const Operand& a, const UfuncOptions& o = {}) { return invert(a, o); }
// Two-output ufuncs: {quotient, remainder}, {fractional, integral}, {mantissa, exponent}.
std::vector<ndarray> divmod(const Operand& x1, const Operand& x2, const UfuncOptions& options = {});
std::vector<ndarray> modf(const Operand& x, const UfuncOptions& options = {});
std::vector<ndarray> frexp(const Operand& x, const UfuncOptions& options = {});

// np.where(condition, x, y); np.clip(a, a_min, a_max) (either bound or both may be
// absent: NumPy 2 returns a copy then).
ndarray where(const Operand& condition, const Operand& x, const Operand& y);
ndarray clip(const Operand& a, std::optional<Operand> a_min, std::optional<Operand> a_max,
             const UfuncOptions& options = {});
// np.real / np.imag: views for complex arrays (the array itself / zeros otherwise);
// np.angle (radians, or degrees when deg).
ndarray real(const ndarray& a);
ndarray imag(const ndarray& a);
ndarray angle(const Operand& z, bool deg = false);
// np.nan_to_num with NumPy's defaults (nan -> 0, +-inf -> the dtype's largest finite).
// The replacement values may be arrays broadcasting against x; with copy = false x is
// changed in place and returned (as it is for integer and bool x).
ndarray nan_to_num(const ndarray& x, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                   std::optional<double> neginf = std::nullopt);
ndarray nan_to_num(const ndarray& x, bool copy, const Operand& nan, std::optional<Operand> posinf,
                   std::optional<Operand> neginf);
// np.around / np.round (decimals may be negative).
ndarray around(const ndarray& a, int decimals = 0);
// np.isclose / np.allclose / np.array_equal.
ndarray isclose(const Operand& a, const Operand& b, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false);
bool allclose(const Operand& a, const Operand& b, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false);
bool array_equal(const ndarray& a1, const ndarray& a2, bool equal_nan = false);

// Operators (NumPy's semantics, including NEP 50 for C++ scalars).
ndarray operator+(const Operand& a, const Operand& b);
ndarray operator-(const Operand& a, const Operand& b);
ndarray operator*(const Operand& a, const Operand& b);
ndarray operator/(const Operand& a, const Operand& b);
ndarray operator%(const Operand& a, const Operand& b);
ndarray operator&(const Operand& a, const Operand& b);
ndarray operator|(const Operand& a, const Operand& b);
ndarray operator^(const Operand& a, const Operand& b);
ndarray operator<<(const Operand& a, const Operand& b);
ndarray operator>>(const Operand& a, const Operand& b);
ndarray operator==(const Operand& a, const Operand& b);
ndarray operator!=(const Operand& a, const Operand& b);
ndarray operator<(const Operand& a, const Operand& b);
ndarray operator<=(const Operand& a, const Operand& b);
ndarray operator>(const Operand& a, const Operand& b);
ndarray operator>=(const Operand& a, const Operand& b);
ndarray operator-(const ndarray& a);
ndarray operator~(const ndarray& a);
// In place: a op= b writes into a (casting 'same_kind', as NumPy's in-place operators).
ndarray& operator+=(ndarray& a, const Operand& b);
ndarray& operator-=(ndarray& a, const Operand& b);
ndarray& operator*=(ndarray& a, const Operand& b);
ndarray& operator/=(ndarray& a, const Operand& b);

}  // namespace cunp

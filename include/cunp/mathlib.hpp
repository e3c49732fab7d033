// cunp/mathlib.hpp — NumPy's small array functions built on the ufuncs: sinc, i0,
// fix, real_if_close, isposinf/isneginf, iscomplex/isreal(obj), array_equiv,
// nanargmin/nanargmax, bitwise_count, packbits/unpackbits. Composed from cunp
// operations on the array's device; the Python package has each under NumPy's name.
#pragma once

#include <cstdint>
#include <optional>

#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {

// np.sinc: sin(pi x) / (pi x), 1 at 0 (x = 0 is replaced by the dtype's eps, as NumPy).
ndarray sinc(const ndarray& x);
// np.i0: the modified Bessel function of the first kind, order 0, of real input
// (TypeError for complex; integers give float64). NumPy evaluates Chebyshev series,
// cunp the special::i0 ufunc: the values agree to rounding.
ndarray i0(const ndarray& x);
// np.fix: rounds toward zero (integers keep their dtype).
ndarray fix(const ndarray& x, const UfuncOptions& options = {});
// np.real_if_close: the real part (a view) when every imaginary part is below `tol`
// (in machine epsilons of the dtype when tol > 1); otherwise `a` itself.
ndarray real_if_close(const ndarray& a, double tol = 100);
// np.isposinf / np.isneginf: true where x is +inf / -inf (TypeError for complex x).
ndarray isposinf(const ndarray& x, const UfuncOptions& options = {});
ndarray isneginf(const ndarray& x, const UfuncOptions& options = {});
// np.iscomplex / np.isreal: elementwise, by the imaginary part; np.iscomplexobj /
// np.isrealobj: by the dtype.
ndarray iscomplex(const ndarray& x);
ndarray isreal(const ndarray& x);
bool iscomplexobj(const ndarray& x) noexcept;
bool isrealobj(const ndarray& x) noexcept;
// np.array_equiv: the same values after broadcasting; false when the shapes do not
// broadcast.
bool array_equiv(const ndarray& a1, const ndarray& a2);
// np.nanargmin / np.nanargmax: argmin/argmax ignoring NaN; ValueError "All-NaN slice
// encountered" when a reduced slice holds only NaN.
ndarray nanargmin(const ndarray& a, const ArgReduceOptions& options = {});
ndarray nanargmax(const ndarray& a, const ArgReduceOptions& options = {});
// np.bitwise_count: the number of 1-bits of |x| per element of a bool or integer array
// (uint8; TypeError for other dtypes).
ndarray bitwise_count(const ndarray& x);

// np.packbits / np.unpackbits. `axis` nullopt works on the flattened array; BitOrder
// says whether the first value of each group is the high bit (Big) or the low one.
enum class BitOrder : std::uint8_t { Big, Little };
BitOrder parse_bit_order(std::string_view text);  // "big" / "little" (ValueError otherwise)
// Groups of 8 truth values along axis as uint8, zero-padded at the end. TypeError
// unless a is bool or integer.
ndarray packbits(const ndarray& a, std::optional<int> axis = std::nullopt,
                 BitOrder bitorder = BitOrder::Big);
// Each uint8 as 8 bits (uint8 0/1) along axis; `count` keeps that many bits (padding
// with zeros) or, negative, drops that many at the end. TypeError unless a is uint8.
ndarray unpackbits(const ndarray& a, std::optional<int> axis = std::nullopt,
                   std::optional<std::int64_t> count = std::nullopt,
                   BitOrder bitorder = BitOrder::Big);

}  // namespace cunp

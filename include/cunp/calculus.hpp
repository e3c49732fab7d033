// cunp/calculus.hpp — sampled functions: np.gradient, np.trapezoid, np.interp,
// np.unwrap and np.ediff1d, composed from slicing, ufuncs and reductions on the
// array's device (the same computations, in the same order, as the Python package's).
#pragma once

#include <cstdint>
#include <numbers>
#include <optional>
#include <variant>
#include <vector>

#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {

// The spacing of one axis in np.gradient: a uniform step, or the sample coordinates
// along that axis (a 1-d array of the axis's length; a 0-d array is a step).
using GradientSpacing = std::variant<double, ndarray>;

struct GradientOptions {
  // np.gradient's *varargs: empty (unit steps), one entry for every axis, or one per
  // axis in `axis`.
  std::vector<GradientSpacing> spacing;
  Axes axis = {};  // None: every axis
  int edge_order = 1;
};
// np.gradient: second-order central differences inside, first- or second-order
// one-sided differences at the edges (edge_order), one array per axis (NumPy returns
// the array itself for a single axis; C++ always a vector). Integer input gives
// float64. Evenly spaced coordinates use the uniform formulas, as NumPy does.
// ValueError for edge_order > 2, an axis shorter than edge_order + 1 or mismatched
// coordinates, TypeError for a wrong number of spacings.
std::vector<ndarray> gradient(const ndarray& f, const GradientOptions& options = {});

struct TrapezoidOptions {
  std::optional<ndarray> x;  // sample points: 1-d along axis, or y's shape
  Operand dx = 1.0;          // the spacing when x is absent
  int axis = -1;
};
// np.trapezoid: the composite trapezoidal rule along `axis`.
ndarray trapezoid(const ndarray& y, const TrapezoidOptions& options = {});

struct InterpOptions {
  std::optional<Scalar> left, right;  // default fp[0], fp[-1]
  std::optional<double> period;       // angular x (left/right ignored); ValueError for 0
};
// np.interp: piecewise-linear interpolation of the increasing samples (xp, fp) at x,
// in float64 (complex128 for complex fp). ValueError for empty or mismatched samples.
ndarray interp(const ndarray& x, const ndarray& xp, const ndarray& fp,
               const InterpOptions& options = {});

struct UnwrapOptions {
  std::optional<Scalar> discont;  // default period / 2
  int axis = -1;
  Scalar period = std::numbers::pi * 2;  // an integer period keeps integer input integer
};
// np.unwrap: adds multiples of `period` where consecutive values jump by more than
// `discont` along `axis`.
ndarray unwrap(const ndarray& p, const UnwrapOptions& options = {});

// np.ediff1d: the differences of the flattened array, with to_begin / to_end
// (flattened, cast to ary's dtype; TypeError unless under the same_kind rule) around.
ndarray ediff1d(const ndarray& ary, const std::optional<ndarray>& to_end = std::nullopt,
                const std::optional<ndarray>& to_begin = std::nullopt);

}  // namespace cunp

// src/numeric/calculus.cpp — gradient, trapezoid, interp, unwrap and ediff1d in
// NumPy's formulas (numpy/lib/_function_base_impl.py), built from views, ufuncs and
// reductions so that one code path serves every device.
#include "cunp/calculus.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/errstate.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/sort.hpp"
#include "numeric/common.hpp"

namespace cunp {
namespace {

using numeric::along;
using numeric::along_shape;
using numeric::truth;

constexpr ErrorState kIgnoreAll{ErrorMode::Ignore, ErrorMode::Ignore, ErrorMode::Ignore,
                                ErrorMode::Ignore};

// One axis's step in gradient: uniform (a Python float, weak, or a strong 0-d array as
// NumPy's diffx[0]) or the differences of the coordinates.
struct AxisSpacing {
  bool uniform = true;
  std::optional<double> value;  // a uniform step given as a number
  ndarray step;                 // a uniform step as a 0-d array
  ndarray steps;                // otherwise: diff(coordinates)

  // k * step and k / step, as NumPy's `2. * ax_dx`, `-1.5 / ax_dx`: host arithmetic for
  // a number (a weak result), a 0-d array otherwise.
  Operand times(double k) const { return value ? Operand(k * *value) : Operand(k * step); }
  Operand over(double k) const { return value ? Operand(k / *value) : Operand(k / step); }
  Operand h() const { return value ? Operand(*value) : Operand(step); }
};

AxisSpacing spacing_of(const GradientSpacing& given, std::int64_t length) {
  AxisSpacing s;
  if (const double* h = std::get_if<double>(&given)) {
    s.value = *h;
    return s;
  }
  ndarray d = std::get<ndarray>(given);
  if (d.ndim() == 0) {
    s.step = d;
    return s;
  }
  if (d.ndim() != 1) throw ValueError("distances must be either scalars or 1d");
  if (d.shape()[0] != length) {
    throw ValueError("when 1d, distances must match the length of the corresponding dimension");
  }
  if (is_integer(d.dtype())) d = d.astype(DType::Float64);
  ndarray steps = diff(d);
  if (steps.shape()[0] == 0) throw IndexError("index 0 is out of bounds for axis 0 with size 0");
  const ndarray first = steps[0];
  if (truth(all(equal(steps, first)))) {
    s.step = first.copy();
    return s;
  }
  s.uniform = false;
  s.steps = steps;
  return s;
}

// out[edge] = a * f[i0] + b * f[i1] + c * f[i2]
ndarray combine(const Operand& a, const ndarray& f0, const Operand& b, const ndarray& f1,
                const Operand& c, const ndarray& f2) {
  return a * f0 + b * f1 + c * f2;
}

}  // namespace

std::vector<ndarray> gradient(const ndarray& f_in, const GradientOptions& o) {
  ndarray f = f_in;
  const int N = f.ndim();
  std::vector<int> axes;
  if (o.axis.is_none()) {
    for (int i = 0; i < N; ++i) axes.push_back(i);
  } else {
    for (int a : o.axis.values()) {
      const int n = normalize_axis(a, N);
      for (int seen : axes) {
        if (seen == n) throw ValueError("repeated axis");
      }
      axes.push_back(n);
    }
  }
  const std::size_t n_axes = axes.size();
  std::vector<GradientSpacing> given;
  if (o.spacing.empty()) {
    given.assign(n_axes, GradientSpacing(1.0));
  } else if (o.spacing.size() == 1 && (std::holds_alternative<double>(o.spacing[0]) ||
                                       std::get<ndarray>(o.spacing[0]).ndim() == 0)) {
    given.assign(n_axes, o.spacing[0]);
  } else if (o.spacing.size() == n_axes) {
    given = o.spacing;
  } else {
    throw TypeError("invalid number of arguments");
  }
  std::vector<AxisSpacing> dx;
  for (std::size_t i = 0; i < n_axes; ++i)
    dx.push_back(spacing_of(given[i], f.shape()[static_cast<std::size_t>(axes[i])]));
  if (o.edge_order > 2) throw ValueError("'edge_order' greater than 2 not supported");
  DType otype = f.dtype();
  if (!is_inexact(otype)) {
    if (is_integer(otype)) f = f.astype(DType::Float64);
    otype = DType::Float64;
  }
  std::vector<ndarray> results;
  for (std::size_t i = 0; i < n_axes; ++i) {
    const int ax = axes[i];
    const AxisSpacing& h = dx[i];
    if (f.shape()[static_cast<std::size_t>(ax)] < o.edge_order + 1) {
      throw ValueError(
          "Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
          "elements are "
          "required.");
    }
    ndarray out = empty(f.shape(), {.dtype = otype, .device = f.device()});
    const auto at = [&](Index index) { return along(f, ax, index); };
    ndarray inner = along(out, ax, slice(1, -1));
    if (h.uniform) {
      inner.assign((at(slice(2)) - at(slice(std::nullopt, -2))) / h.times(2.0));
    } else {
      const ndarray h1 = h.steps.view({slice(std::nullopt, -1)});
      const ndarray h2 = h.steps.view({slice(1)});
      const Shape shape = along_shape(N, ax, -1);
      const ndarray a = (-h2 / (h1 * (h1 + h2))).reshape(shape);
      const ndarray b = ((h2 - h1) / (h1 * h2)).reshape(shape);
      const ndarray c = (h1 / (h2 * (h1 + h2))).reshape(shape);
      inner.assign(combine(a, at(slice(std::nullopt, -2)), b, at(slice(1, -1)), c, at(slice(2))));
    }
    ndarray first = along(out, ax, std::int64_t{0});
    ndarray last = along(out, ax, std::int64_t{-1});
    if (o.edge_order == 1) {
      const Operand d0 = h.uniform ? h.h() : Operand(h.steps[0]);
      const Operand dn = h.uniform ? h.h() : Operand(h.steps[-1]);
      first.assign((at(std::int64_t{1}) - at(std::int64_t{0})) / d0);
      last.assign((at(std::int64_t{-1}) - at(std::int64_t{-2})) / dn);
    } else {
      if (h.uniform) {
        first.assign(combine(h.over(-1.5), at(std::int64_t{0}), h.over(2.0), at(std::int64_t{1}),
                             h.over(-0.5), at(std::int64_t{2})));
        last.assign(combine(h.over(0.5), at(std::int64_t{-3}), h.over(-2.0), at(std::int64_t{-2}),
                            h.over(1.5), at(std::int64_t{-1})));
      } else {
        ndarray h1 = h.steps[0], h2 = h.steps[1];
        first.assign(combine(-(2.0 * h1 + h2) / (h1 * (h1 + h2)), at(std::int64_t{0}),
                             (h1 + h2) / (h1 * h2), at(std::int64_t{1}), -h1 / (h2 * (h1 + h2)),
                             at(std::int64_t{2})));
        h1 = h.steps[-2];
        h2 = h.steps[-1];
        last.assign(combine(h2 / (h1 * (h1 + h2)), at(std::int64_t{-3}), -(h2 + h1) / (h1 * h2),
                            at(std::int64_t{-2}), (2.0 * h2 + h1) / (h2 * (h1 + h2)),
                            at(std::int64_t{-1})));
      }
    }
    results.push_back(out);
  }
  return results;
}

ndarray trapezoid(const ndarray& y, const TrapezoidOptions& o) {
  const int axis = normalize_axis(o.axis, y.ndim());
  Operand d = o.dx;
  if (o.x) {
    const ndarray x = o.x->to(y.device());
    if (x.ndim() == 1) {
      const ndarray dxs = diff(x);
      d = dxs.reshape(along_shape(y.ndim(), axis, dxs.shape()[0]));
    } else {
      d = diff(x, {.axis = axis});
    }
  }
  const ndarray upper = along(y, axis, slice(1));
  const ndarray lower = along(y, axis, slice(std::nullopt, -1));
  return sum(d * (upper + lower) / 2.0, {.axis = axis});
}

namespace {

ndarray safe_cast(const ndarray& a, DType dt) {
  if (!can_cast(a.dtype(), dt, Casting::Safe)) {
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(a.dtype())) +
                    "') to dtype('" + std::string(name(dt)) + "') according to the rule 'safe'");
  }
  return a.astype(dt, {.copy = false});
}

ndarray sample_vector(const ndarray& a, DType dt) {
  if (a.ndim() > 1) throw ValueError("object too deep for desired array");
  if (a.ndim() < 1) throw ValueError("object of too small depth for desired array");
  return safe_cast(a, dt);
}

// One real component of interp between the bracketing samples (x0, y0), (x1, y1).
ndarray interp_real(const ndarray& xf, const ndarray& x0, const ndarray& x1, const ndarray& y0,
                    const ndarray& y1, bool slope_div) {
  const ndarray slope = slope_div ? (y1 - y0) / (x1 - x0) : (y1 - y0) * (1.0 / (x1 - x0));
  const ndarray r = slope * (xf - x0) + y0;
  // NaN from one side (an infinite sample, say): the other side, then the flat segment.
  ndarray r2 = slope * (xf - x1) + y1;
  r2 = where(logical_and(isnan(r2), equal(y0, y1)), y0, r2);
  return where(isnan(r), r2, r);
}

}  // namespace

ndarray interp(const ndarray& x_in, const ndarray& xp_in, const ndarray& fp_in,
               const InterpOptions& o) {
  const Device dev = x_in.device();
  ndarray x = x_in, xp = xp_in.to(dev), fp = fp_in.to(dev);
  const bool is_complex = cunp::is_complex(fp.dtype());
  const DType dt = is_complex ? DType::Complex128 : DType::Float64;
  std::optional<Scalar> left = o.left, right = o.right;
  if (o.period) {
    if (*o.period == 0) throw ValueError("period must be a non-zero value");
    const double period = std::abs(*o.period);
    left.reset();
    right.reset();
    x = x.astype(DType::Float64);
    xp = xp.astype(DType::Float64);
    fp = fp.astype(dt);
    if (xp.ndim() != 1 || fp.ndim() != 1) throw ValueError("Data points must be 1-D sequences");
    if (xp.shape()[0] != fp.shape()[0]) throw ValueError("fp and xp are not of the same length");
    x = remainder(x, period);
    xp = remainder(xp, period);
    const ndarray order = argsort(xp);
    xp = take(xp, order);
    fp = take(fp, order);
    const ndarray xs[] = {xp.view({slice(-1)}) - period, xp, xp.view({slice(0, 1)}) + period};
    const ndarray fs[] = {fp.view({slice(-1)}), fp, fp.view({slice(0, 1)})};
    xp = concatenate(xs);
    fp = concatenate(fs);
  }
  fp = sample_vector(fp, dt);
  xp = sample_vector(xp, DType::Float64);
  const ndarray xf = safe_cast(x, DType::Float64);
  const std::int64_t n = xp.shape()[0];
  if (n == 0) throw ValueError("array of sample points is empty");
  if (fp.shape()[0] != n) throw ValueError("fp and xp are not of the same length.");
  if (xf.size() == 0) return empty(xf.shape(), {.dtype = dt, .device = dev});
  const auto fill = [&](const std::optional<Scalar>& v, std::int64_t i) -> ndarray {
    if (!v) return fp[i];
    if (cunp::is_complex(v->dtype()) && !is_complex)
      throw TypeError("must be real number, not complex");
    return full({}, *v, {.dtype = dt, .device = dev});
  };
  const ndarray lval = fill(left, 0), rval = fill(right, -1);
  const ErrStateGuard quiet(kIgnoreAll);  // NumPy's interp is a C loop: no floating-point warnings
  ndarray res;
  if (n == 1) {
    res = where(less(xf, xp[0]), lval, where(greater(xf, xp[0]), rval, fp[0]));
  } else {
    const ndarray j = searchsorted(xp, xf, Side::Right) - 1;  // xp[j] <= x < xp[j + 1]
    const ndarray jc = clip(j, Operand(0), Operand(n - 2));
    const ndarray jc1 = jc + 1;
    const ndarray x0 = take(xp, jc), x1 = take(xp, jc1);
    const ndarray y0 = take(fp, jc), y1 = take(fp, jc1);
    if (is_complex) {
      res = empty(xf.shape(), {.dtype = dt, .device = dev});
      real(res).assign(interp_real(xf, x0, x1, real(y0), real(y1), false));
      imag(res).assign(interp_real(xf, x0, x1, imag(y0), imag(y1), false));
    } else {
      res = interp_real(xf, x0, x1, y0, y1, true);
    }
    res = where(equal(x0, xf), y0, res);  // a sample point itself: no arithmetic
    res = where(equal(j, n - 1), fp[-1], res);
    res = where(less(xf, xp[0]), lval, res);
    res = where(greater(xf, xp[-1]), rval, res);
    res = where(isnan(xf), xf, res);
  }
  return res.astype(dt, {.copy = false});
}

ndarray unwrap(const ndarray& p, const UnwrapOptions& o) {
  const int axis = normalize_axis(o.axis, p.ndim());
  const ndarray dd = diff(p, {.axis = axis});
  std::vector<DType> strongs{dd.dtype()};
  std::vector<WeakKind> weak;
  if (o.period.weak())
    weak.push_back(o.period.weak_kind());
  else
    strongs.push_back(o.period.dtype());
  const DType dtype = result_type(strongs, weak);
  Scalar high;
  bool ambiguous = true;
  if (is_integer(dtype)) {
    const std::int64_t period = o.period.to_int64();
    std::int64_t h = period / 2, rem = period % 2;
    if (rem < 0) {  // Python's floor divmod
      h -= 1;
      rem += 2;
    }
    high = Scalar(h);
    ambiguous = rem == 0;
  } else {
    high = Scalar(o.period.to_double() / 2);
  }
  const Scalar low = is_integer(dtype) ? Scalar(-high.to_int64()) : Scalar(-high.to_double());
  const Scalar period =
      is_integer(dtype) ? Scalar(o.period.to_int64()) : Scalar(o.period.to_double());
  ndarray ddmod = remainder(dd - low, period) + low;
  if (ambiguous) ddmod = where(logical_and(equal(ddmod, low), greater(dd, 0)), Scalar(high), ddmod);
  const Scalar discont =
      o.discont ? *o.discont : Scalar(period.to_double() / 2);  // true division, as NumPy
  ndarray correction = ddmod - dd;
  correction = where(less(absolute(dd), discont), Operand(0), correction);
  ndarray up = p.astype(dtype);
  ndarray later = along(up, axis, slice(1));
  later.assign(along(p, axis, slice(1)) + cumsum(correction, {.axis = axis}));
  return up;
}

ndarray ediff1d(const ndarray& ary_in, const std::optional<ndarray>& to_end,
                const std::optional<ndarray>& to_begin) {
  const ndarray ary = ary_in.ravel();
  const ndarray later = ary.view({slice(1)});
  const ndarray earlier = ary.view({slice(std::nullopt, -1)});
  if (!to_begin && !to_end) return later - earlier;
  const auto piece = [&](const std::optional<ndarray>& extra, const char* name) -> ndarray {
    if (!extra) return {};
    if (!can_cast(extra->dtype(), ary.dtype(), Casting::SameKind)) {
      throw TypeError(std::string("dtype of `") + name +
                      "` must be compatible with input `ary` under the `same_kind` rule.");
    }
    return extra->to(ary.device()).ravel();
  };
  const ndarray begin = piece(to_begin, "to_begin");
  const ndarray end = piece(to_end, "to_end");
  const std::int64_t lb = begin.defined() ? begin.size() : 0;
  const std::int64_t le = end.defined() ? end.size() : 0;
  const std::int64_t ld = std::max<std::int64_t>(ary.size() - 1, 0);
  ndarray result = empty({lb + ld + le}, {.dtype = ary.dtype(), .device = ary.device()});
  if (lb) result.view({slice(0, lb)}).assign(begin);
  if (le) result.view({slice(lb + ld)}).assign(end);
  subtract(later, earlier, {.out = {result.view({slice(lb, lb + ld)})}});
  return result;
}

}  // namespace cunp

// src/numeric/polynomial.cpp — np.convolve/np.correlate over the direct correlation
// of src/signal, np.vander and the poly* functions in NumPy's formulas
// (numpy/lib/_polynomial_impl.py), composed from cunp operations.
#include "cunp/polynomial.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/errstate.hpp"
#include "cunp/indexing.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/signal.hpp"
#include "cunp/sort.hpp"
#include "numeric/common.hpp"

namespace cunp {
namespace {

using numeric::as_1d;
using numeric::truth;

constexpr ErrorState kIgnoreAll{ErrorMode::Ignore, ErrorMode::Ignore, ErrorMode::Ignore,
                                ErrorMode::Ignore};

// The dtype signal::correlate_valid sums in for a result dtype: integers wrap in 64
// bits (the same residues as NumPy's narrower sums), bool counts, float16 sums in
// float32 as NumPy's half dot.
DType sum_dtype(DType dt) {
  switch (kind(dt)) {
    case DTypeKind::Bool:
    case DTypeKind::SignedInt:
      return DType::Int64;
    case DTypeKind::UnsignedInt:
      return DType::UInt64;
    default:
      return dt == DType::Float16 ? DType::Float32 : dt;
  }
}

// out[i] = sum_j long[i - n_left + j] * short[j] (zero outside `long`), NumPy's
// correlation core with len(short) <= len(long); the mode sets n_left and the length.
ndarray sliding_dot(const ndarray& long_, const ndarray& short_, ConvolveMode mode, DType dtype) {
  const ErrStateGuard quiet(kIgnoreAll);  // NumPy's dot loops report no floating-point errors
  const std::int64_t m = short_.shape()[0];
  std::int64_t left = 0, right = 0;
  if (mode == ConvolveMode::Same) {
    left = m / 2;
    right = m - m / 2 - 1;
  } else if (mode == ConvolveMode::Full) {
    left = right = m - 1;
  }
  const DType acc = sum_dtype(dtype);
  const ndarray out = signal::correlate_valid(long_.astype(acc, {.copy = false}),
                                              short_.astype(acc, {.copy = false}),
                                              {.pad_before = {left}, .pad_after = {right}});
  if (dtype == DType::Bool) return not_equal(out, 0);
  return out.astype(dtype, {.copy = false});
}

void check_1d(const ndarray& a) {
  if (a.ndim() > 1) throw ValueError("object too deep for desired array");
}

// np.poly1d's coefficients: 1-d, leading zeros removed, [0] when nothing is left.
ndarray trimmed_coefficients(const ndarray& c_in) {
  const ndarray c = as_1d(c_in);
  if (c.ndim() > 1) throw ValueError("Polynomial must be 1d only.");
  const ndarray nz = flatnonzero(c);
  if (nz.shape()[0] == 0) return zeros({1}, {.dtype = c.dtype(), .device = c.device()});
  const std::int64_t first = nz[0].item().to_int64();
  return first ? c.view({slice(first)}) : c;
}

ndarray poly_sum(const ndarray& a1_in, const ndarray& a2_in, bool subtract_) {
  ndarray a1 = as_1d(a1_in), a2 = as_1d(a2_in.to(a1_in.device()));
  const std::int64_t extra = a2.shape()[0] - a1.shape()[0];
  const auto padded = [](const ndarray& a, std::int64_t n) {
    const ndarray parts[] = {zeros({n}, {.dtype = a.dtype(), .device = a.device()}), a};
    return concatenate(parts);
  };
  if (extra > 0)
    a1 = padded(a1, extra);
  else if (extra < 0)
    a2 = padded(a2, -extra);
  return subtract_ ? subtract(a1, a2) : add(a1, a2);
}

void no_scalar(const ndarray& a) {
  if (a.ndim() == 0) throw TypeError("expected a sequence (or a 1-d or 2-d array), not a scalar");
}

}  // namespace

ConvolveMode parse_convolve_mode(std::string_view text) {
  if (text == "valid") return ConvolveMode::Valid;
  if (text == "same") return ConvolveMode::Same;
  if (text == "full") return ConvolveMode::Full;
  throw ValueError("mode must be one of 'valid', 'same', or 'full' (got '" + std::string(text) +
                   "')");
}

ndarray convolve(const ndarray& a_in, const ndarray& v_in, ConvolveMode mode) {
  ndarray a = as_1d(a_in), v = as_1d(v_in.to(a_in.device()));
  if (a.shape()[0] == 0) throw ValueError("a cannot be empty");
  if (v.shape()[0] == 0) throw ValueError("v cannot be empty");
  if (v.shape()[0] > a.shape()[0]) std::swap(a, v);
  check_1d(a);
  check_1d(v);
  return sliding_dot(a, v.view({slice(std::nullopt, std::nullopt, -1)}), mode,
                     promote_types(a.dtype(), v.dtype()));
}

ndarray correlate(const ndarray& a, const ndarray& v_in, ConvolveMode mode) {
  ndarray v = v_in.to(a.device());
  check_1d(a);
  check_1d(v);
  if (a.ndim() == 0 || v.ndim() == 0)
    throw ValueError("object of too small depth for desired array");
  const DType dt = promote_types(a.dtype(), v.dtype());
  if (is_complex(v.dtype())) v = conjugate(v);
  if (a.shape()[0] == 0) throw ValueError("first array argument cannot be empty");
  if (v.shape()[0] == 0) throw ValueError("second array argument cannot be empty");
  if (a.shape()[0] < v.shape()[0]) {
    return sliding_dot(v, a, mode, dt).view({slice(std::nullopt, std::nullopt, -1)}).copy();
  }
  return sliding_dot(a, v, mode, dt);
}

ndarray vander(const ndarray& x, std::optional<std::int64_t> N_in, bool increasing) {
  if (x.ndim() != 1) throw ValueError("x must be a one-dimensional array or sequence.");
  const std::int64_t n = x.shape()[0];
  const std::int64_t N = N_in.value_or(n);
  if (N < 0) throw ValueError("negative dimensions are not allowed");
  const DType dt = promote_types(x.dtype(), DType::Int64);
  ndarray v = empty({n, N}, {.dtype = dt, .device = x.device()});
  if (N > 0) v.view({slice(), slice(0, 1)}).assign(Scalar(1));
  if (N > 1) {
    v.view({slice(), slice(1)}).assign(x.view({slice(), newaxis}));
    v = cumprod(v, {.axis = 1});  // x**0, x**1, ... by repeated products, as NumPy
  }
  if (!increasing) v = v.view({slice(), slice(std::nullopt, std::nullopt, -1)}).copy();
  return v;
}

ndarray polyval(const ndarray& p_in, const ndarray& x) {
  const ndarray p = p_in.to(x.device());
  if (p.ndim() == 0) throw TypeError("iteration over a 0-d array");
  ndarray y = zeros_like(x);
  for (std::int64_t i = 0; i < p.shape()[0]; ++i) y = y * x + p[i];
  return y;
}

ndarray polyadd(const ndarray& a1, const ndarray& a2) { return poly_sum(a1, a2, false); }
ndarray polysub(const ndarray& a1, const ndarray& a2) { return poly_sum(a1, a2, true); }

ndarray polymul(const ndarray& a1, const ndarray& a2) {
  return convolve(trimmed_coefficients(a1), trimmed_coefficients(a2.to(a1.device())));
}

std::pair<ndarray, ndarray> polydiv(const ndarray& u_in, const ndarray& v_in) {
  const ndarray u = as_1d(u_in) + 0.0;
  const ndarray v = as_1d(v_in.to(u_in.device())) + 0.0;
  const DType wt = promote_types(u.dtype(), v.dtype());
  const std::int64_t m = u.shape()[0] - 1, n = v.shape()[0] - 1;
  const ndarray scale = 1.0 / v[0];
  ndarray q = zeros({std::max<std::int64_t>(m - n + 1, 1)}, {.dtype = wt, .device = u.device()});
  ndarray r = u.astype(wt);
  for (std::int64_t k = 0; k < m - n + 1; ++k) {
    const ndarray d = scale * r[k];
    q[k].assign(d);
    ndarray part = r.view({slice(k, k + n + 1)});
    part -= d * v;
  }
  // numpy.allclose(r[0], 0, rtol=1e-14): |r[0]| <= atol (1e-8); NaN is not close.
  while (r.shape()[0] > 1 && truth(less_equal(absolute(r[0]), 1e-08))) r = r.view({slice(1)});
  return {q, r};
}

ndarray polyder(const ndarray& p_in, std::int64_t m) {
  if (m < 0) throw ValueError("Order of derivative must be positive (see polyint)");
  ndarray p = p_in;
  for (std::int64_t level = 0; level <= m; ++level) {
    if (p.ndim() == 0) throw TypeError("len() of unsized object");
    const ndarray powers = arange(Scalar(p.shape()[0] - 1), Scalar(0), Scalar(-1),
                                  {.dtype = DType::Int64, .device = p.device()});
    ndarray y = p.view({slice(std::nullopt, -1)}) * powers;  // also at the last level, as NumPy
    if (level == m) return p;
    p = y;
  }
  return p;
}

ndarray polyint(const ndarray& p_in, std::int64_t m, const std::optional<ndarray>& k_in) {
  if (m < 0) throw ValueError("Order of integral must be positive (see polyder)");
  const Device dev = p_in.device();
  ndarray k = k_in ? as_1d(k_in->to(dev)) : zeros({m}, {.dtype = DType::Float64, .device = dev});
  if (k.shape()[0] == 1 && m > 1) k = k[0] * ones({m}, {.dtype = DType::Float64, .device = dev});
  if (k.shape()[0] < m) throw ValueError("k must be a scalar or a rank-1 array of length 1 or >m.");
  ndarray p = p_in;
  for (std::int64_t i = 0; i < m; ++i) {
    if (p.ndim() == 0) throw TypeError("len() of unsized object");
    const ndarray powers =
        arange(Scalar(p.shape()[0]), Scalar(0), Scalar(-1), {.dtype = DType::Int64, .device = dev});
    const ndarray parts[] = {p / powers, k.view({slice(i, i + 1)})};
    p = concatenate(parts);
  }
  return p;
}

ndarray poly(const ndarray& seq, bool real_if_all_real) {
  no_scalar(seq);
  ndarray z = as_1d(seq);
  const Shape& sh = z.shape();
  if (sh.size() == 2 && sh[0] == sh[1] && sh[0] != 0) {
    z = linalg::eigvals(z, real_if_all_real);
  } else if (sh.size() == 1) {
    // numpy.mintypecode: float32/64 and complex64/128 keep their type, the rest float64.
    const DType dt = z.dtype();
    const bool keep = dt == DType::Float32 || dt == DType::Float64 || dt == DType::Complex64 ||
                      dt == DType::Complex128;
    z = z.astype(keep ? dt : DType::Float64, {.copy = false});
  } else {
    throw ValueError("input must be 1d or non-empty square 2d array.");
  }
  const Device dev = z.device();
  if (z.shape()[0] == 0) return full({}, Scalar(1.0), {.dtype = DType::Float64, .device = dev});
  const ndarray one = ones({1}, {.dtype = z.dtype(), .device = dev});
  ndarray a = one;
  for (std::int64_t i = 0; i < z.shape()[0]; ++i) {
    const ndarray factor[] = {one, -z.view({slice(i, i + 1)})};
    a = convolve(a, concatenate(factor), ConvolveMode::Full);
  }
  if (is_complex(a.dtype())) {
    const ndarray r = z.astype(DType::Complex128, {.copy = false});
    if (truth(all(equal(sort(r), sort(conjugate(r)))))) a = real(a).copy();
  }
  return a;
}

ndarray roots(const ndarray& p_in, bool real_if_all_real) {
  no_scalar(p_in);
  ndarray p = as_1d(p_in);
  if (p.ndim() != 1) throw ValueError("Input must be a rank-1 array.");
  const Device dev = p.device();
  const ndarray nz = flatnonzero(p);
  if (nz.shape()[0] == 0) return empty({0}, {.dtype = DType::Float64, .device = dev});
  const std::vector<std::int64_t> ends = nz.to_vector<std::int64_t>();
  const std::int64_t first = ends.front(), last = ends.back();
  const std::int64_t trailing = p.shape()[0] - last - 1;
  p = p.view({slice(first, last + 1)});
  if (!is_inexact(p.dtype())) p = p.astype(DType::Float64);
  const std::int64_t N = p.shape()[0];
  ndarray r;
  if (N > 1) {
    ndarray A = diag(ones({N - 2}, {.dtype = p.dtype(), .device = dev}), -1);
    A[0].assign(-p.view({slice(1)}) / p[0]);
    r = linalg::eigvals(A, real_if_all_real);
  } else {
    r = empty({0}, {.dtype = DType::Float64, .device = dev});
  }
  const ndarray parts[] = {r, zeros({trailing}, {.dtype = r.dtype(), .device = dev})};
  return concatenate(parts);
}

PolyfitResult polyfit(const ndarray& x_in, const ndarray& y_in, std::int64_t deg,
                      const PolyfitOptions& o) {
  const std::int64_t order = deg + 1;
  const Device dev = x_in.device();
  const ndarray x = x_in + 0.0;
  ndarray y = y_in.to(dev) + 0.0;
  if (deg < 0) throw ValueError("expected deg >= 0");
  if (x.ndim() != 1) throw TypeError("expected 1D vector for x");
  if (x.size() == 0) throw TypeError("expected non-empty vector for x");
  if (y.ndim() < 1 || y.ndim() > 2) throw TypeError("expected 1D or 2D array for y");
  if (x.shape()[0] != y.shape()[0]) throw TypeError("expected x and y to have same length");
  const std::int64_t npts = x.shape()[0];
  const double rcond = o.rcond ? *o.rcond : static_cast<double>(npts) * finfo(x.dtype()).eps;
  ndarray lhs = vander(x, order);
  ndarray rhs = y;
  if (o.w) {
    const ndarray w = o.w->to(dev) + 0.0;
    if (w.ndim() != 1) throw TypeError("expected a 1-d array for weights");
    if (w.shape()[0] != y.shape()[0]) throw TypeError("expected w and y to have the same length");
    lhs = lhs * w.view({slice(), newaxis});
    rhs = rhs * (rhs.ndim() == 2 ? w.view({slice(), newaxis}) : w);
  }
  const ndarray scale = sqrt(sum(lhs * lhs, {.axis = 0}));
  lhs = lhs / scale;
  linalg::LstsqResult fit = linalg::lstsq(lhs, rhs, rcond);
  PolyfitResult result;
  result.coefficients = (fit.x.T() / scale).T();
  result.residuals = fit.residuals;
  result.rank = fit.rank;
  result.singular_values = fit.s;
  result.rcond = rcond;
  if (o.cov != PolyfitCov::None) {
    ndarray base = linalg::inv(dot(lhs.T(), lhs));
    base = base / outer(scale, scale);
    Operand fac = 1;
    if (o.cov == PolyfitCov::Scaled) {
      if (npts <= order) {
        throw ValueError(
            "the number of data points must exceed order to scale the covariance matrix");
      }
      fac = fit.residuals / static_cast<double>(npts - order);
    }
    result.cov = y.ndim() == 1 ? base * fac : base.view({slice(), slice(), newaxis}) * fac;
  }
  return result;
}

}  // namespace cunp

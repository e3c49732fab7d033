// src/linalg/norms.cpp — numpy.linalg.norm, cond and matrix_rank, on the ufuncs,
// reductions and the SVD (so they run on every device).
#include <cmath>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"

namespace cunp::linalg {

NormOrder::NormOrder(std::string_view name) {
  if (name == "fro")
    kind_ = Kind::Fro;
  else if (name == "nuc")
    kind_ = Kind::Nuc;
  else
    throw ValueError("Invalid norm order '" + std::string(name) + "'");
}

std::string NormOrder::str() const {
  switch (kind_) {
    case Kind::None: return "None";
    case Kind::Fro: return "fro";
    case Kind::Nuc: return "nuc";
    case Kind::Number: break;
  }
  if (std::isinf(p_)) return p_ > 0 ? "inf" : "-inf";
  return std::to_string(p_);
}

namespace {

ndarray inexact(const ndarray& x) { return is_inexact(x.dtype()) ? x : x.astype(DType::Float64); }

ndarray vector_norm_over(const ndarray& x, const NormOrder& ord, const Axes& axis, bool keepdims = false) {
  if (ord.is_fro() || ord.is_nuc()) throw ValueError("Invalid norm order '" + ord.str() + "' for vectors");
  const ndarray a = absolute(x);
  const ReduceOptions o{.axis = axis, .keepdims = keepdims};
  if (ord.is_none() || ord.is(2)) return sqrt(sum(multiply(a, a), o));
  if (ord.is(INFINITY)) return max(a, o);
  if (ord.is(-INFINITY)) return min(a, o);
  if (ord.is(0)) return sum(not_equal(x, Scalar(0)).astype(a.dtype()), o);
  if (ord.is(1)) return sum(a, o);
  const double p = ord.value();
  return power(sum(power(a, Scalar(p)), o), Scalar(1.0 / p));
}

ndarray matrix_norm(const ndarray& x, const NormOrder& ord, int row, int col) {
  if (ord.is(2) || ord.is(-2) || ord.is_nuc()) {
    const int src[2] = {row, col}, dst[2] = {-2, -1};
    const ndarray s = svd(moveaxis(x, src, dst), true, false)[0];
    if (ord.is_nuc()) return sum(s, {.axis = -1});
    return ord.is(2) ? max(s, {.axis = -1}) : min(s, {.axis = -1});
  }
  if (ord.is(1) || ord.is(-1)) {
    const ndarray s = sum(absolute(x), {.axis = row});
    const int c = col > row ? col - 1 : col;
    return ord.is(1) ? max(s, {.axis = c}) : min(s, {.axis = c});
  }
  if (ord.is(INFINITY) || ord.is(-INFINITY)) {
    const ndarray s = sum(absolute(x), {.axis = col});
    const int r = row > col ? row - 1 : row;
    return ord.is(INFINITY) ? max(s, {.axis = r}) : min(s, {.axis = r});
  }
  if (ord.is_none() || ord.is_fro()) {
    const ndarray a = absolute(x);
    return sqrt(sum(multiply(a, a), {.axis = std::vector<int>{row, col}}));
  }
  throw ValueError("Invalid norm order for matrices.");
}

}  // namespace

ndarray norm(const ndarray& x0, const NormOptions& options) {
  const ndarray x = inexact(x0);
  const int nd = x.ndim();
  std::vector<int> axes;
  if (!options.axis) {
    if (options.ord.is_none()) {
      const ndarray a = absolute(x);
      ndarray r = sqrt(sum(multiply(a, a)));
      return options.keepdims ? r.reshape(Shape(static_cast<std::size_t>(nd), 1)) : r;
    }
    if (nd == 1)
      axes = {0};
    else if (nd == 2)
      axes = {0, 1};
    else
      throw ValueError("Improper number of dimensions to norm.");
  } else {
    for (int a : *options.axis) axes.push_back(normalize_axis(a, nd));
  }
  ndarray r;
  if (axes.size() == 1) {
    r = vector_norm_over(x, options.ord, axes[0]);
  } else if (axes.size() == 2) {
    if (axes[0] == axes[1]) throw ValueError("Duplicate axes given.");
    r = matrix_norm(x, options.ord, axes[0], axes[1]);
  } else {
    throw ValueError("Improper number of dimensions to norm.");
  }
  if (!options.keepdims) return r;
  Shape s = x.shape();
  for (int a : axes) s[static_cast<std::size_t>(a)] = 1;
  return r.reshape(s);
}

ndarray vector_norm(const ndarray& x, const VectorNormOptions& options) {
  const Axes axis = options.axis ? Axes(*options.axis) : Axes();
  return vector_norm_over(inexact(x), options.ord, axis, options.keepdims);
}

ndarray cond(const ndarray& x, NormOrder p) {
  if (x.ndim() < 2)
    throw LinAlgError(std::to_string(x.ndim()) + "-dimensional array given. Array must be at least two-dimensional");
  const std::int64_t m = x.shape()[x.ndim() - 2], n = x.shape().back();
  if (x.size() == 0 && m * n == 0) throw LinAlgError("cond is not defined on empty arrays");
  ndarray r;
  if (p.is_none() || p.is(2) || p.is(-2)) {
    const ndarray s = svd(x, true, false)[0];
    const ndarray first = s.view({ellipsis, std::int64_t{0}}), last = s.view({ellipsis, std::int64_t{-1}});
    r = p.is(-2) ? divide(last, first) : divide(first, last);
  } else {
    if (m != n) throw LinAlgError("Last 2 dimensions of the array must be square");
    const ndarray xf = inexact(x);
    const DType rdt = real_dtype(xf.dtype());
    const NormOptions o{.ord = p, .axis = std::vector<int>{-2, -1}};
    try {
      r = multiply(norm(xf, o), norm(inv(xf), o));
    } catch (const LinAlgError&) {
      // NumPy's inv gives NaNs for a singular matrix here, which cond reports as inf:
      // the stack is taken one matrix at a time to tell which.
      const ndarray flat = xf.reshape({-1, m, n});
      std::vector<double> values;
      for (std::int64_t q = 0; q < flat.shape()[0]; ++q) {
        const ndarray one = flat[q];
        try {
          values.push_back(multiply(norm(one, {.ord = p}), norm(inv(one), {.ord = p})).item().to_double());
        } catch (const LinAlgError&) {
          values.push_back(INFINITY);
        }
      }
      r = from_host(values.data(), DType::Float64, Shape(x.shape().begin(), x.shape().end() - 2), x.device());
    }
    r = r.astype(rdt, {.copy = false});
  }
  // 0/0 (an all-zero matrix) is inf unless the matrix itself holds a NaN.
  const ndarray has_nan = any(isnan(x), {.axis = std::vector<int>{-2, -1}});
  const ndarray nan = logical_and(isnan(r), logical_not(has_nan));
  return where(nan, Scalar(INFINITY), r).astype(r.dtype(), {.copy = false});
}

ndarray matrix_rank(const ndarray& A, std::optional<ndarray> tol, bool hermitian, std::optional<ndarray> rtol) {
  if (A.ndim() < 2) {
    const bool nonzero = any(not_equal(A, Scalar(0))).item().to_double() != 0.0;
    return full({}, Scalar(static_cast<std::int64_t>(nonzero)), {.dtype = DType::Int64, .device = A.device()});
  }
  const ndarray s = svd(A, true, false, hermitian)[0];
  if (s.shape().back() == 0)
    return zeros(Shape(s.shape().begin(), s.shape().end() - 1), {.dtype = DType::Int64, .device = A.device()});
  ndarray t;
  if (tol) {
    t = expand_dims(tol->to(A.device()), std::vector<int>{-1});
  } else {
    const std::int64_t mn = std::max(A.shape()[A.ndim() - 2], A.shape().back());
    const ndarray r = rtol ? expand_dims(rtol->to(A.device()), std::vector<int>{-1})
                           : full({}, Scalar(static_cast<double>(mn) * finfo(s.dtype()).eps),
                                  {.dtype = s.dtype(), .device = A.device()});
    t = multiply(max(s, {.axis = -1, .keepdims = true}), r);
  }
  return count_nonzero(greater(s, t), {.axis = -1});
}

}  // namespace cunp::linalg

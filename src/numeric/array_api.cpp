// src/numeric/array_api.cpp — cumulative_sum/prod, vecdot, matvec, vecmat and
// unstack (cunp/array_api.hpp) from scans, matmul and views, as NumPy 2 defines them.
#include "cunp/array_api.hpp"

#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

ndarray cumulative(const ndarray& x, const CumulativeOptions& o, bool product) {
  std::optional<int> axis = o.axis;
  if (!axis) {
    if (x.ndim() > 1) throw ValueError("axis must be specified for multi-dimensional arrays");
    if (x.ndim() == 1) axis = 0;
  }
  const ScanOptions scan{.axis = axis, .dtype = o.dtype};
  ndarray r = product ? cumprod(x, scan) : cumsum(x, scan);
  if (!o.include_initial) return r;
  const int ax = axis ? normalize_axis(*axis, r.ndim()) : 0;
  Shape shape = r.shape();
  shape[static_cast<std::size_t>(ax)] = 1;
  const ArrayOptions like{.dtype = r.dtype(), .device = r.device()};
  const ndarray parts[] = {product ? ones(shape, like) : zeros(shape, like), r};
  return concatenate(parts, ax);
}

void core_dims(const char* name, const char* sig, int operand, int have, int need) {
  if (have < need) {
    throw ValueError(std::string(name) + ": Input operand " + std::to_string(operand) +
                     " does not have enough dimensions (has " + std::to_string(have) +
                     ", gufunc core with signature " + sig + " requires " + std::to_string(need) +
                     ")");
  }
}

void core_mismatch(const char* name, const char* sig, std::int64_t size, std::int64_t expected) {
  throw ValueError(std::string(name) +
                   ": Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                   "signature " +
                   sig + " (size " + std::to_string(size) + " is different from " +
                   std::to_string(expected) + ")");
}

}  // namespace

ndarray cumulative_sum(const ndarray& x, const CumulativeOptions& options) {
  return cumulative(x, options, false);
}
ndarray cumulative_prod(const ndarray& x, const CumulativeOptions& options) {
  return cumulative(x, options, true);
}

ndarray vecdot(const ndarray& x1_in, const ndarray& x2_in, int axis) {
  ndarray x1 = x1_in;
  const ndarray x2 = x2_in.to(x1.device());
  if (is_complex(x1.dtype())) x1 = conjugate(x1);
  const int src[] = {axis}, last[] = {-1};
  const ndarray a = moveaxis(x1, src, last), b = moveaxis(x2, src, last);
  return matmul(a.view({ellipsis, newaxis, slice()}), b.view({ellipsis, slice(), newaxis}))
      .view({ellipsis, 0, 0});
}

ndarray matvec(const ndarray& x1, const ndarray& x2_in) {
  const char* sig = "(m,n),(n)->(m)";
  const ndarray x2 = x2_in.to(x1.device());
  core_dims("matvec", sig, 0, x1.ndim(), 2);
  core_dims("matvec", sig, 1, x2.ndim(), 1);
  if (x2.shape().back() != x1.shape().back())
    core_mismatch("matvec", sig, x2.shape().back(), x1.shape().back());
  return matmul(x1, x2.view({ellipsis, newaxis})).view({ellipsis, 0});
}

ndarray vecmat(const ndarray& x1_in, const ndarray& x2_in) {
  const char* sig = "(n),(n,m)->(m)";
  ndarray x1 = x1_in;
  const ndarray x2 = x2_in.to(x1.device());
  core_dims("vecmat", sig, 0, x1.ndim(), 1);
  core_dims("vecmat", sig, 1, x2.ndim(), 2);
  const std::int64_t n = x2.shape()[x2.shape().size() - 2];
  if (n != x1.shape().back()) core_mismatch("vecmat", sig, n, x1.shape().back());
  if (is_complex(x1.dtype())) x1 = conjugate(x1);
  return matmul(x1.view({ellipsis, newaxis, slice()}), x2).view({ellipsis, 0, slice()});
}

std::vector<ndarray> unstack(const ndarray& x, int axis) {
  if (x.ndim() == 0) throw ValueError("Input array must be at least 1-d.");
  const int src[] = {axis}, first[] = {0};
  const ndarray moved = moveaxis(x, src, first);
  std::vector<ndarray> out;
  for (std::int64_t i = 0; i < moved.shape()[0]; ++i) out.push_back(moved[i]);
  return out;
}

}  // namespace cunp

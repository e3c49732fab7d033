// src/ufunc/special_gamma_api.cpp — cunp::special's functions of the gamma family
// (include/cunp/special/gamma.hpp): the ufuncs of defs_special_gamma.cpp through the
// one ufunc call path, and softmax/log_softmax/logsumexp composed from ufuncs and
// reductions as scipy.special composes them.
#include <limits>

#include "cunp/errstate.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/special.hpp"
#include "ufunc/execute.hpp"

namespace cunp::special {
namespace {

// The registry entry of a ufunc, looked up once per call site.
#define CUNP_SPECIAL_UFUNC(name_literal)                \
  ([]() -> const ufunc::Ufunc& {                         \
    static const ufunc::Ufunc& u = ufunc::get(name_literal); \
    return u;                                            \
  }())

ndarray call(const ufunc::Ufunc& uf, std::initializer_list<Operand> in, const UfuncOptions& o) {
  return ufunc::execute(uf, std::span<const Operand>(in.begin(), in.size()), o)[0];
}

// The reduced axes kept (keepdims) so that the maximum broadcasts against `a`.
ReduceOptions kept(const Axes& axis) { return {.axis = axis, .keepdims = true}; }

}  // namespace

#define CUNP_SPECIAL_DEFINE_1(fn) \
  ndarray fn(const Operand& x, const UfuncOptions& o) { return call(CUNP_SPECIAL_UFUNC(#fn), {x}, o); }
#define CUNP_SPECIAL_DEFINE_2(fn)                                               \
  ndarray fn(const Operand& x1, const Operand& x2, const UfuncOptions& o) {  \
    return call(CUNP_SPECIAL_UFUNC(#fn), {x1, x2}, o);                          \
  }
#define CUNP_SPECIAL_DEFINE_3(fn)                                                                  \
  ndarray fn(const Operand& x1, const Operand& x2, const Operand& x3, const UfuncOptions& o) { \
    return call(CUNP_SPECIAL_UFUNC(#fn), {x1, x2, x3}, o);                                         \
  }
CUNP_SPECIAL_GAMMA_UNARY(CUNP_SPECIAL_DEFINE_1)
CUNP_SPECIAL_GAMMA_BINARY(CUNP_SPECIAL_DEFINE_2)
CUNP_SPECIAL_GAMMA_TERNARY(CUNP_SPECIAL_DEFINE_3)
#undef CUNP_SPECIAL_DEFINE_1
#undef CUNP_SPECIAL_DEFINE_2
#undef CUNP_SPECIAL_DEFINE_3

ndarray zeta(const Operand& x, const UfuncOptions& o) { return call(CUNP_SPECIAL_UFUNC("_riemann_zeta"), {x}, o); }
ndarray zeta(const Operand& x, const Operand& q, const UfuncOptions& o) {
  return call(CUNP_SPECIAL_UFUNC("_zeta"), {x, q}, o);
}

ndarray lambertw(const Operand& z, const Operand& k, double tol, const UfuncOptions& o) {
  // k as SciPy passes it: an int64 array (a C++ integer is already weak int64)
  const Operand k64 = k.is_array() ? Operand(k.array().astype(DType::Int64)) : k;
  return call(CUNP_SPECIAL_UFUNC("_lambertw"), {z, k64, tol}, o);
}

ndarray polygamma(const Operand& n, const Operand& x) {
  // (-1)^(n+1) gamma(n + 1) zeta(n + 1, x), digamma where n = 0
  const ndarray n1 = add(n, 1.0);
  const ndarray fac = multiply(multiply(power(-1.0, n1), gamma(n1)), zeta(n1, x));
  return where(equal(n, 0), psi(x), fac);
}

ndarray logsumexp(const ndarray& a, const LogsumexpOptions& options) {
  ndarray x = a, b;
  if (options.b) {
    const ndarray pair[] = {a, *options.b};
    const std::vector<ndarray> ab = broadcast_arrays(pair);
    x = ab[0];
    b = ab[1];
  }
  // the largest term whose weight is not 0, replaced by 0 where it is not finite
  const ndarray nonzero = options.b ? not_equal(b, 0) : ndarray();
  const ndarray for_max = options.b ? where(nonzero, x, -std::numeric_limits<double>::infinity()) : x;
  ndarray m = max(for_max, kept(options.axis));
  m = where(isfinite(m), m, 0);
  ndarray t;
  if (options.b) {
    t = where(nonzero, multiply(b, exp(where(nonzero, subtract(x, m), 0))), 0);
  } else {
    t = exp(subtract(x, m));
  }
  const ndarray s = sum(t, {.axis = options.axis, .keepdims = options.keepdims});
  ndarray out;
  {
    ErrorState quiet_divide = geterr();
    quiet_divide.divide = ErrorMode::Ignore;
    const ErrStateGuard quiet(quiet_divide);
    out = log(s);
  }
  if (!options.keepdims) m = options.axis.is_none() ? m.reshape({}) : squeeze(m, options.axis.values());
  return add(out, m);
}

ndarray softmax(const ndarray& x, const Axes& axis) {
  const ndarray e = exp(subtract(x, max(x, kept(axis))));
  return true_divide(e, sum(e, kept(axis)));
}

ndarray log_softmax(const ndarray& x, const Axes& axis) {
  ndarray m = max(x, kept(axis));
  m = where(isfinite(m), m, 0);
  const ndarray t = subtract(x, m);
  ndarray s;
  {
    ErrorState quiet_divide = geterr();
    quiet_divide.divide = ErrorMode::Ignore;
    const ErrStateGuard quiet(quiet_divide);
    s = log(sum(exp(t), kept(axis)));
  }
  return subtract(t, s);
}

}  // namespace cunp::special

// cunp/special/bessel.hpp — Bessel functions, elliptic integrals and orthogonal
// polynomials. Included by cunp/special.hpp.
//
// Each function is the ufunc of scipy.special's name (cunpx.scipy.special in Python):
// broadcasting, out=, dtype= and SciPy's loops (float32 and float64; integer orders as
// int64 where SciPy has an 'l' loop; complex64/complex128 arguments for jv ... kve and
// the Hankel functions), on every device. The polynomials' and spherical functions'
// complex loops are not provided.
//
//   cunp::ndarray j = cunp::special::jv(0.5, x);
//   cunp::ndarray k = cunp::special::kn(2, x);
#pragma once

#include "cunp/ufunc.hpp"

namespace cunp::special {

// One argument: scipy.special.j0(x) ...
#define CUNP_SPECIAL_BESSEL_UNARY(X) \
  X(j0) X(j1) X(y0) X(y1) X(i0) X(i0e) X(i1) X(i1e) X(k0) X(k0e) X(k1) X(k1e) X(ellipk) X(ellipkm1) X(ellipe)
// Two arguments: scipy.special.jv(v, x) ...; spherical_* are scipy.special's functions
// with derivative=False (the *_d variants are derivative=True).
#define CUNP_SPECIAL_BESSEL_BINARY(X)                                                                       \
  X(jv) X(jn) X(jve) X(yv) X(yve) X(iv) X(ive) X(kv) X(kve) X(yn) X(kn) X(ellipkinc) X(ellipeinc)          \
  X(hankel1) X(hankel1e) X(hankel2) X(hankel2e)                                                             \
  X(eval_legendre) X(eval_chebyt) X(eval_chebyu) X(eval_chebys) X(eval_chebyc) X(eval_sh_legendre)          \
  X(eval_sh_chebyt) X(eval_sh_chebyu) X(eval_hermite) X(eval_hermitenorm) X(eval_laguerre)
// Three arguments: scipy.special.eval_genlaguerre(n, alpha, x), eval_gegenbauer(n, alpha, x),
// lpmv(m, v, x).
#define CUNP_SPECIAL_BESSEL_TERNARY(X) X(eval_genlaguerre) X(eval_gegenbauer) X(lpmv)
// Four arguments: scipy.special.eval_jacobi(n, alpha, beta, x), eval_sh_jacobi(n, p, q, x).
#define CUNP_SPECIAL_BESSEL_QUATERNARY(X) X(eval_jacobi) X(eval_sh_jacobi)

#define CUNP_DECLARE_UNARY(name) ndarray name(const Operand& x, const UfuncOptions& options = {});
#define CUNP_DECLARE_BINARY(name) ndarray name(const Operand& a, const Operand& x, const UfuncOptions& options = {});
#define CUNP_DECLARE_TERNARY(name) \
  ndarray name(const Operand& a, const Operand& b, const Operand& x, const UfuncOptions& options = {});
CUNP_SPECIAL_BESSEL_UNARY(CUNP_DECLARE_UNARY)
CUNP_SPECIAL_BESSEL_BINARY(CUNP_DECLARE_BINARY)
#define CUNP_DECLARE_QUATERNARY(name)                                                      \
  ndarray name(const Operand& n, const Operand& a, const Operand& b, const Operand& x, \
               const UfuncOptions& options = {});
CUNP_SPECIAL_BESSEL_TERNARY(CUNP_DECLARE_TERNARY)
CUNP_SPECIAL_BESSEL_QUATERNARY(CUNP_DECLARE_QUATERNARY)
#undef CUNP_DECLARE_QUATERNARY
#undef CUNP_DECLARE_UNARY
#undef CUNP_DECLARE_BINARY
#undef CUNP_DECLARE_TERNARY

// scipy.special.ellipj(u, m): sn, cn, dn, ph.
std::vector<ndarray> ellipj(const Operand& u, const Operand& m, const UfuncOptions& options = {});

// scipy.special.spherical_jn(n, z, derivative) and the others, for real z.
ndarray spherical_jn(const Operand& n, const Operand& z, bool derivative = false, const UfuncOptions& options = {});
ndarray spherical_yn(const Operand& n, const Operand& z, bool derivative = false, const UfuncOptions& options = {});
ndarray spherical_in(const Operand& n, const Operand& z, bool derivative = false, const UfuncOptions& options = {});
ndarray spherical_kn(const Operand& n, const Operand& z, bool derivative = false, const UfuncOptions& options = {});

}  // namespace cunp::special

// cunp/special/gamma.hpp — error functions, gamma and beta families, zeta, exponential
// integrals, the statistical cdfs and the array functions (softmax, logsumexp).
// Included by cunp/special.hpp.
//
// Each ufunc is a function of Operands (arrays or scalars) with UfuncOptions (out=,
// where=, dtype=, casting=), computed with SciPy's loops on the operands' device:
//
//   cunp::ndarray p = cunp::special::gammainc(2.5, x);
//   cunp::special::erf(x, {.out = {y}});
#pragma once

#include <complex>

#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"

namespace cunp::special {

// scipy.special's ufuncs of this family, by number of inputs (SciPy's names).
#define CUNP_SPECIAL_GAMMA_UNARY(X)                                                                 \
  X(erf) X(erfc) X(erfcx) X(erfi) X(dawsn) X(erfinv) X(erfcinv) X(ndtr) X(log_ndtr) X(ndtri)        \
  X(ndtri_exp) X(gamma) X(gammaln) X(loggamma) X(gammasgn) X(rgamma) X(psi) X(zetac) X(expit)       \
  X(logit) X(log_expit) X(entr) X(exp1) X(expi) X(spence) X(exp10) X(round) X(cosdg) X(sindg)       \
  X(tandg) X(cotdg) X(wofz)
#define CUNP_SPECIAL_GAMMA_BINARY(X)                                                                \
  X(beta) X(betaln) X(poch) X(gammainc) X(gammaincc) X(gammaincinv) X(gammainccinv) X(xlogy)        \
  X(xlog1py) X(rel_entr) X(kl_div) X(huber) X(pseudo_huber) X(boxcox) X(boxcox1p) X(inv_boxcox)     \
  X(inv_boxcox1p) X(expn) X(owens_t) X(binom) X(pdtr) X(pdtrc) X(pdtri) X(chdtr) X(chdtrc)          \
  X(chdtri) X(chdtriv) X(pdtrik) X(stdtr) X(stdtrit) X(stdtridf)
#define CUNP_SPECIAL_GAMMA_TERNARY(X)                                                               \
  X(betainc) X(betaincc) X(betaincinv) X(betainccinv) X(bdtr) X(bdtrc) X(bdtri) X(nbdtr) X(nbdtrc)  \
  X(nbdtri) X(fdtr) X(fdtrc) X(fdtri) X(gdtr) X(gdtrc) X(gdtrix) X(gdtria) X(gdtrib) X(radian)       \
  X(bdtrik) X(bdtrin) X(nbdtrik) X(nbdtrin) X(fdtridfd) X(btdtria) X(btdtrib)

#define CUNP_SPECIAL_DECLARE_1(name) ndarray name(const Operand& x, const UfuncOptions& options = {});
#define CUNP_SPECIAL_DECLARE_2(name) \
  ndarray name(const Operand& x1, const Operand& x2, const UfuncOptions& options = {});
#define CUNP_SPECIAL_DECLARE_3(name) \
  ndarray name(const Operand& x1, const Operand& x2, const Operand& x3, const UfuncOptions& options = {});
CUNP_SPECIAL_GAMMA_UNARY(CUNP_SPECIAL_DECLARE_1)
CUNP_SPECIAL_GAMMA_BINARY(CUNP_SPECIAL_DECLARE_2)
CUNP_SPECIAL_GAMMA_TERNARY(CUNP_SPECIAL_DECLARE_3)
#undef CUNP_SPECIAL_DECLARE_1
#undef CUNP_SPECIAL_DECLARE_2
#undef CUNP_SPECIAL_DECLARE_3

// digamma is psi.
inline ndarray digamma(const Operand& x, const UfuncOptions& options = {}) { return psi(x, options); }

// The Riemann zeta function zeta(x), and the Hurwitz zeta function sum_k (k + q)^-x
// (scipy.special.zeta(x, q=None)).
ndarray zeta(const Operand& x, const UfuncOptions& options = {});
ndarray zeta(const Operand& x, const Operand& q, const UfuncOptions& options = {});

// The Lambert W function on branch k (scipy.special.lambertw): complex results; the
// Halley iteration stops at relative step `tol`.
ndarray lambertw(const Operand& z, const Operand& k = 0, double tol = 1e-8, const UfuncOptions& options = {});

// The n-th derivative of digamma, (-1)^(n+1) n! zeta(n + 1, x) (digamma for n = 0).
ndarray polygamma(const Operand& n, const Operand& x);

// log(sum(b * exp(a))) over `axis` without overflow (scipy.special.logsumexp); `b`
// weights the terms (an empty optional: 1).
struct LogsumexpOptions {
  Axes axis = {};
  bool keepdims = false;
  std::optional<ndarray> b;
};
ndarray logsumexp(const ndarray& a, const LogsumexpOptions& options = {});
// exp(x) / sum(exp(x)) and x - logsumexp(x) over `axis` (scipy.special.softmax,
// log_softmax).
ndarray softmax(const ndarray& x, const Axes& axis = {});
ndarray log_softmax(const ndarray& x, const Axes& axis = {});

}  // namespace cunp::special

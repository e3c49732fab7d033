// src/ops/special_gamma.h — the functors of scipy.special's ufuncs in the error-function,
// gamma, beta, zeta, exponential-integral and statistical families, the header the
// ufunc table names for their CPU loops and generated CUDA kernels. The scalar code is in
// special_gamma_{core,erf,inc,misc,cdf,complex}.h (namespace sg, double precision);
// each functor converts its operands to double and rounds the result to the loop's type
// (float32 loops compute in double, as SciPy's do).
#pragma once

#include "special_gamma_cdf.h"
#include "special_gamma_complex.h"
#include "special_gamma_expint_complex.h"
#include "special_gamma_faddeeva.h"
#include "special_gamma_misc.h"

namespace cunp {
namespace ops {
namespace special {

// The loop's result type is its last operand's (float or double): "ld->d", "fff->f".
#define CUNP_SPECIAL_1(name, fn)                                                              \
  struct name {                                                                               \
    template <typename T> CUNP_HD T operator()(T x) const {                                   \
      return static_cast<T>(sg::fn(static_cast<f64>(x)));                                     \
    }                                                                                         \
  };
#define CUNP_SPECIAL_2(name, fn)                                                              \
  struct name {                                                                               \
    template <typename A, typename T> CUNP_HD T operator()(A a, T x) const {                  \
      return static_cast<T>(sg::fn(static_cast<f64>(a), static_cast<f64>(x)));                \
    }                                                                                         \
  };
#define CUNP_SPECIAL_3(name, fn)                                                              \
  struct name {                                                                               \
    template <typename A, typename B, typename T> CUNP_HD T operator()(A a, B b, T x) const { \
      return static_cast<T>(sg::fn(static_cast<f64>(a), static_cast<f64>(b), static_cast<f64>(x))); \
    }                                                                                         \
  };

CUNP_SPECIAL_1(erfinv, erfinv)
CUNP_SPECIAL_1(erfcinv, erfcinv)
CUNP_SPECIAL_1(ndtri, ndtri)
CUNP_SPECIAL_1(ndtri_exp, ndtri_exp)
CUNP_SPECIAL_1(gammaln, gammaln)
CUNP_SPECIAL_1(gammasgn, gammasgn)
CUNP_SPECIAL_2(beta, beta)
CUNP_SPECIAL_2(betaln, betaln)
CUNP_SPECIAL_2(poch, poch)
CUNP_SPECIAL_3(betainc, betainc)
CUNP_SPECIAL_3(betaincc, betaincc)
CUNP_SPECIAL_3(betaincinv, betaincinv)
CUNP_SPECIAL_3(betainccinv, betainccinv)
CUNP_SPECIAL_2(gammainc, gammainc)
CUNP_SPECIAL_2(gammaincc, gammaincc)
CUNP_SPECIAL_2(gammaincinv, gammaincinv)
CUNP_SPECIAL_2(gammainccinv, gammainccinv)
CUNP_SPECIAL_1(riemann_zeta, riemann_zeta)
CUNP_SPECIAL_2(hurwitz_zeta, zeta2)
CUNP_SPECIAL_1(zetac, zetac)
CUNP_SPECIAL_1(expit, expit)
CUNP_SPECIAL_1(logit, logit)
CUNP_SPECIAL_1(log_expit, log_expit)
CUNP_SPECIAL_1(entr, entr)
CUNP_SPECIAL_2(rel_entr, rel_entr)
CUNP_SPECIAL_2(kl_div, kl_div)
CUNP_SPECIAL_2(huber, huber)
CUNP_SPECIAL_2(pseudo_huber, pseudo_huber)
CUNP_SPECIAL_2(boxcox, boxcox)
CUNP_SPECIAL_2(boxcox1p, boxcox1p)
CUNP_SPECIAL_2(inv_boxcox, inv_boxcox)
CUNP_SPECIAL_2(inv_boxcox1p, inv_boxcox1p)
CUNP_SPECIAL_2(expn, expn)
CUNP_SPECIAL_2(owens_t, owens_t)
CUNP_SPECIAL_2(binom, binom)
CUNP_SPECIAL_3(bdtr, bdtr)
CUNP_SPECIAL_3(bdtrc, bdtrc)
CUNP_SPECIAL_3(bdtri, bdtri)
CUNP_SPECIAL_3(nbdtr, nbdtr)
CUNP_SPECIAL_3(nbdtrc, nbdtrc)
CUNP_SPECIAL_3(nbdtri, nbdtri)
CUNP_SPECIAL_2(pdtr, pdtr)
CUNP_SPECIAL_2(pdtrc, pdtrc)
CUNP_SPECIAL_2(pdtri, pdtri)
CUNP_SPECIAL_2(chdtr, chdtr)
CUNP_SPECIAL_2(chdtrc, chdtrc)
CUNP_SPECIAL_2(chdtri, chdtri)
CUNP_SPECIAL_3(fdtr, fdtr)
CUNP_SPECIAL_3(fdtrc, fdtrc)
CUNP_SPECIAL_3(fdtri, fdtri)
CUNP_SPECIAL_3(gdtr, gdtr)
CUNP_SPECIAL_3(gdtrc, gdtrc)
CUNP_SPECIAL_3(gdtrix, gdtrix)
CUNP_SPECIAL_3(gdtria, gdtria)
CUNP_SPECIAL_3(gdtrib, gdtrib)
CUNP_SPECIAL_2(chdtriv, chdtriv)
CUNP_SPECIAL_2(pdtrik, pdtrik)
CUNP_SPECIAL_3(bdtrik, bdtrik)
CUNP_SPECIAL_3(bdtrin, bdtrin)
CUNP_SPECIAL_3(nbdtrik, nbdtrik)
CUNP_SPECIAL_3(nbdtrin, nbdtrin)
CUNP_SPECIAL_3(fdtridfd, fdtridfd)
CUNP_SPECIAL_2(stdtridf, stdtridf)
CUNP_SPECIAL_3(btdtria, btdtria)
CUNP_SPECIAL_3(btdtrib, btdtrib)
CUNP_SPECIAL_2(stdtr, stdtr)
CUNP_SPECIAL_2(stdtrit, stdtrit)
CUNP_SPECIAL_1(exp10, exp10)
CUNP_SPECIAL_1(round, round)
CUNP_SPECIAL_1(cosdg, cosdg)
CUNP_SPECIAL_1(sindg, sindg)
CUNP_SPECIAL_1(tandg, tandg)
CUNP_SPECIAL_1(cotdg, cotdg)
CUNP_SPECIAL_3(radian, radian)

#undef CUNP_SPECIAL_1
#undef CUNP_SPECIAL_2
#undef CUNP_SPECIAL_3

// x log y and x log1p y: real loops above, complex here.
struct xlogy {
  template <typename T> CUNP_HD T operator()(T x, T y) const {
    return static_cast<T>(sg::xlogy(static_cast<f64>(x), static_cast<f64>(y)));
  }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> x, complex<T> y) const {
    const sg::c128 r = sg::cxlogy({x.re, x.im}, {y.re, y.im});
    return {static_cast<T>(r.re), static_cast<T>(r.im)};
  }
};
struct xlog1py {
  template <typename T> CUNP_HD T operator()(T x, T y) const {
    return static_cast<T>(sg::xlog1py(static_cast<f64>(x), static_cast<f64>(y)));
  }
  template <typename T> CUNP_HD complex<T> operator()(complex<T> x, complex<T> y) const {
    const sg::c128 r = sg::cxlog1py({x.re, x.im}, {y.re, y.im});
    return {static_cast<T>(r.re), static_cast<T>(r.im)};
  }
};

// The gamma functions with real and complex loops.
#define CUNP_SPECIAL_REAL_COMPLEX(name, real_fn, complex_fn)                                  \
  struct name {                                                                                \
    template <typename T> CUNP_HD T operator()(T x) const {                                    \
      return static_cast<T>(sg::real_fn(static_cast<f64>(x)));                                 \
    }                                                                                          \
    template <typename T> CUNP_HD complex<T> operator()(complex<T> z) const {                  \
      const sg::c128 r = sg::complex_fn({static_cast<f64>(z.re), static_cast<f64>(z.im)});     \
      return {static_cast<T>(r.re), static_cast<T>(r.im)};                                     \
    }                                                                                          \
  };
CUNP_SPECIAL_REAL_COMPLEX(gamma, gamma, cgamma)
CUNP_SPECIAL_REAL_COMPLEX(loggamma, loggamma, cloggamma)
CUNP_SPECIAL_REAL_COMPLEX(rgamma, rgamma, crgamma)
CUNP_SPECIAL_REAL_COMPLEX(digamma, digamma, cdigamma)
CUNP_SPECIAL_REAL_COMPLEX(erf, erf, cerf)
CUNP_SPECIAL_REAL_COMPLEX(erfc, erfc, cerfc)
CUNP_SPECIAL_REAL_COMPLEX(ndtr, ndtr, cndtr)
CUNP_SPECIAL_REAL_COMPLEX(log_ndtr, log_ndtr, clog_ndtr)
CUNP_SPECIAL_REAL_COMPLEX(erfcx, erfcx, cerfcx)
CUNP_SPECIAL_REAL_COMPLEX(erfi, erfi, cerfi)
CUNP_SPECIAL_REAL_COMPLEX(dawsn, dawsn, cdawsn)
CUNP_SPECIAL_REAL_COMPLEX(exp1, exp1, cexp1)
CUNP_SPECIAL_REAL_COMPLEX(expi, expi, cexpi)
CUNP_SPECIAL_REAL_COMPLEX(spence, spence, cspence)
#undef CUNP_SPECIAL_REAL_COMPLEX

// The Faddeeva function: complex loops only ("F->F D->D").
struct wofz {
  template <typename T> CUNP_HD complex<T> operator()(complex<T> z) const {
    const sg::c128 r = sg::faddeeva({static_cast<f64>(z.re), static_cast<f64>(z.im)});
    return {static_cast<T>(r.re), static_cast<T>(r.im)};
  }
};

// _lambertw(z, k, tol): "Dld->D" and "Flf->F".
struct lambertw {
  template <typename T, typename I> CUNP_HD complex<T> operator()(complex<T> z, I k, T tol) const {
    const sg::c128 r = sg::lambertw({z.re, z.im}, static_cast<i64>(k), static_cast<f64>(tol));
    return {static_cast<T>(r.re), static_cast<T>(r.im)};
  }
};

}  // namespace special
}  // namespace ops
}  // namespace cunp

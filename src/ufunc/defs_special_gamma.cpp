// src/ufunc/defs_special_gamma.cpp — scipy.special's ufuncs of the error-function,
// gamma, beta, zeta, exponential-integral and statistical families (Space::Special),
// with SciPy 1.18's loops in SciPy 1.18's order (scipy.special.erf.types is
// "f->f d->d F->F D->D"; SciPy 1.17 and older listed "d->d f->f ..." for many), so that
// type resolution gives SciPy's dtypes (float16 and small integers resolve to the first
// loop they cast to safely: erf(int16) is float32, expn(int16, int16) float64). Scalar
// code in src/ops/special_gamma.h. Complex loops exist where this file lists them.
#include "ops/special_gamma.h"
#include "ufunc/defs_util.hpp"

namespace cunp::ufunc {

namespace {

using ops::c128;
using ops::c64;
using ops::f32;
using ops::f64;
using ops::i64;

constexpr const char* kHeader = "special_gamma.h";

// A special ufunc whose functor is cunp::ops::special::<name> (or `functor`).
Builder special(const char* name, int nin, const char* functor = nullptr) {
  return define(name, nin, 1, std::string("cunp::ops::special::") + (functor ? functor : name), kHeader).special();
}

// The loop orders SciPy's ufuncs have.
template <typename Op> void d_f(const char* name, const char* functor = nullptr) {
  Builder b = special(name, 1, functor);
  b.loop<Op, f64, f64>();
  b.loop<Op, f32, f32>();
}
template <typename Op> void f_d_F_D(const char* name, const char* functor = nullptr) {
  Builder b = special(name, 1, functor);
  b.loop<Op, f32, f32>();
  b.loop<Op, f64, f64>();
  b.loop<Op, c64, c64>();
  b.loop<Op, c128, c128>();
}
template <typename Op> void f_d(const char* name, const char* functor = nullptr) {
  Builder b = special(name, 1, functor);
  b.loop<Op, f32, f32>();
  b.loop<Op, f64, f64>();
}
template <typename Op> void ff_dd(const char* name) {
  Builder b = special(name, 2);
  b.loop<Op, f32, f32, f32>();
  b.loop<Op, f64, f64, f64>();
}
template <typename Op> void fff_ddd(const char* name) {
  Builder b = special(name, 3);
  b.loop<Op, f32, f32, f32, f32>();
  b.loop<Op, f64, f64, f64, f64>();
}

}  // namespace

void register_special_gamma() {
  namespace s = ops::special;
  // error functions and the normal distribution
  f_d_F_D<s::erf>("erf");
  f_d_F_D<s::erfc>("erfc");
  f_d_F_D<s::erfcx>("erfcx");
  f_d_F_D<s::erfi>("erfi");
  f_d_F_D<s::dawsn>("dawsn");
  {
    Builder b = special("wofz", 1);
    b.loop<s::wofz, c64, c64>().loop<s::wofz, c128, c128>();
  }
  f_d<s::erfinv>("erfinv");
  f_d<s::erfcinv>("erfcinv");
  f_d_F_D<s::ndtr>("ndtr");
  f_d_F_D<s::log_ndtr>("log_ndtr");
  f_d<s::ndtri>("ndtri");
  f_d<s::ndtri_exp>("ndtri_exp");
  // gamma and beta
  f_d_F_D<s::gamma>("gamma");
  f_d<s::gammaln>("gammaln");
  f_d_F_D<s::loggamma>("loggamma");
  f_d<s::gammasgn>("gammasgn");
  f_d_F_D<s::rgamma>("rgamma");
  f_d_F_D<s::digamma>("psi", "digamma");
  alias("digamma", "psi");
  ff_dd<s::beta>("beta");
  ff_dd<s::betaln>("betaln");
  ff_dd<s::poch>("poch");
  fff_ddd<s::betainc>("betainc");
  fff_ddd<s::betaincc>("betaincc");
  fff_ddd<s::betaincinv>("betaincinv");
  fff_ddd<s::betainccinv>("betainccinv");
  ff_dd<s::gammainc>("gammainc");
  ff_dd<s::gammaincc>("gammaincc");
  ff_dd<s::gammaincinv>("gammaincinv");
  ff_dd<s::gammainccinv>("gammainccinv");
  // zeta: SciPy's zeta(x, q=None) is a Python function over these two
  f_d<s::riemann_zeta>("_riemann_zeta", "riemann_zeta");
  {
    Builder b = special("_zeta", 2, "hurwitz_zeta");
    b.loop<s::hurwitz_zeta, f32, f32, f32>().loop<s::hurwitz_zeta, f64, f64, f64>();
  }
  f_d<s::zetac>("zetac");
  // logistic, entropies, losses, Box-Cox
  f_d<s::expit>("expit");
  d_f<s::logit>("logit");  // SciPy 1.18 keeps "d->d f->f" here
  f_d<s::log_expit>("log_expit");
  {
    Builder b = special("xlogy", 2);
    b.loop<s::xlogy, f32, f32, f32>().loop<s::xlogy, f64, f64, f64>();
    b.loop<s::xlogy, c64, c64, c64>().loop<s::xlogy, c128, c128, c128>();
  }
  {
    Builder b = special("xlog1py", 2);
    b.loop<s::xlog1py, f32, f32, f32>().loop<s::xlog1py, f64, f64, f64>();
    b.loop<s::xlog1py, c64, c64, c64>().loop<s::xlog1py, c128, c128, c128>();
  }
  f_d<s::entr>("entr");
  ff_dd<s::rel_entr>("rel_entr");
  ff_dd<s::kl_div>("kl_div");
  ff_dd<s::huber>("huber");
  ff_dd<s::pseudo_huber>("pseudo_huber");
  ff_dd<s::boxcox>("boxcox");
  ff_dd<s::boxcox1p>("boxcox1p");
  ff_dd<s::inv_boxcox>("inv_boxcox");
  ff_dd<s::inv_boxcox1p>("inv_boxcox1p");
  // exponential integrals, dilogarithm, Owen's T, binomial coefficient
  f_d_F_D<s::exp1>("exp1");
  f_d_F_D<s::expi>("expi");
  {
    Builder b = special("expn", 2);
    b.loop<s::expn, f64, i64, f64>().loop<s::expn, f32, f32, f32>().loop<s::expn, f64, f64, f64>();
  }
  f_d_F_D<s::spence>("spence");
  ff_dd<s::owens_t>("owens_t");
  ff_dd<s::binom>("binom");
  {
    // _lambertw(z, k, tol): scipy.special.lambertw is a Python function over it
    Builder b = special("_lambertw", 3, "lambertw");
    b.loop<s::lambertw, c128, c128, i64, f64>().loop<s::lambertw, c64, c64, i64, f32>();
  }
  // distributions
  {
    Builder b = special("bdtr", 3);
    b.loop<s::bdtr, f32, f32, f32, f32>().loop<s::bdtr, f64, f64, i64, f64>().loop<s::bdtr, f64, f64, f64, f64>();
  }
  {
    Builder b = special("bdtrc", 3);
    b.loop<s::bdtrc, f32, f32, f32, f32>().loop<s::bdtrc, f64, f64, i64, f64>().loop<s::bdtrc, f64, f64, f64, f64>();
  }
  {
    Builder b = special("bdtri", 3);
    b.loop<s::bdtri, f32, f32, f32, f32>().loop<s::bdtri, f64, f64, i64, f64>().loop<s::bdtri, f64, f64, f64, f64>();
  }
  {
    Builder b = special("nbdtr", 3);
    b.loop<s::nbdtr, f64, i64, i64, f64>().loop<s::nbdtr, f32, f32, f32, f32>().loop<s::nbdtr, f64, f64, f64, f64>();
  }
  {
    Builder b = special("nbdtrc", 3);
    b.loop<s::nbdtrc, f64, i64, i64, f64>().loop<s::nbdtrc, f32, f32, f32, f32>().loop<s::nbdtrc, f64, f64, f64, f64>();
  }
  {
    Builder b = special("nbdtri", 3);
    b.loop<s::nbdtri, f64, i64, i64, f64>().loop<s::nbdtri, f32, f32, f32, f32>().loop<s::nbdtri, f64, f64, f64, f64>();
  }
  ff_dd<s::pdtr>("pdtr");
  ff_dd<s::pdtrc>("pdtrc");
  ff_dd<s::pdtrik>("pdtrik");
  {
    Builder b = special("pdtri", 2);
    b.loop<s::pdtri, f64, i64, f64>().loop<s::pdtri, f32, f32, f32>().loop<s::pdtri, f64, f64, f64>();
  }
  ff_dd<s::chdtr>("chdtr");
  ff_dd<s::chdtrc>("chdtrc");
  ff_dd<s::chdtri>("chdtri");
  ff_dd<s::chdtriv>("chdtriv");
  fff_ddd<s::fdtr>("fdtr");
  fff_ddd<s::fdtrc>("fdtrc");
  fff_ddd<s::fdtri>("fdtri");
  fff_ddd<s::gdtr>("gdtr");
  fff_ddd<s::gdtrc>("gdtrc");
  fff_ddd<s::gdtrix>("gdtrix");
  fff_ddd<s::gdtria>("gdtria");
  fff_ddd<s::gdtrib>("gdtrib");
  ff_dd<s::stdtr>("stdtr");
  ff_dd<s::stdtrit>("stdtrit");
  fff_ddd<s::bdtrik>("bdtrik");
  fff_ddd<s::bdtrin>("bdtrin");
  fff_ddd<s::nbdtrik>("nbdtrik");
  fff_ddd<s::nbdtrin>("nbdtrin");
  fff_ddd<s::fdtridfd>("fdtridfd");
  ff_dd<s::stdtridf>("stdtridf");
  fff_ddd<s::btdtria>("btdtria");
  fff_ddd<s::btdtrib>("btdtrib");
  // elementary
  f_d<s::exp10>("exp10");
  f_d<s::round>("round");
  f_d<s::cosdg>("cosdg");
  f_d<s::sindg>("sindg");
  f_d<s::tandg>("tandg");
  f_d<s::cotdg>("cotdg");
  fff_ddd<s::radian>("radian");
}

}  // namespace cunp::ufunc

// src/ops/special_bessel_complex.h — the Bessel functions of real order and complex
// argument (scipy.special's 'fF->F' and 'dD->D' loops of jv ... kve and the Hankel
// functions) in complex128. The core computes I_v(z) e^-z and K_v(z) e^z for v >= 0 in
// the right half-plane, by Temme's method with complex arithmetic as Thompson and
// Barnett give it ("Modified Bessel functions I_v(z) and K_v(z) of real order and
// complex argument", Comput. Phys. Commun. 47, 1987): CF1 for I'/I, recurrence down to
// the order mu in [-1/2, 1/2), Temme's series (|z| < 2) or Steed's CF2 for K_mu and
// K_mu+1, the Wronskian, recurrence up for K; and Hankel's expansions (both exponentials
// of I, DLMF 10.40.5) for large |z|. Everything else follows by the connection formulas:
// I and K in the left half-plane (DLMF 10.34), J and H1 from I and K at -iz (DLMF
// 10.27.6, 10.27.8) in the upper half-plane, the lower one by conjugation (real order),
// negative orders by reflection.
//
// Note [Complex loops on the real axis]: a real argument in the complex loops takes the
// complex path too (not the real functions), so that a complex kernel carries one
// algorithm: its imaginary part is then a rounding residue (~1e-16 of the value, as
// SciPy's AMOS leaves one) rather than an exact zero.
#pragma once

#include "complex_math.h"
#include "special_bessel.h"  // the real functors too: one header serves a ufunc's every loop

namespace cunp {
namespace ops {
namespace cbessel {

using C = complex<double>;
using bessel::kEps;
using bessel::kPi;

// The elementary functions and the division out of line: each appears many times below
// and would otherwise be expanded at every use (Note [Out-of-line special functions]).
CUNP_HD_NOINLINE C cexp(C z) { return cm::exp(z); }
CUNP_HD_NOINLINE C clog(C z) { return cm::log(z); }
CUNP_HD_NOINLINE C csqrt(C z) { return cm::sqrt(z); }
CUNP_HD_NOINLINE C csinh(C z) { return cm::sinh(z); }
CUNP_HD_NOINLINE C ccosh(C z) { return cm::cosh(z); }
CUNP_HD_NOINLINE C cdiv(C a, C b) { return a / b; }

CUNP_HD C mk(double re, double im) { return C{re, im}; }
CUNP_HD C scale(C a, double s) { return C{a.re * s, a.im * s}; }
CUNP_HD C plus(C a, double s) { return C{a.re + s, a.im}; }
CUNP_HD double cabs(C a) { return fm::hypot(a.re, a.im); }
CUNP_HD C inv(C a) { return cdiv(C{1, 0}, a); }
CUNP_HD C cis(double t) {  // exp(i t)
  double s, c;
  fm::sincos(t, &s, &c);
  return C{c, s};
}
CUNP_HD C cispi(double t) { return C{bessel::cospi(t), bessel::sinpi(t)}; }  // exp(i pi t)
CUNP_HD C times_i(C a) { return C{-a.im, a.re}; }
CUNP_HD C conj(C a) { return C{a.re, -a.im}; }
CUNP_HD C cnan() { return C{fm::nan<double>(), fm::nan<double>()}; }

// Hankel's sums S = sum a_k / z^k and T = sum (-1)^k a_k / z^k; false unless they reach
// full precision with small terms (as bessel::hankel_sums).
CUNP_HD bool hankel_sums(double v, C z, C* s, C* t) {
  const double mu = 4 * v * v;
  const C zi = inv(scale(z, 8));
  C term{1, 0}, a{1, 0}, b{1, 0};
  for (int k = 1; k <= 80; ++k) {
    const double odd = 2.0 * k - 1;
    term = scale(term * zi, (mu - odd * odd) / k);
    const double m = cabs(term);
    if (!(m <= 4)) return false;
    a = a + term;
    b = (k & 1) ? b - term : b + term;
    if (m < kEps * 0.1) {
      *s = a;
      *t = b;
      return true;
    }
  }
  return false;
}

// I_v(z) e^-z and K_v(z) e^z for v >= 0, Re z >= 0, z != 0.
CUNP_HD_NOINLINE void core_ik(double nu, C z, C* Is, C* Ks) {
  const double az = cabs(z);
  C s, t;
  if (az >= 25 && hankel_sums(nu, z, &s, &t)) {
    // K ~ sqrt(pi/2z) e^-z S; I ~ (e^z T + i e^(i pi v) e^-z S) / sqrt(2 pi z) in the upper
    // half-plane, the conjugate signs in the lower.
    const C root = csqrt(scale(z, 2 * kPi));
    *Ks = cdiv(scale(s, kPi), root);  // sqrt(pi / 2z) = pi / sqrt(2 pi z)
    const double sg = z.im >= 0 ? 1 : -1;
    const C other = times_i(scale(cispi(sg * nu) * cexp(scale(z, -2)) * s, sg));
    *Is = cdiv(t + other, root);
    return;
  }
  const double nl_real = fm::floor(nu + 0.5);
  const long long nl = static_cast<long long>(nl_real);
  const double xmu = nu - nl_real, xmu2 = xmu * xmu;
  const C zi = inv(z), zi2 = scale(zi, 2);
  // CF1: f = I'_v / I_v (modified Lentz, complex).
  const double tiny = 1e-300;
  C h = scale(zi, nu);
  if (cabs(h) < tiny) h = C{tiny, 0};
  C b = scale(zi2, nu), d{0, 0}, c = h;
  for (int i = 1; i <= bessel::kMaxIterations; ++i) {
    b = b + zi2;
    d = b + d;
    if (cabs(d) < tiny) d = C{tiny, 0};
    d = inv(d);
    c = b + inv(c);
    if (cabs(c) < tiny) c = C{tiny, 0};
    const C del = c * d;
    h = h * del;
    if (cabs(plus(del, -1)) < kEps) break;
  }
  C ril{1, 0}, ripl = h, ril1 = ril;
  for (long long l = nl; l >= 2; --l) {
    const C ti = scale(zi, xmu + static_cast<double>(l)) * ril + ripl;
    ripl = scale(zi, xmu + static_cast<double>(l - 1)) * ti + ril;
    ril = ti;
    if (cabs(ril) > 1e250) {
      ril = scale(ril, 1e-250);
      ripl = scale(ripl, 1e-250);
      ril1 = scale(ril1, 1e-250);
    }
  }
  const C f = cdiv(ripl, ril);
  C rkmu, rk1;
  bool k_scaled;
  if (az < 2) {
    const C x2 = scale(z, 0.5);
    const double pimu = kPi * xmu;
    const double fact = fm::fabs(pimu) < kEps ? 1 : pimu / fm::sin(pimu);
    C dd = scale(clog(x2), -1);
    C e = scale(dd, xmu);
    const C fact2 = cabs(e) < 1e-4 ? plus(scale(e * e, 1.0 / 6), 1) : cdiv(csinh(e), e);
    double gam1, gam2, gampl, gammi;
    bessel::temme_gammas(xmu, &gam1, &gam2, &gampl, &gammi);
    C ff = scale(scale(ccosh(e), gam1) + scale(fact2 * dd, gam2), fact);
    C sum = ff;
    e = cexp(e);
    C p = scale(e, 0.5 / gampl), q = scale(inv(e), 0.5 / gammi), cc{1, 0};
    dd = x2 * x2;
    C sum1 = p;
    for (int i = 1; i <= bessel::kMaxIterations; ++i) {
      const double di = i;
      ff = scale(scale(ff, di) + p + q, 1 / (di * di - xmu2));
      cc = scale(cc * dd, 1 / di);
      p = scale(p, 1 / (di - xmu));
      q = scale(q, 1 / (di + xmu));
      const C del = cc * ff;
      sum = sum + del;
      sum1 = sum1 + cc * (p - scale(ff, di));
      if (cabs(del) < cabs(sum) * kEps) break;
    }
    rkmu = sum;
    rk1 = sum1 * zi2;
    k_scaled = false;
  } else {
    // CF2 (Steed), Temme's normalization: K_mu e^z and K_mu+1 e^z.
    C bb = scale(plus(z, 1), 2), dd = inv(bb), hh = dd, delh = dd, q1{0, 0}, q2{1, 0};
    const double a1 = 0.25 - xmu2;
    C q{a1, 0}, cc{a1, 0};
    double a = -a1;
    C ss = plus(scale(delh, a1), 1);
    for (int i = 2; i <= bessel::kMaxIterations; ++i) {
      a -= 2.0 * (i - 1);
      cc = scale(cc, -a / i);
      const C qnew = scale(q1 - bb * q2, 1 / a);
      q1 = q2;
      q2 = qnew;
      q = q + cc * qnew;
      bb = plus(bb, 2);
      dd = inv(bb + scale(dd, a));
      delh = plus(bb * dd, -1) * delh;
      hh = hh + delh;
      const C dels = q * delh;
      ss = ss + dels;
      if (cabs(dels) < cabs(ss) * kEps) break;
    }
    hh = scale(hh, a1);
    rkmu = cdiv(csqrt(scale(zi, kPi / 2)), ss);
    rk1 = rkmu * plus(z - hh, xmu + 0.5) * zi;
    k_scaled = true;
  }
  C iref;  // I at the order of ril (Wronskian at mu + 1 when v >= 1/2)
  if (nl >= 1) iref = inv(z * (f * rk1 + rkmu + scale(zi * rk1, xmu + 1)));
  else iref = cdiv(zi, f * rkmu - (scale(zi * rkmu, xmu) - rk1));
  C i_v = iref * cdiv(ril1, ril);
  for (long long i = 1; i <= nl; ++i) {
    const C tk = scale(zi2 * rk1, xmu + static_cast<double>(i)) + rkmu;
    rkmu = rk1;
    rk1 = tk;
  }
  C k_v = rkmu;
  if (!k_scaled) {
    k_v = k_v * cexp(z);
    i_v = i_v * cexp(scale(z, -1));
  }
  *Is = i_v;
  *Ks = k_v;
}

// I_v(z) e^-|Re z| and K_v(z) e^z for v >= 0 anywhere off the cut (the forms that cannot
// overflow where the functions do not): the left half-plane from w = -z = z e^(-i pi s)
// (s = +1 above the real axis, -1 below) by I(z) = e^(i pi v s) I(w) and
// K(z) = e^(-i pi v s) K(w) - i pi s I(w) (DLMF 10.34.1, 10.34.2).
CUNP_HD void any_ik(double v, C z, C* Ie, C* Ke) {
  if (z.re >= 0) {
    C is;
    core_ik(v, z, &is, Ke);
    *Ie = is * cis(z.im);  // I e^-z e^(i Im z)
    return;
  }
  const C w = scale(z, -1);
  const double s = z.im >= 0 ? 1 : -1;
  C iw, kw;
  core_ik(v, w, &iw, &kw);  // I(w) e^-w, K(w) e^w; e^w e^z = 1
  *Ie = cispi(s * v) * iw * cis(w.im);
  *Ke = cispi(-s * v) * kw * cexp(scale(z, 2)) - times_i(scale(iw, kPi * s));
}

// J, Y, H1, H2 of real order v >= 0, each times its scale factor (e^-|Im z|, e^-|Im z|,
// e^-iz, e^iz).
struct JYH {
  C j, y, h1, h2;
};
CUNP_HD_NOINLINE JYH jyh_scaled(double v, C z) {
  const bool lower = z.im < 0;
  const C zeta = lower ? conj(z) : z;  // Im zeta >= 0
  const C u = C{zeta.im, -zeta.re};   // -i zeta, Re u >= 0
  C is, ks;
  core_ik(v, u, &is, &ks);
  JYH r;
  // J = e^(i pi v/2) I(u), I(u) = is e^u, |e^u| = e^Im(zeta): J e^-Im = e^(i pi v/2) is e^(-i Re zeta).
  r.j = cispi(v / 2) * is * cis(-zeta.re);
  // H1 = 2/(pi i) e^(-i pi v/2) K(u), K(u) = ks e^-u = ks e^(i zeta): H1 e^(-i zeta) = ...
  const C h1 = scale(times_i(cispi(-v / 2) * ks), -2 / kPi);
  // Y = (H1 - J)/i and H2 = 2J - H1, in the scaled forms (factors e^(i Re) e^(-2 Im) <= 1).
  const C back = cis(zeta.re) * C{fm::exp(-2 * zeta.im), 0};  // e^(i zeta) e^(-Im zeta)
  const C h1_j = h1 * back;                                    // H1 e^(-Im zeta)
  r.y = scale(times_i(h1_j - r.j), -1);
  r.h1 = h1;
  r.h2 = scale(r.j * cis(zeta.re), 2) - h1 * cis(2 * zeta.re) * C{fm::exp(-2 * zeta.im), 0};
  if (lower) {
    // Real order: J, Y of conj(z) are the conjugates; H1(z) = conj(H2(conj z)).
    const C h1l = conj(r.h2), h2l = conj(r.h1);
    r.j = conj(r.j);
    r.y = conj(r.y);
    r.h1 = h1l;
    r.h2 = h2l;
  }
  return r;
}

// Negative orders: J_-a = cos(pi a) J_a - sin(pi a) Y_a, Y_-a = sin(pi a) J_a + cos(pi a) Y_a,
// H1_-a = e^(i pi a) H1_a, H2_-a = e^(-i pi a) H2_a.
CUNP_HD JYH jyh_any(double v, C z) {
  const double a = fm::fabs(v);
  JYH r = jyh_scaled(a, z);
  if (v >= 0) return r;
  const double c = bessel::cospi(a), s = bessel::sinpi(a);
  const C j = scale(r.j, c) - scale(r.y, s), y = scale(r.j, s) + scale(r.y, c);
  r.j = j;
  r.y = y;
  r.h1 = cispi(a) * r.h1;
  r.h2 = cispi(-a) * r.h2;
  return r;
}

CUNP_HD bool bad(double v, C z) { return fm::isnan(v) || fm::isnan(z.re) || fm::isnan(z.im); }
CUNP_HD bool infinite(C z) { return fm::isinf(z.re) || fm::isinf(z.im); }

// The unscaling factors.
CUNP_HD C e_abs_im(C z) { return C{fm::exp(fm::fabs(z.im)), 0}; }

// which: 0 J, 1 Y, 2 H1, 3 H2.
CUNP_HD_NOINLINE C jyh(double v, C z, int which, bool scaled) {
  if (bad(v, z) || infinite(z)) return cnan();
  if (z.re == 0 && z.im == 0) {
    // SciPy's values at 0 (those of its complex loops, which differ from the real ones).
    const bool fractional_negative = v < 0 && !bessel::is_integer(v);
    if (which == 0) return fractional_negative || fm::isinf(v) ? cnan() : C{v == 0 ? 1.0 : 0.0, 0};
    if (which == 1) {
      if (scaled) return cnan();
      return fractional_negative ? C{fm::nan<double>(), 0} : C{-fm::inf<double>(), 0};
    }
    if (which == 3 && v == 0 && !scaled) return C{fm::nan<double>(), fm::inf<double>()};
    return cnan();
  }
  if (fm::isinf(v)) return cnan();
  const JYH r = jyh_any(v, z);
  if (which == 2) return scaled ? r.h1 : r.h1 * cexp(times_i(z));
  if (which == 3) return scaled ? r.h2 : r.h2 * cexp(scale(times_i(z), -1));
  const C f = which == 0 ? r.j : r.y;
  if (scaled) return f;
  // e^|Im z| may overflow where the product does not: two halves.
  const C h{fm::exp(0.5 * fm::fabs(z.im)), 0};
  return f * h * h;
}

// exp(|Re z|) * y in two halves (the factor alone may overflow where the product does not).
CUNP_HD C times_exp_abs_re(C y, C z) {
  const C h{fm::exp(0.5 * fm::fabs(z.re)), 0};
  return y * h * h;
}

// I_v(z) (scaled: times e^-|Re z|) and K_v(z) (scaled: times e^z).
CUNP_HD_NOINLINE C iv(double v, C z, bool scaled) {
  if (bad(v, z) || infinite(z)) return cnan();
  if (z.re == 0 && z.im == 0) {
    if (fm::isinf(v) || (v < 0 && !bessel::is_integer(v))) return cnan();  // SciPy
    return C{v == 0 ? 1.0 : 0.0, 0};
  }
  if (fm::isinf(v)) return cnan();  // SciPy's complex loops
  const double a = fm::fabs(v);
  C ie, ke;
  any_ik(a, z, &ie, &ke);
  if (v < 0 && !bessel::is_integer(v)) {
    // I_-a = I_a + (2/pi) sin(pi a) K_a; K e^-|Re z| = ke e^(-z - |Re z|).
    const C k = ke * cexp(C{-z.re - fm::fabs(z.re), -z.im});
    ie = ie + scale(k, 2 / kPi * bessel::sinpi(a));
  }
  return scaled ? ie : times_exp_abs_re(ie, z);
}
CUNP_HD_NOINLINE C kv(double v, C z, bool scaled) {
  if (bad(v, z) || infinite(z)) return cnan();
  if ((z.re == 0 && z.im == 0) || fm::isinf(v)) return cnan();  // SciPy: NaN at 0 in the complex loops
  C ie, ke;
  any_ik(fm::fabs(v), z, &ie, &ke);
  if (scaled) return ke;
  // K = ke e^-z; e^-z overflows first where K is finite only at Re z < 0 (|K| ~ e^|Re z|).
  const C h = cexp(scale(z, -0.5));
  return ke * h * h;
}

}  // namespace cbessel

namespace special {

// The complex loops ("fF->F", "dD->D"): a real order, a complex argument, computed in
// complex128 (Note [Special functions in float64]).
// Each names itself (kName) for the loops of a ufunc whose functor is the real one.
#define CUNP_BESSEL_COMPLEX(name, expr)                                                 \
  struct name {                                                                         \
    static constexpr const char* kName = "cunp::ops::special::" #name;                  \
    template <typename T> CUNP_HD complex<T> operator()(T v_, complex<T> z_) const {    \
      const double v = double(v_);                                                      \
      const cbessel::C z{double(z_.re), double(z_.im)};                                 \
      const cbessel::C r = expr;                                                        \
      return complex<T>{T(r.re), T(r.im)};                                              \
    }                                                                                   \
  };
CUNP_BESSEL_COMPLEX(cjv, cbessel::jyh(v, z, 0, false))
CUNP_BESSEL_COMPLEX(cjve, cbessel::jyh(v, z, 0, true))
CUNP_BESSEL_COMPLEX(cyv, cbessel::jyh(v, z, 1, false))
CUNP_BESSEL_COMPLEX(cyve, cbessel::jyh(v, z, 1, true))
CUNP_BESSEL_COMPLEX(hankel1, cbessel::jyh(v, z, 2, false))
CUNP_BESSEL_COMPLEX(hankel1e, cbessel::jyh(v, z, 2, true))
CUNP_BESSEL_COMPLEX(hankel2, cbessel::jyh(v, z, 3, false))
CUNP_BESSEL_COMPLEX(hankel2e, cbessel::jyh(v, z, 3, true))
CUNP_BESSEL_COMPLEX(civ, cbessel::iv(v, z, false))
CUNP_BESSEL_COMPLEX(cive, cbessel::iv(v, z, true))
CUNP_BESSEL_COMPLEX(ckv, cbessel::kv(v, z, false))
CUNP_BESSEL_COMPLEX(ckve, cbessel::kv(v, z, true))
#undef CUNP_BESSEL_COMPLEX

}  // namespace special
}  // namespace ops
}  // namespace cunp

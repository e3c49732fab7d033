// src/ops/special_gamma_faddeeva.h — the error-function family for complex arguments:
// the Faddeeva function w(z) = exp(-z^2) erfc(-iz) and, from it, erf, erfc, erfcx, erfi
// and Dawson's integral, with SciPy's special values (those of its Faddeeva package:
// overflow to signed infinities, NaN where a phase is lost to an infinite argument).
//
// Note [Faddeeva function]: w(z) = (i/pi) int exp(-t^2) / (z - t) dt for Im z > 0. The
// trapezoidal rule with step h on the nodes t = x + (k + 1/2) h, k in Z (the nodes put
// Re z halfway between two of them), differs from the integral by the residue of the
// pole at t = z, which the Poisson summation formula gives in closed form, and by terms
// of order exp(-pi^2 / h^2) relative to |w| (Matta and Reichel 1971, Hunter and Regan
// 1972, whose node placement this shift replaces):
//   w(z) = (i h / pi) sum_k exp(-t_k^2) / (z - t_k) + 2 exp(-z^2) / (1 + exp(2 pi y / h))
// for 0 < y < pi / h. With u = (k + 1/2) h the terms at x + u and x - u pair to
//   (2h/pi) exp(-(x-u)^2) [ (1 + e) y + i (1 - e) u ] / (2 (y^2 + u^2)),  e = exp(-4xu),
// all of one sign for x >= 0 (1 - e = -expm1(-4xu) keeps its digits as x -> 0), so
// both parts of w are accurate to a few ulp, near the axes too; on the real axis the
// correction is exactly exp(-x^2) = Re w(x). h = 1/2 makes the neglected terms
// exp(-4 pi^2) ~ 7e-18 relative; the terms with |x - u| > 6.5 are below 5e-19.
// Far from the real axis (y >= 5.5) and for |x| >= 30 Laplace's continued fraction
// w(z) = (i/sqrt(pi)) / (z - (1/2) / (z - 1 / (z - (3/2) / (z - ...)))) converges in
// at most 16 steps to double precision; y < 0 uses w(z) = 2 exp(-z^2) - w(-z).
#pragma once

#include "complex_math.h"
#include "special_gamma_complex.h"
#include "special_gamma_erf.h"

namespace cunp {
namespace ops {
namespace sg {

using c128 = complex<f64>;

constexpr f64 kInvSqrtPi = 0.56418958354775628695;  // 1/sqrt(pi)
constexpr f64 k2InvSqrtPi = 1.12837916709551257390;  // 2/sqrt(pi)
constexpr f64 kSqrtPi_2 = 0.88622692545275801365;  // sqrt(pi)/2

// The real erfi and the scaled value sqrt(pi)/2 exp(y^2) erf(y) = Dawson's F(iy)/i.
CUNP_SG f64 dawsn_imag_axis(f64 y) {
  if (fm::isnan(y)) return y;
  if (fm::fabs(y) > 27) return y < 0 ? -inf() : inf();
  return kSqrtPi_2 * expx2(y, 1.0) * erf(y);
}

// Laplace's continued fraction with n steps (Note [Faddeeva function]).
CUNP_HD c128 faddeeva_cf(c128 z, int n) {
  c128 r = z;
  for (int k = n; k >= 1; --k) r = z - c128{0.5 * k, 0.0} / r;
  return c128{0.0, kInvSqrtPi} / r;
}

// w(x + iy) for finite x >= 0, y > 0.
CUNP_SG c128 faddeeva_upper(f64 x, f64 y) {
  if (y >= 5.5 || x >= 30) {
    const f64 m = x > y ? x : y;
    const int n = m > 1e4 ? 1 : (m > 200 ? 3 : (m >= 30 ? 8 : 16));
    return faddeeva_cf(c128{x, y}, n);
  }
  constexpr f64 h = 0.5;
  const f64 lo = fm::floor((x - 6.5) / h);
  const int kmin = lo > 0 ? static_cast<int>(lo) : 0;
  const int kmax = static_cast<int>(fm::ceil((x + 6.5) / h));
  const f64 y2 = y * y;
  f64 sr = 0, si = 0;
  for (int k = kmin; k <= kmax; ++k) {
    const f64 u = (k + 0.5) * h;
    const f64 d = x - u;
    const f64 a = lib_exp(-d * d) / (y2 + u * u);
    const f64 e = lib_expm1(-4 * x * u);
    sr += a * (2 + e);
    si -= a * e * u;
  }
  sr *= y * h / kPi;
  si *= h / kPi;
  // 2 exp(-z^2) / (1 + exp(2 pi y / h)), exp(-z^2) = exp((y - x)(y + x)) cis(-2xy)
  const f64 m = 2 * lib_exp((y - x) * (y + x)) / (1 + lib_exp(2 * kPi / h * y));
  const f64 ph = 2 * x * y;
  return {sr + m * lib_cos(ph), si - m * lib_sin(ph)};
}

// exp(-z^2) = exp(mre) cis(mim) with mre = (y - x)(y + x), mim = -2xy: the real part's
// factors are exact where x and y are close.
CUNP_HD c128 cis(f64 t) { return {lib_cos(t), lib_sin(t)}; }

// The Faddeeva function w(z) = exp(-z^2) erfc(-iz) (scipy.special.wofz).
CUNP_SG c128 faddeeva(c128 z) {
  const f64 x = z.re, y = z.im;
  if (fm::isnan(x) || fm::isnan(y)) return {nan(), x == 0 ? 0.0 : nan()};
  if (fm::isinf(y)) {
    if (y > 0) return {0.0, 0.0};
    return x == 0 ? c128{inf(), 0.0} : c128{nan(), nan()};
  }
  if (fm::isinf(x)) return {0.0, fm::copysign(0.0, x)};
  if (x == 0) return {erfcx(y), x};  // w(iy) = erfcx(y)
  if (y == 0) return {lib_exp(-x * x), k2InvSqrtPi * dawsn(x)};
  if (y > 0) {
    const c128 r = faddeeva_upper(fm::fabs(x), y);
    return x < 0 ? conj(r) : r;
  }
  c128 r = faddeeva_upper(fm::fabs(x), -y);  // w(-z)
  if (x > 0) r = conj(r);
  const f64 mre = (y - x) * (y + x);
  if (mre < -750) return {-r.re, -r.im};  // exp(-z^2) underflows (its phase may be lost)
  // exp with C99 Annex G's special values (exp(inf + i inf) = inf + i nan), as SciPy's
  const c128 e = cm::exp(c128{mre, -2 * x * y});
  return {2 * e.re - r.re, 2 * e.im - r.im};
}

CUNP_SG c128 cerfcx(c128 z) { return faddeeva({-z.im, z.re}); }

// erf(z) = 2/sqrt(pi) sum (-1)^n z^(2n+1) / (n! (2n+1)) for |z| < 1/2, where
// 1 - exp(-z^2) w(iz) would cancel.
CUNP_HD c128 cerf_series(c128 z) {
  const c128 z2 = z * z;
  c128 t = z, s = z;
  for (int n = 1; n < 14; ++n) {
    t = t * z2 * (-1.0 / n);
    s = s + t * (1.0 / (2 * n + 1));
  }
  return s * k2InvSqrtPi;
}

// erf(x + iy) near the imaginary axis (|x| < 0.1, |xy| < 0.05), where Re erf ~ x e^{y^2}
// is far below |erf| and 1 - exp(-z^2) w(iz) would lose it: the Taylor series in x,
//   erf(iy + x) = i erfi(y) + 2/sqrt(pi) e^{y^2} sum_n (-i)^n h_n x^(n+1) / (n+1)!,
// with H_n(iy) = i^n h_n (Hermite), h_0 = 1, h_1 = 2y, h_{n+1} = 2y h_n + 2n h_{n-1}.
CUNP_SG c128 cerf_near_imag_axis(f64 x, f64 y) {
  f64 hm = 1, h = 2 * y;  // h_0, h_1
  f64 t = x;              // x^(n+1) / (n+1)!
  f64 re = x, im = 0;     // n = 0
  f64 sign = 1;
  // |x| < 0.1, |xy| < 0.05: the terms fall below 1e-17 of the sum by n = 16
  for (int n = 1; n < 17; ++n) {
    t *= x / (n + 1);
    const f64 term = h * t;
    // (-i)^n: n odd adds -(-1)^((n-1)/2) term to Im, n even (-1)^(n/2) term to Re
    if (n % 2 == 1) {
      im -= sign * term;
    } else {
      sign = -sign;
      re += sign * term;
    }
    const f64 hn = 2 * y * h + 2 * n * hm;
    hm = h;
    h = hn;
  }
  const f64 scale = k2InvSqrtPi * expx2(y, 1.0);
  return {scale * re, scale * (dawsn(y) + im)};
}

CUNP_SG c128 cerf(c128 z) {
  const f64 x = z.re, y = z.im;
  if (y == 0) return {erf(x), y};
  if (x == 0) return {x, erfi(y)};
  const f64 mre = (y - x) * (y + x), mim = -2 * x * y;
  if (mre < -750) return {x >= 0 ? 1.0 : -1.0, 0.0};
  if (x * x + y * y < 0.25) return cerf_series(z);
  if (fm::fabs(x) < 0.1 && fm::fabs(x * y) < 0.05 && fm::fabs(y) < 26) return cerf_near_imag_axis(x, y);
  // erf = 1 - erfc(z) = 1 - exp(-z^2) w(iz) for x >= 0, exp(-z^2) w(-iz) - 1 below
  const f64 e = lib_exp(mre);
  const c128 p = cis(mim) * (x >= 0 ? faddeeva({-y, x}) : faddeeva({y, -x}));
  if (x >= 0) return {1 - e * p.re, -(e * p.im)};
  return {e * p.re - 1, e * p.im};
}

CUNP_SG c128 cerfc(c128 z) {
  const f64 x = z.re, y = z.im;
  if (x == 0) return {1.0, -erfi(y)};
  if (y == 0) return {erfc(x), -y};
  const f64 mre = (y - x) * (y + x), mim = -2 * x * y;
  if (mre < -750) return {x >= 0 ? 0.0 : 2.0, 0.0};
  if (fm::fabs(x) < 0.1 && fm::fabs(x * y) < 0.05 && fm::fabs(y) < 26 && x * x + y * y >= 0.25) {
    // 1 - erf with erf's series near the imaginary axis: Re erfc = 1 - Re erf cancels
    // there, and keeps the digits of an accurate Re erf
    const c128 e = cerf_near_imag_axis(x, y);
    return {1 - e.re, -e.im};
  }
  const c128 ez = cm::exp(c128{mre, mim});
  if (x >= 0) return cm::mul_annex_g(ez, faddeeva({-y, x}));
  const c128 p = cm::mul_annex_g(ez, faddeeva({y, -x}));
  return {2 - p.re, -p.im};
}

// The normal cdf 1/2 erfc(-z / sqrt 2) of a complex z.
CUNP_SG c128 cndtr(c128 z) {
  const c128 e = cerfc({-(kSqrt1_2 * z.re), -(kSqrt1_2 * z.im)});
  return {0.5 * e.re, 0.5 * e.im};
}

// log ndtr(z). For Re z > 0 with e = ndtr(-z) = 1 - ndtr(z) below 1/2 in modulus, log1p(-e)
// (the general form below cancels to a few digits there). Elsewhere, with u = -z / sqrt 2,
// 1/2 erfc(u) = 1/2 exp(-u^2) w(iu), so the log is -u^2 + log w(iu) - log 2 (exp(-u^2) is
// never formed, so nothing underflows), its imaginary part brought into [-pi, pi).
CUNP_SG c128 clog_ndtr(c128 z) {
  if (z.re > 0) {
    const c128 e = cerfc({kSqrt1_2 * z.re, kSqrt1_2 * z.im});
    const c128 m{-0.5 * e.re, -0.5 * e.im};
    if (cm::abs(m) < 0.5) return clog1p(m);
  }
  const f64 ux = -(kSqrt1_2 * z.re), uy = -(kSqrt1_2 * z.im);
  const f64 re = (uy - ux) * (uy + ux);  // Re(-u^2) without overflow of the squares
  f64 im = fm::fmod(-2 * ux * uy, 2 * kPi);
  if (im > kPi) im -= 2 * kPi;
  const c128 lw = cm::log(faddeeva({-uy, ux}));
  const f64 rre = re + lw.re - 0.69314718055994530942;
  f64 rim = im + lw.im;
  if (rim >= kPi) rim -= 2 * kPi;
  if (rim < -kPi) rim += 2 * kPi;
  return {rre, rim};
}

// erfi(z) = -i erf(iz).
CUNP_SG c128 cerfi(c128 z) {
  const c128 r = cerf({-z.im, z.re});
  return {r.im, -r.re};
}

// Dawson's integral F(z) = sqrt(pi)/2 exp(-z^2) erfi(z) = (i sqrt(pi)/2) (exp(-z^2) - w(z))
// for Im z > 0; F is odd; the series F(z) = sum (-2)^n z^(2n+1) / (2n+1)!! for |z| < 1/2.
CUNP_SG c128 cdawsn(c128 z) {
  f64 x = z.re, y = z.im;
  if (y == 0) return {dawsn(x), y};
  if (x == 0) return {x, dawsn_imag_axis(y)};
  if (fm::isnan(x) || fm::isnan(y)) return {nan(), nan()};
  if (fm::isinf(x)) return fm::isinf(y) ? c128{nan(), nan()} : c128{fm::copysign(0.0, x), 0.0};
  if (fm::isinf(y)) return {nan(), y};
  if (x * x + y * y < 0.25) {
    const c128 z2 = z * z;
    c128 t = z, s = z;
    for (int n = 1; n < 14; ++n) {
      t = t * z2 * (-2.0 / (2 * n + 1));
      s = s + t;
    }
    return s;
  }
  if (fm::fabs(y) * (1 + fm::fabs(x)) < 0.05 && (fm::fabs(x) < 3 || lib_exp(-x * x) > fm::fabs(y) * 2 * x * x)) {
    // near the real axis Im F ~ y F'(x) is far below exp(-x^2) ~ |Re(exp(-z^2) - w)|,
    // which would cancel (where exp(-x^2) is the smaller, 1 - 2xF(x) cancels instead,
    // by a factor ~2x^2, and w is used): the Taylor series F(x + iy) = sum F^(n)(x) (iy)^n / n!, with F' = 1 - 2xF and
    // F^(n+1) = -2x F^(n) - 2n F^(n-1)
    f64 dm = dawsn(x), d = 1 - 2 * x * dm;  // F, F'
    f64 re = dm, im = 0, t = 1;
    // |y| (1 + |x|) < 0.05: the terms fall below 1e-17 of the sum by n = 12
    for (int n = 1; n < 13; ++n) {
      t *= y / n;  // y^n / n!
      // i^n: n = 1 -> +i, 2 -> -1, 3 -> -i, 4 -> +1
      const f64 term = d * t;
      switch (n % 4) {
        case 1: im += term; break;
        case 2: re -= term; break;
        case 3: im -= term; break;
        default: re += term; break;
      }
      const f64 dn = -2 * x * d - 2 * n * dm;
      dm = d;
      d = dn;
    }
    return {re, im};
  }
  const bool flip = y < 0;
  if (flip) {
    x = -x;
    y = -y;
  }
  const c128 w = faddeeva_upper(fm::fabs(x), y);
  const c128 wz = x < 0 ? conj(w) : w;
  const f64 mre = (y - x) * (y + x);
  const c128 e = mre < -750 ? c128{0.0, 0.0} : cm::exp(c128{mre, -2 * x * y});
  const c128 d{e.re - wz.re, e.im - wz.im};
  const c128 r{-kSqrtPi_2 * d.im, kSqrtPi_2 * d.re};
  return flip ? c128{-r.re, -r.im} : r;
}

}  // namespace sg
}  // namespace ops
}  // namespace cunp

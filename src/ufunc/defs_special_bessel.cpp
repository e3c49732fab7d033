// src/ufunc/defs_special_bessel.cpp — scipy.special's Bessel, elliptic and
// orthogonal-polynomial ufuncs (Space::Special), with SciPy 1.18's loops in SciPy 1.18's
// order (scipy.special.X.types, the complex loops left out; 1.18 puts the float32 loops
// first, "f->f d->d", where 1.17 listed "d->d f->f"); scalar code in
// src/ops/special_bessel.h, special_elliptic.h and special_orthopoly.h.
#include "ops/special_bessel.h"
#include "ops/special_bessel_complex.h"
#include "ops/special_elliptic.h"
#include "ops/special_orthopoly.h"
#include "ufunc/defs_util.hpp"

namespace cunp::ufunc {

using namespace defs;

namespace {

using ops::f32;
using ops::f64;
using ops::i64;
namespace sp = ops::special;

constexpr const char* kBessel = "special_bessel.h";
constexpr const char* kBesselComplex = "special_bessel_complex.h";
constexpr const char* kElliptic = "special_elliptic.h";
constexpr const char* kOrthopoly = "special_orthopoly.h";

std::string functor_name(const char* name) { return std::string("cunp::ops::special::") + name; }

// "f->f d->d": the fixed-order functions, the complete elliptic integrals.
template <typename Op> void fixed_order(const char* name, const char* functor, const char* header = kBessel) {
  define(name, 1, 1, functor_name(functor), header).special().template loop<Op, f32, f32>().template loop<Op, f64, f64>();
}

// "ff->f dd->d fF->F dD->D": real order, real or complex argument (the complex loops
// run COp, which names itself).
template <typename Op, typename COp> void real_order(const char* name, const char* functor) {
  define(name, 2, 1, functor_name(functor), kBesselComplex)
      .special()
      .template loop<Op, f32, f32, f32>()
      .template loop<Op, f64, f64, f64>()
      .template loop<COp, ops::c64, f32, ops::c64>()
      .template loop<COp, ops::c128, f64, ops::c128>();
}

// "fF->F dD->D": the Hankel functions.
template <typename Op> void hankel(const char* name) {
  define(name, 2, 1, functor_name(name), kBesselComplex)
      .special()
      .template loop<Op, ops::c64, f32, ops::c64>()
      .template loop<Op, ops::c128, f64, ops::c128>();
}

// "ld->d ff->f dd->d": integer order (yn, kn: the float loops truncate it, as SciPy's
// do), integer degree (the polynomials: real degrees in the float loops).
template <typename Op> void integer_order(const char* name, const char* functor, const char* header = kBessel) {
  define(name, 2, 1, functor_name(functor), header)
      .special()
      .template loop<Op, f64, i64, f64>()
      .template loop<Op, f32, f32, f32>()
      .template loop<Op, f64, f64, f64>();
}

// "lf->f ld->d": the private ufuncs of spherical_jn & co.
template <typename Op> void spherical(const char* name, const char* functor) {
  define(name, 2, 1, functor_name(functor), kBessel).special().template loop<Op, f32, i64, f32>().template loop<Op, f64, i64, f64>();
}

// "ff->f dd->d": the incomplete elliptic integrals.
template <typename Op> void incomplete(const char* name) {
  define(name, 2, 1, functor_name(name), kElliptic).special().template loop<Op, f32, f32, f32>().template loop<Op, f64, f64, f64>();
}

// "ldd->d fff->f ddd->d": the polynomials with a parameter.
template <typename Op> void with_parameter(const char* name) {
  define(name, 3, 1, functor_name(name), kOrthopoly)
      .special()
      .template loop<Op, f64, i64, f64, f64>()
      .template loop<Op, f32, f32, f32, f32>()
      .template loop<Op, f64, f64, f64, f64>();
}

// "lddd->d ffff->f dddd->d": the Jacobi polynomials.
template <typename Op> void jacobi(const char* name) {
  define(name, 4, 1, functor_name(name), kOrthopoly)
      .special()
      .template loop<Op, f64, i64, f64, f64, f64>()
      .template loop<Op, f32, f32, f32, f32, f32>()
      .template loop<Op, f64, f64, f64, f64, f64>();
}

}  // namespace

void register_special_bessel() {
  fixed_order<sp::j0>("j0", "j0");
  fixed_order<sp::j1>("j1", "j1");
  fixed_order<sp::y0>("y0", "y0");
  fixed_order<sp::y1>("y1", "y1");
  fixed_order<sp::i0>("i0", "i0");
  fixed_order<sp::i0e>("i0e", "i0e");
  fixed_order<sp::i1>("i1", "i1");
  fixed_order<sp::i1e>("i1e", "i1e");
  fixed_order<sp::k0>("k0", "k0");
  fixed_order<sp::k0e>("k0e", "k0e");
  fixed_order<sp::k1>("k1", "k1");
  fixed_order<sp::k1e>("k1e", "k1e");

  // For real arguments jve = jv and yve = yv (the scaling is exp(-|Im z|)); SciPy's jn
  // is jv.
  real_order<sp::jv, sp::cjv>("jv", "jv");
  real_order<sp::jv, sp::cjv>("jn", "jv");
  real_order<sp::jv, sp::cjve>("jve", "jv");
  real_order<sp::yv, sp::cyv>("yv", "yv");
  real_order<sp::yv, sp::cyve>("yve", "yv");
  real_order<sp::iv, sp::civ>("iv", "iv");
  real_order<sp::ive, sp::cive>("ive", "ive");
  real_order<sp::kv, sp::ckv>("kv", "kv");
  real_order<sp::kve, sp::ckve>("kve", "kve");
  hankel<sp::hankel1>("hankel1");
  hankel<sp::hankel1e>("hankel1e");
  hankel<sp::hankel2>("hankel2");
  hankel<sp::hankel2e>("hankel2e");
  integer_order<sp::yn>("yn", "yn");
  integer_order<sp::kn>("kn", "kn");

  spherical<sp::spherical_jn>("_spherical_jn", "spherical_jn");
  spherical<sp::spherical_yn>("_spherical_yn", "spherical_yn");
  spherical<sp::spherical_in>("_spherical_in", "spherical_in");
  spherical<sp::spherical_kn>("_spherical_kn", "spherical_kn");
  spherical<sp::spherical_jn_d>("_spherical_jn_d", "spherical_jn_d");
  spherical<sp::spherical_yn_d>("_spherical_yn_d", "spherical_yn_d");
  spherical<sp::spherical_in_d>("_spherical_in_d", "spherical_in_d");
  spherical<sp::spherical_kn_d>("_spherical_kn_d", "spherical_kn_d");

  fixed_order<sp::ellipk>("ellipk", "ellipk", kElliptic);
  fixed_order<sp::ellipkm1>("ellipkm1", "ellipkm1", kElliptic);
  fixed_order<sp::ellipe>("ellipe", "ellipe", kElliptic);
  incomplete<sp::ellipkinc>("ellipkinc");
  incomplete<sp::ellipeinc>("ellipeinc");
  define("ellipj", 2, 4, functor_name("ellipj"), kElliptic)
      .special()
      .template loop4<sp::ellipj, f32, f32, f32>()
      .template loop4<sp::ellipj, f64, f64, f64>();

  integer_order<sp::eval_legendre>("eval_legendre", "eval_legendre", kOrthopoly);
  integer_order<sp::eval_chebyt>("eval_chebyt", "eval_chebyt", kOrthopoly);
  integer_order<sp::eval_chebyu>("eval_chebyu", "eval_chebyu", kOrthopoly);
  integer_order<sp::eval_chebys>("eval_chebys", "eval_chebys", kOrthopoly);
  integer_order<sp::eval_chebyc>("eval_chebyc", "eval_chebyc", kOrthopoly);
  integer_order<sp::eval_sh_legendre>("eval_sh_legendre", "eval_sh_legendre", kOrthopoly);
  integer_order<sp::eval_sh_chebyt>("eval_sh_chebyt", "eval_sh_chebyt", kOrthopoly);
  integer_order<sp::eval_sh_chebyu>("eval_sh_chebyu", "eval_sh_chebyu", kOrthopoly);
  integer_order<sp::eval_laguerre>("eval_laguerre", "eval_laguerre", kOrthopoly);
  define("eval_hermite", 2, 1, functor_name("eval_hermite"), kOrthopoly).special().template loop<sp::eval_hermite, f64, i64, f64>();
  define("eval_hermitenorm", 2, 1, functor_name("eval_hermitenorm"), kOrthopoly)
      .special()
      .template loop<sp::eval_hermitenorm, f64, i64, f64>();
  with_parameter<sp::eval_genlaguerre>("eval_genlaguerre");
  with_parameter<sp::eval_gegenbauer>("eval_gegenbauer");
  define("lpmv", 3, 1, functor_name("lpmv"), kOrthopoly)
      .special()
      .template loop<sp::lpmv, f32, f32, f32, f32>()
      .template loop<sp::lpmv, f64, f64, f64, f64>();
  jacobi<sp::eval_jacobi>("eval_jacobi");
  jacobi<sp::eval_sh_jacobi>("eval_sh_jacobi");
}

}  // namespace cunp::ufunc

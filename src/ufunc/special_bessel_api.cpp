// src/ufunc/special_bessel_api.cpp — the C++ functions of cunp/special/bessel.hpp, each
// a call of its ufunc (src/ufunc/defs_special_bessel.cpp).
#include <array>

#include "cunp/special/bessel.hpp"

namespace cunp::special {

#define CUNP_DEFINE_UNARY(name)                                            \
  ndarray name(const Operand& x, const UfuncOptions& options) {           \
    const std::array<Operand, 1> in{x};                                    \
    return call_ufunc(#name, in, options)[0];                              \
  }
#define CUNP_DEFINE_BINARY(name)                                                     \
  ndarray name(const Operand& a, const Operand& x, const UfuncOptions& options) {   \
    const std::array<Operand, 2> in{a, x};                                           \
    return call_ufunc(#name, in, options)[0];                                        \
  }
#define CUNP_DEFINE_TERNARY(name)                                                                    \
  ndarray name(const Operand& a, const Operand& b, const Operand& x, const UfuncOptions& options) { \
    const std::array<Operand, 3> in{a, b, x};                                                        \
    return call_ufunc(#name, in, options)[0];                                                        \
  }
CUNP_SPECIAL_BESSEL_UNARY(CUNP_DEFINE_UNARY)
CUNP_SPECIAL_BESSEL_BINARY(CUNP_DEFINE_BINARY)
#define CUNP_DEFINE_QUATERNARY(name)                                                                 \
  ndarray name(const Operand& n, const Operand& a, const Operand& b, const Operand& x,           \
               const UfuncOptions& options) {                                                    \
    const std::array<Operand, 4> in{n, a, b, x};                                                 \
    return call_ufunc(#name, in, options)[0];                                                    \
  }
CUNP_SPECIAL_BESSEL_TERNARY(CUNP_DEFINE_TERNARY)
CUNP_SPECIAL_BESSEL_QUATERNARY(CUNP_DEFINE_QUATERNARY)
#undef CUNP_DEFINE_QUATERNARY
#undef CUNP_DEFINE_UNARY
#undef CUNP_DEFINE_BINARY
#undef CUNP_DEFINE_TERNARY

std::vector<ndarray> ellipj(const Operand& u, const Operand& m, const UfuncOptions& options) {
  const std::array<Operand, 2> in{u, m};
  return call_ufunc("ellipj", in, options);
}

namespace {
ndarray spherical(const char* name, const char* derivative_name, const Operand& n, const Operand& z,
                  bool derivative, const UfuncOptions& options) {
  const std::array<Operand, 2> in{n, z};
  return call_ufunc(derivative ? derivative_name : name, in, options)[0];
}
}  // namespace

ndarray spherical_jn(const Operand& n, const Operand& z, bool derivative, const UfuncOptions& options) {
  return spherical("_spherical_jn", "_spherical_jn_d", n, z, derivative, options);
}
ndarray spherical_yn(const Operand& n, const Operand& z, bool derivative, const UfuncOptions& options) {
  return spherical("_spherical_yn", "_spherical_yn_d", n, z, derivative, options);
}
ndarray spherical_in(const Operand& n, const Operand& z, bool derivative, const UfuncOptions& options) {
  return spherical("_spherical_in", "_spherical_in_d", n, z, derivative, options);
}
ndarray spherical_kn(const Operand& n, const Operand& z, bool derivative, const UfuncOptions& options) {
  return spherical("_spherical_kn", "_spherical_kn_d", n, z, derivative, options);
}

}  // namespace cunp::special

// cunp/special/bessel.hpp — Bessel functions, elliptic integrals and orthogonal
// polynomials. Included by cunp/special.hpp.
#pragma once

#include "cunp/ufunc.hpp"

namespace cunp::special {}  // namespace cunp::special

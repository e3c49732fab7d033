// cunp/special.hpp — scipy.special for cunp arrays: the special functions as ufuncs
// (broadcasting, out=, dtype resolution as SciPy's loops, every device), plus the
// functions SciPy defines over arrays (softmax, logsumexp, ...).
//
//   cunp::ndarray y = cunp::special::erf(x);
//   cunp::ndarray j = cunp::special::jv(0.5, x);
#pragma once

#include "cunp/special/bessel.hpp"
#include "cunp/special/gamma.hpp"

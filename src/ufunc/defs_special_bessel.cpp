// src/ufunc/defs_special_bessel.cpp — scipy.special's Bessel, elliptic and
// orthogonal-polynomial ufuncs (Space::Special), with SciPy's loops; scalar code in
// src/ops/special_bessel.h.
#include "ufunc/defs_util.hpp"

namespace cunp::ufunc {

void register_special_bessel() {}

}  // namespace cunp::ufunc

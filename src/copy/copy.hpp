// src/copy/copy.hpp — the internal element-moving primitives behind copy, astype,
// assignment, fill and device transfers.
#pragma once

#include "cunp/ndarray.hpp"

namespace cunp::detail {

// dst[...] = src broadcast to dst's shape, cast unsafely to dst's dtype; src and dst
// may live on different devices and may overlap.
void copy_elements(const ndarray& dst, const ndarray& src);
// dst[...] = value (converted to dst's dtype).
void fill_elements(const ndarray& dst, const Scalar& value);
// OverflowError when a weak (Python) integer does not fit an integer dtype (NEP 50).
void check_weak_scalar_fits(const Scalar& value, DType dtype);
// NumPy's ComplexWarning for a cast of complex values to a real (not bool) dtype.
void warn_complex_to_real(DType from, DType to);
// A new uninitialized array shaped like `a` with `order`'s layout (K keeps a's).
ndarray empty_with_layout_of(const ndarray& a, DType dtype, Order order, Device device);

}  // namespace cunp::detail

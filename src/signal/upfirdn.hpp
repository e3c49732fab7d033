// src/signal/upfirdn.hpp — what upfirdn.cpp hands its CUDA engine (upfirdn_cuda.cpp).
#pragma once

#include <cstdint>

#include "cunp/ndarray.hpp"
#include "cunp/scalar.hpp"

namespace cunp::signal::detail {

// y (rows, n_out) = upfirdn of each row of x (rows, n) through `phases` (up, taps);
// all three contiguous, of the computation dtype, on the current CUDA device.
struct UpfirdnShape {
  std::int64_t rows, n, n_out, taps, up, down;
  int mode;
  bool zero_outside;
};
void upfirdn_cuda(const ndarray& x, const ndarray& phases, ndarray& y, const UpfirdnShape& shape,
                  const Scalar& cval);

}  // namespace cunp::signal::detail

// src/ops/complex.h — the complex storage types (layout-compatible with
// std::complex and cuComplex: real part first).
#pragma once

#include "common.h"

namespace cunp {
namespace ops {

template <typename T>
struct alignas(2 * sizeof(T)) complex {
  T re;
  T im;
};
using c64 = complex<f32>;
using c128 = complex<f64>;

}  // namespace ops
}  // namespace cunp

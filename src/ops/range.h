// src/ops/range.h — the element formulas of arange, shared by the CPU loop and the
// generated kernel. NumPy fills start + i*delta in the result's own precision, where
// delta is the difference of the first two values as stored.
#pragma once

#include "cast.h"

namespace cunp {
namespace ops {

// How an arange is computed: in int64 (integer and bool results), in float32
// (float16/float32 results) or in float64 (float64 and complex results).
enum arange_mode { arange_int = 0, arange_f32 = 1, arange_f64 = 2 };

struct arange_params {
  i64 istart, idelta;
  f64 fstart, fdelta;
};

template <typename T>
CUNP_HD T arange_element(const arange_params& p, int mode, i64 i) {
  if (mode == arange_int) {
    // Wrapping arithmetic, like NumPy's C loop on overflow.
    return cast<T>(static_cast<i64>(static_cast<u64>(p.istart) + static_cast<u64>(i) * static_cast<u64>(p.idelta)));
  }
  if (mode == arange_f32) {
    return cast<T>(static_cast<f32>(p.fstart) + static_cast<f32>(i) * static_cast<f32>(p.fdelta));
  }
  return cast<T>(p.fstart + static_cast<f64>(i) * p.fdelta);
}

}  // namespace ops
}  // namespace cunp

// src/fft/layout.hpp — one transform pass over some axes of an array: fit both arrays
// to the plan layout (Note [FFT layout]), copy what does not fit, run the backend.
#pragma once

#include <optional>
#include <span>

#include "cunp/ndarray.hpp"
#include "fft/plan_key.hpp"

namespace cunp::fft::detail {

// The layout of `v` whose first `nbatch` axes are batch axes and the rest transformed
// axes, or nullopt when the backends cannot address it directly.
std::optional<Layout> describe_layout(const ndarray& v, int nbatch);

// A new uninitialized array of `shape` whose memory is C-ordered with `axes` moved
// last (in the given order), returned as a view in the original axis order: the
// layout every pass over `axes` takes without a copy.
ndarray empty_axes_last(const Shape& shape, DType dtype, Device device, std::span<const int> axes);

// out = transform(in) over `axes` (distinct, normalized, at most kMaxPlanRank; one for
// R2C/C2R). C2C: equal shapes; R2C: out has n/2+1 along the axis; C2R: in has
// out's n/2+1. in and out may be the same view (in place, C2C only). `in_disposable`:
// the pass may overwrite `in` (C2R always overwrites its input, so otherwise it
// works on a copy). No normalization is applied.
void run_pass(Kind kind, bool forward, const ndarray& in, const ndarray& out, std::span<const int> axes,
              bool in_disposable);

}  // namespace cunp::fft::detail

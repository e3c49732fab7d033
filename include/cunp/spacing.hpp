// cunp/spacing.hpp — evenly spaced samples over scalar or array endpoints:
// linspace, logspace and geomspace with NumPy's broadcasting and `axis=`.
#pragma once

#include <optional>

#include "cunp/ufunc.hpp"

namespace cunp {

// Options of linspace/logspace/geomspace. `axis` is where the samples' axis goes in
// the result (NumPy's axis=; negative counts from the end).
struct SpaceOptions {
  bool endpoint = true;
  std::optional<DType> dtype;
  std::optional<Device> device;
  int axis = 0;
};

// np.linspace: `num` samples from start to stop (broadcast against each other), in
// NumPy's formula and precision (start + i*step in the inexact result type of the
// endpoints; integer dtypes floor). Python-scalar endpoints (weak Scalars) do not widen
// a float32 endpoint. `retstep`, when given, receives the step (shape of the broadcast
// endpoints; NaN when num - endpoint <= 0).
ndarray linspace(const Operand& start, const Operand& stop, std::int64_t num, const SpaceOptions& options,
                 ndarray* retstep = nullptr);
// np.logspace: base ** linspace(start, stop); an array `base` broadcasts with the
// endpoints and gains the samples' axis, as NumPy's does.
ndarray logspace(const Operand& start, const Operand& stop, std::int64_t num, const Operand& base,
                 const SpaceOptions& options);
// np.geomspace: a geometric sequence from start to stop (negative and complex
// endpoints by rotating start onto the positive reals); ValueError for a zero endpoint.
// The dtype is at least float64 (NumPy promotes with a float64 zero) and the endpoints
// are exact.
ndarray geomspace(const Operand& start, const Operand& stop, std::int64_t num, const SpaceOptions& options);

}  // namespace cunp

// src/copy/copyto.cpp — np.copyto.
#include "cunp/copyto.hpp"

#include <string>

#include "copy/copy.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"

namespace cunp {
namespace {

std::string dtype_repr(DType dt) { return "dtype('" + std::string(name(dt)) + "')"; }

// NEP 50 for a Python scalar source: it is cast as the dtype it would take against
// dst (dst's own when the kinds allow), so only a kind that dst cannot take fails.
void check_scalar_cast(const Scalar& s, DType to, Casting casting) {
  if (casting == Casting::Unsafe) return;
  if (!s.weak()) {
    if (!can_cast(s.dtype(), to, casting)) {
      throw TypeError("Cannot cast scalar from " + dtype_repr(s.dtype()) + " to " + dtype_repr(to) +
                      " according to the rule '" + std::string(name(casting)) + "'");
    }
    return;
  }
  const DType strong[] = {to};
  const WeakKind weak[] = {s.weak_kind()};
  if (result_type(strong, weak) != to) {
    throw TypeError("Cannot cast scalar from " + dtype_repr(s.dtype()) + " to " + dtype_repr(to) +
                    " according to the rule '" + std::string(name(casting)) + "'");
  }
}

}  // namespace

void copyto(const ndarray& dst, const Operand& src, const CopytoOptions& o) {
  if (!dst.writeable()) throw ValueError("assignment destination is read-only");
  const DType dt = dst.dtype();
  ndarray value;
  if (src.is_array()) {
    const ndarray& s = src.array();
    if (!can_cast(s.dtype(), dt, o.casting)) {
      throw TypeError("Cannot cast array data from " + dtype_repr(s.dtype()) + " to " + dtype_repr(dt) +
                      " according to the rule '" + std::string(name(o.casting)) + "'");
    }
    // NumPy drops leading unit axes the destination lacks: copyto(zeros(()), [5]).
    value = s;
    while (value.ndim() > dst.ndim() && value.shape()[0] == 1) {
      value = value.reshape(Shape(value.shape().begin() + 1, value.shape().end()));
    }
  } else {
    const Scalar& s = src.scalar();
    check_scalar_cast(s, dt, o.casting);
    detail::check_weak_scalar_fits(s, dt);
    value = full({}, s, {.dtype = dt, .device = dst.device()});
  }
  if (!o.where) {
    ndarray(dst).assign(value);
    return;
  }
  const ndarray& mask = *o.where;
  if (mask.dtype() != DType::Bool && !can_cast(mask.dtype(), DType::Bool, Casting::Safe)) {
    throw TypeError("Cannot cast array data from " + dtype_repr(mask.dtype()) +
                    " to dtype('bool') according to the rule 'safe'");
  }
  const Shape shapes[] = {dst.shape(), mask.shape()};
  if (broadcast_shapes(shapes) != dst.shape()) {
    throw ValueError("could not broadcast where mask from shape " + shape_str(mask.shape()) + " into shape " +
                     shape_str(dst.shape()));
  }
  // Values broadcast first (their own shape error), then one masked select into dst.
  const ndarray v = value.to(dst.device()).astype(dt, {.copy = false}).broadcast_to(dst.shape());
  ndarray(dst).assign(where(mask.to(dst.device()), v, dst));
}

}  // namespace cunp

// src/creation/spacing.cpp — linspace, logspace and geomspace over scalar or array
// endpoints, in NumPy's formulas (numpy/_core/function_base.py) built from ufuncs, so
// one code path serves every device and every broadcast shape.
#include "cunp/spacing.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"

namespace cunp {
namespace {

void add_dtype_of(const Operand& x, std::vector<DType>& strong, std::vector<WeakKind>& weak) {
  if (x.is_array()) strong.push_back(x.array().dtype());
  else if (x.scalar().weak()) weak.push_back(x.scalar().weak_kind());
  else strong.push_back(x.scalar().dtype());
}

// Where the result lives: device=, else the first array endpoint's device, else the
// current device.
Device device_of(const std::optional<Device>& requested, std::initializer_list<const Operand*> xs) {
  if (requested) {
    check_device(*requested);
    return *requested;
  }
  for (const Operand* x : xs) {
    if (x->is_array()) return x->array().device();
  }
  return current_device();
}

// An endpoint as an array of `dt` on `dev`.
ndarray as_array(const Operand& x, DType dt, Device dev) {
  if (x.is_array()) return x.array().to(dev).astype(dt, {.copy = false});
  return full({}, x.scalar(), {.dtype = dt, .device = dev});
}

// np.asanyarray of an endpoint: a Python scalar takes its own default dtype (int64,
// float64, complex128, bool; uint64 for ints in [2**63, 2**64)).
ndarray as_own_array(const Operand& x, Device dev) {
  if (x.is_array()) return x.array().to(dev);
  if (x.scalar().is_big_int()) throw TypeError("cunp arrays cannot hold Python integers beyond 64 bits");
  return full({}, x.scalar(), {.dtype = x.scalar().dtype(), .device = dev});
}

int normalize_axis(int axis, int ndim) {
  if (axis < -ndim || axis >= ndim) {
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                    std::to_string(ndim));
  }
  return axis < 0 ? axis + ndim : axis;
}

ndarray move_samples_axis(const ndarray& y, int axis) {
  if (axis == 0) return y;
  const int src[] = {0};
  const int dst[] = {normalize_axis(axis, y.ndim())};
  return moveaxis(y, src, dst);
}

void check_num(std::int64_t num) {
  if (num < 0) throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
}

// y[0] or y[-1] (along the samples' axis 0) = value.
void set_first_axis(const ndarray& y, std::int64_t i, const ndarray& value) {
  y.view({Index(i), Index(ellipsis)}).assign(value);
}

// Note [Scalar linspace on the host]: with two scalar endpoints NumPy's formula is a
// handful of scalar operations per sample; evaluating it in the result type on the host
// (then one upload) gives NumPy's values bit for bit (each operation rounded in T, no
// contraction under -std=c++20) and avoids the six ufunc launches and the device sync
// of the any(step == 0) test that the array form needs.
template <typename T>
ndarray linspace_host(const Scalar& start, const Scalar& stop, std::int64_t num, std::int64_t div, bool endpoint,
                      DType dt, ndarray* retstep) {
  T a, b;
  Scalar::of(dt, start).write_as(dt, &a);
  Scalar::of(dt, stop).write_as(dt, &b);
  ndarray host = empty({num}, {.dtype = dt, .device = Device::cpu()});
  T* y = static_cast<T*>(host.data());
  const T delta = b - a;
  if (div > 0) {
    const T step = delta / static_cast<T>(div);
    if (step == T(0)) {
      for (std::int64_t i = 0; i < num; ++i) y[i] = static_cast<T>(i) / static_cast<T>(div) * delta + a;
    } else {
      for (std::int64_t i = 0; i < num; ++i) y[i] = static_cast<T>(i) * step + a;
    }
    if (retstep) *retstep = full({}, Scalar(0), {.dtype = dt, .device = Device::cpu()});
    if (retstep) std::memcpy(retstep->data(), &step, sizeof(T));
  } else {
    for (std::int64_t i = 0; i < num; ++i) y[i] = static_cast<T>(i) * delta + a;
    if (retstep) *retstep = full({}, Scalar(std::nan("")), {.dtype = DType::Float64, .device = Device::cpu()});
  }
  if (endpoint && num > 1) y[num - 1] = b;
  return host;
}

}  // namespace

ndarray linspace(const Operand& start, const Operand& stop, std::int64_t num, const SpaceOptions& o,
                 ndarray* retstep) {
  check_num(num);
  const std::int64_t div = o.endpoint ? num - 1 : num;
  // NumPy: result_type(start, stop, ensure_inexact=True): a weak float joins in.
  std::vector<DType> strong;
  std::vector<WeakKind> weak{WeakKind::Float};
  add_dtype_of(start, strong, weak);
  add_dtype_of(stop, strong, weak);
  const DType dt = result_type(strong, weak);
  const Device dev = device_of(o.device, {&start, &stop});
  if (!start.is_array() && !stop.is_array() && (dt == DType::Float32 || dt == DType::Float64 ||
                                                 ((dt == DType::Complex64 || dt == DType::Complex128) &&
                                                  !(o.dtype && is_integer(*o.dtype))))) {
    ndarray y;
    switch (dt) {
      case DType::Float32: y = linspace_host<float>(start.scalar(), stop.scalar(), num, div, o.endpoint, dt, retstep); break;
      case DType::Float64: y = linspace_host<double>(start.scalar(), stop.scalar(), num, div, o.endpoint, dt, retstep); break;
      case DType::Complex64:
        y = linspace_host<std::complex<float>>(start.scalar(), stop.scalar(), num, div, o.endpoint, dt, retstep);
        break;
      default:
        y = linspace_host<std::complex<double>>(start.scalar(), stop.scalar(), num, div, o.endpoint, dt, retstep);
        break;
    }
    y = move_samples_axis(y, o.axis);  // only checks the axis: the result is 1-d
    if (o.dtype && is_integer(*o.dtype)) y = floor(y);
    if (o.dtype) y = y.astype(*o.dtype, {.copy = false});
    if (dev.is_cpu()) return y;
    if (retstep) *retstep = retstep->to(dev);
    return y.to(dev);
  }
  const ndarray a = as_array(start, dt, dev);
  const ndarray b = as_array(stop, dt, dev);
  const ndarray delta = subtract(b, a);
  Shape yshape(static_cast<std::size_t>(delta.ndim()) + 1, 1);
  yshape[0] = num;
  ndarray y = arange(Scalar(std::int64_t{0}), Scalar(num), Scalar(std::int64_t{1}), {.dtype = dt, .device = dev})
                  .reshape(yshape);
  ndarray step;
  if (div > 0) {
    step = true_divide(delta, Scalar(div));
    const bool any_step_zero = any(equal(step, Scalar(0))).item().to_bool();
    // A zero step (a denormal delta over a large div) would lose delta: scale first.
    y = any_step_zero ? multiply(true_divide(y, Scalar(div)), delta) : multiply(y, step);
  } else {
    // Zero samples, or one with endpoint=True: the step is undefined.
    step = full(delta.shape(), Scalar(std::nan("")), {.dtype = is_complex(dt) ? dt : DType::Float64, .device = dev});
    y = multiply(y, delta);
  }
  y = add(y, a);
  if (o.endpoint && num > 1) set_first_axis(y, -1, b);
  y = move_samples_axis(y, o.axis);
  if (o.dtype && is_integer(*o.dtype)) y = floor(y);
  if (retstep) *retstep = step;
  return o.dtype ? y.astype(*o.dtype, {.copy = false}) : y;
}

ndarray logspace(const Operand& start, const Operand& stop, std::int64_t num, const Operand& base,
                 const SpaceOptions& o) {
  check_num(num);
  const Device dev = device_of(o.device, {&start, &stop, &base});
  const SpaceOptions lin{.endpoint = o.endpoint, .device = dev, .axis = o.axis};
  ndarray y;
  Operand b = base;
  if (base.is_array() && base.array().ndim() > 0) {
    // NumPy broadcasts an array base with the endpoints (all made arrays of one rank)
    // and gives it the samples' axis.
    const ndarray s = as_own_array(start, dev), e = as_own_array(stop, dev), bb = base.array().to(dev);
    const int nd = std::max({s.ndim(), e.ndim(), bb.ndim()});
    auto ndmin = [nd](const ndarray& x) {
      Shape sh(static_cast<std::size_t>(nd - x.ndim()), 1);
      sh.insert(sh.end(), x.shape().begin(), x.shape().end());
      return x.reshape(sh);
    };
    const int ax[] = {o.axis};
    b = expand_dims(ndmin(bb), ax);
    y = linspace(ndmin(s), ndmin(e), num, lin);
  } else {
    y = linspace(start, stop, num, lin);
  }
  const ndarray r = power(b, y);
  return o.dtype ? r.astype(*o.dtype, {.copy = false}) : r;
}

ndarray geomspace(const Operand& start, const Operand& stop, std::int64_t num, const SpaceOptions& o) {
  check_num(num);
  const Device dev = device_of(o.device, {&start, &stop});
  ndarray s = as_own_array(start, dev), e = as_own_array(stop, dev);
  if (any(equal(s, Scalar(0))).item().to_bool() || any(equal(e, Scalar(0))).item().to_bool()) {
    throw ValueError("Geometric sequence cannot include zero");
  }
  // NumPy: result_type(start, stop, float(num), zeros((), dtype)).
  const DType strong[] = {s.dtype(), e.dtype(), o.dtype.value_or(DType::Float64)};
  const WeakKind weak[] = {WeakKind::Float};
  const DType dt = result_type(strong, weak);
  s = s.astype(dt);
  e = e.astype(dt);
  // Negative and complex endpoints: rotate start onto the positive reals, compute, and
  // rotate back (sign(z) = z/|z| for complex).
  const ndarray out_sign = sign(s);
  s = true_divide(s, out_sign);
  e = true_divide(e, out_sign);
  ndarray result = logspace(log10(s), log10(e), num, Scalar(10.0),
                            {.endpoint = o.endpoint, .dtype = dt, .device = dev});
  // The endpoints exactly: exp(log(x)) is not always x.
  if (num > 0) {
    set_first_axis(result, 0, s);
    if (num > 1 && o.endpoint) set_first_axis(result, -1, e);
  }
  result = multiply(result, out_sign);
  result = move_samples_axis(result, o.axis);
  return o.dtype ? result.astype(*o.dtype, {.copy = false}) : result;
}

}  // namespace cunp

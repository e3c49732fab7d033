// src/core/creation.cpp — array creation functions.
#include "cunp/creation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/copy.hpp"
#include "core/dispatch.hpp"
#include "cunp/error.hpp"
#include "cunp/ufunc.hpp"
#include "cuda/range.hpp"
#include "cuda/runtime.hpp"
#include "ops/cast.h"
#include "ops/range.h"

namespace cunp {
namespace {

Device resolve(const std::optional<Device>& d) {
  const Device dev = d ? *d : current_device();
  check_device(dev);
  return dev;
}

ndarray empty_on(const Shape& shape, DType dtype, Order order, Device device) {
  if (order != Order::C && order != Order::F) throw ValueError("only 'C' or 'F' order is permitted");
  const std::int64_t n = shape_size(shape);
  const auto isz = static_cast<std::int64_t>(itemsize(dtype));
  return ndarray(allocate(device, static_cast<std::size_t>(n * isz)), dtype, shape,
                 new_array_strides(shape, isz, order), 0);
}

// Builds a host array with `make(i)` for each flat index, then moves it to `device`.
template <typename Make>
ndarray generate(std::int64_t n, DType dtype, Device device, Make&& make) {
  ndarray host = empty_on({n}, dtype, Order::C, Device::cpu());
  auto* p = static_cast<unsigned char*>(host.data());
  const std::size_t isz = itemsize(dtype);
  for (std::int64_t i = 0; i < n; ++i) make(i).write_as(dtype, p + static_cast<std::size_t>(i) * isz);
  return device.is_cpu() ? host : host.to(device);
}

DType dtype_of_scalars(std::initializer_list<const Scalar*> scalars) {
  std::vector<DType> strong;
  std::vector<WeakKind> weak;
  for (const Scalar* s : scalars) {
    if (s->weak()) weak.push_back(s->weak_kind());
    else strong.push_back(s->dtype());
  }
  return result_type(strong, weak);
}

}  // namespace

ndarray empty(const Shape& shape, ArrayOptions o) {
  return empty_on(shape, o.dtype.value_or(DType::Float64), o.order, resolve(o.device));
}

ndarray zeros(const Shape& shape, ArrayOptions o) {
  ndarray a = empty(shape, o);
  detail::fill_elements(a, Scalar(0));
  return a;
}

ndarray ones(const Shape& shape, ArrayOptions o) {
  ndarray a = empty(shape, o);
  detail::fill_elements(a, Scalar(1));
  return a;
}

ndarray full(const Shape& shape, const Scalar& fill_value, ArrayOptions o) {
  const DType dt = o.dtype.value_or(fill_value.dtype());
  detail::check_weak_scalar_fits(fill_value, dt);
  ndarray a = empty_on(shape, dt, o.order, resolve(o.device));
  detail::fill_elements(a, fill_value);
  return a;
}

ndarray empty_like(const ndarray& p, LikeOptions o) {
  const DType dt = o.dtype.value_or(p.dtype());
  const Device dev = o.device ? resolve(o.device) : p.device();
  if (o.shape && *o.shape != p.shape()) {
    Order ord = o.order;
    if (ord == Order::A) ord = p.is_f_contiguous() && !p.is_c_contiguous() ? Order::F : Order::C;
    if (ord == Order::K) {
      // NumPy keeps the prototype's axis order when the rank is unchanged, else uses C.
      if (o.shape->size() != p.shape().size()) return empty_on(*o.shape, dt, Order::C, dev);
      Strides st(o.shape->size());
      std::vector<int> perm(o.shape->size());
      for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int>(i);
      std::stable_sort(perm.begin(), perm.end(), [&](int x, int y) {
        return std::llabs(p.strides()[static_cast<std::size_t>(x)]) > std::llabs(p.strides()[static_cast<std::size_t>(y)]);
      });
      const auto isz = static_cast<std::int64_t>(itemsize(dt));
      std::int64_t step = isz;
      for (std::size_t k = perm.size(); k-- > 0;) {
        const auto ax = static_cast<std::size_t>(perm[k]);
        st[ax] = step;
        step *= std::max<std::int64_t>((*o.shape)[ax], 1);
      }
      const std::int64_t n = shape_size(*o.shape);
      if (n == 0) st.assign(st.size(), 0);
      return ndarray(allocate(dev, static_cast<std::size_t>(n * isz)), dt, *o.shape, std::move(st), 0);
    }
    return empty_on(*o.shape, dt, ord, dev);
  }
  return detail::empty_with_layout_of(p, dt, o.order, dev);
}

ndarray zeros_like(const ndarray& p, LikeOptions o) {
  ndarray a = empty_like(p, o);
  detail::fill_elements(a, Scalar(0));
  return a;
}

ndarray ones_like(const ndarray& p, LikeOptions o) {
  ndarray a = empty_like(p, o);
  detail::fill_elements(a, Scalar(1));
  return a;
}

ndarray full_like(const ndarray& p, const Scalar& fill_value, LikeOptions o) {
  ndarray a = empty_like(p, o);
  detail::check_weak_scalar_fits(fill_value, a.dtype());
  detail::fill_elements(a, fill_value);
  return a;
}

ndarray arange(const Scalar& stop, ArrayOptions o) {
  return arange(Scalar(0), stop, Scalar(1), o);
}

ndarray arange(const Scalar& start, const Scalar& stop, const Scalar& step, ArrayOptions o) {
  // NumPy's arange types its arguments by their Python kind, even NumPy scalars:
  // np.arange(np.int8(2), 7) is int64.
  const WeakKind kinds[] = {start.weak_kind(), stop.weak_kind(), step.weak_kind()};
  const DType dt = o.dtype.value_or(result_type({}, kinds));
  const Device dev = resolve(o.device);
  if (is_complex(start.dtype()) || is_complex(stop.dtype()) || is_complex(step.dtype())) {
    throw TypeError("arange does not support complex arguments in cunp");
  }
  const double d_step = step.to_double();
  if (d_step == 0) throw ZeroDivisionError("division by zero");
  const double len_d = std::ceil((stop.to_double() - start.to_double()) / d_step);
  if (std::isnan(len_d)) throw ValueError("arange: cannot compute length");
  const std::int64_t n = len_d > 0 ? static_cast<std::int64_t>(len_d) : 0;
  if (dt == DType::Bool && n > 2) {
    throw TypeError("arange() is only supported for booleans when the result has at most length 2.");
  }
  ops::arange_params p{};
  const int mode = cuda::arange_mode(dt);
  if (mode == ops::arange_int) {
    p.istart = start.to_int64();
    p.idelta = step.to_int64();
  } else if (mode == ops::arange_f32) {
    // The first two values as stored (rounded to float16 for float16 results).
    auto stored = [dt](double v) {
      const float f = static_cast<float>(v);
      return dt == DType::Float16 ? ops::half_to_f32(ops::f32_to_half(f)) : f;
    };
    const float s0 = stored(start.to_double());
    p.fstart = s0;
    p.fdelta = stored(start.to_double() + d_step) - s0;
  } else {
    p.fstart = start.to_double();
    p.fdelta = (p.fstart + d_step) - p.fstart;
  }
  ndarray out = empty_on({n}, dt, Order::C, dev);
  if (dev.is_cuda()) {
    cuda::DeviceScope scope(dev.index);
    cuda::arange(out.data(), dt, n, p, mode);
    return out;
  }
  dispatch_dtype(dt, [&]<typename T>() {
    T* d = static_cast<T*>(out.data());
    for (std::int64_t i = 0; i < n; ++i) d[i] = ops::arange_element<T>(p, mode, i);
  });
  return out;
}

ndarray linspace(const Scalar& start, const Scalar& stop, std::int64_t num, LinspaceOptions o, double* retstep) {
  if (num < 0) throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  const Scalar fnum(static_cast<double>(num));
  const DType dt = o.dtype.value_or(dtype_of_scalars({&start, &stop, &fnum}));
  if (is_complex(dt)) throw TypeError("linspace with complex values is not supported yet");
  const std::int64_t div = o.endpoint ? num - 1 : num;
  const double a = start.to_double(), b = stop.to_double();
  const double delta = b - a;
  const double step = div > 0 ? delta / static_cast<double>(div) : std::nan("");
  if (retstep) *retstep = step;
  const bool integer = is_integer(dt);
  ndarray out = generate(num, dt, resolve(o.device), [&](std::int64_t i) {
    double y;
    if (o.endpoint && num > 1 && i == num - 1) {
      y = b;
    } else if (div > 0) {
      y = step == 0 ? static_cast<double>(i) / static_cast<double>(div) * delta : static_cast<double>(i) * step;
      y += a;
    } else {
      y = static_cast<double>(i) * delta + a;
    }
    if (integer) y = std::floor(y);
    return Scalar(y);
  });
  return out;
}

ndarray logspace(const Scalar& start, const Scalar& stop, std::int64_t num, double base, LinspaceOptions o) {
  const ndarray lin = linspace(start, stop, num, {.endpoint = o.endpoint, .device = Device::cpu()});
  const Scalar fnum(1.0);
  const DType dt = o.dtype.value_or(dtype_of_scalars({&start, &stop, &fnum}));
  const auto* y = static_cast<const double*>(lin.data());
  const bool integer = is_integer(dt);
  return generate(num, dt, resolve(o.device), [&](std::int64_t i) {
    double v = std::pow(base, y[i]);
    if (integer) v = std::floor(v);
    return Scalar(v);
  });
}

ndarray diagonal(const ndarray& a, std::int64_t offset) {
  if (a.ndim() < 2) throw ValueError("diag requires an array of at least two dimensions");
  const int nd = a.ndim();
  const std::int64_t rows = a.shape()[nd - 2], cols = a.shape()[nd - 1];
  const std::int64_t rs = a.strides()[nd - 2], cs = a.strides()[nd - 1];
  std::int64_t len, off = a.offset();
  if (offset >= 0) {
    len = std::max<std::int64_t>(0, std::min(rows, cols - offset));
    if (len > 0) off += offset * cs;
  } else {
    len = std::max<std::int64_t>(0, std::min(rows + offset, cols));
    if (len > 0) off += -offset * rs;
  }
  Shape sh(a.shape().begin(), a.shape().end() - 2);
  Strides st(a.strides().begin(), a.strides().end() - 2);
  sh.push_back(len);
  st.push_back(rs + cs);
  ndarray v = make_view(a, std::move(sh), std::move(st), off);
  v.set_writeable(false);
  return v;
}

ndarray eye(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, ArrayOptions o) {
  ndarray a = zeros({n, m.value_or(n)}, o);
  ndarray d = diagonal(a, k);
  ndarray writable = a.as_strided(d.shape(), d.strides(), d.offset());
  detail::fill_elements(writable, Scalar(1));
  return a;
}

ndarray identity(std::int64_t n, ArrayOptions o) { return eye(n, std::nullopt, 0, o); }

ndarray diag(const ndarray& v, std::int64_t k) {
  if (v.ndim() == 1) {
    const std::int64_t n = v.shape()[0] + (k < 0 ? -k : k);
    ndarray a = zeros({n, n}, {.dtype = v.dtype(), .device = v.device()});
    const ndarray d = diagonal(a, k);
    a.as_strided(d.shape(), d.strides(), d.offset()).assign(v);
    return a;
  }
  if (v.ndim() == 2) return diagonal(v, k);
  throw ValueError("Input must be 1- or 2-d.");
}

namespace {

// The (rows, cols) mask j <= i + k, computed on `dev` by one broadcast comparison of
// two aranges (no per-element host work, nothing sized rows*cols on the host).
ndarray lower_mask(std::int64_t rows, std::int64_t cols, std::int64_t k, Device dev) {
  const ArrayOptions index{.dtype = DType::Int64, .device = dev};
  const ndarray i = arange(Scalar(std::int64_t{0}), Scalar(rows), Scalar(std::int64_t{1}), index).reshape({rows, 1});
  const ndarray j = arange(Scalar(std::int64_t{0}), Scalar(cols), Scalar(std::int64_t{1}), index);
  // j - i <= k rather than j <= i + k: no overflow for any k.
  return less_equal(subtract(j, i), Scalar(k));
}

// NumPy's mask-and-where: keeps m where `keep` (a (rows, cols) mask, broadcast over the
// leading axes) holds and zero elsewhere, in m's dtype.
ndarray where_mask(const ndarray& m, bool lower, std::int64_t k) {
  if (m.ndim() == 0) throw ValueError("tril/triu requires an array of at least one dimension");
  // A 1-d input is broadcast to a square matrix, as NumPy's does.
  const ndarray mm = m.ndim() == 1 ? m.broadcast_to({m.shape()[0], m.shape()[0]}) : m;
  const std::int64_t rows = mm.shape()[mm.ndim() - 2], cols = mm.shape()[mm.ndim() - 1];
  const ndarray below = lower_mask(rows, cols, lower ? k : k - 1, mm.device());
  const ndarray keep = lower ? below : logical_not(below);
  return where(keep, mm, zeros({}, {.dtype = mm.dtype(), .device = mm.device()}));
}

}  // namespace

ndarray tri(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, ArrayOptions o) {
  const std::int64_t cols = m.value_or(n);
  const DType dt = o.dtype.value_or(DType::Float64);
  const Device dev = resolve(o.device);
  // NumPy's tri builds its mask from aranges, so a negative size gives an empty axis.
  const ndarray mask = lower_mask(std::max<std::int64_t>(n, 0), std::max<std::int64_t>(cols, 0), k, dev);
  return dt == DType::Bool ? mask : mask.astype(dt);
}

ndarray tril(const ndarray& m, std::int64_t k) { return where_mask(m, true, k); }

ndarray triu(const ndarray& m, std::int64_t k) { return where_mask(m, false, k); }

ndarray from_host(const void* data, DType dtype, const Shape& shape, std::optional<Device> device) {
  ndarray a = empty_on(shape, dtype, Order::C, resolve(device));
  a.copy_from_host(data);
  return a;
}

ndarray wrap_host(void* data, DType dtype, const Shape& shape, const Strides& strides, std::shared_ptr<void> owner) {
  const auto isz = static_cast<std::int64_t>(itemsize(dtype));
  std::int64_t lo = 0, hi = isz;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) {
      lo = hi = 0;
      break;
    }
    const std::int64_t span = (shape[i] - 1) * strides[i];
    if (span < 0) lo += span;
    else hi += span;
  }
  auto storage = std::make_shared<Storage>(static_cast<char*>(data) + lo, static_cast<std::size_t>(hi - lo),
                                           Device::cpu(), [owner](void*) {});
  return ndarray(std::move(storage), dtype, shape, strides, -lo);
}

ndarray asarray(const ndarray& a, std::optional<DType> dtype, std::optional<Device> device, bool copy) {
  const Device dev = device ? resolve(device) : a.device();
  ndarray r = a.to(dev, copy);
  if (dtype && *dtype != r.dtype()) r = r.astype(*dtype);
  return r;
}

ndarray ascontiguousarray(const ndarray& a, std::optional<DType> dtype) {
  ndarray r = a.astype(dtype.value_or(a.dtype()), {.order = Order::C, .copy = false});
  return r.ndim() == 0 ? r.reshape({1}) : r;
}

ndarray asfortranarray(const ndarray& a, std::optional<DType> dtype) {
  ndarray r = a.astype(dtype.value_or(a.dtype()), {.order = Order::F, .copy = false});
  return r.ndim() == 0 ? r.reshape({1}) : r;
}

ndarray empty_pinned(const Shape& shape, DType dtype, Order order) {
  if (order != Order::C && order != Order::F) throw ValueError("only 'C' or 'F' order is permitted");
  const std::int64_t n = shape_size(shape);
  const auto isz = static_cast<std::int64_t>(itemsize(dtype));
  return ndarray(allocate_pinned(static_cast<std::size_t>(n * isz)), dtype, shape,
                 new_array_strides(shape, isz, order), 0);
}

ndarray zeros_pinned(const Shape& shape, DType dtype, Order order) {
  ndarray a = empty_pinned(shape, dtype, order);
  if (a.nbytes() > 0) std::memset(a.data(), 0, static_cast<std::size_t>(a.nbytes()));
  return a;
}

}  // namespace cunp

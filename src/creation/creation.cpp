// src/creation/creation.cpp — array creation functions.
#include "cunp/creation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "copy/copy.hpp"
#include "core/dispatch.hpp"
#include "cunp/error.hpp"
#include "cunp/interop.hpp"
#include "cunp/spacing.hpp"
#include "cunp/ufunc.hpp"
#include "creation/range.hpp"
#include "runtime/runtime.hpp"
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
  if (n > INT64_MAX / isz) {
    throw ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  }
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

namespace {

// Note [arange length and values]: NumPy computes the length from the arguments as
// Python objects, ceil((stop - start) / step) (exact for Python ints; for complex
// arguments the smaller of the ceilings of the quotient's real and imaginary parts),
// then stores start and next = start + step in the result dtype and fills
// start + i*(next - start) in that dtype. Integer arguments are exact here too
// (128-bit differences), so ranges near 2**63 keep NumPy's length.
__int128 exact_int(const Scalar& s) {
  if (s.dtype() == DType::UInt64) return static_cast<__int128>(s.to_uint64());
  if (s.dtype() == DType::Bool) return s.to_bool() ? 1 : 0;
  return s.to_int64();
}

bool integral(const Scalar& s) { return s.dtype() == DType::Bool || is_integer(s.dtype()); }

std::int64_t arange_length(double quotient) {
  if (std::isnan(quotient)) throw ValueError("arange: cannot compute length");
  const double len = std::ceil(quotient);
  if (len <= 0) return 0;
  if (len > 9.2233720368547758e18) throw ValueError("Maximum allowed size exceeded");
  // Exactly 2**63 wraps to a negative length in NumPy's conversion: an empty range.
  if (len == 9.2233720368547758e18) return 0;
  return static_cast<std::int64_t>(len);
}

Scalar from_exact(__int128 v) {
  if (v >= 0 && v > INT64_MAX && v <= static_cast<__int128>(UINT64_MAX)) return Scalar(static_cast<std::uint64_t>(v));
  if (v >= INT64_MIN && v <= INT64_MAX) return Scalar(static_cast<std::int64_t>(v));
  return Scalar::big_int(static_cast<double>(v));
}

}  // namespace

ndarray arange(const Scalar& start, const Scalar& stop, const Scalar& step, ArrayOptions o) {
  for (const Scalar* s : {&start, &stop, &step}) {
    if (s->is_big_int()) {
      throw TypeError("arange: a Python integer beyond 64 bits needs an object array, which cunp does not have");
    }
  }
  // NumPy's dtype: intp promoted with each argument's own dtype (a Python int is int64,
  // or uint64 from 2**63): np.arange(np.int8(5)) is int64, np.arange(np.uint64(5)) float64.
  DType dt = DType::Int64;
  if (o.dtype) {
    dt = *o.dtype;
  } else {
    for (const Scalar* s : {&start, &stop, &step}) dt = promote_types(dt, s->dtype());
  }
  const Device dev = resolve(o.device);
  // The length is complex when (stop - start) / step is a Python complex: a Python
  // complex or complex128 argument; a complex64 one alone gives a NumPy complex64,
  // which NumPy reads by its real part.
  auto complex_object = [](const Scalar& s) {
    return is_complex(s.dtype()) && (s.weak() || s.dtype() == DType::Complex128);
  };
  const bool complex_args = complex_object(start) || complex_object(stop) || complex_object(step);
  std::int64_t n = 0;
  Scalar next;
  if (complex_args) {
    const std::complex<double> a = start.to_complex(), b = stop.to_complex(), d = step.to_complex();
    if (d == std::complex<double>(0, 0)) throw ZeroDivisionError("division by zero");
    const std::complex<double> q = (b - a) / d;
    n = std::min(arange_length(q.real()), arange_length(q.imag()));
    next = Scalar(a + d);
  } else if (integral(start) && integral(stop) && integral(step)) {
    const __int128 a = exact_int(start), b = exact_int(stop), d = exact_int(step);
    if (d == 0) throw ZeroDivisionError("division by zero");
    // Python's int / int: the exact quotient rounded once to a double, then ceil.
    const __int128 diff = b - a;
    n = arange_length(static_cast<double>(static_cast<long double>(diff) / static_cast<long double>(d)));
    next = from_exact(a + d);
  } else {
    const double d = step.to_double();
    if (d == 0) throw ZeroDivisionError("float division by zero");
    n = arange_length((stop.to_double() - start.to_double()) / d);
    next = Scalar(start.to_double() + d);
  }
  const bool any_complex = is_complex(start.dtype()) || is_complex(stop.dtype()) || is_complex(step.dtype());
  if (any_complex) next = Scalar(start.to_complex() + step.to_complex());
  if (dt == DType::Bool && n > 2) {
    throw TypeError("arange() is only supported for booleans when the result has at most length 2.");
  }
  // NumPy stores start (and next, for two or more values) into the result: a Python
  // int the integer dtype cannot hold is an OverflowError.
  // A Python float stored into an integer dtype goes through int() first.
  auto check_stored = [dt](const Scalar& v) {
    if (v.weak() && is_floating(v.dtype()) && is_integer(dt)) {
      const double t = std::trunc(v.to_double());
      detail::check_weak_scalar_fits(std::fabs(t) < 9.2e18 ? Scalar(static_cast<std::int64_t>(t)) : Scalar::big_int(t),
                                     dt);
    } else {
      detail::check_weak_scalar_fits(v, dt);
    }
  };
  if (n > 0) check_stored(start);
  if (n > 1 && start.weak() && step.weak()) check_stored(next);
  if (is_complex(dt) && any_complex) {
    // Complex steps: real and imaginary parts advance together (host fill, as the
    // lengths of such ranges are small).
    const std::complex<double> a = start.to_complex(), d = next.to_complex() - a;
    return generate(n, dt, dev, [&](std::int64_t i) { return Scalar(a + static_cast<double>(i) * d); });
  }
  ops::arange_params p{};
  const int mode = cuda::arange_mode(dt);
  if (mode == ops::arange_int) {
    // The first two values as stored in dt (wrapping), their difference in dt.
    const std::int64_t s0 = Scalar::of(dt, start).to_int64();
    const std::int64_t s1 = n > 1 ? Scalar::of(dt, next).to_int64() : s0;
    p.istart = s0;
    p.idelta = static_cast<std::int64_t>(static_cast<std::uint64_t>(s1) - static_cast<std::uint64_t>(s0));
  } else if (mode == ops::arange_f32) {
    // The first two values as stored (rounded to float16 for float16 results).
    auto stored = [dt](double v) {
      const float f = static_cast<float>(v);
      return dt == DType::Float16 ? ops::half_to_f32(ops::f32_to_half(f)) : f;
    };
    const float s0 = stored(start.to_double());
    p.fstart = s0;
    p.fdelta = stored(next.to_double()) - s0;
  } else {
    p.fstart = start.to_double();
    p.fdelta = next.to_double() - p.fstart;
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

// The scalar forms of creation.hpp forward to spacing.hpp's, which take arrays too.
ndarray linspace(const Scalar& start, const Scalar& stop, std::int64_t num, LinspaceOptions o, double* retstep) {
  ndarray step;
  ndarray r = linspace(Operand(start), Operand(stop), num,
                       {.endpoint = o.endpoint, .dtype = o.dtype, .device = o.device}, retstep ? &step : nullptr);
  if (retstep) *retstep = step.item().to_double();
  return r;
}

ndarray logspace(const Scalar& start, const Scalar& stop, std::int64_t num, double base, LinspaceOptions o) {
  return logspace(Operand(start), Operand(stop), num, Operand(Scalar(base)),
                  {.endpoint = o.endpoint, .dtype = o.dtype, .device = o.device});
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
  std::function<void()> release;
  if (owner) release = [owner = std::move(owner)] {};  // dropping the lambda drops the owner
  return from_pointer(data, dtype, shape, strides, Device::cpu(), std::move(release));
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

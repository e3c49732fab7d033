// src/signal/filter.cpp — lfilter, sosfilt and correlate_valid (cunp/signal.hpp): SciPy's
// argument checks and messages, the result dtype, the coefficients normalized on the host,
// and the operands brought into the (lanes, n) layouts of engines.hpp.
//
// Note [Filter coefficients on the host]: SciPy reads a[0] (an error when it is zero) and
// divides b and a by it before filtering, so the coefficients are read on the host
// whatever their device (a few values; the Python layer keeps list and NumPy
// coefficients on the host, so that costs no device synchronization for them). The
// normalized values travel to the data's device with the filter.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/dispatch.hpp"
#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/signal.hpp"
#include "cunp/ufunc.hpp"
#include "ops/complex.h"
#include "signal/engines.hpp"
#include "signal/iir_ops.h"

namespace cunp::signal {
namespace {

using detail::IirFilter;

// A shape as Python prints a tuple ("(3, 1)", "(3,)"); compact: scipy's C messages, "(3,1)".
std::string py_shape(const Shape& s, bool compact = false) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += compact ? "," : ", ";
    out += std::to_string(s[i]);
  }
  if (s.size() == 1 && !compact) out += ",";
  return out + ")";
}

std::string dtype_text(DType dt) { return std::string(name(dt)); }

bool is_filter_dtype(DType dt) {
  return dt == DType::Float32 || dt == DType::Float64 || dt == DType::Complex64 ||
         dt == DType::Complex128;
}

template <typename F>
decltype(auto) dispatch_filter(DType dt, F&& f) {
  switch (dt) {
    case DType::Float32:
      return f.template operator()<ops::f32>();
    case DType::Complex64:
      return f.template operator()<ops::c64>();
    case DType::Complex128:
      return f.template operator()<ops::c128>();
    default:
      return f.template operator()<ops::f64>();
  }
}

// The values of `a` converted to T (a filter dtype), on the host.
template <typename T>
std::vector<T> host_values(const ndarray& a, DType dt) {
  const ndarray h = a.to(Device::cpu()).astype(dt);
  std::vector<T> v(static_cast<std::size_t>(h.size()));
  if (!v.empty()) h.copy_to_host(v.data());
  return v;
}

template <typename T>
std::complex<double> widen(T v) {
  if constexpr (std::is_same_v<T, ops::c64> || std::is_same_v<T, ops::c128>)
    return {static_cast<double>(v.re), static_cast<double>(v.im)};
  else
    return {static_cast<double>(v), 0.0};
}

template <typename T>
bool is_zero(T v) {
  if constexpr (std::is_same_v<T, ops::c64> || std::is_same_v<T, ops::c128>)
    return v.re == 0 && v.im == 0;
  else
    return v == 0;
}

template <typename T>
ndarray upload(const std::vector<T>& v, DType dt, Device device) {
  return from_host(v.data(), dt, {static_cast<std::int64_t>(v.size())}, device);
}

// The operands of a filter call in the engines' layouts.
struct Lanes {
  ndarray x2, y2;  // (lanes, n) views
  ndarray y;       // the result, x's shape
};

// x moved so that `axis` is last, as (lanes, n) of dtype dt, and the output beside it;
// lane-major on a CUDA device when the engine prefers it.
Lanes make_lanes(const ndarray& x, int axis, DType dt, int dim) {
  const int nd = x.ndim();
  const std::int64_t n = x.shape()[static_cast<std::size_t>(axis)];
  const std::int64_t lanes = n ? x.size() / n : [&] {
    std::int64_t l = 1;
    for (int k = 0; k < nd; ++k)
      if (k != axis) l *= x.shape()[static_cast<std::size_t>(k)];
    return l;
  }();
  const int src[1] = {axis};
  const int last[1] = {nd - 1};
  const int first[1] = {0};
  Lanes l;
  if (x.device().is_cuda() && detail::gpu_prefers_lane_major(lanes, n, dim)) {
    const ndarray xm = ascontiguousarray(moveaxis(x, src, first), dt);
    l.x2 = xm.reshape({n, lanes}).transpose();
    const ndarray y = empty(xm.shape(), {.dtype = dt, .device = x.device()});
    l.y2 = y.reshape({n, lanes}).transpose();
    l.y = moveaxis(y, first, src);
    return l;
  }
  const ndarray xm = moveaxis(x, src, last).astype(dt, {.copy = false});
  l.x2 = xm.reshape({lanes, n});
  const ndarray y = empty({lanes, n}, {.dtype = dt, .device = x.device()});
  l.y2 = y;
  l.y = moveaxis(y.reshape(xm.shape()), last, src);
  return l;
}

void run_iir(const IirFilter& f, const Lanes& l, const ndarray* zi, const ndarray* zf) {
  const Device dev = l.x2.device();
  if (dev.is_cuda()) {
    cuda::DeviceScope scope(dev.index);
    detail::gpu_iir(f, l.x2, l.y2, zi, zf);
  } else {
    detail::cpu_iir(f, l.x2, l.y2, zi, zf);
  }
}

int checked_axis(int axis, int ndim, bool scipy_c_message) {
  if (axis < -ndim || axis >= ndim) {
    if (scipy_c_message) throw ValueError("selected axis is out of range");
    throw AxisError(axis, ndim);
  }
  return axis < 0 ? axis + ndim : axis;
}

ndarray on_device(const ndarray& a, Device d) { return a.device() == d ? a : a.to(d); }

// lfilter's zi: x's shape with `axis` replaced by p, size-1 dimensions broadcast.
ndarray expand_lfilter_zi(const ndarray& zi, const ndarray& x, int axis, int p, bool fir_path) {
  if (zi.ndim() != x.ndim()) {
    if (fir_path)
      throw ValueError("Dimensions of parameters x and zi must match, but x.ndim=" +
                       std::to_string(x.ndim()) + ", zi.ndim=" + std::to_string(zi.ndim()) + "!");
    throw ValueError(zi.ndim() > x.ndim() ? "object too deep for desired array"
                                          : "object of too small depth for desired array");
  }
  Shape expected = x.shape();
  expected[static_cast<std::size_t>(axis)] = p;
  for (int k = 0; k < x.ndim(); ++k) {
    const auto kk = static_cast<std::size_t>(k);
    if (zi.shape()[kk] == expected[kk] || (k != axis && zi.shape()[kk] == 1)) continue;
    if (fir_path)
      throw ValueError("Unexpected shape for parameter zi: expected " + py_shape(expected) +
                       ", found " + py_shape(zi.shape()) + ".");
    throw ValueError("Unexpected shape for zi:  expected " + py_shape(expected, true) + ", found " +
                     py_shape(zi.shape(), true) + ".");
  }
  return zi.shape() == expected ? zi : zi.broadcast_to(expected);
}

}  // namespace

FilterResult lfilter(const ndarray& b_in, const ndarray& a_in, const ndarray& x,
                     const FilterOptions& o) {
  const ndarray b = atleast_1d(b_in);
  const ndarray a = atleast_1d(a_in);
  if (!(b.ndim() == 1 && b.size() > 0))
    throw ValueError(
        "Parameter b is not a non-empty 1d array, since b.shape=" + py_shape(b.shape()) + "!");
  if (!(a.ndim() == 1 && a.size() > 0))
    throw ValueError(
        "Parameter a is not a non-empty 1d array, since a.shape=" + py_shape(a.shape()) + "!");
  // SciPy filters len(a) == 1 with np.convolve and everything else with its C filter;
  // the two report errors differently.
  const bool fir_path = a.size() == 1;
  if (x.ndim() == 0)
    throw ValueError(fir_path ? "x must be at least 1-D" : "selected axis is out of range");
  const int axis = checked_axis(o.axis, x.ndim(), !fir_path);
  const int nb = static_cast<int>(b.size()), na = static_cast<int>(a.size());
  const int p = std::max(nb, na) - 1;
  std::optional<ndarray> zi;
  if (o.zi) zi = expand_lfilter_zi(*o.zi, x, axis, p, fir_path);
  std::vector<DType> types = {b.dtype(), a.dtype(), x.dtype()};
  if (zi) types.push_back(zi->dtype());
  const DType dt = result_type(types);
  if (!is_filter_dtype(dt)) {
    if (fir_path)
      throw NotImplementedError("Parameter's dtypes produced result type '" + dtype_text(dt) +
                                "', which is not supported!");
    throw NotImplementedError("input type '" + dtype_text(dt) + "' not supported");
  }
  const Device dev = x.device();
  const std::int64_t n = x.shape()[static_cast<std::size_t>(axis)];
  if (fir_path && n == 0) throw ValueError("v cannot be empty");
  if (fir_path && x.size() == 0)
    throw ValueError("Cannot apply_along_axis when any iteration dimensions are 0");

  return dispatch_filter(dt, [&]<typename T>() -> FilterResult {
    std::vector<T> bv = host_values<T>(b, dt), av = host_values<T>(a, dt);
    const T a0 = av[0];
    if (!fir_path && is_zero(a0))
      throw ValueError("BUG: filter coefficient a[0] == 0 not supported yet");
    for (T& v : bv) v = v / a0;
    for (T& v : av) v = v / a0;
    bv.resize(static_cast<std::size_t>(p) + 1, T{});
    av.resize(static_cast<std::size_t>(p) + 1, T{});
    bool all_pole_free = true;  // a == [1, 0, ...]: a finite impulse response
    for (int k = 1; k <= p; ++k)
      all_pole_free = all_pole_free && is_zero(av[static_cast<std::size_t>(k)]);

    const ndarray xt = on_device(x, dev);
    FilterResult r;
    if (p == 0) {  // a gain: y = (b0 / a0) x
      r.y = multiply(xt.astype(dt, {.copy = false}), from_host(bv.data(), dt, {}, dev));
      if (zi) r.zf = on_device(*zi, dev).astype(dt);
      return r;
    }
    const Lanes l = make_lanes(xt, axis, dt, p);
    const int src[1] = {axis};
    const int last[1] = {x.ndim() - 1};
    ndarray zi2, zf2;
    if (zi) {
      const ndarray zm = ascontiguousarray(moveaxis(on_device(*zi, dev), src, last), dt);
      zi2 = zm.reshape({l.x2.shape()[0], p});
      zf2 = empty(zi2.shape(), {.dtype = dt, .device = dev});
      r.zf = moveaxis(zf2.reshape(zm.shape()), last, src);
    }
    if (dev.is_cuda() && all_pole_free) {
      std::vector<T> taps(bv.begin(), bv.begin() + nb);
      cuda::DeviceScope scope(dev.index);
      detail::gpu_fir(upload(taps, dt, dev), p, l.x2, l.y2, zi ? &zi2 : nullptr,
                      zi ? &zf2 : nullptr);
    } else {
      IirFilter f{.sos = false, .order = p, .dim = p, .dtype = dt};
      std::vector<T> coef = bv;
      coef.insert(coef.end(), av.begin(), av.end());
      for (const T& v : coef) f.host.push_back(widen(v));
      f.coef = upload(coef, dt, dev);
      run_iir(f, l, zi ? &zi2 : nullptr, zi ? &zf2 : nullptr);
    }
    r.y = l.y;
    return r;
  });
}

FilterResult sosfilt(const ndarray& sos_in, const ndarray& x, const FilterOptions& o) {
  if (x.ndim() == 0) throw ValueError("x must be at least 1-D");
  const ndarray sos = sos_in.ndim() < 2
                          ? (sos_in.ndim() == 0 ? sos_in.reshape({1, 1}) : sos_in.reshape({1, -1}))
                          : sos_in;
  if (sos.ndim() != 2) throw ValueError("sos array must be 2D");
  if (sos.shape()[1] != 6) throw ValueError("sos array must be shape (n_sections, 6)");
  const int sections = static_cast<int>(sos.shape()[0]);
  const int axis = checked_axis(o.axis, x.ndim(), false);
  std::vector<DType> types = {sos.dtype(), x.dtype()};
  if (o.zi) types.push_back(o.zi->dtype());
  const DType dt = result_type(types);
  Shape zshape = x.shape();
  zshape[static_cast<std::size_t>(axis)] = 2;
  zshape.insert(zshape.begin(), sections);
  const Device dev = x.device();
  return dispatch_filter(dt, [&]<typename T>() -> FilterResult {
    std::vector<T> coef = host_values<T>(sos, is_filter_dtype(dt) ? dt : DType::Float64);
    for (int s = 0; s < sections; ++s)
      if (!(widen(coef[static_cast<std::size_t>(6 * s + 3)]) == std::complex<double>(1.0, 0.0)))
        throw ValueError("sos[:, 3] should be all ones");
    if (!is_filter_dtype(dt))
      throw NotImplementedError("input type '" + dtype_text(dt) + "' not supported");
    if (o.zi && o.zi->shape() != zshape)
      throw ValueError("Invalid zi shape. With axis=" + std::to_string(o.axis) +
                       ", an input with shape " + py_shape(x.shape()) + ", and an sos array with " +
                       std::to_string(sections) + " sections, zi must have shape " +
                       py_shape(zshape) + ", got " + py_shape(o.zi->shape()) + ".");
    FilterResult r;
    const ndarray xt = on_device(x, dev);
    if (sections == 0) {
      r.y = xt.astype(dt);
      if (o.zi) r.zf = on_device(*o.zi, dev).astype(dt);
      return r;
    }
    const int dim = 2 * sections;
    const Lanes l = make_lanes(xt, axis, dt, std::min(dim, 2 * detail::kSosGroupSections));
    ndarray zi2, zf2;
    if (o.zi) {
      const int src[2] = {0, axis + 1};
      const int dst[2] = {x.ndim() - 1, x.ndim()};
      const ndarray zm = ascontiguousarray(moveaxis(on_device(*o.zi, dev), src, dst), dt);
      zi2 = zm.reshape({l.x2.shape()[0], dim});
      zf2 = empty(zi2.shape(), {.dtype = dt, .device = dev});
      r.zf = moveaxis(zf2.reshape(zm.shape()), dst, src);
    }
    IirFilter f{.sos = true, .order = sections, .dim = dim, .dtype = dt};
    for (const T& v : coef) f.host.push_back(widen(v));
    f.coef = upload(coef, dt, dev);
    run_iir(f, l, o.zi ? &zi2 : nullptr, o.zi ? &zf2 : nullptr);
    r.y = l.y;
    return r;
  });
}

ndarray correlate_valid(const ndarray& in_arg, const ndarray& kernel, const CorrelateOptions& o) {
  if (in_arg.ndim() != kernel.ndim())
    throw ValueError("correlate_valid: in and kernel must have the same ndim (got " +
                     std::to_string(in_arg.ndim()) + " and " + std::to_string(kernel.ndim()) + ")");
  const int nd = in_arg.ndim();
  if (nd > signal_ops::kMaxConvDims)
    throw ValueError("correlate_valid: at most " + std::to_string(signal_ops::kMaxConvDims) +
                     " dimensions");
  if (in_arg.dtype() != kernel.dtype())
    throw TypeError("correlate_valid: in and kernel must have the same dtype (got " +
                    dtype_text(in_arg.dtype()) + " and " + dtype_text(kernel.dtype()) + ")");
  const DType dt = in_arg.dtype();
  if (!is_filter_dtype(dt) && dt != DType::Int64 && dt != DType::UInt64)
    throw TypeError("correlate_valid: unsupported dtype " + dtype_text(dt));
  if (in_arg.device() != kernel.device())
    throw ValueError("correlate_valid: in and kernel are on different devices");
  auto pads = [&](const std::vector<std::int64_t>& v, const char* what) {
    if (v.empty()) return std::vector<std::int64_t>(static_cast<std::size_t>(nd), 0);
    if (static_cast<int>(v.size()) != nd)
      throw ValueError(std::string("correlate_valid: ") + what + " needs one value per axis");
    for (std::int64_t p : v)
      if (p < 0) throw ValueError(std::string("correlate_valid: ") + what + " must be >= 0");
    return v;
  };
  const std::vector<std::int64_t> before = pads(o.pad_before, "pad_before"),
                                  after = pads(o.pad_after, "pad_after");
  Shape padded, oshape;
  bool any_pad = false;
  for (int k = 0; k < nd; ++k) {
    const auto kk = static_cast<std::size_t>(k);
    padded.push_back(in_arg.shape()[kk] + before[kk] + after[kk]);
    any_pad = any_pad || before[kk] || after[kk];
    if (kernel.shape()[kk] > padded.back() || kernel.shape()[kk] == 0)
      throw ValueError("correlate_valid: kernel shape " + py_shape(kernel.shape()) +
                       " does not fit in " + py_shape(padded));
    oshape.push_back(padded.back() - kernel.shape()[kk] + 1);
  }
  const DType work = dt == DType::Int64 ? DType::UInt64 : dt;
  const Scalar fill =
      dt == DType::Int64 ? Scalar(static_cast<std::uint64_t>(o.fill.to_int64())) : o.fill;
  ndarray src = in_arg.dtype() == work ? in_arg : in_arg.view(work);
  const ndarray taps = ascontiguousarray(kernel.dtype() == work ? kernel : kernel.view(work));
  const ndarray out = empty(oshape, {.dtype = work, .device = in_arg.device()});
  const bool cuda = in_arg.device().is_cuda();
  std::optional<cuda::DeviceScope> scope;
  if (cuda) scope.emplace(in_arg.device().index);
  if (cuda && nd == 2 && detail::gpu_correlate2d(src, taps, before[0], before[1], fill, out))
    return work == dt ? out : out.view(dt);
  if (any_pad) {  // the padded input, materialized
    ndarray ext = full(padded, fill, {.dtype = work, .device = in_arg.device()});
    std::vector<Index> center;
    for (int k = 0; k < nd; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      center.push_back(slice(before[kk], before[kk] + src.shape()[kk]));
    }
    ext.set_item(center, src);
    src = ext;
  }
  // Each tap's element offset in `src` (C order of the kernel).
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(taps.size()));
  const std::int64_t item = src.itemsize();
  for (std::int64_t j = 0; j < taps.size(); ++j) {
    std::int64_t rem = j, off = 0;
    for (int k = nd - 1; k >= 0; --k) {
      const auto kk = static_cast<std::size_t>(k);
      off += (rem % kernel.shape()[kk]) * (src.strides()[kk] / item);
      rem /= kernel.shape()[kk];
    }
    offsets[static_cast<std::size_t>(j)] = off;
  }
  if (cuda)
    detail::gpu_correlate(src, taps, offsets, out);
  else
    detail::cpu_correlate(src, taps, offsets, out);
  return work == dt ? out : out.view(dt);
}

}  // namespace cunp::signal

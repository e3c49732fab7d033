// src/manipulation/manipulation.cpp — NumPy's array manipulation routines built from views
// (make_view) and element copies (copy_elements); no kernels of their own.
#include "cunp/manipulation.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "manipulation/axes.hpp"
#include "copy/copy.hpp"
#include "cuda/copy.hpp"
#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"

namespace cunp {
namespace {

using detail::all_axes;
using detail::normalize_axes;
using detail::slice_axis;


void check_same_device(std::span<const ndarray> arrays, const char* fn) {
  for (const ndarray& x : arrays) {
    if (x.device() != arrays[0].device()) {
      throw ValueError(std::string(fn) + ": arrays are on different devices (" + arrays[0].device().str() + " and " +
                       x.device().str() + ")");
    }
  }
}

}  // namespace

// ---- views -------------------------------------------------------------------------

ndarray moveaxis(const ndarray& a, std::span<const int> source, std::span<const int> destination) {
  const std::vector<int> src = normalize_axes(source, a.ndim(), "source");
  const std::vector<int> dst = normalize_axes(destination, a.ndim(), "destination");
  if (src.size() != dst.size()) {
    throw ValueError("`source` and `destination` arguments must have the same number of elements");
  }
  std::vector<int> order;
  for (int n = 0; n < a.ndim(); ++n) {
    if (std::find(src.begin(), src.end(), n) == src.end()) order.push_back(n);
  }
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t i = 0; i < src.size(); ++i) pairs.emplace_back(dst[i], src[i]);
  std::sort(pairs.begin(), pairs.end());
  for (const auto& [d, s] : pairs) order.insert(order.begin() + d, s);
  return a.transpose(order);
}

ndarray swapaxes(const ndarray& a, int axis1, int axis2) {
  const int a1 = normalize_axis(axis1, a.ndim()), a2 = normalize_axis(axis2, a.ndim());
  std::vector<int> perm = all_axes(a.ndim());
  std::swap(perm[static_cast<std::size_t>(a1)], perm[static_cast<std::size_t>(a2)]);
  return a.transpose(perm);
}

ndarray rollaxis(const ndarray& a, int axis, int start) {
  const int n = a.ndim();
  axis = normalize_axis(axis, n);
  if (start < 0) start += n;
  if (!(0 <= start && start < n + 1)) {
    throw AxisError("'start' arg requires " + std::to_string(-n) + " <= start < " + std::to_string(n + 1));
  }
  if (axis < start) --start;
  if (axis == start) return make_view(a, a.shape(), a.strides(), a.offset());
  std::vector<int> axes = all_axes(n);
  axes.erase(axes.begin() + axis);
  axes.insert(axes.begin() + start, axis);
  return a.transpose(axes);
}

ndarray expand_dims(const ndarray& a, std::span<const int> axis) {
  const int out_ndim = a.ndim() + static_cast<int>(axis.size());
  const std::vector<int> ax = normalize_axes(axis, out_ndim, "axis");
  Shape sh;
  std::size_t k = 0;
  for (int i = 0; i < out_ndim; ++i) {
    if (std::find(ax.begin(), ax.end(), i) != ax.end()) sh.push_back(1);
    else sh.push_back(a.shape()[k++]);
  }
  return a.reshape(sh);
}

ndarray squeeze(const ndarray& a, std::optional<std::vector<int>> axis) {
  if (!axis) return a.squeeze();
  const std::vector<int> ax = normalize_axes(*axis, a.ndim(), "axis");
  Shape sh;
  Strides st;
  for (int i = 0; i < a.ndim(); ++i) {
    const auto u = static_cast<std::size_t>(i);
    if (std::find(ax.begin(), ax.end(), i) != ax.end()) {
      if (a.shape()[u] != 1) throw ValueError("cannot select an axis to squeeze out which has size not equal to one");
      continue;
    }
    sh.push_back(a.shape()[u]);
    st.push_back(a.strides()[u]);
  }
  return make_view(a, sh, st, a.offset());
}

ndarray atleast_1d(const ndarray& a) { return a.ndim() == 0 ? a.reshape({1}) : a; }

ndarray atleast_2d(const ndarray& a) {
  if (a.ndim() == 0) return a.reshape({1, 1});
  if (a.ndim() == 1) return a.view({newaxis, slice()});
  return a;
}

ndarray atleast_3d(const ndarray& a) {
  if (a.ndim() == 0) return a.reshape({1, 1, 1});
  if (a.ndim() == 1) return a.view({newaxis, slice(), newaxis});
  if (a.ndim() == 2) return a.view({slice(), slice(), newaxis});
  return a;
}

ndarray flip(const ndarray& m, std::optional<std::vector<int>> axis) {
  const std::vector<int> ax = axis ? normalize_axes(*axis, m.ndim(), "axis") : all_axes(m.ndim());
  Strides st = m.strides();
  std::int64_t off = m.offset();
  for (int i : ax) {
    const auto u = static_cast<std::size_t>(i);
    if (m.shape()[u] > 0) off += (m.shape()[u] - 1) * st[u];
    st[u] = -st[u];
  }
  return make_view(m, m.shape(), st, off);
}

ndarray fliplr(const ndarray& m) {
  if (m.ndim() < 2) throw ValueError("Input must be >= 2-d.");
  return flip(m, std::vector<int>{1});
}

ndarray flipud(const ndarray& m) {
  if (m.ndim() < 1) throw ValueError("Input must be >= 1-d.");
  return flip(m, std::vector<int>{0});
}

ndarray rot90(const ndarray& m, int k, std::pair<int, int> axes) {
  const int n = m.ndim();
  if (axes.first == axes.second || std::abs(axes.first - axes.second) == n) throw ValueError("Axes must be different.");
  if (axes.first >= n || axes.first < -n || axes.second >= n || axes.second < -n) {
    throw ValueError("Axes=(" + std::to_string(axes.first) + ", " + std::to_string(axes.second) +
                     ") out of range for array of ndim=" + std::to_string(n) + ".");
  }
  k = ((k % 4) + 4) % 4;
  const int a0 = normalize_axis(axes.first, n), a1 = normalize_axis(axes.second, n);
  if (k == 0) return make_view(m, m.shape(), m.strides(), m.offset());
  if (k == 2) return flip(flip(m, std::vector<int>{a0}), std::vector<int>{a1});
  std::vector<int> perm = all_axes(n);
  std::swap(perm[static_cast<std::size_t>(a0)], perm[static_cast<std::size_t>(a1)]);
  if (k == 1) return flip(m, std::vector<int>{a1}).transpose(perm);
  return flip(m.transpose(perm), std::vector<int>{a1});
}

std::vector<ndarray> broadcast_arrays(std::span<const ndarray> arrays) {
  std::vector<Shape> shapes;
  for (const ndarray& a : arrays) shapes.push_back(a.shape());
  const Shape shape = broadcast_shapes(shapes);
  std::vector<ndarray> out;
  for (const ndarray& a : arrays) out.push_back(a.shape() == shape ? a : a.broadcast_to(shape));
  return out;
}

// ---- joining ------------------------------------------------------------------------

namespace {

void check_out(const ndarray& out, const Device& device) {
  if (out.device() != device)
    throw ValueError("concatenate: out is on " + out.device().str() + " but the arrays are on " + device.str());
  if (!out.writeable()) throw ValueError("output array is read-only");
}

// np.concatenate(axis=None): the arrays flattened, then joined.
ndarray concatenate_flat(std::span<const ndarray> arrays, const JoinOptions& o) {
  std::vector<ndarray> flat;
  std::int64_t total = 0;
  for (const ndarray& a : arrays) {
    flat.push_back(a.reshape({-1}));
    total += a.size();
  }
  if (o.out) {
    if (o.out->ndim() != 1) throw ValueError("Output array must be 1D");
    if (o.out->size() != total) throw ValueError("Output array is the wrong size");
  }
  return concatenate(flat, 0, o);
}

}  // namespace

ndarray concatenate(std::span<const ndarray> arrays, std::optional<int> axis, const JoinOptions& o) {
  if (o.dtype && o.out)
    throw TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.");
  if (arrays.empty()) throw ValueError("need at least one array to concatenate");
  check_same_device(arrays, "concatenate");
  if (!axis) return concatenate_flat(arrays, o);
  const int nd = arrays[0].ndim();
  if (nd == 0) throw ValueError("zero-dimensional arrays cannot be concatenated");
  const int ax = normalize_axis(*axis, nd);
  std::vector<DType> dts;
  Shape shape = arrays[0].shape();
  shape[static_cast<std::size_t>(ax)] = 0;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const ndarray& a = arrays[i];
    if (a.ndim() != nd) {
      throw ValueError("all the input arrays must have same number of dimensions, but the array at index 0 has " +
                       std::to_string(nd) + " dimension(s) and the array at index " + std::to_string(i) + " has " +
                       std::to_string(a.ndim()) + " dimension(s)");
    }
    for (int d = 0; d < nd; ++d) {
      const auto u = static_cast<std::size_t>(d);
      if (d != ax && a.shape()[u] != arrays[0].shape()[u]) {
        throw ValueError("all the input array dimensions except for the concatenation axis must match exactly, but "
                         "along dimension " + std::to_string(d) + ", the array at index 0 has size " +
                         std::to_string(arrays[0].shape()[u]) + " and the array at index " + std::to_string(i) +
                         " has size " + std::to_string(a.shape()[u]));
      }
    }
    shape[static_cast<std::size_t>(ax)] += a.shape()[static_cast<std::size_t>(ax)];
    dts.push_back(a.dtype());
  }
  if (o.out) {
    if (o.out->ndim() != nd) throw ValueError("Output array has wrong dimensionality");
    if (o.out->shape() != shape) throw ValueError("Output array is the wrong shape");
    check_out(*o.out, arrays[0].device());
  }
  const DType dt = o.out ? o.out->dtype() : o.dtype.value_or(result_type(dts));
  for (const ndarray& a : arrays) {
    if (!can_cast(a.dtype(), dt, o.casting)) {
      throw TypeError("Cannot cast array data from dtype('" + std::string(name(a.dtype())) + "') to dtype('" +
                      std::string(name(dt)) + "') according to the rule '" + std::string(name(o.casting)) + "'");
    }
  }
  ndarray out = o.out ? *o.out : empty(shape, {.dtype = dt, .device = arrays[0].device()});
  // On a GPU, C-contiguous inputs of the output's dtype go through one kernel
  // (Note [Single-kernel concatenate]) when the output is C-contiguous and none of
  // them overlaps it; any other input is copied on its own.
  bool gpu = out.device().is_cuda() && out.size() > 0 && out.is_c_contiguous();
  if (gpu && o.out) {
    for (const ndarray& a : arrays) gpu = gpu && !out.may_share_memory(a);
  }
  std::int64_t rows = 1;
  for (int d = 0; d < ax; ++d) rows *= shape[static_cast<std::size_t>(d)];
  const std::int64_t inner_bytes = out.size() == 0 ? 0 : out.nbytes() / rows / shape[static_cast<std::size_t>(ax)];
  std::vector<cuda::ConcatInput> batched;
  std::int64_t pos = 0;
  for (const ndarray& a : arrays) {
    const std::int64_t n = a.shape()[static_cast<std::size_t>(ax)];
    if (gpu && a.dtype() == dt && a.is_c_contiguous() && a.size() > 0) {
      batched.push_back({a.data(), n * inner_bytes, pos * inner_bytes});
    } else {
      detail::copy_elements(slice_axis(out, ax, pos, pos + n), a);
    }
    pos += n;
  }
  if (!batched.empty()) {
    cuda::DeviceScope scope(out.device().index);
    cuda::concat_rows(out.data(), rows, shape[static_cast<std::size_t>(ax)] * inner_bytes, batched);
  }
  return out;
}

ndarray stack(std::span<const ndarray> arrays, int axis, const JoinOptions& options) {
  if (arrays.empty()) throw ValueError("need at least one array to stack");
  for (const ndarray& a : arrays) {
    if (a.shape() != arrays[0].shape()) throw ValueError("all input arrays must have the same shape");
  }
  const int ax = normalize_axis(axis, arrays[0].ndim() + 1);
  std::vector<ndarray> expanded;
  const int axes[1] = {ax};
  for (const ndarray& a : arrays) expanded.push_back(expand_dims(a, axes));
  return concatenate(expanded, ax, options);
}

ndarray vstack(std::span<const ndarray> arrays, const JoinOptions& options) {
  std::vector<ndarray> v;
  for (const ndarray& a : arrays) v.push_back(atleast_2d(a));
  return concatenate(v, 0, options);
}

ndarray hstack(std::span<const ndarray> arrays, const JoinOptions& options) {
  std::vector<ndarray> v;
  for (const ndarray& a : arrays) v.push_back(atleast_1d(a));
  if (v.empty()) throw ValueError("need at least one array to concatenate");
  return concatenate(v, v[0].ndim() == 1 ? 0 : 1, options);
}

ndarray dstack(std::span<const ndarray> arrays) {
  std::vector<ndarray> v;
  for (const ndarray& a : arrays) v.push_back(atleast_3d(a));
  return concatenate(v, 2);
}

ndarray column_stack(std::span<const ndarray> arrays) {
  std::vector<ndarray> v;
  for (const ndarray& a : arrays) {
    if (a.ndim() < 2) v.push_back(atleast_1d(a).reshape({-1, 1}));
    else v.push_back(a);
  }
  return concatenate(v, 1);
}

ndarray append(const ndarray& arr, const ndarray& values, std::optional<int> axis) {
  if (!axis) {
    const ndarray both[2] = {arr.ravel(), values.ravel()};
    return concatenate(both, 0);
  }
  const ndarray both[2] = {arr, values};
  return concatenate(both, *axis);
}

// ---- splitting ----------------------------------------------------------------------

std::vector<ndarray> split(const ndarray& a, std::span<const std::int64_t> indices, int axis) {
  const int ax = normalize_axis(axis, a.ndim());
  std::vector<ndarray> out;
  std::int64_t prev = 0;
  const auto cut = [&](std::optional<std::int64_t> start, std::optional<std::int64_t> stop) {
    std::vector<Index> idx(static_cast<std::size_t>(ax), Index(slice()));
    idx.push_back(Slice{start, stop, std::nullopt});
    out.push_back(a.view(idx));
  };
  for (std::int64_t i : indices) {
    cut(prev, i);
    prev = i;
  }
  cut(prev, std::nullopt);
  return out;
}

std::vector<ndarray> array_split(const ndarray& a, std::int64_t sections, int axis) {
  if (sections <= 0) throw ValueError("number sections must be larger than 0.");
  const int ax = normalize_axis(axis, a.ndim());
  const std::int64_t n = a.shape()[static_cast<std::size_t>(ax)];
  const std::int64_t each = n / sections, extras = n % sections;
  std::vector<std::int64_t> points;
  std::int64_t pos = 0;
  for (std::int64_t i = 0; i + 1 < sections; ++i) {
    pos += each + (i < extras ? 1 : 0);
    points.push_back(pos);
  }
  return split(a, points, ax);
}

std::vector<ndarray> split(const ndarray& a, std::int64_t sections, int axis) {
  if (sections == 0) throw ZeroDivisionError("integer modulo by zero");  // NumPy: N % 0
  if (sections < 0) throw ValueError("number sections must be larger than 0.");
  const int ax = normalize_axis(axis, a.ndim());
  if (a.shape()[static_cast<std::size_t>(ax)] % sections != 0) {
    throw ValueError("array split does not result in an equal division");
  }
  return array_split(a, sections, ax);
}

std::vector<ndarray> hsplit(const ndarray& a, std::int64_t sections) {
  if (a.ndim() == 0) throw ValueError("hsplit only works on arrays of 1 or more dimensions");
  return split(a, sections, a.ndim() > 1 ? 1 : 0);
}

std::vector<ndarray> vsplit(const ndarray& a, std::int64_t sections) {
  if (a.ndim() < 2) throw ValueError("vsplit only works on arrays of 2 or more dimensions");
  return split(a, sections, 0);
}

std::vector<ndarray> dsplit(const ndarray& a, std::int64_t sections) {
  if (a.ndim() < 3) throw ValueError("dsplit only works on arrays of 3 or more dimensions");
  return split(a, sections, 2);
}

// ---- repetition and shifts ----------------------------------------------------------

ndarray tile(const ndarray& a, std::span<const std::int64_t> reps) {
  for (std::int64_t r : reps) {
    if (r < 0) throw ValueError("negative dimensions are not allowed");
  }
  const int d = std::max<int>(static_cast<int>(reps.size()), a.ndim());
  Shape ashape(static_cast<std::size_t>(d - a.ndim()), 1);
  ashape.insert(ashape.end(), a.shape().begin(), a.shape().end());
  std::vector<std::int64_t> r(static_cast<std::size_t>(d - static_cast<int>(reps.size())), 1);
  r.insert(r.end(), reps.begin(), reps.end());
  const ndarray src = a.reshape(ashape);
  // A broadcast view of shape (r0, s0, r1, s1, ...) copied once, then merged pairwise.
  Shape view_shape, out_shape;
  Strides view_strides;
  for (int i = 0; i < d; ++i) {
    const auto u = static_cast<std::size_t>(i);
    view_shape.push_back(r[u]);
    view_shape.push_back(ashape[u]);
    view_strides.push_back(0);
    view_strides.push_back(src.strides()[u]);
    out_shape.push_back(r[u] * ashape[u]);
  }
  const ndarray view = make_view(src, view_shape, view_strides, src.offset());
  ndarray out = empty(view_shape, {.dtype = a.dtype(), .device = a.device()});
  detail::copy_elements(out, view);
  return out.reshape(out_shape);
}

ndarray repeat(const ndarray& a, std::int64_t repeats, std::optional<int> axis) {
  if (repeats < 0) throw ValueError("negative dimensions are not allowed");
  const ndarray src = axis ? a : a.ravel();
  const int ax = normalize_axis(axis.value_or(0), src.ndim() == 0 ? 1 : src.ndim());
  const ndarray s = src.ndim() == 0 ? src.reshape({1}) : src;
  // A view with a broadcast axis of length `repeats` after `ax`, copied, then merged.
  Shape vshape = s.shape();
  Strides vstrides = s.strides();
  vshape.insert(vshape.begin() + ax + 1, repeats);
  vstrides.insert(vstrides.begin() + ax + 1, 0);
  const ndarray view = make_view(s, vshape, vstrides, s.offset());
  ndarray out = empty(vshape, {.dtype = a.dtype(), .device = a.device()});
  detail::copy_elements(out, view);
  Shape oshape = s.shape();
  oshape[static_cast<std::size_t>(ax)] *= repeats;
  return out.reshape(oshape);
}

ndarray repeat(const ndarray& a, std::span<const std::int64_t> repeats, std::optional<int> axis) {
  if (repeats.size() == 1) return repeat(a, repeats[0], axis);
  const ndarray s = axis ? a : a.ravel();
  if (s.ndim() == 0) throw ValueError("repeats with more than one count need an array of at least one dimension");
  const int ax = normalize_axis(axis.value_or(0), s.ndim());
  const std::int64_t n = s.shape()[static_cast<std::size_t>(ax)];
  if (static_cast<std::int64_t>(repeats.size()) != n) {
    throw ValueError("operands could not be broadcast together with shape (" + std::to_string(n) + ",) (" +
                     std::to_string(repeats.size()) + ",)");
  }
  std::int64_t total = 0;
  for (std::int64_t r : repeats) {
    if (r < 0) throw ValueError("repeats may not contain negative values.");
    total += r;
  }
  Shape oshape = s.shape();
  oshape[static_cast<std::size_t>(ax)] = total;
  // Note [Per-element repeats]: a short axis is one broadcast copy per element with a
  // nonzero count; a longer one is a single gather along the axis (the source position
  // of each output position is built on the host from the counts, as NumPy does),
  // so the number of copies never grows with the axis.
  constexpr std::int64_t kCopiesAtMost = 16;
  if (n > kCopiesAtMost) {
    std::vector<std::int64_t> source;
    source.reserve(static_cast<std::size_t>(total));
    for (std::int64_t i = 0; i < n; ++i) source.insert(source.end(), static_cast<std::size_t>(repeats[static_cast<std::size_t>(i)]), i);
    return take(s, from_host(source.data(), DType::Int64, {total}, s.device()), ax);
  }
  ndarray out = empty(oshape, {.dtype = a.dtype(), .device = a.device()});
  std::int64_t pos = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t r = repeats[static_cast<std::size_t>(i)];
    if (r == 0) continue;
    detail::copy_elements(slice_axis(out, ax, pos, pos + r), slice_axis(s, ax, i, i + 1));
    pos += r;
  }
  return out;
}

ndarray roll(const ndarray& a, std::span<const std::int64_t> shift, std::optional<std::vector<int>> axis) {
  if (!axis) {
    if (shift.size() != 1) throw ValueError("'shift' and 'axis' should be scalars or 1D sequences");
    const std::vector<int> ax0{0};
    return roll(a.ravel(), shift, ax0).reshape(a.shape());
  }
  std::vector<int> axes = *axis;
  std::vector<std::int64_t> shifts(shift.begin(), shift.end());
  // NumPy broadcasts shift against axis.
  if (shifts.size() == 1 && axes.size() > 1) shifts.assign(axes.size(), shifts[0]);
  if (axes.size() == 1 && shifts.size() > 1) axes.assign(shifts.size(), axes[0]);
  if (axes.size() != shifts.size()) throw ValueError("'shift' and 'axis' should be scalars or 1D sequences");
  std::vector<std::int64_t> total(static_cast<std::size_t>(a.ndim()), 0);
  for (std::size_t i = 0; i < axes.size(); ++i) total[static_cast<std::size_t>(normalize_axis(axes[i], a.ndim()))] += shifts[i];
  ndarray out = empty_like(a, {.order = Order::C});
  // Each rolled axis splits into two (source, destination) ranges; copy every combination.
  struct Range {
    std::int64_t src0, src1, dst0, dst1;
  };
  std::vector<std::vector<Range>> ranges(static_cast<std::size_t>(a.ndim()));
  for (int d = 0; d < a.ndim(); ++d) {
    const auto u = static_cast<std::size_t>(d);
    const std::int64_t n = a.shape()[u];
    const std::int64_t s = n == 0 ? 0 : ((total[u] % n) + n) % n;
    if (s == 0) ranges[u] = {{0, n, 0, n}};
    else ranges[u] = {{0, n - s, s, n}, {n - s, n, 0, s}};
  }
  std::vector<std::size_t> pick(static_cast<std::size_t>(a.ndim()), 0);
  while (true) {
    ndarray src = a, dst = out;
    for (int d = 0; d < a.ndim(); ++d) {
      const Range& r = ranges[static_cast<std::size_t>(d)][pick[static_cast<std::size_t>(d)]];
      src = slice_axis(src, d, r.src0, r.src1);
      dst = slice_axis(dst, d, r.dst0, r.dst1);
    }
    detail::copy_elements(dst, src);
    int d = a.ndim() - 1;
    for (; d >= 0; --d) {
      const auto u = static_cast<std::size_t>(d);
      if (++pick[u] < ranges[u].size()) break;
      pick[u] = 0;
    }
    if (d < 0) break;
  }
  return out;
}

ndarray resize(const ndarray& a, const Shape& shape) {
  for (std::int64_t d : shape) {
    if (d < 0) throw ValueError("all elements of `new_shape` must be non-negative");
  }
  const std::int64_t n = shape_size(shape);
  if (a.size() == 0 || n == 0) return zeros(shape, {.dtype = a.dtype(), .device = a.device()});
  const std::int64_t reps = (n + a.size() - 1) / a.size();
  const std::int64_t r[1] = {reps};
  const ndarray flat = tile(a.ravel(), r);
  return slice_axis(flat, 0, 0, n).copy().reshape(shape);
}

}  // namespace cunp

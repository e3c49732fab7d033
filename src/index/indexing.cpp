// src/index/indexing.cpp — advanced indexing and the index routines
// (cunp/indexing.hpp): view normalization on the host, then one gather or scatter
// per call, on the CPU as loops and on CUDA devices through index_cuda.cpp.
#include "cunp/indexing.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "index/index_cuda.hpp"
#include "index/prepared.hpp"

namespace cunp {
namespace {

using index::Geometry;
using index::IndexedAxes;
using index::Prepared;

// One entry of the expanded index: a basic piece, or an index array applied to one
// axis (basic = slice(None), or newaxis for a 0-d bool).
struct Entry {
  Index basic;
  ndarray adv;        // defined for advanced entries
  int source_axis = 0;  // the axis of `a` an advanced entry indexes (error messages)
};

std::string dims_str(std::int64_t a) { return std::to_string(a); }

// ---- the CPU backend ----------------------------------------------------------------

void cpu_offsets(const IndexedAxes& ax, std::vector<std::int64_t>& off, std::vector<std::int64_t>* lin) {
  const auto n = static_cast<std::size_t>(ax.n);
  off.assign(n, 0);
  if (lin != nullptr) lin->assign(n, 0);
  for (std::size_t j = 0; j < ax.idx.size(); ++j) {
    const auto* idx = static_cast<const std::int64_t*>(ax.idx[j].data());
    const std::int64_t size = ax.sizes[j], stride = ax.strides[j];
    for (std::size_t b = 0; b < n; ++b) {
      std::int64_t v = idx[b];
      if (v < 0) v += size;
      if (v < 0 || v >= size)
        throw IndexError("index " + std::to_string(idx[b]) + " is out of bounds for axis " +
                         std::to_string(ax.axes[j]) + " with size " + dims_str(size));
      off[b] += v * stride;
      if (lin != nullptr) (*lin)[b] = (*lin)[b] * size + v;
    }
  }
}

// Byte offsets of every coordinate of dims[from, to).
std::vector<std::int64_t> axis_offsets(const Geometry& g, int from, int to) {
  std::vector<std::int64_t> offs{0};
  for (int d = from; d < to; ++d) {
    const auto u = static_cast<std::size_t>(d);
    std::vector<std::int64_t> next;
    next.reserve(offs.size() * static_cast<std::size_t>(g.dims[u]));
    for (std::int64_t o : offs)
      for (std::int64_t c = 0; c < g.dims[u]; ++c) next.push_back(o + c * g.strides[u]);
    offs.swap(next);
  }
  return offs;
}

template <typename F>
void cpu_walk(const Geometry& g, const std::vector<std::int64_t>& off, F&& f) {
  const std::vector<std::int64_t> pre = axis_offsets(g, 0, g.baxis);
  const std::vector<std::int64_t> post = axis_offsets(g, g.baxis + 1, static_cast<int>(g.dims.size()));
  std::int64_t i = 0;
  for (std::int64_t p : pre)
    for (std::size_t b = 0; b < off.size(); ++b)
      for (std::int64_t q : post) f(i++, p + off[b] + q);
}

void cpu_gather(const ndarray& out, const char* src, const Geometry& g, const std::vector<std::int64_t>& off) {
  char* dst = static_cast<char*>(out.data());
  const auto item = static_cast<std::size_t>(out.itemsize());
  cpu_walk(g, off, [&](std::int64_t i, std::int64_t o) {
    std::memcpy(dst + static_cast<std::size_t>(i) * item, src + o, item);
  });
}

void cpu_scatter(char* dst, const ndarray& values, const Geometry& g, const std::vector<std::int64_t>& off) {
  // C order of the index: a later b overwrites an earlier one (last write wins).
  const char* src = static_cast<const char*>(values.data());
  const auto item = static_cast<std::size_t>(values.itemsize());
  cpu_walk(g, off, [&](std::int64_t i, std::int64_t o) {
    std::memcpy(dst + o, src + static_cast<std::size_t>(i) * item, item);
  });
}

// ---- view normalization ---------------------------------------------------------------

ndarray as_index_array(const ndarray& idx, Device device) {
  const DType dt = idx.dtype();
  if (!is_integer(dt) && dt != DType::Bool)
    throw IndexError("arrays used as indices must be of integer (or boolean) type");
  return idx.device() == device ? idx : idx.to(device);
}

ndarray int64_contiguous(const ndarray& a, const Shape& shape) {
  if (a.dtype() == DType::Int64 && a.shape() == shape && a.is_c_contiguous()) return a;
  ndarray out = empty(shape, {.dtype = DType::Int64, .device = a.device()});
  out.assign(a);
  return out;
}

// The coordinates of the true values of a bool array: (ndim, count) int64.
ndarray nonzero_coords(const ndarray& a) {
  const Shape shape = a.ndim() == 0 ? Shape{1} : a.shape();
  const auto nd = static_cast<std::int64_t>(shape.size());
  ndarray mask = empty(shape, {.dtype = DType::Bool, .device = a.device()});
  mask.assign(a.ndim() == 0 ? a.reshape({1}) : a);
  if (a.device().is_cuda()) {
    cuda::DeviceScope scope(a.device().index);
    return index::gpu::nonzero_coords(mask, shape);
  }
  const auto* m = static_cast<const unsigned char*>(mask.data());
  const std::int64_t n = mask.size();
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < n; ++i) total += m[i] != 0;
  ndarray out = empty({nd, total}, {.dtype = DType::Int64, .device = Device::cpu()});
  auto* o = static_cast<std::int64_t*>(out.data());
  std::int64_t pos = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if (m[i] == 0) continue;
    std::int64_t r = i;
    for (std::int64_t d = nd - 1; d >= 0; --d) {
      const std::int64_t s = shape[static_cast<std::size_t>(d)];
      o[d * total + pos] = r % s;
      r /= s;
    }
    ++pos;
  }
  return out;
}

}  // namespace

namespace index {

bool has_array(std::span<const FancyIndex> index) {
  return std::any_of(index.begin(), index.end(), [](const FancyIndex& f) { return std::holds_alternative<ndarray>(f); });
}

std::vector<Index> basic_only(std::span<const FancyIndex> index) {
  std::vector<Index> out;
  out.reserve(index.size());
  for (const FancyIndex& f : index) {
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (!std::is_same_v<T, ndarray>) out.emplace_back(v);
        },
        f);
  }
  return out;
}

Prepared prepare(const ndarray& a, std::span<const FancyIndex> index) {
  const int nd = a.ndim();
  const Device dev = a.device();
  // Axes consumed by the index (a k-d mask consumes k).
  int consumed = 0, ellipses = 0;
  for (const FancyIndex& f : index) {
    if (const auto* arr = std::get_if<ndarray>(&f)) {
      const ndarray idx = as_index_array(*arr, dev);
      consumed += idx.dtype() == DType::Bool ? idx.ndim() : 1;
    } else if (std::holds_alternative<std::int64_t>(f) || std::holds_alternative<Slice>(f)) {
      ++consumed;
    } else if (std::holds_alternative<EllipsisIndex>(f)) {
      ++ellipses;
    }
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > nd)
    throw IndexError("too many indices for array: array is " + std::to_string(nd) + "-dimensional, but " +
                     std::to_string(consumed) + " were indexed");
  std::vector<Entry> entries;
  std::vector<std::pair<std::int64_t, int>> integers;  // (value, axis of a)
  int axis = 0;
  for (const FancyIndex& f : index) {
    if (const auto* arr = std::get_if<ndarray>(&f)) {
      const ndarray idx = as_index_array(*arr, dev);
      if (idx.dtype() != DType::Bool) {
        entries.push_back({slice(), idx, axis++});
      } else if (idx.ndim() == 0) {
        const bool truth = idx.item().to_bool();
        entries.push_back({newaxis, zeros({truth ? 1 : 0}, {.dtype = DType::Int64, .device = dev}), axis});
      } else {
        // Note [Empty boolean axes]: NumPy checks a mask's extents against the axes it
        // covers except the extents of length 0 (a[np.zeros(0, bool)] of a (2, 3) array
        // is (0, 3)); such a mask selects nothing whatever the axis' length.
        for (int d = 0; d < idx.ndim(); ++d) {
          const std::int64_t have = a.shape()[static_cast<std::size_t>(axis + d)];
          const std::int64_t want = idx.shape()[static_cast<std::size_t>(d)];
          if (want != 0 && have != want)
            throw IndexError("boolean index did not match indexed array along axis " + std::to_string(axis + d) +
                             "; size of axis is " + std::to_string(have) +
                             " but size of corresponding boolean axis is " + std::to_string(want));
        }
        const ndarray coords = nonzero_coords(idx);
        for (int d = 0; d < idx.ndim(); ++d) entries.push_back({slice(), coords[d], axis++});
      }
    } else if (const auto* i = std::get_if<std::int64_t>(&f)) {
      // With arrays present, an integer is an advanced index (a 0-d array), and it is
      // bounds-checked even when the selection is empty (below).
      const ndarray z = full(Shape{}, Scalar(*i), {.dtype = DType::Int64, .device = dev});
      integers.emplace_back(*i, axis);
      entries.push_back({slice(), z, axis++});
    } else if (const auto* s = std::get_if<Slice>(&f)) {
      entries.push_back({*s, ndarray(), axis++});
    } else if (std::holds_alternative<EllipsisIndex>(f)) {
      entries.push_back({ellipsis, ndarray(), axis});
      axis += nd - consumed;
    } else {
      entries.push_back({newaxis, ndarray(), axis});
    }
  }
  // NumPy applies the integers as a view after checking the masks, before broadcasting
  // the index arrays: their bounds errors come in that order.
  for (const auto& [value, ax] : integers) {
    const std::int64_t size = a.shape()[static_cast<std::size_t>(ax)];
    if (value < -size || value >= size)
      throw IndexError("index " + std::to_string(value) + " is out of bounds for axis " + std::to_string(ax) +
                       " with size " + std::to_string(size));
  }
  // The view, and where each advanced entry's axis lands in it.
  std::vector<Index> basic;
  std::vector<int> view_axes;
  std::vector<std::size_t> adv_entries;
  int vaxis = 0;
  for (std::size_t e = 0; e < entries.size(); ++e) {
    const Entry& en = entries[e];
    basic.push_back(en.basic);
    if (en.adv.defined()) {
      view_axes.push_back(vaxis);
      adv_entries.push_back(e);
    }
    if (std::holds_alternative<EllipsisIndex>(en.basic)) vaxis += nd - consumed;
    else ++vaxis;
  }
  Prepared pr;
  pr.view = a.view(basic);
  std::vector<Shape> shapes;
  for (std::size_t e : adv_entries) shapes.push_back(entries[e].adv.shape());
  try {
    pr.bshape = broadcast_shapes(shapes);
  } catch (const ValueError&) {
    std::string msg = "shape mismatch: indexing arrays could not be broadcast together with shapes";
    for (const Shape& s : shapes) msg += " " + shape_str(s);
    throw IndexError(msg + " ");  // NumPy's message ends with a space
  }
  pr.ax.n = shape_size(pr.bshape);
  for (std::size_t k = 0; k < adv_entries.size(); ++k) {
    const auto u = static_cast<std::size_t>(view_axes[k]);
    pr.ax.idx.push_back(int64_contiguous(entries[adv_entries[k]].adv.broadcast_to(pr.bshape), pr.bshape));
    pr.ax.sizes.push_back(pr.view.shape()[u]);
    pr.ax.strides.push_back(pr.view.strides()[u]);
    pr.ax.axes.push_back(entries[adv_entries[k]].source_axis);
    pr.subspace *= pr.view.shape()[u];
  }
  bool adjacent = true;
  for (std::size_t k = 1; k < view_axes.size(); ++k) adjacent = adjacent && view_axes[k] == view_axes[k - 1] + 1;
  std::vector<bool> is_adv(static_cast<std::size_t>(pr.view.ndim()), false);
  for (int v : view_axes) is_adv[static_cast<std::size_t>(v)] = true;
  const int first = adjacent ? view_axes.front() : 0;
  auto add_axis = [&](int v) {
    const auto u = static_cast<std::size_t>(v);
    pr.geom.dims.push_back(pr.view.shape()[u]);
    pr.geom.strides.push_back(pr.view.strides()[u]);
    pr.out_shape.push_back(pr.view.shape()[u]);
  };
  for (int v = 0; v < first; ++v)
    if (!is_adv[static_cast<std::size_t>(v)]) add_axis(v);
  pr.geom.baxis = static_cast<int>(pr.geom.dims.size());
  pr.geom.dims.push_back(pr.ax.n);
  pr.geom.strides.push_back(0);
  pr.out_shape.insert(pr.out_shape.end(), pr.bshape.begin(), pr.bshape.end());
  for (int v = first; v < pr.view.ndim(); ++v)
    if (!is_adv[static_cast<std::size_t>(v)]) add_axis(v);
  return pr;
}

namespace {

// NumPy's shape text in indexing messages: "(2,3)", "(2,)", "()".
std::string compact_shape(const Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

void check_mask_values(const ndarray& value, std::int64_t count) {
  if (value.ndim() > 1)
    throw TypeError("NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has " +
                    std::to_string(value.ndim()) + " dimensions");
  if (value.size() != 1 && value.size() != count)
    throw ValueError("NumPy boolean array indexing assignment cannot assign " + std::to_string(value.size()) +
                     " input values to the " + std::to_string(count) + " output values where the mask is true");
}

ndarray assignable_value(const ndarray& value, const Shape& shape) {
  const Shape& v = value.shape();
  const std::size_t extra = v.size() > shape.size() ? v.size() - shape.size() : 0;
  bool ok = true;
  for (std::size_t i = 0; i < extra; ++i) ok = ok && v[i] == 1;
  for (std::size_t i = extra; i < v.size(); ++i) {
    const std::int64_t want = shape[shape.size() - (v.size() - i)];
    ok = ok && (v[i] == 1 || v[i] == want);
  }
  if (!ok)
    throw ValueError("shape mismatch: value array of shape " + compact_shape(v) +
                     " could not be broadcast to indexing result of shape " + compact_shape(shape));
  return extra == 0 ? value : value.reshape(Shape(v.begin() + static_cast<std::ptrdiff_t>(extra), v.end()));
}

std::vector<std::int64_t> host_element_offsets(const Prepared& pr) {
  std::vector<std::int64_t> off, out;
  cpu_offsets(pr.ax, off, nullptr);
  out.reserve(static_cast<std::size_t>(shape_size(pr.out_shape)));
  cpu_walk(pr.geom, off, [&](std::int64_t, std::int64_t o) { out.push_back(o); });
  return out;
}

}  // namespace index

using index::basic_only;
using index::has_array;
using index::prepare;

ndarray getitem(const ndarray& a, std::span<const FancyIndex> index) {
  if (!has_array(index)) return a.view(basic_only(index));
  if (index.size() == 1 && a.device().is_cuda() && a.ndim() > 0) {
    // a[mask] with a mask of a's shape: one compaction, no coordinates (Note
    // [Indexing kernels]).
    const ndarray& m = std::get<ndarray>(index[0]);
    if (m.dtype() == DType::Bool && m.shape() == a.shape() && m.device() == a.device() &&
        a.size() <= std::int64_t{1} << 40) {
      cuda::DeviceScope scope(a.device().index);
      const ndarray src = a.is_c_contiguous() ? a : a.copy();
      const ndarray mask = m.is_c_contiguous() ? m : m.copy();
      return index::gpu::mask_select(src, mask);
    }
  }
  const Prepared pr = prepare(a, index);
  ndarray out = empty(pr.out_shape, {.dtype = a.dtype(), .device = a.device()});
  if (a.device().is_cuda()) {
    cuda::DeviceScope scope(a.device().index);
    if (pr.ax.idx.size() == 1 && out.size() > 0) {
      index::gpu::gather_direct(out, pr.view.data(), pr.geom, pr.ax);
      return out;
    }
    // An empty result still bounds-checks every index (NumPy does): the offsets pass
    // checks them even when nothing is gathered.
    const ndarray off = empty({pr.ax.n}, {.dtype = DType::Int64, .device = a.device()});
    index::gpu::offsets(pr.ax, off, nullptr);
    index::gpu::gather(out, pr.view.data(), pr.geom, off);
    return out;
  }
  std::vector<std::int64_t> off;
  cpu_offsets(pr.ax, off, nullptr);
  cpu_gather(out, static_cast<const char*>(pr.view.data()), pr.geom, off);
  return out;
}

void setitem(const ndarray& a, std::span<const FancyIndex> index, const ndarray& value) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  if (!has_array(index)) {
    a.view(basic_only(index)).assign(value);
    return;
  }
  // A single mask of a's shape is NumPy's boolean assignment, with its own value rules.
  const ndarray* full_mask = nullptr;
  if (index.size() == 1) {
    const ndarray& m = std::get<ndarray>(index[0]);
    if (m.dtype() == DType::Bool && m.shape() == a.shape()) full_mask = &m;
  }
  if (full_mask != nullptr && value.ndim() > 1) index::check_mask_values(value, 0);
  if (full_mask != nullptr && a.device().is_cuda() && a.ndim() > 0 && a.is_c_contiguous() &&
      full_mask->device() == a.device()) {
    // a[mask] = v with a mask of a's shape: one walk of the mask, no coordinates.
    cuda::DeviceScope scope(a.device().index);
    index::gpu::mask_assign(a, full_mask->is_c_contiguous() ? *full_mask : full_mask->copy(), value);
    return;
  }
  const Prepared pr = prepare(a, index);
  if (full_mask != nullptr) index::check_mask_values(value, pr.ax.n);
  // The values, broadcast to the result's shape and cast to a's dtype, in a fresh
  // C-ordered array (which also makes a[idx] = a[...] safe).
  ndarray vals = empty(pr.out_shape, {.dtype = a.dtype(), .device = a.device()});
  vals.assign(index::assignable_value(value, pr.out_shape));
  if (a.device().is_cuda()) {
    cuda::DeviceScope scope(a.device().index);
    const ndarray off = empty({pr.ax.n}, {.dtype = DType::Int64, .device = a.device()});
    ndarray lin;
    if (pr.ax.n > 1) lin = empty({pr.ax.n}, {.dtype = DType::Int64, .device = a.device()});
    index::gpu::offsets(pr.ax, off, lin.defined() ? &lin : nullptr);
    index::gpu::scatter(pr.view.data(), a.dtype(), vals, pr.geom, off, lin.defined() ? &lin : nullptr,
                        pr.subspace);
    return;
  }
  std::vector<std::int64_t> off;
  cpu_offsets(pr.ax, off, nullptr);
  cpu_scatter(static_cast<char*>(pr.view.data()), vals, pr.geom, off);
}

namespace {

ndarray integer_indices(const ndarray& indices, Device device) {
  const DType dt = indices.dtype();
  if (!is_integer(dt) && dt != DType::Bool)
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(dt)) +
                    "') to dtype('int64') according to the rule 'safe'");
  if (dt == DType::UInt64)
    throw TypeError("Cannot cast array data from dtype('uint64') to dtype('int64') according to the rule 'safe'");
  const ndarray on = indices.device() == device ? indices : indices.to(device);
  return dt == DType::Int64 ? on : on.astype(DType::Int64);
}

}  // namespace

ndarray take(const ndarray& a, const ndarray& indices, std::optional<int> axis) {
  const ndarray idx = integer_indices(indices, a.device());
  if (!axis) {
    const ndarray flat = a.reshape({-1});
    const FancyIndex ix[] = {idx};
    return getitem(flat, ix);
  }
  const int ax = normalize_axis(*axis, a.ndim());
  std::vector<FancyIndex> ix(static_cast<std::size_t>(ax), slice());
  ix.emplace_back(idx);
  return getitem(a, ix);
}

void put(const ndarray& a, const ndarray& indices, const ndarray& values) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  const ndarray idx = integer_indices(indices, a.device()).reshape({-1});
  const std::int64_t n = idx.size();
  if (n == 0) return;
  ndarray vals = values.device() == a.device() ? values.reshape({-1}) : values.to(a.device()).reshape({-1});
  if (vals.size() == 0) return;
  if (vals.size() > n) {
    vals = vals.view({slice(0, n)});
  } else if (vals.size() < n) {
    std::vector<std::int64_t> cyc(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) cyc[static_cast<std::size_t>(i)] = i % vals.size();
    const ndarray c = from_host(cyc.data(), DType::Int64, {n}, a.device());
    const FancyIndex ix[] = {c};
    vals = getitem(vals, ix);
  }
  const FancyIndex ix[] = {idx};
  if (a.is_c_contiguous()) {
    setitem(make_view(a, {a.size()}, {a.itemsize()}, a.offset()), ix, vals);
    return;
  }
  ndarray flat = a.flatten();
  setitem(flat, ix, vals);
  ndarray(a).assign(flat.reshape(a.shape()));
}

std::vector<ndarray> nonzero(const ndarray& a) {
  if (a.ndim() == 0)
    throw ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead. "
                     "If the context of this error is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.");
  const ndarray coords = nonzero_coords(a);
  std::vector<ndarray> out;
  for (int d = 0; d < a.ndim(); ++d) out.push_back(coords[d]);
  return out;
}

ndarray flatnonzero(const ndarray& a) { return nonzero_coords(a.reshape({-1}))[0]; }

ndarray argwhere(const ndarray& a) {
  if (a.ndim() == 0) {
    const std::int64_t count = nonzero_coords(a).shape()[1];
    return empty({count, 0}, {.dtype = DType::Int64, .device = a.device()});
  }
  return nonzero_coords(a).transpose().copy();
}

ndarray compress(const ndarray& condition, const ndarray& a, std::optional<int> axis) {
  if (condition.ndim() != 1) throw ValueError("condition must be a 1-d array");
  const ndarray idx = nonzero_coords(condition.device() == a.device() ? condition : condition.to(a.device()))[0];
  return take(a, idx, axis);
}

namespace {

// The index tuple of take_along_axis / put_along_axis: `indices` on `axis`, aranges
// shaped to broadcast against it on every other axis.
std::vector<FancyIndex> along_axis_index(const ndarray& a, const ndarray& indices, int axis) {
  const int nd = a.ndim();
  const int ax = normalize_axis(axis, nd);
  if (indices.ndim() != nd)
    throw ValueError("`indices` and `arr` must have the same number of dimensions");
  if (indices.dtype() == DType::Bool || !is_integer(indices.dtype()))
    throw IndexError("`indices` must be an integer array");
  const ndarray idx = integer_indices(indices, a.device());
  std::vector<FancyIndex> ix;
  for (int d = 0; d < nd; ++d) {
    if (d == ax) {
      ix.emplace_back(idx);
      continue;
    }
    Shape sh(static_cast<std::size_t>(nd), 1);
    sh[static_cast<std::size_t>(d)] = a.shape()[static_cast<std::size_t>(d)];
    ix.emplace_back(arange(Scalar(a.shape()[static_cast<std::size_t>(d)]), {.dtype = DType::Int64, .device = a.device()})
                        .reshape(sh));
  }
  return ix;
}

}  // namespace

ndarray take_along_axis(const ndarray& a, const ndarray& indices, std::optional<int> axis) {
  if (!axis) {
    if (indices.ndim() != 1)
      throw ValueError("when axis=None, `indices` must have a single dimension.");
    return take_along_axis(a.reshape({-1}), indices, 0);
  }
  return getitem(a, along_axis_index(a, indices, *axis));
}

void put_along_axis(const ndarray& a, const ndarray& indices, const ndarray& values, std::optional<int> axis) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  if (!axis) {
    if (indices.ndim() != 1)
      throw ValueError("when axis=None, `indices` must have a single dimension.");
    const ndarray on = values.device() == a.device() ? values : values.to(a.device());
    put(a, indices, on.broadcast_to(indices.shape()));
    return;
  }
  setitem(a, along_axis_index(a, indices, *axis), values);
}

}  // namespace cunp

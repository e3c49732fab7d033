// src/manipulation/insert_delete.cpp — np.insert, np.delete and np.trim_zeros
// (cunp/manipulation.hpp): host-side position lists from the (small) index arguments,
// then copies and one gather or scatter on the array's device.
#include <algorithm>
#include <numeric>
#include <string>

#include "manipulation/axes.hpp"
#include "copy/copy.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"

namespace cunp {

using detail::all_axes;
using detail::normalize_axes;
using detail::slice_axis;

ndarray trim_zeros(const ndarray& filt, std::string_view trim, std::optional<std::vector<int>> axis) {
  if (trim != "fb" && trim != "bf" && trim != "f" && trim != "b" && trim != "FB" && trim != "BF" && trim != "F" &&
      trim != "B")
    throw ValueError("unexpected character(s) in `trim`: '" + std::string(trim) + "'");
  const int nd = filt.ndim();
  const std::vector<int> axes = axis ? normalize_axes(*axis, nd, "axis") : all_axes(nd);
  if (axes.empty()) return filt;
  const bool front = trim.find_first_of("fF") != std::string_view::npos;
  const bool back = trim.find_first_of("bB") != std::string_view::npos;
  // The bounding box of the non-zero elements: one argwhere, two small reductions.
  const ndarray nz = argwhere(filt);
  std::vector<std::int64_t> start(static_cast<std::size_t>(nd), 0), stop(static_cast<std::size_t>(nd), 0);
  const bool empty_box = nz.shape()[0] == 0;
  if (!empty_box) {
    start = min(nz, {.axis = 0}).to_vector<std::int64_t>();
    stop = max(nz, {.axis = 0}).to_vector<std::int64_t>();
    for (std::int64_t& v : stop) ++v;
  }
  ndarray out = filt;
  for (int d : axes) {
    const auto u = static_cast<std::size_t>(d);
    const std::int64_t lo = empty_box || front ? start[u] : 0;
    const std::int64_t hi = empty_box || back ? stop[u] : filt.shape()[u];
    out = slice_axis(out, d, lo, hi);
  }
  return out;
}

namespace {

// NumPy's axis handling of insert/delete: None flattens.
std::pair<ndarray, int> along(const ndarray& arr, std::optional<int> axis) {
  if (!axis) {
    const ndarray flat = arr.ndim() == 1 ? arr : arr.ravel();
    return {flat, flat.ndim() - 1};
  }
  return {arr, normalize_axis(*axis, arr.ndim())};
}

// values as np.array(values, ndmin=arr.ndim, dtype=arr.dtype) on arr's device.
ndarray insert_values(const ndarray& values, const ndarray& arr) {
  ndarray v = values.device() == arr.device() ? values : values.to(arr.device());
  if (v.ndim() < arr.ndim()) {
    Shape sh(static_cast<std::size_t>(arr.ndim() - v.ndim()), 1);
    sh.insert(sh.end(), v.shape().begin(), v.shape().end());
    v = v.reshape(sh);
  }
  return v;
}

ndarray insert_block(const ndarray& a, int ax, std::int64_t index, ndarray v) {
  const std::int64_t n = a.shape()[static_cast<std::size_t>(ax)];
  if (index < -n || index > n)
    throw IndexError("index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(ax) +
                     " with size " + std::to_string(n));
  if (index < 0) index += n;
  const std::int64_t numnew = v.shape()[static_cast<std::size_t>(ax)];
  Shape shape = a.shape();
  shape[static_cast<std::size_t>(ax)] += numnew;
  ndarray out = empty(shape, {.dtype = a.dtype(), .device = a.device()});
  detail::copy_elements(slice_axis(out, ax, 0, index), slice_axis(a, ax, 0, index));
  detail::copy_elements(slice_axis(out, ax, index, index + numnew), v);
  detail::copy_elements(slice_axis(out, ax, index + numnew, shape[static_cast<std::size_t>(ax)]),
                        slice_axis(a, ax, index, n));
  return out;
}

}  // namespace

ndarray insert(const ndarray& arr, std::int64_t index, const ndarray& values, std::optional<int> axis) {
  const auto [a, ax] = along(arr, axis);
  ndarray v = insert_values(values, a);
  // A scalar index inserts values as a[:, index] = ... would, i.e. its first axis
  // becomes the insertion axis.
  v = moveaxis(v, std::vector<int>{0}, std::vector<int>{ax});
  return insert_block(a, ax, index, v);
}

ndarray insert(const ndarray& arr, std::span<const std::int64_t> indices, const ndarray& values, std::optional<int> axis) {
  const auto [a, ax] = along(arr, axis);
  if (indices.size() == 1) return insert_block(a, ax, indices[0], insert_values(values, a));
  const std::int64_t n = a.shape()[static_cast<std::size_t>(ax)];
  const auto numnew = static_cast<std::int64_t>(indices.size());
  std::vector<std::int64_t> idx(indices.begin(), indices.end());
  for (std::int64_t& i : idx)
    if (i < 0) i += n;
  // Stable order of the insertion points; the k-th inserted value moves k places.
  std::vector<std::size_t> order(idx.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return idx[x] < idx[y]; });
  for (std::size_t k = 0; k < order.size(); ++k) idx[order[k]] += static_cast<std::int64_t>(k);
  const std::int64_t total = n + numnew;
  std::vector<unsigned char> old_mask(static_cast<std::size_t>(total), 1);
  for (std::int64_t i : idx) {
    if (i < -total || i >= total)
      throw IndexError("index " + std::to_string(i) + " is out of bounds for axis 0 with size " + std::to_string(total));
    old_mask[static_cast<std::size_t>(i < 0 ? i + total : i)] = 0;
  }
  std::vector<std::int64_t> old_pos;
  for (std::int64_t p = 0; p < total; ++p)
    if (old_mask[static_cast<std::size_t>(p)] != 0) old_pos.push_back(p);
  Shape shape = a.shape();
  shape[static_cast<std::size_t>(ax)] = total;
  ndarray out = empty(shape, {.dtype = a.dtype(), .device = a.device()});
  std::vector<FancyIndex> ix(static_cast<std::size_t>(ax), slice());
  ix.emplace_back(from_host(idx.data(), DType::Int64, {numnew}, a.device()));
  setitem(out, ix, insert_values(values, a));
  ix.back() = from_host(old_pos.data(), DType::Int64, {static_cast<std::int64_t>(old_pos.size())}, a.device());
  setitem(out, ix, a);
  return out;
}

ndarray delete_(const ndarray& arr, std::span<const std::int64_t> indices, std::optional<int> axis) {
  const auto [a, ax] = along(arr, axis);
  const std::int64_t n = a.shape()[static_cast<std::size_t>(ax)];
  std::vector<unsigned char> keep(static_cast<std::size_t>(n), 1);
  for (std::int64_t i : indices) {
    if (i < -n || i >= n)
      throw IndexError("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(ax) +
                       " with size " + std::to_string(n));
    keep[static_cast<std::size_t>(i < 0 ? i + n : i)] = 0;
  }
  std::vector<std::int64_t> kept;
  for (std::int64_t p = 0; p < n; ++p)
    if (keep[static_cast<std::size_t>(p)] != 0) kept.push_back(p);
  const ndarray k = from_host(kept.data(), DType::Int64, {static_cast<std::int64_t>(kept.size())}, a.device());
  return take(a, k, ax);
}

}  // namespace cunp

// src/numeric/assembly.cpp — np.block, np.meshgrid, np.diagflat and np.fill_diagonal
// (numpy/_core/shape_base.py, numpy/lib/_function_base_impl.py, _index_tricks_impl.py)
// from views, concatenate and put.
#include "cunp/assembly.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"

namespace cunp {
namespace {

std::string index_text(const std::vector<std::int64_t>& path) {
  std::string s = "arrays";
  for (std::int64_t i : path) s += "[" + std::to_string(i) + "]";
  return s;
}

// The nesting of np.block's lists: the index path of the first leaf (or of the first
// empty list, `empty` set), the deepest leaf ndim and the first leaf's device.
struct BlockShape {
  std::vector<std::int64_t> path;
  bool empty = false;
  int ndim = 0;
  std::optional<Device> device;
};

BlockShape block_shape(const BlockList& arrays, std::vector<std::int64_t> index) {
  if (arrays.is_array())
    return {std::move(index), false, arrays.array().ndim(), arrays.array().device()};
  const std::vector<BlockList>& items = arrays.items();
  if (items.empty()) return {std::move(index), true, 0, std::nullopt};
  BlockShape first;
  bool have = false;
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::vector<std::int64_t> sub = index;
    sub.push_back(static_cast<std::int64_t>(i));
    BlockShape s = block_shape(items[i], std::move(sub));
    const std::size_t depth = s.path.size() + (s.empty ? 1 : 0);
    const std::size_t first_depth = first.path.size() + (first.empty ? 1 : 0);
    if (!have) {
      first = s;
      have = true;
    } else if (depth != first_depth) {
      throw ValueError("List depths are mismatched. First element was at depth " +
                       std::to_string(first_depth) + ", but there is an element at depth " +
                       std::to_string(depth) + " (" + index_text(s.path) + ")");
    } else if (s.empty) {  // NumPy propagates the flag of an empty list at the bottom
      const int nd = first.ndim;
      const std::optional<Device> dev = first.device;
      first = s;
      first.ndim = nd;
      first.device = dev;
    }
    first.ndim = std::max(first.ndim, s.ndim);
    if (!first.device) first.device = s.device;
  }
  return first;
}

ndarray block_join(const BlockList& arrays, int depth, int list_ndim, int result_ndim, Device dev) {
  if (depth < list_ndim) {
    std::vector<ndarray> parts;
    for (const BlockList& item : arrays.items())
      parts.push_back(block_join(item, depth + 1, list_ndim, result_ndim, dev));
    return concatenate(parts, -(list_ndim - depth));
  }
  ndarray a = arrays.array().to(dev);
  if (a.ndim() < result_ndim) {
    Shape shape(static_cast<std::size_t>(result_ndim - a.ndim()), 1);
    shape.insert(shape.end(), a.shape().begin(), a.shape().end());
    a = a.reshape(shape);
  }
  return a;
}

// The flat positions of np.fill_diagonal's a.flat[:end:step].
ndarray diagonal_positions(const ndarray& a, bool wrap) {
  if (a.ndim() < 2) throw ValueError("array must be at least 2-d");
  std::int64_t end = a.size();
  std::int64_t step = 1;
  if (a.ndim() == 2) {
    step = a.shape()[1] + 1;
    if (!wrap) end = std::min(end, a.shape()[1] * a.shape()[1]);
  } else {
    for (std::int64_t n : a.shape()) {
      if (n != a.shape()[0]) throw ValueError("All dimensions of input must be of equal length");
    }
    // One step moves by one along every axis: 1 + n + n**2 + ... + n**(ndim-1).
    std::int64_t stride = 1;
    for (int i = 0; i + 1 < a.ndim(); ++i) {
      stride *= a.shape()[static_cast<std::size_t>(i)];
      step += stride;
    }
  }
  return arange(Scalar(0), Scalar(end), Scalar(step),
                {.dtype = DType::Int64, .device = a.device()});
}

}  // namespace

ndarray block(const BlockList& arrays) {
  const BlockShape s = block_shape(arrays, {});
  if (s.empty) throw ValueError("List at " + index_text(s.path) + " cannot be empty");
  const int list_ndim = static_cast<int>(s.path.size());
  const int result_ndim = std::max(s.ndim, list_ndim);
  const ndarray result =
      block_join(arrays, 0, list_ndim, result_ndim, s.device.value_or(current_device()));
  return list_ndim == 0 ? result.copy() : result;
}

std::vector<ndarray> meshgrid(std::span<const ndarray> xi, const MeshgridOptions& o) {
  const std::size_t n = xi.size();
  std::vector<ndarray> out;
  for (std::size_t i = 0; i < n; ++i) {
    Shape shape(n, 1);
    shape[i] = -1;
    out.push_back(xi[i].to(xi[0].device()).reshape(shape));
  }
  if (o.indexing == MeshIndexing::XY && n > 1) {
    Shape s0(n, 1), s1(n, 1);
    s0[1] = -1;
    s1[0] = -1;
    out[0] = out[0].reshape(s0);
    out[1] = out[1].reshape(s1);
  }
  if (!o.sparse) out = broadcast_arrays(out);
  if (o.copy) {
    for (ndarray& x : out) x = x.copy();
  }
  return out;
}

ndarray diagflat(const ndarray& v, std::int64_t k) { return diag(v.ravel(), k); }

void fill_diagonal(const ndarray& a, const ndarray& val, bool wrap) {
  const ndarray positions = diagonal_positions(a, wrap);
  if (positions.size() == 0 || val.size() == 0) return;
  put(a, positions, val.to(a.device()).ravel());
}

void fill_diagonal(const ndarray& a, const Scalar& val, bool wrap) {
  if (is_complex(val.dtype()) && !is_complex(a.dtype())) {
    // NumPy converts a Python complex with float()/int() for a real array.
    throw TypeError(is_floating(a.dtype())
                        ? "float() argument must be a string or a real number, not 'complex'"
                        : "int() argument must be a string, a bytes-like object or a real number, "
                          "not 'complex'");
  }
  fill_diagonal(a, full({}, val, {.dtype = a.dtype(), .device = a.device()}), wrap);
}

}  // namespace cunp

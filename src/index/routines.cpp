// src/index/routines.cpp — the index routines built from gathers, scatters and ufuncs
// (cunp/indexing.hpp): extract, choose, select, place, putmask, the *_indices family,
// indices, ix_, ravel_multi_index, unravel_index. Index arithmetic runs on the
// arrays' device; bounds checks are one min/max reduction read back, never a host
// loop over elements.
#include <algorithm>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

Device resolve_device(std::optional<Device> device) { return device.value_or(current_device()); }

// An integer array as int64 on `device`; TypeError (NumPy's 'safe' cast message) for
// other dtypes.
ndarray as_int64(const ndarray& a, Device device) {
  const DType dt = a.dtype();
  if (!is_integer(dt) && dt != DType::Bool) {
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(dt)) +
                    "') to dtype('int64') according to the rule 'safe'");
  }
  const ndarray on = a.device() == device ? a : a.to(device);
  return dt == DType::Int64 ? on : on.astype(DType::Int64);
}

std::int64_t min_value(const ndarray& a) { return min(a).item().to_int64(); }
std::int64_t max_value(const ndarray& a) { return max(a).item().to_int64(); }

// Index arrays of the (row, col) pairs in C order for which keep(row, col).
template <typename Keep>
std::vector<ndarray> matrix_indices(std::int64_t n, std::int64_t m, Device device, Keep&& keep) {
  std::vector<std::int64_t> rows, cols;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < m; ++j)
      if (keep(i, j)) {
        rows.push_back(i);
        cols.push_back(j);
      }
  const auto count = static_cast<std::int64_t>(rows.size());
  return {from_host(rows.data(), DType::Int64, {count}, device),
          from_host(cols.data(), DType::Int64, {count}, device)};
}

void check_same_size(const ndarray& a, const ndarray& mask, const char* fn) {
  if (a.size() != mask.size()) throw ValueError(std::string(fn) + ": mask and data must be the same size");
}

// Indices brought into [0, n) by `mode` (Wrap or Clip).
ndarray apply_mode(const ndarray& indices, std::int64_t n, ClipMode mode, Device device) {
  const ndarray idx = as_int64(indices, device);
  if (n == 0) throw IndexError("cannot do a non-empty take from an empty axes.");
  if (mode == ClipMode::Wrap) return remainder(idx, n);
  return clip(idx, Operand(std::int64_t{0}), Operand(n - 1));
}

}  // namespace

ndarray take(const ndarray& a, const ndarray& indices, std::optional<int> axis, ClipMode mode) {
  if (mode == ClipMode::Raise) return take(a, indices, axis);  // the checked gather
  const std::int64_t n = axis ? a.shape()[static_cast<std::size_t>(normalize_axis(*axis, a.ndim()))] : a.size();
  if (indices.size() == 0) return take(a, indices, axis);
  return take(a, apply_mode(indices, n, mode, a.device()), axis);
}

void put(const ndarray& a, const ndarray& indices, const ndarray& values, ClipMode mode) {
  if (mode == ClipMode::Raise || indices.size() == 0) return put(a, indices, values);
  put(a, apply_mode(indices, a.size(), mode, a.device()), values);
}

ndarray extract(const ndarray& condition, const ndarray& a) {
  const ndarray cond = condition.device() == a.device() ? condition : condition.to(a.device());
  return take(a.reshape({-1}), flatnonzero(cond));
}

ndarray choose(const ndarray& a, std::span<const ndarray> choices, ClipMode mode) {
  if (choices.empty()) throw ValueError("0-length sequence.");
  const Device dev = a.device();
  std::vector<Shape> shapes{a.shape()};
  std::vector<DType> dts;
  for (const ndarray& c : choices) {
    shapes.push_back(c.shape());
    dts.push_back(c.dtype());
  }
  const Shape shape = broadcast_shapes(shapes);
  const DType dt = result_type(dts);
  const auto n = static_cast<std::int64_t>(choices.size());
  ndarray idx = as_int64(a, dev);
  if (mode == ClipMode::Raise) {
    if (idx.size() > 0 && (min_value(idx) < 0 || max_value(idx) >= n))
      throw ValueError("invalid entry in choice array");
  } else {
    idx = apply_mode(idx, n, mode, dev);
  }
  // The choices stacked along a new first axis, then one gather along it.
  Shape stacked_shape{n};
  stacked_shape.insert(stacked_shape.end(), shape.begin(), shape.end());
  ndarray stacked = empty(stacked_shape, {.dtype = dt, .device = dev});
  for (std::int64_t k = 0; k < n; ++k) {
    const ndarray& c = choices[static_cast<std::size_t>(k)];
    stacked[k].assign(c.device() == dev ? c : c.to(dev));
  }
  Shape ishape{1};
  ishape.insert(ishape.end(), shape.begin(), shape.end());
  const ndarray along = idx.broadcast_to(shape).reshape(ishape);
  return take_along_axis(stacked, along, 0).reshape(shape);
}

namespace {

ndarray select_impl(std::span<const ndarray> condlist, std::span<const ndarray> choicelist, const Operand& default_value) {
  if (condlist.size() != choicelist.size())
    throw ValueError("list of cases must be same length as list of conditions");
  if (condlist.empty()) throw ValueError("select with an empty condition list is not possible");
  for (std::size_t i = 0; i < condlist.size(); ++i)
    if (condlist[i].dtype() != DType::Bool)
      throw TypeError("invalid entry " + std::to_string(i) + " in condlist: should be boolean ndarray");
  // The first true condition wins: apply them from the last to the first.
  ndarray result;
  for (std::size_t k = condlist.size(); k-- > 0;) {
    const Operand otherwise = result.defined() ? Operand(result) : default_value;
    result = where(condlist[k], choicelist[k], otherwise);
  }
  return result;
}

}  // namespace

ndarray select(std::span<const ndarray> condlist, std::span<const ndarray> choicelist, const Scalar& default_value) {
  return select_impl(condlist, choicelist, Operand(default_value));
}

ndarray select(std::span<const ndarray> condlist, std::span<const ndarray> choicelist, const ndarray& default_value) {
  return select_impl(condlist, choicelist, Operand(default_value));
}

void place(const ndarray& arr, const ndarray& mask, const ndarray& vals) {
  check_same_size(arr, mask, "place");
  if (!arr.writeable()) throw ValueError("assignment destination is read-only");
  const ndarray idx = flatnonzero(mask.device() == arr.device() ? mask : mask.to(arr.device()));
  if (idx.size() == 0) return;
  if (vals.size() == 0) throw ValueError("Cannot insert from an empty array!");
  put(arr, idx, vals.reshape({-1}));
}

void putmask(const ndarray& a, const ndarray& mask, const ndarray& values) {
  check_same_size(a, mask, "putmask");
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  if (values.size() == 0) return;
  const ndarray idx = flatnonzero(mask.device() == a.device() ? mask : mask.to(a.device()));
  if (idx.size() == 0) return;
  const ndarray flat = (values.device() == a.device() ? values : values.to(a.device())).reshape({-1});
  // Values are taken by position (i % values.size), not by count as in place().
  const ndarray picked = values.size() >= a.size() ? take(flat, idx) : take(flat, remainder(idx, values.size()));
  put(a, idx, picked);
}

std::vector<ndarray> diag_indices(std::int64_t n, int ndim, std::optional<Device> device) {
  const ndarray idx = arange(Scalar(n), {.dtype = DType::Int64, .device = resolve_device(device)});
  return std::vector<ndarray>(static_cast<std::size_t>(std::max(ndim, 0)), idx);
}

std::vector<ndarray> diag_indices_from(const ndarray& arr) {
  if (arr.ndim() < 2) throw ValueError("input array must be at least 2-d");
  for (std::int64_t d : arr.shape())
    if (d != arr.shape()[0]) throw ValueError("All dimensions of input must be of equal length");
  return diag_indices(arr.shape()[0], arr.ndim(), arr.device());
}

std::vector<ndarray> tril_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m,
                                  std::optional<Device> device) {
  return matrix_indices(n, m.value_or(n), resolve_device(device),
                        [k](std::int64_t i, std::int64_t j) { return j <= i + k; });
}

std::vector<ndarray> triu_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m,
                                  std::optional<Device> device) {
  return matrix_indices(n, m.value_or(n), resolve_device(device),
                        [k](std::int64_t i, std::int64_t j) { return j >= i + k; });
}

std::vector<ndarray> tril_indices_from(const ndarray& arr, std::int64_t k) {
  if (arr.ndim() != 2) throw ValueError("input array must be 2-d");
  return tril_indices(arr.shape()[0], k, arr.shape()[1], arr.device());
}

std::vector<ndarray> triu_indices_from(const ndarray& arr, std::int64_t k) {
  if (arr.ndim() != 2) throw ValueError("input array must be 2-d");
  return triu_indices(arr.shape()[0], k, arr.shape()[1], arr.device());
}

std::vector<ndarray> indices_sparse(const Shape& dimensions, DType dtype, std::optional<Device> device) {
  const Device dev = resolve_device(device);
  const auto nd = dimensions.size();
  std::vector<ndarray> out;
  for (std::size_t i = 0; i < nd; ++i) {
    Shape sh(nd, 1);
    sh[i] = dimensions[i];
    out.push_back(arange(Scalar(dimensions[i]), {.dtype = dtype, .device = dev}).reshape(sh));
  }
  return out;
}

ndarray indices(const Shape& dimensions, DType dtype, std::optional<Device> device) {
  const Device dev = resolve_device(device);
  Shape shape{static_cast<std::int64_t>(dimensions.size())};
  shape.insert(shape.end(), dimensions.begin(), dimensions.end());
  ndarray out = empty(shape, {.dtype = dtype, .device = dev});
  const std::vector<ndarray> parts = indices_sparse(dimensions, dtype, dev);
  for (std::size_t i = 0; i < parts.size(); ++i) out[static_cast<std::int64_t>(i)].assign(parts[i]);
  return out;
}

std::vector<ndarray> ix_(std::span<const ndarray> args) {
  const auto nd = args.size();
  std::vector<ndarray> out;
  for (std::size_t k = 0; k < nd; ++k) {
    ndarray a = args[k];
    if (a.ndim() != 1) throw ValueError("Cross index must be 1 dimensional");
    if (a.dtype() == DType::Bool) a = nonzero(a)[0];
    else if (!is_integer(a.dtype())) throw IndexError("arrays used as indices must be of integer (or boolean) type");
    Shape sh(nd, 1);
    sh[k] = a.size();
    out.push_back(a.reshape(sh));
  }
  return out;
}

namespace {

// Coordinates and flat indices: integer or bool arrays (NumPy's message otherwise).
void check_int_indices(const ndarray& a) {
  if (!is_integer(a.dtype()) && a.dtype() != DType::Bool) throw TypeError("only int indices permitted");
}

// The first element of `idx` outside [0, size), in C order (an error path only).
std::int64_t first_out_of_bounds(const ndarray& idx, std::int64_t size) {
  const ndarray bad = logical_or(less(idx, Scalar(std::int64_t{0})), greater_equal(idx, Scalar(size))).reshape({-1});
  const std::int64_t at = argmax(bad).item().to_int64();
  return idx.reshape({-1}).view({slice(at, at + 1)}).item().to_int64();
}

}  // namespace

ndarray ravel_multi_index(std::span<const ndarray> multi_index, const Shape& dims, std::span<const ClipMode> mode,
                          Order order) {
  const auto nd = dims.size();
  if (multi_index.size() != nd)
    throw ValueError("parameter multi_index must be a sequence of length " + std::to_string(nd));
  if (!mode.empty() && mode.size() != 1 && mode.size() != nd)
    throw ValueError("list of clipmodes has wrong length (" + std::to_string(mode.size()) + " instead of " +
                     std::to_string(nd) + ")");
  if (order != Order::C && order != Order::F) throw ValueError("only 'C' or 'F' order is permitted");
  // The stride of each axis in elements, checking the size fits (NumPy multiplies
  // negative extents through; they fail every coordinate check below).
  std::vector<std::int64_t> stride(nd, 1);
  std::int64_t total = 1;
  for (std::size_t s = 0; s < nd; ++s) {
    const std::size_t d = order == Order::C ? nd - 1 - s : s;
    stride[d] = total;
    if (__builtin_mul_overflow(total, dims[d], &total))
      throw ValueError("invalid dims: array size defined by dims is larger than the maximum possible size.");
  }
  for (const ndarray& c : multi_index) check_int_indices(c);
  const Device dev = multi_index.empty() ? current_device() : multi_index[0].device();
  std::vector<Shape> shapes;
  for (const ndarray& c : multi_index) shapes.push_back(c.shape());
  const Shape shape = shapes.empty() ? Shape{} : broadcast_shapes(shapes);
  ndarray result = zeros(shape, {.dtype = DType::Int64, .device = dev});
  if (shape_size(shape) == 0) return result;
  for (std::size_t d = 0; d < nd; ++d) {
    if (dims[d] == 0) throw ValueError("cannot unravel if shape has zero entries (is empty).");
  }
  for (std::size_t d = 0; d < nd; ++d) {
    ndarray v = as_int64(multi_index[d], dev);
    const ClipMode m = mode.empty() ? ClipMode::Raise : mode[mode.size() == 1 ? 0 : d];
    if (m != ClipMode::Raise && dims[d] < 0)
      throw ValueError("invalid dims: negative dimensions are not allowed with mode 'wrap' or 'clip'");
    if (m == ClipMode::Raise) {
      if (v.size() > 0 && (min_value(v) < 0 || max_value(v) >= dims[d]))
        throw ValueError("invalid entry in coordinates array");
    } else if (m == ClipMode::Wrap) {
      v = remainder(v, dims[d]);
    } else {
      v = clip(v, Operand(std::int64_t{0}), Operand(dims[d] - 1));
    }
    result = add(result, multiply(v, stride[d]));
  }
  return result;
}

std::vector<ndarray> unravel_index(const ndarray& indices, const Shape& shape, Order order) {
  // NumPy's size: the product of the extents (0 as soon as one is 0; negative extents
  // multiply through), checked for overflow before anything else.
  std::int64_t size = 1;
  for (std::int64_t d : shape) {
    if (d == 0) {
      size = 0;
      break;
    }
    if (__builtin_mul_overflow(size, d, &size))
      throw ValueError("dimensions are too large; arrays and shapes with a total size greater than 'intp' are not "
                       "supported.");
  }
  check_int_indices(indices);
  if (order != Order::C && order != Order::F) throw ValueError("only 'C' or 'F' order is permitted");
  ndarray idx = as_int64(indices, indices.device());
  if (idx.size() > 0 && (min_value(idx) < 0 || max_value(idx) >= size))
    throw ValueError("index " + std::to_string(first_out_of_bounds(idx, size)) +
                     " is out of bounds for array with size " + std::to_string(size));
  const auto nd = shape.size();
  const bool negative = std::any_of(shape.begin(), shape.end(), [](std::int64_t d) { return d < 0; });
  std::vector<ndarray> out(nd);
  for (std::size_t s = 0; s < nd; ++s) {
    const std::size_t d = order == Order::C ? nd - 1 - s : s;
    const std::int64_t dim = shape[d] == 0 ? 1 : shape[d];
    if (negative) {
      // NumPy's C arithmetic (truncating division) for negative extents.
      out[d] = fmod(idx, dim);
      idx = floor_divide(subtract(idx, out[d]), dim);
    } else {
      out[d] = remainder(idx, dim);
      idx = floor_divide(idx, dim);
    }
  }
  return out;
}

}  // namespace cunp

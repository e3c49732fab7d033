// src/core/shape.cpp — shape arithmetic: sizes, contiguous strides, broadcasting.
#include <string>

#include "cunp/error.hpp"
#include "cunp/ndarray.hpp"

namespace cunp {

std::int64_t shape_size(const Shape& shape) {
  std::int64_t n = 1;
  bool overflow = false;
  for (std::int64_t d : shape) {
    if (d < 0) throw ValueError("negative dimensions are not allowed");
    if (__builtin_mul_overflow(n, d, &n)) overflow = true;
  }
  if (overflow) throw ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  return n;
}

Strides contiguous_strides(const Shape& shape, std::int64_t itemsize, Order order) {
  Strides s(shape.size());
  std::int64_t step = itemsize;
  if (order == Order::F) {
    for (std::size_t i = 0; i < shape.size(); ++i) {
      s[i] = step;
      step *= shape[i] > 0 ? shape[i] : 1;
    }
  } else {
    for (std::size_t i = shape.size(); i-- > 0;) {
      s[i] = step;
      step *= shape[i] > 0 ? shape[i] : 1;
    }
  }
  return s;
}

Strides new_array_strides(const Shape& shape, std::int64_t itemsize, Order order) {
  for (std::int64_t d : shape) {
    if (d == 0) return Strides(shape.size(), 0);
  }
  return contiguous_strides(shape, itemsize, order);
}

std::string shape_str(const Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

namespace {

// NumPy's broadcasting of `count` shapes, the i-th given by shape_at(i).
template <typename ShapeAt>
Shape broadcast_shapes_of(std::size_t count, ShapeAt shape_at) {
  std::size_t nd = 0;
  for (std::size_t k = 0; k < count; ++k) nd = std::max(nd, shape_at(k).size());
  Shape out(nd, 1);
  for (std::size_t k = 0; k < count; ++k) {
    const Shape& s = shape_at(k);
    const std::size_t off = nd - s.size();
    for (std::size_t i = 0; i < s.size(); ++i) {
      const std::int64_t d = s[i];
      std::int64_t& o = out[off + i];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string msg = "operands could not be broadcast together with shapes";
      for (std::size_t t = 0; t < count; ++t) {
        msg += ' ';
        msg += shape_str(shape_at(t));
      }
      throw ValueError(msg);
    }
  }
  return out;
}

}  // namespace

Shape broadcast_shapes(std::span<const Shape> shapes) {
  return broadcast_shapes_of(shapes.size(), [&](std::size_t k) -> const Shape& { return shapes[k]; });
}

Shape broadcast_shapes(std::span<const Shape* const> shapes) {
  return broadcast_shapes_of(shapes.size(), [&](std::size_t k) -> const Shape& { return *shapes[k]; });
}

Order parse_order(std::string_view text) {
  if (text == "C" || text == "c") return Order::C;
  if (text == "F" || text == "f") return Order::F;
  if (text == "A" || text == "a") return Order::A;
  if (text == "K" || text == "k") return Order::K;
  throw ValueError("order must be one of 'C', 'F', 'A', or 'K' (got '" + std::string(text) + "')");
}

}  // namespace cunp

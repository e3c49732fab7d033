// cunp/creation.hpp — array creation: empty/zeros/ones/full (and _like), ranges,
// eye/identity/diag/tri/tril/triu, and arrays from host data.
#pragma once

#include <complex>
#include <optional>
#include <span>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp {

// Options shared by the creation functions; unset fields take NumPy's defaults
// (float64, or the fill value's dtype for full; C order; the current device).
struct ArrayOptions {
  std::optional<DType> dtype;
  Order order = Order::C;
  std::optional<Device> device;
};

ndarray empty(const Shape& shape, ArrayOptions options = {});
ndarray zeros(const Shape& shape, ArrayOptions options = {});
ndarray ones(const Shape& shape, ArrayOptions options = {});
ndarray full(const Shape& shape, const Scalar& fill_value, ArrayOptions options = {});

// Options of the *_like functions: dtype/shape/device default to the prototype's;
// order K keeps its layout.
struct LikeOptions {
  std::optional<DType> dtype;
  Order order = Order::K;
  std::optional<Shape> shape;
  std::optional<Device> device;
};
ndarray empty_like(const ndarray& prototype, LikeOptions options = {});
ndarray zeros_like(const ndarray& prototype, LikeOptions options = {});
ndarray ones_like(const ndarray& prototype, LikeOptions options = {});
ndarray full_like(const ndarray& prototype, const Scalar& fill_value, LikeOptions options = {});

// np.arange: values start + i*step for i < ceil((stop - start) / step); the dtype
// follows NumPy (int64 for integer arguments, float64 if any is a float).
ndarray arange(const Scalar& stop, ArrayOptions options = {});
ndarray arange(const Scalar& start, const Scalar& stop, const Scalar& step = 1, ArrayOptions options = {});

struct LinspaceOptions {
  bool endpoint = true;
  std::optional<DType> dtype;
  std::optional<Device> device;
};
ndarray linspace(const Scalar& start, const Scalar& stop, std::int64_t num = 50, LinspaceOptions options = {},
                 double* retstep = nullptr);
ndarray logspace(const Scalar& start, const Scalar& stop, std::int64_t num = 50, double base = 10.0,
                 LinspaceOptions options = {});

ndarray eye(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
            ArrayOptions options = {});
ndarray identity(std::int64_t n, ArrayOptions options = {});
// 1-d input: a 2-d array with v on diagonal k. 2-d input: its k-th diagonal (a read-only view).
ndarray diag(const ndarray& v, std::int64_t k = 0);
// A view of the k-th diagonal of the last two axes... of a 2-d array (np.diagonal for 2-d).
ndarray diagonal(const ndarray& a, std::int64_t offset = 0);
ndarray tri(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
            ArrayOptions options = {});
ndarray tril(const ndarray& m, std::int64_t k = 0);
ndarray triu(const ndarray& m, std::int64_t k = 0);

// Arrays from host memory (copied to `device`, the current one by default).
ndarray from_host(const void* data, DType dtype, const Shape& shape, std::optional<Device> device = std::nullopt);
template <typename T>
ndarray asarray(const std::vector<T>& values, std::optional<Device> device = std::nullopt) {
  return from_host(values.data(), dtype_of_v<T>, {static_cast<std::int64_t>(values.size())}, device);
}
template <typename T>
ndarray asarray(std::initializer_list<T> values, std::optional<Device> device = std::nullopt) {
  return from_host(values.begin(), dtype_of_v<T>, {static_cast<std::int64_t>(values.size())}, device);
}
// A cpu-device array viewing host memory the caller keeps alive (no copy).
ndarray wrap_host(void* data, DType dtype, const Shape& shape, const Strides& strides,
                  std::shared_ptr<void> owner = nullptr);
// An array on `device` (or the current one): a no-op when already there and copy is false.
ndarray asarray(const ndarray& a, std::optional<DType> dtype = std::nullopt,
                std::optional<Device> device = std::nullopt, bool copy = false);
ndarray ascontiguousarray(const ndarray& a, std::optional<DType> dtype = std::nullopt);
ndarray asfortranarray(const ndarray& a, std::optional<DType> dtype = std::nullopt);

// Page-locked host arrays (cpu device) for fast, asynchronous transfers.
ndarray empty_pinned(const Shape& shape, DType dtype = DType::Float64, Order order = Order::C);
ndarray zeros_pinned(const Shape& shape, DType dtype = DType::Float64, Order order = Order::C);

}  // namespace cunp

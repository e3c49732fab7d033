// cunp/ndarray.hpp — the n-dimensional array: runtime dtype, runtime rank, byte
// strides, views sharing one reference-counted buffer.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <string>
#include <variant>
#include <vector>

#include "cunp/device.hpp"
#include "cunp/dtype.hpp"
#include "cunp/memory.hpp"
#include "cunp/scalar.hpp"

namespace cunp {

using Shape = std::vector<std::int64_t>;
using Strides = std::vector<std::int64_t>;  // in bytes, as NumPy has them

// Memory layout orders of NumPy: C (row-major), F (column-major), A (F if the input
// is F-contiguous and not C-contiguous, else C), K (keep the input's layout).
enum class Order : char { C = 'C', F = 'F', A = 'A', K = 'K' };
Order parse_order(std::string_view text);  // ValueError on anything else

struct Flags {
  bool c_contiguous = true;
  bool f_contiguous = true;
  bool owndata = true;
  bool writeable = true;
  bool aligned = true;
};

// Basic index pieces: an integer, a slice, `ellipsis`, `newaxis`.
struct Slice {
  std::optional<std::int64_t> start, stop, step;
};
inline Slice slice(std::optional<std::int64_t> start = std::nullopt,
                   std::optional<std::int64_t> stop = std::nullopt,
                   std::optional<std::int64_t> step = std::nullopt) {
  return {start, stop, step};
}
struct EllipsisIndex {};
struct NewAxisIndex {};
inline constexpr EllipsisIndex ellipsis{};
inline constexpr NewAxisIndex newaxis{};
using Index = std::variant<std::int64_t, Slice, EllipsisIndex, NewAxisIndex>;

class ndarray;

// Options of copy-like operations (ndarray::copy, astype).
struct AstypeOptions {
  Order order = Order::K;
  Casting casting = Casting::Unsafe;
  bool copy = true;  // false: return the array itself when no conversion is needed
};

class ndarray {
 public:
  // An undefined array (no buffer); defined() is false. Every operation on it throws.
  ndarray() = default;
  // A view of `storage` at byte `offset`. Throws ValueError if it would reach outside.
  ndarray(std::shared_ptr<Storage> storage, DType dtype, Shape shape, Strides strides,
          std::int64_t offset = 0);

  bool defined() const noexcept { return impl_ != nullptr && impl_->storage != nullptr; }

  // ---- attributes
  const Shape& shape() const noexcept { return impl_ ? impl_->shape : kNoDims; }
  const Strides& strides() const noexcept { return impl_ ? impl_->strides : kNoDims; }
  std::int64_t offset() const noexcept { return impl_ ? impl_->offset : 0; }  // bytes from the buffer's start
  DType dtype() const noexcept { return impl_ ? impl_->dtype : DType::Float64; }
  Device device() const noexcept { return impl_ && impl_->storage ? impl_->storage->device() : Device::cpu(); }
  int ndim() const noexcept { return impl_ ? static_cast<int>(impl_->shape.size()) : 0; }
  std::int64_t size() const noexcept { return impl_ ? impl_->size : 1; }
  std::int64_t itemsize() const noexcept { return static_cast<std::int64_t>(cunp::itemsize(dtype())); }
  std::int64_t nbytes() const noexcept { return size() * itemsize(); }
  Flags flags() const noexcept;
  bool is_c_contiguous() const noexcept { return impl_ ? impl_->c_contiguous : true; }
  bool is_f_contiguous() const noexcept { return impl_ ? impl_->f_contiguous : true; }
  bool owndata() const noexcept { return !impl_ || impl_->base == nullptr; }
  bool writeable() const noexcept { return impl_ ? impl_->writeable : true; }
  void set_writeable(bool writeable);  // ValueError when making a read-only view of a read-only base writeable
  // The array owning the memory this one views; undefined if this one owns it.
  ndarray base() const;
  const std::shared_ptr<Storage>& storage() const noexcept { return impl_ ? impl_->storage : kNoStorage; }
  // Address of element [0, 0, ...]; a device address for CUDA arrays.
  void* data() const noexcept { return impl_ ? impl_->data : nullptr; }
  // True when both views can reach a common byte (np.may_share_memory's bounds test).
  bool may_share_memory(const ndarray& other) const noexcept;

  // ---- views
  ndarray T() const { return transpose(); }
  ndarray transpose(std::span<const int> axes = {}) const;
  ndarray view(std::initializer_list<Index> index) const { return view(std::span<const Index>(index.begin(), index.size())); }
  ndarray view(std::span<const Index> index) const;  // basic indexing
  ndarray operator[](std::int64_t i) const;
  ndarray operator[](std::initializer_list<Index> index) const { return view(index); }
  // A view when NumPy returns one, else a copy. One dimension may be -1. `copy`:
  // nullopt copies only when needed, true always copies, false throws ValueError
  // when no view can give the shape (np.reshape's copy=, NumPy 2.1).
  ndarray reshape(const Shape& shape, Order order = Order::C, std::optional<bool> copy = std::nullopt) const;
  ndarray ravel(Order order = Order::C) const;
  ndarray flatten(Order order = Order::C) const;  // always a copy
  ndarray squeeze() const;
  ndarray broadcast_to(const Shape& shape) const;  // read-only view
  // ndarray.view(dtype): the same bytes read as `dtype`. An item size change rescales
  // the last axis, which must then be contiguous (NumPy's ValueErrors otherwise; a
  // 0-d array cannot change its item size).
  ndarray view(DType dtype) const;
  // A view with new shape/strides/offset over the same buffer (checked against its bounds).
  ndarray as_strided(Shape shape, Strides strides, std::int64_t offset) const;
  // Sets the shape in place where it is possible without copying (ndarray.shape = ...).
  void set_shape(const Shape& shape);

  // ---- copies and conversions
  ndarray copy(Order order = Order::C) const;
  ndarray astype(DType dtype, AstypeOptions options = {}) const;
  // Copy to another device (a no-op view when already there and copy is false).
  ndarray to(Device device, bool copy = false) const;
  void fill(const Scalar& value);
  // ndarray.byteswap: every element's bytes reversed (each part of a complex number
  // separately). inplace: swaps this array's memory and returns it; else a new array.
  ndarray byteswap(bool inplace = false) const;
  // Copies `value` into this array, broadcasting it and casting with `casting`.
  void assign(const ndarray& value, Casting casting = Casting::Unsafe);
  void assign(const Scalar& value);
  // a[index] = value
  void set_item(std::span<const Index> index, const ndarray& value);
  void set_item(std::initializer_list<Index> index, const ndarray& value) { set_item(std::span<const Index>(index.begin(), index.size()), value); }
  void set_item(std::span<const Index> index, const Scalar& value);
  // The element at a flat index (or the only element when none is given); synchronizes.
  Scalar item() const;
  Scalar item(std::int64_t flat_index) const;
  Scalar item(std::span<const std::int64_t> index) const;
  // Copies the elements, C-ordered, into host memory of nbytes() bytes; synchronizes.
  void copy_to_host(void* dst) const;
  // Copies nbytes() bytes of C-ordered host data into this array.
  void copy_from_host(const void* src);
  // Host vector of the elements in C order (T must match the dtype's item size and kind).
  template <typename T>
  std::vector<T> to_vector() const {
    check_element_type(dtype_of_v<T>);
    if constexpr (std::is_same_v<T, bool>) {
      std::vector<unsigned char> bytes(static_cast<std::size_t>(size()));
      copy_to_host(bytes.data());
      return std::vector<bool>(bytes.begin(), bytes.end());
    } else {
      std::vector<T> out(static_cast<std::size_t>(size()));
      copy_to_host(out.data());
      return out;
    }
  }

  // NumPy's repr and str (np.array_repr / np.array_str).
  std::string repr() const;
  std::string str() const;

 private:
  // The metadata of an array, shared by all copies of the handle and never changed
  // once built: copying an ndarray is one reference-count increment, and the few
  // mutators (set_shape, set_writeable) build a new block and swap it in.
  struct Impl {
    std::shared_ptr<Storage> storage;
    std::shared_ptr<const Impl> base;  // the owner's metadata, for views
    Shape shape;
    Strides strides;
    char* data = nullptr;  // storage->data() + offset
    std::int64_t offset = 0;
    std::int64_t size = 1;  // product of shape
    DType dtype = DType::Float64;
    bool writeable = true;
    bool c_contiguous = true;
    bool f_contiguous = true;
  };
  static const Shape kNoDims;
  static const std::shared_ptr<Storage> kNoStorage;
  explicit ndarray(std::shared_ptr<const Impl> impl) noexcept : impl_(std::move(impl)) {}
  // Fills the fields derived from the others (data, size, contiguity).
  static void finish(Impl& impl) noexcept;
  static ndarray view_of(const ndarray& of, DType dtype, Shape shape, Strides strides, std::int64_t offset,
                         bool writeable);
  void check_defined() const;
  void check_element_type(DType requested) const;
  std::shared_ptr<const Impl> impl_;
  friend ndarray make_view(const ndarray& of, Shape shape, Strides strides, std::int64_t offset);
  friend ndarray make_view_as(const ndarray& of, DType dtype, Shape shape, Strides strides, std::int64_t offset);
};

// A view of `of` sharing its buffer and recording it (or its base) as the base.
ndarray make_view(const ndarray& of, Shape shape, Strides strides, std::int64_t offset);
// The same, reading the bytes as another dtype (real/imag views of complex arrays);
// the view must stay inside the buffer (ValueError otherwise).
ndarray make_view_as(const ndarray& of, DType dtype, Shape shape, Strides strides, std::int64_t offset);

// C- or F-ordered byte strides of a shape.
Strides contiguous_strides(const Shape& shape, std::int64_t itemsize, Order order = Order::C);
// Strides of a newly allocated array: contiguous ones, or all zeros when the shape is
// empty (NumPy 2.4+ gives new empty arrays zero strides).
Strides new_array_strides(const Shape& shape, std::int64_t itemsize, Order order = Order::C);
// Number of elements; ValueError if a dimension is negative, or the product overflows.
std::int64_t shape_size(const Shape& shape);
// NumPy's broadcasting of shapes; ValueError naming the shapes when they do not match.
Shape broadcast_shapes(std::span<const Shape> shapes);
// The same for shapes held elsewhere (no copies of them).
Shape broadcast_shapes(std::span<const Shape* const> shapes);
std::string shape_str(const Shape& shape);  // "(2, 3)", "(5,)", "()"

// np.copyto(dst, src, casting)
void copyto(const ndarray& dst, const ndarray& src, Casting casting = Casting::SameKind);

// Streams the repr.
std::ostream& operator<<(std::ostream& os, const ndarray& a);

}  // namespace cunp

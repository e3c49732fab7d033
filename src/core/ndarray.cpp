// src/core/ndarray.cpp — array metadata and the operations that only build views:
// transpose, basic indexing, reshape, squeeze, broadcast_to, view(dtype), as_strided.
#include "cunp/ndarray.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <ostream>
#include <string>

#include "cunp/error.hpp"

namespace cunp {
namespace {

// Byte range [lo, hi) reached by a view, relative to its buffer's start.
void extent(const Shape& shape, const Strides& strides, std::int64_t offset, std::int64_t itemsize,
            std::int64_t& lo, std::int64_t& hi) {
  lo = offset;
  hi = offset + itemsize;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) {
      hi = lo = offset;
      return;
    }
    const std::int64_t span = (shape[i] - 1) * strides[i];
    if (span < 0) lo += span;
    else hi += span;
  }
}

// The checks of the ndarray constructor: matching lengths, valid dimensions, and a view
// that stays inside the buffer.
void check_view_bounds(const Storage& storage, DType dtype, const Shape& shape, const Strides& strides,
                       std::int64_t offset) {
  if (shape.size() != strides.size()) {
    throw ValueError("shape " + shape_str(shape) + " and strides of length " + std::to_string(strides.size()) +
                     " differ in length");
  }
  shape_size(shape);
  std::int64_t lo, hi;
  extent(shape, strides, offset, static_cast<std::int64_t>(itemsize(dtype)), lo, hi);
  if (lo < 0 || (hi > lo && hi > static_cast<std::int64_t>(storage.nbytes()))) {
    throw ValueError("strides and shape " + shape_str(shape) + " reach outside the buffer of " +
                     std::to_string(storage.nbytes()) + " bytes");
  }
}

}  // namespace

constinit const Shape ndarray::kNoDims{};
constinit const std::shared_ptr<Storage> ndarray::kNoStorage{};

void ndarray::finish(Impl& m) noexcept {
  m.data = m.storage ? static_cast<char*>(m.storage->data()) + m.offset : nullptr;
  // Size and both contiguities in one pass; unsigned products so that shapes holding
  // a zero next to huge dimensions cannot overflow.
  const std::size_t n = m.shape.size();
  const auto isz = static_cast<std::uint64_t>(cunp::itemsize(m.dtype));
  std::uint64_t size = 1, c_expected = isz, f_expected = isz;
  bool c = true, f = true;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t ci = n - 1 - k;
    const auto cd = static_cast<std::uint64_t>(m.shape[ci]);
    const auto fd = static_cast<std::uint64_t>(m.shape[k]);
    if (cd != 1 && static_cast<std::uint64_t>(m.strides[ci]) != c_expected) c = false;
    if (fd != 1 && static_cast<std::uint64_t>(m.strides[k]) != f_expected) f = false;
    c_expected *= cd;
    f_expected *= fd;
    size *= fd;
  }
  m.size = static_cast<std::int64_t>(size);
  // Empty arrays are contiguous in every order, as in NumPy.
  m.c_contiguous = c || size == 0;
  m.f_contiguous = f || size == 0;
}

ndarray::ndarray(std::shared_ptr<Storage> storage, DType dtype, Shape shape, Strides strides,
                 std::int64_t offset) {
  if (!storage) throw ValueError("ndarray needs a buffer");
  check_view_bounds(*storage, dtype, shape, strides, offset);
  auto m = std::make_shared<Impl>();
  m->storage = std::move(storage);
  m->shape = std::move(shape);
  m->strides = std::move(strides);
  m->offset = offset;
  m->dtype = dtype;
  finish(*m);
  impl_ = std::move(m);
}

ndarray ndarray::view_of(const ndarray& of, DType dtype, Shape shape, Strides strides, std::int64_t offset,
                         bool writeable) {
  auto m = std::make_shared<Impl>();
  if (of.impl_) {
    m->storage = of.impl_->storage;
    m->base = of.impl_->base ? of.impl_->base : of.impl_;
  }
  m->shape = std::move(shape);
  m->strides = std::move(strides);
  m->offset = offset;
  m->dtype = dtype;
  m->writeable = writeable;
  finish(*m);
  return ndarray(std::shared_ptr<const Impl>(std::move(m)));
}

ndarray make_view(const ndarray& of, Shape shape, Strides strides, std::int64_t offset) {
  return ndarray::view_of(of, of.dtype(), std::move(shape), std::move(strides), offset, of.writeable());
}

ndarray make_view_as(const ndarray& of, DType dtype, Shape shape, Strides strides, std::int64_t offset) {
  if (!of.defined()) throw ValueError("ndarray needs a buffer");
  check_view_bounds(*of.impl_->storage, dtype, shape, strides, offset);
  return ndarray::view_of(of, dtype, std::move(shape), std::move(strides), offset, of.writeable());
}

void ndarray::check_defined() const {
  if (!defined()) throw ValueError("operation on an undefined ndarray");
}

void ndarray::check_element_type(DType requested) const {
  check_defined();
  if (requested != impl_->dtype) {
    throw TypeError("requested elements of dtype " + std::string(name(requested)) +
                    " from an array of dtype " + std::string(name(impl_->dtype)));
  }
}

Flags ndarray::flags() const noexcept {
  Flags f;
  f.c_contiguous = is_c_contiguous();
  f.f_contiguous = is_f_contiguous();
  f.owndata = owndata();
  f.writeable = writeable();
  const DType dt = dtype();
  const auto addr = reinterpret_cast<std::uintptr_t>(data());
  f.aligned = addr % static_cast<std::uintptr_t>(real_dtype(dt) == dt ? itemsize() : itemsize() / 2) == 0;
  for (std::int64_t s : strides()) {
    if (s % (is_complex(dt) ? itemsize() / 2 : itemsize()) != 0) f.aligned = false;
  }
  return f;
}

void ndarray::set_writeable(bool writeable) {
  if (writeable && impl_ && impl_->base && !impl_->base->writeable) {
    throw ValueError("cannot set WRITEABLE flag to True of this array");
  }
  if (this->writeable() == writeable) return;
  // Copy on write: other handles may share the metadata block.
  auto m = impl_ ? std::make_shared<Impl>(*impl_) : std::make_shared<Impl>();
  m->writeable = writeable;
  impl_ = std::move(m);
}

ndarray ndarray::base() const { return impl_ && impl_->base ? ndarray(impl_->base) : ndarray(); }

bool ndarray::may_share_memory(const ndarray& other) const noexcept {
  if (!defined() || !other.defined()) return false;
  const Impl& x = *impl_;
  const Impl& y = *other.impl_;
  if (x.storage->device() != y.storage->device()) return false;
  std::int64_t lo1, hi1, lo2, hi2;
  extent(x.shape, x.strides, x.offset, itemsize(), lo1, hi1);
  if (lo1 == hi1) return false;
  extent(y.shape, y.strides, y.offset, other.itemsize(), lo2, hi2);
  if (lo2 == hi2) return false;
  const auto b1 = reinterpret_cast<std::intptr_t>(x.storage->data());
  const auto b2 = reinterpret_cast<std::intptr_t>(y.storage->data());
  return b1 + lo1 < b2 + hi2 && b2 + lo2 < b1 + hi1;
}

ndarray ndarray::transpose(std::span<const int> axes) const {
  check_defined();
  const int nd = ndim();
  std::vector<int> perm(static_cast<std::size_t>(nd));
  if (axes.empty()) {
    for (int i = 0; i < nd; ++i) perm[static_cast<std::size_t>(i)] = nd - 1 - i;
  } else {
    if (static_cast<int>(axes.size()) != nd) throw ValueError("axes don't match array");
    std::vector<bool> seen(static_cast<std::size_t>(nd), false);
    for (int i = 0; i < nd; ++i) {
      const int a = normalize_axis(axes[static_cast<std::size_t>(i)], nd);
      if (seen[static_cast<std::size_t>(a)]) throw ValueError("repeated axis in transpose");
      seen[static_cast<std::size_t>(a)] = true;
      perm[static_cast<std::size_t>(i)] = a;
    }
  }
  Shape sh(static_cast<std::size_t>(nd));
  Strides st(static_cast<std::size_t>(nd));
  for (int i = 0; i < nd; ++i) {
    sh[static_cast<std::size_t>(i)] = impl_->shape[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])];
    st[static_cast<std::size_t>(i)] = impl_->strides[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])];
  }
  return make_view(*this, std::move(sh), std::move(st), impl_->offset);
}

ndarray ndarray::operator[](std::int64_t i) const {
  const Index idx[1] = {i};
  return view(idx);
}

ndarray ndarray::view(std::span<const Index> index) const {
  check_defined();
  const int nd = ndim();
  int consumed = 0, ellipses = 0;
  for (const Index& ix : index) {
    if (std::holds_alternative<std::int64_t>(ix) || std::holds_alternative<Slice>(ix)) ++consumed;
    else if (std::holds_alternative<EllipsisIndex>(ix)) ++ellipses;
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > nd) {
    throw IndexError("too many indices for array: array is " + std::to_string(nd) +
                     "-dimensional, but " + std::to_string(consumed) + " were indexed");
  }
  Shape sh;
  Strides st;
  sh.reserve(static_cast<std::size_t>(nd) + index.size());
  st.reserve(sh.capacity());
  std::int64_t off = impl_->offset;
  int axis = 0;
  auto take_full = [&](int count) {
    for (int k = 0; k < count; ++k, ++axis) {
      sh.push_back(impl_->shape[static_cast<std::size_t>(axis)]);
      st.push_back(impl_->strides[static_cast<std::size_t>(axis)]);
    }
  };
  for (const Index& ix : index) {
    if (const auto* i = std::get_if<std::int64_t>(&ix)) {
      const std::int64_t n = impl_->shape[static_cast<std::size_t>(axis)];
      std::int64_t k = *i;
      if (k < -n || k >= n) {
        throw IndexError("index " + std::to_string(*i) + " is out of bounds for axis " +
                         std::to_string(axis) + " with size " + std::to_string(n));
      }
      if (k < 0) k += n;
      off += k * impl_->strides[static_cast<std::size_t>(axis)];
      ++axis;
    } else if (const auto* s = std::get_if<Slice>(&ix)) {
      const std::int64_t n = impl_->shape[static_cast<std::size_t>(axis)];
      const std::int64_t step = s->step.value_or(1);
      if (step == 0) throw ValueError("slice step cannot be zero");
      auto clamp = [&](std::optional<std::int64_t> v, std::int64_t dflt) {
        if (!v) return dflt;
        std::int64_t x = *v;
        if (x < 0) {
          x += n;
          if (x < 0) x = step < 0 ? -1 : 0;
        } else if (x >= n) {
          x = step < 0 ? n - 1 : n;
        }
        return x;
      };
      const std::int64_t start = clamp(s->start, step < 0 ? n - 1 : 0);
      const std::int64_t stop = clamp(s->stop, step < 0 ? -1 : n);
      std::int64_t len = 0;
      if (step < 0) {
        if (stop < start) len = (start - stop - 1) / (-step) + 1;
      } else if (start < stop) {
        len = (stop - start - 1) / step + 1;
      }
      const std::int64_t stride = impl_->strides[static_cast<std::size_t>(axis)];
      if (len > 0) off += start * stride;
      sh.push_back(len);
      st.push_back(stride * step);
      ++axis;
    } else if (std::holds_alternative<EllipsisIndex>(ix)) {
      take_full(nd - consumed);
    } else {  // newaxis
      sh.push_back(1);
      st.push_back(0);
    }
  }
  take_full(nd - axis);
  return make_view(*this, std::move(sh), std::move(st), off);
}

namespace {

// NumPy's no-copy reshape: finds strides for `new_shape` that walk the same elements
// in C order as `shape`/`strides`, or returns false when no such strides exist.
bool reshape_strides_c(const Shape& shape, const Strides& strides, const Shape& new_shape,
                       std::int64_t itemsize, Strides& out) {
  Shape od;
  Strides os;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1) {
      od.push_back(shape[i]);
      os.push_back(strides[i]);
    }
  }
  const std::size_t oldnd = od.size(), newnd = new_shape.size();
  out.assign(newnd, 0);
  std::size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    std::int64_t np = new_shape[ni], op = od[oi];
    while (np != op) {
      if (np < op) np *= new_shape[nj++];
      else op *= od[oj++];
    }
    for (std::size_t ok = oi; ok + 1 < oj; ++ok) {
      if (os[ok] != od[ok + 1] * os[ok + 1]) return false;
    }
    out[nj - 1] = os[oj - 1];
    for (std::size_t nk = nj - 1; nk > ni; --nk) out[nk - 1] = out[nk] * new_shape[nk];
    ni = nj++;
    oi = oj++;
  }
  // Trailing size-1 axes of the new shape.
  const std::int64_t last = ni > 0 ? out[ni - 1] : itemsize;
  for (std::size_t nk = ni; nk < newnd; ++nk) out[nk] = last;
  return true;
}

}  // namespace

static Shape infer_shape(const Shape& requested, std::int64_t size) {
  Shape sh = requested;
  int unknown = -1;
  std::int64_t known = 1;
  for (std::size_t i = 0; i < sh.size(); ++i) {
    if (sh[i] == -1) {
      if (unknown >= 0) throw ValueError("can only specify one unknown dimension");
      unknown = static_cast<int>(i);
    } else if (sh[i] < 0) {
      throw ValueError("negative dimensions not allowed");
    } else {
      known *= sh[i];
    }
  }
  auto fail = [&] {
    std::string s = "(";
    for (std::size_t i = 0; i < requested.size(); ++i) {
      if (i) s += ", ";
      s += std::to_string(requested[i]);
    }
    s += requested.size() == 1 ? ",)" : ")";
    return ValueError("cannot reshape array of size " + std::to_string(size) + " into shape " + s);
  };
  if (unknown >= 0) {
    if (known == 0 || size % known != 0) throw fail();
    sh[static_cast<std::size_t>(unknown)] = size / known;
  } else if (known != size) {
    throw fail();
  }
  return sh;
}

ndarray ndarray::reshape(const Shape& shape, Order order, std::optional<bool> copy) const {
  check_defined();
  if (order == Order::K) throw ValueError("order 'K' is not permitted for reshaping");
  if (order == Order::A) order = is_f_contiguous() && !is_c_contiguous() ? Order::F : Order::C;
  Shape sh = infer_shape(shape, size());
  if (copy == true) return this->copy(order).reshape(sh, order);
  Strides st;
  bool ok;
  if (size() == 0) {
    st = contiguous_strides(sh, itemsize(), order);
    ok = true;
  } else if (order == Order::C) {
    ok = reshape_strides_c(impl_->shape, impl_->strides, sh, itemsize(), st);
  } else {
    Shape rs(impl_->shape.rbegin(), impl_->shape.rend()), rn(sh.rbegin(), sh.rend());
    Strides rst(impl_->strides.rbegin(), impl_->strides.rend());
    ok = reshape_strides_c(rs, rst, rn, itemsize(), st);
    std::reverse(st.begin(), st.end());
  }
  if (ok) return make_view(*this, std::move(sh), std::move(st), impl_->offset);
  if (copy == false) throw ValueError("Unable to avoid creating a copy while reshaping.");
  return this->copy(order).reshape(sh, order);
}

void ndarray::set_shape(const Shape& shape) {
  check_defined();
  Shape sh = infer_shape(shape, size());
  Strides st;
  if (size() == 0) {
    st = contiguous_strides(sh, itemsize());
  } else if (!reshape_strides_c(impl_->shape, impl_->strides, sh, itemsize(), st)) {
    throw AttributeError(
        "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the "
        "desired shape.");
  }
  // Copy on write: other handles may share the metadata block.
  auto m = std::make_shared<Impl>(*impl_);
  m->shape = std::move(sh);
  m->strides = std::move(st);
  finish(*m);
  impl_ = std::move(m);
}

ndarray ndarray::ravel(Order order) const {
  check_defined();
  if (order == Order::A) order = is_f_contiguous() && !is_c_contiguous() ? Order::F : Order::C;
  if (order == Order::K) {
    // Memory order: a view when the array is contiguous in some axis order.
    if (is_c_contiguous()) return reshape({size()}, Order::C);
    if (is_f_contiguous()) return reshape({size()}, Order::F);
    return copy(Order::K).reshape({size()}, Order::C);
  }
  if ((order == Order::C && is_c_contiguous()) || (order == Order::F && is_f_contiguous())) {
    return reshape({size()}, order);
  }
  return copy(order).reshape({size()}, order);
}

ndarray ndarray::flatten(Order order) const {
  ndarray r = ravel(order);
  return r.may_share_memory(*this) ? r.copy() : r;
}

ndarray ndarray::squeeze() const {
  check_defined();
  Shape sh;
  Strides st;
  for (std::size_t i = 0; i < impl_->shape.size(); ++i) {
    if (impl_->shape[i] != 1) {
      sh.push_back(impl_->shape[i]);
      st.push_back(impl_->strides[i]);
    }
  }
  return make_view(*this, std::move(sh), std::move(st), impl_->offset);
}

ndarray ndarray::broadcast_to(const Shape& shape) const {
  check_defined();
  for (std::int64_t d : shape) {
    if (d < 0) throw ValueError("all elements of broadcast shape must be non-negative");
  }
  Strides st;
  try {
    st = Strides(shape.size(), 0);
    const int nd = static_cast<int>(shape.size()), an = ndim();
    if (an > nd) throw ValueError("");
    for (int i = 0; i < an; ++i) {
      const auto o = static_cast<std::size_t>(nd - an + i);
      const std::int64_t d = impl_->shape[static_cast<std::size_t>(i)];
      if (d == shape[o]) st[o] = impl_->strides[static_cast<std::size_t>(i)];
      else if (d == 1) st[o] = 0;
      else throw ValueError("");
    }
  } catch (const ValueError&) {
    throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                     shape_str(impl_->shape) + "  and requested shape " + shape_str(shape));
  }
  return view_of(*this, impl_->dtype, shape, std::move(st), impl_->offset, false);
}

ndarray ndarray::view(DType dtype) const {
  check_defined();
  const std::int64_t old_size = itemsize(), new_size = static_cast<std::int64_t>(cunp::itemsize(dtype));
  Shape sh = impl_->shape;
  Strides st = impl_->strides;
  if (new_size != old_size) {
    // NumPy's rule: only the last axis changes length, so its items must be adjacent
    // (a length-1 or empty last axis qualifies whatever its stride).
    if (sh.empty()) {
      throw ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
    }
    const std::size_t last = sh.size() - 1;
    if (sh[last] != 1 && size() != 0 && st[last] != old_size) {
      throw ValueError("To change to a dtype of a different size, the last axis must be contiguous");
    }
    const std::int64_t bytes = sh[last] * old_size;
    if (bytes % new_size != 0) {
      throw ValueError(
          "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last "
          "axis of the array.");
    }
    sh[last] = bytes / new_size;
    st[last] = new_size;
  }
  return make_view_as(*this, dtype, std::move(sh), std::move(st), impl_->offset);
}

ndarray ndarray::as_strided(Shape shape, Strides strides, std::int64_t offset) const {
  check_defined();
  check_view_bounds(*impl_->storage, impl_->dtype, shape, strides, offset);
  return make_view(*this, std::move(shape), std::move(strides), offset);
}

std::ostream& operator<<(std::ostream& os, const ndarray& a) { return os << a.repr(); }

}  // namespace cunp

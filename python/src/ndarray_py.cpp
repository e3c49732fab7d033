// python/src/ndarray_py.cpp — cunp.ndarray: attributes, basic indexing, views,
// copies, conversions, NumPy interop.
#include <Python.h>
#include <nanobind/ndarray.h>

#include <cmath>
#include <cstring>

#include "convert.hpp"

namespace cunp::py {
namespace {

using HostArray = nb::ndarray<nb::ro, nb::device::cpu>;

DType dlpack_to_dtype(nb::dlpack::dtype t) {
  const auto code = static_cast<nb::dlpack::dtype_code>(t.code);
  const int bits = t.bits;
  switch (code) {
    case nb::dlpack::dtype_code::Bool: return DType::Bool;
    case nb::dlpack::dtype_code::Int:
      return bits == 8 ? DType::Int8 : bits == 16 ? DType::Int16 : bits == 32 ? DType::Int32 : DType::Int64;
    case nb::dlpack::dtype_code::UInt:
      return bits == 8 ? DType::UInt8 : bits == 16 ? DType::UInt16 : bits == 32 ? DType::UInt32 : DType::UInt64;
    case nb::dlpack::dtype_code::Float:
      if (bits == 16) return DType::Float16;
      if (bits == 32) return DType::Float32;
      if (bits == 64) return DType::Float64;
      break;
    case nb::dlpack::dtype_code::Complex:
      if (bits == 64) return DType::Complex64;
      if (bits == 128) return DType::Complex128;
      break;
    default: break;
  }
  throw TypeError("unsupported array element type (code " + std::to_string(t.code) + ", " +
                  std::to_string(bits) + " bits)");
}

nb::dlpack::dtype dtype_to_dlpack(DType dt) {
  nb::dlpack::dtype t{};
  t.lanes = 1;
  t.bits = static_cast<std::uint8_t>(itemsize(dt) * 8);
  switch (kind(dt)) {
    case DTypeKind::Bool: t.code = static_cast<std::uint8_t>(nb::dlpack::dtype_code::Bool); break;
    case DTypeKind::SignedInt: t.code = static_cast<std::uint8_t>(nb::dlpack::dtype_code::Int); break;
    case DTypeKind::UnsignedInt: t.code = static_cast<std::uint8_t>(nb::dlpack::dtype_code::UInt); break;
    case DTypeKind::Float: t.code = static_cast<std::uint8_t>(nb::dlpack::dtype_code::Float); break;
    case DTypeKind::Complex: t.code = static_cast<std::uint8_t>(nb::dlpack::dtype_code::Complex); break;
  }
  return t;
}

// A cpu-device array viewing a NumPy (or any buffer/DLPack host) array's memory; the
// Python object stays alive as long as the view does.
ndarray wrap_numpy(nb::handle obj) {
  HostArray h = nb::cast<HostArray>(obj);
  const DType dt = dlpack_to_dtype(h.dtype());
  Shape shape(h.ndim());
  Strides strides(h.ndim());
  const auto isz = static_cast<std::int64_t>(itemsize(dt));
  for (std::size_t i = 0; i < h.ndim(); ++i) {
    shape[i] = static_cast<std::int64_t>(h.shape(i));
    strides[i] = static_cast<std::int64_t>(h.stride(i)) * isz;
  }
  auto* owner = new nb::object(nb::borrow(obj));
  std::shared_ptr<void> keep(owner, [](nb::object* o) {
    nb::gil_scoped_acquire gil;
    delete o;
  });
  ndarray a = wrap_host(const_cast<void*>(h.data()), dt, shape, strides, keep);
  nb::object flags = obj.attr("flags");
  if (!nb::cast<bool>(flags.attr("writeable"))) a.set_writeable(false);
  return a;
}

// A NumPy array viewing a cpu-device array's memory (kept alive by a capsule).
nb::object numpy_view(const ndarray& a) {
  // The capsule owns the buffer a second time besides the handle, so its use count
  // shows the export (Note [Temporary elision], ufunc_py.cpp).
  struct Keep {
    ndarray array;
    std::shared_ptr<Storage> storage;
  };
  auto* keep = new Keep{a, a.storage()};
  nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<Keep*>(p); });
  std::vector<std::size_t> shape(a.shape().begin(), a.shape().end());
  std::vector<std::int64_t> strides(a.strides().size());
  for (std::size_t i = 0; i < strides.size(); ++i) strides[i] = a.strides()[i] / a.itemsize();
  nb::ndarray<nb::numpy> out(a.data(), a.ndim(), shape.data(), owner, strides.data(), dtype_to_dlpack(a.dtype()),
                             nb::device::cpu::value, 0);
  nb::object o = out.cast(nb::rv_policy::reference);
  if (!a.writeable()) o.attr("flags").attr("writeable") = false;
  return o;
}

void* numpy_data(nb::handle arr) {
  nb::object iface = arr.attr("__array_interface__");
  return reinterpret_cast<void*>(nb::cast<std::uintptr_t>(nb::tuple(iface["data"])[0]));
}

// A C-ordered NumPy copy of any array (a device-to-host transfer for CUDA arrays).
nb::object to_numpy(const ndarray& a, Order order) {
  nb::object out = numpy().attr("empty")(shape_to_tuple(a.shape()), dtype_object(a.dtype()),
                                         order == Order::F ? "F" : "C");
  if (a.size() == 0) return out;
  if (order == Order::F) {
    // Copy into the transposed (C-ordered) view of the F-ordered output.
    ndarray host = wrap_numpy(out.attr("T"));
    host.assign(a.transpose());
    return out;
  }
  a.copy_to_host(numpy_data(out));
  return out;
}

bool is_cunp_array(nb::handle h) { return nb::isinstance<ndarray>(h); }

// Any array-like Python value as a cunp array on `device`.
ndarray as_cunp(nb::handle value, Device device, std::optional<DType> dtype = std::nullopt) {
  if (is_cunp_array(value)) return nb::cast<const ndarray&>(value);
  nb::object np_arr = dtype ? numpy().attr("asarray")(value, dtype_object(*dtype)) : numpy().attr("asarray")(value);
  const nb::object kind = np_arr.attr("dtype").attr("kind");
  const std::string k = nb::cast<std::string>(kind);
  if (k == "O" || k == "U" || k == "S" || k == "V" || k == "M" || k == "m") {
    throw TypeError("cunp arrays cannot hold dtype " + nb::cast<std::string>(np_arr.attr("dtype").attr("str")) +
                    " (only bool, integer, floating and complex)");
  }
  if (!nb::cast<bool>(np_arr.attr("dtype").attr("isnative"))) {
    np_arr = np_arr.attr("astype")(np_arr.attr("dtype").attr("newbyteorder")("="));
  }
  ndarray host = wrap_numpy(np_arr);
  if (device.is_cpu()) return host;
  return host.to(device);
}

std::vector<Index> to_index(nb::handle key) {
  std::vector<Index> out;
  auto one = [&out](nb::handle k) {
    PyObject* o = k.ptr();
    if (PyLong_CheckExact(o)) {
      out.emplace_back(static_cast<std::int64_t>(PyLong_AsLongLong(o)));
      if (PyErr_Occurred()) {
        PyErr_Clear();
        throw IndexError("index " + nb::cast<std::string>(nb::str(k)) + " is out of bounds");
      }
    } else if (PySlice_Check(o)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(o, &start, &stop, &step) < 0) throw nb::python_error();
      out.emplace_back(Slice{start, stop, step});
    } else if (o == Py_Ellipsis) {
      out.emplace_back(ellipsis);
    } else if (o == Py_None) {
      out.emplace_back(newaxis);
    } else if (!PyBool_Check(o) && PyIndex_Check(o) && !PySequence_Check(o) && !nb::hasattr(k, "ndim")) {
      out.emplace_back(static_cast<std::int64_t>(nb::cast<long long>(nb::int_(k))));
    } else if (PyBool_Check(o) || PyList_Check(o) || is_cunp_array(k) || nb::hasattr(k, "__array_interface__") ||
               nb::isinstance(k, numpy().attr("generic"))) {
      // Integer-array and boolean-mask indexing.
      if (nb::hasattr(k, "ndim") && nb::cast<int>(k.attr("ndim")) == 0 && !PyBool_Check(o) &&
          nb::cast<std::string>(k.attr("dtype").attr("kind")) != "b" && PyIndex_Check(o)) {
        out.emplace_back(static_cast<std::int64_t>(nb::cast<long long>(nb::int_(k))));
        return;
      }
      // ---- advanced indexing: integer-array and boolean-mask keys are parsed and
      // applied by ndarray.__getitem__ / __setitem__ of python/src/indexing_py.cpp
      // (which replace this file's, after bind_ndarray); this basic-only parser
      // never sees them through those.
      throw IndexError("integer-array and boolean-mask indices need cunp's advanced indexing "
                       "(ndarray.__getitem__ / __setitem__)");
      // ---- end advanced indexing
    } else {
      throw IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
                       "boolean arrays are valid indices");
    }
  };
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle k : nb::borrow<nb::tuple>(key)) one(k);
  } else {
    one(key);
  }
  return out;
}

void setitem(ndarray& self, nb::handle key, nb::handle value) {
  const std::vector<Index> idx = to_index(key);
  ndarray target = self.view(idx);
  if (!target.writeable()) throw ValueError("assignment destination is read-only");
  if (is_python_scalar(value) || nb::isinstance(value, numpy().attr("generic"))) {
    target.fill(to_scalar(value));
    return;
  }
  target.assign(as_cunp(value, self.device()));
}

// One shape argument: an int, a NumPy integer, a 0-d array (cunp or NumPy), or a
// sequence of those.
Shape shape_arg(nb::handle obj) {
  if (!PyLong_Check(obj.ptr()) && PyIndex_Check(obj.ptr()) && nb::hasattr(obj, "ndim") &&
      nb::cast<int>(obj.attr("ndim")) == 0) {
    return {nb::cast<std::int64_t>(nb::int_(obj))};
  }
  return to_shape(obj);
}

// reshape(*shape): one shape argument or the dimensions as separate arguments.
Shape shape_args(nb::args args) {
  if (args.size() == 0) throw TypeError("reshape() takes exactly 1 argument (0 given)");
  if (args.size() == 1) return shape_arg(args[0]);
  return to_shape(args);
}

std::optional<bool> to_copy_flag(nb::handle copy) {
  if (copy.is_none()) return std::nullopt;
  const int truth = PyObject_IsTrue(copy.ptr());
  if (truth < 0) throw nb::python_error();
  return truth != 0;
}

std::int64_t to_index_int(nb::handle h) {
  if (!PyIndex_Check(h.ptr())) {
    throw TypeError("'" + nb::cast<std::string>(nb::str(h.type().attr("__name__"))) +
                    "' object cannot be interpreted as an integer");
  }
  return nb::cast<std::int64_t>(nb::int_(h));
}

// Note [ndarray constructor over a buffer]: the buffer is a byte range
// [begin, begin + length) of one Storage: a cunp array's own bytes (it must be
// contiguous, as the buffer protocol NumPy uses requires), a MemoryPointer's bytes
// from its address to the end of its allocation, or a host buffer (bytes, NumPy
// arrays) wrapped on the cpu device. The new array is a view of that storage, so it
// shares the owner's lifetime, base and read-only-ness, and NumPy's bounds checks
// apply to the range.
struct BufferRange {
  ndarray owner;  // a view of the storage the range lies in
  std::int64_t begin = 0;
  std::int64_t length = 0;
};

BufferRange buffer_range(nb::handle buffer) {
  if (is_cunp_array(buffer)) {
    const ndarray& b = nb::cast<const ndarray&>(buffer);
    if (!b.is_c_contiguous() && !b.is_f_contiguous()) throw ValueError("ndarray is not contiguous");
    return {b, b.size() == 0 ? 0 : b.offset(), b.nbytes()};
  }
  if (nb::hasattr(buffer, "mem") && nb::hasattr(buffer.attr("mem"), "_array")) {  // cunp.cuda.MemoryPointer
    const ndarray& whole = nb::cast<const ndarray&>(buffer.attr("mem").attr("_array"));
    const auto at = nb::cast<std::int64_t>(buffer.attr("_offset"));
    return {whole, at, whole.nbytes() - at};
  }
  // Any other object exposing the buffer protocol, read as bytes on the host.
  nb::object bytes = numpy().attr("frombuffer")(buffer, "uint8");
  const ndarray b = wrap_numpy(bytes);
  return {b, 0, b.nbytes()};
}

// True when a view of `shape`/`strides` at byte `offset` stays inside [begin, end).
bool strides_fit(const Shape& shape, const Strides& strides, std::int64_t itemsize, std::int64_t offset,
                 std::int64_t begin, std::int64_t end) {
  std::int64_t lo = offset, hi = offset + itemsize;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return true;
    const std::int64_t span = (shape[i] - 1) * strides[i];
    (span < 0 ? lo : hi) += span;
  }
  return lo >= begin && hi <= end;
}

ndarray construct(nb::handle shape_obj, nb::handle dtype_obj, nb::handle buffer, nb::handle offset_obj,
                  nb::handle strides_obj, nb::handle order_obj, nb::handle memptr) {
  const Shape shape = shape_arg(shape_obj);
  const DType dt = dtype_obj.is_none() ? DType::Float64 : to_dtype(dtype_obj);
  // NumPy's constructor lays new memory out in F order only for 'F'.
  const Order order = to_order(order_obj, Order::C) == Order::F ? Order::F : Order::C;
  const std::int64_t size = shape_size(shape);
  const auto isz = static_cast<std::int64_t>(itemsize(dt));
  std::optional<Strides> strides;
  if (!strides_obj.is_none()) {
    strides = to_shape(strides_obj);
    if (strides->size() != shape.size()) throw ValueError("strides, if given, must be the same length as shape");
  }
  if (!memptr.is_none()) {
    if (!buffer.is_none()) throw TypeError("ndarray() got both buffer and memptr");
    buffer = memptr;
  }
  const std::int64_t offset = to_index_int(offset_obj);
  if (buffer.is_none()) {
    if (!strides) return empty(shape, {.dtype = dt, .order = order, .device = current_device()});
    if (!strides_fit(shape, *strides, isz, 0, 0, size * isz)) {
      throw ValueError("strides is incompatible with shape of requested array and size of buffer");
    }
    const Device dev = current_device();
    check_device(dev);
    return ndarray(allocate(dev, static_cast<std::size_t>(size * isz)), dt, shape, *strides, 0);
  }
  const BufferRange r = buffer_range(buffer);
  // NumPy leaves a negative offset unchecked (the view starts before the buffer); here
  // it is an error. An offset past the end fails the size checks below, as in NumPy.
  if (offset < 0) {
    throw ValueError("offset must be non-negative and no greater than buffer length (" + std::to_string(r.length) +
                     ")");
  }
  if (!strides) {
    if (size * isz > r.length - offset) throw TypeError("buffer is too small for requested array");
    strides = contiguous_strides(shape, isz, order);
  } else if (!strides_fit(shape, *strides, isz, offset, 0, r.length)) {
    throw ValueError("strides is incompatible with shape of requested array and size of buffer");
  }
  return make_view_as(r.owner, dt, shape, *strides, r.begin + offset);
}

// ndarray.getfield: the bytes at `offset` inside each element, read as `dtype`.
ndarray getfield(const ndarray& a, nb::handle dtype, nb::handle offset_obj) {
  const DType dt = to_dtype(dtype);
  const std::int64_t offset = to_index_int(offset_obj);
  const auto isz = static_cast<std::int64_t>(itemsize(dt));
  if (offset < 0) throw ValueError("offset is negative");
  if (isz > a.itemsize()) throw ValueError("new type is larger than original type");
  if (isz + offset > a.itemsize()) throw ValueError("new type plus offset is larger than original type");
  return make_view_as(a, dt, a.shape(), a.strides(), a.offset() + offset);
}

// ndarray.view(dtype=None, type=None); a cunp.ndarray (sub)class as `dtype` is the type.
nb::object view_method(nb::handle self, nb::handle dtype, nb::handle type) {
  const ndarray& a = nb::cast<const ndarray&>(self);
  auto is_array_class = [](nb::handle h) {
    return PyType_Check(h.ptr()) && (PyObject_IsSubclass(h.ptr(), nb::type<ndarray>().ptr()) == 1 ||
                                     PyObject_IsSubclass(h.ptr(), numpy().attr("ndarray").ptr()) == 1);
  };
  if (!dtype.is_none() && is_array_class(dtype)) {
    if (!type.is_none()) throw TypeError("Cannot specify output type twice.");
    type = dtype;
    dtype = nb::none();
  }
  if (!type.is_none() && !(PyType_Check(type.ptr()) &&
                           PyObject_IsSubclass(type.ptr(), nb::type<ndarray>().ptr()) == 1)) {
    throw TypeError("Type must be a sub-type of ndarray type");
  }
  if (dtype.is_none()) return nb::cast(make_view(a, a.shape(), a.strides(), a.offset()));
  return nb::cast(a.view(to_dtype(dtype)));
}

// NumPy 2: bool() takes any one-element array; int(), float() and complex() only 0-d ones.
Scalar single_item(const ndarray& a, const char* what) {
  if (std::strcmp(what, "bool") == 0) {
    if (a.size() == 0) {
      throw ValueError(
          "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not "
          "empty.");
    }
    if (a.size() != 1) {
      throw ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
    }
  } else if (a.ndim() != 0) {
    throw TypeError("only 0-dimensional arrays can be converted to Python scalars");
  }
  return a.item();
}

nb::object tolist_rec(const ndarray& host, int axis, std::int64_t offset) {
  if (axis == host.ndim()) {
    const char* base = static_cast<const char*>(host.storage()->data()) + offset;
    return scalar_to_python(Scalar::read(host.dtype(), base));
  }
  nb::list out;
  const auto a = static_cast<std::size_t>(axis);
  for (std::int64_t i = 0; i < host.shape()[a]; ++i) out.append(tolist_rec(host, axis + 1, offset + i * host.strides()[a]));
  return out;
}

}  // namespace

ndarray as_cunp_array(nb::handle value, Device device, std::optional<DType> dtype) {
  return as_cunp(value, device, dtype);
}
nb::object as_numpy(const ndarray& a, Order order) { return to_numpy(a, order); }
nb::object as_numpy_view(const ndarray& a) { return numpy_view(a); }

void bind_ndarray(nb::module_& m) {
  nb::class_<ndarray> cls(m, "ndarray");
  cls.def_prop_rw(
         "shape", [](const ndarray& a) { return shape_to_tuple(a.shape()); },
         [](ndarray& a, nb::handle shape) { a.set_shape(to_shape(shape)); })
      .def_prop_ro("strides", [](const ndarray& a) { return shape_to_tuple(a.strides()); })
      .def_prop_ro("dtype", [](const ndarray& a) { return dtype_object(a.dtype()); })
      .def_prop_ro("ndim", &ndarray::ndim)
      .def_prop_ro("size", &ndarray::size)
      .def_prop_ro("itemsize", &ndarray::itemsize)
      .def_prop_ro("nbytes", &ndarray::nbytes)
      .def_prop_ro("_offset", &ndarray::offset)
      .def_prop_ro("_device_str", [](const ndarray& a) { return a.device().str(); })
      .def_prop_ro("_ptr", [](const ndarray& a) { return reinterpret_cast<std::uintptr_t>(a.data()); })
      .def_prop_ro("_c_contiguous", &ndarray::is_c_contiguous)
      .def_prop_ro("_f_contiguous", &ndarray::is_f_contiguous)
      .def_prop_ro("_owndata", &ndarray::owndata)
      .def_prop_ro("_aligned", [](const ndarray& a) { return a.flags().aligned; })
      .def_prop_rw("_writeable", &ndarray::writeable, [](ndarray& a, bool w) { a.set_writeable(w); })
      .def_prop_ro("base", [](const ndarray& a) -> nb::object {
        if (a.owndata()) return nb::none();
        return nb::cast(a.base());
      })
      .def_prop_ro("T", [](const ndarray& a) { return a.T(); })
      .def("transpose",
           [](const ndarray& a, nb::args axes) {
             if (axes.size() == 0 || (axes.size() == 1 && axes[0].is_none())) return a.transpose();
             std::vector<int> ax;
             nb::handle src = axes.size() == 1 && PySequence_Check(axes[0].ptr()) ? axes[0] : nb::handle(axes);
             for (nb::handle h : src) ax.push_back(nb::cast<int>(h));
             return a.transpose(ax);
           })
      .def("__len__",
           [](const ndarray& a) {
             if (a.ndim() == 0) throw TypeError("len() of unsized object");
             return a.shape()[0];
           })
      .def("__getitem__", [](const ndarray& a, nb::handle key) { return a.view(to_index(key)); })
      .def("__setitem__", [](ndarray& a, nb::handle key, nb::handle value) { setitem(a, key, value); })
      .def(
          "__init__",
          [](ndarray* self, nb::handle shape, nb::handle dtype, nb::handle buffer, nb::handle offset,
             nb::handle strides, nb::handle order, nb::handle memptr) {
            new (self) ndarray(construct(shape, dtype, buffer, offset, strides, order, memptr));
          },
          nb::arg("shape"), nb::arg("dtype") = nb::borrow(reinterpret_cast<PyObject*>(&PyFloat_Type)),
          nb::arg("buffer") = nb::none(), nb::arg("offset") = 0, nb::arg("strides") = nb::none(),
          nb::arg("order") = "C", nb::kw_only(), nb::arg("memptr") = nb::none())
      .def(
          "reshape",
          [](const ndarray& a, nb::args shape, nb::handle order, nb::handle copy) {
            return a.reshape(shape_args(shape), to_order(order, Order::C), to_copy_flag(copy));
          },
          nb::arg("shape"), nb::arg("order") = "C", nb::arg("copy") = nb::none())
      .def("view", &view_method, nb::arg("dtype") = nb::none(), nb::arg("type") = nb::none())
      .def(
          "byteswap", [](const ndarray& a, bool inplace) { return a.byteswap(inplace); },
          nb::arg("inplace") = false)
      .def("getfield", &getfield, nb::arg("dtype"), nb::arg("offset") = 0)
      .def(
          "setfield",
          [](const ndarray& a, nb::handle val, nb::handle dtype, nb::handle offset) {
            ndarray field = getfield(a, dtype, offset);
            if (is_python_scalar(val) || nb::isinstance(val, numpy().attr("generic"))) {
              field.fill(to_scalar(val));
            } else {
              field.assign(as_cunp(val, a.device()));
            }
          },
          nb::arg("val"), nb::arg("dtype"), nb::arg("offset") = 0)
      .def("_storage_array", [](const ndarray& a) {
        // The whole allocation as bytes: what a MemoryPointer's Memory holds on to.
        const auto n = static_cast<std::int64_t>(a.storage()->nbytes());
        return make_view_as(a, DType::UInt8, {n}, {1}, 0);
      })
      .def(
          "ravel", [](const ndarray& a, nb::handle order) { return a.ravel(to_order(order, Order::C)); },
          nb::arg("order") = "C")
      .def(
          "flatten", [](const ndarray& a, nb::handle order) { return a.flatten(to_order(order, Order::C)); },
          nb::arg("order") = "C")
      .def("squeeze", [](const ndarray& a, nb::handle axis) {
        if (axis.is_none()) return a.squeeze();
        std::vector<bool> drop(static_cast<std::size_t>(a.ndim()), false);
        auto mark = [&](nb::handle h) {
          const int ax = normalize_axis(nb::cast<long long>(h), a.ndim());
          if (a.shape()[static_cast<std::size_t>(ax)] != 1) {
            throw ValueError("cannot select an axis to squeeze out which has size not equal to one");
          }
          drop[static_cast<std::size_t>(ax)] = true;
        };
        if (PyTuple_Check(axis.ptr()) || PyList_Check(axis.ptr())) {
          for (nb::handle h : axis) mark(h);
        } else {
          mark(axis);
        }
        Shape sh;
        Strides st;
        for (int i = 0; i < a.ndim(); ++i) {
          if (!drop[static_cast<std::size_t>(i)]) {
            sh.push_back(a.shape()[static_cast<std::size_t>(i)]);
            st.push_back(a.strides()[static_cast<std::size_t>(i)]);
          }
        }
        return make_view(a, sh, st, a.offset());
      }, nb::arg("axis") = nb::none())
      .def(
          "copy", [](const ndarray& a, nb::handle order) { return a.copy(to_order(order, Order::C)); },
          nb::arg("order") = "C")
      .def(
          "astype",
          [](const ndarray& a, nb::handle dtype, nb::handle order, const std::string& casting, nb::handle, bool copy) {
            return a.astype(to_dtype(dtype), {.order = to_order(order, Order::K),
                                              .casting = parse_casting(casting),
                                              .copy = copy});
          },
          nb::arg("dtype"), nb::arg("order") = "K", nb::arg("casting") = "unsafe", nb::arg("subok") = true,
          nb::arg("copy") = true)
      .def("fill", [](ndarray& a, nb::handle v) { a.fill(to_scalar(v)); }, nb::arg("value"))
      .def("item",
           [](const ndarray& a, nb::args args) {
             if (args.size() == 0) return scalar_to_python(a.item());
             if (args.size() == 1 && !PyTuple_Check(args[0].ptr())) {
               return scalar_to_python(a.item(to_index_int(args[0])));
             }
             nb::handle src = args.size() == 1 ? args[0] : nb::handle(args);
             std::vector<std::int64_t> idx;
             for (nb::handle h : src) idx.push_back(to_index_int(h));
             if (idx.empty() && a.ndim() != 0) throw ValueError("incorrect number of indices for array");
             if (idx.size() == 1) return scalar_to_python(a.item(idx[0]));  // NumPy: a 1-tuple is a flat index
             return scalar_to_python(idx.empty() ? a.item() : a.item(idx));
           })
      .def("tolist",
           [](const ndarray& a) {
             const ndarray host = a.to(Device::cpu());
             return tolist_rec(host, 0, host.offset());
           })
      .def("__float__", [](const ndarray& a) { return single_item(a, "float").to_double(); })
      .def("__int__", [](const ndarray& a) {
        const Scalar s = single_item(a, "int");
        if (is_inexact(s.dtype())) {
          const double d = s.to_double();
          if (std::isnan(d)) throw ValueError("cannot convert float NaN to integer");
          if (std::isinf(d)) throw OverflowError("cannot convert float infinity to integer");
          return nb::steal(PyLong_FromDouble(d));
        }
        if (s.dtype() == DType::Bool) return nb::object(nb::int_(s.to_int64()));
        return scalar_to_python(s);
      })
      .def("__index__", [](const ndarray& a) {
        if (!is_integer(a.dtype()) && a.dtype() != DType::Bool) {
          throw TypeError("only integer scalar arrays can be converted to a scalar index");
        }
        if (a.ndim() != 0) throw TypeError("only integer scalar arrays can be converted to a scalar index");
        return scalar_to_python(a.item());
      })
      .def("__complex__", [](const ndarray& a) { return single_item(a, "complex").to_complex(); })
      .def("__bool__", [](const ndarray& a) { return single_item(a, "bool").to_bool(); })
      .def("__repr__", &ndarray::repr)
      .def("__str__", &ndarray::str)
      .def("__copy__", [](const ndarray& a) { return a.copy(Order::K); })
      .def("__deepcopy__", [](const ndarray& a, nb::handle) { return a.copy(Order::K); })
      .def(
          "get",
          [](const ndarray& a, nb::handle stream, nb::handle order, nb::handle out) -> nb::object {
            (void)stream;
            if (!out.is_none()) {
              ndarray host = wrap_numpy(out);
              if (host.shape() != a.shape()) {
                throw ValueError("Shape mismatch. Expected shape: " + shape_str(a.shape()) +
                                 ", actual shape: " + shape_str(host.shape()));
              }
              if (host.dtype() != a.dtype()) throw TypeError("dtype mismatch between out and the array");
              host.assign(a);
              return nb::borrow(out);
            }
            return to_numpy(a, to_order(order, Order::C));
          },
          nb::arg("stream") = nb::none(), nb::arg("order") = "C", nb::arg("out") = nb::none())
      .def("set",
           [](ndarray& a, nb::handle arr, nb::handle stream) {
             (void)stream;
             ndarray host = wrap_numpy(numpy().attr("asarray")(arr));
             if (host.shape() != a.shape()) {
               throw ValueError("Shape mismatch. Old shape: " + shape_str(a.shape()) +
                                ", new shape: " + shape_str(host.shape()));
             }
             if (host.dtype() != a.dtype()) throw TypeError("dtype mismatch between the array and its new data");
             a.assign(host);
           },
           nb::arg("arr"), nb::arg("stream") = nb::none())
      .def("_to_device", [](const ndarray& a, const std::string& dev, bool copy) {
        return a.to(Device::parse(dev), copy);
      }, nb::arg("device"), nb::arg("copy") = false)
      .def("_numpy_view", [](const ndarray& a) {
        if (!a.device().is_cpu()) throw TypeError("not a cpu array");
        return numpy_view(a);
      })
      .def("_may_share_memory", &ndarray::may_share_memory);

  m.def("_as_cunp", [](nb::handle v, nb::handle device, nb::handle dtype) {
    const Device d = to_optional_device(device).value_or(current_device());
    check_device(d);
    return as_cunp(v, d, to_optional_dtype(dtype));
  }, nb::arg("value"), nb::arg("device") = nb::none(), nb::arg("dtype") = nb::none());
  m.def("_broadcast_to", [](const ndarray& a, nb::handle shape) { return a.broadcast_to(to_shape(shape)); });
  m.def("_to_numpy", [](const ndarray& a, nb::handle order) { return to_numpy(a, to_order(order, Order::C)); },
        nb::arg("a"), nb::arg("order") = "C");
}

}  // namespace cunp::py

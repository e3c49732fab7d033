// python/src/interop_py.cpp — DLPack capsules, arrays over foreign pointers and the
// stream handshakes behind cunp._interop (ndarray.__dlpack__, cunp.from_dlpack, the
// CUDA Array Interface) and cunp.cuda.UnownedMemory.
#include <Python.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "convert.hpp"
#include "cunp/interop.hpp"

namespace cunp::py {
namespace {

// The capsule names of the Python DLPack protocol; a consumer renames a capsule to the
// "used_" name when it takes the tensor, so the capsule no longer frees it.
constexpr const char* kVersioned = "dltensor_versioned";
constexpr const char* kUsedVersioned = "used_dltensor_versioned";
constexpr const char* kLegacy = "dltensor";
constexpr const char* kUsedLegacy = "used_dltensor";

// A strong reference to a Python object that may be dropped on any thread (a Storage
// release runs wherever the last view dies), so the count changes under the GIL.
std::shared_ptr<PyObject> hold_object(nb::handle obj) {
  return std::shared_ptr<PyObject>(obj.inc_ref().ptr(), [](PyObject* p) {
    nb::gil_scoped_acquire gil;
    Py_DECREF(p);
  });
}

// Frees the tensor of a capsule nobody consumed. It runs inside garbage collection,
// possibly while an exception is being raised, so the error indicator is kept.
void capsule_destructor(PyObject* capsule) noexcept {
#if PY_VERSION_HEX >= 0x030C0000
  PyObject* pending = PyErr_GetRaisedException();
#else
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
#endif
  if (PyCapsule_IsValid(capsule, kVersioned)) {
    auto* t =
        static_cast<dlpack::DLManagedTensorVersioned*>(PyCapsule_GetPointer(capsule, kVersioned));
    if (t->deleter) t->deleter(t);
  } else if (PyCapsule_IsValid(capsule, kLegacy)) {
    auto* t = static_cast<dlpack::DLManagedTensor*>(PyCapsule_GetPointer(capsule, kLegacy));
    if (t->deleter) t->deleter(t);
  }
#if PY_VERSION_HEX >= 0x030C0000
  PyErr_SetRaisedException(pending);
#else
  PyErr_Restore(type, value, traceback);
#endif
}

std::string py_type_name(nb::handle h) {
  return nb::cast<std::string>(nb::str(h.type().attr("__name__")));
}

std::optional<bool> optional_bool(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  const int truth = PyObject_IsTrue(h.ptr());
  if (truth < 0) throw nb::python_error();
  return truth != 0;
}

// A Python int as a stream value: -1, 0, 1, 2 or a cudaStream_t address (up to 2**64-1).
struct StreamValue {
  bool negative_one = false;
  std::uintptr_t value = 0;
};

StreamValue stream_value(nb::handle stream, const char* what) {
  if (PyBool_Check(stream.ptr()) || !PyLong_Check(stream.ptr())) {
    throw TypeError(std::string(what) + " must be an int (a cudaStream_t address) or None, got " +
                    py_type_name(stream));
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(stream.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  if (overflow > 0) return {false, nb::cast<std::uintptr_t>(stream)};
  if (overflow < 0 || v < -1) {
    throw ValueError(std::string(what) + " must be -1, 1, 2 or a stream address, got " +
                     nb::cast<std::string>(nb::str(stream)));
  }
  if (v == -1) return {true, 0};
  return {false, static_cast<std::uintptr_t>(v)};
}

// The stream a protocol integer names on CUDA device `device`: 1 the legacy default
// stream, 2 the per-thread default stream, anything else a cudaStream_t; 0 is ambiguous
// and refused, as both protocols say.
Stream stream_from_value(std::uintptr_t v, int device, const char* what) {
  if (v == 0) {
    throw ValueError(
        std::string(what) +
        "=0 is not allowed for CUDA (ambiguous): pass 1 for the legacy default stream, 2 for the "
        "per-thread default stream, or a stream's address");
  }
  if (v == 1) return Stream::legacy(device);
  if (v == 2) return Stream::per_thread(device);
  return Stream::external(reinterpret_cast<void*>(v), device);
}

// The consumer side of the CUDA Array Interface: cunp's current stream of CUDA device
// `device` waits for the producer's `stream` (not None). Nothing to order, and no event,
// when the producer's stream is that stream.
void wait_for_stream(nb::handle stream, int device) {
  const StreamValue v = stream_value(stream, "__cuda_array_interface__['stream']");
  if (v.negative_one) {
    throw ValueError(
        "__cuda_array_interface__['stream'] must be None, 1, 2 or a stream address, got -1");
  }
  const Stream consumer = current_stream(device);
  if (v.value != 0 && reinterpret_cast<void*>(v.value) == consumer.handle()) return;
  order_streams(stream_from_value(v.value, device, "__cuda_array_interface__['stream']"), consumer);
}

// dl_device=(device_type, device_id) as a cunp device; BufferError for other device types.
std::optional<Device> dl_device_arg(nb::handle dl_device) {
  if (dl_device.is_none()) return std::nullopt;
  if (!PySequence_Check(dl_device.ptr()) || PySequence_Size(dl_device.ptr()) != 2) {
    throw TypeError("dl_device must be a (device_type, device_id) tuple or None, got " +
                    nb::cast<std::string>(nb::repr(dl_device)));
  }
  const int type = nb::cast<int>(nb::int_(dl_device[0]));
  const int id = nb::cast<int>(nb::int_(dl_device[1]));
  if (type == dlpack::kDLCPU) return Device::cpu();
  if (type == dlpack::kDLCUDA) return Device::cuda(id);
  throw BufferError("unsupported device requested: dl_device=(" + std::to_string(type) + ", " +
                    std::to_string(id) +
                    ") (cunp exports to (1, 0), the cpu, and (2, N), CUDA device N)");
}

// ndarray.__dlpack__: a "dltensor_versioned" capsule when the consumer reads DLPack
// 1.x (max_version >= (1, 0)), else a legacy "dltensor" capsule.
nb::object dlpack_capsule(const ndarray& a, nb::handle stream, nb::handle max_version,
                          nb::handle dl_device, nb::handle copy) {
  bool versioned = false;
  if (!max_version.is_none()) {
    if (!PySequence_Check(max_version.ptr()) || PySequence_Size(max_version.ptr()) != 2) {
      throw TypeError("max_version must be a (major, minor) tuple or None, got " +
                      nb::cast<std::string>(nb::repr(max_version)));
    }
    PyObject* major = PyTuple_CheckExact(max_version.ptr())
                          ? PyTuple_GET_ITEM(max_version.ptr(), 0)  // borrowed
                          : nullptr;
    versioned = major != nullptr && PyLong_CheckExact(major)
                    ? PyLong_AsLongLong(major) >= 1
                    : nb::cast<long long>(nb::int_(max_version[0])) >= 1;
    if (PyErr_Occurred()) throw nb::python_error();
  }
  DLPackExportOptions options;
  options.device = dl_device_arg(dl_device);
  options.copy = optional_bool(copy);
  const Device target = options.device.value_or(a.device());
  if (!stream.is_none()) {
    if (target.is_cpu()) {
      throw ValueError(
          "stream must be None for an export to the cpu (the cpu has no streams), got " +
          nb::cast<std::string>(nb::repr(stream)));
    }
    const StreamValue v = stream_value(stream, "stream");
    if (v.negative_one)
      options.synchronize = false;
    else
      options.stream = stream_from_value(v.value, a.device().index, "stream");
  }
  if (versioned) {
    dlpack::DLManagedTensorVersioned* t = to_dlpack(a, options);
    PyObject* cap = PyCapsule_New(t, kVersioned, &capsule_destructor);
    if (cap == nullptr) {
      t->deleter(t);
      throw nb::python_error();
    }
    return nb::steal(cap);
  }
  dlpack::DLManagedTensor* t = to_dlpack_legacy(a, options);
  PyObject* cap = PyCapsule_New(t, kLegacy, &capsule_destructor);
  if (cap == nullptr) {
    t->deleter(t);
    throw nb::python_error();
  }
  return nb::steal(cap);
}

// cunp.from_dlpack of a capsule: the array viewing its tensor, which it now owns (the
// capsule is renamed "used_..."). A capsule that fails to import stays unconsumed and
// frees its tensor itself.
ndarray consume_capsule(nb::handle capsule) {
  PyObject* c = capsule.ptr();
  if (!PyCapsule_CheckExact(c)) {
    throw TypeError("from_dlpack: expected an object with __dlpack__ or a DLPack capsule, got " +
                    py_type_name(capsule));
  }
  const char* name = PyCapsule_GetName(c);
  if (name == nullptr) {
    PyErr_Clear();
    name = "";
  }
  if (std::strcmp(name, kVersioned) == 0) {
    auto* t = static_cast<dlpack::DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, kVersioned));
    if (t == nullptr) throw nb::python_error();
    ndarray a = from_dlpack(t);
    PyCapsule_SetName(c, kUsedVersioned);  // cannot fail: the capsule is valid
    return a;
  }
  if (std::strcmp(name, kLegacy) == 0) {
    auto* t = static_cast<dlpack::DLManagedTensor*>(PyCapsule_GetPointer(c, kLegacy));
    if (t == nullptr) throw nb::python_error();
    ndarray a = from_dlpack(t);
    PyCapsule_SetName(c, kUsedLegacy);
    return a;
  }
  if (std::strcmp(name, kUsedVersioned) == 0 || std::strcmp(name, kUsedLegacy) == 0) {
    throw BufferError(
        std::string("from_dlpack: the DLPack capsule was already consumed (it is named '") + name +
        "'); a capsule can be imported once");
  }
  throw BufferError(std::string("from_dlpack: the capsule is named '") + name +
                    "', not 'dltensor_versioned' or 'dltensor'");
}

// An array over `ptr` (a foreign allocation) that keeps `owner` alive until its last
// view goes.
ndarray wrap_pointer(std::uintptr_t ptr, nb::handle shape, nb::handle dtype, nb::handle strides,
                     const std::string& device, nb::handle owner, bool readonly) {
  std::function<void()> release;
  if (!owner.is_none())
    release = [held = hold_object(owner)] {};  // dropping the lambda drops the owner
  std::optional<Strides> st;
  if (!strides.is_none()) st = to_shape(strides);
  ndarray a = from_pointer(reinterpret_cast<void*>(ptr), to_dtype(dtype), to_shape(shape), st,
                           Device::parse(device), std::move(release));
  if (readonly) a.set_writeable(false);
  return a;
}

// Interned names and constant objects of the fast paths, made once (never freed: they
// live as long as the interpreter that imported cunp).
struct Interned {
  PyObject* dlpack = PyUnicode_InternFromString("__dlpack__");
  PyObject* dlpack_device = PyUnicode_InternFromString("__dlpack_device__");
  PyObject* cai = PyUnicode_InternFromString("__cuda_array_interface__");
  PyObject* shape = PyUnicode_InternFromString("shape");
  PyObject* typestr = PyUnicode_InternFromString("typestr");
  PyObject* data = PyUnicode_InternFromString("data");
  PyObject* mask = PyUnicode_InternFromString("mask");
  PyObject* strides = PyUnicode_InternFromString("strides");
  PyObject* stream = PyUnicode_InternFromString("stream");
  // The keywords of a DLPack 1.x import, and of a pre-1.0 producer's retry: interned, as
  // a Python call's keywords are (argument parsers match them by identity first).
  PyObject* kw_import = PyTuple_Pack(3, stream, PyUnicode_InternFromString("max_version"),
                                     PyUnicode_InternFromString("copy"));
  PyObject* kw_stream = PyTuple_Pack(1, stream);
  PyObject* max_version = Py_BuildValue("(ii)", 1, 0);
};

const Interned& interned() {
  static const Interned* names = [] {
    auto* n = new Interned();
    if (!n->dlpack || !n->dlpack_device || !n->cai || !n->shape || !n->typestr || !n->data ||
        !n->mask || !n->strides || !n->stream || !n->kw_import || !n->kw_stream || !n->max_version)
      throw nb::python_error();
    return n;
  }();
  return *names;
}

// getattr(obj, name, None) as a new reference or null; errors other than AttributeError
// propagate.
nb::object optional_attr(nb::handle obj, PyObject* name) {
  PyObject* out = nullptr;
#if PY_VERSION_HEX >= 0x030D0000
  if (PyObject_GetOptionalAttr(obj.ptr(), name, &out) < 0) throw nb::python_error();
#else
  if (_PyObject_LookupAttr(obj.ptr(), name, &out) < 0) throw nb::python_error();
#endif
  return nb::steal(out);
}

// `dev_type, dev_id = (int(v) for v in obj)`, as Python unpacks it.
std::pair<long long, long long> int_pair(nb::handle obj) {
  PyObject* seq = PySequence_Fast(obj.ptr(), "cannot unpack non-iterable object");
  if (seq == nullptr) throw nb::python_error();
  nb::object held = nb::steal(seq);
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n != 2) {
    throw ValueError(n < 2
                         ? "not enough values to unpack (expected 2, got " + std::to_string(n) + ")"
                         : "too many values to unpack (expected 2)");
  }
  long long v[2];
  for (Py_ssize_t i = 0; i < 2; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    if (PyLong_CheckExact(item)) {
      v[i] = PyLong_AsLongLong(item);
    } else {
      nb::object as_int = nb::steal(PyNumber_Long(item));
      if (!as_int) throw nb::python_error();
      v[i] = PyLong_AsLongLong(as_int.ptr());
    }
    if (v[i] == -1 && PyErr_Occurred()) throw nb::python_error();
  }
  return {v[0], v[1]};
}

// Calls `fn(*args, **dict(zip(kwnames, args[nargs:])))`; null with the error set on failure.
PyObject* call_keywords(PyObject* fn, PyObject* const* args, std::size_t nargs, PyObject* kwnames) {
  return PyObject_Vectorcall(fn, args, nargs, kwnames);
}

// cunp.from_dlpack(x, copy=copy) without device=: the whole import in one call. A capsule
// is consumed; an object is asked for its device, then for a 1.x capsule on cunp's current
// stream of that device (a pre-1.0 producer that rejects the keywords, TypeError, is
// asked again with `stream` only). copy=True copies unless the producer made the copy.
nb::object import_dlpack(nb::handle x, nb::handle copy) {
  const bool want_copy = !copy.is_none() && PyObject_IsTrue(copy.ptr()) == 1;
  if (PyErr_Occurred()) throw nb::python_error();
  if (PyCapsule_CheckExact(x.ptr())) {
    ndarray a = consume_capsule(x);
    return nb::cast(want_copy ? a.copy(Order::K) : std::move(a));
  }
  const Interned& n = interned();
  nb::object device_fn = optional_attr(x, n.dlpack_device);
  nb::object dlpack_fn = device_fn ? optional_attr(x, n.dlpack) : nb::object();
  if (!device_fn || !dlpack_fn) {
    throw TypeError(
        "from_dlpack: expected an object with __dlpack__ and __dlpack_device__ methods or a "
        "DLPack capsule, got " +
        py_type_name(x));
  }
  nb::object device = nb::steal(PyObject_CallNoArgs(device_fn.ptr()));
  if (!device) throw nb::python_error();
  const auto [dev_type, dev_id] = int_pair(device);
  nb::object stream = nb::none();
  if (dev_type == dlpack::kDLCUDA || dev_type == dlpack::kDLCUDAManaged) {
    if (cuda_device_count() == 0) {
      throw BufferError("from_dlpack: the array is on CUDA device " + std::to_string(dev_id) +
                        ", but CUDA is unavailable (" + cuda_unavailable_reason() + ")");
    }
    const auto handle =
        reinterpret_cast<std::uintptr_t>(current_stream(static_cast<int>(dev_id)).handle());
    stream = nb::steal(PyLong_FromUnsignedLongLong(handle));
    if (!stream) throw nb::python_error();
  }
  PyObject* args[3] = {stream.ptr(), n.max_version, copy.ptr()};
  PyObject* capsule = call_keywords(dlpack_fn.ptr(), args, 0, n.kw_import);
  bool copied = copy.ptr() == Py_True;
  if (capsule == nullptr) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw nb::python_error();
    PyErr_Clear();
    // A producer from before DLPack 1.0: no max_version, dl_device or copy keywords.
    capsule = stream.is_none() ? PyObject_CallNoArgs(dlpack_fn.ptr())
                               : call_keywords(dlpack_fn.ptr(), args, 0, n.kw_stream);
    if (capsule == nullptr) throw nb::python_error();
    copied = false;
  }
  nb::object held = nb::steal(capsule);
  ndarray a = consume_capsule(held);
  return nb::cast(want_copy && !copied ? a.copy(Order::K) : std::move(a));
}

// The DType of a CUDA Array Interface typestr, cached by its text: `slow` (the Python
// check, which raises NumPy's and the protocol's errors) sees each new typestr once.
DType cai_dtype(nb::handle typestr, nb::handle slow) {
  static auto& cache = *new std::vector<std::pair<std::string, DType>>();
  Py_ssize_t len = 0;
  const char* text =
      PyUnicode_Check(typestr.ptr()) ? PyUnicode_AsUTF8AndSize(typestr.ptr(), &len) : nullptr;
  if (text == nullptr) PyErr_Clear();
  const std::string_view key =
      text ? std::string_view(text, static_cast<std::size_t>(len)) : std::string_view();
  if (text) {
    for (const auto& [s, dt] : cache) {
      if (s == key) return dt;
    }
  }
  const DType dt = to_dtype(slow(typestr));
  if (text && cache.size() < 64) cache.emplace_back(std::string(key), dt);
  return dt;
}

// A required entry of a CUDA Array Interface dict (ValueError naming a missing one).
PyObject* cai_entry(PyObject* iface, PyObject* key) {
  PyObject* v = PyDict_GetItemWithError(iface, key);  // borrowed
  if (v == nullptr) {
    if (PyErr_Occurred()) throw nb::python_error();
    throw ValueError("__cuda_array_interface__ has no '" + std::string(PyUnicode_AsUTF8(key)) +
                     "' entry");
  }
  return v;
}

// A cunp array viewing the memory `obj` describes with `iface` (its
// __cuda_array_interface__ dict), keeping `obj` alive; no copy. The array is on the CUDA
// device owning the pointer (one pointer-attribute query: the protocol does not name the
// device), read-only when the interface says so; a `stream` entry other than None makes
// cunp's current stream of that device wait for it (no event when it is that stream).
ndarray import_cai(nb::handle obj, nb::handle iface_h, nb::handle slow_dtype) {
  PyObject* iface = iface_h.ptr();
  if (!PyDict_Check(iface)) {
    throw TypeError("__cuda_array_interface__ must be a dict, got " + py_type_name(iface_h));
  }
  const Interned& n = interned();
  PyObject* shape_obj = cai_entry(iface, n.shape);
  Shape shape;
  {
    PyObject* seq = PySequence_Fast(shape_obj, "__cuda_array_interface__['shape'] must be a tuple");
    if (seq == nullptr) throw nb::python_error();
    nb::object held = nb::steal(seq);
    const Py_ssize_t nd = PySequence_Fast_GET_SIZE(seq);
    shape.resize(static_cast<std::size_t>(nd));
    for (Py_ssize_t i = 0; i < nd; ++i) {
      PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
      nb::object as_int =
          PyLong_CheckExact(item) ? nb::borrow(item) : nb::steal(PyNumber_Long(item));
      if (!as_int) throw nb::python_error();
      const long long v = PyLong_AsLongLong(as_int.ptr());
      if (v == -1 && PyErr_Occurred()) throw nb::python_error();
      shape[static_cast<std::size_t>(i)] = v;
    }
  }
  PyObject* typestr = cai_entry(iface, n.typestr);
  PyObject* data = cai_entry(iface, n.data);
  const auto [ptr_obj, readonly_obj] = [&] {
    PyObject* seq = PySequence_Fast(data, "cannot unpack non-iterable object");
    if (seq == nullptr) throw nb::python_error();
    nb::object held = nb::steal(seq);
    const Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len != 2) {
      throw ValueError(len < 2 ? "not enough values to unpack (expected 2, got " +
                                     std::to_string(len) + ")"
                               : "too many values to unpack (expected 2)");
    }
    return std::pair{nb::borrow(PySequence_Fast_GET_ITEM(seq, 0)),
                     nb::borrow(PySequence_Fast_GET_ITEM(seq, 1))};
  }();
  PyObject* mask = PyDict_GetItemWithError(iface, n.mask);
  if (mask == nullptr && PyErr_Occurred()) throw nb::python_error();
  if (mask != nullptr && mask != Py_None) {
    throw ValueError("__cuda_array_interface__ with a mask (a masked array) is not supported");
  }
  const DType dt = cai_dtype(typestr, slow_dtype);
  PyObject* strides_obj = PyDict_GetItemWithError(iface, n.strides);
  if (strides_obj == nullptr && PyErr_Occurred()) throw nb::python_error();
  std::optional<Strides> strides;
  if (strides_obj != nullptr && strides_obj != Py_None) strides = to_shape(strides_obj);
  std::uintptr_t ptr = 0;
  if (PyObject_IsTrue(ptr_obj.ptr()) == 1) {  // int(ptr or 0), an address: 0 to 2**64 - 1
    nb::object as_int = nb::steal(PyNumber_Long(ptr_obj.ptr()));
    if (!as_int) throw nb::python_error();
    const unsigned long long v = PyLong_AsUnsignedLongLong(as_int.ptr());
    if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
      PyErr_Clear();
      throw TypeError(
          "__cuda_array_interface__ data pointer must be an address (an int from 0 to "
          "2**64 - 1), got " +
          nb::cast<std::string>(nb::repr(ptr_obj)));
    }
    ptr = static_cast<std::uintptr_t>(v);
  }
  if (PyErr_Occurred()) throw nb::python_error();
  const int readonly = PyObject_IsTrue(readonly_obj.ptr());
  if (readonly < 0) throw nb::python_error();
  Device device = Device::cpu();
  if (ptr == 0 || shape_size(shape) == 0) {
    device = Device::cuda(current_cuda_device());
  } else {
    device = pointer_device(reinterpret_cast<void*>(ptr));
    if (device.is_cpu()) {
      char hex[32];
      std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(ptr));
      throw ValueError(std::string("__cuda_array_interface__ data pointer ") + hex +
                       " is not memory of a CUDA device");
    }
  }
  PyObject* stream = PyDict_GetItemWithError(iface, n.stream);
  if (stream == nullptr && PyErr_Occurred()) throw nb::python_error();
  if (stream != nullptr && stream != Py_None) wait_for_stream(stream, device.index);
  std::function<void()> release;
  if (!obj.is_none()) release = [held = hold_object(obj)] {};  // dropping the lambda drops obj
  ndarray a =
      from_pointer(reinterpret_cast<void*>(ptr), dt, shape, strides, device, std::move(release));
  if (readonly) a.set_writeable(false);
  return a;
}

// cunp.asarray's look at an object that may expose the CUDA Array Interface: the array
// viewing it, or None for host data (Python scalars and sequences and NumPy arrays are
// never asked, so the fast host path stays free of attribute lookups).
nb::object import_cai_object(nb::handle obj, nb::handle slow_dtype) {
  PyObject* o = obj.ptr();
  if (PyList_Check(o) || PyTuple_Check(o) || PyLong_Check(o) || PyFloat_Check(o) ||
      PyComplex_Check(o))
    return nb::none();
  static PyObject* np_ndarray = numpy().attr("ndarray").inc_ref().ptr();
  static PyObject* np_generic = numpy().attr("generic").inc_ref().ptr();
  if (PyObject_TypeCheck(o, reinterpret_cast<PyTypeObject*>(np_ndarray)) ||
      PyObject_TypeCheck(o, reinterpret_cast<PyTypeObject*>(np_generic)))
    return nb::none();
  nb::object iface = optional_attr(obj, interned().cai);
  if (!iface || iface.is_none()) return nb::none();
  return nb::cast(import_cai(obj, iface, slow_dtype));
}

// ndarray.__cuda_array_interface__ (version 3) of a CUDA array: the typestr and descr
// entry of each dtype are made once; AttributeError on the cpu.
nb::dict cai_export(const ndarray& a) {
  if (!a.device().is_cuda()) {
    throw AttributeError(
        "__cuda_array_interface__ is only defined for arrays on a CUDA device; this array is on " +
        a.device().str() + " (use __array_interface__ or __dlpack__)");
  }
  static PyObject* typestrs[32] = {};
  static PyObject* descrs[32] = {};
  const auto k = static_cast<std::size_t>(a.dtype());
  if (k >= 32) throw ValueError("__cuda_array_interface__: unknown dtype");
  if (typestrs[k] == nullptr) {
    nb::object typestr = dtype_object(a.dtype()).attr("str");
    descrs[k] = nb::make_tuple("", typestr).release().ptr();
    typestrs[k] = typestr.release().ptr();
  }
  nb::dict d;
  d["shape"] = shape_to_tuple(a.shape());
  d["typestr"] = nb::handle(typestrs[k]);
  nb::list descr;
  descr.append(nb::handle(descrs[k]));
  d["descr"] = descr;
  const auto ptr = a.size() ? reinterpret_cast<std::uintptr_t>(a.data()) : std::uintptr_t{0};
  d["data"] = nb::make_tuple(ptr, !a.writeable());
  d["strides"] = a.is_c_contiguous() ? nb::none() : nb::object(shape_to_tuple(a.strides()));
  d["version"] = 3;
  d["stream"] = reinterpret_cast<std::uintptr_t>(current_stream(a.device().index).handle());
  return d;
}

void bind_interop(nb::module_& m) {
  using nb::arg;
  m.def("_to_dlpack", &dlpack_capsule, arg("a"), arg("stream") = nb::none(),
        arg("max_version") = nb::none(), arg("dl_device") = nb::none(), arg("copy") = nb::none());
  m.def("_from_dlpack_capsule", &consume_capsule, arg("capsule"));
  m.def("_from_pointer", &wrap_pointer, arg("ptr"), arg("shape"), arg("dtype"),
        arg("strides").none(), arg("device"), arg("owner").none(), arg("readonly") = false);
  m.def("_pointer_device",
        [](std::uintptr_t ptr) { return pointer_device(reinterpret_cast<void*>(ptr)).str(); });
  // The consumer side of the CUDA Array Interface: cunp's current stream of `device`
  // waits for the producer's `stream` (None: nothing to wait for).
  m.def(
      "_wait_for_stream",
      [](nb::handle stream, int device) {
        if (!stream.is_none()) wait_for_stream(stream, device);
      },
      arg("stream").none(), arg("device"));
  // ndarray.__dlpack_device__: (kDLCPU, 0) or (kDLCUDA, N), no string in between.
  m.def("_dlpack_device", [](const ndarray& a) {
    const Device d = a.device();
    return d.is_cpu() ? nb::make_tuple(static_cast<int>(dlpack::kDLCPU), 0)
                      : nb::make_tuple(static_cast<int>(dlpack::kDLCUDA), d.index);
  });
  m.def("_cuda_array_interface", &cai_export, arg("a"));
  m.def("_from_dlpack", &import_dlpack, arg("x"), arg("copy").none());
  m.def("_from_cuda_array_interface", &import_cai, arg("obj").none(), arg("iface"),
        arg("slow_dtype"));
  m.def("_cuda_array_interface_import", &import_cai_object, arg("obj"), arg("slow_dtype"));
}

}  // namespace

CUNP_PY_BINDINGS(bind_interop);

}  // namespace cunp::py

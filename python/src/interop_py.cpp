// python/src/interop_py.cpp — DLPack capsules, arrays over foreign pointers and the
// stream handshakes behind cunp._interop (ndarray.__dlpack__, cunp.from_dlpack, the
// CUDA Array Interface) and cunp.cuda.UnownedMemory.
#include <Python.h>

#include <cstring>
#include <memory>

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
    versioned = nb::cast<long long>(nb::int_(max_version[0])) >= 1;
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
        if (stream.is_none()) return;
        const StreamValue v = stream_value(stream, "__cuda_array_interface__['stream']");
        if (v.negative_one) {
          throw ValueError(
              "__cuda_array_interface__['stream'] must be None, 1, 2 or a stream address, got -1");
        }
        order_streams(stream_from_value(v.value, device, "__cuda_array_interface__['stream']"),
                      current_stream(device));
      },
      arg("stream").none(), arg("device"));
}

}  // namespace

CUNP_PY_BINDINGS(bind_interop);

}  // namespace cunp::py

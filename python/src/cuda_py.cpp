// python/src/cuda_py.cpp — devices, streams, events, memory pools and runtime queries
// for cunp.cuda.
#include <cuda_runtime_api.h>
#include <nanobind/stl/function.h>
#include <nanobind/stl/string_view.h>

#include "convert.hpp"
#include "runtime/runtime.hpp"
#include "cunp/peer_access.hpp"

namespace cunp::py {
namespace {

void require_cuda() {
  if (cuda_device_count() == 0) {
    throw CudaError("cudaGetDeviceCount", 100, "CUDA is unavailable (" + cuda_unavailable_reason() + ")");
  }
}

// A strong reference to a Python callable that may be copied and dropped on any thread:
// CUDA runs host callbacks on a thread of its own, so the count changes under the GIL.
std::shared_ptr<PyObject> hold_callable(nb::handle fn) {
  return std::shared_ptr<PyObject>(fn.inc_ref().ptr(), [](PyObject* p) {
    nb::gil_scoped_acquire gil;
    Py_DECREF(p);
  });
}

// Calls a held Python callable under the GIL; its exception goes to sys.unraisablehook
// (there is no caller to raise it in).
template <typename... Args>
void call_held(const std::shared_ptr<PyObject>& fn, Args... args) {
  nb::gil_scoped_acquire gil;
  try {
    nb::handle(fn.get())(args...);
  } catch (nb::python_error& e) {
    e.discard_as_unraisable(nb::handle(fn.get()));
  }
}

// A DeviceMemoryPool as Python holds it (cunp.cuda.MemoryPool(allocator=)); the
// selection of set_allocator(pool.malloc) shares the pool.
struct PyDevicePool {
  std::shared_ptr<DeviceMemoryPool> pool;
};

// The byte array over a storage handed out by a pool: what a Memory holds on to.
ndarray storage_bytes(std::shared_ptr<Storage> storage) {
  const auto n = static_cast<std::int64_t>(storage->nbytes());
  return ndarray(std::move(storage), DType::UInt8, {n}, {1}, 0);
}

// A pool's segments from Python: malloc(nbytes) -> address (0 when out of memory) and
// free(address), both run under the GIL and skipped once the interpreter is gone.
PoolBacking python_backing(nb::handle malloc_fn, nb::handle free_fn) {
  PoolBacking b;
  b.malloc = [fn = hold_callable(malloc_fn)](std::size_t n, int) -> void* {
    nb::gil_scoped_acquire gil;
    nb::object r = nb::handle(fn.get())(n);
    return reinterpret_cast<void*>(nb::cast<std::uintptr_t>(r));
  };
  b.free = [fn = hold_callable(free_fn)](void* p, std::size_t, int) {
    if (!Py_IsInitialized()) return;
    call_held(fn, reinterpret_cast<std::uintptr_t>(p));
  };
  return b;
}

AllocatorKind parse_allocator(const std::string& s) {
  if (s == "pool") return AllocatorKind::Pool;
  if (s == "managed") return AllocatorKind::Managed;
  if (s == "direct") return AllocatorKind::Direct;
  if (s == "external") return AllocatorKind::External;
  throw ValueError("unknown allocator kind '" + s + "'");
}

}  // namespace

void bind_cuda(nb::module_& m) {
  using nb::arg;
  // ---- runtime
  m.def("getDeviceCount", [] {
    const int n = cuda_device_count();
    if (n == 0) {
      throw CudaError("cudaGetDeviceCount", 100, "CUDA is unavailable (" + cuda_unavailable_reason() + ")");
    }
    return n;
  });
  m.def("_device_count", &cuda_device_count);
  m.def("_cuda_unavailable_reason", &cuda_unavailable_reason);
  m.def("runtimeGetVersion", &cuda_runtime_version);
  m.def("driverGetVersion", [] {
    const int v = cuda_driver_version();
    if (v == 0) require_cuda();
    return v;
  });
  m.def("nvrtcGetVersion", [] {
    const int v = nvrtc_version();
    return nb::make_tuple(v / 1000, (v % 1000) / 10);
  });
  m.def("deviceSynchronize", [] {
    require_cuda();
    nb::gil_scoped_release nogil;
    device_synchronize();
  });
  m.def("getDevice", [] { return current_cuda_device(); });
  m.def("setDevice", [](int d) {
    check_device(Device::cuda(d));
    cuda::check_cuda(cudaSetDevice(d), "cudaSetDevice");
  });
  m.def("memGetInfo", [] {
    require_cuda();
    std::size_t free_b = 0, total_b = 0;
    cuda::check_cuda(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    return nb::make_tuple(free_b, total_b);
  });
  m.def("getDeviceProperties", [](int d) {
    check_device(Device::cuda(d));
    const cudaDeviceProp p = cuda::device_properties(d);
    nb::dict r;
    r["name"] = nb::bytes(p.name);
    r["totalGlobalMem"] = p.totalGlobalMem;
    r["multiProcessorCount"] = p.multiProcessorCount;
    r["major"] = p.major;
    r["minor"] = p.minor;
    r["l2CacheSize"] = p.l2CacheSize;
    r["maxThreadsPerBlock"] = p.maxThreadsPerBlock;
    r["sharedMemPerBlock"] = p.sharedMemPerBlock;
    r["warpSize"] = p.warpSize;
    return r;
  });
  m.def("deviceCanAccessPeer", [](int d, int peer) { return cuda_device_can_access_peer(d, peer) ? 1 : 0; },
        arg("device"), arg("peerDevice"));
  m.def("deviceEnablePeerAccess", [](int peer, unsigned flags) {
    if (flags != 0) throw ValueError("deviceEnablePeerAccess: flags must be 0");
    cuda_device_enable_peer_access(peer);
  }, arg("peerDevice"), arg("flags") = 0u);
  m.def("deviceDisablePeerAccess", &cuda_device_disable_peer_access, arg("peerDevice"));

  // ---- devices
  m.def("_current_device", [] { return current_device().str(); });
  m.def("_thread_device", []() -> std::optional<std::string> {
    const auto d = thread_device();
    if (!d) return std::nullopt;
    return d->str();
  });
  m.def("_set_thread_device", [](std::optional<std::string> d) {
    if (d) set_thread_device(Device::parse(*d));
    else set_thread_device(std::nullopt);
  });
  m.def("_device_synchronize", [](int d) {
    nb::gil_scoped_release nogil;
    cuda_device_synchronize(d);
  });
  m.def("_device_attributes", [](int d) {
    nb::dict r;
    for (const CudaDeviceAttribute& a : cuda_device_attributes(d)) {
      r[nb::str(a.name.data(), a.name.size())] = a.value;
    }
    return r;
  });
  m.def("_device_attribute", [](int d, std::string_view name) { return cuda_device_attribute(d, name); });
  m.def("_compute_capability", &cuda_compute_capability);
  m.def("_pci_bus_id", &cuda_pci_bus_id);
  m.def("_device_from_pci_bus_id", &cuda_device_from_pci_bus_id, arg("pci_bus_id"));
  m.def("_mem_info", [](int d) {
    const CudaMemInfo info = cuda_mem_info(d);
    return nb::make_tuple(info.free, info.total);
  });

  // ---- streams and events
  m.attr("_STREAM_LEGACY") = reinterpret_cast<std::uintptr_t>(cudaStreamLegacy);
  m.attr("_STREAM_PER_THREAD") = reinterpret_cast<std::uintptr_t>(cudaStreamPerThread);
  nb::class_<Stream>(m, "_Stream")
      .def_static("create", &Stream::create, arg("device") = -1, arg("non_blocking") = false, arg("priority") = 0)
      .def_static("null", &Stream::null, arg("device") = -1)
      .def_static("legacy", &Stream::legacy, arg("device") = -1)
      .def_static("per_thread", &Stream::per_thread, arg("device") = -1)
      .def_static("external", [](std::uintptr_t ptr, int device) {
        return Stream::external(reinterpret_cast<void*>(ptr), device);
      }, arg("ptr"), arg("device") = -1)
      .def_prop_ro("ptr", [](const Stream& s) { return reinterpret_cast<std::uintptr_t>(s.handle()); })
      .def_prop_ro("device_id", &Stream::device)
      .def_prop_ro("is_null", &Stream::is_null)
      .def_prop_ro("non_blocking", &Stream::non_blocking)
      .def("synchronize", [](const Stream& s) {
        nb::gil_scoped_release nogil;
        s.synchronize();
      })
      .def("query", &Stream::query)
      .def("wait_event", &Stream::wait_event)
      // fn() / fn(status) run on a CUDA host thread (Note [Host callbacks]).
      .def("launch_host_func", [](const Stream& s, nb::callable fn) {
        s.launch_host_func([held = hold_callable(fn)] { call_held(held); });
      })
      .def("add_callback", [](const Stream& s, nb::callable fn) {
        s.add_callback([held = hold_callable(fn)](int status) { call_held(held, status); });
      })
      .def("__eq__", [](const Stream& a, const Stream& b) { return a == b; });
  m.def("_current_stream", &current_stream, arg("device") = -1);
  m.def("_set_current_stream", &set_current_stream);
  nb::class_<Event>(m, "_Event")
      .def(nb::init<bool, bool, bool>(), arg("block") = false, arg("disable_timing") = false, arg("interprocess") = false)
      .def("record", [](const Event& e, std::optional<Stream> s) {
        if (s) e.record(*s);
        else e.record();
      }, arg("stream") = nb::none())
      .def("synchronize", [](const Event& e) {
        nb::gil_scoped_release nogil;
        e.synchronize();
      })
      .def("query", &Event::query)
      .def_prop_ro("ptr", [](const Event& e) { return reinterpret_cast<std::uintptr_t>(e.handle()); })
      .def_prop_ro("device_id", &Event::device);
  m.def("get_elapsed_time", &get_elapsed_time);

  // ---- memory
  nb::class_<MemoryPool>(m, "_MemoryPool")
      .def("used_bytes", &MemoryPool::used_bytes)
      .def("free_bytes", &MemoryPool::free_bytes)
      .def("total_bytes", &MemoryPool::total_bytes)
      .def("n_free_blocks", &MemoryPool::n_free_blocks)
      .def("free_all_blocks", [](MemoryPool& p) {
        nb::gil_scoped_release nogil;
        p.free_all_blocks();
      })
      .def("set_limit", &MemoryPool::set_limit)
      .def("get_limit", &MemoryPool::get_limit);
  m.def("_get_default_memory_pool", [](int d) -> MemoryPool& { return get_default_memory_pool(d); },
        arg("device") = -1, nb::rv_policy::reference);
  m.def("_get_default_pinned_memory_pool", []() -> MemoryPool& { return get_default_pinned_memory_pool(); },
        nb::rv_policy::reference);
  m.def("_set_pinned_memory_pooled", &set_pinned_memory_pooled);
  m.def("_pinned_memory_pooled", &pinned_memory_pooled);
  m.def("_set_allocator", [](const std::string& kind, nb::object malloc_fn, nb::object free_fn) {
    ExternalAllocator ext;
    if (!malloc_fn.is_none()) {
      // Python callbacks run with the GIL held; the C++ side may call them from any thread.
      ext.malloc = [malloc_fn](std::size_t n, int device, void* stream) -> void* {
        nb::gil_scoped_acquire gil;
        nb::object r = malloc_fn(n, device, reinterpret_cast<std::uintptr_t>(stream));
        return reinterpret_cast<void*>(nb::cast<std::uintptr_t>(r));
      };
      ext.free = [free_fn](void* p, std::size_t n, int device, void* stream) {
        nb::gil_scoped_acquire gil;
        free_fn(reinterpret_cast<std::uintptr_t>(p), n, device, reinterpret_cast<std::uintptr_t>(stream));
      };
    }
    set_allocator(parse_allocator(kind), ext);
  }, arg("kind"), arg("malloc") = nb::none(), arg("free") = nb::none());
  nb::class_<PyDevicePool>(m, "_DeviceMemoryPool")
      .def("__init__", [](PyDevicePool* self, const std::string& source, nb::object malloc_fn, nb::object free_fn) {
        PoolBacking backing;
        if (source == "managed") backing = managed_pool_backing();
        else if (source == "callback") backing = python_backing(malloc_fn, free_fn);
        else if (source != "cuda") throw ValueError("unknown pool source '" + source + "'");
        new (self) PyDevicePool{std::make_shared<DeviceMemoryPool>(std::move(backing))};
      }, arg("source"), arg("malloc") = nb::none(), arg("free") = nb::none())
      .def("used_bytes", [](const PyDevicePool& p) { return p.pool->used_bytes(); })
      .def("free_bytes", [](const PyDevicePool& p) { return p.pool->free_bytes(); })
      .def("total_bytes", [](const PyDevicePool& p) { return p.pool->total_bytes(); })
      .def("n_free_blocks", [](const PyDevicePool& p) { return p.pool->n_free_blocks(); })
      .def("free_all_blocks", [](PyDevicePool& p) { p.pool->free_all_blocks(); })
      .def("set_limit", [](PyDevicePool& p, std::size_t n) { p.pool->set_limit(n); })
      .def("get_limit", [](const PyDevicePool& p) { return p.pool->get_limit(); })
      .def("malloc", [](PyDevicePool& p, std::size_t n) { return storage_bytes(p.pool->malloc(n)); });
  m.def("_pool_malloc", [](MemoryPool& pool, std::size_t n) { return storage_bytes(pool_malloc(pool, n)); });
  m.def("_malloc_managed", [](std::size_t n) { return storage_bytes(malloc_managed(n)); });
  m.def("_set_allocator_pool", [](const PyDevicePool& p) { set_allocator(p.pool); });
  m.def("_get_allocator_kind", [] {
    switch (get_allocator_kind()) {
      case AllocatorKind::Pool: return "pool";
      case AllocatorKind::Managed: return "managed";
      case AllocatorKind::Direct: return "direct";
      case AllocatorKind::External: return "external";
    }
    return "pool";
  });
}

}  // namespace cunp::py

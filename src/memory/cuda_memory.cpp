// src/memory/cuda_memory.cpp — CUDA memory: the caching pool of each device, the
// pinned host pool, and the selectable device allocators (pool, managed, direct,
// external).
#include "memory/cuda_memory.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "runtime/check.hpp"
#include "cunp/error.hpp"
#include "cunp/stream.hpp"
#include "runtime/env.hpp"

namespace cunp::memory {

// Note [Leaked pools]: the device pools and the pinned pool are created with `new`
// and never destroyed. A Storage's release callback points at its pool, and storages
// can be destroyed very late: by other static destructors, by the Python interpreter
// at exit, from any thread. Destroying a pool at static-destruction time would leave
// those callbacks pointing at freed memory, and would also call cudaFree after the
// CUDA runtime may already have shut down. The process exit returns the memory anyway.

namespace {

constexpr const char* kLimitVariable = "CUNP_GPU_MEMORY_LIMIT";

using cuda::check_cuda;

// Runs `release` and ignores a CUDA runtime that is already shutting down: memory
// freed by static destructors after cudart has unloaded goes back with the process.
template <class F>
void release_ignoring_shutdown(F&& release) {
  try {
    release();
  } catch (const CudaError& e) {
    if (e.code() != static_cast<int>(cudaErrorCudartUnloading)) throw;
  }
}

void require_cuda() {
  if (cuda_device_count() > 0) return;
  throw CudaError("cudaGetDeviceCount", static_cast<int>(cudaErrorNoDevice),
                  "no CUDA device/driver is available (" + cuda_unavailable_reason() + ")");
}

// Resolves -1 to the current CUDA device and checks that the device exists.
int resolve_device(int device) {
  require_cuda();
  if (device == -1) device = current_cuda_device();
  const int count = cuda_device_count();
  if (device < 0 || device >= count) {
    throw ValueError("invalid CUDA device " + std::to_string(device) + ": " +
                     std::to_string(count) + " device(s) available");
  }
  return device;
}

// Makes `device` the current CUDA device for the scope, restoring the previous one.
class CudaDeviceScope {
 public:
  explicit CudaDeviceScope(int device) {
    int current = 0;
    check_cuda(cudaGetDevice(&current), "cudaGetDevice");
    if (current != device) {
      check_cuda(cudaSetDevice(device), "cudaSetDevice");
      previous_ = current;
    }
  }
  ~CudaDeviceScope() {
    // A destructor cannot throw; restoring a device that was current a moment ago
    // only fails when the runtime itself is gone.
    if (previous_ >= 0) (void)cudaSetDevice(previous_);
  }
  CudaDeviceScope(const CudaDeviceScope&) = delete;
  CudaDeviceScope& operator=(const CudaDeviceScope&) = delete;

 private:
  int previous_ = -1;
};

// cudaMalloc/cudaFree (or a PoolBacking's functions) on one device, frees ordered by
// CUDA events.
class CudaDeviceBackend final : public Backend {
 public:
  explicit CudaDeviceBackend(int device, PoolBacking backing = {}) : device_(device), backing_(std::move(backing)) {}

  void* raw_malloc(std::size_t nbytes, StreamHandle) override {
    CudaDeviceScope scope(device_);
    if (backing_.malloc) return backing_.malloc(nbytes, device_);
    void* ptr = nullptr;
    const cudaError_t status = cudaMalloc(&ptr, nbytes);
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      return nullptr;
    }
    check_cuda(status, "cudaMalloc");
    return ptr;
  }

  void raw_free(void* ptr, std::size_t nbytes) override {
    release_ignoring_shutdown([&] {
      CudaDeviceScope scope(device_);
      if (backing_.free) backing_.free(ptr, nbytes, device_);
      else check_cuda(cudaFree(ptr), "cudaFree");
    });
  }

  EventHandle record_event(StreamHandle stream) override {
    CudaDeviceScope scope(device_);
    cudaEvent_t event = nullptr;
    if (events_.empty()) {
      check_cuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming),
                 "cudaEventCreateWithFlags");
    } else {
      event = events_.back();
      events_.pop_back();
    }
    const cudaError_t status = cudaEventRecord(event, static_cast<cudaStream_t>(stream));
    if (status != cudaSuccess) {
      release_event(event);
      check_cuda(status, "cudaEventRecord");
    }
    return event;
  }

  bool event_completed(EventHandle event) override {
    const cudaError_t status = cudaEventQuery(static_cast<cudaEvent_t>(event));
    if (status == cudaErrorNotReady) {
      (void)cudaGetLastError();
      return false;
    }
    check_cuda(status, "cudaEventQuery");
    return true;
  }

  void wait_event(EventHandle event) override {
    check_cuda(cudaEventSynchronize(static_cast<cudaEvent_t>(event)), "cudaEventSynchronize");
  }

  // Events are kept for reuse: creating one per free would cost a driver call each.
  void release_event(EventHandle event) noexcept override {
    try {
      events_.push_back(static_cast<cudaEvent_t>(event));
    } catch (...) {
      (void)cudaEventDestroy(static_cast<cudaEvent_t>(event));
    }
  }

  std::string where() const override { return "cuda:" + std::to_string(device_); }

 private:
  int device_;
  PoolBacking backing_;
  std::vector<cudaEvent_t> events_;  // guarded by the allocator's lock (see Backend)
};

// Page-locked host memory. Not stream-ordered: a pinned buffer is the caller's to
// keep alive until the transfers that read or write it have finished.
class PinnedHostBackend final : public Backend {
 public:
  void* raw_malloc(std::size_t nbytes, StreamHandle) override {
    require_cuda();
    void* ptr = nullptr;
    const cudaError_t status = cudaHostAlloc(&ptr, nbytes, cudaHostAllocPortable);
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      return nullptr;
    }
    check_cuda(status, "cudaHostAlloc");
    return ptr;
  }
  void raw_free(void* ptr, std::size_t) override {
    release_ignoring_shutdown([&] { check_cuda(cudaFreeHost(ptr), "cudaFreeHost"); });
  }
  EventHandle record_event(StreamHandle) override { return nullptr; }
  bool event_completed(EventHandle) override { return true; }
  void wait_event(EventHandle) override {}
  void release_event(EventHandle) noexcept override {}
  std::string where() const override { return "pinned host memory"; }
};

struct DevicePools {
  explicit DevicePools(int count) : slots(static_cast<std::size_t>(count)) {}
  std::mutex mutex;  // taken only to create a pool
  std::vector<std::atomic<CachingAllocator*>> slots;
};

DevicePools& device_pools() {
  static DevicePools* pools = new DevicePools(cuda_device_count());  // Note [Leaked pools]
  return *pools;
}

// The pool of `device` if it was created, without creating it.
CachingAllocator* existing_device_pool(int device) {
  return device_pools().slots[static_cast<std::size_t>(device)].load(std::memory_order_acquire);
}

std::size_t initial_limit(int device) {
  const char* text = env_or_cupy("GPU_MEMORY_LIMIT");  // kLimitVariable, or CuPy's name
  if (text == nullptr || *text == '\0') return 0;
  std::size_t device_total = 0;
  if (std::string_view(text).find('%') != std::string_view::npos) {
    CudaDeviceScope scope(device);
    std::size_t free_bytes = 0;
    check_cuda(cudaMemGetInfo(&free_bytes, &device_total), "cudaMemGetInfo");
  }
  return parse_memory_limit(text, device_total);
}

struct AllocatorSelection {
  std::atomic<AllocatorKind> kind{AllocatorKind::Pool};
  std::atomic<bool> has_pool{false};  // `pool` is set: read without the lock on the hot path
  std::mutex mutex;  // guards `external` and `pool`
  std::shared_ptr<const ExternalAllocator> external;
  std::shared_ptr<DeviceMemoryPool> pool;  // set_allocator(pool)
};

AllocatorSelection& allocator_selection() {
  static AllocatorSelection* selection = new AllocatorSelection;  // outlives every storage
  return *selection;
}

std::shared_ptr<Storage> make_storage(void* ptr, std::size_t nbytes, Device device,
                                      std::function<void(void*)> release) {
  try {
    return std::make_shared<Storage>(ptr, nbytes, device, release);
  } catch (...) {
    release(ptr);
    throw;
  }
}

// A block of `pool` (a device's caching allocator) as a storage on `stream`, which the
// storage keeps alive (Note [Blocks keep their stream alive]); `keep` is held as long as
// the block is (the DeviceMemoryPool owning `pool`).
std::shared_ptr<Storage> pool_storage(CachingAllocator* pool, int index, std::size_t nbytes, const Stream& owner,
                                      std::shared_ptr<const void> keep = nullptr) {
  void* ptr = pool->allocate(nbytes, owner.handle());
  return make_storage(ptr, nbytes, Device::cuda(index), [pool, owner, keep](void* p) {
    release_ignoring_shutdown([&] { pool->deallocate(p); });
  });
}

// Direct and managed allocations: one driver call each, and when the device is full,
// the default pool's cached segments are given back before the one retry.
void* allocate_uncached(int device, std::size_t nbytes, bool managed) {
  const char* call = managed ? "cudaMallocManaged" : "cudaMalloc";
  const std::size_t size = std::max<std::size_t>(nbytes, 1);
  for (int attempt = 0; attempt < 2; ++attempt) {
    void* ptr = nullptr;
    const cudaError_t status =
        managed ? cudaMallocManaged(&ptr, size, cudaMemAttachGlobal) : cudaMalloc(&ptr, size);
    if (status != cudaErrorMemoryAllocation) {
      check_cuda(status, call);
      return ptr;
    }
    (void)cudaGetLastError();
    if (attempt == 0) {
      if (CachingAllocator* pool = existing_device_pool(device)) pool->free_all_blocks();
    }
  }
  throw OutOfMemoryError(nbytes, 0, 0, "cuda:" + std::to_string(device) + " (" + call + ")");
}

}  // namespace

std::size_t parse_memory_limit(std::string_view text, std::size_t device_total) {
  const auto bad = [&]() {
    return ValueError(std::string(kLimitVariable) +
                      " must be a number of bytes (\"1073741824\") or a percentage of the "
                      "device's memory (\"50%\"), got \"" +
                      std::string(text) + "\"");
  };
  std::string_view s = text;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (s.empty()) throw bad();
  const char* end = s.data() + s.size();
  if (s.back() == '%') {
    --end;
    double percent = 0;
    const auto [p, ec] = std::from_chars(s.data(), end, percent, std::chars_format::fixed);
    if (ec != std::errc() || p != end || !std::isfinite(percent) || percent < 0 || percent > 100) {
      throw bad();
    }
    return static_cast<std::size_t>(static_cast<long double>(device_total) * percent / 100);
  }
  unsigned long long bytes = 0;
  const auto [p, ec] = std::from_chars(s.data(), end, bytes);
  if (ec != std::errc() || p != end) throw bad();
  return static_cast<std::size_t>(bytes);
}

CachingAllocator& device_pool(int device) {
  device = resolve_device(device);
  DevicePools& pools = device_pools();
  auto& slot = pools.slots[static_cast<std::size_t>(device)];
  if (CachingAllocator* pool = slot.load(std::memory_order_acquire)) return *pool;
  std::lock_guard lock(pools.mutex);
  if (CachingAllocator* pool = slot.load(std::memory_order_relaxed)) return *pool;
  // Note [Leaked pools]
  auto* pool =
      new CachingAllocator(std::make_unique<CudaDeviceBackend>(device), initial_limit(device));
  slot.store(pool, std::memory_order_release);
  return *pool;
}

CachingAllocator& pinned_pool() {
  static CachingAllocator* pool =
      new CachingAllocator(std::make_unique<PinnedHostBackend>());  // Note [Leaked pools]
  return *pool;
}

// Whether pinned allocations go through pinned_pool() (true) or straight to
// cudaHostAlloc/cudaFreeHost (cupy.cuda.set_pinned_memory_allocator(None)).
std::atomic<bool>& pinned_pooled() {
  static std::atomic<bool> pooled{true};
  return pooled;
}

std::shared_ptr<Storage> allocate_cuda(Device device, std::size_t nbytes) {
  const int index = resolve_device(device.index);
  const Device where = Device::cuda(index);
  CudaDeviceScope scope(index);
  // Note [Blocks keep their stream alive]: freeing a block records an event on the
  // stream it was allocated on. If that stream had been destroyed in the meantime the
  // driver would be handed a dangling handle (seen: a segfault inside cuEventRecord
  // on the H200), so each storage holds a reference to its stream until it is freed.
  const Stream owner = current_stream(index);
  StreamHandle stream = owner.handle();
  AllocatorSelection& selection = allocator_selection();
  const AllocatorKind kind = selection.kind.load(std::memory_order_acquire);
  switch (kind) {
    case AllocatorKind::Pool: {
      if (selection.has_pool.load(std::memory_order_acquire)) {
        std::shared_ptr<DeviceMemoryPool> selected;
        {
          std::lock_guard lock(selection.mutex);
          selected = selection.pool;
        }
        if (selected) return selected->malloc(nbytes);
      }
      return pool_storage(&device_pool(index), index, nbytes, owner);
    }
    case AllocatorKind::Managed:
    case AllocatorKind::Direct: {
      void* ptr = allocate_uncached(index, nbytes, kind == AllocatorKind::Managed);
      return make_storage(ptr, nbytes, where, [index](void* p) {
        release_ignoring_shutdown([&] {
          CudaDeviceScope release_scope(index);
          check_cuda(cudaFree(p), "cudaFree");
        });
      });
    }
    case AllocatorKind::External: {
      std::shared_ptr<const ExternalAllocator> external;
      {
        std::lock_guard lock(selection.mutex);
        external = selection.external;
      }
      void* ptr = external->malloc(nbytes, index, stream);
      if (ptr == nullptr) {
        throw OutOfMemoryError(nbytes, 0, 0, where.str() + " (external allocator)");
      }
      return make_storage(ptr, nbytes, where, [external, nbytes, index, stream, owner](void* p) {
        external->free(p, nbytes, index, stream);
      });
    }
  }
  throw ValueError("unknown allocator kind");
}

}  // namespace cunp::memory

namespace cunp {

std::shared_ptr<Storage> allocate_pinned(std::size_t nbytes) {
  if (!memory::pinned_pooled().load(std::memory_order_acquire)) {
    auto backend = std::make_shared<memory::PinnedHostBackend>();
    void* ptr = nbytes == 0 ? nullptr : backend->raw_malloc(nbytes, nullptr);
    if (nbytes != 0 && ptr == nullptr) throw OutOfMemoryError(nbytes, 0, 0, "pinned host memory (no pool)");
    auto storage = memory::make_storage(ptr, nbytes, Device::cpu(), [backend, nbytes](void* p) {
      if (p != nullptr) backend->raw_free(p, nbytes);
    });
    storage->set_pinned(true);
    return storage;
  }
  memory::CachingAllocator& pool = memory::pinned_pool();
  void* ptr = pool.allocate(nbytes, nullptr);
  auto storage = memory::make_storage(ptr, nbytes, Device::cpu(), [&pool](void* p) {
    memory::release_ignoring_shutdown([&] { pool.deallocate(p); });
  });
  storage->set_pinned(true);
  return storage;
}

MemoryPool& get_default_memory_pool(int device) { return memory::device_pool(device); }

MemoryPool& get_default_pinned_memory_pool() { return memory::pinned_pool(); }

void set_pinned_memory_pooled(bool pooled) { memory::pinned_pooled().store(pooled, std::memory_order_release); }

bool pinned_memory_pooled() { return memory::pinned_pooled().load(std::memory_order_acquire); }

void set_allocator(AllocatorKind kind, ExternalAllocator external) {
  auto& selection = memory::allocator_selection();
  if (kind == AllocatorKind::External && (!external.malloc || !external.free)) {
    throw ValueError("set_allocator: an external allocator needs both malloc and free");
  }
  std::shared_ptr<DeviceMemoryPool> dropped;  // released after the lock
  {
    std::lock_guard lock(selection.mutex);
    if (kind == AllocatorKind::External) {
      selection.external = std::make_shared<const ExternalAllocator>(std::move(external));
    }
    dropped = std::move(selection.pool);
    selection.pool = nullptr;
    selection.has_pool.store(false, std::memory_order_release);
  }
  selection.kind.store(kind, std::memory_order_release);
}

void set_allocator(std::shared_ptr<DeviceMemoryPool> pool) {
  auto& selection = memory::allocator_selection();
  std::shared_ptr<DeviceMemoryPool> dropped;
  {
    std::lock_guard lock(selection.mutex);
    dropped = std::move(selection.pool);
    selection.pool = std::move(pool);
    selection.has_pool.store(selection.pool != nullptr, std::memory_order_release);
  }
  selection.kind.store(AllocatorKind::Pool, std::memory_order_release);
}

std::shared_ptr<DeviceMemoryPool> get_allocator_pool() {
  auto& selection = memory::allocator_selection();
  std::lock_guard lock(selection.mutex);
  return selection.pool;
}

// ---- pools of their own (cupy.cuda.MemoryPool(allocator=))

struct DeviceMemoryPool::State {
  PoolBacking backing;
  std::mutex mutex;  // guards `pools` (their slots) and `limit`
  std::vector<std::unique_ptr<memory::CachingAllocator>> pools;  // by device, created on first use
  std::size_t limit = 0;

  memory::CachingAllocator* existing(int device) {
    std::lock_guard lock(mutex);
    const auto i = static_cast<std::size_t>(device);
    return i < pools.size() ? pools[i].get() : nullptr;
  }
  memory::CachingAllocator& pool(int device) {
    std::lock_guard lock(mutex);
    const auto i = static_cast<std::size_t>(device);
    if (pools.size() <= i) pools.resize(i + 1);
    if (!pools[i]) {
      pools[i] = std::make_unique<memory::CachingAllocator>(
          std::make_unique<memory::CudaDeviceBackend>(device, backing), limit);
    }
    return *pools[i];
  }
  template <class F>
  void each(F&& f) {
    std::lock_guard lock(mutex);
    for (auto& p : pools) {
      if (p) f(*p);
    }
  }
};

DeviceMemoryPool::DeviceMemoryPool(PoolBacking backing) : state_(std::make_shared<State>()) {
  if (static_cast<bool>(backing.malloc) != static_cast<bool>(backing.free)) {
    throw ValueError("DeviceMemoryPool: a backing needs both malloc and free");
  }
  state_->backing = std::move(backing);
}

namespace {
template <class F>
std::size_t current_statistic(DeviceMemoryPool::State& state, F&& f) {
  memory::CachingAllocator* pool = state.existing(memory::resolve_device(-1));
  return pool ? f(*pool) : 0;
}
}  // namespace

std::size_t DeviceMemoryPool::used_bytes() const {
  return current_statistic(*state_, [](auto& p) { return p.used_bytes(); });
}
std::size_t DeviceMemoryPool::free_bytes() const {
  return current_statistic(*state_, [](auto& p) { return p.free_bytes(); });
}
std::size_t DeviceMemoryPool::total_bytes() const {
  return current_statistic(*state_, [](auto& p) { return p.total_bytes(); });
}
std::size_t DeviceMemoryPool::n_free_blocks() const {
  return current_statistic(*state_, [](auto& p) { return p.n_free_blocks(); });
}
void DeviceMemoryPool::free_all_blocks() {
  state_->each([](memory::CachingAllocator& p) { p.free_all_blocks(); });
}
void DeviceMemoryPool::set_limit(std::size_t bytes) {
  std::lock_guard lock(state_->mutex);
  state_->limit = bytes;
  for (auto& p : state_->pools) {
    if (p) p->set_limit(bytes);
  }
}
std::size_t DeviceMemoryPool::get_limit() const {
  std::lock_guard lock(state_->mutex);
  return state_->limit;
}

std::shared_ptr<Storage> DeviceMemoryPool::malloc(std::size_t nbytes) {
  const int index = memory::resolve_device(-1);
  memory::CudaDeviceScope scope(index);
  return memory::pool_storage(&state_->pool(index), index, nbytes, current_stream(index), state_);
}

PoolBacking managed_pool_backing() {
  PoolBacking b;
  b.malloc = [](std::size_t nbytes, int) -> void* {
    void* ptr = nullptr;
    const cudaError_t status = cudaMallocManaged(&ptr, std::max<std::size_t>(nbytes, 1), cudaMemAttachGlobal);
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      return nullptr;
    }
    cuda::check_cuda(status, "cudaMallocManaged");
    return ptr;
  };
  b.free = [](void* ptr, std::size_t, int) { cuda::check_cuda(cudaFree(ptr), "cudaFree"); };
  return b;
}

std::shared_ptr<Storage> pool_malloc(MemoryPool& pool, std::size_t nbytes) {
  if (auto* own = dynamic_cast<DeviceMemoryPool*>(&pool)) return own->malloc(nbytes);
  const int count = cuda_device_count();
  for (int d = 0; d < count; ++d) {
    memory::CachingAllocator* default_pool = memory::existing_device_pool(d);
    if (default_pool == &pool) {
      memory::CudaDeviceScope scope(d);
      return memory::pool_storage(default_pool, d, nbytes, current_stream(d));
    }
  }
  throw ValueError("pool_malloc: the pool is neither a DeviceMemoryPool nor a device's default memory pool");
}

std::shared_ptr<Storage> malloc_managed(std::size_t nbytes) {
  const int index = memory::resolve_device(-1);
  memory::CudaDeviceScope scope(index);
  void* ptr = memory::allocate_uncached(index, nbytes, true);
  return memory::make_storage(ptr, nbytes, Device::cuda(index), [index](void* p) {
    memory::release_ignoring_shutdown([&] {
      memory::CudaDeviceScope release_scope(index);
      cuda::check_cuda(cudaFree(p), "cudaFree");
    });
  });
}

AllocatorKind get_allocator_kind() {
  return memory::allocator_selection().kind.load(std::memory_order_acquire);
}

}  // namespace cunp

// cunp/memory.hpp — buffers, the caching device pool, the pinned host pool, and
// pluggable allocators.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include "cunp/device.hpp"

namespace cunp {

// One contiguous allocation on one device; arrays share it through shared_ptr.
// The release callback returns the memory to wherever it came from.
class Storage {
 public:
  Storage(void* ptr, std::size_t nbytes, Device device, std::function<void(void*)> release);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const noexcept { return ptr_; }
  std::size_t nbytes() const noexcept { return nbytes_; }
  Device device() const noexcept { return device_; }
  // True for host memory that is page-locked (pinned): transfers from it are async.
  bool pinned() const noexcept { return pinned_; }
  void set_pinned(bool pinned) noexcept { pinned_ = pinned; }

 private:
  void* ptr_;
  std::size_t nbytes_;
  Device device_;
  bool pinned_ = false;
  std::function<void(void*)> release_;
};

// Allocates `nbytes` on `device`: aligned host memory for cpu, the device's current
// CUDA allocator (the caching pool by default) on the current stream for cuda.
std::shared_ptr<Storage> allocate(Device device, std::size_t nbytes);
// Allocates page-locked host memory from the pinned pool.
std::shared_ptr<Storage> allocate_pinned(std::size_t nbytes);

// Whether allocate_pinned takes memory from the pinned pool (true, the default) or
// calls cudaHostAlloc/cudaFreeHost for each buffer. Python:
// cunp.cuda.set_pinned_memory_allocator(None | PinnedMemoryPool().malloc).
void set_pinned_memory_pooled(bool pooled);
bool pinned_memory_pooled();

// Statistics and control of a caching pool. Python: cunp.cuda.MemoryPool.
class MemoryPool {
 public:
  virtual ~MemoryPool() = default;
  virtual std::size_t used_bytes() const = 0;   // bytes handed out and not yet freed
  virtual std::size_t free_bytes() const = 0;   // bytes cached in free blocks
  virtual std::size_t total_bytes() const = 0;  // used + free: all memory held
  virtual std::size_t n_free_blocks() const = 0;
  // Returns every wholly free segment to the driver.
  virtual void free_all_blocks() = 0;
  // Caps total_bytes(); 0 means no limit.
  virtual void set_limit(std::size_t bytes) = 0;
  virtual std::size_t get_limit() const = 0;
};

// The caching pool of a CUDA device (-1: the current one). The limit starts from
// CUNP_GPU_MEMORY_LIMIT (bytes, or "N%" of the device's memory).
MemoryPool& get_default_memory_pool(int device = -1);
// The pool of page-locked host memory used for transfers.
MemoryPool& get_default_pinned_memory_pool();

// Where a DeviceMemoryPool gets its segments (CuPy's MemoryPool(allocator=)): `malloc`
// returns device memory of `nbytes` usable on CUDA device `device` (current during the
// call), or nullptr when it has none left; `free` gives back what malloc returned.
struct PoolBacking {
  std::function<void*(std::size_t nbytes, int device)> malloc;
  std::function<void(void* ptr, std::size_t nbytes, int device)> free;
};
// cudaMallocManaged / cudaFree as a PoolBacking (CuPy's MemoryPool(malloc_managed)).
PoolBacking managed_pool_backing();

// A caching pool of CUDA device memory of its own (cupy.cuda.MemoryPool): one
// stream-ordered caching allocator per device, created on first use, whose segments
// come from `backing` (cudaMalloc/cudaFree when it is empty). Select it for every
// array with set_allocator(pool). Creating one needs no GPU; the statistics and the
// limit are those of the current device's allocator (CudaError without a GPU, as the
// default pool's). Storages from the pool keep it alive.
class DeviceMemoryPool final : public MemoryPool {
 public:
  explicit DeviceMemoryPool(PoolBacking backing = {});
  std::size_t used_bytes() const override;
  std::size_t free_bytes() const override;
  std::size_t total_bytes() const override;
  std::size_t n_free_blocks() const override;
  void free_all_blocks() override;  // of every device
  void set_limit(std::size_t bytes) override;  // of every device
  std::size_t get_limit() const override;
  // `nbytes` on the current CUDA device, ordered on its current stream (MemoryPool.malloc).
  std::shared_ptr<Storage> malloc(std::size_t nbytes);

  struct State;

 private:
  std::shared_ptr<State> state_;
};

// Allocates `nbytes` from `pool`, a DeviceMemoryPool (on the current device) or the
// default pool of a device (on that device), on the device's current stream (CuPy's
// MemoryPool.malloc). ValueError for other pools (the pinned one).
std::shared_ptr<Storage> pool_malloc(MemoryPool& pool, std::size_t nbytes);
// `nbytes` of managed (unified) memory for the current CUDA device, no pool
// (cupy.cuda.malloc_managed).
std::shared_ptr<Storage> malloc_managed(std::size_t nbytes);

// Where CUDA device allocations come from.
struct ExternalAllocator {
  // Returns device memory of at least nbytes on `device`, ordered on `stream`
  // (a cudaStream_t), or nullptr when out of memory.
  std::function<void*(std::size_t nbytes, int device, void* stream)> malloc;
  std::function<void(void* ptr, std::size_t nbytes, int device, void* stream)> free;
};
enum class AllocatorKind { Pool, Managed, Direct, External };
// Selects the allocator for all CUDA devices. Pool: the caching pool (default).
// Managed: cudaMallocManaged, no pool. Direct: cudaMalloc/cudaFree each time.
// External: the given callbacks (the way RMM plugs into CuPy).
void set_allocator(AllocatorKind kind, ExternalAllocator external = {});
// Selects `pool` for all CUDA devices (AllocatorKind::Pool with the pool's own
// allocators; nullptr: the default pools). The selection keeps the pool alive.
void set_allocator(std::shared_ptr<DeviceMemoryPool> pool);
AllocatorKind get_allocator_kind();
// The pool selected by set_allocator(pool); nullptr for the default pools or another kind.
std::shared_ptr<DeviceMemoryPool> get_allocator_pool();

}  // namespace cunp

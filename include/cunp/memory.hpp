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
AllocatorKind get_allocator_kind();

}  // namespace cunp

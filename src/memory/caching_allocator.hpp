// src/memory/caching_allocator.hpp — a stream-ordered caching allocator over any
// backend that can hand out raw memory and order frees on streams. The CUDA device
// pools and the pinned host pool (src/memory/cuda_memory.cpp) are instances of it;
// the tests drive it with a fake backend.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "cunp/memory.hpp"

namespace cunp::memory {

// Opaque handles: a cudaStream_t / cudaEvent_t for the CUDA backend, anything the
// backend likes for others. A null stream is a valid stream (the legacy default one).
using StreamHandle = void*;
using EventHandle = void*;

// Where a CachingAllocator gets its memory from, and how it orders frees on streams.
//
// raw_malloc and raw_free are called without the allocator's lock held and may run
// concurrently from several threads; every other hook is called with the lock held,
// so a backend needs no locking of its own for its event bookkeeping.
class Backend {
 public:
  virtual ~Backend() = default;
  // Returns `nbytes` of memory usable on `stream`, or nullptr when the device is out
  // of memory. Throws (CudaError, ...) for any other failure.
  virtual void* raw_malloc(std::size_t nbytes, StreamHandle stream) = 0;
  // Returns memory from raw_malloc. Called only once every event of the memory has
  // completed.
  virtual void raw_free(void* ptr, std::size_t nbytes) = 0;
  // Records an event on `stream` behind the work enqueued so far. nullptr means the
  // memory is reusable on every stream at once (a backend without stream ordering).
  virtual EventHandle record_event(StreamHandle stream) = 0;
  // True when the work before `event` has finished.
  virtual bool event_completed(EventHandle event) = 0;
  // Blocks until `event` has completed.
  virtual void wait_event(EventHandle event) = 0;
  // Gives back an event from record_event; the allocator never uses it again.
  virtual void release_event(EventHandle event) noexcept = 0;
  // Names the memory in messages: "cuda:0", "pinned host memory".
  virtual std::string where() const = 0;
};

// Note [Caching allocator layout]: memory comes from the backend in segments; a
// segment is cut into blocks that are either handed out or free. Requests are rounded
// up to kRounding bytes. Requests of at most kSmallRequest bytes live in a pool of
// kSmallSegment-byte segments, larger ones in a separate pool whose segments are the
// request rounded up to kLargeRounding, so that small, short-lived buffers never
// fragment the segments that big arrays need. A request takes the smallest free block
// that fits (best fit) and splits it when the remainder is worth keeping; a freed
// block merges with free neighbours of its segment (see Note [Stream-ordered reuse]
// in caching_allocator.cpp for which neighbours). Blocks never span segments, so a
// wholly free segment is a single run of free blocks and can go back to the backend.
class CachingAllocator final : public MemoryPool {
 public:
  static constexpr std::size_t kRounding = 512;
  static constexpr std::size_t kSmallRequest = std::size_t{1} << 20;   // 1 MiB
  static constexpr std::size_t kSmallSegment = std::size_t{2} << 20;   // 2 MiB
  static constexpr std::size_t kLargeRounding = std::size_t{2} << 20;  // 2 MiB

  // `limit` caps total_bytes(); 0 means no limit. Allocation tracing to stderr is on
  // when CUNP_ALLOCATOR_TRACE=1.
  explicit CachingAllocator(std::unique_ptr<Backend> backend, std::size_t limit = 0);
  // Returns every segment to the backend, including those of blocks still handed out:
  // whoever owns the allocator must make sure it outlives its blocks.
  ~CachingAllocator() override;
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  // Returns a block of at least `nbytes` (at least kRounding bytes, also for 0) to be
  // used on `stream`. When neither the cache nor the backend can serve it, frees the
  // cached segments and tries once more, then throws OutOfMemoryError with `nbytes`,
  // total_bytes() and the limit.
  void* allocate(std::size_t nbytes, StreamHandle stream);
  // Returns a block from allocate. It is reusable at once on the stream it was
  // allocated on, and on other streams once the work enqueued on that stream before
  // this call has finished. ValueError if `ptr` is not a live block of this allocator.
  void deallocate(void* ptr);

  std::size_t used_bytes() const override;
  std::size_t free_bytes() const override;
  std::size_t total_bytes() const override;
  std::size_t n_free_blocks() const override;
  // Waits for the pending frees of wholly free segments, then returns those segments
  // to the backend.
  void free_all_blocks() override;
  void set_limit(std::size_t bytes) override;
  std::size_t get_limit() const override;

  // Number of segments held (for tests and statistics).
  std::size_t n_segments() const;
  Backend& backend() noexcept { return *backend_; }

 private:
  struct State;
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<State> state_;
};

}  // namespace cunp::memory

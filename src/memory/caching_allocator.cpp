// src/memory/caching_allocator.cpp — best-fit, split-and-merge, stream-ordered
// caching allocator (see Note [Caching allocator layout] in the header).
#include "memory/caching_allocator.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <list>
#include <mutex>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "cunp/error.hpp"

namespace cunp::memory {

// Note [Stream-ordered reuse]: a free block is in one of two states.
//   ready:          usable on every stream (fresh memory, or its free event completed);
//   pending on S:   freed while allocated on stream S; an event was recorded on S at
//                   free time. Work enqueued on S later runs after the work that used
//                   the block, so S may reuse it at once; any other stream must wait
//                   until the event completes.
// Pending blocks are polled (event_completed) only when a request finds no usable
// block, never on the fast path, so a hit costs no driver call. Events on one stream
// complete in the order they were recorded, so each stream keeps its pending blocks in
// record order and polling stops at the first incomplete event. For that order to be
// the real record order, the event is recorded with the lock held (cudaEventRecord
// only enqueues; it does not wait).
//
// Merging keeps these guarantees: two adjacent free blocks merge when both are ready,
// or both are pending on the same stream; the merged block keeps the newer event (the
// one just recorded), which completes after the older one, so the older is released.
// A ready block does not merge with a pending one: that would hide ready memory from
// other streams; the pending block merges once polling finds its event complete.

// Note [Large block split]: a block of the large pool is split only when the
// remainder exceeds kSmallRequest. A smaller remainder can never serve a request of
// the large pool on its own (those are all larger than kSmallRequest) and small
// requests never look there, so it stays attached to the block it came from (at most
// 1 MiB of slack) instead of cluttering the free set; it merges back on free anyway.

// Note [Segment size]: large segments are rounded up to 2 MiB rather than made exact.
// cudaMalloc hands out whole 2 MiB pages for allocations of that size anyway, so the
// rounding costs no device memory, and the tail becomes a reusable free block instead
// of being lost inside the driver. The exception is a limit: when a rounded segment
// would push total_bytes() over the limit but the request alone fits, the segment is
// exactly the (512-rounded) request, so a limit of N bytes admits N bytes of data.

// Note [Allocator lock]: one mutex guards all of an allocator's state. raw_malloc and
// raw_free (cudaMalloc/cudaFree: slow, and cudaFree synchronizes the device) run
// without it; bytes being obtained are reserved under the lock first so concurrent
// growth cannot overshoot the limit, and segments being returned are unlinked from the
// pool before the lock is dropped. Event hooks (record, query, release) run under the
// lock: they are quick and their ordering matters (Note [Stream-ordered reuse]).
// Waiting for events (wait_event) also runs under the lock, but only on the rare paths
// that return memory to the backend (free_all_blocks and the out-of-memory retry).

namespace {

struct Block;

struct BySize {
  bool operator()(const Block* a, const Block* b) const noexcept;
};
using FreeSet = std::set<Block*, BySize>;

struct Pool {
  bool small = false;
  FreeSet ready;                                      // free, usable on any stream
  std::unordered_map<StreamHandle, FreeSet> pending;  // free, usable on that stream only
};

struct Block {
  char* ptr = nullptr;
  std::size_t size = 0;
  Pool* pool = nullptr;
  StreamHandle stream = nullptr;  // the stream of the last allocation
  EventHandle event = nullptr;    // free blocks: recorded on `stream` at free time
  bool allocated = false;
  Block* prev = nullptr;  // neighbours within the segment, in address order
  Block* next = nullptr;
  std::list<Block*>::iterator order_pos{};  // in State::pending_order while pending
};

bool BySize::operator()(const Block* a, const Block* b) const noexcept {
  if (a->size != b->size) return a->size < b->size;
  return reinterpret_cast<std::uintptr_t>(a->ptr) < reinterpret_cast<std::uintptr_t>(b->ptr);
}

constexpr std::size_t round_up(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }

bool trace_enabled() {
  const char* value = std::getenv("CUNP_ALLOCATOR_TRACE");
  return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
}

using SegmentList = std::vector<std::pair<void*, std::size_t>>;

}  // namespace

struct CachingAllocator::State {
  explicit State(Backend& b) : backend(b), name(b.where()), trace(trace_enabled()) {
    small.small = true;
  }

  Backend& backend;
  const std::string name;
  const bool trace;
  mutable std::mutex mutex;
  Pool small;
  Pool large;
  std::unordered_map<const void*, Block*> live;  // handed-out blocks by address
  std::unordered_set<Block*> segments;           // the first block of each segment
  // Pending blocks of each stream in the order their events were recorded.
  std::unordered_map<StreamHandle, std::list<Block*>> pending_order;
  std::size_t used = 0;
  std::size_t total = 0;
  std::size_t reserving = 0;  // bytes in raw_malloc calls now running
  std::size_t n_free = 0;
  std::size_t limit = 0;

  void insert_free(Block* b) {
    ++n_free;
    if (b->event != nullptr) {
      b->pool->pending[b->stream].insert(b);
      auto& order = pending_order[b->stream];
      b->order_pos = order.insert(order.end(), b);
    } else {
      b->pool->ready.insert(b);
    }
  }

  // Leaves emptied order lists in place: process_events may be walking the map.
  void remove_free(Block* b) {
    --n_free;
    if (b->event != nullptr) {
      auto it = b->pool->pending.find(b->stream);
      it->second.erase(b);
      if (it->second.empty()) b->pool->pending.erase(it);
      pending_order.find(b->stream)->second.erase(b->order_pos);
    } else {
      b->pool->ready.erase(b);
    }
  }

  static bool can_merge(const Block* b, const Block* neighbour) {
    if (neighbour == nullptr || neighbour->allocated) return false;
    if (b->event == nullptr) return neighbour->event == nullptr;
    return neighbour->event != nullptr && neighbour->stream == b->stream;
  }

  // `b` is free but in no free set; its event, if any, is the newest on its stream.
  void merge_and_insert(Block* b) {
    if (can_merge(b, b->prev)) {
      Block* p = b->prev;
      remove_free(p);
      if (p->event != nullptr) backend.release_event(p->event);
      p->size += b->size;
      p->next = b->next;
      if (b->next != nullptr) b->next->prev = p;
      p->event = b->event;
      p->stream = b->stream;
      delete b;
      b = p;
    }
    if (can_merge(b, b->next)) {
      Block* n = b->next;
      remove_free(n);
      if (n->event != nullptr) backend.release_event(n->event);
      b->size += n->size;
      b->next = n->next;
      if (n->next != nullptr) n->next->prev = b;
      delete n;
    }
    insert_free(b);
  }

  // The smallest free block of at least `size` bytes usable on `stream`.
  Block* find_fit(Pool& pool, std::size_t size, StreamHandle stream) {
    Block key;
    key.size = size;
    Block* best = nullptr;
    if (auto it = pool.ready.lower_bound(&key); it != pool.ready.end()) best = *it;
    if (auto p = pool.pending.find(stream); p != pool.pending.end()) {
      if (auto it = p->second.lower_bound(&key); it != p->second.end()) {
        if (best == nullptr || (*it)->size <= best->size) best = *it;
      }
    }
    return best;
  }

  // Hands out `size` bytes of the free block `b`, which is usable on `stream`.
  void take(Block* b, std::size_t size, StreamHandle stream) {
    Pool* pool = b->pool;
    const std::size_t rest = b->size - size;
    const bool split = pool->small ? rest >= kRounding : rest > kSmallRequest;
    Block* rem = nullptr;
    if (split) {
      rem = new Block;
      rem->ptr = b->ptr + size;
      rem->size = rest;
      rem->pool = pool;
      rem->stream = b->stream;
    }
    if (b->event != nullptr) {
      // Pending on `stream` itself. The remainder inherits the event and b's place in
      // the record order; without a remainder the event has no more use.
      auto it = pool->pending.find(stream);
      it->second.erase(b);
      if (it->second.empty()) pool->pending.erase(it);
      --n_free;
      if (rem != nullptr) {
        rem->event = b->event;
        rem->order_pos = b->order_pos;
        *rem->order_pos = rem;
        pool->pending[stream].insert(rem);
        ++n_free;
      } else {
        pending_order.find(stream)->second.erase(b->order_pos);
        backend.release_event(b->event);
      }
      b->event = nullptr;
    } else {
      remove_free(b);
      if (rem != nullptr) insert_free(rem);
    }
    if (rem != nullptr) {
      rem->prev = b;
      rem->next = b->next;
      if (b->next != nullptr) b->next->prev = rem;
      b->next = rem;
      b->size = size;
    }
    b->allocated = true;
    b->stream = stream;
    used += b->size;
    live.emplace(b->ptr, b);
  }

  void mark_ready(Block* b) {
    remove_free(b);
    backend.release_event(b->event);
    b->event = nullptr;
    merge_and_insert(b);
  }

  // Turns pending blocks whose events completed into ready ones.
  void process_events() {
    for (auto it = pending_order.begin(); it != pending_order.end();) {
      auto& order = it->second;
      while (!order.empty() && backend.event_completed(order.front()->event)) {
        mark_ready(order.front());
      }
      it = order.empty() ? pending_order.erase(it) : std::next(it);
    }
  }

  // Waits for every pending block, making it ready.
  void wait_all_pending() {
    for (auto& entry : pending_order) {
      auto& order = entry.second;
      while (!order.empty()) {
        backend.wait_event(order.front()->event);
        mark_ready(order.front());
      }
    }
    pending_order.clear();
  }

  // Unlinks every wholly free segment (after waiting for its pending frees) and
  // appends it to `out` for the caller to return to the backend without the lock.
  void detach_free_segments(SegmentList& out) {
    for (auto it = segments.begin(); it != segments.end();) {
      Block* head = *it;
      bool all_free = true;
      for (Block* b = head; b != nullptr && all_free; b = b->next) all_free = !b->allocated;
      if (!all_free) {
        ++it;
        continue;
      }
      for (Block* b = head; b != nullptr; b = b->next) {
        if (b->event != nullptr) backend.wait_event(b->event);
      }
      void* base = head->ptr;
      std::size_t bytes = 0;
      for (Block* b = head; b != nullptr;) {
        Block* next = b->next;
        remove_free(b);
        if (b->event != nullptr) backend.release_event(b->event);
        bytes += b->size;
        delete b;
        b = next;
      }
      out.emplace_back(base, bytes);
      total -= bytes;
      it = segments.erase(it);
    }
  }

  // The size of a new segment for a `size`-byte request, or 0 when the limit leaves
  // no room even for the request itself (Note [Segment size]).
  std::size_t segment_size(std::size_t size, bool small_request) const {
    const std::size_t seg = small_request ? kSmallSegment : round_up(size, kLargeRounding);
    if (limit == 0) return seg;
    const std::size_t held = total + reserving;
    if (held <= limit && seg <= limit - held) return seg;
    if (held <= limit && size <= limit - held) return size;
    return 0;
  }

  void trace_line(const char* what, const void* ptr, std::size_t bytes, StreamHandle stream) {
    std::fprintf(stderr, "[cunp allocator %s] %s %zu B at %p stream %p (used %zu, total %zu)\n",
                 name.c_str(), what, bytes, ptr, stream, used, total);
  }
  void trace_note(const char* what, std::size_t bytes) {
    std::fprintf(stderr, "[cunp allocator %s] %s %zu B (used %zu, total %zu, limit %zu)\n",
                 name.c_str(), what, bytes, used, total, limit);
  }
};

namespace {

std::size_t sum_bytes(const SegmentList& segments) {
  std::size_t bytes = 0;
  for (const auto& segment : segments) bytes += segment.second;
  return bytes;
}

void release_segments(Backend& backend, const SegmentList& segments) {
  std::exception_ptr first;
  for (const auto& [ptr, bytes] : segments) {
    try {
      backend.raw_free(ptr, bytes);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace

CachingAllocator::CachingAllocator(std::unique_ptr<Backend> backend, std::size_t limit)
    : backend_(std::move(backend)), state_(std::make_unique<State>(*backend_)) {
  state_->limit = limit;
}

CachingAllocator::~CachingAllocator() {
  State& s = *state_;
  for (Block* head : s.segments) {
    void* base = head->ptr;
    std::size_t bytes = 0;
    for (Block* b = head; b != nullptr;) {
      Block* next = b->next;
      if (!b->allocated && b->event != nullptr) {
        try {
          backend_->wait_event(b->event);
        } catch (...) {
        }
        backend_->release_event(b->event);
      }
      bytes += b->size;
      delete b;
      b = next;
    }
    try {
      backend_->raw_free(base, bytes);
    } catch (...) {
    }
  }
}

void* CachingAllocator::allocate(std::size_t nbytes, StreamHandle stream) {
  State& s = *state_;
  if (nbytes > std::numeric_limits<std::size_t>::max() - kLargeRounding) {
    std::lock_guard lock(s.mutex);
    throw OutOfMemoryError(nbytes, s.total, s.limit, s.name);
  }
  const std::size_t size = round_up(std::max<std::size_t>(nbytes, 1), kRounding);
  const bool small_request = size <= kSmallRequest;
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::size_t seg = 0;
    {
      std::lock_guard lock(s.mutex);
      Pool& pool = small_request ? s.small : s.large;
      Block* b = s.find_fit(pool, size, stream);
      if (b == nullptr && !s.pending_order.empty()) {
        s.process_events();
        b = s.find_fit(pool, size, stream);
      }
      if (b != nullptr) {
        s.take(b, size, stream);
        if (s.trace) s.trace_line("malloc", b->ptr, b->size, stream);
        return b->ptr;
      }
      seg = s.segment_size(size, small_request);
      s.reserving += seg;
    }
    if (seg != 0) {
      auto head = std::make_unique<Block>();
      void* ptr = nullptr;
      try {
        ptr = backend_->raw_malloc(seg, stream);
      } catch (...) {
        std::lock_guard lock(s.mutex);
        s.reserving -= seg;
        throw;
      }
      std::lock_guard lock(s.mutex);
      s.reserving -= seg;
      if (ptr != nullptr) {
        head->ptr = static_cast<char*>(ptr);
        head->size = seg;
        head->pool = small_request ? &s.small : &s.large;
        head->stream = stream;
        Block* b = head.release();
        s.segments.insert(b);
        s.total += seg;
        if (s.trace) s.trace_line("new segment", ptr, seg, stream);
        s.insert_free(b);
        s.take(b, size, stream);
        if (s.trace) s.trace_line("malloc", b->ptr, b->size, stream);
        return b->ptr;
      }
    }
    if (attempt == 0) {
      SegmentList freed;
      {
        std::lock_guard lock(s.mutex);
        if (s.trace) s.trace_note("out of memory, freeing the cache, for", size);
        s.wait_all_pending();
        s.detach_free_segments(freed);
      }
      release_segments(*backend_, freed);
    }
  }
  std::lock_guard lock(s.mutex);
  if (s.trace) s.trace_note("out of memory for", size);
  throw OutOfMemoryError(nbytes, s.total, s.limit, s.name);
}

void CachingAllocator::deallocate(void* ptr) {
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  auto it = s.live.find(ptr);
  if (it == s.live.end()) {
    char address[32];
    std::snprintf(address, sizeof address, "%p", ptr);
    throw ValueError("cannot free " + std::string(address) + ": not a live block of the " + s.name +
                     " pool");
  }
  Block* b = it->second;
  // If recording throws the block stays handed out (leaked), never wrongly reused.
  EventHandle event = backend_->record_event(b->stream);
  s.live.erase(it);
  s.used -= b->size;
  if (s.trace) s.trace_line("free", b->ptr, b->size, b->stream);
  b->allocated = false;
  b->event = event;
  s.merge_and_insert(b);
}

std::size_t CachingAllocator::used_bytes() const {
  std::lock_guard lock(state_->mutex);
  return state_->used;
}

std::size_t CachingAllocator::free_bytes() const {
  std::lock_guard lock(state_->mutex);
  return state_->total - state_->used;
}

std::size_t CachingAllocator::total_bytes() const {
  std::lock_guard lock(state_->mutex);
  return state_->total;
}

std::size_t CachingAllocator::n_free_blocks() const {
  std::lock_guard lock(state_->mutex);
  return state_->n_free;
}

std::size_t CachingAllocator::n_segments() const {
  std::lock_guard lock(state_->mutex);
  return state_->segments.size();
}

void CachingAllocator::free_all_blocks() {
  SegmentList freed;
  {
    std::lock_guard lock(state_->mutex);
    state_->detach_free_segments(freed);
    if (state_->trace) state_->trace_note("free_all_blocks returned", sum_bytes(freed));
  }
  release_segments(*backend_, freed);
}

void CachingAllocator::set_limit(std::size_t bytes) {
  std::lock_guard lock(state_->mutex);
  state_->limit = bytes;
}

std::size_t CachingAllocator::get_limit() const {
  std::lock_guard lock(state_->mutex);
  return state_->limit;
}

}  // namespace cunp::memory

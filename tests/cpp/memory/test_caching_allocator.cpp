// Tests of src/memory/caching_allocator.cpp over a fake backend: host memory for
// segments, integers for streams and events, events completed by the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cunp/error.hpp"
#include "memory/caching_allocator.hpp"

namespace cunp::memory {
namespace {

constexpr std::size_t KiB = 1024;
constexpr std::size_t MiB = 1024 * 1024;

StreamHandle stream(int id) {
  return reinterpret_cast<StreamHandle>(static_cast<std::uintptr_t>(id));
}
const StreamHandle A = stream(0x10);
const StreamHandle B = stream(0x20);
const StreamHandle C = stream(0x30);

class FakeBackend final : public Backend {
 public:
  // ordered: record real (fake) events; otherwise frees are ready at once.
  explicit FakeBackend(bool ordered = true, std::size_t capacity = SIZE_MAX)
      : ordered_(ordered), capacity_(capacity) {}
  ~FakeBackend() override {
    if (in_use_at_exit != nullptr) *in_use_at_exit = in_use;
  }

  void* raw_malloc(std::size_t nbytes, StreamHandle) override {
    std::lock_guard lock(mutex_);
    ++malloc_calls;
    if (in_use + nbytes > capacity_) {
      ++failed_mallocs;
      return nullptr;
    }
    void* p = std::aligned_alloc(512, nbytes);
    if (p == nullptr) {
      ++failed_mallocs;
      return nullptr;
    }
    in_use += nbytes;
    segments[p] = nbytes;
    malloc_sizes.push_back(nbytes);
    return p;
  }
  void raw_free(void* ptr, std::size_t nbytes) override {
    std::lock_guard lock(mutex_);
    EXPECT_EQ(segments.count(ptr), 1u);
    EXPECT_EQ(segments[ptr], nbytes);
    segments.erase(ptr);
    in_use -= nbytes;
    free_sizes.push_back(nbytes);
    std::free(ptr);
  }
  EventHandle record_event(StreamHandle s) override {
    std::lock_guard lock(mutex_);
    if (!ordered_) return nullptr;
    const std::uintptr_t id = next_event_++;
    events_[id] = Event{s, complete_on_query_};
    ++recorded;
    return reinterpret_cast<EventHandle>(id);
  }
  bool event_completed(EventHandle e) override {
    std::lock_guard lock(mutex_);
    auto it = events_.find(reinterpret_cast<std::uintptr_t>(e));
    EXPECT_NE(it, events_.end()) << "query of a released event";
    ++queries;
    return it != events_.end() && it->second.completed;
  }
  void wait_event(EventHandle e) override {
    std::lock_guard lock(mutex_);
    auto it = events_.find(reinterpret_cast<std::uintptr_t>(e));
    EXPECT_NE(it, events_.end()) << "wait on a released event";
    if (it != events_.end()) it->second.completed = true;
    ++waits;
  }
  void release_event(EventHandle e) noexcept override {
    std::lock_guard lock(mutex_);
    events_.erase(reinterpret_cast<std::uintptr_t>(e));
  }
  std::string where() const override { return "fake:0"; }

  void complete_all() {
    std::lock_guard lock(mutex_);
    for (auto& [id, event] : events_) event.completed = true;
  }
  void complete_stream(StreamHandle s) {
    std::lock_guard lock(mutex_);
    for (auto& [id, event] : events_) {
      if (event.stream == s) event.completed = true;
    }
  }
  // New events are born complete: a GPU that is always idle.
  void set_complete_on_record(bool value) {
    std::lock_guard lock(mutex_);
    complete_on_query_ = value;
  }
  std::size_t live_events() {
    std::lock_guard lock(mutex_);
    return events_.size();
  }

  // Read by the tests once no other thread uses the backend.
  std::size_t in_use = 0;
  std::size_t* in_use_at_exit = nullptr;  // where the destructor reports in_use
  int malloc_calls = 0;
  int failed_mallocs = 0;
  int recorded = 0;
  int queries = 0;
  int waits = 0;
  std::vector<std::size_t> malloc_sizes;
  std::vector<std::size_t> free_sizes;
  std::map<void*, std::size_t> segments;

 private:
  struct Event {
    StreamHandle stream;
    bool completed;
  };
  std::mutex mutex_;
  bool ordered_;
  std::size_t capacity_;
  bool complete_on_query_ = false;
  std::uintptr_t next_event_ = 1;
  std::map<std::uintptr_t, Event> events_;
};

struct Fixture {
  explicit Fixture(bool ordered = true, std::size_t capacity = SIZE_MAX, std::size_t limit = 0)
      : backend(new FakeBackend(ordered, capacity)),
        pool(std::unique_ptr<Backend>(backend), limit) {}
  FakeBackend* backend;  // owned by pool
  CachingAllocator pool;
};

char* as_bytes(void* p) { return static_cast<char*>(p); }

TEST(CachingAllocator, RoundsRequestsTo512Bytes) {
  Fixture f;
  void* a = f.pool.allocate(1, A);
  EXPECT_EQ(f.pool.used_bytes(), 512u);
  void* b = f.pool.allocate(513, A);
  EXPECT_EQ(f.pool.used_bytes(), 512u + 1024u);
  void* c = f.pool.allocate(1024, A);
  EXPECT_EQ(f.pool.used_bytes(), 512u + 1024u + 1024u);
  // Consecutive blocks of one segment are exactly the rounded sizes apart.
  EXPECT_EQ(as_bytes(b), as_bytes(a) + 512);
  EXPECT_EQ(as_bytes(c), as_bytes(b) + 1024);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 512, 0u);
}

TEST(CachingAllocator, ZeroBytesGivesDistinctNonNullBlocks) {
  Fixture f;
  void* a = f.pool.allocate(0, A);
  void* b = f.pool.allocate(0, A);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  EXPECT_EQ(f.pool.used_bytes(), 1024u);
}

TEST(CachingAllocator, ReusesFreedBlockOnSameStream) {
  Fixture f;
  void* a = f.pool.allocate(1000, A);
  f.pool.deallocate(a);
  EXPECT_EQ(f.pool.used_bytes(), 0u);
  void* b = f.pool.allocate(1000, A);
  EXPECT_EQ(b, a);
  EXPECT_EQ(f.backend->malloc_calls, 1);
  // Same-stream reuse needs no event query.
  EXPECT_EQ(f.backend->queries, 0);
}

TEST(CachingAllocator, SmallRequestsShareTwoMiBSegments) {
  Fixture f;
  f.pool.allocate(100, A);
  f.pool.allocate(MiB, A);
  ASSERT_EQ(f.backend->malloc_sizes.size(), 1u);
  EXPECT_EQ(f.backend->malloc_sizes[0], 2 * MiB);
  EXPECT_EQ(f.pool.total_bytes(), 2 * MiB);
  // Another MiB does not fit the rest of the first segment: a second one.
  f.pool.allocate(MiB, A);
  EXPECT_EQ(f.backend->malloc_sizes, (std::vector<std::size_t>{2 * MiB, 2 * MiB}));
}

TEST(CachingAllocator, LargeSegmentsRoundedToTwoMiB) {
  Fixture f;
  f.pool.allocate(2 * MiB + 512, A);
  ASSERT_EQ(f.backend->malloc_sizes.size(), 1u);
  EXPECT_EQ(f.backend->malloc_sizes[0], 4 * MiB);
  // The remainder (2 MiB - 512) is more than 1 MiB: split off and kept free.
  EXPECT_EQ(f.pool.used_bytes(), 2 * MiB + 512);
  EXPECT_EQ(f.pool.free_bytes(), 2 * MiB - 512);
  EXPECT_EQ(f.pool.n_free_blocks(), 1u);
  // A 1 MiB remainder cannot serve a large request: it stays with the block.
  f.pool.allocate(3 * MiB, A);
  EXPECT_EQ(f.backend->malloc_sizes.back(), 4 * MiB);
  EXPECT_EQ(f.pool.used_bytes(), 2 * MiB + 512 + 4 * MiB);
  EXPECT_EQ(f.pool.n_free_blocks(), 1u);
}

TEST(CachingAllocator, SmallRequestsDoNotTakeLargeSegments) {
  Fixture f;
  void* big = f.pool.allocate(8 * MiB, A);
  f.pool.deallocate(big);
  void* small = f.pool.allocate(4 * KiB, A);
  EXPECT_NE(small, big);
  EXPECT_EQ(f.backend->malloc_sizes, (std::vector<std::size_t>{8 * MiB, 2 * MiB}));
}

TEST(CachingAllocator, SplitsAndMergesNeighbours) {
  Fixture f(/*ordered=*/false);
  void* a = f.pool.allocate(1 * KiB, A);
  void* b = f.pool.allocate(2 * KiB, A);
  void* c = f.pool.allocate(4 * KiB, A);
  EXPECT_EQ(f.pool.n_free_blocks(), 1u);  // the tail of the segment
  f.pool.deallocate(b);
  EXPECT_EQ(f.pool.n_free_blocks(), 2u);  // b's hole and the tail
  f.pool.deallocate(a);
  EXPECT_EQ(f.pool.n_free_blocks(), 2u);  // a merged with b's hole
  // The merged hole serves 3 KiB exactly, from a's address.
  void* ab = f.pool.allocate(3 * KiB, A);
  EXPECT_EQ(ab, a);
  EXPECT_EQ(f.pool.n_free_blocks(), 1u);
  f.pool.deallocate(ab);
  f.pool.deallocate(c);
  // Everything merged back into the whole segment.
  EXPECT_EQ(f.pool.n_free_blocks(), 1u);
  EXPECT_EQ(f.pool.free_bytes(), 2 * MiB);
  void* whole = f.pool.allocate(MiB, A);
  EXPECT_EQ(whole, a);
  void* second_half = f.pool.allocate(MiB, A);
  EXPECT_EQ(as_bytes(second_half), as_bytes(a) + MiB);
  EXPECT_EQ(f.backend->malloc_calls, 1);
}

TEST(CachingAllocator, BestFitPicksSmallestHole) {
  Fixture f(/*ordered=*/false);
  void* big_hole = f.pool.allocate(4 * KiB, A);
  void* keep1 = f.pool.allocate(512, A);
  void* small_hole = f.pool.allocate(2 * KiB, A);
  void* keep2 = f.pool.allocate(512, A);
  f.pool.deallocate(big_hole);
  f.pool.deallocate(small_hole);
  EXPECT_EQ(f.pool.allocate(1500, A), small_hole);
  EXPECT_EQ(f.pool.allocate(3000, A), big_hole);
  (void)keep1;
  (void)keep2;
}

// Fills the rest of the small segment that starts `used` bytes before its end.
void fill_small_segment(CachingAllocator& pool, std::size_t used, StreamHandle s) {
  pool.allocate(MiB, s);
  pool.allocate(MiB - used, s);
}

TEST(CachingAllocator, OtherStreamWaitsForFreeEvent) {
  Fixture f;
  void* a = f.pool.allocate(1 * KiB, A);
  fill_small_segment(f.pool, 1 * KiB, A);
  f.pool.deallocate(a);
  EXPECT_EQ(f.backend->recorded, 1);
  // The event has not completed: B must not get a's block.
  void* b = f.pool.allocate(1 * KiB, B);
  EXPECT_NE(b, a);
  EXPECT_EQ(f.pool.n_segments(), 2u);
  fill_small_segment(f.pool, 1 * KiB, B);
  // Completion of another stream's work does not free a's block...
  f.backend->complete_stream(B);
  void* b1 = f.pool.allocate(1 * KiB, B);
  EXPECT_NE(b1, a);
  EXPECT_EQ(f.pool.n_segments(), 3u);
  fill_small_segment(f.pool, 1 * KiB, B);
  // ...completion of A's does.
  f.backend->complete_stream(A);
  EXPECT_EQ(f.pool.allocate(1 * KiB, B), a);
  EXPECT_EQ(f.pool.n_segments(), 3u);
}

TEST(CachingAllocator, NoFreeEventMeansNoCrossStreamReuse) {
  // Fill a segment so a's block is the only free memory, then ask from stream B.
  Fixture f;
  void* a = f.pool.allocate(MiB, A);
  void* rest = f.pool.allocate(MiB, A);
  (void)rest;
  f.pool.deallocate(a);
  void* b = f.pool.allocate(MiB, B);
  EXPECT_NE(b, a);
  EXPECT_EQ(f.pool.n_segments(), 2u);
  EXPECT_GE(f.backend->queries, 1);  // it did ask before growing
  // Stream A itself reuses the block at once.
  EXPECT_EQ(f.pool.allocate(MiB, A), a);
}

TEST(CachingAllocator, CompletedEventMakesBlockReusableAnywhere) {
  Fixture f;
  void* a = f.pool.allocate(MiB, A);
  void* rest = f.pool.allocate(MiB, A);
  (void)rest;
  f.pool.deallocate(a);
  f.backend->complete_all();
  EXPECT_EQ(f.pool.allocate(MiB, C), a);
  EXPECT_EQ(f.pool.n_segments(), 1u);
  EXPECT_EQ(f.backend->live_events(), 0u);  // the polled event was given back
}

TEST(CachingAllocator, PendingBlocksOfDifferentStreamsDoNotMerge) {
  Fixture f;
  void* a = f.pool.allocate(1 * KiB, A);
  void* b = f.pool.allocate(1 * KiB, B);
  void* r1 = f.pool.allocate(MiB, A);  // use up the rest of the segment
  void* r2 = f.pool.allocate(MiB - 2 * KiB, A);
  ASSERT_EQ(as_bytes(b), as_bytes(a) + 1 * KiB);
  (void)r1;
  (void)r2;
  f.pool.deallocate(a);
  f.pool.deallocate(b);
  EXPECT_EQ(f.pool.n_free_blocks(), 2u);
  // A 2 KiB request from A cannot use b's pending block: a new segment.
  void* x = f.pool.allocate(2 * KiB, A);
  EXPECT_NE(x, a);
  EXPECT_EQ(f.pool.n_segments(), 2u);
  fill_small_segment(f.pool, 2 * KiB, A);
  // Once both events completed the two holes merge and serve 2 KiB from a third stream.
  f.backend->complete_all();
  EXPECT_EQ(f.pool.allocate(2 * KiB, C), a);
  EXPECT_EQ(f.pool.n_segments(), 2u);
}

TEST(CachingAllocator, ReadyBlockDoesNotAbsorbPendingNeighbour) {
  Fixture f;
  void* a = f.pool.allocate(1 * KiB, A);
  void* b = f.pool.allocate(1 * KiB, B);
  fill_small_segment(f.pool, 2 * KiB, A);
  f.pool.deallocate(a);
  f.pool.deallocate(b);
  f.backend->complete_stream(B);  // b becomes ready when polled; a is still A's
  EXPECT_EQ(f.pool.allocate(1 * KiB, C), b);
  void* c = f.pool.allocate(1 * KiB, C);
  EXPECT_NE(c, a);
  EXPECT_EQ(f.pool.n_segments(), 2u);
}

TEST(CachingAllocator, SameStreamPendingBlocksMergeKeepingNewestEvent) {
  Fixture f;
  void* a = f.pool.allocate(1 * KiB, A);
  void* b = f.pool.allocate(1 * KiB, A);
  f.pool.allocate(MiB, A);
  f.pool.allocate(MiB - 2 * KiB, A);
  f.pool.deallocate(a);
  f.pool.deallocate(b);
  EXPECT_EQ(f.pool.n_free_blocks(), 1u);
  EXPECT_EQ(f.backend->live_events(), 1u);  // the older event was released
  EXPECT_EQ(f.pool.allocate(2 * KiB, A), a);
  EXPECT_EQ(f.backend->live_events(), 0u);
}

TEST(CachingAllocator, SplitOfPendingBlockKeepsItPendingForOtherStreams) {
  Fixture f;
  void* a = f.pool.allocate(4 * KiB, A);
  f.pool.allocate(MiB, A);
  f.pool.allocate(MiB - 4 * KiB, A);
  f.pool.deallocate(a);
  // A takes 1 KiB of its pending hole; the 3 KiB rest is still A's until the event.
  EXPECT_EQ(f.pool.allocate(1 * KiB, A), a);
  void* b = f.pool.allocate(1 * KiB, B);
  EXPECT_NE(b, as_bytes(a) + 1 * KiB);
  EXPECT_EQ(f.pool.n_segments(), 2u);
  fill_small_segment(f.pool, 1 * KiB, B);
  f.backend->complete_all();
  void* c = f.pool.allocate(3 * KiB, C);
  EXPECT_EQ(c, as_bytes(a) + 1 * KiB);
  EXPECT_EQ(f.pool.n_segments(), 2u);
}

TEST(CachingAllocator, LimitCapsTotalBytes) {
  Fixture f;
  f.pool.set_limit(5 * MiB);
  EXPECT_EQ(f.pool.get_limit(), 5 * MiB);
  f.pool.allocate(3 * MiB, A);  // a 4 MiB segment
  EXPECT_EQ(f.pool.total_bytes(), 4 * MiB);
  const std::size_t request = 1536 * KiB;  // needs 2 MiB more
  try {
    f.pool.allocate(request, A);
    FAIL() << "expected OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_EQ(e.requested(), request);
    const std::string message = e.what();
    EXPECT_NE(message.find(std::to_string(request)), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(4 * MiB)), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(5 * MiB)), std::string::npos) << message;
    EXPECT_NE(message.find("fake:0"), std::string::npos) << message;
  }
  EXPECT_LE(f.pool.total_bytes(), 5 * MiB);
  EXPECT_EQ(f.backend->malloc_calls, 1);  // the limit stopped it before the backend
  // Lifting the limit lets it through.
  f.pool.set_limit(0);
  EXPECT_NE(f.pool.allocate(request, A), nullptr);
}

TEST(CachingAllocator, LimitAdmitsExactSegmentWhenRoundedOneWouldNotFit) {
  Fixture f;
  f.pool.set_limit(3 * MiB);
  f.pool.allocate(1536 * KiB, A);  // a 2 MiB large segment
  // A 2 MiB small segment would break the limit; an exact 1 MiB one fits.
  void* m = f.pool.allocate(MiB, A);
  EXPECT_EQ(f.pool.total_bytes(), 3 * MiB);
  EXPECT_EQ(f.backend->malloc_sizes, (std::vector<std::size_t>{2 * MiB, MiB}));
  f.pool.deallocate(m);
  EXPECT_EQ(f.pool.allocate(MiB, A), m);
  EXPECT_THROW(f.pool.allocate(512, A), OutOfMemoryError);
  EXPECT_EQ(f.pool.total_bytes(), 3 * MiB);
  EXPECT_EQ(f.backend->malloc_calls, 2);
}

TEST(CachingAllocator, LimitHitFreesCacheAndRetries) {
  Fixture f(/*ordered=*/true, SIZE_MAX, /*limit=*/4 * MiB);
  void* a = f.pool.allocate(3 * MiB, A);
  f.pool.deallocate(a);  // cached, pending on A
  // From B the cached block is unusable (event pending) and a new segment would
  // break the limit: the pool waits for A, frees the segment and retries.
  void* b = f.pool.allocate(3 * MiB, B);
  EXPECT_NE(b, nullptr);
  EXPECT_EQ(f.backend->waits, 1);
  EXPECT_EQ(f.backend->free_sizes, (std::vector<std::size_t>{4 * MiB}));
  EXPECT_EQ(f.pool.total_bytes(), 4 * MiB);
  EXPECT_EQ(f.pool.used_bytes(), 4 * MiB);
}

TEST(CachingAllocator, BackendOutOfMemoryFreesCacheAndRetries) {
  Fixture f(/*ordered=*/true, /*capacity=*/6 * MiB);
  void* small = f.pool.allocate(1 * KiB, A);
  f.pool.deallocate(small);  // a cached 2 MiB small segment
  void* big = f.pool.allocate(4 * MiB, A);
  f.pool.deallocate(big);  // a cached 4 MiB large segment
  // 5 MiB needs a 6 MiB segment: only after both cached segments are gone.
  void* p = f.pool.allocate(5 * MiB, A);
  EXPECT_NE(p, nullptr);
  EXPECT_EQ(f.backend->failed_mallocs, 1);
  EXPECT_EQ(f.backend->free_sizes.size(), 2u);
  EXPECT_EQ(f.pool.total_bytes(), 6 * MiB);
  EXPECT_EQ(f.backend->live_events(), 0u);
}

TEST(CachingAllocator, OutOfMemoryWaitsForOtherStreamsPendingBlocks) {
  Fixture f(/*ordered=*/true, /*capacity=*/2 * MiB);
  void* a = f.pool.allocate(1 * KiB, A);
  fill_small_segment(f.pool, 1 * KiB, A);
  f.pool.deallocate(a);
  // B cannot use a's block yet and the backend is full: rather than fail, the pool
  // waits for A's pending free and hands the block over.
  EXPECT_EQ(f.pool.allocate(1 * KiB, B), a);
  EXPECT_EQ(f.backend->failed_mallocs, 1);
  EXPECT_EQ(f.backend->waits, 1);
  EXPECT_EQ(f.pool.n_segments(), 1u);
}

TEST(CachingAllocator, OutOfMemoryAfterOneRetry) {
  Fixture f(/*ordered=*/true, /*capacity=*/4 * MiB);
  void* held = f.pool.allocate(3 * MiB, A);
  (void)held;
  try {
    f.pool.allocate(3 * MiB, A);
    FAIL() << "expected OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_EQ(e.requested(), 3 * MiB);
    EXPECT_NE(std::string(e.what()).find(std::to_string(4 * MiB)), std::string::npos) << e.what();
  }
  EXPECT_EQ(f.backend->failed_mallocs, 2);
  EXPECT_EQ(f.pool.used_bytes(), 4 * MiB);  // what was held is intact
}

TEST(CachingAllocator, HugeRequestThrowsOutOfMemoryWithoutOverflow) {
  Fixture f(/*ordered=*/true, /*capacity=*/64 * MiB);
  EXPECT_THROW(f.pool.allocate(SIZE_MAX - 100, A), OutOfMemoryError);
  EXPECT_THROW(f.pool.allocate(SIZE_MAX / 2, A), OutOfMemoryError);  // the fake refuses
  EXPECT_EQ(f.pool.total_bytes(), 0u);
}

TEST(CachingAllocator, FreeAllBlocksReturnsWhollyFreeSegments) {
  Fixture f;
  void* s1 = f.pool.allocate(1 * KiB, A);
  void* s2 = f.pool.allocate(MiB, A);
  void* s3 = f.pool.allocate(MiB, A);  // second small segment
  void* big = f.pool.allocate(3 * MiB, A);
  EXPECT_EQ(f.pool.total_bytes(), 8 * MiB);
  f.pool.deallocate(s1);
  f.pool.deallocate(s3);
  f.pool.deallocate(big);
  f.pool.free_all_blocks();
  // The first small segment still holds s2.
  EXPECT_EQ(f.pool.total_bytes(), 2 * MiB);
  EXPECT_EQ(f.pool.used_bytes(), MiB);
  EXPECT_EQ(f.pool.n_segments(), 1u);
  EXPECT_EQ(f.backend->free_sizes.size(), 2u);
  EXPECT_EQ(f.backend->in_use, 2 * MiB);
  f.pool.deallocate(s2);
  f.pool.free_all_blocks();
  EXPECT_EQ(f.pool.total_bytes(), 0u);
  EXPECT_EQ(f.pool.n_free_blocks(), 0u);
  EXPECT_EQ(f.backend->in_use, 0u);
  EXPECT_EQ(f.backend->live_events(), 0u);
  // Their pending frees were waited for before the memory went back.
  EXPECT_GE(f.backend->waits, 1);
}

TEST(CachingAllocator, UsedFreeTotalBookkeeping) {
  Fixture f;
  EXPECT_EQ(f.pool.total_bytes(), 0u);
  EXPECT_EQ(f.pool.used_bytes(), 0u);
  EXPECT_EQ(f.pool.free_bytes(), 0u);
  EXPECT_EQ(f.pool.n_free_blocks(), 0u);
  void* a = f.pool.allocate(1000, A);
  void* b = f.pool.allocate(10 * MiB, B);
  EXPECT_EQ(f.pool.used_bytes(), 1024 + 10 * MiB);
  EXPECT_EQ(f.pool.total_bytes(), 12 * MiB);
  EXPECT_EQ(f.pool.free_bytes(), 2 * MiB - 1024);
  f.pool.deallocate(b);
  EXPECT_EQ(f.pool.used_bytes(), 1024u);
  EXPECT_EQ(f.pool.free_bytes(), 12 * MiB - 1024);
  EXPECT_EQ(f.pool.n_free_blocks(), 2u);
  f.pool.deallocate(a);
  EXPECT_EQ(f.pool.used_bytes(), 0u);
  EXPECT_EQ(f.pool.free_bytes(), f.pool.total_bytes());
}

TEST(CachingAllocator, FreeOfUnknownPointerIsValueError) {
  Fixture f;
  int local = 0;
  EXPECT_THROW(f.pool.deallocate(&local), ValueError);
  void* a = f.pool.allocate(512, A);
  f.pool.deallocate(a);
  EXPECT_THROW(f.pool.deallocate(a), ValueError);  // double free
  EXPECT_EQ(f.pool.used_bytes(), 0u);
}

TEST(CachingAllocator, DestructorReturnsEverything) {
  auto* backend = new FakeBackend();
  std::size_t in_use_at_exit = 12345;
  backend->in_use_at_exit = &in_use_at_exit;
  {
    CachingAllocator pool{std::unique_ptr<Backend>(backend)};
    pool.deallocate(pool.allocate(100, A));
    pool.allocate(5 * MiB, B);
    EXPECT_EQ(backend->in_use, 2 * MiB + 6 * MiB);
    EXPECT_EQ(backend->live_events(), 1u);
  }
  EXPECT_EQ(in_use_at_exit, 0u);
}

TEST(CachingAllocator, ConcurrentAllocateAndFree) {
  Fixture f;
  f.backend->set_complete_on_record(true);  // frees become visible to other streams
  constexpr int kThreads = 4;
  constexpr int kIterations = 3000;
  std::atomic<int> corrupted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(1234 + t);
      const StreamHandle own = stream(0x100 * (t + 1));
      struct Held {
        char* ptr;
        std::size_t n;
        char tag;
      };
      std::vector<Held> held;
      for (int i = 0; i < kIterations; ++i) {
        const bool shared_stream = rng() % 4 == 0;
        const std::size_t n = rng() % 3 == 0 ? 1 + rng() % (3 * MiB) : 1 + rng() % (64 * KiB);
        auto* p = static_cast<char*>(f.pool.allocate(n, shared_stream ? A : own));
        const char tag = static_cast<char>(t * 31 + i);
        std::memset(p, tag, std::min<std::size_t>(n, 256));
        held.push_back({p, n, tag});
        if (held.size() > 8 || rng() % 2 == 0) {
          const std::size_t k = rng() % held.size();
          const Held h = held[k];
          // Another thread handed an overlapping block would have overwritten the tag.
          for (std::size_t j = 0; j < std::min<std::size_t>(h.n, 256); ++j) {
            if (h.ptr[j] != h.tag) {
              ++corrupted;
              break;
            }
          }
          f.pool.deallocate(h.ptr);
          held.erase(held.begin() + static_cast<std::ptrdiff_t>(k));
        }
      }
      for (const Held& h : held) f.pool.deallocate(h.ptr);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(corrupted.load(), 0);
  EXPECT_EQ(f.pool.used_bytes(), 0u);
  EXPECT_EQ(f.pool.free_bytes(), f.pool.total_bytes());
  f.pool.free_all_blocks();
  EXPECT_EQ(f.pool.total_bytes(), 0u);
  EXPECT_EQ(f.backend->in_use, 0u);
  EXPECT_EQ(f.backend->live_events(), 0u);
}

}  // namespace
}  // namespace cunp::memory

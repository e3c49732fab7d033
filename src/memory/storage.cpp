// src/memory/storage.cpp — Storage, and allocate(): host memory for the cpu device,
// the CUDA allocators (src/memory/cuda_memory.cpp) for cuda devices.
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <limits>
#include <mutex>
#include <utility>
#include <vector>

#include "cunp/error.hpp"
#include "cunp/memory.hpp"
#include "memory/cuda_memory.hpp"

namespace cunp {

namespace {

// Note [Host alignment]: 64 bytes is a cache line and the widest SIMD load (AVX-512),
// so vectorized CPU loops never straddle lines at the start of a buffer.
constexpr std::size_t kHostAlignment = 64;

// Note [Host buffer cache]: a fresh buffer of megabytes costs a page fault (and the
// kernel clearing the page) per 4 KiB or 2 MiB page at first touch, and glibc returns big
// buffers to the system at free(), so an operation repeated on arrays of one size paid
// the faults again at every call (`a + b` on 2^20 float32 elements: 3x NumPy's time,
// whose malloc keeps buffers up to 32 MiB in its heap). Freed buffers of at least
// kCacheMin bytes are kept, by allocation size, up to kCacheBytes in all (the oldest
// released first, CUNP_HOST_CACHE_MB overrides the size, 0 turns the cache off), and
// handed out again to a request of the same rounded size.
constexpr std::size_t kCacheMin = std::size_t{1} << 20;

class HostCache {
 public:
  HostCache() {
    if (const char* env = std::getenv("CUNP_HOST_CACHE_MB")) {
      char* end = nullptr;
      const long long mb = std::strtoll(env, &end, 10);
      if (end != env && *end == '\0' && mb >= 0) limit_ = static_cast<std::size_t>(mb) << 20;
    }
  }
  void* take(std::size_t size) {
    if (limit_ == 0) return nullptr;
    std::lock_guard<std::mutex> g(m_);
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it) {
      if (it->size == size) {
        void* p = it->ptr;
        held_ -= size;
        blocks_.erase(std::next(it).base());
        return p;
      }
    }
    return nullptr;
  }
  // Keeps `p` (of `size` bytes) or frees it.
  void give(void* p, std::size_t size) {
    if (size > limit_ / 2) {
      std::free(p);
      return;
    }
    std::vector<void*> evicted;
    {
      std::lock_guard<std::mutex> g(m_);
      blocks_.push_back({p, size});
      held_ += size;
      std::size_t drop = 0;
      while (held_ > limit_ && drop < blocks_.size()) {
        held_ -= blocks_[drop].size;
        evicted.push_back(blocks_[drop++].ptr);
      }
      blocks_.erase(blocks_.begin(), blocks_.begin() + static_cast<std::ptrdiff_t>(drop));
    }
    for (void* q : evicted) std::free(q);
  }

 private:
  struct Block {
    void* ptr;
    std::size_t size;
  };
  std::mutex m_;
  std::vector<Block> blocks_;  // oldest first
  std::size_t held_ = 0;
  std::size_t limit_ = std::size_t{1} << 30;
};

HostCache& host_cache() {
  static HostCache* const cache = new HostCache;  // never destroyed: buffers may be freed during exit
  return *cache;
}

std::shared_ptr<Storage> allocate_host(std::size_t nbytes) {
  if (nbytes > std::numeric_limits<std::size_t>::max() - kHostAlignment) {
    throw OutOfMemoryError(nbytes, 0, 0, "cpu");
  }
  // aligned_alloc wants a multiple of the alignment; a 0-byte request still gets a
  // unique, non-null buffer so data() can be compared and passed around.
  const std::size_t size =
      (std::max<std::size_t>(nbytes, 1) + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
  // Note [Huge pages for big host buffers]: first-touch page faults dominated large
  // cpu-device copies (2x slower than NumPy on a 256 MiB copy). Buffers of 4 MiB and
  // more are 2 MiB aligned and advised as transparent huge pages, as NumPy does.
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  const bool huge = size >= (std::size_t{4} << 20);
  const std::size_t alloc_size = huge ? (size + kHugePage - 1) / kHugePage * kHugePage : size;
  const bool cached = alloc_size >= kCacheMin;
  void* ptr = cached ? host_cache().take(alloc_size) : nullptr;
  if (ptr == nullptr) {
    ptr = std::aligned_alloc(huge ? kHugePage : kHostAlignment, alloc_size);
    if (ptr == nullptr) throw OutOfMemoryError(nbytes, 0, 0, "cpu");
    if (huge) madvise(ptr, alloc_size, MADV_HUGEPAGE);  // advice only: failure is harmless
  }
  try {
    if (cached) {
      return std::make_shared<Storage>(ptr, nbytes, Device::cpu(), [alloc_size](void* p) { host_cache().give(p, alloc_size); });
    }
    return std::make_shared<Storage>(ptr, nbytes, Device::cpu(), [](void* p) { std::free(p); });
  } catch (...) {
    std::free(ptr);
    throw;
  }
}

}  // namespace

Storage::Storage(void* ptr, std::size_t nbytes, Device device, std::function<void(void*)> release)
    : ptr_(ptr), nbytes_(nbytes), device_(device), release_(std::move(release)) {}

Storage::~Storage() {
  if (!release_) return;
  // A destructor cannot report a failure to anyone; say it rather than terminate.
  try {
    release_(ptr_);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cunp: failed to release %zu bytes on %s: %s\n", nbytes_,
                 device_.str().c_str(), e.what());
  } catch (...) {
    std::fprintf(stderr, "cunp: failed to release %zu bytes on %s\n", nbytes_,
                 device_.str().c_str());
  }
}

std::shared_ptr<Storage> allocate(Device device, std::size_t nbytes) {
  if (device.is_cpu()) return allocate_host(nbytes);
  return memory::allocate_cuda(device, nbytes);
}

}  // namespace cunp

// src/fft/plan_cache.cpp — the LRU plan cache.
#include "fft/plan_cache.hpp"

#include <string>

#include "cunp/error.hpp"

namespace cunp::fft::detail {

LruPlanCache::LruPlanCache(std::string name, std::int64_t size, std::int64_t memsize)
    : name_(std::move(name)), size_(size), memsize_(memsize) {}

LruPlanCache::~LruPlanCache() = default;

std::shared_ptr<Plan> LruPlanCache::get(const PlanKey& key, const Factory& make) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = index_.find(key); it != index_.end()) {
      ++hits_;
      lru_.splice(lru_.begin(), lru_, it->second);
      return it->second->second;
    }
    ++misses_;
  }
  std::shared_ptr<Plan> plan = make();
  std::list<Entry> evicted;
  {
    std::lock_guard lock(mutex_);
    if (auto it = index_.find(key); it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      return it->second->second;  // another thread planned it meanwhile; ours goes
    }
    const auto bytes = static_cast<std::int64_t>(plan->work_size());
    if (size_ == 0 || (memsize_ >= 0 && bytes > memsize_)) return plan;
    lru_.emplace_front(key, plan);
    index_.emplace(key, lru_.begin());
    curr_memsize_ += bytes;
    evicted = evict_locked();
  }
  return plan;
}

std::list<LruPlanCache::Entry> LruPlanCache::evict_locked() {
  std::list<Entry> evicted;
  auto over = [&] {
    return !lru_.empty() && ((size_ >= 0 && static_cast<std::int64_t>(lru_.size()) > size_) ||
                             (memsize_ >= 0 && curr_memsize_ > memsize_));
  };
  while (over()) {
    auto last = std::prev(lru_.end());
    index_.erase(last->first);
    curr_memsize_ -= static_cast<std::int64_t>(last->second->work_size());
    evicted.splice(evicted.begin(), lru_, last);
  }
  return evicted;
}

std::int64_t LruPlanCache::get_size() const {
  std::lock_guard lock(mutex_);
  return size_;
}

void LruPlanCache::set_size(std::int64_t size) {
  if (size < -1) throw ValueError("plan cache size must be -1 (no limit) or >= 0, got " + std::to_string(size));
  std::list<Entry> evicted;
  std::lock_guard lock(mutex_);
  size_ = size;
  evicted = evict_locked();
}

std::int64_t LruPlanCache::get_memsize() const {
  std::lock_guard lock(mutex_);
  return memsize_;
}

void LruPlanCache::set_memsize(std::int64_t memsize) {
  if (memsize < -1)
    throw ValueError("plan cache memsize must be -1 (no limit) or >= 0, got " + std::to_string(memsize));
  std::list<Entry> evicted;
  std::lock_guard lock(mutex_);
  memsize_ = memsize;
  evicted = evict_locked();
}

std::int64_t LruPlanCache::get_curr_size() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::int64_t>(lru_.size());
}

std::int64_t LruPlanCache::get_curr_memsize() const {
  std::lock_guard lock(mutex_);
  return curr_memsize_;
}

std::int64_t LruPlanCache::hits() const {
  std::lock_guard lock(mutex_);
  return hits_;
}

std::int64_t LruPlanCache::misses() const {
  std::lock_guard lock(mutex_);
  return misses_;
}

void LruPlanCache::clear() {
  std::list<Entry> dropped;
  std::lock_guard lock(mutex_);
  index_.clear();
  dropped.swap(lru_);
  curr_memsize_ = 0;
  hits_ = misses_ = 0;
}

// Plain concatenation, no std::ostringstream (Note [show_config without iostreams] in
// src/runtime/config.cpp).
std::string LruPlanCache::show_info() const {
  std::lock_guard lock(mutex_);
  auto limit = [](std::int64_t v) { return v < 0 ? std::string("unlimited") : std::to_string(v); };
  std::string s = "---------- FFT plan cache (" + name_ + ") ----------\n";
  s += std::string("cache enabled? ") + (size_ != 0 ? "True" : "False") + "\n";
  s += "current / max size   : " + std::to_string(lru_.size()) + " / " + limit(size_) + " (counts)\n";
  s += "current / max memsize: " + std::to_string(curr_memsize_) + " / " + limit(memsize_) + " (bytes)\n";
  s += "hits / misses: " + std::to_string(hits_) + " / " + std::to_string(misses_) + "\n\n";
  s += "cached plans (most recently used first):\n";
  for (const auto& [key, plan] : lru_)
    s += "  " + key.str() + ", work area " + std::to_string(plan->work_size()) + " bytes\n";
  return s;
}

}  // namespace cunp::fft::detail

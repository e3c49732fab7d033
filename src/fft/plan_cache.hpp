// src/fft/plan_cache.hpp — the LRU cache of FFT plans behind cunp::fft::PlanCache,
// shared by the cuFFT (one per device) and FFTW (one for the cpu device) backends.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "cunp/fft.hpp"
#include "fft/plan_key.hpp"

namespace cunp::fft::detail {

// A backend's plan. Destroyed when evicted and no caller holds it any more.
class Plan {
 public:
  virtual ~Plan() = default;
  // Bytes of work area the plan needs at execution (0 for FFTW).
  virtual std::size_t work_size() const noexcept = 0;
};

// Note [FFT plan cache]: lookups take the cache's mutex only for the hash lookup and
// the LRU update; a missing plan is created without it (cuFFT planning may take
// milliseconds), then inserted unless another thread got there first. Callers hold
// plans through shared_ptr, so eviction never destroys a plan in use, and evicted
// plans are destroyed after the mutex is released (FFTW's destructor takes the
// planner lock). A plan larger than `memsize` on its own is used once, not cached.
class LruPlanCache final : public PlanCache {
 public:
  // `name` heads show_info ("cuda:0", "cpu (FFTW)").
  LruPlanCache(std::string name, std::int64_t size, std::int64_t memsize);
  ~LruPlanCache() override;

  using Factory = std::function<std::unique_ptr<Plan>()>;
  std::shared_ptr<Plan> get(const PlanKey& key, const Factory& make);

  std::int64_t get_size() const override;
  void set_size(std::int64_t size) override;
  std::int64_t get_memsize() const override;
  void set_memsize(std::int64_t memsize) override;
  std::int64_t get_curr_size() const override;
  std::int64_t get_curr_memsize() const override;
  std::int64_t hits() const override;
  std::int64_t misses() const override;
  void clear() override;
  std::string show_info() const override;

 private:
  using Entry = std::pair<PlanKey, std::shared_ptr<Plan>>;
  // Drops least recently used entries until the limits hold; returns them so the
  // caller can destroy them outside the lock.
  std::list<Entry> evict_locked();

  std::string name_;
  mutable std::mutex mutex_;
  std::list<Entry> lru_;  // most recently used first
  std::unordered_map<PlanKey, std::list<Entry>::iterator, PlanKeyHash> index_;
  std::int64_t size_;
  std::int64_t memsize_;
  std::int64_t curr_memsize_ = 0;
  std::int64_t hits_ = 0, misses_ = 0;
};

}  // namespace cunp::fft::detail

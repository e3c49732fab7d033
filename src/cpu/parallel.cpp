// src/cpu/parallel.cpp — the cpu device's thread pool (Note [CPU thread pool]).
#include "cpu/parallel.hpp"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>

namespace cunp::cpu {

namespace {

// Note [CPU thread pool]: hardware_threads() - 1 worker threads, started at the first
// split loop and kept for the life of the process (never destroyed: a worker may still
// be waiting when static destructors run). A job is a function of a piece index; the
// caller and the workers take pieces from one counter until none is left, and the
// caller returns when every piece has finished. Waking a waiting worker costs a few
// microseconds where starting a thread cost tens; a worker that finished a job spins a
// little while before it blocks again, so the next loop of a sequence of operations
// finds it awake. One job runs at a time: a second thread starting a split loop while
// one runs does its pieces itself.
class Pool {
 public:
  explicit Pool(unsigned workers) {
    for (unsigned w = 0; w < workers; ++w) std::thread([this] { work(); }).detach();
  }

  void run(std::int64_t pieces, PieceFn fn, void* ctx) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) {
      for (std::int64_t k = 0; k < pieces; ++k) fn(ctx, k);
      return;
    }
    {
      // A worker may still be inside the last job, about to find its counter exhausted:
      // the counter is reset only once every worker has left.
      std::unique_lock<std::mutex> l(m_);
      finished_.wait(l, [&] { return active_.load(std::memory_order_acquire) == 0; });
      fn_ = fn;
      ctx_ = ctx;
      pieces_ = pieces;
      next_.store(0, std::memory_order_relaxed);
      done_.store(0, std::memory_order_relaxed);
      error_ = nullptr;
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    take(fn, ctx, pieces);
    // Wait for the pieces the workers took: spin briefly, then block.
    auto over = [&] { return done_.load(std::memory_order_acquire) >= pieces; };
    for (int i = 0; i < kSpin && !over(); ++i) pause();
    if (!over()) {
      std::unique_lock<std::mutex> l(m_);
      finished_.wait(l, over);
    }
    if (error_) std::rethrow_exception(error_);
  }

 private:
  static constexpr int kSpin = 20000;  // about 50-100 microseconds of pause instructions

  static void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }

  void take(PieceFn fn, void* ctx, std::int64_t pieces) {
    SplitScope scope;
    for (;;) {
      const std::int64_t k = next_.fetch_add(1, std::memory_order_relaxed);
      if (k >= pieces) return;
      try {
        fn(ctx, k);
      } catch (...) {
        std::lock_guard<std::mutex> g(m_);
        if (!error_) error_ = std::current_exception();
      }
      if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == pieces) {
        std::lock_guard<std::mutex> g(m_);  // (the caller may be between its check and its wait)
        finished_.notify_all();
      }
    }
  }

  void work() {
    std::uint64_t seen = 0;
    for (;;) {
      for (int i = 0; i < kSpin && generation_.load(std::memory_order_acquire) == seen; ++i) pause();
      PieceFn fn;
      void* ctx;
      std::int64_t pieces;
      {
        std::unique_lock<std::mutex> l(m_);
        wake_.wait(l, [&] { return generation_.load(std::memory_order_acquire) != seen; });
        seen = generation_.load(std::memory_order_acquire);
        fn = fn_;
        ctx = ctx_;
        pieces = pieces_;
        active_.fetch_add(1, std::memory_order_relaxed);
      }
      take(fn, ctx, pieces);
      if (active_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> g(m_);
        finished_.notify_all();
      }
    }
  }

  std::mutex busy_;  // held by the caller of the running job
  std::mutex m_;
  std::condition_variable wake_, finished_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<std::int64_t> next_{0}, done_{0};
  std::atomic<int> active_{0};  // workers inside the current job
  PieceFn fn_ = nullptr;
  void* ctx_ = nullptr;
  std::int64_t pieces_ = 0;
  std::exception_ptr error_;
};

}  // namespace

void run_pieces(std::int64_t pieces, PieceFn fn, void* ctx) {
  if (pieces <= 0) return;
  if (pieces == 1 || hardware_threads() == 1 || t_in_split) {
    SplitScope scope;
    for (std::int64_t k = 0; k < pieces; ++k) fn(ctx, k);
    return;
  }
  static Pool* const pool = new Pool(hardware_threads() - 1);  // never deleted (Note [CPU thread pool])
  pool->run(pieces, fn, ctx);
}

}  // namespace cunp::cpu

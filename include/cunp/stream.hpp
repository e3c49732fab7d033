// cunp/stream.hpp — CUDA streams and events; the current stream of each device.
#pragma once

#include <functional>
#include <memory>

namespace cunp {

// A CUDA stream (shared handle). Every operation on a CUDA device is enqueued on the
// current stream of that device. Handles are `void*` so the public headers need no
// CUDA headers; they are `cudaStream_t` values.
class Stream {
 public:
  // The null stream of the current CUDA device: the legacy default stream, or the
  // per-thread default stream when CUNP_CUDA_PER_THREAD_DEFAULT_STREAM=1.
  Stream();
  static Stream null(int device);
  // The legacy default stream (cudaStreamLegacy) of `device` (-1: the current CUDA
  // device), whatever CUNP_CUDA_PER_THREAD_DEFAULT_STREAM says. Python: Stream.null.
  static Stream legacy(int device = -1);
  // The calling thread's per-thread default stream (cudaStreamPerThread). Python: Stream.ptds.
  static Stream per_thread(int device = -1);
  // A new stream owned by the returned handle (destroyed with the last copy).
  static Stream create(int device = -1, bool non_blocking = false, int priority = 0);
  // Wraps a foreign cudaStream_t, never destroyed here: its creator keeps it alive past the
  // arrays allocated on it (a free records an event). Python: Stream.from_external.
  static Stream external(void* handle, int device = -1);

  void* handle() const noexcept;
  int device() const noexcept;
  bool is_null() const noexcept;
  bool non_blocking() const noexcept;
  void synchronize() const;
  bool query() const;  // true when all enqueued work has finished
  // Makes this stream wait until `event` has completed.
  void wait_event(const class Event& event) const;
  // Runs `fn` on a CUDA host thread once the work enqueued so far has finished; later
  // work on the stream waits for it (cudaLaunchHostFunc). `fn` must not call CUDA, and
  // an exception it throws is reported on stderr, not propagated.
  // Python: Stream.launch_host_func(callback, arg).
  void launch_host_func(std::function<void()> fn) const;
  // Like launch_host_func, through cudaStreamAddCallback: `fn` receives the stream's
  // status (a cudaError_t value, 0 when the preceding work succeeded).
  // Python: Stream.add_callback(callback, arg).
  void add_callback(std::function<void(int status)> fn) const;
  friend bool operator==(const Stream& a, const Stream& b) noexcept {
    return a.handle() == b.handle() && a.device() == b.device();
  }

  struct Impl;  // opaque

 private:
  explicit Stream(std::shared_ptr<Impl> impl);
  std::shared_ptr<Impl> impl_;
};

// The current stream of `device` (-1: the current CUDA device) for the calling thread.
Stream current_stream(int device = -1);
// Sets the calling thread's current stream for the stream's device.
void set_current_stream(const Stream& stream);

// Makes `stream` current for the guard's lifetime. Python: `with stream:`.
class StreamGuard {
 public:
  explicit StreamGuard(const Stream& stream);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  Stream previous_;
};

// A CUDA event (shared handle).
class Event {
 public:
  // On the current CUDA device. `interprocess` needs `disable_timing` (ValueError
  // otherwise, checked before any CUDA call, as CuPy).
  explicit Event(bool blocking = false, bool disable_timing = false, bool interprocess = false);
  void record() const;  // on the current stream
  void record(const Stream& stream) const;
  void synchronize() const;
  bool query() const;  // true when the recorded work has completed
  void* handle() const noexcept;
  int device() const noexcept;
  struct Impl;  // opaque

 private:
  std::shared_ptr<Impl> impl_;
};

// Milliseconds between two recorded events (cudaEventElapsedTime).
float get_elapsed_time(const Event& start, const Event& end);

// Waits for all work on the current CUDA device.
void device_synchronize();

}  // namespace cunp

// cunp/stream.hpp — CUDA streams and events; the current stream of each device.
#pragma once

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
  // A new stream owned by the returned handle (destroyed with the last copy).
  static Stream create(int device = -1, bool non_blocking = false, int priority = 0);
  // Wraps a stream created elsewhere (not owned). Python: cunp.cuda.ExternalStream.
  static Stream external(void* handle, int device);

  void* handle() const noexcept;
  int device() const noexcept;
  bool is_null() const noexcept;
  bool non_blocking() const noexcept;
  void synchronize() const;
  bool query() const;  // true when all enqueued work has finished
  // Makes this stream wait until `event` has completed.
  void wait_event(const class Event& event) const;
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

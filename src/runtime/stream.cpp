// src/runtime/stream.cpp — streams, events and the per-thread current stream.
#include "cunp/stream.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/runtime.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "runtime/env.hpp"

namespace cunp {
namespace {

// Note [Per-thread default stream]: with CUNP_CUDA_PER_THREAD_DEFAULT_STREAM=1 the
// "null" stream is cudaStreamPerThread, so threads that never pick a stream do not
// serialize on the legacy default stream.
cudaStream_t null_handle() {
  static const bool per_thread = [] {
    const char* env = env_or_cupy("CUDA_PER_THREAD_DEFAULT_STREAM");
    return env && env[0] == '1';
  }();
  return per_thread ? cudaStreamPerThread : cudaStreamLegacy;
}

int resolve_device(int device) { return device < 0 ? current_cuda_device() : device; }

}  // namespace

struct Stream::Impl {
  cudaStream_t handle = nullptr;
  int device = 0;
  bool owned = false;
  bool non_blocking = false;
  ~Impl() {
    if (owned && handle) {
      cuda::DeviceScope scope(device);
      cudaStreamDestroy(handle);
    }
  }
};

namespace {

// One shared Impl per device for each default stream, so handing one out allocates nothing.
template <cudaStream_t (*Handle)()>
std::shared_ptr<Stream::Impl> default_impl(int device) {
  static const std::vector<std::shared_ptr<Stream::Impl>> impls = [] {
    std::vector<std::shared_ptr<Stream::Impl>> v;
    for (int i = 0; i < cuda_device_count(); ++i) {
      auto impl = std::make_shared<Stream::Impl>();
      impl->handle = Handle();
      impl->device = i;
      v.push_back(impl);
    }
    return v;
  }();
  check_device(Device::cuda(device));
  return impls[static_cast<std::size_t>(device)];
}

cudaStream_t legacy_handle() { return cudaStreamLegacy; }
cudaStream_t per_thread_handle() { return cudaStreamPerThread; }

std::shared_ptr<Stream::Impl> null_impl(int device) { return default_impl<null_handle>(device); }

thread_local std::vector<Stream> tl_current_streams;

}  // namespace

Stream::Stream() : impl_(null_impl(current_cuda_device())) {}
Stream::Stream(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

Stream Stream::null(int device) { return Stream(null_impl(resolve_device(device))); }
Stream Stream::legacy(int device) {
  return Stream(default_impl<legacy_handle>(resolve_device(device)));
}
Stream Stream::per_thread(int device) {
  return Stream(default_impl<per_thread_handle>(resolve_device(device)));
}

Stream Stream::create(int device, bool non_blocking, int priority) {
  device = resolve_device(device);
  check_device(Device::cuda(device));
  cuda::DeviceScope scope(device);
  auto impl = std::make_shared<Impl>();
  impl->device = device;
  impl->owned = true;
  impl->non_blocking = non_blocking;
  cuda::check_cuda(
      cudaStreamCreateWithPriority(
          &impl->handle, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault, priority),
      "cudaStreamCreateWithPriority");
  return Stream(std::move(impl));
}

Stream Stream::external(void* handle, int device) {
  device = resolve_device(device);
  check_device(Device::cuda(device));
  auto impl = std::make_shared<Impl>();
  impl->handle = static_cast<cudaStream_t>(handle);
  impl->device = device;
  return Stream(std::move(impl));
}

void* Stream::handle() const noexcept { return impl_->handle; }
int Stream::device() const noexcept { return impl_->device; }
bool Stream::is_null() const noexcept {
  return impl_->handle == nullptr || impl_->handle == cudaStreamLegacy ||
         impl_->handle == cudaStreamPerThread;
}
bool Stream::non_blocking() const noexcept { return impl_->non_blocking; }

void Stream::synchronize() const {
  cuda::DeviceScope scope(impl_->device);
  cuda::check_cuda(cudaStreamSynchronize(impl_->handle), "cudaStreamSynchronize");
}

bool Stream::query() const {
  cuda::DeviceScope scope(impl_->device);
  const cudaError_t err = cudaStreamQuery(impl_->handle);
  if (err == cudaErrorNotReady) return false;
  cuda::check_cuda(err, "cudaStreamQuery");
  return true;
}

void Stream::wait_event(const Event& event) const {
  cuda::DeviceScope scope(impl_->device);
  cuda::check_cuda(cudaStreamWaitEvent(impl_->handle, static_cast<cudaEvent_t>(event.handle()), 0),
                   "cudaStreamWaitEvent");
}

namespace {

// Note [Host callbacks]: CUDA calls a plain function pointer with one void* of user
// data, once. The std::function travels as that pointer, owned by the enqueued call:
// the trampoline takes it back (and frees it) when CUDA runs it; a failed enqueue frees
// it at once. Nothing may unwind into the CUDA thread, so exceptions stop there.
void report_callback_exception(const char* what) {
  std::fprintf(stderr, "cunp: exception in a stream host callback: %s\n", what);
}

void CUDART_CB run_host_func(void* data) {
  const std::unique_ptr<std::function<void()>> fn(static_cast<std::function<void()>*>(data));
  try {
    (*fn)();
  } catch (const std::exception& e) {
    report_callback_exception(e.what());
  } catch (...) {
    report_callback_exception("unknown exception");
  }
}

void CUDART_CB run_stream_callback(cudaStream_t, cudaError_t status, void* data) {
  const std::unique_ptr<std::function<void(int)>> fn(static_cast<std::function<void(int)>*>(data));
  try {
    (*fn)(static_cast<int>(status));
  } catch (const std::exception& e) {
    report_callback_exception(e.what());
  } catch (...) {
    report_callback_exception("unknown exception");
  }
}

}  // namespace

void Stream::launch_host_func(std::function<void()> fn) const {
  if (!fn) throw ValueError("launch_host_func: the callback is empty");
  auto owned = std::make_unique<std::function<void()>>(std::move(fn));
  cuda::DeviceScope scope(impl_->device);
  cuda::check_cuda(cudaLaunchHostFunc(impl_->handle, &run_host_func, owned.get()),
                   "cudaLaunchHostFunc");
  (void)owned.release();  // run_host_func owns it now
}

void Stream::add_callback(std::function<void(int status)> fn) const {
  if (!fn) throw ValueError("add_callback: the callback is empty");
  auto owned = std::make_unique<std::function<void(int)>>(std::move(fn));
  cuda::DeviceScope scope(impl_->device);
  cuda::check_cuda(cudaStreamAddCallback(impl_->handle, &run_stream_callback, owned.get(), 0),
                   "cudaStreamAddCallback");
  (void)owned.release();  // run_stream_callback owns it now
}

Stream current_stream(int device) {
  device = resolve_device(device);
  const auto d = static_cast<std::size_t>(device);
  if (d < tl_current_streams.size()) return tl_current_streams[d];
  return Stream::null(device);
}

void set_current_stream(const Stream& stream) {
  const auto d = static_cast<std::size_t>(stream.device());
  if (tl_current_streams.size() <= d) {
    tl_current_streams.reserve(d + 1);
    while (tl_current_streams.size() <= d) {
      tl_current_streams.push_back(Stream::null(static_cast<int>(tl_current_streams.size())));
    }
  }
  tl_current_streams[d] = stream;
}

StreamGuard::StreamGuard(const Stream& stream) : previous_(current_stream(stream.device())) {
  set_current_stream(stream);
}
StreamGuard::~StreamGuard() { set_current_stream(previous_); }

struct Event::Impl {
  cudaEvent_t handle = nullptr;
  int device = 0;
  ~Impl() {
    if (handle) {
      cuda::DeviceScope scope(device);
      cudaEventDestroy(handle);
    }
  }
};

Event::Event(bool blocking, bool disable_timing, bool interprocess) {
  if (interprocess && !disable_timing) {
    throw ValueError("Timing must be disabled for interprocess events (pass disable_timing=True)");
  }
  impl_ = std::make_shared<Impl>();
  impl_->device = current_cuda_device();
  unsigned flags = cudaEventDefault;
  if (blocking) flags |= cudaEventBlockingSync;
  if (disable_timing) flags |= cudaEventDisableTiming;
  if (interprocess) flags |= cudaEventInterprocess;
  cuda::check_cuda(cudaEventCreateWithFlags(&impl_->handle, flags), "cudaEventCreateWithFlags");
}

void Event::record() const { record(current_stream(impl_->device)); }
void Event::record(const Stream& stream) const {
  if (stream.device() != impl_->device) {
    throw ValueError("cannot record an event of device cuda:" + std::to_string(impl_->device) +
                     " on a stream of device cuda:" + std::to_string(stream.device()));
  }
  cuda::DeviceScope scope(impl_->device);
  cuda::check_cuda(cudaEventRecord(impl_->handle, static_cast<cudaStream_t>(stream.handle())),
                   "cudaEventRecord");
}
void Event::synchronize() const {
  cuda::check_cuda(cudaEventSynchronize(impl_->handle), "cudaEventSynchronize");
}
bool Event::query() const {
  const cudaError_t err = cudaEventQuery(impl_->handle);
  if (err == cudaErrorNotReady) return false;
  cuda::check_cuda(err, "cudaEventQuery");
  return true;
}
void* Event::handle() const noexcept { return impl_->handle; }
int Event::device() const noexcept { return impl_->device; }

float get_elapsed_time(const Event& start, const Event& end) {
  float ms = 0;
  cuda::check_cuda(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start.handle()),
                                        static_cast<cudaEvent_t>(end.handle())),
                   "cudaEventElapsedTime");
  return ms;
}

void device_synchronize() { cuda::check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

namespace cuda {

DeviceScope::DeviceScope(int index) : previous_(-1) {
  int cur = -1;
  if (cudaGetDevice(&cur) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  if (cur != index) {
    previous_ = cur;
    cudaSetDevice(index);
  }
}
DeviceScope::~DeviceScope() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

cudaDeviceProp device_properties(int device) {
  cudaDeviceProp p{};
  cuda::check_cuda(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
  return p;
}

cudaStream_t current_stream_handle() {
  return static_cast<cudaStream_t>(current_stream().handle());
}

}  // namespace cuda
}  // namespace cunp

// src/interop/external_memory.cpp — arrays over memory another library owns
// (from_pointer), the device of a pointer, and ordering one stream after another.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "runtime/runtime.hpp"
#include "cunp/error.hpp"
#include "cunp/interop.hpp"

namespace cunp {
namespace {

std::string pointer_str(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

}  // namespace

// Note [Releasing external device memory]: the owner of external memory (a PyTorch
// tensor, a DLPack producer) may hand the memory to its next user the moment cunp lets
// go of it, ordered on the owner's own stream — which knows nothing of the kernels cunp
// queued on its current stream. cunp's pool avoids this for its own blocks with an event
// on the allocation stream; for foreign memory the release first synchronizes the stream
// that was current when the array was made (the one its work goes to unless the program
// switches streams), then hands the memory back. The wait costs nothing when the stream
// is idle. A program that switched streams meanwhile must synchronize itself, as with
// memory from the pool used on several streams.
ndarray from_pointer(void* data, DType dtype, const Shape& shape,
                     const std::optional<Strides>& strides, Device device,
                     std::function<void()> release) {
  check_device(device);
  const auto isz = static_cast<std::int64_t>(itemsize(dtype));
  const std::int64_t n = shape_size(shape);
  Strides st = strides ? *strides : contiguous_strides(shape, isz, Order::C);
  if (st.size() != shape.size()) {
    throw ValueError("from_pointer: strides of length " + std::to_string(st.size()) +
                     " for shape " + shape_str(shape) + " of " + std::to_string(shape.size()) +
                     " dimensions");
  }
  if (data == nullptr && n > 0) {
    throw ValueError("from_pointer: a null data pointer for shape " + shape_str(shape) + " of " +
                     std::to_string(n) + " elements");
  }
  // The byte range [lo, hi) around `data` that the view reaches; the Storage is exactly it.
  std::int64_t lo = 0, hi = n == 0 ? 0 : isz;
  for (std::size_t i = 0; i < shape.size() && n > 0; ++i) {
    const std::int64_t span = (shape[i] - 1) * st[i];
    (span < 0 ? lo : hi) += span;
  }
  // The release is armed only once the array exists: when this function throws, the
  // caller still owns the memory (from_dlpack's contract), so nothing may be released.
  auto armed = std::make_shared<bool>(false);
  std::function<void(void*)> on_release;
  if (release) {
    if (device.is_cuda()) {
      on_release = [armed, stream = current_stream(device.index),
                    release = std::move(release)](void*) {
        if (!*armed) return;
        try {
          stream.synchronize();
        } catch (const CudaError& e) {
          release();  // the memory goes back even when the wait failed
          // At process exit the runtime may be gone before the last arrays: nothing to wait for.
          if (e.code() == cudaErrorCudartUnloading) return;
          throw;  // reported by ~Storage
        }
        release();
      };
    } else {
      on_release = [armed, release = std::move(release)](void*) {
        if (*armed) release();
      };
    }
  }
  auto storage =
      std::make_shared<Storage>(static_cast<char*>(data) + lo, static_cast<std::size_t>(hi - lo),
                                device, std::move(on_release));
  ndarray out(std::move(storage), dtype, shape, std::move(st), -lo);
  *armed = true;
  return out;
}

Device pointer_device(const void* ptr) {
  if (ptr == nullptr || cuda_device_count() == 0) return Device::cpu();
  cudaPointerAttributes attr{};
  const cudaError_t err = cudaPointerGetAttributes(&attr, ptr);
  // Before CUDA 11 an address CUDA never saw was cudaErrorInvalidValue; now it is
  // cudaMemoryTypeUnregistered. Either way it is plain host memory.
  if (err == cudaErrorInvalidValue) {
    (void)cudaGetLastError();
    return Device::cpu();
  }
  cuda::check_cuda(err, ("cudaPointerGetAttributes(" + pointer_str(ptr) + ")").c_str());
  if (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged)
    return Device::cuda(attr.device);
  return Device::cpu();
}

void order_streams(const Stream& producer, const Stream& consumer) {
  if (producer.device() != consumer.device()) {
    throw ValueError(
        "order_streams: the producer's stream is on cuda:" + std::to_string(producer.device()) +
        " and the consumer's on cuda:" + std::to_string(consumer.device()));
  }
  if (producer.handle() == consumer.handle()) return;
  cuda::DeviceScope scope(producer.device());
  const Event event(false, /*disable_timing=*/true);
  event.record(producer);
  consumer.wait_event(event);
}

}  // namespace cunp

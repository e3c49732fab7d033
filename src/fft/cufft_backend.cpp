// src/fft/cufft_backend.cpp — FFT on CUDA devices through cuFFT: plans made with
// cufftMakePlanMany64 in the advanced layout, cached per device, bound to the current
// stream at each call, work areas from the device's memory pool.
#include <cufft.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/runtime.hpp"
#include "runtime/vendor_lib.hpp"
#include "cunp/error.hpp"
#include "cunp/memory.hpp"
#include "fft/backend.hpp"

namespace cunp::fft::detail {

namespace {

const char* cufft_result_name(cufftResult r) {
  switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "CUFFT error";
  }
}

void check_cufft(cufftResult r, const char* call) {
  if (r != CUFFT_SUCCESS) [[unlikely]]
    throw CudaError(call, static_cast<int>(r), cufft_result_name(r));
}

// fn(args...) through the lazily loaded cuFFT (Note [Lazy vendor libraries]), checked.
#define CUNP_CUFFT_CALL(fn, ...) check_cufft(CUNP_VENDOR(cufft, fn)(__VA_ARGS__), #fn)

cufftType cufft_type(const PlanKey& key) {
  switch (key.kind) {
    case Kind::C2C: return key.double_precision ? CUFFT_Z2Z : CUFFT_C2C;
    case Kind::R2C: return key.double_precision ? CUFFT_D2Z : CUFFT_R2C;
    case Kind::C2R: return key.double_precision ? CUFFT_Z2D : CUFFT_C2R;
  }
  return CUFFT_C2C;
}

class CufftPlan final : public Plan {
 public:
  CufftPlan(int device, const PlanKey& key) : device_(device), key_(key) {
    cuda::DeviceScope scope(device);
    CUNP_CUFFT_CALL(cufftCreate, &handle_);
    try {
      // Note [cuFFT work areas]: with auto-allocation off cuFFT owns no memory; each
      // execution borrows its work area from the caching pool on the current stream,
      // so idle cached plans hold nothing and the pool's limit covers FFT scratch too.
      CUNP_CUFFT_CALL(cufftSetAutoAllocation, handle_, 0);
      std::vector<long long> n(key.n.begin(), key.n.end());
      std::vector<long long> inembed(key.in.embed.begin(), key.in.embed.end());
      std::vector<long long> onembed(key.out.embed.begin(), key.out.embed.end());
      std::size_t work = 0;
      CUNP_CUFFT_CALL(cufftMakePlanMany64, handle_, static_cast<int>(n.size()), n.data(), inembed.data(),
                      key.in.stride, key.in.dist, onembed.data(), key.out.stride, key.out.dist, cufft_type(key),
                      key.batch, &work);
      work_size_ = work;
    } catch (...) {
      CUNP_VENDOR(cufft, cufftDestroy)(handle_);
      throw;
    }
  }
  ~CufftPlan() override {
    cuda::DeviceScope scope(device_);
    CUNP_VENDOR(cufft, cufftDestroy)(handle_);  // no check: a failure here has nothing left to clean up
  }
  std::size_t work_size() const noexcept override { return work_size_; }

  // Enqueues the transform on the current stream (the caller made the device current).
  void execute(void* in, void* out) {
    std::shared_ptr<Storage> work;
    if (work_size_ > 0) work = allocate(Device::cuda(device_), work_size_);
    // A plan holds one stream and one work area: concurrent callers take turns for the
    // few microseconds of binding and enqueuing.
    std::lock_guard lock(mutex_);
    // Bound only when they change: a small transform's host time is mostly these calls.
    if (const cudaStream_t stream = cuda::current_stream_handle(); stream != bound_stream_) {
      CUNP_CUFFT_CALL(cufftSetStream, handle_, stream);
      bound_stream_ = stream;
    }
    if (work && work->data() != bound_work_) {
      CUNP_CUFFT_CALL(cufftSetWorkArea, handle_, work->data());
      bound_work_ = work->data();
    }
    const int dir = key_.forward ? CUFFT_FORWARD : CUFFT_INVERSE;
    switch (cufft_type(key_)) {
      case CUFFT_C2C:
        CUNP_CUFFT_CALL(cufftExecC2C, handle_, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out), dir);
        break;
      case CUFFT_Z2Z:
        CUNP_CUFFT_CALL(cufftExecZ2Z, handle_, static_cast<cufftDoubleComplex*>(in),
                        static_cast<cufftDoubleComplex*>(out), dir);
        break;
      case CUFFT_R2C:
        CUNP_CUFFT_CALL(cufftExecR2C, handle_, static_cast<cufftReal*>(in), static_cast<cufftComplex*>(out));
        break;
      case CUFFT_D2Z:
        CUNP_CUFFT_CALL(cufftExecD2Z, handle_, static_cast<cufftDoubleReal*>(in),
                        static_cast<cufftDoubleComplex*>(out));
        break;
      case CUFFT_C2R:
        CUNP_CUFFT_CALL(cufftExecC2R, handle_, static_cast<cufftComplex*>(in), static_cast<cufftReal*>(out));
        break;
      case CUFFT_Z2D:
        CUNP_CUFFT_CALL(cufftExecZ2D, handle_, static_cast<cufftDoubleComplex*>(in),
                        static_cast<cufftDoubleReal*>(out));
        break;
      default: break;
    }
    // `work` returns to the pool here; the pool's stream ordering keeps it from being
    // reused on another stream before this transform has run.
  }

 private:
  int device_;
  PlanKey key_;
  cudaStream_t bound_stream_ = nullptr;  // what cufftSetStream / cufftSetWorkArea last set
  void* bound_work_ = nullptr;
  cufftHandle handle_ = 0;
  std::size_t work_size_ = 0;
  std::mutex mutex_;
};

}  // namespace

LruPlanCache& cufft_plan_cache(int device) {
  // Note [Leaked plan caches]: the caches are never destroyed; destroying cuFFT plans
  // during static destruction can run after the CUDA runtime has shut down.
  static std::mutex mutex;
  static std::vector<LruPlanCache*> caches;
  std::lock_guard lock(mutex);
  if (device < 0 || device >= cuda_device_count())
    throw ValueError("invalid CUDA device " + std::to_string(device) + " (" + std::to_string(cuda_device_count()) +
                     " available)");
  if (caches.size() <= static_cast<std::size_t>(device)) caches.resize(static_cast<std::size_t>(device) + 1);
  // CuPy's defaults: 16 plans, no memory limit.
  if (!caches[device]) caches[device] = new LruPlanCache("cuda:" + std::to_string(device), 16, -1);
  return *caches[device];
}

void execute_cufft(int device, const PlanKey& key, void* in, void* out) {
  cuda::DeviceScope scope(device);
  auto plan = cufft_plan_cache(device).get(key, [&] { return std::make_unique<CufftPlan>(device, key); });
  static_cast<CufftPlan&>(*plan).execute(in, out);
}

}  // namespace cunp::fft::detail

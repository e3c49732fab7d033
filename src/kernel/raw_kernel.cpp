// src/kernel/raw_kernel.cpp — RawKernel (cunp/raw_kernel.hpp): the kernel of a module on
// each device, its parameter layout, attributes and the launch; RawModule::get_function.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "runtime/check.hpp"
#include "runtime/kernel_cache.hpp"
#include "kernel/raw_args.hpp"
#include "kernel/raw_module.hpp"
#include "kernel/raw_signature.hpp"
#include "runtime/runtime.hpp"
#include "kernel/user_elementwise.hpp"
#include "cunp/error.hpp"

namespace cunp {

struct RawKernel::Impl {
  RawModule module;
  std::string name;
  std::optional<std::vector<RawKernelParam>> declared;  // from the source, when found

  mutable std::shared_mutex mutex;
  struct OnDevice {
    cudaKernel_t handle = nullptr;
    int applied = -1;  // the attribute generation applied on this device
  };
  mutable std::unordered_map<int, OnDevice> devices;
  // The layout launches convert to: `declared` checked against the driver (first load).
  mutable std::optional<std::vector<RawKernelParam>> layout;
  mutable bool layout_checked = false;
  // Attributes set through the setters, applied on every device the kernel runs on.
  std::optional<int> max_dynamic_shared;
  std::optional<int> carveout;
  int generation = 0;

  Impl(RawModule m, std::string n) : module(std::move(m)), name(std::move(n)) {
    const RawModule::Impl& mi = *module.impl_;
    if (!mi.is_binary) declared = cuda::raw::parse_kernel_params(mi.code, name, mi.options.options);
  }

  struct Resolved {
    cudaKernel_t handle;
    const std::optional<std::vector<RawKernelParam>>* layout;
  };
  // The kernel on CUDA device `device` (current in the caller's scope), compiled, loaded
  // and given the set attributes on first use.
  Resolved resolve(int device) const;
  void apply_attributes(cudaKernel_t handle) const;
};

namespace {

// Each parameter's size as the driver lays the kernel out (cudaFuncGetParamInfo, CUDA
// 12.4+), or nullopt where the driver cannot tell.
std::optional<std::vector<std::size_t>> driver_param_sizes(cudaKernel_t handle) {
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i < 4096; ++i) {
    std::size_t offset = 0, size = 0;
    const cudaError_t err =
        cudaFuncGetParamInfo(reinterpret_cast<const void*>(handle), i, &offset, &size);
    if (err == cudaSuccess) {
      sizes.push_back(size);
      continue;
    }
    (void)cudaGetLastError();
    if (err == cudaErrorInvalidValue) return sizes;  // past the last parameter
    return std::nullopt;
  }
  return std::nullopt;
}

// Note [RawKernel parameter layout]: the declaration gives kinds, the driver sizes.
// Where both are known and agree the declaration stands; a parameter whose size the
// declaration does not know takes the driver's; one whose size disagrees becomes kind
// Other of the driver's size (only exact bytes of that size pass). A declaration with
// another parameter count is the wrong one (an overload, an #if branch) and is
// replaced by the driver's layout. A driver that reports no parameters for a declared
// list is taken as unable to tell.
std::optional<std::vector<RawKernelParam>> merge_layout(
    const std::optional<std::vector<RawKernelParam>>& declared,
    const std::optional<std::vector<std::size_t>>& driver) {
  if (!driver || (declared && driver->empty() && !declared->empty())) return declared;
  if (!declared || declared->size() != driver->size()) {
    std::vector<RawKernelParam> out(driver->size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i].size = (*driver)[i];
    return out;
  }
  std::vector<RawKernelParam> out = *declared;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::size_t d = (*driver)[i];
    if (out[i].size == d) continue;
    if (out[i].size != 0) {
      out[i].kind = RawParamKind::Other;
      out[i].dtype.reset();
    }
    out[i].size = d;
  }
  return out;
}

// Note [RawKernel attributes]: set with cudaFuncSetAttribute on the kernel handle in
// the current device's context, the call cudaFuncGetAttributes reads back, and the
// function cuda::launch (cuKernelGetFunction in that context) and
// cudaLaunchCooperativeKernel launch. A kernel handle serves every device, so each
// device gets the recorded values before its first launch.
void set_attribute(cudaKernel_t handle, cudaFuncAttribute attr, int value, const char* what) {
  if (const cudaError_t err =
          cudaFuncSetAttribute(reinterpret_cast<const void*>(handle), attr, value);
      err != cudaSuccess)
    cuda::throw_cuda_error(what, err);
}

void check_dims(const Dim3& d, const char* what, const std::string& kernel) {
  if (d.x == 0 || d.y == 0 || d.z == 0)
    throw ValueError("RawKernel '" + kernel + "': " + what +
                     " must be positive in every dimension, got (" + std::to_string(d.x) + ", " +
                     std::to_string(d.y) + ", " + std::to_string(d.z) + ")");
}

}  // namespace

void RawKernel::Impl::apply_attributes(cudaKernel_t handle) const {
  if (max_dynamic_shared)
    set_attribute(handle, cudaFuncAttributeMaxDynamicSharedMemorySize, *max_dynamic_shared,
                  "cudaFuncSetAttribute(max_dynamic_shared_size_bytes)");
  if (carveout)
    set_attribute(handle, cudaFuncAttributePreferredSharedMemoryCarveout, *carveout,
                  "cudaFuncSetAttribute(preferred_shared_memory_carveout)");
}

RawKernel::Impl::Resolved RawKernel::Impl::resolve(int device) const {
  {
    std::shared_lock lock(mutex);
    if (const auto it = devices.find(device);
        it != devices.end() && it->second.applied == generation)
      return {it->second.handle, &layout};
  }
  std::unique_lock lock(mutex);
  OnDevice& on = devices[device];
  if (on.handle == nullptr) {
    const cuda::raw::LoadedLibrary& lib = module.impl_->library(device);
    const std::string& symbol = lib.symbol(name);
    if (const cudaError_t err = cudaLibraryGetKernel(&on.handle, lib.handle, symbol.c_str());
        err != cudaSuccess) {
      (void)cudaGetLastError();
      devices.erase(device);
      throw CudaError("cudaLibraryGetKernel(" + symbol + ")", static_cast<int>(err),
                      std::string(cudaGetErrorName(err)) + ": module '" +
                          module.impl_->program_name + "' has no kernel '" + name +
                          "'; its kernels: " + lib.kernel_names());
    }
    if (!layout_checked) {
      layout = merge_layout(declared, driver_param_sizes(on.handle));
      layout_checked = true;
    }
  }
  if (on.applied != generation) {
    apply_attributes(on.handle);
    on.applied = generation;
  }
  return {on.handle, &layout};
}

RawKernel::RawKernel(std::string code, std::string name, RawModuleOptions options) {
  if (name.empty()) throw ValueError("RawKernel: the kernel name is empty");
  // A C++ name ("f<float>", "ns::g") is lowered by NVRTC; an extern "C" name is the symbol.
  if (!cuda::user::is_identifier(name) &&
      std::find(options.name_expressions.begin(), options.name_expressions.end(), name) ==
          options.name_expressions.end())
    options.name_expressions.push_back(name);
  RawModule module(
      cuda::raw::make_source_module(std::move(code), std::move(options), name, {}, "RawKernel"));
  impl_ = std::make_shared<Impl>(std::move(module), std::move(name));
}

void RawKernel::operator()(Dim3 grid, Dim3 block, const std::vector<RawArg>& args,
                           const RawLaunchOptions& launch) const {
  check_dims(grid, "grid", impl_->name);
  check_dims(block, "block", impl_->name);
  const int device = launch.stream ? launch.stream->device() : current_cuda_device();
  cuda::DeviceScope scope(device);
  const Impl::Resolved k = impl_->resolve(device);
  cuda::raw::PackedArgs packed =
      cuda::raw::pack_args(args, *k.layout, Device::cuda(device), impl_->name);
  const Stream stream = launch.stream ? *launch.stream : current_stream(device);
  const auto s = static_cast<cudaStream_t>(stream.handle());
  if (impl_->module.options().enable_cooperative_groups) {
    CUNP_CUDA_CHECK(cudaLaunchCooperativeKernel(
        reinterpret_cast<const void*>(k.handle), dim3(grid.x, grid.y, grid.z),
        dim3(block.x, block.y, block.z), packed.pointers(), launch.shared_mem, s));
    return;
  }
  cuda::launch(cuda::Kernel{k.handle}, dim3(grid.x, grid.y, grid.z),
               dim3(block.x, block.y, block.z), packed.pointers(), launch.shared_mem, s);
}

const std::string& RawKernel::name() const noexcept { return impl_->name; }
const RawModule& RawKernel::module() const noexcept { return impl_->module; }
const std::optional<std::vector<RawKernelParam>>& RawKernel::declared_params() const noexcept {
  return impl_->declared;
}

void RawKernel::compile() const {
  const int device = current_cuda_device();
  cuda::DeviceScope scope(device);
  (void)impl_->resolve(device);
}

RawKernelAttributes RawKernel::attributes() const {
  const int device = current_cuda_device();
  cuda::DeviceScope scope(device);
  const Impl::Resolved k = impl_->resolve(device);
  cudaFuncAttributes a{};
  CUNP_CUDA_CHECK(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(k.handle)));
  RawKernelAttributes out;
  out.max_threads_per_block = a.maxThreadsPerBlock;
  out.shared_size_bytes = static_cast<int>(a.sharedSizeBytes);
  out.const_size_bytes = static_cast<int>(a.constSizeBytes);
  out.local_size_bytes = static_cast<int>(a.localSizeBytes);
  out.num_regs = a.numRegs;
  out.ptx_version = a.ptxVersion;
  out.binary_version = a.binaryVersion;
  out.cache_mode_ca = a.cacheModeCA;
  out.max_dynamic_shared_size_bytes = a.maxDynamicSharedSizeBytes;
  out.preferred_shared_memory_carveout = a.preferredShmemCarveout;
  return out;
}

namespace {
// Sets one attribute on the current device now and records it for the others.
void set_recorded(RawKernel::Impl& impl, std::optional<int>& slot, cudaFuncAttribute attr,
                  int value, const char* what) {
  const int device = current_cuda_device();
  cuda::DeviceScope scope(device);
  const cudaKernel_t handle = impl.resolve(device).handle;
  set_attribute(handle, attr, value, what);
  std::unique_lock lock(impl.mutex);
  slot = value;
  ++impl.generation;
  impl.devices[device].applied = impl.generation;
}
}  // namespace

void RawKernel::set_max_dynamic_shared_size_bytes(int bytes) {
  if (bytes < 0)
    throw ValueError("max_dynamic_shared_size_bytes must be non-negative, got " +
                     std::to_string(bytes));
  set_recorded(*impl_, impl_->max_dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
               bytes, "cudaFuncSetAttribute(max_dynamic_shared_size_bytes)");
}

void RawKernel::set_preferred_shared_memory_carveout(int percent) {
  if (percent < -1 || percent > 100)
    throw ValueError(
        "preferred_shared_memory_carveout must be -1 (no preference) or 0..100 (percent), got " +
        std::to_string(percent));
  set_recorded(*impl_, impl_->carveout, cudaFuncAttributePreferredSharedMemoryCarveout, percent,
               "cudaFuncSetAttribute(preferred_shared_memory_carveout)");
}

RawKernel RawModule::get_function(const std::string& name) const {
  if (name.empty()) throw ValueError("RawModule.get_function: the kernel name is empty");
  RawKernel k(std::make_shared<RawKernel::Impl>(*this, name));
  // CuPy compiles the module here and reports a missing name at once; without a GPU
  // both wait for the first launch.
  if (cuda_available()) k.compile();
  return k;
}

}  // namespace cunp

// src/kernel/raw_module.hpp — what RawModule and RawKernel (cunp/raw_kernel.hpp) share:
// the module's source or binary, its NVRTC options, and its loaded libraries.
#pragma once

#include <cuda_runtime_api.h>

#include <filesystem>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cunp/raw_kernel.hpp"

namespace cunp::cuda::raw {

// A program loaded into the CUDA runtime (cudaLibraryLoadData). Never unloaded: kernels
// and globals handed out stay valid for the life of the process, as the kernel
// cache's do.
struct LoadedLibrary {
  cudaLibrary_t handle = nullptr;
  std::vector<std::pair<std::string, std::string>> lowered_names;  // (name expression, symbol)
  // The symbol of `name`: its lowered name for a name expression, else `name` itself.
  const std::string& symbol(const std::string& name) const;
  // The names of the module's kernels, for messages ("saxpy, _Z5scaleIfEvPT_i").
  std::string kernel_names() const;
};

}  // namespace cunp::cuda::raw

namespace cunp {

struct RawModule::Impl {
  std::string code;    // the source: given, or read from a .cu file
  std::string binary;  // the bytes of a .cubin / .ptx / .fatbin file (NUL-terminated)
  bool is_binary = false;
  std::filesystem::path path;
  RawModuleOptions options;
  std::string program_name;                // NVRTC's program name, shown in compile errors
  std::vector<std::string> nvrtc_options;  // options.options plus include directories

  // Note [RawModule libraries]: one library per compile target (the sm_XX NVRTC builds
  // for a device; 0 for a binary, which the driver loads on any device it supports), as
  // cudaLibrary_t is not bound to a device. A process-wide table keyed by the disk
  // cache key shares one library between modules of the same source and options, so a
  // second RawKernel of the same code neither compiles nor loads.
  mutable std::shared_mutex mutex;
  mutable std::unordered_map<int, std::shared_ptr<const cuda::raw::LoadedLibrary>> by_target;

  // The program as the kernel cache compiles it (options.arch is set by the cache).
  cuda::KernelSource kernel_source() const;
  // The library for CUDA device `device` (the caller makes it current): compiled for
  // its target and loaded on first use.
  const cuda::raw::LoadedLibrary& library(int device) const;
};

namespace cuda::raw {
// A module of `code` whose NVRTC program is named `program_name` (RawKernel's name),
// with `include_dir` (a .cu file's directory) first on the include path. The options are
// checked (ValueError, NotImplementedError); `owner` names the class in the messages.
std::shared_ptr<RawModule::Impl> make_source_module(std::string code, RawModuleOptions options,
                                                    std::string program_name,
                                                    const std::filesystem::path& include_dir,
                                                    const std::string& owner);
}  // namespace cuda::raw

}  // namespace cunp

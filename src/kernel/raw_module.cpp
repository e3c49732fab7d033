// src/kernel/raw_module.cpp — RawModule (cunp/raw_kernel.hpp): options, compile and load
// (through the kernel cache's disk cache), the process-wide library table, files and
// __device__ variables.
#include "kernel/raw_module.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

#include "runtime/check.hpp"
#include "runtime/kernel_trace.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "kernel/raw_signature.hpp"
#include "runtime/runtime.hpp"
#include "cunp/error.hpp"
#include "cunp/memory.hpp"

namespace cunp::cuda::raw {

const std::string& LoadedLibrary::symbol(const std::string& name) const {
  for (const auto& [expr, lowered] : lowered_names)
    if (expr == name) return lowered;
  return name;
}

std::string LoadedLibrary::kernel_names() const {
  unsigned count = 0;
  if (cudaLibraryGetKernelCount(&count, handle) != cudaSuccess) {
    (void)cudaGetLastError();
    return "?";
  }
  std::vector<cudaKernel_t> kernels(count);
  if (count > 0 && cudaLibraryEnumerateKernels(kernels.data(), count, handle) != cudaSuccess) {
    (void)cudaGetLastError();
    return "?";
  }
  std::string out;
  for (cudaKernel_t k : kernels) {
    const char* n = nullptr;
    if (cudaFuncGetName(&n, reinterpret_cast<const void*>(k)) != cudaSuccess || n == nullptr) {
      (void)cudaGetLastError();
      continue;
    }
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out.empty() ? "none" : out;
}

namespace {

// The process-wide libraries, by disk cache key (source modules) or content hash (binaries).
struct LibraryTable {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<const LoadedLibrary>> map;
};
LibraryTable& library_table() {
  static LibraryTable* table =
      new LibraryTable;  // never destroyed: libraries outlive static teardown
  return *table;
}

// Loads `image` unless the table has `key`; returns the table's library.
std::shared_ptr<const LoadedLibrary> load_library(
    const std::string& key, const std::string& image,
    std::vector<std::pair<std::string, std::string>> lowered, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  auto lib = std::make_shared<LoadedLibrary>();
  lib->lowered_names = std::move(lowered);
  CUNP_CUDA_CHECK(
      cudaLibraryLoadData(&lib->handle, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  if (kernel_trace_enabled()) kernel_trace("loaded    %s %.2f ms", what.c_str(), ms_since(start));
  LibraryTable& table = library_table();
  std::lock_guard lock(table.mutex);
  const auto [it, inserted] = table.map.try_emplace(key, lib);
  if (!inserted) cudaLibraryUnload(lib->handle);  // another thread won the race; keep its library
  return it->second;
}

std::shared_ptr<const LoadedLibrary> find_library(const std::string& key, const std::string& what) {
  LibraryTable& table = library_table();
  std::lock_guard lock(table.mutex);
  const auto it = table.map.find(key);
  if (it == table.map.end()) return nullptr;
  if (kernel_trace_enabled()) kernel_trace("memory hit %s", what.c_str());
  return it->second;
}

void check_options(const RawModuleOptions& o, const std::string& owner) {
  if (o.backend == "nvcc")
    throw NotImplementedError(
        owner + ": backend='nvcc' is not supported; cunp compiles with NVRTC (backend='nvrtc')");
  if (o.backend != "nvrtc")
    throw ValueError(owner + ": backend must be 'nvrtc' or 'nvcc', got '" + o.backend + "'");
  if (o.jitify)
    throw NotImplementedError(
        owner +
        ": jitify=True is not supported; the CUDA toolkit's headers (cuda_fp16.h, "
        "cuda/std/...) are on NVRTC's include path without it");
  for (const std::string& opt : o.options)
    if (opt.starts_with("-arch") || opt.starts_with("--gpu-architecture") ||
        opt.starts_with("-gencode") || opt.starts_with("--generate-code"))
      throw ValueError(owner + ": options must not choose the target ('" + opt +
                       "'): cunp compiles for the device the kernel runs on (-arch=sm_XX)");
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw FileNotFoundError("RawModule: cannot read '" + path.string() +
                            "': " + std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::move(buffer).str();
}

}  // namespace

std::shared_ptr<RawModule::Impl> make_source_module(std::string code, RawModuleOptions options,
                                                    std::string program_name,
                                                    const std::filesystem::path& include_dir,
                                                    const std::string& owner) {
  check_options(options, owner);
  auto impl = std::make_shared<RawModule::Impl>();
  impl->code = std::move(code);
  impl->program_name = std::move(program_name);
  if (!include_dir.empty()) impl->nvrtc_options.push_back("-I" + include_dir.string());
  impl->nvrtc_options.insert(impl->nvrtc_options.end(), options.options.begin(),
                             options.options.end());
  const std::vector<std::string>& toolkit = toolkit_include_options();
  impl->nvrtc_options.insert(impl->nvrtc_options.end(), toolkit.begin(), toolkit.end());
  impl->options = std::move(options);
  return impl;
}

}  // namespace cunp::cuda::raw

namespace cunp {

cuda::KernelSource RawModule::Impl::kernel_source() const {
  cuda::KernelSource s;
  s.kernel_name = program_name;
  s.source = code;
  s.options.extra_options = nvrtc_options;
  s.options.name_expressions = options.name_expressions;
  return s;
}

const cuda::raw::LoadedLibrary& RawModule::Impl::library(int device) const {
  const int target = is_binary ? 0 : cuda::device_props(device).target;
  {
    std::shared_lock lock(mutex);
    if (const auto it = by_target.find(target); it != by_target.end()) return *it->second;
  }
  std::shared_ptr<const cuda::raw::LoadedLibrary> lib;
  if (is_binary) {
    const std::string key = "binary " + cuda::sha256_hex(binary);
    const std::string what = path.filename().string();
    lib = cuda::raw::find_library(key, what);
    if (!lib) lib = cuda::raw::load_library(key, binary, {}, what);
  } else {
    const cuda::KernelSource source = kernel_source();
    const std::string key = cuda::disk_cache_key(source, target);
    lib = cuda::raw::find_library(key, program_name);
    if (!lib) {
      cuda::DiskEntry entry = cuda::compile_cached(source, target, cuda::DiskCache::global());
      lib = cuda::raw::load_library(key, entry.cubin, std::move(entry.lowered_names), program_name);
    }
  }
  std::unique_lock lock(mutex);
  return *by_target.try_emplace(target, std::move(lib)).first->second;
}

RawModule::RawModule(std::string code, RawModuleOptions options)
    : impl_(cuda::raw::make_source_module(std::move(code), std::move(options), "raw_module", {},
                                          "RawModule")) {}

RawModule RawModule::from_file(const std::filesystem::path& path, RawModuleOptions options) {
  std::string bytes = cuda::raw::read_file(path);
  if (path.extension() == ".cu") {
    std::filesystem::path dir = path.parent_path();
    if (dir.empty()) dir = ".";
    auto impl = cuda::raw::make_source_module(std::move(bytes), std::move(options),
                                              path.stem().string(), dir, "RawModule");
    impl->path = path;
    return RawModule(std::move(impl));
  }
  cuda::raw::check_options(options, "RawModule");
  if (bytes.empty()) throw ValueError("RawModule: '" + path.string() + "' is empty");
  // PTX is text that the loader reads up to a NUL; cubin and fatbin images carry their
  // size, so a NUL after them is harmless.
  if (bytes.back() != '\0') bytes.push_back('\0');
  auto impl = std::make_shared<Impl>();
  impl->binary = std::move(bytes);
  impl->is_binary = true;
  impl->path = path;
  impl->program_name = path.filename().string();
  impl->options = std::move(options);
  return RawModule(std::move(impl));
}

ndarray RawModule::get_global(const std::string& name) const {
  const int device = current_cuda_device();
  cuda::DeviceScope scope(device);
  const cuda::raw::LoadedLibrary& lib = impl_->library(device);
  const std::string& symbol = lib.symbol(name);
  void* ptr = nullptr;
  std::size_t bytes = 0;
  if (const cudaError_t err = cudaLibraryGetGlobal(&ptr, &bytes, lib.handle, symbol.c_str());
      err != cudaSuccess)
    cuda::throw_cuda_error(("cudaLibraryGetGlobal(" + symbol + "): RawModule '" +
                            impl_->program_name + "' has no __device__ variable '" + name + "'")
                               .c_str(),
                           err);
  // The storage releases nothing: the variable lives as long as the library (the process).
  auto storage =
      std::make_shared<Storage>(ptr, bytes, Device::cuda(device), [keep = impl_](void*) {});
  return ndarray(std::move(storage), DType::UInt8, {static_cast<std::int64_t>(bytes)}, {1}, 0);
}

void RawModule::compile() const {
  const int device = current_cuda_device();
  cuda::DeviceScope scope(device);
  (void)impl_->library(device);
}

RawBinary RawModule::cuda_binary(int arch) const {
  if (impl_->is_binary)
    throw ValueError("RawModule: the module was loaded from '" + impl_->path.string() +
                     "', it has no source to compile");
  cuda::DiskEntry entry =
      cuda::compile_cached(impl_->kernel_source(), arch, cuda::DiskCache::global());
  return {std::move(entry.cubin), std::move(entry.lowered_names)};
}

bool RawModule::from_source() const noexcept { return !impl_->is_binary; }
const std::string& RawModule::code() const noexcept { return impl_->code; }
const std::filesystem::path& RawModule::path() const noexcept { return impl_->path; }
const RawModuleOptions& RawModule::options() const noexcept { return impl_->options; }

}  // namespace cunp

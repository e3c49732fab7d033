// src/runtime/kernel_cache.cpp — see kernel_cache.hpp.
#include "runtime/kernel_cache.hpp"

#include <cuda.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <mutex>
#include <shared_mutex>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "runtime/env.hpp"
#include "runtime/check.hpp"
#include "runtime/kernel_archive.hpp"
#include "runtime/kernel_trace.hpp"
#include "cunp/error.hpp"

namespace cunp::cuda {
namespace {

// ---- tracing (kernel_trace, ms_since: runtime/kernel_trace.hpp) -------------------------

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
}

// ---- the in-memory map -------------------------------------------------------------

struct MemoryEntry {
  Kernel kernel;
  std::string name;  // for the trace
};

struct MemoryCache {
  std::shared_mutex mutex;
  std::unordered_map<KernelKey, MemoryEntry, KernelKeyHash> map;
};
MemoryCache& memory_cache() {
  static MemoryCache* cache = new MemoryCache;  // never destroyed: kernels outlive static teardown
  return *cache;
}

}  // namespace

std::size_t KernelKeyHash::operator()(const KernelKey& k) const noexcept {
  std::uint64_t h = k.op * 0x9e3779b97f4a7c15ull;
  auto mix = [&h](std::uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  mix(k.variant);
  std::uint64_t d = 0;
  std::memcpy(&d, k.dtypes.data(), 8);
  mix(d);
  mix(std::uint64_t{k.ndim} | (std::uint64_t{static_cast<std::uint8_t>(k.layout)} << 8) |
      (std::uint64_t{k.index_bits} << 16) | (std::uint64_t{k.arch} << 24));
  return static_cast<std::size_t>(h);
}

bool kernel_trace_enabled() noexcept {
  static const bool enabled = env_flag("CUNP_KERNEL_TRACE");
  return enabled;
}

// ---- memory cache ------------------------------------------------------------------

std::optional<Kernel> find_kernel(const KernelKey& key) {
  MemoryCache& cache = memory_cache();
  std::shared_lock lock(cache.mutex);
  const auto it = cache.map.find(key);
  if (it == cache.map.end()) return std::nullopt;
  if (kernel_trace_enabled()) [[unlikely]]
    kernel_trace("memory hit %s", it->second.name.c_str());
  return it->second.kernel;
}

namespace {

// The cudaLibrary_t of each archive image, loaded when the first of its kernels is
// needed and shared by the others (Note [Kernel archive]); never unloaded.
cudaLibrary_t archive_library(const ArchiveHit& hit) {
  static std::mutex mutex;
  static auto* libraries = new std::unordered_map<std::uint64_t, cudaLibrary_t>;
  static auto* images = new std::deque<std::string>;  // decompressed images, kept for the process
  std::lock_guard lock(mutex);
  if (const auto it = libraries->find(hit.index); it != libraries->end()) return it->second;
  const void* data = hit.image.data();
  if (hit.compressed) {
    images->push_back(archive_image_bytes(hit));
    data = images->back().empty() ? nullptr : images->back().data();
  }
  cudaLibrary_t library = nullptr;
  if (data == nullptr || cudaLibraryLoadData(&library, data, nullptr, nullptr, 0, nullptr, nullptr, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    library = nullptr;  // remembered: the image is not for this device (the next tier serves it)
  }
  libraries->emplace(hit.index, library);
  return library;
}

// The kernel from the archive: a cubin for `target` or an earlier minor of its major
// (cubin runs on later minors), else, with `ptx`, the archive's PTX when it is not newer
// than `target`. Nothing when the archive does not have it or it does not load.
std::optional<Kernel> kernel_from_archive(const KernelArchive& archive, const KernelSource& source, int target,
                                          const std::string& target_key, bool ptx) {
  const auto start = std::chrono::steady_clock::now();
  std::optional<ArchiveHit> hit;
  if (!ptx) {
    std::vector<int> archs = archive.archs();
    std::sort(archs.rbegin(), archs.rend());
    for (int a : archs) {
      if (a / 10 != target / 10 || a > target) continue;
      if ((hit = archive.find(a == target ? target_key : disk_cache_key(source, a)))) break;
    }
  } else if (archive.ptx_arch() > 0 && archive.ptx_arch() <= target) {
    hit = archive.find(archive_ptx_key(source, archive.ptx_arch()));
  }
  if (!hit) return std::nullopt;
  const cudaLibrary_t library = archive_library(*hit);
  Kernel kernel;
  if (library == nullptr || cudaLibraryGetKernel(&kernel.handle, library, source.kernel_name.c_str()) != cudaSuccess) {
    (void)cudaGetLastError();
    if (kernel_trace_enabled())
      kernel_trace("archive   %s: image %llu does not load here", source.kernel_name.c_str(),
                   static_cast<unsigned long long>(hit->index));
    return std::nullopt;
  }
  kernel_cache_counters().archive_hits.fetch_add(1, std::memory_order_relaxed);
  if (kernel_trace_enabled())
    kernel_trace("archive hit %s %s_%d %.2f ms (image %llu)", source.kernel_name.c_str(), hit->ptx ? "compute" : "sm",
                 hit->arch, ms_since(start), static_cast<unsigned long long>(hit->index));
  return kernel;
}

}  // namespace

Kernel load_kernel(const KernelKey& key, const KernelSource& source) {
  // Note [Kernel archive]: memory -> archive cubin -> disk -> archive PTX -> NVRTC.
  const KernelArchive* archive =
      source.options.name_expressions.empty() ? KernelArchive::global() : nullptr;
  const DiskCache& disk = DiskCache::global();
  std::optional<Kernel> from_archive;
  if (archive != nullptr) {
    const std::string target_key = disk_cache_key(source, key.arch);
    from_archive = kernel_from_archive(*archive, source, key.arch, target_key, false);
    std::error_code ec;
    if (!from_archive && !(disk.enabled() && std::filesystem::exists(disk.entry_path(target_key), ec)))
      from_archive = kernel_from_archive(*archive, source, key.arch, target_key, true);
  }
  if (from_archive) {
    MemoryCache& cache = memory_cache();
    std::unique_lock lock(cache.mutex);
    // The image's library is shared: a lost race leaves nothing to unload.
    return cache.map.try_emplace(key, MemoryEntry{*from_archive, source.kernel_name}).first->second.kernel;
  }

  DiskEntry entry = compile_cached(source, key.arch, disk);
  std::string symbol = source.kernel_name;
  for (const auto& [expr, lowered] : entry.lowered_names)
    if (expr == source.kernel_name) symbol = lowered;

  const auto start = std::chrono::steady_clock::now();
  cudaLibrary_t library = nullptr;
  CUNP_CUDA_CHECK(
      cudaLibraryLoadData(&library, entry.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  Kernel kernel;
  if (const cudaError_t err = cudaLibraryGetKernel(&kernel.handle, library, symbol.c_str());
      err != cudaSuccess) {
    cudaLibraryUnload(library);
    throw_cuda_error(("cudaLibraryGetKernel(" + symbol + ")").c_str(), err);
  }
  if (kernel_trace_enabled())
    kernel_trace("loaded    %s %.2f ms", source.kernel_name.c_str(), ms_since(start));

  MemoryCache& cache = memory_cache();
  std::unique_lock lock(cache.mutex);
  const auto [it, inserted] = cache.map.try_emplace(key, MemoryEntry{kernel, source.kernel_name});
  if (!inserted) {
    lock.unlock();
    cudaLibraryUnload(library);  // another thread won the race; keep its kernel
  }
  return it->second.kernel;
}

}  // namespace cunp::cuda

// src/runtime/kernel_cache.hpp — generated kernels: keyed, compiled once, cached in memory
// and on disk, loaded with the CUDA runtime's library API, launched on a stream.
// kernel_cache.cpp holds the in-memory cache (and its archive tier), disk_cache.cpp the
// on-disk cache, launch.cpp the launch and graph_launch.cpp its single-node CUDA graphs.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/nvrtc_compiler.hpp"

namespace cunp::cuda {

// Bumped whenever the code that surrounds generated sources changes meaning (NVRTC
// options, the disk entry format, the preambles of the generators); part of every
// disk cache key.
inline constexpr std::uint32_t kPreambleVersion = 1;

// FNV-1a 64 of a name, usable at compile time: KernelKey::op for built-in operations.
constexpr std::uint64_t op_id(std::string_view name) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

enum class LayoutClass : std::uint8_t { Contiguous, Strided };

// Note [Kernel cache key]: a kernel's identity in memory is this small value, built
// without touching any string, so the hot path (a launch of a cached kernel) costs a
// hash and a compare. Shapes and strides are arguments, never part of the key: one
// kernel serves every shape of its rank bucket. The source text is generated only on
// a miss, and the disk cache then keys by a hash of the full source instead.
struct KernelKey {
  std::uint64_t op = 0;       // op_id("cast"), or a hash of a user kernel's source
  std::uint64_t variant = 0;  // op-specific bits (options hash, reduction identity, ...)
  std::array<std::uint8_t, 8> dtypes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  std::uint8_t ndim = 0;  // after coalescing (or its bucket)
  LayoutClass layout = LayoutClass::Contiguous;
  std::uint8_t index_bits = 32;
  std::uint16_t arch = 0;  // the target the cubin is built for, sm_XX
  friend bool operator==(const KernelKey&, const KernelKey&) = default;
};
struct KernelKeyHash {
  std::size_t operator()(const KernelKey& k) const noexcept;
};

// What a generator produces on a miss: one program and the kernel to take from it.
struct KernelSource {
  std::string kernel_name;  // extern "C" name, or one of options.name_expressions
  std::string source;
  CompileOptions options;  // options.arch is set by the cache
};

// A loaded kernel; valid for the life of the process.
struct Kernel {
  cudaKernel_t handle = nullptr;
  explicit operator bool() const noexcept { return handle != nullptr; }
};

// Launches `kernel` on `stream` (cuLaunchKernel on the kernel's function in the current
// context, see Note [Driver launch]); CudaError on failure.
void launch(Kernel kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes,
            cudaStream_t stream);

// Properties of CUDA device `device`, read once per device.
struct DeviceProps {
  int arch = 0;    // compute capability major*10+minor
  int target = 0;  // the sm_XX NVRTC builds for it (nvrtc_target_arch)
  int sm_count = 0;
  int max_threads_per_sm = 0;
};
const DeviceProps& device_props(int device);

// Note [Resident blocks]: how many blocks of `kernel` (block_threads threads, no
// dynamic shared memory) one SM of `device` (the current device) holds at once, from
// the CUDA occupancy calculator (registers and shared memory limit it, not only the
// thread count), times the device's SM count. Grids sized "one block per resident
// slot" use it, so that they are one full wave. Cached in a small per-thread table.
std::int64_t resident_blocks(Kernel kernel, int device, int block_threads);

// ---- the on-disk cache ------------------------------------------------------------

// SHA-256 of `data`, 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

// The disk cache key of a program: SHA-256 over the source, the NVRTC option list,
// the name expressions, NVRTC's version, the arch, kPreambleVersion and the text of
// the embedded src/ops headers (a source that includes them changes with them).
std::string disk_cache_key(const KernelSource& source, int arch);

// One compiled program as stored on disk.
struct DiskEntry {
  std::string cubin;
  std::vector<std::pair<std::string, std::string>> lowered_names;
};

// Note [Disk cache writes]: an entry is written to a temporary file in the same
// directory and renamed over the final name. rename(2) is atomic, so a concurrent
// reader (thread or process) sees no file or a complete one; two writers of one key
// write the same bytes, so the last rename winning is harmless. Each entry carries a
// magic, its key and a SHA-256 of its payload: a short, corrupt or foreign file
// reads as a miss and is overwritten by the next store.
class DiskCache {
 public:
  explicit DiskCache(std::filesystem::path dir);
  // The process-wide cache: CUNP_CACHE_DIR, else $XDG_CACHE_HOME/cunp/kernels, else
  // ~/.cache/cunp/kernels. Disabled (every lookup a miss, stores dropped) when no
  // directory can be determined or created.
  static DiskCache& global();

  bool enabled() const noexcept { return !dir_.empty(); }
  const std::filesystem::path& dir() const noexcept { return dir_; }
  std::filesystem::path entry_path(const std::string& key) const;   // <dir>/<key>.cubin
  std::filesystem::path source_path(const std::string& key) const;  // <dir>/<key>.cu

  std::optional<DiskEntry> load(const std::string& key) const;
  // Best effort: failures to write are reported by the trace, never thrown.
  void store(const std::string& key, const DiskEntry& entry) const;

 private:
  std::filesystem::path dir_;
};

// Source to cubin through `disk` (no GPU involved): a disk hit returns the stored
// entry, a miss compiles with NVRTC for sm_<arch> and stores the result. With
// CUNP_CACHE_SAVE_CUDA_SOURCE=1 the source is saved as <key>.cu beside the entry and
// a CompileError names that file. `disk_hit` (optional) tells which happened.
DiskEntry compile_cached(const KernelSource& source, int arch, const DiskCache& disk,
                         bool* disk_hit = nullptr);

// ---- the in-memory cache ----------------------------------------------------------

// Looks `key` up without building anything; thread-safe (shared lock).
std::optional<Kernel> find_kernel(const KernelKey& key);
// Compiles (through the disk cache) and loads `source` for key.arch, then records it
// under `key`. No lock is held while compiling; if another thread stored the key
// meanwhile, its kernel is returned and this one unloaded.
Kernel load_kernel(const KernelKey& key, const KernelSource& source);

// The usual entry point: the cached kernel for `key`, calling `make_source()` (which
// returns a KernelSource) only on a miss.
template <typename MakeSource>
Kernel get_kernel(const KernelKey& key, MakeSource&& make_source) {
  if (std::optional<Kernel> k = find_kernel(key)) return *k;
  return load_kernel(key, make_source());
}

// True when CUNP_KERNEL_TRACE=1: compiles and cache hits are printed to stderr.
bool kernel_trace_enabled() noexcept;

}  // namespace cunp::cuda

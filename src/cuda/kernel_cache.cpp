// src/cuda/kernel_cache.cpp — see kernel_cache.hpp.
#include "cuda/kernel_cache.hpp"

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

#include "core/env.hpp"
#include "cuda/check.hpp"
#include "cuda/kernel_archive.hpp"
#include "cuda/kernel_trace.hpp"
#include "cunp/error.hpp"

namespace cunp::detail {
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_ops_headers();
}  // namespace cunp::detail

namespace cunp::cuda {
namespace {

// ---- SHA-256 (FIPS 180-4) ----------------------------------------------------------

constexpr std::uint32_t kSha256K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

class Sha256 {
 public:
  void update(std::string_view data) {
    for (char c : data) {
      block_[fill_++] = static_cast<unsigned char>(c);
      if (fill_ == 64) {
        compress();
        fill_ = 0;
      }
    }
    bits_ += static_cast<std::uint64_t>(data.size()) * 8;
  }
  // Feeds a length-prefixed field, so that concatenations cannot collide.
  void field(std::string_view data) {
    const std::uint64_t n = data.size();
    char len[8];
    for (int i = 0; i < 8; ++i) len[i] = static_cast<char>(n >> (8 * i));
    update(std::string_view(len, 8));
    update(data);
  }
  std::string hex() {
    const std::uint64_t bits = bits_;
    block_[fill_++] = 0x80;
    if (fill_ > 56) {
      while (fill_ < 64) block_[fill_++] = 0;
      compress();
      fill_ = 0;
    }
    while (fill_ < 56) block_[fill_++] = 0;
    for (int i = 7; i >= 0; --i) block_[fill_++] = static_cast<unsigned char>(bits >> (8 * i));
    compress();
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (std::uint32_t w : h_)
      for (int i = 7; i >= 0; --i) out.push_back(digits[(w >> (4 * i)) & 0xf]);
    return out;
  }

 private:
  static std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
  void compress() {
    std::uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = (std::uint32_t{block_[4 * i]} << 24) | (std::uint32_t{block_[4 * i + 1]} << 16) |
             (std::uint32_t{block_[4 * i + 2]} << 8) | std::uint32_t{block_[4 * i + 3]};
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6],
                  h = h_[7];
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t t1 =
          h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kSha256K[i] + w[i];
      const std::uint32_t t2 =
          (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h_[0] += a, h_[1] += b, h_[2] += c, h_[3] += d, h_[4] += e, h_[5] += f, h_[6] += g, h_[7] += h;
  }

  std::uint32_t h_[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  unsigned char block_[64] = {};
  int fill_ = 0;
  std::uint64_t bits_ = 0;
};

// ---- tracing (kernel_trace, ms_since: cuda/kernel_trace.hpp) -------------------------

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
}

// ---- disk entries ------------------------------------------------------------------

constexpr std::string_view kEntryMagic = "CUNPKC01";

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}
void put_str(std::string& out, std::string_view s) {
  put_u64(out, s.size());
  out.append(s);
}

// Bounds-checked reader over an entry's bytes.
struct Reader {
  std::string_view data;
  std::size_t pos = 0;
  bool ok = true;
  std::uint64_t u64() {
    if (data.size() - pos < 8) {
      ok = false;
      return 0;
    }
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= std::uint64_t{static_cast<unsigned char>(data[pos + i])} << (8 * i);
    pos += 8;
    return v;
  }
  std::string str() {
    const std::uint64_t n = u64();
    if (!ok || data.size() - pos < n) {
      ok = false;
      return {};
    }
    std::string s(data.substr(pos, n));
    pos += n;
    return s;
  }
};

std::string serialize(const std::string& key, const DiskEntry& entry) {
  std::string payload;
  put_str(payload, key);
  put_u64(payload, entry.lowered_names.size());
  for (const auto& [expr, lowered] : entry.lowered_names) {
    put_str(payload, expr);
    put_str(payload, lowered);
  }
  put_str(payload, entry.cubin);
  Sha256 sha;
  sha.update(payload);
  std::string out(kEntryMagic);
  out += payload;
  out += sha.hex();
  return out;
}

std::optional<DiskEntry> deserialize(const std::string& key, std::string_view data) {
  if (data.size() < kEntryMagic.size() + 64 || data.substr(0, kEntryMagic.size()) != kEntryMagic)
    return std::nullopt;
  const std::string_view payload =
      data.substr(kEntryMagic.size(), data.size() - kEntryMagic.size() - 64);
  Sha256 sha;
  sha.update(payload);
  if (sha.hex() != data.substr(data.size() - 64)) return std::nullopt;
  Reader r{payload};
  if (r.str() != key || !r.ok) return std::nullopt;
  DiskEntry entry;
  const std::uint64_t n = r.u64();
  for (std::uint64_t i = 0; r.ok && i < n; ++i) {
    std::string expr = r.str();
    std::string lowered = r.str();
    entry.lowered_names.emplace_back(std::move(expr), std::move(lowered));
  }
  entry.cubin = r.str();
  if (!r.ok || r.pos != payload.size() || entry.cubin.empty()) return std::nullopt;
  return entry;
}

// Writes `bytes` to `path` through a temporary file and an atomic rename.
bool write_atomically(const std::filesystem::path& path, std::string_view bytes) {
  static std::atomic<std::uint64_t> counter{0};
  std::filesystem::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid()) + "." +
         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())) + "." +
         std::to_string(counter.fetch_add(1));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      out.close();
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return false;
  }
  return true;
}

const std::string& embedded_headers_digest() {
  static const std::string digest = [] {
    Sha256 sha;
    for (const auto& [name, text] : detail::embedded_ops_headers()) {
      sha.field(name);
      sha.field(text);
    }
    return sha.hex();
  }();
  return digest;
}

std::filesystem::path default_cache_dir() {
  if (const char* dir = env_or_cupy("CACHE_DIR"); dir != nullptr && dir[0] != '\0') return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] != '\0')
    return std::filesystem::path(xdg) / "cunp" / "kernels";
  if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0')
    return std::filesystem::path(home) / ".cache" / "cunp" / "kernels";
  return {};
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

// Note [Driver launch]: cudaLaunchKernel on a library kernel (cudaKernel_t) finds the
// kernel's function in the current context on every call before it launches.
// launch() instead keeps that function (cuKernelGetFunction) in a small per-thread
// table keyed by (kernel, device) and calls the driver directly. All driver entry
// points come from cudaGetDriverEntryPointByVersion, so libcunp still links only the
// runtime.
//
// Note [Graph launch]: on the H200 machines (a Firecracker VM, driver 580) every kernel
// launch costs the host 3.2-3.8 us (cuLaunchKernel, cudaLaunchKernel and <<<>>> alike,
// on any kind of stream, even an empty <<<1,1>>> kernel), while a one-node CUDA graph
// whose node gets new parameters before each launch (cuGraphExecKernelNodeSetParams +
// cuGraphLaunch) costs 1.8 us, and cudaMemsetAsync 1.5 us (diagnostic program, 5000
// calls, device synchronized at the end). So launch() keeps, per thread, one
// instantiated single-node graph per (kernel, device, stream) in a direct-mapped table
// and launches each call as that graph with the call's grid, block, shared memory and
// arguments. The node's function never changes (switching it made the launch cost
// 4.2 us); a graph per stream keeps launches on different streams independent (a
// graph's launches are ordered after its earlier launches). A stream being captured
// into a graph, or any failure to update or build the node, takes the plain launch,
// which also reports launch errors. An evicted slot's graph is destroyed (in-flight
// launches finish first); a thread's graphs are not freed when it exits.
// CUNP_LAUNCH=driver launches with cuLaunchKernel, CUNP_LAUNCH=runtime with
// cudaLaunchKernel (both for comparison).
namespace {

using LaunchKernelFn = CUresult(CUDAAPI*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                          unsigned, unsigned, CUstream, void**, void**);
using KernelGetFunctionFn = CUresult(CUDAAPI*)(CUfunction*, CUkernel);
using GraphCreateFn = CUresult(CUDAAPI*)(CUgraph*, unsigned);
using GraphAddKernelNodeFn = CUresult(CUDAAPI*)(CUgraphNode*, CUgraph, const CUgraphNode*, std::size_t,
                                                const CUDA_KERNEL_NODE_PARAMS*);
using GraphInstantiateFn = CUresult(CUDAAPI*)(CUgraphExec*, CUgraph, unsigned long long);
using GraphExecKernelNodeSetParamsFn = CUresult(CUDAAPI*)(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS*);
using GraphLaunchFn = CUresult(CUDAAPI*)(CUgraphExec, CUstream);
using GraphExecDestroyFn = CUresult(CUDAAPI*)(CUgraphExec);
using GraphDestroyFn = CUresult(CUDAAPI*)(CUgraph);
using StreamIsCapturingFn = CUresult(CUDAAPI*)(CUstream, CUstreamCaptureStatus*);

struct DriverLaunch {
  LaunchKernelFn launch = nullptr;  // null: cudaLaunchKernel
  KernelGetFunctionFn get_function = nullptr;
  bool graphs = false;  // the entries below are all set
  GraphCreateFn graph_create = nullptr;
  GraphAddKernelNodeFn graph_add_kernel_node = nullptr;
  GraphInstantiateFn graph_instantiate = nullptr;
  GraphExecKernelNodeSetParamsFn graph_set_params = nullptr;
  GraphLaunchFn graph_launch = nullptr;
  GraphExecDestroyFn graph_exec_destroy = nullptr;
  GraphDestroyFn graph_destroy = nullptr;
  StreamIsCapturingFn stream_is_capturing = nullptr;
};

// The driver's entry point `name` as of CUDA 12.0's ABI, or null.
template <typename Fn>
Fn driver_entry(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
  if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return reinterpret_cast<Fn>(fn);
}

const DriverLaunch& driver_launch() {
  static const DriverLaunch entry = [] {
    DriverLaunch d;
    const char* mode = std::getenv("CUNP_LAUNCH");
    if (mode != nullptr && std::strcmp(mode, "runtime") == 0) return d;
    d.launch = driver_entry<LaunchKernelFn>("cuLaunchKernel");
    d.get_function = driver_entry<KernelGetFunctionFn>("cuKernelGetFunction");
    if (d.launch == nullptr || d.get_function == nullptr) return DriverLaunch{};  // an older driver
    if (mode != nullptr && std::strcmp(mode, "driver") == 0) return d;
    d.graph_create = driver_entry<GraphCreateFn>("cuGraphCreate");
    d.graph_add_kernel_node = driver_entry<GraphAddKernelNodeFn>("cuGraphAddKernelNode");
    d.graph_instantiate = driver_entry<GraphInstantiateFn>("cuGraphInstantiateWithFlags");
    d.graph_set_params = driver_entry<GraphExecKernelNodeSetParamsFn>("cuGraphExecKernelNodeSetParams");
    d.graph_launch = driver_entry<GraphLaunchFn>("cuGraphLaunch");
    d.graph_exec_destroy = driver_entry<GraphExecDestroyFn>("cuGraphExecDestroy");
    d.graph_destroy = driver_entry<GraphDestroyFn>("cuGraphDestroy");
    d.stream_is_capturing = driver_entry<StreamIsCapturingFn>("cuStreamIsCapturing");
    d.graphs = d.graph_create && d.graph_add_kernel_node && d.graph_instantiate && d.graph_set_params &&
               d.graph_launch && d.graph_exec_destroy && d.graph_destroy && d.stream_is_capturing;
    return d;
  }();
  return entry;
}

// The slot of a direct-mapped per-thread table of `slots` entries for a kernel handle
// (or another pointer-sized key) and the values `salt` that complete the key.
std::size_t table_slot(std::uintptr_t key, std::uintptr_t salt, std::size_t slots) noexcept {
  return static_cast<std::size_t>(((key >> 4) ^ (key >> 12) ^ salt) % slots);
}

struct FunctionSlot {
  cudaKernel_t kernel = nullptr;
  int device = -1;
  CUfunction function = nullptr;
};
constexpr std::size_t kFunctionSlots = 256;
thread_local FunctionSlot t_functions[kFunctionSlots];

// One kernel's single-node graph for one stream (Note [Graph launch]).
struct GraphSlot {
  cudaKernel_t kernel = nullptr;
  int device = -1;
  cudaStream_t stream = nullptr;
  CUgraph graph = nullptr;
  CUgraphNode node = nullptr;
  CUgraphExec exec = nullptr;
};
constexpr std::size_t kGraphSlots = 256;
thread_local GraphSlot t_graphs[kGraphSlots];

[[noreturn]] void throw_driver_error(const char* call, CUresult code) {
  // The runtime's error codes equal the driver's for every error a launch returns.
  throw_cuda_error(call, static_cast<cudaError_t>(code));
}

void destroy_graph(const DriverLaunch& driver, GraphSlot& slot) {
  if (slot.exec != nullptr) (void)driver.graph_exec_destroy(slot.exec);
  if (slot.graph != nullptr) (void)driver.graph_destroy(slot.graph);
  slot = GraphSlot{};
}

// Launches `params` as the slot's graph, building the slot first when it holds another
// kernel or stream; false when the graph cannot be used (the caller launches plainly).
bool launch_as_graph(const DriverLaunch& driver, cudaKernel_t kernel, int device, cudaStream_t stream,
                     const CUDA_KERNEL_NODE_PARAMS& params) {
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (driver.stream_is_capturing(reinterpret_cast<CUstream>(stream), &capture) != CUDA_SUCCESS ||
      capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return false;
  const auto key = reinterpret_cast<std::uintptr_t>(kernel) ^ (reinterpret_cast<std::uintptr_t>(stream) << 7);
  GraphSlot& slot = t_graphs[table_slot(key, static_cast<std::uintptr_t>(device), kGraphSlots)];
  if (slot.kernel == kernel && slot.device == device && slot.stream == stream) [[likely]] {
    if (driver.graph_set_params(slot.exec, slot.node, &params) != CUDA_SUCCESS) return false;
  } else {
    destroy_graph(driver, slot);
    GraphSlot fresh{kernel, device, stream, nullptr, nullptr, nullptr};
    if (driver.graph_create(&fresh.graph, 0) != CUDA_SUCCESS) return false;
    if (driver.graph_add_kernel_node(&fresh.node, fresh.graph, nullptr, 0, &params) != CUDA_SUCCESS ||
        driver.graph_instantiate(&fresh.exec, fresh.graph, 0) != CUDA_SUCCESS) {
      destroy_graph(driver, fresh);
      return false;
    }
    slot = fresh;
  }
  if (const CUresult r = driver.graph_launch(slot.exec, reinterpret_cast<CUstream>(stream)); r != CUDA_SUCCESS)
    throw_driver_error("cuGraphLaunch", r);
  return true;
}

}  // namespace

void launch(Kernel kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes,
            cudaStream_t stream) {
  const DriverLaunch& driver = driver_launch();
  if (driver.launch == nullptr) {
    CUNP_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel.handle), grid, block, args,
                                     shared_bytes, stream));
    return;
  }
  int device = 0;
  CUNP_CUDA_CHECK(cudaGetDevice(&device));
  const auto key = reinterpret_cast<std::uintptr_t>(kernel.handle);
  FunctionSlot& slot = t_functions[table_slot(key, static_cast<std::uintptr_t>(device), kFunctionSlots)];
  if (slot.kernel != kernel.handle || slot.device != device) [[unlikely]] {
    CUfunction function = nullptr;
    if (const CUresult r = driver.get_function(&function, reinterpret_cast<CUkernel>(kernel.handle)); r != CUDA_SUCCESS)
      throw_driver_error("cuKernelGetFunction", r);
    slot = {kernel.handle, device, function};
  }
  if (driver.graphs) {
    CUDA_KERNEL_NODE_PARAMS params{};
    params.func = slot.function;
    params.gridDimX = grid.x;
    params.gridDimY = grid.y;
    params.gridDimZ = grid.z;
    params.blockDimX = block.x;
    params.blockDimY = block.y;
    params.blockDimZ = block.z;
    params.sharedMemBytes = static_cast<unsigned>(shared_bytes);
    params.kernelParams = args;
    if (launch_as_graph(driver, kernel.handle, device, stream, params)) return;
  }
  const CUresult r = driver.launch(slot.function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                   static_cast<unsigned>(shared_bytes), stream, args, nullptr);
  if (r != CUDA_SUCCESS) [[unlikely]]
    throw_driver_error("cuLaunchKernel", r);
}

std::int64_t resident_blocks(Kernel kernel, int device, int block_threads) {
  // A direct-mapped per-thread table, like launch()'s: no lock, no allocation; a miss
  // asks the occupancy calculator again and takes the slot.
  struct Slot {
    cudaKernel_t kernel = nullptr;
    int device = -1;
    int block = 0;
    std::int64_t resident = 0;
  };
  constexpr std::size_t kSlots = 64;
  thread_local Slot slots[kSlots];
  const auto key = reinterpret_cast<std::uintptr_t>(kernel.handle);
  Slot& slot = slots[table_slot(key, static_cast<std::uintptr_t>(device) ^ static_cast<std::uintptr_t>(block_threads),
                                kSlots)];
  if (slot.kernel == kernel.handle && slot.device == device && slot.block == block_threads) [[likely]]
    return slot.resident;
  const DeviceProps& props = device_props(device);
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reinterpret_cast<const void*>(kernel.handle),
                                                    block_threads, 0) != cudaSuccess ||
      per_sm < 1) {
    (void)cudaGetLastError();
    per_sm = std::max(1, props.max_threads_per_sm / std::max(block_threads, 1));  // the thread bound
  }
  slot = {kernel.handle, device, block_threads, static_cast<std::int64_t>(per_sm) * props.sm_count};
  return slot.resident;
}

const DeviceProps& device_props(int device) {
  constexpr int kMaxDevices = 64;
  static std::once_flag once[kMaxDevices];
  static DeviceProps props[kMaxDevices];
  if (device < 0 || device >= kMaxDevices)
    throw CudaError("device_props", static_cast<int>(cudaErrorInvalidDevice),
                    "device " + std::to_string(device));
  std::call_once(once[device], [device] {
    DeviceProps p;
    int major = 0, minor = 0;
    CUNP_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CUNP_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    CUNP_CUDA_CHECK(cudaDeviceGetAttribute(&p.sm_count, cudaDevAttrMultiProcessorCount, device));
    CUNP_CUDA_CHECK(cudaDeviceGetAttribute(&p.max_threads_per_sm,
                                           cudaDevAttrMaxThreadsPerMultiProcessor, device));
    p.arch = major * 10 + minor;
    p.target = nvrtc_target_arch(p.arch);
    props[device] = p;
  });
  return props[device];
}

// ---- disk cache --------------------------------------------------------------------

std::string sha256_hex(std::string_view data) {
  Sha256 sha;
  sha.update(data);
  return sha.hex();
}

std::string disk_cache_key(const KernelSource& source, int arch) {
  CompileOptions options = source.options;
  options.arch = arch;
  Sha256 sha;
  sha.field("cunp kernel");
  sha.field(std::to_string(kPreambleVersion));
  sha.field(std::to_string(nvrtc_version()));
  sha.field(std::to_string(arch));
  for (const std::string& o : nvrtc_option_list(options)) sha.field(o);
  sha.field("names");
  for (const std::string& e : options.name_expressions) sha.field(e);
  sha.field(embedded_headers_digest());
  sha.field(source.kernel_name);
  sha.field(source.source);
  return sha.hex();
}

DiskCache::DiskCache(std::filesystem::path dir) : dir_(std::move(dir)) {
  if (dir_.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec || !std::filesystem::is_directory(dir_, ec)) {
    if (kernel_trace_enabled()) kernel_trace("disk cache disabled: cannot create %s", dir_.c_str());
    dir_.clear();
  }
}

DiskCache& DiskCache::global() {
  static DiskCache* cache = new DiskCache(default_cache_dir());
  return *cache;
}

std::filesystem::path DiskCache::entry_path(const std::string& key) const {
  return dir_ / (key + ".cubin");
}
std::filesystem::path DiskCache::source_path(const std::string& key) const {
  return dir_ / (key + ".cu");
}

std::optional<DiskEntry> DiskCache::load(const std::string& key) const {
  if (!enabled()) return std::nullopt;
  std::ifstream in(entry_path(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return deserialize(key, buffer.view());
}

void DiskCache::store(const std::string& key, const DiskEntry& entry) const {
  if (!enabled()) return;
  if (!write_atomically(entry_path(key), serialize(key, entry)) && kernel_trace_enabled())
    kernel_trace("disk cache: could not write %s", entry_path(key).c_str());
}

DiskEntry compile_cached(const KernelSource& source, int arch, const DiskCache& disk,
                         bool* disk_hit) {
  const auto start = std::chrono::steady_clock::now();
  const std::string key = disk_cache_key(source, arch);
  if (std::optional<DiskEntry> entry = disk.load(key)) {
    if (disk_hit != nullptr) *disk_hit = true;
    kernel_cache_counters().disk_hits.fetch_add(1, std::memory_order_relaxed);
    if (kernel_trace_enabled())
      kernel_trace("disk hit  %s sm_%d %.2f ms (%s)", source.kernel_name.c_str(), arch, ms_since(start),
            key.c_str());
    return std::move(*entry);
  }
  if (disk_hit != nullptr) *disk_hit = false;

  std::string saved_path;
  if (const char* v = env_or_cupy("CACHE_SAVE_CUDA_SOURCE");
      v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0) {
    const std::filesystem::path path =
        disk.enabled() ? disk.source_path(key)
                       : std::filesystem::temp_directory_path() / ("cunp-" + key + ".cu");
    if (write_atomically(path, source.source)) saved_path = path.string();
  }
  CompileOptions options = source.options;
  options.arch = arch;
  CompiledProgram program =
      compile_to_cubin(source.source, source.kernel_name, options, saved_path);
  DiskEntry entry{std::move(program.cubin), std::move(program.lowered_names)};
  disk.store(key, entry);
  if (kernel_trace_enabled())
    kernel_trace("compiled  %s sm_%d %.2f ms, cubin %zu bytes (%s)", source.kernel_name.c_str(), arch,
          ms_since(start), entry.cubin.size(), key.c_str());
  return entry;
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

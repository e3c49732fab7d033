// src/runtime/disk_cache.cpp — the on-disk kernel cache of kernel_cache.hpp: SHA-256 keys,
// entry files (Note [Disk cache writes]), and compile_cached.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "runtime/env.hpp"
#include "runtime/kernel_archive.hpp"
#include "runtime/kernel_cache.hpp"
#include "runtime/kernel_trace.hpp"
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

}  // namespace

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

}  // namespace cunp::cuda

// src/runtime/kernel_archive.cpp — see kernel_archive.hpp, Note [Kernel archive].
#include "runtime/kernel_archive.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#if CUNP_HAVE_ZLIB
#include <zlib.h>
#endif

#include "runtime/kernel_trace.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "cunp/error.hpp"

namespace cunp::cuda {
namespace {

constexpr std::string_view kMagic = "CUNPKA01";
constexpr std::uint64_t kFormat = 1;
constexpr int kMaxArchs = 16;
constexpr std::size_t kVersionBytes = 32;
// magic + 5 fields + archs + 5 fields + version + header SHA-256
constexpr std::size_t kHeaderFields = 5 + kMaxArchs + 5;
constexpr std::size_t kHeaderHashed = kMagic.size() + 8 * kHeaderFields + kVersionBytes;
constexpr std::size_t kHeaderSize = kHeaderHashed + 32;
constexpr std::size_t kImageRecord = 8 * 4 + 8;  // offset, size, arch, is_ptx, checksum
constexpr std::size_t kEntryRecord = 32 + 8 + 8;  // key, image index, check

#ifndef CUNP_VERSION
#define CUNP_VERSION "unknown"
#endif

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}
std::uint64_t get_u64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}

// A fast 64-bit checksum (FNV-1a over 8-byte words, then a final mix): the images are
// checked against damage, not against an adversary, and a cubin is hashed on first use.
std::uint64_t checksum(std::string_view data, std::uint64_t seed = 0) {
  std::uint64_t h = 0xcbf29ce484222325ull ^ seed;
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  std::size_t n = data.size(), i = 0;
  for (; i + 8 <= n; i += 8) {
    h ^= get_u64(p + i);
    h *= 0x100000001b3ull;
    h ^= h >> 29;
  }
  for (; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  h ^= n;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
// 64 hex digits to 32 bytes; false when `hex` is not such a key.
bool key_bytes(std::string_view hex, unsigned char out[32]) {
  if (hex.size() != 64) return false;
  for (int i = 0; i < 32; ++i) {
    const int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<unsigned char>(hi * 16 + lo);
  }
  return true;
}

std::uint64_t entry_check(const unsigned char* key, std::uint64_t image) {
  return checksum(std::string_view(reinterpret_cast<const char*>(key), 32), image + 1);
}

bool raw_sha(std::string_view data, unsigned char out[32]) { return key_bytes(sha256_hex(data), out); }

constexpr std::uint64_t kFlagPtx = 1, kFlagZlib = 2;

// zlib-compressed `data`, or nullopt (no zlib in this build, or no gain).
std::optional<std::string> pack(std::string_view data) {
#if CUNP_HAVE_ZLIB
  uLongf n = compressBound(static_cast<uLong>(data.size()));
  std::string out(n, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &n, reinterpret_cast<const Bytef*>(data.data()),
                static_cast<uLong>(data.size()), 6) != Z_OK || n >= data.size())
    return std::nullopt;
  out.resize(n);
  return out;
#else
  (void)data;
  return std::nullopt;
#endif
}

// The image state of an archive: 1 good, 2 damaged.
constexpr std::uint8_t kImageGood = 1, kImageBad = 2;

}  // namespace

KernelCacheCounters& kernel_cache_counters() {
  static KernelCacheCounters counters;
  return counters;
}

std::string archive_ptx_key(const KernelSource& source, int arch) {
  return sha256_hex("cunp ptx " + disk_cache_key(source, arch));
}

// ---- writing -------------------------------------------------------------------------

void write_kernel_archive(const std::filesystem::path& path, const std::vector<ArchiveImage>& images,
                          const std::vector<int>& archs, int ptx_arch) {
  if (archs.size() > static_cast<std::size_t>(kMaxArchs))
    throw std::runtime_error("kernel archive: at most 16 architectures");
  struct Entry {
    std::array<unsigned char, 32> key;
    std::uint64_t image;
  };
  std::vector<Entry> entries;
  for (std::size_t i = 0; i < images.size(); ++i)
    for (const std::string& k : images[i].keys) {
      Entry e{};
      if (!key_bytes(k, e.key.data())) throw std::runtime_error("kernel archive: bad key " + k);
      e.image = i;
      entries.push_back(e);
    }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
  for (std::size_t i = 1; i < entries.size(); ++i)
    if (entries[i].key == entries[i - 1].key && entries[i].image != entries[i - 1].image)
      throw std::runtime_error("kernel archive: two images for one key");
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [](const Entry& a, const Entry& b) { return a.key == b.key; }),
                entries.end());

  const std::uint64_t image_table = kHeaderSize;
  const std::uint64_t entry_table = image_table + kImageRecord * images.size();
  std::uint64_t data = entry_table + kEntryRecord * entries.size();
  data = (data + 15) & ~std::uint64_t{15};
  std::uint64_t file_size = data;
  std::vector<std::optional<std::string>> packed;
  for (const ArchiveImage& im : images) packed.push_back(im.packed.empty() ? pack(im.image) : im.packed);
  auto stored = [&](std::size_t i) -> std::string_view { return packed[i] ? *packed[i] : images[i].image; };
  std::vector<std::uint64_t> offsets;
  for (std::size_t i = 0; i < images.size(); ++i) {
    offsets.push_back(file_size);
    file_size += (stored(i).size() + 15) & ~std::size_t{15};
  }

  std::string out(kMagic);
  put_u64(out, kFormat);
  put_u64(out, static_cast<std::uint64_t>(nvrtc_version()));
  put_u64(out, kPreambleVersion);
  put_u64(out, static_cast<std::uint64_t>(ptx_arch));
  put_u64(out, archs.size());
  for (int i = 0; i < kMaxArchs; ++i)
    put_u64(out, i < static_cast<int>(archs.size()) ? static_cast<std::uint64_t>(archs[i]) : 0);
  put_u64(out, images.size());
  put_u64(out, image_table);
  put_u64(out, entries.size());
  put_u64(out, entry_table);
  put_u64(out, file_size);
  std::string version = CUNP_VERSION;
  version.resize(kVersionBytes, '\0');
  out += version;
  unsigned char sha[32];
  raw_sha(out, sha);
  out.append(reinterpret_cast<const char*>(sha), 32);
  for (std::size_t i = 0; i < images.size(); ++i) {
    put_u64(out, offsets[i]);
    put_u64(out, stored(i).size());
    put_u64(out, static_cast<std::uint64_t>(images[i].arch));
    put_u64(out, (images[i].ptx ? kFlagPtx : 0) | (packed[i] ? kFlagZlib : 0) | (images[i].image.size() << 8));
    put_u64(out, checksum(stored(i)));
  }
  for (const Entry& e : entries) {
    out.append(reinterpret_cast<const char*>(e.key.data()), 32);
    put_u64(out, e.image);
    put_u64(out, entry_check(e.key.data(), e.image));
  }
  out.resize(data, '\0');
  for (std::size_t i = 0; i < images.size(); ++i) {
    out += stored(i);
    out.resize((out.size() + 15) & ~std::size_t{15}, '\0');
  }
  if (out.size() != file_size) throw std::logic_error("kernel archive: size mismatch");

  std::filesystem::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(out.data(), static_cast<std::streamsize>(out.size()));
    f.flush();
    if (!f) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw std::runtime_error("kernel archive: cannot write " + tmp.string());
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error("kernel archive: cannot rename to " + path.string());
  }
}

ArchiveBuildResult build_kernel_archive(const std::filesystem::path& path, const std::vector<ArchiveProgram>& programs,
                                        const ArchiveBuildOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  struct Job {
    std::size_t program;
    int arch;
    bool ptx;
  };
  std::vector<Job> jobs;
  for (std::size_t p = 0; p < programs.size(); ++p) {
    for (int a : options.archs) jobs.push_back({p, a, false});
    if (options.ptx_arch > 0) jobs.push_back({p, options.ptx_arch, true});
  }
  // An archive already at `path` (the previous build) gives back the images whose keys
  // are unchanged, so a rebuild after an unrelated edit costs only the keys.
  std::unique_ptr<KernelArchive> previous = KernelArchive::open(path);
  (void)nvrtc_version();  // load NVRTC once, before the threads

  std::vector<ArchiveImage> images(jobs.size());
  std::atomic<std::size_t> next{0}, done{0}, reused{0};
  std::mutex mutex;
  std::exception_ptr failure;
  auto worker = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      {
        std::lock_guard lock(mutex);
        if (failure) return;
      }
      const Job& job = jobs[i];
      const ArchiveProgram& program = programs[job.program];
      try {
        ArchiveImage& im = images[i];
        im.arch = job.arch;
        im.ptx = job.ptx;
        for (const KernelSource& k : program.kernels)
          im.keys.push_back(job.ptx ? archive_ptx_key(k, job.arch) : disk_cache_key(k, job.arch));
        if (previous) {
          std::optional<ArchiveHit> first = previous->find(im.keys.front());
          bool same = first.has_value();
          for (std::size_t j = 1; same && j < im.keys.size(); ++j) {
            std::optional<ArchiveHit> h = previous->find(im.keys[j]);
            same = h && h->index == first->index;
          }
          if (same) {
            im.image = archive_image_bytes(*first);
            if (!im.image.empty()) {
              if (first->compressed) im.packed.assign(first->image);
              ++reused;
            }
          }
        }
        if (im.image.empty()) {
          CompileOptions o = program.options;
          o.arch = job.arch;
          CompiledProgram out = job.ptx ? compile_to_ptx(program.source, program.name, o)
                                        : compile_to_cubin(program.source, program.name, o);
          for (const KernelSource& k : program.kernels)
            if (out.cubin.find(k.kernel_name) == std::string::npos)
              throw std::runtime_error("kernel archive: " + program.name + " has no kernel " + k.kernel_name);
          im.image = std::move(out.cubin);
          if (job.ptx) im.image.push_back('\0');  // cudaLibraryLoadData reads PTX as a C string
          im.packed = pack(im.image).value_or(std::string());  // in the worker threads
        }
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        return;
      }
      const std::size_t n = ++done;
      if (options.verbose && (n % 200 == 0 || n == jobs.size())) {
        std::lock_guard lock(mutex);
        std::fprintf(stderr, "cunp kernel archive: %zu/%zu images compiled or reused (%.0f s)\n", n, jobs.size(),
                     ms_since(start) / 1000);
      }
    }
  };
  int threads = options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads), std::max<std::size_t>(jobs.size(), 1)));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  previous.reset();  // unmapped before the file is replaced

  write_kernel_archive(path, images, options.archs, options.ptx_arch);
  ArchiveBuildResult r;
  r.programs = programs.size();
  for (const ArchiveProgram& p : programs) r.kernels += p.kernels.size();
  r.images = images.size();
  std::error_code ec;
  r.bytes = static_cast<std::size_t>(std::filesystem::file_size(path, ec));
  r.seconds = ms_since(start) / 1000;
  if (options.verbose)
    std::fprintf(stderr, "cunp kernel archive: %zu of %zu images reused from the previous archive\n",
                 reused.load(), images.size());
  return r;
}

// ---- reading -------------------------------------------------------------------------

std::unique_ptr<KernelArchive> KernelArchive::open(const std::filesystem::path& path, std::string* why) {
  auto fail = [&](const std::string& reason) -> std::unique_ptr<KernelArchive> {
    if (why) *why = reason;
    return nullptr;
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail("not found");
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(kHeaderSize)) {
    ::close(fd);
    return fail("too short");
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return fail("cannot be mapped");
  std::unique_ptr<KernelArchive> a(new KernelArchive);
  a->path_ = path;
  a->data_ = static_cast<const unsigned char*>(map);
  a->size_ = size;
  const unsigned char* p = a->data_;
  if (std::memcmp(p, kMagic.data(), kMagic.size()) != 0) return fail("not a kernel archive");
  unsigned char sha[32];
  raw_sha(std::string_view(reinterpret_cast<const char*>(p), kHeaderHashed), sha);
  if (std::memcmp(sha, p + kHeaderHashed, 32) != 0) return fail("damaged header");
  const unsigned char* f = p + kMagic.size();
  auto field = [&](int i) { return get_u64(f + 8 * i); };
  if (field(0) != kFormat) return fail("format " + std::to_string(field(0)));
  a->nvrtc_version_ = static_cast<int>(field(1));
  if (field(2) != kPreambleVersion) return fail("preamble version " + std::to_string(field(2)));
  a->ptx_arch_ = static_cast<int>(field(3));
  const std::uint64_t narchs = field(4);
  if (narchs > static_cast<std::uint64_t>(kMaxArchs)) return fail("damaged header");
  for (std::uint64_t i = 0; i < narchs; ++i) a->archs_.push_back(static_cast<int>(field(5 + static_cast<int>(i))));
  const int rest = 5 + kMaxArchs;
  a->image_count_ = field(rest);
  a->image_table_ = field(rest + 1);
  a->entry_count_ = field(rest + 2);
  a->entry_table_ = field(rest + 3);
  if (field(rest + 4) != size) return fail("truncated or extended (" + std::to_string(size) + " bytes, header says " +
                                           std::to_string(field(rest + 4)) + ")");
  const char* version = reinterpret_cast<const char*>(f + 8 * kHeaderFields);
  a->cunp_version_.assign(version, strnlen(version, kVersionBytes));
  if (a->image_count_ > size / kImageRecord || a->entry_count_ > size / kEntryRecord ||
      a->image_table_ + a->image_count_ * kImageRecord > size || a->entry_table_ + a->entry_count_ * kEntryRecord > size)
    return fail("damaged tables");
  a->image_state_ = std::make_unique<std::atomic<std::uint8_t>[]>(a->image_count_);
  return a;
}

KernelArchive::~KernelArchive() {
  if (data_ != nullptr) ::munmap(const_cast<unsigned char*>(data_), size_);
}

std::optional<ArchiveHit> KernelArchive::find(std::string_view key) const {
  unsigned char k[32];
  if (!key_bytes(key, k) || entry_count_ == 0) return std::nullopt;
  // binary search over the sorted entry table
  std::uint64_t lo = 0, hi = entry_count_;
  const unsigned char* table = data_ + entry_table_;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    const int c = std::memcmp(table + mid * kEntryRecord, k, 32);
    if (c == 0) {
      const unsigned char* e = table + mid * kEntryRecord;
      const std::uint64_t index = get_u64(e + 32);
      if (get_u64(e + 40) != entry_check(k, index) || index >= image_count_) return std::nullopt;
      const unsigned char* rec = data_ + image_table_ + index * kImageRecord;
      const std::uint64_t offset = get_u64(rec), bytes = get_u64(rec + 8);
      if (offset > size_ || bytes > size_ - offset || bytes == 0) return std::nullopt;
      const std::uint64_t flags = get_u64(rec + 24);
      ArchiveHit hit{.image = std::string_view(reinterpret_cast<const char*>(data_ + offset), bytes),
                     .index = index,
                     .arch = static_cast<int>(get_u64(rec + 16)),
                     .ptx = (flags & kFlagPtx) != 0,
                     .compressed = (flags & kFlagZlib) != 0,
                     .unpacked_size = flags >> 8};
      std::atomic<std::uint8_t>& state = image_state_[index];
      std::uint8_t s = state.load(std::memory_order_acquire);
      if (s == 0) {
        s = checksum(hit.image) == get_u64(rec + 32) ? kImageGood : kImageBad;
        state.store(s, std::memory_order_release);
      }
      if (s != kImageGood) return std::nullopt;
      return hit;
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return std::nullopt;
}

std::string archive_image_bytes(const ArchiveHit& hit) {
  if (!hit.compressed) return std::string(hit.image);
#if CUNP_HAVE_ZLIB
  if (hit.unpacked_size == 0 || hit.unpacked_size > (std::uint64_t{1} << 32)) return {};
  std::string out(hit.unpacked_size, '\0');
  uLongf n = static_cast<uLongf>(out.size());
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &n, reinterpret_cast<const Bytef*>(hit.image.data()),
                 static_cast<uLong>(hit.image.size())) != Z_OK || n != out.size())
    return {};
  return out;
#else
  return {};  // an archive written by a build with zlib
#endif
}

namespace {

struct GlobalArchive {
  std::unique_ptr<KernelArchive> archive;
  std::string status;
};

std::filesystem::path library_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&kernel_cache_counters), &info) == 0 || info.dli_fname == nullptr)
    return {};
  std::error_code ec;
  std::filesystem::path lib = std::filesystem::canonical(info.dli_fname, ec);
  if (ec) lib = info.dli_fname;
  return lib.parent_path();
}

const GlobalArchive& global_archive() {
  static const GlobalArchive* g = [] {
    auto* out = new GlobalArchive;
    std::filesystem::path path;
    if (const char* v = std::getenv("CUNP_KERNEL_ARCHIVE"); v != nullptr) {
      if (v[0] == '\0' || std::strcmp(v, "0") == 0) {
        out->status = "disabled (CUNP_KERNEL_ARCHIVE)";
        return out;
      }
      path = v;
    } else {
      path = library_dir() / kKernelArchiveFileName;
    }
    std::string why;
    std::unique_ptr<KernelArchive> a = KernelArchive::open(path, &why);
    if (!a) {
      out->status = why + " (" + path.string() + ")";
    } else {
      int runtime_nvrtc = 0;
      try {
        runtime_nvrtc = nvrtc_version();
      } catch (const CudaError&) {
      }
      if (runtime_nvrtc != a->nvrtc_version()) {
        out->status = "ignored: built with NVRTC " + std::to_string(a->nvrtc_version()) + ", this process has " +
                      std::to_string(runtime_nvrtc) + " (" + path.string() + ")";
      } else {
        std::string archs;
        for (int x : a->archs()) archs += (archs.empty() ? "sm_" : ", sm_") + std::to_string(x);
        if (a->ptx_arch() > 0) archs += (archs.empty() ? "" : ", ") + std::string("compute_") + std::to_string(a->ptx_arch());
        out->status = path.string() + " (" + archs + "; " + std::to_string(a->entry_count()) + " entries, " +
                      std::to_string(a->file_size() >> 20) + " MiB, cunp " + a->cunp_version() + ")";
        out->archive = std::move(a);
      }
    }
    if (kernel_trace_enabled()) kernel_trace("archive   %s", out->status.c_str());
    return out;
  }();
  return *g;
}

}  // namespace

const KernelArchive* KernelArchive::global() { return global_archive().archive.get(); }
std::string KernelArchive::global_status() { return global_archive().status; }

}  // namespace cunp::cuda

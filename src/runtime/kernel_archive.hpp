// src/runtime/kernel_archive.hpp — the prebuilt kernel archive: every built-in kernel
// compiled ahead of time (tools/cunp_kernel_archive.cpp), the kernel cache's read-only
// first tier.
//
// Note [Kernel archive]: the build can compile every built-in kernel (the enumeration of
// src/builtin/builtin_kernels.cpp) with NVRTC into one file, cunp_kernels.bin, placed beside
// libcunp (the Python package's directory in a wheel). Entries are found by the disk
// cache's key (disk_cache_key: SHA-256 over the single-kernel source the engine
// generates at run time, the NVRTC options, NVRTC's version, the arch, kPreambleVersion
// and the embedded headers), so an archive is used exactly when the engine would have
// compiled the same text with the same NVRTC for the same target; any other build's
// archive simply misses. The lookup order of load_kernel (kernel_cache.cpp) is:
//
//   memory -> archive cubin -> CUNP_CACHE_DIR cubin -> archive PTX (driver JIT) -> NVRTC
//
// The archive is compiled per batch (one program per cast pair, ufunc, reduction group,
// ..., as builtin_kernel_programs() lists them: one preamble and the same entries as the
// single-kernel programs, so each kernel's code is the same), and every kernel's key
// points at its batch's image; a batch's image is loaded into one cudaLibrary_t the first
// time any of its kernels is needed, and shared by the others.
//
// Layout (all integers little-endian u64; keys are the 32 raw bytes of the SHA-256):
//
//   header   "CUNPKA01", format, NVRTC version, kPreambleVersion, PTX arch, #archs,
//            archs[16], #images, image table offset, #entries, entry table offset,
//            file size, cunp version (32 bytes, NUL padded), SHA-256 of all the above
//   images   {offset, size, arch, flags, checksum of the stored bytes} each; flags: bit 0
//            PTX, bit 1 zlib-compressed (cubins shrink ~5x), bits 8.. the size unpacked
//   entries  {key, image index, check} each, sorted by key; check is a hash of the key
//            and the index, so a damaged entry reads as absent
//   data     the images (cubin ELF or NUL-terminated PTX, zlib-compressed when the build
//            has zlib)
//
// The file is mmap()ed on the first lookup; only the header is checked then. An entry is
// checked when found, an image (its SHA-256) when first used. A missing, short, foreign
// or damaged archive is ignored (every lookup a miss; CUNP_KERNEL_TRACE=1 says why).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/kernel_cache.hpp"

namespace cunp::cuda {

inline constexpr std::string_view kKernelArchiveFileName = "cunp_kernels.bin";

// The key of the PTX (for compute_<arch>) of a program whose cubin key is
// disk_cache_key(source, arch).
std::string archive_ptx_key(const KernelSource& source, int arch);

// compile_to_cubin's twin for the archive's PTX: the same options with
// -arch=compute_<arch>; the result's `cubin` holds the PTX text (no terminating NUL).
CompiledProgram compile_to_ptx(std::string_view source, std::string_view program_name,
                               const CompileOptions& options);

// ---- writing -------------------------------------------------------------------------

// One compiled image and the keys (64 hex digits) of the kernels it serves.
struct ArchiveImage {
  std::string image;  // cubin, or PTX text
  int arch = 0;
  bool ptx = false;
  std::vector<std::string> keys;
  std::string packed;  // the image zlib-compressed, when already known (else the writer packs it)
};

// Writes `images` as an archive to `path` (through a temporary file and a rename).
// Throws std::runtime_error when the file cannot be written or two images claim a key.
void write_kernel_archive(const std::filesystem::path& path, const std::vector<ArchiveImage>& images,
                          const std::vector<int>& archs, int ptx_arch);

// A batch as the archive tool compiles it, and the single-kernel sources whose keys map
// to its image.
struct ArchiveProgram {
  std::string name;
  std::string source;
  CompileOptions options;
  std::vector<KernelSource> kernels;
};

struct ArchiveBuildOptions {
  std::vector<int> archs;  // cubin targets, sm_XX
  int ptx_arch = 0;        // 0: no PTX
  int jobs = 0;            // compile threads; 0: one per core
  bool verbose = false;    // progress on stderr
};
struct ArchiveBuildResult {
  std::size_t programs = 0, kernels = 0, images = 0, bytes = 0;
  double seconds = 0;
};
// Compiles `programs` for every arch (and the PTX) in parallel and writes the archive.
// Throws CompileError/CudaError when a program does not compile.
ArchiveBuildResult build_kernel_archive(const std::filesystem::path& path,
                                        const std::vector<ArchiveProgram>& programs,
                                        const ArchiveBuildOptions& options);

// ---- reading -------------------------------------------------------------------------

// An image found for a key: its stored bytes (inside the mapping) and its index in the
// archive.
struct ArchiveHit {
  std::string_view image;
  std::uint64_t index = 0;
  int arch = 0;
  bool ptx = false;
  bool compressed = false;
  std::uint64_t unpacked_size = 0;
};
// The image itself (decompressed); empty when it cannot be decompressed.
std::string archive_image_bytes(const ArchiveHit& hit);

class KernelArchive {
 public:
  // Maps `path`; nullptr (and `why` set) when it is missing or not a valid archive.
  static std::unique_ptr<KernelArchive> open(const std::filesystem::path& path, std::string* why = nullptr);
  // The process's archive: CUNP_KERNEL_ARCHIVE (a path; empty or 0 disables it), else
  // cunp_kernels.bin beside libcunp. Opened on the first call; null when there is none.
  static const KernelArchive* global();
  // Where global() looked and what it found, for show_config.
  static std::string global_status();

  ~KernelArchive();
  KernelArchive(const KernelArchive&) = delete;
  KernelArchive& operator=(const KernelArchive&) = delete;

  // The image stored under `key` (64 hex digits), checked; nullopt when absent/damaged.
  std::optional<ArchiveHit> find(std::string_view key) const;

  const std::filesystem::path& path() const noexcept { return path_; }
  const std::vector<int>& archs() const noexcept { return archs_; }
  int ptx_arch() const noexcept { return ptx_arch_; }
  int nvrtc_version() const noexcept { return nvrtc_version_; }
  const std::string& cunp_version() const noexcept { return cunp_version_; }
  std::uint64_t entry_count() const noexcept { return entry_count_; }
  std::uint64_t image_count() const noexcept { return image_count_; }
  std::uint64_t file_size() const noexcept { return size_; }

 private:
  KernelArchive() = default;
  std::filesystem::path path_;
  const unsigned char* data_ = nullptr;
  std::uint64_t size_ = 0;
  std::vector<int> archs_;
  int ptx_arch_ = 0;
  int nvrtc_version_ = 0;
  std::string cunp_version_;
  std::uint64_t image_count_ = 0, image_table_ = 0, entry_count_ = 0, entry_table_ = 0;
  // 0: unchecked, 1: good, 2: damaged (one byte per image, set on first use)
  std::unique_ptr<std::atomic<std::uint8_t>[]> image_state_;
};

// ---- counters (show_config, kernel_cache_stats) --------------------------------------

struct KernelCacheCounters {
  std::atomic<std::uint64_t> nvrtc_compiles{0};  // nvrtcCompileProgram calls (every kind)
  std::atomic<std::uint64_t> archive_hits{0};    // kernels loaded from the archive (cubin or PTX)
  std::atomic<std::uint64_t> disk_hits{0};       // programs read from CUNP_CACHE_DIR
};
KernelCacheCounters& kernel_cache_counters();

}  // namespace cunp::cuda

// The prebuilt kernel archive (src/runtime/kernel_archive.cpp, Note [Kernel archive]):
// writing, mapping, lookups, damaged files and foreign keys, with two tiny programs
// (NVRTC, no GPU); and the archive tool's enumeration against the built-in list.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "builtin/builtin_kernels.hpp"
#include "runtime/kernel_archive.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "runtime/vendor_lib.hpp"
#include "cunp/config.hpp"
#include "temp_files.hpp"

namespace cunp::cuda {
namespace {

namespace fs = std::filesystem;

// The on-disk helpers of temp_files.hpp, this file's directories named cunp-ka-*.
struct TempDir : test::TempDir {
  TempDir() : test::TempDir("cunp-ka") {}
};
using test::read_file;
using test::write_file;

class EnvGuard {
 public:
  EnvGuard(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    ::setenv(name, value, 1);
  }
  ~EnvGuard() {
    if (had_)
      ::setenv(name_, old_.c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

constexpr const char* kPreamble = "#define CUNP_TEST_SCALE 2.0f\n";

std::string entry(const std::string& name, const char* body) {
  return "extern \"C\" __global__ void " + name + "(float* d) { " + body + " }\n";
}

// A batch of two kernels and the single-kernel programs the engine would compile,
// as builtin_archive_programs() pairs them.
ArchiveProgram tiny_program() {
  ArchiveProgram p;
  p.name = "tiny";
  p.source = kPreamble;
  const std::pair<const char*, const char*> kernels[] = {
      {"cunp_ka_one", "d[threadIdx.x] = CUNP_TEST_SCALE;"},
      {"cunp_ka_two", "d[threadIdx.x] *= CUNP_TEST_SCALE;"},
  };
  for (const auto& [name, body] : kernels) {
    p.source += entry(name, body);
    KernelSource k;
    k.kernel_name = name;
    k.source = std::string(kPreamble) + entry(name, body);
    p.kernels.push_back(k);
  }
  return p;
}

fs::path build_tiny(const TempDir& dir) {
  const fs::path path = dir.path() / "kernels.bin";
  ArchiveBuildOptions o;
  o.archs = {90};
  o.ptx_arch = 90;
  o.jobs = 2;
  const ArchiveBuildResult r = build_kernel_archive(path, {tiny_program()}, o);
  EXPECT_EQ(r.programs, 1u);
  EXPECT_EQ(r.kernels, 2u);
  EXPECT_EQ(r.images, 2u);  // the sm_90 cubin and the compute_90 PTX
  return path;
}

TEST(KernelArchive, WriteThenReadRoundTrip) {
  TempDir dir;
  const fs::path path = build_tiny(dir);
  std::string why;
  const std::unique_ptr<KernelArchive> a = KernelArchive::open(path, &why);
  ASSERT_NE(a, nullptr) << why;
  EXPECT_EQ(a->archs(), std::vector<int>{90});
  EXPECT_EQ(a->ptx_arch(), 90);
  EXPECT_EQ(a->nvrtc_version(), nvrtc_version());
  EXPECT_EQ(a->cunp_version(), cunp::version());
  EXPECT_EQ(a->entry_count(), 4u);
  EXPECT_EQ(a->image_count(), 2u);
  EXPECT_EQ(a->file_size(), fs::file_size(path));

  const ArchiveProgram p = tiny_program();
  std::set<std::uint64_t> cubin_images;
  for (const KernelSource& k : p.kernels) {
    const std::optional<ArchiveHit> cubin = a->find(disk_cache_key(k, 90));
    ASSERT_TRUE(cubin.has_value()) << k.kernel_name;
    EXPECT_FALSE(cubin->ptx);
    EXPECT_EQ(cubin->arch, 90);
    const std::string bytes = archive_image_bytes(*cubin);
    EXPECT_EQ(bytes.substr(0, 4), std::string_view("\x7f" "ELF"));
    if (cubin->compressed) {  // builds with zlib
      EXPECT_LT(cubin->image.size(), bytes.size());
      EXPECT_EQ(cubin->unpacked_size, bytes.size());
    }
    // the batch's image holds both kernels
    for (const KernelSource& other : p.kernels) EXPECT_NE(bytes.find(other.kernel_name), std::string::npos);
    cubin_images.insert(cubin->index);

    const std::optional<ArchiveHit> ptx = a->find(archive_ptx_key(k, 90));
    ASSERT_TRUE(ptx.has_value()) << k.kernel_name;
    EXPECT_TRUE(ptx->ptx);
    const std::string text = archive_image_bytes(*ptx);
    EXPECT_NE(text.find(".entry " + k.kernel_name), std::string::npos);
    EXPECT_EQ(text.back(), '\0');  // loadable as a C string
    EXPECT_NE(ptx->index, cubin->index);
  }
  EXPECT_EQ(cubin_images.size(), 1u);
  // The cubin is the one NVRTC makes for the batch.
  CompileOptions o;
  o.arch = 90;
  EXPECT_EQ(archive_image_bytes(*a->find(disk_cache_key(p.kernels[0], 90))), compile_to_cubin(p.source, p.name, o).cubin);
}

TEST(KernelArchive, LookupMissesForeignKeys) {
  TempDir dir;
  const std::unique_ptr<KernelArchive> a = KernelArchive::open(build_tiny(dir));
  ASSERT_NE(a, nullptr);
  const KernelSource k = tiny_program().kernels[0];
  EXPECT_TRUE(a->find(disk_cache_key(k, 90)));
  EXPECT_FALSE(a->find(disk_cache_key(k, 80)));        // another arch
  EXPECT_FALSE(a->find(archive_ptx_key(k, 80)));
  KernelSource changed = k;
  changed.source += "\n";                               // another source text
  EXPECT_FALSE(a->find(disk_cache_key(changed, 90)));
  KernelSource option = k;
  option.options.extra_options.push_back("-DCUNP_X=1");  // other options
  EXPECT_FALSE(a->find(disk_cache_key(option, 90)));
  KernelSource standard = k;
  standard.options.cxx_standard = 20;
  EXPECT_FALSE(a->find(disk_cache_key(standard, 90)));
  EXPECT_NE(disk_cache_key(k, 90), archive_ptx_key(k, 90));
  EXPECT_FALSE(a->find("not a key"));
  EXPECT_FALSE(a->find(std::string(64, 'z')));
  EXPECT_FALSE(a->find(std::string(64, '0')));
  EXPECT_FALSE(a->find(std::string(64, 'f')));
}

TEST(KernelArchive, RebuildReusesUnchangedImages) {
  TempDir dir;
  const fs::path path = build_tiny(dir);
  const std::string before = read_file(path);
  const std::uint64_t compiles = kernel_cache_counters().nvrtc_compiles.load();
  build_tiny(dir);
  EXPECT_EQ(kernel_cache_counters().nvrtc_compiles.load(), compiles);  // nothing compiled again
  EXPECT_EQ(read_file(path), before);
}

std::uint64_t a_find_index(const fs::path& path, const std::string& key) {
  const std::unique_ptr<KernelArchive> a = KernelArchive::open(path);
  const std::optional<ArchiveHit> hit = a ? a->find(key) : std::nullopt;
  return hit ? hit->index : ~std::uint64_t{0};
}

TEST(KernelArchive, DamagedFilesAreRejected) {
  TempDir dir;
  const fs::path path = build_tiny(dir);
  const std::string good = read_file(path);
  const KernelSource k = tiny_program().kernels[0];
  const std::string key = disk_cache_key(k, 90);
  const fs::path bad = dir.path() / "bad.bin";
  auto open_bytes = [&](const std::string& bytes, std::string* why = nullptr) {
    write_file(bad, bytes);
    return KernelArchive::open(bad, why);
  };
  std::string why;
  EXPECT_EQ(KernelArchive::open(dir.path() / "missing.bin", &why), nullptr);
  EXPECT_EQ(why, "not found");
  EXPECT_EQ(open_bytes(""), nullptr);
  EXPECT_EQ(open_bytes(std::string(4096, 'x')), nullptr);
  EXPECT_EQ(open_bytes(good.substr(0, 100)), nullptr);                     // shorter than a header
  EXPECT_EQ(open_bytes(good.substr(0, good.size() - 1), &why), nullptr);  // truncated
  EXPECT_NE(why.find("truncated"), std::string::npos) << why;
  EXPECT_EQ(open_bytes(good + "x"), nullptr);                              // extended
  for (std::size_t at : {std::size_t{0}, std::size_t{9}, std::size_t{40}, std::size_t{250}}) {
    std::string b = good;
    b[at] = static_cast<char>(b[at] ^ 0x10);  // the magic, the format, the arch count, the header hash
    EXPECT_EQ(open_bytes(b), nullptr) << "byte " << at;
  }
  // A damaged image: the header is fine, the image fails its checksum and reads as absent.
  // image 0 (the cubin): its offset is the first field of the image table after the header
  std::size_t image_at = 0, image_size = 0;
  for (int i = 0; i < 8; ++i) {
    image_at |= std::size_t{static_cast<unsigned char>(good[280 + i])} << (8 * i);
    image_size |= std::size_t{static_cast<unsigned char>(good[288 + i])} << (8 * i);
  }
  ASSERT_LE(image_at + image_size, good.size());
  ASSERT_GT(image_size, 0u);
  image_at += image_size / 2;
  ASSERT_TRUE(a_find_index(path, key) == 0u);
  {
    std::string b = good;
    b[image_at] = static_cast<char>(b[image_at] ^ 0x01);
    const std::unique_ptr<KernelArchive> a = open_bytes(b);
    ASSERT_NE(a, nullptr);
    EXPECT_FALSE(a->find(key));
    EXPECT_TRUE(a->find(archive_ptx_key(k, 90)));  // the other image is intact
  }
  // A damaged entry (its image index): the entry's check fails, the key reads as absent.
  {
    unsigned char raw[32];
    for (int i = 0; i < 32; ++i) raw[i] = static_cast<unsigned char>(std::stoi(key.substr(2 * i, 2), nullptr, 16));
    const std::size_t entry_at = good.find(std::string(reinterpret_cast<const char*>(raw), 32));
    ASSERT_NE(entry_at, std::string::npos);
    std::string b = good;
    b[entry_at + 32] = static_cast<char>(b[entry_at + 32] ^ 0x01);
    const std::unique_ptr<KernelArchive> a = open_bytes(b);
    ASSERT_NE(a, nullptr);
    EXPECT_FALSE(a->find(key));
  }
}

TEST(KernelArchive, EmptyArchive) {
  TempDir dir;
  const fs::path path = dir.path() / "empty.bin";
  write_kernel_archive(path, {}, {}, 0);
  const std::unique_ptr<KernelArchive> a = KernelArchive::open(path);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->entry_count(), 0u);
  EXPECT_FALSE(a->find(disk_cache_key(tiny_program().kernels[0], 90)));
}

TEST(KernelArchive, TwoImagesForOneKeyAreRefused) {
  TempDir dir;
  const std::string key = disk_cache_key(tiny_program().kernels[0], 90);
  std::vector<ArchiveImage> images(2);
  images[0] = {.image = "a", .arch = 90, .ptx = false, .keys = {key}};
  images[1] = {.image = "b", .arch = 90, .ptx = false, .keys = {key}};
  EXPECT_THROW(write_kernel_archive(dir.path() / "x.bin", images, {90}, 0), std::runtime_error);
}

// The tool compiles builtin_archive_programs(): every built-in kernel exactly once, as
// the very single-kernel program (text and options) the engine generates at run time,
// so its key is the one the kernel cache looks up.
TEST(KernelArchive, ToolEnumerationCoversEveryBuiltinKernel) {
  const std::vector<KernelSource> singles = builtin_kernel_sources();
  std::map<std::string, const KernelSource*> by_name;
  for (const KernelSource& s : singles) by_name[s.kernel_name] = &s;
  ASSERT_EQ(by_name.size(), singles.size());
  const std::vector<ArchiveProgram> programs = builtin_archive_programs();
  EXPECT_EQ(programs.size(), builtin_kernel_programs().size());
  std::set<std::string> covered;
  for (const ArchiveProgram& p : programs) {
    ASSERT_FALSE(p.kernels.empty()) << p.name;
    for (const KernelSource& k : p.kernels) {
      EXPECT_TRUE(covered.insert(k.kernel_name).second) << k.kernel_name << " twice";
      const auto it = by_name.find(k.kernel_name);
      ASSERT_NE(it, by_name.end()) << k.kernel_name;
      EXPECT_EQ(k.source, it->second->source) << k.kernel_name;
      EXPECT_EQ(nvrtc_option_list(k.options), nvrtc_option_list(it->second->options)) << k.kernel_name;
      EXPECT_NE(p.source.find(k.kernel_name), std::string::npos) << k.kernel_name << " not in " << p.name;
    }
  }
  EXPECT_EQ(covered.size(), singles.size());
}

// The archive this build made (-DCUNP_KERNEL_ARCHIVE_ARCHS; skipped without one) serves
// every built-in kernel, for each of its targets, under the key the kernel cache computes.
TEST(KernelArchive, BuiltArchiveServesEveryBuiltinKernel) {
  const KernelArchive* a = KernelArchive::global();
  if (a == nullptr) GTEST_SKIP() << KernelArchive::global_status();
  std::size_t found = 0;
  for (const KernelSource& k : builtin_kernel_sources()) {
    for (int arch : a->archs()) {
      const std::optional<ArchiveHit> hit = a->find(disk_cache_key(k, arch));
      EXPECT_TRUE(hit.has_value()) << k.kernel_name << " sm_" << arch;
      found += hit.has_value();
    }
    if (a->ptx_arch() > 0) {
      EXPECT_TRUE(a->find(archive_ptx_key(k, a->ptx_arch()))) << k.kernel_name;
    }
  }
  std::printf("  %zu kernel cubins found in %s\n", found, a->path().c_str());
}

// Note [CUDA library search order], without loading anything.
TEST(VendorLibSearch, CandidatesInDocumentedOrder) {
  TempDir dir;
  const VendorLibInfo& info = vendor_lib_info(VendorLib::curand);
  if (info.soname[0] == '\0') GTEST_SKIP() << "no cuRAND in the build toolkit";
  const fs::path mine = dir.path() / "mine", cuda = dir.path() / "cuda", wheel = dir.path() / "site" / "nvidia";
  for (const fs::path& d : {mine / "lib64", cuda / "lib", wheel / "cu13" / "lib", wheel / "curand" / "lib"}) {
    fs::create_directories(d);
    write_file(d / info.soname, "");
  }
  const EnvGuard a("CUNP_CUDA_PATH", mine.c_str());
  const EnvGuard b("CUDA_PATH", cuda.c_str());
  set_wheel_library_dirs({wheel.string()});
  const std::vector<VendorLibOrigin> c = vendor_library_candidates(VendorLib::curand);
  std::vector<VendorLibOrigin> without_build;
  {
    const EnvGuard ignore("CUNP_IGNORE_BUILD_TOOLKIT", "1");
    without_build = vendor_library_candidates(VendorLib::curand);
  }
  set_wheel_library_dirs({});
  const bool has_build = fs::exists(info.path) && std::string(info.path) != info.soname;
  ASSERT_EQ(c.size(), has_build ? 6u : 5u);
  EXPECT_EQ(c[0].path, (mine / "lib64" / info.soname).string());
  EXPECT_EQ(c[0].via, "CUNP_CUDA_PATH");
  EXPECT_EQ(c[1].path, (cuda / "lib" / info.soname).string());
  EXPECT_EQ(c[1].via, "CUDA_PATH");
  const std::size_t w = has_build ? 3 : 2;
  if (has_build) {
    EXPECT_EQ(c[2].path, info.path);
    EXPECT_EQ(c[2].via, "build toolkit");
  }
  EXPECT_EQ(c[w].path, (wheel / "cu13" / "lib" / info.soname).string());
  EXPECT_EQ(c[w].via, "NVIDIA wheel");
  EXPECT_EQ(c[w + 1].path, (wheel / "curand" / "lib" / info.soname).string());
  EXPECT_EQ(c[w + 2].path, info.soname);
  EXPECT_EQ(c[w + 2].via, "system loader");
  ASSERT_EQ(without_build.size(), 5u);  // CUNP_IGNORE_BUILD_TOOLKIT drops only that step
  EXPECT_EQ(without_build[2].via, "NVIDIA wheel");
}

TEST(VendorLibSearch, OriginOfALoadedLibrary) {
  const std::optional<VendorLibOrigin> o = vendor_library_origin(VendorLib::nvrtc);
  if (!fs::exists(vendor_lib_info(VendorLib::nvrtc).path)) GTEST_SKIP() << "no NVRTC here";
  ASSERT_TRUE(o.has_value());
  EXPECT_TRUE(fs::exists(o->path)) << o->path;
  EXPECT_NE(o->path.find("nvrtc"), std::string::npos) << o->path;
  EXPECT_FALSE(o->via.empty());
}

}  // namespace
}  // namespace cunp::cuda

// The kernel caches: disk keys, atomic writes, corrupt entries, concurrent writers and
// compile errors run without a GPU (compile-only path); the in-memory cache needs one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cuda/copy_source.hpp"
#include "runtime/kernel_cache.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "temp_files.hpp"

namespace cunp::cuda {
namespace {

namespace fs = std::filesystem;

// The on-disk helpers of temp_files.hpp, this file's directories named cunp-kc-*.
struct TempDir : test::TempDir {
  TempDir() : test::TempDir("cunp-kc") {}
};
using test::read_file;
using test::write_file;

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
  return files;
}

KernelSource small_kernel(const std::string& body = "dst[threadIdx.x] = 1.0f;") {
  KernelSource s;
  s.kernel_name = "cunp_test_kernel";
  s.source = "extern \"C\" __global__ void cunp_test_kernel(float* dst) { " + body + " }\n";
  return s;
}

// Sets an environment variable for the scope.
class EnvGuard {
 public:
  EnvGuard(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~EnvGuard() {
    if (old_.empty())
      ::unsetenv(name_);
    else
      ::setenv(name_, old_.c_str(), 1);
  }

 private:
  const char* name_;
  std::string old_;
};

TEST(KernelCache, Sha256KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(KernelCache, DiskKeyIsStableAndCoversItsInputs) {
  const KernelSource a = small_kernel();
  const std::string key = disk_cache_key(a, 90);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key, disk_cache_key(a, 90));
  EXPECT_EQ(key, disk_cache_key(small_kernel(), 90));
  EXPECT_NE(key, disk_cache_key(a, 80));
  EXPECT_NE(key, disk_cache_key(small_kernel("dst[threadIdx.x] = 2.0f;"), 90));
  KernelSource b = a;
  b.options.extra_options.push_back("-DX=1");
  EXPECT_NE(key, disk_cache_key(b, 90));
  KernelSource c = a;
  c.options.cxx_standard = 20;
  EXPECT_NE(key, disk_cache_key(c, 90));
  KernelSource d = a;
  d.options.name_expressions.push_back("cunp_test_kernel");
  EXPECT_NE(key, disk_cache_key(d, 90));
  // options.arch is overridden by the arch argument: it is not a second input.
  KernelSource e = a;
  e.options.arch = 75;
  EXPECT_EQ(key, disk_cache_key(e, 90));
}

TEST(KernelCache, CompileThenDiskHit) {
  TempDir dir;
  const DiskCache disk(dir.path());
  ASSERT_TRUE(disk.enabled());
  const KernelSource src = small_kernel();
  bool hit = true;
  const DiskEntry first = compile_cached(src, 90, disk, &hit);
  EXPECT_FALSE(hit);
  ASSERT_GT(first.cubin.size(), 4u);
  EXPECT_EQ(first.cubin.compare(0, 4,
                                "\x7f"
                                "ELF"),
            0);
  const fs::path entry = disk.entry_path(disk_cache_key(src, 90));
  EXPECT_TRUE(fs::exists(entry));
  // Nothing but the entry is left behind (no temporary files).
  EXPECT_EQ(files_in(dir.path()), std::vector<fs::path>{entry});

  const DiskEntry second = compile_cached(src, 90, disk, &hit);
  EXPECT_TRUE(hit);
  EXPECT_EQ(second.cubin, first.cubin);
}

TEST(KernelCache, StoreLoadRoundTripWithLoweredNames) {
  TempDir dir;
  const DiskCache disk(dir.path());
  DiskEntry entry{std::string("\x7f"
                              "ELF\0\1\2 binary",
                              14),
                  {{"f<int>", "_Z1fIiEvv"}, {"g", "g"}}};
  disk.store("k1", entry);
  const std::optional<DiskEntry> back = disk.load("k1");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->cubin, entry.cubin);
  EXPECT_EQ(back->lowered_names, entry.lowered_names);
  EXPECT_FALSE(disk.load("k2").has_value());
  // An entry renamed to another key is not accepted under that key.
  fs::copy_file(disk.entry_path("k1"), disk.entry_path("k3"));
  EXPECT_FALSE(disk.load("k3").has_value());
}

TEST(KernelCache, CorruptOrShortEntryIsIgnoredAndRewritten) {
  TempDir dir;
  const DiskCache disk(dir.path());
  const KernelSource src = small_kernel();
  const DiskEntry good = compile_cached(src, 90, disk);
  const fs::path entry = disk.entry_path(disk_cache_key(src, 90));
  const std::string bytes = read_file(entry);

  const std::vector<std::string> damaged = {
      "",                                 // empty
      bytes.substr(0, bytes.size() / 2),  // short write
      bytes.substr(0, bytes.size() - 1),  // one byte missing
      std::string(bytes.size(), '\0'),    // zeros
      "not a cunp cache entry at all",    // foreign
  };
  for (std::size_t i = 0; i < damaged.size(); ++i) {
    write_file(entry, damaged[i]);
    EXPECT_FALSE(disk.load(disk_cache_key(src, 90)).has_value()) << "case " << i;
    bool hit = true;
    const DiskEntry again = compile_cached(src, 90, disk, &hit);
    EXPECT_FALSE(hit) << "case " << i;
    EXPECT_EQ(again.cubin, good.cubin);
    EXPECT_EQ(read_file(entry), bytes) << "case " << i << ": entry not rewritten";
  }
  // A flipped byte in the middle of the cubin fails the checksum.
  std::string flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x5a;
  write_file(entry, flipped);
  EXPECT_FALSE(disk.load(disk_cache_key(src, 90)).has_value());
}

TEST(KernelCache, ConcurrentWritersOfOneKey) {
  TempDir dir;
  const DiskCache disk(dir.path());
  const KernelSource src = small_kernel("dst[threadIdx.x] = 3.0f * threadIdx.x;");
  constexpr int kThreads = 6;
  std::vector<std::string> cubins(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] { cubins[t] = compile_cached(src, 90, disk).cubin; });
  for (std::thread& t : threads) t.join();
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(cubins[t], cubins[0]);
  const std::vector<fs::path> files = files_in(dir.path());
  ASSERT_EQ(files.size(), 1u) << "temporary files left behind";
  bool hit = false;
  EXPECT_EQ(compile_cached(src, 90, disk, &hit).cubin, cubins[0]);
  EXPECT_TRUE(hit);
}

TEST(KernelCache, ReadersNeverSeeAPartialEntry) {
  TempDir dir;
  const DiskCache disk(dir.path());
  DiskEntry entry{std::string(1 << 20, 'x'), {}};
  std::atomic<bool> stop{false};
  std::atomic<int> partial{0}, seen{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < 3; ++w)
    threads.emplace_back([&] {
      for (int i = 0; i < 30; ++i) disk.store("big", entry);
    });
  for (int r = 0; r < 2; ++r)
    threads.emplace_back([&] {
      while (!stop) {
        if (std::optional<DiskEntry> e = disk.load("big")) {
          ++seen;
          if (e->cubin != entry.cubin) ++partial;
        }
      }
    });
  for (int w = 0; w < 3; ++w) threads[w].join();
  stop = true;
  for (std::size_t t = 3; t < threads.size(); ++t) threads[t].join();
  EXPECT_EQ(partial, 0);
  EXPECT_TRUE(disk.load("big").has_value());
  EXPECT_EQ(files_in(dir.path()).size(), 1u);
}

TEST(KernelCache, DisabledCacheStillCompiles) {
  const DiskCache disk{fs::path()};
  EXPECT_FALSE(disk.enabled());
  bool hit = true;
  EXPECT_FALSE(compile_cached(small_kernel(), 90, disk, &hit).cubin.empty());
  EXPECT_FALSE(hit);
}

TEST(KernelCache, CompileErrorCarriesTheLog) {
  TempDir dir;
  const DiskCache disk(dir.path());
  KernelSource bad = small_kernel("this_is_not_declared(dst);");
  try {
    compile_cached(bad, 90, disk);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(e.log().find("this_is_not_declared"), std::string::npos) << e.log();
    EXPECT_NE(e.log().find("error"), std::string::npos) << e.log();
    EXPECT_TRUE(e.source_path().empty());
  }
  EXPECT_TRUE(files_in(dir.path()).empty()) << "a failed compile must not leave an entry";
}

TEST(KernelCache, CompileErrorNamesTheSavedSource) {
  TempDir dir;
  const DiskCache disk(dir.path());
  const EnvGuard env("CUNP_CACHE_SAVE_CUDA_SOURCE", "1");
  KernelSource bad = small_kernel("int x = ;");
  try {
    compile_cached(bad, 90, disk);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    ASSERT_FALSE(e.source_path().empty());
    EXPECT_EQ(fs::path(e.source_path()), disk.source_path(disk_cache_key(bad, 90)));
    EXPECT_EQ(read_file(e.source_path()), bad.source);
    EXPECT_NE(std::string(e.what()).find(e.source_path()), std::string::npos) << e.what();
  }
}

TEST(KernelCache, OpsHeadersAreIncludedByName) {
  KernelSource s;
  s.kernel_name = "cunp_test_cast";
  s.source =
      "#include \"cast.h\"\n"
      "extern \"C\" __global__ void cunp_test_cast(cunp::ops::half* d, const double* s) {\n"
      "  d[0] = cunp::ops::cast<cunp::ops::half>(s[0]);\n}\n";
  EXPECT_FALSE(compile_to_cubin(s.source, s.kernel_name, {.arch = 90}).cubin.empty());
}

TEST(KernelCache, NameExpressionsAreLowered) {
  KernelSource s;
  s.kernel_name = "scale<float>";
  s.source = "template <typename T> __global__ void scale(T* x) { x[threadIdx.x] *= T(2); }\n";
  s.options.name_expressions = {"scale<float>", "scale<double>"};
  s.options.cxx_standard = 20;
  const CompiledProgram p = compile_to_cubin(s.source, "scale", s.options);
  ASSERT_EQ(p.lowered_names.size(), 2u);
  EXPECT_EQ(p.lowered_names[0].first, "scale<float>");
  EXPECT_EQ(p.lowered_names[0].second, "_Z5scaleIfEvPT_");
  EXPECT_NE(p.cubin.find(p.lowered_names[1].second), std::string::npos);
}

TEST(KernelCache, TargetArch) {
  EXPECT_EQ(nvrtc_target_arch(90), 90);
  EXPECT_GE(nvrtc_version(), 12000);
  EXPECT_FALSE(nvrtc_supported_archs().empty());
  EXPECT_THROW(nvrtc_target_arch(10), CudaError);
}

TEST(KernelCache, MemoryCacheBuildsOnce) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const int arch = device_props(0).target;
  KernelKey key;
  key.op = op_id("cunp.test.memory_cache");
  key.arch = static_cast<std::uint16_t>(arch);
  int built = 0;
  auto make = [&] {
    ++built;
    return small_kernel();
  };
  const Kernel a = get_kernel(key, make);
  const Kernel b = get_kernel(key, make);
  EXPECT_TRUE(a);
  EXPECT_EQ(a.handle, b.handle);
  EXPECT_EQ(built, 1);
  KernelKey other = key;
  other.ndim = 1;
  EXPECT_FALSE(find_kernel(other).has_value());
}

TEST(KernelCache, KeyHashSeparatesFields) {
  KernelKey a;
  a.op = op_id("x");
  KernelKey b = a;
  b.dtypes[1] = 3;
  KernelKey c = a;
  c.index_bits = 64;
  EXPECT_FALSE(a == b);
  EXPECT_FALSE(a == c);
  const KernelKeyHash h;
  EXPECT_NE(h(a), h(b));
  EXPECT_NE(h(a), h(c));
  EXPECT_EQ(h(a), h(KernelKey(a)));
  static_assert(op_id("cunp.cast") != op_id("cunp.fill"));
}

}  // namespace
}  // namespace cunp::cuda

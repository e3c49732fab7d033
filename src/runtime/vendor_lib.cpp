// src/runtime/vendor_lib.cpp — see vendor_lib.hpp, Notes [Lazy vendor libraries] and
// [CUDA library search order].
#include "runtime/vendor_lib.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>

#include "cunp/error.hpp"

// CMakeLists.txt defines CUNP_<LIB>_SONAME and CUNP_<LIB>_PATH from the toolkit it found.
#if !defined(CUNP_CUBLAS_SONAME) || !defined(CUNP_CUSOLVER_SONAME) || \
    !defined(CUNP_CUFFT_SONAME) || !defined(CUNP_CUSPARSE_SONAME) || !defined(CUNP_NVRTC_SONAME) || \
    !defined(CUNP_NCCL_SONAME)
#error "the vendor libraries' SONAMEs come from CMakeLists.txt"
#endif
// Optional ones (not every toolkit has them): empty when CMake did not find them.
#ifndef CUNP_CUBLASLT_SONAME
#define CUNP_CUBLASLT_SONAME ""
#define CUNP_CUBLASLT_PATH ""
#endif
#ifndef CUNP_NVJITLINK_SONAME
#define CUNP_NVJITLINK_SONAME ""
#define CUNP_NVJITLINK_PATH ""
#endif
#ifndef CUNP_CURAND_SONAME
#define CUNP_CURAND_SONAME ""
#define CUNP_CURAND_PATH ""
#endif

namespace cunp::cuda {
namespace {

namespace fs = std::filesystem;

constexpr VendorLibInfo kLibs[] = {
    {"cuBLAS", CUNP_CUBLAS_SONAME, CUNP_CUBLAS_PATH},
    {"cuSOLVER", CUNP_CUSOLVER_SONAME, CUNP_CUSOLVER_PATH},
    {"cuFFT", CUNP_CUFFT_SONAME, CUNP_CUFFT_PATH},
    {"cuSPARSE", CUNP_CUSPARSE_SONAME, CUNP_CUSPARSE_PATH},
    {"NVRTC", CUNP_NVRTC_SONAME, CUNP_NVRTC_PATH},
    {"cuBLASLt", CUNP_CUBLASLT_SONAME, CUNP_CUBLASLT_PATH},
    {"nvJitLink", CUNP_NVJITLINK_SONAME, CUNP_NVJITLINK_PATH},
    {"cuRAND", CUNP_CURAND_SONAME, CUNP_CURAND_PATH},
    {"NCCL", CUNP_NCCL_SONAME, CUNP_NCCL_PATH},
};
constexpr int kLibCount = static_cast<int>(sizeof(kLibs) / sizeof(kLibs[0]));
static_assert(kLibCount == static_cast<int>(VendorLib::nccl) + 1, "one entry per VendorLib, in order");

// What each library needs loaded first (Note [CUDA library search order]).
std::vector<VendorLib> dependencies(VendorLib lib) {
  switch (lib) {
    case VendorLib::cublas: return {VendorLib::cublaslt};
    case VendorLib::cusparse:
    case VendorLib::cufft: return {VendorLib::nvjitlink};
    case VendorLib::cusolver: return {VendorLib::cublaslt, VendorLib::cublas, VendorLib::nvjitlink, VendorLib::cusparse};
    default: return {};
  }
}

std::string last_dl_error() {
  const char* e = dlerror();
  return e ? e : "unknown error";
}

struct State {
  std::mutex mutex;
  void* handles[kLibCount] = {};
  VendorLibOrigin origins[kLibCount];
  std::vector<std::string> wheel_dirs;
};
State& state() {
  static State* s = new State;  // never destroyed: the libraries stay loaded
  return *s;
}

std::string real_path(void* handle, const std::string& fallback) {
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_name == nullptr || map->l_name[0] == '\0')
    return fallback;
  char resolved[PATH_MAX];
  return realpath(map->l_name, resolved) ? resolved : map->l_name;
}

std::filesystem::path libcunp_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&vendor_lib_info), &info) == 0 || info.dli_fname == nullptr) return {};
  std::error_code ec;
  fs::path p = fs::canonical(info.dli_fname, ec);
  return ec ? fs::path(info.dli_fname).parent_path() : p.parent_path();
}

// Whether the search skips the toolkit cunp was built with (CUNP_IGNORE_BUILD_TOOLKIT=1).
bool build_toolkit_ignored() {
  const char* v = std::getenv("CUNP_IGNORE_BUILD_TOOLKIT");
  return v != nullptr && v[0] != '\0' && std::string(v) != "0";
}

// The environment's step of the search: the candidate files, with the variable naming them.
std::vector<std::pair<fs::path, std::string>> env_candidates(const char* soname) {
  std::vector<std::pair<fs::path, std::string>> out;
  std::error_code ec;
  for (const char* var : {"CUNP_CUDA_PATH", "CUDA_PATH"}) {
    const char* root = std::getenv(var);
    if (root == nullptr || root[0] == '\0') continue;
    for (const char* sub : {"lib64", "lib", ""}) {
      const fs::path file = fs::path(root) / sub / soname;
      if (fs::exists(file, ec)) out.emplace_back(file, var);
    }
  }
  return out;
}

// The NVIDIA wheels' step: nvidia/<name>/lib under the registered site directories.
std::vector<std::pair<fs::path, std::string>> wheel_candidates(const char* soname, const State& s) {
  std::vector<std::pair<fs::path, std::string>> out;
  std::error_code ec;
  std::vector<fs::path> nvidia(s.wheel_dirs.begin(), s.wheel_dirs.end());
  if (const fs::path here = libcunp_dir(); !here.empty()) nvidia.push_back(here.parent_path() / "nvidia");
  for (const fs::path& dir : nvidia) {
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> subdirs;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
      if (e.is_directory(ec)) subdirs.push_back(e.path());
    std::sort(subdirs.begin(), subdirs.end());
    for (const fs::path& sub : subdirs) {
      const fs::path file = sub / "lib" / soname;
      if (fs::exists(file, ec)) out.emplace_back(file, "NVIDIA wheel");
    }
  }
  return out;
}

// Loads `lib` with the state's mutex held; nullptr and `why` when it cannot be loaded.
void* load_locked(State& s, VendorLib lib, std::string& why) {
  const int i = static_cast<int>(lib);
  if (s.handles[i] != nullptr) return s.handles[i];
  const VendorLibInfo& info = kLibs[i];
  if (info.soname[0] == '\0') {
    why = "the toolkit cunp was built with has no " + std::string(info.name);
    return nullptr;
  }
  for (VendorLib dep : dependencies(lib)) {
    std::string ignored;
    (void)load_locked(s, dep, ignored);  // best effort: the library's own RUNPATH may find it
  }
  auto found = [&](void* handle, const std::string& file, const char* via) {
    s.handles[i] = handle;
    s.origins[i] = {real_path(handle, file), via};
    return handle;
  };
  // RTLD_LOCAL: reached through dlsym only, so its symbols do not join the global scope
  // that libraries loaded later resolve against.
  if (void* h = dlopen(info.soname, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) return found(h, info.soname, "already loaded");
  auto try_files = [&](const std::vector<std::pair<fs::path, std::string>>& files) -> void* {
    for (const auto& [file, via] : files) {
      if (void* h = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL)) return found(h, file.string(), via.c_str());
      why += file.string() + ": " + last_dl_error() + "; ";
    }
    return nullptr;
  };
  if (void* h = try_files(env_candidates(info.soname))) return h;
  std::error_code ec;
  if (std::string(info.path) != info.soname && !build_toolkit_ignored() && fs::exists(info.path, ec)) {
    if (void* h = dlopen(info.path, RTLD_NOW | RTLD_LOCAL)) return found(h, info.path, "build toolkit");
    why += std::string(info.path) + ": " + last_dl_error() + "; ";
  }
  if (void* h = try_files(wheel_candidates(info.soname, s))) return h;
  if (void* h = dlopen(info.soname, RTLD_NOW | RTLD_LOCAL)) return found(h, info.soname, "system loader");
  why += last_dl_error();
  return nullptr;
}

}  // namespace

const VendorLibInfo& vendor_lib_info(VendorLib lib) { return kLibs[static_cast<int>(lib)]; }

std::vector<VendorLibOrigin> vendor_library_candidates(VendorLib lib) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  const VendorLibInfo& info = vendor_lib_info(lib);
  std::vector<VendorLibOrigin> out;
  if (info.soname[0] == '\0') return out;
  for (const auto& [file, via] : env_candidates(info.soname)) out.push_back({file.string(), via});
  std::error_code ec;
  if (std::string(info.path) != info.soname && !build_toolkit_ignored() && fs::exists(info.path, ec))
    out.push_back({info.path, "build toolkit"});
  for (const auto& [file, via] : wheel_candidates(info.soname, s)) out.push_back({file.string(), via});
  out.push_back({info.soname, "system loader"});
  return out;
}

void set_wheel_library_dirs(std::vector<std::string> dirs) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.wheel_dirs = std::move(dirs);
}

void* vendor_library(VendorLib lib) {
  State& s = state();
  // One lock for all: taken once per CUNP_VENDOR symbol, then never again.
  std::lock_guard lock(s.mutex);
  std::string why;
  if (void* h = load_locked(s, lib, why)) return h;
  throw CudaError("dlopen", cudaErrorSharedObjectInitFailed,
                  std::string(vendor_lib_info(lib).name) + " is not available: " + why);
}

std::optional<VendorLibOrigin> vendor_library_origin(VendorLib lib, std::string* why) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  std::string reason;
  if (load_locked(s, lib, reason) == nullptr) {
    if (why) *why = reason;
    return std::nullopt;
  }
  return s.origins[static_cast<int>(lib)];
}

void* vendor_symbol(VendorLib lib, const char* name) {
  void* handle = vendor_library(lib);
  dlerror();  // clear: a null symbol value is reported through dlerror()
  void* symbol = dlsym(handle, name);
  if (!symbol)
    throw CudaError("dlsym", cudaErrorSharedObjectSymbolNotFound,
                    std::string(vendor_lib_info(lib).name) + " has no function " + name + ": " +
                        last_dl_error());
  return symbol;
}

}  // namespace cunp::cuda

// tools/cunp_kernel_archive.cpp — compiles every built-in kernel into the kernel archive
// (src/runtime/kernel_archive.hpp, Note [Kernel archive]). Run by the build when
// CUNP_KERNEL_ARCHIVE_ARCHS is set; needs NVRTC, no GPU (except for --arch native).
//
//   cunp_kernel_archive --arch 75,80,86,89,90,100,120 [--ptx newest|none|ARCH] [--jobs N] -o cunp_kernels.bin
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <set>
#include <string>
#include <vector>

#include "builtin/builtin_kernels.hpp"
#include "runtime/kernel_archive.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "cunp/error.hpp"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: cunp_kernel_archive --arch LIST [--ptx newest|none|ARCH] [--jobs N] [--quiet] -o FILE\n"
               "  LIST: comma-separated sm_XX numbers (90,100) or 'native' (the GPUs present)\n");
  return 2;
}

// The NVRTC targets of the GPUs of this machine (none without one).
std::vector<int> native_archs() {
  std::set<int> out;
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
  for (int d = 0; d < n; ++d) {
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d) != cudaSuccess)
      continue;
    out.insert(cunp::cuda::nvrtc_target_arch(major * 10 + minor));
  }
  return {out.begin(), out.end()};
}

}  // namespace

int main(int argc, char** argv) {
  std::string archs_arg, ptx_arg = "newest", output;
  cunp::cuda::ArchiveBuildOptions options;
  options.verbose = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string(); };
    if (a == "--arch") archs_arg = value();
    else if (a == "--ptx") ptx_arg = value();
    else if (a == "--jobs") options.jobs = std::atoi(value().c_str());
    else if (a == "-o") output = value();
    else if (a == "--quiet") options.verbose = false;
    else return usage();
  }
  if (archs_arg.empty() || output.empty()) return usage();
  try {
    std::vector<int> archs;
    if (archs_arg == "native") {
      archs = native_archs();
      if (archs.empty()) std::fprintf(stderr, "cunp kernel archive: no GPU here ('native'): the archive is empty\n");
    } else {
      std::string item;
      for (std::size_t i = 0; i <= archs_arg.size(); ++i) {
        if (i == archs_arg.size() || archs_arg[i] == ',' || archs_arg[i] == ';') {
          if (!item.empty()) {
            const int arch = std::atoi(item.c_str() + (item.rfind("sm_", 0) == 0 ? 3 : 0));
            const std::vector<int>& supported = cunp::cuda::nvrtc_supported_archs();
            if (std::find(supported.begin(), supported.end(), arch) == supported.end()) {
              std::fprintf(stderr, "cunp kernel archive: NVRTC %d cannot generate sm_%s\n",
                           cunp::cuda::nvrtc_version(), item.c_str());
              return 1;
            }
            archs.push_back(arch);
          }
          item.clear();
        } else {
          item.push_back(archs_arg[i]);
        }
      }
    }
    std::sort(archs.begin(), archs.end());
    archs.erase(std::unique(archs.begin(), archs.end()), archs.end());
    if (ptx_arg == "newest") options.ptx_arch = archs.empty() ? 0 : archs.back();
    else if (ptx_arg != "none") options.ptx_arch = std::atoi(ptx_arg.c_str());
    options.archs = archs;

    const std::vector<cunp::cuda::ArchiveProgram> programs = cunp::cuda::builtin_archive_programs();
    const cunp::cuda::ArchiveBuildResult r =
        cunp::cuda::build_kernel_archive(output, archs.empty() ? std::vector<cunp::cuda::ArchiveProgram>{} : programs,
                                         options);
    std::fprintf(stderr, "cunp kernel archive: %s: %zu kernels in %zu programs, %zu images, %.1f MiB, %.1f s\n",
                 output.c_str(), r.kernels, r.programs, r.images, static_cast<double>(r.bytes) / (1 << 20), r.seconds);
  } catch (const cunp::CompileError& e) {
    std::fprintf(stderr, "cunp kernel archive: %s\n%s\n", e.what(), e.log().c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cunp kernel archive: %s\n", e.what());
    return 1;
  }
  return 0;
}

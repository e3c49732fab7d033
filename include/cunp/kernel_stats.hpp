// cunp/kernel_stats.hpp — how this process got its generated CUDA kernels.
#pragma once

#include <cstdint>
#include <string>

namespace cunp {

// Counters since the process started (docs/install.md, "Prebuilt kernels"): a fresh
// process with a matching kernel archive runs the built-in operations with
// nvrtc_compiles == 0. show_config() prints the same ("Kernel Archive", "Kernel Cache").
struct KernelCacheStats {
  std::int64_t nvrtc_compiles = 0;  // NVRTC compilations (generated and user kernels)
  std::int64_t archive_hits = 0;    // kernels loaded from the prebuilt kernel archive
  std::int64_t disk_hits = 0;       // programs read from the CUNP_CACHE_DIR cache
  std::string archive;              // the archive in use, or why there is none
};
KernelCacheStats kernel_cache_stats();

}  // namespace cunp

// src/reduce/gpu_scan_source.hpp — the CUDA source and cache keys of the scan kernels.
// gpu_scan.cpp launches them; builtin_kernels.cpp lists them for the NVRTC test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cunp/dtype.hpp"
#include "reduce/scan.hpp"

namespace cunp::reduce {

// Note [Scan kernels] (gpu_scan_templates.hpp) describes each kind.
enum class ScanKernelKind : std::uint8_t {
  LineScan,     // one thread per (line, chunk): sequential scan, plus the chunk's carry
  LineReduce,   // one thread per (line, chunk): the chunk's total
  BlockScan,    // one block per (chunk, line): tiles of 2048 scanned in shared memory
  BlockReduce,  // one block per (chunk, line): the chunk's total
  Spine,        // one thread per line: exclusive scan of its chunk totals, in place
  Chained,      // one line in one pass: tiles in start order, carries chained between tiles
};
inline constexpr int kNumScanKernelKinds = 6;

inline constexpr int kScanBlockSize = 256;                     // threads per block
inline constexpr int kScanItems = 8;                           // elements per thread and tile
inline constexpr int kScanTile = kScanBlockSize * kScanItems;  // elements per BlockScan tile
// Elements per Chained tile for a carried value of `state_bytes` bytes.
inline constexpr std::int64_t scan_chained_tile(std::size_t state_bytes) noexcept {
  return kScanBlockSize * (state_bytes <= 4 ? 16 : 8);
}

struct ScanKernelSpec {
  ScanOp op = ScanOp::Add;
  ScanMap map = ScanMap::None;
  DType in = DType::Float32;   // the input's storage dtype
  DType acc = DType::Float32;  // the output's dtype
  ScanKernelKind kind = ScanKernelKind::BlockScan;
};

// cunp_scan_<op>_<in>_<acc>_<kind>, e.g. cunp_scan_add_f4_f4_blockscan (nan maps
// prefix the op: nanadd, nanmultiply).
std::string scan_kernel_name(const ScanKernelSpec& spec);
std::string scan_preamble();
std::string scan_kernel_entry(const ScanKernelSpec& spec);
cuda::CompileOptions scan_compile_options();
cuda::KernelSource scan_kernel_source(const ScanKernelSpec& spec);
cuda::KernelKey scan_kernel_key(const ScanKernelSpec& spec, int arch) noexcept;
// Bytes of one carried value (the compute type of `acc`: float for float16).
std::size_t scan_state_bytes(DType acc) noexcept;

// The accumulator dtype cumsum/cumprod pick without dtype= (that of sum).
DType scan_default_accumulator(DType in) noexcept;
// Every kernel listed for the NVRTC test: cumsum, cumprod, nancumsum, nancumprod of
// every input dtype with its default accumulator, and maximum/minimum accumulate of
// every dtype, all kinds.
std::vector<ScanKernelSpec> builtin_scan_specs();

}  // namespace cunp::reduce

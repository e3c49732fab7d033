// src/random/random_cuda.hpp — the generated random-distribution kernels: one per
// (distribution, result dtype, words per draw), each a grid-stride loop over the groups
// of Note [Philox counter layout] calling ops::random_group, the same code as the CPU
// loop, so the values never depend on the launch configuration.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cunp/dtype.hpp"
#include "ops/random_dists.h"

namespace cunp::random {

struct RandomKernelSpec {
  int dist;  // ops::random_dist
  DType dtype;
  int words;          // 1, 2 or 4 (ops::random_words)
  bool arrays = true;  // some parameter is an array (false: scalars only, ops::random_at)
};

// Every variant the engine can launch (for the NVRTC test).
std::vector<RandomKernelSpec> random_kernel_specs();
// The kernel's extern "C" name, e.g. cunp_random_d1_f4_w2 (normal, float32, 2 words),
// with a suffix _s for the scalar-parameter variant.
std::string random_kernel_name(const RandomKernelSpec& spec);
// What every random program starts with, then one entry per kernel.
std::string_view random_kernels_preamble() noexcept;
std::string random_kernel_entry(const RandomKernelSpec& spec);
// The single-kernel program the engine compiles at run time.
cuda::KernelSource random_kernel_source(const RandomKernelSpec& spec);

// Fills out[0, n) with draw `p.key` of `spec.dist` (ops::random_group for every group:
// one group of 4 / words elements per thread and grid-stride step, stored with vector
// stores; one wave of resident blocks), on the current CUDA device and stream;
// `out` is contiguous. spec.arrays is ignored: p's pointers decide the variant.
void random_fill_cuda(void* out, std::int64_t n, const RandomKernelSpec& spec, const ops::random_params& p);

}  // namespace cunp::random

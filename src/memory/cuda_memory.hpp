// src/memory/cuda_memory.hpp — internal entry points of the CUDA memory layer: the
// per-device caching pools, the pinned host pool and CUDA storage allocation.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "cunp/device.hpp"
#include "cunp/memory.hpp"
#include "memory/caching_allocator.hpp"

namespace cunp::memory {

// The value of CUNP_GPU_MEMORY_LIMIT as bytes: a plain byte count ("1073741824") or a
// percentage of `device_total` ("50%", "12.5%"), surrounding spaces allowed. 0 means
// no limit. ValueError naming the variable for anything else.
std::size_t parse_memory_limit(std::string_view text, std::size_t device_total);

// The caching pool of CUDA device `device` (-1: the current one), created on first
// use with the limit from CUNP_GPU_MEMORY_LIMIT. CudaError without a usable GPU,
// ValueError for a device that does not exist.
CachingAllocator& device_pool(int device);
// The pool of page-locked host memory (creating it needs no GPU; allocating does).
CachingAllocator& pinned_pool();

// allocate() for a CUDA device: the selected allocator, on the device's current stream.
std::shared_ptr<Storage> allocate_cuda(Device device, std::size_t nbytes);

}  // namespace cunp::memory

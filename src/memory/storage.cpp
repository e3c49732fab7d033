// src/memory/storage.cpp — Storage, and allocate(): host memory for the cpu device,
// the CUDA allocators (src/memory/cuda_memory.cpp) for cuda devices.
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <utility>

#include "cunp/error.hpp"
#include "cunp/memory.hpp"
#include "memory/cuda_memory.hpp"

namespace cunp {

namespace {

// Note [Host alignment]: 64 bytes is a cache line and the widest SIMD load (AVX-512),
// so vectorized CPU loops never straddle lines at the start of a buffer.
constexpr std::size_t kHostAlignment = 64;

std::shared_ptr<Storage> allocate_host(std::size_t nbytes) {
  if (nbytes > std::numeric_limits<std::size_t>::max() - kHostAlignment) {
    throw OutOfMemoryError(nbytes, 0, 0, "cpu");
  }
  // aligned_alloc wants a multiple of the alignment; a 0-byte request still gets a
  // unique, non-null buffer so data() can be compared and passed around.
  const std::size_t size =
      (std::max<std::size_t>(nbytes, 1) + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
  // Note [Huge pages for big host buffers]: first-touch page faults dominated large
  // cpu-device copies (2x slower than NumPy on a 256 MiB copy). Buffers of 4 MiB and
  // more are 2 MiB aligned and advised as transparent huge pages, as NumPy does.
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  const bool huge = size >= (std::size_t{4} << 20);
  const std::size_t alloc_size = huge ? (size + kHugePage - 1) / kHugePage * kHugePage : size;
  void* ptr = std::aligned_alloc(huge ? kHugePage : kHostAlignment, alloc_size);
  if (ptr == nullptr) throw OutOfMemoryError(nbytes, 0, 0, "cpu");
  if (huge) madvise(ptr, alloc_size, MADV_HUGEPAGE);  // advice only: failure is harmless
  try {
    return std::make_shared<Storage>(ptr, nbytes, Device::cpu(), [](void* p) { std::free(p); });
  } catch (...) {
    std::free(ptr);
    throw;
  }
}

}  // namespace

Storage::Storage(void* ptr, std::size_t nbytes, Device device, std::function<void(void*)> release)
    : ptr_(ptr), nbytes_(nbytes), device_(device), release_(std::move(release)) {}

Storage::~Storage() {
  if (!release_) return;
  // A destructor cannot report a failure to anyone; say it rather than terminate.
  try {
    release_(ptr_);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cunp: failed to release %zu bytes on %s: %s\n", nbytes_,
                 device_.str().c_str(), e.what());
  } catch (...) {
    std::fprintf(stderr, "cunp: failed to release %zu bytes on %s\n", nbytes_,
                 device_.str().c_str());
  }
}

std::shared_ptr<Storage> allocate(Device device, std::size_t nbytes) {
  if (device.is_cpu()) return allocate_host(nbytes);
  return memory::allocate_cuda(device, nbytes);
}

}  // namespace cunp

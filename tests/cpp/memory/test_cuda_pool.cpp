// Tests of src/memory/cuda_memory.cpp. The CudaPool tests need a GPU and skip
// without one; the rest (limit parsing, allocator selection errors, the no-GPU
// behaviour) run everywhere.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/memory.hpp"
#include "cunp/stream.hpp"
#include "memory/cuda_memory.hpp"

namespace cunp {
namespace {

constexpr std::size_t MiB = 1024 * 1024;

// ---- CUNP_GPU_MEMORY_LIMIT parsing

TEST(MemoryLimit, ParsesBytes) {
  EXPECT_EQ(memory::parse_memory_limit("1073741824", 0), 1073741824u);
  EXPECT_EQ(memory::parse_memory_limit("0", 0), 0u);
  EXPECT_EQ(memory::parse_memory_limit("  4096 ", 0), 4096u);
}

TEST(MemoryLimit, ParsesPercentOfDeviceMemory) {
  EXPECT_EQ(memory::parse_memory_limit("50%", 1000), 500u);
  EXPECT_EQ(memory::parse_memory_limit("12.5%", 1000), 125u);
  EXPECT_EQ(memory::parse_memory_limit("100%", 80 * MiB), 80 * MiB);
  EXPECT_EQ(memory::parse_memory_limit("0%", 1000), 0u);
}

TEST(MemoryLimit, BadValuesAreValueErrorsNamingTheVariable) {
  for (const char* text : {"", "   ", "abc", "-5", "1e9", "10GB", "12 34", "50%%", "150%", "%",
                           "-1%", "99999999999999999999999"}) {
    try {
      memory::parse_memory_limit(text, 1000);
      ADD_FAILURE() << "accepted \"" << text << "\"";
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find("CUNP_GPU_MEMORY_LIMIT"), std::string::npos) << e.what();
    }
  }
}

// ---- allocator selection

TEST(AllocatorSelection, DefaultIsPool) { EXPECT_EQ(get_allocator_kind(), AllocatorKind::Pool); }

TEST(AllocatorSelection, ExternalNeedsBothCallbacks) {
  EXPECT_THROW(set_allocator(AllocatorKind::External, {}), ValueError);
  ExternalAllocator only_malloc;
  only_malloc.malloc = [](std::size_t, int, void*) -> void* { return nullptr; };
  EXPECT_THROW(set_allocator(AllocatorKind::External, only_malloc), ValueError);
  EXPECT_EQ(get_allocator_kind(), AllocatorKind::Pool);
}

// ---- without a GPU

TEST(NoCuda, CudaAllocationsThrowCudaErrorSayingWhy) {
  if (cuda_device_count() != 0) GTEST_SKIP() << "a CUDA device is present";
  try {
    allocate(Device::cuda(0), 16);
    FAIL() << "expected CudaError";
  } catch (const CudaError& e) {
    EXPECT_NE(std::string(e.what()).find("no CUDA device/driver"), std::string::npos) << e.what();
  }
  EXPECT_THROW(allocate_pinned(16), CudaError);
  EXPECT_THROW(get_default_memory_pool(0), CudaError);
  // The pinned pool exists (empty) and the cpu device still works.
  EXPECT_EQ(get_default_pinned_memory_pool().total_bytes(), 0u);
  EXPECT_NE(allocate(Device::cpu(), 16)->data(), nullptr);
}

// ---- on a GPU

class CudaPool : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

// Restores the pool allocator even when a test fails halfway.
struct AllocatorScope {
  AllocatorScope(AllocatorKind kind, ExternalAllocator external = {}) {
    set_allocator(kind, std::move(external));
  }
  ~AllocatorScope() { set_allocator(AllocatorKind::Pool); }
};

struct LimitScope {
  LimitScope(MemoryPool& pool, std::size_t limit) : pool_(pool), old_(pool.get_limit()) {
    pool.set_limit(limit);
  }
  ~LimitScope() { pool_.set_limit(old_); }
  MemoryPool& pool_;
  std::size_t old_;
};

cudaMemoryType memory_type(const void* ptr) {
  cudaPointerAttributes attributes{};
  EXPECT_EQ(cudaPointerGetAttributes(&attributes, ptr), cudaSuccess);
  return attributes.type;
}

TEST_F(CudaPool, AllocationIsUsableDeviceMemory) {
  auto s = allocate(Device::cuda(0), 1000);
  ASSERT_NE(s->data(), nullptr);
  EXPECT_TRUE(s->device() == Device::cuda(0));
  EXPECT_EQ(s->nbytes(), 1000u);
  EXPECT_EQ(memory_type(s->data()), cudaMemoryTypeDevice);
  std::vector<unsigned char> host(1000, 0);
  ASSERT_EQ(cudaMemset(s->data(), 0x7f, 1000), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(host.data(), s->data(), 1000, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(host[0], 0x7f);
  EXPECT_EQ(host[999], 0x7f);
}

TEST_F(CudaPool, FreedBlockIsReused) {
  MemoryPool& pool = get_default_memory_pool(0);
  // Start from an empty pool: leftovers of other tests could merge with the block.
  pool.free_all_blocks();
  const std::size_t used_before = pool.used_bytes();
  void* first = nullptr;
  {
    auto s = allocate(Device::cuda(0), 12345);
    first = s->data();
    EXPECT_EQ(pool.used_bytes(), used_before + 12800);  // rounded to 512
  }
  EXPECT_EQ(pool.used_bytes(), used_before);
  auto again = allocate(Device::cuda(0), 12345);
  EXPECT_EQ(again->data(), first);
}

TEST_F(CudaPool, LimitGivesOutOfMemoryError) {
  MemoryPool& pool = get_default_memory_pool(0);
  pool.free_all_blocks();
  const std::size_t limit = pool.total_bytes() + 4 * MiB;
  LimitScope scope(pool, limit);
  EXPECT_EQ(pool.get_limit(), limit);
  try {
    allocate(Device::cuda(0), 64 * MiB);
    FAIL() << "expected OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_EQ(e.requested(), 64 * MiB);
    EXPECT_NE(std::string(e.what()).find(std::to_string(64 * MiB)), std::string::npos) << e.what();
  }
  EXPECT_LE(pool.total_bytes(), limit);
  // Within the limit it still works.
  EXPECT_NE(allocate(Device::cuda(0), 2 * MiB)->data(), nullptr);
}

TEST_F(CudaPool, LimitStartsFromEnvironment) {
  const char* text = std::getenv("CUNP_GPU_MEMORY_LIMIT");
  if (text == nullptr) GTEST_SKIP() << "CUNP_GPU_MEMORY_LIMIT is not set";
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  EXPECT_EQ(get_default_memory_pool(0).get_limit(), memory::parse_memory_limit(text, total_bytes));
  EXPECT_GT(get_default_memory_pool(0).get_limit(), 0u);
}

TEST_F(CudaPool, DeviceOutOfMemoryIsOutOfMemoryError) {
  const std::size_t too_much = std::size_t{1} << 50;  // 1 PiB
  EXPECT_THROW(allocate(Device::cuda(0), too_much), OutOfMemoryError);
  // The failure left the device usable.
  EXPECT_NE(allocate(Device::cuda(0), MiB)->data(), nullptr);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(CudaPool, FreeAllBlocksLowersTotalBytes) {
  MemoryPool& pool = get_default_memory_pool(0);
  allocate(Device::cuda(0), 32 * MiB).reset();
  const std::size_t total = pool.total_bytes();
  EXPECT_GE(total, 32 * MiB);
  EXPECT_GE(pool.free_bytes(), 32 * MiB);
  pool.free_all_blocks();
  EXPECT_LE(pool.total_bytes(), total - 32 * MiB);
  EXPECT_EQ(pool.free_bytes() + pool.used_bytes(), pool.total_bytes());
}

TEST_F(CudaPool, FreeOnANonDefaultStreamIsWaitedFor) {
  MemoryPool& pool = get_default_memory_pool(0);
  pool.free_all_blocks();
  const std::size_t before = pool.total_bytes();
  {
    Stream stream = Stream::create(0);
    StreamGuard guard(stream);
    auto s = allocate(Device::cuda(0), 8 * MiB);
    ASSERT_EQ(cudaMemsetAsync(s->data(), 0, 8 * MiB, static_cast<cudaStream_t>(stream.handle())),
              cudaSuccess);
  }
  EXPECT_EQ(pool.total_bytes(), before + 8 * MiB);
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(), before);
}

void CUDART_CB keep_stream_busy(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
}

// Drives the device pool directly with raw streams: a host callback holds stream s1
// busy, so the event recorded when `a` is freed cannot have completed.
TEST_F(CudaPool, StreamOrderedReuseOnRealStreams) {
  memory::CachingAllocator& pool = memory::device_pool(0);
  pool.free_all_blocks();
  const std::size_t segments_before = pool.n_segments();
  cudaStream_t s1 = nullptr;
  cudaStream_t s2 = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess);
  void* a = pool.allocate(MiB, s1);
  void* rest = pool.allocate(MiB, s1);  // fills a's segment
  ASSERT_EQ(cudaLaunchHostFunc(s1, keep_stream_busy, nullptr), cudaSuccess);
  pool.deallocate(a);
  void* b = pool.allocate(MiB, s2);
  EXPECT_NE(b, a);  // s1 is still busy
  void* b_rest = pool.allocate(MiB, s2);
  EXPECT_EQ(pool.n_segments(), segments_before + 2);
  ASSERT_EQ(cudaStreamSynchronize(s1), cudaSuccess);
  void* c = pool.allocate(MiB, s2);
  EXPECT_EQ(c, a);  // the free event has completed
  // The stream that freed a block reuses it at once, busy or not.
  ASSERT_EQ(cudaLaunchHostFunc(s1, keep_stream_busy, nullptr), cudaSuccess);
  pool.deallocate(rest);
  EXPECT_EQ(pool.allocate(MiB, s1), rest);
  for (void* p : {b, b_rest, c, rest}) pool.deallocate(p);
  pool.free_all_blocks();  // waits for s1
  EXPECT_EQ(pool.n_segments(), segments_before);
  EXPECT_EQ(cudaStreamDestroy(s1), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(s2), cudaSuccess);
}

TEST_F(CudaPool, OtherDeviceAllocationKeepsCurrentDevice) {
  if (cuda_device_count() < 2) GTEST_SKIP() << "needs two CUDA devices";
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  auto s = allocate(Device::cuda(1), 1000);
  cudaPointerAttributes attributes{};
  ASSERT_EQ(cudaPointerGetAttributes(&attributes, s->data()), cudaSuccess);
  EXPECT_EQ(attributes.device, 1);
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, 0);
  EXPECT_GT(get_default_memory_pool(1).used_bytes(), 0u);
}

TEST_F(CudaPool, InvalidDeviceIsValueError) {
  EXPECT_THROW(allocate(Device::cuda(cuda_device_count()), 16), ValueError);
  EXPECT_THROW(get_default_memory_pool(cuda_device_count() + 3), ValueError);
}

TEST_F(CudaPool, PinnedPoolAllocatesPageLockedHostMemory) {
  MemoryPool& pool = get_default_pinned_memory_pool();
  const std::size_t used_before = pool.used_bytes();
  void* first = nullptr;
  {
    auto s = allocate_pinned(1000);
    first = s->data();
    EXPECT_TRUE(s->pinned());
    EXPECT_TRUE(s->device() == Device::cpu());
    EXPECT_EQ(memory_type(s->data()), cudaMemoryTypeHost);
    std::memset(s->data(), 1, 1000);
    EXPECT_EQ(pool.used_bytes(), used_before + 1024);
  }
  EXPECT_EQ(pool.used_bytes(), used_before);
  EXPECT_EQ(allocate_pinned(1000)->data(), first);
  const std::size_t total = pool.total_bytes();
  EXPECT_GT(total, 0u);
  pool.free_all_blocks();
  EXPECT_LT(pool.total_bytes(), total);
}

TEST_F(CudaPool, ManagedAllocator) {
  MemoryPool& pool = get_default_memory_pool(0);
  const std::size_t used_before = pool.used_bytes();
  AllocatorScope scope(AllocatorKind::Managed);
  EXPECT_EQ(get_allocator_kind(), AllocatorKind::Managed);
  auto s = allocate(Device::cuda(0), 4096);
  EXPECT_EQ(memory_type(s->data()), cudaMemoryTypeManaged);
  EXPECT_EQ(pool.used_bytes(), used_before);  // not from the pool
  ASSERT_EQ(cudaMemset(s->data(), 3, 4096), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(static_cast<unsigned char*>(s->data())[4095], 3);  // host-accessible
}

TEST_F(CudaPool, DirectAllocator) {
  MemoryPool& pool = get_default_memory_pool(0);
  const std::size_t used_before = pool.used_bytes();
  AllocatorScope scope(AllocatorKind::Direct);
  auto a = allocate(Device::cuda(0), 4096);
  auto b = allocate(Device::cuda(0), 0);
  EXPECT_NE(a->data(), b->data());
  EXPECT_NE(b->data(), nullptr);
  EXPECT_EQ(memory_type(a->data()), cudaMemoryTypeDevice);
  EXPECT_EQ(pool.used_bytes(), used_before);
}

TEST_F(CudaPool, ExternalAllocator) {
  struct Calls {
    int mallocs = 0;
    int frees = 0;
    std::size_t last_size = 0;
    int last_device = -1;
    void* last_freed = nullptr;
  } calls;
  ExternalAllocator external;
  external.malloc = [&](std::size_t n, int device, void*) -> void* {
    ++calls.mallocs;
    calls.last_size = n;
    calls.last_device = device;
    void* p = nullptr;
    return cudaMalloc(&p, n == 0 ? 1 : n) == cudaSuccess ? p : nullptr;
  };
  external.free = [&](void* p, std::size_t n, int, void*) {
    ++calls.frees;
    calls.last_freed = p;
    EXPECT_EQ(n, calls.last_size);
    EXPECT_EQ(cudaFree(p), cudaSuccess);
  };
  {
    AllocatorScope scope(AllocatorKind::External, external);
    EXPECT_EQ(get_allocator_kind(), AllocatorKind::External);
    void* data = nullptr;
    {
      auto s = allocate(Device::cuda(0), 777);
      data = s->data();
      EXPECT_EQ(calls.mallocs, 1);
      EXPECT_EQ(calls.last_size, 777u);
      EXPECT_EQ(calls.last_device, 0);
      EXPECT_EQ(calls.frees, 0);
    }
    EXPECT_EQ(calls.frees, 1);
    EXPECT_EQ(calls.last_freed, data);
  }
  // An external allocator that runs out reports OutOfMemoryError.
  ExternalAllocator empty;
  empty.malloc = [](std::size_t, int, void*) -> void* { return nullptr; };
  empty.free = [](void*, std::size_t, int, void*) {};
  AllocatorScope scope(AllocatorKind::External, empty);
  EXPECT_THROW(allocate(Device::cuda(0), 16), OutOfMemoryError);
}

TEST_F(CudaPool, StorageOutlivesAllocatorSwitch) {
  // A storage made by the pool goes back to the pool after the allocator changed.
  MemoryPool& pool = get_default_memory_pool(0);
  auto s = allocate(Device::cuda(0), 4096);
  const std::size_t used = pool.used_bytes();
  AllocatorScope scope(AllocatorKind::Direct);
  s.reset();
  EXPECT_EQ(pool.used_bytes(), used - 4096);
}

// ---- pools of their own (cupy.cuda.MemoryPool(allocator=))

TEST(DeviceMemoryPool, CreatingNeedsNoGpuAndChecksTheBacking) {
  DeviceMemoryPool plain;  // cudaMalloc
  PoolBacking only_malloc;
  only_malloc.malloc = [](std::size_t, int) -> void* { return nullptr; };
  EXPECT_THROW(DeviceMemoryPool{only_malloc}, ValueError);
  plain.set_limit(1 << 20);
  EXPECT_EQ(plain.get_limit(), 1u << 20);
  plain.free_all_blocks();  // nothing created yet
  auto shared = std::make_shared<DeviceMemoryPool>(managed_pool_backing());
  set_allocator(shared);
  EXPECT_EQ(get_allocator_kind(), AllocatorKind::Pool);
  EXPECT_EQ(get_allocator_pool(), shared);
  set_allocator(AllocatorKind::Pool);
  EXPECT_EQ(get_allocator_pool(), nullptr);
  if (cuda_device_count() == 0) {
    EXPECT_THROW(plain.used_bytes(), CudaError);
    EXPECT_THROW(plain.malloc(16), CudaError);
    EXPECT_THROW(malloc_managed(16), CudaError);
  }
}

TEST_F(CudaPool, OwnPoolCachesSegmentsFromItsBacking) {
  struct Calls {
    int mallocs = 0;
    int frees = 0;
    std::size_t bytes = 0;
  };
  auto calls = std::make_shared<Calls>();
  PoolBacking backing;
  backing.malloc = [calls](std::size_t n, int device) -> void* {
    EXPECT_EQ(device, current_cuda_device());
    ++calls->mallocs;
    calls->bytes += n;
    void* p = nullptr;
    return cudaMalloc(&p, n) == cudaSuccess ? p : nullptr;
  };
  backing.free = [calls](void* p, std::size_t n, int) {
    ++calls->frees;
    calls->bytes -= n;
    EXPECT_EQ(cudaFree(p), cudaSuccess);
  };
  auto pool = std::make_shared<DeviceMemoryPool>(backing);
  {
    auto a = pool->malloc(1000);
    EXPECT_EQ(calls->mallocs, 1);
    EXPECT_EQ(pool->used_bytes(), 1024u);
    EXPECT_GE(pool->total_bytes(), 1024u);
    EXPECT_EQ(memory_type(a->data()), cudaMemoryTypeDevice);
  }
  // The freed block is cached: no new segment for the next request.
  auto b = pool->malloc(1000);
  EXPECT_EQ(calls->mallocs, 1);
  b.reset();
  pool->free_all_blocks();
  EXPECT_EQ(calls->frees, 1);
  EXPECT_EQ(calls->bytes, 0u);
  EXPECT_EQ(pool->total_bytes(), 0u);
  // Selected for every array: allocate() takes its blocks from the pool, and a storage
  // keeps the pool alive after the selection moved on.
  std::shared_ptr<Storage> kept;
  {
    AllocatorScope restore(AllocatorKind::Pool);  // back to the default pools at the end
    set_allocator(pool);
    kept = allocate(Device::cuda(0), 4096);
    EXPECT_EQ(calls->mallocs, 2);
    EXPECT_EQ(pool->used_bytes(), 4096u);
  }
  EXPECT_EQ(get_allocator_pool(), nullptr);
  std::weak_ptr<DeviceMemoryPool> weak = pool;
  pool.reset();
  kept.reset();
  EXPECT_TRUE(weak.expired());
  EXPECT_EQ(calls->bytes, 0u);  // the pool gave its segment back when it went
}

TEST_F(CudaPool, OwnPoolOverManagedMemoryAndPoolMalloc) {
  DeviceMemoryPool pool(managed_pool_backing());
  auto s = pool.malloc(1 << 20);
  EXPECT_EQ(memory_type(s->data()), cudaMemoryTypeManaged);
  static_cast<unsigned char*>(s->data())[5] = 7;  // host access to managed memory
  auto m = malloc_managed(100);
  EXPECT_EQ(memory_type(m->data()), cudaMemoryTypeManaged);
  MemoryPool& def = get_default_memory_pool(0);
  const std::size_t used = def.used_bytes();
  auto d = pool_malloc(def, 512);
  EXPECT_EQ(def.used_bytes(), used + 512);
  EXPECT_EQ(pool_malloc(pool, 512)->device(), Device::cuda(0));
  EXPECT_THROW(pool_malloc(get_default_pinned_memory_pool(), 16), ValueError);
}

}  // namespace
}  // namespace cunp

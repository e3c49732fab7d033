// Tests of src/memory/storage.cpp on the cpu device: alignment, zero-size buffers,
// and release callbacks.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include "cunp/error.hpp"
#include "cunp/memory.hpp"

namespace cunp {
namespace {

TEST(StorageCpu, AllocateIsAlignedTo64Bytes) {
  for (std::size_t n : {1u, 7u, 63u, 64u, 65u, 1000u, 4096u, 1u << 20}) {
    auto s = allocate(Device::cpu(), n);
    ASSERT_NE(s, nullptr);
    ASSERT_NE(s->data(), nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(s->data()) % 64, 0u) << n;
    EXPECT_EQ(s->nbytes(), n);
    EXPECT_TRUE(s->device() == Device::cpu());
    EXPECT_FALSE(s->pinned());
    // The whole buffer is writable and keeps what was written.
    std::memset(s->data(), 0x5a, n);
    const auto* bytes = static_cast<const unsigned char*>(s->data());
    EXPECT_EQ(bytes[0], 0x5a);
    EXPECT_EQ(bytes[n - 1], 0x5a);
  }
}

TEST(StorageCpu, ZeroBytesGivesUniqueNonNullPointers) {
  std::vector<std::shared_ptr<Storage>> storages;
  std::set<void*> pointers;
  for (int i = 0; i < 8; ++i) {
    storages.push_back(allocate(Device::cpu(), 0));
    EXPECT_NE(storages.back()->data(), nullptr);
    EXPECT_EQ(storages.back()->nbytes(), 0u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(storages.back()->data()) % 64, 0u);
    pointers.insert(storages.back()->data());
  }
  EXPECT_EQ(pointers.size(), storages.size());
}

TEST(StorageCpu, HugeAllocationThrowsOutOfMemory) {
  EXPECT_THROW(allocate(Device::cpu(), SIZE_MAX - 8), OutOfMemoryError);
}

TEST(StorageCpu, ReleaseCallbackRunsOnceWithThePointer) {
  int calls = 0;
  void* released = nullptr;
  int payload = 0;
  {
    Storage s(&payload, sizeof payload, Device::cpu(), [&](void* p) {
      ++calls;
      released = p;
    });
    EXPECT_EQ(s.data(), &payload);
    EXPECT_EQ(calls, 0);
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(released, &payload);
}

TEST(StorageCpu, ReleaseRunsWhenLastSharedOwnerGoes) {
  int calls = 0;
  int payload = 0;
  auto s = std::make_shared<Storage>(&payload, 4, Device::cpu(), [&](void*) { ++calls; });
  auto copy = s;
  s.reset();
  EXPECT_EQ(calls, 0);
  copy.reset();
  EXPECT_EQ(calls, 1);
}

TEST(StorageCpu, EmptyReleaseAndThrowingReleaseAreSafe) {
  int payload = 0;
  { Storage s(&payload, 4, Device::cpu(), nullptr); }
  bool ran = false;
  {
    Storage s(&payload, 4, Device::cpu(), [&](void*) {
      ran = true;
      throw ValueError("release failed");
    });
  }
  EXPECT_TRUE(ran);  // and the destructor swallowed the error instead of terminating
}

TEST(StorageCpu, PinnedFlag) {
  int payload = 0;
  Storage s(&payload, 4, Device::cpu(), nullptr);
  EXPECT_FALSE(s.pinned());
  s.set_pinned(true);
  EXPECT_TRUE(s.pinned());
}

}  // namespace
}  // namespace cunp

// src/cpu/simd.cpp — choosing the SIMD target of the cpu device (Note [CPU SIMD
// dispatch], simd.hpp): CUNP_CPU_SIMD, else the best target the CPU supports.
#include "cpu/simd.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <mutex>

#include "cunp/error.hpp"

#ifdef CUNP_HAVE_HWY
#include "hwy/targets.h"
#endif

namespace cunp::cpu::simd {

#ifdef CUNP_HAVE_HWY
void fill_ufunc_table(Table& t);   // simd_ufunc.cpp
void fill_reduce_table(Table& t);  // simd_reduce.cpp
#endif

namespace {

std::atomic<const Table*> g_table{nullptr};
std::mutex g_mutex;

// Builds the table of `name` ("best" when empty) and makes it current.
std::string install(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name.empty()) name = "best";
  const bool known = name == "best" || name == "scalar" || name == "sse4" || name == "avx2" || name == "avx512";
  if (!known) {
    throw ValueError("CUNP_CPU_SIMD must be one of best, scalar, sse4, avx2, avx512 (got '" + name + "')");
  }
#ifdef CUNP_HAVE_HWY
  std::int64_t cap = 0;  // the targets allowed, 0: all
#if HWY_ARCH_X86
  if (name == "sse4") cap = HWY_SSE4;
  if (name == "avx2") cap = HWY_SSE4 | HWY_AVX2;
  if (name == "avx512") cap = HWY_SSE4 | HWY_AVX2 | HWY_AVX3;
#else
  if (name != "best" && name != "scalar") name = "best";  // x86 names elsewhere: the best target
#endif
  if (name != "scalar") {
    hwy::SetSupportedTargetsForTest(0);  // the CPU's own targets
    std::int64_t targets = hwy::SupportedTargets();
    if (cap) {
      // (The static target stays: dispatch always needs one to fall back to.)
      targets = (targets & cap) | HWY_STATIC_TARGET;
      hwy::SetSupportedTargetsForTest(targets);
    }
    hwy::GetChosenTarget().Update(hwy::SupportedTargets());
    auto* t = new Table();  // never freed: a kernel may still be running from the old one
    fill_ufunc_table(*t);
    fill_reduce_table(*t);
    if (std::string(t->target) != "scalar") {
      g_table.store(t, std::memory_order_release);
      return t->target;
    }
    delete t;
  }
#endif
  g_table.store(nullptr, std::memory_order_release);
  return "scalar";
}

void init_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* env = std::getenv("CUNP_CPU_SIMD");
    std::lock_guard<std::mutex> lock(g_mutex);
    try {
      install(env ? env : "");
    } catch (const ValueError&) {
      install("");  // a bad value: the default (the import must not fail on it)
    }
  });
}

}  // namespace

const Table* table() noexcept {
  static const bool ready = (init_once(), true);
  (void)ready;
  return g_table.load(std::memory_order_acquire);
}

std::string target_name() {
  const Table* t = table();
  return t ? t->target : "scalar";
}

std::string set_target(const std::string& name) {
  (void)table();
  std::lock_guard<std::mutex> lock(g_mutex);
  return install(name);
}

}  // namespace cunp::cpu::simd

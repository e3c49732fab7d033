// tests/cpp/core/test_profiler.cpp — NVTX ranges (cunp/profiler.hpp): nested scopes open
// and close without a profiler attached; CuPy's palette wraps around.
#include <gtest/gtest.h>

#include "cunp/profiler.hpp"

namespace cunp {
namespace {

TEST(Profiler, RangesNestWithoutAProfiler) {
  profiler::range_push("outer", profiler::palette_color(0));
  {
    profiler::TimeRange inner("inner");
    profiler::TimeRange coloured("coloured", 0xff336699u);
  }
  profiler::range_pop();
  SUCCEED();
}

TEST(Profiler, PaletteWraps) {
  EXPECT_EQ(profiler::palette_color(0), 0xff00ff00u);
  EXPECT_EQ(profiler::palette_color(1), 0xff0000ffu);
  EXPECT_EQ(profiler::palette_color(7), profiler::palette_color(0));
  EXPECT_EQ(profiler::palette_color(-1), profiler::palette_color(6));
}

}  // namespace
}  // namespace cunp

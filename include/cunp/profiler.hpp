// cunp/profiler.hpp — NVTX ranges for profilers (Nsight Systems, nvprof's successors)
// and the CUDA profiler's start/stop. With no profiler attached an NVTX call costs a
// branch on a null function pointer (NVTX3 is header-only).
#pragma once

#include <cstdint>
#include <string>

namespace cunp::profiler {

// Opens a range named `message` on this thread, coloured `argb` (0xAARRGGBB; 0: the
// profiler's default colour). Ranges nest; range_pop closes the innermost.
void range_push(const std::string& message, std::uint32_t argb = 0);
void range_pop();

// CuPy's palette for time_range(color_id=): colour `color_id` modulo its size.
std::uint32_t palette_color(int color_id);

// A range for a C++ scope: opened here, closed by the destructor.
class TimeRange {
 public:
  explicit TimeRange(const std::string& message, std::uint32_t argb = 0) { range_push(message, argb); }
  ~TimeRange() { range_pop(); }
  TimeRange(const TimeRange&) = delete;
  TimeRange& operator=(const TimeRange&) = delete;
};

// cudaProfilerStart / cudaProfilerStop: the region a profiler started with
// --capture-range=cudaProfilerApi records. Python: cunpx.profiler.profile().
void start();
void stop();

}  // namespace cunp::profiler

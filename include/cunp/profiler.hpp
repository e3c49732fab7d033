// cunp/profiler.hpp — NVTX ranges for profilers (Nsight Systems, nvprof's successors)
// and the CUDA profiler's start/stop. With no profiler attached an NVTX call costs a
// branch on a null function pointer (NVTX3 is header-only).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

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

// The timings of one benchmark (Python: cunpx.profiler.benchmark's result).
struct BenchmarkResult {
  std::string name;
  std::vector<double> cpu_times;               // seconds, one per repeat
  std::vector<int> devices;                    // the CUDA devices timed
  std::vector<std::vector<double>> gpu_times;  // seconds, one row per device
  // CuPy's format: "name:    CPU:  12.345 us   +/-  0.123 (min: ... / max: ...) us    GPU-0: ..."
  std::string str() const;
};

struct BenchmarkOptions {
  int n_repeat = 10000;
  int n_warmup = 10;
  double max_duration = std::numeric_limits<double>::infinity();  // seconds
  std::optional<std::vector<int>> devices;  // default: the current CUDA device (none without a GPU)
  std::string name = "benchmark";
};

// Runs `fn` n_warmup times, then up to n_repeat times (stopping once max_duration seconds
// have passed), recording each call's host time and, per device, the time between CUDA
// events recorded on its current stream before and after the call.
BenchmarkResult benchmark(const std::function<void()>& fn, const BenchmarkOptions& options = {});

}  // namespace cunp::profiler

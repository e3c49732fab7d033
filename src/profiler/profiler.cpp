// src/profiler/profiler.cpp — cunp/profiler.hpp on NVTX3 (header-only: the calls reach a
// profiler's injection library when one is attached, and return at once otherwise).
#include "cunp/profiler.hpp"

#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/stream.hpp"

#include "runtime/check.hpp"

namespace cunp::profiler {

void range_push(const std::string& message, std::uint32_t argb) {
  if (argb == 0) {
    nvtxRangePushA(message.c_str());
    return;
  }
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.colorType = NVTX_COLOR_ARGB;
  attributes.color = argb;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message.c_str();
  nvtxRangePushEx(&attributes);
}

void range_pop() { nvtxRangePop(); }

std::uint32_t palette_color(int color_id) {
  static constexpr std::array<std::uint32_t, 7> kColors = {0xff00ff00, 0xff0000ff, 0xffffff00, 0xffff00ff,
                                                           0xff00ffff, 0xffff0000, 0xffffffff};
  const int n = static_cast<int>(kColors.size());
  return kColors[static_cast<std::size_t>(((color_id % n) + n) % n)];
}

void start() { cuda::check_cuda(cudaProfilerStart(), "cudaProfilerStart"); }

void stop() { cuda::check_cuda(cudaProfilerStop(), "cudaProfilerStop"); }

namespace {

// "    CPU:  12.345 us   +/-  0.123 (min:  12.000 / max:  13.000) us", as CuPy prints.
std::string describe(const std::string& label, const std::vector<double>& t) {
  double mean = 0, lo = INFINITY, hi = -INFINITY;
  for (double v : t) {
    mean += v;
    lo = std::fmin(lo, v);
    hi = std::fmax(hi, v);
  }
  mean /= static_cast<double>(t.size());
  double var = 0;
  for (double v : t) var += (v - mean) * (v - mean);
  const double std_dev = std::sqrt(var / static_cast<double>(t.size()));
  char buf[160];
  std::snprintf(buf, sizeof buf, "    %s: %9.3f us", label.c_str(), mean * 1e6);
  std::string s = buf;
  if (t.size() > 1) {
    std::snprintf(buf, sizeof buf, "   +/- %6.3f (min: %9.3f / max: %9.3f) us", std_dev * 1e6, lo * 1e6, hi * 1e6);
    s += buf;
  }
  return s;
}

}  // namespace

std::string BenchmarkResult::str() const {
  std::string s = name + ":" + describe("CPU", cpu_times);
  for (std::size_t k = 0; k < devices.size(); ++k) s += " " + describe("GPU-" + std::to_string(devices[k]), gpu_times[k]);
  return s;
}

BenchmarkResult benchmark(const std::function<void()>& fn, const BenchmarkOptions& options) {
  if (!fn) throw TypeError("benchmark: fn must be callable, got an empty function");
  if (options.n_repeat < 1) {
    throw ValueError("benchmark: n_repeat must be at least 1, got " + std::to_string(options.n_repeat));
  }
  if (options.n_warmup < 0) {
    throw ValueError("benchmark: n_warmup must be non-negative, got " + std::to_string(options.n_warmup));
  }
  BenchmarkResult r;
  r.name = options.name;
  if (options.devices) r.devices = *options.devices;
  else if (cuda_available()) r.devices = {current_cuda_device()};
  for (int i = 0; i < options.n_warmup; ++i) fn();
  struct Pair {
    std::unique_ptr<Event> start, end;
  };
  std::vector<std::vector<Pair>> events(r.devices.size());
  using clock = std::chrono::steady_clock;
  double spent = 0;
  for (int i = 0; i < options.n_repeat && spent < options.max_duration; ++i) {
    for (std::size_t k = 0; k < r.devices.size(); ++k) {
      DeviceGuard guard(Device::cuda(r.devices[k]));
      events[k].push_back({std::make_unique<Event>(), std::make_unique<Event>()});
      events[k].back().start->record();
    }
    const auto t0 = clock::now();
    fn();
    const auto t1 = clock::now();
    for (std::size_t k = 0; k < r.devices.size(); ++k) {
      DeviceGuard guard(Device::cuda(r.devices[k]));
      events[k].back().end->record();
    }
    r.cpu_times.push_back(std::chrono::duration<double>(t1 - t0).count());
    for (auto& row : events) row.back().end->synchronize();
    spent += std::chrono::duration<double>(clock::now() - t0).count();
  }
  r.gpu_times.resize(r.devices.size());
  for (std::size_t k = 0; k < r.devices.size(); ++k) {
    for (const Pair& p : events[k]) r.gpu_times[k].push_back(get_elapsed_time(*p.start, *p.end) * 1e-3);
  }
  return r;
}

}  // namespace cunp::profiler

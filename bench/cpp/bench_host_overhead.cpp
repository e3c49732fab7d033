// bench/cpp/bench_host_overhead.cpp — host overhead of small C++ API calls.
//
// Each workload is called N times in a loop (20,000 by default) on a 1000-element
// float32 array; the device is synchronized once at the end of the loop, and the
// median over a few loops is reported in microseconds per call. One line per
// workload, parsed by bench/bench.py (--cpp-bench):
//
//   CUNP_BENCH name=cpp_small_empty us_per_call=0.512 calls=20000 device=cuda:0
//
// Usage: cunp_bench [--calls N] [--repeats R] [--device cpu|cuda|cuda:N] [--quick] [--only NAME]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "runtime/kernel_cache.hpp"
#include "runtime/runtime.hpp"
#include "cunp/cunp.hpp"

namespace {

// Keeps the compiler from discarding a result it could prove unused.
template <typename T>
inline void escape(T& value) {
  asm volatile("" : : "g"(&value) : "memory");
}

struct Options {
  long calls = 20000;
  int repeats = 5;
  std::optional<cunp::Device> device;
  std::string only;  // run just this workload (for profiling)
};

void synchronize(const cunp::Device& device) {
  if (device.is_cuda()) cunp::device_synchronize();
}

// Median microseconds per call of `body` over `repeats` loops of `calls` calls.
double time_per_call(const std::function<void()>& body, const Options& opt, const cunp::Device& device) {
  const long warm = std::min(opt.calls, 1000L);
  for (long i = 0; i < warm; ++i) body();
  synchronize(device);
  std::vector<double> per_call;
  for (int r = 0; r < opt.repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < opt.calls; ++i) body();
    synchronize(device);
    const auto t1 = std::chrono::steady_clock::now();
    per_call.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / static_cast<double>(opt.calls));
  }
  std::sort(per_call.begin(), per_call.end());
  const std::size_t n = per_call.size();
  return n % 2 ? per_call[n / 2] : 0.5 * (per_call[n / 2 - 1] + per_call[n / 2]);
}

// Host time to issue a burst of calls, and time until the device finished them, per
// call (medians over a few bursts). A burst is short enough not to fill the launch
// queue, so issue < done means the device, not the host, sets the pace.
struct Burst {
  double issue_us = 0, done_us = 0;
};
Burst time_burst(const std::function<void()>& body, const cunp::Device& device) {
  constexpr int kCalls = 256, kBursts = 9;
  std::vector<double> issue, done;
  for (int r = 0; r < kBursts; ++r) {
    synchronize(device);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kCalls; ++i) body();
    const auto t1 = std::chrono::steady_clock::now();
    synchronize(device);
    const auto t2 = std::chrono::steady_clock::now();
    issue.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / kCalls);
    done.push_back(std::chrono::duration<double, std::micro>(t2 - t0).count() / kCalls);
  }
  std::sort(issue.begin(), issue.end());
  std::sort(done.begin(), done.end());
  return {issue[kBursts / 2], done[kBursts / 2]};
}

void report(const char* name, double us, const Options& opt, const cunp::Device& device, const Burst& burst) {
  std::printf("CUNP_BENCH name=%s us_per_call=%.4f calls=%ld device=%s burst_issue_us=%.3f burst_done_us=%.3f\n",
              name, us, opt.calls, device.str().c_str(), burst.issue_us, burst.done_us);
  std::fflush(stdout);
}

// Random float32 values in [0.5, 1.5) (a small LCG; never zeros).
std::vector<float> random_values(std::size_t n) {
  std::vector<float> v(n);
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = 0.5f + static_cast<float>((s >> 40) & 0xFFFFFF) / static_cast<float>(1 << 24);
  }
  return v;
}

// Floors of the CUDA path, to place the time of the rows above: an enqueue through
// the runtime (cudaMemsetAsync of the 4000 bytes that fill() writes), and a launch of
// a cached negate kernel through cunp's launcher (cuda::launch, Note [Driver launch])
// with no ufunc dispatch, no allocation and no layout: what cpp_small_negative_out
// adds on top of cpp_raw_launch is the ufunc front end.
template <typename Run>
void run_floors(const cunp::Device& device, const cunp::ndarray& a, cunp::ndarray& c, Run& run) {
  cunp::cuda::check_cuda(cudaSetDevice(device.index), "cudaSetDevice");
  const cudaStream_t stream = cunp::cuda::current_stream_handle();
  void* out = c.data();
  const void* in = a.data();
  run("cpp_raw_memset", [&] { cunp::cuda::check_cuda(cudaMemsetAsync(out, 0, 4000, stream), "cudaMemsetAsync"); });
  cunp::cuda::KernelKey key;
  key.op = cunp::cuda::op_id("bench.raw_negate");
  key.arch = static_cast<std::uint16_t>(cunp::cuda::device_props(device.index).target);
  const cunp::cuda::Kernel negate = cunp::cuda::get_kernel(key, [] {
    cunp::cuda::KernelSource source;
    source.kernel_name = "cunp_bench_raw_negate";
    source.source =
        "extern \"C\" __global__ void cunp_bench_raw_negate(float* out, const float* in, unsigned long long n) {\n"
        "  const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;\n"
        "  if (i < n) out[i] = -in[i];\n"
        "}\n";
    return source;
  });
  unsigned long long n = 1000;
  run("cpp_raw_launch", [&] {
    void* args[] = {&out, &in, &n};
    cunp::cuda::launch(negate, dim3(4), dim3(256), args, 0, stream);
  });
}

int usage(const char* argv0) {
  std::fprintf(stderr, "usage: %s [--calls N] [--repeats R] [--device cpu|cuda|cuda:N] [--quick] [--only NAME]\n", argv0);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  bool calls_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--calls") {
      const char* v = next();
      if (!v) return usage(argv[0]);
      opt.calls = std::max(1L, std::strtol(v, nullptr, 10));
      calls_given = true;
    } else if (arg == "--repeats") {
      const char* v = next();
      if (!v) return usage(argv[0]);
      opt.repeats = std::max(1, static_cast<int>(std::strtol(v, nullptr, 10)));
    } else if (arg == "--device") {
      const char* v = next();
      if (!v) return usage(argv[0]);
      try {
        opt.device = cunp::Device::parse(v);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "cunp_bench: %s\n", e.what());
        return 2;
      }
    } else if (arg == "--only") {
      const char* v = next();
      if (!v) return usage(argv[0]);
      opt.only = v;
    } else if (arg == "--quick") {
      if (!calls_given) opt.calls = 5000;
      opt.repeats = 3;
    } else if (arg == "-h" || arg == "--help") {
      usage(argv[0]);
      return 0;
    } else {
      return usage(argv[0]);
    }
  }

  try {
    const cunp::Device device = opt.device.value_or(cunp::current_device());
    cunp::check_device(device);
    std::printf("# cunp C++ host overhead: device %s, %ld calls x %d loops, median us/call\n",
                device.str().c_str(), opt.calls, opt.repeats);
    if (device.is_cpu() && !cunp::cuda_available()) {
      std::printf("# no usable CUDA device: %s\n", cunp::cuda_unavailable_reason().c_str());
    }
    const cunp::ArrayOptions f32{.dtype = cunp::DType::Float32, .device = device};
    const std::vector<float> values = random_values(1000);
    const cunp::ndarray a = cunp::from_host(values.data(), cunp::DType::Float32, {1000}, device);
    synchronize(device);
    auto run = [&](const char* name, const std::function<void()>& body) {
      if (opt.only.empty() || opt.only == name)
        report(name, time_per_call(body, opt, device), opt, device, time_burst(body, device));
    };

    run("cpp_small_empty", [&] { auto r = cunp::empty({1000}, f32); escape(r); });
    run("cpp_small_zeros", [&] { auto r = cunp::zeros({1000}, f32); escape(r); });
    run("cpp_small_slice_view", [&] { auto r = a.view({cunp::slice(1, -1)}); escape(r); });
    run("cpp_small_reshape", [&] { auto r = a.reshape({10, 100}); escape(r); });
    run("cpp_small_copy", [&] { auto r = a.copy(); escape(r); });
    const cunp::ndarray b = a.copy();
    run("cpp_small_add", [&] { auto r = a + b; escape(r); });
    run("cpp_small_sin", [&] { auto r = cunp::sin(a); escape(r); });
    cunp::ndarray c = cunp::empty({1000}, f32);
    const cunp::UfuncOptions into_c{.out = {c}};
    run("cpp_small_add_out", [&] { cunp::add(a, b, into_c); });
    // Pieces of the above, to place the time: a fill launch into an existing array (no
    // allocation, no ufunc dispatch), a unary ufunc into an existing array, a cast.
    run("cpp_small_fill_inplace", [&] { c.fill(cunp::Scalar(0.0f)); });
    const cunp::UfuncOptions into_c1{.out = {c}};
    run("cpp_small_negative_out", [&] { cunp::negative(a, into_c1); });
    run("cpp_small_astype", [&] { auto r = a.astype(cunp::DType::Float64); escape(r); });
    if (device.is_cuda()) run_floors(device, a, c, run);

    // The copies must have produced the input: check one, element by element.
    const std::vector<float> back = a.copy().to_vector<float>();
    if (back != values) {
      std::fprintf(stderr, "cunp_bench: a.copy() returned wrong values\n");
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cunp_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}

// src/random/random_cuda.cpp — see random_cuda.hpp.
#include "random/random_cuda.hpp"

#include <algorithm>
#include <string>

#include "cuda/kernel_common.hpp"
#include "cuda/ops_types.hpp"
#include "cunp/device.hpp"
#include "cunp/stream.hpp"

namespace cunp::random {
namespace {

constexpr DType kIntegerDTypes[] = {DType::Bool,   DType::Int8,   DType::UInt8,  DType::Int16, DType::UInt16,
                                    DType::Int32,  DType::UInt32, DType::Int64,  DType::UInt64};

}  // namespace

std::vector<RandomKernelSpec> random_kernel_specs() {
  std::vector<RandomKernelSpec> specs;
  for (bool arrays : {true, false}) {
    for (int d = 0; d < ops::rd_count; ++d) {
      if (d == ops::rd_integers) {
        for (DType dt : kIntegerDTypes)
          for (int w : {1, 2}) specs.push_back({d, dt, w, arrays});
      } else if (ops::random_int64_result(d)) {
        specs.push_back({d, DType::Int64, ops::random_words(d, false, 0), arrays});
      } else {
        for (DType dt : {DType::Float32, DType::Float64})
          specs.push_back({d, dt, ops::random_words(d, dt == DType::Float32, 0), arrays});
      }
    }
  }
  return specs;
}

std::string random_kernel_name(const RandomKernelSpec& spec) {
  return "cunp_random_d" + std::to_string(spec.dist) + "_" + std::string(cuda::ops_type_code(spec.dtype)) + "_w" +
         std::to_string(spec.words) + (spec.arrays ? "" : "_s");
}

std::string_view random_kernels_preamble() noexcept { return "#include \"random_dists.h\"\n"; }

std::string random_kernel_entry(const RandomKernelSpec& spec) {
  const std::string t(cuda::ops_type_name(spec.dtype));
  const std::string per = std::to_string(4 / spec.words);
  return "extern \"C\" __global__ void " + random_kernel_name(spec) + "(" + t +
         "* out, long long n, const __grid_constant__ cunp::ops::random_params p) {\n"
         "  const long long groups = (n + " + per + " - 1) / " + per + ";\n"
         "  for (long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x; g < groups;\n"
         "       g += gridDim.x * (long long)blockDim.x) {\n"
         "    cunp::ops::random_group<" + t + ", " + std::to_string(spec.dist) + ", " + std::to_string(spec.words) +
         ", " + (spec.arrays ? "true" : "false") + ">(out, n, p, g);\n"
         "  }\n}\n";
}

cuda::KernelSource random_kernel_source(const RandomKernelSpec& spec) {
  return {random_kernel_name(spec), std::string(random_kernels_preamble()) + random_kernel_entry(spec), {}};
}

void random_fill_cuda(void* out, std::int64_t n, const RandomKernelSpec& spec, const ops::random_params& params) {
  if (n == 0) return;
  RandomKernelSpec s = spec;
  s.arrays = params.pa || params.pb || params.plow || params.prange;
  const int device = current_cuda_device();
  const cuda::DeviceProps& props = cuda::device_props(device);
  cuda::KernelKey key;
  key.op = cuda::op_id("random");
  key.variant = (static_cast<std::uint64_t>(s.dist) * 8 + static_cast<std::uint64_t>(s.words)) * 2 + (s.arrays ? 1 : 0);
  key.dtypes[0] = static_cast<std::uint8_t>(s.dtype);
  key.ndim = 1;
  key.index_bits = 64;
  key.arch = static_cast<std::uint16_t>(props.target);
  const cuda::Kernel kernel = cuda::get_kernel(key, [&] { return random_kernel_source(s); });
  // One wave of the blocks the kernel can keep resident (Note [Resident blocks]): its
  // registers, not the thread count, bound that, and a grid past it leaves a tail wave.
  const std::int64_t groups = (n + 4 / s.words - 1) / (4 / s.words);
  const std::int64_t wanted = (groups + cuda::kKernelBlockSize - 1) / cuda::kKernelBlockSize;
  const std::int64_t blocks =
      std::clamp<std::int64_t>(wanted, 1, cuda::resident_blocks(kernel, device, cuda::kKernelBlockSize));
  long long count = n;
  ops::random_params p = params;
  void* dst = out;
  void* args[] = {&dst, &count, &p};
  cuda::launch(kernel, dim3(static_cast<unsigned>(blocks)), dim3(cuda::kKernelBlockSize), args, 0,
               static_cast<cudaStream_t>(current_stream(device).handle()));
}

}  // namespace cunp::random

// src/creation/range.cpp — the generated arange kernel.
#include "creation/range.hpp"

#include <algorithm>
#include <string>

#include "runtime/kernel_cache.hpp"
#include "cuda/ops_types.hpp"
#include "cunp/device.hpp"
#include "cunp/stream.hpp"

namespace cunp::cuda {
namespace {

constexpr int kBlock = 256;

}  // namespace

int arange_mode(DType dtype) noexcept {
  if (is_integer(dtype) || dtype == DType::Bool) return ops::arange_int;
  if (dtype == DType::Float32 || dtype == DType::Float16 || dtype == DType::Complex64) return ops::arange_f32;
  return ops::arange_f64;
}

KernelSource arange_kernel_source(DType dtype, int mode) {
  const std::string name = "cunp_arange_" + std::string(ops_type_code(dtype)) + "_m" + std::to_string(mode);
  const std::string t(ops_type_name(dtype));
  std::string src = "#include \"range.h\"\n";
  src += "extern \"C\" __global__ void " + name + "(" + t +
         "* out, long long n, cunp::ops::arange_params p) {\n"
         "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;\n"
         "       i += gridDim.x * (long long)blockDim.x) {\n"
         "    out[i] = cunp::ops::arange_element<" + t + ">(p, " + std::to_string(mode) + ", i);\n"
         "  }\n}\n";
  return {name, src, {}};
}

void arange(void* dst, DType dtype, std::int64_t n, const ops::arange_params& params, int mode) {
  if (n == 0) return;
  const int device = current_cuda_device();
  const DeviceProps& props = device_props(device);
  KernelKey key;
  key.op = op_id("arange");
  key.variant = static_cast<std::uint64_t>(mode);
  key.dtypes[0] = static_cast<std::uint8_t>(dtype);
  key.ndim = 1;
  key.index_bits = 64;
  key.arch = static_cast<std::uint16_t>(props.target);
  const Kernel kernel = get_kernel(key, [&] { return arange_kernel_source(dtype, mode); });
  const std::int64_t resident = static_cast<std::int64_t>(props.sm_count) * std::max(1, props.max_threads_per_sm / kBlock);
  const auto blocks = static_cast<unsigned>(std::clamp<std::int64_t>((n + kBlock - 1) / kBlock, 1, resident));
  long long count = n;
  ops::arange_params p = params;
  void* out = dst;
  void* args[] = {&out, &count, &p};
  launch(kernel, dim3(blocks), dim3(kBlock), args, 0, static_cast<cudaStream_t>(current_stream(device).handle()));
}

}  // namespace cunp::cuda

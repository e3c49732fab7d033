// src/signal/upfirdn_source.cpp — see upfirdn_source.hpp.
#include "signal/upfirdn_source.hpp"

#include "cuda/ops_types.hpp"

namespace cunp::signal {

std::vector<DType> upfirdn_kernel_dtypes() {
  return {DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};
}

std::string upfirdn_kernel_name(DType dtype) {
  return "cunp_upfirdn_" + std::string(cuda::ops_type_code(dtype));
}

cuda::KernelSource upfirdn_kernel_source(DType dtype) {
  const std::string name = upfirdn_kernel_name(dtype);
  const std::string t(cuda::ops_type_name(dtype));
  std::string src = "#include \"upfirdn.h\"\n";
  src += "extern \"C\" __global__ void " + name + "(const " + t + "* __restrict__ x, " + t +
         "* __restrict__ y, const " + t +
         "* __restrict__ phases, long long rows, long long n, long long n_out, long long taps,\n"
         "    long long up, long long down, int mode, " +
         t +
         " cval, int zero_outside) {\n"
         "  const long long total = rows * n_out;\n"
         "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;\n"
         "       i += gridDim.x * (long long)blockDim.x) {\n"
         "    const long long r = i / n_out;\n"
         "    y[i] = cunp::ops::upfirdn_sample<" +
         t +
         ">(x + r * n, 1, n, phases, taps, up, down, i - r * n_out,\n"
         "                                               mode, cval, zero_outside != 0);\n"
         "  }\n}\n";
  return {name, src, {}};
}

cuda::KernelKey upfirdn_kernel_key(DType dtype, int arch) noexcept {
  cuda::KernelKey key;
  key.op = cuda::op_id("cunp.signal.upfirdn");
  key.dtypes[0] = static_cast<std::uint8_t>(dtype);
  key.ndim = 2;
  key.index_bits = 64;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

}  // namespace cunp::signal

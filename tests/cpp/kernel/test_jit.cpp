// CUNP_JIT_KERNEL (cunp/jit.hpp): the generated program, its parameters as RawKernel
// reads them, NVRTC compiles without a GPU, and launches on a CUDA device (skipped
// without one).
#include <gtest/gtest.h>

#include <string>

#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/jit.hpp"
#include "cunp/ufunc.hpp"

namespace cunp_test_jit {

CUNP_JIT_KERNEL(jit_saxpy, (float a, const float* x, float* y, int n), {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
});

// Shared memory, synchronization, atomics, shuffles, unrolled loops, string literals.
CUNP_JIT_KERNEL(jit_block_sum, (const float* x, float* total, long long n), {
  __shared__ float partial[8];
  float v = 0.0f;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)blockDim.x * gridDim.x)
    v += x[i];
  CUNP_JIT_UNROLL for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (unsigned w = 0; w < blockDim.x / warpSize; ++w) s += partial[w];
    atomicAdd(total, s);
    if (s != s) printf("NaN in block %d\n", (int)blockIdx.x);
  }
});

CUNP_JIT_KERNEL(jit_complex_scale, (complex<float> * z, float s, int n), {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = z[i] * s;
});

CUNP_JIT_KERNEL_WITH(jit_with_options, "__device__ float twice(float v) { return 2 * v; }\n",
                     (cunp::RawModuleOptions{.options = {"-DOFFSET=3", "--fmad=false"}}),
                     (float* y, int n), {
                       const int i = blockIdx.x * blockDim.x + threadIdx.x;
                       if (i < n) y[i] = twice(y[i]) + OFFSET;
                     });

}  // namespace cunp_test_jit

namespace cunp {
namespace {

using cunp_test_jit::jit_block_sum;
using cunp_test_jit::jit_complex_scale;
using cunp_test_jit::jit_saxpy;
using cunp_test_jit::jit_with_options;

TEST(JitKernel, SourceAndParameters) {
  const std::string& code = jit_saxpy.code();
  EXPECT_NE(
      code.find("extern \"C\" __global__ void jit_saxpy(float a, const float* x, float* y, int n)"),
      std::string::npos);
  EXPECT_NE(code.find("y[i] = a * x[i] + y[i];"), std::string::npos);
  EXPECT_EQ(jit_saxpy.kernel().name(), "jit_saxpy");
  const auto& params = jit_saxpy.kernel().declared_params();
  ASSERT_TRUE(params.has_value());
  ASSERT_EQ(params->size(), 4u);
  EXPECT_EQ((*params)[0].dtype, DType::Float32);
  EXPECT_EQ((*params)[1].kind, RawParamKind::Pointer);
  EXPECT_EQ((*params)[3].dtype, DType::Int32);
  EXPECT_NE(jit_block_sum.code().find("#define CUNP_JIT_UNROLL _Pragma(\"unroll\")"),
            std::string::npos);
  EXPECT_NE(jit_block_sum.code().find("__shared__ float partial[8];"),
            std::string::npos);  // as written
  EXPECT_NE(jit_block_sum.code().find("\"NaN in block %d\\n\""), std::string::npos);
  EXPECT_NE(jit_complex_scale.code().find("#include <cunp/complex.cuh>"), std::string::npos);
  EXPECT_EQ(jit_saxpy.code().find("#include"), std::string::npos);
  EXPECT_NE(jit_with_options.code().find("__device__ float twice"), std::string::npos);
  EXPECT_EQ(jit_with_options.kernel().module().options().options.size(), 2u);
}

TEST(JitKernel, CompilesWithoutGpu) {
  for (const RawKernel* k : {&jit_saxpy.kernel(), &jit_block_sum.kernel(),
                             &jit_complex_scale.kernel(), &jit_with_options.kernel()})
    EXPECT_GT(k->module().cuda_binary(90).cubin.size(), 0u) << k->name();
}

TEST(JitKernelGpu, Launches) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  DeviceGuard g(Device::cuda(0));
  const int n = 1000;
  ndarray x = arange(Scalar(n), {.dtype = DType::Float32});
  ndarray y = ones({n}, {.dtype = DType::Float32});
  jit_saxpy((n + 255) / 256, 256, {2.0f, x, y, n});
  EXPECT_TRUE(array_equal(y, add(multiply(x, 2.0f), 1.0f)));
  ndarray total = zeros({1}, {.dtype = DType::Float32});
  jit_block_sum(8, 256, {ones({1 << 16}, {.dtype = DType::Float32}), total, 1LL << 16});
  EXPECT_EQ(total.to(Device::cpu()).to_vector<float>()[0], 65536.0f);
  ndarray z = ones({n}, {.dtype = DType::Complex64});
  jit_complex_scale((n + 127) / 128, 128, {z, 3.0f, n});
  EXPECT_TRUE(
      array_equal(z, full({n}, Scalar(std::complex<double>(3, 0)), {.dtype = DType::Complex64})));
  ndarray w = ones({n}, {.dtype = DType::Float32});
  jit_with_options((n + 127) / 128, 128, {w, n});
  EXPECT_TRUE(array_equal(w, full({n}, Scalar(5.0), {.dtype = DType::Float32})));
}

}  // namespace
}  // namespace cunp

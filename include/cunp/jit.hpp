// cunp/jit.hpp — CUDA kernels written in C++ source files, without a string:
// CUNP_JIT_KERNEL turns a parameter list and a body into a RawKernel (cunp/raw_kernel.hpp)
// compiled by NVRTC at the first launch, and has the host compiler parse the same body.
//
//   CUNP_JIT_KERNEL(saxpy, (float a, const float* x, float* y, int n), {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n) y[i] = a * x[i] + y[i];
//   });
//   saxpy((n + 255) / 256, 256, {2.0f, x, y, n});   // cunp arrays and scalars, as RawKernel
//   std::cout << saxpy.code();                        // the CUDA source it compiles
#pragma once

#include <cmath>
#include <complex>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cunp/raw_kernel.hpp"

namespace cunp::jit {

// The program of one kernel: `preamble`, <cunp/complex.cuh> when the code mentions
// complex, <cuda_fp16.h> when it mentions __half, then
// `extern "C" __global__ void name params { body }`.
std::string kernel_source(std::string_view name, std::string_view preamble, std::string_view params,
                          std::string_view body);

// Note [JIT kernel host check]: the macro pastes the body a second time into a member
// function template of the host program that is never instantiated, with the names
// below in scope instead of CUDA's built-ins. The host compiler so parses the body and
// checks every expression that does not depend on a template parameter (names,
// declarations, calls of the built-ins below, types), and nothing of it is emitted.
// Device-only names outside this list (intrinsics such as __float2half) fail the host
// check: define CUNP_JIT_NO_HOST_CHECK before including this header to skip it.
namespace device_stubs {
struct uint3_stub {
  unsigned x = 0, y = 0, z = 0;
};
inline const uint3_stub threadIdx{}, blockIdx{}, blockDim{}, gridDim{};
inline constexpr int warpSize = 32;
template <typename T>
using complex = std::complex<T>;
void __syncthreads();
int __syncthreads_count(int);
int __syncthreads_and(int);
int __syncthreads_or(int);
void __syncwarp(unsigned mask = 0xffffffffu);
void __threadfence();
void __threadfence_block();
template <typename T>
T atomicAdd(T*, T);
template <typename T>
T atomicSub(T*, T);
template <typename T>
T atomicExch(T*, T);
template <typename T>
T atomicMin(T*, T);
template <typename T>
T atomicMax(T*, T);
template <typename T>
T atomicAnd(T*, T);
template <typename T>
T atomicOr(T*, T);
template <typename T>
T atomicXor(T*, T);
template <typename T>
T atomicCAS(T*, T, T);
unsigned atomicInc(unsigned*, unsigned);
unsigned atomicDec(unsigned*, unsigned);
template <typename T>
T __shfl_sync(unsigned, T, int, int = 32);
template <typename T>
T __shfl_up_sync(unsigned, T, unsigned, int = 32);
template <typename T>
T __shfl_down_sync(unsigned, T, unsigned, int = 32);
template <typename T>
T __shfl_xor_sync(unsigned, T, int, int = 32);
unsigned __ballot_sync(unsigned, int);
int __any_sync(unsigned, int);
int __all_sync(unsigned, int);
unsigned __activemask();
template <typename T>
T __ldg(const T*);
int __popc(unsigned);
int __popcll(unsigned long long);
int __clz(int);
int __ffs(int);
float __fdividef(float, float);
float __expf(float);
float __logf(float);
float __sinf(float);
float __cosf(float);
float rsqrtf(float);
double rsqrt(double);
long long clock64();
}  // namespace device_stubs

}  // namespace cunp::jit

// CUDA's qualifiers, for the host's parse of a body (empty there; NVRTC reads the text).
#if !defined(__CUDACC__) && !defined(__shared__)
#define __shared__
#endif

// `CUNP_JIT_UNROLL for (...)` is `#pragma unroll` in a kernel body (a directive cannot
// be written inside a macro argument, and the host would warn about _Pragma("unroll")).
#define CUNP_JIT_UNROLL

#ifdef CUNP_JIT_NO_HOST_CHECK
#define CUNP_JIT_HOST_CHECK(params, ...)
#else
#define CUNP_JIT_HOST_CHECK(params, ...)                 \
  template <typename T>                                  \
  using complex = ::cunp::jit::device_stubs::complex<T>; \
  template <int = 0>                                     \
  static void host_check params {                        \
    using namespace ::cunp::jit::device_stubs;           \
    __VA_ARGS__                                          \
  }
#endif

// CUNP_JIT_KERNEL(name, (parameters), body): at namespace scope, defines `name`, an
// object whose call `name(grid, block, {args...}, {.shared_mem, .stream})` launches
// the kernel (a RawKernel: cunp arrays pass their data pointer, scalars convert to the
// declared parameter types). `name.kernel()` is the RawKernel, `name.code()` its
// source. The body is the text the preprocessor gives the macro: comments are gone and
// host macros are not expanded in it (pass values as arguments, or use
// CUNP_JIT_KERNEL_WITH's preamble and -D options). The host compiler parses the body
// too (Note [JIT kernel host check]).
#define CUNP_JIT_KERNEL(name, params, ...)                                               \
  struct cunp_jit_kernel_##name {                                                        \
    CUNP_JIT_HOST_CHECK(params, __VA_ARGS__)                                             \
    CUNP_JIT_KERNEL_MEMBERS(name, "", ::cunp::RawModuleOptions{}, #params, #__VA_ARGS__) \
  };                                                                                     \
  inline constexpr cunp_jit_kernel_##name name {}

// As CUNP_JIT_KERNEL with a preamble (a string of code placed before the kernel:
// includes, __device__ helpers) and RawModuleOptions, parenthesized when they contain
// a comma: (cunp::RawModuleOptions{.options = {"-DN=4", "--use_fast_math"}}). The body
// may use the preamble's names and the -D macros, which the host does not know, so it
// is not host-checked.
#define CUNP_JIT_KERNEL_WITH(name, preamble, module_options, params, ...)          \
  struct cunp_jit_kernel_##name {                                                  \
    CUNP_JIT_KERNEL_MEMBERS(name, preamble, module_options, #params, #__VA_ARGS__) \
  };                                                                               \
  inline constexpr cunp_jit_kernel_##name name {}

// (params_text and body_text are the stringified arguments, taken before any expansion.)
#define CUNP_JIT_KERNEL_MEMBERS(name, preamble, module_options, params_text, body_text)           \
  static const ::cunp::RawKernel& kernel() {                                                      \
    static const ::cunp::RawKernel k(                                                             \
        ::cunp::jit::kernel_source(#name, preamble, params_text, body_text), #name,               \
        module_options);                                                                          \
    return k;                                                                                     \
  }                                                                                               \
  void operator()(::cunp::Dim3 grid, ::cunp::Dim3 block, const std::vector<::cunp::RawArg>& args, \
                  const ::cunp::RawLaunchOptions& launch = {}) const {                            \
    kernel()(grid, block, args, launch);                                                          \
  }                                                                                               \
  const std::string& code() const { return kernel().module().code(); }

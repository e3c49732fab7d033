// src/reduce/gpu_reduce_source.hpp — the CUDA source and cache keys of the reduction
// kernels. gpu_reduce.cpp launches them; builtin_kernels.cpp lists them for the NVRTC
// test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cunp/dtype.hpp"
#include "reduce/plan.hpp"

namespace cunp::reduce {

// Note [Reduce kernels] (gpu_reduce_templates.hpp) describes each kind.
enum class ReduceKernelKind : std::uint8_t {
  Row,         // one group of G threads (a warp .. a block) per output, tree in shared memory
  RowVector,   // Row over a contiguous reduced axis: 16-byte loads, G = 8 .. 256
  Col,         // one thread per output walking the reduced extent; grid.y splits it
  ColVector,   // Col with min(4, 16 / itemsize) adjacent outputs per thread, one vector load each
  ColFinish,   // combines the Col splits of each output, in split order
  FullVector,  // a single output, contiguous input: 16-byte loads, one partial per block
  FullStrided, // a single output, any input layout: one partial per block
  FullFinish,  // one block combines the Full partials, in block order
  FullSmall,   // a small single output, any layout: one block writes the output directly
};
inline constexpr int kNumReduceKernelKinds = 9;

// Threads per block of every reduction kernel.
inline constexpr int kReduceBlockSize = 256;
// The strided parameter blocks of the reduction kernels hold this many dims (the
// kernels loop up to the run-time ndim); 64-bit offsets throughout.
inline constexpr int kReduceMaxDims = 64;

struct ReduceKernelSpec {
  ReduceOp op = ReduceOp::Sum;
  DType in = DType::Float32;   // the input's storage dtype
  DType acc = DType::Float32;  // the output's dtype (int64 for argmax/argmin)
  ReduceKernelKind kind = ReduceKernelKind::Row;
  // var/std: the sum of |x - center|^2 (op is Sum, acc a real float dtype), the center
  // read per output from a C-ordered array of acc (complex acc for complex input).
  bool center = false;
};

// cunp_red_<op>_<in>_<acc>_<kind>, e.g. cunp_red_sum_f4_f4_row (op sqdev for center).
std::string reduce_kernel_name(const ReduceKernelSpec& spec);
// The shared part of every reduction program: includes, helpers and the kernel templates.
std::string reduce_preamble();
// The extern "C" entry of one kernel; any number may follow one preamble.
std::string reduce_kernel_entry(const ReduceKernelSpec& spec);
// --fmad=false, as for the ufunc loops.
cuda::CompileOptions reduce_compile_options();
cuda::KernelSource reduce_kernel_source(const ReduceKernelSpec& spec);
cuda::KernelKey reduce_kernel_key(const ReduceKernelSpec& spec, int arch) noexcept;
// An upper bound of the bytes of one partial state (what Col and Full write to their
// workspace): a complex128 value, a 64-bit index and a flag, 16-byte aligned.
inline constexpr std::size_t kReduceStateBytesMax = 48;

// The output dtype reduce.cpp picks without dtype= for `op` on `in` (and, for Sum,
// mean's accumulator when it differs); the (in, acc) pairs the built-in list covers.
std::vector<DType> reduce_default_accumulators(ReduceOp op, DType in);
// The accumulator of the var/std squared-deviation kernels for input `in` (float64
// for bool and integers, the real dtype of floats and complex; none for float16,
// whose var goes through the composed path).
std::vector<DType> reduce_sqdev_accumulators(DType in);
// Every kernel listed for the NVRTC test: for each op, each input dtype it accepts and
// each of its default accumulators, every kind; then the squared-deviation kernels of
// every input dtype, every kind.
std::vector<ReduceKernelSpec> builtin_reduce_specs();

}  // namespace cunp::reduce

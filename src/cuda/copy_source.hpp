// src/cuda/copy_source.hpp — the CUDA source of the copy/cast and fill kernels.
// copy.cpp launches them; builtin_kernels.cpp lists them for the NVRTC test.
#pragma once

#include <string>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cuda/kernel_common.hpp"
#include "cunp/dtype.hpp"

namespace cunp::cuda {

enum class CopyKind : std::uint8_t { Cast, Fill };

inline constexpr int kCopyBlockSize = kKernelBlockSize;  // threads per block
inline constexpr int kCopyUnroll = 4;  // 16-byte packs in flight per thread

// One kernel: (src dtype, dst dtype) or the dst dtype of a fill, the layout class and
// the index width.
struct CopyKernelSpec {
  CopyKind kind = CopyKind::Cast;
  DType dst = DType::Float32;
  DType src = DType::Float32;  // unused by Fill
  // 0: contiguous. 1..4: strided with that exact ndim (unrolled index math).
  // 8, 16, 32, 64: strided, any ndim up to the bucket (run-time loop).
  int ndim = 0;
  bool index64 = false;
};

// Elements per 16-byte pack of a contiguous kernel: 16 / the widest itemsize involved.
int copy_pack_elements(const CopyKernelSpec& spec) noexcept;

// The extern "C" name, e.g. cunp_cast_f4_f8_c_i32, cunp_fill_c8_s3_i64.
std::string copy_kernel_name(const CopyKernelSpec& spec);
// The shared part of every copy program (includes and device templates).
std::string_view copy_kernels_preamble();
// The extern "C" definition of one kernel; any number of them may follow one preamble.
std::string copy_kernel_entry(const CopyKernelSpec& spec);
// A whole program for one kernel.
KernelSource copy_kernel_source(const CopyKernelSpec& spec);
// The in-memory cache key of a kernel for sm_<arch>.
KernelKey copy_kernel_key(const CopyKernelSpec& spec, int arch) noexcept;

// The tiled transpose of bit copies whose two sides have different contiguous axes
// (Note [Transpose kernel]): one kernel per element size (1, 2, 4, 8, 16 bytes), with
// vector accesses or element accesses (unaligned views).
inline constexpr int kTransposeThreads = 256;
struct TransposeKernelSpec {
  int elem_bytes = 4;
  bool vector = true;
};
int transpose_vector_elements(int elem_bytes) noexcept;
std::vector<TransposeKernelSpec> transpose_kernel_specs();
std::string transpose_kernel_name(const TransposeKernelSpec& spec);
std::string transpose_kernel_entry(const TransposeKernelSpec& spec);  // follows copy_kernels_preamble()
KernelSource transpose_kernel_source(const TransposeKernelSpec& spec);
KernelKey transpose_kernel_key(const TransposeKernelSpec& spec, int arch) noexcept;

// The single-kernel concatenate (Note [Single-kernel concatenate]): one kernel per copy
// unit (1, 2, 4, 8, 16 bytes); at most kConcatInputs inputs per launch.
inline constexpr int kConcatInputs = 32;
std::vector<int> concat_unit_sizes();
std::string concat_kernel_name(int unit_bytes);
std::string concat_kernel_entry(int unit_bytes);  // follows copy_kernels_preamble()
KernelSource concat_kernel_source(int unit_bytes);
KernelKey concat_kernel_key(int unit_bytes, int arch) noexcept;

}  // namespace cunp::cuda

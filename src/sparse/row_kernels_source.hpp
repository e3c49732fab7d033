// src/sparse/row_kernels_source.hpp — the CUDA source and cache keys of the sparse row
// kernels (Note [Sparse row kernels]): one grid-stride entry per (function, data dtype,
// index dtype) around the code of device/csr_rows.h. row_kernels_cuda.cpp launches them;
// builtin_kernels.cpp lists them for the NVRTC compile test.
#pragma once

#include <string>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "sparse/row_kernels.hpp"

namespace cunp::sparse::detail {

// Threads per block of every row kernel.
inline constexpr int kRowKernelBlock = 256;

std::string row_kernel_name(const RowKernelSpec& spec);
// The includes every entry needs (the src/ops headers and device/csr_rows.h).
std::string row_kernels_preamble();
std::string row_kernel_entry(const RowKernelSpec& spec);
cuda::CompileOptions row_kernel_compile_options();
cuda::KernelSource row_kernel_source(const RowKernelSpec& spec);
cuda::KernelKey row_kernel_key(const RowKernelSpec& spec, int arch) noexcept;
// The data dtypes with kernels: every dtype but float16 (which sparse data never has).
std::vector<DType> row_kernel_data_dtypes();
// Every kernel the launcher can ask for: the index-only ones per index dtype, the
// others per data dtype and index dtype.
std::vector<RowKernelSpec> row_kernel_specs();

}  // namespace cunp::sparse::detail

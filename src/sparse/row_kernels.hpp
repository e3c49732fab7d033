// src/sparse/row_kernels.hpp — runs one of the functions of device/csr_rows.h over n
// items on a device: a threaded loop on the cpu device (row_kernels_cpu.cpp), a
// generated grid-stride kernel on the current stream of a CUDA device
// (row_kernels_cuda.cpp, sources in row_kernels_source.cpp). Note [Sparse row kernels].
#pragma once

#include <cstdint>

#include "cunp/device.hpp"
#include "cunp/dtype.hpp"
#include "sparse/device/csr_rows_params.h"

namespace cunp::sparse::detail {

// One entry per function of csr_rows.h (BinopCount/BinopFill are binop_row's passes).
enum class RowKernel : std::uint8_t {
  ExpandRows,      // ExpandRowsParams, items: rows
  CompressSorted,  // CompressSortedParams, items: n + 1
  RowsSorted,      // RowsSortedParams, items: rows
  ToDense,         // ToDenseParams, items: rows
  SegmentSum,      // SegmentSumParams, items: runs
  BinopCount,      // BinopParams, items: rows
  BinopFill,       // BinopParams, items: rows
  RowReduce,       // RowReduceParams, items: rows
  Diagonal,        // DiagonalParams, items: diagonal length
};
inline constexpr int kNumRowKernels = 9;

// Whether the kernel reads values (and so exists per data dtype); the others move
// indices only and are generated once per index dtype.
constexpr bool row_kernel_has_data(RowKernel k) noexcept {
  return !(k == RowKernel::ExpandRows || k == RowKernel::CompressSorted ||
           k == RowKernel::RowsSorted);
}

struct RowKernelSpec {
  RowKernel kernel = RowKernel::ExpandRows;
  DType data = DType::Bool;    // the element type T (ignored by index-only kernels)
  DType index = DType::Int32;  // I: Int32 or Int64
};

// Runs spec's function for items [0, n) on `device`; `params` points to the kernel's
// parameter struct (device pointers on a CUDA device). `work` estimates the elements
// the items touch (the cpu loop goes parallel past Note [CPU threads]' threshold).
void run_row_kernel(Device device, const RowKernelSpec& spec, std::int64_t n, const void* params,
                    std::size_t params_size, std::int64_t work);

template <typename P>
void run_row_kernel(Device device, const RowKernelSpec& spec, std::int64_t n, const P& params,
                    std::int64_t work) {
  run_row_kernel(device, spec, n, &params, sizeof(P), work);
}

// The CUDA half (row_kernels_cuda.cpp).
void run_row_kernel_cuda(int device, const RowKernelSpec& spec, std::int64_t n, const void* params,
                         std::size_t params_size);

}  // namespace cunp::sparse::detail

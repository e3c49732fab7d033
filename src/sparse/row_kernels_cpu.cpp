// src/sparse/row_kernels_cpu.cpp — the cpu side of row_kernels.hpp: the functions of
// device/csr_rows.h in a loop over the items, split across threads for large work.
#include <cstring>
#include <string>

#include "core/dispatch.hpp"
#include "cpu/parallel.hpp"
#include "cunp/error.hpp"
#include "ops/cast.h"
#include "ops/ufunc_arith.h"
#include "ops/ufunc_compare.h"
#include "sparse/device/csr_rows.h"
#include "sparse/row_kernels.hpp"

namespace cunp::sparse::detail {
namespace {

namespace so = ::cunp::sparse_ops;

using HostLoop = void (*)(std::int64_t begin, std::int64_t end, const void* params);

template <typename P, void (*F)(long long, const P&)>
void loop(std::int64_t begin, std::int64_t end, const void* params) {
  const P& p = *static_cast<const P*>(params);
  for (std::int64_t i = begin; i < end; ++i) F(i, p);
}

template <typename I>
HostLoop index_loop(RowKernel k) {
  switch (k) {
    case RowKernel::ExpandRows:
      return loop<so::ExpandRowsParams, so::expand_rows<I>>;
    case RowKernel::CompressSorted:
      return loop<so::CompressSortedParams, so::compress_sorted<I>>;
    case RowKernel::RowsSorted:
      return loop<so::RowsSortedParams, so::rows_sorted<I>>;
    default:
      return nullptr;
  }
}

template <typename T, typename I>
HostLoop data_loop(RowKernel k) {
  switch (k) {
    case RowKernel::ToDense:
      return loop<so::ToDenseParams, so::to_dense_row<T, I>>;
    case RowKernel::SegmentSum:
      return loop<so::SegmentSumParams, so::segment_sum<T, I>>;
    case RowKernel::BinopCount:
      return loop<so::BinopParams, so::binop_row<T, I, false>>;
    case RowKernel::BinopFill:
      return loop<so::BinopParams, so::binop_row<T, I, true>>;
    case RowKernel::RowReduce:
      return loop<so::RowReduceParams, so::row_reduce<T, I>>;
    case RowKernel::Diagonal:
      return loop<so::DiagonalParams, so::diagonal_entry<T, I>>;
    default:
      return nullptr;
  }
}

template <typename I>
HostLoop host_loop(const RowKernelSpec& spec) {
  if (!row_kernel_has_data(spec.kernel)) return index_loop<I>(spec.kernel);
  return dispatch_dtype(spec.data, [&]<typename T>() -> HostLoop {
    if constexpr (std::is_same_v<T, ops::half>) {
      return nullptr;  // float16 sparse data is rejected before any kernel runs
    } else {
      return data_loop<T, I>(spec.kernel);
    }
  });
}

}  // namespace

void run_row_kernel(Device device, const RowKernelSpec& spec, std::int64_t n, const void* params,
                    std::size_t params_size, std::int64_t work) {
  if (n <= 0) return;
  if (device.is_cuda()) return run_row_kernel_cuda(device.index, spec, n, params, params_size);
  HostLoop fn = spec.index == DType::Int64 ? host_loop<ops::i64>(spec) : host_loop<ops::i32>(spec);
  if (!fn) throw TypeError("no sparse row kernel for dtype " + std::string(name(spec.data)));
  cpu::parallel_ranges(n, work, [&](std::int64_t b, std::int64_t e) { fn(b, e, params); });
}

}  // namespace cunp::sparse::detail

// src/sparse/cpu_solve.cpp — triangular solves on the cpu device (see cpu_loops.hpp):
// forward (lower) or backward (upper) substitution over the rows of a canonical CSR, one
// right-hand side per thread.
#include <cstring>

#include "core/dispatch.hpp"
#include "cpu/parallel.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "ops/cast.h"
#include "ops/ufunc_arith.h"
#include "sparse/cpu_loops.hpp"

namespace cunp::sparse::detail {
namespace {

template <typename T, typename I>
void substitute(const Csr& a, const char* b, std::int64_t b_stride, T* x, bool lower, bool unit) {
  const T* d = static_cast<const T*>(a.data.data());
  const I* ix = static_cast<const I*>(a.indices.data());
  const I* ip = static_cast<const I*>(a.indptr.data());
  const std::int64_t n = a.shape.rows;
  for (std::int64_t s = 0; s < n; ++s) {
    const std::int64_t i = lower ? s : n - 1 - s;
    T acc;
    std::memcpy(&acc, b + i * b_stride, sizeof acc);
    T diag = ops::cast<T>(1);
    for (I k = ip[i]; k < ip[i + 1]; ++k) {
      const std::int64_t j = ix[k];
      if (j == i)
        diag = d[k];
      else if (lower ? j < i : j > i)
        acc = ops::subtract{}(acc, ops::multiply{}(d[k], x[j]));
    }
    x[i] = unit ? acc : ops::true_divide{}(acc, diag);
  }
}

}  // namespace

ndarray spsolve_triangular_cpu(const Csr& a, const ndarray& b, bool lower, bool unit_diagonal) {
  const std::int64_t n = a.shape.rows;
  const std::int64_t k = b.ndim() == 2 ? b.shape()[1] : 1;
  // x is built column by column (F order), then returned with b's shape.
  ndarray x = empty({n, k}, {.dtype = a.data.dtype(), .order = Order::F, .device = a.device});
  const std::int64_t b_row = b.strides()[0];
  const std::int64_t b_col = b.ndim() == 2 ? b.strides()[1] : 0;
  dispatch_dtype(a.data.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, ops::f32> || std::is_same_v<T, ops::f64> ||
                  std::is_same_v<T, ops::c64> || std::is_same_v<T, ops::c128>) {
      T* xs = static_cast<T*>(x.data());
      const char* bs = static_cast<const char*>(b.data());
      cpu::parallel_ranges(k, (a.nnz() + n) * k, [&](std::int64_t jb, std::int64_t je) {
        for (std::int64_t j = jb; j < je; ++j) {
          if (a.index == DType::Int64)
            substitute<T, ops::i64>(a, bs + j * b_col, b_row, xs + j * n, lower, unit_diagonal);
          else
            substitute<T, ops::i32>(a, bs + j * b_col, b_row, xs + j * n, lower, unit_diagonal);
        }
      });
    } else {
      throw TypeError(
          "spsolve_triangular computes in float32, float64, complex64 or complex128, not " +
          std::string(name(a.data.dtype())));
    }
  });
  return b.ndim() == 1 ? x.reshape({n}) : x;
}

}  // namespace cunp::sparse::detail

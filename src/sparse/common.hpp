// src/sparse/common.hpp — what every sparse routine does first: checks a matrix's
// arrays (ranks, lengths, one device, dtypes), brings them to contiguous arrays with one
// index dtype, and small helpers over cunp arrays shared by the routines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cunp/ndarray.hpp"
#include "cunp/sparse.hpp"
#include "sparse/row_kernels.hpp"

namespace cunp::sparse::detail {

// A checked CSR (or CSC, read as CSR of the transpose): contiguous 1-d arrays, indices
// and indptr both of dtype `index` (int32 or int64).
struct Csr {
  ndarray data, indices, indptr;
  MatrixShape shape;
  DType index = DType::Int32;
  Device device = Device::cpu();
  std::int64_t nnz() const noexcept { return indices.size(); }
  csr_matrix matrix() const { return {data, indices, indptr, shape}; }
};

// ValueError/TypeError naming `who` when the arrays do not form a CSR of `shape`
// (compressed over `major`, "row" or "column", for the messages); float16 data is a
// ValueError, as SciPy says. `index`: the index dtype to bring both index arrays to
// (nullopt: int64 when either is 64-bit or the sizes need it, else int32).
Csr prepare(const ndarray& data, const ndarray& indices, const ndarray& indptr, MatrixShape shape,
            const char* who, std::optional<DType> index = std::nullopt);
inline Csr prepare(const csr_matrix& a, const char* who,
                   std::optional<DType> index = std::nullopt) {
  return prepare(a.data, a.indices, a.indptr, a.shape, who, index);
}
// The same CSR with its index arrays cast to `index` (no copy when they already are).
Csr with_index(const Csr& a, DType index);
// The same CSR with data cast to `dtype` (no copy when it already is).
Csr with_data(const Csr& a, DType dtype);

// ValueError unless dt may be sparse data (every dtype but float16).
void check_data_dtype(DType dt, const char* who);
// A 1-d integer array (any integer dtype) as a contiguous int32 or int64 array;
// TypeError/ValueError naming `what` otherwise.
ndarray as_index_array(const ndarray& a, const char* what, const char* who);
// The wider of two index dtypes.
inline DType wider_index(DType a, DType b) {
  return a == DType::Int64 || b == DType::Int64 ? DType::Int64 : DType::Int32;
}
// ValueError when b is not on `device`.
void check_device(const ndarray& b, Device device, const char* who);

// Array helpers on an explicit device (creation functions default to the current one).
ndarray empty_on(std::int64_t n, DType dt, Device device);
ndarray zeros_on(std::int64_t n, DType dt, Device device);
ndarray arange_on(std::int64_t n, DType dt, Device device);
// [0, cumsum(x)...] as int64 (n + 1 entries for n counts).
ndarray prefix_sums(const ndarray& counts);
// Gather without bounds checks (the positions come from the routines themselves).
ndarray gather(const ndarray& a, const ndarray& positions);
// The last element of a 1-d array as an int64 (reads it back: synchronizes).
std::int64_t last_value(const ndarray& a);

// The row of every entry (CSR -> COO), of a's index dtype.
ndarray expand_rows(const Csr& a);
// The same for any indptr (int32 or int64) of `total` entries.
ndarray expand_indptr(const ndarray& indptr, std::int64_t total);
// The entries of `a` where `keep` (bool, one per entry) is true, in their order (a copy).
Csr filter_entries(const Csr& a, const ndarray& keep);
// The indptr (m + 1 entries, of dtype `index`) of n ascending major indices in [0, m).
ndarray compress_sorted(const ndarray& major, std::int64_t m, DType index);

RowKernelSpec spec(RowKernel k, DType data, DType index);

// The CSR on the cpu device (a copy), and a result brought back to `device`: the
// cuda paths of routines cuSPARSE has no kernel for (integer and bool products).
Csr to_cpu(const Csr& a);
csr_matrix to_device(const csr_matrix& a, Device device);

}  // namespace cunp::sparse::detail

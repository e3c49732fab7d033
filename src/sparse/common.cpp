// src/sparse/common.cpp — see common.hpp.
#include "sparse/common.hpp"

#include <limits>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"

namespace cunp::sparse::detail {
namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

void check_rank1(const ndarray& a, const char* what, const char* who) {
  if (!a.defined()) throw ValueError(std::string(who) + ": " + what + " is missing");
  if (a.ndim() != 1)
    throw ValueError(std::string(who) + ": " + what + " must be 1-d, not " + str(a.ndim()) + "-d");
}

}  // namespace

void check_data_dtype(DType dt, const char* who) {
  if (dt == DType::Float16)
    throw ValueError(std::string(who) + ": scipy.sparse does not support dtype float16");
}

void check_device(const ndarray& b, Device device, const char* who) {
  if (b.device() != device)
    throw ValueError(std::string(who) + ": arrays are on different devices (" + device.str() +
                     " and " + b.device().str() + ")");
}

ndarray as_index_array(const ndarray& a, const char* what, const char* who) {
  check_rank1(a, what, who);
  if (!is_integer(a.dtype()))
    throw TypeError(std::string(who) + ": " + what + " must be an integer array, not " +
                    std::string(name(a.dtype())));
  const bool wide = itemsize(a.dtype()) == 8 || a.dtype() == DType::UInt32;
  return ascontiguousarray(a, wide ? DType::Int64 : DType::Int32);
}

Csr prepare(const ndarray& data, const ndarray& indices, const ndarray& indptr, MatrixShape shape,
            const char* who, std::optional<DType> index) {
  check_rank1(data, "data", who);
  check_rank1(indices, "indices", who);
  check_rank1(indptr, "indptr", who);
  if (shape.rows < 0 || shape.cols < 0)
    throw ValueError(std::string(who) + ": negative dimensions (" + str(shape.rows) + ", " +
                     str(shape.cols) + ")");
  if (indptr.size() != shape.rows + 1)
    throw ValueError(std::string(who) + ": index pointer size (" + str(indptr.size()) +
                     ") should be (" + str(shape.rows + 1) + ")");
  if (indices.size() != data.size())
    throw ValueError(std::string(who) + ": indices and data should have the same size (" +
                     str(indices.size()) + " and " + str(data.size()) + ")");
  const Device device = data.device();
  check_device(indices, device, who);
  check_device(indptr, device, who);
  check_data_dtype(data.dtype(), who);
  ndarray ix = as_index_array(indices, "indices", who);
  ndarray ip = as_index_array(indptr, "indptr", who);
  DType dt =
      index.value_or(sparse::index_dtype(data.size(), shape, wider_index(ix.dtype(), ip.dtype())));
  Csr out;
  out.data = ascontiguousarray(data);
  out.indices = ix.dtype() == dt ? ix : ix.astype(dt);
  out.indptr = ip.dtype() == dt ? ip : ip.astype(dt);
  out.shape = shape;
  out.index = dt;
  out.device = device;
  return out;
}

Csr with_index(const Csr& a, DType index) {
  if (a.index == index) return a;
  Csr out = a;
  out.indices = a.indices.astype(index);
  out.indptr = a.indptr.astype(index);
  out.index = index;
  return out;
}

Csr with_data(const Csr& a, DType dtype) {
  if (a.data.dtype() == dtype) return a;
  Csr out = a;
  out.data = a.data.astype(dtype);
  return out;
}

ndarray empty_on(std::int64_t n, DType dt, Device device) {
  return empty({n}, {.dtype = dt, .device = device});
}
ndarray zeros_on(std::int64_t n, DType dt, Device device) {
  return zeros({n}, {.dtype = dt, .device = device});
}
ndarray arange_on(std::int64_t n, DType dt, Device device) {
  return arange(Scalar(n), {.dtype = dt, .device = device});
}

ndarray prefix_sums(const ndarray& counts) {
  const ndarray head = zeros_on(1, DType::Int64, counts.device());
  if (counts.size() == 0) return head;
  const ndarray parts[] = {head, cumsum(counts, {.dtype = DType::Int64})};
  return concatenate(parts);
}

ndarray gather(const ndarray& a, const ndarray& positions) {
  if (positions.size() == 0) return empty_on(0, a.dtype(), a.device());
  return take(a, positions, std::nullopt, ClipMode::Clip);
}

std::int64_t last_value(const ndarray& a) { return a.item(a.size() - 1).to_int64(); }

RowKernelSpec spec(RowKernel k, DType data, DType index) {
  return {.kernel = k, .data = data, .index = index};
}

ndarray expand_indptr(const ndarray& indptr, std::int64_t total) {
  const DType index = indptr.dtype();
  ndarray row = empty_on(total, index, indptr.device());
  const sparse_ops::ExpandRowsParams p{indptr.data(), row.data()};
  const std::int64_t rows = indptr.size() - 1;
  run_row_kernel(indptr.device(), spec(RowKernel::ExpandRows, DType::Bool, index), rows, p,
                 total + rows);
  return row;
}

ndarray expand_rows(const Csr& a) { return expand_indptr(a.indptr, a.nnz()); }

Csr filter_entries(const Csr& a, const ndarray& keep) {
  Csr out = a;
  if (a.nnz() == 0) {
    out.indptr = a.indptr.copy();
    return out;
  }
  const ndarray where = flatnonzero(keep);
  if (where.size() == a.nnz()) {
    out.data = a.data.copy();
    out.indices = a.indices.copy();
    out.indptr = a.indptr.copy();
    return out;
  }
  // Entries kept before each row start: the new indptr.
  out.indptr = gather(prefix_sums(keep), a.indptr).astype(a.index);
  out.data = gather(a.data, where);
  out.indices = gather(a.indices, where);
  return out;
}

ndarray compress_sorted(const ndarray& major, std::int64_t m, DType index) {
  const ndarray mj = major.dtype() == index ? ascontiguousarray(major) : major.astype(index);
  ndarray indptr = empty_on(m + 1, index, major.device());
  const sparse_ops::CompressSortedParams p{mj.data(), indptr.data(), major.size(), m};
  run_row_kernel(major.device(), spec(RowKernel::CompressSorted, DType::Bool, index),
                 major.size() + 1, p, major.size() + m);
  return indptr;
}

Csr to_cpu(const Csr& a) {
  Csr out = a;
  out.data = a.data.to(Device::cpu(), true);
  out.indices = a.indices.to(Device::cpu(), true);
  out.indptr = a.indptr.to(Device::cpu(), true);
  out.device = Device::cpu();
  return out;
}

csr_matrix to_device(const csr_matrix& a, Device device) {
  return {a.data.to(device), a.indices.to(device), a.indptr.to(device), a.shape};
}

}  // namespace cunp::sparse::detail

namespace cunp::sparse {

DType index_dtype(std::int64_t nnz, MatrixShape shape, DType at_least) {
  if (at_least == DType::Int64) return DType::Int64;
  const bool fits = nnz <= detail::kInt32Max && shape.rows <= detail::kInt32Max &&
                    shape.cols <= detail::kInt32Max;
  return fits ? DType::Int32 : DType::Int64;
}

}  // namespace cunp::sparse

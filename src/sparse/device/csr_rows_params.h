// src/sparse/device/csr_rows_params.h — the parameter structs of the functions of
// csr_rows.h (Note [Sparse row kernels]): plain pointers and sizes, the same bytes for
// the host code that fills them and for the kernels and cpu loops that read them.
// Includes nothing, so host code can use it without src/ops.
#pragma once

namespace cunp {
namespace sparse_ops {

// The operations of binop_row, in BinaryOp's order (include/cunp/sparse.hpp).
enum BinopCode {
  kBinAdd = 0,
  kBinSubtract,
  kBinMultiply,
  kBinMaximum,
  kBinMinimum,
  kBinNotEqual,
  kBinLess,
  kBinGreater
};

enum RowReduceCode { kRedSum = 0, kRedMax, kRedMin, kRedArgMax, kRedArgMin };

struct ExpandRowsParams {
  const void* indptr;
  void* out;
};

struct CompressSortedParams {
  const void* major;
  void* indptr;
  long long n, m;
};

struct RowsSortedParams {
  const void* indptr;
  const void* indices;
  void* flags;  // bool
  int strict;
};

struct ToDenseParams {
  const void* data;
  const void* indices;
  const void* indptr;
  void* out;
  long long row_stride, col_stride;
};

struct SegmentSumParams {
  const void* data;
  const void* perm;
  const void* starts;
  void* out;
};

struct BinopParams {
  const void* a_data;
  const void* a_indices;
  const void* a_indptr;
  const void* b_data;
  const void* b_indices;
  const void* b_indptr;
  void* counts;
  const void* out_indptr;
  void* out_data;
  void* out_indices;
  int op;
};

struct RowReduceParams {
  const void* data;
  const void* indices;
  const void* indptr;
  void* out;
  long long line;
  int op;
  int explicit_only;
};

struct DiagonalParams {
  const void* data;
  const void* indices;
  const void* indptr;
  void* out;
  long long row0, col0;
};

}  // namespace sparse_ops
}  // namespace cunp

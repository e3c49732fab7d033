// src/sparse/format.cpp — the format-level functions of cunp/sparse.hpp: transposes,
// the name parsers and check_format.
#include <string>

#include "cunp/error.hpp"
#include "cunp/reduce.hpp"
#include "cunp/sparse.hpp"
#include "cunp/ufunc.hpp"
#include "sparse/common.hpp"

namespace cunp::sparse {

csc_matrix transpose(const csr_matrix& a) {
  return {a.data, a.indices, a.indptr, {a.shape.cols, a.shape.rows}};
}
csr_matrix transpose(const csc_matrix& a) {
  return {a.data, a.indices, a.indptr, {a.shape.cols, a.shape.rows}};
}

Operation parse_operation(std::string_view text) {
  if (text == "N" || text == "n") return Operation::N;
  if (text == "T" || text == "t") return Operation::T;
  if (text == "H" || text == "h" || text == "C" || text == "c") return Operation::H;
  throw ValueError("operation must be 'N', 'T' or 'H', not '" + std::string(text) + "'");
}

BinaryOp parse_binary_op(std::string_view name) {
  static constexpr std::pair<std::string_view, BinaryOp> kNames[] = {
      {"add", BinaryOp::Add},           {"subtract", BinaryOp::Subtract},
      {"multiply", BinaryOp::Multiply}, {"maximum", BinaryOp::Maximum},
      {"minimum", BinaryOp::Minimum},   {"not_equal", BinaryOp::NotEqual},
      {"less", BinaryOp::Less},         {"greater", BinaryOp::Greater},
  };
  for (const auto& [n, op] : kNames)
    if (n == name) return op;
  throw ValueError("unknown sparse elementwise operation '" + std::string(name) + "'");
}

ReduceOp parse_reduce_op(std::string_view name) {
  if (name == "max") return ReduceOp::Max;
  if (name == "min") return ReduceOp::Min;
  if (name == "argmax") return ReduceOp::ArgMax;
  if (name == "argmin") return ReduceOp::ArgMin;
  throw ValueError("unknown sparse reduction '" + std::string(name) + "'");
}

void check_format(const csr_matrix& a, bool full_check) {
  const detail::Csr m = detail::prepare(a, "check_format");
  if (!full_check) return;
  const std::int64_t first = m.indptr.item(0).to_int64();
  if (first != 0) throw ValueError("index pointer should start with 0");
  const std::int64_t last = detail::last_value(m.indptr);
  if (last != m.nnz())
    throw ValueError("last value of index pointer (" + std::to_string(last) +
                     ") should equal the size of index and data "
                     "arrays (" +
                     std::to_string(m.nnz()) + ")");
  if (m.shape.rows > 0 && cunp::any(cunp::less(cunp::diff(m.indptr), 0)).item().to_bool())
    throw ValueError("index pointer values must form a non-decreasing sequence");
  if (m.nnz() > 0) {
    if (cunp::max(m.indices).item().to_int64() >= m.shape.cols)
      throw ValueError("column index values must be < " + std::to_string(m.shape.cols));
    if (cunp::min(m.indices).item().to_int64() < 0)
      throw ValueError("column index values must be >= 0");
  }
}

}  // namespace cunp::sparse

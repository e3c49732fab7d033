// src/reduce/scan.hpp — the engines of the scans (cumsum, cumprod, their nan variants
// and ufunc.accumulate): the operations, the line layout every engine walks, and the
// CPU / CUDA entry points.
#pragma once

#include <cstdint>
#include <string_view>

#include "cunp/ndarray.hpp"
#include "iter/layout.hpp"

namespace cunp::reduce {

// The combining operations of the scans: the ufuncs that accumulate.
enum class ScanOp : std::uint8_t {
  Add,
  Multiply,
  Maximum,
  Minimum,
  FMax,
  FMin,
  LogicalAnd,
  LogicalOr,
  LogicalXor,
  BitwiseAnd,
  BitwiseOr,
  BitwiseXor,
};
inline constexpr int kNumScanOps = 12;

// What a loaded value turns into before combining: itself, NaN → 0 (nancumsum) or
// NaN → 1 (nancumprod).
enum class ScanMap : std::uint8_t { None, NanZero, NanOne };

// NumPy's ufunc name ("add", "bitwise_xor").
std::string_view scan_op_ufunc_name(ScanOp op) noexcept;
// The src/ops functor, as generated source spells it ("cunp::ops::maximum_f16" for a
// float16 accumulator).
std::string_view scan_op_functor(ScanOp op, DType acc) noexcept;

// Note [Scan layout]: a scan along one axis is a set of independent lines. `lines`
// walks the other axes with operand 0 the output and operand 1 the input (sorted and
// coalesced like any loop; empty for a single line); each line has `n` elements, the
// k-th at byte offset k * out_stride / k * in_stride from the line's base.
struct ScanLayout {
  iter::LoopLayout lines;
  std::int64_t n = 0;
  std::int64_t out_stride = 0;
  std::int64_t in_stride = 0;
};
// The layout of a scan of `in` into `out` (same shape) along `axis` (normalized).
ScanLayout make_scan_layout(const ndarray& in, const ndarray& out, int axis);

// Scans every line of `in` into `out` (the accumulator dtype): out[k] = op(out[k-1],
// map(in[k])). CPU: `in` already has the accumulator dtype; lines run sequentially,
// split across threads when there are many elements. CUDA: `in` may have any dtype
// (converted in the kernel); enqueued on the current stream of the input's device.
void cpu_scan(ScanOp op, ScanMap map, const ScanLayout& layout, const ndarray& in,
              const ndarray& out);
void gpu_scan(ScanOp op, ScanMap map, const ScanLayout& layout, const ndarray& in,
              const ndarray& out);

}  // namespace cunp::reduce
